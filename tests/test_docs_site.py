"""The manual (docs/, mkdocs.yml) builds with MkDocs in strict mode: a link to a page or an anchor that does not
exist, a page left out of the navigation, or a screenshot that no browser test takes fails the build, and so
these tests. A screenshot the browser tests have not saved yet is shown as a note naming the test that takes it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def copy_of_the_manual(tmp_path: Path, screenshots: tuple[str, ...] = ()) -> Path:
    """The manual's sources in a folder of their own, beside the browser tests whose screenshots it names, with
    only the given screenshots already saved."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    (root / "tests").mkdir()
    (root / "tests" / "browser").symlink_to(REPO / "tests" / "browser")
    saved = root / "artifacts" / "screenshots"
    saved.mkdir(parents=True)
    for name in screenshots:
        (saved / f"{name}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + name.encode())
    return root


def warnings(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("WARNING")]


def test_the_manual_builds_with_every_link_and_anchor_found(tmp_path):
    done = build(REPO, tmp_path / "site")
    assert done.returncode == 0, "\n".join(warnings(done)) or done.stderr
    for page in ("operators/backups", "contributors/state-machines", "students/problem-page"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def test_a_missing_anchor_a_missing_page_or_a_screenshot_no_test_takes_fails_the_build(tmp_path):
    root = copy_of_the_manual(tmp_path)
    with open(root / "docs" / "operators" / "backups.md", "a") as page:
        page.write(
            "\nSee [the restore drill](upgrades.md#the-restore-drill) and [the runbook](runbook.md).\n\n"
            "![A page nobody photographs](../img/generated/drawn-by-hand.png)\n"
        )
    done = build(root, tmp_path / "site")
    assert done.returncode != 0
    found = warnings(done)
    assert any("'#the-restore-drill'" in line for line in found), found
    assert any("'runbook.md'" in line for line in found), found
    assert any("no browser test takes the screenshot 'drawn-by-hand'" in line for line in found), found


def test_a_saved_screenshot_is_shown_and_a_missing_one_names_its_test(tmp_path):
    root = copy_of_the_manual(tmp_path, screenshots=("problem-list",))
    done = build(root, tmp_path / "site")
    assert done.returncode == 0, "\n".join(warnings(done)) or done.stderr
    picture = tmp_path / "site" / "img" / "generated" / "problem-list.png"
    assert picture.read_bytes().endswith(b"problem-list")
    page = (tmp_path / "site" / "students" / "problem-page" / "index.html").read_text()
    assert 'src="../../img/generated/problem-list.png"' in page
    assert "Screenshot not in this build" in page
    assert "JUDGE_SCREENSHOTS=1 bin/test tests/browser/test_layout.py" in page  # takes layout-result-laptop
