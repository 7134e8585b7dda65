"""dpctl.tensor's indexing functions beyond the array API: put,
put_along_axis, place, extract; and take/take_along_axis with its ``mode=``.

They are compositions of integer-array and boolean-mask assignment
(``_indexing.py``). Out-of-range indices follow dpctl.tensor's modes:
"wrap" clamps to ``[-n, n)`` and then wraps negative indices, "clip" clips
to ``[0, n)``.
"""

import math

from . import elementwise as ew
from . import _indexing
from ._array import usm_ndarray
from ._copy import with_out
from .creation import asarray
from .manipulation import broadcast_to, concat, moveaxis, reshape
from .searching import count_nonzero, where

__all__ = ["take", "take_along_axis", "put", "put_along_axis", "place", "extract"]


def _index_mode(indices, n, mode):
    """`indices` mapped into [0, n) as dpctl.tensor's `mode` says."""
    if mode not in ("wrap", "clip"):
        raise ValueError(f"mode must be 'wrap' or 'clip', got {mode!r}")
    if indices.dtype.kind not in "iu":
        raise IndexError(f"indices must be integers, got {indices.dtype.name}")
    if n == 0:
        if indices.size:
            raise IndexError("cannot index an axis of length 0")
        return indices
    if mode == "clip":
        return ew.clip(indices, 0, n - 1)
    i = ew.clip(indices, -n, n - 1)
    return where(ew.less(i, 0), ew.add(i, n), i) if indices.dtype.kind == "i" else i


@with_out
def take(x, indices, /, *, axis=None, mode=None):
    """Elements of `x` at the 1-D integer `indices` along `axis` (None only
    for 1-D `x`).

    ``mode=None`` (the array API's function) raises IndexError for an index
    outside ``[-n, n)``; dpctl.tensor's "wrap" and "clip" map such indices
    into range instead (see the module docstring). ``out=`` as dpctl.tensor.
    """
    if mode is None:
        return _indexing.take(x, indices, axis=axis)
    a = _indexing.one_axis("take", x, indices, axis)
    return _indexing.take(x, _index_mode(indices, x.shape[a], mode), axis=a)


def take_along_axis(x, indices, /, *, axis=-1, mode=None):
    """x[..., indices, ...] element by element along `axis` (the array API's
    function); ``mode`` as for `take`."""
    if mode is None:
        return _indexing.take_along_axis(x, indices, axis=axis)
    a = _indexing.along_axis_checks("take_along_axis", x, indices, axis)
    return _indexing.take_along_axis(x, _index_mode(indices, x.shape[a], mode), axis=a)


def _values(vals, x):
    """`vals` as an array on x's queue with x's dtype (cast as assignment does)."""
    if isinstance(vals, usm_ndarray):
        return vals
    return asarray(vals, dtype=x.dtype, sycl_queue=x.sycl_queue)


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
    mode : {"wrap", "clip"}
        How out-of-range indices are treated (see the module docstring).

    Notes
    -----
    With repeated indices, which value lands is unspecified (as in dpctl.tensor).
    """
    a = _indexing.one_axis("put", x, indices, axis)
    idx = _index_mode(indices, x.shape[a], mode)
    shape = x.shape[:a] + indices.shape + x.shape[a + 1:]
    v = broadcast_to(_values(vals, x), shape)
    moveaxis(x, a, 0)[idx] = moveaxis(v, a, 0)


def put_along_axis(x, indices, vals, /, *, axis=-1, mode="wrap"):
    """x[i, ..., indices[i, ..., j, ...], ...] = vals element by element along `axis`.

    `indices` has x's number of dimensions and broadcasts with it in the
    other dimensions (as NumPy's put_along_axis); `vals` broadcasts to the
    shape of `indices`. See `put` for `mode`.
    """
    a = _indexing.along_axis_checks("put_along_axis", x, indices, axis)
    _indexing.put_along_axis(x, _index_mode(indices, x.shape[a], mode), _values(vals, x), axis=a)


def extract(condition, arr, /):
    """The elements of `arr` where `condition` is true, as a 1-D array
    (``arr[condition]`` flattened; both have one shape; non-bool conditions
    count as true where nonzero)."""
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
