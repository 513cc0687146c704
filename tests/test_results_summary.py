"""The result panel leads with the first failing test; passed and not-run tests fold into one summary line."""

from __future__ import annotations

import re

import pytest

from judge.problems.models import TestCase
from judge.submissions.models import Submission
from tests.conftest import read_solution
from tests.test_authoring_rejudge import WRONG_FOR_WIDTH_ONE
from tests.test_results_page import SLUG, graded_page, no_enqueue, result_rows  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("no_enqueue")


def shown_rows(page: str) -> list[str]:
    """Test rows shown unfolded, in order (everything before the first folded group)."""
    unfolded = page.split('<details class="tests-folded', 1)[0]
    return re.findall(r'<li class="test[^"]*" data-test="([a-z_0-9]+)"', unfolded)


def folded_rows(page: str, group: str) -> list[str]:
    start = f'<details class="tests-folded {group}">'
    if start not in page:
        return []
    folded = page.split(start, 1)[1].split('<details class="tests-folded', 1)[0]
    return re.findall(r'<li class="test[^"]*" data-test="([a-z_0-9]+)"', folded)


def test_a_compile_error_shows_one_line_for_the_tests_not_run_instead_of_a_row_each(client, problems, student):
    page = graded_page(client, student, problems[SLUG], "def prepend_class_token(:\n    pass\n")
    total = TestCase.objects.filter(test_set=problems[SLUG].current_test_set, variant=0).count()
    assert shown_rows(page) == []
    assert f"– {total} not run" in page and f"Show the {total} tests not run" in page
    assert len(folded_rows(page, "not-run-tests")) == total


def test_a_wrong_answer_leads_with_the_failing_test_and_folds_the_passed_ones(client, problems, student):
    page = graded_page(client, student, problems[SLUG], WRONG_FOR_WIDTH_ONE)
    total = TestCase.objects.filter(test_set=problems[SLUG].current_test_set, variant=0).count()
    assert shown_rows(page) == ["width_one"]
    assert f"✓ {total - 1} passed" in page
    passed = folded_rows(page, "passed-tests")
    assert len(passed) == total - 1 and "width_one" not in passed and passed[0] == "example_1"


def test_only_the_first_failing_visible_test_opens_its_arrays(client, problems, student):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/appended.py"))
    rows = shown_rows(page)
    assert rows[:2] == ["example_1", "example_2"]
    assert page.count('<details class="arrays" open>') == 1
    assert page.index('<details class="arrays" open>') < page.index('data-test="example_2"')


def test_an_accepted_submission_says_all_tests_passed_in_one_line(client, problems, student):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG))
    total = TestCase.objects.filter(test_set=problems[SLUG].current_test_set, variant=0).count()
    assert shown_rows(page) == [] and f"All {total} tests passed" in page
    assert len(folded_rows(page, "passed-tests")) == total


def test_the_same_error_on_many_tests_is_one_entry_naming_them_first_failing_case_first(client, problems, student):
    # Issue 25: without tiling, the same traceback was shown on 11 tests, a 3,000 px panel.
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/no_tile.py"))
    submission = Submission.objects.get()
    failing = [t["name"] for t in submission.results if t["status"] == "runtime_error"]
    assert len(failing) > 5 and failing[0] == "example_2"
    assert shown_rows(page) == ["example_2"]
    entry = result_rows(page)["example_2"]
    assert entry.count('<pre class="traceback">') == 1 and page.count('<pre class="traceback">') == 1
    same_on = re.search(r'<p class="same-on">(.*?)</p>', entry).group(1)
    assert same_on.startswith(f"The same on {len(failing) - 1} more tests: ")
    assert re.findall(r'<span class="test-name" data-test="([a-z_0-9]+)">', same_on) == failing[1:]


def test_different_failures_stay_separate_entries(client, problems, student):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/appended.py"))
    assert shown_rows(page)[:2] == ["example_1", "example_2"]  # different values, so different messages
