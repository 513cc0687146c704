"""The embedded default's secret key file: made whole by whichever of bin/run's simultaneous commands comes first
(once in 15 fresh starts one of them read it empty and stopped with "Unknown command: 'collectstatic'"), and an
empty one is refused with a message that names it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

PRINT_KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def embedded_env(var_dir) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "JUDGE_TEST", "DATABASE_URL")}
    return env | {"JUDGE_VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "judge.settings"}


@pytest.mark.heavy  # the site in processes of its own
def test_processes_starting_at_once_on_a_fresh_checkout_all_read_one_whole_key(tmp_path):
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", PRINT_KEY],
            cwd=REPO,
            env=embedded_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    keys = [start.communicate(timeout=120) for start in starts]
    assert all(start.returncode == 0 for start in starts), [err for _, err in keys]
    assert len({out.strip() for out, _ in keys}) == 1
    assert (tmp_path / "secret_key").read_text().strip() == keys[0][0].strip()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".secret_key")] == []


@pytest.mark.heavy
def test_an_empty_key_file_is_refused_with_a_message_naming_it(tmp_path):
    (tmp_path / "secret_key").write_text("")
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO,
        env=embedded_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    error = done.stderr.strip().splitlines()[-1]  # the line a person reads under the traceback
    assert f"The secret key file {tmp_path / 'secret_key'} is empty" in error
    assert "SECRET_KEY must be set" not in done.stderr
