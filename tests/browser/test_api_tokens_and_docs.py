"""In Chromium: a student makes a token on their profile page, sees it once, and reads the API's docs page,
which renders under the site's Content-Security-Policy (the page fixture fails on anything it blocked)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_token_is_made_on_the_profile_and_the_api_docs_render(live_server, page):
    site = live_server.url
    username = sign_up(page, site)
    page.goto(f"{site}/accounts/users/{username}/")
    page.fill("input[name=name]", "laptop")
    page.get_by_role("button", name="Make a token").click()
    secret = page.locator("#new-token-secret")
    expect(secret).to_have_text(re.compile(r"^npj_[A-Za-z0-9_-]{40,}$"))
    screenshot(page, "profile-new-token")
    page.goto(f"{site}/accounts/users/{username}/")
    expect(page.locator("tr[data-token=laptop]")).to_contain_text("never")
    expect(page.locator("#new-token-secret")).to_have_count(0)

    page.get_by_role("link", name="JSON API").click()
    expect(page.locator(".swagger-ui .opblock-summary-path").first).to_be_visible(timeout=30_000)  # 1.4 MB of script
    expect(page.locator(".swagger-ui")).to_contain_text("/api/v1/submissions/{pk}/events")
    screenshot(page, "api-docs")
