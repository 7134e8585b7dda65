"""usmarray.testing: NumPy's assertions on usm_ndarrays and NumPy arrays
(either side), compared on the device, failing with NumPy's messages."""

import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports, sample

HAS_F64 = device_supports(ua.float64)
T = ua.testing
FLOATS = ["float32"] + (["float64"] if HAS_F64 else [])


def _message(fn, *args, **kwargs):
    with pytest.raises(AssertionError) as e:
        fn(*args, **kwargs)
    return str(e.value)


@pytest.mark.parametrize("dt", ["int32", "bool", "complex64"] + FLOATS)
def test_passing_comparisons(variant, dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    for a, b in ((x, h), (h, x), (x, ua.asarray(h)), (x, h.tolist())):
        T.assert_array_equal(a, b)
        T.assert_allclose(a, b)
        T.assert_array_almost_equal(a, b)
    T.assert_array_equal(ua.asarray(np.zeros(3)), 0.0)     # a 0-d one broadcasts


@pytest.mark.parametrize("dt", FLOATS + ["complex64"])
def test_nans_and_infs(variant, dt):
    h = sample((8,), dt)
    h[1] = np.nan
    h[2] = np.inf
    h[3] = -np.inf
    x = ua.asarray(h)
    T.assert_array_equal(x, h)
    T.assert_allclose(x, h)
    T.assert_array_almost_equal(x, h)
    g = h.copy()
    g[1] = 0
    _message(T.assert_array_equal, x, g)
    _message(T.assert_allclose, x, g)
    _message(T.assert_array_almost_equal, x, g)
    with pytest.raises(AssertionError):
        T.assert_allclose(x, h, equal_nan=False)


def test_tolerances(variant):
    h = np.array([1.0, 2.0, 3.0], np.float32)
    x = ua.asarray(h)
    T.assert_allclose(x, h * (1 + 1e-8))
    T.assert_allclose(x, h + 0.01, atol=0.02)
    T.assert_allclose(x, h * 1.01, rtol=0.02)
    with pytest.raises(AssertionError):
        T.assert_allclose(x, h * 1.01, rtol=1e-3)
    T.assert_array_almost_equal(x, h + 1e-7)
    T.assert_array_almost_equal(x, h + 0.04, decimal=1)
    with pytest.raises(AssertionError):
        T.assert_array_almost_equal(x, h + 0.04, decimal=2)


def test_failure_messages_are_numpys():
    h = np.arange(12.0).reshape(3, 4)
    g = h.copy()
    g[1, 2] += 1
    x = ua.asarray(h)
    for fn, kw in ((T.assert_allclose, {}), (T.assert_array_equal, {}),
                   (T.assert_array_almost_equal, {}), (T.assert_allclose, {"err_msg": "ctx"})):
        got = _message(fn, x, g, **kw)
        expected = _message(getattr(np.testing, fn.__name__), h, g, **kw)
        assert got == expected
        assert "Mismatched elements: 1 / 12" in got
    assert _message(T.assert_array_equal, x, h[:2]) == _message(np.testing.assert_array_equal,
                                                                 h, h[:2])
    assert "shapes" in _message(T.assert_allclose, x, h[:2])


def test_strict():
    h = np.arange(4.0)
    x = ua.asarray(h)
    T.assert_array_equal(x, h, strict=True)
    with pytest.raises(AssertionError):
        T.assert_array_equal(x, h.astype(np.float32), strict=True)
    with pytest.raises(AssertionError):
        T.assert_allclose(x, 1.0, strict=True)


def test_numpy_only_and_foreign_data():
    T.assert_allclose(np.ones(3), np.ones(3))
    with pytest.raises(AssertionError):
        T.assert_array_equal(np.ones(3), np.zeros(3))
    T.assert_array_equal(np.array(["a"]), np.array(["a"]))   # (no usm_ndarray: NumPy's)


def test_int64_beside_uint64_compares_exactly():
    # (their promoted type, float64, would call 2**63 - 1 and 2**63 equal)
    for a, b in (([2 ** 63 - 1], [2 ** 63]), ([2 ** 53 + 1], [2 ** 53]), ([-1], [2 ** 64 - 1])):
        x, y = np.array(a, np.int64), np.array(b, np.uint64)
        for u, v in ((ua.asarray(x), ua.asarray(y)), (ua.asarray(x), y), (y, ua.asarray(x))):
            with pytest.raises(AssertionError):
                T.assert_array_equal(u, v)


@pytest.mark.parametrize("dt", ["int32"] + FLOATS)
def test_assert_array_less(variant, dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    T.assert_array_less(x, h + 1)
    T.assert_array_less(h - 1, x)
    got = _message(T.assert_array_less, x, h)
    assert got == _message(np.testing.assert_array_less, h, h)
    if dt != "int32":
        g = h.copy()
        g[0, 0] = np.nan
        T.assert_array_less(ua.asarray(g), g + 1)       # NaNs at the same places pass
        with pytest.raises(AssertionError):
            T.assert_array_less(ua.asarray(g), h + 1)
    with pytest.raises(AssertionError):   # (another dtype)
        T.assert_array_less(x, (h + 1).astype(np.int64 if dt == "int32" else np.float16),
                            strict=True)


def test_assert_equal_almost_equal_and_lists():
    h = np.array([0.0, -0.0, np.nan, 1.5])
    h = h if HAS_F64 else h.astype(np.float32)
    x = ua.asarray(h)
    T.assert_equal(x, x)
    T.assert_equal(x, h)
    T.assert_equal({"a": [x, 1], "b": (2.5, "s")}, {"a": [h, 1], "b": (2.5, "s")})
    T.assert_equal(ua.asarray(np.float32(-0.0)), ua.asarray(np.float32(0.0)))  # (as arrays do)
    for bad in (({"a": x}, {"a": h + 1}), ([x, 1], [x, 2]), ([x], [x, x]), (x, h[:2])):
        with pytest.raises(AssertionError):
            T.assert_equal(*bad)
    T.assert_equal(3, 3)
    with pytest.raises(AssertionError):
        T.assert_equal("a", "b")
    T.assert_almost_equal(x, h + 1e-8)
    T.assert_almost_equal(1.0, 1.0 + 1e-9)
    with pytest.raises(AssertionError):
        T.assert_almost_equal(x, h + 1e-3, decimal=4)
    T.assert_array_list_equal([x, x], [h, h])
    with pytest.raises(AssertionError, match="size"):
        T.assert_array_list_equal([x], [h, h])
    with pytest.raises(AssertionError):
        T.assert_array_list_equal([x, x], [h, h + 1])
