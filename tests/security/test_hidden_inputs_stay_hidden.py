"""A submission cannot read a hidden test's inputs back through what it is shown.

Each payload encodes the hidden input it was given (its shape and first value, as a tag) into one
channel: an exception class's name, an exception's message, printed output, the line that raises,
how long it takes, where its output is wrong, where a probe breaks, and, from the examples' run,
whatever it can find in the sandbox's memory.  What the student reads of the report (its message,
its properties and every test row as the page shows it) must not hold the tag.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re

import numpy as np
import pytest

from engine.grading import GradeReport, grade
from engine.spec import Case, ProbeSpec
from judge.display.results import grading_time, shown_row
from judge.submissions.models import Submission
from tests.helpers import npy, spec
from tests.leftovers import leftovers
from tests.security.conftest import assert_contained, attack_cases, attack_spec, run_attack, solution

# The tag a payload makes of an input: "T<shape>_<first value's digits>", e.g. "T3x7x5_1234567".
TAG = """
def tag(a):
    return "T" + "x".join(str(n) for n in a.shape) + "_" + str(int(abs(float(a.flat[0])) * 1e6))
"""
RIGHT = "np.concatenate([np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2])), patches], 1)"
CORRECT = f"return {RIGHT}"


# Every 3-D .npy reachable from the interpreter's objects and the call stack, nested up to eight deep, as bytes or
# as a view of other bytes (the child reads a job's arrays from its frame); a piece of one (a header) is skipped.
SEARCH = """
def arrays_in_memory():
    import gc, io, sys
    roots, frame = list(gc.get_objects()), sys._getframe()
    while frame is not None:
        roots.append(frame.f_locals)
        frame = frame.f_back
    found, seen, todo = [], set(), [(root, 0) for root in roots]
    while todo:
        o, depth = todo.pop()
        if isinstance(o, bytes | memoryview) and bytes(o[:6]) == b"\\x93NUMPY" and len(o) > 64:
            try:
                a = np.load(io.BytesIO(bytes(o)), allow_pickle=False)
            except ValueError:
                continue
            if a.ndim == 3 and a.size:
                found.append(a)
        elif depth < 8 and isinstance(o, dict | list | tuple) and id(o) not in seen:
            seen.add(id(o))
            todo.extend((v, depth + 1) for v in (list(o.values()) if isinstance(o, dict) else list(o)))
    return found
"""


def hidden_tag() -> str:
    patches = np.load(io.BytesIO(attack_cases()[1].inputs["patches"]), allow_pickle=False)
    return "T" + "x".join(str(n) for n in patches.shape) + "_" + str(int(abs(float(patches.flat[0])) * 1e6))


def what_a_student_reads(report: GradeReport) -> str:
    """The verdict's message, the properties, and each test row as the results page renders it."""
    rows = [shown_row(test, {}) for test in report.stored_tests()]
    shown = [[row.name, row.status, row.message, row.time_ms, row.traceback, row.stdout] for row in rows]
    return json.dumps([report.message, report.properties, shown], default=str)


def hidden_row(report: GradeReport):
    return next(shown_row(test, {}) for test in report.stored_tests() if test["hidden"])


def attack(body: str, sandbox) -> GradeReport:
    report = run_attack(solution(body, header=TAG), sandbox)
    assert hidden_tag() not in what_a_student_reads(report)
    assert_contained(report, sandbox)
    return report


def test_a_class_named_after_the_input_is_not_named(sandbox):
    report = attack("raise type(tag(patches), (Exception,), {})()", sandbox)
    assert hidden_row(report).message.startswith("your code raised an exception of a class your code defined")


def test_an_exception_message_holding_the_input_is_not_shown(sandbox):
    report = attack("raise ValueError(tag(patches))", sandbox)
    assert hidden_row(report).message.startswith("your code raised ValueError;")
    assert hidden_tag() not in json.dumps(report.as_dict()["tests"][1]["message"])


def test_a_class_borrowing_a_builtin_name_says_no_more_than_the_builtin(sandbox):
    report = attack("raise type('KeyError', (Exception,), {'__str__': lambda self: tag(patches)})()", sandbox)
    assert hidden_row(report).message.startswith("your code raised KeyError;")


def test_printed_output_of_a_hidden_test_is_not_shown(sandbox):
    report = attack(f"print(tag(patches))\nreturn {RIGHT}[:, 1:]", sandbox)
    assert hidden_row(report).stdout == ""
    assert report.tests[0].stdout.startswith("T")  # the example's printed output is still shown


def test_the_line_that_raises_is_not_shown_on_a_hidden_test(sandbox):
    # One line per possible size: which line raised would spell out patches.shape[1].
    lines = "".join(f"if patches.shape[1] == {n}: raise ValueError('x')\n" for n in range(1, 12))
    report = attack(lines + CORRECT, sandbox)
    row = hidden_row(report)
    assert row.traceback == [] and not re.search(r"line \d", row.message)


def test_a_hidden_test_shows_no_time_and_the_total_is_rounded(sandbox):
    # Sleep 50 ms per patch: a shown time would read patches.shape[1] back.
    report = attack(f"import time\ntime.sleep(0.05 * patches.shape[1])\nreturn {RIGHT}[:, 1:]", sandbox)
    assert hidden_row(report).time_ms == 0.0
    assert all(test["time_ms"] == 0.0 for test in report.stored_tests() if test["hidden"])
    shown = grading_time(Submission(grading_ms=report.time_ms, results=report.stored_tests()))
    assert re.fullmatch(r"under 1 s|about \d+ s", shown), shown


def test_where_a_hidden_output_is_wrong_is_not_shown(sandbox):
    # Wrong at one position that the input picks: a shown index would read the shape back.
    body = f"out = {RIGHT}\nout[0, patches.shape[1], patches.shape[2] - 1] += 1.0\nreturn out"
    report = attack(body, sandbox)
    patches = np.load(io.BytesIO(attack_cases()[1].inputs["patches"]), allow_pickle=False)
    row = hidden_row(report)
    assert row.status == "wrong_value"
    assert str((0, patches.shape[1], patches.shape[2] - 1)) not in row.message and "index" not in row.message


def test_an_example_cannot_read_the_hidden_inputs_from_the_sandbox_memory(sandbox):
    # During the first example, look for every .npy the sandbox holds and raise with their tags.
    body = 'raise ValueError(" ".join(sorted({tag(a) for a in arrays_in_memory()})))'
    report = run_attack(solution(body, header=TAG + SEARCH), sandbox)
    example = report.tests[0]
    assert not example.hidden and "T1x2x3_1000000" in example.message  # it finds the examples: shown in full
    assert hidden_tag() not in what_a_student_reads(report)
    assert_contained(report, sandbox)


# Every place in the process's readable memory where ``encoded`` (a pattern XORed with 0x55, so the code's own
# text never holds it) lies, bar the pattern's own bytes: found with libc's memmem in place, with no copy of the
# memory that could itself be found.
SCAN = """
def raw_copies(encoded):
    import ctypes
    pattern = bytes(b ^ 0x55 for b in bytes.fromhex(encoded))
    own = id(pattern) + bytes.__basicsize__ - 1
    memmem = ctypes.CDLL(None).memmem
    memmem.restype = ctypes.c_void_p
    memmem.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    found = 0
    for line in open("/proc/self/maps").read().splitlines():
        fields = line.split()
        if fields[1][0] != "r" or fields[-1] in ("[vvar]", "[vsyscall]", "[vvar_vclock]"):
            continue
        at, end = (int(x, 16) for x in fields[0].split("-"))
        while at < end:
            hit = memmem(at, end - at, pattern, len(pattern))
            if not hit:
                break
            found += hit != own
            at = hit + 1
    return found
"""


def encoded_data(case_index: int) -> str:
    """48 bytes from the middle of a case's ``patches`` as the array holds them, XORed for ``raw_copies``."""
    data = np.load(io.BytesIO(attack_cases()[case_index].inputs["patches"]), allow_pickle=False).tobytes()
    middle = len(data) // 2 // 8 * 8
    return bytes(b ^ 0x55 for b in data[middle : middle + 48]).hex()


def test_an_example_finds_no_byte_of_a_hidden_input_anywhere_in_its_process(sandbox):
    # Not only the objects it can reach: the whole address space, raw, during the first example. The example's
    # own input is there (so the search works); the hidden input's bytes must be nowhere, as an object or as
    # memory a parent wrote before the fork.
    body = (
        f"raise ValueError('example %d hidden %d' % (raw_copies({encoded_data(0)!r}), raw_copies({encoded_data(1)!r})))"
    )
    # Two scans of every readable mapping (the process backend's child maps the whole host interpreter) took over
    # the attack's 1 s once in a loaded CI run: this test is about what is found, not how fast, so it has 10 s.
    slow = dataclasses.replace(attack_spec(), time_limit_s=10.0)
    report = grade(solution(body, header=SCAN), slow, attack_cases(), sandbox)
    found = re.search(r"example (\d+) hidden (\d+)", report.tests[0].message)
    assert found, report.tests[0].message
    assert int(found[1]) >= 1 and int(found[2]) == 0, report.tests[0].message
    assert_contained(report, sandbox)


def test_a_module_that_looks_for_hidden_inputs_as_it_loads_finds_none(sandbox):
    # At load time the module looks for the hidden inputs, to fail with one in its message: the code loads once,
    # before the examples, and the hidden inputs reach its process only after every example's result.
    header = (
        TAG
        + SEARCH
        + """
for a in arrays_in_memory():
    if a.shape[1] > 2 and a.flat[0] != 0:  # not an example, nor the sandbox's own
        raise ValueError(tag(a))
"""
    )
    report = run_attack(solution(CORRECT, header=header), sandbox)
    assert hidden_tag() not in what_a_student_reads(report)
    assert report.verdict == "accepted"  # it found nothing to raise about
    assert leftovers(sandbox) == []


PROBE_CODE = """import numpy as np
def f(x):
    if x.shape == (2, 3):
        return x * 2.0
    out = np.zeros((8, 8))
    out[int(x.sum()) % 8, int(x.max()) % 8] = float(x.sum() > 30)  # where it breaks is the input's choice
    return out
"""


def test_where_a_probe_breaks_is_not_shown(sandbox):
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    first, second = np.full((8, 8), 1.0), np.full((8, 8), 5.0)
    probe = ProbeSpec("constant", "unchanged", ("a", "b"), "Changing x changed the output at index {index}.")
    probe_spec = dataclasses.replace(spec(time_limit_s=1.0), probes=(probe,))
    cases = [
        Case("example", False, {"x": npy(x)}, npy(x * 2)),
        Case("hidden", True, {"x": npy(x)}, npy(x * 3)),
        Case("a", True, {"x": npy(first)}, npy(np.zeros((8, 8))), probe=True),
        Case("b", True, {"x": npy(second)}, npy(np.zeros((8, 8))), probe=True),
    ]
    report = grade(PROBE_CODE, probe_spec, cases, sandbox)
    assert [p["message"] for p in report.properties] == ["Changing x changed the output at index (not shown)."]
    assert "(0, 1)" not in what_a_student_reads(report)


@pytest.mark.parametrize("signal", [9, 11])
def test_how_the_process_died_on_a_hidden_test_is_not_said(signal, sandbox):
    # Which signal it dies of is the code's choice (the hidden tests have more than two patches).
    body = f"import os\nif patches.shape[1] > 2:\n    os.kill(os.getpid(), {signal})\nreturn {RIGHT}[:, 1:]"
    report = run_attack(solution(body), sandbox)
    row = hidden_row(report)
    assert row.status == "runtime_error", row
    assert "signal" not in row.message and str(signal) not in row.message
    assert_contained(report, sandbox)


def test_a_curve_is_drawn_for_the_example_and_no_hidden_output_is_kept(sandbox):
    # A problem that draws its answer as a curve keeps a visible test's output even when it passed; a
    # hidden one's would be the reference's answer to a hidden input, so it keeps none and draws none.
    curve_spec = dataclasses.replace(attack_spec(), picture="curve")
    report = grade(solution(CORRECT), curve_spec, attack_cases(), sandbox)
    assert report.verdict == "accepted"
    visible, hidden = report.stored_tests()
    assert "actual_npy" in visible["detail"] and "actual_npy" not in (hidden.get("detail") or {})
    row = shown_row(hidden, {}, picture="curve")
    assert row.curve is None and row.actual is None
