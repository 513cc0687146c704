from django.db import migrations


def build(apps, schema_editor) -> None:
    """A site that already has submissions gets its standings at once (as ``manage.py rebuild_standings``)."""
    if not apps.get_model("submissions", "Submission").objects.exists():
        return
    from judge.standings.services import rebuild_standings

    rebuild_standings()


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0001_initial"),
        ("accounts", "0001_initial"),
        ("submissions", "0001_initial"),
    ]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
