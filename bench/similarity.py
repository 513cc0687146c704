"""How long the courses' similarity check takes for N final submissions to one problem (no database).

Makes N programs of 30-60 lines, the size of a composed problem's answer: each a random choice, per line, among
three ways of writing it, with random names, so that pairs share some runs of tokens and not others. Then times
``judge.courses.similarity.similar_pairs`` (fingerprints, every pair compared, the top 20 marked up).

    .venv/bin/python bench/similarity.py --submissions 300
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LINES = [
    ("x = x - x.max(axis=-1, keepdims=True)", "x -= x.max(-1)[..., None]", "x = x - np.max(x, axis=-1, keepdims=True)"),
    ("e = np.exp(x)", "e = np.exp(x.astype(np.float64))", "e = np.power(np.e, x)"),
    ("y = e / e.sum(axis=-1, keepdims=True)", "y = e / np.sum(e, -1, keepdims=True)", "y = e / e.sum(-1)[..., None]"),
    ("s = q @ k.swapaxes(-1, -2)", "s = np.einsum('...id,...jd->...ij', q, k)", "s = np.matmul(q, np.swapaxes(k, -1, -2))"),
    ("s = s / np.sqrt(q.shape[-1])", "s /= q.shape[-1] ** 0.5", "s = s * (1.0 / math.sqrt(q.shape[-1]))"),
    ("m = np.triu(np.ones((n, n), dtype=bool), 1)", "m = np.tri(n, k=-1, dtype=bool).T", "m = ~np.tril(np.ones((n, n), bool))"),
    ("s = np.where(m, -np.inf, s)", "s[..., m] = -np.inf", "s = s + np.where(m, -1e9, 0.0)"),
    ("h = x.reshape(b, t, heads, d // heads)", "h = np.reshape(x, (b, t, heads, -1))", "h = x.reshape(b, t, heads, -1)"),
    ("h = h.transpose(0, 2, 1, 3)", "h = np.moveaxis(h, 2, 1)", "h = h.swapaxes(1, 2)"),
    ("o = w @ v", "o = np.einsum('...ij,...jd->...id', w, v)", "o = np.matmul(w, v)"),
]


def program(rng: random.Random) -> str:
    body = []
    for _ in range(rng.randint(3, 6)):
        for line in LINES:
            body.append("    " + rng.choice(line).replace("x", rng.choice(["x", "z", "scores", "t0"])))
    return "import math\nimport numpy as np\n\n\ndef solve(q, k, v, x, n, b, t, heads, d):\n" + "\n".join(body) + "\n    return o\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")
    os.environ.setdefault("JUDGE_TEST", "1")
    import django

    django.setup()
    from judge.courses.similarity import similar_pairs

    rng = random.Random(7)
    codes = {f"student{i}": program(rng) for i in range(args.submissions)}
    started = time.perf_counter()
    pairs = similar_pairs(codes, "import numpy as np\n")
    took = time.perf_counter() - started
    comparisons = args.submissions * (args.submissions - 1) // 2
    print(f"{args.submissions} submissions ({comparisons:,} pairs), mean {sum(map(len, codes.values())) // len(codes)} "
          f"characters: {took:.1f} s; top pair {pairs[0].similarity:.2f}; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
