"""A course: its people, its assignments with their deadlines, and the exceptions granted to some students.

Every time is stored in UTC; pages show it in the viewer's own time zone (``TimeZoneChoice``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from judge.problems.models import Problem
from judge.submissions.models import Submission

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and copied by hand


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(8))


class Role(models.TextChoices):
    INSTRUCTOR = "instructor", "Instructor"
    TA = "ta", "Teaching assistant"
    STUDENT = "student", "Student"


class LateRule(models.TextChoices):
    NONE = "none", "No late submissions"
    MULTIPLIER = "multiplier", "Late multiplier"
    PER_DAY = "per_day", "Penalty per day late"


class Course(models.Model):
    title = models.CharField(max_length=200)
    term = models.CharField(max_length=60, blank=True)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    leaderboard_enabled = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.title} ({self.term})" if self.term else self.title


class RetiredJoinCode(models.Model):
    """A code rotated away: kept so that someone typing it is told it was replaced, not that it never existed."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="retired_codes")
    code = models.CharField(max_length=16, db_index=True)
    retired_at = models.DateTimeField(auto_now_add=True)


class Section(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(max_length=60)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["course", "name"], name="section_name_once_per_course")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="course_memberships")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.STUDENT)
    section = models.ForeignKey(Section, null=True, blank=True, on_delete=models.SET_NULL, related_name="members")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user__username"]
        constraints = [models.UniqueConstraint(fields=["course", "user"], name="membership_once_per_course")]
        indexes = [models.Index(fields=["course", "role"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.course} as {self.role}"


class LateWindow(models.Model):
    """The fields a deadline is made of, shared by an assignment and by the overrides that replace them."""

    opens_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    # The hard close ends the late window; absent, nothing is accepted after the due time.
    closes_at = models.DateTimeField(null=True, blank=True)
    late_rule = models.CharField(max_length=12, choices=LateRule.choices, blank=True)
    # LateRule.MULTIPLIER: late credit = multiplier; LateRule.PER_DAY: minus this fraction per started day late.
    late_multiplier = models.FloatField(null=True, blank=True)
    late_penalty_per_day = models.FloatField(null=True, blank=True)

    class Meta:
        abstract = True


class Release(models.TextChoices):
    """When students see their credit, the hidden tests' results and the editorial (``courses.release``)."""

    AT_ONCE = "at_once", "At once"
    AFTER_DUE = "after_due", "After each student's own due time"
    MANUAL = "manual", "When staff press Release"


class GroupFormation(models.TextChoices):
    STAFF = "staff", "The course's staff form the groups"
    STUDENTS = "students", "Students form them with a group code"


class Assignment(LateWindow):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=200)
    weight = models.FloatField(default=1.0)
    # Timed mode (an exam): each student has this many minutes from when they first open it, never past the close.
    time_limit_minutes = models.PositiveIntegerField(null=True, blank=True)
    # The most points a problem can reach once staff adjusted it by hand (a bonus above 1 needs a cap above 1).
    problem_cap = models.FloatField(default=1.0)
    release = models.CharField(max_length=12, choices=Release.choices, default=Release.AT_ONCE)
    released_at = models.DateTimeField(null=True, blank=True)  # when staff pressed Release (``Release.MANUAL``)
    # Submits a student may make per problem inside their window (``courses.attempts``); None: no limit. Run is free.
    max_submits = models.PositiveIntegerField(null=True, blank=True)
    # Groups (``courses.groups``): None, each student works alone; N, groups of up to N share their Submits' credit.
    group_size = models.PositiveSmallIntegerField(null=True, blank=True)
    groups_formed_by = models.CharField(max_length=10, choices=GroupFormation.choices, default=GroupFormation.STAFF)
    problems: models.ManyToManyField[Problem, AssignmentProblem] = models.ManyToManyField(
        Problem, through="AssignmentProblem", related_name="assignments"
    )

    class Meta:
        ordering = ["due_at", "pk"]

    def __str__(self) -> str:
        return self.title


class AssignmentProblem(models.Model):
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="items")
    problem = models.ForeignKey(Problem, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [models.UniqueConstraint(fields=["assignment", "problem"], name="problem_once_per_assignment")]


class Override(LateWindow):
    """New dates or a different late rule for one student or one section; blank fields keep the assignment's."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="overrides")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    section = models.ForeignKey(Section, null=True, blank=True, on_delete=models.CASCADE, related_name="overrides")
    # What the student reads beside their own dates; ``staff_note`` is for the course's staff only (a doctor's note,
    # a family matter), and never reaches the student's pages.
    reason = models.CharField(max_length=500, blank=True)
    staff_note = models.CharField(max_length=500, blank=True, db_default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) ^ models.Q(section__isnull=True),
                name="override_for_a_student_or_a_section",
            ),
            models.UniqueConstraint(fields=["assignment", "user"], name="one_override_per_student"),
            models.UniqueConstraint(fields=["assignment", "section"], name="one_override_per_section"),
        ]


class StudentGroup(models.Model):
    """Students who work on an assignment together: a Submit of one member counts for every member
    (``grades.grade_assignment``). Others join with ``code`` when students form the groups."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="groups")
    code = models.CharField(max_length=16, unique=True, default=new_join_code)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"group {self.code}"


class GroupMember(models.Model):
    """A student in a group; the assignment is repeated here so that a student is in one group per assignment."""

    group = models.ForeignKey(StudentGroup, on_delete=models.CASCADE, related_name="members")
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["assignment", "user"], name="one_group_per_assignment")]


class TimedStart(models.Model):
    """When a student first opened a timed assignment: their personal window starts here."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="timed_starts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assignment", "user"], name="timed_start_once")]


class AdjustmentKind(models.TextChoices):
    OVERRIDE = "override", "points set to"
    DELTA = "delta", "bonus or deduction of"


class Adjustment(models.Model):
    """Points staff gave a student on a problem of an assignment by hand, and why: applied after the automatic
    credit (``grades.grade_assignment``), one per student and problem; each change is in the course's audit."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="adjustments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=AdjustmentKind.choices)
    points = models.FloatField()
    reason = models.CharField(max_length=500)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assignment", "user", "problem"], name="one_adjustment")]


class RubricItem(models.Model):
    """One line of an assignment problem's rubric: points (positive or negative) staff tick on a student's work;
    ticked items add to the automatic credit (``grades.grade_assignment``)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="rubric")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    label = models.CharField(max_length=200)
    points = models.FloatField()
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]

    @property
    def points_text(self) -> str:
        return f"{self.points:+g}"


class RubricMark(models.Model):
    """A rubric item ticked for a student, on the submission staff were reading when they ticked it."""

    item = models.ForeignKey(RubricItem, on_delete=models.CASCADE, related_name="marks")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(Submission, null=True, on_delete=models.SET_NULL, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["item", "user"], name="rubric_item_once_per_student")]


class Notice(models.Model):
    """Something a student is told on their course page: their credit moved after a rejudge, a regrade request
    was answered. Unread until they open the course page."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="notices")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    link = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "course", "read_at"])]


class CreditBefore(models.Model):
    """A student's released credit on an assignment problem when a rejudge of it was requested: once the
    rejudge has finished, a student whose credit differs is told (``release.notify_moved_credit``)."""

    batch_id = models.PositiveIntegerField(db_index=True)  # judge.authoring's RejudgeBatch
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    value = models.FloatField()


class Feedback(models.Model):
    """A comment of the course's staff on a student's submission: on one line of its code, or overall (``line``
    None); Markdown, sanitised when shown. The student may answer each once (``reply_md``)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="feedback")
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    line = models.PositiveIntegerField(null=True, blank=True)
    body_md = models.TextField(max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)  # when the student first saw it
    reply_md = models.TextField(max_length=5000, blank=True)
    replied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["line", "created_at", "pk"]
        indexes = [models.Index(fields=["submission"]), models.Index(fields=["course", "read_at"])]


class CourseAudit(models.Model):
    """Who changed what in a course, and when: settings, rosters, overrides, rotated codes."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]


class TimeZoneChoice(models.Model):
    """The time zone a person reads dates in; UTC until they choose."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="time_zone_choice")
    name = models.CharField(max_length=64, default="UTC")
