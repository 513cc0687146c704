"""The engine and the sandbox are plain Python: they import where Django cannot be found."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

# A meta-path finder that refuses Django, as in a process that never had it installed.
WITHOUT_DJANGO = """
import importlib.abc, pkgutil, sys

class NoDjango(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoDjango())
import engine, sandbox
for package in (engine, sandbox):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if module.name.startswith("sandbox.zygote"):
            continue  # the code that runs inside the sandbox image, started as a program of its own
        __import__(module.name)
from engine.verdicts import Verdict
assert "django" not in sys.modules
print(Verdict.ACCEPTED.label)
"""


def test_the_engine_and_the_sandbox_import_where_django_cannot_be_found():
    done = subprocess.run([sys.executable, "-c", WITHOUT_DJANGO], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Accepted"


def test_verdicts_keep_their_stored_values_and_labels(db):
    from django.core.management import call_command

    # No model change: the fields' choices are those the migrations already hold.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
