import os

# One BLAS thread in the site's own processes (web, workers, manage.py), set before anything imports NumPy:
# OpenBLAS otherwise starts a thread per core in every process, and the checks' small matrix work then
# costs more in waking and spinning those threads than it saves.  The sandbox's children get the same
# (sandbox/backends/process.py, the image's environment).  An operator's own value is kept.
for _variable in (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
):
    os.environ.setdefault(_variable, "1")

from judge.celery import app as celery_app  # noqa: E402  (after the thread limits)

__all__ = ["celery_app"]
