from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("submissions", "0005_submission_draw")]

    operations = [
        migrations.AddField("submission", "client_address", models.CharField(blank=True, default="", max_length=64)),
    ]
