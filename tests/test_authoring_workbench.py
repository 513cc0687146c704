"""The workbench's server side: a live preview that saves nothing, the "Implement f(...)" line shown once,
and gate runs that the edit page can show and poll in place."""

from __future__ import annotations

import re

import pytest

from judge.authoring.services import create_problem, edit_draft
from judge.authoring.views import MAX_PREVIEW_BYTES
from judge.problems.models import GateRun, GateStatus, Problem
from judge.problems.rendering import states_signature

SLUG = "scale_by_two"
PREVIEW = f"/authoring/problems/{SLUG}/preview/"
OWN_LINE = "# Scale by two\n\nImplement `scale(x)`: return $2x$ for every entry.\n"


@pytest.fixture
def draft(db, author) -> Problem:
    return create_problem(author, SLUG, "Scale by two", "scale", ["x"])


def test_the_preview_renders_posted_markdown_with_math_and_saves_nothing(client, draft, author):
    client.force_login(author)
    before = Problem.objects.get(slug=SLUG).draft_files
    response = client.post(
        PREVIEW,
        {
            "file:statement.md": "# Fresh\n\nThe sum $\\sum_i x_i$.\n",
            "file:theory.md": "## Why\n\n$$a^2$$\n",
            "file:hints/01.md": "Try *this*.",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1" in html and "Fresh" in html
    assert 'class="arithmatex"' in html and "\\sum_i x_i" in html  # KaTeX typesets it in the browser
    assert "<em>this</em>" in html
    assert Problem.objects.get(slug=SLUG).draft_files == before


def test_the_preview_cleans_unsafe_html(client, draft, author):
    client.force_login(author)
    html = client.post(PREVIEW, {"file:statement.md": "<script>alert(1)</script><img src=x onerror=alert(2)>"})
    assert "<script" not in html.content.decode() and "onerror" not in html.content.decode()


def test_the_preview_is_staff_only_post_only_and_size_limited(client, draft, author, student):
    assert client.post(PREVIEW, {"file:statement.md": "x"}).status_code == 302  # to the login page
    client.force_login(student)
    assert client.post(PREVIEW, {"file:statement.md": "x"}).status_code == 403
    client.force_login(author)
    assert client.get(PREVIEW).status_code == 405
    response = client.post(PREVIEW, {"file:statement.md": "x" * (MAX_PREVIEW_BYTES + 1)})
    assert response.status_code == 413 and f"accepts at most {MAX_PREVIEW_BYTES:,} bytes" in response.content.decode()


def test_the_preview_needs_the_csrf_token(draft, author):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(author)
    assert strict.post(PREVIEW, {"file:statement.md": "x"}).status_code == 403


def test_the_preview_adds_the_implement_line_from_the_posted_manifest(client, draft, author):
    client.force_login(author)
    manifest = draft.draft_files["problem.toml"].replace('name = "scale"', 'name = "twice"')
    html = client.post(PREVIEW, {"file:problem.toml": manifest, "file:statement.md": "Double it."}).content.decode()
    assert "Implement <code>twice(x)</code>" in html


def test_a_statement_with_its_own_implement_line_is_not_given_a_second(client, draft, author):
    client.force_login(author)
    html = client.post(
        PREVIEW, {"file:problem.toml": draft.draft_files["problem.toml"], "file:statement.md": OWN_LINE}
    ).content.decode()
    assert 'id="signature-note"' in html and '<p class="signature">' not in html
    edit_draft(author, draft, draft.draft_files | {"statement.md": OWN_LINE})
    student_page = client.get(f"/problems/{SLUG}/").content.decode()
    assert len(re.findall(r"\bImplement\b", student_page)) == 1  # NotImplementedError, in the starter, aside


def test_a_statement_without_one_gets_the_page_s_implement_line(client, draft, author):
    client.force_login(author)
    student_page = client.get(f"/problems/{SLUG}/").content.decode()
    assert "Implement <code>scale(x)</code>" in student_page


@pytest.mark.parametrize(
    ("statement", "states"),
    [
        (OWN_LINE, True),
        ("Implement scale (x) so that it doubles.", True),
        ("implement `scale(x)`.", True),
        ("Scale each entry: scale(x) returns 2x.", False),  # mentions it, but does not open with the instruction
        ("# Title\n\nIntro first.\n\nImplement `scale(x)`.", False),  # not the opening paragraph
        ("Implement the rescaling.", False),  # another function, or none
    ],
)
def test_which_statements_state_the_signature_themselves(statement, states):
    assert states_signature(statement, "scale") is states


def test_the_edit_page_keeps_a_plain_textarea_for_every_file_and_lists_them(client, draft, author):
    client.force_login(author)
    html = client.get(f"/authoring/problems/{SLUG}/edit/").content.decode()
    for name in draft.draft_files:
        assert f'name="file:{name}"' in html and f'href="#file-{name}"' in html and f'name="delete:{name}"' in html
    assert 'name="new_name"' in html and "workbench.js" in html


def test_running_the_checks_from_the_workbench_answers_with_the_run_which_polls_until_done(client, draft, author):
    client.force_login(author)  # the run is queued after the test's transaction, which never commits
    response = client.post(f"/authoring/problems/{SLUG}/gate/", HTTP_HX_REQUEST="true")
    run = GateRun.objects.get(problem=draft)
    html = response.content.decode()
    assert response.status_code == 200 and f'id="gate-run-{run.pk}"' in html
    assert f'hx-get="/authoring/problems/{SLUG}/gate/{run.pk}/"' in html
    assert client.post(f"/authoring/problems/{SLUG}/gate/").status_code == 302  # without htmx, as before

    GateRun.objects.filter(pk=run.pk).update(
        status=GateStatus.DONE,
        passed=False,
        checks=[
            {
                "key": "reference",
                "title": "The reference solution passes every test",
                "passed": False,
                "detail": "example_1: runtime_error NameError: name 'two' is not defined",
            }
        ],
    )
    html = client.get(f"/authoring/problems/{SLUG}/gate/{run.pk}/").content.decode()
    assert "hx-get" not in html  # done: no more polling
    assert "<details open>" in html and "NameError: name &#x27;two&#x27; is not defined" in html


def test_a_gate_run_of_another_problem_is_not_found_under_this_one(client, draft, author, problems):
    other = Problem.objects.exclude(slug=SLUG).first()
    run = GateRun.objects.create(problem=other, package_hash="x")
    client.force_login(author)
    assert client.get(f"/authoring/problems/{SLUG}/gate/{run.pk}/").status_code == 404


def test_a_malformed_manifest_still_previews_the_statement(client, draft, author):
    client.force_login(author)
    response = client.post(
        PREVIEW, {"file:problem.toml": "[function]\nname = 'scale'\nparams = 3\n", "file:statement.md": "Still *here*."}
    )
    assert response.status_code == 200 and "<em>here</em>" in response.content.decode()


def test_previews_stay_out_of_the_rendering_cache(client, draft, author):
    from judge.problems.rendering import render_markdown

    client.force_login(author)
    before = render_markdown.cache_info().currsize
    for text in ("a", "ab", "abc"):
        client.post(PREVIEW, {"file:statement.md": text})
    assert render_markdown.cache_info().currsize == before
