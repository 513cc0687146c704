"""The floors of the code import downward only, as the import contracts in pyproject.toml declare.

bench -> judge -> engine -> sandbox; the engine and the sandbox without Django; inside judge:
pages > display > courses > authoring | accounts > grading > standings > submissions | learning > problems > lib
> settings; no view imports another; services send Celery tasks by name. A new import that breaks one of them fails
here, with the chain that breaks it, and so does a new app under judge/ that has no floor yet.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=300)


def test_every_import_contract_is_kept():
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_cover_the_floors_and_the_apps():
    done = lint_imports()
    for contract in (
        "bench -> judge -> engine -> sandbox",
        "The engine and the sandbox need no Django",
        "judge's apps import downward",
        "A view never imports another view",
        "A service never imports its Celery tasks",
    ):
        assert f"{contract}" in done.stdout.replace("\n", " ")


def test_an_app_added_under_judge_without_a_floor_breaks_the_contract(tmp_path):
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    shutil.copytree(REPO / "judge", tmp_path / "judge", ignore=shutil.ignore_patterns("__pycache__", "static"))
    for package in ("engine", "sandbox", "bench"):
        (tmp_path / package).symlink_to(REPO / package)
    new_app = tmp_path / "judge" / "badges"
    new_app.mkdir()
    (new_app / "__init__.py").write_text("")

    done = lint_imports(tmp_path)

    assert done.returncode != 0
    assert "judge.badges" in done.stdout and "1 broken" in done.stdout
