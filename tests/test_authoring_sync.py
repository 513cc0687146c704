"""git and the database stay in step: sync imports git, but never silently overwrites a browser edit."""

from __future__ import annotations

import pytest

from judge.authoring.sync import sync_problems
from judge.problems.drafts import store_package_draft
from judge.problems.models import Problem
from tests.helpers import standalone_copy

SLUG = "prepend_class_token"


@pytest.fixture
def root(tmp_path, db):
    standalone_copy(SLUG, tmp_path)
    return tmp_path


@pytest.fixture
def edited_in_browser(root, admin_user):
    assert [o.action for o in sync_problems(root)] == ["created"]
    files = dict(Problem.objects.get(slug=SLUG).draft_files)
    files["statement.md"] += "\nEdited in the browser.\n"
    return store_package_draft(SLUG, files, user=admin_user)


def test_an_unchanged_folder_leaves_a_browser_edit_alone(root, edited_in_browser):
    assert [o.action for o in sync_problems(root)] == ["unchanged"]
    assert "Edited in the browser." in Problem.objects.get(slug=SLUG).draft_files["statement.md"]


def test_a_changed_folder_does_not_overwrite_a_browser_edit_without_force(root, edited_in_browser):
    (root / SLUG / "theory.md").write_text("## Changed in git\n")
    outcome = sync_problems(root)[0]
    assert outcome.action == "skipped" and "edited in the browser" in outcome.note
    problem = Problem.objects.get(slug=SLUG)
    assert "Edited in the browser." in problem.draft_files["statement.md"]
    assert problem.draft_files["theory.md"] != "## Changed in git\n"

    assert [o.action for o in sync_problems(root, force=True)] == ["updated"]
    problem = Problem.objects.get(slug=SLUG)
    assert problem.draft_files["theory.md"] == "## Changed in git\n" == problem.theory_md
    assert "Edited in the browser." not in problem.draft_files["statement.md"]


def test_a_folder_whose_gate_fails_is_imported_as_a_draft(root):
    solution = root / SLUG / "solution.py"
    solution.write_text(solution.read_text().replace("axis=1", "axis=0"))
    outcome = sync_problems(root)[0]
    assert outcome.action == "draft" and "reference" in outcome.note
    assert not Problem.objects.get(slug=SLUG).published
