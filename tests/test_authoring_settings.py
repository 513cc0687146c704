"""Limits, tolerances, tags, prerequisites and misconceptions edited through the settings form."""

from __future__ import annotations

import tomllib

import pytest

from judge.authoring.models import AuditEntry
from judge.problems.models import Problem

SLUG = "prepend_class_token"
# Its prerequisites are synced too: a draft saved in the browser must name problems that exist.
SYNCED_PROBLEMS = ["image_to_patches", "patch_embedding", SLUG]
URL = f"/authoring/problems/{SLUG}/settings/"


@pytest.fixture
def author(django_user_model, client):
    user = django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)
    client.force_login(user)
    return user


def current_form(client) -> dict:
    form = client.get(URL).context["form"]
    return {name: form.initial.get(name, "") for name in form.fields}


def test_the_form_rewrites_problem_toml_in_the_draft_and_is_audited(client, problems, author):
    form = current_form(client)
    assert form["time_limit_s"] == 2.0 and form["wrong_0_name"] == "Class token appended instead of prepended"
    form |= {
        "time_limit_s": "3.5",
        "atol": "1e-8",
        "tags": "vision, embeddings, basics",
        "wrong_0_name": "Token put last",
        "wrong_0_see": "hints#1",
    }
    response = client.post(URL, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    manifest = tomllib.loads(Problem.objects.get(slug=SLUG).draft_files["problem.toml"])
    assert manifest["limits"] == {"time_limit_s": 3.5, "memory_mb": 512}
    assert manifest["checking"]["atol"] == 1e-8 and manifest["tags"] == ["vision", "embeddings", "basics"]
    assert (manifest["wrong"][0]["name"], manifest["wrong"][0]["see"], manifest["wrong"][0]["file"]) == (
        "Token put last",
        "hints#1",
        "wrong/appended.py",
    )
    assert Problem.objects.get(slug=SLUG).spec["time_limit_s"] == 2.0  # the live version until the gate passes
    assert "problem.toml" in AuditEntry.objects.get(action="edit", user=author).summary


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("time_limit_s", "fast", "Enter a number."),
        ("memory_mb", "0", "greater than or equal to 16"),
        ("prerequisites", "no_such_problem", "prerequisites name unknown problem(s) ['no_such_problem']"),
    ],
)
def test_a_bad_setting_is_refused_precisely_and_changes_nothing(client, problems, author, field, value, error):
    before = Problem.objects.get(slug=SLUG).draft_files
    response = client.post(URL, current_form(client) | {field: value})
    assert response.status_code == 400
    assert error in response.content.decode().replace("&#x27;", "'")
    assert Problem.objects.get(slug=SLUG).draft_files == before


def test_students_cannot_open_the_settings(client, problems, student):
    client.force_login(student)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"title": "x"}).status_code == 403
