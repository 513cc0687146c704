"""In Chromium: a student publishes an accepted Submit from its page; a second student who solved the problem
reads it, votes and compares it with their own, while a third who has not solved it is told what opens the list;
then the first downloads their work from the profile and git reads the zip."""

from __future__ import annotations

import subprocess
import zipfile

import pytest

from engine.verdicts import Verdict
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.conftest import read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


@pytest.fixture
def solvers(django_user_model, problems):
    make = django_user_model.objects.create_user
    ada, grace, sam = make("ada", password=PASSWORD), make("grace", password=PASSWORD), make("sam", password=PASSWORD)
    mine = graded(ada, problems[SLUG], Verdict.ACCEPTED, code=read_solution(SLUG), minute=2)
    mine.earlier = graded(
        ada, problems[SLUG], Verdict.WRONG_ANSWER, code=read_solution(SLUG, "wrong/appended.py"), minute=1
    )
    graded(
        grace,
        problems[SLUG],
        Verdict.ACCEPTED,
        code=read_solution(SLUG).replace("np.concatenate", "np.vstack"),
        minute=3,
    )
    graded(sam, problems[SLUG], Verdict.WRONG_ANSWER, minute=4)
    return mine


def test_publish_read_vote_compare_and_download(live_server, chromium, solvers, tmp_path):
    site = live_server.url
    for who in ("ada", "grace", "sam"):
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        log_in(page, site, who)
        if who == "ada":
            page.goto(f"{site}/submissions/{solvers.pk}/")
            page.get_by_role("button", name="Publish this solution").click()
            page.wait_for_selector("#withdraw-button")
            with page.expect_download() as download:
                page.goto(f"{site}/accounts/users/ada/")
                page.get_by_role("button", name="Download (.zip)").click()
            saved = tmp_path / download.value.suggested_filename
            download.value.save_as(saved)
        elif who == "grace":
            page.goto(f"{site}/problems/{SLUG}/")
            page.get_by_role("tab", name="Submissions").click()
            page.get_by_role("link", name="Published solutions").click()
            page.get_by_role("link", name=f"Solution {solvers.publication.pk}").click()
            page.get_by_role("button", name="Vote for it").click()
            assert page.inner_text("#vote-count") == "1 vote"
            assert page.get_by_role("button", name="Voted · take back").get_attribute("aria-pressed") == "true"
            screenshot(page, "published-solution")
            page.get_by_role("link", name="Compare with your accepted solution").click()
            assert "np.vstack" in page.inner_text("#solution-diff .removed")
        else:
            page.goto(f"{site}/problems/{SLUG}/solutions/")
            assert "Solve this problem first" in page.inner_text("#solutions-closed")
        context.close()

    with zipfile.ZipFile(saved) as archive:
        archive.extractall(tmp_path)
    log = subprocess.run(["git", "log", "--format=%s"], cwd=tmp_path / "npjudge-ada", capture_output=True, text=True)
    title = solvers.problem.title
    assert log.stdout.splitlines() == [
        f"{title}: Accepted (#{solvers.pk})",
        f"{title}: Wrong answer (#{solvers.earlier.pk})",
    ]
