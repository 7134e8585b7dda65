"""NumPy's logarithmic sequences: ``logspace`` and ``geomspace``, with
NumPy's array-valued ends (a sequence per element of ``start``/``stop``,
along ``axis``). Computed on the device as NumPy computes them: evenly
spaced exponents ``arange(num) * step + start``, then a power."""

import operator

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import empty_array, usm_ndarray
from ._core._copy import astype, broadcast_view
from ._core._device import resolve_queue
from ._core._layout import broadcast_shapes
from ._core._views import moveaxis, normalize_axis, reshape
from ._core._kernels import compiled_together
from .creation import arange, asarray
from .reduction import any as _any
from .searching import where

__all__ = ["logspace", "geomspace"]


def _ends(start, stop, device, usm_type, sycl_queue):
    """start and stop as usm_ndarrays on one queue (Python scalars made there)."""
    arrays = [v for v in (start, stop) if isinstance(v, usm_ndarray)]
    if arrays and device is None and sycl_queue is None:
        q = arrays[0].sycl_queue
    else:
        q = resolve_queue(device, sycl_queue).queue
    ut = usm_type or (arrays[0].usm_type if arrays else "device")
    return tuple(v if isinstance(v, usm_ndarray) else asarray(v, sycl_queue=q, usm_type=ut)
                 for v in (start, stop))


def _float_type(qi, *arrays):
    dt = _dtypes.result_type(*arrays)
    if dt.kind in "fc":
        return dt
    return qi.float


def _spaced(start, stop, num, endpoint, dt):
    """NumPy's linspace of arrays: shape (num,) + the ends' broadcast shape."""
    shape = broadcast_shapes(start.shape, stop.shape)
    start = broadcast_view(astype(start, dt, copy=False), shape)
    stop = broadcast_view(astype(stop, dt, copy=False), shape)
    div = num - 1 if endpoint else num
    steps = reshape(arange(num, dtype=dt, sycl_queue=start.sycl_queue, usm_type=start.usm_type),
                    (num,) + (1,) * len(shape))
    delta = ew.subtract(stop, start)
    if div > 0:
        y = ew.add(ew.multiply(steps, ew.divide(delta, div)), start)
    else:
        y = ew.add(ew.multiply(steps, delta), start)
    if endpoint and num > 1:
        y[-1, ...] = stop
    return y


def _num(num):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return num


@compiled_together
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *,
             device=None, usm_type=None, sycl_queue=None):
    """Numbers spaced evenly on a log scale, as ``numpy.logspace``.

    Parameters
    ----------
    start, stop : scalar or usm_ndarray
        The sequence runs from ``base ** start`` to ``base ** stop``; arrays
        give one sequence per element (broadcast).
    num : int
        Number of samples.
    endpoint : bool
        Whether ``base ** stop`` is the last sample.
    base : float
        The base of the logarithm.
    dtype : dtype, optional
        The result dtype (the power is computed in floating point, then cast).
    axis : int
        Where the samples go in the result when the ends are arrays.
    device, usm_type, sycl_queue
        Where the result is made when neither end is a usm_ndarray.

    Returns
    -------
    usm_ndarray
        Shape ``(num,)`` for scalar ends.
    """
    num = _num(num)
    ends = (start, stop)
    start, stop = _ends(start, stop, device, usm_type, sycl_queue)
    # (a Python number next to an array end is weak, as in NumPy)
    if any(isinstance(e, usm_ndarray) for e in ends):
        dt = _float_type(start._q, *ends)
    else:   # (scalar ends: NumPy scalars keep their type, Python numbers are weak)
        dt = np.result_type(*ends, 1.0)
        dt = _dtypes.device_dtype(_dtypes.to_dtype(dt), start._q) if dt.kind in "fc" \
            else start._q.float
    y = _spaced(start, stop, num, endpoint, dt)
    if isinstance(base, usm_ndarray):
        # (NumPy's: the ends and the base broadcast together, the samples
        # along a new first axis of all three)
        nd = max(y.ndim - 1, base.ndim)
        y = reshape(y, (num,) + (1,) * (nd - (y.ndim - 1)) + y.shape[1:])
        base = reshape(base, (1,) * (1 + nd - base.ndim) + base.shape)
    r = ew.pow(base, y)
    if axis != 0:
        r = moveaxis(r, 0, normalize_axis(axis, r.ndim))
    return r if dtype is None else astype(r, dtype, copy=False)


@compiled_together
def _smith_divide(a, b):
    """a / b for complex arrays by NumPy's complex division (Smith's method):
    its signed zeros decide which way geomspace turns between opposite ends
    (-1j to 1j passes through -1, as in NumPy). b is never zero here."""
    ar, ai, br, bi = ew.real(a), ew.imag(a), ew.real(b), ew.imag(b)
    wide = ew.greater_equal(ew.abs(br), ew.abs(bi))
    p, q = where(wide, br, bi), where(wide, bi, br)      # |p| >= |q|
    rat = ew.divide(q, p)
    scl = ew.divide(1.0, ew.add(p, ew.multiply(q, rat)))
    re = where(wide, ew.add(ar, ew.multiply(ai, rat)), ew.add(ew.multiply(ar, rat), ai))
    im = where(wide, ew.subtract(ai, ew.multiply(ar, rat)), ew.subtract(ew.multiply(ai, rat), ar))
    out = empty_array(re.shape, a.dtype, a._q, a.usm_type)
    out.real[...] = ew.multiply(re, scl)   # (the parts as computed, signed zeros too)
    out.imag[...] = ew.multiply(im, scl)
    return out


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *,
              device=None, usm_type=None, sycl_queue=None):
    """Numbers spaced evenly on a log scale (a geometric progression), as ``numpy.geomspace``.

    Parameters
    ----------
    start, stop : scalar or usm_ndarray
        The first and the last value (the ends exactly); they may be
        negative or complex, not zero. Arrays give one sequence per element.
    num : int
        Number of samples.
    endpoint : bool
        Whether `stop` is the last sample.
    dtype : dtype, optional
        The result dtype.
    axis : int
        Where the samples go in the result when the ends are arrays.
    device, usm_type, sycl_queue
        Where the result is made when neither end is a usm_ndarray.

    Returns
    -------
    usm_ndarray
        Shape ``(num,)`` for scalar ends. A zero end is a ValueError (the host
        waits for that check).
    """
    num = _num(num)
    start, stop = _ends(start, stop, device, usm_type, sycl_queue)
    # NumPy computes in at least its default float (its dtype=None is a float64
    # zero), and in the dtype asked for (complex: geomspace(-1, 1, dtype=complex))
    dt = _dtypes.result_type(start, stop, start._q.float,
                             *(() if dtype is None else (_dtypes.to_dtype(dtype),)))
    start, stop = astype(start, dt), astype(stop, dt)
    if bool(_any(ew.equal(start, 0))) or bool(_any(ew.equal(stop, 0))):
        raise ValueError("Geometric sequence cannot include zero")
    sign = ew.sign(start)
    div = _smith_divide if dt.kind == "c" else ew.divide
    r = logspace(ew.log10(div(start, sign)), ew.log10(div(stop, sign)), num=num,
                 endpoint=endpoint, base=10.0)
    r = ew.multiply(sign, astype(r, dt, copy=False))
    if num > 0:
        # the ends exactly (NumPy sets them before turning back by the sign,
        # whose complex product may then round an integer end below itself)
        r[0, ...] = start
        if num > 1 and endpoint:
            r[-1, ...] = stop
    if axis != 0:
        r = moveaxis(r, 0, normalize_axis(axis, r.ndim))
    return r if dtype is None else astype(r, dtype, copy=False)
