"""Problem packages load, sync idempotently, and fail loudly when malformed."""

from __future__ import annotations

import re

import pytest
from django.core.management import CommandError, call_command

from engine.package import PackageError, discover, load_package, load_tracks
from judge.authoring.sync import learning_path, sync_problems
from judge.problems.models import Problem, TestSet
from tests.conftest import PROBLEMS
from tests.helpers import standalone_copy


@pytest.fixture
def package_copy(tmp_path):
    root = tmp_path / "problems"
    return root, standalone_copy("prepend_class_token", root)


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ('difficulty = "easy"', 'difficulty = "trivial"', "problem.toml: difficulty must be one of easy, medium, hard"),
        ("time_limit_s = 2.0", "time_limit_s = -1", "problem.toml: limits.time_limit_s must be positive"),
        ('slug = "prepend_class_token"', 'slug = "other"', "problem.toml: slug must equal the folder name"),
        ("[checking]", "[checking", "problem.toml: invalid TOML"),
        ("rtol = 1e-7", "rtol = 'tight'", "problem.toml: checking.rtol must be an integer or a number, got str"),
        ('fails_with = "wrong_value"', 'fails_with = "wrong"', "wrong[0].fails_with must be one of"),
    ],
)
def test_malformed_manifest_names_the_file_and_field(package_copy, old, new, error):
    _, path = package_copy
    manifest = path / "problem.toml"
    text = manifest.read_text()
    assert old in text
    manifest.write_text(text.replace(old, new, 1))
    with pytest.raises(PackageError, match=re.escape(error)):
        load_package(path)


def test_missing_file_is_named(package_copy):
    _, path = package_copy
    (path / "solution.py").unlink()
    with pytest.raises(PackageError, match=r"prepend_class_token/solution.py: file is missing"):
        load_package(path)


def test_sync_is_idempotent_and_a_content_change_makes_a_new_test_set_version(db, package_copy):
    root, path = package_copy
    assert [o.action for o in sync_problems(root)] == ["created"]
    assert [o.action for o in sync_problems(root)] == ["unchanged"]
    first = Problem.objects.get().current_test_set
    (path / "statement.md").write_text((path / "statement.md").read_text() + "\nOne more sentence.\n")
    assert [o.action for o in sync_problems(root)] == ["updated"]
    second = Problem.objects.get().current_test_set
    assert first.version != second.version and TestSet.objects.count() == 2


def test_sync_problems_command_reports_a_malformed_package_and_changes_nothing(db, package_copy):
    root, path = package_copy
    (path / "problem.toml").write_text((path / "problem.toml").read_text().replace("[function]", "[functio]"))
    with pytest.raises(CommandError, match=r"prepend_class_token/problem.toml: function is missing") as raised:
        call_command("sync_problems", "--root", str(root))
    assert raised.value.returncode == 2
    assert Problem.objects.count() == 0


def test_learning_path_puts_prerequisites_first(problems):
    order = list(Problem.objects.order_by("path_order").values_list("slug", flat=True))
    assert order.index("prepend_class_token") < order.index("add_positional_embedding")
    assert order.index("add_positional_embedding") < order.index("scaled_dot_product_attention")


def test_every_problem_joins_a_listed_track_and_the_path_finishes_each_track_before_the_next():
    packages = {p.slug: p for p in (load_package(path) for path in discover(PROBLEMS))}
    tracks = [track["slug"] for track in load_tracks(PROBLEMS)]
    assert {p.track for p in packages.values()} <= set(tracks)
    assert tracks.index("train-it") == tracks.index("block-readout-gradients") + 1
    assert tracks.index("modern-blocks") == tracks.index("train-it") + 1
    ranks = [tracks.index(packages[slug].track) for slug in learning_path(list(packages.values()), set(), tracks)]
    assert ranks == sorted(ranks)


def test_track_five_follows_track_four_and_keeps_its_listed_order():
    packages = {p.slug: p for p in (load_package(path) for path in discover(PROBLEMS))}
    tracks = load_tracks(PROBLEMS)
    slugs = [track["slug"] for track in tracks]
    assert slugs.index("llm-and-serving") == slugs.index("modern-blocks") + 1
    listed = [slug for track in tracks for slug in track["problems"]]
    order = learning_path(list(packages.values()), set(), slugs, listed)
    track_five = [slug for slug in order if packages[slug].track == "llm-and-serving"]
    assert [slug for slug in track_five if slug in listed] == [slug for slug in listed if slug in packages]
    # Without the list the same problems come by difficulty and name: min_p_logits (easy) before paged_attention.
    unlisted = [
        slug
        for slug in learning_path(list(packages.values()), set(), slugs)
        if packages[slug].track == "llm-and-serving"
    ]
    assert unlisted.index("min_p_logits") < unlisted.index("paged_attention")
    assert track_five.index("paged_attention") < track_five.index("min_p_logits")
