"""What the key/value cache saves: decode_with_kv_cache's reference beside recomputing the prefix.

Decodes with the problem's reference (one position per step, cached keys and values) and with its
known-wrong solution that reruns the model over the whole prefix at every step, on the long test's
model shape (4 sequences, 8 prompt tokens, one layer of 4 heads of 32, F = 512) for a few lengths,
single-threaded as in the sandbox, and prints the median times and their ratio. Both return the same
tokens (checked). The long test itself (600 new tokens) is timed for the cached decoder only; the
recomputing one's time there is extrapolated from its one-step cost at the full length (cubic growth).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/decode_cache.py [--runs 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

import numpy as np

PACKAGE = Path(__file__).resolve().parent.parent / "problems" / "decode_with_kv_cache"


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_seconds(function, runs: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(runs):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    generator, cached = load(PACKAGE / "generator.py", "generator"), load(PACKAGE / "solution.py", "cached")
    recomputing = load(PACKAGE / "wrong" / "recomputes_the_prefix.py", "recomputing")
    rng = np.random.default_rng(0)
    print(f"{'new tokens':>10} {'cached s':>9} {'recompute s':>11} {'ratio':>6}")
    for wanted in (50, 100, 200):
        prompt, model, n_heads, n_new = generator._random(rng, 4, 8, wanted, 1, 256, 4, 32)
        fast, a = median_seconds(lambda: cached.decode_with_kv_cache(prompt, model, n_heads, n_new), runs)
        slow, b = median_seconds(lambda: recomputing.decode_with_kv_cache(prompt, model, n_heads, n_new), runs)
        assert np.array_equal(a, b), "the two decoders disagree"
        print(f"{n_new:>10} {fast:>9.3f} {slow:>11.3f} {slow / fast:>6.0f}")
    prompt, model, n_heads, n_new = generator._random(rng, 4, 8, 600, 1, 256, 4, 32)
    fast, ids = median_seconds(lambda: cached.decode_with_kv_cache(prompt, model, n_heads, n_new), runs)
    last, _ = median_seconds(lambda: recomputing.next_token_logits(ids[:, :-1], model, n_heads), runs)
    estimate = last * (n_new + 8) / 3  # the steps' cost grows with the square of their length
    print(
        f"long test: cached {fast:.2f} s; recomputing: last step {last:.2f} s, whole run about {estimate:.0f} s "
        f"({estimate / fast:.0f}x)"
    )


if __name__ == "__main__":
    main()
