"""The values a test and a submission end with: plain ``StrEnum``s, so the engine needs no Django.

Each member is its database value and carries the label a student reads; ``choices`` gives a Django
field what ``TextChoices.choices`` used to, with the same values and labels.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self


class Labelled(StrEnum):
    """A string value with a label: ``NAME = "value", "Label"``."""

    label: str

    def __new__(cls, value: str, label: str = "") -> Self:  # the default: mypy reads Enum(value) lookups as calls
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member


def choices(enum: type[Labelled]) -> list[tuple[str, str]]:
    """(value, label) pairs, in order, for a model field's ``choices``."""
    return [(member.value, member.label) for member in enum]


class TestStatus(Labelled):
    """The outcome of one test, in the order the checks run."""

    __test__ = False

    PASSED = "passed", "Passed"
    WRONG_TYPE = "wrong_type", "Wrong type"
    WRONG_DTYPE = "wrong_dtype", "Wrong dtype"
    WRONG_SHAPE = "wrong_shape", "Wrong shape"
    WRONG_VALUE = "wrong_value", "Wrong value"
    INPUT_MUTATED = "input_mutated", "Input modified"
    RUNTIME_ERROR = "runtime_error", "Runtime error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded", "Time limit exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded", "Memory limit exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded", "Output limit exceeded"
    NOT_RUN = "not_run", "Not run"


class Verdict(Labelled):
    ACCEPTED = "accepted", "Accepted"
    WRONG_ANSWER = "wrong_answer", "Wrong answer"
    RUNTIME_ERROR = "runtime_error", "Runtime error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded", "Time limit exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded", "Memory limit exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded", "Output limit exceeded"
    COMPILE_ERROR = "compile_error", "Compile error"
    INTERNAL_ERROR = "internal_error", "Internal error"


WRONG_ANSWER_STATUSES = {
    TestStatus.WRONG_TYPE,
    TestStatus.WRONG_DTYPE,
    TestStatus.WRONG_SHAPE,
    TestStatus.WRONG_VALUE,
    TestStatus.INPUT_MUTATED,
}

# The overall verdict is decided by the first test that did not pass.
VERDICT_OF_STATUS = {
    **dict.fromkeys(WRONG_ANSWER_STATUSES, Verdict.WRONG_ANSWER),
    TestStatus.RUNTIME_ERROR: Verdict.RUNTIME_ERROR,
    TestStatus.TIME_LIMIT_EXCEEDED: Verdict.TIME_LIMIT_EXCEEDED,
    TestStatus.MEMORY_LIMIT_EXCEEDED: Verdict.MEMORY_LIMIT_EXCEEDED,
    TestStatus.OUTPUT_LIMIT_EXCEEDED: Verdict.OUTPUT_LIMIT_EXCEEDED,
    TestStatus.NOT_RUN: Verdict.INTERNAL_ERROR,
}

# The checks a returned value goes through, in order; shown per test.
CHECKS = ("type", "dtype", "shape", "values", "inputs")
# The chip each check gets on the results page and in the npjudge client.
CHECK_LABELS = {
    "type": "ndarray",
    "dtype": "float64",
    "shape": "shape",
    "values": "values",
    "inputs": "inputs unchanged",
}
FAILED_CHECK: dict[str, str] = {  # by TestStatus, a str
    TestStatus.WRONG_TYPE: "type",
    TestStatus.WRONG_DTYPE: "dtype",
    TestStatus.WRONG_SHAPE: "shape",
    TestStatus.WRONG_VALUE: "values",
    TestStatus.INPUT_MUTATED: "inputs",
}
