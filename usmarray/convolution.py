"""Discrete linear convolution and cross-correlation of 1-d arrays, as
``numpy.convolve`` and ``numpy.correlate``: one kernel in which each
work-item sums the products of one output position (as NumPy, the direct
sum, not an FFT: integer results are exact)."""

import operator

import numpy as np

from . import creation, elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._device import coerced_kind
from ._core._views import reshape
from .user_kernels import ElementwiseKernel

__all__ = ["convolve", "correlate"]

# y[i] = sum over j of a[j] * w[k - j], k = i + lo: position k of the full
# convolution of a (na items) and w (nw). float16 sums in float, as NumPy's
# dot of halves.
_BODY = """
const long long k = i + lo;
const long long j0 = k - (nw - 1) > 0 ? k - (nw - 1) : 0;
const long long j1 = k < na - 1 ? k : na - 1;
ACC s = ACC(0);
for (long long j = j0; j <= j1; ++j) s += ACC(a[j]) * ACC(w[k - j]);
y = T(s);
"""
_PARAMS = ("raw T a, raw T w, int64 na, int64 nw, int64 lo", "T y")
_KERNELS = {}


def _kernel(dt):
    acc = "float" if dt == _dtypes.float16 else "T"
    k = _KERNELS.get(acc)
    if k is None:
        k = _KERNELS[acc] = ElementwiseKernel(*_PARAMS, _BODY.replace("ACC", acc),
                                              "usm_convolve_" + ("f" if acc == "float" else "t"))
    return k


def _mode(mode):
    # NumPy 2.4 takes the names "valid", "same", "full" exactly (earlier ones
    # read only the first letter) or their numbers 0, 1, 2
    if isinstance(mode, str) and mode in ("valid", "same", "full"):
        return mode[0]
    if not isinstance(mode, (bool, np.bool_)):
        try:
            return {0: "v", 1: "s", 2: "f"}[operator.index(mode)]
        except (TypeError, KeyError):
            pass
    raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")


def _operands(name, a, v):
    q = a.sycl_queue if isinstance(a, usm_ndarray) else \
        v.sycl_queue if isinstance(v, usm_ndarray) else None
    if q is None:
        raise TypeError(f"{name}: expected a usm_ndarray operand")
    kind = coerced_kind([x for x in (a, v) if isinstance(x, usm_ndarray)])
    a = a if isinstance(a, usm_ndarray) else creation.asarray(a, sycl_queue=q, usm_type=kind)
    v = v if isinstance(v, usm_ndarray) else creation.asarray(v, sycl_queue=q, usm_type=kind)
    for x in (a, v):
        if x.ndim > 1:
            raise ValueError("object too deep for desired array")
    a, v = (reshape(x, (-1,)) if x.ndim == 0 else x for x in (a, v))
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    dt = _dtypes.result_type(a.dtype, v.dtype)
    return astype(a, dt, copy=False), astype(v, dt, copy=False), dt


def _full_part(a, w, lo, n, dt):
    """Items [lo, lo + n) of the full convolution of a and w."""
    out = creation.empty((n,), dtype=dt, sycl_queue=a.sycl_queue, usm_type=coerced_kind([a, w]))
    return _kernel(dt)(a, w, a.shape[0], w.shape[0], lo, out)


def _span(mode, n1, n2):
    """(first item, length) of `mode` within the full result, n1 >= n2."""
    if mode == "v":
        return n2 - 1, n1 - n2 + 1
    if mode == "s":
        return n2 - 1 - n2 // 2, n1
    return 0, n1 + n2 - 1


def convolve(a, v, mode="full"):
    """The discrete linear convolution of 1-d `a` and `v`, as
    ``numpy.convolve``.

    Parameters
    ----------
    a, v : usm_ndarray or array_like
        1-d sequences (0-d ones count as of length 1); at least one a
        usm_ndarray, whose queue the other is copied to.
    mode : {"full", "same", "valid"}
        "full": every overlap, ``len(a) + len(v) - 1`` items; "same": the
        longer input's length, centred; "valid": only complete overlaps.

    Returns
    -------
    usm_ndarray
        Of the two inputs' result type.
    """
    m = _mode(mode)
    a, v, dt = _operands("convolve", a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    lo, n = _span(m, a.shape[0], v.shape[0])
    return _full_part(a, v, lo, n, dt)


def correlate(a, v, mode="valid"):
    """The cross-correlation of 1-d `a` and `v`, as ``numpy.correlate``:
    ``c[k] = sum over n of a[n + k] * conj(v[n])``.

    Parameters
    ----------
    a, v : usm_ndarray or array_like
        1-d sequences, as for `convolve`.
    mode : {"valid", "same", "full"}
        As for `convolve`; "valid" by default.

    Returns
    -------
    usm_ndarray
        Of the two inputs' result type.
    """
    m = _mode(mode)
    if any(isinstance(x, usm_ndarray) and x.ndim == 0 for x in (a, v)):
        raise ValueError("object of too small depth for desired array")   # (NumPy's)
    a, v, dt = _operands("correlate", a, v)
    # the convolution of a with v conjugated and reversed; NumPy centres
    # "same" on the longer input
    w = ew.conj(v)[::-1] if dt.kind == "c" else v[::-1]
    na, nv = a.shape[0], v.shape[0]
    if na >= nv:
        lo, n = _span(m, na, nv)
    else:
        lo, n = _span(m, nv, na)
        lo = na + nv - 1 - lo - n     # NumPy correlates v with a and reverses
    return _full_part(a, w, lo, n, dt)
