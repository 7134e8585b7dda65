"""Comparing arrays as wholes: ``allclose`` (dpctl.tensor's symmetric rule), NumPy's
``isclose``, ``allclose`` and ``array_equal``, and the closeness mask they share."""

from . import elementwise as ew
from ._core._array import usm_ndarray
from ._core._device import ExecutionPlacementError
from ._core._kernels import compiled_together
from .creation import as_pair
from .reduction import all as _all

__all__ = ["allclose", "close_mask", "isclose", "numpy_allclose", "array_equal"]


def close_mask(a1, a2, atol, rtol, equal_nan, numpy_rule=False, what="allclose"):
    """Boolean usm_ndarray: where `a1` and `a2` (usm_ndarrays) are close.

    ``numpy_rule=False``: dpctl.tensor's rule,
    ``abs(a1 - a2) <= max(atol, rtol * max(abs(a1), abs(a2)))``, integers and
    bools compared exactly. ``numpy_rule=True``: NumPy's (asymmetric) rule,
    ``abs(a1 - a2) <= atol + rtol * abs(a2)``. Either way, equal infinities
    are close and NaNs are close to NaNs only with `equal_nan`.
    """
    if not isinstance(a1, usm_ndarray) or not isinstance(a2, usm_ndarray):
        raise TypeError(f"{what}: expected two usm_ndarrays, got "
                        f"{type(a1).__name__} and {type(a2).__name__}")
    if a1.sycl_queue != a2.sycl_queue:
        raise ExecutionPlacementError(f"{what}: the arrays are bound to different SYCL queues")
    atol, rtol = float(atol), float(rtol)
    if not numpy_rule and (atol < 0 or rtol < 0):
        raise ValueError(f"{what}: atol and rtol must be non-negative")
    if a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        if not numpy_rule:
            return ew.equal(a1, a2)
        # NumPy compares integers in floating point (rtol * abs(b) is a float)
        a1, a2 = ew.multiply(a1, 1.0), ew.multiply(a2, 1.0)
    finite = ew.logical_and(ew.isfinite(a1), ew.isfinite(a2))
    diff = ew.abs(ew.subtract(a1, a2))
    if numpy_rule:
        bound = ew.add(ew.multiply(ew.abs(a2), rtol), atol)
    else:
        bound = ew.maximum(ew.multiply(ew.maximum(ew.abs(a1), ew.abs(a2)), rtol), atol)
    close = ew.less_equal(diff, bound)
    # infinite (or NaN) pairs: close only when identical infinities
    same_inf = ew.logical_and(ew.logical_not(finite), ew.equal(a1, a2))
    close = ew.logical_or(ew.logical_and(finite, close), same_inf)
    if equal_nan:
        close = ew.logical_or(close, ew.logical_and(ew.isnan(a1), ew.isnan(a2)))
    return close


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
    a, b = as_pair("isclose", a, b)
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
