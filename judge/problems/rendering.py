"""Markdown with math to safe HTML.

Math is kept as text delimited by \\( \\) and \\[ \\] (pymdownx.arithmatex in
generic mode) so that KaTeX renders it in the browser; nh3 removes anything
unsafe the Markdown might contain.
"""

from __future__ import annotations

import functools
import re

import markdown
import nh3

EXTENSIONS = ["fenced_code", "tables", "toc", "sane_lists", "pymdownx.arithmatex"]
EXTENSION_CONFIGS = {"pymdownx.arithmatex": {"generic": True}, "toc": {"permalink": False}}
ALLOWED_TAGS = nh3.ALLOWED_TAGS | {"span", "div", "pre", "code", "table", "thead", "tbody", "tr", "th", "td",
                                   "h1", "h2", "h3", "h4", "img"}
ALLOWED_ATTRIBUTES = {"*": {"class", "id"}, "a": {"href", "title"}, "img": {"src", "alt"}}


@functools.lru_cache(maxsize=1024)
def render_markdown(text: str) -> str:
    """Cached by text: a page view re-renders nothing unless a package changed."""
    html = markdown.markdown(text, extensions=EXTENSIONS, extension_configs=EXTENSION_CONFIGS)
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, link_rel="noopener noreferrer")


FIRST_PARAGRAPH = re.compile(r"\A(?:\s*#[^\n]*\n)*\s*(?P<text>.*?)(?:\n\s*\n|\Z)", re.S)


def states_signature(statement_md: str, function_name: str) -> bool:
    """Whether the statement opens with its own "Implement f(...)" sentence, so the page need not add one."""
    match = FIRST_PARAGRAPH.match(statement_md)
    opening = match["text"] if match else ""
    if not function_name or not re.match(r"implement\b", opening, re.I):
        return False
    return re.search(rf"\b{re.escape(function_name)}\s*\(", opening) is not None
