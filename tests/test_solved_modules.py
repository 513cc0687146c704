"""In the sandbox, a submission imports earlier problems' code: ``from solved import layer_norm``."""

from __future__ import annotations

import numpy as np

from engine.grading import grade
from tests.helpers import one_case, spec

X = np.array([[1.0, 2.0, 3.0]])
DOUBLE = "import numpy as np\n\ndef double(x):\n    return 2.0 * np.asarray(x)\n"
USES_DOUBLE = "from solved import double\n\ndef f(x):\n    return double(x)\n"


def run(code: str, sandbox, solved: dict[str, str] | None, expected=X * 2):
    return grade(code, spec(), one_case(X, expected), sandbox, solved=solved)


def test_a_submission_imports_the_function_of_an_earlier_problem_from_solved(process_sandbox):
    assert run(USES_DOUBLE, process_sandbox, {"double": DOUBLE}).verdict == "accepted"


def test_without_the_module_the_import_fails_while_loading(process_sandbox):
    report = run(USES_DOUBLE, process_sandbox, None)
    assert report.verdict == "runtime_error"
    assert "your module raised ModuleNotFoundError while loading" in report.message


def test_a_solved_module_may_import_the_ones_before_it(process_sandbox):
    quadruple = "from solved import double\n\ndef quadruple(x):\n    return double(double(x))\n"
    code = "from solved import quadruple\n\ndef f(x):\n    return quadruple(x)\n"
    report = run(code, process_sandbox, {"double": DOUBLE, "quadruple": quadruple}, expected=X * 4)
    assert report.verdict == "accepted"


def test_a_solved_module_that_fails_while_loading_is_named_in_the_message(process_sandbox):
    broken = "import numpy as np\nraise ValueError('bad start')\n\ndef double(x):\n    return x\n"
    report = run(USES_DOUBLE, process_sandbox, {"double": broken})
    assert report.verdict == "runtime_error"
    assert report.message == "your accepted solution of double raised ValueError while loading: bad start"
    assert report.line is None  # not a line of the submission: the editor marks nothing


def test_a_solved_module_without_its_function_is_named_in_the_message(process_sandbox):
    report = run(USES_DOUBLE, process_sandbox, {"double": "def twice(x):\n    return x\n"})
    assert report.message == (
        "your accepted solution of double raised ImportError while loading: it defines no function named double"
    )


def test_a_traceback_through_a_solved_function_marks_its_frames_as_the_earlier_problem(process_sandbox):
    failing = "import numpy as np\n\ndef double(x):\n    return np.reshape(x, (7, 7))\n"
    report = run(USES_DOUBLE, process_sandbox, {"double": failing})
    frames = report.tests[0].traceback
    assert [(f["line"], f["function"], f.get("module", "")) for f in frames] == [(4, "f", ""), (4, "double", "double")]
    assert frames[1]["text"] == "return np.reshape(x, (7, 7))"
    assert report.tests[0].message.endswith("(line 4 of your accepted double, which this code imports)")


def test_solved_modules_run_under_the_job_limits(process_sandbox):
    slow = "import time\ntime.sleep(30)\n\ndef double(x):\n    return x\n"
    report = grade(USES_DOUBLE, spec(time_limit_s=0.5), one_case(X, X * 2), process_sandbox, solved={"double": slow})
    assert report.verdict == "time_limit_exceeded"


def test_the_docker_sandbox_imports_solved_modules_too(docker_sandbox):
    assert run(USES_DOUBLE, docker_sandbox, {"double": DOUBLE}).verdict == "accepted"
    report = run(USES_DOUBLE, docker_sandbox, {"double": "raise ValueError('bad start')\n"})
    assert report.message == "your accepted solution of double raised ValueError while loading: bad start"
