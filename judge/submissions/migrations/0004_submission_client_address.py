from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("submissions", "0003_submission_custom_inputs")]

    operations = [
        migrations.AddField("submission", "client_address", models.CharField(blank=True, default="", max_length=64)),
    ]
