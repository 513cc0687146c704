"""Test databases copied from a migrated template, instead of each one migrated from nothing.

Migrating an empty database (Django's migrations and ours) cost every pytest-xdist worker 3.6 s before its first
test, in every run. On PostgreSQL the first run with a given set of migrations migrates a template database once;
each worker of that run and of later runs copies it (``CREATE DATABASE ... TEMPLATE``, a fraction of a second).

The template's name holds a hash of the migration files and of Django's version, so a changed or added
migration makes a new template and the old ones are dropped. A template is migrated under another name and
renamed into place once migrated, so a run killed mid-migration leaves none behind. Elsewhere (SQLite), Django
creates the test database as usual.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection, connections, transaction
from django.test import TransactionTestCase
from django.test.utils import setup_databases, teardown_databases

from tests.conftest import REPO

TEMPLATE_PREFIX = "test_judge_schema_"
SCHEMA_LOCK = 0x6A756467  # a pg_advisory_lock key: one process at a time makes, drops or copies templates


def schema_key() -> str:
    """What the migrated schema depends on: Django's version (its own migrations) and our migration files."""
    import django

    digest = hashlib.sha256(django.__version__.encode())
    for path in sorted(REPO.glob("judge/*/migrations/*.py")):
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def create_test_databases(verbosity: int) -> Callable[[], None]:
    """The test databases, ready; returns what drops them."""
    if connection.vendor != "postgresql" or len(settings.DATABASES) != 1:
        made = setup_databases(verbosity=verbosity, interactive=False)
        return lambda: teardown_databases(made, verbosity=verbosity)
    quote = connection.ops.quote_name
    test_name = connection.creation._get_test_db_name()
    template = TEMPLATE_PREFIX + schema_key()
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [SCHEMA_LOCK])
        try:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
            if cursor.fetchone() is None:
                drop_other_templates(cursor, template, quote)
                migrate_template(connection, template, verbosity)
                cursor.execute(f"ALTER DATABASE {quote(template + '_partial')} RENAME TO {quote(template)}")
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(test_name)}")
            cursor.execute(f"CREATE DATABASE {quote(test_name)} TEMPLATE {quote(template)}")
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [SCHEMA_LOCK])
    old_name = connection.settings_dict["NAME"]
    settings.DATABASES[connection.alias]["NAME"] = connection.settings_dict["NAME"] = test_name
    connection.close()
    return lambda: connection.creation.destroy_test_db(old_name, verbosity=verbosity)


def drop_other_templates(cursor, keep: str, quote) -> None:
    """Templates of other migrations, and one whose migration never finished."""
    cursor.execute(
        "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s", [TEMPLATE_PREFIX + "%", keep]
    )
    for (name,) in cursor.fetchall():
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")


def migrate_template(connection, template: str, verbosity: int) -> None:
    """Django's own test database creation (migrations included), under the template's unfinished name."""
    test_settings = connection.settings_dict["TEST"]
    kept_name, kept_test_name = connection.settings_dict["NAME"], test_settings.get("NAME")
    test_settings["NAME"] = template + "_partial"
    try:
        connection.creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)
    finally:
        connection.close()  # a database with a session on it cannot be renamed or copied
        settings.DATABASES[connection.alias]["NAME"] = connection.settings_dict["NAME"] = kept_name
        test_settings["NAME"] = kept_test_name


# Rows a flush would delete and its post_migrate signal make again at once, the same: left in place.
KEPT_BY_THE_FLUSH = {"django_content_type", "auth_permission"}


def empty_tables(alias: str) -> None:
    """What Django's flush leaves after a transactional test, by DELETE in one transaction.

    The flush TRUNCATEs every table (new files for each table and index, 0.28 s even when they are empty) and then
    makes the content types and permissions again through the post_migrate signal (135 commits, 0.17 s): almost
    half a second after each of the suite's 78 transactional tests. Foreign keys are deferred (Django makes them
    so), so the order of the DELETEs does not matter; sequences go on, as they do after the flush.
    """
    connection = connections[alias]
    quote = connection.ops.quote_name
    tables = [
        table
        for table in connection.introspection.django_table_names(only_existing=True, include_views=False)
        if table not in KEPT_BY_THE_FLUSH
    ]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"DELETE FROM {quote(table)}")


def quick_flush_after_transactional_tests() -> None:
    """``TransactionTestCase``'s teardown empties the tables with ``empty_tables`` on PostgreSQL, unless the test
    asked for what only the flush does (a subset of the apps, serialized rollback)."""
    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self) -> None:
        aliases = self._databases_names(include_mirrors=False)
        if (
            self.available_apps is not None
            or self.serialized_rollback
            or any(connections[alias].vendor != "postgresql" for alias in aliases)
        ):
            flush(self)
            return
        for alias in aliases:
            empty_tables(alias)

    TransactionTestCase._fixture_teardown = _fixture_teardown


@contextmanager
def fresh_database(suffix: str) -> Iterator[str]:
    """An empty PostgreSQL database beside the test database (named after it), dropped afterwards."""
    quote = connection.ops.quote_name
    name = f"{connection.settings_dict['NAME']}_{suffix}"
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")
        cursor.execute(f"CREATE DATABASE {quote(name)}")
    try:
        yield name
    finally:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)} WITH (FORCE)")


@contextmanager
def connected_to(name: str) -> Iterator[None]:
    """The site's own connection (the pages, the services, ``call_command``) on another database meanwhile."""
    kept = connection.settings_dict["NAME"]
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        settings.DATABASES[connection.alias]["NAME"] = connection.settings_dict["NAME"] = kept
