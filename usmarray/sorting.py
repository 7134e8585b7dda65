"""Sorting functions: sort, argsort (stable sorts on the device,
kernels/sycl/sort.cpp: LSD radix sort for real types, a sorting network per
row for rows of up to 32, merge sort for the rest)."""

import operator
from collections import namedtuple

import numpy as np

from ._core import _dtypes, _engine, _kernels
from ._core._array import c_view, empty_array, usm_ndarray
from ._core._copy import astype, copy_into
from ._core._exceptions import AxisError
from ._core._indexing import take_along_axis
from ._core._layout import C_CONTIG
from ._core._kernels import compiled_together
from ._core._views import check_array, normalize_axis
from .manipulation import moveaxis, reshape

__all__ = ["sort", "argsort", "top_k", "TopKResult", "partition", "argpartition", "lexsort",
           "sort_complex"]


_NET_TYPES = ("u1", "u2", "u4", "u8")
_SPLIT_TYPES = ("i4", "u4", "f4", "i8", "u8", "f8")   # radix_split: 4- and 8-byte keys


def _sort_names(t, qi):
    """One bundle per key type: the merge sort's kernels, the radix sort's,
    isin's search and the groups of unique_* (complex types: the merge
    sort, whose chunks an insertion sort orders, the search and the groups)."""
    names = [f"radix_scan<{t}>", f"unique_count<{t}>", f"isin_sorted<{t}>"] + \
        [f"unique_scatter<{t}, {i}>" for i in (0, 1)]
    if t in ("c8", "c16"):
        return names + [f"{k}<{t}, {i}>" for k in ("sort_chunks", "merge_pass") for i in (0, 1)]
    # (descending order is a run-time argument: half the kernels to compile;
    # the digits of argsort differ from sort's only for floats)
    # (sort_chunks: complex keys, and the iota of argsort's radix passes)
    names += [f"{k}<{t}, {i}>" for k in ("sort_chunks", "merge_pass", "radix_scatter", "radix_rows",
                                         "radix_segments")
              for i in (0, 1)]
    if t in _NET_TYPES:
        # sorting networks, one per key size for every type of that size
        # (8-byte keys: up to 16 wide, kernels/engine/sort.cpp)
        widths = (8, 16) if t == "u8" else (8, 16, 32)
        names += [f"sort_net<{t}, {i}, {n}>" for i in (0, 1) for n in widths]
        if _kernels.simd_kernels(qi):
            # vector networks (CPU devices): sort_cols for sort, sort_vec for argsort
            names += [f"sort_cols<{t}>", f"sort_vec<{t}>"]
    names += [f"{k}<{t}, {i}>" for k in ("radix_bits", "radix_hist")
              for i in ((0, 1) if t in ("f2", "f4", "f8") else (0,))]
    if _kernels.simd_kernels(qi) and t in _SPLIT_TYPES:
        names.append(f"radix_split<{t}>")   # sorts where one key makes most of a row
    return names


# what a first call compiles: the kernels of one algorithm for the key type
# (the engine picks the radix sort, the networks (scalar or, on CPUs,
# vector) or merges by row length; radix_rows, a row per work-item, serves
# one row of up to 2^18 keys and many rows; unique_* and isin have kernels of theirs;
# the one-group scan serves the radix sort and unique_*, which would
# otherwise compile the whole radix sort for it)
_SORT_PARTS = {"sort_net": "net", "sort_vec": "vec", "sort_cols": "cols", "sort_chunks": "merge",
               "merge_pass": "merge", "unique_count": "unique", "unique_scatter": "unique",
               "isin_sorted": "isin", "radix_scan": "scan", "radix_rows": "rows"}


def _sort_part(prefix, args):
    stage = _SORT_PARTS.get(prefix, "radix")
    if stage in ("net", "rows"):   # those of a sort or of an argsort (args[1])
        return (stage, args[0], args[1])
    return (stage, args[0])


_kernels.register_family(_kernels.Family(
    ("sort_net", "sort_vec", "sort_cols", "sort_chunks", "merge_pass", "radix_bits", "radix_scan", "radix_hist",
     "radix_scatter", "radix_rows", "radix_segments", "radix_split", "unique_count", "unique_scatter",
     "isin_sorted"),
    "sort.cpp", lambda a: a[0], _sort_names, _kernels.device_types, _sort_part, cost=8,
    # (measured alone: sort_cols 1.4-1.8 s, sort_vec 0.4 s, a radix kernel 0.12 s)
    costs={"sort_cols": 40, "sort_vec": 10, "radix_bits": 3, "radix_hist": 3, "radix_scan": 3,
           "radix_scatter": 3, "radix_rows": 3, "radix_segments": 3, "radix_split": 1, "unique_count": 2,
           "unique_scatter": 2, "isin_sorted": 2}))


def _sorted(name, x, axis, descending, with_idx):
    check_array(x, name)
    nd = x.ndim
    if nd == 0:
        # dpctl.tensor's answer: a 0-d array (the element; index 0)
        normalize_axis(axis, 1)
        r = _sorted(name, reshape(x, (1,)), 0, descending, with_idx)
        if with_idx == "both":
            return tuple(reshape(v, ()) for v in r)
        return reshape(r, ())
    a = normalize_axis(axis, nd)
    qi = x._q
    last = a == nd - 1   # (no axis to move: the common case, without views)
    xm = x if last else moveaxis(x, a, -1)
    shape = xm._shape
    n = shape[-1]
    rows = 1
    for d in shape[:-1]:
        rows *= d
    keys = empty_array(shape, x._dtype, qi, x._alloc.kind)
    idx = empty_array(shape, _dtypes.int64, qi, x._alloc.kind) if with_idx else None
    if rows and n:
        # the engine reads rows of a contiguous source (the array itself
        # when the sorted axis is its last and it is C-contiguous)
        src = xm
        if not xm._flags & C_CONTIG:
            src = empty_array(shape, x._dtype, qi, "device")
            copy_into(src, xm)
        flat = (rows, n)
        _engine.sort(qi.ref, qi.kc, c_view(src, flat), c_view(keys, flat),
                     None if idx is None else c_view(idx, flat), bool(descending))
    if with_idx == "both":
        return (keys, idx) if last else (moveaxis(keys, -1, a), moveaxis(idx, -1, a))
    out = idx if with_idx else keys
    return out if last else moveaxis(out, -1, a)


def sort_with_order(x, /):
    """(sort(x), argsort(x)) of a vector from one stable sort."""
    return _sorted("sort", x, -1, False, "both")


_KINDS = (None, "stable", "mergesort", "radixsort")


def _check_kind(kind):
    # dpctl.tensor's keyword: every kind gives the same stable result here
    # (the engine picks radix or merge sort by dtype and row length)
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of None, 'stable', 'mergesort', 'radixsort', "
                         f"got {kind!r}")


def sort(x, /, *, axis=-1, descending=False, stable=True, kind=None):
    """A sorted copy of `x` along `axis` (ascending unless `descending`).

    The sort is always stable. The order is NumPy's: NaNs after every
    number; complex values by real part, then imaginary part, with NaNs
    last ([R + Rj, R + nanj, nan + Rj, nan + nanj]). ``descending=True``
    is that order reversed, so NaNs come first, as in dpctl.tensor (not
    NumPy's ``-np.sort(-x)``, which keeps them last); equal elements keep
    their input order either way. A 0-d `x` gives a 0-d copy (as
    dpctl.tensor). ``kind`` (dpctl.tensor's keyword) is accepted; every
    kind sorts stably. One exception: -0.0 and +0.0, equal values, come in
    either order (CPU devices put -0.0 first; the sorts of GPUs may mix
    them). ``argsort`` keeps their input order, so ``x[argsort(x)]`` is the
    stable sort also for signed zeros."""
    _check_kind(kind)
    return _sorted("sort", x, axis, descending, False)


def argsort(x, /, *, axis=-1, descending=False, stable=True, kind=None):
    """int64 indices that sort `x` along `axis` (stable: equal elements keep
    their order, also when `descending`); the order, 0-d `x` and ``kind``
    as for `sort`."""
    _check_kind(kind)
    return _sorted("argsort", x, axis, descending, True)


def _kth(name, x, kth, axis):
    """`x` and `axis` to sort along (``axis=None``: x flattened, axis 0),
    after NumPy's checks of `kth` (an int or a sequence of ints, host data,
    within the axis unless it is empty)."""
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    if x.ndim == 0:
        # (NumPy's AxisError, a ValueError)
        raise AxisError(f"{name}: axis {axis} is out of bounds for array of dimension 0")
    n = x.shape[normalize_axis(axis, x.ndim)]
    ks = np.asarray(kth)
    if ks.dtype == np.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if ks.dtype.kind not in "iu" or ks.ndim > 1:
        raise TypeError("Partition index must be integer")
    for k in ks.reshape(-1).tolist() if n else ():
        if not -n <= k < n:
            raise ValueError(f"{name}: kth(={k}) out of bounds ({n})")
    return x, axis


def partition(a, kth, axis=-1):
    """`a` rearranged along `axis` so that the element at each `kth` position
    is the one a sort puts there, the smaller ones before it and the larger
    after, as ``numpy.partition``. usmarray sorts (a sort is a partition for
    every kth: the same guarantee, and NumPy leaves the order within the
    parts unspecified)."""
    check_array(a, "partition")
    a, axis = _kth("partition", a, kth, axis)
    return sort(a, axis=axis)


def argpartition(a, kth, axis=-1):
    """Indices that partition `a` (``numpy.argpartition``): those that sort it.
    (A 0-d `a` is partitioned as a 1-d one, as NumPy's.)"""
    check_array(a, "argpartition")
    a, axis = _kth("argpartition", reshape(a, (1,)) if a.ndim == 0 else a, kth, axis)
    return argsort(a, axis=axis)


def lexsort(keys, axis=-1):
    """Indices that sort by several keys, the last the primary one, as
    ``numpy.lexsort``: stable sorts from the first key to the last.

    Parameters
    ----------
    keys : sequence of usm_ndarray, or usm_ndarray
        Keys of one shape (an array: its rows along the first axis).
    axis : int
        The axis to sort along.
    """
    if isinstance(keys, usm_ndarray):
        if keys.ndim == 0:
            raise TypeError("lexsort: need a sequence of keys with at least one element")
        keys = [keys[i] for i in range(keys.shape[0])]
    keys = list(keys)
    if not keys or not all(isinstance(k, usm_ndarray) for k in keys):
        raise TypeError("lexsort: keys must be a non-empty sequence of usm_ndarrays")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("lexsort: all keys need to be the same shape")
    if not shape:
        return argsort(keys[0])
    a = normalize_axis(axis, len(shape))
    idx = argsort(keys[0], axis=a)
    for k in keys[1:]:
        # a stable sort by the next key of what the previous ones ordered
        idx = take_along_axis(idx, argsort(take_along_axis(k, idx, axis=a), axis=a), axis=a)
    return idx


TopKResult = namedtuple("TopKResult", ["values", "indices"])


@compiled_together
def top_k(x, k, /, *, axis=None, mode="largest"):
    """The `k` largest (or smallest) elements of `x` along `axis` and their indices.

    Parameters
    ----------
    x : usm_ndarray
    k : int
        How many elements, ``0 <= k <= x.shape[axis]``.
    axis : int or None
        None searches the flattened array (dpctl.tensor's default).
    mode : {"largest", "smallest"}

    Returns
    -------
    TopKResult
        ``(values, indices)``: arrays of x's shape with `axis` of length `k`,
        ordered from the most extreme; among equal elements the first wins.
    """
    if mode not in ("largest", "smallest"):
        raise ValueError(f"top_k: mode must be 'largest' or 'smallest', got {mode!r}")
    check_array(x, "top_k")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    nd = x.ndim
    if nd == 0:
        raise ValueError("top_k needs an array of at least one dimension")
    a = normalize_axis(axis, nd)
    k = operator.index(k)
    if not 0 <= k <= x.shape[a]:
        raise ValueError(f"top_k: k={k} is outside [0, {x.shape[a]}] for axis {a}")
    order = argsort(x, axis=a, descending=mode == "largest")
    key = (slice(None),) * a + (slice(0, k),)
    indices = order[key]
    return TopKResult(take_along_axis(x, indices, axis=a), indices)


def sort_complex(a):
    """`a` sorted along its last axis as complex numbers (real part first,
    then imaginary part), as ``numpy.sort_complex``: real inputs become
    complex64 (8- and 16-bit integers) or complex128 (the others)."""
    check_array(a, "sort_complex")
    if a.ndim == 0:
        raise AxisError("axis -1 is out of bounds for array of dimension 0")
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    small = b.dtype in (_dtypes.int8, _dtypes.uint8, _dtypes.int16, _dtypes.uint16)
    return astype(b, _dtypes.complex64 if small else _dtypes.complex128)
