"""Set functions: unique_values, unique_counts, unique_inverse, unique_all
(over a stable sort of the flattened array) and isin (x2 sorted, then a
binary search of each item of x1 in it, one kernel); NumPy's set
operations on them: union1d, intersect1d, setdiff1d, setxor1d.

The groups of equal values of the sorted array come from two engine calls
(kernels/sycl/sort.cpp): unique_count counts group starts per block and
scans the counts (the one host wait: the number of distinct values sizes
the results), unique_scatter writes each group's value, start and, for the
inverse, every element's group.

NumPy's set operations take NumPy's unique values: sorted, NaNs one value
(the host reads how many values are NaN), and never equal to one another,
so a NaN is in no intersection."""

import math
from collections import namedtuple

from . import elementwise as ew
from ._core import _dtypes, _engine
from ._core._array import empty_array, usm_ndarray
from ._core._copy import astype
from ._core._device import coerced_kind, common_queue
from ._core._dtypes import result_type
from ._core._indexing import take
from ._core._layout import C_CONTIG
from ._core._scalars import as_scalar, int_range, weak_scalar_dtype
from ._core._views import normalize_axis
from ._core._kernels import compiled_together
from . import reduction
from .creation import arange, asarray, empty, full, ones, zeros
from .reduction import cumulative_sum, sum as _sum
from .manipulation import concat, diff, moveaxis, reshape
from .searching import nonzero
from .sorting import lexsort, sort, sort_with_order

__all__ = ["unique_values", "unique_counts", "unique_inverse", "unique_all", "isin", "union1d",
           "intersect1d", "setdiff1d", "setxor1d"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])

_MAX_BLOCKS = 1024   # blocks of unique_count: its scan is one work-group's


def _groups(name, x, want_pos, want_inv):
    """(values, first positions in the sorted flat x or None, sort order or
    None, inverse indices of x's shape or None)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    flat = reshape(x, (-1,))
    want_order = want_pos or want_inv
    if want_order:
        s, order = sort_with_order(flat)
    else:
        order, s = None, sort(flat)
    qi, kind = s._q, x._alloc.kind
    n = s.shape[0]
    offs = empty_array((min(n, _MAX_BLOCKS) + 1,), _dtypes.int64, qi, "device")
    total = _engine.unique_count(qi.ref, qi.kc, s, offs) if n else 0
    vals = empty_array((total,), s._dtype, qi, kind)
    pos = empty_array((total,), _dtypes.int64, qi, kind) if want_pos else None
    inv = empty_array((n,), _dtypes.int64, qi, kind) if want_inv else None
    if n:
        _engine.unique_scatter(qi.ref, qi.kc, s, offs, vals, pos,
                               order if want_inv else None, inv)
    return vals, pos, order, None if inv is None else reshape(inv, x._shape)


def _counts(pos, n):
    """Group sizes from the groups' first positions in n sorted items."""
    end = full((1,), n, dtype=_dtypes.int64, sycl_queue=pos.sycl_queue, usm_type=pos.usm_type)
    return ew.subtract(concat([pos[1:], end]), pos)


@compiled_together
def unique_values(x, /):
    """The distinct elements of `x`, sorted (each NaN is distinct)."""
    return _groups("unique_values", x, False, False)[0]


@compiled_together
def unique_counts(x, /):
    """(values, counts): the distinct elements and how often each occurs."""
    vals, pos, _, _ = _groups("unique_counts", x, True, False)
    return UniqueCountsResult(vals, _counts(pos, x.size))


@compiled_together
def unique_inverse(x, /):
    """(values, inverse_indices): the distinct elements, and for each element
    of `x` the index of its value in them (shape of `x`)."""
    vals, _, _, inv = _groups("unique_inverse", x, False, True)
    return UniqueInverseResult(vals, inv)


@compiled_together
def unique_all(x, /):
    """(values, indices, inverse_indices, counts); `indices` are the first
    occurrences in the flattened `x`."""
    vals, pos, order, inv = _groups("unique_all", x, True, True)
    return UniqueAllResult(vals, order[pos], inv, _counts(pos, x.size))


@compiled_together
def isin(x1, x2, /, *, invert=False):
    """Whether each element of `x1` occurs in `x2` (a bool array of x1's
    shape; `invert` negates). Python scalars are accepted for either, and
    take the other operand's dtype where their value allows (as in the
    elementwise functions); integers compare exactly, also signed ones
    against uint64."""
    arrays = [a for a in (x1, x2) if isinstance(a, usm_ndarray)]
    if not arrays:
        raise TypeError("isin: at least one of x1 and x2 must be a usm_ndarray")
    common_queue(*arrays)
    a = arrays[0]
    q = a.sycl_queue
    kind = coerced_kind(arrays)
    x1, out_of_range1 = _isin_operand(x1, a, q)
    x2, out_of_range2 = _isin_operand(x2, a, q)
    if out_of_range1 or out_of_range2:
        # an integer beyond the array's dtype equals none of its values
        found = zeros(x1.shape, dtype=_dtypes.bool, sycl_queue=q, usm_type=kind)
        return ew.logical_not(found) if invert else found
    k1, k2 = x1.dtype.kind, x2.dtype.kind
    if {k1, k2} == {"i", "u"} and _dtypes.uint64 in (x1.dtype, x2.dtype):
        # (int64 and uint64 promote to float64, where distinct integers
        # above 2**53 compare equal) In uint64, a negative value wraps to
        # 2**63 or more, where no value of the other operand's type lies.
        if k1 == "i":
            keep = ew.greater_equal(x1, 0)
        else:
            keep = ew.less_equal(x1, int_range(_dtypes.int64)[1])
        found = ew.logical_and(_isin_sorted(astype(x1, _dtypes.uint64, copy=False),
                                            astype(x2, _dtypes.uint64, copy=False), False,
                                            kind), keep)
        return ew.logical_not(found) if invert else found
    return _isin_sorted(x1, x2, invert, kind)


def _isin_operand(x, a, q):
    """`x` as an array beside the array `a` (a weak scalar), and whether it
    is an integer that no value of a's integer dtype equals."""
    if isinstance(x, usm_ndarray):
        return x, False
    s = as_scalar(x)
    if s is None:
        return asarray(x, sycl_queue=q), False
    dt = weak_scalar_dtype(s, a.dtype, a._q)
    if type(s) is int and dt.kind in "iu":
        lo, hi = int_range(dt)
        if not lo <= s <= hi:
            return asarray(0, dtype=dt, sycl_queue=q), True
    return asarray(s, dtype=dt, sycl_queue=q), False


def _isin_sorted(x1, x2, invert, kind):
    """isin of two arrays: x2 sorted in their result dtype, x1 searched in it
    (a result of USM type `kind`)."""
    q = x1.sycl_queue
    dt = result_type(x1, x2)
    s = sort(reshape(astype(x2, dt, copy=False), (-1,)))
    v = astype(x1, dt, copy=False)
    if s.shape[0] == 0 or v.size == 0:
        found = zeros(v.shape, dtype=_dtypes.bool, sycl_queue=q, usm_type=kind)
        return ew.logical_not(found) if invert else found
    if not v._flags & C_CONTIG:
        v = astype(v, dt, copy=True, order="C")
    qi = v._q
    out = empty_array(v._shape, _dtypes.bool, qi, kind)
    _engine.isin_sorted(qi.ref, qi.kc, s, v, out, bool(invert))
    return out


# ---------------------------------------------------------------- NumPy's
def _operands(name, ar1, ar2):
    arrays = [a for a in (ar1, ar2) if isinstance(a, usm_ndarray)]
    if not arrays:
        raise TypeError(f"{name}: expected a usm_ndarray operand")
    q = common_queue(*arrays).queue
    kind = coerced_kind(arrays)
    return [a if isinstance(a, usm_ndarray) else asarray(a, sycl_queue=q, usm_type=kind)
            for a in (ar1, ar2)]


def np_unique(x):
    """``numpy.unique(x)``: the sorted distinct values, NaNs counted as one."""
    v = unique_values(x)
    if v.dtype.kind in "fc" and v.shape[0] > 1:
        # (NaNs sort last, each distinct for the array API)
        k = int(_sum(ew.logical_not(ew.isnan(v)), dtype=_dtypes.int64))
        if v.shape[0] - k > 1:
            v = v[:k + 1]
    return v


def unique_along(ar, axis, return_index=False, return_inverse=False, return_counts=False):
    """``numpy.unique(ar, axis=axis, ...)``: the distinct slices of `ar`
    along `axis`, sorted lexicographically (the first element the primary
    key; slices with NaNs are never equal), with the first occurrence, the
    inverse (1-D, as NumPy 2's) and the counts as asked. A tuple of the
    arrays asked for."""
    a = moveaxis(ar, normalize_axis(axis, ar.ndim), 0)
    n, rest = a.shape[0], a.shape[1:]
    flat = reshape(a, (n, math.prod(rest)))
    q, u = ar.sycl_queue, ar.usm_type
    if flat.shape[1] and n:
        # (lexsort: the last key is the primary one)
        order = lexsort([flat[:, j] for j in range(flat.shape[1] - 1, -1, -1)])
    else:
        order = arange(n, dtype=_dtypes.int64, sycl_queue=q, usm_type=u)
    srt = take(flat, order, axis=0)
    if n:
        new = reduction.any(ew.not_equal(srt[1:], srt[:-1]), axis=1)
        starts = concat([ones(1, dtype=_dtypes.bool, sycl_queue=q, usm_type=u), new])
    else:
        starts = zeros(0, dtype=_dtypes.bool, sycl_queue=q, usm_type=u)
    first = nonzero(starts)[0]   # (the host learns how many slices are distinct)
    values = moveaxis(reshape(take(srt, first, axis=0), (first.shape[0],) + rest), 0, axis)
    parts = [values]
    if return_index:
        parts.append(take(order, first))
    if return_inverse:
        inverse = empty(n, dtype=_dtypes.int64, sycl_queue=q, usm_type=u)
        if n:
            inverse[order] = ew.subtract(cumulative_sum(astype(starts, _dtypes.int64)), 1)
        parts.append(inverse)
    if return_counts:
        parts.append(diff(concat([first, full(1, n, dtype=_dtypes.int64, sycl_queue=q, usm_type=u)])))
    return tuple(parts)


def _flat_or_unique(a, assume_unique):
    return reshape(a, (-1,)) if assume_unique else np_unique(a)


def union1d(ar1, ar2):
    """The sorted distinct values of both arrays (flattened), as
    ``numpy.union1d``."""
    ar1, ar2 = _operands("union1d", ar1, ar2)
    return np_unique(concat([ar1, ar2], axis=None))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays, as ``numpy.intersect1d``; with
    `return_indices`, also the positions of their first occurrences in the
    flattened arrays."""
    ar1, ar2 = _operands("intersect1d", ar1, ar2)
    ind1 = ind2 = None
    if return_indices and not assume_unique:
        r1, r2 = unique_all(ar1), unique_all(ar2)
        ar1, ind1, ar2, ind2 = r1.values, r1.indices, r2.values, r2.indices
    else:
        ar1, ar2 = _flat_or_unique(ar1, assume_unique), _flat_or_unique(ar2, assume_unique)
    aux = concat([ar1, ar2])
    if return_indices:
        aux, order = sort_with_order(aux)
    else:
        aux = sort(aux)
    mask = ew.equal(aux[1:], aux[:-1])
    common = aux[:-1][mask]
    if not return_indices:
        return common
    i1 = order[:-1][mask]
    i2 = ew.subtract(order[1:][mask], ar1.shape[0])
    if ind1 is not None:
        i1, i2 = ind1[i1], ind2[i2]
    return common, i1, i2


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct values of `ar1` not in `ar2` (in `ar1`'s order when
    `assume_unique`), as ``numpy.setdiff1d``."""
    ar1, ar2 = _operands("setdiff1d", ar1, ar2)
    ar1 = _flat_or_unique(ar1, assume_unique)
    ar2 = _flat_or_unique(ar2, assume_unique)
    return ar1[isin(ar1, ar2, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays, as ``numpy.setxor1d``."""
    ar1, ar2 = _operands("setxor1d", ar1, ar2)
    aux = concat([_flat_or_unique(ar1, assume_unique), _flat_or_unique(ar2, assume_unique)])
    if aux.shape[0] == 0:
        return aux
    aux = sort(aux)
    # (a value is kept where it differs from both neighbours)
    edge = full((1,), True, dtype=_dtypes.bool, sycl_queue=aux.sycl_queue, usm_type=aux.usm_type)
    flag = concat([edge, ew.not_equal(aux[1:], aux[:-1]), edge])
    return aux[ew.logical_and(flag[1:], flag[:-1])]
