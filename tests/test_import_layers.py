"""The floors of the code import downward only, as the import contracts in pyproject.toml declare.

bench -> judge -> engine -> sandbox; the engine and the sandbox without Django; inside judge:
pages > courses > authoring | accounts > leaderboard > submissions | learning > problems > lib; no view imports
another; services send Celery tasks by name. A new import that breaks one of them fails here, with the chain that breaks it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports() -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_every_import_contract_is_kept():
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_cover_the_floors_and_the_apps():
    done = lint_imports()
    for contract in ("bench -> judge -> engine -> sandbox", "The engine and the sandbox need no Django",
                     "judge's apps import downward", "A view never imports another view",
                     "A service never imports its Celery tasks"):
        assert f"{contract}" in done.stdout.replace("\n", " ")
