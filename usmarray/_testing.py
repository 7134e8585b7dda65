"""allclose, as dpctl.tensor had it."""

from . import elementwise as ew
from ._array import usm_ndarray
from ._device import ExecutionPlacementError
from .reduction import all as _all

__all__ = ["allclose"]


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
    if not isinstance(a1, usm_ndarray) or not isinstance(a2, usm_ndarray):
        raise TypeError("allclose: expected two usm_ndarrays, got "
                        f"{type(a1).__name__} and {type(a2).__name__}")
    if a1.sycl_queue != a2.sycl_queue:
        raise ExecutionPlacementError("allclose: the arrays are bound to different SYCL queues")
    atol, rtol = float(atol), float(rtol)
    if atol < 0 or rtol < 0:
        raise ValueError("allclose: atol and rtol must be non-negative")
    if a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        return bool(_all(ew.equal(a1, a2)))
    finite = ew.logical_and(ew.isfinite(a1), ew.isfinite(a2))
    diff = ew.abs(ew.subtract(a1, a2))
    scale = ew.multiply(ew.maximum(ew.abs(a1), ew.abs(a2)), rtol)
    close = ew.less_equal(diff, ew.maximum(scale, atol))
    # infinite (or NaN) pairs: close only when identical infinities
    same_inf = ew.logical_and(ew.logical_not(finite), ew.equal(a1, a2))
    close = ew.logical_or(ew.logical_and(finite, close), same_inf)
    if equal_nan:
        close = ew.logical_or(close, ew.logical_and(ew.isnan(a1), ew.isnan(a2)))
    return bool(_all(close))
