"""Reductions (sum, prod, max, min, all, any) and the statistics built on them
(mean, var, std): values and dtypes against NumPy for every dtype, axes,
keepdims, strided and zero-size inputs, special cases and bad arguments."""

import math

import numpy as np
import pytest

import usmarray as ua
from usmarray._core._reduce import state_size
from conftest import SUPPORTED_DTYPES, device_supports, sample

HAS_F64 = device_supports(ua.float64)
# NumPy warns about the empty and degenerate cases the tests ask for on purpose
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
SHAPES_AXES = [
    ((7,), None), ((7,), 0), ((7,), -1), ((5, 6), None), ((5, 6), 0), ((5, 6), 1),
    ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 1)), ((2, 3, 4, 5), (1, 3)), ((1000,), None),
    ((0,), None), ((3, 0), 1), ((3, 0), 0), ((0, 0), 0), ((0, 2, 0), (0, 2)), ((), None),
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
    a = sample(shape, dtype)
    x = ua.asarray(a)
    try:
        expected = np.max(a, axis=axis)
    except ValueError:   # an empty axis: NumPy refuses, also when the result is empty
        with pytest.raises(ValueError):
            ua.max(x, axis=axis)
        with pytest.raises(ValueError):
            ua.min(x, axis=axis, keepdims=True)
        return
    if a.size == 0:
        _check(ua.max(x, axis=axis), expected, dtype)
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
        ua.var(np.ones(3))


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


@pytest.mark.parametrize("dtype", ["complex128", "complex64", "float64", "int8"])
def test_argmax_argmin_partial_states(dtype):
    # reductions long enough to keep partial (value, index) states: complex128's
    # are 24 bytes (the buffer sized for 16 overran it and corrupted the heap)
    if not device_supports(dtype):
        pytest.skip(f"the device has no {dtype}")
    rng = np.random.default_rng(3)
    h = rng.standard_normal((8192, 4)).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.standard_normal(h.shape)
    h = h.astype(dtype) if np.dtype(dtype).kind != "i" else (h * 40).astype(dtype)
    x = ua.asarray(h)
    for f, nf in ((ua.argmax, np.argmax), (ua.argmin, np.argmin)):
        _check(f(x, axis=0), nf(h, axis=0), ua.int64)
        _check(f(ua.reshape(x, (-1,))), nf(h.reshape(-1)), ua.int64)
    itemsize = np.dtype(dtype).itemsize
    assert state_size(f"usmk::vi<{np.dtype(dtype).str[1:]}>") == (24 if itemsize == 16 else 16)
    assert float(ua.sum(ua.ones(10**5))) == 10**5   # allocations after the reductions


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
    # a 0-d array: its item, or the initial value and the item (dpctl.tensor's)
    r = ua.cumulative_sum(ua.asarray(1.5))
    assert r.shape == () and float(r) == 1.5
    np.testing.assert_array_equal(ua.asnumpy(ua.cumulative_prod(ua.asarray(3.0),
                                                                include_initial=True)), [1.0, 3.0])


# tiles of the scan kernels (usm::kScanTile, usm::kScanVecTile)
_TILE, _VEC_TILE = 2048, 16384


@pytest.mark.parametrize("n", [1, _TILE - 1, _TILE, _TILE + 1, 9 * _TILE + 5, _VEC_TILE - 1,
                               _VEC_TILE, _VEC_TILE + 1, 3 * _VEC_TILE + 17])
def test_cumulative_sum_tile_boundaries(variant, n):
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


def test_cumulative_sum_tile_totals_scanned_in_tiles(variant):
    # more tiles than one tile holds: the tile totals are scanned in tiles
    n = _TILE * _TILE + 3 if variant == "generic" else 3 * _VEC_TILE
    h = (np.arange(n) % 5 - 2).astype(np.int8)
    got = ua.cumulative_sum(ua.asarray(h))
    _check(got, np.cumsum(h, dtype=np.int64), ua.int64)


@pytest.mark.parametrize("dt", [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64,
                                np.complex64, np.bool_])
def test_cumulative_layouts(variant, dt):
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


def test_cumulative_strided_device_views(variant):
    m = sample((50, 3000), np.float64 if HAS_F64 else np.float32)
    x = ua.asarray(m)
    for key, axis in (((slice(None, None, -2), slice(7, None, 3)), 1),
                      ((slice(None, None, -2), slice(7, None, 3)), 0),
                      ((slice(None), slice(None, None, -1)), 1),
                      ((slice(None), 5), 0)):
        got = ua.cumulative_sum(x[key], axis=axis)
        np.testing.assert_allclose(ua.asnumpy(got), np.cumsum(m[key], axis=axis), rtol=1e-5,
                                   atol=1e-5)


def test_cumulative_dtype_conversions(variant):
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


def test_cumulative_sum_is_deterministic(variant):
    f = sample((5 * _VEC_TILE + 3,), np.float32)
    x = ua.asarray(f)
    a = ua.asnumpy(ua.cumulative_sum(x))
    for _ in range(3):
        assert np.array_equal(ua.asnumpy(ua.cumulative_sum(x)), a)


# ------------------------------------------ one-pass kernels: both variants
# The engine launches vector-block kernels (reduce_rows_vec, argmax/argmin
# included, and reduce_cols_vec) on CPU devices and the generic work-group
# kernels (reduce_group, reduce_cols) elsewhere; the `variant` fixture (conftest.py)
# runs a test with each (USMARRAY_GENERIC_KERNELS=1 makes CPU devices use the
# generic ones).


def _layouts(h):
    """(name, NumPy view) of a 3-D array: C, F, strided, negative strides, size-1 axes."""
    f = np.asfortranarray(h)
    return [("C", h), ("F", f), ("strided", h[::2, :, ::3]), ("negative", h[::-1, ::-2, :]),
            ("size1", h[:1, :, :1]), ("empty", h[:, :0, :])]


def _views(h):
    x = ua.asarray(np.ascontiguousarray(h) if h.flags.c_contiguous else h)
    out = []
    for name, v in _layouts(h):
        if name == "F":
            xv = ua.asarray(v)
            assert xv.flags.f_contiguous
        else:
            idx = {"C": (slice(None),) * 3, "strided": (slice(None, None, 2), slice(None), slice(None, None, 3)),
                   "negative": (slice(None, None, -1), slice(None, None, -2), slice(None)),
                   "size1": (slice(0, 1), slice(None), slice(0, 1)),
                   "empty": (slice(None), slice(0, 0), slice(None))}[name]
            xv = x[idx]
        out.append((name, xv, v))
    return out


_LAYOUT_OPS = [("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod),
               ("any", np.any), ("all", np.all), ("count_nonzero", np.count_nonzero)]
_AXES3 = [None, 0, 1, 2, (0, 1), (1, 2), (0, 2)]


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "uint8", "bool", "float16", "complex64"])
def test_layouts_axes_both_variants(variant, dt):
    dt = np.dtype(dt)
    if dt == np.float64 and not HAS_F64:
        pytest.skip("no float64")
    rng = np.random.default_rng(1)
    h = rng.standard_normal((6, 40, 37)) * 3
    if dt.kind == "c":
        h = h + 1j * rng.standard_normal(h.shape)
    if dt.kind in "iu":
        h = np.abs(h)
    h = h.astype(dt)
    if dt.kind != "b":
        h[0, 0, :5] = 0
    for name, xv, v in _views(h):
        for op, nf in _LAYOUT_OPS:
            for axis in _AXES3:
                if op in ("max", "min") and v.size == 0:
                    continue
                if op == "prod" and dt.kind != "b":
                    if dt.kind in "iu":
                        continue
                    # factors near 1: no overflow, whatever the order
                    vv, xx = v / dt.type(64) + dt.type(1), xv / 64 + 1
                else:
                    vv, xx = v, xv
                got = getattr(ua, op)(xx, axis=axis)
                kw = {"dtype": _sum_dtype(dt)} if op in ("sum", "prod") and dt.kind in "biu" else {}
                if op in ("sum", "prod") and dt == np.float16:
                    exp = nf(vv.astype(np.float32), axis=axis).astype(np.float16)
                else:
                    exp = nf(vv, axis=axis, **kw)
                if op == "count_nonzero":
                    exp = np.asarray(exp, dtype=np.int64)
                try:
                    _check(got, exp)
                except AssertionError as e:
                    raise AssertionError(f"{op} {dt} {name} axis={axis}: {e}") from None
    for name, xv, v in _views(h):
        if v.size == 0:
            continue
        for axis in (None, 0, 1, 2):
            for op in ("argmax", "argmin"):
                if axis is not None and v.shape[axis] == 0:
                    continue
                _check(getattr(ua, op)(xv, axis=axis), getattr(np, op)(v, axis=axis))


# lengths around vector (16 lanes), 16-vector chunks, work-group (256) and
# block boundaries (vector-block work-items take 32768 items at least)
_SIZES = [1, 2, 15, 16, 17, 255, 256, 257, 4095, 4096, 4097, 32767, 32768, 32769, 65537, 300001]


@pytest.mark.parametrize("n", _SIZES)
def test_block_boundaries(variant, n):
    rng = np.random.default_rng(n)
    h = rng.standard_normal(n).astype(np.float32)
    x = ua.asarray(h)
    _check(ua.sum(x), h.astype(np.float64).sum())
    _check(ua.max(x), h.max())
    _check(ua.argmax(x), h.argmax())
    _check(ua.argmin(x), h.argmin())
    hi = (h * 100).astype(np.int32)
    xi = ua.asarray(hi)
    _check(ua.sum(xi), hi.sum(dtype=np.int64))
    _check(ua.min(xi), hi.min())
    _check(ua.argmax(xi), hi.argmax())
    _check(ua.count_nonzero(xi), np.count_nonzero(hi))
    hb = h > 0.5
    _check(ua.any(ua.asarray(hb)), hb.any())
    _check(ua.all(ua.asarray(~hb | (h < 5))), (~hb | (h < 5)).all())
    # the extreme in the last, partial vector and the first item
    for pos in (0, n - 1, n // 2):
        g = h.copy()
        g[pos] = 100
        _check(ua.argmax(ua.asarray(g)), pos)
        _check(ua.max(ua.asarray(g)), 100)


@pytest.mark.parametrize("shape", [(129, 2049), (300, 17), (1000, 3), (20000, 3), (3, 100003), (257, 1),
                                   (1, 4097), (4097, 16)])
def test_rows_and_columns(variant, shape):
    rng = np.random.default_rng(7)
    h = rng.standard_normal(shape).astype(np.float32)
    x = ua.asarray(h)
    hd = h.astype(np.float64)
    for axis in (0, 1):
        _check(ua.sum(x, axis=axis), hd.sum(axis=axis))
        _check(ua.max(x, axis=axis), h.max(axis=axis))
        _check(ua.argmin(x, axis=axis), h.argmin(axis=axis))
        _check(ua.count_nonzero(x > 0, axis=axis), np.count_nonzero(h > 0, axis=axis))
    hi = (h * 10).astype(np.int64)
    _check(ua.sum(ua.asarray(hi), axis=0), hi.sum(axis=0))
    _check(ua.any(ua.asarray(h > 2), axis=0), (h > 2).any(axis=0))


@pytest.mark.parametrize("shape", [(100000, 16), (100000, 2048 + 5), (40000, 3)])
def test_column_sums_add_in_chains(variant, shape):
    # float32 column sums add rows in chains of at most 128 (reduce_cols_vec:
    # chains into a work-item's total; partials of blocks in a later pass):
    # 100000 additions of 0.1 in one float32 chain drift by about 1%
    h = np.full(shape, 0.1, np.float32)
    got = ua.asnumpy(ua.sum(ua.asarray(h), axis=0))
    np.testing.assert_allclose(got, np.full(shape[1], shape[0] * np.float64(np.float32(0.1))),
                               rtol=2e-5)
    h = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    got = ua.asnumpy(ua.sum(ua.asarray(h), axis=0))
    np.testing.assert_allclose(got, h.astype(np.float64).sum(axis=0), rtol=1e-4, atol=1e-3)


# row lengths around the vector (16 float32 / 8 float64 lanes) and the four
# chains of argreduce_block_vec; 3000 rows: short rows come many per work-item
_ROW_LENGTHS = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129]


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "uint64", "int8", "float16"])
def test_arg_rows_lengths(variant, dt):
    dt = np.dtype(dt)
    if dt == np.float64 and not HAS_F64:
        pytest.skip("no float64")
    rng = np.random.default_rng(11)
    for k in _ROW_LENGTHS:
        # few distinct values: many ties, where the first occurrence wins
        h = rng.integers(0, 5, size=(3000, k)).astype(dt)
        if dt.kind == "f":
            h[1, :] = -np.inf
            h[2, :] = np.inf
            h[3, :] = -0.0
            rows = rng.integers(4, 3000, size=40)
            h[rows, rng.integers(0, k, size=40)] = np.nan
            h[rows[:10], rng.integers(0, k, size=10)] = np.nan  # a second NaN
        x = ua.asarray(h)
        for f in ("argmax", "argmin"):
            got, exp = getattr(ua, f)(x, axis=1), getattr(np, f)(h, axis=1)
            try:
                _check(got, exp)
            except AssertionError as e:
                raise AssertionError(f"{f} {dt} rows of {k}: {e}") from None
        if dt.kind != "f" or k > 1:
            _check(ua.max(x, axis=1), np.max(h, axis=1))
            _check(ua.sum(x, axis=1), np.sum(h, axis=1, dtype=_sum_dtype(dt)
                                              if dt != np.float16 else np.float32))
    # empty rows: identities
    _check(ua.sum(ua.zeros((5000, 0), dtype=dt), axis=1), np.zeros(5000, dtype=_sum_dtype(dt)))


# long runs (around 512 and 1024 items, around the vector-block argmax's runs
# of 256 vectors, and many thousands): ties across a work-item's vectors,
# chains and runs, the first extreme in a later part of the row, increasing
# rows, -0.0/+0.0, NaNs in the middle and in the tail, infinities without
# NaNs (the runs' NaN flag goes up for them too)
_LONG_LENGTHS = [511, 512, 513, 1023, 1024, 1025, 2047, 2049, 4095, 4096, 4101, 8193, 70001]


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64", "uint32"])
def test_arg_long_rows(variant, dt):
    dt = np.dtype(dt)
    if dt == np.float64 and not HAS_F64:
        pytest.skip("no float64")
    rng = np.random.default_rng(5)
    for k in _LONG_LENGTHS:
        h = rng.integers(0, 50, size=(8, k)).astype(dt)   # ties across blocks
        # row 1: the extreme first in a later block, and again further on
        h[1, :] = 7
        h[1, min(k - 1, 1500)] = 99
        h[1, k - 1] = 99
        h[1, k // 3] = 0
        h[1, k - 2] = 0
        # row 2: increasing, so every block improves on the last
        h[2, :] = np.arange(k) % 200
        if dt.kind == "f":
            h[3, :] = -0.0
            h[3, k // 2:] = 0.0               # +0.0 equals -0.0: the first wins
            h[4, k - 1] = np.nan              # a NaN in the tail
            h[5, k // 2] = np.nan             # in a middle block...
            h[5, k - 3] = np.nan              # ...and a later one: the first wins
            h[0, 0] = -np.inf
            h[6, k // 4] = np.inf             # infinities, no NaN
            h[6, k // 2] = -np.inf
        # row 7: the extreme in the first run, equal values in later runs only
        h[7, :] = 5
        h[7, 3] = h[7, k - 5] = 60
        h[7, 1] = h[7, k - 1] = 1
        x = ua.asarray(h)
        for f in ("argmax", "argmin"):
            for got, exp in ((getattr(ua, f)(x, axis=1), getattr(np, f)(h, axis=1)),
                             (getattr(ua, f)(x[1]), getattr(np, f)(h[1])),
                             (getattr(ua, f)(x[5]), getattr(np, f)(h[5])),
                             (getattr(ua, f)(x[6]), getattr(np, f)(h[6])),
                             (getattr(ua, f)(x[7]), getattr(np, f)(h[7]))):
                try:
                    _check(got, exp)
                except AssertionError as e:
                    raise AssertionError(f"{f} {dt} rows of {k}: {e}") from None


@pytest.mark.parametrize("n", [37, 5000])
def test_special_values(variant, n):
    nan, inf = np.nan, np.inf
    for dt in (np.float32, np.float64) if HAS_F64 else (np.float32,):
        base = np.linspace(-1, 1, n).astype(dt)
        for pos in (0, 1, n // 2, n - 1):
            h = base.copy()
            h[pos] = nan
            h[-1 - pos // 2] = nan   # a second NaN: the first one wins
            x = ua.asarray(h)
            for f in ("max", "min", "argmax", "argmin"):
                _check(getattr(ua, f)(x), getattr(np, f)(h))
            _check(ua.sum(x), np.sum(h))
            _check(ua.count_nonzero(x), np.count_nonzero(h))
        for fill in (-inf, inf, -0.0, 0.0):
            h = np.full(n, fill, dtype=dt)
            x = ua.asarray(h)
            for f in ("max", "min", "argmax", "argmin", "count_nonzero", "any", "all"):
                _check(getattr(ua, f)(x), getattr(np, f)(h))
        h = np.zeros(n, dtype=dt)
        h[n // 3] = -0.0
        h[n // 2] = inf
        h[n // 4] = -inf
        x = ua.asarray(h)
        for f in ("max", "min", "argmax", "argmin", "sum"):
            _check(getattr(ua, f)(x), getattr(np, f)(h))
    for dt in (np.int32, np.uint32, np.int64):
        info = np.iinfo(dt)
        for fill in (info.min, info.max):
            h = np.full(n, fill, dtype=dt)
            _check(ua.argmax(ua.asarray(h)), 0)
            _check(ua.argmin(ua.asarray(h)), 0)
            _check(ua.max(ua.asarray(h)), fill)


def test_deterministic(variant):
    rng = np.random.default_rng(3)
    h = rng.standard_normal(1_000_003).astype(np.float32)
    m = rng.standard_normal((1500, 700)).astype(np.float32)
    x, xm = ua.asarray(h), ua.asarray(m)
    for f in (lambda: ua.sum(x), lambda: ua.sum(xm, axis=0), lambda: ua.sum(xm, axis=1),
              lambda: ua.sum(xm.T, axis=1), lambda: ua.argmax(x)):
        a, b = ua.asnumpy(f()), ua.asnumpy(f())
        assert a.tobytes() == b.tobytes()
    # accuracy of a long float32 sum (tree order): close to the exact sum
    exact = h.astype(np.float64).sum()
    assert abs(float(ua.sum(x)) - exact) <= 1e-5 * np.abs(h).sum()


def test_sum_dtype_one_pass(variant):
    h = np.arange(70000, dtype=np.int32).reshape(70, 1000)
    x = ua.asarray(h)
    for axis in (None, 0, 1):
        _check(ua.sum(x, axis=axis, dtype=ua.float32), h.sum(axis=axis, dtype=np.float32))
        _check(ua.sum(x, axis=axis, dtype=ua.int8), h.sum(axis=axis, dtype=np.int8))


def test_generic_kernels_switch():
    """USMARRAY_GENERIC_KERNELS=1 turns the vector-block kernels off (CPU devices)."""
    import os
    import subprocess
    import sys

    code = "import usmarray as ua; print(ua.asarray([0])._q.kc.simd)"
    env = dict(os.environ, USMARRAY_GENERIC_KERNELS="1")
    out = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("n", [3, _TILE + 3, 3 * _VEC_TILE + 17])
def test_cumulative_first_item_is_the_input(variant, n):
    # a scan's first item is x[0] itself: -0.0 stays negative (a sum from
    # +0.0 made it +0.0), and an infinite complex value keeps its zero
    # imaginary part ((inf + 0j) * (1 + 0j) is inf + nanj)
    z = np.full(n, -0.0)
    z[-1] = 1.0
    for dt in (np.float32, np.float64, np.complex64):
        if not device_supports(dt):
            continue
        got = ua.asnumpy(ua.cumulative_sum(ua.asarray(z.astype(dt))))
        expected = np.cumsum(z.astype(dt))
        np.testing.assert_array_equal(got, expected)
        assert (np.signbit(got.real) == np.signbit(expected.real)).all()
    for dt in (np.complex64, np.complex128):
        if not device_supports(dt):
            continue
        c = np.ones(n, dt)
        c[0] = complex(np.inf, 0)
        c[1] = complex(2, -1)
        got = ua.asnumpy(ua.cumulative_prod(ua.asarray(c)))
        assert got[0] == c[0] and got[0].imag == 0 and not np.isnan(got[0].imag)
        got = ua.asnumpy(ua.cumulative_prod(ua.asarray(c), include_initial=True))
        assert got[0] == 1 and got[1] == c[0] and not np.isnan(got[1].imag)
        # the values that follow are products as before
        f = np.ones(n, dt)
        f[: min(n, 40)] = np.exp(1j * np.arange(min(n, 40)) / 7).astype(dt)
        np.testing.assert_allclose(ua.asnumpy(ua.cumulative_prod(ua.asarray(f))), np.cumprod(f),
                                   rtol=1e-5)


def test_special_reductions_of_empty_input_keep_the_usm_type_and_refuse_complex():
    for f in (ua.logsumexp, ua.reduce_hypot):
        for kind in ("host", "shared", "device"):
            r = f(ua.zeros((3, 0), usm_type=kind), axis=1)
            assert r.usm_type == kind and r.shape == (3,)
        with pytest.raises(ValueError):   # (a DTypeError: dpctl.tensor raised ValueError)
            f(ua.asarray([1 + 1j]))


def test_dtype_float16_casts_the_input_first():
    """dtype=float16: the input is cast to float16 before the sum (the array
    API's rule and NumPy's), so 2049 counts as 2048."""
    h = np.array([2049, 1], np.int32)
    x = ua.asarray(h)
    for f, nf in ((ua.sum, np.sum), (ua.prod, np.prod)):
        got = f(x, dtype=ua.float16)
        assert got.dtype == ua.float16
        assert float(got) == float(nf(h, dtype=np.float16))
    np.testing.assert_array_equal(ua.asnumpy(ua.cumulative_sum(x, dtype=ua.float16)),
                                  np.cumsum(h, dtype=np.float16))
    y = np.array([-32768, 32766], np.int16)
    assert float(np.sum(ua.asarray(y), dtype=np.float16)) == float(np.sum(y, dtype=np.float16))


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_cumulative_scans_stay_finite_where_the_running_values_do(variant, dt):
    """Long scans whose running product or sum stays bounded while items
    regrouped by lane would not: [2, 0.5, ...] (every other item multiplied
    together overflows), and +-big alternating sums. They were NaN past the
    first tile in the vector-block kernels."""
    if not device_supports(dt):
        pytest.skip(f"{dt} not supported")
    n = 50001
    h = np.tile(np.array([2, 0.5], dt), n)
    got = ua.asnumpy(ua.cumulative_prod(ua.asarray(h)))
    np.testing.assert_array_equal(got, np.cumprod(h))
    big = np.finfo(dt).max / 2
    s = np.tile(np.array([big, -big], dt), n)
    got = ua.asnumpy(ua.cumulative_sum(ua.asarray(s)))
    np.testing.assert_array_equal(got, np.cumsum(s))
    # along an axis of a matrix too (rows of one tile and of several)
    m = np.tile(np.array([2, 0.5], dt), (3, 20000))
    np.testing.assert_array_equal(ua.asnumpy(ua.cumulative_prod(ua.asarray(m), axis=1)),
                                  np.cumprod(m, axis=1))


def test_numpy_keywords_of_mean_var_std():
    """CuPy-style generic code: xp.std(x, ddof=1), xp.mean(x, dtype=...)."""
    h = np.arange(10.0).reshape(2, 5)
    x = ua.asarray(h)
    assert float(ua.var(x, ddof=1)) == pytest.approx(np.var(h, ddof=1))
    np.testing.assert_allclose(ua.asnumpy(ua.std(x, axis=1, ddof=1)), np.std(h, axis=1, ddof=1))
    with pytest.raises(ValueError):   # (NumPy's, for ddof and correction both)
        ua.var(x, correction=1, ddof=1)
    i = ua.asarray(np.array([1, 2, 4], np.int16))
    m = ua.mean(i, dtype=ua.float32)
    assert m.dtype == ua.float32 and float(m) == pytest.approx(7 / 3)
    assert int(ua.mean(i, dtype=ua.int64)) == 2 and ua.mean(i, dtype=ua.int64).dtype == ua.int64
    with pytest.raises(TypeError):
        ua.mean(ua.asarray([1.5, 2.5]), dtype=ua.int64)
