"""One child runs a Submit's examples and then its hidden tests, and it holds no hidden input while the examples'
feedback (shown in full: messages, printed output) is being made: the hidden inputs reach it only once every
example has been reported, and not at all when the examples end early or at a timeout."""

from __future__ import annotations

import numpy as np

from engine.grading import grade
from engine.spec import Case
from tests.helpers import npy, spec

SECRET = 271828.0  # the hidden inputs hold SECRET + 1, + 2, + 3

# Prints, on every call, the tests it finds anywhere in its memory (the job's decoded test dicts), whether any
# value of the secret is in an array it can find, and which of its pipes have something to read (0-2: /dev/null).
SPY = """
import gc, os, select
import numpy as np

def f(x):
    tests = sorted({o["name"] for o in gc.get_objects() if type(o) is dict and "args" in o and "name" in o})
    secret = any(isinstance(v, bytes) and np.float64(271829.0).tobytes() in v
                 for o in gc.get_objects() if type(o) is dict and "args" in o for v in o["args"].values())
    readable = []
    for fd in sorted(map(int, os.listdir("/proc/self/fd")))[3:]:
        try:
            if select.select([int(fd)], [], [], 0)[0]:
                readable.append(int(fd))
        except (OSError, ValueError):
            pass
    print(tests, secret, readable)
    return x * 2
"""


def cases() -> list[Case]:
    shown = [
        Case(f"example_{i}", False, {"x": npy(np.full((2, 2), float(i)))}, npy(np.full((2, 2), 2.0 * i)))
        for i in (1, 2)
    ]
    hidden = [
        Case(f"hidden_{i}", True, {"x": npy(np.full((3, 3), SECRET + i))}, npy(np.full((3, 3), 2 * (SECRET + i))))
        for i in (1, 2, 3)
    ]
    return shown + hidden


def test_the_examples_run_with_no_hidden_input_in_reach(process_sandbox):
    report = grade(SPY, spec(), cases(), process_sandbox)
    assert report.verdict == "accepted"
    assert [t.name for t in report.tests] == ["example_1", "example_2", "hidden_1", "hidden_2", "hidden_3"]
    for test in report.tests[:2]:
        assert test.stdout == "['example_1', 'example_2'] False []\n", test.stdout


def test_an_example_that_loops_keeps_the_hidden_tests_from_running(process_sandbox):
    loops = "import numpy as np\n\ndef f(x):\n    while x[0, 0] == 2.0:\n        pass\n    return x * 2\n"
    report = grade(loops, spec(time_limit_s=0.5), cases(), process_sandbox)
    assert report.verdict == "time_limit_exceeded"
    assert [t.status for t in report.tests] == ["passed", "time_limit_exceeded", "not_run", "not_run", "not_run"]


def test_each_part_has_a_budget_of_its_own(process_sandbox):
    """0.4 s per call against a budget of 1 s: the two examples fit in one budget, the hidden tests fail theirs
    (as two jobs did: the examples' time is not taken from the hidden tests')."""
    slow = "import time\n\ndef f(x):\n    time.sleep(0.4)\n    return x * 2\n"
    report = grade(slow, spec(time_limit_s=2.0, budget_s=1.0), cases(), process_sandbox)
    statuses = [t.status for t in report.tests]
    assert statuses[:4] == ["passed", "passed", "passed", "passed"]
    assert statuses[4] == "time_limit_exceeded"
