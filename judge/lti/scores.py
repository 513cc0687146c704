"""Grades back to the LMS (Assignment and Grade Services), one row per (link, student) in ``ScorePost``.

The rules, in the manner of the submissions' claim protocol:
- A change of credit (a verdict on a linked assignment's problem, a rejudge, an override) marks the row
  PENDING and sends ``POST_SCORE_TASK`` once the transaction commits; the web request never talks to the LMS.
- ``post_score`` holds the row's lock while it reads the credit afresh and posts it stamped with the time it
  read it. Two tasks for the same row therefore post one after the other, the later one the newer credit with
  the later timestamp: the newest wins, and no older score can arrive after it.
- A failure is written on the row (FAILED, the error, the attempt count) and the task retries with backoff;
  the instructor sees it and can send it again. A sweep re-sends rows left PENDING (a lost message).
- Before an assignment's grades are released for a student (``courses.release``), nothing is sent: the row is
  HELD. Staff pressing Release marks every row PENDING (``credit_rules_changed``); a release that comes with
  the time (after each student's due time) is found by the sweep, which marks the student's HELD rows PENDING.
  Sending is idempotent (the platform keeps the newest timestamp), so a row sent twice does no harm.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from typing import Final

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector

from judge.courses.grades import grade_assignment, students_of
from judge.courses.groups import mates_on_problem
from judge.courses.models import Assignment, Role
from judge.courses.release import released_for, windows_for_users
from judge.lib.broker import enqueue_on_commit
from judge.lti.models import LtiLink, LtiUser, ScorePost, ScoreStatus
from judge.lti.tool import TimeoutSession, registration_of

log = logging.getLogger(__name__)

POST_SCORE_TASK = "judge.lti.tasks.post_score"
SEND_ASSIGNMENT_TASK = "judge.lti.tasks.send_assignment_scores"
SCORE_SCOPE: Final = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
STALE_AFTER = timedelta(minutes=2)


class ScorePostFailed(Exception):
    pass


def linked(links, user_ids: list[int] | None = None) -> list[tuple[int, int]]:
    """(link, student) pairs with a line item, for students with an LMS identity on the link's platform."""
    pairs = []
    for link in links.exclude(lineitem_url="").filter(assignment__isnull=False).select_related("context"):
        students = LtiUser.objects.filter(
            platform_id=link.context.platform_id,
            user__course_memberships__course_id=link.context.course_id,
            user__course_memberships__role=Role.STUDENT,
        )
        if user_ids is not None:
            students = students.filter(user_id__in=user_ids)
        pairs += [(link.pk, user_id) for user_id in students.values_list("user_id", flat=True)]
    return pairs


def mark_pending(pairs: list[tuple[int, int]]) -> list[int]:
    ids = []
    for link_id, user_id in pairs:
        row, _ = ScorePost.objects.get_or_create(link_id=link_id, user_id=user_id)
        ScorePost.objects.filter(pk=row.pk).update(status=ScoreStatus.PENDING, changed_at=timezone.now())
        enqueue_on_commit(POST_SCORE_TASK, row.pk)
        ids.append(row.pk)
    return ids


def credit_changed(user_id: int, problem_id: int) -> list[int]:
    """A verdict of this student on this problem: every linked assignment holding it is sent again, for them and
    for the members of their group on it (a member's Submit counts for the whole group)."""
    return mark_pending(
        linked(
            LtiLink.objects.filter(assignment__items__problem_id=problem_id).distinct(),
            sorted(mates_on_problem(user_id, problem_id)),
        )
    )


# Whether any link carries a line item for an assignment, as this process last looked (``verdict_recorded``).
LINKS_RECHECK_S = 10.0


class ScoringLinks:
    """A worker asks on every verdict whether its credit goes to an LMS; on a site with no LMS set up (most of
    them) the answer is no, and asking the database each time cost a query per verdict.  So a process that
    found no link looks again only every ``LINKS_RECHECK_S`` seconds, and keeps the verdicts it let pass
    meanwhile: if the next look finds a link, they are sent as if just recorded (a score is always the credit
    read when it is sent).  Once a link is seen, every verdict asks, as before.  A launch that makes a link able
    to carry scores tells its own process at once and, for the other processes, sends every score of the
    link's assignment again once they have all looked (``link_ready``): a verdict is never left out, even by a
    worker that died holding some."""

    def __init__(self) -> None:
        self.seen = False
        self.looked_at = -math.inf
        self.let_pass: set[tuple[int, int]] = set()

    def verdict(self, user_id: int, problem_id: int) -> list[int]:
        if not self.seen and time.monotonic() - self.looked_at < LINKS_RECHECK_S:
            self.let_pass.add((user_id, problem_id))
            return []
        if not self.seen:
            self.seen = self.look()
            let_pass, self.let_pass = self.let_pass, set()
            if not self.seen:
                return []
            for earlier in let_pass - {(user_id, problem_id)}:
                credit_changed(*earlier)
        return credit_changed(user_id, problem_id)

    def look(self) -> bool:
        self.looked_at = time.monotonic()
        return scoring_links().exists()

    def forget(self) -> None:
        """Look again at the next verdict (this process made a link that carries scores)."""
        self.seen, self.looked_at = False, -math.inf


scoring_links_seen = ScoringLinks()


def scoring_links():
    return LtiLink.objects.exclude(lineitem_url="").filter(assignment__isnull=False)


def link_ready(link: LtiLink, before: tuple[str, int | None]) -> None:
    """A launch saved ``link``; ``before``: its line item and assignment before.  When it can now carry scores,
    its assignment's scores are all sent again after every process has looked for links once more."""
    if not link.lineitem_url or link.assignment_id is None or before == (link.lineitem_url, link.assignment_id):
        return
    scoring_links_seen.forget()
    enqueue_on_commit(SEND_ASSIGNMENT_TASK, link.assignment_id, countdown=2 * LINKS_RECHECK_S)


def assignment_changed(assignment_id: int) -> list[int]:
    """New dates or an extension: every student's score on it may differ."""
    return mark_pending(linked(LtiLink.objects.filter(assignment_id=assignment_id)))


def score_of(link: LtiLink, user_id: int) -> tuple[float, float, bool] | None:
    """(points, maximum, every problem solved) as the gradebook counts them now; None while the assignment's
    grades are held from this student."""
    if link.assignment is None:
        raise ValueError("Only a link to an assignment carries a score.")
    students = students_of(link.context.course, user_id=user_id)
    grades = grade_assignment(link.assignment, students)
    if students and not released_for(link.assignment, grades.windows[user_id], timezone.now()):
        return None
    points = grades.total(user_id) if students else 0.0
    solved = bool(students) and all(grades.credit(user_id, pid).counts for pid, _, _ in grades.problems)
    return round(points, 6), float(len(grades.problems)), solved


def grade_for(sub: str, points: float, maximum: float, solved: bool, at) -> Grade:
    return (
        Grade()
        .set_user_id(sub)
        .set_score_given(points)
        .set_score_maximum(maximum)
        .set_timestamp(at.isoformat(timespec="milliseconds"))
        .set_activity_progress("Completed" if solved else "InProgress")
        .set_grading_progress("FullyGraded")
    )


def post_score(score_id: int) -> bool:
    """Send one row's current score; True if the platform took it. Raises ScorePostFailed (row marked FAILED)."""
    error = None
    with transaction.atomic():
        # The lock is held across the HTTP call (a worker's, with a timeout): see the module's rules.
        row = (
            ScorePost.objects.select_for_update(of=("self",))
            .select_related("link__context__platform", "link__assignment")
            .filter(pk=score_id)
            .first()
        )
        if row is None or row.link.assignment is None:
            return False
        link, platform = row.link, row.link.context.platform
        sub = LtiUser.objects.filter(platform=platform, user_id=row.user_id).values_list("sub", flat=True).first()
        if not platform.enabled or sub is None:
            row.status, row.last_error = ScoreStatus.FAILED, "The platform is disabled or the student has no LMS id."
            row.save()
            return False
        now = timezone.now()
        score = score_of(link, row.user_id)
        if score is None:
            row.status, row.last_error = ScoreStatus.HELD, ""
            row.save()
            return False
        points, maximum, solved = score
        row.attempts += 1
        try:
            connector = ServiceConnector(registration_of(platform), requests_session=TimeoutSession())
            ags = AssignmentsGradesService(connector, {"scope": [SCORE_SCOPE], "lineitem": link.lineitem_url})
            ags.put_grade(grade_for(sub, points, maximum, solved, now))
        except Exception as failure:  # the platform's answer, a timeout, a refused token: all shown as is
            error = describe(failure)
            row.status, row.last_error = ScoreStatus.FAILED, error[:1000]
        else:
            row.status, row.last_error, row.sent_at = ScoreStatus.SENT, "", now
            row.score_given, row.score_maximum = points, maximum
        row.save()
    if error:
        log.warning("score %s for line item %s: %s", score_id, link.lineitem_url, error)
        raise ScorePostFailed(error)
    return True


def describe(failure: Exception) -> str:
    response = getattr(failure, "response", None)
    if response is not None and hasattr(response, "status_code"):
        return f"the LMS answered {response.status_code}: {response.text[:300]}"
    return f"{type(failure).__name__}: {failure}"[:1000]


def send_again(score_ids: list[int], course_id: int) -> int:
    """The instructor's "send again": only rows of their own course."""
    rows = ScorePost.objects.filter(pk__in=score_ids, link__context__course_id=course_id)
    return len(mark_pending([(r.link_id, r.user_id) for r in rows]))


def send_released() -> int:
    """HELD rows whose student's grades have been released since (their due time passed): sent now."""
    held = list(
        ScorePost.objects.filter(status=ScoreStatus.HELD).values_list("link_id", "link__assignment_id", "user_id")
    )
    by_assignment: dict[int, list[tuple[int, int]]] = {}
    for link_id, assignment_id, user_id in held:
        by_assignment.setdefault(assignment_id, []).append((link_id, user_id))
    now, due = timezone.now(), []
    for assignment in Assignment.objects.filter(pk__in=list(by_assignment)):
        pairs = by_assignment[assignment.pk]
        windows = windows_for_users(assignment, [user_id for _, user_id in pairs])
        due += [
            (link_id, user_id)
            for link_id, user_id in pairs
            if user_id in windows and released_for(assignment, windows[user_id], now)
        ]
    return len(mark_pending(due))


def resend_stalled() -> int:
    """Rows left PENDING for a while (a task lost with the broker) are sent again."""
    stale = ScorePost.objects.filter(Q(status=ScoreStatus.PENDING), changed_at__lt=timezone.now() - STALE_AFTER)
    return len(mark_pending(list(stale.values_list("link_id", "user_id"))))
