"""What a NumPy user writes in the first hour, against NumPy (issue 32,
silent wrong results): integer indexing gives a value that does not change
afterwards (the swap idiom, np.random.shuffle), out= that cannot hold the
result raises, Python scalars stored into arrays and combined with bool
arrays follow NumPy, shapes NumPy rejects are rejected."""

import warnings

import numpy as np
import pytest

import usmarray as ua


def _host(x):
    return ua.asnumpy(x)


# ------------------------------------------------------------ out= that cannot hold the result
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("odt", ["i1", "i2", "i4", "u8", "f8", "?"])
def test_arg_reductions_out_must_hold_int64(name, odt):
    x = ua.arange(1000)
    out = ua.empty((), dtype=odt)
    with pytest.raises(TypeError):
        getattr(ua, name)(x, out=out)
    with pytest.raises(ValueError):     # dpctl.tensor's error type too
        getattr(ua, name)(x, out=out)
    # through NumPy's functions and the method
    with pytest.raises(TypeError):
        getattr(np, name)(x, out=out)
    with pytest.raises(TypeError):
        getattr(x, name)(out=out)
    with pytest.raises(TypeError):
        getattr(ua, "nan" + name)(ua.asarray([1.0, np.nan, 3.0]), out=out)
    ok = ua.empty((), dtype="i8")
    r = getattr(ua, name)(x, out=ok)
    assert r is ok and int(ok) == getattr(np, name)(np.arange(1000))
    assert int(getattr(np, name)(x, out=ok)) == getattr(np, name)(np.arange(1000))


def _out_cases():
    f = ua.asarray(np.linspace(-2, 2, 12).reshape(3, 4))
    idx = ua.asarray([0, 2])
    return [
        ("add", lambda o: ua.add(f, f, out=o), (3, 4)),
        ("sin", lambda o: ua.sin(f, out=o), (3, 4)),
        ("where", lambda o: ua.where(f > 0, f, 0.5, out=o), (3, 4)),
        ("clip", lambda o: ua.clip(f, 0, 1, out=o), (3, 4)),
        ("matmul", lambda o: ua.matmul(f, f.T, out=o), (3, 3)),
        ("sum", lambda o: ua.sum(f, axis=0, out=o), (4,)),
        ("prod", lambda o: ua.prod(f, axis=0, out=o), (4,)),
        ("max", lambda o: ua.max(f, axis=0, out=o), (4,)),
        ("min", lambda o: ua.min(f, axis=0, out=o), (4,)),
        ("logsumexp", lambda o: ua.logsumexp(f, axis=0, out=o), (4,)),
        ("reduce_hypot", lambda o: ua.reduce_hypot(f, axis=0, out=o), (4,)),
        ("cumulative_sum", lambda o: ua.cumulative_sum(f, axis=0, out=o), (3, 4)),
        ("cumulative_prod", lambda o: ua.cumulative_prod(f, axis=0, out=o), (3, 4)),
        ("cumulative_logsumexp", lambda o: ua.cumulative_logsumexp(f, axis=0, out=o), (3, 4)),
        ("take", lambda o: ua.take(f, idx, axis=1, out=o), (3, 2)),
        ("np.add", lambda o: np.add(f, f, out=o), (3, 4)),
        # (np.sum casts into out as NumPy's does: test_numpy_protocols'
        # test_reductions_cast_into_out_as_numpy)
    ]


@pytest.mark.parametrize("case", range(len(_out_cases())))
def test_every_out_rejects_another_kind(case):
    """Every function with out=: a floating result into an integer or bool
    out raises (a TypeError as in NumPy's ufuncs, a ValueError as in
    dpctl.tensor); a wider type of the same kind is accepted."""
    name, call, shape = _out_cases()[case]
    for odt in ("i8", "?"):
        with pytest.raises(TypeError):
            call(ua.empty(shape, dtype=odt))
        with pytest.raises(ValueError):
            call(ua.empty(shape, dtype=odt))
    o = ua.empty(shape, dtype="f8")
    assert call(o) is o


# ------------------------------------------------------------ storing Python scalars
@pytest.mark.parametrize("dt", ["i1", "u1", "i2", "i4", "u4", "i8", "u8", "?", "f2", "f4", "f8"])
@pytest.mark.parametrize("value", [1.1, -1.9, 0.5, 7, True, np.float32(2.7), np.int16(3),
                                   np.float64(-0.2), 255.9])
def test_setitem_scalar_as_numpy(dt, value):
    """``int_array[:] = 1.1`` truncates, as NumPy and CuPy do (array-api-extra's
    test_incompatible_dtype expects it of non-strict libraries)."""
    h = np.zeros(4, dtype=dt)
    x = ua.zeros(4, dtype=dt)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            h[1:3] = value
            h[0] = value
    except (OverflowError, ValueError) as e:
        with pytest.raises(type(e)):
            x[1:3] = value
        return
    x[1:3] = value
    x[0] = value
    np.testing.assert_array_equal(_host(x), h)


@pytest.mark.parametrize("dt", ["i4", "f4", "?"])
def test_setitem_complex_into_real_raises_both_ways(dt):
    x = ua.zeros(3, dtype=dt)
    for value in (1j, np.complex64(1 + 1j), ua.asarray([1j, 2, 3]), np.array([1j, 2, 3])):
        with pytest.raises(TypeError):
            x[...] = value
        with pytest.raises(ValueError):
            x[...] = value
        with pytest.raises(ua.DTypeError):
            x[x == 0] = value if np.ndim(value) == 0 else value[:3]


# ------------------------------------------------------------ Python scalars with bool arrays
def test_python_scalars_with_bool_arrays():
    h = np.arange(-2, 3)
    x = ua.asarray(h)
    for f in (lambda b: 1 - b, lambda b: b - 1, lambda b: 1.5 - b, lambda b: b - 2.5,
              lambda b: (1 + 1j) - b, lambda b: b * 2, lambda b: b + 1, lambda b: 2 ** b,
              lambda b: b / 2, lambda b: b // 2, lambda b: b % 2):
        e = f(h > 0)
        r = f(x > 0)
        assert r.dtype == e.dtype, (r.dtype, e.dtype)
        np.testing.assert_array_equal(_host(r), e)
    assert ua.subtract(1, x > 0).dtype == ua.int64
    # NumPy raises for bool with bool, and for negative
    with pytest.raises(TypeError):
        (x > 0) - True
    with pytest.raises(TypeError):
        -(x > 0)
    # bool - bool arrays raise as in NumPy; bool beside a number array promotes
    with pytest.raises(TypeError):
        (x > 0) - (x < 0)
    r = (x > 0) - x
    assert r.dtype == ((h > 0) - h).dtype
    np.testing.assert_array_equal(_host(r), (h > 0) - h)


# ------------------------------------------------------------ integer indexing gives values
@pytest.mark.parametrize("dt", ["i8", "f4", "c8", "?"])
def test_swap_idiom(dt):
    h = np.arange(6).astype(dt)
    x = ua.asarray(h)
    for i, j in ((0, 1), (5, 2), (-1, 0), (3, 3)):
        x[i], x[j] = x[j], x[i]
        h[i], h[j] = h[j], h[i]
        np.testing.assert_array_equal(_host(x), h)
    # the same through NumPy integers, 0-d integer arrays and tuples
    h2 = np.arange(12).reshape(3, 4).astype(dt)
    x2 = ua.asarray(h2)
    x2[0, 1], x2[2, np.int64(3)] = x2[2, 3], x2[np.int32(0), 1]
    h2[0, 1], h2[2, 3] = h2[2, 3], h2[0, 1]
    k = ua.asarray(1)
    x2[k, 0], x2[0, k] = x2[0, k], x2[k, 0]
    h2[1, 0], h2[0, 1] = h2[0, 1], h2[1, 0]
    np.testing.assert_array_equal(_host(x2), h2)


def test_integer_index_is_a_value():
    x = ua.asarray([1.0, 2.0, 3.0])
    e = x[0]
    x[0] = 99
    assert float(e) == 1.0
    x2 = ua.ones((2, 3))
    e = x2[1, -1]
    x2[...] = 5
    assert float(e) == 1.0 and e.shape == ()
    # writing the value leaves the array alone
    e[...] = 7
    assert float(x2[1, -1]) == 5.0
    # iteration gives values too
    y = ua.asarray([1, 2, 3])
    a, b, c = y
    y[...] = 0
    assert (int(a), int(b), int(c)) == (1, 2, 3)
    # with an Ellipsis (or fewer integers than dimensions) a view, as in NumPy
    v = x[0, ...]
    x[0] = -1
    assert float(v) == -1.0
    row = x2[0]
    x2[0, 0] = 8
    assert float(row[0]) == 8.0
    # in-place operators on an element write back, as in NumPy
    x[1] += 10
    assert float(x[1]) == 12.0


def test_row_swap_is_numpys():
    """Rows are views (in NumPy too): the swap idiom on rows gives NumPy's
    (duplicated) result; x[[i, j]] = x[[j, i]] swaps them."""
    h = np.arange(6).reshape(3, 2)
    x = ua.asarray(h)
    x[0], x[1] = x[1], x[0]
    h[0], h[1] = h[1], h[0]
    np.testing.assert_array_equal(_host(x), h)
    h = np.arange(6).reshape(3, 2)
    x = ua.asarray(h)
    x[[0, 1]] = x[[1, 0]]
    h[[0, 1]] = h[[1, 0]]
    np.testing.assert_array_equal(_host(x), h)


@pytest.mark.filterwarnings("ignore:you are shuffling:UserWarning")
@pytest.mark.parametrize("n", [2, 10, 100])
def test_numpy_random_shuffle_and_permutation(n):
    h = np.arange(n)
    x = ua.arange(n)
    np.random.default_rng(7).shuffle(h)
    np.random.default_rng(7).shuffle(x)
    np.testing.assert_array_equal(_host(x), h)
    np.random.seed(3)
    np.random.shuffle(h)
    np.random.seed(3)
    np.random.shuffle(x)
    np.testing.assert_array_equal(_host(x), h)
    assert sorted(_host(x).tolist()) == list(range(n))
    # permutation copies (NumPy's function: a NumPy array), NumPy's order
    for a, ua_a in ((np.arange(n), ua.arange(n)),
                    (np.arange(3 * n).reshape(n, 3), ua.arange(3 * n).reshape(n, 3))):
        p = np.random.default_rng(5).permutation(ua_a)
        np.testing.assert_array_equal(np.asarray(p), np.random.default_rng(5).permutation(a))
        np.testing.assert_array_equal(_host(ua_a), a)   # the input is untouched


def test_shares_memory():
    x = ua.arange(10)
    h = np.asarray(x)                     # a host view of a CPU device's USM
    assert np.may_share_memory(h, x) and np.shares_memory(h, x)
    assert not np.shares_memory(x[::2], x[1::2])
    assert np.may_share_memory(x[::2], x[1::2])
    assert not np.may_share_memory(x, ua.arange(10))
    assert not np.shares_memory(x, np.arange(10))


# ------------------------------------------------------------ shapes NumPy rejects
class _Suai:
    def __init__(self, x, **change):
        self._x, self._change = x, change

    @property
    def __sycl_usm_array_interface__(self):
        d = dict(self._x.__sycl_usm_array_interface__)
        d.update(self._change)
        return d


@pytest.mark.parametrize("shape", [(0, 2 ** 64), (0, 2 ** 63), (2 ** 63, 0), (0, 2 ** 62, 4)])
def test_zero_size_shapes_past_int64_are_rejected(shape):
    with pytest.raises(ValueError):
        np.empty(shape)
    for make in (ua.empty, ua.zeros, lambda s: ua.full(s, 1.0), lambda s: ua.usm_ndarray(s),
                 lambda s: ua.broadcast_to(ua.ones(()), s), lambda s: ua.ones((0,)).reshape(s),
                 lambda s: ua.asarray(_Suai(ua.ones(3), shape=s, strides=None))):
        with pytest.raises(ValueError):
            make(shape)
    assert ua.empty((0, 2 ** 62)).shape == (0, 2 ** 62)


def test_bool_shape_entries():
    with pytest.raises(TypeError):
        np.empty((True,))
    with pytest.raises(TypeError):
        ua.empty((True,))
    x = ua.ones(3)
    with pytest.raises(ValueError):   # SUAI's shape holds ints
        ua.asarray(_Suai(x, shape=(True,), strides=None))
    with pytest.raises(ValueError):
        ua.asarray(_Suai(x, shape=(1,), strides=(True,)))
    y = ua.asarray(_Suai(x, shape=(2,), strides=None))
    assert y.shape == (2,) and all(type(s) is int for s in y.shape)
