"""CuPy's legacy conveniences (``cupy.random.rand`` and friends) as thin
wrappers of one module-wide :class:`Generator`, reseeded by :func:`seed`."""

import os
import threading

import numpy as np

from ._generator import Generator
from ._philox import Philox

__all__ = ["rand", "randn", "randint", "random_sample", "seed", "random", "ranf", "sample"]

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


random = ranf = sample = random_sample   # (CuPy's and NumPy's other names of it)

# CuPy's module-level distributions: the module-wide generator's methods
# (cupy.random.normal(...) is RandomState.normal of the global state).
_METHODS = ("uniform", "normal", "standard_normal", "lognormal", "exponential",
            "standard_exponential", "gamma", "standard_gamma", "beta", "poisson", "binomial",
            "choice", "permutation", "shuffle", "bytes", "laplace", "logistic", "gumbel",
            "weibull", "pareto", "power", "rayleigh", "standard_cauchy", "chisquare",
            "standard_t", "f", "triangular", "geometric", "negative_binomial", "dirichlet",
            "multivariate_normal", "multinomial")


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(_gen(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``Generator.{name}`` of the module-wide generator (CuPy's "
                 f"``cupy.random.{name}``; reseeded by :func:`seed`).")
    return f


for _name in _METHODS:
    globals()[_name] = _module_function(_name)
__all__ += list(_METHODS)
