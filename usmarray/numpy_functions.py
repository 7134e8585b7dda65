"""NumPy's functions beyond the array API, as CuPy has them: ``median``,
``quantile``, ``percentile``, the ``nan*`` reductions and quantiles, ``average``, ``ptp``,
``isclose``, ``array_equal``, the ``*stack``/``atleast_*d``/``*split``
functions, ``argwhere``, ``flatnonzero``, ``append``, ``cov``, ``corrcoef``
and ``inner``.

Each is composed of usmarray functions (sort, take, where, sum, concat, ...)
and runs on the array's device; the nan* reductions of floating arrays are
one pass each (reduction.nan_reduce: NaN-skipping operations of the
reduction skeleton); the host waits only where NumPy's semantics
need a Python value (``array_equal``'s bool, the all-NaN check of
``nanargmin``, ``average``'s zero-weight check). NumPy's functions on
usm_ndarrays dispatch here (numpy_protocols.FUNCTIONS).
"""

import math
import operator

import numpy as np

from . import _copy, _dtypes, creation, elementwise as ew, linear_algebra, manipulation
from . import reduction, searching, sorting
from ._array import usm_ndarray
from ._testing import close_mask
from .indexing_functions import take, take_along_axis
from .reduction import normalize_axes

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
           "nanmin", "nanmax", "nanargmin", "nanargmax",
           "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "average", "ptp", "isclose",
           "array_equal", "atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack", "dstack",
           "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "argwhere",
           "flatnonzero", "append", "cov", "corrcoef", "inner"]


def _check(name, a):
    if not isinstance(a, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(a).__name__}")
    return a


def _float_dtype(qi, *dtypes):
    """NumPy's float64 promotion of `dtypes`, in the device's default float type
    where it has no float64."""
    return _dtypes.result_type(*dtypes, qi.float)


def _as_real_float(name, a):
    """`a` with integers and bools in the default float type; complex is a TypeError."""
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported (sort is real-only)")
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
                                                        sycl_queue=r.sycl_queue), r)
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


def _q_on_device(name, a, q, scale):
    """`q` / `scale` as a usm_ndarray on a's queue (checked to lie in [0, 1]),
    and whether the result keeps a's float type (NEP 50: a weak Python number,
    and NumPy's rule for integer q)."""
    weak = isinstance(q, (int, float)) and not isinstance(q, np.generic)
    if isinstance(q, usm_ndarray):
        qd = q if q.dtype.kind == "f" else _copy.astype(q, q._q.float)
        if scale != 1:
            qd = ew.divide(qd, float(scale))
        valid = reduction.all(ew.logical_and(ew.greater_equal(qd, 0), ew.less_equal(qd, 1)))
    else:
        qh = np.asarray(q)
        qdt = qh.dtype if qh.dtype in (np.float16, np.float32) else a._q.float
        weak = weak or (qh.dtype.kind in "biu" and scale == 1)   # (percentile divides first)
        qh = qh.astype(np.float64) / scale
        valid = bool(np.all((qh >= 0) & (qh <= 1)))
        qd = creation.asarray(qh, dtype=qdt, sycl_queue=a.sycl_queue)
    if qd.ndim > 1:
        raise ValueError(f"{name}: q must be a scalar or 1-d")
    if not bool(valid):   # (the host waits here for a device q)
        raise ValueError(f"{name}: {'percentiles' if scale != 1 else 'quantiles'} must be "
                         f"in the range [0, {scale}]")
    return qd, weak


_PICK = {"lower": ew.floor, "higher": ew.ceil, "nearest": ew.round}   # (NumPy's round: half to even)


def _quantile(name, a, q, scale, axis, method, keepdims, skip_nan=False):
    """quantile/percentile, and with `skip_nan` nanquantile/nanpercentile: one
    sort along the reduced axes (NaN sorts last), then gathers and a lerp."""
    _check(name, a)
    if method not in _METHODS:
        raise ValueError(f"{name}: method={method!r} is not supported (supported: "
                         f"{', '.join(_METHODS)})")
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: a must be an array of real numbers")
    qd, weak_q = _q_on_device(name, a, q, scale)
    discrete = method in _PICK
    if a.dtype.kind == "b" and not discrete:   # (NumPy: no boolean subtract)
        raise TypeError(f"{name}: method={method!r} is not defined for bool input")
    x = a if discrete else _as_real_float(name, a)
    x, keep_shape = _axis_last(x, axis)
    n = x.shape[-1]
    if n == 0:
        raise IndexError(f"{name}: cannot take a quantile of an empty slice")
    s = sorting.sort(x, axis=-1)
    qv = manipulation.reshape(qd, (-1,))
    pick = _PICK.get(method, ew.floor)
    if skip_nan and s.dtype.kind == "f":
        # per slice: positions among its k non-NaN values (the first k after the sort)
        k = reduction.sum(ew.logical_not(ew.isnan(s)), axis=-1, keepdims=True)
        last = ew.maximum(ew.subtract(k, 1), 0)
        vi = ew.multiply(qv, _copy.astype(ew.subtract(k, 1), qv.dtype))
        lo = ew.minimum(ew.maximum(_copy.astype(pick(vi), _dtypes.int64), 0), last)
        hi = ew.minimum(ew.add(lo, 1), last)
        gather = take_along_axis
        nan_where = ew.equal(k, 0)   # all-NaN slices (NumPy also warns)
    else:
        vi = ew.multiply(qv, float(n - 1))
        lo = ew.clip(_copy.astype(pick(vi), _dtypes.int64), 0, n - 1)
        hi = ew.clip(ew.add(lo, 1), 0, n - 1)
        gather = take
        nan_where = _has_nan(s)
    r = gather(s, lo, axis=-1)
    if not discrete:
        frac = ew.subtract(vi, ew.floor(vi))
        if method == "midpoint":
            frac = ew.multiply(_copy.astype(ew.not_equal(frac, 0), frac.dtype), 0.5)
        # NumPy: the neighbours' difference in a's type, the weights in result_type(a, q)
        t = _copy.astype(frac, r.dtype if weak_q else _dtypes.result_type(r.dtype, qd.dtype),
                         copy=False)
        r = _lerp(r, gather(s, hi, axis=-1), t)
    return _finish(r, nan_where, qd.shape, keep_shape, keepdims)


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
    _check("median", a)
    x, keep_shape = _axis_last(_as_real_float("median", a), axis)
    n = x.shape[-1]
    if n == 0:   # NumPy: the mean of nothing
        r = reduction.mean(x, axis=-1, keepdims=True)
        return _finish(r, None, (), keep_shape, keepdims)
    s = sorting.sort(x, axis=-1)
    # the middle element, or the two middle ones
    idx = creation.arange((n - 1) // 2, n // 2 + 1, dtype=_dtypes.int64, sycl_queue=a.sycl_queue)
    r = reduction.mean(take(s, idx, axis=-1), axis=-1, keepdims=True)
    return _finish(r, _has_nan(s), (), keep_shape, keepdims)


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
    _check("nanmedian", a)
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
def _nan_extreme(name, a, axis, keepdims):
    _check(name, a)
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported")
    if a.dtype.kind != "f":
        return (reduction.max if name == "nanmax" else reduction.min)(a, axis=axis,
                                                                       keepdims=keepdims)
    # fmax/fmin: NaN for an all-NaN slice (NumPy also warns)
    return reduction.nan_reduce(name, a, axis, keepdims)


def nanmin(a, axis=None, *, keepdims=False):
    """Minimum along `axis`, ignoring NaNs, as ``numpy.nanmin``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The minima; NaN for an all-NaN slice (without NumPy's warning).
    """
    return _nan_extreme("nanmin", a, axis, keepdims)


def nanmax(a, axis=None, *, keepdims=False):
    """Maximum along `axis`, ignoring NaNs, as ``numpy.nanmax``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The maxima; NaN for an all-NaN slice (without NumPy's warning).
    """
    return _nan_extreme("nanmax", a, axis, keepdims)


def _nan_arg(name, a, axis, keepdims, fill):
    _check(name, a)
    red = searching.argmin if fill > 0 else searching.argmax
    if a.dtype.kind in "fc":
        if a.dtype.kind == "c":
            raise TypeError(f"{name}: complex input is not supported")
        nan = ew.isnan(a)
        if a.size and bool(reduction.any(reduction.all(nan, axis=axis))):   # the host waits
            raise ValueError(f"{name}: All-NaN slice encountered")
        # NaNs as -inf (+inf), as NumPy does
        a = searching.where(nan, fill, a)
    return red(a, axis=axis, keepdims=keepdims)


def nanargmin(a, axis=None, *, keepdims=False):
    """Index of the minimum along `axis`, ignoring NaNs, as ``numpy.nanargmin``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int or None
        The axis to search (None: the flattened array).
    keepdims : bool
        Keep the reduced axis with size one.

    Returns
    -------
    usm_ndarray
        Indices (the first occurrence). An all-NaN slice is a ValueError
        (the host waits for that check).
    """
    return _nan_arg("nanargmin", a, axis, keepdims, float("inf"))


def nanargmax(a, axis=None, *, keepdims=False):
    """Index of the maximum along `axis`, ignoring NaNs, as ``numpy.nanargmax``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int or None
        The axis to search (None: the flattened array).
    keepdims : bool
        Keep the reduced axis with size one.

    Returns
    -------
    usm_ndarray
        Indices (the first occurrence). An all-NaN slice is a ValueError.
    """
    return _nan_arg("nanargmax", a, axis, keepdims, -float("inf"))


def nansum(a, axis=None, dtype=None, *, keepdims=False):
    """Sum along `axis` with NaNs taken as zero, as ``numpy.nansum``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    dtype : dtype, optional
        The accumulator and result type (as ``sum``'s).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The sums (zero for an all-NaN or empty slice).
    """
    _check("nansum", a)
    if a.dtype.kind not in "fc":
        return reduction.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return reduction.nan_reduce("nansum", a, axis, keepdims, dtype)


def nanprod(a, axis=None, dtype=None, *, keepdims=False):
    """Product along `axis` with NaNs taken as one, as ``numpy.nanprod``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    dtype : dtype, optional
        The accumulator and result type (as ``prod``'s).
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The products (one for an all-NaN or empty slice).
    """
    _check("nanprod", a)
    if a.dtype.kind not in "fc":
        return reduction.prod(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return reduction.nan_reduce("nanprod", a, axis, keepdims, dtype)


def _nan_count(a, axis, keepdims, dtype):
    """The number of non-NaN elements along `axis` (floating `a`), in `dtype`."""
    return _copy.astype(reduction.nan_reduce("count_num", a, axis, keepdims), dtype)


def _nan_float(name, a, dtype):
    _check(name, a)
    if dtype is not None:
        a = _copy.astype(a, dtype, copy=False)
    if a.dtype.kind not in "fc":
        a = _copy.astype(a, a._q.float)
    return a


def nanmean(a, axis=None, dtype=None, *, keepdims=False):
    """Mean along `axis` ignoring NaNs, as ``numpy.nanmean``.

    Parameters
    ----------
    a : usm_ndarray
        Input array; integers and bools give the default float type.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    dtype : dtype, optional
        The type the mean is computed in.
    keepdims : bool
        Keep the reduced axes with size one.

    Returns
    -------
    usm_ndarray
        The means; NaN for an all-NaN or empty slice.
    """
    a = _nan_float("nanmean", a, dtype)
    if a.dtype.kind not in "fc" or a.size == 0:
        return reduction.mean(a, axis=axis, keepdims=keepdims)
    wide = _dtypes.float32 if a.dtype == _dtypes.float16 else None
    s = reduction.nan_reduce("nansum", a, axis, keepdims, wide)
    real = s.dtype if s.dtype.kind == "f" else (
        _dtypes.float64 if s.dtype == _dtypes.complex128 else _dtypes.float32)
    m = ew.divide(s, _nan_count(a, axis, keepdims, real))
    return _copy.astype(m, a.dtype, copy=False)


def _correction(name, ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously")
    return correction


def nanvar(a, axis=None, dtype=None, ddof=0, *, keepdims=False, correction=None):
    """Variance along `axis` ignoring NaNs, as ``numpy.nanvar``.

    Parameters
    ----------
    a : usm_ndarray
        Input array; integers and bools give the default float type.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    dtype : dtype, optional
        The type the variance is computed in.
    ddof : int or float
        Delta degrees of freedom: the divisor is N - ddof, N the number of
        non-NaN elements.
    keepdims : bool
        Keep the reduced axes with size one.
    correction : int or float, optional
        The array API's name of `ddof` (give one of them).

    Returns
    -------
    usm_ndarray
        The variances (real for complex input); NaN where N - ddof <= 0.
    """
    ddof = _correction("nanvar", ddof, correction)
    a = _nan_float("nanvar", a, dtype)
    x = _copy.astype(a, _dtypes.float32) if a.dtype == _dtypes.float16 else a
    m = nanmean(x, axis=axis, keepdims=True)
    d = ew.subtract(x, m)
    sq = ew.real(ew.multiply(d, ew.conj(d))) if d.dtype.kind == "c" else ew.multiply(d, d)
    # zero where x is NaN (a NaN from inf - inf stays, as in NumPy)
    s = reduction.sum(searching.where(ew.isnan(x), 0, sq), axis=axis, keepdims=keepdims)
    dof = ew.subtract(_nan_count(x, axis, keepdims, s.dtype), float(ddof))
    v = searching.where(ew.greater(dof, 0), ew.divide(s, dof), float("nan"))
    real = _dtypes.float16 if a.dtype == _dtypes.float16 else s.dtype
    return _copy.astype(v, real, copy=False)


def nanstd(a, axis=None, dtype=None, ddof=0, *, keepdims=False, correction=None):
    """Standard deviation along `axis` ignoring NaNs, as ``numpy.nanstd``.

    Parameters
    ----------
    a : usm_ndarray
        Input array; integers and bools give the default float type.
    axis : int, tuple of ints or None
        The axes to reduce (None: all).
    dtype : dtype, optional
        The type the result is computed in.
    ddof : int or float
        Delta degrees of freedom (see :func:`nanvar`).
    keepdims : bool
        Keep the reduced axes with size one.
    correction : int or float, optional
        The array API's name of `ddof`.

    Returns
    -------
    usm_ndarray
        ``sqrt(nanvar(...))``.
    """
    return ew.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                          correction=correction))


# ------------------------------------------------------------------ statistics
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
    _check("average", a)
    if weights is None:
        avg = reduction.mean(a, axis=axis, keepdims=keepdims)
        scl = creation.full_like(avg, a.size / max(avg.size, 1)) if returned else None
    else:
        w = _check("average", weights)
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
        scl = reduction.sum(_copy.astype(manipulation.broadcast_to(w, a.shape), rt),
                            axis=axis, keepdims=keepdims)
        if bool(reduction.any(ew.equal(scl, 0))):   # the host waits
            raise ZeroDivisionError("average: weights sum to zero, can't be normalized")
        num = reduction.sum(ew.multiply(_copy.astype(a, rt, copy=False),
                                        _copy.astype(w, rt, copy=False)),
                            axis=axis, keepdims=keepdims)
        avg = ew.divide(num, scl)
    if not returned:
        return avg
    if scl.shape != avg.shape or scl.dtype != avg.dtype:
        scl = _copy.astype(manipulation.broadcast_to(scl, avg.shape), avg.dtype)
    return avg, scl


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
    _check("ptp", a)
    if a.dtype.kind == "b":
        raise TypeError("ptp: boolean subtract is not supported (as numpy.ptp)")
    return ew.subtract(reduction.max(a, axis=axis, keepdims=keepdims),
                       reduction.min(a, axis=axis, keepdims=keepdims))


def _pair(name, a, b):
    """Two usm_ndarrays on one queue (a Python scalar is made an array on the other's)."""
    if not isinstance(a, usm_ndarray) and isinstance(b, usm_ndarray):
        a = creation.asarray(a, sycl_queue=b.sycl_queue)
    if not isinstance(b, usm_ndarray) and isinstance(a, usm_ndarray):
        b = creation.asarray(b, sycl_queue=a.sycl_queue)
    return _check(name, a), _check(name, b)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Where `a` and `b` are equal within a tolerance, as ``numpy.isclose``.

    NumPy's rule: ``abs(a - b) <= atol + rtol * abs(b)`` (not symmetric);
    equal infinities are close; NaNs only with `equal_nan`.

    Parameters
    ----------
    a, b : usm_ndarray or scalar
        The arrays to compare (they broadcast).
    rtol : float
        Relative tolerance.
    atol : float
        Absolute tolerance.
    equal_nan : bool
        Whether NaN is close to NaN.

    Returns
    -------
    usm_ndarray
        Boolean array of the broadcast shape.
    """
    a, b = _pair("isclose", a, b)
    return close_mask(a, b, atol, rtol, equal_nan, numpy_rule=True, what="isclose")


def numpy_allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.allclose``: ``all(isclose(a, b, rtol, atol, equal_nan))`` as a
    Python bool (``usmarray.allclose`` is dpctl.tensor's symmetric rule)."""
    return bool(reduction.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """Whether two arrays have the same shape and elements, as ``numpy.array_equal``.

    Parameters
    ----------
    a1, a2 : usm_ndarray
        The arrays.
    equal_nan : bool
        Whether NaNs compare equal (at the same positions).

    Returns
    -------
    bool
        A Python bool (the host waits for the comparison).
    """
    a1, a2 = _pair("array_equal", a1, a2)
    if a1.shape != a2.shape:
        return False
    eq = ew.equal(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = ew.logical_or(eq, ew.logical_and(ew.isnan(a1), ew.isnan(a2)))
    return bool(reduction.all(eq))


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
    _check("cov", m)
    if m.ndim > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    rt = _float_dtype(m._q, m.dtype) if dtype is None else _dtypes.to_dtype(dtype)
    x = atleast_2d(m)
    if not rowvar and m.ndim != 1:
        x = manipulation.permute_dims(x, (1, 0))
    if x.shape[0] == 0:
        return creation.empty((0, 0), dtype=m._q.float, sycl_queue=m.sycl_queue)   # (as NumPy)
    if y is not None:
        _check("cov", y)
        if y.ndim > 2:
            raise ValueError("cov: y has more than 2 dimensions")
        yy = atleast_2d(y)
        if not rowvar and yy.shape[0] != 1:
            yy = manipulation.permute_dims(yy, (1, 0))
        if dtype is None:
            rt = _dtypes.result_type(rt, y.dtype)
        x = manipulation.concat([_copy.astype(x, rt), _copy.astype(yy, rt)], axis=0)
    x = _copy.astype(x, rt, copy=False)
    if ddof is None:
        ddof = 0 if bias else 1
    fact = max(x.shape[1] - ddof, 0)
    x = ew.subtract(x, reduction.mean(x, axis=1, keepdims=True))
    xt = manipulation.permute_dims(x, (1, 0))
    c = linear_algebra.matmul(x, ew.conj(xt) if x.dtype.kind == "c" else xt)
    c = ew.divide(c, float(fact)) if fact else ew.multiply(c, float("inf"))
    return manipulation.squeeze(c) if 1 in c.shape else c


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
                          sycl_queue=c.sycl_queue)
    return take(manipulation.reshape(c, (-1,)), idx)


def inner(a, b):
    """Inner product over the last axes, as ``numpy.inner``.

    Parameters
    ----------
    a, b : usm_ndarray
        Arrays with equal last dimensions (or either 0-d: a product).

    Returns
    -------
    usm_ndarray
        Shape ``a.shape[:-1] + b.shape[:-1]``.
    """
    a, b = _pair("inner", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ew.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return linear_algebra.tensordot(a, b, axes=((a.ndim - 1,), (b.ndim - 1,)))


# ------------------------------------------------------------------ shapes and stacking
def _atleast(name, nd, arys):
    out = []
    for a in arys:
        _check(name, a)
        if a.ndim < nd:
            if nd == 3 and a.ndim == 2:
                a = manipulation.reshape(a, a.shape + (1,))
            elif nd == 3 and a.ndim == 1:
                a = manipulation.reshape(a, (1,) + a.shape + (1,))
            else:
                a = manipulation.reshape(a, (1,) * (nd - a.ndim) + a.shape)
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Arrays with at least one dimension, as ``numpy.atleast_1d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; a 0-d array becomes shape (1,).
    """
    return _atleast("atleast_1d", 1, arys)


def atleast_2d(*arys):
    """Arrays with at least two dimensions, as ``numpy.atleast_2d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; shape (N,) becomes (1, N), 0-d becomes (1, 1).
    """
    return _atleast("atleast_2d", 2, arys)


def atleast_3d(*arys):
    """Arrays with at least three dimensions, as ``numpy.atleast_3d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1).
    """
    return _atleast("atleast_3d", 3, arys)


def _as_list(name, tup):
    if isinstance(tup, usm_ndarray) or not isinstance(tup, (list, tuple)):
        raise TypeError(f"{name}: arrays to stack must be passed as a list or tuple")
    if not tup:
        raise ValueError(f"{name}: need at least one array to concatenate")
    return list(tup)


def _cast_all(arrays, dtype):
    return arrays if dtype is None else [_copy.astype(a, dtype) for a in arrays]


def vstack(tup, *, dtype=None):
    """Stack arrays row-wise (along the first axis), as ``numpy.vstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays; 1-d ones are taken as rows (1, N).
    dtype : dtype, optional
        The result type.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 0 of the arrays made at least 2-d.
    """
    arrs = [atleast_2d(a) for a in _as_list("vstack", tup)]
    return manipulation.concat(_cast_all(arrs, dtype), axis=0)


def hstack(tup, *, dtype=None):
    """Stack arrays column-wise, as ``numpy.hstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays.
    dtype : dtype, optional
        The result type.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 1 (along axis 0 for 1-d arrays).
    """
    arrs = [atleast_1d(a) for a in _as_list("hstack", tup)]
    axis = 0 if arrs[0].ndim == 1 else 1
    return manipulation.concat(_cast_all(arrs, dtype), axis=axis)


def dstack(tup):
    """Stack arrays depth-wise (along the third axis), as ``numpy.dstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays; (N,) is taken as (1, N, 1), (M, N) as (M, N, 1).

    Returns
    -------
    usm_ndarray
        The concatenation along axis 2 of the arrays made at least 3-d.
    """
    arrs = [atleast_3d(a) for a in _as_list("dstack", tup)]
    return manipulation.concat(arrs, axis=2)


def column_stack(tup):
    """Stack 1-d arrays as columns of a 2-d array, as ``numpy.column_stack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        1-d arrays (columns) and 2-d arrays.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 1.
    """
    arrs = []
    for a in _as_list("column_stack", tup):
        _check("column_stack", a)
        arrs.append(manipulation.reshape(a, (-1, 1)) if a.ndim < 2 else a)
    return manipulation.concat(arrs, axis=1)


def _split(name, ary, indices_or_sections, axis, equal):
    _check(name, ary)
    if ary.ndim == 0:
        raise ValueError(f"{name}: cannot split a 0-d array")
    axis = normalize_axes(axis, ary.ndim)[0]
    n = ary.shape[axis]
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        cuts = [operator.index(i) for i in indices_or_sections]
        bounds = [0] + cuts + [n]
    else:
        if sections <= 0:
            raise ValueError(f"{name}: number sections must be larger than 0")
        each, extra = divmod(n, sections)
        if equal and extra:
            raise ValueError(f"{name}: array split does not result in an equal division")
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = [0]
        for s in sizes:
            bounds.append(bounds[-1] + s)
    head = (slice(None),) * axis
    return [ary[head + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def array_split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays (views), as ``numpy.array_split``.

    Parameters
    ----------
    ary : usm_ndarray
        The array.
    indices_or_sections : int or sequence of ints
        A number of sections (the first ``n % sections`` one longer), or the
        indices where `axis` is cut.
    axis : int
        The axis to split.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    return _split("array_split", ary, indices_or_sections, axis, False)


def split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays (views), as ``numpy.split``.

    Parameters
    ----------
    ary : usm_ndarray
        The array.
    indices_or_sections : int or sequence of ints
        A number of equal sections (ValueError if they cannot be equal), or
        the indices where `axis` is cut.
    axis : int
        The axis to split.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    return _split("split", ary, indices_or_sections, axis, True)


def hsplit(ary, indices_or_sections):
    """Split horizontally (axis 1; axis 0 for 1-d), as ``numpy.hsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 1-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    _check("hsplit", ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split("hsplit", ary, indices_or_sections, 1 if ary.ndim > 1 else 0, True)


def vsplit(ary, indices_or_sections):
    """Split vertically (axis 0), as ``numpy.vsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 2-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    _check("vsplit", ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("vsplit", ary, indices_or_sections, 0, True)


def dsplit(ary, indices_or_sections):
    """Split depth-wise (axis 2), as ``numpy.dsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 3-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    _check("dsplit", ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", ary, indices_or_sections, 2, True)


# ------------------------------------------------------------------ searching
def argwhere(a):
    """Indices of the non-zero elements, one row each, as ``numpy.argwhere``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.

    Returns
    -------
    usm_ndarray
        Shape (N, a.ndim), default integer dtype.
    """
    _check("argwhere", a)
    if a.ndim == 0:
        return argwhere(manipulation.reshape(a, (1,)))[:, :0]
    return manipulation.stack(searching.nonzero(a), axis=1)


def flatnonzero(a):
    """Indices of the non-zero elements of the flattened array, as ``numpy.flatnonzero``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.

    Returns
    -------
    usm_ndarray
        1-d, default integer dtype.
    """
    _check("flatnonzero", a)
    return searching.nonzero(manipulation.reshape(a, (-1,)))[0]


def append(arr, values, axis=None):
    """`values` appended to `arr` (a copy), as ``numpy.append``.

    Parameters
    ----------
    arr : usm_ndarray
        The array.
    values : usm_ndarray or scalar
        What to append; with an `axis` it must have `arr`'s shape except
        along `axis`.
    axis : int, optional
        None: both are flattened first.

    Returns
    -------
    usm_ndarray
        The concatenation (type promotion as ``concat``'s).
    """
    arr, values = _pair("append", arr, values)
    if axis is None:
        arr, values = manipulation.reshape(arr, (-1,)), manipulation.reshape(values, (-1,))
        axis = 0
    return manipulation.concat([arr, values], axis=axis)

