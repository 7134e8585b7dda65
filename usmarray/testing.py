"""``usmarray.testing``: NumPy's array assertions for usm_ndarrays
(``assert_allclose``, ``assert_array_equal``, ``assert_array_almost_equal``,
``assert_array_less``, ``assert_equal``, ``assert_almost_equal``,
``assert_array_list_equal``), as ``cupy.testing`` has them.

Either argument may be a usm_ndarray, a NumPy array, a scalar or a
sequence. When one of them is a usm_ndarray, the other is copied to its
device and the comparison runs there: the host reads one bool. Only a
failing comparison copies both to the host, where ``numpy.testing`` makes
the message (the mismatch count, the largest differences, the arrays), so
failures read as NumPy's. Arguments without a usm_ndarray, or whose dtypes
the device cannot hold, are compared by ``numpy.testing`` itself."""

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import asnumpy, astype
from .comparison import close_mask
from .creation import asarray
from .reduction import all as _all
from .searching import where

__all__ = ["assert_allclose", "assert_array_equal", "assert_array_almost_equal",
           "assert_array_less", "assert_equal", "assert_almost_equal", "assert_array_list_equal"]


def _on_device(actual, desired):
    """(actual, desired) as usm_ndarrays on one device, or None when the
    comparison should be NumPy's (no usm_ndarray, or data the device
    cannot hold exactly)."""
    if isinstance(actual, usm_ndarray):
        like = actual
    elif isinstance(desired, usm_ndarray):
        like = desired
    else:
        return None
    out = []
    for v in (actual, desired):
        if isinstance(v, usm_ndarray):
            if v.sycl_queue != like.sycl_queue:
                return None
            out.append(v)
            continue
        h = np.asarray(v)
        if h.dtype.kind not in "biufc":
            return None
        dt = _dtypes.to_dtype(h.dtype)
        try:
            _dtypes.check_device_support(dt, like._q)
        except ValueError:
            return None   # (float64 data for a device without fp64: NumPy compares exactly)
        out.append(asarray(h, sycl_queue=like.sycl_queue))
    return tuple(out)


def _shapes_ok(x, y, strict):
    if strict:
        return x.shape == y.shape and x.dtype == y.dtype
    return x.shape == y.shape or x.shape == () or y.shape == ()


def _holds(pair, strict, mask_of):
    """Whether the device comparison passes (False also when it cannot run)."""
    x, y = pair
    if not _shapes_ok(x, y, strict):
        return False
    if x.size == 0 or y.size == 0:
        return True
    try:
        return bool(_all(mask_of(x, y)))
    except TypeError:
        return False   # (bool subtraction, say: NumPy decides)


def _host(v):
    return asnumpy(v) if isinstance(v, usm_ndarray) else v


def _numpy(fn, actual, desired, **kwargs):
    __tracebackhide__ = True
    fn(_host(actual), _host(desired), **kwargs)


def _assert(np_fn, mask_of, actual, desired, exact_shapes, **kwargs):
    """Pass when the comparison `mask_of` holds on the device (`exact_shapes`:
    strict shapes and dtypes); else let NumPy's `np_fn` decide and make the
    message on host copies."""
    __tracebackhide__ = True
    pair = _on_device(actual, desired)
    if pair is not None and _holds(pair, exact_shapes, mask_of):
        return
    _numpy(np_fn, actual, desired, **kwargs)


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="",
                    verbose=True, *, strict=False):
    """Raise AssertionError unless the arrays are equal within a tolerance,
    as ``numpy.testing.assert_allclose``.

    Parameters
    ----------
    actual, desired : usm_ndarray, NumPy array or array_like
        The arrays; they must have one shape (a 0-d one broadcasts unless
        `strict`).
    rtol, atol : float
        ``abs(actual - desired) <= atol + rtol * abs(desired)``.
    equal_nan : bool
        Whether NaNs at the same places compare equal.
    err_msg : str
        Added to the failure message.
    verbose : bool
        Whether the failure message shows the arrays.
    strict : bool
        Whether shapes and dtypes must match exactly.

    Returns
    -------
    None
    """
    __tracebackhide__ = True   # (pytest shows the caller's line)
    _assert(np.testing.assert_allclose,
            lambda x, y: close_mask(x, y, atol, rtol, equal_nan, numpy_rule=True,
                                    what="assert_allclose"),
            actual, desired, strict, rtol=rtol, atol=atol, equal_nan=equal_nan,
            err_msg=err_msg, verbose=verbose, strict=strict)


def _equal_mask(x, y):
    eq = ew.equal(x, y)
    if x.dtype.kind in "fc" or y.dtype.kind in "fc":
        eq = ew.logical_or(eq, ew.logical_and(ew.isnan(x), ew.isnan(y)))
    return eq


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """Raise AssertionError unless the arrays are equal, as
    ``numpy.testing.assert_array_equal``.

    Parameters
    ----------
    actual, desired : usm_ndarray, NumPy array or array_like
        The arrays (a 0-d one broadcasts unless `strict`). NaNs at the same
        places compare equal.
    err_msg : str
        Added to the failure message.
    verbose : bool
        Whether the failure message shows the arrays.
    strict : bool
        Whether shapes and dtypes must match exactly.

    Returns
    -------
    None
    """
    __tracebackhide__ = True   # (pytest shows the caller's line)
    _assert(np.testing.assert_array_equal, _equal_mask, actual, desired, strict,
            err_msg=err_msg, verbose=verbose, strict=strict)


def _almost_mask(decimal):
    threshold = 1.5 * 10.0 ** (-decimal)

    def mask(x, y):
        ft = _dtypes.result_type(y, x._q.float) if y.dtype.kind not in "fc" else y.dtype
        xf, yf = astype(x, _dtypes.result_type(x, ft), copy=False), astype(y, ft, copy=False)
        nan_x, nan_y = ew.isnan(xf), ew.isnan(yf)
        inf_any = ew.logical_or(ew.isinf(xf), ew.isinf(yf))
        close = ew.less(ew.abs(ew.subtract(xf, yf)), threshold)
        # NaNs must be at the same places, infinities equal; the rest within the threshold
        return where(ew.logical_or(nan_x, nan_y), ew.logical_and(nan_x, nan_y),
                     where(inf_any, ew.equal(xf, yf), close))
    return mask


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    """Raise AssertionError unless the arrays agree to `decimal` places, as
    ``numpy.testing.assert_array_almost_equal``.

    Parameters
    ----------
    actual, desired : usm_ndarray, NumPy array or array_like
        The arrays (a 0-d one broadcasts).
    decimal : int
        ``abs(desired - actual) < 1.5 * 10**(-decimal)``; NaNs and
        infinities must be at the same places.
    err_msg : str
        Added to the failure message.
    verbose : bool
        Whether the failure message shows the arrays.

    Returns
    -------
    None
    """
    __tracebackhide__ = True   # (pytest shows the caller's line)
    _assert(np.testing.assert_array_almost_equal, _almost_mask(decimal), actual, desired,
            False, decimal=decimal, err_msg=err_msg, verbose=verbose)


def _less_mask(x, y):
    lt = ew.less(x, y)
    if x.dtype.kind in "fc" or y.dtype.kind in "fc":
        nan_x, nan_y = ew.isnan(x), ew.isnan(y)
        lt = where(ew.logical_or(nan_x, nan_y), ew.logical_and(nan_x, nan_y), lt)
    return lt


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    """Raise AssertionError unless every item of `x` is less than `y`'s, as
    ``numpy.testing.assert_array_less`` (NaNs at the same places pass).

    Parameters
    ----------
    x, y : usm_ndarray, NumPy array or array_like
        The arrays (a 0-d one broadcasts unless `strict`).
    err_msg : str
        Added to the failure message.
    verbose : bool
        Whether the failure message shows the arrays.
    strict : bool
        Whether shapes and dtypes must match exactly.

    Returns
    -------
    None
    """
    __tracebackhide__ = True   # (pytest shows the caller's line)
    _assert(np.testing.assert_array_less, _less_mask, x, y, strict, err_msg=err_msg,
            verbose=verbose, strict=strict)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """Raise AssertionError unless the objects are equal, as
    ``numpy.testing.assert_equal``: dicts, lists and tuples item by item,
    arrays (a usm_ndarray on either side) as by `assert_array_equal`, other
    objects by ``numpy.testing.assert_equal``."""
    __tracebackhide__ = True   # (pytest shows the caller's line)
    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], f"key={k!r}\n{err_msg}", verbose)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], f"item={k!r}\n{err_msg}", verbose)
        return
    if isinstance(actual, usm_ndarray) or isinstance(desired, usm_ndarray):
        assert_array_equal(actual, desired, err_msg, verbose, strict=strict)
        return
    np.testing.assert_equal(actual, desired, err_msg, verbose, strict=strict)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    """Raise AssertionError unless the values agree to `decimal` places, as
    ``numpy.testing.assert_almost_equal`` (arrays as by
    `assert_array_almost_equal`)."""
    __tracebackhide__ = True   # (pytest shows the caller's line)
    if isinstance(actual, usm_ndarray) or isinstance(desired, usm_ndarray):
        if any(np.asarray(v).dtype.kind == "c" if not isinstance(v, usm_ndarray) else
               v.dtype.kind == "c" for v in (actual, desired)):
            # (NumPy's: real and imaginary parts each, so that a NaN in one
            # part is not a NaN "at the same place" as one in the other)
            for part in (ew.real, ew.imag):
                a, d = (part(v) if isinstance(v, usm_ndarray) else getattr(np, part.__name__)(v)
                        for v in (actual, desired))
                assert_array_almost_equal(a, d, decimal, err_msg, verbose)
            return
        assert_array_almost_equal(actual, desired, decimal, err_msg, verbose)
        return
    np.testing.assert_almost_equal(actual, desired, decimal, err_msg, verbose)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Raise AssertionError unless two sequences of arrays are equal item by
    item, as ``cupy.testing.assert_array_list_equal``."""
    __tracebackhide__ = True   # (pytest shows the caller's line)
    if len(xlist) != len(ylist):
        raise AssertionError(f"List size is different: {len(xlist)} != {len(ylist)}")
    for x, y in zip(xlist, ylist):
        assert_array_equal(x, y, err_msg, verbose)
