# The profile's calendar: a student's Submits per day, counted from the index (judge/standings/progress.py).

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("problems", "0005_testcase_variant"),
        ("submissions", "0006_submission_client_address"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="submission",
            index=models.Index(fields=["user", "kind", "created_at"], name="submission_calendar"),
        ),
    ]
