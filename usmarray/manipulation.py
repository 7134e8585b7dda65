"""Shape manipulation that needs no arithmetic: views where the memory
layout allows, copies otherwise."""

import operator

from ._array import c_strides, contig_flags, empty_array, f_strides, make, normalize_shape, usm_ndarray, view
from ._copy import broadcast_shapes as _broadcast_shapes, broadcast_view, copy_into
from ._device import common_queue, coerce_usm_type
from ._exceptions import AxisError

__all__ = ["reshape", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "permute_dims",
           "expand_dims", "squeeze", "swapaxes", "flip", "moveaxis", "matrix_transpose", "unstack", "concat",
           "stack", "roll", "repeat", "tile", "diff"]


def _check(x):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")


def _normalize_axis(axis, nd):
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        raise AxisError(f"axis {axis} is out of bounds for an array of dimension {nd}")
    return axis % nd


def _reshaped_strides(shape, strides, new_shape, order):
    """Strides viewing (shape, strides) as new_shape without a copy, or None
    (NumPy's attempt_nocopy_reshape, for C or F order)."""
    old = [(s, st) for s, st in zip(shape, strides) if s != 1]
    if order == "F":
        old = old[::-1]
        new = list(new_shape)[::-1]
    else:
        new = list(new_shape)
    out = [0] * len(new)
    oi = ni = 0
    while oi < len(old) and ni < len(new):
        if new[ni] == 1:
            out[ni] = 0
            ni += 1
            continue
        np_, op_ = new[ni], old[oi][0]
        nj, oj = ni + 1, oi + 1
        while np_ != op_:
            if np_ < op_:
                np_ *= new[nj]
                nj += 1
            else:
                op_ *= old[oj][0]
                oj += 1
        for k in range(oi, oj - 1):
            if old[k][1] != old[k + 1][0] * old[k + 1][1]:
                return None
        st = old[oj - 1][1]
        for k in range(nj - 1, ni - 1, -1):
            out[k] = st
            st *= new[k]
        oi, ni = oj, nj
    for k in range(ni, len(new)):
        out[k] = 0
    if order == "F":
        out = out[::-1]
    return tuple(out)


def reshape(x, /, shape, *, order="C", copy=None):
    """`x` with a new shape: a view when the layout allows, a copy otherwise
    (``copy=False`` raises ValueError when a copy would be needed)."""
    _check(x)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    shape = [operator.index(s) for s in shape]
    size = x.size
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape an array of size {size} into shape {tuple(shape)}")
        shape[shape.index(-1)] = size // known
    shape = normalize_shape(tuple(shape))
    n = 1
    for s in shape:
        n *= s
    if n != size:
        raise ValueError(f"cannot reshape an array of size {size} into shape {shape}")
    if copy is not True:
        if size == 0:
            st = c_strides(shape) if order == "C" else f_strides(shape)
            return view(x, x._off, shape, st)
        st = _reshaped_strides(x._shape, x._strides, shape, order)
        if st is not None:
            return view(x, x._off, shape, st)
        if copy is False:
            raise ValueError("reshape needs a copy for this layout, but copy=False")
    # copy: read x in `order`, write a new contiguous array
    out = empty_array(shape, x._dtype, x._q, x._alloc.kind, order)
    if size:
        src_flat = x if (x._flags & (1 if order == "C" else 2)) else _contiguous(x, order)
        st = _reshaped_strides(src_flat._shape, src_flat._strides, shape, order)
        copy_into(out, view(src_flat, src_flat._off, shape, st))
    return out


def _contiguous(x, order):
    out = empty_array(x._shape, x._dtype, x._q, x._alloc.kind, order)
    copy_into(out, x)
    return out


def broadcast_to(x, /, shape):
    """Read-only view of `x` broadcast to `shape` (ValueError if incompatible)."""
    _check(x)
    shape = normalize_shape(shape)
    v = broadcast_view(x, shape)
    if v is x:
        v = view(x, x._off, x._shape, x._strides)
    v._flags &= ~4   # broadcast views share elements: not writable, as in NumPy
    return v


def broadcast_arrays(*arrays):
    """Views of `arrays` broadcast against each other (a tuple)."""
    for a in arrays:
        _check(a)
    shape = _broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes):
    """The shape that `shapes` broadcast to (ValueError if they do not)."""
    return _broadcast_shapes(*(normalize_shape(s) for s in shapes))


def permute_dims(x, /, axes):
    """View of `x` with its axes permuted."""
    _check(x)
    nd = x.ndim
    axes = tuple(_normalize_axis(a, nd) for a in axes)
    if sorted(axes) != list(range(nd)):
        raise ValueError(f"axes {axes} are not a permutation of the {nd} dimensions")
    return view(x, x._off, tuple(x._shape[a] for a in axes), tuple(x._strides[a] for a in axes))


def expand_dims(x, /, axis=0):
    """View of `x` with a new axis of length 1 at `axis` (int or tuple)."""
    _check(x)
    axes = axis if isinstance(axis, tuple) else (axis,)
    nd = x.ndim + len(axes)
    axes = sorted(_normalize_axis(a, nd) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis in expand_dims")
    shape, strides = list(x._shape), list(x._strides)
    for a in axes:
        shape.insert(a, 1)
        strides.insert(a, 0)
    return view(x, x._off, tuple(shape), tuple(strides))


def squeeze(x, /, axis=None):
    """View of `x` without the given axes of length 1 (all of them for
    ``axis=None``, as in NumPy and dpctl.tensor)."""
    _check(x)
    nd = x.ndim
    if axis is None:
        axes = {i for i in range(nd) if x._shape[i] == 1}
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = {_normalize_axis(a, nd) for a in axes}
    for a in axes:
        if x._shape[a] != 1:
            raise ValueError(f"cannot squeeze axis {a}: its length is {x._shape[a]}, not 1")
    keep = [i for i in range(nd) if i not in axes]
    return view(x, x._off, tuple(x._shape[i] for i in keep), tuple(x._strides[i] for i in keep))


def _axes(axis, nd, what="axis"):
    """Tuple of non-negative axes from an int or a tuple of ints (no repeats)."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = tuple(_normalize_axis(a, nd) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {what}")
    return out


def flip(x, /, *, axis=None):
    """View of `x` with the order of elements reversed along `axis` (default: all)."""
    _check(x)
    nd = x.ndim
    axes = range(nd) if axis is None else _axes(axis, nd)
    off, strides = x._off, list(x._strides)
    for a in axes:
        if x._shape[a] > 0:
            off += (x._shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return view(x, off, x._shape, tuple(strides))


def moveaxis(x, source, destination, /):
    """View of `x` with axes `source` moved to positions `destination`."""
    _check(x)
    nd = x.ndim
    src, dst = _axes(source, nd, "source"), _axes(destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    order = [a for a in range(nd) if a not in src]
    for d, a in sorted(zip(dst, src)):
        order.insert(d, a)
    return permute_dims(x, tuple(order))


def swapaxes(x, axis1, axis2, /):
    """View of `x` with axes `axis1` and `axis2` interchanged (dpctl.tensor, NumPy)."""
    _check(x)
    nd = x.ndim
    a, b = _normalize_axis(axis1, nd), _normalize_axis(axis2, nd)
    order = list(range(nd))
    order[a], order[b] = b, a
    return permute_dims(x, tuple(order))


def matrix_transpose(x, /):
    """View of `x` with its last two axes swapped (``x.mT``)."""
    _check(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs an array of at least 2 dimensions")
    return x.mT


def unstack(x, /, *, axis=0):
    """Tuple of views of `x`, one per index along `axis`."""
    _check(x)
    a = _normalize_axis(axis, x.ndim) if x.ndim else _normalize_axis(axis, 0)
    shape = x._shape[:a] + x._shape[a + 1:]
    strides = x._strides[:a] + x._strides[a + 1:]
    return tuple(view(x, x._off + i * x._strides[a], shape, strides) for i in range(x._shape[a]))


def _arrays(name, arrays):
    if isinstance(arrays, usm_ndarray) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{name} takes a tuple or list of usm_ndarrays")
    if not arrays:
        raise ValueError(f"{name} needs at least one array")
    for a in arrays:
        _check(a)
    from ._dtypes import result_type

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
    out = empty_array(shape[:a0] + (len(arrays),) + shape[a0:], dt, qi, usm)
    for i, a in enumerate(arrays):
        st = out._strides[:a0] + out._strides[a0 + 1:]
        copy_into(view(out, out._off + i * out._strides[a0], shape, st), a)
    return out


def roll(x, /, shift, *, axis=None):
    """`x` with elements shifted by `shift` along `axis` (None: flattened),
    those that fall off one end coming back at the other."""
    _check(x)
    if axis is None:
        if isinstance(shift, tuple):
            if len(shift) != 1:
                raise ValueError("with axis=None, shift must be an int")
            shift = shift[0]
        flat = reshape(x, (-1,))
        return reshape(roll(flat, operator.index(shift), axis=0), x._shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if isinstance(shift, tuple):
        if not isinstance(axis, tuple) or len(shift) != len(axes):
            raise ValueError("shift and axis must be tuples of the same length")
        shifts = shift
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
    import itertools

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
    if isinstance(repeats, usm_ndarray) or not isinstance(repeats, int):
        import numpy as np

        from ._copy import asnumpy

        r = asnumpy(repeats) if isinstance(repeats, usm_ndarray) else np.asarray(repeats)
        if r.dtype.kind not in "iu" or r.ndim > 1:
            raise TypeError("repeats must be an int or a 1-D integer array")
        if r.size == 1:
            repeats = int(r.reshape(()))
        else:
            if r.shape != (n,):
                raise ValueError(f"repeats has {r.size} counts for an axis of length {n}")
            if (r < 0).any():
                raise ValueError("repeats must not be negative")
            from ._indexing import take

            idx = np.repeat(np.arange(n, dtype=np.int64), r)
            from .creation import asarray

            return take(x, asarray(idx, sycl_queue=x.sycl_queue), axis=a0)
    repeats = operator.index(repeats)
    if repeats < 0:
        raise ValueError("repeats must not be negative")
    shape = x._shape[:a0] + (n * repeats,) + x._shape[a0 + 1:]
    out = empty_array(shape, x._dtype, x._q, x._alloc.kind)
    if out.size:
        # out seen as (..., n, repeats, ...) is x broadcast along a new axis
        split = x._shape[:a0] + (n, repeats) + x._shape[a0 + 1:]
        dst = view(out, out._off, split, c_strides(split))
        src = view(x, x._off, split, x._strides[:a0 + 1] + (0,) + x._strides[a0 + 1:])
        copy_into(dst, src)
    return out


def tile(x, repetitions, /):
    """`x` repeated `repetitions[i]` times along each axis i (leading axes
    of length 1 are added to whichever of `x` and `repetitions` is shorter)."""
    _check(x)
    reps = tuple(operator.index(r) for r in repetitions)
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
    from . import elementwise as ew

    _check(x)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    if x.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    a0 = _normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, x, append) if p is not None]
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
