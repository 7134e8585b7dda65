"""NumPy's index helpers beyond the array API: ``indices``, ``ix_``,
``mgrid``, ``ogrid``, ``r_``, ``c_``, ``unravel_index``,
``ravel_multi_index``, ``delete`` and ``insert``.

Index arithmetic runs on the device in int64. Index *parameters* that shape
the result (``delete``'s and ``insert``'s ``obj``, ``ix_``'s sequences, the
``shape``/``dims`` tuples) may be host data, as NumPy users write them
(``np.delete(x, [0, 2])``); a usm_ndarray ``obj`` is read to the host, since
the result's length depends on it. Data (``insert``'s ``values``) must be on
the device or a Python scalar. ``unravel_index`` and ``ravel_multi_index``
check bounds as NumPy does: the host waits for one bool."""

import math
import operator

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._kernels import compiled_together
from ._core._array import empty_array, usm_ndarray
from ._core._copy import asnumpy, astype, broadcast_view, copy_into
from ._core._device import coerce_usm_type, coerced_kind, common_queue, resolve_queue
from ._core._indexing import take
from ._core._layout import broadcast_shapes
from ._core._views import (check_array, moveaxis, normalize_axis, permute_dims, reshape,
                           swapaxes)
from .creation import arange, asarray, full
from .manipulation import concat
from .elementwise import mixed_operand_error
from .reduction import any as _any, min as _min, max as _max
from .searching import nonzero

__all__ = ["indices", "ix_", "mgrid", "ogrid", "r_", "c_", "unravel_index", "ravel_multi_index",
           "delete", "insert"]


def indices(dimensions, dtype=None, sparse=False, *, device=None, usm_type="device",
            sycl_queue=None):
    """An array of grid indices, as ``numpy.indices``.

    Parameters
    ----------
    dimensions : sequence of ints
        The shape of the grid.
    dtype : dtype, optional
        Default int64 (NumPy's int).
    sparse : bool
        Return one broadcastable array per dimension instead of a dense stack.
    device, usm_type, sycl_queue
        Where the arrays are made.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Dense: shape ``(len(dimensions),) + dimensions``, ``out[i]`` the index
        along dimension i. Sparse: arrays of shape (1, ..., n_i, ..., 1).
    """
    dims = tuple(operator.index(d) for d in dimensions)
    if dtype is None or np.dtype(dtype) == np.dtype(int):
        dtype = _dtypes.int64
    qi = resolve_queue(device, sycl_queue)
    n = len(dims)
    parts = [reshape(arange(d, dtype=dtype, sycl_queue=qi.queue, usm_type=usm_type),
                     (1,) * i + (d,) + (1,) * (n - i - 1)) for i, d in enumerate(dims)]
    if sparse:
        return tuple(parts)
    out = empty_array((n,) + dims, _dtypes.to_dtype(dtype), qi, usm_type)
    for i, p in enumerate(parts):
        if p.size and out[i].size:
            copy_into(out[i], broadcast_view(p, dims))
    return out


def _device_index(value, q, what, kind="device"):
    """An index sequence as a usm_ndarray on queue `q` (host data is copied
    into USM of type `kind`)."""
    if isinstance(value, usm_ndarray):
        return value
    h = np.asarray(value)
    if h.size == 0:
        h = h.astype(np.int64)   # an empty list indexes nothing, as in NumPy
    if h.dtype.kind not in "biu":
        raise IndexError(f"{what}: arrays used as indices must be of integer (or boolean) type")
    return asarray(h, sycl_queue=q, usm_type=kind)


def ix_(*args):
    """An open mesh from 1-d index sequences, as ``numpy.ix_``.

    Parameters
    ----------
    *args : usm_ndarray or sequence
        1-d integer or boolean index arrays (host sequences are copied to the
        queue of the usm_ndarrays among them, or the default one).

    Returns
    -------
    tuple of usm_ndarray
        ``out[k]`` of shape (1, ..., n_k, ..., 1), so that ``a[ix_(i, j)]``
        is the cross product of the indices. Boolean arrays become the
        indices of their true elements.
    """
    dev = [a for a in args if isinstance(a, usm_ndarray)]
    q = dev[0].sycl_queue if dev else resolve_queue().queue
    nd = len(args)
    out = []
    for k, a in enumerate(args):
        a = _device_index(a, q, "ix_", coerced_kind(dev))
        if a.ndim != 1:
            raise ValueError("ix_: cross index must be 1 dimensional")
        if a.dtype.kind == "b":
            a = nonzero(a)[0]
        out.append(reshape(a, (1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


_INTP_MAX = 2 ** 63 - 1


class _Grid:
    """``mgrid`` (dense) and ``ogrid`` (sparse): ``mgrid[0:5, 0:1:3j]`` are
    the coordinates of a grid, as NumPy's. A slice's items follow NumPy's
    arithmetic (``start + i * step`` in the slices' result type; a complex
    step ``nj`` asks for n points from start to stop inclusive), computed
    on the host for each axis (a few numbers) and broadcast on the device
    of the default queue."""

    def __init__(self, sparse):
        self.sparse = sparse

    @staticmethod
    def _parts(k):
        if not isinstance(k, slice):
            raise IndexError("mgrid and ogrid take slices, such as [0:5] or [0:1:5j]")
        start = 0 if k.start is None else k.start
        step = 1 if k.step is None else k.step
        if isinstance(step, (complex, np.complexfloating)):
            n = int(abs(step))
            return start, k.stop, abs(step), n, (k.stop - start) / float(n - 1) if n != 1 else 1
        if k.stop is None:
            raise IndexError("mgrid and ogrid need a stop in each slice")
        return start, k.stop, step, int(math.ceil((k.stop - start) / (step * 1.0))), step

    def __getitem__(self, key):
        qi = resolve_queue(None, None)
        q = qi.queue
        if not isinstance(key, tuple):
            start, stop, step0, n, step = self._parts(key)
            if isinstance(key.step, (complex, np.complexfloating)):
                typ = np.result_type(start, stop, step0)
                h = np.arange(0, n, 1, dtype=typ) * step + start
            else:
                h = np.arange(start, stop, step)
            return asarray(h, sycl_queue=q)
        parts = [self._parts(k) for k in key]
        typ = np.result_type(*(v for p in parts for v in p[:3]))
        if not self.sparse and any(p[3] < 0 for p in parts):
            raise ValueError("negative dimensions are not allowed")
        sizes = tuple(max(p[3], 0) for p in parts)
        nd = len(parts)
        axes = []
        for k, p in enumerate(parts):
            h = np.arange(sizes[k], dtype=typ) * p[4] + p[0]
            shape = (1,) * k + (sizes[k],) + (1,) * (nd - k - 1)
            axes.append(reshape(asarray(h, sycl_queue=q), shape))
        if self.sparse:
            return tuple(axes)
        dt = np.result_type(*(a.dtype for a in axes))
        out = empty_array((nd,) + sizes, dt, qi, "device")
        for k, a in enumerate(axes):
            copy_into(out[k], broadcast_view(astype(a, dt, copy=False), sizes))
        return out


mgrid = _Grid(False)
ogrid = _Grid(True)


class _Concatenator:
    """``r_`` and ``c_``: arrays joined by indexing, as NumPy's
    (``r_[x, 0, 1:4, y]``). Items are usm_ndarrays, slices (``start:stop:step``
    as ``arange``, a complex step ``nj`` as n points of ``linspace``), scalars
    and host sequences (made on the device, as ``asarray`` would, in the
    usm_ndarrays' USM type); a string
    first item is NumPy's directive ``"axis"``, ``"axis,ndmin"`` or
    ``"axis,ndmin,trans1d"``. The result has NumPy's dtype (Python scalars
    weak, as ``numpy.result_type`` takes them) on the queue of the
    usm_ndarrays, or the default queue when there are none. NumPy's matrix
    directives ``"r"`` and ``"c"`` are refused: usmarray has no matrix class."""

    def __init__(self, axis, ndmin, trans1d):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    @staticmethod
    def _directive(item):
        if item in ("r", "c"):
            raise ValueError(f"the matrix directive {item!r} is not supported: usmarray has "
                             "no matrix class")
        try:
            vals = [int(v) for v in item.split(",")]
        except ValueError:
            raise ValueError(f"unknown special directive {item!r}") from None
        # (NumPy's: axis, ndmin; trans1d only as the third of exactly three)
        return vals if len(vals) <= 3 else vals[:2]

    def _lift(self, a, ndim, trans1d):
        """`a` with leading axes up to ndmin, its own axes placed as NumPy's
        ``trans1d`` says."""
        ndmin = self.ndmin if ndim is None else ndim
        if a.ndim >= ndmin:
            return a
        k2 = ndmin - a.ndim
        a = reshape(a, (1,) * k2 + a.shape)
        if trans1d == -1:
            return a
        k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
        axes = list(range(ndmin))
        return permute_dims(a, tuple(axes[:k1] + axes[k2:] + axes[k1:k2]))

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        if key and isinstance(key[0], str):
            vals = self._directive(key[0])
            axis = vals[0]
            if len(vals) > 1:
                ndmin = vals[1]
            if len(vals) > 2:
                trans1d = vals[2]
            key = key[1:]
        arrays = [k for k in key if isinstance(k, usm_ndarray)]
        qi = common_queue(*arrays) if arrays else resolve_queue(None, None)
        usm = coerce_usm_type(a.usm_type for a in arrays) if arrays else "device"
        parts, types = [], []
        for item in key:
            if isinstance(item, str):
                raise ValueError("special directives must be the first entry.")
            if isinstance(item, slice):
                h = np.r_[item]
                parts.append(("slice", h))
                types.append(h.dtype)
            elif isinstance(item, (bool, int, float, complex, np.generic)):
                parts.append(("scalar", item))
                types.append(item)
            elif isinstance(item, usm_ndarray):
                parts.append(("array", item))
                types.append(item.dtype)
            else:
                h = np.asarray(item)
                if h.dtype.kind not in "biufc":
                    raise TypeError(f"r_/c_: unsupported item of type {type(item).__name__}")
                parts.append(("host", h))
                types.append(h.dtype)
        if not parts:
            raise ValueError("need at least one array to concatenate")
        dt = _dtypes.device_dtype(_dtypes.to_dtype(np.result_type(*types)), qi)
        objs = []
        for kind, v in parts:
            if kind == "array":
                a = astype(v, dt, copy=False)
            else:
                a = asarray(np.asarray(v, dtype=dt), usm_type=usm, sycl_queue=qi.queue)
            if kind == "scalar":
                a = reshape(a, (1,) * ndmin)
            elif kind == "slice":
                # (NumPy swaps a slice's axis with trans1d rather than moving it)
                if ndmin > 1:
                    a = reshape(a, (1,) * (ndmin - 1) + a.shape)
                    if trans1d != -1:
                        a = swapaxes(a, -1, trans1d)
            else:
                a = self._lift(a, ndmin, trans1d)
            objs.append(a)
        return concat(objs, axis=axis)

    def __len__(self):
        return 0


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    return tuple(operator.index(s) for s in shape)


def _as_int_array(name, a, q=None):
    if isinstance(a, usm_ndarray):
        if a.dtype.kind == "b":
            return astype(a, _dtypes.int64)   # (NumPy casts bools safely to indices)
        if a.dtype.kind not in "iu":
            raise TypeError(f"{name}: only int indices permitted")
        return a
    s = np.asarray(a)
    if s.dtype.kind not in "biu":
        raise TypeError(f"{name}: only int indices permitted")
    if s.ndim:
        raise mixed_operand_error(name, a)
    return asarray(int(s), sycl_queue=q)


@compiled_together
def unravel_index(indices, shape, order="C"):
    """Flat indices as tuples of coordinates, as ``numpy.unravel_index``.

    Parameters
    ----------
    indices : usm_ndarray or int
        Integer indices into the flattened array of `shape`.
    shape : tuple of ints
        The array's shape.
    order : {'C', 'F'}
        Row-major or column-major flattening.

    Returns
    -------
    tuple of usm_ndarray
        One int64 array of `indices`' shape per dimension. An index outside
        ``[0, prod(shape))`` is a ValueError (the host waits for the check).
    """
    dims = _shape(shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    i = _as_int_array("unravel_index", indices)
    size = math.prod(dims)
    if size > _INTP_MAX:
        raise ValueError("dimensions are too large; arrays and shapes with a total size "
                         "greater than 'intp' are not supported.")
    if not dims and i.ndim:
        raise ValueError("multiple indices are not supported for 0d arrays")
    if i.size and bool(_any(ew.logical_or(ew.less(i, 0), ew.greater_equal(i, size)))):
        lo, hi = int(_min(i)), int(_max(i))
        bad = lo if lo < 0 else hi
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    i = astype(i, _dtypes.int64, copy=False)
    out = [None] * len(dims)
    walk = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for d in walk:
        n = dims[d]
        out[d] = ew.remainder(i, n)
        i = ew.floor_divide(i, n)
    return tuple(out)


@compiled_together
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Tuples of coordinates as flat indices, as ``numpy.ravel_multi_index``.

    Parameters
    ----------
    multi_index : tuple of usm_ndarray
        One integer array (or int) per dimension; they broadcast.
    dims : tuple of ints
        The array's shape.
    mode : {'raise', 'wrap', 'clip'} or tuple of them
        Out-of-bounds coordinates: a ValueError (the host waits for the
        check), wrapped around, or clipped; one mode per dimension in a tuple.
    order : {'C', 'F'}
        Row-major or column-major flattening.

    Returns
    -------
    usm_ndarray
        int64 flat indices of the broadcast shape.
    """
    dims = _shape(dims)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if 0 in dims:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    if math.prod(dims) > _INTP_MAX:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum "
                         "possible size.")
    if isinstance(multi_index, usm_ndarray):
        multi_index = tuple(multi_index[k] for k in range(multi_index.shape[0]))
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("ravel_multi_index: mode must be a string or a tuple of one per "
                         "dimension")
    dev = [m for m in multi_index if isinstance(m, usm_ndarray)]
    q = dev[0].sycl_queue if dev else resolve_queue().queue
    coords = [_as_int_array("ravel_multi_index", m, q) for m in multi_index]
    common_queue(*coords)
    shape = broadcast_shapes(*(c.shape for c in coords))
    strides = [math.prod(dims[d + 1:]) if order == "C" else math.prod(dims[:d])
               for d in range(len(dims))]
    total = None
    for c, n, m, st in zip(coords, dims, modes, strides):
        c = astype(c, _dtypes.int64, copy=False)
        if m == "raise":
            if c.size and bool(_any(ew.logical_or(ew.less(c, 0), ew.greater_equal(c, n)))):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            c = ew.remainder(c, n) if n else c
        elif m == "clip":
            c = ew.clip(c, 0, max(n - 1, 0))
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', got {m!r}")
        term = ew.multiply(c, st)
        total = term if total is None else ew.add(total, term)
    if total is None:
        return full(shape, 0, dtype=_dtypes.int64, sycl_queue=q)
    return astype(broadcast_view(total, shape), _dtypes.int64)


def _flat_axis(name, arr, axis):
    check_array(arr, name)
    if axis is None:
        return reshape(arr, (-1,)), 0
    return arr, normalize_axis(axis, arr.ndim)


def _host_obj(obj):
    """delete/insert's `obj` as NumPy reads it (a slice stays a slice)."""
    if isinstance(obj, usm_ndarray):
        return asnumpy(obj)
    return obj


def delete(arr, obj, axis=None):
    """A copy without the given entries along an axis, as ``numpy.delete``.

    Parameters
    ----------
    arr : usm_ndarray
        The array.
    obj : slice, int, sequence of ints or bool mask (or usm_ndarray)
        What to remove along `axis`; NumPy's rules and errors (a usm_ndarray is
        read to the host: the result's length depends on it).
    axis : int, optional
        None: `arr` is flattened first.

    Returns
    -------
    usm_ndarray
        The kept entries, gathered on the device.
    """
    arr, axis = _flat_axis("delete", arr, axis)
    n = arr.shape[axis]
    try:
        keep = np.delete(np.arange(n), _host_obj(obj))   # NumPy's checks and messages
    except IndexError as e:
        raise IndexError(str(e).replace("axis 0", f"axis {axis}")) from None
    if keep.size == n:
        return astype(arr, arr.dtype, copy=True)
    return take(arr, asarray(keep, sycl_queue=arr.sycl_queue, usm_type=arr.usm_type), axis=axis)


def _values(arr, values):
    if isinstance(values, usm_ndarray):
        common_queue(arr, values)
        return astype(values, arr.dtype, copy=False)
    if isinstance(values, (list, tuple, np.ndarray)):
        raise mixed_operand_error("insert", values)
    if isinstance(values, (complex, np.complexfloating)) and arr.dtype.kind != "c":
        # (NumPy makes the value an array of arr's dtype, which refuses it)
        raise TypeError(f"insert: cannot convert the complex value {values!r} to {arr.dtype}")
    return full((), values, dtype=arr.dtype, sycl_queue=arr.sycl_queue, usm_type=arr.usm_type)


def insert(arr, obj, values, axis=None):
    """A copy with values inserted before the given indices, as ``numpy.insert``.

    Parameters
    ----------
    arr : usm_ndarray
        The array.
    obj : int, slice or sequence of ints (or usm_ndarray)
        Where to insert along `axis`: before these indices (NumPy's rules: a
        scalar inserts `values` as a block, a sequence one entry per index).
    values : usm_ndarray or scalar
        The inserted values, cast to `arr`'s dtype and broadcast. Host data is
        a TypeError that says to move it with ``ua.asarray(...)``.
    axis : int, optional
        None: `arr` is flattened first.

    Returns
    -------
    usm_ndarray
        The new array.
    """
    arr, axis = _flat_axis("insert", arr, axis)
    obj = _host_obj(obj)
    vals = _values(arr, values)
    nd, n = arr.ndim, arr.shape[axis]
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n), dtype=np.int64)
    else:
        idx = np.array(obj)
        if idx.dtype == bool:
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            idx = np.flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or "
                             "scalar")
        elif idx.size == 0:
            idx = idx.astype(np.int64)
        elif idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
    head = (slice(None),) * axis
    if idx.size == 1:
        index = int(idx.item())
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index += n if index < 0 else 0
        vals = reshape(vals, (1,) * (nd - vals.ndim) + vals.shape)
        if idx.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        k = vals.shape[axis]
        shape = arr.shape[:axis] + (n + k,) + arr.shape[axis + 1:]
        new = empty_array(shape, arr.dtype, arr._q, arr.usm_type)
        before, after = slice(None, index), slice(index, None)
        for dst, src in ((new[head + (before,)], arr[head + (before,)]),
                         (new[head + (slice(index + k, None),)], arr[head + (after,)])):
            if dst.size:
                copy_into(dst, src)
        block = new[head + (slice(index, index + k),)]
        if block.size:
            copy_into(block, broadcast_view(vals, block.shape))
        return new
    idx = idx.astype(np.int64)
    idx[idx < 0] += n
    k = len(idx)
    order = idx.argsort(kind="mergesort")
    idx[order] += np.arange(k)
    old = np.ones(n + k, dtype=bool)
    old[idx] = False                  # (IndexError for an index beyond the end, as NumPy)
    shape = arr.shape[:axis] + (n + k,) + arr.shape[axis + 1:]
    new = empty_array(shape, arr.dtype, arr._q, arr.usm_type)
    q = arr.sycl_queue
    # (also with no index: values that cannot broadcast are NumPy's ValueError)
    new[head + (asarray(idx, sycl_queue=q, usm_type=arr.usm_type),)] = vals
    if n and new.size:
        new[head + (asarray(np.flatnonzero(old), sycl_queue=q, usm_type=arr.usm_type),)] = arr
    return new
