"""The assignment form lists the published problems by title in the learning path's order (a plain list of
checkboxes that a search filters where JavaScript runs), saves them in that order whatever order they were sent
in, and the gradebook and the live matrix head their columns with the problems' titles in the same order."""

from __future__ import annotations

from django.urls import reverse

from judge.courses.models import AssignmentProblem
from tests.boards import quick_problem
from tests.courses import unlinked, world  # noqa: F401 (fixture)


def picker(page: str) -> str:
    return page.split('<fieldset class="problem-picker" id="problem-picker">')[1].split("</fieldset>")[0]


def test_the_form_lists_titles_in_the_learning_paths_order_with_the_chosen_ones_ticked(client, world):
    quick_problem("zeroth_step", order=0)
    quick_problem("draft_step", order=3, published=False)
    client.force_login(world.instructor)
    page = client.get(reverse("assignment-edit", args=[world.course.pk, world.assignment.pk])).content.decode()
    listed = picker(page)
    assert listed.index("Zeroth step") < listed.index("First step") < listed.index("Second step")
    assert "Draft step" not in listed
    assert '<input type="checkbox" name="problems" value="first_step" checked> First step' in listed
    assert '<input type="checkbox" name="problems" value="zeroth_step"> Zeroth step' in listed
    assert 'id="picker-search"' in listed and "judge/picker.js" in page


def test_problems_sent_in_any_order_are_kept_in_the_learning_paths(client, world):
    quick_problem("zeroth_step", order=0)
    client.force_login(world.instructor)
    response = client.post(
        reverse("assignment-new", args=[world.course.pk]),
        {"title": "Week 2", "weight": "1", "problems": ["second_step", "zeroth_step", "first_step"]},
    )
    assert response.status_code == 302
    assignment = world.course.assignments.get(title="Week 2")
    assert [i.problem.slug for i in AssignmentProblem.objects.filter(assignment=assignment)] == [
        "zeroth_step",
        "first_step",
        "second_step",
    ]


def test_a_refused_form_keeps_what_was_ticked(client, world):
    client.force_login(world.instructor)
    response = client.post(
        reverse("assignment-new", args=[world.course.pk]), {"title": "", "weight": "1", "problems": ["second_step"]}
    )
    assert response.status_code == 400
    listed = picker(response.content.decode())
    assert 'value="second_step" checked>' in listed and 'value="first_step">' in listed


def test_the_gradebook_and_the_matrix_head_their_columns_with_titles(client, world):
    for persona in ("instructor", "ta"):
        client.force_login(getattr(world, persona))
        book = unlinked(client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode())
        assert (
            '<th scope="col" class="problem-col" title="first_step">First step</th>'
            '<th scope="col" class="problem-col" title="second_step">Second step</th><th>Total</th>'
        ) in book
        matrix = client.get(
            reverse("assignment-progress", args=[world.course.pk, world.assignment.pk])
        ).content.decode()
        assert '<th scope="col" class="problem-col" title="first_step">First step</th>' in matrix
