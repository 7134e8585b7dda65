"""NumPy's elementwise functions made of the table's operations: ``sinc``,
``divmod`` and ``modf`` (ufuncs in NumPy, of two results for the last
two)."""

import math

import numpy as np

from . import elementwise as ew
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._exceptions import DTypeError
from .searching import where

__all__ = ["sinc", "divmod", "modf"]


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0, as ``numpy.sinc`` (integers in the
    default float type; at 0 NumPy's way: the quotient at pi x = eps)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"sinc: expected a usm_ndarray, got {type(x).__name__}")
    y = ew.multiply(x, math.pi)
    eps = float(np.finfo(y.dtype).eps) if y.dtype.kind == "f" else 1e-20
    y = where(ew.not_equal(y, 0), y, eps)
    return ew.divide(ew.sin(y), y)


def divmod(x1, x2, /):
    """``(floor_divide(x1, x2), remainder(x1, x2))``, as ``numpy.divmod``."""
    return ew.floor_divide(x1, x2), ew.remainder(x1, x2)


def modf(x, /):
    """(fractional part, integral part) of each element, both with x's sign,
    as ``numpy.modf`` (C's modf: an infinity's fractional part is a signed
    zero). Integer inputs compute in the float type NumPy picks (int8 ->
    float16, int32 -> float64)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"modf: expected a usm_ndarray, got {type(x).__name__}")
    if x.dtype.kind == "c":
        raise DTypeError("modf does not support complex inputs (as in NumPy)")
    ins, _, _ = ew.OP["sqrt"].resolve((x.dtype,), x._q)   # (the float loop NumPy's takes)
    x = astype(x, ins[0], copy=False)
    ip = ew.trunc(x)
    fp = ew.copysign(where(ew.isinf(x), 0, ew.subtract(x, ip)), x)
    return fp, ip


# (ufunc-like, as the table's functions: their arity)
divmod.nin, divmod.nout = 2, 2
modf.nin, modf.nout = 1, 2
