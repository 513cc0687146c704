"""The gradebook: per-problem credit with late flags, assignment totals, the weighted course total, and the CSV
(Canvas's import columns) from the page and from ``manage.py gradebook``."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import timedelta

from django.core.management import call_command
from django.urls import reverse

from judge.courses import services
from judge.courses.models import LateRule
from tests.boards import recorded
from tests.courses import DUE, unlinked, world  # noqa: F401 (fixture)

HOUR = timedelta(hours=1)


def graded_course(w):
    """Week 1 (weight 1): ada both on time, grace one late. Week 2 (weight 3): ada nothing, grace one on time."""
    first, second = w.problems
    week2 = services.save_assignment(
        w.course,
        w.instructor,
        {
            "title": "Week 2",
            "opens_at": DUE,
            "due_at": DUE + 168 * HOUR,
            "closes_at": None,
            "late_rule": "",
            "weight": 3.0,
        },
        [second],
    )
    recorded(w.student, first, at=DUE - HOUR)
    recorded(w.student, second, at=DUE - HOUR)  # before Week 2 opens: counts for Week 1 only
    recorded(w.second, first, at=DUE + HOUR)
    recorded(w.second, second, at=DUE + 2 * HOUR)  # late for Week 1 (0.5), on time for Week 2
    return week2


def parsed(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


EXPECTED_CSV = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1", "Week 2", "Email", "Final Score"],
    ["ada", "", "", "ada", "Lab A", "2", "0", "ada@example.org", "25.00"],
    ["grace", "", "", "grace", "", "1", "1", "grace@example.org", "87.50"],
]


def test_the_csv_download_has_canvas_columns_and_the_expected_numbers(client, world):
    graded_course(world)
    client.force_login(world.ta)
    response = client.get(reverse("course-gradebook-csv", args=[world.course.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert parsed(response.content.decode()) == EXPECTED_CSV


def test_manage_py_gradebook_prints_the_same_csv(world):
    graded_course(world)
    out = io.StringIO()
    call_command("gradebook", str(world.course.pk), stdout=out)
    assert parsed(out.getvalue()) == EXPECTED_CSV
    out = io.StringIO()
    call_command("gradebook", world.course.join_code, "--per-problem", stdout=out)
    rows = parsed(out.getvalue())
    assert rows[0][5:8] == ["Week 1: first_step", "Week 1: second_step", "Week 1"]
    assert rows[2][5:8] == ["0.5", "0.5", "1"]


def test_the_gradebook_page_shows_credit_late_marks_and_totals(client, world):
    graded_course(world)
    client.force_login(world.instructor)
    page = client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode()
    grace = unlinked(page[page.index("<td>grace</td>") :].split("</tr>")[0])
    assert (
        grace.count('<td class="num late">0.5 L</td>') == 2 and ">88</td>" in grace
    )  # the course total, rounded to a whole percent


def test_the_gradebook_filters_by_section(client, world):
    graded_course(world)
    client.force_login(world.instructor)
    page = client.get(reverse("course-gradebook", args=[world.course.pk]), {"section": world.section.pk})
    text = page.content.decode()
    assert "<td>ada</td>" in text and "<td>grace</td>" not in text


def test_a_per_day_penalty_shows_in_the_export(world):
    services.save_assignment(
        world.course,
        world.instructor,
        {"late_rule": LateRule.PER_DAY, "late_penalty_per_day": 0.2, "late_multiplier": None},
        world.problems,
        world.assignment,
    )
    recorded(world.second, world.problems[0], at=DUE + 25 * HOUR)  # two started days late
    out = io.StringIO()
    call_command("gradebook", str(world.course.pk), stdout=out)
    assert parsed(out.getvalue())[2][5] == "0.6"


def test_a_section_or_title_that_looks_like_a_formula_is_text_in_the_csv_and_the_manifest(client, world):
    """Opened in a spreadsheet, the exports never run what an instructor typed as a section name or a title."""
    graded_course(world)
    world.section.name = '=HYPERLINK("http://evil.example","Lab A")'
    world.section.save()
    world.assignment.title = "+1 Week"
    world.assignment.save()
    client.force_login(world.ta)
    rows = parsed(client.get(reverse("course-gradebook-csv", args=[world.course.pk])).content.decode())
    assert rows[0][5] == "'+1 Week"
    assert rows[1][:5] == ["ada", "", "", "ada", '\'=HYPERLINK("http://evil.example","Lab A")']
    assert rows[2][4] == ""  # grace has no section; usernames stay as the LMS knows them
    zipped = client.get(reverse("assignment-download", args=[world.course.pk, world.assignment.pk]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(zipped.streaming_content)))
    manifest = parsed(archive.read(next(n for n in archive.namelist() if n.endswith("manifest.csv"))).decode())
    assert {row[1] for row in manifest[1:] if row[0] == "ada"} == {'\'=HYPERLINK("http://evil.example","Lab A")'}
