"""A restore that cannot be right says why and changes nothing: a damaged or foreign file, a backup of another
schema or engine, a database that is not empty, a restore that fails half-way (issue 44 §2)."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from judge.backups import postgres
from judge.backups.manifest import Manifest
from judge.backups.services import sha256_of, write_archive
from judge.submissions.models import Submission
from tests.boards import quick_problem, recorded
from tests.databases import connected_to, fresh_database


@pytest.fixture
def backup(transactional_db, student, tmp_path) -> Path:
    recorded(student, quick_problem("first_step"))
    path = tmp_path / "site.backup"
    call_command("backup", str(path))
    return path


def refused(path: Path | str, match: str, *options: str) -> None:
    with pytest.raises(CommandError, match=match):
        call_command("restore", str(path), *options)


def rewritten(path: Path, out: Path, manifest_change=None, data_change=None, hash_again: bool = True) -> Path:
    """The backup with its manifest or its database changed, as a damaged or a foreign file would be."""
    with tarfile.open(path) as archive:
        manifest = json.loads(archive.extractfile("manifest.json").read())
        data = archive.extractfile(manifest["database"]["name"]).read()
    if data_change:
        data = data_change(data)
    if manifest_change:
        manifest_change(manifest)
    parts = out.parent / f"{out.name}-parts"
    parts.mkdir()
    member = parts / manifest["database"]["name"]
    member.write_bytes(data)
    if hash_again:
        manifest["database"].update(bytes=len(data), sha256=sha256_of(member))
    with out.open("wb") as file:
        write_archive(file, Manifest.model_validate(manifest), member)
    return out


def test_a_truncated_backup_is_refused_and_the_database_stays_empty(backup, tmp_path):
    cut = tmp_path / "cut.backup"
    cut.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])
    with fresh_database("target") as name, connected_to(name):
        refused(cut, r"cut.backup cannot be read as a backup \(.*\): the file is damaged or not a backup.")
        assert connection.introspection.table_names() == []


def test_a_changed_byte_in_the_dump_is_caught_by_the_manifests_checksum(backup, tmp_path):
    def flip(data: bytes) -> bytes:
        return data[:5000] + bytes([data[5000] ^ 1]) + data[5001:]

    damaged = rewritten(backup, tmp_path / "flipped.backup", data_change=flip, hash_again=False)
    with fresh_database("target") as name, connected_to(name):
        refused(damaged, r"not the one its manifest describes .* the file is damaged")
        assert connection.introspection.table_names() == []


def test_a_file_that_is_not_a_backup_is_refused(transactional_db, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a backup\n" * 100)
    archive = tmp_path / "photos.tar"
    with tarfile.open(archive, "w") as tar:
        info = tarfile.TarInfo("holiday.jpg")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"jpg"))
    with fresh_database("target") as name, connected_to(name):
        refused(text, "notes.txt cannot be read as a backup")
        refused(archive, "photos.tar is not a backup of this site: it does not begin with manifest.json")
        refused(tmp_path / "missing.backup", "missing.backup: no such file")


def test_a_manifest_that_does_not_parse_names_the_field(backup, tmp_path):
    def unknown_format(manifest: dict) -> None:
        manifest["database"]["sha256"] = "not-a-hash"

    with tarfile.open(backup) as archive:
        data = archive.extractfile("database.pgdump").read()
        manifest = json.loads(archive.extractfile("manifest.json").read())
    unknown_format(manifest)
    damaged = tmp_path / "bad-manifest.backup"
    with tarfile.open(damaged, "w") as tar:
        for name, content in (("manifest.json", json.dumps(manifest).encode()), ("database.pgdump", data)):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    with fresh_database("target") as name, connected_to(name):
        refused(damaged, r"manifest is not valid \(database.sha256: String should match pattern")


def test_a_backup_from_a_newer_version_is_refused_naming_the_migrations_this_code_lacks(backup, tmp_path):
    def newer(manifest: dict) -> None:
        manifest["schema"]["submissions"] = ["0042_from_the_future"]
        manifest["app_version"] = "9.0.0"

    foreign = rewritten(backup, tmp_path / "newer.backup", manifest_change=newer)
    with fresh_database("target") as name, connected_to(name):
        refused(
            foreign,
            r"taken by version 9.0.0, whose schema has migrations this code \(version .*\) does not: "
            r"submissions.0042_from_the_future. Restore it with version 9.0.0 or later.",
        )
        assert connection.introspection.table_names() == []


def test_a_backup_of_an_older_release_needs_migrate_and_says_which_release_it_is(backup, tmp_path):
    from judge.lib.releases import RELEASES

    def older(manifest: dict) -> None:
        manifest["schema"] = {app: [name] for app, name in RELEASES[0].migrations.items()}
        manifest["app_version"] = RELEASES[0].version

    old = rewritten(backup, tmp_path / "old.backup", manifest_change=older)
    with fresh_database("target") as name, connected_to(name):
        refused(
            old,
            rf"holds the schema of release {RELEASES[0].version} \(version {RELEASES[0].version}\), older "
            r"than this code's \(\d+ migrations newer, e.g. .*\). Add --migrate",
        )
        assert connection.introspection.table_names() == []


def test_a_sqlite_backup_is_not_restored_into_postgresql(backup, tmp_path):
    def sqlite(manifest: dict) -> None:
        manifest["engine"], manifest["database"]["name"] = "sqlite", "database.sqlite3"

    other = rewritten(backup, tmp_path / "embedded.backup", manifest_change=sqlite)
    with fresh_database("target") as name, connected_to(name):
        refused(other, "a backup of a SQLite database; this site's is PostgreSQL")


def test_a_database_that_is_not_empty_is_left_alone_unless_forced(backup):
    with fresh_database("target") as name, connected_to(name):
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE kept_by_the_operator (note text)")
            cursor.execute("INSERT INTO kept_by_the_operator VALUES ('still here')")
        refused(backup, r"The database \S+_target is not empty. .* or add --force")
        with connection.cursor() as cursor:
            cursor.execute("SELECT note FROM kept_by_the_operator")
            assert cursor.fetchall() == [("still here",)]

        call_command("restore", str(backup), "--force")
        assert "kept_by_the_operator" not in connection.introspection.table_names()
        assert Submission.objects.get().verdict == "accepted"
        call_command("restore", str(backup), "--force")  # again over itself: replaced, not doubled
        assert Submission.objects.count() == 1


def test_a_forced_restore_that_cannot_finish_changes_nothing(backup, monkeypatch):
    """The site still holds a table: the restore gives up at its lock timeout, and the old contents remain."""
    monkeypatch.setattr(postgres, "LOCK_TIMEOUT", "1s")
    with fresh_database("target") as name, connected_to(name):
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE old_site (note text)")
            cursor.execute("INSERT INTO old_site VALUES ('the old term')")
        holder = postgres.connect(connection.settings_dict)
        try:
            holder.execute("SELECT * FROM old_site")  # an open transaction reading it, as a page would
            refused(backup, r"Restoring the dump \(nothing was changed\) failed: .*lock timeout", "--force")
        finally:
            holder.close()
        with connection.cursor() as cursor:
            cursor.execute("SELECT note FROM old_site")
            assert cursor.fetchall() == [("the old term",)]
        assert "submissions_submission" not in connection.introspection.table_names()


def test_check_reads_the_whole_file_and_changes_nothing(backup, capsys):
    with fresh_database("target") as name, connected_to(name):
        call_command("restore", str(backup), "--check")
        assert connection.introspection.table_names() == []
    assert "is a whole postgresql backup of this code's schema" in capsys.readouterr().out


def test_a_backup_never_overwrites_a_file(backup):
    before = backup.read_bytes()
    with pytest.raises(CommandError, match="already exists: a backup never overwrites a file"):
        call_command("backup", str(backup))
    assert backup.read_bytes() == before
