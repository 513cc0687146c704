"""The spaced review on the site: the profile says what is due (to its owner alone), the review page opens on the
starter code with its own Submit, and that Submit is made as a review."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from judge.learning.services import save_code_draft
from judge.submissions.models import Kind, Submission
from tests.boards import quick_problem, recorded

pytestmark = pytest.mark.usefixtures("no_enqueue")


@pytest.fixture
def solved_long_ago(db, student):
    problem = quick_problem("alpha")
    Submission.objects.filter(pk=recorded(student, problem).pk).update(created_at=timezone.now() - timedelta(days=4))
    return problem


def test_the_owners_profile_lists_what_is_due_and_nobody_elses_does(client, student, second_student, solved_long_ago):
    client.force_login(student)
    page = client.get(reverse("profile", args=[student.username])).content.decode()
    assert 'href="/problems/alpha/review/"' in page and "review 1 of 3" in page
    client.force_login(second_student)
    page = client.get(reverse("profile", args=[student.username])).content.decode()
    assert "/problems/alpha/review/" not in page and 'id="reviews"' not in page


def test_the_review_page_starts_blank_and_submits_a_review(client, student, solved_long_ago):
    save_code_draft(student, solved_long_ago, "def mine():\n    return 'my draft'\n")
    client.force_login(student)
    problem_page = client.get(reverse("problem-detail", args=["alpha"])).content.decode()
    assert "Due for review (1 of 3)" in problem_page and "my draft" in problem_page
    page = client.get(reverse("problem-review", args=["alpha"])).content.decode()
    assert "my draft" not in page and 'data-draft-url=""' in page
    # Nothing on a blank page shows the way: no hints, no Submissions tab with the accepted code, no notes, no editorial.
    assert not [tab for tab in ("tab-hints", "tab-submissions", "tab-notes", "tab-editorial") if tab in page]
    assert '<button type="submit" name="kind" value="review"' in page and ">Submit review</button>" in page

    client.post(reverse("submit", args=["alpha"]), {"code": "import numpy as np\n", "kind": "review"})
    assert Submission.objects.latest("pk").kind == Kind.REVIEW


def test_a_review_page_before_its_time_says_when(client, student, db):
    problem = quick_problem("alpha")
    recorded(student, problem)
    client.force_login(student)
    page = client.get(reverse("problem-review", args=["alpha"])).content.decode()
    assert "No review now: this problem&#x27;s next review is due on" in page
    assert ">Submit review</button>" not in page
    answer = client.post(reverse("submit", args=["alpha"]), {"code": "import numpy as np\n", "kind": "review"})
    assert answer.status_code == 400 and "next review is due on" in answer.content.decode()
    assert not Submission.objects.filter(kind=Kind.REVIEW).exists()
