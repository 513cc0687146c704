"""Only staff author; students never see reference or wrong solutions, generators or hidden data."""

from __future__ import annotations

import pytest

from judge.authoring.models import AuditEntry
from judge.grading import services as grading
from judge.problems.models import Problem
from judge.submissions.services import intake
from tests.conftest import PROBLEMS

SLUG = "prepend_class_token"
STAFF_PAGES = [
    "/authoring/",
    "/authoring/new/",
    "/authoring/upload/",
    "/authoring/audit/",
    f"/authoring/problems/{SLUG}/",
    f"/authoring/problems/{SLUG}/edit/",
    f"/authoring/problems/{SLUG}/download/",
]
STAFF_ACTIONS = [
    (f"/authoring/problems/{SLUG}/gate/", {}),
    (f"/authoring/problems/{SLUG}/unpublish/", {}),
    ("/authoring/rejudge/", {"scope": "everything"}),
    (f"/authoring/problems/{SLUG}/edit/", {"file:problem.toml": "broken", "action": "save"}),
]


@pytest.fixture
def author(django_user_model):
    return django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk: None)


@pytest.mark.parametrize("url", STAFF_PAGES)
def test_staff_pages_are_forbidden_to_students_and_ask_strangers_to_log_in(url, client, problems, student, author):
    assert client.get(url).status_code == 302 and "/accounts/login/" in client.get(url)["Location"]
    client.force_login(student)
    assert client.get(url).status_code == 403
    client.force_login(author)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(("url", "data"), STAFF_ACTIONS)
def test_a_student_cannot_change_anything(url, data, client, problems, student):
    before = Problem.objects.get(slug=SLUG)
    audited = AuditEntry.objects.count()  # the sync's imports and publications
    client.force_login(student)
    assert client.post(url, data).status_code == 403
    after = Problem.objects.get(slug=SLUG)
    assert (after.published, after.draft_files, after.gate_runs.count()) == (
        True,
        before.draft_files,
        before.gate_runs.count(),
    )
    assert AuditEntry.objects.count() == audited


def test_student_pages_never_show_solutions_wrong_solutions_or_the_generator(client, problems, student, no_enqueue):
    package = PROBLEMS / SLUG
    secrets = [
        "Reference: tile the shared token",  # solution.py
        "The loader seeds ``rng`` from [tests].seed",  # the generator's docstring
        "ViT-B/16 sequence length",  # a generator comment
        *[
            (package / "wrong" / name).read_text().strip().splitlines()[-1].strip()
            for name in ("appended.py", "batch_axis.py", "overwrite_first_patch.py")
        ],
    ]
    wrong = (package / "wrong/appended.py").read_text()
    submission = intake.submit_solution(student, problems[SLUG], wrong)
    grading.grade_submission(submission.pk)
    client.force_login(student)
    pages = [
        "/",
        f"/problems/{SLUG}/",
        f"/problems/{SLUG}/history/",
        f"/submissions/{submission.pk}/",
        f"/submissions/{submission.pk}/status/",
        "/leaderboard/",
        f"/accounts/users/{student.username}/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        for secret in secrets:
            if url.startswith("/submissions/") and secret in wrong:
                continue  # the student's own code is theirs to see
            assert secret not in page, (url, secret)
    hidden = list(problems[SLUG].current_test_set.cases.filter(hidden=True))
    status_page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert all(f'data-test="{case.name}"' in status_page for case in hidden)  # a row, or named in one it joins
    assert "Class token appended instead of prepended" in status_page


def test_drafts_are_invisible_to_students_but_visible_to_staff(client, problems, student, author):
    Problem.objects.filter(slug=SLUG).update(published=False)
    client.force_login(student)
    assert client.get(f"/problems/{SLUG}/").status_code == 404
    assert client.post(f"/submissions/new/{SLUG}/", {"code": "x = 1"}).status_code in (400, 404)
    client.force_login(author)
    assert client.get(f"/authoring/problems/{SLUG}/").status_code == 200


def test_staff_can_preview_a_never_published_draft_as_students_would_see_it(client, problems, author):
    from judge.authoring.services import create_problem

    create_problem(author, "scale_by_two", "Scale by two", "scale", ["x"])
    client.force_login(author)
    page = client.get("/problems/scale_by_two/")
    assert page.status_code == 200 and "Scale by two" in page.content.decode()
    assert "Student page" in client.get("/authoring/problems/scale_by_two/").content.decode()
