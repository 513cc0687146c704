"""The manual's screenshots come from the browser tests, never from a hand (MkDocs hook, mkdocs.yml).

A page shows one by writing, on a line of its own, ``![what it shows](../img/generated/NAME.png)``, where NAME
is what a browser test passes to ``screenshot(page, NAME)`` (tests/browser/conftest.py). ``JUDGE_SCREENSHOTS=1``
makes the tests save them in artifacts/screenshots/; they are build outputs and are not committed. The build
takes each from there, and where a run has not made it yet the page shows a note naming the test that makes it.
A NAME that no browser test takes is a warning, which fails the strict build."""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "artifacts" / "screenshots"
BROWSER_TESTS = REPO / "tests" / "browser"
FOLDER = "img/generated/"
IMAGE = re.compile(
    r"^!\[(?P<alt>[^\]]*)\]\((?P<src>(?:\.\./)*img/generated/(?P<name>[\w.-]+)\.png)\)[ \t]*$", re.MULTILINE
)
TAKEN = re.compile(r"""\bscreenshot\(\s*\w+\s*,\s*(?P<f>f?)"(?P<name>[^"]+)"\s*\)""")

log = logging.getLogger("mkdocs.hooks.screenshots")


@cache
def takers() -> list[tuple[re.Pattern, str]]:
    """(a pattern of the names a browser test saves, that test's path), from the tests' source."""
    found = []
    for test in sorted(BROWSER_TESTS.glob("test_*.py")):
        for match in TAKEN.finditer(test.read_text()):
            name = match["name"]
            parts = re.split(r"\{[^}]*\}", name) if match["f"] else [name]
            found.append((re.compile("[\\w-]+".join(re.escape(p) for p in parts) + r"\Z"), str(test.relative_to(REPO))))
    return found


def taker(name: str) -> str | None:
    return next((test for pattern, test in takers() if pattern.match(name)), None)


def on_files(files: Files, config) -> Files:
    """Each screenshot a page shows and a test run has saved becomes a file of the site."""
    wanted = set()
    for page in files.documentation_pages():
        wanted.update(m["name"] for m in IMAGE.finditer(Path(page.abs_src_path).read_text()))
    for name in sorted(wanted):
        shot = SHOTS / f"{name}.png"
        if shot.is_file() and files.get_file_from_path(f"{FOLDER}{name}.png") is None:
            files.append(File.generated(config, f"{FOLDER}{name}.png", abs_src_path=str(shot)))
    return files


def on_page_markdown(markdown: str, page, config, files: Files) -> str:
    def picture(match: re.Match) -> str:
        name, alt = match["name"], match["alt"]
        test = taker(name)
        if test is None:
            log.warning(
                "%s: no browser test takes the screenshot '%s' (screenshot(page, \"%s\") in tests/browser/)",
                page.file.src_uri,
                name,
                name,
            )
            return match.group(0)
        if files.get_file_from_path(f"{FOLDER}{name}.png") is not None:
            return match.group(0)
        return (
            f'!!! note "Screenshot not in this build: {alt}"\n'
            f"    `{test}` takes it. Run `JUDGE_SCREENSHOTS=1 bin/test {test}`, then build the manual again.\n"
        )

    return IMAGE.sub(picture, markdown)
