"""The code passes ruff's lint and format check and mypy as pyproject.toml configures them, so a likely bug, a
wrong type or a hand-formatted line fails here.

Each tool runs once, in the process of its own, over the whole tree: the findings are the assertion message, in the
same form as running the tool by hand (`ruff check`, `mypy`, from the checkout with the venv active).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

BIN = Path(sys.executable).parent


def run(*command: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_ruff_finds_nothing_to_fix():
    done = run("ruff", "check", "--no-cache", "--output-format", "concise", ".", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_no_type_error():
    # The cache in .mypy_cache makes a second run take seconds; a fresh clone's first takes about a minute of CPU.
    done = run("mypy", timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_the_code_is_formatted_as_ruff_formats_it():
    done = run("ruff", "format", "--check", "--no-cache", ".", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
