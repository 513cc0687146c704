"""The courses' similarity check: does it rank planted copies above independent solutions, and how long it takes.

Quality, before and after side by side. ``bench/similarity_corpus/<problem>/`` holds independent correct
solutions of four catalogue problems, written separately in different styles (the check is never tuned on them).
``others/`` holds three more per problem, the site's
accepted solutions from outside the class that the new check reads to know which lines independent people write
(the old check read none). For each solution the bench plants two copies: one renamed (every name the student chose, comments added), one
reordered (renamed, independent statements swapped, helpers moved, reformatted by ``ast.unparse``). Each class is
the problem's independent solutions plus one planted copy; every pair is scored by the old check (copydetect's
winnowing, the starter as boilerplate, the larger share: the site's scoring before issue 40) and the new one
(``judge.courses.similarity``: unusual statements only). A program the new check leaves out as too short to judge
leaves its pairs out of the new figures. The old figures move from run to run: copydetect hashes its k-grams with
Python's ``hash()``, salted per process (set PYTHONHASHSEED to repeat one); the new ones do not.

Speed: N programs of 30-60 lines made of random choices among three ways of writing each line, timed through
``similar_pairs`` (old: copydetect over the same programs).

    .venv/bin/python bench/similarity.py --submissions 300
"""

from __future__ import annotations

import argparse
import ast
import builtins
import io
import itertools
import keyword
import os
import random
import statistics
import sys
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "similarity_corpus"
sys.path.insert(0, str(ROOT))

LINES = [
    ("x = x - x.max(axis=-1, keepdims=True)", "x -= x.max(-1)[..., None]", "x = x - np.max(x, axis=-1, keepdims=True)"),
    ("e = np.exp(x)", "e = np.exp(x.astype(np.float64))", "e = np.power(np.e, x)"),
    ("y = e / e.sum(axis=-1, keepdims=True)", "y = e / np.sum(e, -1, keepdims=True)", "y = e / e.sum(-1)[..., None]"),
    (
        "s = q @ k.swapaxes(-1, -2)",
        "s = np.einsum('...id,...jd->...ij', q, k)",
        "s = np.matmul(q, np.swapaxes(k, -1, -2))",
    ),
    ("s = s / np.sqrt(q.shape[-1])", "s /= q.shape[-1] ** 0.5", "s = s * (1.0 / math.sqrt(q.shape[-1]))"),
    (
        "m = np.triu(np.ones((n, n), dtype=bool), 1)",
        "m = np.tri(n, k=-1, dtype=bool).T",
        "m = ~np.tril(np.ones((n, n), bool))",
    ),
    ("s = np.where(m, -np.inf, s)", "s[..., m] = -np.inf", "s = s + np.where(m, -1e9, 0.0)"),
    (
        "h = x.reshape(b, t, heads, d // heads)",
        "h = np.reshape(x, (b, t, heads, -1))",
        "h = x.reshape(b, t, heads, -1)",
    ),
    ("h = h.transpose(0, 2, 1, 3)", "h = np.moveaxis(h, 2, 1)", "h = h.swapaxes(1, 2)"),
    ("o = w @ v", "o = np.einsum('...ij,...jd->...id', w, v)", "o = np.matmul(w, v)"),
]
KEPT = set(dir(builtins)) | {"np", "numpy", "math"}


def program(rng: random.Random) -> str:
    body = []
    for _ in range(rng.randint(3, 6)):
        for line in LINES:
            body.append("    " + rng.choice(line).replace("x", rng.choice(["x", "z", "scores", "t0"])))
    return (
        "import math\nimport numpy as np\n\n\ndef solve(q, k, v, x, n, b, t, heads, d):\n"
        + "\n".join(body)
        + "\n    return o\n"
    )


def old_scores(codes: dict[str, str], starter: str) -> dict[tuple[str, str], float]:
    """The check before issue 40: copydetect's fingerprints (12-token noise, 18-token guarantee), the starter as
    boilerplate, every pair compared, the larger of the two shares."""
    import numpy as np
    from copydetect import CodeFingerprint, compare_files

    def fingerprint(code: str, boilerplate):
        return CodeFingerprint("solution.py", 12, 7, boilerplate=boilerplate, language="python", fp=io.StringIO(code))

    boilerplate = np.array(sorted(fingerprint(starter, None).hashes), dtype=np.int64) if starter.strip() else None
    prints = {name: fingerprint(code, boilerplate) for name, code in codes.items()}
    scores = {}
    for a, b in itertools.combinations(sorted(prints), 2):
        overlap, shares, _ = compare_files(prints[a], prints[b])
        scores[(a, b)] = float(max(shares)) if overlap else 0.0
    return scores


def new_scores(codes: dict[str, str], starter: str, reference: str, others: list[str]) -> dict[tuple[str, str], float]:
    """Every pair the new check judges (a program with too little of its own is left out, and the page says so)."""
    from judge.courses.similarity import similar_pairs

    report = similar_pairs(codes, starter, reference, others, limit=10_000)
    found = {(p.first, p.second): p.similarity for p in report.pairs}
    return {
        pair: found.get(pair, 0.0)
        for pair in itertools.combinations(sorted(codes), 2)
        if not set(pair) & set(report.left_out)
    }


def renamed(code: str, function: str, rng: random.Random) -> str:
    """Every name the student chose replaced (the graded function's name kept), and a comment on each statement."""
    words = ["alpha", "beta_", "acc", "tmp", "val", "arr", "res", "buf", "num", "den", "aux", "out_"]
    names: dict[str, str] = {}
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    out = []
    depth = 0
    for index, token in enumerate(tokens):
        text = token.string
        before = tokens[index - 1].string if index else ""
        depth += (text in "([{") - (text in ")]}") if token.type == tokenize.OP else 0
        keyword_argument = (
            depth
            and index + 1 < len(tokens)
            and tokens[index + 1].string == "="
            and not token.line.lstrip().startswith("def ")
        )
        if (
            token.type == tokenize.NAME
            and not keyword.iskeyword(text)
            and text not in KEPT
            and text != function
            and before != "."
            and not keyword_argument
        ):
            text = names.setdefault(text, f"{rng.choice(words)}{len(names)}")
        if token.type == tokenize.NEWLINE and before != ":" and token.line.startswith("    "):
            text = "  # step\n"
        out.append(token._replace(string=text))
    return tokenize.untokenize(out)


def reordered(code: str, function: str, rng: random.Random) -> str:
    """``renamed``, then independent neighbouring statements swapped, helpers moved after the graded function,
    and the whole reformatted (ast.unparse)."""
    tree = ast.parse(renamed(code, function, rng))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            node.body = swapped(node.body)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    tree.body = [n for n in tree.body if not isinstance(n, ast.FunctionDef)] + defs[::-1]
    return ast.unparse(tree) + "\n"


def swapped(body: list[ast.stmt]) -> list[ast.stmt]:
    body = list(body)
    for i in range(len(body) - 1):
        a, b = body[i], body[i + 1]
        if isinstance(a, ast.Expr | ast.Return) or isinstance(b, ast.Return):
            continue
        if not (written(a) & read(b) or written(b) & read(a) or written(a) & written(b)):
            body[i], body[i + 1] = b, a
    return body


def written(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} | (
        {n.target.id for n in ast.walk(node) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
    )


def read(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def quality() -> None:
    rng = random.Random(40)
    rows: dict[str, dict[str, list[float]]] = {"copy": {"old": [], "new": []}, "independent": {"old": [], "new": []}}
    ranked = {"old": 0, "new": 0}
    judged = {"old": 0, "new": 0}
    classes = 0
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        slug = folder.name
        starter = (ROOT / "problems" / slug / "starter.py").read_text()
        reference = (ROOT / "problems" / slug / "solution.py").read_text()
        own = {f.stem: f.read_text() for f in sorted(folder.glob("*.py"))}
        outside = [f.read_text() for f in sorted((folder / "others").glob("*.py"))]
        for original, kind in itertools.product(sorted(own), ("renamed", "reordered")):
            plant = renamed if kind == "renamed" else reordered
            codes = own | {"copy": plant(own[original], slug, rng)}
            classes += 1
            for method, scores in (
                ("old", old_scores(codes, starter)),
                ("new", new_scores(codes, starter, reference, outside)),
            ):
                copies = [s for pair, s in scores.items() if set(pair) == {original, "copy"}]
                others = [s for pair, s in scores.items() if "copy" not in pair]
                rows["copy"][method] += copies
                rows["independent"][method] += others
                judged[method] += bool(copies)
                ranked[method] += bool(copies) and min(copies) > max(others, default=0.0)
    print(
        f"Quality: {classes} classes over {len(list(CORPUS.glob('*/*.py')))} independent solutions of "
        f"{len([p for p in CORPUS.iterdir() if p.is_dir()])} problems, each with one planted copy"
    )
    print(f"{'pairs':<14}{'old n':>6}{'min':>6}{'median':>8}{'max':>6}   {'new n':>6}{'min':>6}{'median':>8}{'max':>6}")
    for kind, methods in rows.items():
        figures = "   ".join(
            f"{len(v):>6}" + "".join(f"{f:>{w}.2f}" for f, w in zip((min(v), statistics.median(v), max(v)), (6, 8, 6)))
            for v in (methods["old"], methods["new"])
        )
        print(f"{kind:<14}{figures}")
    print(
        f"classes whose copy was judged: old {judged['old']}/{classes}, new {judged['new']}/{classes} (the rest: "
        "the page says the copied program is too short to judge)"
    )
    print(
        f"the copy ranked above every independent pair: old {ranked['old']}/{judged['old']}, "
        f"new {ranked['new']}/{judged['new']}"
    )


def speed(submissions: int) -> None:
    from judge.courses.similarity import similar_pairs

    rng = random.Random(7)
    codes = {f"student{i}": program(rng) for i in range(submissions)}
    started = time.perf_counter()
    report = similar_pairs(codes, "import numpy as np\n")
    took = time.perf_counter() - started
    started = time.perf_counter()
    old = old_scores(codes, "import numpy as np\n") if submissions <= 100 else None
    old_took = time.perf_counter() - started
    comparisons = submissions * (submissions - 1) // 2
    print(
        f"Speed: {submissions} submissions ({comparisons:,} pairs), mean {sum(map(len, codes.values())) // len(codes)} "
        f"characters: new {took:.2f} s (top pair {report.pairs[0].similarity:.2f})"
        + (f", old {old_took:.2f} s (every pair compared)" if old is not None else "")
        + f"; load {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")
    os.environ.setdefault("JUDGE_TEST", "1")
    import django

    django.setup()
    quality()
    speed(args.submissions)


if __name__ == "__main__":
    main()
