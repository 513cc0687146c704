"""The pool of hidden tests: the generator's hidden cases again, drawn with secret seeds.

A student's code sees its inputs, so a few bits per test always leak through what a test says
(its status, which check failed).  To make what leaks worthless, the gate runs the generator
again with ``POOL_DRAWS`` secret seeds and keeps every draw of each hidden case whose inputs are
new in every draw: a case built from constants (an edge case) stays as it is, a small case drawn
from ``rng`` gets new values (a large one stays: see ``POOL_MAX_INPUT_BYTES``).
The reference computes their expected outputs in the sandbox, as for every test, and each
known-wrong solution is run on them so misconceptions are still named.  Each Submit is graded on
one draw (``draw_cases``), chosen by a secret number the site keeps with the submission, so a
rejudge grades the same inputs and the student never learns which draw they got.  Visible examples and probe inputs never change.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.gate import HEADROOM, GateOutcome, execute, known_outcome
from engine.package import Package, PackageError
from engine.spec import Case, array_inputs
from engine.testset import GeneratedCase, finite_difference_outputs, generate_cases, reference_outputs
from sandbox.backends.base import Sandbox
from sandbox.protocol import MAX_OUTPUT_BYTES

POOL_DRAWS = 4  # secret seeds per test set: with a dozen hidden tests, a pool of a few dozen cases
# Only cases this small are drawn again: a larger one has too many values to read back a few bits per
# Submit (4,096 float64 numbers), and keeping large draws would multiply what the database and every
# worker hold.  A case above it stays as the published seed made it.
POOL_MAX_INPUT_BYTES = 32 * 1024


def add_pool(
    outcome: GateOutcome,
    package: Package,
    sandbox: Sandbox,
    seeds: list[int],
    max_output_bytes: int = MAX_OUTPUT_BYTES,
    solved: dict[str, str] | None = None,
) -> None:
    """Draw a passed gate's pool with ``seeds`` (secret: the site's), recorded as the gate's last check."""
    check = outcome.check("pool")
    try:
        outcome.pool = build_pool(package, sandbox, seeds, outcome.cases, max_output_bytes, solved)
    except PackageError as exc:
        check.passed, check.detail = False, str(exc)
        return
    fixed = len({c.name for c in outcome.cases if c.hidden and not c.probe} - {c.name for c in outcome.pool})
    stay = (
        "1 hidden case (built from constants, or over {} KiB of inputs) stays"
        if fixed == 1
        else f"{fixed} hidden cases (built from constants, or over {{}} KiB of inputs) stay"
    )
    check.passed, check.detail = (
        True,
        (
            f"{len(outcome.pool)} hidden cases drawn with {len(seeds)} secret seeds; "
            f"{stay.format(POOL_MAX_INPUT_BYTES // 1024)} as they are"
        ),
    )


def build_pool(
    package: Package,
    sandbox: Sandbox,
    seeds: list[int],
    base: list[Case],
    max_output_bytes: int = MAX_OUTPUT_BYTES,
    solved: dict[str, str] | None = None,
) -> list[Case]:
    """The hidden cases the generator yields with each of ``seeds`` (draws 1, 2, ...) where they differ from
    ``base`` (the published seed's cases), with their expected outputs; PackageError says why it cannot."""
    drawn = _drawn_cases(package, sandbox, seeds, base)
    if not drawn:
        return []
    generated = [case for _, case in drawn]
    expected, times = reference_outputs(package, generated, sandbox, max_output_bytes)
    limit_ms = package.problem.time_limit_s * 1000
    if max(times) * HEADROOM >= limit_ms:
        raise PackageError(
            f"the reference took {max(times):.1f} ms on a drawn hidden case; the time limit "
            f"({limit_ms:.0f} ms) must be more than {HEADROOM}x that"
        )
    estimates = finite_difference_outputs(package, generated, sandbox, max_output_bytes)
    cases = [
        Case(case.name, True, case.inputs, output, fd_expected=estimates.get(case.name))
        for case, output in zip(generated, expected)
    ]
    cases = _with_known_wrong(package, sandbox, cases, max_output_bytes, solved)
    return [
        dataclasses.replace(case, name=name, variant=variant)
        for (variant, _), case, name in zip(drawn, cases, (_name_of(c.name) for c in cases))
    ]


def _drawn_cases(
    package: Package, sandbox: Sandbox, seeds: list[int], base: list[Case]
) -> list[tuple[int, GeneratedCase]]:
    """Every draw of each hidden case that is small and new in every draw: which tests are drawn must not
    depend on the draw, or mining could not compare two Submits (``signatures.cluster_key``)."""
    hidden = {case.name: case for case in base if case.hidden and not case.probe}
    draws = []
    for seed in seeds:
        generated = generate_cases(dataclasses.replace(package, seed=seed), sandbox)
        again = {case.name: case for case in generated if case.hidden and not case.probe}
        if sorted(again) != sorted(hidden):
            raise PackageError(
                f"{package.slug}/{package.generator_file}: with another seed the generator yields "
                f"other hidden cases "
                f"({sorted(again)[:5]}...); name cases the same whatever rng draws"
            )
        draws.append(again)
    drawn = []
    for name, case in hidden.items():
        if _drawable([case.inputs] + [draw[name].inputs for draw in draws]):
            # A name unique within the job, so estimates and outcomes map back to the case.
            drawn += [
                (variant, dataclasses.replace(draw[name], name=f"{name}{DRAW_MARK}{variant}"))
                for variant, draw in enumerate(draws, start=1)
            ]
    return drawn


def _drawable(inputs: list[dict[str, Any]]) -> bool:
    """The published inputs and each draw's: all small, and all different (else the case is built from constants)."""
    return all(_bytes(one) <= POOL_MAX_INPUT_BYTES and inputs.count(one) == 1 for one in inputs)


DRAW_MARK = "~draw"


def _bytes(inputs: dict[str, Any]) -> int:
    """Every array's bytes, a ``params`` argument's members included (a model's weights are its inputs too)."""
    return sum(len(value) for value in array_inputs(inputs).values())


def _name_of(unique: str) -> str:
    return unique.rsplit(DRAW_MARK, 1)[0]


def _with_known_wrong(
    package: Package, sandbox: Sandbox, cases: list[Case], max_output_bytes: int, solved: dict[str, str] | None
) -> list[Case]:
    """What each known-wrong solution does on each drawn case, so a misconception is named on them too."""
    spec = package.spec(max_output_bytes)
    known: dict[str, list[Any]] = {case.name: [] for case in cases}
    for wrong in package.wrong:
        report, events = execute(sandbox, wrong.code, spec, cases, solved)
        for result in report.tests:
            entry = known_outcome(wrong, result.status, events.get(result.name, {}), spec.returns)
            if entry is not None:
                known[result.name].append(entry)
    return [dataclasses.replace(case, known_wrong=tuple(known[case.name])) for case in cases]


def draw_cases(cases: list[Case], draw: int | None) -> list[Case]:
    """The cases one submission is graded on: the examples and probe inputs, and each hidden case from the
    pool's draw that ``draw`` (the submission's secret number) picks, or the published one where the pool
    has none (an edge case, or a test set without a pool).  ``draw`` None: the published cases."""
    variants = sorted({case.variant for case in cases if case.variant})
    if draw is None or not variants:
        return [case for case in cases if case.variant == 0]
    chosen = variants[draw % len(variants)]
    replaced = {case.name for case in cases if case.variant == chosen}
    return [
        case
        for case in cases
        if case.variant == chosen
        or (case.variant == 0 and not (case.name in replaced and case.hidden and not case.probe))
    ]
