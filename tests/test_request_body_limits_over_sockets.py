"""Body limits as a client meets them over a real socket, under both servers the site runs on.

The site is started as compose's ``web`` service starts it (``gunicorn -c deploy/gunicorn.conf.py judge.asgi``:
uvicorn workers) and as the older WSGI way (``GUNICORN_WORKER_CLASS=gthread`` with ``judge.wsgi``), on
127.0.0.1 against this test's database.  A client that declares 200 MB sends only its headers and a kilobyte:
the 413 must arrive before the rest, so the server has read and spooled none of it.  A chunked body is sent
64 KiB past its limit and left open: the 413 must arrive without the end of the body.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from django.db import connection

from judge.tokens.services import create_token
from tests.conftest import REPO

pytestmark = [pytest.mark.heavy, pytest.mark.django_db(transaction=True)]  # the site in processes of its own

MB = 1024 * 1024
ANSWER_WITHIN_S = 10.0
SERVERS = {"asgi": ("judge.asgi", {}), "wsgi": ("judge.wsgi", {"GUNICORN_WORKER_CLASS": "gthread"})}
URLS = {
    "login": "/accounts/login/",
    "submit": "/submissions/new/prepend_class_token/",
    "api-submissions": "/api/v1/submissions",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(port: int, tmp: str, **extra: str) -> dict[str, str]:
    """A deployment's environment (no test profile, DEBUG off) on this test's database and broker."""
    db = connection.settings_dict
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "VIRTUAL_ENV", "CELERY_BROKER_URL")}
    return (
        keep
        | {
            "DATABASE_URL": f"postgres://{quote(db['USER'])}:{quote(db['PASSWORD'] or '')}@{db['HOST']}:{db['PORT']}/"
            f"{db['NAME']}",
            "DJANGO_SETTINGS_MODULE": "judge.settings",
            "DEBUG": "0",
            "SECRET_KEY": "body-limits-" + "x" * 40,
            "JUDGE_PLAIN_HTTP": "1",
            "JUDGE_VAR_DIR": tmp,
            "TMPDIR": tmp,
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_WORKERS": "1",
            "DATABASE_POOL_MAX": "2",
            "PYTHONPATH": str(REPO),
        }
        | extra
    )


@pytest.fixture(scope="module", params=sorted(SERVERS))
def site(request, django_db_setup, tmp_path_factory) -> Iterator[int]:
    """The port of the site under gunicorn, with uvicorn workers (asgi) or threads (wsgi)."""
    module, extra = SERVERS[request.param]
    port, tmp_path = free_port(), tmp_path_factory.mktemp(request.param)
    log = open(tmp_path / "web.log", "wb")  # noqa: SIM115  (closed below)
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", module],
        cwd=REPO,
        env=server_env(port, str(tmp_path), **extra),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_until_listening(port, web, tmp_path / "web.log")
        yield port
    finally:
        os.killpg(web.pid, signal.SIGINT)  # gunicorn's quick shutdown: SIGTERM would wait for open connections
        try:
            web.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(web.pid, signal.SIGKILL)
            web.wait()
        log.close()


def wait_until_listening(port: int, web: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert web.poll() is None, log.read_text()[-3000:]
        try:
            answer = ask(port, b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        except OSError:
            time.sleep(0.3)
            continue
        if answer[0] == 200:
            return
    raise AssertionError(f"the site did not answer within 60 s:\n{log.read_text()[-3000:]}")


def head(path: str, framing: str, content_type: str = "application/x-www-form-urlencoded", **headers: str) -> bytes:
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        f"Content-Type: {content_type}",
        framing,
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def ask(port: int, *parts: bytes | Iterator[bytes]) -> tuple[int, str, float]:
    """Sends the parts from a thread (a server may answer before it has read them all), leaving the connection
    open, and reads the answer: status, body, seconds it took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_WITHIN_S) as conn:
        threading.Thread(target=send_until_closed, args=(conn, parts), daemon=True).start()
        answer = http.client.HTTPResponse(conn)
        try:
            answer.begin()
            body = answer.read().decode()
        except TimeoutError:
            raise AssertionError(f"no answer within {ANSWER_WITHIN_S} s: the server waits for the rest") from None
        return answer.status, body, time.monotonic() - started


def send_until_closed(conn: socket.socket, parts: tuple[bytes | Iterator[bytes], ...]) -> None:
    try:
        for part in parts:
            for piece in [part] if isinstance(part, bytes) else part:
                conn.sendall(piece)
    except OSError:  # the server answered and closed the connection: the rest is not wanted
        pass


def chunked(size: int, piece: int = 16 * 1024) -> Iterator[bytes]:
    """``size`` bytes of a form as chunks, without the last (empty) chunk that ends the body."""
    for start in range(0, size, piece):
        n = min(piece, size - start)
        yield f"{n:x}\r\n".encode() + b"a" * n + b"\r\n"


@pytest.mark.parametrize("name", sorted(URLS))
def test_a_200_mb_body_is_refused_before_it_is_sent(site, name, settings):
    status, body, took = ask(site, head(URLS[name], f"Content-Length: {200 * MB}"), b"a" * 1024)
    limit = settings.REQUEST_BODY_LIMITS.get(name, settings.REQUEST_BODY_DEFAULT_LIMIT)
    assert status == 413 and took < ANSWER_WITHIN_S
    assert f"the request is 209,715,200 bytes; this page accepts at most {limit:,} bytes" in body


@pytest.mark.parametrize("name", sorted(URLS))
def test_a_chunked_body_over_the_limit_is_refused_without_its_end(site, name, settings):
    limit = settings.REQUEST_BODY_LIMITS.get(name, settings.REQUEST_BODY_DEFAULT_LIMIT)
    status, body, _ = ask(site, head(URLS[name], "Transfer-Encoding: chunked"), chunked(limit + 64 * 1024))
    assert status == 413
    assert f"the request is over {limit:,} bytes; this page accepts at most {limit:,} bytes" in body


def test_a_chunked_100_byte_api_call_with_a_token_is_served(site, problems, student):
    token = create_token(student, "laptop", ["read", "submit"])[1]
    code = "def prepend_class_token(p, c):\n    return p\n"
    call = json.dumps({"problem": "prepend_class_token", "code": code, "kind": "run"}).encode()
    framing = head(
        "/api/v1/submissions", "Transfer-Encoding: chunked", "application/json", Authorization=f"Bearer {token}"
    )
    status, body, _ = ask(site, framing, f"{len(call):x}\r\n".encode() + call + b"\r\n0\r\n\r\n")
    assert status == 202, body
    assert json.loads(body)["status"] == "queued"
