"""Intra-op thread pools (NumPy's OpenBLAS, torch), set deliberately rather than left to defaults.

``deid detect`` runs one worker process per core (see ``deid_core.forked.detect_in_processes``); each
must then compute on one thread. Left alone, every process's BLAS (and torch) would start a pool of one
thread per core, and pools that spin-wait fight over the same cores: on the 2-core development machine,
with one core taken by another process, torch's default 2 threads tagged 516k characters in 138 s
against 5.5 s with 1 thread. So the detect path gives each worker ``cores // workers`` threads.

Environment variables reach libraries loaded later (and child processes); a library already loaded is
told directly: OpenBLAS through its ``openblas_set_num_threads`` entry point, torch through
``torch.set_num_threads``. torch is never imported here.
"""

from __future__ import annotations

import os
import sys

THREAD_ENV_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_OPENBLAS_SETTERS = ("openblas_set_num_threads64_", "openblas_set_num_threads", "openblas_set_num_threads_64_")
_OPENBLAS_GETTERS = ("openblas_get_num_threads64_", "openblas_get_num_threads", "openblas_get_num_threads_64_")


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, which containers and taskset narrow)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _loaded_openblas() -> list[str]:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    except OSError:
        return []
    return sorted(p for p in paths if os.path.exists(p))


def _set_openblas_threads(n: int) -> bool:
    import ctypes

    done = False
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in _OPENBLAS_SETTERS:
            setter = getattr(lib, name, None)
            if setter is not None:
                setter.argtypes = [ctypes.c_int]
                setter(n)
                done = True
                break
    return done


def limit_threads(n: int) -> None:
    """Give BLAS and torch ``n`` intra-op threads in this process (and its future children)."""
    n = max(1, int(n))
    for var in THREAD_ENV_VARS:
        os.environ[var] = str(n)
    if "numpy" in sys.modules:
        _set_openblas_threads(n)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)


def blas_threads() -> int | None:
    """The thread count of the loaded OpenBLAS, or None where none with a getter is loaded."""
    import ctypes

    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in _OPENBLAS_GETTERS:
            getter = getattr(lib, name, None)
            if getter is not None:
                getter.restype = ctypes.c_int
                return int(getter())
    return None
