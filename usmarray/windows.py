"""NumPy's window functions (``numpy.hanning`` and friends), made on the device.

They take no array, so NumPy's dispatch never reaches usmarray for them;
CuPy has them as ``cupy.hanning`` etc. Each follows NumPy's formula in the
same order of operations, in the device's default float type (float64, or
float32 on devices without fp64) or the ``dtype`` given.
"""

import math
import operator

import numpy as np

from ._core import _dtypes
from ._core._device import resolve_queue
from .creation import arange, ones, empty
from . import elementwise as ew
from .searching import where
from .special import i0

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _window(name, M, dtype, device, usm_type, sycl_queue):
    """(length, float dtype, queue info), or an answer of its own for M <= 1."""
    try:
        M = operator.index(M)
    except TypeError:
        if not isinstance(M, (float, np.floating)) or M != math.floor(M):
            raise TypeError(f"{name}: M must be an integer, got {M!r}") from None
        M = int(M)
    qi = resolve_queue(device, sycl_queue)
    dt = _dtypes.device_dtype(np.dtype(np.float64) if dtype is None else _dtypes.to_dtype(dtype),
                              qi)
    if dt.kind != "f":
        raise TypeError(f"{name}: dtype must be a real floating type, got {dt}")
    if M < 1:
        return M, dt, qi, empty((0,), dtype=dt, sycl_queue=qi.queue, usm_type=usm_type)
    if M == 1:
        return M, dt, qi, ones((1,), dtype=dt, sycl_queue=qi.queue, usm_type=usm_type)
    return M, dt, qi, None


def _doc(fn, what, formula, n="arange(1 - M, M, 2)", extra=""):
    fn.__doc__ = f"""The {what} window of `M` points, as ``numpy.{fn.__name__}``.

    ``{formula}``, with ``n = {n}``.

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``, ``[1.0]`` for ``M == 1``.{extra}
    dtype : real floating dtype, optional
        Default: the device's default float type (float64 where the device has fp64).
    device, usm_type, sycl_queue
        Where the array is made.

    Returns
    -------
    usm_ndarray
        Shape ``(max(M, 0),)``.
    """
    return fn


def _symmetric(name, what, formula, f):
    """A window of NumPy's form ``f(n, M - 1)`` over ``n = arange(1 - M, M, 2)``."""
    def window(M, *, dtype=None, device=None, usm_type="device", sycl_queue=None):
        M, dt, qi, done = _window(name, M, dtype, device, usm_type, sycl_queue)
        if done is not None:
            return done
        return f(arange(1 - M, M, 2, dtype=dt, sycl_queue=qi.queue, usm_type=usm_type), M - 1)

    window.__name__ = window.__qualname__ = name
    return _doc(window, what, formula)


bartlett = _symmetric("bartlett", "Bartlett (triangular)", "1 - |n| / (M - 1)",
                      lambda n, m: where(ew.less_equal(n, 0), 1 + n / m, 1 - n / m))
blackman = _symmetric(
    "blackman", "Blackman", "0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))",
    lambda n, m: 0.42 + 0.5 * ew.cos(math.pi * n / m) + 0.08 * ew.cos(2.0 * math.pi * n / m))
hamming = _symmetric("hamming", "Hamming", "0.54 + 0.46 cos(pi n / (M - 1))",
                     lambda n, m: 0.54 + 0.46 * ew.cos(math.pi * n / m))
hanning = _symmetric("hanning", "Hann", "0.5 + 0.5 cos(pi n / (M - 1))",
                     lambda n, m: 0.5 + 0.5 * ew.cos(math.pi * n / m))


def kaiser(M, beta, *, dtype=None, device=None, usm_type="device", sycl_queue=None):
    beta = float(beta)
    M, dt, qi, done = _window("kaiser", M, dtype, device, usm_type, sycl_queue)
    if done is not None:
        return done
    n = arange(0, M, dtype=dt, sycl_queue=qi.queue, usm_type=usm_type)
    alpha = (M - 1) / 2.0
    return i0(beta * ew.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / float(np.i0(beta))


_doc(kaiser, "Kaiser", "i0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)",
     "arange(M)`` and ``alpha = (M - 1) / 2", """
    beta : float
        Shape parameter (0: rectangular; 5: like a Hamming window; 8.6: like Blackman).""")
