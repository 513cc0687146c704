"""The JSON API as a client sees it: problems, submissions as their page shows them, refusals as problem details."""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from judge.grading import services as grading
from judge.submissions.models import Submission
from tests.conftest import read_solution

SLUG = "prepend_class_token"


def test_the_problem_list_filters_by_tag_and_solved(api, problems):
    everything = api.get("/problems").json()
    assert [p["slug"] for p in everything][:3] == [
        "prepend_class_token",
        "add_positional_embedding",
        "scaled_dot_product_attention",
    ]
    tag = everything[0]["tags"][0]
    assert all(tag in p["tags"] for p in api.get(f"/problems?tag={tag}").json())
    assert api.get("/problems?solved=true").json() == []


def test_a_problem_has_its_statement_signature_and_examples_as_lists_and_npy(api, problems):
    detail = api.get(f"/problems/{SLUG}").json()
    assert detail["signature"] == "prepend_class_token(patches, cls_token)"
    assert [p["kind"] for p in detail["parameters"]] == ["array", "array"]
    assert detail["statement_md"] and "def prepend_class_token" in detail["starter_code"]
    example = detail["examples"][0]
    expected = np.array(example["expected"]["value"])
    assert list(expected.shape) == example["expected"]["shape"]
    npy = api.get(example["expected"]["npy_url"].split("/api/v1")[1])
    assert npy["Content-Type"] == "application/octet-stream"
    assert np.array_equal(np.load(io.BytesIO(npy.content), allow_pickle=False), expected)
    assert "probes" not in detail["grading_spec"] and detail["grading_spec"]["function"] == SLUG


def test_a_wrong_submit_shows_the_named_mistake_and_hides_hidden_tests(api, problems, no_enqueue):
    answer = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG, "wrong/appended.py")})
    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    assert grading.grade_submission(answer.json()["id"])
    shown = api.get(f"/submissions/{answer.json()['id']}").json()
    assert shown["verdict"] == "wrong_answer" and not shown["accepted"]
    assert [m["name"] for m in shown["misconceptions"]] == ["Class token appended instead of prepended"]
    visible = [t for t in shown["tests"] if not t["hidden"]]
    hidden = [t for t in shown["tests"] if t["hidden"]]
    assert visible[0]["heatmap_svg"].startswith('<div class="difference-picture"><svg')
    assert visible[0]["checks"] == {
        "ndarray": "passed",
        "float64": "passed",
        "shape": "passed",
        "values": "failed",
        "inputs unchanged": "skipped",
    }
    assert hidden and all(t["heatmap_svg"] is None and t["actual"] is None and t["time_ms"] == 0 for t in hidden)
    assert all(t["message"] == "" or "hidden" in t["message"] or "values" in t["message"] for t in hidden)


def test_an_accepted_run_and_my_submissions(api, problems, no_enqueue):
    run = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG), "kind": "run"}).json()
    grading.grade_submission(run["id"])
    assert api.get(f"/submissions/{run['id']}").json()["verdict_label"] == "Accepted"
    mine = api.get("/submissions").json()
    assert [(s["id"], s["kind"]) for s in mine] == [(run["id"], "run")]


def test_a_retried_request_with_the_same_idempotency_key_makes_one_submission(api, problems, no_enqueue):
    body = {"problem": SLUG, "code": read_solution(SLUG)}
    first = api.post("/submissions", body, HTTP_IDEMPOTENCY_KEY="5b1d1d7e-8f4c-4c3e-9a57-0c8f7d6e5a41").json()
    again = api.post("/submissions", body, HTTP_IDEMPOTENCY_KEY="5b1d1d7e-8f4c-4c3e-9a57-0c8f7d6e5a41").json()
    assert first["id"] == again["id"] and Submission.objects.count() == 1


def test_the_same_idempotency_key_and_code_for_another_problem_is_a_submission_to_that_problem(
    api, problems, no_enqueue
):
    key, code = "5b1d1d7e-8f4c-4c3e-9a57-0c8f7d6e5a41", "def f(x):\n    return x\n"
    first = api.post("/submissions", {"problem": SLUG, "code": code}, HTTP_IDEMPOTENCY_KEY=key).json()
    other = api.post(
        "/submissions", {"problem": "add_positional_embedding", "code": code}, HTTP_IDEMPOTENCY_KEY=key
    ).json()
    retried = api.post(
        "/submissions", {"problem": "add_positional_embedding", "code": code}, HTTP_IDEMPOTENCY_KEY=key
    ).json()
    assert other["id"] != first["id"] and other["problem"] == "add_positional_embedding"
    assert retried["id"] == other["id"] and Submission.objects.count() == 2  # its own retry still finds it


def test_a_malformed_idempotency_key_is_refused_saying_what_a_key_looks_like(api, problems, no_enqueue):
    answer = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)}, HTTP_IDEMPOTENCY_KEY="retry-1")
    assert answer.status_code == 400 and answer["Content-Type"] == "application/problem+json"
    assert answer.json()["detail"] == (
        "the Idempotency-Key header must be a UUID, such as "
        "5b1d1d7e-8f4c-4c3e-9a57-0c8f7d6e5a41 (one per submission, the same when "
        "retried), not 'retry-1'"
    )
    assert not Submission.objects.exists()


def test_a_custom_input_with_a_bad_literal_names_the_field(api, problems, no_enqueue):
    answer = api.post(
        "/submissions",
        {"problem": SLUG, "code": read_solution(SLUG), "inputs": {"patches": "np.zeros((", "cls_token": "[[[1.0]]]"}},
    )
    assert answer.status_code == 400 and answer["Content-Type"] == "application/problem+json"
    assert any(e["field"] == "inputs.patches" for e in answer.json()["errors"])
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"problem": SLUG, "code": "x = 1", "language": "python"}, 422, "language: Extra inputs are not permitted"),
        ({"problem": SLUG, "code": 12}, 422, "code: Input should be a valid string"),
        ({"problem": SLUG, "code": "x = 1", "kind": "rejudge"}, 422, "kind: Input should be 'run' or 'submit'"),
        ({"problem": SLUG, "code": "x" * (64 * 1024 + 1)}, 400, "the code is 65,537 bytes; the limit is 65,536 bytes"),
        ({"problem": SLUG, "code": "   "}, 400, "the code is empty"),
        ({"problem": "no_such_problem", "code": "x = 1"}, 404, "no published problem 'no_such_problem'"),
        ({"problem": "\x00\x04", "code": "x = 1"}, 422, "problem: String should match pattern"),
        (b'{"problem": "prepend_class_token", "code": "\xff"}', 400, "not valid UTF-8 (byte 0xff"),
        (b'{"problem": ', 400, "not valid JSON"),
        (json.dumps({"problem": SLUG, "code": "x" * 700_000}), 413, "this page accepts at most"),
    ],
)
def test_bad_input_gets_a_4xx_problem_with_a_message_and_changes_nothing(api, problems, no_enqueue, body, status, says):
    answer = api.post("/submissions", body)
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert says in answer.json()["detail"]
    assert not Submission.objects.exists()


def test_the_api_counts_against_the_same_rate_limit_as_the_page(api, client, student, problems, no_enqueue, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "submit": (2, 60)}
    client.force_login(student)
    client.post(f"/submissions/new/{SLUG}/", {"code": read_solution(SLUG)})  # one from the page
    assert api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)}).status_code == 202
    refused = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "you have used all 2 submissions allowed per minute" in refused.json()["detail"]


def test_a_locked_problem_is_refused_as_on_the_page_even_to_staff(client, author, problems, no_enqueue):
    from judge.tokens.services import create_token

    locked = problems["add_positional_embedding"]
    locked.spec = {**locked.spec, "builds_on": [SLUG]}  # as a manifest's builds_on stores it
    locked.save()
    secret = create_token(author, "staff", ["submit"])[1]
    answer = client.post(
        "/api/v1/submissions",
        data={"problem": locked.slug, "code": "x = 1"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        f"add_positional_embedding builds on your own accepted solution of {SLUG}: solve it first"
    )
    assert not Submission.objects.exists()


def test_the_event_stream_ends_with_the_verdict(api, problems, no_enqueue):
    submission = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)}).json()
    grading.grade_submission(submission["id"])
    stream = api.get(f"/submissions/{submission['id']}/events")
    assert stream["Content-Type"] == "text/event-stream"
    text = b"".join(stream.streaming_content).decode()
    assert text.startswith("event: verdict\ndata: ")
    assert json.loads(text.split("data: ", 1)[1])["verdict"] == "accepted"


def test_me_and_the_leaderboard_after_a_solve(api, problems, no_enqueue):
    submission = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)}).json()
    grading.grade_submission(submission["id"])
    me = api.get("/me").json()
    assert [s["problem"] for s in me["solved"]] == [SLUG] and me["rank"] == 1
    board = api.get("/leaderboard?window=week").json()
    assert board["rows"][0] == {"rank": 1, "name": "ada", "solved": 1, "tied": False, "me": True}
    assert api.get("/leaderboard?window=decade").status_code == 422


def test_the_openapi_document_and_its_docs_page(client, db):  # db: the footer reads what the workers recorded
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.") and "/api/v1/submissions/{pk}/events" in schema["paths"]
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200 and b"swagger-ui-bundle.js" in docs.content


def test_a_slug_that_no_problem_could_have_is_refused_by_name_not_a_server_error(api, problems):
    """PostgreSQL refuses a NUL in text: such a slug never reaches a query (the schema fuzzer found the 500)."""
    assert api.get("/problems/pre%00pend").status_code == 404
    for query, field in (("/submissions?problem=a%00b", "problem"), ("/problems?track=a%00b", "track")):
        answer = api.get(query)
        assert answer.status_code == 400 and answer["Content-Type"] == "application/problem+json", query
        assert answer.json()["detail"] == f"the {field} field contains a NUL character"
    answer = api.get("/submissions?problem=a%20b")
    assert answer.status_code == 422 and "problem: String should match pattern" in answer.json()["detail"]


def test_an_address_that_names_no_endpoint_is_a_problem_too(api):
    answer = api.get("/problem")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/problem+json"
    assert "/api/v1/openapi.json" in answer.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_sends_each_event_as_it_comes(api, token, problems, no_enqueue):
    """Served by uvicorn, a client sees "queued" before the verdict, not everything at the end."""
    from asgiref.sync import async_to_sync, sync_to_async
    from django.db import connections
    from django.test import AsyncClient

    pk = api.post("/submissions", {"problem": SLUG, "code": read_solution(SLUG)}).json()["id"]

    async def follow() -> tuple[bytes, list[bytes]]:
        response = await AsyncClient().get(
            f"/api/v1/submissions/{pk}/events", headers={"Authorization": f"Bearer {token}"}
        )
        assert response.is_async
        chunks = aiter(response.streaming_content)
        first = await anext(chunks)  # before the submission is graded
        await sync_to_async(grading.grade_submission)(pk)
        rest = [chunk async for chunk in chunks]
        await sync_to_async(connections.close_all)()  # this thread's, before the tables are flushed
        return first, rest

    # On a thread of its own, with its own database connection (so the rows are committed: transaction=True):
    # after a browser test in this xdist worker, Playwright's event loop is still running in the main thread,
    # where async_to_sync refuses to start.
    with ThreadPoolExecutor(1) as pool:
        first, rest = pool.submit(async_to_sync(follow)).result()
    assert first.decode().startswith("event: status\n") and '"status": "queued"' in first.decode()
    verdict = b"".join(rest).decode().split("event: verdict\ndata: ", 1)[1]
    assert json.loads(verdict)["verdict"] == "accepted"
