"""What "Download my work" holds in memory: the git-in-a-zip writer (judge/lib/gitzip.py) fed N Submits of
``--code-kb`` each over ``--problems`` problems, its output drained as it goes (as the download does).  Prints, for
each N, the peak of Python's traced memory (and per Submit), the zip's size and the time (a run without tracing).
The peak grows with the number of zip members and object names (the zip's directory is written last), not with
the code: each Submit's code is written and handed out before the next is read.

    .venv/bin/python bench/export_memory.py [--submits 500 2000 8000] [--problems 60] [--code-kb 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.lib.gitzip import GitZip, Person


def export(submits: int, problems: int, code_kb: int, traced: bool) -> tuple[int, int, float]:
    rng = random.Random(submits)
    start = datetime(2026, 1, 5, tzinfo=UTC)
    author = Person("ada", "")
    if traced:
        tracemalloc.start()
    began, size = time.perf_counter(), 0
    repo = GitZip("npjudge-ada", start)
    for n in range(submits):
        slug = f"problem_{rng.randrange(problems):02d}"
        code = f"# submit {n}\n".encode() + rng.randbytes(code_kb * 512).hex().encode()
        accepted = rng.random() < 0.4
        repo.put(f"{slug}/solution.py" if accepted else f"{slug}/attempt.py", code)
        repo.commit(author, start + timedelta(minutes=n), f"{slug}: {'Accepted' if accepted else 'Wrong answer'}")
        size += len(repo.drain())
    size += len(repo.finish([]))
    seconds = time.perf_counter() - began
    if not traced:
        return 0, size, seconds
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, size, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submits", type=int, nargs="+", default=[500, 2000, 8000])
    parser.add_argument("--problems", type=int, default=60)
    parser.add_argument("--code-kb", type=int, default=2)
    args = parser.parse_args()
    print(f"{'submits':>8} {'peak MB':>8} {'KB/submit':>9} {'zip MB':>8} {'s':>6}  (time untraced)")
    for submits in args.submits:
        peak, size, _ = export(submits, args.problems, args.code_kb, traced=True)
        _, _, seconds = export(submits, args.problems, args.code_kb, traced=False)
        print(f"{submits:>8} {peak / 1e6:>8.2f} {peak / submits / 1e3:>9.2f} {size / 1e6:>8.2f} {seconds:>6.2f}")


if __name__ == "__main__":
    main()
