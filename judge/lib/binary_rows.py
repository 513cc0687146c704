"""Large binary values sent to PostgreSQL as bytes, not as text.

Django's psycopg 3 cursors bind parameters on the client: each ``bytes`` value is spelled into the statement
as an escaped literal, twice its size, which PostgreSQL then parses back. A published test set carries tens of
megabytes of arrays per problem (expected outputs, what each known-wrong solution returned, the benchmark's
draws): six of them, about 320 MB, took 6.3 s to store that way and 2.2 s as bytes (``bench/store_test_set.py``).
Inside ``binary_parameters()`` the statements go with their parameters apart (server-side binding), and
psycopg sends ``bytes`` in binary.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection


@contextlib.contextmanager
def binary_parameters() -> Iterator[None]:
    """The default connection's cursors bind on the server for the block; elsewhere (SQLite) nothing changes."""
    if connection.vendor != "postgresql":
        yield
        return
    from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]  # not in django-stubs 5.2

    connection.ensure_connection()
    raw = connection.connection
    kept = raw.cursor_factory
    raw.cursor_factory = ServerBindingCursor
    try:
        yield
    finally:
        raw.cursor_factory = kept
