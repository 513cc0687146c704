"""The custom-input form on the problem page: one field per parameter, prefilled from the first visible example."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.custom_input import MAX_ELEMENTS, MAX_LITERAL_CHARS, literal_of
from engine.spec import ParamKind
from judge.problems.models import Problem
from judge.problems.queries import problem_spec
from judge.submissions.services.intake import example_inputs

CUSTOM = "custom"  # the kind field of the form for a Run on the student's own inputs
FIELD_PREFIX = "input-"
KIND_LABELS: dict[str, str] = {ParamKind.INT: "int", ParamKind.FLOAT: "float", ParamKind.BOOL: "bool (True or False)"}
LIMITS = f"at most {MAX_ELEMENTS:,} numbers and {MAX_LITERAL_CHARS:,} characters per input"


@dataclass
class CustomField:
    name: str
    label: str  # the declared shape and kind, as the example shows it
    value: str
    error: str = ""
    optional: bool = False

    @property
    def field_name(self) -> str:
        return FIELD_PREFIX + self.name


def custom_fields(
    problem: Problem, texts: dict[str, str] | None = None, errors: dict[str, str] | None = None
) -> list[CustomField]:
    """The form's fields: the student's texts and errors if given, else the example's inputs as literals."""
    if problem.current_test_set_id is None or not problem.spec:
        return []
    spec, example = problem_spec(problem), example_inputs(problem)
    fields = []
    for name in spec.params:
        kind, value = spec.kind(name), example.get(name)
        text = (texts or {}).get(name, literal_of(value) if value is not None else "")
        fields.append(
            CustomField(name, _label(kind, value), text, (errors or {}).get(name, ""), kind == ParamKind.OPTIONAL_ARRAY)
        )
    return fields


def takes_params(problem: Problem) -> bool:
    """Whether a parameter is a dict of weights (kind params), which the form cannot take as one literal."""
    return bool(problem.spec) and ParamKind.PARAMS in problem_spec(problem).kinds.values()


def _label(kind: str, value: object) -> str:
    if kind in KIND_LABELS:
        return KIND_LABELS[kind]
    optional = ", optional" if kind == ParamKind.OPTIONAL_ARRAY else ""
    dtype = {ParamKind.INT_ARRAY: "int64", ParamKind.INT8_ARRAY: "int8"}.get(ParamKind(kind), "float64")
    if isinstance(value, np.ndarray):
        return f"{value.ndim}-D {dtype}{optional}; the example's shape is {value.shape}"
    return f"{dtype} array{optional}"


def posted_texts(post) -> dict[str, str]:
    """parameter -> text for every ``input-<parameter>`` field of the form (unknown names included, to refuse)."""
    return {key.removeprefix(FIELD_PREFIX): value for key, value in post.items() if key.startswith(FIELD_PREFIX)}
