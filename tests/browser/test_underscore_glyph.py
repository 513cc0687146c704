"""The editor draws the underscore at every font size it offers.

With DejaVu Sans Mono at 14 px and Ace's line height left at ``normal``, the row was cut off above the
underscore, which sits below the baseline: ``prepend_class_token`` read as ``prepend class token``.  The test
types ``a_b`` and looks at the pixels of the middle character's cell in a screenshot of the editor.
"""

from __future__ import annotations

import base64

import pytest

from judge.learning.models import Preferences
from tests.browser.conftest import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "scaled_dot_product_attention"
FONT_SIZES = (12, 13, 14, 15, 16, 18, 20)  # judge.learning.models.FONT_SIZES, written out: the test says what it covers

# The cell of row 0, column 1 on the page, from Ace's own coordinates.
CELL = """(name) => {
    const editor = window[name];
    editor.setValue("a_b\\nx", 1);
    editor.renderer.updateFull(true);
    const left = editor.renderer.textToScreenCoordinates(0, 1);
    const right = editor.renderer.textToScreenCoordinates(0, 2);
    return {x: left.pageX, y: left.pageY, width: right.pageX - left.pageX, height: editor.renderer.lineHeight};
}"""

# For each pixel row of a PNG, how many of its pixels carry ink: darker than the light theme's background and its
# highlighted row (the glyph's one-pixel line at 12-13 px is antialiased to grey).
DARK_PER_ROW = """async (png) => {
    const img = new Image();
    img.src = "data:image/png;base64," + png;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width; canvas.height = img.height;
    const context = canvas.getContext("2d");
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, img.width, img.height).data;
    const rows = [];
    for (let y = 0; y < img.height; y++) {
        let dark = 0;
        for (let x = 0; x < img.width; x++) {
            const i = 4 * (y * img.width + x);
            if (0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2] < 200) dark++;
        }
        rows.push(dark);
    }
    return rows;
}"""


def underscore_rows(page, editor: str) -> tuple[list[int], int]:
    cell = page.evaluate(CELL, editor)
    png = page.screenshot(clip=cell)
    return page.evaluate(DARK_PER_ROW, base64.b64encode(png).decode()), round(cell["width"])


def set_font_size_locally(page, size: int) -> None:
    """As a visitor's settings page keeps it (prefs.js)."""
    page.evaluate(f"window.judgePrefs.saveLocally({{fontSize: {size}}})")


@pytest.mark.parametrize("size", FONT_SIZES)
def test_the_problem_editor_draws_the_underscore(live_server, problems, page, size):
    page.goto(f"{live_server.url}/problems/{SLUG}/")
    set_font_size_locally(page, size)
    page.reload()
    page.wait_for_selector("#editor .ace_content")
    assert page.evaluate("window.judgeEditor.getFontSize()") == f"{size}px"
    rows, width = underscore_rows(page, "judgeEditor")
    assert any(ink >= 0.6 * width for ink in rows), f"no underscore at {size} px: ink per pixel row {rows}"


def test_the_workbench_editor_draws_the_underscore(live_server, problems, page, django_user_model):
    author = django_user_model.objects.create_user("workbench_author", password=PASSWORD, is_staff=True)
    log_in(page, live_server.url, author.username)
    for size in FONT_SIZES:
        Preferences.objects.update_or_create(user=author, defaults={"font_size": size})
        page.goto(f"{live_server.url}/authoring/problems/{SLUG}/edit/")
        page.wait_for_selector("#workbench-editor .ace_content")
        assert page.evaluate("window.judgeWorkbench.getFontSize()") == f"{size}px"
        rows, width = underscore_rows(page, "judgeWorkbench")
        assert any(ink >= 0.6 * width for ink in rows), f"no underscore at {size} px: ink per pixel row {rows}"
