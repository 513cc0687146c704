"""Each packaged problem's publish gate, run once per test run and shared by every pytest-xdist worker.

The gate (the generator twice, the reference, the starter and every known-wrong solution, in the process
sandbox) was the suite's largest cost, and it ran again wherever a problem was needed: in
test_reference_and_wrong_solutions.py, in the first sync of the ``problems`` fixture on each worker, in the
tests that sync a chain of problems a student builds on.  Here it runs for real once per problem (nothing
replayed: the determinism check compares two real runs), and its outcome and the sandbox's replies are kept
in a file of this run's, keyed by the package's content hash, written under a lock:

- ``gated(slug)``: the outcome and the recorded runs that test_reference_and_wrong_solutions.py asserts on;
- ``published_outcome(slug)``: that outcome with the pool of secret draws added once, which the site's own
  gate run (``judge/authoring/gate_runs.py``, through its cache of passed gates) takes instead of gating
  again when it meets the same package with the same references to build on (``SharedPassedGates``).

A package a test changed, or one built on references other than the packaged ones, has another key: the site
gates it itself.  The files never outlive the run (pytest's base temporary folder of this run).
"""

from __future__ import annotations

import copy
import fcntl
import hashlib
import pickle
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from engine.gate import run_gate
from judge.authoring.gate_runs import PassedGates
from sandbox.backends.base import Sandbox
from tests.conftest import PROBLEMS
from tests.helpers import package
from tests.recording import GatedProblem, RecordingSandbox


def solved_for(slug: str) -> dict[str, str]:
    """The packaged references of the problems ``slug`` builds on, as the gate imports them."""
    return {name: package(name).solution for name in package(slug).problem.builds_on}


def cache_key(slug: str) -> str:
    """The key ``judge.authoring.gate_runs`` keeps a passed gate under, for the packaged ``slug``."""
    solved = solved_for(slug)
    return package(slug).content_hash + "".join(sorted(hashlib.sha256(c.encode()).hexdigest() for c in solved.values()))


class GateStore:
    """Gates run in a process sandbox of the store's own, opened on first use; one gate at a time in a process
    (the sync's gates run in threads), one per problem in the run (a file lock per problem)."""

    def __init__(self, open_sandbox: Callable[[], Sandbox], folder: Path | None) -> None:
        self.open_sandbox, self.folder = open_sandbox, folder
        self.gates: dict[str, GatedProblem] = {}
        self.published: dict[str, object] = {}
        self._slugs: dict[str, str] | None = None
        self._sandbox: Sandbox | None = None
        self._busy = threading.RLock()

    @property
    def sandbox(self) -> Sandbox:
        if self._sandbox is None:
            self._sandbox = self.open_sandbox()
        return self._sandbox

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()

    def slug_of(self, key: str) -> str | None:
        """The packaged problem whose gate ``cache_key`` is ``key``, if any."""
        if self._slugs is None:
            self._slugs = {
                cache_key(p.name): p.name for p in sorted(PROBLEMS.iterdir()) if (p / "problem.toml").exists()
            }
        return self._slugs.get(key)

    def gated(self, slug: str) -> GatedProblem:
        with self._busy:
            if slug not in self.gates:
                with self._locked(slug):
                    found = self._load(slug, "gate")
                    if found is None:
                        recorder = RecordingSandbox(self.sandbox)
                        outcome = run_gate(package(slug), recorder, settings.MAX_OUTPUT_BYTES, solved=solved_for(slug))
                        found = (outcome, recorder.replies)
                        self._save(slug, "gate", found)
                outcome, replies = found
                recorder = RecordingSandbox(self.sandbox)
                recorder.replies = replies
                self.gates[slug] = GatedProblem(package(slug), outcome, recorder, solved_for(slug))
            return self.gates[slug]

    def published_outcome(self, slug: str):
        """The passed gate with its pool and benchmark drawn (as ``execute_gate_run`` makes it), or None if it did
        not pass."""
        from engine.pool import add_pool
        from engine.speed import BENCH_DRAWS, add_benchmark
        from judge.authoring.gate_runs import secret_seeds

        with self._busy:
            if slug not in self.published:
                gate = self.gated(slug)
                found = None
                if gate.outcome.passed:
                    with self._locked(slug):
                        found = self._load(slug, "pool")
                        if found is None:
                            found = copy.deepcopy(gate.outcome)
                            add_pool(
                                found,
                                gate.package,
                                self.sandbox,
                                secret_seeds(),
                                settings.MAX_OUTPUT_BYTES,
                                gate.solved,
                            )
                            add_benchmark(
                                found, gate.package, self.sandbox, secret_seeds(BENCH_DRAWS), settings.MAX_OUTPUT_BYTES
                            )
                            self._save(slug, "pool", found)
                self.published[slug] = found if found is not None and found.passed else None
            return self.published[slug]

    def _path(self, slug: str, kind: str) -> Path:
        return self.folder / f"{slug}-{package(slug).content_hash[:16]}.{kind}"

    @contextmanager
    def _locked(self, slug: str):
        if self.folder is None:
            yield
            return
        with open(self.folder / f"{slug}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def _load(self, slug: str, kind: str):
        """What this run's first gate of ``slug`` left (a file of this test run's own, never data from elsewhere)."""
        if self.folder is None or not self._path(slug, kind).exists():
            return None
        return pickle.loads(self._path(slug, kind).read_bytes())

    def _save(self, slug: str, kind: str, value) -> None:
        if self.folder is not None:
            partial = self._path(slug, kind).with_suffix(".partial")
            partial.write_bytes(pickle.dumps(value))
            partial.replace(self._path(slug, kind))


class SharedPassedGates(PassedGates):
    """``gate_runs.passed_gates`` in tests: a packaged problem's passed gate comes from the ``GateStore``, which
    every xdist worker of the run shares."""

    def __init__(self, store: GateStore) -> None:
        super().__init__(kept=1024)
        self.store = store

    def get(self, key):
        found = super().get(key)
        if found is None and (slug := self.store.slug_of(key)) is not None:
            found = self.store.published_outcome(slug)
        return found
