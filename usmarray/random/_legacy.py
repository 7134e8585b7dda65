"""CuPy's legacy conveniences (``cupy.random.rand`` and friends) as thin
wrappers of one module-wide :class:`Generator`, reseeded by :func:`seed`."""

import os
import threading

import numpy as np

from ._generator import Generator
from ._philox import Philox

__all__ = ["rand", "randn", "randint", "random_sample", "seed"]

_state = {"gen": None}
_lock = threading.Lock()


def _fresh_lock_in_child():
    global _lock
    _lock = threading.Lock()   # (one held by another thread at a fork never frees there)


os.register_at_fork(after_in_child=_fresh_lock_in_child)


def _gen():
    with _lock:
        if _state["gen"] is None:
            _state["gen"] = Generator(Philox())
        return _state["gen"]


def seed(seed=None):
    """Reseed the module-wide generator (fresh entropy for None)."""
    with _lock:
        _state["gen"] = Generator(Philox(seed))


def random_sample(size=None, dtype=float):
    """Floats in [0, 1) (``Generator.random``)."""
    return _gen().random(size, dtype=np.dtype(dtype))


def rand(*size, dtype=float):
    """Floats in [0, 1) of shape `size` given as separate arguments."""
    return random_sample(size, dtype)


def randn(*size, dtype=float):
    """Standard normal floats of shape `size` given as separate arguments."""
    return _gen().standard_normal(size, dtype=np.dtype(dtype))


def randint(low, high=None, size=None, dtype=int):
    """Integers in [low, high) ([0, low) without `high`)."""
    return _gen().integers(low, high, size, dtype=np.dtype(dtype))
