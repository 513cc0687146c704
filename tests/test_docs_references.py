"""Code that cites the manual cites a page and a section that exist.

Comments, docstrings, templates, scripts and settings say where a rule is explained as
``docs/<page>.md#<anchor>``; this fails when the page is gone or its section renamed. A citation of a README
section (``README, "Section"``) must name one of the README's own headings: the README is the entry point, and
the explanations live in docs/."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown

from tests.conftest import REPO

SCANNED = ("judge", "engine", "sandbox", "bench", "bin", "clients", "deploy", "scripts", "tests", ".ci", "problems")
TOP_LEVEL = ("README.md", "docker-compose.yml", "pyproject.toml", "manage.py", "mkdocs.yml", "package.json")
SKIPPED = {"__pycache__", "node_modules", ".venv", "migrations", "var", "artifacts", "site"}
SUFFIXES = {".py", ".html", ".js", ".css", ".sh", ".toml", ".yml", ".yaml", ".conf", ".json", ".md", ".txt", ".cfg"}

DOCS_CITATION = re.compile(r"\bdocs/(?P<page>[\w./-]+?\.md)(?:#(?P<anchor>[\w-]+))?")
README_CITATION = re.compile(
    r"""\bREADME(?:'s)?,?\s+(?:section\s+)?"(?P<quoted>[^"]+)"|\(README,\s*(?P<bare>[^)"]+)\)"""
)


def sources() -> list[Path]:
    found = [REPO / name for name in TOP_LEVEL]
    itself = Path(__file__).resolve()  # its own examples of broken citations are meant to be broken
    for folder in SCANNED:
        for path in sorted((REPO / folder).rglob("*")):
            if SKIPPED & set(path.relative_to(REPO).parts) or not path.is_file() or path == itself:
                continue
            if path.suffix in SUFFIXES or (path.suffix == "" and path.parent.name in ("bin", ".ci", "test.d")):
                found.append(path)
    return found


@cache
def anchors(page: Path) -> frozenset[str]:
    """The ids MkDocs gives the page's headings: the same Markdown toc extension, so fenced code is not read."""
    converter = markdown.Markdown(extensions=["toc", "attr_list", "tables", "admonition", "pymdownx.superfences"])
    converter.convert(page.read_text())

    def ids(tokens: list[dict]) -> set[str]:
        return {token["id"] for token in tokens} | {i for token in tokens for i in ids(token["children"])}

    return frozenset(ids(converter.toc_tokens))


def readme_headings() -> set[str]:
    return {line.lstrip("#").strip() for line in (REPO / "README.md").read_text().splitlines() if line.startswith("#")}


def broken_citations(text: str) -> list[str]:
    """What in ``text`` cites a docs page, a docs section or a README section that does not exist."""
    broken = []
    for match in DOCS_CITATION.finditer(text):
        page = REPO / "docs" / match["page"]
        if not page.is_file():
            broken.append(f"{match.group(0)}: no such page")
        elif match["anchor"] and match["anchor"] not in anchors(page):
            broken.append(f"{match.group(0)}: no section #{match['anchor']} in docs/{match['page']}")
    headings = readme_headings()
    for match in README_CITATION.finditer(text):
        section = (match["quoted"] or match["bare"]).strip()
        if section not in headings:
            broken.append(f"{match.group(0)}: the README has no section {section!r} (cite docs/<page>.md#<anchor>)")
    return broken


def test_every_citation_of_the_manual_in_the_code_exists():
    texts = {str(path.relative_to(REPO)): path.read_text(errors="replace") for path in sources()}
    broken = {name: found for name, text in texts.items() if (found := broken_citations(text))}
    assert broken == {}
    cited = [name for name, text in texts.items() if DOCS_CITATION.search(text)]
    assert len(cited) >= 10, cited  # the scan reads the files that cite the manual


def test_a_citation_of_a_renamed_section_or_a_missing_page_is_found():
    assert broken_citations("# see docs/operators/security.md#tls-in-front-of-the-site") == []
    assert broken_citations("# see docs/operators/security.md#tls-in-front") == [
        "docs/operators/security.md#tls-in-front: no section #tls-in-front in docs/operators/security.md"
    ]
    assert broken_citations("<!-- docs/operators/runbook.md -->") == ["docs/operators/runbook.md: no such page"]
    assert broken_citations('# (README, "Signing in")') == [
        "README, \"Signing in\": the README has no section 'Signing in' (cite docs/<page>.md#<anchor>)"
    ]
    assert broken_citations("# (README, Production)") == []
