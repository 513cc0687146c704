"""The authoring forms (settings, a new file in the workbench, naming a mined cluster, uploading a zip) look like
the site's other forms (issue 25 §3: their fields were the browser's bare defaults, a few characters wide)."""

from __future__ import annotations

import pytest

from judge.submissions.models import Kind, Status, Submission
from tests.browser.conftest import PASSWORD, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SYNCED_PROBLEMS = ["patch_embedding", "prepend_class_token"]
SLUG = "prepend_class_token"
LOOK = """el => { const s = getComputedStyle(el); const form = el.closest('form').getBoundingClientRect();
  return {radius: s.borderTopLeftRadius, border: s.borderTopColor, padding: s.paddingLeft, font: s.fontFamily,
          share: el.getBoundingClientRect().width / form.width}; }"""
FIELDS = "input:not([type=hidden]):not([type=checkbox]):not([type=file]), select, textarea"


def looks(page, form: str) -> list[dict]:
    fields = page.locator(f"{form} :is({FIELDS})")
    assert fields.count() > 0
    return [fields.nth(i).evaluate(LOOK) for i in range(fields.count())]


def assert_like_the_site(found: list[dict], reference: dict) -> None:
    for look in found:
        assert (look["radius"], look["border"], look["padding"]) == (
            reference["radius"],
            reference["border"],
            reference["padding"],
        ), look
        assert look["share"] > 0.75, look  # as wide as the form, as on the sign-in page


def test_the_authoring_forms_are_styled_like_the_sign_in_form(live_server, problems, page, django_user_model):
    author = django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    problem = problems[SLUG]
    results = [{"name": "random_small", "hidden": True, "status": "wrong_value", "signature": "wrong_value:0123"}]
    Submission.objects.create(
        user=author,
        problem=problem,
        test_set=problem.current_test_set,
        kind=Kind.SUBMIT,
        code="def prepend_class_token(patches, cls_token):\n    return patches\n",
        status=Status.DONE,
        verdict="wrong_answer",
        results=results,
    )
    site = live_server.url
    page.goto(f"{site}/accounts/login/")
    reference = looks(page, "form.card")[0]

    log_in(page, site, "author")
    page.goto(f"{site}/authoring/problems/{SLUG}/settings/")
    assert_like_the_site(looks(page, "form.settings"), reference)
    assert page.locator("form.settings fieldset.wrong-entry legend").first.is_visible()
    screenshot(page, "authoring-settings")

    page.goto(f"{site}/authoring/problems/{SLUG}/mining/")
    assert_like_the_site(looks(page, "form.promote"), reference)
    screenshot(page, "authoring-mining-form")

    page.goto(f"{site}/authoring/upload/")
    assert page.locator("form.card label[for=package]").is_visible()

    page.goto(f"{site}/authoring/problems/{SLUG}/edit/")
    page.wait_for_selector("#workbench-editor .ace_content")
    page.click(".file-list li.add a")
    assert page.get_by_label("Path in the package").is_visible() and page.get_by_label("Contents").is_visible()
    new_file = [look for look in looks(page, "#package-form") if look["share"] > 0]  # the visible fields
    assert {(look["radius"], look["border"]) for look in new_file} == {(reference["radius"], reference["border"])}
    screenshot(page, "workbench-new-file")
