"""Author code runs in the sandbox's generate op, and what it reports is checked as hostile data."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

from engine.arrays import to_npy
from engine.package import PackageError
from engine.testset import generate_cases, parse_generated
from judge.problems.drafts import package_from_files
from sandbox.backends.base import GenerateJob
from tests.helpers import standalone_files

SLUG = "prepend_class_token"


@pytest.fixture(scope="module")
def package():
    return package_from_files(SLUG, standalone_files(SLUG))


def with_generator(package, code: str):
    files = standalone_files(SLUG) | {"generator.py": code}
    return package_from_files(SLUG, files)


def case(name: str = "a", hidden: bool = False, **args) -> dict:
    return {
        "event": "case",
        "name": name,
        "hidden": hidden,
        "args": {k: to_npy(v) if isinstance(v, np.ndarray) else v for k, v in args.items()},
    }


GOOD = {"patches": np.ones((1, 2, 3)), "cls_token": np.zeros((1, 1, 3))}


def test_the_packaged_generator_gives_the_same_cases_twice(package, process_sandbox):
    first, second = generate_cases(package, process_sandbox), generate_cases(package, process_sandbox)
    assert [c.name for c in first] == [c.name for c in second] and len(first) == 13
    assert all(a.inputs == b.inputs for a, b in zip(first, second))


@pytest.mark.parametrize(
    ("code", "error"),
    [
        (
            "def generate(rng):\n    yield {'name': 'a', 'args': {'patches': [1, 2]}}\n",
            "argument 'patches' must be a numeric ndarray, got list",
        ),
        (
            "import numpy as np\ndef generate(rng):\n    yield {'name': 'a', 'args': {'x': np.ones(2)}}\n",
            "unknown argument 'x'",
        ),
        (
            "import numpy as np\ndef generate(rng):\n    yield {'name': 'a', 'hidden': True, 'args': {'patches': np.ones(2), 'cls_token': np.ones(2)}}\n",
            "at least one case must be visible",
        ),
        (
            "import numpy as np\ndef generate(rng):\n    while True:\n        yield {'name': 'a', 'args': {'patches': np.ones(2)}}\n",
            "yielded more than 200 cases",
        ),
        ("def generate(rng):\n    return []\n", "generate() yielded no cases"),
        ("x = 1\n", "the generator must define generate(rng)"),
        ("def generate(rng)\n    pass\n", "SyntaxError"),
    ],
)
def test_a_bad_generator_is_refused_with_a_precise_message(package, process_sandbox, code, error):
    with pytest.raises(PackageError, match=re.escape(error)):
        generate_cases(with_generator(package, code), process_sandbox)


def test_a_generator_that_never_finishes_is_stopped(package, process_sandbox):
    job = GenerateJob(
        code="import time\ndef generate(rng):\n    time.sleep(60)\n    yield 1\n",
        seed=1,
        params=["patches"],
        time_limit_s=1.0,
    )
    started = time.monotonic()
    events = process_sandbox.run(job).events
    assert time.monotonic() - started < 10
    with pytest.raises(PackageError, match=r"did not finish within 1.0 s"):
        parse_generated(events, package, 1 << 20)


@pytest.mark.parametrize(
    ("events", "error"),
    [
        ([], "did not report its end"),
        ([case(**GOOD)], "did not report its end"),
        ([case(**GOOD), case(**GOOD), {"event": "generated"}], "duplicate name 'a'"),
        ([case(name="", **GOOD), {"event": "generated"}], "case 0 has no valid name"),
        ([case(name="x" * 500, **GOOD), {"event": "generated"}], "case 0 has no valid name"),
        ([case(patches="not bytes!", cls_token=GOOD["cls_token"]), {"event": "generated"}], "is not an array"),
        ([case(patches=b"\x93NUMPY garbage", cls_token=GOOD["cls_token"]), {"event": "generated"}], "is not an array"),
        (
            [case(patches=np.array(["a"]), cls_token=GOOD["cls_token"]), {"event": "generated"}],
            "must be a numeric ndarray",
        ),
        ([case(**GOOD) | {"hidden": "yes"}, {"event": "generated"}], "invalid 'hidden'"),
        ([case(**GOOD) | {"shape": [1, -2]}, {"event": "generated"}], "'shape' must be a list of sizes"),
        ([{"event": "generate_error", "error": "not an object"}], "the generator failed"),
    ],
)
def test_forged_generator_reports_are_refused(package, events, error):
    with pytest.raises(PackageError, match=re.escape(error)):
        parse_generated(events, package, 1 << 20)


def test_an_oversized_argument_is_refused(package):
    events = [case(patches=np.zeros(1000), cls_token=GOOD["cls_token"]), {"event": "generated"}]
    with pytest.raises(PackageError, match=r"is not an array: the result is"):
        parse_generated(events, package, 1024)
