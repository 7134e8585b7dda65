"""unique_values, unique_counts, unique_inverse, unique_all and isin against
NumPy (each NaN distinct, as the standard asks), every real dtype."""

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, sample

REAL = [d for d in (ua.bool, ua.int8, ua.uint8, ua.int32, ua.int64, ua.uint64, ua.float32)]


def _data(shape, dtype):
    h = sample(shape, dtype)
    if np.dtype(dtype).kind in "iuf":
        h = (h % 7).astype(dtype)      # repeats
    return h


@pytest.mark.parametrize("dtype", REAL, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(20,), (4, 9), (0,), (1,)])
def test_unique(dtype, shape):
    h = _data(shape, dtype)
    x = ua.asarray(h)
    vals, idx, inv, counts = np.unique(h, return_index=True, return_inverse=True,
                                       return_counts=True)
    np.testing.assert_array_equal(ua.asnumpy(ua.unique_values(x)), vals)
    c = ua.unique_counts(x)
    np.testing.assert_array_equal(ua.asnumpy(c.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(c.counts), counts)
    i = ua.unique_inverse(x)
    np.testing.assert_array_equal(ua.asnumpy(i.values), vals)
    assert i.inverse_indices.shape == h.shape
    np.testing.assert_array_equal(ua.asnumpy(i.inverse_indices), inv.reshape(h.shape))
    a = ua.unique_all(x)
    np.testing.assert_array_equal(ua.asnumpy(a.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(a.indices), idx)
    np.testing.assert_array_equal(ua.asnumpy(a.inverse_indices), inv.reshape(h.shape))
    np.testing.assert_array_equal(ua.asnumpy(a.counts), counts)
    assert a.indices.dtype == ua.int64 and a.counts.dtype == ua.int64


def test_unique_nans_and_signed_zeros():
    h = np.array([np.nan, 0.0, -0.0, 1.0, np.nan, 1.0], "f4")
    x = ua.asarray(h)
    v = ua.asnumpy(ua.unique_values(x))
    np.testing.assert_array_equal(v, np.array([0.0, 1.0, np.nan, np.nan], "f4"))
    c = ua.unique_counts(x)
    np.testing.assert_array_equal(ua.asnumpy(c.counts), [2, 2, 1, 1])
    inv = ua.asnumpy(ua.unique_inverse(x).inverse_indices)
    np.testing.assert_array_equal(v[inv][~np.isnan(h)], h[~np.isnan(h)])


@pytest.mark.parametrize("dtype", REAL, ids=lambda d: d.name)
def test_isin(dtype):
    a = _data((5, 6), dtype)
    b = _data((4,), dtype)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x1, x2)), np.isin(a, b))
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x1, x2, invert=True)),
                                  np.isin(a, b, invert=True))


def test_isin_mixed_scalars_nans_and_errors():
    a = np.array([1.0, np.nan, 3.0, 4.0], "f4")
    x = ua.asarray(a)
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, ua.asarray(np.array([np.nan, 4.0])))),
                                  [False, False, False, True])
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, 3.0)), [False, False, True, False])
    assert bool(ua.isin(2, ua.asarray([1, 2]))) is True
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, ua.asarray(np.empty(0, "f4")))),
                                  np.zeros(4, bool))
    empty_view = ua.asarray(np.zeros((0, 8), bool))[:, ::2]   # (no elements, not contiguous)
    for inv in (False, True):
        r = ua.isin(empty_view, ua.asarray([True]), invert=inv)
        assert r.shape == (0, 4) and r.dtype == ua.bool
    with pytest.raises(TypeError):
        ua.isin(1, 2)
    with pytest.raises(TypeError):
        ua.unique_values(np.ones(3))


def test_isin_signed_against_uint64_is_exact():
    """int64 with uint64 promotes to float64, where integers above 2**53
    collide: isin compares them as integers, as NumPy does."""
    a = np.array([2 ** 62 + 1, 7, -1, 2 ** 63 - 1, 0], np.int64)
    b = np.array([2 ** 62, 7, 2 ** 64 - 1, 2 ** 63 - 1], np.uint64)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    for p, q, xp, xq in ((a, b, x1, x2), (b, a, x2, x1)):
        for inv in (False, True):
            np.testing.assert_array_equal(ua.asnumpy(ua.isin(xp, xq, invert=inv)),
                                          np.isin(p, q, invert=inv))
    np.testing.assert_array_equal(ua.asnumpy(ua.setdiff1d(x1, x2)), np.setdiff1d(a, b))


def test_isin_scalars_take_the_arrays_dtype():
    u = ua.asarray(np.array([1, 2 ** 64 - 1], np.uint64))
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(u, 2 ** 64 - 1)), [False, True])
    assert bool(ua.isin(2 ** 64 - 1, u)) is True
    # beyond the dtype: equal to nothing (NumPy compares the values)
    i8 = ua.asarray(np.array([1, -1], np.int8))
    for s in (300, -129, 2 ** 70):
        np.testing.assert_array_equal(ua.asnumpy(ua.isin(i8, s)), [False, False])
        np.testing.assert_array_equal(ua.asnumpy(ua.isin(i8, s, invert=True)), [True, True])
        assert bool(ua.isin(s, i8)) is False
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(u, -1)), [False, False])
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(ua.asarray([True, False]), 1)),
                                  [True, False])


def _unique_oracle_case(h, axis, flags):
    expected = np.unique(h, axis=axis, return_index=flags[0], return_inverse=flags[1],
                         return_counts=flags[2])
    got = np.unique(ua.asarray(h), axis=axis, return_index=flags[0],
                    return_inverse=flags[1], return_counts=flags[2])
    if not any(flags):
        expected, got = (expected,), (got,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = ua.asnumpy(g)
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex64"])
@pytest.mark.parametrize("shape, axis", [((6, 3), 0), ((6, 3), 1), ((2, 5, 3), 1),
                                         ((2, 5, 3), -1), ((3, 0), 0), ((0, 3), 0), ((4,), 0)])
def test_numpy_unique_along_an_axis(dtype, shape, axis):
    h = (np.arange(int(np.prod(shape))).reshape(shape) * 7 % 3).astype(dtype)
    if h.ndim > 1 and h.shape[0] > 3:
        h[3] = h[0]      # equal slices
    for flags in ((False, False, False), (True, True, True), (False, True, False)):
        _unique_oracle_case(h, axis, flags)


def test_numpy_unique_along_an_axis_nans_and_zeros():
    h = np.array([[1.0, np.nan], [0.0, 2.0], [1.0, np.nan], [-0.0, 2.0], [0.0, 1.0]])
    _unique_oracle_case(h, 0, (True, True, True))
    x = ua.asarray(h)
    assert ua.unique(x, axis=0).shape == (4, 2)
    with pytest.raises(ValueError):   # (NumPy's AxisError)
        np.unique(x, axis=2)


@pytest.mark.parametrize("axis", [0, -1])
def test_numpy_unique_along_the_axis_of_1d_is_flat(axis):
    """NumPy reads a 1-d array's axis as axis=None: NaNs merge (equal_nan);
    unique_along kept each NaN apart (from a fuzz)."""
    for h in (np.array([np.nan, np.nan, 1.0, np.nan, -2.0]),
              np.array([complex(np.nan, 0), 1j, complex(np.nan, 0)])):
        _unique_oracle_case(h, axis, (True, True, True))
        got = ua.unique(ua.asarray(h), axis=axis, return_counts=True)
        expected = np.unique(h, axis=axis, return_counts=True)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(ua.asnumpy(g), e)
    with pytest.raises(ValueError):
        ua.unique(ua.asarray(np.arange(3.0)), axis=1)


def test_unique_complex():
    h = np.array([1 + 2j, 1 - 1j, 1 + 2j, -3 + 0j, 1 - 1j], "c8")
    x = ua.asarray(h)
    vals, idx, inv, counts = np.unique(h, return_index=True, return_inverse=True,
                                       return_counts=True)
    a = ua.unique_all(x)
    np.testing.assert_array_equal(ua.asnumpy(a.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(a.indices), idx)
    np.testing.assert_array_equal(ua.asnumpy(a.inverse_indices), inv)
    np.testing.assert_array_equal(ua.asnumpy(a.counts), counts)


# Large enough for the radix sort and for several blocks of unique_count
# (at most 1024 blocks: 5000 items give runs of 5), both kernel forms.
@pytest.fixture(params=["cpu", "generic"])
def variant(request):
    kc = ua.asarray([0])._q.kc
    saved = kc.simd
    kc.simd = saved and request.param == "cpu"
    yield request.param
    kc.simd = saved


def _check_unique(h, x=None):
    x = ua.asarray(h) if x is None else x
    vals, idx, inv, counts = np.unique(h, return_index=True, return_inverse=True,
                                       return_counts=True)
    np.testing.assert_array_equal(ua.asnumpy(ua.unique_values(x)), vals)
    c = ua.unique_counts(x)
    np.testing.assert_array_equal(ua.asnumpy(c.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(c.counts), counts)
    i = ua.unique_inverse(x)
    np.testing.assert_array_equal(ua.asnumpy(i.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(i.inverse_indices), inv.reshape(h.shape))
    a = ua.unique_all(x)
    np.testing.assert_array_equal(ua.asnumpy(a.values), vals)
    np.testing.assert_array_equal(ua.asnumpy(a.indices), idx)
    np.testing.assert_array_equal(ua.asnumpy(a.inverse_indices), inv.reshape(h.shape))
    np.testing.assert_array_equal(ua.asnumpy(a.counts), counts)


ALL_REAL = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind != "c"]


@pytest.mark.parametrize("dtype", ALL_REAL, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1023,), (1025,), (50, 100)])
def test_unique_large(variant, dtype, shape):
    h = sample(shape, dtype, seed=shape[0])
    if np.dtype(dtype).kind in "iuf":
        h = (h % 37).astype(dtype)
    _check_unique(h)


def test_unique_all_distinct_all_equal_and_views(variant):
    h = np.random.default_rng(1).permutation(5000).astype(np.int64)
    _check_unique(h)                       # every value its own group
    _check_unique(np.full(3000, -4, np.int16))
    m = (sample((60, 80), np.float32) % 9).astype(np.float32)
    _check_unique(m[::-2, 1::3], ua.asarray(m)[::-2, 1::3])
    c = (sample((700,), np.complex64) * 2).round().astype(np.complex64)
    _check_unique(c)


def test_unique_large_nans(variant):
    h = np.tile(np.array([np.nan, 2.0, -0.0, 0.0, np.nan, 1.0], "f8"), 100)
    x = ua.asarray(h)
    v = ua.asnumpy(ua.unique_values(x))
    assert v.shape == (203,) and np.all(np.isnan(v[3:]))
    np.testing.assert_array_equal(v[:3], [0.0, 1.0, 2.0])
    c = ua.unique_counts(x)
    np.testing.assert_array_equal(ua.asnumpy(c.counts), [200, 100, 100] + [1] * 200)
    inv = ua.asnumpy(ua.unique_inverse(x).inverse_indices)
    ok = ~np.isnan(h)
    np.testing.assert_array_equal(v[inv][ok], h[ok])
    assert len(set(inv[~ok].tolist())) == 200


def test_isin_large(variant):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3000, 5000)
    b = rng.integers(0, 3000, 2000)
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(ua.asarray(a), ua.asarray(b))), np.isin(a, b))
    f = a.astype(np.float32)
    f[::17] = np.nan
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(ua.asarray(f), ua.asarray(f[:700]))),
                                  np.isin(f, f[:700]))


def test_isin_views_zeros_and_types(variant):
    rng = np.random.default_rng(3)
    m = rng.integers(-50, 50, (40, 30)).astype(np.float64)
    m[::7, ::5] = -0.0
    b = np.array([0.0, 3.0, -7.0, 49.0, np.nan] * 60)
    x, y = ua.asarray(m), ua.asarray(b)
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x[::-2, 1::3], y)), np.isin(m[::-2, 1::3], b))
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x.T, y, invert=True)), np.isin(m.T, b, invert=True))
    i = rng.integers(0, 255, 3000).astype(np.uint8)
    j = rng.integers(0, 10, 500).astype(np.int16)     # promoted to int16
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(ua.asarray(i), ua.asarray(j))), np.isin(i, j))


def test_numpy_unique_index_of_merged_complex_nans():
    """The merged NaN's index points at the NaN returned (the first in sorted
    order, as NumPy's), not the first NaN of x (from a fuzz)."""
    h = np.array([complex(np.nan, 0), complex(1, np.nan), 2 + 0j, complex(np.nan, 5)])
    got = np.unique(ua.asarray(h), return_index=True, return_inverse=True, return_counts=True)
    expected = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(ua.asnumpy(g), e)
    v, i = (ua.asnumpy(a) for a in got[:2])
    np.testing.assert_array_equal(h[i], v)
