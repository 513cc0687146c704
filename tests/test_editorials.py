"""A problem's editorial: in the package, shown after the student's first accepted Submit, or after the failed
Submits the manifest allows, and never before: neither the page nor the API carries it early."""

from __future__ import annotations

import shutil

import pytest
from django.urls import reverse

from engine.package import PackageError, load_package
from engine.verdicts import Verdict
from judge.submissions.models import Kind, Status, Submission
from judge.tokens.services import create_token
from tests.conftest import PROBLEMS

SYNCED_PROBLEMS = ["causal_mask", "layer_norm"]
# Phrases of each editorial that appear nowhere else on the problem's page.
LAYER_NORM_SECRET = "Right on paper, lossy in floating point"
CAUSAL_SECRET = "the whole\nconstruction in one call"


def graded(user, problem, verdict: str, kind: str = Kind.SUBMIT) -> Submission:
    return Submission.objects.create(
        user=user,
        problem=problem,
        kind=kind,
        code="x = 1\n",
        status=Status.DONE,
        verdict=verdict,
        test_set=problem.current_test_set,
    )


def page(client, problem) -> str:
    return client.get(reverse("problem-detail", args=[problem.slug])).content.decode()


def api_editorial(client, problem, user) -> dict:
    token = create_token(user, "laptop", ["read"])[1]
    response = client.get(f"/api/v1/problems/{problem.slug}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    return response.json()


def test_the_package_carries_its_editorial_and_when_it_opens():
    causal = load_package(PROBLEMS / "causal_mask")
    assert "np.triu" in causal.editorial and causal.editorial_after_failed == 3
    layer_norm = load_package(PROBLEMS / "layer_norm")
    assert LAYER_NORM_SECRET in layer_norm.editorial and layer_norm.editorial_after_failed is None


@pytest.mark.parametrize("value", ["0", "-2", '"three"', "1000"])
def test_a_bad_after_failed_is_refused_by_name(tmp_path, value):
    package = tmp_path / "causal_mask"
    shutil.copytree(PROBLEMS / "causal_mask", package)
    manifest = package / "problem.toml"
    manifest.write_text(manifest.read_text().replace("after_failed = 3", f"after_failed = {value}"))
    with pytest.raises(PackageError, match=r"editorial.after_failed"):
        load_package(package)


def test_nobody_reads_the_editorial_before_an_accepted_submit(client, problems, student, second_student):
    problem = problems["layer_norm"]
    graded(second_student, problem, Verdict.ACCEPTED)  # someone else's solve opens nothing for this student
    graded(student, problem, Verdict.WRONG_ANSWER)
    graded(student, problem, Verdict.ACCEPTED, kind=Kind.RUN)  # a Run on the examples is not a Submit
    for who in (None, student):
        if who is not None:
            client.force_login(who)
        html = page(client, problem)
        assert LAYER_NORM_SECRET not in html
        assert "The editorial opens after your first accepted Submit" in html
    assert api_editorial(client, problem, student)["editorial_md"] is None


def test_the_first_accepted_submit_opens_the_editorial(client, problems, student):
    problem = problems["layer_norm"]
    graded(student, problem, Verdict.ACCEPTED)
    client.force_login(student)
    assert LAYER_NORM_SECRET in page(client, problem)
    assert LAYER_NORM_SECRET in api_editorial(client, problem, student)["editorial_md"]


def test_failed_submits_open_it_only_where_the_manifest_allows_and_only_at_the_count(client, problems, student):
    causal, layer_norm = problems["causal_mask"], problems["layer_norm"]
    client.force_login(student)
    for _ in range(2):
        graded(student, causal, Verdict.WRONG_ANSWER)
    graded(student, causal, Verdict.INTERNAL_ERROR)  # the judge's failure is not the student's
    html = page(client, causal)
    assert CAUSAL_SECRET not in html and "or after 3 failed Submits (2 so far)" in html
    assert api_editorial(client, causal, student)["editorial_md"] is None
    graded(student, causal, Verdict.RUNTIME_ERROR)
    assert CAUSAL_SECRET in page(client, causal)
    assert "np.triu" in api_editorial(client, causal, student)["editorial_md"]
    for _ in range(5):  # layer_norm's manifest allows no such thing
        graded(student, layer_norm, Verdict.WRONG_ANSWER)
    assert LAYER_NORM_SECRET not in page(client, layer_norm)


def test_the_editorial_is_rendered_as_markdown_with_math_and_sanitised(client, problems, student):
    problem = problems["layer_norm"]
    problem.editorial_md = '## Approach\n\n$\\sqrt{\\sigma^2}$ <script>alert(1)</script> <b onclick="x()">b</b>\n'
    problem.save()
    graded(student, problem, Verdict.ACCEPTED)
    client.force_login(student)
    html = page(client, problem)
    panel = html[html.index('id="panel-editorial"') :]
    assert "<h2" in panel and "\\sqrt{\\sigma^2}" in panel
    assert "<script>alert(1)" not in panel and "onclick" not in panel


def test_the_workbench_previews_the_editorial(client, problems, author):
    problem = problems["layer_norm"]
    client.force_login(author)
    response = client.post(
        f"/authoring/problems/{problem.slug}/preview/",
        {
            "file:editorial.md": "## Fastest\n\nUse `np.einsum`.\n",
            "file:problem.toml": "[editorial]\nafter_failed = 4\n",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="panel-editorial"' in html and "<code>np.einsum</code>" in html
    assert "or after 4 failed Submits" in html
