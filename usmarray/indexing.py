"""Indexing: ``x[key]`` and ``x[key] = value`` (bound onto usm_ndarray as
``__getitem__`` and ``__setitem__``), and the indexing functions: take,
take_along_axis (with dpctl.tensor's ``mode=``), put, put_along_axis,
place, extract.

Basic keys (integers, slices, Ellipsis, None, boolean scalars) give views;
boolean masks (device or host) and integer arrays anywhere in a key gather
as NumPy does; assignment into them broadcasts and casts. The plans and
kernels of the gathers and scatters are the core's (``_core/_indexing.py``).
Out-of-range indices of the functions follow dpctl.tensor's modes: "wrap"
clamps to ``[-n, n)`` and then wraps negative indices, "clip" clips to
``[0, n)``; ``mode=None`` (the array API's) or "raise" (NumPy's name)
raises IndexError for an index outside ``[-n, n)``.
"""

import math

import numpy as np

from . import elementwise as ew
from ._core import _dtypes, _engine
from ._core import _indexing as plans
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import assign, broadcast_view, cast, copy, host_value, to_queue, with_out
from ._core._device import coerce_usm_type
from ._core._exceptions import DTypeError, IndexShapeError
from ._core._indexing import (Advanced, basic_view, disjoint, flat_view, gather, index_kind,
                              int_key_offset, item_copy, scatter, store)
from ._core._layout import WRITABLE, broadcast_shapes
from ._core._masks import flat_mask, mask_offsets, true_positions
from ._core._scalars import as_scalar, is_scalar, numpy_scalar_into, scalar_array, scalar_bytes
from ._core._views import expand_dims, moveaxis, permute_dims, reshape
from ._core._kernels import compiled_together
from .creation import asarray
from .manipulation import concat
from .searching import count_nonzero, nonzero, where

__all__ = ["getitem", "setitem", "iterate", "take", "take_along_axis", "put", "put_along_axis",
           "place", "extract"]


def _getitem_mask(x, mask):
    """x[mask] for a bool array indexing x's leading dimensions: a copy of the
    selected elements (its length needs the true count on the host)."""
    k = mask.ndim
    mask = to_queue(mask, x._q)
    if k == 0:
        # NumPy's rule: a new axis of length 1 (True) or 0 (False)
        y = expand_dims(x, axis=0)
        return gather(y, (true_positions(reshape(mask, (1,))),))
    if k > x.ndim or any(m not in (d, 0) for m, d in zip(mask._shape, x._shape)):
        raise IndexError(f"boolean index of shape {mask.shape} does not match the indexed "
                         f"dimensions {x.shape[:k]} of the array")
    kind = coerce_usm_type((x._alloc.kind, mask._alloc.kind))   # (as dpctl.tensor's)
    if mask._shape != x._shape[:k]:
        # an empty mask selects nothing from any length (NumPy's rule)
        return empty_array((0,) + x._shape[k:], x._dtype, x._q, kind)
    xf = flat_view(x) if k == x.ndim else None
    if xf is not None:
        # one count, one compacting copy of the values
        m = flat_mask(mask)
        off, count = mask_offsets(m)
        out = empty_array((count,), x._dtype, x._q, kind)
        if count:
            qi = x._q
            _engine.mask_compact(qi.ref, qi.kc, m, xf, off, out, False)
        return out
    lead = 1
    for s in x._shape[:k]:
        lead *= s
    xr = reshape(x, (lead,) + x._shape[k:])
    return gather(xr, (true_positions(mask),))


def getitem(x, key):
    # An integer for every dimension gives a 0-d copy, as NumPy gives a
    # scalar: a value later stores into x do not change (docs/numpy.md,
    # "Integer indexing"); fewer integers give a view.
    k = int_key_offset(x, key)
    if k is not None:
        off, nk = k
        if nk == len(x._shape):
            return item_copy(x, off)
        return view(x, off, x._shape[nk:], x._strides[nk:])
    if isinstance(key, usm_ndarray) and key._dtype is _dtypes.bool:
        return _getitem_mask(x, key)
    try:
        off, shape, strides = basic_view(x, key)
    except Advanced:
        key = key if isinstance(key, tuple) else (key,)
        mask = _only_mask(x, key)
        if mask is not None:
            return _getitem_mask(x, mask)
        y, adv, dest = _advanced_plan(x, key)
        r = gather(y, adv)
        if dest:
            nb = r.ndim - (y.ndim - len(adv))
            r = moveaxis(r, tuple(range(nb)), tuple(range(dest, dest + nb)))
        return r
    if not shape and not _has_ellipsis(key):
        # integers (NumPy's, 0-d integer arrays) for every dimension: a copy
        # as above; with an Ellipsis (x[0, ...]) a 0-d view, as in NumPy
        return item_copy(x, off)
    if isinstance(key, np.ndarray) or (
            type(key) is tuple and any(isinstance(k, np.ndarray) for k in key)):
        # NumPy counts its 0-d index arrays as advanced indices: their result
        # is a copy (of the basic view's shape). A 0-d usm_ndarray is an
        # integer (the array API's rule) and gives a view, as dpctl.tensor's;
        # so does a boolean scalar (docs/numpy.md)
        return copy(view(x, off, shape, strides))
    return view(x, off, shape, strides)


def _has_ellipsis(key):
    """Whether a key holds an Ellipsis: a key of integers for every
    dimension gives an element (a copy, refusing sequences as its value),
    with an Ellipsis a 0-d view (NumPy's x[0, ...])."""
    return key is Ellipsis or (isinstance(key, tuple) and any(k is Ellipsis for k in key))


def iterate(x):
    """``iter(x)``: x[0], x[1], ... along the first axis (0-d copies of a 1-D
    array's items, views of the rows of others, as NumPy)."""
    if not x._shape:
        raise TypeError("iteration over a 0-d array")
    return (getitem(x, i) for i in range(x._shape[0]))


def _as_mask(k, x):
    """`k` as a boolean usm_ndarray on x's queue when it is a boolean array
    of at least one dimension (device, NumPy or a nested list), else None."""
    if isinstance(k, usm_ndarray):
        if k._dtype is not _dtypes.bool or k.ndim == 0:
            return None
        return to_queue(k, x._q)
    if isinstance(k, (list, np.ndarray)):
        a = np.asarray(k)
        if a.dtype.kind != "b" or a.ndim == 0:
            return None
        return asarray(a, sycl_queue=x.sycl_queue, usm_type=x.usm_type)   # (copied to x's USM type)
    return None


def _only_mask(x, key):
    """The device mask when `key` is one boolean array followed only by full
    slices and Ellipsis (``x[mask, :]``, ``x[mask, ...]``): x[mask] then."""
    rest = key[1:]
    if not all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in rest):
        return None
    if sum(k is Ellipsis for k in rest) > 1:
        return None
    m = _as_mask(key[0], x)
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
    # (kind, index, the length a mask requires of the dimension it indexes)
    entries = []
    n_ell = 0
    for k in key:
        m = _as_mask(k, x)
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
    # (whether the advanced indices are adjacent in the key as written: an
    # Ellipsis between them separates them even when it stands for no
    # dimension, as in NumPy)
    at = [j for j, e in enumerate(entries) if e[0] in ("adv", "bool")]
    adjacent = at == list(range(at[0], at[0] + len(at)))
    full = [("slice", slice(None), None)] * (x.ndim - consumed)
    if n_ell:
        i = next(j for j, e in enumerate(entries) if e[0] == "ellipsis")
        entries[i:i + 1] = full
    else:
        entries += full
    basic, positions, adv = [], [], []
    dim = 0
    for t, k, n in entries:
        if n is not None and n not in (x._shape[dim], 0):   # (an empty mask selects nothing)
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
    return y, tuple(adv), positions[0] if adjacent else 0


def _kind_or_array(k):
    """_index_kind, with 'adv' for integer arrays (and integers, which NumPy
    counts among the advanced indices when an index array is present)."""
    try:
        t = index_kind(k)
    except Advanced:
        return "adv"
    return "adv" if t == "int" else t


def _set_masked(x, mask, value, bare=True):
    """x[mask] = value for a boolean mask over x's leading dimensions and a
    scalar (or one-element) value: a where() into x. `bare`: the key is the
    mask alone, whose value NumPy limits to 0 or 1 dimensions (not that of
    ``x[mask, ...]``, which broadcasts as any other)."""
    if mask.ndim > x.ndim or any(m not in (d, 0) for m, d in zip(mask._shape, x._shape)):
        raise IndexError(f"boolean index of shape {mask._shape} does not match the indexed "
                         f"array's shape {x._shape}")
    if mask._shape != x._shape[:mask.ndim]:
        return   # an empty mask selects nothing (as in _getitem_mask)
    # (an index on another queue is moved to x's, as integer index arrays
    # and the mask of x[mask] are: the index is not data the result follows)
    mask = to_queue(mask, x._q)
    if not disjoint(mask._alloc, x._alloc):
        # a mask read from x's memory (x[x[::-1]] = v): read before x changes
        mask = copy(mask)
    m = view(mask, mask._off, mask._shape + (1,) * (x.ndim - mask.ndim),
             mask._strides + (0,) * (x.ndim - mask.ndim))
    m = broadcast_view(m, x._shape)
    value = numpy_scalar_into(value, x._dtype)
    if not isinstance(value, usm_ndarray) and as_scalar(value) is None:
        value = asarray(host_value(value, x._dtype), sycl_queue=x.sycl_queue,
                        usm_type=x.usm_type)
    if isinstance(value, usm_ndarray) and value.ndim > 1 and mask.ndim == x.ndim and bare:
        raise TypeError("boolean array indexing assignment requires a 0 or 1-dimensional "
                        f"input, input has {value.ndim} dimensions (as in NumPy)")
    if isinstance(value, usm_ndarray) and value.size != 1:
        # one value per selected element (or per selected row): a scatter
        xf = flat_view(x) if mask.ndim == x.ndim else None
        if xf is not None:
            mf = flat_mask(mask)
            off, count = mask_offsets(mf)
            v = empty_array((count,), x._dtype, x._q, x._alloc.kind)
            assign(v, value)
            if count:
                qi = x._q
                _engine.mask_expand(qi.ref, qi.kc, mf, xf, off, v)
            return

        scatter(x, nonzero(mask), value)
        return
    if isinstance(value, usm_ndarray):
        v = value if value._dtype is x._dtype else cast(value, x._dtype)
        v = broadcast_view(view(v, v._off, (), ()), x._shape)
    else:
        s = as_scalar(value)
        if s is None:
            raise TypeError(f"cannot assign a {type(value).__name__} through a boolean mask")
        scalar_bytes(s, x._dtype)   # the array API's scalar rules
        v = scalar_array(s, x._dtype, x._q, x._alloc.kind, x._shape)
    qi = x._q
    _engine.where(qi.ref, qi.kc, m, v, x, x)


def setitem(x, key, value):
    if (isinstance(value, (usm_ndarray, np.ndarray)) and value.dtype.kind == "c"
            and x._dtype.kind != "c"):
        # (every path: basic, integer-array and boolean-mask indexing)
        raise DTypeError(f"cannot assign a complex array ({value.dtype.name}) to an array "
                         f"of dtype {x._dtype.name}")
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if isinstance(key, usm_ndarray) and key.dtype == np.bool_ and key.ndim > 0:
        _set_masked(x, key, value)
        return
    try:
        off, shape, strides = basic_view(x, key)
    except Advanced:
        key = key if isinstance(key, tuple) else (key,)
        mask = _only_mask(x, key)
        if mask is not None:
            _set_masked(x, mask, value, bare=False)
            return
        y, adv, dest = _advanced_plan(x, key)
        if dest and not (isinstance(value, (bool, int, float, complex, np.generic))
                         and np.ndim(value) == 0):
            value = _value_for_plan(value, y, adv, dest)
        scatter(y, adv, value)
        return
    dst = view(x, off, shape, strides)
    if not shape and not _has_ellipsis(key) and (isinstance(value, (list, tuple)) or (
            isinstance(value, (usm_ndarray, np.ndarray)) and value.ndim)):
        # (an element is no sequence: NumPy 2's error; (1,) does not broadcast to ())
        raise ValueError("setting an array element with a sequence: the value has shape "
                         f"{np.shape(value)}, the element none")
    if is_scalar(value) and 0 in shape:
        scalar_bytes(value, x._dtype)  # still validate
    store(dst, value)


def _value_for_plan(value, y, adv, dest):
    """`value` of x[key] (NumPy's layout: the index dimensions at `dest`)
    broadcast and permuted to the layout of gather(y, adv): them first."""
    shapes = [np.shape(a) if not isinstance(a, usm_ndarray) else a._shape for a in adv]
    try:
        b = broadcast_shapes(*shapes)
    except ValueError:
        raise IndexShapeError("shape mismatch: indexing arrays could not be broadcast together "
                              f"with shapes {' '.join(map(str, shapes))}") from None
    rest = y._shape[len(adv):]
    v = value if isinstance(value, usm_ndarray) else \
        asarray(host_value(value, y._dtype), device=y._q.queue)
    # (broadcast as an assigned value: leading length-1 axes dropped, as NumPy)
    v = broadcast_view(v, rest[:dest] + b + rest[dest:])
    nb = len(b)
    return permute_dims(v, tuple(range(dest, dest + nb)) + tuple(range(dest))
                        + tuple(range(dest + nb, v.ndim)))


def _index_mode(indices, n, mode):
    """`indices` mapped into [0, n) as dpctl.tensor's `mode` says (None and
    "raise": as they are, the gather or scatter refusing any out of range)."""
    if mode not in ("wrap", "clip", "raise", None):
        raise ValueError(f"mode must be 'wrap', 'clip' or 'raise', got {mode!r}")
    if indices.dtype.kind not in "iu":
        raise IndexError(f"indices must be integers, got {indices.dtype.name}")
    if mode in ("raise", None):
        return indices
    if n == 0:
        if indices.size:
            raise IndexError("cannot index an axis of length 0")
        return indices
    if mode == "clip":
        return ew.clip(indices, 0, n - 1)
    i = ew.clip(indices, -n, n - 1)
    return where(ew.less(i, 0), ew.add(i, n), i) if indices.dtype.kind == "i" else i


def _one_item(x, axis):
    """A 0-d x as a view of one item along axis 0 (dpctl.tensor's take and
    put of 0-d arrays; axis None, 0 or -1)."""
    if isinstance(x, usm_ndarray) and x.ndim == 0 and axis in (None, 0, -1):
        return reshape(x, (1,)), 0
    return x, axis


@with_out
def take(x, indices, /, *, axis=None, mode=None):
    """Elements of `x` at the 1-D integer `indices` along `axis` (None only
    for 1-D `x`).

    ``mode=None`` (the array API's function) raises IndexError for an index
    outside ``[-n, n)``; dpctl.tensor's "wrap" and "clip" map such indices
    into range instead (see the module docstring). ``out=`` as dpctl.tensor.
    """
    x, axis = _one_item(x, axis)
    if mode is None:
        return plans.take(x, indices, axis=axis)
    a = plans.one_axis("take", x, indices, axis)
    return plans.take(x, _index_mode(indices, x.shape[a], mode), axis=a)


def take_along_axis(x, indices, /, *, axis=-1, mode=None):
    """x[..., indices, ...] element by element along `axis` (the array API's
    function); ``mode`` as for `take`."""
    if mode is None:
        return plans.take_along_axis(x, indices, axis=axis)
    a = plans.along_axis_checks("take_along_axis", x, indices, axis)
    return plans.take_along_axis(x, _index_mode(indices, x.shape[a], mode), axis=a)


def _values(vals, x):
    """`vals` as an array on x's queue with x's dtype (cast as assignment does)."""
    if isinstance(vals, usm_ndarray):
        return vals
    return asarray(vals, dtype=x.dtype, sycl_queue=x.sycl_queue)


@compiled_together
def put(x, indices, vals, /, *, axis=None, mode="wrap"):
    """x[..., indices, ...] = vals along `axis`, in place.

    Parameters
    ----------
    x : usm_ndarray
        Array written to (must be writable).
    indices : usm_ndarray
        One-dimensional integer indices.
    vals : usm_ndarray or scalar
        Values, broadcastable to ``x.shape[:axis] + indices.shape + x.shape[axis+1:]``.
    axis : int, optional
        Required unless `x` is one-dimensional.
    mode : {"wrap", "clip", "raise"}
        How out-of-range indices are treated (see the module docstring).

    Notes
    -----
    With repeated indices, which value lands is unspecified (as in dpctl.tensor).
    """
    x, axis = _one_item(x, axis)
    a = plans.one_axis("put", x, indices, axis)
    idx = _index_mode(indices, x.shape[a], mode)
    shape = x.shape[:a] + indices.shape + x.shape[a + 1:]
    v = broadcast_view(_values(vals, x), shape)
    moveaxis(x, a, 0)[idx] = moveaxis(v, a, 0)


@compiled_together
def put_along_axis(x, indices, vals, /, *, axis=-1, mode="wrap"):
    """x[i, ..., indices[i, ..., j, ...], ...] = vals element by element along `axis`.

    `indices` has x's number of dimensions and broadcasts with it in the
    other dimensions (as NumPy's put_along_axis); `vals` broadcasts to the
    shape of `indices`. See `put` for `mode`.
    """
    a = plans.along_axis_checks("put_along_axis", x, indices, axis)
    plans.put_along_axis(x, _index_mode(indices, x.shape[a], mode), _values(vals, x), axis=a)


@compiled_together
def extract(condition, arr, /):
    """The elements of `arr` where `condition` is true, as a 1-D array
    (``arr[condition]`` flattened; both have one shape, as in dpctl.tensor;
    non-bool conditions count as true where nonzero). ``numpy.extract``
    takes the two flattened, of any sizes (usmarray.numpy_protocols)."""
    if not isinstance(condition, usm_ndarray) or not isinstance(arr, usm_ndarray):
        raise TypeError("extract: condition and arr must be usm_ndarrays")
    if condition.shape != arr.shape:
        raise ValueError(f"extract: condition of shape {condition.shape} does not match "
                         f"arr of shape {arr.shape}")
    if condition.dtype.kind != "b":
        condition = ew.not_equal(condition, 0)
    if arr.ndim == 0:
        arr, condition = reshape(arr, (1,)), reshape(condition, (1,))
    return arr[condition]


@compiled_together
def place(arr, mask, vals, /):
    """Write `vals` in order into the positions of `arr` where `mask` is true,
    repeating `vals` when there are more such positions (as numpy.place)."""
    if not isinstance(arr, usm_ndarray) or not isinstance(mask, usm_ndarray):
        raise TypeError("place: arr and mask must be usm_ndarrays")
    if mask.shape != arr.shape:
        raise ValueError(f"place: mask of shape {mask.shape} does not match arr of "
                         f"shape {arr.shape}")
    if mask.dtype.kind != "b":
        mask = ew.not_equal(mask, 0)
    v = reshape(_values(vals, arr), (-1,))
    n = int(count_nonzero(mask))
    if n == 0:
        return
    if v.size == 0:
        raise ValueError("place: cannot place values from an empty array")
    if v.size < n:
        v = concat([v] * math.ceil(n / v.size))
    if arr.ndim == 0:
        arr, mask = reshape(arr, (1,)), reshape(mask, (1,))
    arr[mask] = v[:n]
