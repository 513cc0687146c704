"""Python code as highlighted HTML, on the server (Pygments): one ``<span class="...">`` per token, coloured by
the site's stylesheet (``.hl`` in site.css), so the page needs no script and no inline style."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe
from pygments import highlight  # type: ignore[import-untyped]  # its stubs are a separate package (types-Pygments)
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import PythonLexer  # type: ignore[import-untyped]

_LEXER = PythonLexer(stripnl=False, ensurenl=False)
_FORMATTER = HtmlFormatter(nowrap=True)  # the template writes the <pre>; Pygments escapes the code itself


def highlighted(code: str) -> SafeString:
    return mark_safe(highlight(code, _LEXER, _FORMATTER))  # noqa: S308  (Pygments escapes every token)
