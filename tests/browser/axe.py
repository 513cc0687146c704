"""axe-core in the browser tests: the npm package (a devDependency, never served by the site) injected into a page
through Playwright, and its WCAG 2.1 A and AA rules run there.

The themes are a parameter: every audit runs once per entry of ``THEMES``, each emulating that colour scheme
(the site follows the system's by default, judge/static/judge/site.css)."""

from __future__ import annotations

import os

import pytest

from tests.conftest import REPO

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
THEMES = ("light", "dark")
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SERIOUS = ("serious", "critical")

RUN = """async (tags) => {
    const result = await window.axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " "))}));
}"""


def axe_source() -> str:
    if not AXE.exists():
        message = f"{AXE} is missing: `npm ci` (bin/setup-env.sh) installs axe-core with the site's other npm packages"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text()


def use_theme(page, theme: str) -> None:
    page.emulate_media(color_scheme=theme)


def violations(page) -> list[dict]:
    """The serious and critical WCAG 2.1 A/AA violations on the page as it is now."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(axe_source())  # through the DevTools protocol: the page's CSP does not apply
    return [v for v in page.evaluate(RUN, WCAG_21_AA) if v["impact"] in SERIOUS]


def described(found: list[dict]) -> str:
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}):\n    " + "\n    ".join(v["nodes"][:6]) for v in found)
