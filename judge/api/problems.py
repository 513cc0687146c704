"""Problems: the list with the site's filters, one problem with its examples, and an example's arrays as .npy."""

from __future__ import annotations

import io
import math
import re
from typing import Annotated

import numpy as np
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.urls import reverse
from ninja import Query, Router, Schema
from pydantic import StringConstraints

from engine.spec import ParamKind
from judge.api.auth import READ
from judge.api.errors import REFUSALS
from judge.courses.release import editorial_for, marks_for
from judge.problems.models import Problem
from judge.problems.queries import visible_case_data

router = Router(tags=["problems"], auth=READ)

# What a problem's slug (and a track's) can be: a request's other text never reaches a query (PostgreSQL refuses
# a NUL in any text, which would otherwise be a server error rather than a refusal that names the field).
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
Slug = Annotated[str, StringConstraints(max_length=80, pattern=SLUG_PATTERN)]


class ProblemSummary(Schema):
    slug: str
    title: str
    summary: str
    difficulty: str
    tags: list[str]
    track: str
    solved: bool
    attempted: bool
    url: str


class Parameter(Schema):
    name: str
    kind: str  # engine.spec.ParamKind


class Limits(Schema):
    time_limit_s: float
    memory_mb: int
    budget_s: float | None
    rtol: float
    atol: float


class Value(Schema):
    """One input or expected output: an array (shape, dtype, nested lists; non-finite numbers as the strings
    "nan", "inf", "-inf") or a scalar parameter (``value`` only), and where to download it as ``.npy``."""

    name: str
    kind: str
    shape: list[int] | None = None
    dtype: str | None = None
    value: object
    npy_url: str | None = None


class Example(Schema):
    name: str
    inputs: list[Value]
    expected: Value


class ProblemDetail(ProblemSummary):
    statement_md: str
    theory_md: str
    # The editorial, once open to you (your first accepted Submit, or the failed Submits the author allows);
    # until then null, and editorial_note says what opens it ("" when the problem has none).
    editorial_md: str | None = None
    editorial_note: str = ""
    hints_available: int
    starter_code: str
    function: str
    signature: str
    parameters: list[Parameter]
    limits: Limits
    builds_on: list[str]
    examples: list[Example]
    # What local checking needs (engine.spec.ProblemSpec.as_dict() without the probes): npjudge test.
    grading_spec: dict


class ProblemFilters(Schema):
    track: Slug | None = None
    tag: str | None = None
    solved: bool | None = None


def published() -> QuerySet[Problem]:
    return Problem.objects.filter(published=True)


def get_published(slug: str) -> Problem:
    """A token's user is a student: drafts are never found, whoever owns the token."""
    problem = published().filter(slug=slug).first() if re.fullmatch(SLUG_PATTERN, slug) else None
    if problem is None:
        raise Http404(f"no published problem {slug!r}; `GET /api/v1/problems` lists them")
    return problem


def summary(request, problem: Problem, solved: set[int], attempted: set[int]) -> dict:
    return {
        "slug": problem.slug,
        "title": problem.title,
        "summary": problem.summary,
        "difficulty": problem.difficulty,
        "tags": problem.tags,
        "track": problem.track,
        "solved": problem.pk in solved,
        "attempted": problem.pk in attempted,
        "url": request.build_absolute_uri(reverse("problem-detail", args=[problem.slug])),
    }


@router.get("/problems", response={200: list[ProblemSummary], **REFUSALS}, url_name="api-problems")
def list_problems(request, filters: Query[ProblemFilters]):
    """Published problems in learning-path order, filtered by track, tag and whether you solved them."""
    solved, attempted = marks_for(request.user)
    problems = published()
    if filters.track:
        problems = problems.filter(track=filters.track)
    rows = [p for p in problems if not filters.tag or filters.tag in p.tags]
    if filters.solved is not None:
        rows = [p for p in rows if (p.pk in solved) == filters.solved]
    return [summary(request, p, solved, attempted) for p in rows]


@router.get("/problems/{slug}", response={200: ProblemDetail, **REFUSALS}, url_name="api-problem")
def problem_detail(request, slug: str):
    """One problem: statement and theory as Markdown, the starter, the signature, limits and visible examples."""
    problem = get_published(slug)
    solved, attempted = marks_for(request.user)
    spec = dict(problem.spec)
    kinds = spec.get("kinds", {})
    editorial = editorial_for(request.user, problem)
    return {
        **summary(request, problem, solved, attempted),
        "statement_md": problem.statement_md,
        "theory_md": problem.theory_md,
        "editorial_md": problem.editorial_md if editorial.shown else None,
        "editorial_note": editorial.note,
        "hints_available": len(problem.hints),
        "starter_code": problem.starter_code,
        "function": problem.function_name,
        "signature": problem.signature,
        "parameters": [{"name": name, "kind": kinds.get(name, ParamKind.ARRAY)} for name in problem.params],
        "limits": {key: spec.get(key) for key in ("time_limit_s", "memory_mb", "budget_s", "rtol", "atol")},
        "builds_on": list(spec.get("builds_on", [])),
        "examples": examples(request, problem),
        "grading_spec": {key: value for key, value in spec.items() if key != "probes"},
    }


def examples(request, problem: Problem) -> list[dict]:
    if problem.current_test_set_id is None:
        return []
    url = request.build_absolute_uri(f"/api/v1/problems/{problem.slug}/examples/")
    return [
        {
            "name": name,
            "inputs": [value_of(key, value, f"{url}{name}/{key}.npy") for key, value in inputs.items()],
            "expected": value_of("expected", expected, f"{url}{name}/expected.npy"),
        }
        for name, (inputs, expected) in visible_case_data(problem.current_test_set_id).items()
    ]


def value_of(name: str, value, npy_url: str) -> dict:
    if not isinstance(value, np.ndarray):
        kind = {bool: ParamKind.BOOL, int: ParamKind.INT}.get(type(value), ParamKind.FLOAT)
        return {"name": name, "kind": kind, "value": value}
    return {
        "name": name,
        "kind": ParamKind.ARRAY,
        "shape": list(value.shape),
        "dtype": str(value.dtype),
        "value": _json_safe(value.tolist()),
        "npy_url": npy_url,
    }


def _json_safe(value):
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


@router.get(
    "/problems/{slug}/examples/{name}/{part}.npy",
    url_name="api-example-npy",
    response={200: bytes, **REFUSALS},
    openapi_extra={
        "responses": {
            200: {
                "description": "the array as .npy",
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        }
    },
)
def example_npy(request, slug: str, name: str, part: str):
    """One visible example's input (by parameter name) or ``expected`` output, as a ``.npy`` file."""
    problem = get_published(slug)
    cases = visible_case_data(problem.current_test_set_id) if problem.current_test_set_id else {}
    if name not in cases:
        raise Http404(f"{slug} has no visible example {name!r}")
    inputs, expected = cases[name]
    value = expected if part == "expected" else inputs.get(part)
    if not isinstance(value, np.ndarray):
        raise Http404(f"the example {name!r} has no array {part!r}; scalars are in the problem's JSON")
    buffer = io.BytesIO()
    np.save(buffer, value, allow_pickle=False)
    response = HttpResponse(buffer.getvalue(), content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{part}.npy"'
    return response
