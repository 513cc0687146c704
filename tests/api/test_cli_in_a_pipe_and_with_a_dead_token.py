"""npjudge as a terminal meets it: a reader that stops early (`npjudge list | head`), a revoked token, and the speed
figure that comes a little after an accepted Submit's verdict."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.verdicts import Verdict
from judge.submissions.models import Kind, Status, Submission
from tests.api.test_cli import npjudge

pytestmark = pytest.mark.slow
SLUG = "prepend_class_token"


@pytest.fixture
def logged_in(live_server, student, tmp_path):
    from judge.tokens.services import create_token

    token, secret = create_token(student, "terminal", ["read", "submit"])
    assert npjudge(tmp_path, "login", "--server", live_server.url, stdin=secret + "\n").returncode == 0
    return token


def test_a_reader_that_leaves_early_ends_the_listing_quietly(live_server, problems, logged_in, tmp_path):
    env = {**__import__("os").environ, "NPJUDGE_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("NPJUDGE_TOKEN", None)
    listing = subprocess.Popen(
        [sys.executable, "-m", "npjudge.cli", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    listing.stdout.close()  # as `head` does once it has its lines; npjudge has not printed yet (it asks first)
    _, stderr = listing.communicate(timeout=120)
    assert stderr.decode() == ""  # no BrokenPipeError traceback
    assert listing.returncode == 141


def test_a_revoked_token_says_how_to_make_a_new_one(live_server, problems, logged_in, tmp_path):
    from judge.tokens.services import revoke_token

    revoke_token(logged_in.user, logged_in.pk)
    listed = npjudge(tmp_path, "list")
    assert listed.returncode == 2
    assert listed.stderr == (
        f"npjudge: your token was revoked or is wrong: make a new one at "
        f"{live_server.url}/accounts/me/, then run `npjudge login`\n"
    )
    assert "HTTP" not in listed.stderr and "401" not in listed.stderr


def test_the_new_token_address_leads_to_ones_own_tokens(client, student):
    client.force_login(student)
    assert client.get("/accounts/me/")["Location"] == f"/accounts/users/{student.username}/#tokens"


def test_status_shows_the_speed_once_it_is_measured(live_server, problems, logged_in, student, tmp_path):
    problem = problems[SLUG]
    submission = Submission.objects.create(
        user=student,
        problem=problem,
        kind=Kind.SUBMIT,
        code="x = 1\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        test_set=problem.current_test_set,
    )
    waiting = npjudge(tmp_path, "status", str(submission.pk))
    assert waiting.returncode == 0
    assert f"Speed: being measured; `npjudge status {submission.pk}` shows it in a little while" in waiting.stdout

    Submission.objects.filter(pk=submission.pk).update(speed={"ratio": 1.3, "vectorised": True})
    measured = npjudge(tmp_path, "status", str(submission.pk))
    assert (
        "Speed: 1.3x the reference's CPU time (vectorised); the first measured solution of this problem"
        in measured.stdout
    )
