"""A course's join link and an LMS launch make accounts outside the sign-up limit per address, so a lab of students
behind one address joins its course at once; the public sign-up form keeps its limit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from judge.courses.models import Membership, Role
from tests.courses import world  # noqa: F401 (fixture)
from tests.lti import launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import INSTRUCTOR, LEARNER

LAB = "10.2.0.1"
PASSWORD = "a long pass phrase 7"


@pytest.fixture
def three_an_hour(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": (3, 3600), "signup_course": (6, 3600)}


def sign_up_through(code: str, username: str):
    browser = Client()
    answer = browser.post(
        reverse("course-join-sign-up", args=[code]),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=LAB,
    )
    return browser, answer


def test_the_join_link_offers_to_make_an_account_to_someone_signed_out(client, world):
    page = client.get(reverse("course-join-link", args=[world.course.join_code])).content.decode()
    assert "You are joining <strong>Transformers in NumPy (Spring 2026)</strong>" in page
    assert "Create account and join" in page
    assert f'href="/accounts/login/?next=/courses/join/{world.course.join_code}/"' in page


def test_a_lab_behind_one_address_signs_up_through_the_join_link_past_the_address_limit(world, three_an_hour):
    for n in range(5):
        browser, answer = sign_up_through(world.course.join_code, f"labpupil{n}")
        assert answer.status_code == 302 and answer["Location"] == f"/courses/{world.course.pk}/"
        assert "Welcome, labpupil" in browser.get(answer["Location"]).content.decode()
    assert (
        Membership.objects.filter(course=world.course, user__username__startswith="labpupil", role=Role.STUDENT).count()
        == 5
    )
    public = Client().post(
        "/accounts/signup/", {"username": "walkin", "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=LAB
    )
    assert public.status_code == 302  # the join link used none of the address's allowance


def test_the_public_form_keeps_its_limit_per_address(world, three_an_hour):
    for n in range(3):
        Client().post(
            "/accounts/signup/",
            {"username": f"walkin{n}", "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR=LAB,
        )
    refused = Client().post(
        "/accounts/signup/", {"username": "walkin3", "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=LAB
    )
    assert refused.status_code == 429
    assert sign_up_through(world.course.join_code, "labpupil")[1].status_code == 302


def test_a_leaked_join_code_makes_accounts_only_up_to_the_courses_ceiling(world, three_an_hour):
    assert [sign_up_through(world.course.join_code, f"sock{n}")[1].status_code for n in range(7)] == [302] * 6 + [429]
    refused = sign_up_through(world.course.join_code, "sock7")[1]
    assert "Not signed up: too many accounts made through this course&#x27;s join link: at most 6 per hour" in (
        refused.content.decode()
    )
    assert not get_user_model().objects.filter(username="sock7").exists()


def test_a_join_link_that_is_no_course_makes_no_account(world, three_an_hour):
    answer = sign_up_through("NOPE2345", "lost")[1]
    assert answer.status_code == 400
    assert "This join link is not valid any more" in answer.content.decode()
    assert not get_user_model().objects.filter(username="lost").exists()


def test_a_bad_form_through_the_join_link_says_why_and_makes_nothing(world):
    answer = Client().post(
        reverse("course-join-sign-up", args=[world.course.join_code]),
        {"username": "sam", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status_code == 400 and "A user with that username already exists." in answer.content.decode()
    assert not Membership.objects.filter(course=world.course, user__username="sam").exists()


def test_lms_launches_make_accounts_past_the_address_limit(client, lms, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": (1, 3600)}
    assert launch(client, lms, lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])).status_code == 302
    for n in range(3):
        answer = launch(Client(), lms, lms.person(f"lms-learner-{n}", f"Learner{n}", "Lab", [LEARNER]))
        assert answer.status_code == 302
    assert get_user_model().objects.filter(username__startswith="learner").count() == 3
