"""usmarray.numpy_functions (median, quantile, nan-reductions, stacking, ...)
against NumPy, called through NumPy's dispatch (np.median(usm_ndarray)) and
directly (ua.median)."""

import warnings

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F64 = device_supports(ua.float64)
FLOATS = ["float32"] + (["float64"] if HAS_F64 else []) + \
    (["float16"] if device_supports(ua.float16) else [])
REAL = ["bool", "int8", "uint16", "int32", "int64"] + FLOATS
COMPLEX = ["complex64"] + (["complex128"] if HAS_F64 else [])

# shape -> axis values to reduce over (NumPy allows these for the shape)
SHAPES = {
    (): [None],
    (7,): [None, 0, -1],
    (4, 5): [None, 0, 1, (0, 1), (1, 0)],
    (2, 3, 4): [None, 1, (0, 2), -1],
    (0, 3): [1],
    (3, 0): [0],
}
CASES = [(s, a) for s, axes in SHAPES.items() for a in axes]
CASE_IDS = [f"{s}-{a}" for s, a in CASES]


def _data(shape, dt, seed=0, nans=False):
    h = sample(shape, dt, seed)
    if nans and h.dtype.kind in "fc" and h.size:
        flat = h.reshape(-1)
        flat[::4] = np.nan
        if h.ndim == 2:
            h[0] = np.nan   # an all-NaN slice along axis 1
    return h


def _expect(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def _same(got, expected, what=""):
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), what
        for g, e in zip(got, expected):
            _same(g, e, what)
        return
    if isinstance(expected, (bool, np.bool_)) or (
            not isinstance(got, ua.usm_ndarray) and np.ndim(expected) == 0 and
            not isinstance(expected, np.ndarray)):
        if isinstance(got, bool):
            assert got == bool(expected), (what, got, expected)
            return
    check(got, expected, True, what)


def _both(np_func, h, *args, **kwargs):
    """np_func on host data and, dispatched, on the same data on the device."""
    expected = _expect(np_func, h, *args, **kwargs)
    got = np_func(ua.asarray(h), *args, **kwargs)
    _same(got, expected, np_func.__name__)
    return got


# ----------------------------------------------------------- quantiles
def _allows_empty_quantile(h, axis):
    axes = range(h.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    return all(h.shape[a] for a in axes) if h.ndim else True


@pytest.mark.parametrize("dt", REAL)
@pytest.mark.parametrize("shape, axis", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(dt, shape, axis, keepdims):
    _both(np.median, _data(shape, dt, nans=True), axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dt", ["int32", "float32"] + FLOATS[1:2])
@pytest.mark.parametrize("shape, axis", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("q", [0.5, 0.0, 1.0, 0.37, [0.1, 0.5, 0.9], [1.0]])
def test_quantile(dt, shape, axis, method, q):
    h = _data(shape, dt, nans=True)
    if not _allows_empty_quantile(h, axis):
        with pytest.raises(IndexError):
            np.quantile(ua.asarray(h), q, axis=axis, method=method)
        return
    _both(np.quantile, h, q, axis=axis, method=method)
    _both(np.quantile, h, q, axis=axis, method=method, keepdims=True)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16"])
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_quantile_integer_and_bool(dt, method):
    h = _data((5, 7), dt)
    try:
        expected = np.quantile(h, [0.3, 0.5], axis=1, method=method)
    except TypeError:
        with pytest.raises(TypeError):
            np.quantile(ua.asarray(h), [0.3, 0.5], axis=1, method=method)
        return
    check(np.quantile(ua.asarray(h), [0.3, 0.5], axis=1, method=method), expected)
    check(np.quantile(ua.asarray(h), 0.5, method=method), np.quantile(h, 0.5, method=method))


@pytest.mark.parametrize("q", [50, [5, 50, 95.5], 100])
@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_percentile(q, method):
    h = _data((4, 9), "float32", nans=False)
    _both(np.percentile, h, q, axis=1, method=method)
    check(ua.percentile(ua.asarray(h), q, method=method), np.percentile(h, q, method=method))


@pytest.mark.parametrize("q", [np.float64(0.3), np.float32(0.3), 1, [0, 1], [0.5],
                               np.array(0.3), np.array([0.3], np.float32)], ids=repr)
def test_quantile_q_types(q):
    # NEP 50: only Python numbers are weak; NumPy scalars and float arrays promote
    h = _data((4, 5), "float32")
    expected = np.quantile(h, q, axis=1)
    qd = ua.asarray(q) if isinstance(q, np.ndarray) else q
    check(np.quantile(ua.asarray(h), qd, axis=1), expected)


@pytest.mark.parametrize("dt", ["int32"] + FLOATS)
@pytest.mark.parametrize("shape, axis", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanmedian(dt, shape, axis, keepdims):
    h = _data(shape, dt, nans=True)
    if h.dtype.kind == "f" and h.ndim == 3:
        h[1, :, 2] = np.nan   # an all-NaN slice along axis 1
    _both(np.nanmedian, h, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dt", ["int32"] + FLOATS[:2])
@pytest.mark.parametrize("shape, axis", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("q", [0.5, 1.0, [0.0, 0.37, 0.9]])
def test_nanquantile(dt, shape, axis, method, q):
    h = _data(shape, dt, nans=True)
    if not _allows_empty_quantile(h, axis):
        with pytest.raises(IndexError):
            np.nanquantile(ua.asarray(h), q, axis=axis, method=method)
        return
    x = ua.asarray(h)
    if h.size == 0:   # (NumPy's nanquantile drops the q axis of empty results)
        assert np.nanquantile(x, q, axis=axis, method=method).shape == \
            np.quantile(h, q, axis=axis, method=method).shape
        return
    # NumPy's result dtype for an all-NaN slice is a's (its first slice decides for all)
    # (and then computes in a's type): compared at that precision
    all_nan = h.dtype.kind == "f" and np.isnan(h).all(axis=axis).any()

    def same(got, expected):
        if all_nan:
            got = ua.astype(got, expected.dtype)
        check(got, expected)

    for kw in ({}, dict(keepdims=True)):
        same(np.nanquantile(x, q, axis=axis, method=method, **kw),
             _expect(np.nanquantile, h, q, axis=axis, method=method, **kw))
        p = np.multiply(q, 100).tolist()
        same(np.nanpercentile(x, p, axis=axis, method=method, **kw),
             _expect(np.nanpercentile, h, p, axis=axis, method=method, **kw))


def test_quantile_q_on_device():
    h = _data((5, 6), "float32")
    q = np.array([0.2, 0.8])
    got = ua.quantile(ua.asarray(h), ua.asarray(q), axis=0)
    check(got, np.quantile(h, q, axis=0))


@pytest.mark.parametrize("call, err", [
    (lambda x: np.quantile(x, 1.5), ValueError),
    (lambda x: np.quantile(x, [[0.5]]), ValueError),
    (lambda x: np.percentile(x, -1), ValueError),
    (lambda x: np.quantile(x, 0.5, method="weibull"), ValueError),
    (lambda x: ua.quantile(x, ua.asarray([0.5, 2.0])), ValueError),
    (lambda x: np.median(x.astype(ua.complex64)), TypeError),
    (lambda x: np.quantile(x, 0.5, axis=2), ua.AxisError),
])
def test_quantile_errors(call, err):
    with pytest.raises(err):
        call(ua.asarray(_data((3, 4), "float32")))


def test_median_matches_mean_of_middle_values():
    # NumPy's median of two middle values is their mean, not a lerp
    h = np.array([1e30, 3e30, 2e30, 4e30], np.float32)
    _both(np.median, h)


# ----------------------------------------------------------- nan-reductions
NAN_FUNCS = [np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax]


@pytest.mark.parametrize("func", NAN_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", REAL + COMPLEX)
@pytest.mark.parametrize("shape, axis", CASES, ids=CASE_IDS)
def test_nan_reductions(func, dt, shape, axis):
    h = _data(shape, dt, nans=True)
    if func is np.nanprod and dt.startswith("float") or func is np.nanprod and dt in COMPLEX:
        h = h / 10 + 1   # keep products in range
    if func in (np.nanmin, np.nanmax) and dt in COMPLEX:
        return   # usmarray's min/max are real-only
    red_axes = range(h.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    empty_slices = any(h.shape[a] == 0 for a in red_axes)
    if func in (np.nanmin, np.nanmax) and empty_slices and h.size == 0:
        with pytest.raises(ValueError):
            func(ua.asarray(h), axis=axis)
        return
    for keepdims in (False, True):
        _both(func, h, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("func", [np.nanvar, np.nanstd])
@pytest.mark.parametrize("ddof", [1, 2, 5])
def test_nan_var_ddof(func, ddof):
    h = _data((4, 6), "float32", nans=True)
    _both(func, h, axis=1, ddof=ddof)
    check(func(ua.asarray(h), axis=1, correction=ddof), _expect(func, h, axis=1, ddof=ddof))


@pytest.mark.parametrize("func", [np.nansum, np.nanmean])
def test_nan_dtype(func):
    _both(func, _data((3, 4), "int8"), axis=0, dtype=np.float32)
    _both(func, _data((3, 4), "float32", nans=True), dtype=FLOATS[-1] if HAS_F64 else np.float32)


def test_nanmean_of_integers_in_an_integer_dtype():
    # NumPy's nanmean of integers is mean: an integer dtype truncates the mean
    h = np.array([[1, 2, 4], [3, 8, 9]], np.int64)
    _both(np.nanmean, h, dtype=np.int64)
    _both(np.nanmean, h, axis=1, dtype=np.int32)
    # (nanvar/nanstd: the float result truncated, as usmarray's np.var/np.std with an
    # integer dtype; NumPy's compute the deviations from the truncated mean)
    assert np.nanvar(ua.asarray(h), dtype=np.int64).dtype == np.int64


def _nan_pattern(shape, dt, pattern, seed=5):
    h = sample(shape, dt, seed)
    rng = np.random.default_rng(seed)
    if pattern == "sparse":
        h[rng.random(shape) < 0.05] = np.nan
    elif pattern == "dense":
        h[rng.random(shape) < 0.7] = np.nan
    elif pattern == "rows":   # every other row all-NaN, the others with infinities
        if h.ndim == 1:
            h = h.reshape(2, -1)
        h[::2] = np.nan
        h[1::2, ::7] = np.inf
        h[1::4, 3::11] = -np.inf
    elif pattern == "all":
        h[...] = np.nan
    return h.reshape(shape)


# (float16 sums of this many items overflow in NumPy, which adds in float16)
_LONG_REAL = ["float32"] + (["float64"] if HAS_F64 else [])
_LONG_FUNCS = [(f, dt) for f in NAN_FUNCS + [np.nanargmin, np.nanargmax]
               for dt in _LONG_REAL + ([] if f in (np.nanmin, np.nanmax, np.nanargmin,
                                                   np.nanargmax) else ["complex64"])]


@pytest.mark.parametrize("func, dt", _LONG_FUNCS, ids=[f"{f.__name__}-{d}" for f, d in _LONG_FUNCS])
@pytest.mark.parametrize("pattern", ["none", "sparse", "dense", "rows", "all"])
@pytest.mark.parametrize("shape, axis", [((100002,), None), ((64, 129), 1), ((129, 64), 0),
                                         ((3, 4099), 1), ((4099, 3), 1), ((300, 17), 0)])
def test_nan_reductions_long(variant, func, dt, pattern, shape, axis):
    """The one-pass NaN-skipping reductions through both kernel variants:
    long rows and columns (whole vectors, partial vectors and chains),
    NaNs sparse, dense, in whole slices, and infinities."""
    h = _nan_pattern(shape, dt, pattern)
    if func is np.nanprod:
        h = h / 10000 + 1   # keep products of 1e5 factors in range
    if func in (np.nanargmin, np.nanargmax):
        all_nan = np.isnan(h).all(axis=axis).any()
        if all_nan:
            with pytest.raises(ValueError, match="All-NaN"):
                func(ua.asarray(h), axis=axis)
            return
        check(func(ua.asarray(h), axis=axis), func(h, axis=axis), False, func.__name__)
        return
    if func is np.nanprod:
        # rounding errors of 1e5 factors grow past the dtype's tolerance:
        # against the product in double precision
        got = ua.asnumpy(func(ua.asarray(h), axis=axis))
        wide = np.complex128 if h.dtype.kind == "c" else np.float64
        np.testing.assert_allclose(got, func(h.astype(wide), axis=axis), rtol=1e-3)
        return
    got, expected = func(ua.asarray(h), axis=axis), _expect(func, h, axis=axis)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # sums of ~100 values of magnitude 10 that cancel: float32 rounding of
    # another order differs by ~1e-5 in absolute terms
    tol = dict(rtol=1e-4, atol=1e-3) if h.dtype.itemsize <= 8 and dt != "float64" else \
        dict(rtol=1e-12, atol=1e-12)
    g = ua.asnumpy(got)
    for part in (np.real, np.imag):   # (complex infinities compare part by part)
        np.testing.assert_allclose(part(g), part(expected), equal_nan=True, **tol)


def test_nanvar_infinities_as_numpy():
    """NaN from inf - inf is not a missing value: NumPy's nanvar is NaN there."""
    for h in ([np.inf, 1.0, np.nan], [np.inf, -np.inf, np.nan, 2.0], [1.0, np.nan, 3.0]):
        _both(np.nanvar, np.array(h, np.float32))


def test_nanmin_all_nan_slice_is_nan():
    h = np.array([[np.nan, np.nan], [1.0, np.nan]], np.float32)
    got = np.nanmin(ua.asarray(h), axis=1)
    check(got, np.array([np.nan, 1.0], np.float32))


@pytest.mark.parametrize("func", [np.nanargmin, np.nanargmax], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", ["bool", "int32"] + FLOATS)
@pytest.mark.parametrize("shape, axis", [((7,), None), ((7,), 0), ((4, 5), 1), ((4, 5), 0),
                                         ((2, 3, 4), -1), ((), None)])
def test_nanarg(func, dt, shape, axis):
    h = _data(shape, dt, seed=3)
    if h.dtype.kind == "f" and h.size > 1:
        h.reshape(-1)[1::3] = np.nan
    for keepdims in (False, True):
        expected = func(h, axis=axis, keepdims=keepdims)
        got = func(ua.asarray(h), axis=axis, keepdims=keepdims)
        check(got, expected, False, func.__name__)


@pytest.mark.parametrize("func", [np.nanargmin, np.nanargmax], ids=lambda f: f.__name__)
def test_nanarg_complex(func):
    """Complex values order lexicographically; a NaN in either part is
    skipped (NumPy fills it with -inf + 0j, or inf + 0j)."""
    h = np.array([[1 + 2j, complex(np.nan, 0), 3 + 0j, 3 - 1j],
                  [complex(1, np.nan), complex(-np.inf, 1), -2 + 5j, -2 + 5j],
                  [complex(np.nan, np.nan), complex(np.inf, np.nan), 0j, -0j]])
    for axis in (None, 0, 1):
        check(func(ua.asarray(h), axis=axis), func(h, axis=axis), False, func.__name__)
    with pytest.raises(ValueError, match="All-NaN"):
        func(ua.asarray(h[2, :2]))


@pytest.mark.parametrize("func", [np.nanargmin, np.nanargmax])
def test_nanarg_all_nan_raises(func):
    h = np.array([[1.0, np.nan], [np.nan, np.nan]], np.float32)
    with pytest.raises(ValueError, match="All-NaN"):
        func(ua.asarray(h), axis=1)
    with pytest.raises(ValueError):
        func(h, axis=1)   # (the oracle agrees)
    check(func(ua.asarray(h[0])), func(h[0]), False)


# ----------------------------------------------------------- statistics
@pytest.mark.parametrize("dt", ["int32", "bool"] + FLOATS + COMPLEX)
@pytest.mark.parametrize("shape, axis", [((7,), None), ((4, 5), 1), ((4, 5), None),
                                         ((2, 3, 4), (0, 2))])
def test_average(dt, shape, axis):
    h = _data(shape, dt)
    x = ua.asarray(h)
    _both(np.average, h, axis=axis)
    _both(np.average, h, axis=axis, returned=True)
    weights = [np.abs(_data(shape, "float32", seed=5)) + 0.5]
    if axis is not None:
        ax = axis if isinstance(axis, tuple) else (axis,)
        weights.append(np.abs(_data(tuple(shape[a] for a in ax), "int32", seed=6)) + 1)
    for w in weights:
        for kw in ({}, dict(returned=True), dict(keepdims=True)):
            expected = np.average(h, axis=axis, weights=w, **kw)
            _same(np.average(x, axis=axis, weights=ua.asarray(w), **kw), expected, "average")
            _same(ua.average(x, axis=axis, weights=ua.asarray(w), **kw), expected, "average")


def test_average_errors():
    x = ua.asarray(_data((3, 4), "float32"))
    with pytest.raises(ZeroDivisionError):
        np.average(x, axis=1, weights=ua.zeros(4, dtype=ua.float32))
    with pytest.raises(TypeError):
        np.average(x, weights=ua.ones(4, dtype=ua.float32))
    with pytest.raises(ValueError):
        np.average(x, axis=0, weights=ua.ones(4, dtype=ua.float32))


@pytest.mark.parametrize("dt", ["int8", "uint16", "int64"] + FLOATS)
@pytest.mark.parametrize("shape, axis", [s for s in CASES if s[0] not in ((0, 3), (3, 0))],
                         ids=lambda v: str(v))
def test_ptp(dt, shape, axis):
    h = _data(shape, dt)
    _both(np.ptp, h, axis=axis)
    _both(np.ptp, h, axis=axis, keepdims=True)


def test_ptp_bool_raises():
    with pytest.raises(TypeError):
        np.ptp(ua.asarray(np.array([True, False])))


@pytest.mark.parametrize("dt", ["int32"] + FLOATS + COMPLEX)
@pytest.mark.parametrize("shape", [(3, 6), (1, 5), (6,), (4, 2), (0, 3)])
@pytest.mark.parametrize("kw", [{}, dict(rowvar=False), dict(bias=True), dict(ddof=0)])
def test_cov_corrcoef(dt, shape, kw):
    h = _data(shape, dt)
    _both(np.cov, h, **kw)
    _both(np.corrcoef, h, **{k: v for k, v in kw.items() if k == "rowvar"})
    y = _data(shape, dt, seed=4)
    try:
        expected = np.cov(h, y, **kw)
    except ValueError:   # (rowvar=False with one row: NumPy transposes m, not y)
        with pytest.raises(ValueError):
            np.cov(ua.asarray(h), ua.asarray(y), **kw)
        return
    check(np.cov(ua.asarray(h), ua.asarray(y), **kw), expected)
    check(np.corrcoef(ua.asarray(h), ua.asarray(y)), np.corrcoef(h, y))


@pytest.mark.parametrize("dt", ["int32"] + FLOATS + COMPLEX)
@pytest.mark.parametrize("sa, sb", [((4,), (4,)), ((3, 4), (4,)), ((3, 4), (2, 4)),
                                    ((2, 3, 4), (5, 4)), ((), (3,)), ((0, 4), (2, 4))])
def test_inner(dt, sa, sb):
    a, b = _data(sa, dt), _data(sb, dt, seed=1)
    check(np.inner(ua.asarray(a), ua.asarray(b)), np.inner(a, b))


def test_inner_mismatch():
    with pytest.raises(ValueError):
        np.inner(ua.ones((2, 3)), ua.ones((3, 2)))


# ----------------------------------------------------------- comparisons
@pytest.mark.parametrize("dt", ["bool", "int32"] + FLOATS + COMPLEX)
@pytest.mark.parametrize("kw", [{}, dict(rtol=1e-2), dict(atol=0.5), dict(equal_nan=True),
                                dict(rtol=0, atol=0)])
def test_isclose_allclose(dt, kw):
    a = _data((4, 5), dt, nans=True)
    b = (a * 1.004) if a.dtype.kind in "fc" else a.copy()
    if a.dtype.kind in "iu":
        b[0] += 1
    b[1:, 0] = np.inf if a.dtype.kind == "f" else b[1:, 0]
    a[2, 0] = np.inf if a.dtype.kind == "f" else a[2, 0]
    x, y = ua.asarray(a), ua.asarray(b)
    check(np.isclose(x, y, **kw), np.isclose(a, b, **kw))
    check(ua.isclose(x, y, **kw), np.isclose(a, b, **kw))
    assert np.allclose(x, y, **kw) == np.allclose(a, b, **kw)
    assert np.allclose(x, x, **kw) == np.allclose(a, a, **kw)


def test_isclose_scalar_and_broadcast():
    a = _data((3, 4), "float32")
    x = ua.asarray(a)
    check(np.isclose(x, 0.0, atol=5.0), np.isclose(a, 0.0, atol=5.0))
    check(np.isclose(x, x[0]), np.isclose(a, a[0]))
    check(np.isclose(x, ua.asarray(a[0]).astype(ua.int32)), np.isclose(a, a[0].astype(np.int32)))


MIXED = ["bool", "int8", "uint8", "int64"] + FLOATS + COMPLEX


@pytest.mark.parametrize("d1", MIXED)
@pytest.mark.parametrize("d2", MIXED)
def test_isclose_mixed_types(d1, d2):
    """NumPy's types: the difference in the type of x - y with y made
    inexact, the bound in y's type, so near-boundary pairs decide alike."""
    a = _data((6, 7), d1, nans=True)
    b = _data((6, 7), d2, seed=1, nans=True)
    b[:3] = a[:3].real.astype(d2) if a.dtype.kind == "c" and b.dtype.kind != "c" \
        else a[:3].astype(d2)
    if b.dtype.kind in "fc":
        b[1] = b[1] * (1 + 1e-5) + 3e-8   # around the default tolerances
    for kw in ({}, dict(rtol=0.3, atol=0), dict(equal_nan=True)):
        check(np.isclose(ua.asarray(a), ua.asarray(b), **kw), np.isclose(a, b, **kw))


@pytest.mark.parametrize("dt", ["int32"] + FLOATS + COMPLEX)
@pytest.mark.parametrize("s", [1, 2.5, float("nan"), float("inf"), 1j, True,
                               np.float32(2.5), np.int16(1)], ids=repr)
def test_isclose_scalars(dt, s):
    """Python numbers stay weak (NEP 50) on either side; NumPy scalars
    are typed."""
    a = _data((9,), dt, nans=True)
    a[:3] = [1, 2.5, np.inf] if dt != "int32" else [1, 2, 3]
    x = ua.asarray(a)
    for kw in ({}, dict(equal_nan=True), dict(atol=0.6)):
        check(ua.isclose(x, s, **kw), np.isclose(a, s, **kw))
        check(ua.isclose(s, x, **kw), np.isclose(s, a, **kw))


def test_isclose_tolerances():
    """Negative tolerances leave equal values close (NumPy's ``| (x == y)``);
    array tolerances broadcast with the operands; strided views."""
    a = _data((5, 8), "float32")
    b = a + np.float32(0.25)
    b[0] = a[0]
    x, y = ua.asarray(a), ua.asarray(b)
    check(np.isclose(x, y, atol=-1.0, rtol=0), np.isclose(a, b, atol=-1.0, rtol=0))
    t = np.linspace(0, 0.5, 8)
    check(np.isclose(x, y, atol=ua.asarray(t), rtol=0), np.isclose(a, b, atol=t, rtol=0))
    check(np.isclose(x, y, rtol=ua.asarray(t[:, None][:5]), atol=0),
          np.isclose(a, b, rtol=t[:, None][:5], atol=0))
    check(np.isclose(x[::-2, 1::3], y.T.T[::-2, 1::3]), np.isclose(a[::-2, 1::3], b[::-2, 1::3]))
    check(np.isclose(x[:0], y[:0]), np.isclose(a[:0], b[:0]))
    with pytest.raises(TypeError):
        ua.isclose(x, y, rtol="a")
    with pytest.raises(TypeError):
        ua.isclose(1.0, 2.0)


@pytest.mark.parametrize("dt", ["bool", "int32"] + FLOATS + COMPLEX)
def test_array_equal(dt):
    a = _data((3, 4), dt, nans=True)
    x = ua.asarray(a)
    for other in (a, a[:2], a.copy().reshape(4, 3), np.zeros((3, 4), dt)):
        for equal_nan in (False, True):
            if equal_nan and a.dtype.kind not in "fc":
                continue
            got = np.array_equal(x, ua.asarray(other), equal_nan=equal_nan)
            assert isinstance(got, bool)
            assert got == np.array_equal(a, other, equal_nan=equal_nan)
    assert ua.array_equal(ua.asarray(a[1:]), ua.asarray(a[1:]), equal_nan=True)


# ----------------------------------------------------------- shapes and stacking
SHAPE_LIST = [(), (3,), (2, 3), (2, 3, 4), (0,), (2, 0)]


@pytest.mark.parametrize("func", [np.atleast_1d, np.atleast_2d, np.atleast_3d],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", SHAPE_LIST, ids=str)
def test_atleast(func, shape):
    h = _data(shape, "int32")
    _both(func, h)
    got = func(ua.asarray(h), ua.asarray(h))
    _same(got, func(h, h))


@pytest.mark.parametrize("func", [np.vstack, np.hstack, np.dstack, np.column_stack],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (0,), (2, 0)], ids=str)
def test_stacking(func, shape):
    hs = [_data(shape, dt, seed=i) for i, dt in enumerate(("int32", "float32", "int32"))]
    if func is np.column_stack and len(shape) == 0:
        shape = (1,)
        hs = [h.reshape(1) for h in hs]
    got = func([ua.asarray(h) for h in hs])
    check(got, func(hs))
    check(func(tuple(ua.asarray(h) for h in hs[:1])), func(hs[:1]))


def test_stacking_dtype_and_errors():
    hs = [_data((2, 3), "int32"), _data((2, 3), "int32", seed=1)]
    xs = [ua.asarray(h) for h in hs]
    check(np.vstack(xs, dtype=np.float32), np.vstack(hs, dtype=np.float32))
    check(np.hstack(xs, dtype=np.int64), np.hstack(hs, dtype=np.int64))
    with pytest.raises(ValueError):
        np.vstack([])   # (NumPy's own: no usm_ndarray to dispatch on)
    with pytest.raises(ValueError):
        ua.vstack([])
    with pytest.raises(TypeError):
        ua.hstack(xs[0])


@pytest.mark.parametrize("func", [np.split, np.array_split], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape, axis", [((6,), 0), ((4, 6), 1), ((4, 6), -2), ((0, 3), 0),
                                         ((3, 4, 6), 2)])
@pytest.mark.parametrize("ios", [1, 2, 3, 4, [1, 3], [2, 10], [], [3, 1]])
def test_split(func, shape, axis, ios):
    h = _data(shape, "float32")
    try:
        expected = func(h, ios, axis=axis)
    except ValueError:
        with pytest.raises(ValueError):
            func(ua.asarray(h), ios, axis=axis)
        return
    got = func(ua.asarray(h), ios, axis=axis)
    assert isinstance(got, list)
    _same(got, expected)


@pytest.mark.parametrize("func", [np.hsplit, np.vsplit, np.dsplit], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(6,), (4, 6), (2, 4, 6), ()], ids=str)
@pytest.mark.parametrize("ios", [2, [1]])
def test_hvdsplit(func, shape, ios):
    h = _data(shape, "int32")
    try:
        expected = func(h, ios)
    except ValueError:
        with pytest.raises(ValueError):
            func(ua.asarray(h), ios)
        return
    _same(func(ua.asarray(h), ios), expected)


def test_split_unequal_raises():
    with pytest.raises(ValueError, match="equal division"):
        np.split(ua.arange(5), 2)
    with pytest.raises(ValueError):
        ua.array_split(ua.arange(5), 0)


# ----------------------------------------------------------- searching and append
@pytest.mark.parametrize("dt", ["bool", "int32", "float32"] + COMPLEX[:1])
@pytest.mark.parametrize("shape", SHAPE_LIST + [(3, 1, 2)], ids=str)
def test_argwhere_flatnonzero(dt, shape):
    h = _data(shape, dt)
    if h.size and h.dtype.kind != "b":
        h.reshape(-1)[::2] = 0
    check(np.argwhere(ua.asarray(h)), np.argwhere(h), False)
    check(np.flatnonzero(ua.asarray(h)), np.flatnonzero(h), False)
    assert np.argwhere(ua.asarray(h)).dtype == ua.int64


@pytest.mark.parametrize("sa, sv, axis", [((3,), (2,), None), ((2, 3), (4,), None),
                                          ((2, 3), (1, 3), 0), ((2, 3), (2, 2), 1),
                                          ((), (), None), ((0, 3), (2, 3), 0)])
@pytest.mark.parametrize("dts", [("int32", "int32"), ("float32", "int8"), ("int64", "float32")])
def test_append(sa, sv, axis, dts):
    a, v = _data(sa, dts[0]), _data(sv, dts[1], seed=1)
    check(np.append(ua.asarray(a), ua.asarray(v), axis=axis), np.append(a, v, axis=axis))


def test_append_scalar():
    a = _data((3,), "float32")
    check(np.append(ua.asarray(a), 2.5), np.append(a, 2.5))   # (float64, as NumPy's)


# ----------------------------------------------------------- dispatch
@pytest.mark.parametrize("name", ["median", "quantile", "percentile", "nanmedian",
                                  "nanquantile", "nanpercentile", "nanmin", "nanmax",
                                  "nanargmin", "nanargmax", "nansum", "nanprod", "nanmean",
                                  "nanvar", "nanstd", "average", "ptp", "isclose", "array_equal",
                                  "atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack",
                                  "dstack", "column_stack", "split", "array_split", "hsplit",
                                  "vsplit", "dsplit", "argwhere", "flatnonzero", "append", "cov",
                                  "corrcoef", "inner", "allclose"])
def test_mapped_and_exported(name):
    from usmarray.numpy_protocols import FUNCTIONS
    assert getattr(np, name) in FUNCTIONS
    assert callable(getattr(ua, name))


def test_results_stay_on_device():
    x = ua.asarray(_data((4, 6), "float32", nans=True))
    for r in (np.median(x), np.quantile(x, [0.1, 0.5]), np.nanmean(x, axis=0), np.nansum(x),
              np.average(x, axis=1), np.ptp(x), np.isclose(x, x), np.vstack([x, x]),
              np.argwhere(x > 0), np.cov(x), np.inner(x, x)):
        assert isinstance(r, ua.usm_ndarray)
        assert r.device == x.device
    assert all(isinstance(p, ua.usm_ndarray) for p in np.split(x, 2, axis=1))


def test_unsupported_numpy_arguments():
    x = ua.asarray(_data((4, 6), "float32"))
    with pytest.raises(TypeError, match="overwrite_input"):
        np.median(x, overwrite_input=True)
    with pytest.raises(TypeError, match="fweights"):
        np.cov(x, fweights=ua.ones(6, dtype=ua.int64))
    with pytest.raises(TypeError, match="ua.asarray"):
        np.isclose(x, np.ones((4, 6)))
    out = ua.empty((6,), dtype=ua.float32)
    assert np.median(x, axis=0, out=out) is out
    check(out, np.median(ua.asnumpy(x), axis=0))


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmin", "nanmax", "nanargmin",
                                  "nanargmax", "nanmean", "nanvar", "nanstd", "ptp",
                                  "nancumsum", "nancumprod"])
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("dt", ["float32", "int32"])
def test_axis_0_of_a_0d_array_as_numpy(name, axis, dt):
    """NumPy's own reductions read axis 0 (or -1) of a 0-d array as its only
    axis; ua.nansum and friends as np.nansum does (NumPy's nanmean of
    integers is mean's, which refuses it)."""
    h = np.array(5, dtype=dt)
    try:
        expected = getattr(np, name)(h, axis=axis)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            getattr(ua, name)(ua.asarray(h), axis=axis)
        return
    for got in (getattr(ua, name)(ua.asarray(h), axis=axis),
                getattr(np, name)(ua.asarray(h), axis=axis)):
        np.testing.assert_array_equal(ua.asnumpy(got), expected)


@pytest.mark.parametrize("adt", ["int8", "int16", "int32", "uint8", "int64"])
@pytest.mark.parametrize("q", [np.array([32.0, 50.0], np.float32), np.array([32.0, 50.0]),
                               np.float32(50.0), 50.0, [10.0, 90.0]], ids=repr)
@pytest.mark.parametrize("name", ["percentile", "nanpercentile"])
def test_percentile_of_integers_in_numpy_promotion_with_q(adt, q, name):
    """Integers interpolate in NumPy's promotion of their type with q's
    (int8 data, float32 q: float32), not always the default float type."""
    h = np.array([8, 1, 5, 100, 3, 77], dtype=adt)
    expected = getattr(np, name)(h, q)
    got = getattr(ua, name)(ua.asarray(h), ua.asarray(q) if isinstance(q, np.ndarray) else q)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=1e-3)


def test_stacking_casting_rule_as_numpy():
    a, b = np.array([1.5, 2.0]), np.array([3.0, 4.0])
    for f in ("hstack", "vstack"):
        for kw in ({"dtype": "int32"}, {"dtype": "int32", "casting": "safe"}):
            with pytest.raises(TypeError):
                getattr(np, f)([a, b], **kw)
            with pytest.raises(TypeError):
                getattr(ua, f)([ua.asarray(a), ua.asarray(b)], **kw)
        expected = getattr(np, f)([a, b], dtype="int32", casting="unsafe")
        got = getattr(ua, f)([ua.asarray(a), ua.asarray(b)], dtype="int32", casting="unsafe")
        np.testing.assert_array_equal(ua.asnumpy(got), expected)
        assert getattr(ua, f)([ua.asarray(a)], dtype="float32").dtype == ua.float32
        with pytest.raises(ValueError):
            getattr(ua, f)([ua.asarray(a)], dtype="float32", casting="sometimes")
    for pair in ((np.array(2.0), np.array([1.0, 2.0])), (np.array([1.0, 2.0]), np.array(2.0))):
        with pytest.raises(ValueError):
            np.correlate(*pair)
        with pytest.raises(ValueError):
            ua.correlate(*(ua.asarray(p) for p in pair))
