"""An LTI 1.3 launch signs the person in, in the right course with their LMS role; every launch that cannot be
trusted is refused with a page that says why, and creates nothing."""

from __future__ import annotations

import time
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from judge.courses.models import Course, Membership, Role
from judge.lti.models import LtiContext, LtiUser, Platform, UsedNonce
from tests.lti import OVER_HTTP_AND_HTTPS, begin_login, launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import INSTRUCTOR, LEARNER, TA, new_rsa_key

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (get_user_model(), Course, Membership, LtiUser, LtiContext, UsedNonce)
    )


def test_first_instructor_launch_creates_the_course_and_signs_them_in(client, lms):
    teacher = lms.person("lms-teacher-1", "Iris", "Ng", [INSTRUCTOR])
    answer = launch(client, lms, teacher)
    course = Course.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/courses/{course.pk}/"
    assert course.title == "Transformers in NumPy (LMS)"
    user = LtiUser.objects.get(sub="lms-teacher-1").user
    assert Membership.objects.get(course=course, user=user).role == Role.INSTRUCTOR
    assert client.get(f"/courses/{course.pk}/").context["user"] == user  # signed in


def test_a_student_is_matched_by_their_lms_id_never_by_their_email(client, lms, django_user_model):
    django_user_model.objects.create_user("ada", "ada@lms.example.edu", "a long pass phrase 42")  # same email
    launch(client, lms, lms.person("lms-teacher-1", "Iris", "Ng", [INSTRUCTOR]))
    ada = lms.person("lms-student-7", "Ada", "Lovelace", [LEARNER])
    launch(Client(), lms, ada)
    launch(Client(), lms, ada)  # a second launch: the same person
    identity = LtiUser.objects.get(sub="lms-student-7")
    assert identity.user.username != "ada" and identity.user.email == "ada@lms.example.edu"
    assert not identity.user.has_usable_password()
    assert Membership.objects.get(user=identity.user).role == Role.STUDENT
    assert LtiUser.objects.count() == 2


def test_lms_roles_map_to_instructor_ta_and_student(client, lms):
    launch(client, lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    launch(Client(), lms, lms.person("a", "Tariq", "Aziz", [INSTRUCTOR, TA]))
    launch(Client(), lms, lms.person("s", "Sam", "Stone", [LEARNER]))
    roles = dict(Membership.objects.values_list("user__lti_identities__sub", "role"))
    assert roles == {"t": Role.INSTRUCTOR, "a": Role.TA, "s": Role.STUDENT}


def test_a_student_before_any_instructor_launch_is_told_and_nothing_is_created(client, lms):
    before = counts()
    answer = launch(client, lms, lms.person("s", "Sam", "Stone", [LEARNER]))
    assert answer.status_code == 403
    assert "its instructor opens the tool from the LMS once first" in answer.content.decode()
    assert counts() == before


def from_now(changes: dict) -> dict:
    """The id_token's times (iat, exp, nbf) given in seconds from now, as a platform's clock would put them."""
    now = int(time.time())
    return {claim: value + now if claim in ("iat", "exp", "nbf") else value for claim, value in changes.items()}


# A platform's clock a little ahead of ours (or ours behind): the 60 s allowed on the id_token's times.
WITHIN_CLOCK_SKEW = {
    "issued 2 s ahead": {"iat": 2},
    "issued 59 s ahead": {"iat": 59},
    "valid from 59 s ahead": {"nbf": 59},
    "expired 30 s ago": {"exp": -30, "iat": -330},
}


@pytest.mark.parametrize("case", list(WITHIN_CLOCK_SKEW))
def test_a_launch_dated_within_a_minute_of_this_sites_clock_is_accepted(client, lms, case):
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    answer = launch(client, lms, lms.person("s", "Sam", "Stone", [LEARNER]), **from_now(WITHIN_CLOCK_SKEW[case]))
    assert answer.status_code == 302, answer.content.decode()[-1500:]
    assert client.session["_auth_user_id"] == str(LtiUser.objects.get(sub="s").user_id)


REFUSALS = {
    "bad signature": ({"key": "other"}, "signature does not verify"),
    "expired": ({"exp": -120, "iat": -420}, "has expired"),
    "issued 120 s ahead": ({"iat": 120}, "dated more than 60 s in the future"),
    "valid only in 120 s": ({"nbf": 120}, "dated more than 60 s in the future"),
    "wrong audience": (
        {"aud": "another-tool"},
        "No platform is registered here with the issuer and client id (audience)",
    ),
    "unknown issuer": ({"iss": "http://127.0.0.1:9/elsewhere"}, "No platform is registered here"),
    "unknown deployment": (
        {"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-9"},
        "deployment of the tool that is not registered here",
    ),
    "state mismatch": ({"state": "state-made-up"}, "state does not match"),
    "unknown nonce": ({"nonce": "never-issued"}, "nonce is unknown or expired"),
}


@OVER_HTTP_AND_HTTPS
@pytest.mark.parametrize("case", list(REFUSALS))
def test_an_untrustworthy_launch_is_refused_with_its_reason_and_creates_nothing(client, lms, case):
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))  # the course exists already
    changes, reason = REFUSALS[case]
    changes = from_now(changes)
    if changes.get("key") == "other":
        changes["key"] = new_rsa_key()  # same kid, another key: the signature cannot verify
    before = counts()
    answer = launch(client, lms, lms.person("s", "Sam", "Stone", [LEARNER]), **changes)
    page = answer.content.decode()
    assert answer.status_code == 403 and "This launch from your LMS was refused" in page
    assert reason in page, page[page.find("refusal") :][:400]
    assert counts() == before
    assert "_auth_user_id" not in client.session


@OVER_HTTP_AND_HTTPS
def test_a_replayed_launch_is_refused_the_second_time(client, lms):
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    student = lms.person("s", "Sam", "Stone", [LEARNER])
    state, nonce = begin_login(client, lms, student)
    form = {"id_token": lms.id_token(student, nonce), "state": state}
    assert client.post("/lti/launch/", form, secure=lms.secure).status_code == 302
    before = counts()
    again = Client()
    again.cookies = client.cookies  # the same browser, or one that copied its cookies
    answer = again.post("/lti/launch/", form, secure=lms.secure)
    assert answer.status_code == 403 and "already used" in answer.content.decode()
    assert counts() == before


@OVER_HTTP_AND_HTTPS
def test_a_disabled_platform_is_refused_at_login_and_at_launch(client, lms):
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    student = lms.person("s", "Sam", "Stone", [LEARNER])
    state, nonce = begin_login(client, lms, student)  # begun before the administrator turned it off
    Platform.objects.update(enabled=False)
    before = counts()
    answer = client.post("/lti/launch/", {"id_token": lms.id_token(student, nonce), "state": state}, secure=lms.secure)
    assert answer.status_code == 403 and "Launches from Test LMS are turned off" in answer.content.decode()
    answer = Client().get(lms.login_url(student) + "&lti1p3_new_window=1", secure=lms.secure)  # after the check
    assert answer.status_code == 400 and "Launches from Test LMS are turned off" in answer.content.decode()
    assert counts() == before


@OVER_HTTP_AND_HTTPS
def test_a_login_from_an_unregistered_platform_is_refused_before_any_redirect(client, lms):
    answer = client.get(
        "/lti/login/",
        {"iss": "http://127.0.0.1:9/lms", "login_hint": "x", "client_id": "y", "lti1p3_new_window": "1"},
        secure=lms.secure,
    )
    assert answer.status_code == 400 and "No platform is registered here" in answer.content.decode()


@OVER_HTTP_AND_HTTPS
def test_a_launch_in_a_browser_that_kept_none_of_the_tools_cookies_is_refused_with_what_to_do(client, lms):
    """A framed LMS page whose browser blocks third-party cookies: the login set them, the launch comes without."""
    launch(Client(), lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))
    student = lms.person("s", "Sam", "Stone", [LEARNER])
    state, nonce = begin_login(client, lms, student)
    before = counts()
    answer = Client().post(
        "/lti/launch/", {"id_token": lms.id_token(student, nonce), "state": state}, secure=lms.secure
    )
    page = unescape(answer.content.decode())
    assert answer.status_code == 403 and "This launch from your LMS was refused" in page
    if lms.secure:  # the library needs its session cookie first
        assert "Your browser did not send this tool's cookie" in page and "in a new window" in page
    else:  # no session cookie over HTTP: the state is looked up in the cache, then in its own cookie
        assert "state does not match a sign-in started from this browser" in page
    assert counts() == before


# Moodle's Platform ID is typed by hand: "https://moodle.example.edu" or "https://moodle.example.edu/".
ISSUER_SPELLINGS = {"registered with a trailing slash": ("/", ""), "sent with a trailing slash": ("", "/")}


@pytest.mark.parametrize("case", list(ISSUER_SPELLINGS))
def test_an_issuer_matches_its_registration_with_or_without_a_trailing_slash(client, lms, case):
    registered, sent = ISSUER_SPELLINGS[case]
    Platform.objects.update(issuer=lms.origin + registered)
    lms.issuer_suffix = sent
    answer = launch(client, lms, lms.person("t", "Iris", "Ng", [INSTRUCTOR]))  # the login initiation, then this
    course = Course.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/courses/{course.pk}/"
    assert LtiContext.objects.get().platform == Platform.objects.get()
