"""A site without an LMS pays nothing for the LMS on each verdict, and a site that gets one misses no verdict:
a worker that found no link looks again only every few seconds, sends what it let pass when it finds one, and
the launch that made the link sends its assignment's scores again once every worker has looked."""

from __future__ import annotations

import pytest

from judge.lib import broker
from judge.lti import scores, tasks
from judge.lti.models import ScorePost
from judge.submissions.models import Submission
from judge.submissions.signals import verdict_recorded
from tests.boards import quick_problem, recorded
from tests.lti import launch, lms  # noqa: F401 (fixture)
from tests.test_lti_grades import link_a_course, linked, send_all  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def announce(submission) -> None:
    verdict_recorded.send(sender=Submission, submission=submission)  # as the worker does after recording it


def test_verdicts_on_a_site_without_an_lms_ask_the_database_once(student, django_assert_num_queries):
    problem = quick_problem("first_problem")
    first, second = recorded(student, problem), recorded(student, problem)
    with django_assert_num_queries(1):
        announce(first)
    with django_assert_num_queries(0):
        announce(second)
    assert not ScorePost.objects.exists()


def test_a_verdict_let_pass_just_before_another_worker_made_the_first_link_is_sent_at_the_next_look(
    linked, monkeypatch
):
    lms, _course, _assignment, problems, ada, _, _link = linked
    # This worker looked just before another process's launch made the link: it knows of none yet.
    seen = scores.ScoringLinks()
    seen.look()
    seen.seen = False
    monkeypatch.setattr(scores, "scoring_links_seen", seen)
    announce(recorded(ada, problems[0]))
    assert not ScorePost.objects.exists()  # let pass for now
    monkeypatch.setattr(seen, "looked_at", seen.looked_at - scores.LINKS_RECHECK_S)
    announce(recorded(ada, problems[1]))  # the next look finds the link: both are sent
    send_all()
    assert [s["scoreGiven"] for s in lms.scores_for("lms-ada")][-1] == 2.0


def test_the_launch_that_makes_a_link_sends_its_assignments_scores_again_once_every_worker_has_looked(
    lms, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        broker, "send_task", lambda name, *args, countdown=None, **kwargs: sent.append((name, args, countdown))
    )
    with django_capture_on_commit_callbacks(execute=True):
        _lms, _course, assignment, problems, ada, _, _link = link_a_course(lms)
    assert (scores.SEND_ASSIGNMENT_TASK, (assignment.pk,), 2 * scores.LINKS_RECHECK_S) in sent
    recorded(ada, problems[0])  # a verdict no worker sent: it died holding it
    tasks.send_assignment_scores(assignment.pk)
    send_all()
    assert [s["scoreGiven"] for s in lms.scores_for("lms-ada")] == [1.0]
