from __future__ import annotations

import numpy as np

from judge.lib.sandbox_backend import PROCESS_WARNING, resolve_backend_cached


def sandbox(request) -> dict:
    backend = resolve_backend_cached()
    return {
        "sandbox_backend": backend,
        "sandbox_warning": PROCESS_WARNING if backend == "process" else "",
        "numpy_version": np.__version__,
    }
