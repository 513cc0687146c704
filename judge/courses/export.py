"""The gradebook as CSV, in the shape Canvas's gradebook import reads (and Moodle's CSV import can map).

Canvas: "Student", "ID", "SIS User ID", "SIS Login ID", "Section", then one column per assignment, then
read-only columns it ignores ("Final Score"). Canvas matches students by SIS Login ID when ID is blank (here it
holds the judge's username) and creates an assignment for a column it does not know. Moodle: Grades > Import >
CSV file, map "SIS Login ID" to username (or "Email" to email address) and each assignment column to a grade item.
"""

from __future__ import annotations

import csv

from judge.courses.grades import Gradebook

FIXED = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


# A cell a spreadsheet would read as a formula (OWASP's "CSV injection"): section names and titles are free text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_text(cell: str) -> str:
    """Free text as a spreadsheet shows it, never run: a leading apostrophe before what would start a formula.
    Usernames need none (letters, digits and @.+-_ cannot make one), and must stay as they are for the LMS."""
    return "'" + cell if cell.startswith(FORMULA_START) else cell


def points(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value else "0"


def header(book: Gradebook, per_problem: bool) -> list[str]:
    columns = list(FIXED)
    for grades in book.assignments:
        if per_problem:
            columns += [as_text(f"{grades.assignment.title}: {slug}") for _, slug, _ in grades.problems]
        columns.append(as_text(grades.assignment.title))
    return columns + ["Email", "Final Score"]


def rows(book: Gradebook, per_problem: bool = False):
    yield header(book, per_problem)
    for student in book.students:
        row = [student.username, "", "", student.username, as_text(student.section)]
        for grades in book.assignments:
            if per_problem:
                row += [points(grades.credit(student.user_id, pid).value) for pid, _, _ in grades.problems]
            row.append(points(grades.total(student.user_id)))
        yield row + [student.email, f"{book.course_total(student.user_id) * 100:.2f}"]


def gradebook_csv(book: Gradebook, out, per_problem: bool = False) -> None:
    writer = csv.writer(out)
    for row in rows(book, per_problem):
        writer.writerow(row)
