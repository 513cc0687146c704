from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("problems", "0003_problem_spec_track_probe_cases")]

    operations = [migrations.AddField("testcase", "fd_expected", models.BinaryField(blank=True, null=True))]
