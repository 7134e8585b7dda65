"""CuPy's legacy API: ``RandomState`` (``cupy.random.RandomState``, NumPy's
``numpy.random.RandomState`` names) over a :class:`Generator`, and the
module-level functions (``cupy.random.rand`` and friends) as the methods of
one module-wide RandomState, reseeded by :func:`seed`.

Its values are not NumPy's RandomState's (that draws from MT19937, which is
not counter-based): they are this package's Generator's on a Philox of the
same seed."""

import os
import sys
import threading

import numpy as np

from ._generator import Generator
from ._philox import Philox

__all__ = ["RandomState", "get_random_state", "set_random_state", "reset_states", "seed",
           "rand", "randn", "randint", "random_integers", "random_sample", "random", "ranf",
           "sample", "tomaxint"]

# The distributions a RandomState draws as its Generator does (the same
# arguments, in NumPy's legacy order)
_METHODS = ("uniform", "normal", "standard_normal", "lognormal", "exponential",
            "standard_exponential", "gamma", "standard_gamma", "beta", "poisson", "binomial",
            "choice", "permutation", "shuffle", "bytes", "laplace", "logistic", "gumbel",
            "weibull", "pareto", "power", "rayleigh", "standard_cauchy", "chisquare",
            "standard_t", "f", "triangular", "geometric", "negative_binomial", "dirichlet",
            "multivariate_normal", "multinomial", "vonmises", "wald", "zipf", "logseries",
            "hypergeometric", "noncentral_chisquare", "noncentral_f",
            "multivariate_hypergeometric")


class RandomState:
    """CuPy's ``RandomState``: NumPy's legacy method names (``rand``,
    ``randn``, ``randint``, ``random_sample``, ``random_integers``,
    ``tomaxint``, ``seed`` and the distributions) on a :class:`Generator`
    over ``Philox(seed)``.

    Parameters
    ----------
    seed : None, int, array of ints or SeedSequence
        As :class:`Philox` takes it; None draws fresh entropy.

    Notes
    -----
    Every method takes the Generator's ``dtype``, ``device``,
    ``sycl_queue`` and ``usm_type`` keywords where the Generator's does.
    """

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        """Restart the stream from `seed` (fresh entropy for None)."""
        self._generator = Generator(Philox(seed))

    @property
    def generator(self):
        """The :class:`Generator` the methods draw from."""
        return self._generator

    def __repr__(self):
        return f"RandomState(Philox) at {id(self):#x}"

    def random_sample(self, size=None, dtype=float, **place):
        """Floats in [0, 1) (``Generator.random``)."""
        return self._generator.random(size, dtype=np.dtype(dtype), **place)

    random = ranf = sample = random_sample

    def rand(self, *size, dtype=float, **place):
        """Floats in [0, 1) of shape `size` given as separate arguments."""
        return self.random_sample(size, dtype, **place)

    def randn(self, *size, dtype=float, **place):
        """Standard normal floats of shape `size` given as separate arguments."""
        return self._generator.standard_normal(size, dtype=np.dtype(dtype), **place)

    def randint(self, low, high=None, size=None, dtype=int, **place):
        """Integers in [low, high) ([0, low) without `high`)."""
        return self._generator.integers(low, high, size, dtype=np.dtype(dtype), **place)

    def random_integers(self, low, high=None, size=None, **place):
        """Integers in [low, high], both ends included ([1, low] without
        `high`), as NumPy's deprecated ``random_integers``."""
        if high is None:
            low, high = 1, low
        return self._generator.integers(low, high, size, dtype=np.int64, endpoint=True, **place)

    def tomaxint(self, size=None, **place):
        """Integers in [0, sys.maxsize] (int64)."""
        return self._generator.integers(0, sys.maxsize, size, dtype=np.int64, endpoint=True,
                                        **place)

    def interval(self, mx, size=None, **place):
        """CuPy's ``interval``: integers in [0, mx] (int64)."""
        return self._generator.integers(0, mx, size, dtype=np.int64, endpoint=True, **place)


def _delegate(name):
    def method(self, *args, **kwargs):
        return getattr(self._generator, name)(*args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"RandomState.{name}"
    method.__doc__ = f"``Generator.{name}`` of this state's generator."
    return method


for _name in _METHODS:
    setattr(RandomState, _name, _delegate(_name))


# ------------------------------------------------------ the module-wide state
_state = {"rs": None}
_lock = threading.Lock()


def _fresh_lock_in_child():
    global _lock
    _lock = threading.Lock()   # (one held by another thread at a fork never frees there)


os.register_at_fork(after_in_child=_fresh_lock_in_child)


def get_random_state():
    """The module-wide :class:`RandomState` the module-level functions draw
    from (made on first use, from fresh entropy)."""
    with _lock:
        if _state["rs"] is None:
            _state["rs"] = RandomState()
        return _state["rs"]


def set_random_state(rs):
    """Make `rs` (a :class:`RandomState`) the module-wide state."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"expected a usmarray.random.RandomState, got {type(rs).__name__}")
    with _lock:
        _state["rs"] = rs


def reset_states():
    """Forget the module-wide state (the next draw makes a fresh one)."""
    with _lock:
        _state["rs"] = None


def seed(seed=None):
    """Reseed the module-wide state (fresh entropy for None)."""
    get_random_state().seed(seed)


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``RandomState.{name}`` of the module-wide state (CuPy's "
                 f"``cupy.random.{name}``; reseeded by :func:`seed`).")
    return f


for _name in ("rand", "randn", "randint", "random_integers", "random_sample", "tomaxint") \
        + _METHODS:
    globals()[_name] = _module_function(_name)
random = ranf = sample = random_sample   # noqa: F821 (CuPy's and NumPy's other names of it)
__all__ += list(_METHODS)
