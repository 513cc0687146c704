"""Signing up, logging in and out, changing the password, and the profile page."""

from __future__ import annotations

from engine.verdicts import Verdict
from judge.submissions.models import Kind
from tests.students import graded


def test_signing_up_logs_the_new_student_in(client, db):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
    )
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert "newbie" in page and "Log out" in page


def test_signing_up_with_mismatched_passwords_is_refused(client, db, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long pass phrase 7", "password2": "another phrase 7"},
    )
    assert response.status_code == 200 and not django_user_model.objects.filter(username="newbie").exists()


def test_logging_in_and_out(client, student):
    response = client.post("/accounts/login/", {"username": "ada", "password": "correct horse battery"})
    assert response.status_code == 302
    assert "ada" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_changing_the_password_replaces_the_old_one(client, student):
    client.force_login(student)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": "correct horse battery",
            "new_password1": "a brand new phrase 9",
            "new_password2": "a brand new phrase 9",
        },
    )
    assert response.status_code == 302
    client.logout()
    assert not client.login(username="ada", password="correct horse battery")
    assert client.login(username="ada", password="a brand new phrase 9")


def test_changing_the_password_needs_the_old_one(client, student):
    client.force_login(student)
    response = client.post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": "a brand new phrase 9", "new_password2": "a brand new phrase 9"},
    )
    assert response.status_code == 200
    student.refresh_from_db()
    assert student.check_password("correct horse battery")


def test_the_profile_lists_solved_problems_but_not_runs_or_failures(client, problems, student, second_student):
    graded(student, problems["prepend_class_token"], code="# ada's secret approach\n")
    graded(student, problems["add_positional_embedding"], Verdict.WRONG_ANSWER)
    graded(student, problems["scaled_dot_product_attention"], kind=Kind.RUN)
    client.force_login(second_student)
    page = client.get("/accounts/users/ada/").content.decode()
    assert problems["prepend_class_token"].title in page
    assert problems["add_positional_embedding"].title not in page
    assert problems["scaled_dot_product_attention"].title not in page
    assert "secret approach" not in page  # a profile never shows code


def test_an_unknown_profile_is_404(client, db):
    assert client.get("/accounts/users/nobody/").status_code == 404
