"""The embedded default (one SQLite file) takes a class's worth of concurrent writes without "database is locked".

Each writer is a separate process, as the web server and the worker are: it autosaves drafts the way the editor
does and records submissions the way Run and Submit do, all at once against the same file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.heavy  # six processes, each starting Django
WRITERS = 6
ROUNDS = 40

SETUP = """
from django.contrib.auth.models import User
from judge.problems.models import Problem, TestSet
problem = Problem.objects.create(slug="p", title="P", difficulty="easy", statement_md="s", starter_code="",
                                 solution_code="", package_hash="h", published=True)
problem.current_test_set = TestSet.objects.create(problem=problem, version="h")
problem.save()
for k in range({writers}):
    User.objects.create_user(f"student{{k}}")
"""

WRITER = """
import sys
from django.contrib.auth.models import User
from judge.learning.services import save_code_draft
from judge.problems.models import Problem
from judge.submissions.models import Kind
from judge.submissions.services.intake import submit_solution

user, problem = User.objects.get(username=f"student{{sys.argv[1]}}"), Problem.objects.get(slug="p")
failures = []
for i in range({rounds}):
    try:
        save_code_draft(user, problem, f"def f(x):\\n    return x  # edit {{i}}\\n")
        submit_solution(user, problem, f"def f(x):\\n    return x  # run {{i}}\\n", Kind.RUN)
    except Exception as exc:
        failures.append(repr(exc))
print(len(failures), failures[:1])
"""


def django_script(body: str) -> str:
    return textwrap.dedent("""
        import django
        django.setup()
    """) + textwrap.dedent(body)


@pytest.fixture
def sqlite_env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DEBUG")}
    env.update(JUDGE_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="judge.settings", JUDGE_TEST="1")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    run_script(django_script(SETUP.format(writers=WRITERS)), env)
    return env


def run_script(script: str, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_concurrent_autosaves_and_submissions_on_sqlite_are_never_refused(sqlite_env):
    script = django_script(WRITER.format(rounds=ROUNDS))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(k)],
            cwd=REPO,
            env=sqlite_env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for k in range(WRITERS)
    ]
    outputs = [writer.communicate(timeout=300) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), [err for _, err in outputs]
    reports = [out.strip() for out, _ in outputs]
    assert reports == ["0 []"] * WRITERS, reports
    counted = run_script(
        django_script("""
        from judge.learning.models import Draft
        from judge.submissions.models import Submission
        print(Draft.objects.count(), Submission.objects.count())
    """),
        sqlite_env,
    )
    assert counted.split() == [str(WRITERS), str(WRITERS * ROUNDS)]
