"""Headless Chromium against a live server and a real Celery worker.

The browser is Debian's ``chromium`` driven by Playwright's Python package;
the worker is a separate process grading in the process sandbox against the
test database, exactly as in production minus Docker.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path

import pytest
import redis

from tests.conftest import REPO

# Playwright's sync API runs an event loop in this thread; the ORM calls the
# tests make between browser steps are still ordinary synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("BROWSER_EXECUTABLE", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
PASSWORD = "a long pass phrase 42"
VERDICT_TIMEOUT_MS = 90_000


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing; bin/test.d/browser.sh should have installed it")
        pytest.skip(f"{CHROMIUM} is not installed")
    from django.db import connections
    from playwright.sync_api import sync_playwright

    # Starting Playwright in an xdist worker leaves this thread in another contextvars context, where Django
    # keeps connections of its own: the connection the earlier tests opened would stay open, idle, through
    # every later test's flush and past the session's DROP DATABASE. Closed here (unless a test's transaction
    # holds it), the tests reopen one.
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def grading_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """A Celery worker on the test database, for one test.

    It must be gone before the test's tables are truncated: a worker still
    querying them can deadlock the flush, and one left running would take the
    tasks of later tests that start workers of their own.
    """
    from django.conf import settings
    from django.db import connection

    from tests.test_worker_end_to_end import Worker

    with django_db_blocker.unblock():
        db = connection.settings_dict
        var = tmp_path_factory.mktemp("browser-worker")
        redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
        env = os.environ | {
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "SANDBOX_BACKEND": os.environ.get("E2E_SANDBOX_BACKEND", "process"),
            "JUDGE_VAR_DIR": str(var),
            "PYTHONPATH": str(REPO),
        }
        worker = Worker(env, var / "worker.log")
    yield worker
    worker.kill()


@pytest.fixture
def site(live_server, problems, grading_worker):
    """The live server's address, with the problems loaded and a worker grading."""
    return live_server.url


def wait_for_requests_in_flight(django_db_blocker, timeout_s: float = 10.0) -> None:
    """Until no other connection to the test database is running a statement or holds a transaction.

    Closing the browser does not end what it already sent: an autosave fired as a test ended was still being
    served while the test's tables were flushed, and the two deadlocked (the flush holding one table, the
    request's foreign-key check another), which failed the test and left its rows for the next one. The
    browser is closed first, so nothing new arrives; two clean looks a moment apart, then the flush may run.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        deadline, clean = time.monotonic() + timeout_s, 0
        while clean < 2 and time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'"
            )
            clean = clean + 1 if cursor.fetchone()[0] == 0 else 0
            time.sleep(0.1)


@pytest.fixture
def page(request, chromium, django_db_blocker):
    context = chromium.new_context(viewport={"width": 1360, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors, blocked = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Chromium reports each thing the Content-Security-Policy blocked on the console.
    page.on(
        "console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None
    )
    yield page
    context.close()
    if "live_server" in request.fixturenames:
        wait_for_requests_in_flight(django_db_blocker)
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert not blocked, f"the Content-Security-Policy blocked: {blocked}"


def screenshot(page, name: str) -> Path | None:
    """A full-page PNG of what the test reached, in artifacts/screenshots, with ``JUDGE_SCREENSHOTS=1`` (bin/test's
    header): for a person to look at, never asserted on, and 53 of them cost a run 12 s of the browser's time."""
    if os.environ.get("JUDGE_SCREENSHOTS") != "1":
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_up(page, site: str, username: str | None = None) -> str:
    username = username or f"student_{uuid.uuid4().hex[:8]}"
    page.goto(f"{site}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/$"))
    return username


def log_in(page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/$"))


def open_problem(page, site: str, slug: str) -> None:
    page.goto(f"{site}/problems/{slug}/")
    page.wait_for_selector("#editor .ace_content")


def editor_text(page) -> str:
    return page.evaluate("window.judgeEditor.getValue()")


def replace_code(page, code: str) -> None:
    """Select everything in the editor and type the new code over it."""
    page.click("#editor .ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def submit_and_wait(page, button: str = "Submit"):
    """Click and wait for this click's final result: the panel an earlier click left is final already, and
    waiting for any final panel returned before this click's submission even existed."""
    page.evaluate("document.querySelectorAll('#result .result-panel').forEach(p => p.dataset.earlier = '1')")
    page.get_by_role("button", name=button, exact=True).click()
    return page.wait_for_selector(
        "#result .result-panel[data-final=true]:not([data-earlier])", timeout=VERDICT_TIMEOUT_MS
    )


def edit_file(page, name: str, text: str) -> None:
    """On the authoring workbench: pick ``name`` in the file list and type ``text`` over it in the editor."""
    page.click(f'.file-list a[data-file="{name}"]')
    page.wait_for_selector(f'fieldset.package-file.current[data-file="{name}"] #workbench-editor .ace_content')
    page.click("#workbench-editor .ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)
