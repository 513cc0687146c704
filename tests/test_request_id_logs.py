"""One grep of a request id finds a submission's whole story: the web request that made it, the worker that
graded it and the sandbox jobs it ran, as JSON log lines."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from celery.signals import before_task_publish, task_postrun, task_prerun

from judge.grading import services as grading
from judge.lib import logs
from judge.lti import tasks as lti_tasks
from judge.submissions.models import Submission
from tests.conftest import read_solution
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

REQUEST_ID = "lecture-7-a1b2c3d4"


@pytest.fixture
def json_log():
    """The site's JSON lines (LOG_FORMAT=json), as a log collector would read them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.RequestIdFilter())
    handler.setFormatter(logs.json_formatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield stream
    root.removeHandler(handler)
    root.setLevel(level)


def lines_of(text: str, request_id: str) -> list[dict]:
    parsed = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    return [line for line in parsed if line.get("request_id") == request_id]


def submit_over_http(client, student, **headers) -> tuple[Submission, object]:
    client.force_login(student)
    response = client.post(
        "/submissions/new/prepend_class_token/",
        {"code": read_solution("prepend_class_token"), "kind": "submit"},
        **headers,
    )
    assert response.status_code == 302
    return Submission.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1])), response


@pytest.mark.django_db
def test_the_request_id_follows_a_submission_from_the_web_request_to_the_worker_and_its_sandbox_jobs(
    client, problems, student, no_enqueue, json_log
):
    submission, response = submit_over_http(client, student, HTTP_X_REQUEST_ID=REQUEST_ID)
    assert response["X-Request-ID"] == REQUEST_ID
    assert submission.request_id == REQUEST_ID
    assert logs.current_request_id() == ""  # the request is over: the worker binds the id from the row
    grading.grade_submission(submission.pk)

    story = lines_of(json_log.getvalue(), REQUEST_ID)
    said = [(line["logger"], line["message"]) for line in story]
    assert (
        "judge.submissions.services.intake",
        f"submission {submission.pk} accepted: submit of prepend_class_token by user {student.pk}",
    ) in said
    assert any(
        logger == "judge.grading.services" and message.startswith(f"submission {submission.pk} graded: accepted in ")
        for logger, message in said
    )
    jobs = [message for logger, message in said if logger == "sandbox.jobs"]
    assert len(jobs) == 1 and jobs[0].startswith("sandbox job: 13 test(s) on ")  # examples, then the hidden tests
    assert {"time", "level", "logger", "request_id", "message"} <= set(story[0])


@pytest.mark.django_db
@pytest.mark.parametrize("sent", ['"; rm -rf /', "x" * 300, "short", "tab\there-and-more"])
def test_an_unusable_incoming_id_is_replaced_by_a_new_one(client, sent):
    answered = client.get("/accounts/login/", HTTP_X_REQUEST_ID=sent)["X-Request-ID"]
    assert answered != sent and re.fullmatch(r"[0-9a-f]{32}", answered)


@pytest.mark.django_db
def test_a_request_without_an_id_gets_one_and_two_requests_get_two(client):
    first = client.get("/accounts/login/")["X-Request-ID"]
    second = client.get("/accounts/login/")["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", first) and first != second


def test_a_task_sent_during_a_request_carries_its_id_into_the_task(json_log):
    """What the web sends to the worker (a gate run, a score post): the message header, then the task's lines."""
    import judge.celery  # noqa: F401  (connects the signals, as the worker and the web do)

    task = lti_tasks.post_score
    headers: dict = {}
    with logs.bound_request_id(REQUEST_ID):
        before_task_publish.send(
            sender=task.name,
            body=(),
            exchange="",
            routing_key="maintenance",
            headers=headers,
            properties={},
            declare=[],
            retry_policy=None,
        )
    assert headers[logs.TASK_HEADER] == REQUEST_ID

    task.push_request(id="task-1", **headers)  # what a worker does with the message's headers
    try:
        task_prerun.send(sender=task, task_id="task-1", task=task, args=(), kwargs={})
        logging.getLogger("judge.lti.tasks").warning("posting a score")
        task_postrun.send(sender=task, task_id="task-1", task=task, args=(), kwargs={}, retval=None, state="SUCCESS")
    finally:
        task.pop_request()
    assert [line["message"] for line in lines_of(json_log.getvalue(), REQUEST_ID)] == ["posting a score"]
    assert logs.current_request_id() == ""  # the next task starts without it


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_workers_json_lines_carry_the_id_of_the_request_that_made_the_submission(
    client, problems, student, start_worker, tmp_path
):
    start_worker(env={"LOG_FORMAT": "json"})
    submission, _ = submit_over_http(client, student, HTTP_X_REQUEST_ID=REQUEST_ID)
    log = tmp_path / "worker.log"
    wait_for(lambda: final(submission.pk), 60, "a verdict", log)
    graded = f"submission {submission.pk} graded: accepted in "
    wait_for(lambda: graded in log.read_text(), 10, "the worker's line after the verdict", log)
    story = [line["message"] for line in lines_of(log.read_text(), REQUEST_ID)]
    assert f"submission {submission.pk} claimed (submit of prepend_class_token, attempt 1)" in story
    assert any(message.startswith(graded) for message in story)
    assert sum(message.startswith("sandbox job: 13 test(s) on ") for message in story) == 1


def test_the_worker_log_is_not_buried_under_the_recovery_sweeps_routine_lines():
    """The sweep runs every 3 s: Celery's "received"/"succeeded" lines for it (and the beat's "sending") are
    dropped, while a grading task's lines and any warning about the sweep still show."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.RoutineTaskFilter())
    trace, beat = logging.getLogger("celery.app.trace"), logging.getLogger("celery.beat")
    for logger in (trace, beat):
        logger.addHandler(handler)
    try:
        beat.info(
            "Scheduler: Sending due task recover-stalled-submissions "
            "(judge.submissions.tasks.recover_stalled_submissions)"
        )
        trace.info(
            "Task %s[%s] succeeded in %ss: %s",
            "judge.submissions.tasks.recover_stalled_submissions",
            "86c0",
            0.018,
            None,
        )
        trace.info("Task %s[%s] succeeded in %ss: %s", "judge.grading.tasks.grade_submission", "9f1e", 0.4, None)
        trace.error(
            "Task %s[%s] raised unexpected: %s",
            "judge.submissions.tasks.recover_stalled_submissions",
            "77aa",
            "OperationalError('database is locked')",
        )
    finally:
        for logger in (trace, beat):
            logger.removeHandler(handler)
    printed = stream.getvalue().splitlines()
    assert printed == [
        "Task judge.grading.tasks.grade_submission[9f1e] succeeded in 0.4s: None",
        (
            "Task judge.submissions.tasks.recover_stalled_submissions[77aa] raised unexpected: "
            "OperationalError('database is locked')"
        ),
    ]
