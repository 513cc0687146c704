"""Problems download and upload as zips in the problems/<slug>/ format; a malformed upload changes nothing."""

from __future__ import annotations

import io
import zipfile

import pytest

from judge.authoring.models import AuditEntry
from judge.problems.drafts import files_from_folder
from judge.problems.models import Problem
from tests.conftest import PROBLEMS
from tests.helpers import standalone_files

SLUG = "prepend_class_token"
# Its prerequisites are synced too: a draft saved in the browser must name problems that exist.
SYNCED_PROBLEMS = ["image_to_patches", "patch_embedding", SLUG]


@pytest.fixture
def author(django_user_model, client):
    user = django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)
    client.force_login(user)
    return user


def make_zip(files: dict[str, bytes | str]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    buffer.seek(0)
    buffer.name = "package.zip"
    return buffer


def package_entries(**changes) -> dict[str, str | bytes]:
    files = {f"{SLUG}/{name}": text for name, text in standalone_files(SLUG).items()}
    files.update(changes)
    return files


def test_download_gives_the_package_folder(client, problems, author):
    response = client.get(f"/authoring/problems/{SLUG}/download/")
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    on_disk = files_from_folder(PROBLEMS / SLUG)
    assert {name: archive.read(name).decode() for name in archive.namelist()} == {
        f"{SLUG}/{name}": text for name, text in on_disk.items()
    }
    assert AuditEntry.objects.filter(action="download", user=author).exists()


def test_uploading_an_edited_package_replaces_the_draft_and_is_audited(client, problems, author):
    statement = "# Prepend\n\nA reworded statement.\n"
    response = client.post(
        "/authoring/upload/", {"package": make_zip(package_entries(**{f"{SLUG}/statement.md": statement}))}
    )
    assert response.status_code == 302
    problem = Problem.objects.get(slug=SLUG)
    assert problem.draft_files["statement.md"] == statement
    assert problem.statement_md != statement  # live until the gate passes
    entry = AuditEntry.objects.get(action="upload")
    assert (entry.user, entry.problem_slug) == (author, SLUG)


@pytest.mark.parametrize(
    ("entries", "error"),
    [
        (b"this is not a zip", "package.zip: not a zip file"),
        ({f"{SLUG}/problem.toml": "slug = 'x'", "other/problem.toml": ""}, "must hold exactly one folder"),
        (
            package_entries(
                **{
                    f"{SLUG}/problem.toml": standalone_files(SLUG)["problem.toml"].replace(
                        'difficulty = "easy"', 'difficulty = "trivial"'
                    )
                }
            ),
            f"{SLUG}/problem.toml: difficulty must be one of easy, medium, hard, got 'trivial'",
        ),
        (package_entries(**{f"{SLUG}/solution.py": b"x = '\xff'\n"}), f"{SLUG}/solution.py: not UTF-8"),
        (package_entries(**{f"{SLUG}/wrong/../../evil.py": "x = 1"}), "not an allowed file name"),
        (
            {k: v for k, v in package_entries().items() if not k.endswith("generator.py")},
            f"{SLUG}/generator.py: file is missing",
        ),
    ],
)
def test_a_malformed_upload_names_the_file_and_field_and_changes_nothing(client, problems, author, entries, error):
    before = Problem.objects.get(slug=SLUG).draft_files
    upload = make_zip(entries) if isinstance(entries, dict) else io.BytesIO(entries)
    upload.name = "package.zip"
    response = client.post("/authoring/upload/", {"package": upload})
    assert response.status_code == 400
    assert error in response.content.decode().replace("&#x27;", "'")
    assert Problem.objects.get(slug=SLUG).draft_files == before
    assert not AuditEntry.objects.filter(action="upload").exists()


def test_a_malformed_edit_in_the_browser_is_refused_precisely_and_changes_nothing(client, problems, author):
    problem = Problem.objects.get(slug=SLUG)
    form = {f"file:{name}": text for name, text in problem.draft_files.items()}
    form["file:problem.toml"] = form["file:problem.toml"].replace("time_limit_s = 2.0", "time_limit_s = -1")
    response = client.post(f"/authoring/problems/{SLUG}/edit/", form | {"action": "save"})
    assert response.status_code == 400
    assert "problem.toml: limits.time_limit_s must be positive, got -1" in response.content.decode()
    assert Problem.objects.get(slug=SLUG).draft_files == problem.draft_files
    form["file:problem.toml"] = problem.draft_files["problem.toml"]
    form["file:statement.md"] = "# New statement with $x^2$\n"
    response = client.post(f"/authoring/problems/{SLUG}/edit/", form | {"action": "save"})
    assert response.status_code == 200 and "Draft saved" in response.content.decode()
    assert "<h1" in response.content.decode()  # the preview is rendered Markdown
    entry = AuditEntry.objects.get(action="edit")
    assert entry.user == author and "statement.md" in entry.summary
