"""axe-core on every page type, as each persona sees it (a visitor, a student, a course's instructor and teaching
assistant, staff): no serious or critical violation of the WCAG 2.1 A and AA rules, in every theme
(``tests/browser/axe.py``).

Tabs and collapsed parts are opened first, so what they hide is checked too.  The problem page with a verdict,
used by the keyboard alone, is ``test_keyboard_only.py``'s."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import groups
from judge.courses import services as courses
from judge.courses.models import GroupFormation, Membership, Role
from judge.solutions.services import publish_solution
from tests.browser.axe import THEMES, described, use_theme, violations
from tests.browser.conftest import PASSWORD, log_in
from tests.conftest import read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
OTHER = "add_positional_embedding"
NOT_FOUND = "/no-such-page/"


@pytest.fixture
def people(django_user_model, problems):
    make = django_user_model.objects.create_user
    ada, grace = make("ada", password=PASSWORD), make("grace", password=PASSWORD)
    iris, staff = make("iris", password=PASSWORD), make("staffer", password=PASSWORD, is_staff=True)
    ben, cy, tess = make("ben", password=PASSWORD), make("cy", password=PASSWORD), make("tess", password=PASSWORD)
    solved = graded(ada, problems[SLUG], Verdict.ACCEPTED, code=read_solution(SLUG), minute=3)
    wrong = graded(ada, problems[SLUG], Verdict.WRONG_ANSWER, code=read_solution(SLUG, "wrong/appended.py"), minute=1)
    graded(grace, problems[SLUG], Verdict.ACCEPTED, code=read_solution(SLUG), minute=4)
    solution = publish_solution(ada, solved)
    course = courses.create_course(staff, "Transformers in NumPy", "Spring 2026")
    Membership.objects.filter(user=staff).delete()
    Membership.objects.create(course=course, user=iris, role=Role.INSTRUCTOR)
    Membership.objects.create(course=course, user=ada, role=Role.STUDENT)
    Membership.objects.create(course=course, user=ben, role=Role.STUDENT)
    Membership.objects.create(course=course, user=cy, role=Role.STUDENT)
    Membership.objects.create(course=course, user=tess, role=Role.TA)
    due = timezone.now() + timedelta(days=3)
    assignment = courses.save_assignment(
        course, iris, {"title": "Week 1", "weight": 1.0, "due_at": due}, [problems[OTHER]]
    )
    paired = courses.save_assignment(
        course, iris, {"title": "In pairs", "weight": 1.0, "due_at": due}, [problems[OTHER]]
    )
    # A group the students formed themselves, with a Submit of each kind for the group box to list, and room left
    # for the instructor's form that adds to it.
    groups.set_group_rule(paired, iris, 3, GroupFormation.STUDENTS)
    group = groups.create_group(paired, ada)
    groups.join_group(paired, ben, group.code)
    graded(ben, problems[OTHER], Verdict.WRONG_ANSWER, minute=5)
    teammates = graded(ben, problems[OTHER], Verdict.ACCEPTED, code=read_solution(OTHER), minute=6)
    return {
        "ada": ada,
        "solved": solved,
        "wrong": wrong,
        "solution": solution,
        "course": course,
        "assignment": assignment,
        "paired": paired,
        "teammates": teammates,
    }


def pages(people) -> dict[str, list[str]]:
    """Who reads which pages: each persona's addresses, by page type."""
    c, a, pairs = people["course"].pk, people["assignment"].pk, people["paired"].pk
    s, w, ada = people["solved"].pk, people["wrong"].pk, people["ada"].pk
    solution = f"/problems/{SLUG}/solutions/{people['solution'].pk}/"
    return {
        "": [
            "/",
            f"/problems/{SLUG}/",
            "/accounts/login/",
            "/accounts/signup/",
            "/leaderboard/",
            "/leaderboard/problems/",
            f"/problems/{SLUG}/speed/",
            NOT_FOUND,
            "/courses/join/ABCDEFGH/",
        ],
        "ada": [
            "/",
            f"/problems/{SLUG}/",
            f"/problems/{OTHER}/",
            f"/submissions/{s}/",
            f"/submissions/{w}/",
            f"/submissions/diff/?a={w}&b={s}",
            "/accounts/users/ada/",
            "/accounts/password/",
            "/courses/",
            f"/courses/{c}/",
            f"/courses/{c}/assignments/{a}/",
            f"/courses/{c}/assignments/{pairs}/",
            f"/courses/{c}/assignments/{pairs}/group/submits/{people['teammates'].pk}/",
            f"/courses/{c}/leaderboard/",
        ],
        "grace": [f"/problems/{SLUG}/solutions/", solution, solution + "diff/", "/accounts/users/ada/"],
        "iris": [
            f"/courses/{c}/",
            f"/courses/{c}/people/",
            f"/courses/{c}/settings/",
            f"/courses/{c}/gradebook/",
            f"/courses/{c}/assignments/new/",
            f"/courses/{c}/assignments/{a}/edit/",
            f"/courses/{c}/assignments/{a}/overrides/",
            f"/courses/{c}/assignments/{a}/progress/",
            f"/courses/{c}/assignments/{a}/insights/",
            f"/courses/{c}/assignments/{a}/similarity/",
            f"/courses/{c}/assignments/{pairs}/groups/",
            f"/courses/{c}/students/{ada}/problems/{OTHER}/",
        ],
        "cy": [f"/courses/{c}/assignments/{pairs}/"],  # in no group: the forms to create or join one
        "tess": [
            f"/courses/{c}/assignments/{pairs}/as-student/?student=ada",
            f"/courses/{c}/assignments/{pairs}/groups/",
        ],
        "staffer": [
            "/courses/",  # with the form that creates a course
            "/authoring/",
            "/authoring/new/",
            "/authoring/upload/",
            "/authoring/audit/",
            f"/authoring/problems/{SLUG}/",
            f"/authoring/problems/{SLUG}/edit/",
            f"/authoring/problems/{SLUG}/settings/",
            f"/authoring/problems/{SLUG}/mining/",
            solution,
        ],
    }


def opened(page) -> None:
    """Every tab and every collapsed part shown, so that axe reads them (it skips what is hidden)."""
    page.wait_for_load_state("load")
    tabs = page.locator("[role=tab]")
    for index in range(tabs.count()):
        tabs.nth(index).click()
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    # A tab's fragment has arrived.  A long poll (``wait=``: the live matrix waiting for a change) is pending by
    # design, up to PUSH_WAIT_S, and is not waited for.
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.htmx-request')]"
        ".some(e => !(e.getAttribute('hx-get') || '').includes('wait='))"
    )


@pytest.mark.parametrize("theme", THEMES)
def test_every_page_type_has_no_serious_violation(live_server, chromium, people, theme):
    found: dict[str, str] = {}
    for who, addresses in pages(people).items():
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(20_000)
        page = context.new_page()
        use_theme(page, theme)
        if who:
            log_in(page, live_server.url, who)
        for address in addresses:
            status = page.goto(live_server.url + address).status
            opened(page)
            # An error page in place of the page meant would pass for it: only the 404 page is one on purpose.
            if status != (404 if address == NOT_FOUND else 200):
                found[f"{who or 'visitor'} {address}"] = f"answered {status}: not the page meant"
            elif problems := violations(page):
                found[f"{who or 'visitor'} {address}"] = described(problems)
        context.close()
    assert not found, "\n\n".join(f"{where}\n{what}" for where, what in found.items())
