"""A problem's test generator is generator.py; a package or a stored draft from before, with tests.py, still works."""

from __future__ import annotations

import pytest

from engine.package import PackageError, load_package
from judge.authoring.gate_runs import run_gate_now
from judge.problems.drafts import package_from_files, store_package_draft
from tests.helpers import standalone_copy, standalone_files

SLUG = "prepend_class_token"


def with_old_name(files: dict[str, str]) -> dict[str, str]:
    files = dict(files)
    files["tests.py"] = files.pop("generator.py")
    return files


def test_a_package_folder_with_the_old_name_loads_the_same_generator(tmp_path):
    folder = standalone_copy(SLUG, tmp_path)
    current = load_package(folder)
    (folder / "generator.py").rename(folder / "tests.py")

    old = load_package(folder)

    assert (old.generator, old.generator_file) == (current.generator, "tests.py")


def test_a_package_with_both_names_is_refused_with_which_to_keep(tmp_path):
    folder = standalone_copy(SLUG, tmp_path)
    (folder / "tests.py").write_text((folder / "generator.py").read_text())

    with pytest.raises(PackageError, match=r"both generator.py and tests.py .* keep generator.py"):
        load_package(folder)


def test_a_generator_error_names_the_file_the_author_wrote(db, process_sandbox):
    files = with_old_name(standalone_files(SLUG))
    files["tests.py"] = "x = 1\n"

    run = run_gate_now(store_package_draft(SLUG, files), sandbox=process_sandbox)

    assert not run.passed
    generator_check = next(c for c in run.checks if c["key"] == "generator")
    assert generator_check["detail"].startswith(f"{SLUG}/tests.py: ")
    assert "the generator must define generate(rng)" in generator_check["detail"]


def test_a_draft_stored_with_the_old_name_still_passes_the_gate(db, process_sandbox):
    files = with_old_name(standalone_files(SLUG))
    assert package_from_files(SLUG, files).generator_file == "tests.py"

    run = run_gate_now(store_package_draft(SLUG, files), sandbox=process_sandbox)

    assert run.passed, run.checks
