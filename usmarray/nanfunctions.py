"""NumPy's NaN-skipping reductions: ``nanmin``, ``nanmax``, ``nanargmin``,
``nanargmax``, ``nansum``, ``nanprod``, ``nanmean``, ``nanvar`` and
``nanstd``. Those of floating arrays are one pass each (the core's
``nan_reduce``: NaN-skipping operations of the reduction skeleton); other
dtypes have no NaN and reduce with the plain reductions. The host waits only
for ``nanargmin``/``nanargmax``'s all-NaN check, which NumPy raises on.
(The NaN-skipping quantiles are in statistics.py.)
"""

import numpy as np

from . import elementwise as ew, reduction, searching
from ._core import _copy, _dtypes
from ._core._array import usm_ndarray
from ._core._views import check_array, reshape
from ._core._reduce import nan_reduce, numpy_axis
from ._core._kernels import compiled_together

__all__ = ["nanmin", "nanmax", "nanargmin", "nanargmax", "nansum", "nanprod", "nanmean", "nanvar",
           "nanstd", "nancumsum", "nancumprod"]


def _nan_extreme(name, a, axis, keepdims):
    check_array(a, name)
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported")
    if a.dtype.kind != "f":
        return (reduction.max if name == "nanmax" else reduction.min)(a, axis=axis,
                                                                       keepdims=keepdims)
    # fmax/fmin: NaN for an all-NaN slice (NumPy also warns)
    return nan_reduce(name, a, axis, keepdims)


@compiled_together
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
    axis = numpy_axis(a, axis)
    return _nan_extreme("nanmin", a, axis, keepdims)


@compiled_together
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
    axis = numpy_axis(a, axis)
    return _nan_extreme("nanmax", a, axis, keepdims)


def _nan_arg(name, a, axis, keepdims, fill):
    check_array(a, name)
    red = searching.argmin if fill > 0 else searching.argmax
    if a.dtype.kind in "fc":
        nan = ew.isnan(a)
        if a.size and bool(reduction.any(reduction.all(nan, axis=axis))):   # the host waits
            raise ValueError(f"{name}: All-NaN slice encountered")
        # NaNs as -inf (+inf), as NumPy does (complex: -inf + 0j, which
        # argmax orders lexicographically, as NumPy's)
        a = searching.where(nan, fill, a)
    return red(a, axis=axis, keepdims=keepdims)


@compiled_together
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
    axis = numpy_axis(a, axis)
    return _nan_arg("nanargmin", a, axis, keepdims, float("inf"))


@compiled_together
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
    axis = numpy_axis(a, axis)
    return _nan_arg("nanargmax", a, axis, keepdims, -float("inf"))


@compiled_together
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
    axis = numpy_axis(a, axis)
    check_array(a, "nansum")
    if a.dtype.kind not in "fc":
        return reduction.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return nan_reduce("nansum", a, axis, keepdims, dtype)


@compiled_together
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
    axis = numpy_axis(a, axis)
    check_array(a, "nanprod")
    if a.dtype.kind not in "fc":
        return reduction.prod(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return nan_reduce("nanprod", a, axis, keepdims, dtype)


def _nan_count(a, axis, keepdims, dtype):
    """The number of non-NaN elements along `axis` (floating `a`), in `dtype`."""
    return _copy.astype(nan_reduce("count_num", a, axis, keepdims), dtype)


def _int_dtype_of_ints(a, dtype):
    """Whether an integer `dtype` is asked of integers: NumPy's nanmean,
    nanvar and nanstd are then mean, var and std, whose float result is
    cast to it (truncated)."""
    return (dtype is not None and isinstance(a, usm_ndarray) and a.dtype.kind in "biu"
            and np.dtype(dtype).kind in "biu")


def _nan_float(name, a, dtype):
    check_array(a, name)
    if dtype is not None:
        if a.dtype.kind in "fc" and np.dtype(dtype).kind not in "fc":
            # (a cast would turn the NaNs into integers: NumPy's TypeError)
            raise TypeError("If a is inexact, then dtype must be inexact")
        a = _copy.astype(a, dtype, copy=False)
    if a.dtype.kind not in "fc":
        a = _copy.astype(a, a._q.float)
    return a


@compiled_together
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
    axis = numpy_axis(a, axis, floats_only=True)
    if _int_dtype_of_ints(a, dtype):
        return _copy.astype(nanmean(a, axis=axis, keepdims=keepdims), dtype)
    a = _nan_float("nanmean", a, dtype)
    if a.dtype.kind not in "fc" or a.size == 0:
        return reduction.mean(a, axis=axis, keepdims=keepdims)
    wide = _dtypes.float32 if a.dtype == _dtypes.float16 else None
    s = nan_reduce("nansum", a, axis, keepdims, wide)
    real = s.dtype if s.dtype.kind == "f" else (
        _dtypes.float64 if s.dtype == _dtypes.complex128 else _dtypes.float32)
    m = ew.divide(s, _nan_count(a, axis, keepdims, real))
    return _copy.astype(m, a.dtype, copy=False)


@compiled_together
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
    axis = numpy_axis(a, axis, floats_only=True)
    ddof = reduction.one_of("nanvar", ddof, correction)
    if _int_dtype_of_ints(a, dtype):
        return _copy.astype(nanvar(a, axis=axis, ddof=ddof, keepdims=keepdims), dtype)
    if isinstance(a, usm_ndarray) and a.dtype.kind == "c" and dtype is not None and \
            np.dtype(dtype).kind == "f":
        # complex data, a real dtype: NumPy's variance of the complex values
        # (|x - mean|^2, real), in that precision, not of their real parts
        return _copy.astype(nanvar(a, axis=axis, dtype=np.result_type(dtype, np.complex64),
                                   ddof=ddof, keepdims=keepdims), dtype, copy=False)
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


@compiled_together
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
    axis = numpy_axis(a, axis, floats_only=True)
    if _int_dtype_of_ints(a, dtype):
        return _copy.astype(nanstd(a, axis=axis, ddof=ddof, keepdims=keepdims,
                                   correction=correction), dtype)
    return ew.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                          correction=correction))


# ------------------------------------------------------------------ statistics


def _nan_cumulative(name, scan, neutral, a, axis, dtype):
    check_array(a, name)
    if a.dtype.kind in "fc":
        a = searching.where(ew.isnan(a), neutral, a)
    if axis is None:   # NumPy's: the flattened array
        a, axis = reshape(a, (-1,)), 0
    return scan(a, axis=axis, dtype=dtype)


def nancumsum(a, axis=None, dtype=None):
    """Cumulative sum along `axis` (None: of the flattened array) with NaNs
    taken as zero, as ``numpy.nancumsum``."""
    axis = numpy_axis(a, axis)
    return _nan_cumulative("nancumsum", reduction.cumulative_sum, 0, a, axis, dtype)


def nancumprod(a, axis=None, dtype=None):
    """Cumulative product along `axis` (None: of the flattened array) with
    NaNs taken as one, as ``numpy.nancumprod``."""
    axis = numpy_axis(a, axis)
    return _nan_cumulative("nancumprod", reduction.cumulative_prod, 1, a, axis, dtype)

