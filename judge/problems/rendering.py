"""Markdown with math to safe HTML.

Math is kept as text delimited by \\( \\) and \\[ \\] (pymdownx.arithmatex in
generic mode) so that KaTeX renders it in the browser; nh3 removes anything
unsafe the Markdown might contain.  Authored HTML shares the page with the
site's own elements, so every ``id`` in it (the headings' too) and every link
to one is given the prefix ``md-``: an author's ``id="submit-button"`` becomes
``md-submit-button`` and cannot stand in for the site's.  Images load only
from the site itself (a relative address), never from another origin.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

import markdown
import nh3

EXTENSIONS = ["fenced_code", "tables", "toc", "sane_lists", "pymdownx.arithmatex"]
EXTENSION_CONFIGS = {"pymdownx.arithmatex": {"generic": True}, "toc": {"permalink": False}}
ALLOWED_TAGS = nh3.ALLOWED_TAGS | {
    "span",
    "div",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "h1",
    "h2",
    "h3",
    "h4",
    "img",
}
ALLOWED_ATTRIBUTES = {"*": {"class", "id"}, "a": {"href", "title"}, "img": {"src", "alt"}}


ID_PREFIX = "md-"


def same_origin(url: str) -> bool:
    """A relative address, which the browser resolves on this site (no scheme, no host, nothing it would
    strip or read as a slash first)."""
    if url != url.strip() or any(c in url for c in "\\\t\n\r"):
        return False
    parts = urlsplit(url)
    return bool(url) and not parts.scheme and not parts.netloc and not url.startswith("//")


def _attribute(tag: str, name: str, value: str) -> str | None:
    if name == "id":
        return ID_PREFIX + value
    if name == "href" and value.startswith("#") and len(value) > 1:
        return f"#{ID_PREFIX}{value[1:]}"
    if tag == "img" and name == "src":
        return value if same_origin(value) else None
    return value


@functools.lru_cache(maxsize=1024)
def render_markdown(text: str) -> str:
    """Cached by text: a page view re-renders nothing unless a package changed."""
    html = markdown.markdown(text, extensions=EXTENSIONS, extension_configs=EXTENSION_CONFIGS)
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_attribute,
        link_rel="noopener noreferrer",
    )


FIRST_PARAGRAPH = re.compile(r"\A(?:\s*#[^\n]*\n)*\s*(?P<text>.*?)(?:\n\s*\n|\Z)", re.DOTALL)


def states_signature(statement_md: str, function_name: str) -> bool:
    """Whether the statement opens with its own "Implement f(...)" sentence, so the page need not add one."""
    match = FIRST_PARAGRAPH.match(statement_md)
    opening = match["text"] if match else ""
    if not function_name or not re.match(r"implement\b", opening, re.IGNORECASE):
        return False
    return re.search(rf"\b{re.escape(function_name)}\s*\(", opening) is not None
