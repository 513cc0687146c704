"""The judging engine: where verdicts are decided and a problem's test set is built and gated.

No Django models and no database: the site (``judge/``) calls these three entry
points with plain data and stores what they return.  Student and author code
never runs here; it runs in the sandbox (``sandbox/``), and what comes back is
parsed as hostile data.

- ``grade(code, spec, cases, sandbox, solved)`` -> ``GradeReport``   (``engine/grading.py``)
- ``build_cases(package, sandbox)`` -> ``list[Case]``         (``engine/testset.py``)
- ``run_gate(package, sandbox, solved=...)`` -> ``GateOutcome``  (``engine/gate.py``)

After a gate passes, the site draws the pool of hidden cases with its secret seeds
(``add_pool`` in ``engine/pool.py``), and grades each Submit on one draw (``draw_cases``).

``solved`` (slug -> code) is what ``from solved import <slug>`` gives the code in
the sandbox, for a problem that builds on earlier ones (``builds_on``): a
student's own accepted solutions when grading, the references in the gate.

The data types live once: ``Package`` (``package.py``), ``ProblemSpec`` and
``Case`` (``spec.py``), the sandbox's events (``events.py``).
"""

from engine.gate import GateOutcome, run_gate
from engine.grading import GradeReport, grade
from engine.package import Package, PackageError, load_package
from engine.spec import Case, ProblemSpec
from engine.testset import build_cases

__all__ = [
    "Case",
    "GateOutcome",
    "GradeReport",
    "Package",
    "PackageError",
    "ProblemSpec",
    "build_cases",
    "grade",
    "load_package",
    "run_gate",
]
