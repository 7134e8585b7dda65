"""NumPy's statistics beyond the array API, as CuPy has them: ``median``,
``quantile`` and ``percentile`` (and their NaN-skipping forms), ``average``,
``ptp``, ``cov`` and ``corrcoef``.

Each is composed of usmarray functions (sort, take, where, sum, ...) and
runs on the array's device; the host waits only where NumPy's semantics
need a Python value (``average``'s zero-weight check, the range check of a
device ``q``) and where the nan* quantiles of a host ``q`` read each slice's
count of numbers back (their positions are then computed on the host). NumPy's functions on usm_ndarrays dispatch here
(numpy_protocols.FUNCTIONS).
"""

import math

import numpy as np
import operator

from . import creation, elementwise as ew, linear_algebra, manipulation, reduction, searching, sorting
from ._core import _copy, _dtypes
from ._core._array import usm_ndarray
from ._core._views import check_array
from ._core._reduce import normalize_axes, numpy_axis
from ._core._kernels import compiled_together
from .indexing import take, take_along_axis
from .stacking import atleast_2d

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
           "average", "ptp", "cov", "corrcoef"]


def _float_dtype(qi, *dtypes):
    """NumPy's float64 promotion of `dtypes`, in the device's default float type
    where it has no float64."""
    return _dtypes.result_type(*dtypes, qi.float)


def _as_real_float(name, a):
    """`a` with integers and bools in the default float type; complex is a TypeError."""
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported (as numpy.quantile)")
    return a if a.dtype.kind == "f" else _copy.astype(a, a._q.float)


# ------------------------------------------------------------------ quantiles
def _axis_last(a, axis):
    """`a` with the reduced axes merged into one last axis, and the shape keepdims gives."""
    axes = normalize_axes(axis, a.ndim)
    kept = [d for i, d in enumerate(a.shape) if i not in axes]
    keep_shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    if a.ndim:
        a = manipulation.moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
    n = math.prod(a.shape[i] for i in range(a.ndim - len(axes), a.ndim))
    return manipulation.reshape(a, tuple(kept) + (n,)), keep_shape


def _finish(r, nan_where, q_shape, keep_shape, keepdims):
    """Quantiles along the last axis of r (one per q) -> NumPy's layout:
    the q axis first, NaN where `nan_where` (None: nowhere) is true."""
    if nan_where is not None:
        r = searching.where(nan_where, creation.asarray(float("nan"), dtype=r.dtype,
                                                        sycl_queue=r.sycl_queue,
                                                        usm_type=r.usm_type), r)
    r = manipulation.moveaxis(r, -1, 0)
    shape = keep_shape if keepdims else r.shape[1:]
    return manipulation.reshape(r, tuple(q_shape) + tuple(shape))


def _has_nan(s):
    """Where a sorted (NaN last) slice holds NaN, or None for types without NaN."""
    if s.dtype.kind != "f" or not s.shape[-1]:
        return None
    return ew.isnan(s[..., -1:])


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _lerp(lo, hi, t):
    """NumPy's lerp: exact at both ends and monotonic (from the nearer end)."""
    d = ew.subtract(hi, lo)
    from_lo = ew.add(lo, ew.multiply(d, t))
    from_hi = ew.subtract(hi, ew.multiply(d, ew.subtract(1, t)))
    return searching.where(ew.greater_equal(t, 0.5), from_hi, from_lo)


def _q_values(name, a, q, scale):
    """`q` / `scale` (checked to lie in [0, 1]): as a NumPy array in the type
    the positions are computed in when q is on the host, else as a
    usm_ndarray on a's queue (the other None); and whether the result keeps
    a's float type (NEP 50: a weak Python number, and NumPy's rule for
    integer q)."""
    weak = isinstance(q, (int, float)) and not isinstance(q, np.generic)
    qh = qd = None
    if isinstance(q, usm_ndarray):
        qd = q if q.dtype.kind == "f" else _copy.astype(q, q._q.float)
        if scale != 1:
            qd = ew.divide(qd, float(scale))
        valid = reduction.all(ew.logical_and(ew.greater_equal(qd, 0), ew.less_equal(qd, 1)))
        ndim = qd.ndim
    else:
        qh = np.asarray(q)
        qdt = qh.dtype if qh.dtype in (np.float16, np.float32) else a._q.float
        weak = weak or (qh.dtype.kind in "biu" and scale == 1)   # (percentile divides first)
        qh = qh.astype(np.float64) / scale
        valid = bool(np.all((qh >= 0) & (qh <= 1)))
        qh = qh.astype(qdt)
        ndim = qh.ndim
    if ndim > 1:
        raise ValueError(f"{name}: q must be a scalar or 1-d")
    if not bool(valid):   # (the host waits here for a device q)
        raise ValueError(f"{name}: {'percentiles' if scale != 1 else 'quantiles'} must be "
                         f"in the range [0, {scale}]")
    return qh, qd, weak


_PICK = {"lower": ew.floor, "higher": ew.ceil, "nearest": ew.round}   # (NumPy's round: half to even)
_PICK_HOST = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}


def _quantile(name, a, q, scale, axis, method, keepdims, skip_nan=False):
    """quantile/percentile, and with `skip_nan` nanquantile/nanpercentile: one
    sort along the reduced axes (NaN sorts last), then gathers and a lerp."""
    check_array(a, name)
    if method not in _METHODS:
        raise ValueError(f"{name}: method={method!r} is not supported (supported: "
                         f"{', '.join(_METHODS)})")
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: a must be an array of real numbers")
    qh, qd, weak_q = _q_values(name, a, q, scale)
    # NumPy: integer quantiles (0 or 1) index the sorted elements exactly, in
    # a's dtype, for the linear method (percentile divides q first)
    int_q = scale == 1 and method == "linear" and (
        q.dtype if isinstance(q, usm_ndarray) else np.asarray(q).dtype).kind in "iu"
    discrete = method in _PICK or int_q
    if a.dtype.kind == "b" and not discrete:   # (NumPy: no boolean subtract)
        raise TypeError(f"{name}: method={method!r} is not defined for bool input")
    if discrete:
        x = a
    elif a.dtype.kind in "iu" and not weak_q:
        # NumPy: integers interpolate in their promotion with q's float type
        # (int8 or int16 data and float32 q: float32; a Python float q: the
        # default float type)
        qdt = qh.dtype if qh is not None else qd.dtype
        dt = _dtypes.to_dtype(np.result_type(a.dtype, qdt))
        if (dt == _dtypes.float64 and not a._q.fp64) or (dt == _dtypes.float16 and not a._q.fp16):
            dt = a._q.float
        x = _copy.astype(a, dt)
    else:
        x = _as_real_float(name, a)
    x, keep_shape = _axis_last(x, axis)
    n = x.shape[-1]
    if n == 0 and skip_nan:
        # NumPy's nanquantile of an empty slice: NaN (with a warning there),
        # in the default float type for integer data and discrete methods
        q_shape = (qh if qh is not None else qd).shape
        nq = math.prod(q_shape)
        r = creation.full(x.shape[:-1] + (nq,), float("nan"),
                          dtype=x.dtype if x.dtype.kind == "f" else x._q.float,
                          sycl_queue=x.sycl_queue, usm_type=x.usm_type)
        return _finish(r, None, q_shape, keep_shape, keepdims)
    if n == 0:
        raise IndexError(f"{name}: cannot take a quantile of an empty slice")
    s = sorting.sort(x, axis=-1)
    per_slice = skip_nan and s.dtype.kind == "f"
    if per_slice:
        # per slice: positions among its k non-NaN values (the first k after the sort)
        k = reduction.sum(ew.logical_not(ew.isnan(s)), axis=-1, keepdims=True)
    if qh is not None:
        # q on the host: the positions computed here, in q's type as on the
        # device (nan*: after reading the counts back), instead of a dozen
        # small kernels (half of nanquantile's first-call compile)
        kh = _copy.asnumpy(k) if per_slice else np.int64(n)
        vi = qh.reshape(-1) * (kh - 1).astype(qh.dtype)
        last = np.maximum(kh - 1, 0)
        lo = np.minimum(np.maximum(_PICK_HOST.get(method, np.floor)(vi).astype(np.int64), 0), last)
        hi, frac = np.minimum(lo + 1, last), vi - np.floor(vi)
        if method == "midpoint":
            frac = (frac != 0).astype(frac.dtype) * frac.dtype.type(0.5)
        if per_slice:
            nan_where = creation.asarray(kh == 0, sycl_queue=s.sycl_queue, usm_type=s.usm_type) if (kh == 0).any() else None
        else:
            nan_where = _has_nan(s)
        q_shape, q_dtype = qh.shape, qh.dtype
        tdt = s.dtype if weak_q else _dtypes.result_type(s.dtype, q_dtype)   # (t, below)
        lo, hi = (creation.asarray(v, sycl_queue=s.sycl_queue, usm_type=s.usm_type) for v in (lo, hi))
        frac = None if discrete else creation.asarray(frac.astype(tdt), sycl_queue=s.sycl_queue,
                                                          usm_type=s.usm_type)
    else:
        qv = manipulation.reshape(qd, (-1,))
        pick = _PICK.get(method, ew.floor)
        if per_slice:
            last = ew.maximum(ew.subtract(k, 1), 0)
            vi = ew.multiply(qv, _copy.astype(ew.subtract(k, 1), qv.dtype))
            lo = ew.minimum(ew.maximum(_copy.astype(pick(vi), _dtypes.int64), 0), last)
            hi = ew.minimum(ew.add(lo, 1), last)
            nan_where = ew.equal(k, 0)   # all-NaN slices (NumPy also warns)
        else:
            vi = ew.multiply(qv, float(n - 1))
            lo = ew.clip(_copy.astype(pick(vi), _dtypes.int64), 0, n - 1)
            hi = ew.clip(ew.add(lo, 1), 0, n - 1)
            nan_where = _has_nan(s)
        frac = ew.subtract(vi, ew.floor(vi))
        if method == "midpoint":
            frac = ew.multiply(_copy.astype(ew.not_equal(frac, 0), frac.dtype), 0.5)
        q_shape, q_dtype = qd.shape, qd.dtype
    gather = take_along_axis if per_slice else take
    r = gather(s, lo, axis=-1)
    if not discrete:
        # NumPy: the neighbours' difference in a's type, the weights in result_type(a, q)
        t = _copy.astype(frac, r.dtype if weak_q else _dtypes.result_type(r.dtype, q_dtype),
                         copy=False)
        r = _lerp(r, gather(s, hi, axis=-1), t)
    return _finish(r, nan_where, q_shape, keep_shape, keepdims)


@compiled_together
def quantile(a, q, axis=None, *, method="linear", keepdims=False):
    """The `q`-th quantiles of `a` along `axis`, as ``numpy.quantile``.

    Parameters
    ----------
    a : usm_ndarray
        Real input (integers are taken as the default float type by the
        interpolating methods, which are not defined for bools).
    q : float, sequence of floats or usm_ndarray
        Quantiles in [0, 1]; a scalar or 1-d.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    method : {"linear", "lower", "higher", "nearest", "midpoint"}
        How a quantile between two elements is found (NumPy's methods of
        those names); other NumPy methods are a ValueError.
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The quantiles; for a 1-d `q` the first axis runs over `q`. A slice
        holding NaN gives NaN.

    Notes
    -----
    One sort along the reduced axes, then gathers and a linear
    interpolation, all on the device.
    """
    return _quantile("quantile", a, q, 1, axis, method, keepdims)


@compiled_together
def percentile(a, q, axis=None, *, method="linear", keepdims=False):
    """The `q`-th percentiles of `a` along `axis`, as ``numpy.percentile``.

    ``percentile(a, q)`` is ``quantile(a, q / 100)``: `q` in [0, 100]. See
    :func:`quantile` for the parameters and the result.

    Parameters
    ----------
    a : usm_ndarray
        Real input.
    q : float, sequence of floats or usm_ndarray
        Percentiles in [0, 100]; a scalar or 1-d.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    method : {"linear", "lower", "higher", "nearest", "midpoint"}
        The interpolation method.
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The percentiles (for a 1-d `q`, the first axis runs over `q`).
    """
    return _quantile("percentile", a, q, 100, axis, method, keepdims)


@compiled_together
def median(a, axis=None, *, keepdims=False):
    """The median of `a` along `axis`, as ``numpy.median``.

    Parameters
    ----------
    a : usm_ndarray
        Real input; integers and bools give the default float type.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The middle element, or the mean of the two middle ones; NaN for a
        slice holding NaN or an empty slice.
    """
    check_array(a, "median")
    x, keep_shape = _axis_last(_as_real_float("median", a), axis)
    n = x.shape[-1]
    if n == 0:   # NumPy: the mean of nothing
        r = reduction.mean(x, axis=-1, keepdims=True)
        return _finish(r, None, (), keep_shape, keepdims)
    s = sorting.sort(x, axis=-1)
    # the middle element, or the two middle ones
    idx = creation.arange((n - 1) // 2, n // 2 + 1, dtype=_dtypes.int64, sycl_queue=a.sycl_queue,
                           usm_type=a.usm_type)
    r = reduction.mean(take(s, idx, axis=-1), axis=-1, keepdims=True)
    return _finish(r, _has_nan(s), (), keep_shape, keepdims)


@compiled_together
def nanquantile(a, q, axis=None, *, method="linear", keepdims=False):
    """The `q`-th quantiles of `a` along `axis` ignoring NaNs, as ``numpy.nanquantile``.

    Parameters
    ----------
    a : usm_ndarray
        Real input.
    q : float, sequence of floats or usm_ndarray
        Quantiles in [0, 1]; a scalar or 1-d.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    method : {"linear", "lower", "higher", "nearest", "midpoint"}
        The interpolation method (see :func:`quantile`).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The quantiles of each slice's non-NaN values (for a 1-d `q` the first
        axis runs over `q`); NaN for an all-NaN slice (without NumPy's warning).
    """
    return _quantile("nanquantile", a, q, 1, axis, method, keepdims, skip_nan=True)


@compiled_together
def nanpercentile(a, q, axis=None, *, method="linear", keepdims=False):
    """The `q`-th percentiles of `a` along `axis` ignoring NaNs, as ``numpy.nanpercentile``.

    Parameters
    ----------
    a : usm_ndarray
        Real input.
    q : float, sequence of floats or usm_ndarray
        Percentiles in [0, 100]; a scalar or 1-d.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    method : {"linear", "lower", "higher", "nearest", "midpoint"}
        The interpolation method (see :func:`quantile`).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The percentiles of each slice's non-NaN values; NaN for an all-NaN slice.
    """
    return _quantile("nanpercentile", a, q, 100, axis, method, keepdims, skip_nan=True)


@compiled_together
def nanmedian(a, axis=None, *, keepdims=False):
    """The median of `a` along `axis` ignoring NaNs, as ``numpy.nanmedian``.

    Parameters
    ----------
    a : usm_ndarray
        Real input; integers and bools give the default float type.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The median of each slice's non-NaN values; NaN for an all-NaN or
        empty slice (without NumPy's warning).
    """
    check_array(a, "nanmedian")
    x = _as_real_float("nanmedian", a)
    if x.size == 0 or a.dtype.kind != "f":
        return median(x, axis=axis, keepdims=keepdims)
    x, keep_shape = _axis_last(x, axis)
    s = sorting.sort(x, axis=-1)
    k = reduction.sum(ew.logical_not(ew.isnan(s)), axis=-1, keepdims=True)
    # the middle element, or the two middle ones, of the first k (NaN sorts last)
    lo = ew.maximum(ew.floor_divide(ew.subtract(k, 1), 2), 0)
    hi = ew.floor_divide(k, 2)
    hi = ew.minimum(hi, ew.maximum(ew.subtract(k, 1), 0))
    a_lo, a_hi = take_along_axis(s, lo, axis=-1), take_along_axis(s, hi, axis=-1)
    w = _copy.astype(a_lo, _dtypes.float32) if a_lo.dtype == _dtypes.float16 else a_lo
    mid = ew.divide(ew.add(w, a_hi), 2)
    r = _copy.astype(searching.where(ew.equal(lo, hi), w, mid), s.dtype, copy=False)
    return _finish(r, ew.equal(k, 0), (), keep_shape, keepdims)


# ------------------------------------------------------------------ nan-reductions
# Floating inputs reduce in one pass with the NaN-skipping reductions
# (reduction.nan_reduce); integers and bools have no NaNs and take the plain
# ones.
@compiled_together
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average along `axis`, as ``numpy.average``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int, tuple of ints or None
        The axes to average over (None: all).
    weights : usm_ndarray, optional
        Weights of `a`'s shape, or 1-d along an int `axis`. None: all one.
    returned : bool
        Also return the sum of the weights.
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        The average, and with `returned` the sum of weights broadcast to its
        shape. Weights summing to zero are a ZeroDivisionError (the host
        waits for that check).
    """
    check_array(a, "average")
    if weights is None:
        avg = reduction.mean(a, axis=axis, keepdims=keepdims)
        scl = creation.full_like(avg, a.size / max(avg.size, 1)) if returned else None
    else:
        w = check_array(weights, "average")
        if w.shape != a.shape:
            if axis is None:
                raise TypeError("average: axis must be specified when shapes of a and "
                                "weights differ")
            given = [operator.index(axis)] if not isinstance(axis, tuple) else list(axis)
            given = [i % a.ndim if -a.ndim <= i < a.ndim else i for i in given]
            axes = normalize_axes(tuple(given), a.ndim)
            if w.shape != tuple(a.shape[i] for i in given):
                raise ValueError("average: shape of weights must be consistent with shape "
                                 "of a along the specified axis")
            # the weights' axes in a's order, broadcasting over the others
            w = manipulation.permute_dims(w, tuple(sorted(range(w.ndim), key=given.__getitem__)))
            w = manipulation.reshape(w, tuple(a.shape[i] if i in axes else 1
                                              for i in range(a.ndim)))
        rt = _dtypes.result_type(a.dtype, w.dtype)
        if a.dtype.kind in "biu":   # NumPy: at least float64 for integer and bool data
            rt = _float_dtype(a._q, rt)
        scl = reduction.sum(_copy.astype(manipulation.broadcast_to(w, a.shape), rt, copy=False),
                            axis=axis, keepdims=keepdims)
        if bool(reduction.any(ew.equal(scl, 0))):   # the host waits
            raise ZeroDivisionError("average: weights sum to zero, can't be normalized")
        if w.shape == a.shape:   # (one pass, the products not stored)
            num = linear_algebra.products_summed(a, w, rt, axis=axis, keepdims=keepdims)
        else:
            num = reduction.sum(ew.multiply(_copy.astype(a, rt, copy=False),
                                            _copy.astype(w, rt, copy=False)),
                                axis=axis, keepdims=keepdims)
        avg = ew.divide(num, scl)
    if not returned:
        return avg
    if scl.shape != avg.shape or scl.dtype != avg.dtype:
        scl = _copy.astype(manipulation.broadcast_to(scl, avg.shape), avg.dtype)
    return avg, scl


@compiled_together
def ptp(a, axis=None, *, keepdims=False):
    """Range (maximum minus minimum) along `axis`, as ``numpy.ptp``.

    Parameters
    ----------
    a : usm_ndarray
        Numeric input (integers wrap around as NumPy's do).
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        ``max(a) - min(a)`` along `axis`.
    """
    check_array(a, "ptp")
    axis = numpy_axis(a, axis)
    hi = reduction.max(a, axis=axis, keepdims=keepdims)   # (empty: NumPy's ValueError first)
    if a.dtype.kind == "b":
        raise TypeError("ptp: boolean subtract is not supported (as numpy.ptp)")
    return ew.subtract(hi, reduction.min(a, axis=axis, keepdims=keepdims))


@compiled_together
def cov(m, y=None, rowvar=True, bias=False, ddof=None, *, dtype=None):
    """Covariance matrix of the variables in `m` (and `y`), as ``numpy.cov``.

    Parameters
    ----------
    m : usm_ndarray
        1-d or 2-d: each row a variable, each column an observation (with
        `rowvar`; the transpose otherwise).
    y : usm_ndarray, optional
        More variables, in `m`'s layout.
    rowvar : bool
        Whether rows are variables.
    bias : bool
        Normalise by N instead of N - 1.
    ddof : int, optional
        Overrides `bias`: the divisor is N - ddof.
    dtype : dtype, optional
        The result type (default: at least the default float type).

    Returns
    -------
    usm_ndarray
        The covariance matrix (0-d for one variable).
    """
    check_array(m, "cov")
    if m.ndim > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    rt = _float_dtype(m._q, m.dtype) if dtype is None else _dtypes.to_dtype(dtype)
    x = atleast_2d(m)
    if not rowvar and m.ndim != 1:
        x = manipulation.permute_dims(x, (1, 0))
    if x.shape[0] == 0:
        return creation.empty((0, 0), dtype=m._q.float, sycl_queue=m.sycl_queue,
                              usm_type=m.usm_type)   # (as NumPy)
    if y is not None:
        check_array(y, "cov")
        if y.ndim > 2:
            raise ValueError("cov: y has more than 2 dimensions")
        yy = atleast_2d(y)
        if not rowvar and yy.shape[0] != 1:
            yy = manipulation.permute_dims(yy, (1, 0))
        if dtype is None:
            rt = _dtypes.result_type(rt, y.dtype)
        x = manipulation.concat([_copy.astype(x, rt), _copy.astype(yy, rt)], axis=0)
    x = _copy.astype(x, rt, copy=False)
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if ddof is None:
        ddof = 0 if bias else 1
    fact = max(x.shape[1] - ddof, 0)
    x = ew.subtract(x, reduction.mean(x, axis=1, keepdims=True))
    xt = manipulation.permute_dims(x, (1, 0))
    c = linear_algebra.matmul(x, ew.conj(xt) if x.dtype.kind == "c" else xt)
    c = ew.divide(c, float(fact)) if fact else ew.multiply(c, float("inf"))
    return manipulation.squeeze(c) if 1 in c.shape else c


@compiled_together
def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients, as ``numpy.corrcoef``.

    Parameters
    ----------
    x : usm_ndarray
        1-d or 2-d: each row a variable (with `rowvar`).
    y : usm_ndarray, optional
        More variables, in `x`'s layout.
    rowvar : bool
        Whether rows are variables.
    dtype : dtype, optional
        The result type.

    Returns
    -------
    usm_ndarray
        The correlation matrix, its real part clipped to [-1, 1].
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return ew.divide(c, c)
    d = ew.sqrt(ew.real(_diagonal(c)))
    c = ew.divide(ew.divide(c, d[:, None]), d[None, :])
    if c.dtype.kind == "c":
        return ew.add(ew.clip(ew.real(c), -1, 1), ew.multiply(ew.clip(ew.imag(c), -1, 1), 1j))
    return ew.clip(c, -1, 1)


def _diagonal(c):
    """The main diagonal of a square matrix (a gather)."""
    n = c.shape[0]
    idx = creation.arange(0, n * n, n + 1, dtype=_dtypes.int64,
                          sycl_queue=c.sycl_queue, usm_type=c.usm_type)
    return take(manipulation.reshape(c, (-1,)), idx)
