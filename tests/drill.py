"""The restore drill's course: what an operator must get back from a backup, and what they would look at.

``fill_course`` makes a course as a term leaves it (students and a TA, two assignments, verdicts of every kind
recorded as a worker records them, an extension, points by hand, comments with a reply, a linked LMS course with
its line items and scores); ``observed`` reads what people see of it through the site's own code: the gradebook
CSV, the site's and the course's standings, every submission's verdict, the comments and the LMS links. The drill
compares ``observed`` before the backup with ``observed`` on the restored database. The SQLite drill runs both in
``manage.py shell`` of a site of its own, so they return plain data.
"""

from __future__ import annotations

import io
from dataclasses import asdict
from datetime import timedelta

from engine.verdicts import Verdict
from judge.courses import desk, services
from judge.courses.export import gradebook_csv
from judge.courses.grades import gradebook
from judge.courses.leaderboard import course_standings
from judge.courses.models import AdjustmentKind, Course, Feedback, Override
from judge.lti.models import LtiContext, LtiLink, LtiUser, Platform, ScorePost, ScoreStatus
from judge.standings.models import Period
from judge.standings.ranking import leaderboard
from judge.submissions.models import Kind, Submission
from tests.boards import quick_problem, recorded, regraded
from tests.courses import DUE, make_world

HOUR = timedelta(hours=1)


def fill_course(user_model) -> int:
    """The course's number, once every row is written."""
    w = make_world(user_model)
    first, second = w.problems
    third = quick_problem("third_step", order=3)
    week2 = services.save_assignment(
        w.course,
        w.instructor,
        {
            "title": "Week 2",
            "opens_at": DUE,
            "due_at": DUE + 168 * HOUR,
            "closes_at": None,
            "late_rule": "",
            "weight": 3.0,
        },
        [second, third],
    )
    sam = user_model.objects.create_user("sam2", "sam2@example.org", "correct horse battery")
    services.enrol(w.course, sam, "student", by=w.instructor)

    ada_wrong = recorded(w.student, first, Verdict.WRONG_ANSWER, at=DUE - 3 * HOUR)
    recorded(w.student, first, at=DUE - 2 * HOUR)
    recorded(w.student, second, Verdict.ACCEPTED, at=DUE - HOUR, kind=Kind.RUN)  # a Run: no credit
    recorded(w.student, second, at=DUE + 30 * HOUR)  # late for Week 1 (x 0.5); Week 2 counts it on time
    grace_late = recorded(w.second, first, at=DUE + HOUR)
    recorded(w.second, third, Verdict.TIME_LIMIT_EXCEEDED, at=DUE + 2 * HOUR)
    recorded(w.second, third, Verdict.RUNTIME_ERROR, at=DUE + 3 * HOUR)
    sam_rejudged = recorded(sam, first, at=DUE - HOUR)
    assert regraded(sam_rejudged, Verdict.WRONG_ANSWER)  # a rejudge that took the solve away
    recorded(w.stranger, third)  # outside the course: on the site's standings only

    services.set_override(
        w.assignment,
        w.instructor,
        {"due_at": DUE + 48 * HOUR, "closes_at": DUE + 72 * HOUR},
        "a medical certificate",
        student=w.second,
    )
    Override.objects.get(user=w.second)  # the extension makes grace's late Submit on time
    desk.adjust_points(week2, w.ta, sam, third, AdjustmentKind.OVERRIDE, 0.75, "explained it in the lab")
    desk.adjust_points(
        w.assignment, w.instructor, w.student, first, AdjustmentKind.DELTA, -0.25, "copied the docstring"
    )
    desk.leave_feedback(w.course, w.ta, ada_wrong, "Check the **axis** you concatenate on.", line=1)
    comment = desk.leave_feedback(w.course, w.instructor, grace_late, "Well done, and on time after all.")
    desk.reply_to_feedback(w.second, comment.pk, "Thank you!")

    platform = Platform.objects.create(
        name="Canvas",
        issuer="https://canvas.example.edu",
        client_id="10000000000001",
        deployment_ids=["1:abc"],
        key_set_url="https://canvas.example.edu/api/lti/security/jwks",
        auth_login_url="https://canvas.example.edu/api/lti/authorize_redirect",
        auth_token_url="https://canvas.example.edu/login/oauth2/token",
    )
    context = LtiContext.objects.create(
        platform=platform,
        deployment_id="1:abc",
        context_id="course-42",
        title="Transformers (Canvas)",
        course=w.course,
        lineitems_url="https://canvas.example.edu/api/lti/courses/42/line_items",
        ags_scopes=["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
    )
    for index, user in enumerate((w.instructor, w.student, w.second)):
        LtiUser.objects.create(platform=platform, sub=f"canvas-user-{index}", user=user)
    for assignment, link_id in ((w.assignment, "link-week-1"), (week2, "link-week-2")):
        link = LtiLink.objects.create(
            context=context,
            resource_link_id=link_id,
            assignment=assignment,
            lineitem_url=f"{context.lineitems_url}/{link_id}",
        )
        ScorePost.objects.create(
            link=link, user=w.student, status=ScoreStatus.SENT, score_given=1.25, score_maximum=2.0, attempts=1
        )
        ScorePost.objects.create(
            link=link, user=w.second, status=ScoreStatus.FAILED, attempts=3, last_error="503 from the platform"
        )
    return w.course.pk


def observed(course_pk: int) -> dict:
    """What the site shows of the course and its students, as plain data."""
    course = Course.objects.get(pk=course_pk)
    csv, per_problem = io.StringIO(), io.StringIO()
    book = gradebook(course)
    gradebook_csv(book, csv)
    gradebook_csv(book, per_problem, per_problem=True)
    return {
        "gradebook_csv": csv.getvalue(),
        "gradebook_per_problem_csv": per_problem.getvalue(),
        "standings": [_plain(asdict(s)) for window in Period.values for s in leaderboard(window=window)],
        "course_standings": [_plain(asdict(s)) for s in course_standings(course)[1]],
        "verdicts": [
            _plain(row)
            for row in Submission.objects.order_by("pk").values(
                "pk", "user__username", "problem__slug", "kind", "status", "verdict", "created_at", "finished_at"
            )
        ],
        "feedback": [
            _plain(row)
            for row in Feedback.objects.order_by("pk").values(
                "submission_id", "author__username", "line", "body_md", "reply_md", "created_at"
            )
        ],
        "overrides": [
            _plain(row)
            for row in Override.objects.order_by("pk").values(
                "assignment__title", "user__username", "due_at", "closes_at", "reason"
            )
        ],
        "lti": [
            _plain(row)
            for row in LtiLink.objects.order_by("pk").values(
                "context__context_id", "context__course_id", "resource_link_id", "assignment__title", "lineitem_url"
            )
        ],
        "scores": [
            _plain(row)
            for row in ScorePost.objects.order_by("pk").values(
                "link__resource_link_id", "user__username", "status", "score_given", "attempts", "last_error"
            )
        ],
    }


def _plain(row: dict) -> dict:
    """Datetimes as ISO text, so the observation survives JSON."""
    return {key: value.isoformat() if hasattr(value, "isoformat") else value for key, value in row.items()}
