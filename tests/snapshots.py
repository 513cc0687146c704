"""The rows a piece of code writes, kept so that later tests get the same rows in a few statements.

The ``problems`` fixture syncs the same packages for hundreds of tests; each sync is a couple of hundred
queries (drafts, a gate run, test sets with their arrays, publishing).  The first sync in a process is the
site's own; later tests that want the same packages get its rows back, with the same keys, one INSERT per
table.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from pathlib import Path

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Model

Rows = dict[type[Model], list[dict]]


def _tables() -> list[type[Model]]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.managed and not m._meta.proxy]


def rows_written_by(action: Callable[[], object]) -> Rows:
    before = {model: set(model._base_manager.values_list("pk", flat=True)) for model in _tables()}
    action()
    written = {model: list(model._base_manager.exclude(pk__in=keys).values()) for model, keys in before.items()}
    return {model: rows for model, rows in written.items() if rows}


def write_rows(rows: Rows) -> None:
    """Insert ``rows`` as they were; foreign keys are checked at the end of the block (PostgreSQL defers them).

    On PostgreSQL by COPY: an INSERT through Django's client-side binding spells every array out as an escaped
    literal in the statement's text, which cost more than writing them (a third of the fast tier's time)."""
    with transaction.atomic(), connection.cursor() as cursor:
        for model, table_rows in rows.items():
            if connection.vendor == "postgresql":
                copy_rows(cursor.cursor, model, table_rows)
            else:
                model._base_manager.bulk_create([model(**row) for row in table_rows])
        for statement in connection.ops.sequence_reset_sql(no_style(), list(rows)):
            cursor.execute(statement)  # the next row a test inserts gets a key after these


_COLUMN_TYPES: dict[str, dict[str, int]] = {}  # table -> column -> type oid, for binary COPY


def copy_rows(cursor, model: type[Model], table_rows: list[dict]) -> None:
    """``table_rows`` (``values()`` of ``model``) into its table with one binary COPY, each value prepared by its
    field: as text, every array was spelled out in hex in Python and parsed back by the server (half the
    fast tier's time in this function)."""
    fields = [field for field in model._meta.concrete_fields if field.attname in table_rows[0]]
    table = connection.ops.quote_name(model._meta.db_table)
    if table not in _COLUMN_TYPES:  # the schema does not change during a run
        cursor.execute(
            "SELECT attname, atttypid FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0", [table]
        )
        _COLUMN_TYPES[table] = dict(cursor.fetchall())
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types([_COLUMN_TYPES[table][field.column] for field in fields])
        for row in table_rows:
            copy.write_row([field.get_db_prep_save(row[field.attname], connection) for field in fields])


def save_rows(rows: Rows, path: Path) -> None:
    """For the other pytest-xdist workers of this run (tests/conftest.py); written whole or not at all."""
    by_label = {
        model._meta.label: [
            {name: bytes(value) if isinstance(value, memoryview) else value for name, value in row.items()}
            for row in table_rows
        ]
        for model, table_rows in rows.items()
    }
    partial = path.with_suffix(".partial")
    partial.write_bytes(pickle.dumps(by_label))
    os.replace(partial, path)


def load_rows(path: Path) -> Rows:
    """What ``save_rows`` wrote in this run (a file of this test run's own, never data from elsewhere)."""
    return {apps.get_model(label): table_rows for label, table_rows in pickle.loads(path.read_bytes()).items()}
