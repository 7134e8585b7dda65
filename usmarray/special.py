"""NumPy's special functions made of elementwise operations: ``sinc``."""

import math

import numpy as np

from . import elementwise as ew
from ._core._array import usm_ndarray
from .searching import where

__all__ = ["sinc"]


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0, as ``numpy.sinc`` (integers in the
    default float type; at 0 NumPy's way: the quotient at pi x = eps)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"sinc: expected a usm_ndarray, got {type(x).__name__}")
    y = ew.multiply(x, math.pi)
    eps = float(np.finfo(y.dtype).eps) if y.dtype.kind == "f" else 1e-20
    y = where(ew.not_equal(y, 0), y, eps)
    return ew.divide(ew.sin(y), y)
