"""A new problem's skeleton shows the manifest's parts an author needs: the track field and a [[wrong]] example
that the gate runs (issue 25 §3: the skeleton had neither)."""

from __future__ import annotations

from engine.gate import run_gate
from engine.package import load_package
from judge.authoring.services import skeleton_files


def test_the_skeleton_has_a_track_and_a_known_wrong_solution_the_gate_accepts(tmp_path, process_sandbox):
    files = skeleton_files("scale_by_two", "Scale by two", "scale", ["x"])
    files["solution.py"] = "import numpy as np\n\n\ndef scale(x):\n    return 2.0 * x\n"
    for name, text in files.items():
        (tmp_path / "scale_by_two" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "scale_by_two" / name).write_text(text)
    assert 'track = ""' in files["problem.toml"]
    package = load_package(tmp_path / "scale_by_two")
    assert package.track == "" and [w.file for w in package.wrong] == ["wrong/returns_the_input.py"]
    outcome = run_gate(package, process_sandbox)
    wrong = outcome.check("wrong")
    assert wrong.passed and wrong.detail.startswith("ok  wrong/returns_the_input.py: declares wrong_value"), (
        wrong.detail
    )


def test_a_problem_made_in_the_browser_says_it_is_not_in_git_with_the_download_link(client, db, author, problems):
    from judge.authoring.services import create_problem

    create_problem(author, "scale_by_two", "Scale by two", "scale", ["x"])
    client.force_login(author)
    page = client.get("/authoring/problems/scale_by_two/").content.decode()
    assert 'id="not-in-git"' in page and "not in\n  <code>problems/scale_by_two/</code>" in page
    assert 'href="/authoring/problems/scale_by_two/download/"' in page.split('id="not-in-git"', 1)[1].split("</p>")[0]
    imported = client.get("/authoring/problems/prepend_class_token/").content.decode()
    assert 'id="not-in-git"' not in imported  # as imported from problems/, so in git
