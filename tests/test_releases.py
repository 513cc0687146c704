"""Versioned releases: pyproject.toml's version, a changelog entry and a recorded schema for each release, and the
version on every page (issue 44 §3; how to cut one: docs/contributors/releases.md)."""

from __future__ import annotations

import re
import tomllib

from django.db.migrations.loader import MigrationLoader
from packaging.version import Version

from judge.backups.schema import code_state
from judge.lib.releases import RELEASES, latest_release, version
from tests.conftest import REPO

CHANGELOG = (REPO / "CHANGELOG.md").read_text()


def test_the_version_is_pyprojects_and_comes_after_every_release():
    assert version() == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert all(Version(version()) > Version(release.version) for release in RELEASES[:-1])
    assert Version(version()) >= Version(latest_release().version)


def test_a_version_without_dev_is_a_recorded_release_with_this_codes_schema():
    """Cutting a release means recording its migrations: a final version whose schema is not written down fails."""
    if Version(version()).is_devrelease:
        assert Version(version()) > Version(latest_release().version)
        return
    release = {r.version: r for r in RELEASES}.get(version())
    assert release is not None, f"version {version()} is not recorded in judge/lib/releases.py"
    assert {app: [name] for app, name in release.migrations.items()} == code_state()


def test_every_release_names_migrations_that_exist_in_order():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for release in RELEASES:
        missing = [f"{app}.{name}" for app, name in release.migrations.items() if (app, name) not in graph.nodes]
        assert not missing, f"release {release.version} names migrations that are gone (never delete or rename one)"
    assert [Version(r.version) for r in RELEASES] == sorted(Version(r.version) for r in RELEASES)


def test_the_changelog_has_an_unreleased_section_and_one_per_release_in_order():
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", CHANGELOG, flags=re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    assert headings[1:] == [(r.version, r.date) for r in reversed(RELEASES)]


def test_every_page_names_the_version_it_runs(client, db):
    page = client.get("/").content.decode()
    assert f'<span class="version">NumPy Transformer Judge {version()}.</span>' in page
