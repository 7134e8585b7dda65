"""NumPy's type checks and NaN/inf cleaning (``iscomplexobj``, ``isrealobj``,
``iscomplex``, ``isreal``, ``real_if_close``, ``nan_to_num``) and CuPy's
``get_array_module``.

The ``*obj`` checks look at the dtype only, so they answer on the host
without touching the data; the others compute on the device (``real_if_close``
waits for one bool, whether every imaginary part is small enough)."""

import sys

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import copy as _copy
from ._core._views import check_array
from ._core._kernels import compiled_together
from .creation import ones_like, zeros_like
from .reduction import all as _all
from .searching import where

__all__ = ["common_type", "iscomplexobj", "isrealobj", "iscomplex", "isreal", "real_if_close", "nan_to_num",
           "get_array_module"]


def _dtype_of(x):
    if isinstance(x, usm_ndarray):
        return x.dtype
    dt = getattr(x, "dtype", None)   # NumPy arrays and scalars, other arrays
    if dt is not None:
        try:
            return np.dtype(dt)
        except TypeError:
            pass
    return np.asarray(x).dtype       # Python scalars and sequences


def common_type(*arrays):
    """The NumPy scalar type (``numpy.float64``, ``numpy.complex64``, ...)
    every array converts to as an inexact type, as ``numpy.common_type``
    (integers count as float64): a dtype question, answered from dtypes."""
    dts = []
    for a in arrays:
        if not isinstance(a, (usm_ndarray, np.ndarray)):
            raise TypeError(f"common_type: expected arrays, got {type(a).__name__}")
        dts.append(np.dtype(a.dtype))
    return np.common_type(*(np.empty(0, dt) for dt in dts))


def iscomplexobj(x):
    """Whether `x` has a complex dtype, as ``numpy.iscomplexobj``.

    Parameters
    ----------
    x : usm_ndarray, NumPy array or scalar
        The object to check; only its dtype is looked at.

    Returns
    -------
    bool
        True for complex64 and complex128, whatever the values.
    """
    return _dtype_of(x).kind == "c"


def isrealobj(x):
    """Whether `x` has a dtype that is not complex, as ``numpy.isrealobj``.

    Parameters
    ----------
    x : usm_ndarray, NumPy array or scalar
        The object to check; only its dtype is looked at.

    Returns
    -------
    bool
        ``not iscomplexobj(x)``.
    """
    return not iscomplexobj(x)


def iscomplex(x):
    """Where the imaginary part is non-zero, as ``numpy.iscomplex``.

    Parameters
    ----------
    x : usm_ndarray
        The array.

    Returns
    -------
    usm_ndarray
        Bool array of `x`'s shape (all False for a real dtype).
    """
    check_array(x, "iscomplex")
    if x.dtype.kind != "c":
        return zeros_like(x, dtype=_dtypes.bool)
    return ew.not_equal(x.imag, 0)


def isreal(x):
    """Where the imaginary part is zero, as ``numpy.isreal``.

    Parameters
    ----------
    x : usm_ndarray
        The array.

    Returns
    -------
    usm_ndarray
        Bool array of `x`'s shape (all True for a real dtype).
    """
    check_array(x, "isreal")
    if x.dtype.kind != "c":
        return ones_like(x, dtype=_dtypes.bool)
    return ew.equal(x.imag, 0)


def real_if_close(a, tol=100):
    """The real part if every imaginary part is close to zero, as ``numpy.real_if_close``.

    Parameters
    ----------
    a : usm_ndarray
        The array.
    tol : float
        Above 1: in machine epsilons of `a`'s dtype; otherwise an absolute
        tolerance. Imaginary parts must be below it (strictly).

    Returns
    -------
    usm_ndarray
        ``real(a)`` when `a` is complex and all its imaginary parts are within
        `tol`, else `a` itself. The host waits for that one answer.
    """
    check_array(a, "real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if bool(_all(ew.less(ew.abs(a.imag), tol))):
        return a.real   # (a view, as NumPy's)
    return a


def _fix(d, nan, posinf, neginf):
    """`d` (real floating) with NaN, +inf and -inf replaced (a new array)."""
    r = where(ew.isnan(d), nan, d)
    r = where(ew.equal(d, float("inf")), posinf, r)
    return where(ew.equal(d, float("-inf")), neginf, r)


@compiled_together
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by numbers, as ``numpy.nan_to_num``.

    Parameters
    ----------
    x : usm_ndarray
        The array. Integer and bool arrays come back unchanged (copied if
        `copy`).
    copy : bool
        False: replace in `x` itself (and return it).
    nan : float
        The value for NaN.
    posinf, neginf : float, optional
        The values for +inf and -inf; by default the largest and the most
        negative finite number of the dtype. Complex arrays have the real and
        imaginary parts replaced separately.

    Returns
    -------
    usm_ndarray
        The array of `x`'s dtype and shape.
    """
    check_array(x, "nan_to_num")
    out = _copy(x) if copy else x
    if x.dtype.kind not in "fc":
        return out
    info = _dtypes.finfo(x.real.dtype)
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf
    # (a complex array's real and imaginary parts are writable views of it)
    for d in (out.real, out.imag) if x.dtype.kind == "c" else (out,):
        d[...] = _fix(d, nan, posinf, neginf)
    return out


def get_array_module(*args):
    """The array module of the arguments, as ``cupy.get_array_module``.

    Parameters
    ----------
    *args
        Any objects.

    Returns
    -------
    module
        ``usmarray`` if any argument is a usm_ndarray, else ``numpy``: code
        written as ``xp = ua.get_array_module(x)`` then ``xp.sum(x)`` runs on
        either.
    """
    for a in args:
        if isinstance(a, usm_ndarray):
            return sys.modules[__name__.rpartition(".")[0]]
    return np
