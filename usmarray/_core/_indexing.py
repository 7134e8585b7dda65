"""Index plans: the view of a basic key (integers, slices, Ellipsis, None,
boolean scalars), and the gathers and scatters of integer-array keys (one
array along one axis, several arrays, along an axis element by element),
with the bounds checked on the device. ``usmarray.indexing`` builds
``x[key]`` and ``x[key] = v`` (boolean masks, NumPy's placement of the
index dimensions) and the indexing functions on these."""

import operator

import numpy as np

from . import _dtypes, _engine, _kernels
from ._array import empty_array, make, usm_ndarray, view
from ._copy import assign, astype, broadcast_view, from_host, to_queue
from ._device import coerce_usm_type
from ._exceptions import IndexShapeError
from ._layout import C_CONTIG, F_CONTIG, WRITABLE, broadcast_shapes, merged_stride
from ._reduce import reduce
from ._scalars import fill, is_scalar, numpy_scalar_into, scalar_bytes
from ._views import moveaxis, normalize_axis, reshape

__all__ = ["Advanced", "index_kind", "basic_view", "int_key_offset", "item_copy", "flat_view",
           "gather", "scatter", "scatter_values", "store", "take", "take_along_axis",
           "put_along_axis", "one_axis", "along_axis_checks", "disjoint"]


def _take_family():
    # gathers and scatters of one item size share a bundle
    def names(t, qi):
        return ([f"{k}<{t}, {nd}>" for k in ("take_strided", "put_strided")
                 for nd in _kernels.STRIDED_VARIANTS] +
                ([f"index_offsets<{t}, {nd}>" for nd in _kernels.STRIDED_VARIANTS]
                 if t == "u8" else []) +
                [f"gather<{t}>", f"scatter<{t}, 0>", f"scatter<{t}, 1>"] +
                # items wider than 8 bytes scatter in two passes (claims)
                ([f"put_claimed<{t}, {nd}>" for nd in _kernels.STRIDED_VARIANTS] +
                 [f"scatter_claimed<{t}>"] if t == "x16" else []) +
                ([f"gather_vec<{t}>", f"gather_rows_vec<{t}>", f"scatter_vec<{t}, 0>",
                  f"scatter_vec<{t}, 1>"]
                 if _kernels.simd_kernels(qi) else []))

    def part(prefix, args):
        # a first call compiles one operation's kernels (take, put, gather,
        # scatter or index), not every gather and scatter of the item size
        return (prefix.split("_")[0],) + _kernels.default_part_key(prefix, args)

    return _kernels.Family(("take_strided", "put_strided", "put_claimed", "index_offsets", "gather",
                            "gather_vec", "gather_rows_vec", "scatter", "scatter_vec",
                            "scatter_claimed"),
                           "where.cpp", lambda a: a[0], names, lambda qi: _kernels.MOVE_TYPES,
                           part, cost=1.2)


_kernels.register_family(_take_family())


class Advanced(Exception):
    """The key holds integer arrays: handled by integer array indexing."""


def index_kind(k):
    """'int', 'slice', 'ellipsis', 'none', 'bool' or raise IndexError/Advanced."""
    if k is None:
        return "none"
    if k is Ellipsis:
        return "ellipsis"
    if isinstance(k, slice):
        return "slice"
    if isinstance(k, (bool, np.bool_)):
        return "bool"
    if isinstance(k, usm_ndarray):
        if k.ndim == 0 and k.dtype.kind in "iu":
            return "int"
        if k.ndim == 0 and k.dtype.kind == "b":
            return "bool"
        if k.dtype.kind in "iub":
            raise Advanced
        raise IndexError(f"index arrays must be integer or boolean arrays, got {k.dtype.name}")
    if isinstance(k, (list, np.ndarray)):
        a = np.asarray(k)
        if a.dtype.kind == "b" and a.ndim == 0:
            return "bool"
        if a.dtype.kind in "iub" or (a.size == 0 and isinstance(k, list)):
            raise Advanced
        raise IndexError("only integers, slices, Ellipsis, None, integer and boolean arrays "
                         f"are valid indices, got {a.dtype} array")
    try:
        operator.index(k)
        return "int"
    except TypeError:
        raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and 0-d integer "
                         f"arrays are valid indices, got {type(k).__name__}") from None


def basic_view(x, key):
    """(offset, shape, strides) of `x[key]` for a basic index `key`."""
    if not isinstance(key, tuple):
        key = (key,)
    if len(key) <= len(x._shape) and all(type(k) is slice for k in key):
        return _slices_view(x, key)
    kinds = [index_kind(k) for k in key]
    if "bool" in kinds and ("int" in kinds or kinds.count("bool") > 1):
        # NumPy counts both as advanced indices: placed first when apart;
        # several booleans make one axis between them
        raise Advanced
    n_ell = kinds.count("ellipsis")
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for t in kinds if t in ("int", "slice"))
    nd = len(x._shape)
    if consumed > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, "
                         f"but {consumed} were indexed")
    if n_ell == 0:
        key = key + (Ellipsis,)
        kinds.append("ellipsis")
    off = x._off
    shape, strides = [], []
    dim = 0
    for k, t in zip(key, kinds):
        if t == "int":
            n = x._shape[dim]
            i = operator.index(k)
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            if i < 0:
                i += n
            off += i * x._strides[dim]
            dim += 1
        elif t == "slice":
            n = x._shape[dim]
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            if length:
                off += start * x._strides[dim]
            shape.append(length)
            # (a dimension of one item keeps its stride: a huge step, which
            # only such a slice can take, would give one past int64)
            strides.append(x._strides[dim] * step if length > 1 else x._strides[dim])
            dim += 1
        elif t == "none":
            shape.append(1)
            strides.append(0)
        elif t == "bool":
            # a boolean scalar index acts like a 0-d mask: a new axis of length 1 or 0
            shape.append(1 if bool(k) else 0)
            strides.append(0)
        else:  # ellipsis
            rest = nd - consumed
            shape.extend(x._shape[dim:dim + rest])
            strides.extend(x._strides[dim:dim + rest])
            dim += rest
    return off, tuple(shape), tuple(strides)


def _slices_view(x, key):
    # (basic_view of slices only, at most one per dimension: the common
    # x[a:b] and x[a:b, ::c] in a few steps)
    off = x._off
    shape, strides = list(x._shape), list(x._strides)
    for dim, k in enumerate(key):
        start, stop, step = k.indices(shape[dim])
        length = len(range(start, stop, step))
        if length:
            off += start * strides[dim]
        shape[dim] = length
        if length > 1:   # (as in basic_view)
            strides[dim] *= step
    return off, tuple(shape), tuple(strides)


def int_key_offset(x, key):
    """The element offset of ``x[key]`` for a key of integers (Python's or
    NumPy's), one per leading dimension (an integer, or a tuple of them no
    longer than x.ndim),
    and how many dimensions it consumes; None for any other key or an index
    out of bounds (basic_view then takes it, and raises). The fast path of
    the commonest keys."""
    t = type(key)
    if t is int:
        key = (key,)
    elif t is not tuple:
        if t is slice or not isinstance(key, np.integer):
            return None
        key = (int(key),)
    shape, strides = x._shape, x._strides
    if len(key) > len(shape):
        return None
    off = x._off
    for d, i in enumerate(key):
        if type(i) is not int:
            if not isinstance(i, np.integer):
                return None
            i = int(i)
        n = shape[d]
        if i < 0:
            i += n
            if i < 0:
                return None
        elif i >= n:
            return None
        off += i * strides[d]
    return off, len(key)


def item_copy(x, off):
    """A new 0-d array holding the item of `x` at element offset `off`.

    ``x[i]`` with an integer for every dimension gives this, not a 0-d view:
    NumPy gives a scalar, a value that later stores into `x` do not change
    (the swap ``x[i], x[j] = x[j], x[i]`` and ``e = x[0]; x[0] = 99`` rely on
    it). On memory the host can address the engine copies the item on the
    host when no command is pending on it (kernels/engine/ops.cpp)."""
    qi = x._q
    dt = x._dtype
    out = empty_array((), dt, qi, x._alloc.kind)
    _engine.copy(qi.ref, qi.kc, make(x._alloc, off, (), (), dt, qi, C_CONTIG | F_CONTIG), out)
    return out


def flat_view(x):
    """x as a 1-D view (any stride), or None when its dimensions do not merge."""
    s = merged_stride(x._shape, x._strides)
    return None if s is None else view(x, x._off, (x.size,), (s,))


def gather(x, key):
    """x[key] for a key whose leading entries are integers and integer arrays
    (one per dimension, broadcast together) followed by basic indices: a
    gather (the array API's integer array indexing; NumPy's result layout)."""
    qi = x._q
    i, xv, out_shape, rows = _axis0_plan(x, key) or _gather_plan(x, key)
    # (the USM type of x and its index arrays coerced, as dpctl.tensor's)
    kind = coerce_usm_type([x._alloc.kind] + [k._alloc.kind for k in (
        key if isinstance(key, tuple) else (key,)) if isinstance(k, usm_ndarray)])
    out = empty_array(out_shape, x._dtype, qi, kind)
    if rows:
        # rows of xv at int64 positions i: the gather of one axis (bounds
        # checked on the device)
        _check_empty_rows(i, xv)
        _engine.gather(qi.ref, qi.kc, xv, i, _as_rows(out, i, xv))
        return out
    _engine.take(qi.ref, qi.kc, i, xv, out, 0, 1)
    return out


def _axis0_plan(x, key):
    """(int64 indices, x as (n0, inner), result shape, True) when `key` is
    one integer array indexing axis 0 of x and x's other dimensions merge;
    else None (the general plan of _gather_plan)."""
    idx = key[0] if len(key) == 1 else None
    if not (isinstance(idx, usm_ndarray) and idx._q is x._q and idx._dtype.kind in "iu"
            and idx._dtype is not _dtypes.uint64 and x.ndim):
        return None
    si = merged_stride(x._shape[1:], x._strides[1:])
    if si is None:
        return None
    inner = 1
    for d in x._shape[1:]:
        inner *= d
    if idx.ndim == 1:
        i1 = idx
    else:
        i1 = reshape(idx, (-1,))
    if i1._dtype is not _dtypes.int64 or not i1._flags & 1:
        i1 = astype(i1, _dtypes.int64, order="C")
    xv = view(x, x._off, (x._shape[0], inner), (x._strides[0], si))
    return i1, xv, idx._shape + x._shape[1:], True


def _check_empty_rows(i, xv):
    """IndexError for an index out of bounds among rows of no items (the
    engine checks the indices of the items it moves: here there are none,
    and NumPy still refuses the index)."""
    n0 = xv._shape[0]
    if xv._shape[1] == 0 and i.size and (
            int(reduce("max", i, None, False)) >= n0 or int(reduce("min", i, None, False)) < -n0):
        raise IndexError(f"an index is out of bounds for axis 0 with size {n0}")


def _as_rows(a, i, xv):
    """The C-contiguous `a` (the selection's shape: a new array, or the
    values of a scatter, which may be a view) as the (len(i), row length of
    xv) matrix the engine's gather and scatter take."""
    inner = xv._shape[1]
    return view(a, a._off, (i._shape[0], inner), (inner, 1))


def scatter(x, key, value):
    """x[key] = value for the keys _take accepts: `value` (any array-like or
    scalar) broadcast to x[key]'s shape and cast to x's dtype, then scattered."""
    plan = _axis0_plan(x, key)
    if plan is not None and not disjoint(plan[0]._alloc, x._alloc):
        # indices read from x's memory: taken before x changes
        plan = (astype(plan[0], _dtypes.int64, copy=True),) + plan[1:]
    i, xv, out_shape, rows = plan or _gather_plan(x, key)
    qi = x._q
    v = scatter_values(value, x, out_shape)
    if rows:
        # bounds checked on the device first (one wait), then one scatter
        _check_empty_rows(i, xv)
        _engine.scatter(qi.ref, qi.kc, xv, i, _as_rows(v, i, xv))
    else:
        _engine.put(qi.ref, qi.kc, i, xv, v, 0, 1)


def _host_indices(e):
    """A list or NumPy array of indices as int64: an empty list is one (its
    NumPy dtype is float64), a float array is not, even empty (IndexError,
    as NumPy's), nor an index beyond int64 (IndexError, not OverflowError)."""
    h = np.asarray(e)
    if h.dtype.kind not in "iub" and not (isinstance(e, list) and h.size == 0):
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got "
                         f"{h.dtype}")
    try:
        return np.asarray(e, dtype=np.int64)
    except OverflowError:
        raise IndexError(f"index {e!r} is out of bounds for int64 indices") from None


def _int64_indices(a, n, axis):
    """Integer indices `a` (for an axis of length `n`) as int64. uint64
    values past int64's range would wrap negative in the cast: any uint64
    index >= n raises IndexError here (one reduction and a wait)."""
    if a._dtype is _dtypes.uint64 and a.size and int(reduce("max", a, None, False)) >= n:
        raise IndexError(f"an index is out of bounds for axis {axis} with size {n}")
    return a if a._dtype is _dtypes.int64 else astype(a, _dtypes.int64)


def disjoint(a, b):
    """Whether allocations a and b hold no byte in common (two imports of
    one memory are two allocations: their addresses tell)."""
    return a.ptr + a.nbytes <= b.ptr or b.ptr + b.nbytes <= a.ptr


def scatter_values(value, x, shape):
    """`value` as a scatter into x reads it, `shape` items of x's dtype:
    `value` itself when it is such an array, C-contiguous, on x's queue and
    outside x's memory (which the scatter writes while it reads), else a new
    array with `value` broadcast and cast into it."""
    if (isinstance(value, usm_ndarray) and value._q is x._q and value._dtype == x._dtype
            and value._shape == shape and value._flags & C_CONTIG):
        if disjoint(value._alloc, x._alloc):
            return value
    v = empty_array(shape, x._dtype, x._q, x._alloc.kind)
    store(v, value)
    return v


def _gather_plan(x, key):
    """(int64 element offsets, view of x, result shape, rows) of an
    integer-array index. The offsets take one pass per index array on the
    device and one wait (an index out of bounds raises IndexError). rows:
    the dimensions left after the gathered ones merge, and the plan is that
    of _axis0_plan (1-D offsets, x as (n0, inner)); else the offsets are
    broadcast over the result and the view walks the remaining dimensions."""
    k = 0
    while k < len(key) and not (key[k] is None or key[k] is Ellipsis or isinstance(key[k], slice)):
        k += 1
    if any(not (e is None or e is Ellipsis or isinstance(e, slice)) for e in key[k:]):
        raise IndexError("integer array indices must come before slices, Ellipsis and None "
                         "in an index")
    nd = len(x._shape)
    if k > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, but {k} were indexed")
    qi = x._q
    # the remaining (basic) part of the key, applied to the trailing dimensions
    y = view(x, *basic_view(x, (slice(None),) * k + tuple(key[k:])))
    arrays, base = [], 0
    for d in range(k):
        e = key[d]
        n = x._shape[d]
        if isinstance(e, usm_ndarray) or isinstance(e, (list, np.ndarray)):
            a = e if isinstance(e, usm_ndarray) else from_host(_host_indices(e), qi)
            if a._dtype.kind not in "iu":
                raise IndexError(f"index arrays must be integer arrays, got {a._dtype.name}")
            arrays.append((d, _int64_indices(to_queue(a, qi), n, d)))
        else:
            i = operator.index(e)
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
            base += (i % n) * x._strides[d]
    # offsets from the lowest item the indexed dimensions reach (negative
    # strides reach below y's origin), so that they are positions along one
    # axis of n0 items
    lo = sum(min(0, (x._shape[d] - 1) * x._strides[d]) for d in range(k) if x._shape[d])
    n0 = 1 + sum(abs((x._shape[d] - 1) * x._strides[d]) for d in range(k) if x._shape[d])
    try:
        s2 = broadcast_shapes(*(a._shape for _, a in arrays))
    except ValueError:
        raise IndexShapeError("shape mismatch: indexing arrays could not be broadcast together "
                              f"with shapes {' '.join(str(a._shape) for _, a in arrays)}") \
            from None
    offs = empty_array(s2, _dtypes.int64, qi, "device")
    if not offs.size:
        # (the offsets' kernel checks the bounds; with nothing to gather,
        # NumPy still checks every index given: here, on the host)
        for d, a in arrays:
            if a.size:
                n = x._shape[d]
                lo_i, hi_i = int(reduce("min", a, None, False)), int(reduce("max", a, None, False))
                bad = lo_i if lo_i < -n else hi_i if hi_i >= n else None
                if bad is not None:
                    raise IndexError(f"index {bad} is out of bounds for axis {d} with size {n}")
    if offs.size:
        _engine.index_offsets(qi.ref, qi.kc, [broadcast_view(a, s2) for _, a in arrays],
                              [x._shape[d] for d, _ in arrays], [x._strides[d] for d, _ in arrays],
                              [d for d, _ in arrays], base - lo, offs)
    rest_shape, rest_strides = y._shape[k:], y._strides[k:]
    out_shape = s2 + rest_shape
    si = merged_stride(rest_shape, rest_strides)
    if si is not None:
        # the remaining dimensions merge: rows of one axis, gathered by
        # _engine.gather
        inner = 1
        for d in rest_shape:
            inner *= d
        flat = view(offs, offs._off, (offs.size,), (1,))
        return flat, view(y, y._off + lo, (n0, inner), (1, si)), out_shape, True
    o = view(offs, offs._off, out_shape, offs._strides + (0,) * len(rest_shape))
    xv = view(y, y._off + lo, out_shape, (0,) * len(s2) + rest_strides)
    return o, xv, out_shape, False


def store(dst, value):
    """dst[...] = value: a Python or NumPy scalar filled in (by the array
    API's rules; a NumPy scalar cast as NumPy's), anything else assigned
    (broadcast, cast)."""
    if not is_scalar(value):
        assign(dst, value)
    elif dst.size:
        fill(dst, scalar_bytes(numpy_scalar_into(value, dst._dtype), dst._dtype))


def one_axis(name, x, indices, axis):
    """The axis of take/put along one axis, checked: `x` and 1-D `indices`
    usm_ndarrays; `axis` may be None only for 1-D `x`."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    if not isinstance(indices, usm_ndarray):
        raise TypeError(f"{name}: indices must be a usm_ndarray, got {type(indices).__name__}")
    if indices.ndim != 1:
        raise ValueError(f"{name}: indices must be one-dimensional")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name}: axis is required for arrays of more than one dimension")
        axis = 0
    return normalize_axis(axis, x.ndim)


def along_axis_checks(name, x, indices, axis):
    """The axis (in [0, x.ndim)) of take_along_axis/put_along_axis, after
    checking the arguments."""
    if not isinstance(x, usm_ndarray) or not isinstance(indices, usm_ndarray):
        raise TypeError(f"{name}: x and indices must be usm_ndarrays")
    nd = x.ndim
    if indices.ndim != nd:
        raise ValueError(f"{name}: indices must have {nd} dimensions like x, got {indices.ndim}")
    if nd == 0:
        raise ValueError(f"{name} needs an array of at least one dimension")
    return normalize_axis(axis, nd)


def take(x, indices, /, *, axis=None):
    """Elements of `x` at integer `indices` (1-D) along `axis` (which may be
    None only for 1-D `x`); negative indices count from the end."""
    axis = one_axis("take", x, indices, axis)
    if axis == 0:
        return gather(x, (indices,))
    r = gather(moveaxis(x, axis, 0), (indices,))
    return moveaxis(r, 0, axis)


def _along_axis_plan(name, x, indices, axis):
    """(int64 indices, view of x, shape, length and stride of the axis) of
    take_along_axis/put_along_axis: indices and x broadcast to the result's
    shape, x with a zero stride along `axis`, where the kernel steps by the
    index times the axis' stride (bounds checked on the device)."""
    a = along_axis_checks(name, x, indices, axis)
    if indices._dtype.kind not in "iu":
        raise IndexError(f"{name}: indices must be integers, got {indices._dtype.name}")
    indices = to_queue(indices, x._q)
    n = x._shape[a]
    shape = list(broadcast_shapes(x._shape[:a] + (1,) + x._shape[a + 1:],
                                  indices._shape[:a] + (1,) + indices._shape[a + 1:]))
    shape[a] = indices._shape[a]
    shape = tuple(shape)
    if n == 0 and indices.size:
        raise IndexError(f"{name}: index out of bounds for an axis of size 0")
    indices = _int64_indices(indices, n, a)
    xs = x._shape[:a] + (1,) + x._shape[a + 1:]
    xb = broadcast_view(view(x, x._off, xs, x._strides[:a] + (0,) + x._strides[a + 1:]), shape)
    return broadcast_view(indices, shape), xb, shape, n, x._strides[a]


def take_along_axis(x, indices, /, *, axis=-1):
    """x[..., indices, ...] along `axis`, element by element: `indices` has
    x's number of dimensions and broadcasts with x in the others (as
    NumPy's take_along_axis)."""
    i, xv, shape, n, sa = _along_axis_plan("take_along_axis", x, indices, axis)
    qi = x._q
    out = empty_array(shape, x._dtype, qi, coerce_usm_type((x._alloc.kind, indices._alloc.kind)))
    if out.size:
        _engine.take(qi.ref, qi.kc, i, xv, out, n, sa)
    return out


def put_along_axis(x, indices, values, /, *, axis=-1):
    """x[..., indices, ...] = values along `axis`, element by element
    (`indices` as for take_along_axis; `values` broadcast to the shape of
    the selection and cast to x's dtype). An index out of bounds raises
    IndexError and changes nothing."""
    i, xv, shape, n, sa = _along_axis_plan("put_along_axis", x, indices, axis)
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    qi = x._q
    if not disjoint(i._alloc, x._alloc):
        i = astype(i, _dtypes.int64, copy=True)   # indices read from x's memory: taken first
    if 0 in shape:
        return
    _engine.put(qi.ref, qi.kc, i, xv, scatter_values(values, x, shape), n, sa)
