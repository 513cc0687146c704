"""Running the checks and publishing are two steps (issue 25 §3): a passing run leaves the live version alone,
and Publish, offered only after a passing run of the same draft, first shows what changes for students."""

from __future__ import annotations

import re

import pytest

from judge.authoring.gate_runs import execute_gate_run, run_gate_now
from judge.authoring.models import Action, AuditEntry
from judge.authoring.services import edit_draft
from judge.problems.drafts import store_package_draft
from judge.problems.models import GateRun, Problem
from tests.helpers import standalone_files

SLUG = "prepend_class_token"
PAGE = f"/authoring/problems/{SLUG}/"
PUBLISH = f"/authoring/problems/{SLUG}/publish/"
NEW_PARAGRAPH = "A new paragraph the students have not seen."


@pytest.fixture
def live(db) -> Problem:
    """The problem published from git (``sync_problems`` and ``validate_problem`` still publish what passes)."""
    run = run_gate_now(store_package_draft(SLUG, standalone_files(SLUG), imported=True), trigger="sync")
    assert run.passed, run.checks
    return Problem.objects.get(slug=SLUG)


def edited(author, problem: Problem) -> Problem:
    """A new paragraph, and a hidden test replaced by another (the draws after it change too)."""
    files = dict(problem.draft_files)
    files["statement.md"] += f"\n{NEW_PARAGRAPH}\n"
    files["generator.py"] = files["generator.py"].replace(
        'yield _case("width_one", True, *_random(rng, 2, 5, 1))',
        'yield _case("width_two", True, *_random(rng, 2, 5, 2))',
    )
    return edit_draft(author, problem, files)


def checks_from_the_workbench(client, problem: Problem, sandbox) -> GateRun:
    """Run the checks as the workbench does: the request queues the run (sent once the test's transaction
    commits, which it never does), and a worker runs it."""
    assert client.post(f"/authoring/problems/{problem.slug}/gate/").status_code == 302
    run = GateRun.objects.filter(problem=problem).latest("pk")
    assert execute_gate_run(run.pk, sandbox)
    run.refresh_from_db()
    return run


def test_passing_checks_leave_the_live_version_until_publish_and_publish_shows_the_changes(
    client, live, author, student, process_sandbox
):
    client.force_login(author)
    draft = edited(author, live)
    assert "review-publish" not in client.get(PAGE).content.decode()  # nothing to publish before the checks pass

    run = checks_from_the_workbench(client, draft, process_sandbox)
    assert run.passed, run.checks
    problem = Problem.objects.get(slug=SLUG)
    # Before issue 25's split, a passing run published: the test set and the statement changed here.
    assert problem.current_test_set_id == live.current_test_set_id and NEW_PARAGRAPH not in problem.statement_md
    client.force_login(student)
    assert NEW_PARAGRAPH not in client.get(f"/problems/{SLUG}/").content.decode()

    client.force_login(author)
    overview = client.get(PAGE).content.decode()
    assert 'id="review-publish"' in overview and "not live yet" in overview
    review = client.get(PUBLISH).content.decode()
    diff = re.search(r'<details class="file-diff" id="diff-statement.md".*?</details>', review, re.DOTALL).group(0)
    assert f'<span class="add">+{NEW_PARAGRAPH}</span>' in diff and 'data-kind="changed"' in diff
    assert 'id="diff-generator.py"' in review and 'id="diff-solution.py"' not in review  # only what differs
    assert 'data-test="width_two" data-kind="added"' in review
    assert 'data-test="width_one" data-kind="removed"' in review
    assert re.search(r'data-test="batch_of_one" data-kind="changed">.*?: inputs, expected output', review)
    assert 'data-test="example_1"' not in review  # the visible examples are unchanged

    response = client.post(PUBLISH, {"version": problem.draft_hash})
    assert response.status_code == 302 and response["Location"] == PAGE
    problem = Problem.objects.get(slug=SLUG)
    assert problem.published and problem.current_test_set_id != live.current_test_set_id
    assert NEW_PARAGRAPH in problem.statement_md
    assert problem.current_test_set.version == problem.draft_hash
    assert problem.spec["budget_s"] == problem.current_test_set.budget_s  # the budget the passing run settled on
    entry = AuditEntry.objects.filter(problem_slug=SLUG, action=Action.PUBLISH).first()
    assert entry.user == author and f"gate run #{run.pk}" in entry.summary
    client.force_login(student)
    assert NEW_PARAGRAPH in client.get(f"/problems/{SLUG}/").content.decode()


def test_publish_is_refused_with_a_reason_until_the_checks_pass_on_the_draft_reviewed(client, live, author):
    client.force_login(author)
    live_version = live.current_test_set_id
    response = client.post(PUBLISH, {"version": live.draft_hash})
    assert response.status_code == 400 and "already live" in response.content.decode()

    draft = edited(author, live)  # no run on this draft yet
    page = client.get(PUBLISH).content.decode()
    assert "The checks have not passed on this draft yet" in page and 'id="publish"' not in page
    response = client.post(PUBLISH, {"version": draft.draft_hash})
    assert response.status_code == 400 and "run the checks on this draft first" in response.content.decode()

    response = client.post(PUBLISH, {"version": "an older draft"})
    assert response.status_code == 400 and "the draft changed since you reviewed it" in response.content.decode()
    problem = Problem.objects.get(slug=SLUG)
    assert problem.current_test_set_id == live_version and NEW_PARAGRAPH not in problem.statement_md
    assert not AuditEntry.objects.filter(problem_slug=SLUG, action=Action.PUBLISH, user=author).exists()


def test_publish_is_staff_only_and_needs_a_post_to_change_anything(client, live, student):
    assert client.get(PUBLISH).status_code == 302  # to the login page
    client.force_login(student)
    assert client.get(PUBLISH).status_code == 403
    assert client.post(PUBLISH, {"version": live.draft_hash}).status_code == 403


def test_a_first_publish_lists_every_test_as_added(client, db, author, process_sandbox):
    client.force_login(author)
    draft = store_package_draft(SLUG, standalone_files(SLUG), user=author)
    run = run_gate_now(draft, author, trigger="manual", sandbox=process_sandbox, publish=False)
    assert run.passed and not Problem.objects.get(slug=SLUG).published
    review = client.get(PUBLISH).content.decode()
    assert "Publishing shows it to students for the first time" in review
    assert review.count('data-kind="added"') >= 13 + len(draft.draft_files)  # every test and every file
    assert client.post(PUBLISH, {"version": draft.draft_hash}).status_code == 302
    assert Problem.objects.get(slug=SLUG).published
