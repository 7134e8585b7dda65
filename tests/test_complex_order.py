"""Ordering of complex numbers against NumPy: lexicographic (real part, then
imaginary part), NaNs last in sorts ([R + Rj, R + nanj, nan + Rj, nan + nanj]),
false in comparisons, propagating in maximum/minimum and max/min, the first
NaN winning argmax/argmin. Every function in both kernel variants."""

import warnings

import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

nan = np.nan
CDTYPES = [d for d in (np.complex64, np.complex128) if device_supports(np.dtype(d))]

# ties, signed zeros, infinities and NaNs in each part
VALUES = [1 + 2j, 1 + 1j, complex(nan, 0), complex(0, nan), complex(nan, nan), 5j, 1 + 1j,
          -1 - 1j, complex(2, nan), complex(nan, -3), 3 + 0j, complex(3, -0.0), complex(-np.inf, 1),
          complex(np.inf, -np.inf), complex(0, np.inf), -0.0 + 0j, 0j, 1 + 2j]
FINITE = [v for v in VALUES if not np.isnan(v)]


def _host(x):
    return ua.asnumpy(x) if isinstance(x, ua.usm_ndarray) else x


def same(got, expected):
    g, e = _host(got), np.asarray(expected)
    assert g.shape == e.shape, (g.shape, e.shape)
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    assert np.array_equal(g, e, equal_nan=True), (g, e)


@pytest.fixture(params=CDTYPES, ids=lambda d: np.dtype(d).name)
def cdt(request):
    return request.param


def _data(cdt, values=VALUES, seed=0):
    return np.array(values, dtype=cdt)


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "maximum",
                                  "minimum"])
def test_binary(name, cdt, variant):
    h = _data(cdt)
    rng = np.random.default_rng(1)
    for other in (h[::-1].copy(), rng.permutation(h), h):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(np, name)(h, other)
        same(getattr(ua, name)(ua.asarray(h), ua.asarray(other)), expected)
    # a scalar operand and the operators
    same(getattr(ua, name)(ua.asarray(h), 1 + 1j), getattr(np, name)(h, cdt(1 + 1j)))


def test_operators(cdt):
    h = _data(cdt)
    x, y = ua.asarray(h), ua.asarray(h[::-1].copy())
    same(x < y, h < h[::-1])
    same(x >= y, h >= h[::-1])
    same(x > 1, h > 1)


@pytest.mark.parametrize("values", [VALUES, FINITE], ids=["with_nan", "finite"])
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_reductions(name, values, cdt, variant):
    h = _data(cdt, values)
    same(getattr(ua, name)(ua.asarray(h)), getattr(np, name)(h))
    # rows: the vector-block and generic row kernels, columns: reduce_cols
    rng = np.random.default_rng(2)
    h2 = rng.choice(h, size=(7, 40))
    for axis in (0, 1):
        same(getattr(ua, name)(ua.asarray(h2), axis=axis), getattr(np, name)(h2, axis=axis))
    long = rng.choice(h, size=5000)
    same(getattr(ua, name)(ua.asarray(long)), getattr(np, name)(long))


@pytest.mark.parametrize("n", [1, 5, 16, 17, 100, 1000])
def test_sort_argsort(n, cdt, variant):
    rng = np.random.default_rng(n)
    # small integer parts: many ties, so stability shows
    h = (rng.integers(-3, 3, n) + 1j * rng.integers(-3, 3, n)).astype(cdt)
    h = np.concatenate([h, _data(cdt)[:n]])
    rng.shuffle(h)
    x = ua.asarray(h)
    same(ua.sort(x), np.sort(h))
    same(ua.argsort(x), np.argsort(h, kind="stable"))
    # descending: the ascending order reversed (NaNs first), stable
    same(ua.sort(x, descending=True), np.sort(h)[::-1])
    same(ua.argsort(x, descending=True), _stable_descending(h))


def _stable_descending(h):
    """argsort descending, equal elements in input order: the stable ascending
    order of the reversed input, reversed and mapped back."""
    n = h.shape[0]
    return (n - 1 - np.argsort(h[::-1], kind="stable"))[::-1]


def test_sort_axes(cdt):
    h = np.random.default_rng(3).choice(_data(cdt), size=(4, 6, 5))
    for axis in (0, 1, -1):
        same(ua.sort(ua.asarray(h), axis=axis), np.sort(h, axis=axis))
        same(ua.argsort(ua.asarray(h), axis=axis), np.argsort(h, axis=axis, kind="stable"))


def test_top_k(cdt):
    h = _data(cdt, FINITE)
    x = ua.asarray(h)
    r = ua.top_k(x, 4)
    order = np.argsort(h, kind="stable")
    same(r.values, np.sort(h)[::-1][:4])
    same(ua.take(x, r.indices), r.values)
    r = ua.top_k(x, 4, mode="smallest")
    same(r.values, np.sort(h)[:4])
    same(r.indices, order[:4])


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(side, cdt):
    s = np.sort(_data(cdt))
    v = np.concatenate([_data(cdt), np.array([10 + 0j, -10j, complex(nan, 7)], dtype=cdt)])
    same(ua.searchsorted(ua.asarray(s), ua.asarray(v), side=side), np.searchsorted(s, v, side=side))
    same(ua.searchsorted(ua.asarray(s), 1 + 1j, side=side),
         np.asarray(np.searchsorted(s, cdt(1 + 1j), side=side)))
    # sorter
    h = _data(cdt)
    order = np.argsort(h, kind="stable")
    same(ua.searchsorted(ua.asarray(h), ua.asarray(v), side=side, sorter=ua.asarray(order)),
         np.searchsorted(h, v, side=side, sorter=order))


def test_unique_order(cdt):
    h = np.concatenate([_data(cdt), _data(cdt)[::2]])
    x = ua.asarray(h)
    # NumPy's sort order; each NaN distinct (the array API's rule)
    same(ua.unique_values(x), np.unique(h, equal_nan=False))
    vals, idx, inv, cnt = ua.unique_all(x)
    ev, ei, einv, ecnt = np.unique(h, return_index=True, return_inverse=True, return_counts=True,
                                   equal_nan=False)
    same(vals, ev)
    same(idx, ei)
    same(inv, einv.reshape(h.shape))
    same(cnt, ecnt)


def test_isin(cdt):
    h = _data(cdt)
    same(ua.isin(ua.asarray(h), ua.asarray(h[:5])), np.isin(h, h[:5]))
    same(ua.isin(ua.asarray(h), ua.asarray(h[5:]), invert=True), np.isin(h, h[5:], invert=True))
