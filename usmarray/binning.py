"""Counting and locating values in sorted data: ``bincount``, ``digitize``
and ``interp``, as NumPy has them.

Counts are made without atomics (``row_histogram``): each of a few
work-items counts a chunk of the values into a row of bins of its own, and
the rows are summed; counts and weight sums are the same on every run.
Histograms of more than ``MAX_ROW_BINS`` bins, whose rows would take too
much memory, come from a sort instead: the sorted values' boundaries
(``searchsorted`` of every bin) give the counts as differences, exactly;
weighted counts sum each bin's weights, one work-item per bin (differences
of one running sum, NumPy's method for histograms with given edges, let a
NaN, an infinity or a large weight spill into the later bins).
``digitize`` and ``interp`` are a ``searchsorted`` of the points into the
edges, then gathers and elementwise arithmetic.

Host waits: ``bincount`` reads its input's minimum and maximum (the result's
length depends on them, and NumPy rejects negative values); ``digitize``
reads whether the bins are monotonic."""

import operator

import numpy as np

from . import elementwise as ew
from ._core import _dtypes, _engine, _kernels
from ._core._array import empty_array, usm_ndarray
from ._core._copy import asnumpy, astype, copy
from ._core._device import coerced_kind, common_queue
from ._core._indexing import take
from ._core._layout import C_CONTIG
from ._core._views import check_array, flip, reshape
from .creation import arange, asarray, zeros
from .elementwise import mixed_operand_error
from .manipulation import stack
from .reduction import any as _any, max as _max, min as _min, sum as _sum
from .searching import searchsorted, where
from .sorting import sort, sort_with_order

__all__ = ["bincount", "digitize", "interp"]


def _device(name, v, like):
    """`v` as a usm_ndarray: itself, or a Python scalar on `like`'s queue;
    host arrays and lists are refused with the message that says how to move them."""
    if isinstance(v, usm_ndarray):
        common_queue(like, v)
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        raise mixed_operand_error(name, v)
    return asarray(v, sycl_queue=like.sycl_queue)


def sorted_counts(s, edges, weights_sorted=None, last_closed=True):
    """Counts of sorted values `s` in the bins ``[edges[i], edges[i + 1])``
    (the last bin closed when `last_closed`): differences of the edges'
    positions in `s`; with `weights_sorted` (the weights in `s`'s order),
    differences of their cumulative sum there instead."""
    lo = searchsorted(s, edges[:-1], side="left")
    hi = searchsorted(s, edges[-1:], side="right" if last_closed else "left")
    pos = _join(lo, hi)
    if weights_sorted is None:
        return ew.subtract(pos[1:], pos[:-1])
    return _segment_sums(weights_sorted, pos)


_SUM_TYPES = ("i8", "f4", "f8", "c8", "c16")
_kernels.register_family(_kernels.Family(
    ("segment_sums",), "segments.cpp", lambda a: a[0], lambda t, qi: [f"segment_sums<{t}>"],
    lambda qi: [t for t in _kernels.device_types(qi) if t in _SUM_TYPES]))


def _segment_sums(w, pos):
    """Sums of `w` over ``[pos[k], pos[k + 1])`` for every k
    (kernels/sycl/segments.cpp)."""
    qi = w._q
    m = pos.shape[0] - 1
    out = empty_array((m,), w.dtype, qi, coerced_kind([w, pos]))
    if m:
        _engine.launch_raw(qi.ref, qi.kc, f"segment_sums<{_dtypes.TYPE_NAMES[w._tc]}>",
                           [w, pos, np.int64(m).tobytes(), out], [m], [1])
    return out


def _join(a, b):
    out = empty_array((a.size + b.size,), a.dtype, a._q, a.usm_type)
    if a.size:
        out[:a.size] = a
    out[a.size:] = b
    return out


def _accumulator(w):
    """The type weights are summed in: float64 (float32 without fp64) for
    real ones, as NumPy's bincount, complex128/complex64 for complex ones."""
    qi = w._q
    return qi.complex if w.dtype.kind == "c" else qi.float


# Private rows (kernels/sycl/binning.cpp): the value types the counting
# kernel takes, and the most row items (int64 or weights) one histogram uses.
_ROW_TYPES = ("i8", "f4", "f8")
_MAX_ROW_ITEMS = 1 << 22
MAX_ROW_BINS = _MAX_ROW_ITEMS // 4   # (at least 4 rows: both cores of a CPU busy)
_ROW_CHUNK = 4096     # items per work-item at least


def _row_kernels(t, qi):
    """bincount's (int64 values: counts, float weights) and histogram's
    (float values: counts, integer, float and complex weights)."""
    fl, cx = (_dtypes.TYPE_NAMES[_dtypes.TC[d]] for d in (qi.float, qi.complex))
    if t == "i8":
        return ["bin_rows<i8, i8, false, false>", f"bin_rows<i8, {fl}, false, true>"]
    return [f"bin_rows<{t}, {w}, true, {wt}>"
            for w, wt in (("i8", "false"), ("i8", "true"), (fl, "true"), (cx, "true"))]


_kernels.register_family(_kernels.Family(
    ("bin_rows",), "binning.cpp", lambda a: a[0], _row_kernels,
    lambda qi: [t for t in _kernels.device_types(qi) if t in _ROW_TYPES]))


def _contiguous(v, dt):
    """`v` in dtype `dt`, C-contiguous (a kernel's pointer parameter)."""
    v = astype(v, dt, copy=False)
    return v if v._flags & C_CONTIG else copy(v, order="C")


def _max_rows(nbins):
    return _MAX_ROW_ITEMS // max(nbins, 1)


def row_scale(x_dtype, nbins, first, last):
    """The kernel's `scale` for `nbins` evenly spaced edges from `first` to
    `last` in items of `x_dtype`, or None when it is not a finite positive
    number of that type (the counts then come from a sort)."""
    with np.errstate(all="ignore"):
        s = x_dtype.type(nbins / (last - first)) if last > first else x_dtype.type(0)
    return s if np.isfinite(s) and s > 0 else None


def row_histogram(x, nbins, edges=None, weights=None, acc=None, scale=None):
    """Counts (int64), or sums of `weights` in dtype `acc`, of the items of
    the 1-d `x` in `nbins` bins: with `edges` (of x's floating dtype, nbins
    + 1 evenly spaced ones, and `scale` from row_scale) NumPy's histogram
    bins, else x's int64 values (all in ``[0, nbins)``, unchecked), as
    bincount. Each of a few work-items counts a chunk into a row of its own,
    then the rows are summed (kernels/sycl/binning.cpp). x's dtype must be
    one of _ROW_TYPES; `nbins` at most MAX_ROW_BINS."""
    qi = x._q
    w_dt = _dtypes.int64 if weights is None else acc
    n = x.shape[0]
    nrows = max(1, min(-(-n // _ROW_CHUNK), 8 * qi.device.max_compute_units, _max_rows(nbins)))
    chunk = max(-(-n // nrows), 1)
    rows = empty_array((nrows, nbins), w_dt, qi,
                       coerced_kind([a for a in (x, edges, weights) if isinstance(a, usm_ndarray)]))
    if nbins:
        x = _contiguous(x, x.dtype)
        e = x if edges is None else _contiguous(edges, x.dtype)
        w = x if weights is None else _contiguous(weights, w_dt)
        name = (f"bin_rows<{_dtypes.TYPE_NAMES[x._tc]}, {_dtypes.TYPE_NAMES[rows._tc]}, "
                f"{'false' if edges is None else 'true'}, "
                f"{'false' if weights is None else 'true'}>")
        _engine.launch_raw(qi.ref, qi.kc, name,
                           [x, e, w] + [np.int64(v).tobytes() for v in (n, chunk, nbins, nrows)]
                           + [x.dtype.type(scale or 0).tobytes(), rows], [nrows], [1])
    return rows[0] if nrows == 1 else _sum(rows, axis=0, dtype=w_dt)


def bin_counts(idx, n, weights=None):
    """Counts of the int64 values of `idx` (all in ``[0, n)``) in n bins,
    with `weights` summed (no checks: histogramdd's bins)."""
    if n <= MAX_ROW_BINS:
        return row_histogram(idx, n, weights=weights,
                             acc=None if weights is None else _accumulator(weights))
    edges = arange(n + 1, dtype=_dtypes.int64, sycl_queue=idx.sycl_queue)
    if weights is None:
        return sorted_counts(sort(idx), edges, last_closed=False)
    s, order = sort_with_order(idx)
    w = astype(take(weights, order), _accumulator(weights), copy=False)
    return sorted_counts(s, edges, w, last_closed=False)


@_kernels.compiled_together
def bincount(x, /, weights=None, minlength=0):
    """Number of occurrences of each value, as ``numpy.bincount``.

    Parameters
    ----------
    x : usm_ndarray
        1-d, non-negative integers (bool and integer dtypes; floats are a
        TypeError, as in NumPy; uint64 values from 2**63 on a ValueError).
    weights : usm_ndarray, optional
        Of `x`'s shape: each occurrence counts its weight.
    minlength : int
        The least length of the result.

    Returns
    -------
    usm_ndarray
        Length ``max(x.max() + 1, minlength)``: int64 counts, or the sums of
        the weights as float64 (float32 without fp64). The host waits for
        `x`'s minimum and maximum.
    """
    check_array(x, "bincount")
    if x.ndim != 1:
        raise ValueError("bincount: object too deep for desired array" if x.ndim > 1 else
                         "bincount: object of too small depth for desired array")
    if not (np.can_cast(x.dtype, np.int64, "safe") or x.dtype == np.uint64):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    if minlength is None:
        raise TypeError("bincount: minlength must be an integer, not None")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        weights = _device("bincount", weights, x)
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
        if weights.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {weights.dtype!r} to "
                            "dtype('float64') according to the rule 'safe'")
    xi = astype(x, _dtypes.int64, copy=False)
    n = minlength
    if x.size:
        lo, hi = asnumpy(stack([_min(xi), _max(xi)])).tolist()
        if lo < 0:   # (or a uint64 from 2**63 on, negative as int64)
            raise ValueError("'list' argument must have no negative elements" if x.dtype.kind == "i"
                             else f"bincount: a value of {x.dtype} beyond int64's range")
        n = max(n, hi + 1)
    if weights is None:
        if not x.size:
            return zeros((n,), dtype=_dtypes.int64, sycl_queue=x.sycl_queue, usm_type=x.usm_type)
        return bin_counts(xi, n)
    if not x.size:
        # (the weights' sums are floats also for no values: NumPy's are int64 zeros)
        return zeros((n,), dtype=x._q.float, sycl_queue=x.sycl_queue,
                     usm_type=coerced_kind([x, weights]))
    return bin_counts(xi, n, weights)


def _monotonic(bins):
    """1 for non-decreasing bins, -1 for non-increasing ones, else 0."""
    if bins.size < 2:
        return 1
    if bins.dtype.kind == "b":
        bins = astype(bins, _dtypes.int8)
    # by comparisons, as NumPy (differences wrap for integers; a NaN, which
    # compares false, breaks neither order)
    a, b = bins[:-1], bins[1:]
    down, up = asnumpy(stack([_any(ew.greater(a, b)), _any(ew.less(a, b))])).tolist()
    return 1 if not down else (-1 if not up else 0)


@_kernels.compiled_together
def digitize(x, bins, right=False):
    """Indices of the bins each value falls in, as ``numpy.digitize``.

    Parameters
    ----------
    x : usm_ndarray
        The values (not complex).
    bins : usm_ndarray or sequence
        1-d monotonic (increasing or decreasing) bin edges; a host sequence
        is copied to `x`'s queue.
    right : bool
        Whether a bin holds its right edge instead of its left one.

    Returns
    -------
    usm_ndarray
        int64 indices of `x`'s shape: ``i`` such that ``bins[i-1] <= x <
        bins[i]`` for increasing bins (with `right`: ``bins[i-1] < x <=
        bins[i]``), NumPy's conventions for decreasing ones. The host waits
        for the monotonicity check.
    """
    if not isinstance(x, usm_ndarray) and isinstance(bins, usm_ndarray) \
            and isinstance(x, (int, float, np.generic)) and np.ndim(x) == 0:
        # (a number: a 0-d result, beside bins)
        x = asarray(x, sycl_queue=bins.sycl_queue, usm_type=bins.usm_type)
    check_array(x, "digitize")
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if not isinstance(bins, usm_ndarray):
        bins = asarray(np.asarray(bins), sycl_queue=x.sycl_queue, usm_type=x.usm_type)
    common_queue(x, bins)
    if bins.ndim != 1:
        raise ValueError("digitize: bins must be one-dimensional")
    if bins.dtype.kind == "c":
        raise TypeError("digitize: bins may not be complex")
    mono = _monotonic(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"     # (swapped: bins are searched for x)
    if mono == -1:
        return ew.subtract(bins.size, searchsorted(flip(bins), x, side=side))
    return searchsorted(bins, x, side=side)


def _interp_real(x, xp, fp, left, right, at_nan=None):
    """NumPy's interpolation of real `fp` (all float arrays of one dtype);
    a NaN in `x` gives NaN, or `at_nan` (NumPy's 0 for imaginary parts)."""
    n = xp.shape[0]
    lval = fp[0] if left is None else left
    rval = fp[n - 1] if right is None else right
    if n == 1:
        return where(ew.less(x, xp[0]), lval, where(ew.greater(x, xp[0]), rval, fp[0]))
    j = ew.subtract(searchsorted(xp, x, side="right"), 1)
    jc = ew.clip(j, 0, n - 2)
    x0, x1 = take(xp, reshape(jc, (-1,))), take(xp, reshape(ew.add(jc, 1), (-1,)))
    y0, y1 = take(fp, reshape(jc, (-1,))), take(fp, reshape(ew.add(jc, 1), (-1,)))
    x0, x1, y0, y1 = (reshape(v, x.shape) for v in (x0, x1, y0, y1))
    slope = ew.divide(ew.subtract(y1, y0), ew.subtract(x1, x0))
    r = ew.add(ew.multiply(slope, ew.subtract(x, x0)), y0)
    # NumPy's fallbacks: from the right end when NaN, then the flat value
    r2 = ew.add(ew.multiply(slope, ew.subtract(x, x1)), y1)
    r = where(ew.isnan(r), where(ew.logical_and(ew.isnan(r2), ew.equal(y0, y1)), y0, r2), r)
    r = where(ew.equal(x, x0), y0, r)
    r = where(ew.equal(j, n - 1), fp[n - 1], r)
    r = where(ew.greater(x, xp[n - 1]), rval, r)
    r = where(ew.less(x, xp[0]), lval, r)
    return where(ew.isnan(x), x if at_nan is None else at_nan, r)


@_kernels.compiled_together
def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise linear interpolation, as ``numpy.interp``.

    Parameters
    ----------
    x : usm_ndarray
        Where to evaluate.
    xp : usm_ndarray
        1-d increasing sample points (not checked, as in NumPy; with `period`
        any order).
    fp : usm_ndarray
        1-d values at `xp`, real or complex.
    left, right : scalar, optional
        The values below ``xp[0]`` and above ``xp[-1]`` (default ``fp[0]``
        and ``fp[-1]``).
    period : float, optional
        Period of periodic x-coordinates (then `left` and `right` are
        ignored).

    Returns
    -------
    usm_ndarray
        float64 (complex128 for complex `fp`; float32/complex64 on a device
        without fp64) of `x`'s shape.
    """
    if not isinstance(x, usm_ndarray) and isinstance(xp, usm_ndarray) and np.ndim(x) == 0 \
            and isinstance(x, (int, float, np.generic)):
        # (a number: a 0-d result, beside xp and fp)
        x = asarray(x, sycl_queue=xp.sycl_queue,
                    usm_type=coerced_kind([v for v in (xp, fp) if isinstance(v, usm_ndarray)]))
    check_array(x, "interp")
    xp, fp = _device("interp", xp, x), _device("interp", fp, x)
    for name, v in (("x", x), ("xp", xp)):
        if v.dtype.kind == "c":
            raise TypeError(f"interp: {name} may not be complex (Cannot cast array data from "
                            f"{v.dtype!r} to dtype('float64') according to the rule 'safe')")
    qi = x._q
    ft = qi.float
    out_t = qi.complex if fp.dtype.kind == "c" else ft
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("Data points must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    xf, xpf, fpf = astype(x, ft, copy=False), astype(xp, ft, copy=False), \
        astype(fp, out_t, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        xf = ew.remainder(xf, period)
        xpf = ew.remainder(xpf, period)
        xpf, order = sort_with_order(xpf)
        fpf = take(fpf, order)
        n = xpf.shape[0]
        xpf = _join(_join(ew.subtract(xpf[n - 1:], period), xpf), ew.add(xpf[:1], period))
        fpf = _join(_join(fpf[n - 1:], fpf), fpf[:1])
    if out_t.kind != "c":
        for v in (left, right):
            if v is not None and np.iscomplexobj(v):
                raise TypeError(f"interp: left and right must be real numbers for real fp, "
                                f"not {type(v).__name__}")
        return _interp_real(xf, xpf, fpf, left, right)
    out = empty_array(x.shape, out_t, qi, coerced_kind([x, xp, fp]))
    lv = None if left is None else complex(left)
    rv = None if right is None else complex(right)
    # the real and imaginary parts interpolated apart, as NumPy does
    out.real[...] = _interp_real(xf, xpf, astype(fpf.real, ft), None if lv is None else lv.real,
                                 None if rv is None else rv.real)
    out.imag[...] = _interp_real(xf, xpf, astype(fpf.imag, ft), None if lv is None else lv.imag,
                                 None if rv is None else rv.imag, at_nan=0.0)
    return out
