"""Indexing: basic keys (integers, slices, Ellipsis, None, boolean scalars) give views;
boolean masks (device or host) and integer arrays anywhere in a key gather as NumPy does;
and assignment into them with broadcasting and casting."""

import operator

import numpy as np

from . import _dtypes, _engine
from ._exceptions import AxisError
from ._array import C_CONTIG, WRITABLE, empty_array, usm_ndarray, view
from ._copy import assign, astype, broadcast_shapes, broadcast_view

__all__ = ["getitem", "setitem", "basic_view", "scalar_bytes"]


class _Advanced(Exception):
    """The key holds integer arrays: handled by integer array indexing."""


def _index_kind(k):
    """'int', 'slice', 'ellipsis', 'none', 'bool' or raise IndexError/_Advanced."""
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
            raise _Advanced
        raise IndexError(f"index arrays must be integer or boolean arrays, got {k.dtype.name}")
    if isinstance(k, (list, np.ndarray)):
        a = np.asarray(k)
        if a.dtype.kind == "b" and a.ndim == 0:
            return "bool"
        if a.dtype.kind in "iub" or (a.size == 0 and a.dtype.kind == "f"):
            raise _Advanced
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
    kinds = [_index_kind(k) for k in key]
    if "bool" in kinds and "int" in kinds:
        # NumPy counts both as advanced indices: placed first when apart
        raise _Advanced
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
            strides.append(x._strides[dim] * step)
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


def merged_stride(shape, strides):
    """The one stride that walks dimensions `shape` in C order (1 when they
    hold at most one element), or None when they do not merge."""
    st = None
    for n, s in zip(reversed(shape), reversed(strides)):
        if n == 1:
            continue
        if st is None:
            st = (s, n)
        elif s != st[0] * st[1]:
            return None
        else:
            st = (st[0], st[1] * n)
    return 1 if st is None else st[0]


def _flat_view(x):
    """x as a 1-D view (any stride), or None when its dimensions do not merge."""
    s = merged_stride(x._shape, x._strides)
    return None if s is None else view(x, x._off, (x.size,), (s,))


def _getitem_mask(x, mask):
    """x[mask] for a bool array indexing x's leading dimensions: a copy of the
    selected elements (its length needs the true count on the host)."""
    from .manipulation import expand_dims, reshape
    from .searching import true_positions

    k = mask.ndim
    if mask._q is not x._q:
        mask = mask.to_device(x._q.queue)
    if k == 0:
        # NumPy's rule: a new axis of length 1 (True) or 0 (False)
        y = expand_dims(x, axis=0)
        return _take(y, (true_positions(reshape(mask, (1,))),))
    if k > x.ndim or any(m not in (d, 0) for m, d in zip(mask._shape, x._shape)):
        raise IndexError(f"boolean index of shape {mask.shape} does not match the indexed "
                         f"dimensions {x.shape[:k]} of the array")
    if mask._shape != x._shape[:k]:
        # an empty mask selects nothing from any length (NumPy's rule)
        return empty_array((0,) + x._shape[k:], x._dtype, x._q, x._alloc.kind)
    xf = _flat_view(x) if k == x.ndim else None
    if xf is not None:
        # one count, one compacting copy of the values
        from .searching import flat_mask, mask_offsets

        m = flat_mask(mask)
        off, count = mask_offsets(m)
        out = empty_array((count,), x._dtype, x._q, x._alloc.kind)
        if count:
            qi = x._q
            _engine.mask_compact(qi.ref, qi.kc, m, xf, off, out, False)
        return out
    lead = 1
    for s in x._shape[:k]:
        lead *= s
    xr = reshape(x, (lead,) + x._shape[k:])
    return _take(xr, (true_positions(mask),))


def getitem(x, key):
    if isinstance(key, usm_ndarray) and key._dtype is _dtypes.bool:
        return _getitem_mask(x, key)
    try:
        off, shape, strides = basic_view(x, key)
    except _Advanced:
        key = key if isinstance(key, tuple) else (key,)
        mask = _only_mask(x, key)
        if mask is not None:
            return _getitem_mask(x, mask)
        y, adv, dest = _advanced_plan(x, key)
        r = _take(y, adv)
        if dest:
            from .manipulation import moveaxis

            nb = r.ndim - (y.ndim - len(adv))
            r = moveaxis(r, tuple(range(nb)), tuple(range(dest, dest + nb)))
        return r
    return view(x, off, shape, strides)


def _as_mask(k, qi):
    """`k` as a boolean usm_ndarray on queue `qi` when it is a boolean array
    of at least one dimension (device, NumPy or a nested list), else None."""
    if isinstance(k, usm_ndarray):
        if k._dtype is not _dtypes.bool or k.ndim == 0:
            return None
        return k if k._q is qi else k.to_device(qi.queue)
    if isinstance(k, (list, np.ndarray)):
        a = np.asarray(k)
        if a.dtype.kind != "b" or a.ndim == 0:
            return None
        from .creation import asarray

        return asarray(a, device=qi.queue)    # a host mask is copied to the device
    return None


def _only_mask(x, key):
    """The device mask when `key` is one boolean array followed only by full
    slices and Ellipsis (``x[mask, :]``, ``x[mask, ...]``): x[mask] then."""
    rest = key[1:]
    if not all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in rest):
        return None
    if sum(k is Ellipsis for k in rest) > 1:
        return None
    m = _as_mask(key[0], x._q)
    if m is None:
        return None
    n = m.ndim + sum(k is not Ellipsis for k in rest)
    if n > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{n} were indexed")
    return m


def _advanced_plan(x, key):
    """NumPy's advanced indexing as a gather: (y, adv, dest) where `y` is a
    view of x (the key's basic part applied, the indexed dimensions moved to
    the front), `adv` the integers and integer arrays indexing y's leading
    dimensions (each boolean mask replaced by its nonzero() arrays) and
    `dest` where the broadcast index dimensions go in the result (NumPy's
    rule: in place when the advanced indices are adjacent, else first)."""
    from .manipulation import permute_dims
    from .searching import nonzero

    qi = x._q
    # (kind, index, the length a mask requires of the dimension it indexes)
    entries = []
    n_ell = 0
    for k in key:
        m = _as_mask(k, qi)
        if m is not None:
            entries.extend(("adv", a, n) for a, n in zip(nonzero(m), m._shape))
            continue
        t = _kind_or_array(k)
        if t == "ellipsis":
            n_ell += 1
        entries.append((t, k, None))
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(t in ("adv", "slice") for t, _, _ in entries)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    full = [("slice", slice(None), None)] * (x.ndim - consumed)
    if n_ell:
        i = next(j for j, e in enumerate(entries) if e[0] == "ellipsis")
        entries[i:i + 1] = full
    else:
        entries += full
    basic, positions, adv = [], [], []
    dim = 0
    for t, k, n in entries:
        if n is not None and x._shape[dim] != n:
            raise IndexError(f"boolean index did not match the indexed array along axis {dim}: "
                             f"the axis has length {x._shape[dim]}, the mask {n}")
        dim += t in ("adv", "slice")
        if t == "bool":
            # a boolean scalar among index arrays: a new axis indexed by [0] or []
            basic.append(None)
            positions.append(len(basic) - 1)
            adv.append(np.zeros(1 if bool(k) else 0, np.int64))
        elif t == "adv":
            basic.append(slice(None))
            positions.append(len(basic) - 1)
            adv.append(k)
        else:
            basic.append(k)
    y = getitem(x, tuple(basic))
    rest = [d for d in range(y.ndim) if d not in positions]
    y = permute_dims(y, tuple(positions) + tuple(rest))
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    return y, tuple(adv), positions[0] if adjacent else 0


def _kind_or_array(k):
    """_index_kind, with 'adv' for integer arrays (and integers, which NumPy
    counts among the advanced indices when an index array is present)."""
    try:
        t = _index_kind(k)
    except _Advanced:
        return "adv"
    return "adv" if t == "int" else t


def _take(x, key):
    """x[key] for a key whose leading entries are integers and integer arrays
    (one per dimension, broadcast together) followed by basic indices: a
    gather (the array API's integer array indexing; NumPy's result layout)."""
    qi = x._q
    i, xv, out_shape, rows = _axis0_plan(x, key) or _gather_plan(x, key)
    out = empty_array(out_shape, x._dtype, qi, x._alloc.kind)
    if rows:
        # rows of xv at int64 positions i: the gather of one axis (bounds
        # checked on the device)
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
        from .manipulation import reshape

        i1 = reshape(idx, (-1,))
    if i1._dtype is not _dtypes.int64 or not i1._flags & 1:
        i1 = astype(i1, _dtypes.int64, order="C")
    xv = view(x, x._off, (x._shape[0], inner), (x._strides[0], si))
    return i1, xv, idx._shape + x._shape[1:], True


def _as_rows(a, i, xv):
    """The new C-contiguous `a` (the selection's shape) as the (len(i),
    row length of xv) matrix the engine's gather and scatter take."""
    inner = xv._shape[1]
    return view(a, 0, (i._shape[0], inner), (inner, 1))


def _put(x, key, value):
    """x[key] = value for the keys _take accepts: `value` (any array-like or
    scalar) broadcast to x[key]'s shape and cast to x's dtype, then scattered."""
    plan = _axis0_plan(x, key)
    if plan is not None and plan[0]._alloc is x._alloc:
        # indices read from x itself: taken before x changes
        plan = (astype(plan[0], _dtypes.int64, copy=True),) + plan[1:]
    i, xv, out_shape, rows = plan or _gather_plan(x, key)
    qi = x._q
    v = _scatter_values(value, x, out_shape)
    if rows:
        # bounds checked on the device first (one wait), then one scatter
        _engine.scatter(qi.ref, qi.kc, xv, i, _as_rows(v, i, xv))
    else:
        _engine.put(qi.ref, qi.kc, i, xv, v, 0, 1)


def _scatter_values(value, x, shape):
    """`value` as a scatter into x reads it, `shape` items of x's dtype:
    `value` itself when it is such an array, C-contiguous, on x's queue and
    outside x's memory (which the scatter writes while it reads), else a new
    array with `value` broadcast and cast into it."""
    if (isinstance(value, usm_ndarray) and value._q is x._q and value._dtype == x._dtype
            and value._shape == shape and value._flags & C_CONTIG):
        a, b = value._alloc, x._alloc
        # (two imports of one memory are two allocations: compare addresses)
        if a.ptr + a.nbytes <= b.ptr or b.ptr + b.nbytes <= a.ptr:
            return value
    v = empty_array(shape, x._dtype, x._q, x._alloc.kind)
    _store(v, value)
    return v


def _gather_plan(x, key):
    """(int64 element offsets, view of x, result shape, rows) of an
    integer-array index. The offsets take one pass per index array on the
    device and one wait (an index out of bounds raises IndexError). rows:
    the dimensions left after the gathered ones merge, and the plan is that
    of _axis0_plan (1-D offsets, x as (n0, inner)); else the offsets are
    broadcast over the result and the view walks the remaining dimensions."""
    from .creation import asarray
    from .reduction import max as rmax

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
    y = getitem(x, (slice(None),) * k + tuple(key[k:]))
    arrays, base = [], 0
    for d in range(k):
        e = key[d]
        n = x._shape[d]
        if isinstance(e, usm_ndarray) or isinstance(e, (list, np.ndarray)):
            a = e if isinstance(e, usm_ndarray) else asarray(np.asarray(e, dtype=np.int64), device=qi.queue)
            if a._dtype.kind not in "iu":
                raise IndexError(f"index arrays must be integer arrays, got {a._dtype.name}")
            if a._q is not qi:
                a = a.to_device(qi.queue)
            if a._dtype is _dtypes.uint64:
                # values past int64's range would wrap negative in the cast
                if a.size and int(rmax(a)) >= n:
                    raise IndexError(f"an index is out of bounds for axis {d} with size {n}")
            if a._dtype is not _dtypes.int64:
                a = astype(a, _dtypes.int64)
            arrays.append((d, a))
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
    s2 = broadcast_shapes(*(a._shape for _, a in arrays))
    offs = empty_array(s2, _dtypes.int64, qi, "device")
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


def scalar_bytes(value, dt, strict=True):
    """Bytes of the Python scalar `value` as an item of dtype `dt`.

    strict: the array API's rules for mixing Python scalars with arrays (an
    int goes into integer, floating and complex arrays, a float into
    floating and complex ones, a complex only into complex ones; a bool into
    any); otherwise NumPy's unsafe cast. Integers that do not fit raise
    OverflowError either way.
    """
    if isinstance(value, (np.generic, np.ndarray)) and np.ndim(value) == 0:
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        raise TypeError(f"expected a Python scalar, got {type(value).__name__}")
    if strict and not isinstance(value, bool):
        allowed = "iufc" if isinstance(value, int) else "fc" if isinstance(value, float) else "c"
        if dt.kind not in allowed:
            raise TypeError(f"cannot assign a Python {type(value).__name__} to an array of "
                            f"dtype {dt.name}")
    if isinstance(value, int) and not isinstance(value, bool) and dt.kind in "iu":
        info = np.iinfo(dt)
        if value < info.min or value > info.max:
            raise OverflowError(f"Python int {value} out of bounds for {dt.name}")
    if dt.kind == "b":
        return np.array(bool(value), dtype=dt).tobytes()
    if isinstance(value, complex) and dt.kind != "c":
        value = value.real
    if isinstance(value, float) and dt.kind in "iu":
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"cannot convert {value} to {dt.name}")
        value = int(value)
        info = np.iinfo(dt)
        if value < info.min or value > info.max:
            raise OverflowError(f"{value} out of bounds for {dt.name}")
    with np.errstate(over="ignore"):
        return np.array(value, dtype=dt).tobytes()


def fill(x, value_bytes):
    """x[...] = one item given as bytes (a kernel or a device fill)."""
    qi = x._q
    _engine.fill(qi.ref, qi.kc, x, value_bytes)


def _set_masked(x, mask, value):
    """x[mask] = value for a boolean mask over x's leading dimensions and a
    scalar (or one-element) value: a where() into x."""
    from .elementwise import _as_scalar, _cast, _scalar_array

    if mask.ndim > x.ndim or any(m not in (d, 0) for m, d in zip(mask._shape, x._shape)):
        raise IndexError(f"boolean index of shape {mask._shape} does not match the indexed "
                         f"array's shape {x._shape}")
    if mask._shape != x._shape[:mask.ndim]:
        return   # an empty mask selects nothing (as in _getitem_mask)
    if mask._q is not x._q:
        from ._device import common_queue

        common_queue(x, mask)
    m = view(mask, mask._off, mask._shape + (1,) * (x.ndim - mask.ndim),
             mask._strides + (0,) * (x.ndim - mask.ndim))
    m = broadcast_view(m, x._shape)
    if not isinstance(value, usm_ndarray) and _as_scalar(value) is None:
        from .creation import asarray

        value = asarray(value, sycl_queue=x.sycl_queue)
    if isinstance(value, usm_ndarray) and value.size != 1:
        # one value per selected element (or per selected row): a scatter
        from .searching import flat_mask, mask_offsets, nonzero

        xf = _flat_view(x) if mask.ndim == x.ndim else None
        if xf is not None:
            mf = flat_mask(mask)
            off, count = mask_offsets(mf)
            v = empty_array((count,), x._dtype, x._q, x._alloc.kind)
            assign(v, value)
            if count:
                qi = x._q
                _engine.mask_expand(qi.ref, qi.kc, mf, xf, off, v)
            return

        _put(x, nonzero(mask), value)
        return
    if isinstance(value, usm_ndarray):
        v = value if value._dtype is x._dtype else _cast(value, x._dtype)
        v = broadcast_view(view(v, v._off, (), ()), x._shape)
    else:
        s = _as_scalar(value)
        if s is None:
            raise TypeError(f"cannot assign a {type(value).__name__} through a boolean mask")
        scalar_bytes(s, x._dtype)   # the array API's scalar rules
        v = _scalar_array(s, x._dtype, x._q, x._alloc.kind, x._shape)
    qi = x._q
    _engine.where(qi.ref, qi.kc, m, v, x, x)


def setitem(x, key, value):
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if isinstance(key, usm_ndarray) and key.dtype == np.bool_ and key.ndim > 0:
        _set_masked(x, key, value)
        return
    try:
        off, shape, strides = basic_view(x, key)
    except _Advanced:
        key = key if isinstance(key, tuple) else (key,)
        mask = _only_mask(x, key)
        if mask is not None:
            _set_masked(x, mask, value)
            return
        y, adv, dest = _advanced_plan(x, key)
        if dest and not (isinstance(value, (bool, int, float, complex, np.generic))
                         and np.ndim(value) == 0):
            value = _value_for_plan(value, y, adv, dest)
        _put(y, adv, value)
        return
    dst = view(x, off, shape, strides)
    if _is_scalar(value) and 0 in shape:
        scalar_bytes(value, x._dtype)  # still validate
    _store(dst, value)


def _is_scalar(value):
    return isinstance(value, (bool, int, float, complex, np.generic)) and np.ndim(value) == 0


def _store(dst, value):
    """dst[...] = value: a Python or NumPy scalar filled in (by the array
    API's rules), anything else assigned (broadcast, cast)."""
    if not _is_scalar(value):
        assign(dst, value)
    elif dst.size:
        fill(dst, scalar_bytes(value, dst._dtype))


def _value_for_plan(value, y, adv, dest):
    """`value` of x[key] (NumPy's layout: the index dimensions at `dest`)
    broadcast and permuted to the layout of _take(y, adv): them first."""
    from .creation import asarray
    from .manipulation import broadcast_to, permute_dims

    b = broadcast_shapes(*(np.shape(a) if not isinstance(a, usm_ndarray) else a._shape
                           for a in adv))
    rest = y._shape[len(adv):]
    v = value if isinstance(value, usm_ndarray) else asarray(value, device=y._q.queue)
    v = broadcast_to(v, rest[:dest] + b + rest[dest:])
    nb = len(b)
    return permute_dims(v, tuple(range(dest, dest + nb)) + tuple(range(dest))
                        + tuple(range(dest + nb, v.ndim)))


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
    return _axis_of(axis, x.ndim)


def _axis_of(axis, nd):
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise AxisError(f"axis {axis} is out of bounds for an array of dimension {nd}")
    return a % nd


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
    return _axis_of(axis, nd)


def along_axis_key(name, x, indices, axis, map_indices=None):
    """The index tuple of take_along_axis/put_along_axis: `indices` (mapped
    by ``map_indices(indices, length)`` when given) along `axis`, and aranges
    broadcasting along the other dimensions (NumPy's rules)."""
    from .creation import arange
    from .manipulation import reshape

    a = along_axis_checks(name, x, indices, axis)
    nd = x.ndim
    keys = []
    for d in range(nd):
        if d == a:
            keys.append(indices if map_indices is None else map_indices(indices, x._shape[d]))
        else:
            r = arange(x._shape[d], dtype=_dtypes.int64, sycl_queue=x.sycl_queue)
            keys.append(reshape(r, (1,) * d + (x._shape[d],) + (1,) * (nd - d - 1)))
    return tuple(keys)


def take(x, indices, /, *, axis=None):
    """Elements of `x` at integer `indices` (1-D) along `axis` (which may be
    None only for 1-D `x`); negative indices count from the end."""
    from .manipulation import moveaxis

    axis = one_axis("take", x, indices, axis)
    if axis == 0:
        return _take(x, (indices,))
    r = _take(moveaxis(x, axis, 0), (indices,))
    return moveaxis(r, 0, axis)


def _along_axis_plan(name, x, indices, axis):
    """(int64 indices, view of x, shape, length and stride of the axis) of
    take_along_axis/put_along_axis: indices and x broadcast to the result's
    shape, x with a zero stride along `axis`, where the kernel steps by the
    index times the axis' stride (bounds checked on the device). None for
    uint64 indices (the general plan of along_axis_key checks those)."""
    a = along_axis_checks(name, x, indices, axis)
    if indices._dtype.kind not in "iu":
        raise IndexError(f"{name}: indices must be integers, got {indices._dtype.name}")
    if indices._dtype is _dtypes.uint64:
        return None
    if indices._q is not x._q:
        indices = indices.to_device(x._q.queue)
    n = x._shape[a]
    shape = list(broadcast_shapes(x._shape[:a] + (1,) + x._shape[a + 1:],
                                  indices._shape[:a] + (1,) + indices._shape[a + 1:]))
    shape[a] = indices._shape[a]
    shape = tuple(shape)
    if n == 0 and indices.size:
        raise IndexError(f"{name}: index out of bounds for an axis of size 0")
    if indices._dtype is not _dtypes.int64:
        indices = astype(indices, _dtypes.int64)
    xs = x._shape[:a] + (1,) + x._shape[a + 1:]
    xb = broadcast_view(view(x, x._off, xs, x._strides[:a] + (0,) + x._strides[a + 1:]), shape)
    return broadcast_view(indices, shape), xb, shape, n, x._strides[a]


def take_along_axis(x, indices, /, *, axis=-1):
    """x[..., indices, ...] along `axis`, element by element: `indices` has
    x's number of dimensions and broadcasts with x in the others (as
    NumPy's take_along_axis)."""
    plan = _along_axis_plan("take_along_axis", x, indices, axis)
    if plan is None:
        return _take(x, along_axis_key("take_along_axis", x, indices, axis))
    i, xv, shape, n, sa = plan
    qi = x._q
    out = empty_array(shape, x._dtype, qi, x._alloc.kind)
    if out.size:
        _engine.take(qi.ref, qi.kc, i, xv, out, n, sa)
    return out


def put_along_axis(x, indices, values, /, *, axis=-1):
    """x[..., indices, ...] = values along `axis`, element by element
    (`indices` as for take_along_axis; `values` broadcast to the shape of
    the selection and cast to x's dtype). An index out of bounds raises
    IndexError and changes nothing."""
    plan = _along_axis_plan("put_along_axis", x, indices, axis)
    if plan is None:
        setitem(x, along_axis_key("put_along_axis", x, indices, axis), values)
        return
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    i, xv, shape, n, sa = plan
    qi = x._q
    if i._alloc is x._alloc:
        i = astype(i, _dtypes.int64, copy=True)   # indices read from x itself: taken first
    if 0 in shape:
        return
    _engine.put(qi.ref, qi.kc, i, xv, _scatter_values(values, x, shape), n, sa)
