from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("submissions", "0001_initial")]

    operations = [migrations.AddField("submission", "properties", models.JSONField(blank=True, default=list))]
