"""The leaderboard's name search on PostgreSQL: a trigram index on the upper-cased username.

``ranking.found_rows`` asks for ``username__icontains``, which Django writes as
``UPPER(username::text) LIKE UPPER('%...%')``: without this index every search read all of ``auth_user``
(115 ms at 100k students).  A GIN index over trigrams (the ``pg_trgm`` extension, shipped with PostgreSQL)
answers a LIKE with a pattern of three or more characters.  SQLite, the embedded default, needs nothing.
"""

from django.db import migrations

INDEX = "leaderboard_username_search"


def create(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON auth_user USING gin (UPPER(username::text) gin_trgm_ops)"
    )


def drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0003_apply_verdict_function"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
