"""A sandbox that keeps what it answered, so a test session runs each slow sandbox job once.

Building and gating a problem's tests (the generator, the reference, the starter and every known-wrong
solution, all in a sandbox) is most of the suite's time.  Two uses:

- ``replay=False``: every job runs; the last reply to each is kept, so the tests that check the gate's
  verdicts read the very runs the gate judged instead of grading the same code again.
- ``replay=True``: a job seen before gets its recorded reply (a copy) without running.  The sync behind the
  ``problems`` fixture uses it: the same three packages are synced for hundreds of tests, and their jobs
  are deterministic (the gate's determinism check, run for real by test_reference_and_wrong_solutions.py).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib

from engine.grading import GradeReport, interpret, job_of, run_order
from engine.package import Package
from engine.spec import Case, ProblemSpec
from sandbox.backends.base import GenerateJob, Job, JobRun, Sandbox
from sandbox.protocol import encode_frame


def job_key(job: Job | GenerateJob) -> bytes:
    """Two jobs with the same key send the sandbox the same bytes."""
    return hashlib.sha256(encode_frame(job.to_request())).digest()


class RecordingSandbox(Sandbox):
    def __init__(self, inner: Sandbox, replay: bool = False) -> None:
        self.inner, self.replay = inner, replay
        self.replies: dict[bytes, JobRun] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    def run(self, job: Job | GenerateJob) -> JobRun:
        key = job_key(job)
        if not (self.replay and key in self.replies):
            self.replies[key] = self.inner.run(job)
        return copy.deepcopy(self.replies[key])

    def reply_to(self, job: Job | GenerateJob) -> JobRun:
        try:
            return self.replies[job_key(job)]
        except KeyError:
            raise AssertionError("the sandbox never ran this job (did an earlier gate check stop the gate?)") from None

    def close(self) -> None:
        """The inner sandbox belongs to whoever opened it."""


@dataclasses.dataclass
class GatedProblem:
    """A package's gate outcome and the sandbox that recorded its runs."""

    package: Package
    outcome: object  # engine's GateOutcome
    sandbox: RecordingSandbox
    solved: dict[str, str]
    runs: dict = dataclasses.field(default_factory=dict, repr=False)  # (code, cases) -> the gate's run

    def report(self, code: str, cases: list[Case] | None = None) -> GradeReport:
        """What the gate's run of ``code`` (on every test, without a budget) reports against ``cases``.

        ``cases`` default to the gated ones, which carry the known-wrong outputs that name misconceptions.
        """
        spec = dataclasses.replace(self.package.spec(), budget_s=None)
        ordered = run_order(list(cases or self.outcome.cases))
        return interpret(self._gate_run(code, spec, ordered).events, spec, ordered)

    def _gate_run(self, code: str, spec: ProblemSpec, ordered: list[Case]) -> JobRun:
        """The gate's run of ``code`` on ``ordered``, found once by its job's key (hashing a job's megabytes of
        inputs cost more than interpreting its run); the cases are this gate's, or copies of them, so their
        names and draws name their inputs."""
        key = (code, tuple((case.name, case.variant) for case in ordered))
        if key not in self.runs:
            self.runs[key] = self.sandbox.reply_to(job_of(code, spec, ordered, self.solved))
        return self.runs[key]

    def grade(self, code: str) -> GradeReport:
        """Run ``code``, which the gate did not run, on every test (in the gate's sandbox) and report."""
        spec = dataclasses.replace(self.package.spec(), budget_s=None)
        ordered = run_order(list(self.outcome.cases))
        run = self.sandbox.run(job_of(code, spec, ordered, self.solved))
        return interpret(run.events, spec, ordered)

    def events_by_case(self, code: str) -> dict[str, dict]:
        spec = dataclasses.replace(self.package.spec(), budget_s=None)
        ordered = run_order(list(self.outcome.cases))
        run = self._gate_run(code, spec, ordered)
        tests = [e for e in run.events if e.get("event") == "test"]
        return {case.name: raw for case, raw in zip(ordered, tests)}
