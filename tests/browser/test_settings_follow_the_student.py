"""A student's settings (font size, theme, key bindings, tab width) shape every page and the editor, and hold across
a sign-out and on another device; a visitor's hold in their browser; the site follows the system's dark scheme
until told otherwise."""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in, screenshot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "scaled_dot_product_attention"
PAGE_LIGHTNESS = """() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
    return Math.round(0.299 * r + 0.587 * g + 0.114 * b);
}"""
EDITOR = """() => ({
    font: window.judgeEditor.getFontSize(),
    theme: window.judgeEditor.getTheme(),
    keys: (window.judgeEditor.getKeyboardHandler() || {}).$id || "default",
    tab: window.judgeEditor.session.getTabSize(),
    dark: window.judgeEditor.renderer.theme.isDark === true,
})"""


def choose(page, site: str, font: str, theme: str, keys: str, tab: str) -> None:
    page.goto(f"{site}/settings/")
    page.select_option("#id_font_size", font)
    page.get_by_label(theme, exact=True).check()
    page.select_option("#id_keys", keys)
    page.select_option("#id_tab_width", tab)
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_selector("#settings-state:has-text('Saved')")


def open_editor(page, site: str) -> dict:
    page.goto(f"{site}/problems/{SLUG}/")
    page.wait_for_selector("#editor .ace_content")
    page.wait_for_function("window.judgeEditor.renderer.theme && window.judgeEditor.renderer.theme.cssClass")
    return page.evaluate(EDITOR)


def test_settings_hold_across_a_sign_out_and_on_another_device(live_server, problems, chromium, page):
    site = live_server.url
    name = sign_up(page, site)
    assert page.evaluate(PAGE_LIGHTNESS) > 200  # the system's scheme is light here
    choose(page, site, "18", "Dark", "vim", "2")
    assert page.evaluate(PAGE_LIGHTNESS) < 60  # the settings page itself turned dark
    assert page.url.endswith("/settings/?saved=1")  # a reload does not post the form again

    editor = open_editor(page, site)
    assert editor == {"font": "18px", "theme": "ace/theme/one_dark", "keys": "ace/keyboard/vim", "tab": 2, "dark": True}
    assert page.evaluate(PAGE_LIGHTNESS) < 60
    screenshot(page, "problem-page-dark")
    before = page.evaluate("window.judgeEditor.getValue()")
    page.click("#editor .ace_content")
    page.keyboard.press("Escape")
    page.keyboard.press("g")
    page.keyboard.press("g")
    page.keyboard.press("x")  # Vim's normal mode: delete the first character, type nothing
    assert page.evaluate("window.judgeEditor.getValue()") == before[1:]

    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    assert open_editor(page, site)["font"] == "14px"  # a visitor, on this browser, gets the defaults
    assert page.evaluate(PAGE_LIGHTNESS) > 200

    log_in(page, site, name)
    assert page.evaluate(PAGE_LIGHTNESS) < 60
    other = chromium.new_context(viewport={"width": 1280, "height": 800})  # another device: nothing stored
    try:
        elsewhere = other.new_page()
        log_in(elsewhere, site, name)
        assert open_editor(elsewhere, site) == editor
        assert elsewhere.evaluate(PAGE_LIGHTNESS) < 60
    finally:
        other.close()


def test_a_visitors_settings_stay_in_their_browser(live_server, problems, page):
    site = live_server.url
    choose(page, site, "16", "Dark", "emacs", "8")
    assert page.evaluate(PAGE_LIGHTNESS) < 60
    assert open_editor(page, site) == {
        "font": "16px",
        "theme": "ace/theme/one_dark",
        "keys": "ace/keyboard/emacs",
        "tab": 8,
        "dark": True,
    }
    page.goto(f"{site}/")
    assert page.evaluate(PAGE_LIGHTNESS) < 60  # every page, not just the editor's


def test_the_site_follows_a_dark_system_until_the_student_chooses_light(live_server, problems, chromium):
    context = chromium.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        site = live_server.url
        sign_up(page, site)
        assert page.evaluate(PAGE_LIGHTNESS) < 60
        assert open_editor(page, site)["theme"] == "ace/theme/one_dark"
        choose(page, site, "14", "Light", "default", "4")
        assert page.evaluate(PAGE_LIGHTNESS) > 200
        assert open_editor(page, site)["theme"] == "ace/theme/chrome"
    finally:
        context.close()
