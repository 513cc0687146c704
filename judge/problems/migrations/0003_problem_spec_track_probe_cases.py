"""The engine owns a problem's grading fields: one JSON ``spec`` instead of six columns; tracks; probe cases."""

from django.db import migrations, models

COLUMNS = ("time_limit_s", "memory_mb", "rtol", "atol")


def columns_to_spec(apps, schema_editor):
    Problem = apps.get_model("problems", "Problem")
    for problem in Problem.objects.all():
        problem.spec = {
            "function": problem.function_name,
            "params": list(problem.params),
            **{name: getattr(problem, name) for name in COLUMNS},
            "kinds": {},
            "budget_s": None,
            "probes": [],
        }
        problem.save(update_fields=["spec"])


def spec_to_columns(apps, schema_editor):
    Problem = apps.get_model("problems", "Problem")
    for problem in Problem.objects.all():
        problem.function_name, problem.params = problem.spec["function"], problem.spec["params"]
        for name in COLUMNS:
            setattr(problem, name, problem.spec[name])
        problem.save(update_fields=["function_name", "params", *COLUMNS])


class Migration(migrations.Migration):
    dependencies = [("problems", "0002_authoring_drafts_gate_known_wrong")]

    operations = [
        migrations.AddField("problem", "spec", models.JSONField(default=dict)),
        migrations.AddField("problem", "track", models.CharField(blank=True, max_length=60)),
        migrations.AddField("testcase", "probe", models.BooleanField(default=False)),
        migrations.RunPython(columns_to_spec, spec_to_columns),
        *[migrations.RemoveField("problem", name) for name in ("function_name", "params", *COLUMNS)],
    ]
