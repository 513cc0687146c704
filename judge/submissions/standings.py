"""The standings follow every verdict, in the transaction (usually the statement) that records it.

They are kept by ``judge.leaderboard``, a floor above this app, which reads the submissions; so this app does
not import it. Its ``AppConfig.ready`` hands over the functions that apply a recorded verdict
(``judge.leaderboard.services.apply_verdict``, and on PostgreSQL ``in_statement``, the database function that
does the common case inside the statement that records it: one round trip per verdict).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connection, transaction

LONG_WAY = "JR001"  # the SQLSTATE the standings function raises when a verdict needs ``apply_verdict``

_apply: Callable[[int], None] | None = None
_in_statement: Callable[[str], tuple[str, list] | None] | None = None


def kept_by(apply: Callable[[int], None], in_statement: Callable[[str], tuple[str, list] | None] | None = None,
            ) -> None:
    """Name what brings the standings in line with one submission's recorded verdict.

    ``apply(submission_id)`` runs in the recording transaction; ``in_statement(id_sql)``, if given, returns a
    FROM item (SQL and parameters) that does the same for the common case inside the recording statement, or
    None where it cannot.
    """
    global _apply, _in_statement
    _apply, _in_statement = apply, in_statement


def apply_verdict(submission_id: int) -> None:
    if _apply is None:
        raise ImproperlyConfigured("judge.leaderboard, which keeps the standings, is not in INSTALLED_APPS")
    _apply(submission_id)


def update_with_standings(update: str, params: list) -> bool | None:
    """``update`` (an UPDATE of one submission at most) and the standings, in one statement.

    True if the row was updated, False if not (the claim was gone); None when there is no such statement
    here or the verdict needs ``apply_verdict``: nothing was written then.
    """
    found = _in_statement("recorded.id") if _in_statement is not None else None
    if found is None:
        return None
    function, arguments = found
    statement = (f"WITH recorded AS ({update} RETURNING id) "  # noqa: S608  (our own UPDATE and function; values are parameters)
                 f"SELECT recorded.id FROM recorded LEFT JOIN LATERAL {function} AS standings ON true")
    try:
        # Inside a transaction (a test's, or a caller's), a savepoint keeps a refusal from aborting it.
        with (transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext(),
              connection.cursor() as cursor):
            cursor.execute(statement, [*params, *arguments])
            return cursor.fetchone() is not None
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LONG_WAY:
            return None
        raise
