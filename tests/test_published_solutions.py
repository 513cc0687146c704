"""Published solutions, persona by persona: the solver who publishes, another solver who reads, votes and compares,
someone who has not solved the problem, a visitor, staff who hide one, and a course's student while an assignment
holding the problem is open (timed or not).  Every refusal is the page a person would see."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import services as courses
from judge.courses.models import Membership, Override, Role
from judge.solutions.models import Moderation, ModerationEntry, PublishedSolution, Vote
from judge.submissions.models import Kind, Submission
from tests.boards import quick_problem
from tests.students import graded

pytestmark = pytest.mark.django_db

FAST = "import numpy as np\n\n\ndef f(x):\n    return np.sum(x)\n"
SLOW = "import numpy as np\n\n\ndef f(x):\n    total = 0\n    for v in x:\n        total += v\n    return total\n"


@pytest.fixture
def problem():
    return quick_problem("running_sum")


def accepted(user, problem, code: str, ratio: float | None = None, minute: int = 0) -> Submission:
    submission = graded(user, problem, Verdict.ACCEPTED, code=code, minute=minute)
    if ratio is not None:
        Submission.objects.filter(pk=submission.pk).update(speed={"ratio": ratio, "ratio_precise": ratio})
        submission.refresh_from_db()
    return submission


def log_in(client, user):
    client.force_login(user)
    return client


def publish(client, submission: Submission):
    return client.post(f"/submissions/{submission.pk}/publish/")


def solution_of(submission: Submission) -> PublishedSolution:
    return PublishedSolution.objects.get(submission=submission)


@pytest.fixture
def published(client, problem, student):
    """ada's accepted Submit, published from its page."""
    submission = accepted(student, problem, SLOW, ratio=12.0)
    assert publish(log_in(client, student), submission).status_code == 302
    client.logout()
    return solution_of(submission)


def test_the_solver_publishes_an_accepted_submit_from_its_page_and_withdraws_it(client, problem, student):
    submission = accepted(student, problem, SLOW)
    log_in(client, student)
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'id="publish-button"' in page
    assert publish(client, submission).status_code == 302
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "students who solved this problem can read it" in page and 'id="withdraw-button"' in page

    solution = solution_of(submission)
    client.post(f"/solutions/{solution.pk}/withdraw/")
    solution.refresh_from_db()
    assert solution.withdrawn_at is not None
    assert 'id="publish-button"' in client.get(f"/submissions/{submission.pk}/").content.decode()


def test_only_an_accepted_submit_can_be_published(client, problem, student):
    wrong = graded(student, problem, Verdict.WRONG_ANSWER, code=SLOW)
    run = graded(student, problem, Verdict.ACCEPTED, kind=Kind.RUN, code=SLOW)
    log_in(client, student)
    for submission in (wrong, run):
        assert 'id="publish-button"' not in client.get(f"/submissions/{submission.pk}/").content.decode()
        answer = publish(client, submission)
        assert answer.status_code == 400
        assert "Only an accepted Submit can be published." in answer.content.decode()
    assert not PublishedSolution.objects.exists()


def test_nobody_publishes_someone_elses_submit(client, problem, student, second_student):
    submission = accepted(student, problem, SLOW)
    assert publish(log_in(client, second_student), submission).status_code == 404
    assert not PublishedSolution.objects.exists()


def test_another_solver_reads_it_with_its_code_highlighted(client, problem, second_student, published):
    accepted(second_student, problem, FAST)
    log_in(client, second_student)
    listing = client.get(f"/problems/{problem.slug}/solutions/")
    assert listing.status_code == 200
    assert f"/problems/{problem.slug}/solutions/{published.pk}/" in listing.content.decode()
    page = client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").content.decode()
    assert '<span class="k">for</span>' in page  # a keyword, marked by the highlighter
    assert "by ada" in page and "12.0&times;" in page


def test_someone_who_has_not_solved_it_reads_nothing(client, problem, second_student, published):
    graded(second_student, problem, Verdict.WRONG_ANSWER, code=FAST)  # tried, not solved
    log_in(client, second_student)
    listing = client.get(f"/problems/{problem.slug}/solutions/")
    assert listing.status_code == 403
    assert "Solve this problem first" in listing.content.decode()
    assert f"/solutions/{published.pk}/" not in listing.content.decode()
    assert client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").status_code == 404
    assert client.get(f"/problems/{problem.slug}/solutions/{published.pk}/diff/").status_code == 404


def test_a_visitor_reads_nothing(client, problem, published):
    listing = client.get(f"/problems/{problem.slug}/solutions/")
    assert listing.status_code == 403 and "Log in and solve this problem" in listing.content.decode()
    assert client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").status_code == 404


def test_sorted_by_speed_or_by_votes(client, problem, student, second_student, django_user_model, published):
    fast = accepted(second_student, problem, FAST, ratio=1.4)
    unmeasured = accepted(second_student, problem, FAST + "# again\n", minute=1)
    log_in(client, second_student)
    publish(client, fast)
    publish(client, unmeasured)
    voters = [django_user_model.objects.create_user(f"voter{i}", password="a long pass phrase") for i in range(2)]
    for voter in voters:
        accepted(voter, problem, FAST)
        log_in(client, voter).post(f"/solutions/{published.pk}/vote/", {"vote": "up"})

    def order(query: str) -> list[int]:
        page = log_in(client, second_student).get(f"/problems/{problem.slug}/solutions/{query}").content.decode()
        return [int(part.split('"')[0]) for part in page.split('data-solution="')[1:]]

    by_speed = [solution_of(fast).pk, published.pk, solution_of(unmeasured).pk]  # unmeasured last
    assert order("") == by_speed and order("?order=speed") == by_speed
    assert order("?order=votes") == [published.pk, solution_of(fast).pk, solution_of(unmeasured).pk]


def test_one_vote_per_person_and_none_for_ones_own(client, problem, student, second_student, published):
    accepted(second_student, problem, FAST)
    log_in(client, second_student)
    for _ in range(2):
        client.post(f"/solutions/{published.pk}/vote/", {"vote": "up"})
    assert Vote.objects.filter(solution=published).count() == 1
    assert "1 vote<" in client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").content.decode()
    client.post(f"/solutions/{published.pk}/vote/", {"vote": "withdraw"})
    assert Vote.objects.filter(solution=published).count() == 0

    own = log_in(client, student).post(f"/solutions/{published.pk}/vote/", {"vote": "up"})
    assert own.status_code == 400 and "You cannot vote for your own solution." in own.content.decode()
    assert not Vote.objects.exists()


def test_the_difference_to_ones_own_accepted_solution(client, problem, second_student, published):
    mine = accepted(second_student, problem, FAST)
    log_in(client, second_student)
    page = client.get(f"/problems/{problem.slug}/solutions/{published.pk}/diff/").content.decode()
    assert f'From your <a href="/submissions/{mine.pk}/">#{mine.pk}</a>' in page
    assert '<span class="removed">-    return np.sum(x)' in page
    assert '<span class="added">+        total += v' in page


def test_staff_hide_one_with_a_reason_that_its_author_reads(
    client, problem, student, second_student, author, published
):
    accepted(second_student, problem, FAST)
    log_in(client, author)
    refused = client.post(f"/solutions/{published.pk}/moderate/", {"action": "hide", "reason": "  "})
    assert refused.status_code == 400 and "Say why it is hidden" in refused.content.decode()
    assert client.get(f"/problems/{problem.slug}/solutions/").status_code == 200  # staff read without solving
    client.post(f"/solutions/{published.pk}/moderate/", {"action": "hide", "reason": "copied from the editorial"})
    entry = ModerationEntry.objects.get()
    assert (entry.by, entry.action, entry.reason) == (author, Moderation.HIDE, "copied from the editorial")
    assert (
        "copied from the editorial"
        in client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").content.decode()
    )

    log_in(client, second_student)
    assert f"solutions/{published.pk}/" not in client.get(f"/problems/{problem.slug}/solutions/").content.decode()
    assert client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").status_code == 404

    log_in(client, student)
    page = client.get(f"/submissions/{published.submission_id}/").content.decode()
    assert "hidden by staff" in page and "copied from the editorial" in page
    # Withdrawing and publishing again does not bring it back.
    client.post(f"/solutions/{published.pk}/withdraw/")
    publish(client, published.submission)
    published.refresh_from_db()
    assert published.hidden_at is not None and published.withdrawn_at is None


def test_a_non_staff_member_cannot_hide_one(client, problem, second_student, published):
    accepted(second_student, problem, FAST)
    assert (
        log_in(client, second_student)
        .post(f"/solutions/{published.pk}/moderate/", {"action": "hide", "reason": "mine is better"})
        .status_code
        == 404
    )
    published.refresh_from_db()
    assert published.hidden_at is None


def in_course(student, problem, instructor, **dates):
    course = courses.create_course(instructor, "Transformers in NumPy", "Spring 2026")
    Membership.objects.create(course=course, user=student, role=Role.STUDENT)
    return courses.save_assignment(course, instructor, {"title": "Week 1", "weight": 1.0, **dates}, [problem])


def test_a_course_student_reads_none_while_an_assignment_holding_it_is_open(
    client, problem, second_student, author, published
):
    accepted(second_student, problem, FAST)  # solved, but their course's assignment is still open
    now = timezone.now()
    assignment = in_course(second_student, problem, author, due_at=now + timedelta(days=1))
    log_in(client, second_student)
    listing = client.get(f"/problems/{problem.slug}/solutions/")
    assert listing.status_code == 403
    assert "stay closed while the assignment &#x27;Week 1&#x27;" in listing.content.decode()
    assert client.get(f"/problems/{problem.slug}/solutions/{published.pk}/").status_code == 404

    # Past the due time but inside one student's extension: still closed to the class.
    assignment.due_at = now - timedelta(hours=1)
    assignment.save()
    override = Override.objects.create(
        assignment=assignment, user=second_student, reason="ill", due_at=now + timedelta(hours=2)
    )
    assert client.get(f"/problems/{problem.slug}/solutions/").status_code == 403
    override.delete()
    assert client.get(f"/problems/{problem.slug}/solutions/").status_code == 200  # over for everyone: open


def test_a_timed_assignment_keeps_them_closed_until_it_ends_and_for_ever_without_an_end(
    client, problem, second_student, author, published
):
    accepted(second_student, problem, FAST)
    assignment = in_course(second_student, problem, author, time_limit_minutes=60)
    log_in(client, second_student)
    listing = client.get(f"/problems/{problem.slug}/solutions/")
    assert listing.status_code == 403 and "timed assignment" in listing.content.decode()
    assignment.opens_at = timezone.now() - timedelta(days=3)
    assignment.due_at = timezone.now() - timedelta(days=2)
    assignment.save()
    assert client.get(f"/problems/{problem.slug}/solutions/").status_code == 200


def test_someone_outside_the_course_who_solved_it_still_reads_them(
    client, problem, second_student, django_user_model, author, published
):
    classmate = django_user_model.objects.create_user("sam", password="a long pass phrase")
    in_course(classmate, problem, author, due_at=timezone.now() + timedelta(days=1))
    accepted(second_student, problem, FAST)
    assert log_in(client, second_student).get(f"/problems/{problem.slug}/solutions/").status_code == 200
