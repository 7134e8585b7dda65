"""Permutations and samples: ``permutation``, ``shuffle``, ``permuted``,
``choice`` of :class:`~usmarray.random.Generator`.

A permutation is Rao and Sandelius's: each item draws one of B buckets
(uint8 or uint16 integers of the stream), a stable sort groups the items by
bucket, and each bucket is shuffled by Fisher-Yates from its own
sub-stream. That is an exactly uniform permutation (a uniform bucket
assignment, then uniform orders within buckets), counter-based, and its
buckets are small enough to shuffle in the caches. Short rows are shuffled
by Fisher-Yates alone, one work-item per row.

Sampling k of n without replacement takes the first k items of a
permutation: of a uniform one (above) when k is more than half of n or n is
small, else of a keyed pseudo-random permutation of range(n), a Feistel
network keyed by the stream (kernels/sycl/random.cpp: rng_sample), where
each item is computed on its own in one kernel: the items are distinct by
construction and their order is random.
"""

import math
import operator

import numpy as np

from .. import elementwise as ew
from .._core import _dtypes, _engine
from .._core._array import empty_array, usm_ndarray
from .._core._copy import asnumpy, copy, copy_into
from .._core._device import coerced_kind, resolve_queue
from .._core._views import moveaxis, normalize_axis, reshape
from ..creation import arange, asarray
from ..indexing import take, take_along_axis
from ..searching import searchsorted
from ..sorting import argsort

__all__ = ["permutation", "shuffle", "permuted", "choice", "row_permutations"]

_SHORT_ROW = 1 << 12      # rows up to this long: Fisher-Yates alone
_BYTE_BUCKETS = 1 << 24   # rows up to this long: 256 buckets (uint8 keys, one sort pass)
# populations up to this: a prefix of a uniform permutation (a Feistel
# network on a few bits permutes its small domain in only a subset of ways)
_SMALL_POPULATION = 1 << 16


def row_permutations(gen, rows, length, qi):
    """int64 array (rows, length): each row a uniformly random permutation
    of range(length), independent of the others."""
    bg = gen.bit_generator
    if rows * length == 0:
        return empty_array((rows, length), _dtypes.int64, qi)
    if length <= _SHORT_ROW:
        idx = reshape(ew.remainder(arange(rows * length, sycl_queue=qi.queue), length),
                      (rows, length))
        bounds = arange(0, rows * length + 1, length, sycl_queue=qi.queue)
    else:
        buckets, kt = (256, _dtypes.uint8) if length <= _BYTE_BUCKETS else (65536, _dtypes.uint16)
        keys = gen.integers(0, buckets, size=(rows, length), dtype=kt, sycl_queue=qi.queue)
        idx = argsort(keys, axis=-1, stable=True)
        bounds = empty_array((rows * buckets + 1,), _dtypes.int64, qi)
        _engine.random_bounds(qi.ref, qi.kc, keys, idx, bounds)
    p = bg._reserve_words(bounds.shape[0] - 1)   # one sub-stream per segment
    _engine.random_shuffle(qi.ref, qi.kc, idx, bounds, p.key, p.ctr, p.first)
    return idx


def _array(x):
    if isinstance(x, usm_ndarray):
        return x
    return asarray(x)


def _like(idx, x, kind=None):
    """Indices drawn on the device in x's USM type (or `kind`), so that the
    gather keeps it (a copy for host and shared x)."""
    kind = kind or x.usm_type
    return idx if idx.usm_type == kind else asarray(idx, usm_type=kind)


def permutation(gen, x, axis):
    if isinstance(x, (int, np.integer)):   # (an array, even 0-d, is permuted, as NumPy)
        n = max(operator.index(x), 0)
        return reshape(row_permutations(gen, 1, n, resolve_queue(None, None)), (n,))
    x = _array(x)
    if x.ndim == 0:
        raise np.exceptions.AxisError("x must be an integer or at least 1-dimensional")
    a = normalize_axis(axis, x.ndim)
    perm = reshape(row_permutations(gen, 1, x.shape[a], x._q), (x.shape[a],))
    return take(x, _like(perm, x), axis=a)


def shuffle(gen, x, axis):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"shuffle needs a usm_ndarray (it works in place), got {type(x).__name__}")
    if x.ndim == 0:
        raise TypeError("shuffle needs an array of at least one dimension")
    if not x.flags.writable:
        raise ValueError("shuffle: the array is read-only")
    copy_into(x, permutation(gen, x, axis))


def permuted(gen, x, axis, out):
    x = _array(x)
    if out is not None:
        if not isinstance(out, usm_ndarray):
            raise TypeError("out must be a usm_ndarray")
        if out.shape != x.shape:
            raise ValueError("out must have the same shape as x")
        if not np.can_cast(x.dtype, out.dtype, casting="safe"):
            raise TypeError(f"Cannot cast array data from {x.dtype} to {out.dtype} according "
                            "to the rule 'safe'")
    if axis is None:
        flat = reshape(x, (-1,))
        perm = reshape(row_permutations(gen, 1, flat.shape[0], x._q), (flat.shape[0],))
        y = reshape(take(flat, _like(perm, x), axis=0), x.shape)
    else:
        a = normalize_axis(axis, x.ndim)
        m = moveaxis(x, a, -1)
        rows = math.prod(m.shape[:-1])
        idx = reshape(row_permutations(gen, rows, m.shape[-1], x._q), m.shape)
        y = moveaxis(take_along_axis(m, _like(idx, x), axis=-1), -1, a)
    if out is None:
        return copy(y) if y is x else y
    copy_into(out, y)
    return out


# --------------------------------------------------------------- choice
def _probabilities(p, pop_size):
    given = np.asarray(asnumpy(p) if isinstance(p, usm_ndarray) else p)
    p = given.astype(np.float64)
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.size != pop_size:
        raise ValueError("a and p must have same size")
    if np.isnan(p).any():
        raise ValueError("Probabilities contain NaN")
    if np.any(p < 0):
        raise ValueError("Probabilities are not non-negative")
    atol = np.sqrt(np.finfo(np.float64).eps)
    if given.dtype.kind == "f":   # (NumPy's tolerance for probabilities of a narrower type)
        atol = max(atol, np.sqrt(np.finfo(given.dtype).eps))
    if abs(math.fsum(p) - 1.0) > atol:
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for "
                         "more information.")
    return p


def _sample_without_replacement(gen, pop_size, k, qi):
    """k distinct values of range(pop_size) in random order."""
    if 2 * k > pop_size or pop_size <= _SMALL_POPULATION:
        return copy(reshape(row_permutations(gen, 1, pop_size, qi), (pop_size,))[:k])
    out = empty_array((k,), _dtypes.int64, qi)
    _engine.random_sample(qi.ref, qi.kc, out, pop_size, gen.bit_generator._host_words(4))
    return out


def choice(gen, a, size, replace, p, axis, shuffle):
    if isinstance(a, usm_ndarray) and a.ndim == 0 and a.dtype.kind in "iu":
        a = int(a)   # (a 0-d array of an integer is that integer, as NumPy reads it)
    if isinstance(a, usm_ndarray) or np.ndim(a) > 0:
        arr = _array(a)
        if arr.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a 0-d array")
        axis = normalize_axis(axis, arr.ndim)
        pop_size = arr.shape[axis]
        qi = arr._q
    else:
        arr = None
        try:
            pop_size = operator.index(a)
        except TypeError:
            raise ValueError(f"a must be a sequence or an integer, not {type(a).__name__}") \
                from None
        if pop_size > 1 << 63:   # (range(2**63) is int64 values)
            raise ValueError(f"a = {pop_size} is too large: samples are int64 values")
        # (samples of a range follow an array p: its queue and USM type)
        qi = p._q if isinstance(p, usm_ndarray) else resolve_queue(None, None)
    kind = coerced_kind([v for v in (arr, p) if isinstance(v, usm_ndarray)])
    shape = () if size is None else ((operator.index(size),) if np.ndim(size) == 0
                                     else tuple(operator.index(s) for s in size))
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    k = math.prod(shape)
    if pop_size <= 0 and k:
        raise ValueError("a must be a positive integer unless no samples are taken"
                         if arr is None else "a cannot be empty unless no samples are taken")
    if p is not None:
        p = _probabilities(p, pop_size)
    if replace:
        if p is not None:   # NumPy's inverse CDF: the same values for the same seed
            cdf = np.cumsum(p)
            cdf /= cdf[-1]
            u = gen.random(shape, sycl_queue=qi.queue)
            idx = searchsorted(asarray(cdf, sycl_queue=qi.queue), reshape(u, (-1,)),
                               side="right")
        else:
            idx = reshape(gen.integers(0, max(pop_size, 1), size=k, sycl_queue=qi.queue), (k,))
    else:
        if k > pop_size:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is not None:
            idx = asarray(_numpy_weighted_sample(gen, p, k, qi), sycl_queue=qi.queue)
        elif k == 0:
            idx = empty_array((0,), _dtypes.int64, qi)
        elif pop_size > np.iinfo(np.int64).max:
            # (the sampler's population is an int64): k distinct values of
            # range(2**63 - 1), and 2**63 - 1 in place of one chosen at random
            # with the weight that value has (1 in 2**63 / k)
            idx = _sample_without_replacement(gen, pop_size - 1, k, qi)
            pick = asnumpy(gen.integers(0, pop_size, size=2, sycl_queue=qi.queue))
            if pick[0] < k:
                host = asnumpy(idx)
                host[pick[1] % k] = pop_size - 1
                idx = asarray(host, sycl_queue=qi.queue)
        else:
            idx = _sample_without_replacement(gen, pop_size, k, qi)
    if arr is None:
        return reshape(_like(idx, None, kind), shape)
    res = take(arr, _like(idx, arr, kind), axis=axis)
    return reshape(res, arr.shape[:axis] + shape + arr.shape[axis + 1:])


def _numpy_weighted_sample(gen, p, k, qi):
    """NumPy's weighted sampling without replacement, step for step (its
    uniforms are the stream's, so its values are NumPy's)."""
    if np.count_nonzero(p > 0) < k:
        raise ValueError("Fewer non-zero entries in p than size")
    p = p.copy()
    found = np.zeros(k, dtype=np.int64)
    n_uniq = 0
    while n_uniq < k:
        x = asnumpy(gen.random((k - n_uniq,), sycl_queue=qi.queue))
        if n_uniq > 0:
            p[found[0:n_uniq]] = 0
        cdf = np.cumsum(p)
        cdf /= cdf[-1]
        new = cdf.searchsorted(x, side="right")
        _, unique_indices = np.unique(new, return_index=True)
        unique_indices.sort()
        new = new.take(unique_indices)
        found[n_uniq:n_uniq + new.size] = new
        n_uniq += new.size
    return found
