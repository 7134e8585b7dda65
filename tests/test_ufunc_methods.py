"""NumPy's ufunc methods at, reduceat and outer on usm_ndarrays, and CuPy's
scatter_add/scatter_max/scatter_min, with NumPy as the oracle."""

import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports, sample

OPS = ["add", "subtract", "multiply", "maximum", "minimum", "bitwise_or", "bitwise_xor",
       "logical_and"]
DTYPES = [np.float64, np.float32, np.int32, np.int64, np.uint8, np.complex128, np.bool_]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", OPS)
def test_at_as_numpy(name, dt):
    if not device_supports(dt):
        pytest.skip("the device lacks the dtype")
    seed = OPS.index(name)
    f = getattr(np, name)
    h = sample((20,), dt, seed)
    idx = np.random.default_rng(seed).integers(-20, 20, 300)   # repeated and negative indices
    vals = sample((300,), dt, seed + 1)
    expected = h.copy()
    try:
        f.at(expected, idx, vals)
    except TypeError:
        with pytest.raises(TypeError):
            f.at(ua.asarray(h), ua.asarray(idx), ua.asarray(vals))
        return
    x = ua.asarray(h)
    assert f.at(x, ua.asarray(idx), ua.asarray(vals)) is None
    # each occurrence applied in turn, in index order: NumPy's values bit for bit
    np.testing.assert_array_equal(ua.asnumpy(x), expected)


def test_at_keys_values_and_layouts():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5))
    x = ua.asarray(a)
    # several index arrays (host lists), a scalar value
    np.add.at(a, ([0, 0, 1, 0], [2, 2, 3, 2]), 1.5)
    np.add.at(x, ([0, 0, 1, 0], [2, 2, 3, 2]), 1.5)
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    # a slice and an index array, values broadcast
    v = rng.standard_normal(3)
    np.multiply.at(a, (slice(None), [1, 1, 4]), v)
    np.multiply.at(x, (slice(None), [1, 1, 4]), ua.asarray(v))
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    # a transposed (non-contiguous) target
    t = np.zeros((5, 4)).T
    xt = ua.asarray(np.zeros((5, 4))).T
    np.subtract.at(t, [0, 3, 0], np.array([[1.0], [2.0], [4.0]]))
    np.subtract.at(xt, ua.asarray([0, 3, 0]), ua.asarray(np.array([[1.0], [2.0], [4.0]])))
    np.testing.assert_array_equal(ua.asnumpy(xt), t)
    # int target, float values: cast back unsafely, as NumPy does
    i = np.arange(5, dtype=np.int32) * 7
    xi = ua.asarray(i)
    np.add.at(i, [0, 0, 2], 1.5)
    np.add.at(xi, [0, 0, 2], 1.5)
    np.testing.assert_array_equal(ua.asnumpy(xi), i)
    # nothing selected: no change
    np.add.at(xi, ua.asarray(np.zeros(0, np.int64)), 1)
    np.testing.assert_array_equal(ua.asnumpy(xi), i)


def test_at_errors():
    x = ua.asarray(np.zeros(3))
    with pytest.raises(IndexError):
        np.add.at(x, [5], 1.0)
    with pytest.raises(TypeError, match="not supported"):
        np.sin.at(x, [0])
    ro = ua.asarray(np.zeros(3))
    ro.flags.writable = False
    with pytest.raises(ValueError, match="read-only"):
        np.add.at(ro, [0], 1.0)
    with pytest.raises(TypeError, match="host"):
        np.add.at(x, [0], np.ones(1))     # values are data: refused from the host
    np.testing.assert_array_equal(ua.asnumpy(x), np.zeros(3))


def test_scatter_add_max_min():
    h = np.zeros(6, np.float32)
    idx = np.array([0, 1, 1, 5, 5, 5])
    v = np.array([1, 2, 3, 4, -5, 6], np.float32)
    x = ua.asarray(h)
    ua.scatter_add(x, ua.asarray(idx), ua.asarray(v))
    e = h.copy()
    np.add.at(e, idx, v)
    np.testing.assert_array_equal(ua.asnumpy(x), e)
    ua.scatter_max(x, ua.asarray(idx), ua.asarray(v))
    np.maximum.at(e, idx, v)
    np.testing.assert_array_equal(ua.asnumpy(x), e)
    ua.scatter_min(x, ua.asarray(idx), ua.asarray(v))
    np.minimum.at(e, idx, v)
    np.testing.assert_array_equal(ua.asnumpy(x), e)


@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "maximum", "less"])
def test_outer(name):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal(3), rng.standard_normal((2, 4))
    f = getattr(np, name)
    got = f.outer(ua.asarray(a), ua.asarray(b))
    assert got.shape == (3, 2, 4)
    np.testing.assert_array_equal(ua.asnumpy(got), f.outer(a, b))
    np.testing.assert_array_equal(ua.asnumpy(f.outer(ua.asarray(a), 2.0)), f.outer(a, 2.0))


def test_at_scalars_and_edges():
    # scalars are arrays to NumPy's at (np.asarray: int64, float64, their own
    # NumPy type), not weak Python numbers
    cases = [(np.array([2 ** 53 + 1]), "add", np.int64(2)),
             (np.array([1, 0], np.int32), "bitwise_or", np.int32(2)),
             (np.array([1 + 2 ** -23], np.float32), "add", 2 ** -24 - 2 ** -50),
             (np.array([1 + 2 ** -23], np.float32), "add", np.float64(2 ** -24 - 2 ** -50)),
             (np.array([1], np.int8), "add", 300)]
    for h, name, s in cases:
        expected = h.copy()
        getattr(np, name).at(expected, [0], s)
        x = ua.asarray(h)
        getattr(np, name).at(x, [0], s)
        got = ua.asnumpy(x)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected, err_msg=f"{name} {s!r}")
    z = ua.asarray(np.array(5.0))
    np.add.at(z, (), 1.0)                     # a 0-d array, the empty key
    assert float(z) == 6.0
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power.at(ua.asarray(np.array([2, 3])), [0], -1)
    with pytest.raises(IndexError):
        np.add.at(ua.asarray(np.zeros((3, 3))), (np.array([0, 1, 2]), np.array([0, 1])), 1.0)
    with pytest.raises(ValueError):           # values checked also for an empty selection
        np.add.at(ua.asarray(np.zeros(3)), np.array([], int), ua.asarray(np.ones(2)))
    got = np.add.outer(ua.asarray(np.array([1, 2], np.int32)), 2)
    assert got.dtype == np.add.outer(np.array([1, 2], np.int32), 2).dtype


REDUCEAT_KEYS = [([0, 4, 1, 5], 0), ([0, 2, 6], 0), ([5, 5, 5], 0), ([0, 100, 50, 299], 1),
                 ([], 1), ([0], -1), ([0, 299], 1), (np.array([3, 0], np.uint8), 0)]
REDUCEAT_OPS = OPS + ["divide", "logical_or"]


@pytest.mark.parametrize("dt", DTYPES + [np.int8, np.uint16, np.float16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", REDUCEAT_OPS)
def test_reduceat_as_numpy(name, dt):
    if not device_supports(dt):
        pytest.skip("the device lacks the dtype")
    f = getattr(np, "power" if name == "pow" else name)
    h = sample((7, 300), dt, REDUCEAT_OPS.index(name))
    x = ua.asarray(h)
    for idx, axis in REDUCEAT_KEYS:
        try:
            expected = f.reduceat(h, idx, axis=axis)
        except TypeError:
            with pytest.raises(TypeError):
                f.reduceat(x, idx, axis=axis)
            continue
        got = f.reduceat(x, ua.asarray(idx) if len(idx) else idx, axis=axis)
        assert got.shape == expected.shape and got.dtype == expected.dtype, (idx, axis)
        g = ua.asnumpy(got)
        if expected.dtype.kind in "fc":
            # (NumPy adds pairwise, usmarray in nested runs: rounding apart)
            tol = 1e-2 if expected.dtype == np.float16 else 1e-5
            np.testing.assert_allclose(g, expected, rtol=tol, atol=tol, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, expected)


def test_reduceat_long_sum_dtype_and_out():
    # a long float32 run stays within NumPy's pairwise error of the exact sum
    h = np.random.default_rng(3).random(10 ** 6).astype(np.float32)
    got = float(ua.asnumpy(np.add.reduceat(ua.asarray(h), [0, 10]))[1])
    exact = float(np.sum(h[10:].astype(np.float64)))
    assert abs(got - exact) <= 4 * abs(float(np.add.reduceat(h, [0, 10])[1]) - exact) + 1e-3
    x = ua.asarray(np.arange(8))
    r = np.add.reduceat(x, [0, 4], dtype=np.float32)
    assert r.dtype == ua.float32 and ua.asnumpy(r).tolist() == [6.0, 22.0]
    out = ua.empty(2, dtype=ua.int64)
    assert np.add.reduceat(x, [0, 4], out=out) is out
    assert ua.asnumpy(out).tolist() == [6, 22]
    # subtract in order, within and across runs
    h = np.arange(1000)
    np.testing.assert_array_equal(ua.asnumpy(np.subtract.reduceat(ua.asarray(h), [0, 3, 999])),
                                  np.subtract.reduceat(h, [0, 3, 999]))
    assert np.add.reduceat(ua.zeros((0, 3)), [], axis=0).shape == (0, 3)
    assert np.add.reduceat(ua.zeros((2, 0)), [0, 1]).shape == (2, 0)


def test_reduceat_errors():
    x = ua.asarray(np.arange(8))
    for idx in ([-1], [8], [0, 9]):
        with pytest.raises(IndexError, match="out-of-bounds"):
            np.add.reduceat(x, idx)
    with pytest.raises(IndexError):
        np.add.reduceat(ua.zeros(0), [0])
    with pytest.raises(ValueError, match="1-d"):
        np.add.reduceat(x, [[0, 1]])
    with pytest.raises(TypeError, match="integers"):
        np.add.reduceat(x, [0.5])
    with pytest.raises(TypeError, match="no reduction"):
        np.less.reduceat(ua.asarray(np.arange(3.0)), [0])
    with pytest.raises(TypeError):
        np.add.reduceat(ua.asarray(np.float64(1.0)), [0])
    with pytest.raises(TypeError, match="keyword"):
        np.add.reduceat(x, [0], where=True)


def test_ufunc_methods_on_usmarray_functions():
    """CuPy's spelling: xp.add.at, xp.subtract.outer, xp.add.reduce, ...
    on usmarray's own functions, the same as np.<ufunc>.<method>."""
    h = np.zeros(5, np.int64)
    x = ua.asarray(h)
    ua.add.at(x, ua.asarray([0, 1, 1, 3]), 1)
    np.add.at(h, [0, 1, 1, 3], 1)
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    v = np.array([1.0, 2.0, 4.0])
    y = ua.asarray(v)
    np.testing.assert_array_equal(ua.asnumpy(ua.subtract.outer(y, y)), np.subtract.outer(v, v))
    np.testing.assert_array_equal(ua.asnumpy(ua.pow.outer(y, y)), np.power.outer(v, v))
    assert float(ua.add.reduce(y)) == 7.0
    np.testing.assert_array_equal(ua.asnumpy(ua.multiply.accumulate(y)), np.multiply.accumulate(v))
    np.testing.assert_array_equal(ua.asnumpy(ua.add.reduceat(ua.arange(8), [0, 4, 6])),
                                  np.add.reduceat(np.arange(8), [0, 4, 6]))
    assert not hasattr(ua.negative, "outer")   # (binary functions only)
    with pytest.raises(TypeError):
        ua.add.reduce([1, 2])


# ------------------------------------------------------- from a fuzz against NumPy
@pytest.mark.parametrize("h, idx", [(np.array([15, -3, 2, 5], np.int16), [0, 2]),
                                    (np.array([15, -3, 2, 5], np.int16), [1, 2]),
                                    (np.array([-15, 3, 2, -5], np.int16), [0, 3])], ids=str)
def test_power_reduceat_of_negative_integer_exponents(h, idx):
    """An integer raised to a negative power raises ValueError, as NumPy's
    (it gave 0); negative bases and first elements are fine."""
    try:
        expected = np.power.reduceat(h, idx)
    except ValueError:
        with pytest.raises(ValueError):
            np.power.reduceat(ua.asarray(h), idx)
        return
    np.testing.assert_array_equal(ua.asnumpy(np.power.reduceat(ua.asarray(h), idx)), expected)
