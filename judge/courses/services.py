"""Changing a course: create, rotate the join code, join, import a roster, set an assignment and its overrides.

Each function validates everything first and raises ``CourseError`` with messages a person can act on; only
when nothing is wrong does it write, in one transaction, with an audit row.

Course membership is written by ``enrol`` alone, here and for the LMS (``judge.lti``): every role change and
every staff member added leaves an audit row, whichever path made it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from enum import StrEnum

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # the site keeps Django's own (no AUTH_USER_MODEL)
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from judge.courses.deadlines import overridden, window_errors, window_of
from judge.courses.models import (
    Assignment,
    AssignmentProblem,
    Course,
    CourseAudit,
    LateRule,
    Membership,
    Override,
    Release,
    RetiredJoinCode,
    Role,
    Section,
    TimedStart,
    new_join_code,
)
from judge.courses.signals import credit_rules_changed
from judge.courses.timezones import stamp

ROSTER_MAX_BYTES = 1_000_000
ROSTER_MAX_ROWS = 5_000
ROSTER_HEADERS = {"username", "email", "user", "login", "section", "role"}


class CourseError(Exception):
    def __init__(self, messages: list[str] | str):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


def audit(course: Course, by, action: str, summary: str) -> None:
    CourseAudit.objects.create(course=course, user=by, action=action, summary=summary[:1000])


def window_text(window) -> str:
    """An assignment's or an override's dates and late rule for the audit log, values included."""
    return (
        f"opens {stamp(window.opens_at)}, due {stamp(window.due_at)}, closes {stamp(window.closes_at)}, "
        f"{late_rule_text(window)}"
    )


def late_rule_text(window) -> str:
    if window.late_rule == LateRule.MULTIPLIER:
        return f"late Submits earn {window.late_multiplier:g} of the credit"
    if window.late_rule == LateRule.PER_DAY:
        return f"late Submits lose {window.late_penalty_per_day:g} of the credit per day"
    return "no late Submits"


class Enrolled(StrEnum):
    ADDED = "added"
    CHANGED = "changed"  # their role or section
    UNCHANGED = "unchanged"


KEEP = object()  # enrol's section: leave it as it is
UNREAD = object()  # enrol's member: not read yet


def enrol(
    course: Course, user, role: str, by=None, how: str = "", section=KEEP, keep_role: bool = False, member=UNREAD
) -> tuple[Membership, Enrolled]:
    """Make ``user`` a member of ``course`` with ``role`` (and ``section``, unless KEEP), or move an existing
    member to them; with ``keep_role``, an existing member keeps theirs (joining twice changes nothing).
    ``member``: their row if the caller read it already (None: not a member), as a roster import does.

    The one writer of course membership. A role change, and a member added as staff, write an audit row that
    says who did it (``by``; None: the LMS) and how (``how``: "join code", "LMS launch from Canvas", ...);
    students added in bulk are counted by their caller's own row."""
    wanted = {"role": role} | ({} if section is KEEP else {"section": section})
    if member is UNREAD:
        member = Membership.objects.filter(course=course, user=user).first()
    if member is None:
        try:
            with transaction.atomic():
                member = Membership.objects.create(course=course, user=user, **wanted)
        except IntegrityError:  # the same person added twice at once: the other one did
            member = Membership.objects.get(course=course, user=user)
        else:
            if role != Role.STUDENT:
                audit(course, by, "member-added", f"{user} added as {role} ({how})")
            return member, Enrolled.ADDED
    if keep_role:
        wanted.pop("role")
    now = {"role": member.role, "section": member.section_id}  # ids: no query for the section's row
    changed = [name for name, value in wanted.items() if now[name] != getattr(value, "pk", value)]
    if not changed:
        return member, Enrolled.UNCHANGED
    was = member.role
    for name in changed:
        setattr(member, name, wanted[name])
    member.save(update_fields=changed)
    if "role" in changed:
        audit(course, by, "member-role", f"{user}: {was} -> {member.role} ({how})")
    return member, Enrolled.CHANGED


def announce_credit_rules(assignment_id: int) -> None:
    """Once the change commits, apps above (LTI grade passback) hear that credit on it may differ."""
    transaction.on_commit(lambda: credit_rules_changed.send(sender=Assignment, assignment_id=assignment_id))


@transaction.atomic
def create_course(by, title: str, term: str = "") -> Course:
    title, term = title.strip(), term.strip()
    if not title:
        raise CourseError("A course needs a title.")
    course = Course.objects.create(title=title[:200], term=term[:60], created_by=by)
    enrol(course, by, Role.INSTRUCTOR, by, "created the course")
    audit(course, by, "create", f"created {course}")
    return course


@transaction.atomic
def rotate_join_code(course: Course, by) -> str:
    RetiredJoinCode.objects.create(course=course, code=course.join_code)
    course.join_code = new_join_code()
    course.save(update_fields=["join_code"])
    audit(course, by, "rotate-code", "rotated the join code")
    return course.join_code


def course_for_code(code: str) -> Course | None:
    """The course whose current join code this is, typed as people type it (lower case, spaces, dashes)."""
    code = normal_code(code)
    return Course.objects.filter(join_code=code).first() if code else None


def normal_code(code: str) -> str:
    return code.strip().upper().replace(" ", "").replace("-", "")


@transaction.atomic
def sign_up_and_join(form, course: Course) -> tuple[User, Membership]:
    """A new account from a valid sign-up form, a student of ``course`` from its first page."""
    user = form.save()
    return user, enrol(course, user, Role.STUDENT, user, "signed up through the join link")[0]


def join_course(user, code: str) -> tuple[Membership, bool]:
    """Join as a student; (membership, created). A member already keeps their role."""
    code = normal_code(code)
    if not code:
        raise CourseError("Type the join code your instructor gave you.")
    course = Course.objects.filter(join_code=code).first()
    if course is None:
        if RetiredJoinCode.objects.filter(code=code).exists():
            raise CourseError("This join code was replaced by a new one. Ask your instructor for the current code.")
        raise CourseError(f"No course has the join code {code}. Check it for typos.")
    member, enrolled = enrol(course, user, Role.STUDENT, user, "join code", keep_role=True)
    return member, enrolled == Enrolled.ADDED


@dataclass
class RosterRow:
    line: int
    user: User
    section: str
    role: str


@dataclass
class RosterResult:
    added: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def parse_roster(course: Course, data: bytes) -> list[RosterRow]:
    """Every row of a roster CSV, or CourseError with one message per problem found (at most 20 shown)."""
    if len(data) > ROSTER_MAX_BYTES:
        raise CourseError(
            f"The roster is {len(data):,} bytes; the limit is {ROSTER_MAX_BYTES:,}. "
            "A roster is one line per student: username or email, then an optional section."
        )
    if not data.strip():
        raise CourseError("The roster is empty. Put one student per line: username or email, then a section.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CourseError(
            f"The roster is not UTF-8 text (byte {error.start + 1} cannot be read). "
            "Save it as 'CSV UTF-8' and upload it again."
        ) from None
    if "\x00" in text:
        raise CourseError("The roster contains binary data, not CSV text.")
    try:
        rows = [
            (number, [cell.strip() for cell in row])
            for number, row in enumerate(csv.reader(io.StringIO(text)), 1)
            if any(cell.strip() for cell in row)
        ]
    except csv.Error as error:
        raise CourseError(f"The roster is not valid CSV: {error}.") from None
    if rows and {cell.lower() for cell in rows[0][1]} & ROSTER_HEADERS:
        rows = rows[1:]  # a header row
    if len(rows) > ROSTER_MAX_ROWS:
        raise CourseError(f"The roster has {len(rows):,} rows; the limit is {ROSTER_MAX_ROWS:,}.")
    if not rows:
        raise CourseError("The roster has a header but no students.")
    return resolve_rows(course, rows)


def resolve_rows(course: Course, rows: list[tuple[int, list[str]]]) -> list[RosterRow]:
    names = {row[0].lower() for _, row in rows if row}
    found: dict[str, User] = {}  # by lower-cased username and email
    accounts = get_user_model().objects.annotate(lower_name=Lower("username"), lower_email=Lower("email"))
    for account in accounts.filter(Q(lower_name__in=names) | Q(lower_email__in=names)).order_by("pk"):
        found.setdefault(account.lower_name, account)
        if account.lower_email:
            found.setdefault(account.lower_email, account)
    errors: list[str] = []
    parsed: list[RosterRow] = []
    seen: dict[int, int] = {}
    for line, cells in rows:
        if len(cells) > 3:
            errors.append(f"Line {line}: {len(cells)} columns; expected username or email, section, optional role.")
            continue
        name, section, role = (cells + ["", ""])[:3]
        role = (role or Role.STUDENT).lower()
        user: User | None = found.get(name.lower())
        if not name:
            errors.append(f"Line {line}: the username or email is blank.")
        elif user is None:
            errors.append(
                f"Line {line}: no account has the username or email '{name[:80]}'. "
                "Students sign up first; nothing was imported."
            )
        elif user.pk in seen:
            errors.append(f"Line {line}: '{name[:80]}' is already on line {seen[user.pk]}.")
        elif len(section) > 60:
            errors.append(f"Line {line}: the section name is longer than 60 characters.")
        elif role not in Role.values:
            errors.append(f"Line {line}: the role '{role[:20]}' is not one of {', '.join(Role.values)}.")
        else:
            seen[user.pk] = line
            parsed.append(RosterRow(line, user, section, role))
    if errors:
        shown = errors[:20] + ([f"... and {len(errors) - 20} more problems."] if len(errors) > 20 else [])
        raise CourseError(["Nothing was imported."] + shown)
    return parsed


@transaction.atomic
def import_roster(course: Course, by, data: bytes) -> RosterResult:
    rows = parse_roster(course, data)
    sections = {s.name: s for s in Section.objects.filter(course=course)}
    existing = {m.user_id: m for m in Membership.objects.filter(course=course)}
    result = RosterResult()
    for row in rows:
        section = None
        if row.section:
            section = sections.get(row.section) or Section.objects.create(course=course, name=row.section)
            sections[row.section] = section
        _, enrolled = enrol(
            course, row.user, row.role, by, f"roster line {row.line}", section=section, member=existing.get(row.user.pk)
        )
        {Enrolled.ADDED: result.added, Enrolled.CHANGED: result.moved, Enrolled.UNCHANGED: result.unchanged}[
            enrolled
        ].append(row.user.username)
    audit(
        course,
        by,
        "roster",
        f"roster: {len(result.added)} added, {len(result.moved)} changed, {len(result.unchanged)} unchanged",
    )
    return result


@transaction.atomic
def update_course(course: Course, by, title: str, term: str, leaderboard_enabled: bool) -> None:
    if not title.strip():
        raise CourseError("A course needs a title.")
    course.title, course.term, course.leaderboard_enabled = title.strip()[:200], term.strip()[:60], leaderboard_enabled
    course.save(update_fields=["title", "term", "leaderboard_enabled"])
    audit(
        course,
        by,
        "settings",
        f"title {course.title!r}, term {course.term!r}, leaderboard {'on' if leaderboard_enabled else 'off'}",
    )


@transaction.atomic
def save_assignment(
    course: Course, by, values: dict, problems: list, assignment: Assignment | None = None
) -> Assignment:
    """Create or change an assignment. ``values`` holds its fields; ``problems`` its published problems (kept in the
    learning path's order)."""
    fields = ("opens_at", "due_at", "closes_at", "late_rule", "late_multiplier", "late_penalty_per_day")
    errors = window_errors(*(values[f] if f in values else getattr(assignment, f, None) for f in fields))
    if not (values.get("title", getattr(assignment, "title", "")) or "").strip():
        errors.insert(0, "An assignment needs a title.")
    if not problems:
        errors.append("Choose at least one problem.")
    if unpublished := [p.slug for p in problems if not p.published]:
        errors.append(f"Only published problems can be assigned; not {', '.join(unpublished)}.")
    if values.get("weight") is not None and values["weight"] < 0:
        errors.append("A weight cannot be negative.")
    release = values.get("release", getattr(assignment, "release", Release.AT_ONCE))
    if release not in Release.values:
        errors.append(f"Choose when grades are released: {', '.join(str(label) for label in Release.labels)}.")
    elif release == Release.AFTER_DUE and not values.get("due_at", getattr(assignment, "due_at", None)):
        errors.append("Grades released after the due time need a due time.")
    if errors:
        raise CourseError(errors)
    created = assignment is None
    assignment = assignment or Assignment(course=course)
    for name, value in values.items():
        setattr(assignment, name, value)
    assignment.save()
    AssignmentProblem.objects.filter(assignment=assignment).delete()
    # Columns, the matrix and the student's list follow the learning path, whatever order the problems came in.
    ordered = sorted(problems, key=lambda p: (p.path_order, p.slug))
    AssignmentProblem.objects.bulk_create(
        AssignmentProblem(assignment=assignment, problem=p, position=i) for i, p in enumerate(ordered)
    )
    audit(
        course,
        by,
        "assignment",
        f"{'created' if created else 'changed'} {assignment.title!r}: "
        f"{window_text(assignment)}, "
        f"grades released {Release(assignment.release).label.lower()}, "
        f"{assignment.max_submits or 'unlimited'} Submits per problem",
    )
    announce_credit_rules(assignment.pk)
    return assignment


@transaction.atomic
def set_override(
    assignment: Assignment,
    by,
    values: dict,
    reason: str,
    student=None,
    section: Section | None = None,
    staff_note: str = "",
) -> Override:
    """Give one student (a member with the student role) or one section of this course their own dates.

    ``reason`` is the message the student reads; ``staff_note`` stays with the course's staff."""
    course = assignment.course
    reason, staff_note = reason.strip()[:500], staff_note.strip()[:500]
    errors = []
    if not (reason or staff_note):
        errors.append(
            "Say why: write a message to the student, a private note for staff, or both (the audit log keeps them)."
        )
    if (student is None) == (section is None):
        errors.append("Choose either one student or one section.")
    if student is not None and not Membership.objects.filter(course=course, user=student, role=Role.STUDENT).exists():
        errors.append(f"{student.username} is not a student in this course.")
    if section is not None and section.course_id != course.pk:
        errors.append("That section belongs to another course.")
    probe = Override(**values)
    merged = overridden(window_of(assignment), probe)
    errors += window_errors(
        merged.opens_at,
        merged.due_at,
        merged.closes_at,
        merged.late_rule,
        merged.late_multiplier,
        merged.late_penalty_per_day,
    )
    if errors:
        raise CourseError(errors)
    override, _ = Override.objects.update_or_create(
        assignment=assignment,
        user=student,
        section=section,
        defaults={**values, "reason": reason, "staff_note": staff_note, "created_by": by},
    )
    who = student.username if student else f"section {section.name if section else '?'}"
    audit(
        course,
        by,
        "override",
        f"{assignment.title!r} for {who}: {window_text(merged)}. "
        f"Message to the student: {reason or 'none'}. Staff note: {staff_note or 'none'}",
    )
    announce_credit_rules(assignment.pk)
    return override


@transaction.atomic
def delete_override(override: Override, by) -> None:
    who = override.user.username if override.user else f"section {override.section.name if override.section else '?'}"
    audit(override.assignment.course, by, "override-removed", f"{override.assignment.title!r} for {who}")
    announce_credit_rules(override.assignment_id)
    override.delete()


def start_timed(assignment: Assignment, user) -> TimedStart:
    """The student's personal window starts the first time they open a timed assignment, and never again."""
    start, _ = TimedStart.objects.get_or_create(
        assignment=assignment, user=user, defaults={"started_at": timezone.now()}
    )
    return start
