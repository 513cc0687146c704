"""The leaderboard and the profile in a real browser: rank, neighbours, windows, search, privacy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.boards import days_ago, quick_problem, recorded
from tests.browser.conftest import screenshot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def classroom(django_user_model):
    """Three problems and 60 students: a third solved one, a third two, a third all three, over two months before this week."""
    problems = [
        quick_problem(slug, tags, i)
        for i, (slug, tags) in enumerate(
            [("alpha", ("attention",)), ("beta", ("attention", "softmax")), ("gamma", ("embeddings",))]
        )
    ]
    for i in range(60):
        student = django_user_model.objects.create_user(f"classmate{i:02}")
        for problem in problems[: 1 + i % 3]:
            recorded(student, problem, at=days_ago(70 - i))  # the last one 11 days ago: before this week
    return problems


def test_a_student_finds_their_rank_and_neighbours_then_hides_their_name(live_server, classroom, chromium, page):
    site = live_server.url
    username = sign_up(page, site)
    from django.contrib.auth import get_user_model

    me = get_user_model().objects.get(username=username)
    recorded(me, classroom[0], at=days_ago(0))
    recorded(me, classroom[1], at=days_ago(0))

    page.goto(f"{site}/leaderboard/")
    assert re.fullmatch(r"You are #21 \(tied\) of 61\. Show my page", page.inner_text("#your-rank"))
    near = page.locator("table.near-you tbody tr")
    assert near.count() == 5 and "you" in near.nth(2).inner_text()
    assert page.locator("table.near-you tr.me").count() == 1
    screenshot(page, "leaderboard-signed-in")

    # Each click loads a page: the assertions wait for the new one, never read the one it replaces.
    page.get_by_role("link", name="Show my page").click()
    expect(page.locator("#standings tr.me")).to_be_visible()
    expect(page.locator(".pagination [aria-current=page]")).to_have_text("1")

    page.get_by_role("link", name="This week").click()
    expect(page.locator("#your-rank")).to_have_text(re.compile(r"^You are #1 of 1 this week"))
    screenshot(page, "leaderboard-this-week")

    page.get_by_role("link", name="All time").click()
    page.wait_for_url(re.compile(r"/leaderboard/(\?window=all)?$"))
    page.fill("input[name=q]", "classmate1")
    page.get_by_role("button", name="Find").click()
    page.wait_for_url(re.compile(r"q=classmate1"))
    found = page.locator("#standings tbody tr")
    expect(found).to_have_count(10)  # classmate10 to classmate19
    assert found.first.locator("td.rank").inner_text() == "1="

    page.get_by_role("link", name="Problems", exact=True).last.click()
    assert "classmate00" in page.locator("tr[data-slug=alpha] .first-solver").inner_text()
    screenshot(page, "leaderboard-problems")

    page.locator("header a.who").click()
    assert page.inner_text("#solved-count") == "2"
    assert page.inner_text("#rank") == "#21"
    assert page.locator(".calendar .day").count() >= 7 * 52
    assert page.locator(".calendar .day.level-1.solved").count() == 1
    assert page.locator("ul.by-tag li[data-tag=attention] .count").inner_text() == "2 / 2"
    screenshot(page, "profile")

    page.check("#hide-from-standings")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(rf"/accounts/users/{username}/$"))
    assert page.is_checked("#hide-from-standings")

    visitor = chromium.new_context().new_page()
    visitor.goto(f"{site}/leaderboard/")
    assert username not in visitor.content()
    assert visitor.locator("#standings .anonymous").count() == 1
    visitor.goto(f"{site}/accounts/users/{username}/")
    assert "keeps their progress private" in visitor.inner_text("main")
    screenshot(visitor, "leaderboard-anonymous")
    visitor.context.close()
