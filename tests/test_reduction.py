"""Reductions (sum, prod, max, min, all, any) and the statistics built on them
(mean, var, std): values and dtypes against NumPy for every dtype, axes,
keepdims, strided and zero-size inputs, special cases and bad arguments."""

import math

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, device_supports, sample

HAS_F64 = device_supports(ua.float64)
# NumPy warns about the empty and degenerate cases the tests ask for on purpose
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
SHAPES_AXES = [
    ((7,), None), ((7,), 0), ((7,), -1), ((5, 6), None), ((5, 6), 0), ((5, 6), 1),
    ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 1)), ((2, 3, 4, 5), (1, 3)), ((1000,), None),
    ((0,), None), ((3, 0), 1), ((3, 0), 0), ((), None),
]


def _tol(dt):
    dt = np.dtype(dt)
    if dt in (np.float16,):
        return 5e-3
    if dt in (np.float32, np.complex64):
        return 2e-5
    return 1e-12


def _check(got, expected, dtype=None):
    assert isinstance(got, ua.usm_ndarray)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if dtype is not None:
        assert got.dtype == dtype, (got.dtype, dtype)
    g = ua.asnumpy(got)
    if g.dtype.kind in "fc":
        np.testing.assert_allclose(g, expected.astype(g.dtype), rtol=_tol(g.dtype),
                                   atol=_tol(g.dtype), equal_nan=True)
    else:
        np.testing.assert_array_equal(g, expected)


def _sum_dtype(dt):
    dt = np.dtype(dt)
    if dt.kind == "b" or dt.kind == "i":
        return np.dtype(np.int64)
    if dt.kind == "u":
        return np.dtype(np.uint64)
    return dt


@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_prod(dtype, shape, axis, keepdims):
    a = sample(shape, dtype)
    if np.dtype(dtype).kind in "iu":
        a = (a % 3).astype(dtype)  # products stay small
    x = ua.asarray(a)
    for f, nf in ((ua.sum, np.sum), (ua.prod, np.prod)):
        exp = nf(a, axis=axis, keepdims=keepdims, dtype=_sum_dtype(dtype))
        _check(f(x, axis=axis, keepdims=keepdims), exp, _sum_dtype(dtype))


@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
def test_max_min(dtype, shape, axis):
    if np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            ua.max(ua.asarray(sample((3,), dtype)))
        return
    a = sample(shape, dtype)
    x = ua.asarray(a)
    empty = any(shape[i] == 0 for i in (range(len(shape)) if axis is None else
                                        np.atleast_1d(axis)))
    if empty and a.size == 0 and (axis is None or all(
            s for i, s in enumerate(shape) if i not in np.atleast_1d(axis) % max(len(shape), 1))):
        with pytest.raises(ValueError):
            ua.max(x, axis=axis)
        return
    if a.size == 0:
        _check(ua.max(x, axis=axis), np.empty(np.sum(a, axis=axis).shape), dtype)
        return
    _check(ua.max(x, axis=axis), np.max(a, axis=axis), dtype)
    _check(ua.min(x, axis=axis, keepdims=True), np.min(a, axis=axis, keepdims=True), dtype)


@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
def test_all_any(dtype, shape, axis):
    a = sample(shape, dtype)
    x = ua.asarray(a)
    _check(ua.all(x, axis=axis), np.all(a, axis=axis), ua.bool)
    _check(ua.any(x, axis=axis, keepdims=True), np.any(a, axis=axis, keepdims=True), ua.bool)


def test_strided_and_negative_views():
    a = sample((40, 30), np.float32)
    x = ua.asarray(a)
    for sl in (np.s_[::-1, ::2], np.s_[3:30:3, ::-4], np.s_[:, 5]):
        for axis in (None, 0, -1):
            if a[sl].ndim == 1 and axis == -1:
                continue
            _check(ua.sum(x[sl], axis=axis), np.sum(a[sl], axis=axis, dtype=np.float64))
            _check(ua.max(x[sl], axis=axis), np.max(a[sl], axis=axis))
    xt = ua.asarray(a).mT
    _check(ua.sum(xt, axis=0), a.T.sum(axis=0, dtype=np.float64))


def test_large_sum_accuracy():
    a = np.ones(10**6 + 3, np.float32)
    assert float(ua.sum(ua.asarray(a))) == 10**6 + 3
    b = sample((1000, 1001), np.int32)
    _check(ua.sum(ua.asarray(b), axis=1), b.sum(axis=1, dtype=np.int64), ua.int64)


def test_sum_dtype_argument():
    a = sample((4, 5), np.int16)
    x = ua.asarray(a)
    _check(ua.sum(x, dtype=ua.int16), a.sum(dtype=np.int16), ua.int16)
    _check(ua.sum(x, axis=0, dtype=ua.float32), a.sum(axis=0, dtype=np.float32), ua.float32)
    _check(ua.prod(x % 2, dtype=ua.int8), np.prod(a % 2, dtype=np.int8), ua.int8)
    with pytest.raises(TypeError):
        ua.max(x, dtype=ua.int8)


def test_nan_propagation():
    a = np.array([1.0, np.nan, 3.0], np.float32)
    x = ua.asarray(a)
    for f in (ua.sum, ua.max, ua.min, ua.mean, ua.var, ua.std):
        assert math.isnan(float(f(x))), f.__name__
    assert bool(ua.any(x)) and bool(ua.all(x))


def test_bad_arguments():
    x = ua.asarray(np.ones((2, 3), np.float32))
    with pytest.raises(ua.AxisError):
        ua.sum(x, axis=2)
    with pytest.raises(IndexError):
        ua.sum(x, axis=-3)
    with pytest.raises(ValueError):
        ua.sum(x, axis=(0, 0))
    with pytest.raises(ValueError):
        ua.sum(x, axis=(1, -1))
    with pytest.raises(TypeError):
        ua.sum(x, axis=1.0)
    with pytest.raises(TypeError):
        ua.sum(np.ones(3))
    with pytest.raises(TypeError):
        ua.mean([1.0, 2.0])
    with pytest.raises(TypeError):
        ua.var(x, correction="1")
    with pytest.raises(TypeError):
        ua.var(ua.asarray(np.ones(3, np.complex64)))


# ------------------------------------------------------------ mean, var, std
FLOATS = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "f"]
INEXACT = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind in "fc"]


@pytest.mark.parametrize("dtype", INEXACT, ids=lambda d: d.name)
@pytest.mark.parametrize("shape, axis", [s for s in SHAPES_AXES if 0 not in s[0]])
@pytest.mark.parametrize("keepdims", [False, True])
def test_mean(dtype, shape, axis, keepdims):
    a = sample(shape, dtype)
    exp = np.mean(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                  axis=axis, keepdims=keepdims)
    _check(ua.mean(ua.asarray(a), axis=axis, keepdims=keepdims), exp, dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape, axis", [s for s in SHAPES_AXES if 0 not in s[0]])
@pytest.mark.parametrize("correction", [0, 1, 0.5])
def test_var_std(dtype, shape, axis, correction):
    a = sample(shape, dtype)
    a64 = a.astype(np.float64)
    n = a.size if axis is None else int(np.prod([shape[i] for i in np.atleast_1d(axis)]))
    x = ua.asarray(a)
    with np.errstate(all="ignore"):
        ev = np.var(a64, axis=axis, ddof=correction)
        es = np.std(a64, axis=axis, ddof=correction, keepdims=True)
    if n - correction <= 0:
        ev, es = np.full_like(ev, np.nan), np.full_like(es, np.nan)
    _check(ua.var(x, axis=axis, correction=correction), ev, dtype)
    _check(ua.std(x, axis=axis, correction=correction, keepdims=True), es, dtype)


def test_mean_var_empty_and_integers():
    e = ua.asarray(np.empty((0, 3), np.float32))
    _check(ua.mean(e), np.float32(np.nan), ua.float32)
    _check(ua.mean(e, axis=0), np.full(3, np.nan), ua.float32)
    _check(ua.mean(e, axis=1), np.empty(0), ua.float32)
    _check(ua.var(e, axis=0), np.full(3, np.nan), ua.float32)
    _check(ua.std(e), np.float32(np.nan), ua.float32)
    i = sample((4, 6), np.int32)
    default = ua.float64 if HAS_F64 else ua.float32
    _check(ua.mean(ua.asarray(i), axis=1), i.mean(axis=1), default)
    _check(ua.var(ua.asarray(i)), i.var(), default)
    _check(ua.mean(ua.asarray(np.array([True, False, True]))), 2 / 3, default)


# ------------------------------------------------- argmax, argmin, count_nonzero
@pytest.mark.parametrize("shape, axis", [s for s in SHAPES_AXES if 0 not in s[0]
                                         and not isinstance(s[1], tuple)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_argmin(dtype, shape, axis, keepdims):
    h = sample(shape, dtype)
    x = ua.asarray(h)
    if np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            ua.argmax(x)
        return
    if np.dtype(dtype).kind in "iu":
        h = (h % 4).astype(dtype)       # ties: the first index must win
        x = ua.asarray(h)
    for f, nf in ((ua.argmax, np.argmax), (ua.argmin, np.argmin)):
        _check(f(x, axis=axis, keepdims=keepdims), nf(h, axis=axis, keepdims=keepdims), ua.int64)


def test_argmax_nan_views_and_errors():
    h = np.array([[3.0, np.nan, 5.0, np.nan], [-0.0, 0.0, -1.0, -1.0]], np.float32)
    x = ua.asarray(h)
    for axis in (None, 0, 1):
        _check(ua.argmax(x, axis=axis), np.argmax(h, axis=axis))
        _check(ua.argmin(x, axis=axis), np.argmin(h, axis=axis))
    _check(ua.argmax(x[:, ::-1], axis=1), np.argmax(h[:, ::-1], axis=1))
    with pytest.raises(ValueError):
        ua.argmax(ua.empty((0, 3)))
    with pytest.raises(ValueError):
        ua.argmin(ua.empty((3, 0)), axis=1)
    with pytest.raises(TypeError):
        ua.argmax(x, axis=(0, 1))
    with pytest.raises(TypeError):
        ua.argmax(h)


@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
def test_count_nonzero(dtype, shape, axis):
    h = sample(shape, dtype)
    if h.dtype.kind != "b":
        h = (h * (sample(shape, np.int8, 7) % 2)).astype(dtype)   # some zeros
    got = ua.count_nonzero(ua.asarray(h), axis=axis, keepdims=True)
    _check(got, np.count_nonzero(h, axis=axis, keepdims=True), ua.int64)


# ------------------------------------------------------------------ scans
@pytest.mark.parametrize("shape, axis", [((7,), None), ((7,), 0), ((5, 6), 0), ((5, 6), 1),
                                         ((3, 4, 5), 1), ((3, 4, 5), -1), ((0,), 0), ((3, 0), 1),
                                         ((3, 0), 0), ((2, 1300), 1)])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_sum_prod(dtype, shape, axis, include_initial):
    h = sample(shape, dtype)
    if np.dtype(dtype).kind in "iu":
        h = (h % 3).astype(dtype)
    elif np.dtype(dtype).kind in "fc":
        h = (h / 10 + 1).astype(dtype)    # products stay finite
    x = ua.asarray(h)
    ax = 0 if axis is None else axis
    for f, nf, ident in ((ua.cumulative_sum, np.cumsum, 0), (ua.cumulative_prod, np.cumprod, 1)):
        if np.dtype(dtype) == np.float16:   # usmarray scans float16 in float32
            exp = nf(h.astype(np.float32), axis=ax).astype(np.float16)
        else:
            exp = nf(h, axis=ax, dtype=_sum_dtype(dtype))
        if include_initial:
            pad = [(0, 0)] * h.ndim
            pad[ax] = (1, 0)
            exp = np.pad(exp, pad, constant_values=ident)
        got = f(x, axis=axis, include_initial=include_initial)
        if np.dtype(dtype).kind in "fc" and f is ua.cumulative_prod:
            # products of many factors underflow: another combining order
            # differs in the subnormal range
            tiny = np.finfo(np.dtype(dtype)).smallest_normal * 100
            np.testing.assert_allclose(ua.asnumpy(got), exp, rtol=_tol(dtype) * 20, atol=tiny)
            assert got.dtype == _sum_dtype(dtype)
        else:
            _check(got, exp, _sum_dtype(dtype))


def test_cumulative_sum_long_rows_and_views():
    # > 512 * 512 elements: the chunk totals are themselves scanned in chunks
    h = sample((300001,), np.int32)
    _check(ua.cumulative_sum(ua.asarray(h)), np.cumsum(h, dtype=np.int64))
    m = sample((40, 3000), np.float64)
    x = ua.asarray(m)[::-2, 7::3]
    _check(ua.cumulative_sum(x, axis=1), np.cumsum(m[::-2, 7::3], axis=1))
    _check(ua.cumulative_sum(x, axis=0), np.cumsum(m[::-2, 7::3], axis=0))
    b = np.array([True, False, True, True])
    _check(ua.cumulative_sum(ua.asarray(b)), np.cumsum(b), ua.int64)


def test_cumulative_dtype_and_errors():
    h = sample((4, 5), np.int16)
    x = ua.asarray(h)
    _check(ua.cumulative_sum(x, axis=1, dtype=ua.int16), np.cumsum(h, axis=1, dtype=np.int16),
           ua.int16)
    _check(ua.cumulative_sum(x, axis=0, dtype=ua.float32),
           np.cumsum(h, axis=0, dtype=np.float32), ua.float32)
    f = sample((50,), np.float16)
    got = ua.cumulative_sum(ua.asarray(f))
    assert got.dtype == ua.float16
    np.testing.assert_allclose(ua.asnumpy(got), np.cumsum(f.astype(np.float32)), rtol=2e-3,
                               atol=0.1)
    with pytest.raises(ValueError):
        ua.cumulative_sum(x)                  # axis needed for 2-D
    with pytest.raises(IndexError):
        ua.cumulative_sum(x, axis=2)
    with pytest.raises(TypeError):
        ua.cumulative_prod(h, axis=0)
    with pytest.raises(ValueError):
        ua.cumulative_sum(ua.asarray(1.0))


# tiles of the scan kernels (usm::kScanTile, usm::kScanVecTile)
_TILE, _VEC_TILE = 2048, 16384


@pytest.fixture(params=["vector", "generic"])
def scan_variant(request):
    """Runs a test with the CPU vector-block kernels and with the generic
    (GPU) ones (the KernelCache.simd switch, as USMARRAY_GENERIC_KERNELS=1)."""
    kc = ua.asarray([0])._q.kc
    old = kc.simd
    if request.param == "generic":
        kc.simd = False
    elif not old:
        pytest.skip("the device has no vector-block kernels")
    yield request.param
    kc.simd = old


@pytest.mark.parametrize("n", [1, _TILE - 1, _TILE, _TILE + 1, 9 * _TILE + 5, _VEC_TILE - 1,
                               _VEC_TILE, _VEC_TILE + 1, 3 * _VEC_TILE + 17])
def test_cumulative_sum_tile_boundaries(scan_variant, n):
    h = sample((n,), np.int32)
    x = ua.asarray(h)
    _check(ua.cumulative_sum(x), np.cumsum(h, dtype=np.int64), ua.int64)
    _check(ua.cumulative_sum(x, include_initial=True),
           np.concatenate([[0], np.cumsum(h, dtype=np.int64)]), ua.int64)
    f = sample((n,), np.float32)
    got = ua.asnumpy(ua.cumulative_sum(ua.asarray(f)))
    ref = np.cumsum(f.astype(np.float64))
    scale = np.cumsum(np.abs(f.astype(np.float64)))
    assert got.dtype == np.float32
    assert np.all(np.abs(got - ref) <= 1e-6 * scale + 1e-6)
    b = h % 3 == 0
    _check(ua.cumulative_sum(ua.asarray(b)), np.cumsum(b), ua.int64)
    p = (h % 2 + 1).astype(np.int64) * np.where(np.arange(n) % 7 == 0, -1, 1)
    _check(ua.cumulative_prod(ua.asarray(p)), np.cumprod(p), ua.int64)


def test_cumulative_sum_tile_totals_scanned_in_tiles(scan_variant):
    # more tiles than one tile holds: the tile totals are scanned in tiles
    n = _TILE * _TILE + 3 if scan_variant == "generic" else 3 * _VEC_TILE
    h = (np.arange(n) % 5 - 2).astype(np.int8)
    got = ua.cumulative_sum(ua.asarray(h))
    _check(got, np.cumsum(h, dtype=np.int64), ua.int64)


@pytest.mark.parametrize("dt", [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64,
                                np.complex64, np.bool_])
def test_cumulative_layouts(scan_variant, dt):
    if not device_supports(dt):
        pytest.skip("no fp64")
    base = sample((64, 600), dt)
    if np.dtype(dt).kind in "fc":
        base = (base / 10).astype(dt)
    # device views made like the NumPy ones
    F = (lambda a: a.T.copy(), lambda a: ua.permute_dims(ua.asarray(a.T.copy()), (1, 0)))
    ident = (lambda a: a, ua.asarray)
    cases = [
        (ident, None, 0), (ident, None, 1), (ident, None, -1),
        (F, None, 0), (F, None, 1),
        (ident, (slice(None, None, -3), slice(None, None, 2)), 0),
        (ident, (slice(None, None, -3), slice(None, None, 2)), 1),
        (ident, (slice(None), slice(None, 5)), 0),   # few columns: tiled rows with a stride
        (ident, (slice(None, 0),), 0), (ident, (slice(None), slice(None, 0)), 1),
        (ident, (slice(None, 1),), 0),
    ]
    cases3 = [((slice(None), slice(None, None, 2), slice(3, None)), 1),   # dims do not merge
              ((slice(None), slice(None, None, 2), slice(3, None)), 0),
              ((slice(None, None, -1), slice(None), slice(None, None, -5)), 2)]
    runs = []
    for (mk_h, mk_x), key, axis in cases:
        h, x = mk_h(base), mk_x(base)
        if mk_h is F[0]:
            h = h.T
        if key is not None:
            h, x = h[key], x[key]
        runs.append((h, x, axis))
    b3 = base.reshape(8, 8, 600)
    x3 = ua.asarray(b3)
    for key, axis in cases3:
        runs.append((b3[key], x3[key], axis))
    for h, x, axis in runs:
        assert x.shape == h.shape
        for inc in (False, True):
            got = ua.cumulative_sum(x, axis=axis, include_initial=inc)
            exp = np.cumsum(h, axis=axis, dtype=_sum_dtype(dt))
            if inc:
                pad = [(0, 0)] * h.ndim
                pad[axis] = (1, 0)
                exp = np.pad(exp, pad)
            if np.dtype(dt).kind in "fc":
                assert got.dtype == exp.dtype
                np.testing.assert_allclose(ua.asnumpy(got), exp, rtol=1e-4, atol=1e-4)
            else:
                _check(got, exp, exp.dtype)


def test_cumulative_strided_device_views(scan_variant):
    m = sample((50, 3000), np.float64 if HAS_F64 else np.float32)
    x = ua.asarray(m)
    for key, axis in (((slice(None, None, -2), slice(7, None, 3)), 1),
                      ((slice(None, None, -2), slice(7, None, 3)), 0),
                      ((slice(None), slice(None, None, -1)), 1),
                      ((slice(None), 5), 0)):
        got = ua.cumulative_sum(x[key], axis=axis)
        np.testing.assert_allclose(ua.asnumpy(got), np.cumsum(m[key], axis=axis), rtol=1e-5,
                                   atol=1e-5)


def test_cumulative_dtype_conversions(scan_variant):
    h = sample((3, 5000), np.int32)
    x = ua.asarray(h)
    _check(ua.cumulative_sum(x, axis=1, dtype=ua.int32), np.cumsum(h, axis=1, dtype=np.int32),
           ua.int32)
    got = ua.cumulative_sum(x, axis=1, dtype=ua.float32)
    np.testing.assert_allclose(ua.asnumpy(got), np.cumsum(h, axis=1, dtype=np.float64),
                               rtol=1e-5)
    u = sample((20000,), np.uint8)
    _check(ua.cumulative_sum(ua.asarray(u)), np.cumsum(u, dtype=np.uint64), ua.uint64)
    _check(ua.cumulative_prod(ua.asarray(u[:9] % 3 + 1)), np.cumprod(u[:9] % 3 + 1,
                                                                      dtype=np.uint64), ua.uint64)


def test_cumulative_sum_is_deterministic(scan_variant):
    f = sample((5 * _VEC_TILE + 3,), np.float32)
    x = ua.asarray(f)
    a = ua.asnumpy(ua.cumulative_sum(x))
    for _ in range(3):
        assert np.array_equal(ua.asnumpy(ua.cumulative_sum(x)), a)
