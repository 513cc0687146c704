"""The password hash: Argon2id through Django's hasher, at parameters sized for the machine (settings).

Argon2 is memory-hard: each hash holds ``ARGON2_MEMORY_KIB`` while it runs and releases the GIL, so a burst
of sign-ins in one web process (32 threads) could hold that much memory per thread and share the cores
among all of them, finishing every one late.  At most ``ARGON2_CONCURRENCY`` hashes run at once per
process; the others wait their turn, which bounds the memory and lets the first ones finish first.  With
the connection pool (``DATABASE_POOL_MAX``) a thread gives its connection back before it waits and hashes,
so a burst of sign-ins does not hold every connection of the process while the hashes run.
Changing the parameters upgrades each stored hash at its owner's next sign-in (Django's ``must_update``).
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.db import connection

_running = threading.BoundedSemaphore(settings.ARGON2_CONCURRENCY)


def _release_pooled_connection() -> None:
    """Back to the pool between queries; the next query takes one again. Never inside a transaction."""
    # connection.pool, PostgreSQL's (Django 5.1), is not in django-stubs 5.2.
    pool = connection.pool if connection.vendor == "postgresql" else None  # type: ignore[attr-defined]
    if pool is not None and not connection.in_atomic_block:
        connection.close()


class Argon2Hasher(Argon2PasswordHasher):
    time_cost = settings.ARGON2_TIME_COST
    memory_cost = settings.ARGON2_MEMORY_KIB
    parallelism = settings.ARGON2_PARALLELISM

    def encode(self, password: str, salt: str) -> str:
        _release_pooled_connection()
        with _running:
            return super().encode(password, salt)

    def verify(self, password: str, encoded: str) -> bool:
        _release_pooled_connection()
        with _running:
            return super().verify(password, encoded)
