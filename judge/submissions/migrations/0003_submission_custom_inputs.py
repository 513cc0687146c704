from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("submissions", "0002_submission_properties")]

    operations = [
        migrations.AddField("submission", "custom_inputs", models.JSONField(blank=True, null=True)),
        migrations.AddField("submission", "custom_expected", models.BinaryField(blank=True, null=True)),
        migrations.AddField("submission", "custom_error", models.TextField(blank=True, default="")),
    ]
