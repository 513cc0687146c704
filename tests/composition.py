"""Two tiny packages for composition tests: ``double_it``, and ``quadruple_it``, which builds on it."""

from __future__ import annotations

from pathlib import Path

MANIFEST = """slug = "{slug}"
title = "{title}"
difficulty = "easy"
{extra}

[function]
name = "{slug}"
params = ["x"]
{builds_on}

[limits]
time_limit_s = 2.0
memory_mb = 256

[checking]
rtol = 1e-9
atol = 1e-12

[tests]
seed = 3

[[wrong]]
file = "wrong/identity.py"
fails_with = "wrong_value"
name = "{wrong_name}"
explanation = "{wrong_explanation}"
"""
TESTS = """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "args": {"x": np.array([1.0, -2.0])}}
    for i in range(3):
        yield {"name": f"random_{i}", "hidden": True, "args": {"x": rng.standard_normal((2, 3))}}
"""
DOUBLE = "import numpy as np\n\n\ndef double_it(x):\n    return 2.0 * x\n"
QUADRUPLE_REFERENCE = "import numpy as np\n\n\ndef quadruple_it(x):\n    return 4.0 * x\n"
# What a student writes: their own double_it, twice.
QUADRUPLE_WITH_SOLVED = "from solved import double_it\n\n\ndef quadruple_it(x):\n    return double_it(double_it(x))\n"
QUADRUPLE_STARTER = "from solved import double_it\n\n\ndef quadruple_it(x):\n    raise NotImplementedError\n"
# Uses the earlier problem once only: the gate runs it with the earlier problem's reference.
QUADRUPLE_WRONG = "from solved import double_it\n\n\ndef quadruple_it(x):\n    return double_it(x)\n"


def write_packages(root: Path, builds_on: str = 'builds_on = ["double_it"]') -> dict[str, Path]:
    """Both packages under ``root``; ``builds_on`` is quadruple_it's manifest line."""
    packages = {
        "double_it": dict(
            title="Double it",
            extra="",
            builds_on="",
            solution=DOUBLE,
            starter="def double_it(x):\n    raise NotImplementedError\n",
            wrong="def double_it(x):\n    return x * 1.0\n",
            wrong_name="Identity",
            wrong_explanation="Twice x, not x.",
        ),
        "quadruple_it": dict(
            title="Quadruple it",
            extra='summary = "Twice double_it."',
            builds_on=builds_on,
            solution=QUADRUPLE_REFERENCE,
            starter=QUADRUPLE_STARTER,
            wrong=QUADRUPLE_WRONG,
            wrong_name="Doubled once",
            wrong_explanation="Double it twice.",
        ),
    }
    folders = {}
    for slug, p in packages.items():
        folder = root / slug
        (folder / "wrong").mkdir(parents=True)
        manifest = MANIFEST.format(
            slug=slug,
            title=p["title"],
            extra=p["extra"],
            builds_on=p["builds_on"],
            wrong_name=p["wrong_name"],
            wrong_explanation=p["wrong_explanation"],
        )
        files = {
            "problem.toml": manifest,
            "statement.md": f"Implement {slug}.",
            "starter.py": p["starter"],
            "solution.py": p["solution"],
            "generator.py": TESTS,
            "wrong/identity.py": p["wrong"],
        }
        for name, text in files.items():
            (folder / name).write_text(text)
        folders[slug] = folder
    return folders
