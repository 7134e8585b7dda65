"""Histograms, as NumPy has them: ``histogram``, ``histogram_bin_edges``,
``histogram2d`` and ``histogramdd``.

The bin edges are NumPy's: its rules for the range, the dtype and the
estimators (``bins="auto"``, ``"fd"``, ...) run on the host on the few
numbers they need (the data's minimum and maximum, its standard deviation
or quartiles, which the device computes and the host waits for), and the
edges themselves are ``numpy.linspace`` of them, moved to the device. The
counting is on the device: ``histogram`` of evenly spaced edges computes
each value's bin and counts in one pass (``binning.row_histogram``); of
other edges (or beyond 2**20 bins) it sorts the data and finds the edges in
it (``binning.sorted_counts``);
``histogramdd`` finds each sample's bin
along each axis (``searchsorted``), flattens the bin coordinates and counts
them (NumPy's method). Results and edges are usm_ndarrays."""

import operator
import warnings

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import asnumpy, astype
from ._core._device import common_queue
from ._core._indexing import take
from ._core._kernels import compiled_together
from ._core._views import check_array, reshape
from .binning import MAX_ROW_BINS, bin_counts, row_histogram, row_scale, sorted_counts
from .creation import asarray
from .elementwise import mixed_operand_error
from .manipulation import concat, stack
from .reduction import any as _any, max as _max, mean as _mean, min as _min, std as _std, \
    sum as _sum
from .searching import searchsorted, where
from .sorting import sort, sort_with_order
from .statistics import percentile

__all__ = ["histogram", "histogram_bin_edges", "histogram2d", "histogramdd"]

_BUILTIN_RANGE = range


# ----------------------------------------------------------------- NumPy's edge rules
def _unsigned_subtract(a, b):
    """a - b of integer scalars without overflow (NumPy's helper)."""
    dt = np.result_type(a, b)
    if dt.kind == "i":
        u = np.dtype(dt.str.replace("i", "u"))
        return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                           dtype=u)
    return np.subtract(a, b, dtype=dt)


def _min_max(a):
    """The minimum and maximum of `a` as NumPy scalars of its dtype (one host wait)."""
    return tuple(asnumpy(stack([_min(a), _max(a)])))


def _outer_edges(a, range):
    if range is not None:
        first_edge, last_edge = range
        if first_edge > last_edge:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first_edge) and np.isfinite(last_edge)):
            raise ValueError(f"supplied range of [{first_edge}, {last_edge}] is not finite")
    elif a.size == 0:
        first_edge, last_edge = 0, 1
    else:
        first_edge, last_edge = _min_max(a)
        if not (np.isfinite(first_edge) and np.isfinite(last_edge)):
            raise ValueError(f"autodetected range of [{first_edge}, {last_edge}] is not finite")
    if first_edge == last_edge:
        first_edge = first_edge - 0.5
        last_edge = last_edge + 0.5
    return first_edge, last_edge


def _as_float(a):
    return a if a.dtype.kind in "fc" else astype(a, a._q.float)


def _ptp(x):
    lo, hi = _min_max(x)
    return _unsigned_subtract(hi, lo)


def _bin_sqrt(x, range):
    return _ptp(x) / np.sqrt(x.size)


def _bin_sturges(x, range):
    return _ptp(x) / (np.log2(x.size) + 1.0)


def _bin_rice(x, range):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _bin_scott(x, range):
    return (24.0 * np.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(_std(_as_float(x)))


def _bin_fd(x, range):
    q75, q25 = asnumpy(percentile(x, asarray([75.0, 25.0], sycl_queue=x.sycl_queue)))
    return 2.0 * (q75 - q25) * x.size ** (-1.0 / 3.0)


def _bin_auto(x, range):
    fd_bw = _bin_fd(x, range)
    sturges_bw = _bin_sturges(x, range)
    return min(fd_bw, sturges_bw) if fd_bw else sturges_bw


def _bin_doane(x, range):
    if x.size > 2:
        sg1 = np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        xf = _as_float(x)
        sigma = float(_std(xf))
        if sigma > 0.0:
            g1 = float(_mean(ew.pow(ew.divide(ew.subtract(xf, _mean(xf)), sigma), 3)))
            return _ptp(x) / (1.0 + np.log2(x.size) + np.log2(1.0 + np.absolute(g1) / sg1))
    return 0.0


def _bin_stone(x, range):
    """NumPy's Stone estimator: the bin count (up to max(100, sqrt(n))) that
    minimises the estimated L2 risk. One sort; each candidate is a
    searchsorted of its edges, all read to the host at once."""
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0
    s = sort(x)
    upper = max(100, int(np.sqrt(n)))
    first, last = _outer_edges(x, range)   # (the range, as NumPy's inner histograms take it)
    counts = []
    for nbins in _BUILTIN_RANGE(1, upper + 1):
        edges = _linspace_edges(first, last, nbins, x.dtype)
        counts.append(sorted_counts(_cast_sorted(s, edges.dtype),
                                    asarray(edges, sycl_queue=x.sycl_queue, usm_type=x.usm_type)))
    # the risks from the exact counts on the host, in NumPy's arithmetic
    # (p.dot(p)): candidates whose risks tie exactly break the tie as NumPy's
    # do (a sum of p * p on the device picked 9 bins for NumPy's 1)
    flat = asnumpy(concat(counts))
    hh = ptp_x / np.arange(1, upper + 1)
    jhat = []
    for nbins, p in zip(_BUILTIN_RANGE(1, upper + 1),
                        np.split(flat, np.cumsum(np.arange(1, upper)))):
        p = p / n
        jhat.append((2 - (n + 1) * p.dot(p)) / hh[nbins - 1])
    nbins = int(np.argmin(jhat)) + 1
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=3)
    return ptp_x / nbins


_SELECTORS = {"stone": _bin_stone, "auto": _bin_auto, "doane": _bin_doane, "fd": _bin_fd,
              "rice": _bin_rice, "scott": _bin_scott, "sqrt": _bin_sqrt,
              "sturges": _bin_sturges}


def _linspace_edges(first_edge, last_edge, n, dtype):
    bin_type = np.result_type(first_edge, last_edge, np.empty(0, dtype))
    if bin_type.kind in "iu":
        bin_type = np.result_type(bin_type, float)
    return np.linspace(first_edge, last_edge, n + 1, endpoint=True, dtype=bin_type)


def _kept(a, range):
    """`a` without the values outside `range` (NumPy truncates for the estimators)."""
    first, last = range
    keep = ew.logical_and(ew.greater_equal(a, first), ew.less_equal(a, last))
    return a[keep]


def _bin_edges(a, bins, range, weights):
    """(edges as a host array or usm_ndarray, whether they are evenly spaced)."""
    if isinstance(bins, str):
        if bins not in _SELECTORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for "
                            "weighted data")
        first_edge, last_edge = _outer_edges(a, range)
        if range is not None:
            a = _kept(a, (first_edge, last_edge))
        n = 1
        if a.size:
            width = _SELECTORS[bins](a, (first_edge, last_edge))
            if width:
                if a.dtype.kind in "iu" and width < 1:
                    width = 1
                n = int(np.ceil(_unsigned_subtract(last_edge, first_edge) / width))
    elif isinstance(bins, usm_ndarray) or np.ndim(bins) == 1:
        if isinstance(bins, usm_ndarray) and bins.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        _check_increasing(bins, "`bins` must increase monotonically, when an array")
        return bins, False
    elif np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first_edge, last_edge = _outer_edges(a, range)
    else:
        raise ValueError("`bins` must be 1d, when an array")
    edges = _linspace_edges(first_edge, last_edge, n, a.dtype)
    if np.any(edges[:-1] >= edges[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {n} finite-sized bins.")
    return edges, True


def _weight_accumulator(a, wt):
    """The dtype weights of dtype `wt` are summed in: int64, the device's
    float or complex type."""
    return _dtypes.int64 if wt.kind in "biu" else (a._q.complex if wt.kind == "c" else
                                                   a._q.float)


def _row_type(dt, edge_dt):
    """The dtype data of `dt` and evenly spaced edges of `edge_dt` are
    compared in by the counting kernel (both exactly: float16 as float32),
    or None where it has none (the sort then counts)."""
    t = np.result_type(dt, edge_dt)
    if t.kind == "f" and t.itemsize in (2, 4, 8):
        return _dtypes.float32 if t.itemsize <= 4 else _dtypes.float64
    return None


def _cast_sorted(s, dt):
    return s if s.dtype == dt else astype(s, dt)


def _check_increasing(edges, message):
    if isinstance(edges, usm_ndarray):
        bad = edges.size > 1 and bool(_any(ew.greater(edges[:-1], edges[1:])))
    else:
        e = np.asarray(edges)
        bad = bool(np.any(e[:-1] > e[1:]))
    if bad:
        raise ValueError(message)


def _data(name, a):
    check_array(a, name)
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex data is not supported (usmarray sorts real values only)")
    if a.dtype.kind == "b":
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = astype(a, _dtypes.uint8)
    return reshape(a, (-1,))


def _weights(name, weights, a):
    """`weights` checked against the data `a` (before it is flattened), flattened."""
    if weights is None:
        return None
    check_array(a, name)
    if not isinstance(weights, usm_ndarray):
        if isinstance(weights, (list, tuple, np.ndarray)):
            raise mixed_operand_error(name, weights)
        raise TypeError(f"{name}: weights must be a usm_ndarray")
    common_queue(a, weights)
    if weights.shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    return reshape(weights, (-1,))


def _on_device(edges, like):
    return edges if isinstance(edges, usm_ndarray) else asarray(edges, sycl_queue=like.sycl_queue,
                                                                  usm_type=like.usm_type)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges :func:`histogram` uses, as ``numpy.histogram_bin_edges``.

    Parameters
    ----------
    a : usm_ndarray
        The data (flattened).
    bins : int, sequence, usm_ndarray or str
        A number of equal-width bins, the edges themselves (increasing), or
        the name of NumPy's estimator: "auto", "fd", "doane", "scott",
        "stone", "rice", "sturges", "sqrt".
    range : (float, float), optional
        The lower and upper edge (default: the data's minimum and maximum).
    weights : usm_ndarray, optional
        Only checked (the estimators do not take weights).

    Returns
    -------
    usm_ndarray
        The edges, NumPy's values and dtype (computed on the host from the
        few statistics they need).
    """
    weights = _weights("histogram_bin_edges", weights, a)
    a = _data("histogram_bin_edges", a)
    edges, _ = _bin_edges(a, bins, range, weights)
    return _on_device(edges, a)


@compiled_together
def histogram(a, bins=10, range=None, density=None, weights=None):
    """A histogram of the data, as ``numpy.histogram``.

    Parameters
    ----------
    a : usm_ndarray
        The data (flattened; real).
    bins : int, sequence, usm_ndarray or str
        As for :func:`histogram_bin_edges`.
    range : (float, float), optional
        The lower and upper edge; values outside are not counted.
    density : bool, optional
        Return the probability density (the counts divided by the total and
        the bin widths).
    weights : usm_ndarray, optional
        Of `a`'s shape: each value counts its weight.

    Returns
    -------
    hist : usm_ndarray
        int64 counts, the sums of the weights (of the weights' dtype), or the
        density (float64).
    bin_edges : usm_ndarray
        ``len(hist) + 1`` edges. Every bin is half-open ``[e_i, e_i+1)``
        except the last, which holds its right edge.
    """
    weights = _weights("histogram", weights, a)
    a = _data("histogram", a)
    edges, even = _bin_edges(a, bins, range, weights)
    e = _on_device(edges, a)
    # evenly spaced edges: NumPy compares the data in the edges' dtype
    data = _cast_sorted(a, e.dtype) if even else a
    t = _row_type(data.dtype, e.dtype) if even else None
    nb = e.shape[0] - 1
    scale = row_scale(t, nb, float(edges[0]), float(edges[-1])) if t is not None else None
    if scale is not None and nb <= MAX_ROW_BINS:
        # evenly spaced edges: counted in one pass over the data
        # (binning.row_histogram), each value's bin computed, no sort
        x, ed = astype(data, t, copy=False), astype(e, t, copy=False)
        if weights is None:
            n = row_histogram(x, nb, ed, scale=scale)
        else:
            wt = weights.dtype
            n = astype(row_histogram(x, nb, ed, reshape(weights, (-1,)),
                                     _weight_accumulator(a, wt), scale=scale), wt, copy=False)
    elif weights is None:
        n = sorted_counts(sort(data), e)
    else:
        s, order = sort_with_order(data)
        wt = weights.dtype
        w = astype(take(weights, order), _weight_accumulator(a, wt), copy=False)
        n = astype(sorted_counts(s, e, w), wt, copy=False)
    if density:
        # (NumPy takes the widths as float64: the density is at least float64)
        db = astype(ew.subtract(e[1:], e[:-1]), a._q.float, copy=False)
        dt = _dtypes.device_dtype(np.result_type(n.dtype, db.dtype), a._q)
        n = astype(n, dt, copy=False)
        n = ew.divide(ew.divide(n, astype(db, dt, copy=False)), _sum(n))
    return n, e


@compiled_together
def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """A multidimensional histogram, as ``numpy.histogramdd``.

    Parameters
    ----------
    sample : usm_ndarray or sequence of usm_ndarray
        (N, D) points, or D 1-d arrays of the coordinates.
    bins : int, sequence of ints or of edge arrays
        Per dimension: a number of equal-width bins or the edges.
    range : sequence of (float, float), optional
        Per dimension: the outer edges (default: the data's extent).
    density : bool, optional
        Return the probability density.
    weights : usm_ndarray, optional
        One weight per point.

    Returns
    -------
    hist : usm_ndarray
        float64 counts (or weight sums, or density) of shape
        ``(nbins_0, ..., nbins_D-1)``.
    edges : list of usm_ndarray
        The edges of each dimension.
    """
    if isinstance(sample, usm_ndarray):
        if sample.ndim > 2:
            raise ValueError("histogramdd: sample must be 2-d (N, D) or a sequence of 1-d arrays")
        cols = [reshape(sample, (-1,))] if sample.ndim < 2 else \
            [sample[:, i] for i in _BUILTIN_RANGE(sample.shape[1])]
    elif isinstance(sample, (list, tuple)):
        cols = []
        for c in sample:
            if not isinstance(c, usm_ndarray):
                raise mixed_operand_error("histogramdd", c)
            cols.append(reshape(c, (-1,)))
        if len({c.shape[0] for c in cols}) > 1:
            raise ValueError("histogramdd: the coordinate arrays differ in length")
    else:
        raise TypeError("histogramdd: sample must be a usm_ndarray or a sequence of them")
    D = len(cols)
    common_queue(*cols)
    for c in cols:
        if c.dtype.kind == "c":
            raise TypeError("histogramdd: complex data is not supported")
    if len({c.dtype for c in cols}) > 1:
        # NumPy stacks the coordinates into one array first: one dtype
        dt = _dtypes.device_dtype(np.result_type(*(c.dtype for c in cols)), cols[0]._q)
        cols = [astype(c, dt, copy=False) for c in cols]
    like = cols[0]
    if weights is not None:
        weights = _weights("histogramdd", weights, like)
        if weights.dtype.kind == "c":
            raise TypeError("histogramdd: complex weights are not supported (the counts are "
                            "real)")
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in _BUILTIN_RANGE(D):
        b = bins[i]
        if isinstance(b, usm_ndarray) or np.ndim(b) == 1:
            if isinstance(b, usm_ndarray) and b.ndim != 1:
                raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
            _check_increasing(b, f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(_on_device(b if isinstance(b, usm_ndarray) else np.asarray(b), like))
        elif np.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(cols[i], range[i])
            try:
                n = operator.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(_on_device(np.linspace(smin, smax, n + 1), like))
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    nbin = [e.shape[0] + 1 for e in edges]   # an outlier bin at each end
    flat = None
    stride = 1
    for i in reversed(_BUILTIN_RANGE(D)):
        e = edges[i]
        k = searchsorted(e, cols[i], side="right")
        # a value on the last edge goes into the last bin, not the outliers
        k = where(ew.equal(cols[i], e[e.shape[0] - 1]), ew.subtract(k, 1), k)
        term = k if stride == 1 else ew.multiply(k, stride)
        flat = term if flat is None else ew.add(flat, term)
        stride *= nbin[i]
    hist = bin_counts(flat, stride, weights)
    hist = reshape(astype(hist, like._q.float, copy=False), tuple(nbin))
    hist = hist[(slice(1, -1),) * D]
    if density:
        s = _sum(hist)
        for i in _BUILTIN_RANGE(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            de = ew.subtract(edges[i][1:], edges[i][:-1])
            hist = ew.divide(hist, reshape(astype(de, hist.dtype, copy=False), tuple(shape)))
        hist = ew.divide(hist, s)
    return hist, edges


@compiled_together
def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """A two-dimensional histogram, as ``numpy.histogram2d``.

    Parameters
    ----------
    x, y : usm_ndarray
        The points' coordinates (1-d, one length).
    bins : int, [int, int], edges, or [edges, edges]
        The bins of both dimensions or of each; one sequence of more than
        two numbers is the edges of both.
    range : [[xmin, xmax], [ymin, ymax]], optional
        The outer edges.
    density : bool, optional
        Return the probability density.
    weights : usm_ndarray, optional
        One weight per point.

    Returns
    -------
    H : usm_ndarray
        float64, shape (nx, ny): x along the first axis.
    xedges, yedges : usm_ndarray
        The edges.
    """
    check_array(x, "histogram2d")
    check_array(y, "histogram2d")
    if x.shape[:1] != y.shape[:1]:
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
