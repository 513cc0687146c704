"""The notebook magic: ``%load_ext npjudge``, then ``%%submit SLUG`` or ``%%run SLUG`` on a cell of code.

The cell runs in the kernel as it would without the magic, then its code goes to the judge (a Submit, or a Run on the visible examples), and the verdict comes back
inline as HTML: the site's per-test check chips, the named mistake and the difference heatmap."""

from __future__ import annotations

import html

from npjudge.client import ApiError, Client

STYLE = """<style>
.npj{font-family:system-ui,sans-serif;font-size:13px;line-height:1.4}
.npj .verdict{font-weight:600;padding:2px 8px;border-radius:4px}
.npj .ok{background:#e3f6e8;color:#14662b}.npj .bad{background:#fde8e6;color:#a11b10}
.npj table{border-collapse:collapse;margin:6px 0}.npj td,.npj th{padding:2px 8px;text-align:left;vertical-align:top}
.npj .check{display:inline-block;margin-right:4px;padding:0 5px;border-radius:3px;font-size:12px}
.npj .check.passed{background:#e3f6e8;color:#14662b}.npj .check.failed{background:#fde8e6;color:#a11b10}
.npj .check.skipped{background:#eee;color:#777}.npj .message{color:#555;font-size:12px}
.npj .misconception{border-left:4px solid #e0a100;background:#fff8e1;padding:6px 10px;margin:8px 0}
.npj .difference-picture .legend .ramp span{display:inline-block;width:12px;height:10px}
</style>"""
MARKS = {"passed": "✓", "failed": "✗", "skipped": "–"}


def submission_html(submission: dict) -> str:
    e = html.escape
    verdict = e(submission.get("verdict_label") or submission.get("status", ""))
    good = "ok" if submission.get("accepted") else "held" if submission.get("held") else "bad"
    took = f" · graded in {e(submission['graded_in'])}" if submission.get("graded_in") else ""
    parts = [
        STYLE,
        '<div class="npj">',
        (
            f'<p><a href="{e(submission.get("url", ""))}">#{submission.get("id")}</a> {e(submission["problem"])} '
            f'<span class="verdict {good}" data-verdict="{e(submission.get("verdict", ""))}">{verdict}</span>'
            f" {len(submission.get('tests', []))} tests{took}</p>"
        ),
    ]
    if submission.get("held"):
        parts.append(f'<p class="held">{e(submission["held"])}</p>')
    if submission.get("message"):
        parts.append(f'<p class="message">{e(submission["message"])}</p>')
    for found in submission.get("misconceptions", []):
        link = f' <a href="{e(found["url"])}">Read the section that explains it</a>' if found.get("url") else ""
        parts.append(
            f'<div class="misconception" data-misconception="{e(found["name"])}"><b>Looks like a known '
            f"mistake: {e(found['name'])}</b><br>{e(found.get('explanation', ''))}{link}</div>"
        )
    for broken in submission.get("properties", []):
        parts.append(
            f'<div class="misconception"><b>A property your code breaks: {e(broken["name"])}</b><br>'
            f"{e(broken.get('message', ''))}</div>"
        )
    parts.append("<table><tr><th>test</th><th>status</th><th>checks</th></tr>")
    for test in submission.get("tests", []):
        chips = "".join(
            f'<span class="check {e(state)}">{MARKS.get(state, "?")} {e(label)}</span>'
            for label, state in test.get("checks", {}).items()
        )
        name = e(test["name"]) + (" <i>(hidden)</i>" if test.get("hidden") else "")
        message = f'<div class="message">{e(test["message"])}</div>' if test.get("message") else ""
        # The heatmap is the server's own SVG of |actual - expected|, drawn from numbers only (display.py).
        picture = test.get("heatmap_svg") or ""
        parts.append(
            f'<tr data-test="{e(test["name"])}"><td>{name}</td><td>{e(test["status_label"])}</td>'
            f"<td>{chips}{message}{picture}</td></tr>"
        )
    parts.append("</table></div>")
    return "".join(parts)


def error_html(message: str) -> str:
    return f'{STYLE}<div class="npj"><p><span class="verdict bad">Not sent</span> {html.escape(message)}</p></div>'


def judge_cell(slug: str, code: str, kind: str):
    from IPython.display import HTML

    slug = slug.strip()
    if not slug:
        return HTML(error_html(f"name the problem: %%{kind} SLUG"))
    client = Client()
    try:
        submission = client.submit(slug, code, kind)
        if not submission["final"]:
            submission = client.wait_for_verdict(submission["id"])
    except ApiError as error:
        return HTML(error_html(str(error)))
    return HTML(submission_html(submission))


def load_ipython_extension(ipython) -> None:
    # The cell runs in the kernel first, as it would without the magic: the function it defines is there for the
    # next cell to call (an error in it shows as usual, and the judge still gives its verdict).
    def submit(line: str, cell: str):
        ipython.run_cell(cell)
        return judge_cell(line, cell, "submit")

    def run(line: str, cell: str):
        ipython.run_cell(cell)
        return judge_cell(line, cell, "run")

    ipython.register_magic_function(submit, "cell", "submit")
    ipython.register_magic_function(run, "cell", "run")
