"""Submit -> verdict visible in Chromium: the long poll (push) against the old 0.7 s polling.

Starts the same stack as bench/classroom.py (gunicorn, a grading worker, the
maintenance worker, PostgreSQL and Redis on 127.0.0.1, the Docker sandbox when it
is there), logs one student in with headless Chromium (Debian's ``chromium``,
driven by Playwright), and submits the reference solution ``--runs`` times,
timing in the page from the click on Submit to the verdict on screen.  Then the
same with every long poll cut, so the page falls back to polling every 0.7 s,
which is how it worked before the push.  Target on a quiet machine: p50 <= 300 ms,
p95 <= 1 s for the push.

    .venv/bin/python bench/push_latency.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import PASSWORD, bring_up, codes_for, make_stack, pct

CHROMIUM = os.environ.get("BROWSER_EXECUTABLE", "/usr/bin/chromium")
TIME_IN_PAGE = """async () => {
    const started = performance.now();
    document.getElementById("submit-button").click();
    await new Promise((resolve) => {
        const seen = () => document.querySelector("#result .result-panel[data-final=true] #verdict");
        if (seen()) return resolve();
        new MutationObserver((_, observer) => { if (seen()) { observer.disconnect(); resolve(); } })
            .observe(document.getElementById("result"), {childList: true, subtree: true});
    });
    return performance.now() - started;
}"""


def measure(page, url: str, slug: str, code: str, runs: int) -> list[float]:
    page.goto(f"{url}/problems/{slug}/")
    page.wait_for_selector("#editor .ace_content")
    if page.locator("#submit-button").count() == 0:
        raise SystemExit(f"no Submit button on {page.url}: {page.inner_text('main')[:300]!r}")
    page.evaluate("(code) => window.judgeEditor.setValue(code, -1)", code)
    times = []
    for _ in range(runs):
        page.evaluate("() => { document.getElementById('result').innerHTML = ''; }")
        times.append(page.evaluate(TIME_IN_PAGE) / 1000)
        verdict = page.inner_text("#result #verdict")
        if verdict != "Accepted":
            raise SystemExit(f"expected Accepted, the page shows {verdict!r}")
        time.sleep(0.3)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--database", default="judge_bench_push")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()
    args.students, args.concurrency = 1, 2
    if not 1 <= args.runs <= 200:
        parser.error("--runs must be 1-200")

    from playwright.sync_api import sync_playwright

    stack = make_stack(args)
    stack.env |= {"RATE_LIMIT_RUN": "0", "RATE_LIMIT_SUBMIT": "0"}  # one student submits back to back here
    code = codes_for(args.problem)["correct"]
    try:
        bring_up(stack, args)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(f"{stack.url}/accounts/login/")
            page.fill("#id_username", "student000")
            page.fill("#id_password", PASSWORD)
            with page.expect_navigation():
                page.get_by_role("button", name="Log in").click()
            measure(page, stack.url, args.problem, code, 3)  # warm the sandboxes and the page
            push = measure(page, stack.url, args.problem, code, args.runs)
            page.route(re.compile(r".*/status/\?wait=.*"), lambda route: route.abort())
            polled = measure(page, stack.url, args.problem, code, args.runs)
            browser.close()
        server = stack.django("""
import json
from judge.submissions.models import Submission
rows = Submission.objects.order_by("pk").values_list("created_at", "finished_at")
print(json.dumps([(done - made).total_seconds() for made, done in rows]))
""")[3:]
    finally:
        stack.stop()
    print(f"\n## Submit -> verdict visible in Chromium, {args.runs} runs each, load average {os.getloadavg()[0]:.1f}\n")
    print("| path | in the page p50 | p95 | mean | of which the server (accepted -> verdict recorded) p50 |")
    print("| --- | --- | --- | --- | --- |")
    phases = (
        ("push (long poll, Redis pub/sub)", push, server[: args.runs]),
        ("polling every 0.7 s (before)", polled, server[args.runs :]),
    )
    for name, times, graded in phases:
        print(
            f"| {name} | {pct(times, 50) * 1000:.0f} ms | {pct(times, 95) * 1000:.0f} ms | "
            f"{statistics.mean(times) * 1000:.0f} ms | {pct(graded, 50) * 1000:.0f} ms |"
        )
    print(
        f"\nTarget for the push: p50 <= 300 ms ({'met' if pct(push, 50) <= 0.3 else 'MISSED'}), "
        f"p95 <= 1 s ({'met' if pct(push, 95) <= 1.0 else 'MISSED'})."
    )


if __name__ == "__main__":
    main()
