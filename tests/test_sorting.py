"""sort and argsort: values, stability (equal keys keep their order, also
descending), axes, views, NaNs, every real dtype, errors; NumPy as oracle."""

import numpy as np
import pytest

import usmarray as ua
from conftest import sample


def _ties(shape, dtype, seed=0):
    """Data with many equal keys, so stability is visible in argsort."""
    h = sample(shape, dtype, seed)
    if np.dtype(dtype).kind in "iuf":
        h = (h % 5).astype(dtype)
    return h


def _np_argsort(h, axis, descending):
    if not descending:
        return np.argsort(h, axis=axis, kind="stable")
    # stable descending: sort the reversed array ascending, map back, reverse
    n = h.shape[axis]
    r = np.flip(np.argsort(np.flip(h, axis=axis), axis=axis, kind="stable"), axis=axis)
    return n - 1 - r


@pytest.mark.parametrize("shape, axis", [((37,), -1), ((5, 40), 1), ((5, 40), 0),
                                         ((3, 4, 50), 1), ((2, 1000), -1), ((0,), 0), ((4, 1), 1)])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort(dtype, shape, axis, descending):
    h = _ties(shape, dtype)
    x = ua.asarray(h)
    if np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            ua.sort(x)
        return
    s = ua.sort(x, axis=axis, descending=descending)
    exp = np.sort(h, axis=axis)
    if descending:
        exp = np.flip(exp, axis=axis)
    assert s.dtype == x.dtype and s.shape == h.shape
    np.testing.assert_array_equal(ua.asnumpy(s), exp)
    i = ua.argsort(x, axis=axis, descending=descending)
    assert i.dtype == ua.int64
    np.testing.assert_array_equal(ua.asnumpy(i), _np_argsort(h, axis, descending))


def test_sort_nans_views_and_large():
    h = np.array([3.0, np.nan, -np.inf, 0.0, np.nan, 1.0, -0.0], "f4")
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(ua.asarray(h))), np.sort(h))
    np.testing.assert_array_equal(ua.asnumpy(ua.argsort(ua.asarray(h))),
                                  np.argsort(h, kind="stable"))
    m = sample((30, 40), np.int32)
    v, hv = ua.asarray(m)[::-3, 1::2], m[::-3, 1::2]
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(v, axis=0)), np.sort(hv, axis=0))
    big = sample((200003,), np.float32)
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(ua.asarray(big))), np.sort(big))
    x = ua.asarray(big)
    assert not np.shares_memory(ua.asnumpy(x), ua.asnumpy(ua.sort(x)))
    np.testing.assert_array_equal(ua.asnumpy(x), big)   # the input is untouched


def test_sort_errors():
    with pytest.raises(ValueError):
        ua.sort(ua.asarray(1.0))
    with pytest.raises(IndexError):
        ua.sort(ua.ones((2, 3)), axis=2)
    with pytest.raises(TypeError):
        ua.argsort(np.ones(3))
