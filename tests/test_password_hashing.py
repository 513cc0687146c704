"""Passwords are stored as Argon2id hashes; an older hash is replaced by one at its owner's next sign-in."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest
from django.contrib.auth.hashers import make_password

from tests.conftest import REPO


@pytest.fixture
def production_hashers(settings):
    """The production list, without the test profile's fast hash in front of it."""
    settings.PASSWORD_HASHERS = [h for h in settings.PASSWORD_HASHERS if not h.endswith("MD5PasswordHasher")]
    return settings.PASSWORD_HASHERS


def test_a_new_password_is_stored_as_argon2id_with_the_configured_cost(
    client, db, django_user_model, settings, production_hashers
):
    client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
    )
    stored = django_user_model.objects.get(username="newbie").password
    assert stored.startswith("argon2$argon2id$v=19$")
    assert f"m={settings.ARGON2_MEMORY_KIB},t={settings.ARGON2_TIME_COST},p={settings.ARGON2_PARALLELISM}" in stored


def test_an_old_pbkdf2_hash_is_upgraded_at_the_next_sign_in(client, db, django_user_model, production_hashers):
    user = django_user_model.objects.create(
        username="veteran", password=make_password("an old pass phrase 1", hasher="pbkdf2_sha256")
    )
    assert user.password.startswith("pbkdf2_sha256$")
    response = client.post("/accounts/login/", {"username": "veteran", "password": "an old pass phrase 1"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    client.logout()
    assert client.login(username="veteran", password="an old pass phrase 1")


def test_a_hash_with_weaker_argon2_parameters_is_upgraded_too(
    client, db, django_user_model, settings, production_hashers
):
    from judge.accounts.hashers import Argon2Hasher

    weak = type("WeakArgon2", (Argon2Hasher,), {"time_cost": 1, "memory_cost": 8192})()
    django_user_model.objects.create(username="early", password=weak.encode("an early phrase 2", weak.salt()))
    client.post("/accounts/login/", {"username": "early", "password": "an early phrase 2"})
    stored = django_user_model.objects.get(username="early").password
    assert f"m={settings.ARGON2_MEMORY_KIB},t={settings.ARGON2_TIME_COST}" in stored


def load_bench(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def first_hasher_under(env: dict) -> str:
    show = "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"
    shown = subprocess.run(
        [sys.executable, "-c", show],
        env=env | {"DJANGO_SETTINGS_MODULE": "judge.settings"},
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout.strip()


@pytest.mark.heavy  # the site in processes of its own
def test_the_benchmarks_that_sign_students_in_run_the_site_with_the_production_hash():
    assert os.environ.get("JUDGE_TEST") == "1"  # as here: a benchmark started from a test shell still must not
    args = argparse.Namespace(
        database="judge_bench_x", redis_db=13, port=8099, problem="prepend_class_token", concurrency=None
    )
    assert first_hasher_under(load_bench("sign_in").stack_env(args)) == "judge.accounts.hashers.Argon2Hasher"
    assert first_hasher_under(load_bench("classroom").make_stack(args).env) == "judge.accounts.hashers.Argon2Hasher"
