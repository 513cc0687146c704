"""Grades go back to the LMS by themselves: a change of credit on a linked assignment queues a score, and the
score that reaches the platform is the student's current credit, newest last; a failure is shown to the
instructor, who can send it again; the roster comes from the LMS on request."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import services as course_services
from judge.courses.models import Course, Membership, Role
from judge.lti import scores
from judge.lti.models import LtiUser, ScorePost, ScoreStatus
from judge.submissions.models import Submission
from judge.submissions.signals import verdict_recorded
from tests.boards import quick_problem, recorded, regraded
from tests.lti import launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import INSTRUCTOR, LEARNER

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(lms):
    return link_a_course(lms)


def link_a_course(lms):
    """An LMS course linked here, an assignment of two problems behind an LMS link with a line item, a student
    who came from the LMS through that link."""
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    instructor = Client()
    launch(instructor, lms, teacher)
    course = Course.objects.get()
    problems = [quick_problem("first_problem"), quick_problem("second_problem")]
    assignment = course_services.save_assignment(course, None, {"title": "Week 1"}, problems)
    link = lms.add_link("Week 1", {"assignment": str(assignment.pk)}, 2.0)
    ada = lms.person("lms-ada", "Ada", "Lovelace", [LEARNER])
    answer = launch(Client(), lms, ada, link)
    assert answer["Location"] == f"/courses/{course.pk}/assignments/{assignment.pk}/"
    user = LtiUser.objects.get(sub="lms-ada").user
    return lms, course, assignment, problems, user, instructor, link


def send_all() -> None:
    """What the worker does with the queued tasks."""
    for pk in ScorePost.objects.filter(status=ScoreStatus.PENDING).values_list("pk", flat=True):
        scores.post_score(pk)


def test_a_new_best_submit_sends_the_students_points_to_the_line_item(linked):
    lms, _course, _assignment, problems, ada, _, link = linked
    submission = recorded(ada, problems[0])
    verdict_recorded.send(sender=Submission, submission=submission)  # as the worker does after recording it
    send_all()
    [score] = lms.scores_for("lms-ada")
    assert (score["scoreGiven"], score["scoreMaximum"]) == (1.0, 2.0)
    assert score["lineitem"] == link.lineitem
    assert (score["activityProgress"], score["gradingProgress"]) == ("InProgress", "FullyGraded")
    assert score["timestamp"].startswith(str(timezone.now().year))
    assert "score" in lms.recorded.tokens[0]["scope"]

    second = recorded(ada, problems[1])
    verdict_recorded.send(sender=Submission, submission=second)
    send_all()
    assert [(s["scoreGiven"], s["activityProgress"]) for s in lms.scores_for("lms-ada")] == [
        (1.0, "InProgress"),
        (2.0, "Completed"),
    ]


def test_a_rejudge_that_lowers_the_credit_sends_the_lower_score_newest_last(linked):
    lms, _course, _assignment, problems, ada, _, _ = linked
    submission = recorded(ada, problems[0])
    scores.credit_changed(ada.pk, problems[0].pk)
    send_all()
    regraded(submission, Verdict.WRONG_ANSWER)
    scores.credit_changed(ada.pk, problems[0].pk)
    send_all()
    sent = lms.scores_for("lms-ada")
    assert [s["scoreGiven"] for s in sent] == [1.0, 0.0]
    assert sent[0]["timestamp"] < sent[1]["timestamp"]


def test_two_changes_queued_before_either_is_sent_both_send_the_newest_credit(linked):
    """Tasks for an older change that run late read the credit afresh: nothing older reaches the LMS last."""
    lms, _course, _assignment, problems, ada, _, _ = linked
    recorded(ada, problems[0])
    [row_id] = scores.credit_changed(ada.pk, problems[0].pk)
    recorded(ada, problems[1])
    scores.credit_changed(ada.pk, problems[1].pk)
    scores.post_score(row_id)
    scores.post_score(row_id)
    sent = lms.scores_for("lms-ada")
    assert [s["scoreGiven"] for s in sent] == [2.0, 2.0] and sent[0]["timestamp"] < sent[1]["timestamp"]


def test_an_extension_resends_the_score(linked, django_capture_on_commit_callbacks):
    lms, course, assignment, problems, ada, _, _ = linked
    late = timezone.now() - timedelta(hours=1)
    recorded(ada, problems[0], at=late)
    course_services.save_assignment(course, None, {"due_at": late - timedelta(hours=1)}, problems, assignment)
    with django_capture_on_commit_callbacks(execute=True):
        course_services.set_override(
            assignment, None, {"due_at": timezone.now() + timedelta(days=1)}, "illness", student=ada
        )
    assert ScorePost.objects.get().status == ScoreStatus.PENDING
    send_all()
    assert lms.scores_for("lms-ada")[-1]["scoreGiven"] == 1.0


def test_a_failed_post_is_shown_to_the_instructor_who_sends_it_again(linked):
    lms, course, _assignment, problems, ada, instructor, _ = linked
    recorded(ada, problems[0])
    scores.credit_changed(ada.pk, problems[0].pk)
    lms.fail_scores = 1
    with pytest.raises(scores.ScorePostFailed):
        send_all()
    page = instructor.get(f"/lti/courses/{course.pk}/").content.decode()
    assert "1 score could not be sent" in page and "the LMS answered 503" in page
    assert not lms.scores_for("lms-ada")

    instructor.post(f"/lti/courses/{course.pk}/send-again/")
    assert ScorePost.objects.get().status == ScoreStatus.PENDING
    send_all()
    assert [s["scoreGiven"] for s in lms.scores_for("lms-ada")] == [1.0]
    page = instructor.get(f"/lti/courses/{course.pk}/").content.decode()
    assert "could not be sent" not in page and "1.00 / 2" in page


def test_a_student_cannot_open_the_lms_page_of_their_course(linked):
    lms, course, *_ = linked
    student = Client()
    launch(student, lms, lms.people["lms-ada"])
    assert student.get(f"/lti/courses/{course.pk}/").status_code == 403
    assert student.post(f"/lti/courses/{course.pk}/send-again/").status_code == 403


def test_the_instructor_syncs_the_roster_from_the_lms(linked):
    lms, course, _, _, ada, instructor, _ = linked
    lms.person("lms-grace", "Grace", "Hopper", [LEARNER])
    lms.person(
        "lms-tariq", "Tariq", "Aziz", ["http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"]
    )
    context = course.lti_contexts.get()
    answer = instructor.post(f"/lti/courses/{course.pk}/roster/", {"context": context.pk}, follow=True)
    assert "2 added, 0 changed role, 2 unchanged" in answer.content.decode()
    assert lms.recorded.memberships == 1
    roles = dict(Membership.objects.filter(course=course).values_list("user__lti_identities__sub", "role"))
    assert roles == {
        "lms-teacher": Role.INSTRUCTOR,
        "lms-ada": Role.STUDENT,
        "lms-grace": Role.STUDENT,
        "lms-tariq": Role.TA,
    }
    assert LtiUser.objects.get(sub="lms-ada").user == ada  # the same person, not a second account


def test_an_instructor_links_the_lms_course_to_an_existing_course_they_teach(linked, django_user_model):
    lms, course, _, _, ada, instructor, _ = linked
    iris = LtiUser.objects.get(sub="lms-teacher").user
    owner = django_user_model.objects.create_user("owner", password="a long pass phrase 42", is_staff=True)
    existing = course_services.create_course(owner, "Transformers, the running course")
    assert instructor.get(f"/lti/courses/{course.pk}/").context["others"].count() == 0
    Membership.objects.create(course=existing, user=iris, role=Role.INSTRUCTOR)  # as a roster upload does
    answer = instructor.post(
        f"/lti/courses/{course.pk}/relink/",
        {"context": course.lti_contexts.get().pk, "course": existing.pk},
        follow=True,
    )
    assert "1 people from the LMS were added" in answer.content.decode()
    assert Membership.objects.get(course=existing, user=ada).role == Role.STUDENT
    assert launch(Client(), lms, lms.people["lms-ada"])["Location"] == f"/courses/{existing.pk}/"


def test_a_course_one_does_not_teach_cannot_be_linked(linked, django_user_model):
    _lms, course, _, _, _ada, instructor, _ = linked
    other = course_services.create_course(django_user_model.objects.create_user("x"), "Someone else's")
    answer = instructor.post(
        f"/lti/courses/{course.pk}/relink/", {"context": course.lti_contexts.get().pk, "course": other.pk}, follow=True
    )
    assert "only to a course you teach here" in answer.content.decode()
    assert course.lti_contexts.count() == 1


def test_a_score_left_pending_by_a_lost_message_is_queued_again_by_the_sweep(linked, monkeypatch):
    _lms, _course, _, problems, ada, _, _ = linked
    recorded(ada, problems[0])
    sent = []
    monkeypatch.setattr(scores, "enqueue_on_commit", lambda name, *args: sent.append((name, args)))
    [row_id] = scores.credit_changed(ada.pk, problems[0].pk)
    assert scores.resend_stalled() == 0  # just queued: its task may still come
    ScorePost.objects.filter(pk=row_id).update(changed_at=timezone.now() - scores.STALE_AFTER - timedelta(seconds=1))
    assert scores.resend_stalled() == 1
    assert sent == [(scores.POST_SCORE_TASK, (row_id,))] * 2
