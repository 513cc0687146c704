""" "Download my work": the zip holds a git repository that git itself reads, with a commit per Submit in time
order, its verdict in the message, and the files of the last commit checked out."""

from __future__ import annotations

import asyncio
import io
import subprocess
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.verdicts import Verdict
from judge.submissions.models import Kind
from tests.boards import quick_problem
from tests.students import graded

pytestmark = pytest.mark.django_db

FIRST = "import numpy as np\n\n\ndef f(x):\n    return x + 1\n"
WRONG = "import numpy as np\n\n\ndef g(x):\n    return x\n"
BETTER = "import numpy as np\n\n\ndef f(x):\n    return np.add(x, 1)\n"
SECOND = "import numpy as np\n\n\ndef g(x):\n    return 2 * x\n"


@pytest.fixture
def work(student, second_student):
    one = quick_problem("add_one")
    two = quick_problem("double_it")
    one.statement_md = "Add one to every element."
    one.save()
    made = [
        graded(student, one, Verdict.ACCEPTED, code=FIRST, minute=1),
        graded(student, two, Verdict.WRONG_ANSWER, code=WRONG, minute=2),
        graded(student, one, Verdict.ACCEPTED, code=BETTER, minute=3),
        graded(student, two, Verdict.ACCEPTED, code=SECOND, minute=4),
    ]
    graded(student, one, Verdict.ACCEPTED, kind=Kind.RUN, code="# a Run is not a Submit\n", minute=5)
    graded(second_student, one, Verdict.ACCEPTED, code="# grace's\n", minute=6)
    return made


def unzipped(content: bytes, into: Path) -> Path:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert archive.testzip() is None
        archive.extractall(into)
    (folder,) = into.iterdir()
    return folder


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def download(client, query: str = "") -> bytes:
    answer = client.get(f"/accounts/export/{query}")
    assert answer.status_code == 200 and answer.streaming
    assert answer["Content-Type"] == "application/zip"
    assert answer["Content-Disposition"].startswith('attachment; filename="npjudge-ada-')
    chunks = list(answer.streaming_content)
    assert len(chunks) >= 2  # sent as it is made, not as one block at the end
    return b"".join(chunks)


def test_every_submit_is_a_commit_in_time_order_with_its_verdict(client, student, work, tmp_path):
    client.force_login(student)
    repo = unzipped(download(client), tmp_path)
    assert git(repo, "log", "--reverse", "--format=%s").splitlines() == [
        f"Add one: Accepted (#{work[0].pk})",
        f"Double it: Wrong answer (#{work[1].pk})",
        f"Add one: Accepted (#{work[2].pk})",
        f"Double it: Accepted (#{work[3].pk})",
    ]
    assert (
        git(repo, "log", "-1", "--format=%an %ad", "--date=iso-strict", f"HEAD~{3}").strip()
        == f"ada {work[0].created_at.isoformat()}"
    )
    assert git(repo, "show", "HEAD~3:add_one/solution.py") == FIRST
    assert git(repo, "show", "HEAD~2:double_it/attempt.py") == WRONG
    assert "-    return x + 1\n+    return np.add(x, 1)" in git(repo, "show", "HEAD~1")
    assert git(repo, "show", "HEAD:add_one/statement.md") == "Add one to every element."
    # The last commit is checked out and git sees nothing changed; the repository is sound.
    assert (repo / "add_one" / "solution.py").read_text() == BETTER
    assert (repo / "double_it" / "solution.py").read_text() == SECOND
    assert (repo / "double_it" / "attempt.py").read_text() == WRONG
    assert git(repo, "status", "--porcelain") == ""
    git(repo, "fsck", "--strict")
    assert "grace" not in git(repo, "log", "--all", "-p") and "a Run is not a Submit" not in git(repo, "log", "-p")


def test_the_last_accepted_submit_of_each_problem_only(client, student, work, tmp_path):
    client.force_login(student)
    repo = unzipped(download(client, "?only=accepted"), tmp_path)
    assert git(repo, "log", "--reverse", "--format=%s").splitlines() == [
        f"Add one: Accepted (#{work[2].pk})",
        f"Double it: Accepted (#{work[3].pk})",
    ]
    assert sorted(git(repo, "ls-files").split()) == [
        "README.md",
        "add_one/solution.py",
        "add_one/statement.md",
        "double_it/solution.py",
        "double_it/statement.md",
    ]
    assert git(repo, "status", "--porcelain") == ""


def test_nothing_submitted_yet_is_an_empty_repository(client, second_student, tmp_path):
    client.force_login(second_student)
    answer = client.get("/accounts/export/")
    repo = unzipped(b"".join(answer.streaming_content), tmp_path)
    assert git(repo, "rev-parse", "--git-dir").strip() == ".git"
    assert (repo / "README.md").exists()


def test_a_visitor_is_asked_to_log_in_and_a_wrong_option_is_named(client, student):
    assert client.get("/accounts/export/").status_code == 302
    client.force_login(student)
    answer = client.get("/accounts/export/?only=some")
    assert answer.status_code == 400 and b"only= takes one of: all, accepted" in answer.content


def test_the_profile_offers_the_download_to_its_owner_only(client, student, second_student):
    client.force_login(student)
    assert 'id="export-button"' in client.get("/accounts/users/ada/").content.decode()
    assert 'id="export-button"' not in client.get("/accounts/users/grace/").content.decode()


def test_the_api_sends_the_same_zip_to_a_token(client, student, work, tmp_path):
    from judge.tokens.services import create_token

    token = create_token(student, "laptop", ["read"])[1]
    answer = client.get("/api/v1/me/export?only=accepted", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    repo = unzipped(b"".join(answer.streaming_content), tmp_path)
    assert len(git(repo, "log", "--format=%H").split()) == 2
    refused = client.get("/api/v1/me/export?only=nope", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert refused.status_code == 422


@pytest.mark.django_db(transaction=True)
@pytest.mark.django_db(transaction=True)  # the request runs on other threads, which see only committed rows
def test_under_asgi_the_zip_is_sent_as_it_is_made(student, work, tmp_path):
    """Django would read a synchronous iterator to its end before sending it under ASGI; the export pulls its
    chunks one at a time on the request's thread instead."""
    from asgiref.sync import sync_to_async
    from django.db import connections
    from django.test import AsyncClient

    async def fetch():
        client = AsyncClient()
        await client.aforce_login(student)
        response = await client.get("/accounts/export/")
        assert response.is_async
        chunks = [chunk async for chunk in response.streaming_content]
        await sync_to_async(connections.close_all)()  # the views' thread's connection, or the test database stays open
        return chunks

    # A thread with an event loop of its own: a browser test earlier in this process leaves Playwright's loop
    # running on this thread, where no other loop may start.
    with ThreadPoolExecutor(1) as pool:
        chunks = pool.submit(asyncio.run, fetch()).result()
    assert len(chunks) >= 5  # a chunk per commit, then the end
    repo = unzipped(b"".join(chunks), tmp_path)
    assert len(git(repo, "log", "--format=%H").split()) == 4
