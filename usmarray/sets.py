"""Set functions: unique_values, unique_counts, unique_inverse, unique_all
(over a stable sort of the flattened array) and isin (binary search)."""

from collections import namedtuple

from . import _dtypes
from ._array import usm_ndarray

__all__ = ["unique_values", "unique_counts", "unique_inverse", "unique_all", "isin"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _unique(name, x, want_order):
    """(sorted flat x, its sort order or None, bool mask of group starts)."""
    from . import elementwise as ew
    from .manipulation import concat, reshape
    from .creation import ones
    from .sorting import argsort, sort

    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    flat = reshape(x, (-1,))
    if x._dtype.kind == "c":
        # lexicographic (real, imag) order from two stable sorts
        o1 = argsort(ew.imag(flat))
        order = o1[argsort(ew.real(flat)[o1])]
        s = flat[order]
    elif want_order:
        order = argsort(flat)
        s = flat[order]
    else:
        order, s = None, sort(flat)
    n = s.shape[0]
    if n == 0:
        return s, order, ew.equal(s, s)      # an empty bool array
    # a group starts where the value changes; NaNs differ from everything,
    # so each NaN is its own group, as the standard asks
    first = ones((1,), dtype=_dtypes.bool, sycl_queue=x.sycl_queue, usm_type=x.usm_type)
    starts = concat([first, ew.not_equal(s[1:], s[:-1])])
    return s, order, starts


def _counts(starts):
    from . import elementwise as ew
    from .creation import asarray
    from .manipulation import concat
    from .searching import nonzero

    (p,) = nonzero(starts)
    end = asarray([starts.shape[0]], dtype=_dtypes.int64, sycl_queue=starts.sycl_queue)
    bounds = concat([p, end])
    return p, ew.subtract(bounds[1:], bounds[:-1])


def _inverse(x, order, starts):
    from . import elementwise as ew
    from ._array import empty_array
    from .manipulation import reshape
    from .reduction import cumulative_sum

    gid = ew.subtract(cumulative_sum(starts, dtype=_dtypes.int64), 1)
    inv = empty_array(gid._shape, _dtypes.int64, x._q, x._alloc.kind)
    if inv.size:
        inv[order] = gid
    return reshape(inv, x._shape)


def unique_values(x, /):
    """The distinct elements of `x`, sorted (each NaN is distinct)."""
    s, _, starts = _unique("unique_values", x, False)
    return s[starts]


def unique_counts(x, /):
    """(values, counts): the distinct elements and how often each occurs."""
    s, _, starts = _unique("unique_counts", x, False)
    p, counts = _counts(starts)
    return UniqueCountsResult(s[p], counts)


def unique_inverse(x, /):
    """(values, inverse_indices): the distinct elements, and for each element
    of `x` the index of its value in them (shape of `x`)."""
    s, order, starts = _unique("unique_inverse", x, True)
    return UniqueInverseResult(s[starts], _inverse(x, order, starts))


def unique_all(x, /):
    """(values, indices, inverse_indices, counts); `indices` are the first
    occurrences in the flattened `x`."""
    s, order, starts = _unique("unique_all", x, True)
    p, counts = _counts(starts)
    return UniqueAllResult(s[p], order[p], _inverse(x, order, starts), counts)


def isin(x1, x2, /, *, invert=False):
    """Whether each element of `x1` occurs in `x2` (a bool array of x1's
    shape; `invert` negates). Python scalars are accepted for either."""
    from . import elementwise as ew
    from ._copy import astype
    from ._device import common_queue
    from ._dtypes import result_type
    from .creation import asarray, zeros
    from .manipulation import reshape
    from .searching import searchsorted
    from .sorting import sort

    arrays = [a for a in (x1, x2) if isinstance(a, usm_ndarray)]
    if not arrays:
        raise TypeError("isin: at least one of x1 and x2 must be a usm_ndarray")
    common_queue(*arrays)
    q = arrays[0].sycl_queue
    x1 = x1 if isinstance(x1, usm_ndarray) else asarray(x1, sycl_queue=q)
    x2 = x2 if isinstance(x2, usm_ndarray) else asarray(x2, sycl_queue=q)
    dt = result_type(x1, x2)
    if dt.kind == "c":
        raise TypeError("isin is not defined for complex dtypes")
    s = sort(reshape(astype(x2, dt, copy=False), (-1,)))
    v = astype(x1, dt, copy=False)
    n = s.shape[0]
    if n == 0:
        found = zeros(v.shape, dtype=_dtypes.bool, sycl_queue=q, usm_type=v.usm_type)
    else:
        i = searchsorted(s, v)
        i = ew.minimum(i, n - 1)
        found = ew.equal(s[i], v)
    return ew.logical_not(found) if invert else found
