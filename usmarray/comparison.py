"""Comparing arrays as wholes: ``allclose`` (dpctl.tensor's symmetric rule), NumPy's
``isclose``, ``allclose``, ``array_equal`` and ``array_equiv``, and the closeness mask
they share."""

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._device import ExecutionPlacementError
from ._core._layout import broadcast_shapes
from ._core._kernels import compiled_together
from .creation import as_pair, asarray
from .reduction import all as _all
from .user_kernels import ElementwiseKernel, device_items, warm_up

__all__ = ["allclose", "close_mask", "isclose", "numpy_allclose", "array_equal", "array_equiv"]


# One kernel for both rules (a flag picks one): the composition of table
# operations it replaces ran 13 kernels over the data. P is the type the
# difference is taken in, Y the second operand's (NumPy's rule computes the
# bound from y in y's type), R their real type for the tolerances.
_CLOSE = ElementwiseKernel(
    "P x, Y y, R rtol, R atol, bool equal_nan, bool numpy_rule", "bool z", r"""
const P yp = static_cast<P>(y);
if (numpy_rule) {
  z = (usmk::abs_(x - yp) <= atol + rtol * usmk::abs_(y) && usmk::isfinite_(y)) || x == yp;
} else if (usmk::isfinite_(x) && usmk::isfinite_(y)) {
  const auto ax = usmk::abs_(x), ay = usmk::abs_(yp);
  const R m = rtol * static_cast<R>(ax > ay ? ax : ay);
  z = usmk::abs_(x - yp) <= (m > atol ? m : atol);
} else {
  z = x == yp;
}
if (equal_nan && usmk::isnan_(x) && usmk::isnan_(y)) z = true;
""", "usmarray_close")


def _real(dt):
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _warm(qi):
    """Register the kernel for each inexact type the device has (both
    operands of one type), so that ``usmarray warmup`` compiles it."""
    for d, one in device_items(qi, _dtypes.REAL_FLOATING + _dtypes.COMPLEX):
        r = _real(d).type(0)
        _CLOSE.source(one, one, r, r, False, False)


warm_up(_warm, _CLOSE)


def _is_number(v):
    return isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic)


def _tolerance(v, r, qi):
    """A tolerance as a scalar of the real type `r`, or (array_like) a
    usm_ndarray of it, which broadcasts with the operands as NumPy's does."""
    if isinstance(v, usm_ndarray) or (not _is_number(v) and np.ndim(v) > 0):
        return astype(asarray(v, sycl_queue=qi.queue), r, copy=False)
    try:
        return r.type(v)
    except (TypeError, ValueError):
        raise TypeError(f"tolerances must be real numbers, got {v!r}") from None


def close_mask(a1, a2, atol, rtol, equal_nan, numpy_rule=False, what="allclose"):
    """Boolean usm_ndarray: where `a1` and `a2` are close (one of them a
    usm_ndarray; the other may be a Python number or array_like).

    ``numpy_rule=False``: dpctl.tensor's rule,
    ``abs(a1 - a2) <= max(atol, rtol * max(abs(a1), abs(a2)))``, integers and
    bools compared exactly, in the type of ``a1 - a2``. ``numpy_rule=True``:
    NumPy's (asymmetric) rule and types, ``abs(a1 - a2) <= atol + rtol *
    abs(a2)`` in the type of a2 made inexact, or equal. Either way equal
    infinities are close and NaNs are close to NaNs only with `equal_nan`.
    """
    arrays = [v for v in (a1, a2) if isinstance(v, usm_ndarray)]
    if len(arrays) < (1 if numpy_rule else 2):   # (dpctl.tensor's allclose takes two)
        raise TypeError(f"{what}: expected usm_ndarrays, got "
                        f"{type(a1).__name__} and {type(a2).__name__}")
    qi = arrays[0]._q
    if len(arrays) == 2 and a1.sycl_queue != a2.sycl_queue:
        raise ExecutionPlacementError(f"{what}: the arrays are bound to different SYCL queues")
    # Python numbers stay weak (NEP 50), as in NumPy's formula; anything
    # else becomes an array on the other operand's queue
    a1, a2 = (v if isinstance(v, usm_ndarray) or _is_number(v)
              else asarray(v, sycl_queue=qi.queue) for v in (a1, a2))
    if numpy_rule:
        if isinstance(a2, usm_ndarray):
            y_dt = np.result_type(a2.dtype, 1.0)
            p_dt = np.result_type(a1.dtype if isinstance(a1, usm_ndarray) else a1, y_dt)
        else:
            # (NumPy's y stays a Python float: x - y in x's type made inexact)
            p_dt = y_dt = np.result_type(a1.dtype, float(a2) if isinstance(a2, int) else a2, 1.0)
    else:
        atol, rtol = float(atol), float(rtol)
        if atol < 0 or rtol < 0:
            raise ValueError(f"{what}: atol and rtol must be non-negative")
        if a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
            return ew.equal(a1, a2)
        ins, _, _ = ew.OP["subtract"].resolve((a1.dtype, a2.dtype), qi)
        p_dt = y_dt = ins[0]
    p_dt = _dtypes.device_dtype(_dtypes.to_dtype(p_dt), qi)
    y_dt = _dtypes.device_dtype(_dtypes.to_dtype(y_dt), qi)
    x = astype(a1, p_dt, copy=False) if isinstance(a1, usm_ndarray) else p_dt.type(a1)
    y = astype(a2, y_dt, copy=False) if isinstance(a2, usm_ndarray) else y_dt.type(a2)
    r = _real(y_dt)
    return _CLOSE(x, y, _tolerance(rtol, r, qi), _tolerance(atol, r, qi), bool(equal_nan),
                  bool(numpy_rule))


@compiled_together
def allclose(a1, a2, /, atol=1e-8, rtol=1e-5, equal_nan=False):
    """Whether two arrays are equal within tolerances, element by element.

    As dpctl.tensor's ``allclose`` (not NumPy's formula): elements are close
    when ``abs(a1 - a2) <= max(atol, rtol * max(abs(a1), abs(a2)))``; equal
    infinities are close; NaNs are close to NaNs only with ``equal_nan``.
    Integer and bool arrays are compared exactly. The arrays broadcast.

    Returns
    -------
    bool
        A Python bool (the host waits for the comparison).
    """
    return bool(_all(close_mask(a1, a2, atol, rtol, equal_nan)))


@compiled_together
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Where `a` and `b` are equal within a tolerance, as ``numpy.isclose``.

    NumPy's rule: ``abs(a - b) <= atol + rtol * abs(b)`` (not symmetric);
    equal infinities are close; NaNs only with `equal_nan`.

    Parameters
    ----------
    a, b : usm_ndarray or scalar
        The arrays to compare (they broadcast).
    rtol : float
        Relative tolerance.
    atol : float
        Absolute tolerance.
    equal_nan : bool
        Whether NaN is close to NaN.

    Returns
    -------
    usm_ndarray
        Boolean array of the broadcast shape.
    """
    return close_mask(a, b, atol, rtol, equal_nan, numpy_rule=True, what="isclose")


def numpy_allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.allclose``: ``all(isclose(a, b, rtol, atol, equal_nan))`` as a
    Python bool (``usmarray.allclose`` is dpctl.tensor's symmetric rule)."""
    return bool(_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


@compiled_together
def array_equal(a1, a2, equal_nan=False):
    """Whether two arrays have the same shape and elements, as ``numpy.array_equal``.

    Parameters
    ----------
    a1, a2 : usm_ndarray
        The arrays.
    equal_nan : bool
        Whether NaNs compare equal (at the same positions).

    Returns
    -------
    bool
        A Python bool (the host waits for the comparison).
    """
    a1, a2 = as_pair("array_equal", a1, a2)
    if a1.shape != a2.shape:
        return False
    eq = ew.equal(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = ew.logical_or(eq, ew.logical_and(ew.isnan(a1), ew.isnan(a2)))
    return bool(_all(eq))


@compiled_together
def array_equiv(a1, a2):
    """Whether two arrays are equal after broadcasting, as ``numpy.array_equiv``.

    Parameters
    ----------
    a1, a2 : usm_ndarray
        The arrays (one may be a Python scalar).

    Returns
    -------
    bool
        False when the shapes do not broadcast, else whether every pair of
        elements is equal (a Python bool; the host waits for the comparison).
    """
    a1, a2 = as_pair("array_equiv", a1, a2)
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_all(ew.equal(a1, a2)))
