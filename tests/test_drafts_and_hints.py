"""Per-student state on a problem: the autosaved draft and the hints revealed."""

from __future__ import annotations

import json

from judge.learning.models import HintReveal

PAGE = "/problems/prepend_class_token/"


def editor_content(client) -> str:
    page = client.get(PAGE).content.decode()
    return page.split('class="code-fallback">', 1)[1].split("</textarea>", 1)[0]


def test_the_editor_opens_with_the_starter_code(client, problems, student):
    client.force_login(student)
    assert "NotImplementedError" in editor_content(client)


def test_a_saved_draft_reopens_for_its_owner_only(client, problems, student, second_student):
    client.force_login(student)
    response = client.post(PAGE + "draft/", {"code": "import numpy as np\n# halfway there\n"})
    assert json.loads(response.content)["saved"] is True
    assert "halfway there" in editor_content(client)
    client.force_login(second_student)
    assert "halfway there" not in editor_content(client)


def test_resetting_the_draft_brings_back_the_starter_code(client, problems, student):
    client.force_login(student)
    client.post(PAGE + "draft/", {"code": "# halfway there\n"})
    response = client.post(PAGE + "draft/reset/")
    assert "NotImplementedError" in json.loads(response.content)["code"]
    assert "halfway there" not in editor_content(client)


def test_an_oversized_draft_is_refused_with_a_reason(client, problems, student):
    client.force_login(student)
    response = client.post(PAGE + "draft/", {"code": "#" * 70_000})
    assert response.status_code == 400 and "the limit is 65,536 bytes" in json.loads(response.content)["error"]


def test_anonymous_visitors_cannot_save_drafts(client, problems):
    response = client.post(PAGE + "draft/", {"code": "x = 1"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_hints_are_revealed_one_at_a_time_and_recorded(client, problems, student):
    hints = problems["prepend_class_token"].hints
    client.force_login(student)
    assert 'class="hint"' not in client.get(PAGE).content.decode()
    first = client.post(PAGE + "hints/next/").content.decode()
    assert first.count('class="hint"') == 1 and f"Reveal hint 2 of {len(hints)}" in first
    for _ in range(len(hints) + 2):  # extra clicks past the last hint change nothing
        client.post(PAGE + "hints/next/")
    assert list(HintReveal.objects.filter(user=student).values_list("index", flat=True)) == list(range(len(hints)))
    page = client.get(PAGE).content.decode()
    assert page.count('class="hint"') == len(hints) and "All hints are revealed" in page


def test_hints_revealed_by_one_student_stay_hidden_for_another(client, problems, student, second_student):
    client.force_login(student)
    client.post(PAGE + "hints/next/")
    client.force_login(second_student)
    assert 'class="hint"' not in client.get(PAGE).content.decode()


def test_anonymous_visitors_read_the_problem_but_are_asked_to_log_in_to_submit(client, problems):
    page = client.get(PAGE).content.decode()
    assert "NotImplementedError" in page and 'class="statement markdown"' in page
    assert "to run and submit" in page and 'id="submit-button"' not in page
