"""Shape manipulation that needs no arithmetic: views where the memory
layout allows (defined in the core, ``_core/_views.py``), copies otherwise."""

import itertools
import operator

import numpy as np

from . import elementwise as ew
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import asnumpy, astype, copy_into
from ._core._device import coerce_usm_type, coerced_kind, common_queue
from ._core._exceptions import AxisError
from ._core._dtypes import result_type
from ._core._indexing import take
from ._core._layout import (broadcast_shapes as _broadcast_shapes, c_strides, check_shape,
                            normalize_shape)
from ._core._views import (as_tuple, broadcast_to, check_array as _check, expand_dims, flip,
                           matrix_transpose, moveaxis, normalize_axis as _normalize_axis,
                           permute_dims, reshape, squeeze, swapaxes, unstack)
from .creation import asarray, zeros

__all__ = ["reshape", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "permute_dims",
           "expand_dims", "squeeze", "swapaxes", "flip", "moveaxis", "matrix_transpose", "unstack", "concat",
           "stack", "roll", "repeat", "tile", "diff", "ediff1d", "resize", "rollaxis"]


def broadcast_arrays(*arrays):
    """Views of `arrays` broadcast against each other (a tuple); ValueError
    without arrays, as dpctl.tensor."""
    if not arrays:
        raise ValueError("broadcast_arrays needs at least one array")
    for a in arrays:
        _check(a)
    shape = _broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes):
    """The shape that `shapes` broadcast to (ValueError if they do not)."""
    return _broadcast_shapes(*(normalize_shape(s) for s in shapes))


def _arrays(name, arrays):
    if isinstance(arrays, usm_ndarray) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{name} takes a tuple or list of usm_ndarrays")
    if not arrays:
        raise ValueError(f"{name} needs at least one array")
    for a in arrays:
        if isinstance(a, (list, tuple, np.ndarray)):
            raise ew.mixed_operand_error(name, a)   # host data: say how to move it
        _check(a)
    return common_queue(*arrays), result_type(*arrays), coerce_usm_type(a.usm_type for a in arrays)


def _block(out, starts, sizes):
    """View of `out` (C-contiguous) at per-axis `starts` with extents `sizes`."""
    off = out._off + sum(s * st for s, st in zip(starts, out._strides))
    return view(out, off, tuple(sizes), out._strides)


def concat(arrays, /, *, axis=0):
    """Join `arrays` along an existing `axis` (None: flattened), in their
    promoted dtype, on their common queue."""
    qi, dt, usm = _arrays("concat", arrays)
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    a0 = _normalize_axis(axis, nd)
    shape = list(arrays[0]._shape)
    for a in arrays[1:]:
        if a.ndim != nd or any(s != t for i, (s, t) in enumerate(zip(a._shape, shape)) if i != a0):
            raise ValueError(f"all arrays must have the same shape except along axis {a0}: "
                             f"{arrays[0].shape} and {a.shape}")
    shape[a0] = sum(a._shape[a0] for a in arrays)
    out = empty_array(tuple(shape), dt, qi, usm)
    start = [0] * nd
    for a in arrays:
        if a.size:
            copy_into(_block(out, start, a._shape), a)
        start[a0] += a._shape[a0]
    return out


def stack(arrays, /, *, axis=0):
    """Join arrays of one shape along a new `axis`."""
    qi, dt, usm = _arrays("stack", arrays)
    shape = arrays[0]._shape
    for a in arrays[1:]:
        if a._shape != shape:
            raise ValueError(f"all arrays must have the same shape: {shape} and {a.shape}")
    a0 = _normalize_axis(axis, len(shape) + 1)
    out_shape = shape[:a0] + (len(arrays),) + shape[a0:]
    check_shape(out_shape)   # (at most 64 dimensions)
    out = empty_array(out_shape, dt, qi, usm)
    for i, a in enumerate(arrays):
        st = out._strides[:a0] + out._strides[a0 + 1:]
        copy_into(view(out, out._off + i * out._strides[a0], shape, st), a)
    return out


def roll(x, /, shift, *, axis=None):
    """`x` with elements shifted by `shift` along `axis` (None: flattened),
    those that fall off one end coming back at the other."""
    _check(x)
    if axis is None:
        if isinstance(shift, (tuple, list)):
            # (NumPy's: the shifts add up along the flattened array)
            shift = sum(operator.index(v) for v in shift)
        flat = reshape(x, (-1,))
        return reshape(roll(flat, operator.index(shift), axis=0), x._shape)
    axes = as_tuple(axis)
    if isinstance(shift, (tuple, list)):
        # shifts and axes broadcast against each other, as NumPy and dpctl.tensor
        shifts = as_tuple(shift)
        if len(axes) == 1 and len(shifts) > 1:
            axes = axes * len(shifts)
        elif len(shifts) == 1 and len(axes) > 1:
            shifts = shifts * len(axes)
        if len(shifts) != len(axes):
            raise ValueError("shift and axis must be sequences of the same length (or one of "
                             "them of length 1)")
    else:
        shifts = (shift,) * len(axes)
    nd = x.ndim
    total = [0] * nd
    for a, s in zip(axes, shifts):    # repeated axes add up, as in NumPy
        total[_normalize_axis(a, nd)] += operator.index(s)
    out = empty_array(x._shape, x._dtype, x._q, x._alloc.kind)
    if not x.size:
        return out
    # each rolled axis splits into two blocks: 2**k block copies for k axes
    pieces = [[(0, 0, n)] if not total[d] % n else
              [(0, total[d] % n, n - total[d] % n), (n - total[d] % n, 0, total[d] % n)]
              for d, n in enumerate(x._shape)]
    for combo in itertools.product(*pieces):
        src = [c[0] for c in combo]
        dst = [c[1] for c in combo]
        ext = [c[2] for c in combo]
        xs = view(x, x._off + sum(s * st for s, st in zip(src, x._strides)), tuple(ext),
                  x._strides)
        copy_into(_block(out, dst, ext), xs)
    return out


def repeat(x, repeats, /, *, axis=None):
    """Each element of `x` repeated `repeats` times along `axis` (None:
    flattened). `repeats` is an int, or an integer array with one count per
    element along the axis (or a single count)."""
    _check(x)
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    a0 = _normalize_axis(axis, x.ndim)
    n = x._shape[a0]
    # (as dpctl.tensor: the USM type of x and array repeats, coerced)
    kind = coerced_kind([x, repeats]) if isinstance(repeats, usm_ndarray) else x._alloc.kind
    if isinstance(repeats, usm_ndarray) or not isinstance(repeats, int):
        r = asnumpy(repeats) if isinstance(repeats, usm_ndarray) else np.asarray(repeats)
        if r.size == 0 and not isinstance(repeats, usm_ndarray):
            r = r.astype(np.int64)   # ([] for an empty axis: NumPy's float64 empty list)
        if r.dtype.kind not in "iu" or r.ndim > 1:
            raise TypeError("repeats must be an int or a 1-D integer array")
        if r.size == 1:
            repeats = int(r.reshape(()))
        else:
            if r.shape != (n,):
                raise ValueError(f"repeats has {r.size} counts for an axis of length {n}")
            if (r < 0).any():
                raise ValueError("repeats must not be negative")
            if r.dtype == np.uint64 and (r > np.iinfo(np.int64).max).any():
                raise ValueError("repeats too large")
            idx = np.repeat(np.arange(n, dtype=np.int64), r.astype(np.int64))   # (NumPy's: int64 counts)
            return take(x, asarray(idx, sycl_queue=x.sycl_queue, usm_type=kind), axis=a0)
    repeats = operator.index(repeats)
    if repeats < 0:
        raise ValueError("repeats must not be negative")
    shape = x._shape[:a0] + (n * repeats,) + x._shape[a0 + 1:]
    out = empty_array(shape, x._dtype, x._q, kind)
    if out.size:
        # out seen as (..., n, repeats, ...) is x broadcast along a new axis
        split = x._shape[:a0] + (n, repeats) + x._shape[a0 + 1:]
        dst = view(out, out._off, split, c_strides(split))
        src = view(x, x._off, split, x._strides[:a0 + 1] + (0,) + x._strides[a0 + 1:])
        copy_into(dst, src)
    return out


def tile(x, repetitions, /):
    """`x` repeated `repetitions[i]` times along each axis i (leading axes
    of length 1 are added to whichever of `x` and `repetitions` is shorter);
    an int repeats along the last axis, as ``(repetitions,)``."""
    _check(x)
    try:
        reps = tuple(operator.index(r) for r in as_tuple(repetitions))
    except TypeError:
        raise TypeError("tile: repetitions must be an int or a tuple of ints, got "
                        f"{repetitions!r}") from None
    if any(r < 0 for r in reps):
        raise ValueError("repetitions must not be negative")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    xs = (1,) * (nd - x.ndim) + x._shape
    xst = (0,) * (nd - x.ndim) + x._strides
    out = empty_array(tuple(r * s for r, s in zip(reps, xs)), x._dtype, x._q, x._alloc.kind)
    if out.size:
        # out seen as (r0, s0, r1, s1, ...) is x broadcast along the r axes
        split = tuple(v for r, s in zip(reps, xs) for v in (r, s))
        src_st = tuple(v for st in xst for v in (0, st))
        copy_into(view(out, out._off, split, c_strides(split)), view(x, x._off, split, src_st))
    return out


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The `n`-th discrete difference along `axis`: x[i+1] - x[i] (for bool,
    x[i+1] != x[i], as in NumPy), after joining `prepend` and `append`."""
    _check(x)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    if n == 0:
        return x   # (NumPy's: the input itself, without prepend and append)
    if x.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    a0 = _normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        def edge(v):   # (NumPy's: scalars made arrays, 0-d ones one step along the axis)
            v = v if isinstance(v, usm_ndarray) else asarray(v, sycl_queue=x.sycl_queue,
                                                             usm_type=x.usm_type)
            return v if v.ndim else broadcast_to(v, x._shape[:a0] + (1,) + x._shape[a0 + 1:])
        parts = [edge(p) if p is not x else p for p in (prepend, x, append) if p is not None]
        x = concat(parts, axis=a0)
    op = ew.not_equal if x._dtype.kind == "b" else ew.subtract
    for _ in range(n):
        m = x._shape[a0]
        if m == 0:
            break
        lo = (slice(None),) * a0 + (slice(0, m - 1),)
        hi = (slice(None),) * a0 + (slice(1, m),)
        x = op(x[hi], x[lo])
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened `ary`, with `to_begin` and `to_end`
    (flattened, cast to ary's dtype within its kind) before and after, as
    ``numpy.ediff1d``."""
    _check(ary)
    if ary._dtype.kind == "b":
        raise TypeError("ediff1d: boolean subtract is not supported (NumPy's error)")
    parts = []
    for v in (to_begin, diff(reshape(ary, (-1,))), to_end):
        if v is None:
            continue
        v = v if isinstance(v, usm_ndarray) else asarray(v, sycl_queue=ary.sycl_queue,
                                                         usm_type=ary.usm_type)
        if not np.can_cast(v.dtype, ary.dtype, "same_kind"):
            raise TypeError(f"ediff1d: dtype of to_begin/to_end ({v.dtype}) must be compatible "
                            f"with the input's ({ary.dtype}) under the 'same_kind' rule")
        parts.append(astype(reshape(v, (-1,)), ary.dtype, copy=False))
    return parts[0] if len(parts) == 1 else concat(parts)


def resize(a, new_shape):
    """`a`'s elements (flattened, C order) repeated to fill `new_shape`, as
    ``numpy.resize``; zeros when either is empty."""
    _check(a, "resize")
    shape = (operator.index(new_shape),) if not isinstance(new_shape, (tuple, list)) else \
        tuple(operator.index(d) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = 1
    for d in shape:
        size *= d
    flat = reshape(a, (-1,))
    if flat.shape[0] == 0 or size == 0:
        return zeros(shape, dtype=a.dtype, usm_type=a.usm_type, sycl_queue=a.sycl_queue)
    reps = -(-size // flat.shape[0])
    return reshape(concat([flat] * reps)[:size] if reps > 1 else flat[:size], shape)


def rollaxis(a, axis, start=0):
    """A view of `a` with `axis` moved to stand before position `start`, as
    ``numpy.rollaxis`` (which NumPy keeps for old code; moveaxis says it
    more plainly)."""
    _check(a, "rollaxis")
    n = a.ndim
    axis = _normalize_axis(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    axes = [d for d in range(n) if d != axis]
    axes.insert(start, axis)
    return permute_dims(a, tuple(axes))
