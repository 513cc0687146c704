"""Mining: failing submissions grouped by how they failed, a cluster named by its author, and the coverage figure."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from judge.authoring.gate_runs import execute_gate_run
from judge.authoring.mining import coverage_of, mine_clusters
from judge.authoring.models import PromotedCluster
from judge.grading import services as grading
from judge.problems.models import GateRun, Problem
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import read_solution

SYNCED_PROBLEMS = ["patch_embedding", "prepend_class_token"]
SLUG = "prepend_class_token"
# A mistake no package names: the token added to every patch instead of put in front (shape (B, N, D)).
ADDED = (
    "import numpy as np\n\n# Solution by Grace Hopper, student 4711\n"
    'def prepend_class_token(patches, cls_token):\n    """grace\'s attempt"""\n'
    "    return patches + cls_token  # broadcasting does it\n"
)
ADDED_AGAIN = (
    "import numpy as np\n\n\ndef prepend_class_token(patches, cls_token):\n"
    "    out = np.add(cls_token, patches)\n    return out\n"
)
ZEROS = (
    "import numpy as np\n\ndef prepend_class_token(patches, cls_token):\n    b, n, d = patches.shape\n"
    "    return np.zeros((b, n + 1, d))\n"
)
NAME = "Token added to every patch instead of prepended"
EXPLANATION = "Adding broadcasts the token over the patches; prepending makes a new position in front of them."


def graded(user, problem: Problem, code: str) -> Submission:
    submission = intake.submit_solution(user, problem, code)
    assert grading.grade_submission(submission.pk)
    return Submission.objects.get(pk=submission.pk)


@pytest.fixture
def classroom(problems, student, second_student, django_user_model, no_enqueue):
    problem = problems[SLUG]
    third = django_user_model.objects.create_user("alan", password="a third pass phrase")
    fourth = django_user_model.objects.create_user("barbara", password="a fourth pass phrase")
    graded(student, problem, ZEROS)  # ada's older attempt: only her latest wrong Submit counts
    graded(student, problem, ADDED_AGAIN)
    graded(second_student, problem, ADDED)
    graded(third, problem, ZEROS)
    graded(fourth, problem, read_solution(SLUG, "wrong/appended.py"))  # a named misconception
    return problem


def test_the_same_mistake_written_differently_is_one_cluster_ranked_by_students(classroom):
    clusters = mine_clusters(classroom)
    assert [c.students for c in clusters] == [2, 1]
    added, zeros = clusters
    assert {s.user.username for s in added.submissions} == {"ada", "grace"}
    assert added.statuses == ["wrong_shape"] and added.fails_with == "wrong_shape"
    assert {s.user.username for s in zeros.submissions} == {"alan"}
    assert all(not t["hidden"] or t["signature"] for s in added.submissions for t in s.results)


def test_a_cluster_shows_more_than_one_way_its_students_wrote_it(classroom):
    added = mine_clusters(classroom)[0]
    assert "np.add(cls_token, patches)" in added.sample_code  # the shorter of the two
    assert len(added.other_samples) == 1 and "return patches + cls_token" in added.other_samples[0]
    assert "Grace" not in added.other_samples[0] and "#" not in added.other_samples[0]


def test_the_sample_code_is_anonymised(classroom):
    grace_only = next(c for c in mine_clusters(classroom) if c.students == 2)
    grace_only.submissions = [s for s in grace_only.submissions if s.user.username == "grace"]
    code = grace_only.sample_code
    assert "return patches + cls_token" in code
    assert "Grace" not in code and "grace" not in code and "4711" not in code and "#" not in code


def test_coverage_counts_the_set_the_clusters_are_made_of(classroom):
    # Issue 25: coverage counted every wrong Submit (ada's two: 5) while the clusters held each student's
    # latest, so the page read "6 of 10 explained" above "nothing left unexplained".
    coverage = coverage_of(classroom)
    assert (coverage.wrong, coverage.explained) == (4, 1)
    assert coverage.wrong - coverage.explained == sum(c.students for c in mine_clusters(classroom))
    assert coverage.names == {"Class token appended instead of prepended": 1}


def test_the_mining_page_is_staff_only_and_linked_from_the_overview(client, classroom, author, student):
    client.force_login(student)
    assert client.get(f"/authoring/problems/{SLUG}/mining/").status_code == 403
    client.force_login(author)
    assert f'href="/authoring/problems/{SLUG}/mining/"' in client.get(f"/authoring/problems/{SLUG}/").content.decode()
    page = client.get(f"/authoring/problems/{SLUG}/mining/").content.decode()
    assert "explain <strong>1 of 4</strong>" in page and "2 students" in page and "Grace" not in page


def test_naming_needs_a_name_and_an_explanation(client, classroom, author):
    client.force_login(author)
    cluster = mine_clusters(classroom)[0]
    response = client.post(
        f"/authoring/problems/{SLUG}/mining/{cluster.id}/promote/",
        {f"c{cluster.id}-name": "  ", f"c{cluster.id}-explanation": ""},
    )
    assert response.status_code == 400 and not PromotedCluster.objects.exists()
    assert Problem.objects.get(slug=SLUG).draft_files == classroom.draft_files
    taken = client.post(
        f"/authoring/problems/{SLUG}/mining/{cluster.id}/promote/",
        {f"c{cluster.id}-name": "Result cast to float32", f"c{cluster.id}-explanation": "again"},
    )
    assert taken.status_code == 400 and "already has a misconception named" in taken.content.decode()


def test_a_promoted_cluster_is_told_to_new_and_rejudged_submissions(
    client, classroom, author, student, django_user_model, process_sandbox
):
    client.force_login(author)
    cluster = mine_clusters(classroom)[0]
    response = client.post(
        f"/authoring/problems/{SLUG}/mining/{cluster.id}/promote/",
        {f"c{cluster.id}-name": NAME, f"c{cluster.id}-explanation": EXPLANATION, f"c{cluster.id}-see": "hints#2"},
    )
    assert response.status_code == 302 and response["Location"] == f"/authoring/problems/{SLUG}/"
    draft = Problem.objects.get(slug=SLUG).draft_files
    file = "wrong/token_added_to_every_patch_instead_of_prepended.py"
    assert "patches" in draft[file] and "Grace" not in draft[file]
    assert f'file = "{file}"' in draft["problem.toml"] and 'fails_with = "wrong_shape"' in draft["problem.toml"]
    assert draft["problem.toml"].startswith(classroom.draft_files["problem.toml"].rstrip("\n"))  # kept as written

    run = GateRun.objects.get(problem__slug=SLUG, package_hash=Problem.objects.get(slug=SLUG).draft_hash)
    assert execute_gate_run(run.pk, process_sandbox)
    run.refresh_from_db()
    assert run.passed, run.checks
    assert "in the draft; it goes live" in client.get(f"/authoring/problems/{SLUG}/mining/").content.decode()
    published = client.post(f"/authoring/problems/{SLUG}/publish/", {"version": run.package_hash})
    assert published.status_code == 302
    page = client.get(f"/authoring/problems/{SLUG}/mining/").content.decode()
    assert f"Named “{NAME}”" in page and "published; rejudge" in page  # the old submissions still lack it

    newcomer = django_user_model.objects.create_user("edsger", password="a fifth pass phrase")
    fresh = graded(newcomer, Problem.objects.get(slug=SLUG), ADDED)
    assert {t["misconception"].get("name") for t in fresh.results if t["status"] != "passed"} == {NAME}
    client.force_login(newcomer)
    assert EXPLANATION in client.get(f"/submissions/{fresh.pk}/").content.decode()

    old = Submission.objects.filter(user=student).latest("created_at")
    intake.requeue([old.pk], {old.problem_id: Problem.objects.get(slug=SLUG).current_test_set_id})
    assert grading.grade_submission(old.pk, capped=False)
    assert NAME in {t["misconception"].get("name") for t in Submission.objects.get(pk=old.pk).results}
    assert [c.students for c in mine_clusters(classroom)] == [1, 1]  # grace's waits for her rejudge


def test_the_coverage_command_prints_a_row_per_problem(classroom, capsys):
    call_command("misconception_coverage", SLUG)
    out = capsys.readouterr().out
    assert f"| {SLUG:<32} | 4 | 1 | 25% | 2 | 2 students |" in out


# Killed for time on the first visible example (the hidden tests never run), and on a large hidden test only.
STALLS = "import time\nimport numpy as np\n\n\ndef prepend_class_token(patches, cls_token):\n    time.sleep(5)\n"
SLOW_ON_LARGE = (
    "import time\nimport numpy as np\n\n\ndef prepend_class_token(patches, cls_token):\n"
    "    if patches.size > 200:\n        time.sleep(5)\n"
    "    tiled = np.tile(cls_token, (patches.shape[0], 1, 1))\n"
    "    return np.concatenate([tiled, patches], axis=1)\n"
)


@pytest.mark.slow  # two submissions run out of a 2 s time limit
def test_submissions_killed_for_time_are_one_cluster_with_samples_that_cannot_be_named(
    client, classroom, author, django_user_model
):
    # Issue 25: a Submit killed for time on a visible example formed no cluster (its hidden tests never ran)
    # while the coverage counted it, and one killed on a hidden test made a cluster per test it ran out on.
    for name, code in (("edsger", STALLS), ("donald", SLOW_ON_LARGE)):
        graded(django_user_model.objects.create_user(name, password="a slow pass phrase"), classroom, code)
    slow = next(c for c in mine_clusters(classroom) if c.killed_for_time)
    assert slow.students == 2 and slow.statuses == ["time_limit_exceeded"] and slow.tests == []
    assert {s.user.username for s in slow.submissions} == {"edsger", "donald"}
    assert dict(slow.timed_out_on)["example_1"] == 1 and sum(n for _, n in slow.timed_out_on) == 2
    assert "time.sleep(5)" in slow.sample_code and len(slow.other_samples) == 1
    coverage = coverage_of(classroom)
    assert coverage.wrong - coverage.explained == sum(c.students for c in mine_clusters(classroom)) == 5

    client.force_login(author)
    page = client.get(f"/authoring/problems/{SLUG}/mining/").content.decode()
    section = page.split(f'id="cluster-{slow.id}"')[1].split("</section>")[0]
    assert "Killed for time, on <code>example_1</code> (1)" in section and "cannot be named" in section
    assert "Name this misconception" not in section
    refused = client.post(
        f"/authoring/problems/{SLUG}/mining/{slow.id}/promote/",
        {f"c{slow.id}-name": "Too slow", f"c{slow.id}-explanation": "It loops."},
    )
    assert refused.status_code == 400 and "only ran out of time" in refused.content.decode()
    assert not PromotedCluster.objects.exists()
