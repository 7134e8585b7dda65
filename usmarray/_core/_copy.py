"""Copies: between arrays on any queues, contexts and devices; to and from
host memory; ``copy``, ``astype`` and ``to_device``.

Within one SYCL context the destination's queue runs the copy kernel; the
engine makes it wait for the source's pending commands. Between contexts
the data is staged through host memory, moving only the bytes the view
spans (or gathering a sparse view on its device first).
"""

import functools
import inspect
import math

import numpy as np

from . import _dtypes, _engine
from ._array import empty_array, from_suai, make, usm_ndarray
from ._device import ExecutionPlacementError, resolve_queue
from ._exceptions import DTypeError
from ._layout import (C_CONTIG, F_CONTIG, RO_LOCK, WRITABLE, broadcast_shapes, contig_flags,
                      displacement_bounds)
from ._trace import traced

__all__ = ["asnumpy", "to_numpy", "copy", "astype", "cast", "copy_into", "assign",
           "broadcast_view", "host_view", "host_value", "from_host", "to_queue", "layout_like", "check_out",
           "with_out"]


def broadcast_view(x, shape):
    """A read-only view of `x` broadcast to `shape` (zero strides), or ValueError.

    Leading length-1 axes of `x` beyond `shape`'s rank are dropped (as NumPy
    does when assigning)."""
    shape = tuple(shape)
    if x._shape == shape:
        return x
    nd, xnd = len(shape), len(x._shape)
    if xnd > nd:
        extra = xnd - nd
        if any(d != 1 for d in x._shape[:extra]):
            raise ValueError(f"cannot broadcast an array of shape {x._shape} to {shape}")
        x = make(x._alloc, x._off, x._shape[extra:], x._strides[extra:], x._dtype, x._q,
                 x._flags, x._ns)
        if x._shape == shape:
            return x
        xnd = nd
    strides = [0] * (nd - xnd)
    for d, st, target in zip(x._shape, x._strides, shape[nd - xnd:]):
        if d == target:
            strides.append(st if d != 1 else 0)
        elif d == 1:
            strides.append(0)
        else:
            raise ValueError(f"cannot broadcast an array of shape {x._shape} to {shape}")
    strides = tuple(strides)
    # (read-only for good, as NumPy's broadcast_to: its items alias each other)
    flags = contig_flags(shape, strides) | RO_LOCK
    return make(x._alloc, x._off, shape, strides, x._dtype, x._q, flags, x._ns)


# ----------------------------------------------------------------- host
def asnumpy(x):
    """Copy of `x` in a NumPy array (waits for pending work on `x`).

    Only the bytes the view spans move; a sparse view (e.g. ``x[::1000]``)
    is first gathered into contiguous device memory. As CuPy's: anything
    else NumPy takes (a NumPy array, a list, a number) is ``numpy.asarray``
    of it, and an object exposing SUAI (a dpnp array) is read as a view.
    """
    if not isinstance(x, usm_ndarray):
        if hasattr(x, "__sycl_usm_array_interface__"):
            return asnumpy(from_suai(x))
        return np.asarray(x)
    shape, dt = x._shape, x._dtype
    if x._flags & C_CONTIG:
        # straight into the result (building an array over a byte buffer
        # costs more than a small read-back's copy)
        out = np.empty(shape, dtype=dt)
        if out.size:
            _engine.to_host(x._q.ref, x._alloc, x._off * dt.itemsize, out)
        return out
    n = math.prod(shape)
    if n == 0:
        return np.empty(shape, dtype=dt)
    isz = dt.itemsize
    lo, hi = displacement_bounds(shape, x._strides)
    span = (hi - lo + 1) * isz
    if span > 2 * n * isz + 65536:
        tmp = empty_array(shape, dt, x._q)
        _engine.copy(x._q.ref, x._q.kc, x, tmp)
        x, lo, span = tmp, 0, n * isz
    buf = np.empty(span, dtype=np.uint8)
    _engine.to_host(x._q.ref, x._alloc, (x._off + lo) * isz, buf)
    return np.ndarray(shape, dtype=dt, buffer=buf, offset=-lo * isz,
                      strides=tuple(s * isz for s in x._strides))


to_numpy = asnumpy


class _HostInterface:
    """__array_interface__ of host-accessible USM; keeps the array alive."""

    __slots__ = ("_x", "__array_interface__")

    def __init__(self, x):
        self._x = x
        isz = x._dtype.itemsize
        self.__array_interface__ = {
            "data": (x._pointer, not (x._flags & WRITABLE)),
            "shape": x._shape,
            "strides": tuple(s * isz for s in x._strides),
            "typestr": x._dtype.str,
            "version": 3,
        }


def host_accessible(x):
    kind = x._alloc.kind
    return kind in ("host", "shared") or (kind == "device" and x._q.device.is_cpu)


def host_view(x):
    """Zero-copy NumPy view of host-accessible memory (after pending work), else None."""
    if not host_accessible(x):
        return None
    x._alloc.wait()
    return np.asarray(_HostInterface(x))


def from_host(h, qi, usm_type="device", order="C"):
    """A new array on `qi` holding the NumPy array `h` (dtype supported by the device)."""
    dt = _dtypes.to_dtype(h.dtype)
    if h.dtype != dt:   # byte order or alias
        h = h.astype(dt)
    if order == "F" and h.ndim > 1:
        h = np.asfortranarray(h)
    else:
        order = "C"
        if not h.flags.c_contiguous:
            h = h.copy(order="C")   # (np.ascontiguousarray would make 0-d arrays 1-d)
    out = empty_array(h.shape, dt, qi, usm_type, order)
    if h.size:
        _engine.from_host(qi.ref, out._alloc, 0, h)
    return out


def _from_host_into(dst, h):
    """dst[...] = h for a NumPy array `h` of dst's shape."""
    if dst._flags & 1 and h.dtype == dst._dtype and h.flags.c_contiguous:
        if h.size:
            isz = dst._dtype.itemsize
            _engine.from_host(dst._q.ref, dst._alloc, dst._off * isz, h)
        return
    dt = _dtypes.to_dtype(h.dtype)
    if dt not in (dst._dtype,) and not _device_supports(dt, dst._q):
        h = h.astype(dst._dtype)
    tmp = from_host(h, dst._q)
    _engine.copy(dst._q.ref, dst._q.kc, tmp, dst)


def _device_supports(dt, qi):
    try:
        _dtypes.check_device_support(dt, qi)
        return True
    except ValueError:
        return False


# ----------------------------------------------------------------- device
def copy_into(dst, src):
    """dst[...] = src for usm_ndarrays on any queues (src broadcast to dst)."""
    if not dst._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if src._shape != dst._shape:
        src = broadcast_view(src, dst._shape)
    qi = dst._q
    sq = src._q
    if sq is qi or sq.context == qi.context:
        _engine.copy(qi.ref, qi.kc, src, dst)
        return
    # Another context (or another platform): through the host.
    h = asnumpy(src)
    _from_host_into(dst, h)


def _check_complex_into_real(dst, dt):
    if dt.kind == "c" and dst._dtype.kind != "c":
        # as for a complex Python scalar: silently dropping the imaginary part is a bug
        raise DTypeError(f"cannot assign a complex array ({dt.name}) to an array of dtype "
                         f"{dst._dtype.name}")


def host_value(value, dt):
    """A stored value that is neither a usm_ndarray nor a SUAI object (a
    sequence, a NumPy array) as the NumPy array ``x[...] = value`` stores
    into dtype `dt`: a sequence of Python ints converts to `dt` itself, as in
    NumPy (OverflowError for one out of its range, not wrapped); TypeError
    for values that are not numbers."""
    h = np.asarray(value)
    if h.dtype == object or h.dtype.kind not in "biufc":
        raise TypeError(f"cannot assign a value of type {type(value).__name__}")
    if isinstance(value, (list, tuple)) and h.dtype.kind in "iu" and dt.kind in "iu":
        h = np.asarray(value, dtype=dt)
    return h


def assign(dst, value):
    """dst[...] = value for an array-like `value` (usm_ndarray, SUAI object, NumPy array, sequence)."""
    if not isinstance(value, usm_ndarray):
        if hasattr(value, "__sycl_usm_array_interface__"):
            value = from_suai(value)
        else:
            h = host_value(value, dst._dtype)
            _check_complex_into_real(dst, h.dtype)
            if h.ndim > dst.ndim and all(d == 1 for d in h.shape[:h.ndim - dst.ndim]):
                h = h.reshape(h.shape[h.ndim - dst.ndim:])
            h = np.broadcast_to(h, broadcast_shapes(h.shape, dst._shape))
            if h.shape != dst._shape:
                raise ValueError(f"cannot broadcast a value of shape {h.shape} to {dst._shape}")
            if not _device_supports(_dtypes.to_dtype(h.dtype), dst._q):
                h = h.astype(dst._dtype)
            _from_host_into(dst, h if h.flags.c_contiguous else h.copy(order="C"))
            return
    _check_complex_into_real(dst, value._dtype)
    copy_into(dst, broadcast_view(value, dst._shape))


def layout_like(x, order):
    """(order, strides or None) for a new array shaped like `x` in `order`
    ('C', 'F', 'A', 'K'); strides only for 'K' on non-contiguous `x`."""
    if order == "C":
        return "C", None
    if order == "F":
        return "F", None
    if order == "A":
        return ("F" if x._flags & 2 and not x._flags & 1 else "C"), None
    if order != "K":
        raise ValueError(f"order must be 'C', 'F', 'A' or 'K', got {order!r}")
    if x._flags & 1:
        return "C", None
    if x._flags & 2:
        return "F", None
    # keep the order of x's strides (largest first), like NumPy's 'K'
    nd = len(x._shape)
    perm = sorted(range(nd), key=lambda i: -abs(x._strides[i]))
    st = [0] * nd
    acc = 1
    for i in reversed(perm):
        st[i] = acc
        acc *= max(x._shape[i], 1)
    return "K", tuple(st)


def new_like(x, dt, qi, usm_type, order="K"):
    order, strides = layout_like(x, order)
    if strides is None:
        return empty_array(x._shape, dt, qi, usm_type, order)
    out = empty_array(x._shape, dt, qi, usm_type, "C")
    out._strides = strides
    out._flags = contig_flags(x._shape, strides) | WRITABLE
    return out


def to_queue(x, qi):
    """`x` bound to queue `qi`: a view when the memory is usable there, else a copy."""
    if qi is x._q:
        return x
    if qi.context == x._q.context and qi.device == x._q.device:
        return make(x._alloc, x._off, x._shape, x._strides, x._dtype, qi, x._flags, x._ns)
    _dtypes.check_device_support(x._dtype, qi)
    out = new_like(x, x._dtype, qi, x._alloc.kind)
    copy_into(out, x)
    return out


def copy(x, /, *, order="K"):
    """A copy of `x` on its queue, with the same USM type (order 'C', 'F', 'A' or 'K')."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    if x._flags & 1 and order in ("K", "C", "A"):
        out = empty_array(x._shape, x._dtype, x._q, x._alloc.kind)
    else:
        out = new_like(x, x._dtype, x._q, x._alloc.kind, order)
    qi = x._q
    _engine.copy(qi.ref, qi.kc, x, out)
    return out


def cast(x, dt):
    """A new array holding `x` converted to dtype `dt` (no checks: the
    operations' own casts of their operands), F-ordered for F-contiguous `x`."""
    out = empty_array(x._shape, dt, x._q, x._alloc.kind,
                      "F" if (x._flags & 3) == F_CONTIG else "C")
    _engine.copy(x._q.ref, x._q.kc, x, out)
    return out


def astype(x, dtype, /, *, copy=True, device=None, order="K", casting="unsafe"):
    """`x` converted to `dtype` (array API ``astype``; ``order`` and ``casting`` as dpctl.tensor)."""
    if not isinstance(x, usm_ndarray):
        if traced(x) is not None:
            return x.__usm_trace__("astype", (x, dtype), dict(copy=copy, device=device,
                                                              order=order, casting=casting))
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    dt = _dtypes.to_dtype(dtype)
    qi = x._q if device is None else resolve_queue(device)
    _dtypes.check_device_support(dt, qi)
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'")
    if not np.can_cast(x._dtype, dt, casting=casting):
        raise TypeError(f"cannot cast from {x._dtype.name} to {dt.name} with casting={casting!r}")
    layout_ok = (order in ("K", "A") or (order == "C" and x._flags & C_CONTIG)
                 or (order == "F" and x._flags & F_CONTIG))
    if not copy and dt is x._dtype and layout_ok:   # (else a copy in the order asked)
        if qi is x._q:
            return x
        if qi.context == x._q.context and qi.device == x._q.device:
            return to_queue(x, qi)
    out = new_like(x, dt, qi, x._alloc.kind, order)
    copy_into(out, x)
    return out



# ------------------------------------------------------------ out= arguments
def check_out(name, out, shape, dt, qi, casting="same_kind"):
    """Validate an ``out=`` argument for a result of `shape` and dtype `dt` on
    queue `qi` (dpctl.tensor's rules: same shape and queue, writable), whose
    dtype the result casts to by `casting`: within its kind by default
    (NumPy's rule for ufuncs), "no" for indices (argmax's int64 would wrap
    in a narrower type). DTypeError otherwise."""
    if not isinstance(out, usm_ndarray):
        raise TypeError(f"{name}: out must be a usm_ndarray, got {type(out).__name__}")
    if out._shape != shape:
        raise ValueError(f"{name}: out has shape {out._shape}, the result has shape {shape}")
    if not out._flags & WRITABLE:
        raise ValueError(f"{name}: out is read-only")
    if out._q is not qi:
        raise ExecutionPlacementError(f"{name}: out is bound to another SYCL queue than the "
                                      "operands")
    if out._dtype is not dt and not np.can_cast(dt, out._dtype, casting):
        raise DTypeError(f"{name}: the result dtype {dt.name} cannot be cast to out's dtype "
                         f"{out._dtype.name}" + (" (out must be int64 for indices)"
                                                  if casting == "no" else ""))


def with_out(func, casting="same_kind"):
    """`func` (returning a new array) with dpctl.tensor's keyword-only ``out=``:
    the result is copied into `out` (cast as `casting` allows, see
    check_out), which is returned."""
    @functools.wraps(func)
    def wrapper(*args, out=None, **kwargs):
        r = func(*args, **kwargs)
        if out is None:
            return r
        check_out(func.__name__, out, r._shape, r._dtype, r._q, casting)
        copy_into(out, r)
        return out

    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    wrapper.__signature__ = sig.replace(parameters=params)
    return wrapper
