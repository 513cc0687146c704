"""Whatever path changes who may do what (a course role, an API token, the platforms and keys this site trusts),
it leaves an audit row saying who did it and what changed: the LMS as much as the instructor, the admin as much
as the LTI pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from judge.courses.models import CourseAudit, Membership, Role
from judge.lti import keys
from judge.lti.models import Platform, SetupAudit
from judge.tokens.models import TokenAudit
from judge.tokens.services import create_token, revoke_token
from tests.courses import world  # noqa: F401 (fixture)
from tests.lti import launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import INSTRUCTOR, LEARNER, TA, LtiPlatform

pytestmark = pytest.mark.django_db


def role_rows(course) -> list[tuple[str | None, str]]:
    rows = CourseAudit.objects.filter(course=course, action__in=["member-added", "member-role"]).order_by("pk")
    return [(row.user.username if row.user else None, row.summary) for row in rows]


def test_a_role_the_lms_changes_at_launch_is_on_record(client, lms):
    launch(client, lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    launch(Client(), lms, lms.person("s", "Sam", "Stone", [LEARNER]))
    course = Membership.objects.get(user__lti_identities__sub="s").course
    created = f"{course.created_by} added as instructor (created the course)"
    assert [summary for _, summary in role_rows(course)] == [created]
    launch(Client(), lms, lms.person("s", "Sam", "Stone", [TA]))  # the LMS made Sam a TA
    sam = Membership.objects.get(user__lti_identities__sub="s")
    assert sam.role == Role.TA
    who, summary = role_rows(course)[-1]
    assert who is None and summary.startswith(f"{sam.user}: student -> ta (LMS launch from")


def test_a_launch_that_changes_nothing_writes_nothing(client, lms):
    launch(client, lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    before = CourseAudit.objects.count()
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    launch(Client(), lms, lms.person("s", "Sam", "Stone", [LEARNER]))  # a student joins: counted, not audited
    assert CourseAudit.objects.count() == before


def test_a_roster_that_makes_a_student_a_ta_says_who_did_it(client, world):
    before = len(role_rows(world.course))  # the course's creator, added as its instructor
    client.force_login(world.instructor)
    client.post(
        reverse("course-people", args=[world.course.pk]),
        {"roster": SimpleUploadedFile("roster.csv", b"grace,,ta\nsam,Lab A\n", "text/csv")},
    )
    assert Membership.objects.get(course=world.course, user=world.second).role == Role.TA
    assert Membership.objects.get(course=world.course, user=world.stranger).role == Role.STUDENT
    assert role_rows(world.course)[before:] == [("iris", "grace: student -> ta (roster line 1)")]


def test_joining_twice_keeps_the_role_and_writes_nothing(client, world):
    before = role_rows(world.course)
    client.force_login(world.ta)
    client.post(reverse("course-join"), {"code": world.course.join_code})
    assert Membership.objects.get(course=world.course, user=world.ta).role == Role.TA
    assert role_rows(world.course) == before


def test_making_and_revoking_a_token_is_on_record_and_a_refused_revocation_is_not(student, second_student):
    token, _ = create_token(student, "laptop", ["read", "submit"])
    assert not revoke_token(second_student, token.pk)  # not theirs
    assert revoke_token(student, token.pk)
    assert not revoke_token(student, token.pk)  # already revoked
    rows = list(TokenAudit.objects.order_by("pk").values_list("user__username", "token_id", "action", "summary"))
    assert rows == [
        ("ada", token.pk, "created", f"laptop ({token.prefix}…, read, submit)"),
        ("ada", token.pk, "revoked", f"laptop ({token.prefix}…, read, submit)"),
    ]


def test_the_token_page_leaves_the_same_rows(client, student):
    client.force_login(student)
    client.post("/accounts/tokens/", {"name": "ci", "scopes": ["read"]})
    token = student.access_tokens.get()
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert list(TokenAudit.objects.order_by("pk").values_list("action", flat=True)) == ["created", "revoked"]


def platform_fields() -> dict:
    fields = LtiPlatform("http://testserver")
    try:
        return fields.registration()
    finally:
        fields.close()


def setup_rows() -> list[tuple[str | None, str, str]]:
    return list(SetupAudit.objects.order_by("pk").values_list("user__username", "action", "summary"))


def test_a_platform_registered_and_changed_on_the_lti_pages_is_on_record(client, author):
    client.force_login(author)
    fields = platform_fields()
    client.post("/lti/platforms/", fields)
    platform = Platform.objects.get()
    client.post(f"/lti/platforms/{platform.pk}/", fields | {"client_id": "another-client"})
    client.post(f"/lti/platforms/{platform.pk}/", fields | {"client_id": "another-client"})  # no change
    rows = [row for row in setup_rows() if row[1].startswith("platform")]
    added = f"{platform.name} registered: issuer {platform.issuer}, client id judge-tool-client"
    assert rows == [
        ("author", "platform-added", added),
        ("author", "platform-changed", f"{platform.name}: client_id changed"),
    ]


def test_a_platform_changed_or_removed_in_the_admin_is_on_record(admin_client, lms):
    platform = Platform.objects.get()
    page = reverse("admin:lti_platform_change", args=[platform.pk])
    form = {
        name: getattr(platform, name)
        for name in ("name", "issuer", "client_id", "key_set_url", "auth_login_url", "auth_token_url", "auth_audience")
    }
    answer = admin_client.post(page, form | {"deployment_ids": '["deployment-1"]', "enabled": ""})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert not Platform.objects.get().enabled
    admin_client.post(reverse("admin:lti_platform_delete", args=[platform.pk]), {"post": "yes"})
    assert not Platform.objects.exists()
    assert [row[1:] for row in setup_rows() if row[1].startswith("platform")] == [
        ("platform-changed", f"{platform.name}: deployment_ids, enabled changed (disabled)"),
        ("platform-removed", f"{platform.name} removed (issuer {platform.issuer}, client id {platform.client_id})"),
    ]
    assert {row[0] for row in setup_rows() if row[1].startswith("platform")} == {"admin"}


def test_every_step_of_a_key_rotation_is_on_record(client, author, settings):
    first = keys.signing_key()  # the site's first key, made on first use
    client.force_login(author)
    client.post("/lti/keys/", {"action": "new"})
    new = keys.published_keys()[0]
    keys.activate_key(new, now=timezone.now() + timedelta(seconds=settings.LTI_KEY_PUBLISH_AHEAD_S + 1), by=author)
    client.post("/lti/keys/", {"action": "retire", "key": first.pk})
    assert [(who, action) for who, action, _ in setup_rows()] == [
        (None, "key-made"),
        (None, "key-activated"),
        ("author", "key-made"),
        ("author", "key-activated"),
        ("author", "key-retired"),
    ]
    assert setup_rows()[-1][2] == f"key {first.kid} retired: no longer published"
