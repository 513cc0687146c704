"""Misconceptions a submission's results name, grouped, with links to the theory or hints.

The problem page's address comes from the caller (``{% url 'problem-detail' ... as problem_url %}`` in the
template, ``reverse`` in the API): the pages own that page, a floor above this one."""

from __future__ import annotations

from django import template

from judge.problems.rendering import ID_PREFIX

register = template.Library()


def see_url(problem_url: str, see: str) -> str:
    """``theory#why-position-0`` -> the theory section (its id carries the authored HTML's prefix);
    ``hints#2`` -> the hints."""
    page, _, anchor = see.partition("#")
    if page == "hints":
        return f"{problem_url}#hints"
    return f"{problem_url}#{ID_PREFIX}{anchor}" if anchor else f"{problem_url}#theory"


@register.simple_tag
def misconceptions_of(submission, problem_url: str) -> list[dict]:
    found: dict[str, dict] = {}
    for test in submission.results or []:
        known = test.get("misconception") if isinstance(test, dict) else None
        if not known or not isinstance(known, dict):
            continue
        see = str(known.get("see") or "")
        entry = found.setdefault(
            str(known.get("name", "")),
            {
                "name": str(known.get("name", "")),
                "explanation": str(known.get("explanation", "")),
                "url": see_url(problem_url, see) if see else "",
                "tests": [],
            },
        )
        entry["tests"].append(str(test.get("name", "")))
    return list(found.values())


@register.simple_tag
def properties_of(submission, problem_url: str) -> list[dict]:
    """The properties (from the problem's probes) that the submission's outputs broke."""
    return [
        {
            "name": str(p.get("name", "")),
            "message": str(p.get("message", "")),
            "explanation": str(p.get("explanation", "")),
            "url": see_url(problem_url, str(p.get("see"))) if p.get("see") else "",
        }
        for p in submission.properties or []
        if isinstance(p, dict)
    ]
