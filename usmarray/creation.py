"""Array creation functions of the array API (with dpctl.tensor's
``usm_type=`` and ``sycl_queue=`` keywords). Contents are produced on the
device: fills, sequence kernels, triangular masks; only ``asarray`` of host
data copies from the host."""

import math
import operator

import numpy as np

from ._core import _dtypes, _engine
from ._core._array import empty_array, from_suai, make, usm_ndarray, view
from ._core._copy import (asnumpy, assign, broadcast_view, copy as _copy, copy_into, from_host,
                          new_like, to_queue)
from ._core._device import coerce_usm_type, common_queue, resolve_queue
from ._core._kernels import arange_compute_type, sequence_compute_type
from ._core._layout import KIND_CODE, WRITABLE, contig_flags, normalize_shape
from ._core._scalars import fill, int_range, numpy_scalar_into, scalar_bytes
from .elementwise import floor

__all__ = ["asarray", "empty", "zeros", "ones", "full", "arange", "linspace", "eye",
           "empty_like", "zeros_like", "ones_like", "full_like", "tril", "triu", "meshgrid",
           "from_numpy"]


def _usm_type(usm_type):
    if usm_type not in KIND_CODE:
        raise ValueError(f"usm_type must be 'device', 'shared' or 'host', got {usm_type!r}")
    return usm_type


def _dtype(dtype, qi, default):
    dt = default if dtype is None else _dtypes.to_dtype(dtype)
    _dtypes.check_device_support(dt, qi)
    return dt


def _order(order):
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    return order


def empty(shape, *, dtype=None, order="C", device=None, usm_type="device", sycl_queue=None):
    """New array with uninitialised contents."""
    qi = resolve_queue(device, sycl_queue)
    return empty_array(normalize_shape(shape), _dtype(dtype, qi, qi.float), qi,
                       _usm_type(usm_type), _order(order))


def _fill_value_dtype(value, qi):
    if isinstance(value, (bool, np.bool_)):
        return _dtypes.bool
    if isinstance(value, (int, np.integer)):
        return _dtypes.int64
    if isinstance(value, (float, np.floating)):
        return qi.float
    if isinstance(value, (complex, np.complexfloating)):
        return qi.complex
    raise TypeError(f"fill_value must be a Python scalar, got {type(value).__name__}")


def _array_fill_value(v):
    """Whether a fill_value is an array (device or host, or a nested
    sequence) that full() broadcasts, as NumPy and dpctl.tensor do."""
    return (isinstance(v, (usm_ndarray, np.ndarray, list, tuple))
            or hasattr(v, "__sycl_usm_array_interface__") or hasattr(v, "__usm_ndarray__"))


def full(shape, fill_value, *, dtype=None, order="C", device=None, usm_type=None,
         sycl_queue=None):
    """New array filled with `fill_value`: a scalar, or an array broadcast to
    `shape` (a usm_ndarray, a NumPy array, a nested sequence; by default the
    result has its dtype and, for a usm_ndarray, its queue and USM type;
    else "device" memory)."""
    # (a NumPy scalar's type is its own, as in NumPy: np.int8(1) fills int8)
    typed = fill_value.dtype if isinstance(fill_value, np.generic) else None
    fill_value = _dtypes.plain_scalar(fill_value)
    if _array_fill_value(fill_value) and not isinstance(fill_value, usm_ndarray):
        fill_value = asarray(fill_value, device=device, sycl_queue=sycl_queue)
    if isinstance(fill_value, usm_ndarray):
        # dpctl.tensor accepts arrays: broadcast-copy on the device
        qi = resolve_queue(device, sycl_queue) if (device is not None or sycl_queue is not None) \
            else fill_value._q
        dt = _dtype(dtype, qi, fill_value.dtype)
        out = empty_array(normalize_shape(shape), dt, qi,
                          _usm_type(usm_type or fill_value.usm_type), _order(order))
        copy_into(out, broadcast_view(to_queue(fill_value, qi), out.shape))
        return out
    usm_type = usm_type or "device"
    qi = resolve_queue(device, sycl_queue)
    if dtype is None:
        default = _fill_value_dtype(fill_value, qi) if typed is None or typed.kind not in "biufc" \
            else _dtypes.device_dtype(_dtypes.to_dtype(typed), qi)
    dt = _dtype(dtype, qi, default if dtype is None else None)
    out = empty_array(normalize_shape(shape), dt, qi, _usm_type(usm_type), _order(order))
    # (a NumPy scalar cast as NumPy casts it: np.int64(300) fills int8 with 44)
    value = scalar_bytes(numpy_scalar_into(fill_value, dt), dt, strict=False)
    if out.size:
        fill(out, value)
    return out


def _filled(shape, value, dtype, order, device, usm_type, sycl_queue):
    qi = resolve_queue(device, sycl_queue)
    dt = _dtype(dtype, qi, qi.float)
    out = empty_array(normalize_shape(shape), dt, qi, _usm_type(usm_type), _order(order))
    if out.size:
        fill(out, scalar_bytes(value, dt, strict=False))
    return out


def zeros(shape, *, dtype=None, order="C", device=None, usm_type="device", sycl_queue=None):
    """New array of zeros."""
    return _filled(shape, 0, dtype, order, device, usm_type, sycl_queue)


def ones(shape, *, dtype=None, order="C", device=None, usm_type="device", sycl_queue=None):
    """New array of ones."""
    return _filled(shape, 1, dtype, order, device, usm_type, sycl_queue)


def _like(x, dtype, device, usm_type, sycl_queue, order):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    if device is None and sycl_queue is None:
        qi = x._q
    else:
        qi = resolve_queue(device, sycl_queue)
    dt = _dtype(dtype, qi, x._dtype if dtype is None else None)
    ut = x._alloc.kind if usm_type is None else _usm_type(usm_type)
    return new_like(x, dt, qi, ut, order)


def empty_like(x, /, *, dtype=None, order="K", device=None, usm_type=None, sycl_queue=None):
    """New uninitialised array with the shape (and by default dtype, device, USM type) of `x`."""
    return _like(x, dtype, device, usm_type, sycl_queue, order)


def zeros_like(x, /, *, dtype=None, order="K", device=None, usm_type=None, sycl_queue=None):
    out = _like(x, dtype, device, usm_type, sycl_queue, order)
    if out.size:
        fill(out, bytes(out.dtype.itemsize))
    return out


def ones_like(x, /, *, dtype=None, order="K", device=None, usm_type=None, sycl_queue=None):
    out = _like(x, dtype, device, usm_type, sycl_queue, order)
    if out.size:
        fill(out, scalar_bytes(1, out.dtype, strict=False))
    return out


def full_like(x, /, fill_value, *, dtype=None, order="K", device=None, usm_type=None,
              sycl_queue=None):
    """New array shaped like `x` filled with `fill_value` (a scalar or an
    array broadcast to x's shape, as for `full`)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    fill_value = _dtypes.plain_scalar(fill_value)
    if _array_fill_value(fill_value) and not isinstance(fill_value, usm_ndarray):
        fill_value = asarray(fill_value, sycl_queue=x.sycl_queue)
    if dtype is None and not isinstance(fill_value, usm_ndarray):
        _fill_value_dtype(fill_value, x._q)  # type check
    out = _like(x, dtype, device, usm_type, sycl_queue, order)
    if isinstance(fill_value, usm_ndarray):
        copy_into(out, broadcast_view(to_queue(fill_value, out._q), out.shape))
        return out
    value = scalar_bytes(numpy_scalar_into(fill_value, out.dtype), out.dtype, strict=False)
    if out.size:   # (checked for an empty result too)
        fill(out, value)
    return out


# ----------------------------------------------------------------- sequences
def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _check_real(name, v):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(v).__name__}")


def _sequence(out, start, step, compute_type=sequence_compute_type):
    qi = out._q
    ctc = compute_type(_dtypes.TYPE_NAMES[out._tc], qi)
    _engine.sequence(qi.ref, qi.kc, out, start, step, _dtypes.TYPE_NAMES.index(ctc))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None, usm_type="device",
           sycl_queue=None):
    """Evenly spaced values in [start, stop) with spacing `step`."""
    start, stop, step = map(_dtypes.plain_scalar, (start, stop, step))
    if stop is None:
        start, stop = 0, start
    if step is None:   # (NumPy's and dpctl.tensor's: the default step)
        step = 1
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        _check_real(name, v)
    if step == 0:
        raise ValueError("arange: step must not be zero")
    qi = resolve_queue(device, sycl_queue)
    all_int = _is_int(start) and _is_int(stop) and _is_int(step)
    dt = _dtype(dtype, qi, _dtypes.int64 if all_int and dtype is None else
                (qi.float if dtype is None else None))
    if all_int:
        n = max(0, -((int(start) - int(stop)) // int(step)))
    else:
        span = (float(stop) - float(start)) / float(step)
        if not math.isfinite(span):
            raise ValueError(f"arange: the number of values is not finite (start {start}, "
                             f"stop {stop}, step {step})")
        n = max(0, math.ceil(span))
    out = empty_array((n,), dt, qi, _usm_type(usm_type))
    if n == 0:
        return out
    if dt.kind in "iu" and not all_int:
        # integer result of non-integer bounds: NumPy's definition, computed on the host
        h = np.arange(start, stop, step, dtype=dt)[:n]
        assign(out, h)
        return out
    if dt.kind in "iu":
        last = int(start) + (n - 1) * int(step)
        lo, hi = int_range(dt)
        if not (lo <= int(start) <= hi and lo <= last <= hi):
            # NumPy's rule: the first two values must be values of the dtype,
            # the values past it wrap around (as dpctl.tensor's too)
            wlo, whi = int_range(_dtypes.int64)
            second = int(start) + int(step) if n > 1 else int(start)
            if dt.itemsize == 8 or not (lo <= int(start) <= hi and lo <= second <= hi) \
                    or not wlo <= last <= whi:
                raise OverflowError(f"arange values do not fit in {dt.name}")
            copy_into(out, arange(start, stop, step, dtype=_dtypes.int64, device=qi.queue))
            return out
    if dt.kind == "b":
        if n > 2:
            raise TypeError("arange of bool dtype is only defined for at most two values")
        if not all_int:   # (NumPy's values, from its own arange)
            assign(out, np.arange(start, stop, step, dtype=np.bool_)[:n])
            return out
    if dt is _dtypes.uint64:
        # computed modulo 2**64: a negative step wraps to the same values
        start, step = int(start) % 2 ** 64, int(step) % 2 ** 64
    second = None
    if dt.kind in "fc":
        # NumPy's values: its first two items are start and start + step in
        # the dtype, the rest start + i * (their difference)
        conv = complex if dt.kind == "c" else float
        first, second = dt.type(start), dt.type(start + step)
        wide = np.float32 if dt.itemsize == 2 else dt.type   # (float16: its loop's float32)
        start, step = conv(first), conv(wide(second) - wide(first))
    _sequence(out, start, step, arange_compute_type)
    if second is not None:
        # (NumPy's first two items exactly: also where the difference of
        # two infinities made start + 0 * step NaN)
        fill(view(out, 0, (), ()), scalar_bytes(first, dt, strict=False))
        if n > 1:
            fill(view(out, 1, (), ()), scalar_bytes(second, dt, strict=False))
    return out


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, usm_type="device",
             sycl_queue=None, retstep=False):
    """`num` evenly spaced values from `start` to `stop` (inclusive if `endpoint`);
    with NumPy's ``retstep=True``, ``(values, step)`` (step a Python number,
    NaN for fewer than two intervals' worth)."""
    out = _linspace(start, stop, num, dtype, device, endpoint, usm_type, sycl_queue)
    if not retstep:
        return out
    div = (out.shape[0] - 1) if endpoint else out.shape[0]
    start, stop = _dtypes.plain_scalar(start), _dtypes.plain_scalar(stop)
    return out, ((stop - start) / div if div > 0 else math.nan)


def _linspace(start, stop, num, dtype, device, endpoint, usm_type, sycl_queue):
    # (NumPy scalars keep their type, Python numbers are weak, as in NumPy:
    # two float32 ends give float32)
    typed = np.result_type(start, stop, 1.0) if isinstance(start, np.generic) or \
        isinstance(stop, np.generic) else None
    start, stop = _dtypes.plain_scalar(start), _dtypes.plain_scalar(stop)
    for name, v in (("start", start), ("stop", stop)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(
                v, (int, float, complex, np.integer, np.floating, np.complexfloating)):
            raise TypeError(f"{name} must be a number, got {type(v).__name__}")
    try:
        num = operator.index(num)
    except TypeError:
        raise TypeError(f"num must be an integer, got {type(num).__name__}") from None
    if num < 0:
        raise ValueError(f"num must be non-negative, got {num}")
    qi = resolve_queue(device, sycl_queue)
    is_complex = isinstance(start, (complex, np.complexfloating)) or isinstance(
        stop, (complex, np.complexfloating))
    default = qi.complex if is_complex else qi.float
    if typed is not None and typed.kind in "fc":
        default = _dtypes.device_dtype(_dtypes.to_dtype(typed), qi)
    dt = _dtype(dtype, qi, default if dtype is None else None)
    if is_complex and dt.kind != "c":
        raise TypeError(f"complex start/stop need a complex dtype, got {dt.name}")
    out = empty_array((num,), dt, qi, _usm_type(usm_type))
    if num == 0:
        return out
    if dt.kind not in "fc":
        # integer/bool results: computed in floating point and floored, as NumPy 2
        tmp = linspace(start, stop, num, dtype=qi.float, device=qi.queue, endpoint=endpoint)
        copy_into(out, floor(tmp) if dt.kind in "iu" else tmp)
        return out
    div = (num - 1) if endpoint else num
    conv = complex if dt.kind == "c" else float
    start_c, stop_c = conv(start), conv(stop)
    step = (stop_c - start_c) / div if div > 0 else conv(0)
    _sequence(out, start_c, step)
    if endpoint and num > 1:
        fill(view(out, num - 1, (), ()), scalar_bytes(stop_c, dt, strict=False))
    return out


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, order="C", device=None, usm_type="device",
        sycl_queue=None):
    """2-D array with ones on the k-th diagonal and zeros elsewhere."""
    n_rows = operator.index(n_rows)
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    if n_rows < 0 or n_cols < 0:
        raise ValueError("eye: negative dimensions are not allowed")
    out = zeros((n_rows, n_cols), dtype=dtype, order=order, device=device, usm_type=usm_type,
                sycl_queue=sycl_queue)
    length = max(0, min(n_rows - max(0, -k), n_cols - max(0, k)))
    if length:
        s0, s1 = out._strides
        diag = view(out, max(0, -k) * s0 + max(0, k) * s1, (length,), (s0 + s1,))
        fill(diag, scalar_bytes(1, out.dtype, strict=False))
    return out


def _triangle(x, k, upper):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError("tril/triu need an array with at least 2 dimensions")
    # (a k past every diagonal is the same as the first past them, and fits
    # the engine's int64)
    k = min(max(operator.index(k), -x.shape[-2] - 1), x.shape[-1] + 1)
    out = new_like(x, x._dtype, x._q, x._alloc.kind, "K")
    if out.size:
        qi = x._q
        _engine.triangle(qi.ref, qi.kc, x, out, k, upper)
    return out


def tril(x, /, *, k=0):
    """Lower triangle of (a stack of) matrices: elements above the k-th diagonal zeroed."""
    return _triangle(x, k, False)


def triu(x, /, *, k=0):
    """Upper triangle of (a stack of) matrices: elements below the k-th diagonal zeroed."""
    return _triangle(x, k, True)


def meshgrid(*arrays, indexing="xy", sparse=False, copy=True):
    """Coordinate matrices from 1-D coordinate vectors: a tuple of new arrays
    (the standard's since 2025.12, NumPy's; dpctl.tensor gave a list).

    NumPy's keywords too: ``sparse=True`` gives each grid 1s along the other
    dimensions (the grids broadcast against each other); ``copy=False`` views
    of the vectors (read-only where broadcast)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return ()
    for a in arrays:
        if not isinstance(a, usm_ndarray):
            raise TypeError(f"meshgrid expects usm_ndarrays, got {type(a).__name__}")
        if a.ndim != 1:
            raise ValueError("meshgrid expects 1-D arrays")
    dt = arrays[0].dtype
    if any(a.dtype != dt for a in arrays):
        raise TypeError("meshgrid expects arrays of one data type")
    return coordinate_grids(arrays, indexing, sparse, copy)


def coordinate_grids(arrays, indexing, sparse=False, copy=True):
    """meshgrid's grids of 1-D usm_ndarrays, each of its array's dtype (as
    NumPy's meshgrid, which takes mixed types); `sparse` and `copy` as
    NumPy's."""
    qi = common_queue(*arrays)
    ut = coerce_usm_type(a.usm_type for a in arrays)
    n = len(arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    shape = tuple(shape)
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and n > 1 and i < 2:
            axis = 1 - i
        strides = [0] * n
        strides[axis] = a._strides[0]
        if sparse:
            one = tuple(shape[d] if d == axis else 1 for d in range(n))
            g = make(a._alloc, a._off, one, tuple(strides), a._dtype, a._q,
                     contig_flags(one, tuple(strides)) | (a._flags & WRITABLE))
            out.append(_copy(g) if copy else g)
            continue
        src = make(a._alloc, a._off, shape, tuple(strides), a._dtype, a._q,
                   contig_flags(shape, tuple(strides)))
        if not copy:
            out.append(src)   # (read-only: items repeat)
            continue
        res = empty_array(shape, a._dtype, qi, ut)
        copy_into(res, src)
        out.append(res)
    return tuple(out)


# ----------------------------------------------------------------- asarray
def _device_array(obj):
    """`obj` as a usm_ndarray when it is one or describes one: an object with
    ``__usm_ndarray__`` (dpnp's arrays: the usm_ndarray it wraps, or an
    object with SUAI) or with ``__sycl_usm_array_interface__`` (zero-copy);
    else None."""
    if isinstance(obj, usm_ndarray):
        return obj
    if hasattr(obj, "__usm_ndarray__"):
        u = obj.__usm_ndarray__
        if isinstance(u, usm_ndarray):
            return u
        if hasattr(u, "__sycl_usm_array_interface__"):
            return from_suai(u)
    if hasattr(obj, "__sycl_usm_array_interface__"):
        return from_suai(obj)
    return None


def _usm_items(seq, found):
    """The device arrays (usm_ndarray, SUAI objects) nested in `seq`, into `found`."""
    for v in seq:
        if isinstance(v, (list, tuple)):
            _usm_items(v, found)
        else:
            d = _device_array(v)
            if d is not None:
                found.append(d)
    return found


def _to_host_nested(seq):
    out = []
    for v in seq:
        if isinstance(v, (list, tuple)):
            out.append(_to_host_nested(v))
        else:
            d = _device_array(v)
            out.append(v if d is None else asnumpy(d))
    return out


def _python_scalar_default(obj, qi):
    """dtype of a Python scalar or nested sequence of them per the array API
    (bool, int64, default float, default complex), or None."""
    kinds = set()

    def walk(v, depth=0):
        if isinstance(v, (list, tuple)):
            for e in v:
                walk(e, depth + 1)
        elif isinstance(v, bool):
            kinds.add("b")
        elif isinstance(v, int):
            if not -(2 ** 63) <= v < 2 ** 63:
                raise OverflowError(f"Python int {v} does not fit in the default integer "
                                    "dtype int64")
            kinds.add("i")
        elif isinstance(v, float):
            kinds.add("f")
        elif isinstance(v, complex):
            kinds.add("c")
        else:
            kinds.add("?")

    walk(obj)
    if "?" in kinds:
        return None
    if not kinds:
        return qi.float   # an empty sequence, as NumPy
    if "c" in kinds:
        return qi.complex
    if "f" in kinds:
        return qi.float
    if "i" in kinds:
        return _dtypes.int64
    return _dtypes.bool


def asarray(obj, /, *, dtype=None, device=None, copy=None, usm_type=None, sycl_queue=None,
            order="K"):
    """Convert `obj` to a usm_ndarray.

    `obj` may be a usm_ndarray, an object with ``__usm_ndarray__`` (dpnp's
    arrays) or ``__sycl_usm_array_interface__`` (zero-copy), a NumPy array
    or object with ``__array__``, a buffer-protocol object, a Python scalar
    or a nested sequence (of any of these). ``order`` and ``copy`` apply to
    device arrays as to host data; ``copy=False`` raises ValueError when a
    copy cannot be avoided (host data always needs one).
    """
    if copy not in (None, True, False):
        raise ValueError(f"copy must be None, True or False, got {copy!r}")
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be 'K', 'A', 'C' or 'F', got {order!r}")
    if usm_type is not None:
        _usm_type(usm_type)
    if isinstance(obj, range):
        obj = list(obj)   # (as NumPy and dpctl.tensor: a sequence of Python ints)
    d = obj if isinstance(obj, usm_ndarray) else _device_array(obj)
    if d is not None:
        return _asarray_usm(d, dtype, device, copy, usm_type, sycl_queue, order)
    if copy is False:
        raise ValueError("host data must be copied to the device, but copy=False was given")
    items = _usm_items(obj, []) if isinstance(obj, (list, tuple)) else ()
    if items:
        # dpctl.tensor's rule: the arrays' queue (they must share one) and
        # their coerced USM type, unless given
        qi = resolve_queue(device, sycl_queue) if device is not None or sycl_queue is not None \
            else common_queue(*items)
        ut = usm_type or coerce_usm_type(a.usm_type for a in items)
        obj = np.asarray(_to_host_nested(obj))
    else:
        qi = resolve_queue(device, sycl_queue)
        ut = usm_type or "device"
    explicit = None if dtype is None else _dtype(dtype, qi, None)
    if isinstance(obj, (bool, int, float, complex, list, tuple)) and not isinstance(obj, np.generic):
        dt = explicit or _python_scalar_default(obj, qi)
        if dt is not None:
            try:
                h = np.asarray(obj, dtype=dt)
            except OverflowError:
                raise
            except (ValueError, TypeError) as e:
                raise ValueError(f"cannot convert the input to an array: {e}") from None
            return from_host(h, qi, ut, "F" if order == "F" else "C")
        # items that are not Python scalars (NumPy scalars and arrays): NumPy's dtype
        try:
            h = np.asarray(obj)
        except (ValueError, TypeError) as e:
            raise ValueError(f"cannot convert the input to an array: {e}") from None
        if h.dtype == object:
            raise TypeError(f"cannot convert {type(obj).__name__} with non-numeric items to an array")
    elif isinstance(obj, (np.ndarray, np.generic)) or hasattr(obj, "__array__") \
            or hasattr(obj, "__array_interface__"):
        h = np.asarray(obj)
    else:
        try:
            h = np.asarray(memoryview(obj))
        except TypeError:
            raise TypeError(f"cannot convert an object of type {type(obj).__name__} to an array") from None
    if h.dtype.kind not in "biufc":
        raise TypeError(f"cannot convert an array of dtype {h.dtype} to a usm_ndarray")
    if explicit is not None:
        dt = explicit
    else:
        dt = _dtypes.device_dtype(_dtypes.to_dtype(h.dtype), qi)
    if h.dtype != dt:
        h = h.astype(dt)
    out_order = "F" if (order == "F" or (order in "KA" and h.flags.f_contiguous
                                         and not h.flags.c_contiguous)) else "C"
    return from_host(h, qi, ut, out_order)


def from_numpy(np_ary, /, *, device=None, usm_type="device", sycl_queue=None):
    """Copy a NumPy array (or anything ``numpy.asarray`` takes) to the device.

    dpctl.tensor's name for ``asarray`` of host data: the result keeps the
    dtype (a dtype the device lacks, such as float64 without fp64, becomes
    its same-kind device dtype), and F-contiguous input stays F-contiguous.
    """
    h = np.asarray(np_ary)
    return asarray(h, device=device, usm_type=usm_type, sycl_queue=sycl_queue, order="K")


def _asarray_usm(x, dtype, device, copy, usm_type, sycl_queue, order):
    qi = x._q if (device is None and sycl_queue is None) else resolve_queue(device, sycl_queue)
    dt = x._dtype if dtype is None else _dtype(dtype, qi, None)
    ut = x._alloc.kind if usm_type is None else usm_type
    layout_ok = (order in "KA" or (order == "C" and x._flags & 1) or (order == "F" and x._flags & 2))
    # dpctl.tensor's rule: the same queue, or a copy (a view bound to another
    # queue of the device would share memory with x unasked; to_device shares)
    reachable = qi is x._q or qi.queue == x._q.queue
    if copy is not True and dt is x._dtype and ut == x._alloc.kind and layout_ok and reachable:
        return to_queue(x, qi)
    if copy is False:
        raise ValueError("asarray: a copy is needed (other dtype, USM type, layout or device) "
                         "but copy=False was given")
    _dtypes.check_device_support(dt, qi)
    out = new_like(x, dt, qi, ut, order)
    copy_into(out, x)
    return out


def as_pair(name, a, b):
    """Two usm_ndarrays on one queue (a Python scalar is made an array on the other's)."""
    if not isinstance(a, usm_ndarray) and isinstance(b, usm_ndarray):
        a = asarray(a, sycl_queue=b.sycl_queue, usm_type=b.usm_type)
    if not isinstance(b, usm_ndarray) and isinstance(a, usm_ndarray):
        b = asarray(b, sycl_queue=a.sycl_queue, usm_type=a.usm_type)
    for v in (a, b):
        if not isinstance(v, usm_ndarray):
            raise TypeError(f"{name}: expected a usm_ndarray, got {type(v).__name__}")
    return a, b
