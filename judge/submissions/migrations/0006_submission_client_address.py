from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("submissions", "0004_submission_client_key")]

    operations = [
        migrations.AddField("submission", "client_address", models.CharField(blank=True, default="", max_length=64)),
    ]
