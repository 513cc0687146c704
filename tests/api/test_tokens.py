"""Personal access tokens: made and revoked on the profile page, shown once, stored hashed, scoped."""

from __future__ import annotations

import re

from judge.tokens.models import AccessToken
from judge.tokens.services import create_token


def test_a_new_token_is_shown_once_and_only_its_hash_is_stored(client, student):
    client.force_login(student)
    made = client.post("/accounts/tokens/", {"name": "laptop", "scopes": ["read", "submit"]})
    assert made.status_code == 302 and made["Location"] == f"/accounts/users/{student.username}/#tokens"
    shown = client.get(made["Location"])
    assert shown["Cache-Control"] == "no-store"
    page = shown.content.decode()
    secret = re.search(r'<pre id="new-token-secret">(npj_[A-Za-z0-9_-]+)</pre>', page).group(1)
    stored = AccessToken.objects.get(user=student)
    assert secret not in str(stored.__dict__) and stored.prefix == secret[:10]
    again = client.get(f"/accounts/users/{student.username}/").content.decode()
    assert secret not in again and "laptop" in again and f"{secret[:10]}…" in again
    assert AccessToken.objects.filter(user=student).count() == 1  # the reload after the redirect made no other
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {secret}").json()["username"] == "ada"


def test_a_revoked_token_is_refused_with_problem_details(client, student):
    token, secret = create_token(student, "old", ["read"])
    client.force_login(student)
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    answer = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert answer.status_code == 401 and answer["Content-Type"] == "application/problem+json"
    assert "profile page" in answer.json()["detail"]


def test_a_token_records_when_it_was_last_used(client, student):
    token, secret = create_token(student, "ci", ["read"])
    assert token.last_used_at is None
    client.get("/api/v1/problems", HTTP_AUTHORIZATION=f"Bearer {secret}")
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_a_read_only_token_cannot_submit(client, student, problems):
    _, secret = create_token(student, "reader", ["read"])
    answer = client.post(
        "/api/v1/submissions",
        data={"problem": "prepend_class_token", "code": "x = 1"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert answer.status_code == 403 and "'submit' scope" in answer.json()["detail"]


def test_a_token_needs_a_name_and_a_scope(client, student):
    client.force_login(student)
    answer = client.post("/accounts/tokens/", {"name": "  ", "scopes": ["read"]})
    assert answer.status_code == 400 and "give the token a name" in answer.content.decode()
    answer = client.post("/accounts/tokens/", {"name": "x"})
    assert answer.status_code == 400 and "choose at least one scope" in answer.content.decode()
    assert not AccessToken.objects.exists()


def test_a_staff_members_token_sees_what_a_student_sees(client, author, student, problems, no_enqueue):
    from judge.submissions.services import intake

    draft = problems["prepend_class_token"]
    draft.published = False
    draft.save()
    theirs = intake.submit_solution(student, problems["add_positional_embedding"], "x = 1")
    _, secret = create_token(author, "staff laptop", ["read"])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    assert client.get("/api/v1/problems/prepend_class_token", **auth).status_code == 404
    assert "prepend_class_token" not in [p["slug"] for p in client.get("/api/v1/problems", **auth).json()]
    assert client.get(f"/api/v1/submissions/{theirs.pk}", **auth).status_code == 404
    author.refresh_from_db()
    assert author.is_staff  # the API's student copy of the user is never saved
