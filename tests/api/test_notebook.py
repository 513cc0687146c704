"""The notebook magic, executed headless in a real kernel (nbclient) against a live server and a real worker."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import read_solution

pytestmark = pytest.mark.slow
SLUG = "prepend_class_token"


def html_of(cell) -> str:
    return "".join(out.get("data", {}).get("text/html", "") for out in cell.outputs)


def test_submit_and_run_cells_show_the_verdict_inline(live_server, problems, grading_worker, student, monkeypatch):
    from judge.tokens.services import create_token

    monkeypatch.setenv("NPJUDGE_SERVER", live_server.url)
    monkeypatch.setenv("NPJUDGE_TOKEN", create_token(student, "notebook", ["read", "submit"])[1])
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("%load_ext npjudge"),
            nbformat.v4.new_code_cell(f"%%submit {SLUG}\n" + read_solution(SLUG, "wrong/appended.py")),
            nbformat.v4.new_code_cell(f"%%run {SLUG}\n" + read_solution(SLUG)),
            nbformat.v4.new_code_cell("%%submit no_such_problem\nx = 1"),
            # The cells above defined what they sent, as they would have without the magic.
            nbformat.v4.new_code_cell(
                "import numpy as np\nprint(prepend_class_token(np.zeros((1, 2, 3)), np.ones((1, 1, 3))).shape, x)"
            ),
        ]
    )
    NotebookClient(notebook, timeout=180, kernel_name="python3").execute()
    wrong, run, refused = (html_of(cell) for cell in notebook.cells[1:4])
    assert 'data-verdict="wrong_answer"' in wrong and "Wrong answer" in wrong
    assert 'data-misconception="Class token appended instead of prepended"' in wrong
    assert '<span class="check failed">✗ values</span>' in wrong and '<svg class="heatmap"' in wrong
    assert 'data-verdict="accepted"' in run and "<i>(hidden)</i>" not in run
    assert "Not sent" in refused and "no published problem &#x27;no_such_problem&#x27;" in refused
    assert "".join(out.get("text", "") for out in notebook.cells[4].outputs) == "(1, 3, 3) 1\n"
