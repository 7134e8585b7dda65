"""Basic indexing (__getitem__) and assignment (__setitem__) against NumPy."""

import warnings

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES as DTYPES, device_supports as _device_supports, sample


S = slice


def _host(x):
    return ua.asnumpy(x)


def _zero_d(value, dtype=None):
    """A 0-d usm_ndarray built without asarray's scalar path."""
    return ua.full((), value, dtype=dtype)


def _pair(shape, dtype="i4"):
    h = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return ua.asarray(h), h


def _check_view(v, hv):
    """v (usm_ndarray) equals hv (NumPy) in shape, dtype, values, and in strides on
    every axis longer than one."""
    assert isinstance(v, ua.usm_ndarray)
    assert v.shape == hv.shape
    assert v.dtype == hv.dtype
    np.testing.assert_array_equal(_host(v), hv)
    isz = hv.itemsize
    for n, st, hst in zip(hv.shape, v.strides, hv.strides):
        if n > 1:
            assert st * isz == hst


KEYS_1D = [
    0, 1, 9, -1, -10, np.int64(3), np.int32(-2), np.uint8(4),
    S(None), S(2, 7), S(None, None, 2), S(1, None, 3), S(None, None, -1), S(8, 2, -2),
    S(-3, None), S(None, -3), S(-100, 100), S(100, 200), S(5, 5), S(7, 3), S(None, None, 20),
    S(None, None, -20), S(3, -100, -1), S(-1, -11, -1), S(0, 10, 11),
    Ellipsis, (Ellipsis,), (), None, (None,), (None, S(1, 4)), (S(1, 4), None),
    (Ellipsis, None), (None, Ellipsis), (None, None, 3), (Ellipsis, 3), (3, Ellipsis),
    (None, Ellipsis, None), (S(None, None, -3), None, Ellipsis),
]

KEYS_3D = [
    0, -1, 2, (1, 2), (1, 2, 3), (-2, -3, -4), (0, S(None), 1), (S(None), S(None), -1),
    S(None, None, -1), (S(None, None, -1), S(None, None, 2), S(1, None, 3)),
    (Ellipsis, 0), (Ellipsis, S(None, None, -2)), (0, Ellipsis), (1, Ellipsis, 2),
    (S(1, 2), Ellipsis, S(None, None, 3)), (Ellipsis, None), (None, Ellipsis),
    (None, 1, None, S(None, None, -1), None), (S(None), None, S(1, 3), None, 4),
    (Ellipsis, None, 2, None), (1, None, Ellipsis, None, S(2, 3)),
    (S(5, 1), S(None), S(None)), (S(None), S(3, 3)), (S(None), S(None), S(4, 0, -1)),
    (S(None), S(None, None, 100), S(None, None, -100)),
    (S(-1, -4, -1), S(-1, None, -3), S(None, None, 5)), (), Ellipsis,
    (np.int64(1), S(None), np.int16(-1)),
]


@pytest.mark.parametrize("key", KEYS_1D, ids=repr)
def test_getitem_1d(key):
    x, h = _pair((10,))
    _check_view(x[key], h[key])


@pytest.mark.parametrize("key", KEYS_3D, ids=repr)
def test_getitem_3d(key):
    x, h = _pair((3, 4, 6))
    _check_view(x[key], h[key])


@pytest.mark.parametrize("key", [(S(None, None, 2), 1), (S(None, None, -1), S(1, None)),
                                 (1, S(None, None, -2)), (Ellipsis, None, S(2, None, 3))],
                         ids=repr)
def test_getitem_of_views(key):
    x, h = _pair((6, 7, 5))
    base_key = (S(1, None, 2), S(None, None, -1), S(None, 4))
    xv, hv = x[base_key][1:], h[base_key][1:]
    _check_view(xv[key], hv[key])
    # and of a transposed view
    _check_view(ua.permute_dims(x, (2, 0, 1))[key], np.transpose(h, (2, 0, 1))[key])


def test_getitem_each_dtype(dtype):
    h = sample((4, 5), dtype)
    x = ua.asarray(h)
    for key in [(1, 2), (S(None, None, -1), S(1, None, 2)), (Ellipsis, -1), (None, 3)]:
        _check_view(x[key], h[key])
    item = x[2, 3]
    assert item.shape == ()
    assert _host(item) == h[2, 3]


def test_getitem_0d():
    x = _zero_d(7, dtype="i2")
    h = np.array(7, dtype="i2")
    for key in [(), Ellipsis, None, (None, None), (Ellipsis, None), (None, Ellipsis, None)]:
        _check_view(x[key], h[key])
    with pytest.raises(IndexError):
        x[0]
    with pytest.raises(IndexError):
        x[S(None)]


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4, 2)])
def test_getitem_zero_size(shape):
    x, h = _pair(shape)
    keys = [Ellipsis, S(None), S(None, None, -1), None, (Ellipsis, None)]
    if len(shape) > 1:
        keys += [(S(None), S(None, None, 2)), (Ellipsis, S(1, 3))]
        if shape[0] > 0:
            keys += [1, -1]
    for key in keys:
        v, hv = x[key], h[key]
        assert v.shape == hv.shape
        np.testing.assert_array_equal(_host(v), hv)
    with pytest.raises(IndexError):
        x[shape[0]]


@pytest.mark.parametrize("key", [
    lambda: _zero_d(2), lambda: _zero_d(-1), lambda: (_zero_d(1, "u1"), S(None, None, -1)),
    lambda: (Ellipsis, _zero_d(-2, "i2")), lambda: (_zero_d(0, "i8"), None, _zero_d(3, "u8")),
], ids=["2", "-1", "u1,slice", "ellipsis,i2", "i8,None,u8"])
def test_getitem_0d_usm_integer_index(key):
    x, h = _pair((3, 5))
    k = key()
    hk = tuple(int(_host(e)) if isinstance(e, ua.usm_ndarray) else e for e in
               (k if isinstance(k, tuple) else (k,)))
    _check_view(x[k], h[hk])


@pytest.mark.parametrize("key", [True, False, (True,), (False,), (Ellipsis, True),
                                 (True, Ellipsis), (S(1, None), True), (None, False),
                                 (S(None, None, -1), True, S(None, 2)), np.True_, np.False_],
                         ids=repr)
def test_getitem_boolean_scalar(key):
    x, h = _pair((3, 4))
    v, hv = x[key], h[key]
    assert v.shape == hv.shape
    np.testing.assert_array_equal(_host(v), hv)


def test_getitem_boolean_scalar_shapes():
    x = ua.empty((2, 3))
    assert x[True].shape == (1, 2, 3)
    assert x[False].shape == (0, 2, 3)
    assert _zero_d(4.0)[True].shape == (1,)
    assert _zero_d(4.0)[False].shape == (0,)
    assert float(_zero_d(4.0)[True][0]) == 4.0
    assert x[_zero_d(True)].shape == (1, 2, 3)
    assert x[_zero_d(False)].shape == (0, 2, 3)


def test_views_share_memory():
    x, h = _pair((4, 6))
    v = x[1:, ::-2]
    v[...] = -1
    h[1:, ::-2] = -1
    np.testing.assert_array_equal(_host(x), h)
    w = x[None, 2, Ellipsis][0, 1::3]
    w[...] = 100
    h[2, 1::3] = 100
    np.testing.assert_array_equal(_host(x), h)
    # an integer for every axis gives a copy (NumPy's scalar); with an
    # Ellipsis a 0-d view, as in NumPy
    e = x[1, 1]
    e[...] = 55
    np.testing.assert_array_equal(_host(x), h)
    e = x[1, 1, ...]
    e[...] = 55
    h[1, 1, ...] = 55
    np.testing.assert_array_equal(_host(x), h)
    b = x[True]
    b[0, 0, 0] = 77
    h[0, 0] = 77
    np.testing.assert_array_equal(_host(x), h)
    # nested views keep the queue and usm type
    assert v.sycl_queue == x.sycl_queue
    assert v.usm_type == x.usm_type


@pytest.mark.parametrize("key", [10, -11, (0, 6), (S(None), -7), (4, 0), 100, -(2 ** 40)],
                         ids=repr)
def test_index_out_of_bounds(key):
    x = ua.empty((4, 6)) if isinstance(key, tuple) else ua.empty(10)
    with pytest.raises(IndexError):
        x[key]


def test_usm_index_out_of_bounds():
    x = ua.empty(5)
    with pytest.raises(IndexError):
        x[_zero_d(5)]
    with pytest.raises(IndexError):
        x[_zero_d(-6)]


@pytest.mark.parametrize("key", [(0, 0, 0), (0, Ellipsis, 0, 0), (S(None),) * 3,
                                 (None, 0, None, 0, 0)], ids=repr)
def test_too_many_indices(key):
    with pytest.raises(IndexError):
        ua.empty((2, 3))[key]


def test_two_ellipses():
    x = ua.empty((2, 3))
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        x[..., 0, ...]


@pytest.mark.parametrize("key", [1.0, (0, 1.5), np.float64(1.0), "a", 1j, object(),
                                 (S(None), 2.0)], ids=repr)
def test_invalid_index_types(key):
    with pytest.raises(IndexError):
        ua.empty((3, 3))[key]


def test_float_0d_array_index():
    with pytest.raises(IndexError):
        ua.empty(3)[_zero_d(1.0)]


def test_slice_step_zero():
    x = ua.empty((3, 3))
    with pytest.raises(ValueError):
        x[::0]
    with pytest.raises(ValueError):
        x[:, 1:2:0]
    with pytest.raises(ValueError):
        x[::0] = 1.0


# ------------------------------------------------------------------ setitem
SET_KEYS = [Ellipsis, (), 1, -1, (1, 2), S(None, None, 2), (S(None), S(None, None, -1)),
            (S(None, None, -2), S(1, None, 3), 2), (Ellipsis, 1), (None, 0), (S(1, 3), None),
            (2, S(None), S(None, None, -1)), True]


def _py_scalar_for(dt):
    k = np.dtype(dt).kind
    return {"b": True, "i": -5, "u": 7, "f": 2.5, "c": 1.5 - 2j}[k]


@pytest.mark.parametrize("key", SET_KEYS, ids=repr)
def test_setitem_scalar(key, dtype):
    h = sample((4, 5, 6), dtype)
    x = ua.asarray(h)
    v = _py_scalar_for(dtype)
    x[key] = v
    h[key] = v
    np.testing.assert_array_equal(_host(x), h)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_setitem_bool_scalar_into_any_dtype(dt):
    h = sample((5,), dt)
    x = ua.asarray(h)
    x[1:3] = True
    x[::-4] = False
    h[1:3] = True
    h[::-4] = False
    np.testing.assert_array_equal(_host(x), h)


def test_setitem_int_into_float_and_complex():
    for dt in ["f2", "f4", "f8", "c8", "c16"]:
        if not _device_supports(np.dtype(dt)):
            continue
        x = ua.zeros(4, dtype=dt)
        x[1] = 3
        x[2:] = -2
        np.testing.assert_array_equal(_host(x), np.array([0, 3, -2, -2], dtype=dt))


def test_setitem_float_into_complex():
    x = ua.zeros(3, dtype="c8")
    x[0] = 2.5
    np.testing.assert_array_equal(_host(x), np.array([2.5, 0, 0], dtype="c8"))


def test_setitem_numpy_scalars():
    x = ua.zeros(4, dtype="f4")
    x[0] = np.float32(1.5)
    x[1] = np.float64(2.5)
    x[2] = np.int16(3)
    np.testing.assert_array_equal(_host(x), [1.5, 2.5, 3, 0])


@pytest.mark.parametrize("dt", ["i1", "u1", "i4", "i8", "u8", "?"])
def test_setitem_float_into_int_truncates(dt):
    """NumPy's (and CuPy's) cast of a stored Python or NumPy scalar: a float
    into an integer array truncates towards zero, into bool it is its truth
    value; NaN, infinities and values out of range raise as in NumPy."""
    for v in (1.5, -1.7, 2.0, np.float64(1.9), np.float32(-0.5), 0.0, 127.9):
        if dt[0] == "u" and v < 0:
            continue
        x, h = ua.zeros(3, dtype=dt), np.zeros(3, dtype=dt)
        x[0] = v
        h[0] = v
        x[1:] = v
        h[1:] = v
        np.testing.assert_array_equal(_host(x), h)
    x = ua.zeros(3, dtype=dt)
    if dt != "?":
        with pytest.raises(ValueError):
            x[0] = float("nan")
        with pytest.raises(OverflowError):
            x[...] = float("inf")
        with pytest.raises(OverflowError):
            x[...] = 1e30
    with pytest.raises(TypeError):
        x[0] = 1j
    np.testing.assert_array_equal(_host(x), np.zeros(3))


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "i4", "u1"])
def test_setitem_complex_into_real_raises(dt):
    x = ua.zeros(3, dtype=dt)
    with pytest.raises(TypeError):
        x[1] = 1 + 1j
    with pytest.raises(TypeError):
        x[...] = 0j


@pytest.mark.parametrize("dt", ["f4", "i4", "?"])
@pytest.mark.parametrize("cdt", ["c8", "c16"])
def test_setitem_complex_array_into_real_raises(dt, cdt):
    """A complex array into a real array is refused like a complex scalar,
    through every kind of index and from device and host arrays alike."""
    if not _device_supports(cdt) or not _device_supports(dt):
        pytest.skip("dtype not supported by the device")
    x = ua.zeros(4, dtype=dt)
    c = ua.asarray(np.array([1 + 2j, 3, 4, 5], dtype=cdt))
    for key, value in [(Ellipsis, c), (slice(1, 3), c[:2]), (0, c[0]),
                       (ua.asarray([0, 2]), c[:2]), (ua.asarray([True, False, True, False]), c[:2]),
                       (ua.asarray([True, False, False, False]), c[:1]),
                       (Ellipsis, ua.asnumpy(c)), (slice(None), [1j, 2, 3, 4])]:
        with pytest.raises(TypeError):
            x[key] = value
    np.testing.assert_array_equal(_host(x), np.zeros(4, dtype=dt))


def test_setitem_into_bool():
    x = ua.zeros(3, dtype="?")
    x[1] = True
    x[2] = np.True_
    np.testing.assert_array_equal(_host(x), [False, True, True])
    with pytest.raises(TypeError):
        x[0] = 1j


@pytest.mark.parametrize("dt,value", [("i1", 128), ("i1", -129), ("u1", 256), ("u1", -1),
                                      ("i2", 2 ** 15), ("u2", -1), ("i4", 2 ** 31),
                                      ("u4", 2 ** 32), ("i8", 2 ** 63), ("u8", 2 ** 64),
                                      ("u8", -1), ("i8", -(2 ** 63) - 1)])
def test_setitem_int_out_of_range(dt, value):
    x = ua.zeros(3, dtype=dt)
    with pytest.raises(OverflowError):
        x[0] = value
    with pytest.raises(OverflowError):
        x[1:] = value
    np.testing.assert_array_equal(_host(x), np.zeros(3))


@pytest.mark.parametrize("dt,value", [("i1", 127), ("i1", -128), ("u1", 255), ("u8", 2 ** 64 - 1),
                                      ("i8", -(2 ** 63)), ("i8", 2 ** 63 - 1), ("u4", 2 ** 32 - 1)])
def test_setitem_int_at_range_limits(dt, value):
    x = ua.zeros(3, dtype=dt)
    x[1] = value
    assert int(x[1]) == value
    assert int(x[0]) == 0


def test_setitem_read_only():
    x = ua.zeros((3, 3))
    x.flags.writable = False
    for key, value in [(0, 1.0), (Ellipsis, ua.ones(3)), ((S(None), 1), np.ones(3)),
                       (S(0, 0), 1.0), ((1, 1), [2.0])]:
        with pytest.raises(ValueError):
            x[key] = value
    np.testing.assert_array_equal(_host(x), np.zeros((3, 3)))


def test_setitem_read_only_broadcast_view():
    b = ua.broadcast_to(ua.zeros(3), (2, 3))
    with pytest.raises(ValueError):
        b[0, 0] = 1.0


@pytest.mark.parametrize("key,vshape", [
    (Ellipsis, (6,)), (Ellipsis, (1, 6)), (Ellipsis, (4, 1)), (Ellipsis, ()), (Ellipsis, (1, 1, 1)),
    ((S(None), S(None, None, -2)), (3,)), ((S(1, None, 2), S(None)), (2, 6)),
    ((S(None), None, S(2, 4)), (4, 1, 2)), ((S(None), None, S(2, 4)), (1, 2)),
    ((2, S(None, None, -1)), (1,)), ((S(None, None, -1), 3), (4,)), (1, (6,)),
    ((None, S(1, 3), S(None, None, 5)), (2, 1)),
], ids=repr)
def test_setitem_broadcast_usm_value(key, vshape):
    h = np.arange(24, dtype="f8").reshape(4, 6)
    x = ua.asarray(h)
    hv = -np.arange(int(np.prod(vshape)), dtype="f8").reshape(vshape) - 1
    x[key] = ua.asarray(hv) if vshape else _zero_d(float(hv))
    h[key] = hv
    np.testing.assert_array_equal(_host(x), h)


@pytest.mark.parametrize("value", [
    np.array([10, 20, 30, 40, 50, 60], dtype="i4"), np.array([[1], [2], [3], [4]], dtype="i8"),
    np.arange(24, dtype="i2").reshape(4, 6)[:, ::-1], np.asfortranarray(np.ones((4, 6), "i4")),
    [1, 2, 3, 4, 5, 6], [[7], [8], [9], [10]], [[1, 2, 3, 4, 5, 6]] * 4, (5,), [True] * 6,
    np.array(3, dtype="i4"), np.arange(6, dtype="i4").reshape(1, 1, 6),
], ids=lambda v: f"{type(v).__name__}{np.shape(v)}")
def test_setitem_broadcast_host_value(value):
    h = np.zeros((4, 6), dtype="i4")
    x = ua.asarray(h)
    x[...] = value
    h[...] = value
    np.testing.assert_array_equal(_host(x), h)
    # into a strided view
    h2 = np.zeros((8, 12), dtype="i4")
    x2 = ua.asarray(h2)
    x2[::2, ::-2] = value
    h2[::2, ::-2] = value
    np.testing.assert_array_equal(_host(x2), h2)


def test_setitem_nested_list_floats():
    x = ua.zeros((2, 3))
    x[...] = [[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]
    np.testing.assert_array_equal(_host(x), [[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]])
    x[1] = [0.25, 0.5, 0.75]
    np.testing.assert_array_equal(_host(x)[1], [0.25, 0.5, 0.75])


@pytest.mark.parametrize("value", [ua.ones(4), np.ones((2, 6)), [1, 2, 3], np.ones((5, 6))],
                         ids=["usm(4,)", "np(2,6)", "list3", "np(5,6)"])
def test_setitem_shape_mismatch(value):
    x = ua.zeros((4, 6))
    with pytest.raises(ValueError):
        x[...] = value
    np.testing.assert_array_equal(_host(x), np.zeros((4, 6)))


def test_setitem_bad_value_type():
    x = ua.zeros(3)
    with pytest.raises(TypeError):
        x[...] = "abc"
    with pytest.raises(TypeError):
        x[0] = None
    with pytest.raises(TypeError):
        x[0] = object()


def _cast_source(src_dt):
    # values representable in every dtype (0..100), with fractions for floating types
    k = np.dtype(src_dt).kind
    base = np.array([0, 1, 2, 7, 0, 100, 3, 45, 1, 99, 0, 64], dtype="f8")
    if k == "b":
        return (base > 2).astype(src_dt)
    if k in "iu":
        return base.astype(src_dt)
    if k == "f":
        return (base + 0.75 * (base < 90)).astype(src_dt)
    return (base + 0.5 + 1j * (base - 3)).astype(src_dt)


@pytest.mark.parametrize("src_dt", DTYPES, ids=str)
def test_setitem_casts_array_values(src_dt, dtype):
    hs = _cast_source(src_dt).reshape(3, 4)
    xs = ua.asarray(hs)
    h = np.zeros((3, 4), dtype=dtype)
    x = ua.asarray(h)
    if np.dtype(src_dt).kind == "c" and np.dtype(dtype).kind != "c":
        # dropping the imaginary part is refused, as for complex scalars
        for value in (xs, hs, xs[0]):
            with pytest.raises(TypeError):
                x[...] = value
        return
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        x[...] = xs
        h[...] = hs
        np.testing.assert_array_equal(_host(x), h)
        # strided/broadcast variant
        x2 = ua.zeros((3, 8), dtype=dtype)
        h2 = np.zeros((3, 8), dtype=dtype)
        x2[:, ::-2] = xs[0]
        h2[:, ::-2] = hs[0]
        np.testing.assert_array_equal(_host(x2), h2)
        # host value of another dtype
        x3 = ua.zeros((3, 4), dtype=dtype)
        x3[...] = hs
        np.testing.assert_array_equal(_host(x3), h)


def test_setitem_float_array_into_int_truncates():
    x = ua.zeros(6, dtype="i4")
    src = np.array([1.7, -1.7, 2.5, -2.5, 0.2, 99.9])
    x[...] = ua.asarray(src)
    np.testing.assert_array_equal(_host(x), src.astype("i4"))


@pytest.mark.parametrize("key", [S(2, 2), S(5, 1), (S(None), S(0, 0)), (False,), (Ellipsis, False)],
                         ids=repr)
def test_setitem_zero_size_target(key):
    h = np.arange(12.0).reshape(3, 4)
    x = ua.asarray(h)
    tshape = h[key].shape
    assert x[key].shape == tshape
    x[key] = 5.0
    x[key] = ua.ones(tshape)
    x[key] = ua.ones(1)
    x[key] = np.ones(tshape)
    np.testing.assert_array_equal(_host(x), np.arange(12.0).reshape(3, 4))
    with pytest.raises(TypeError):
        x[key] = 1j       # Python scalar rules still apply


def test_setitem_zero_size_array():
    x = ua.zeros((0, 3), dtype="i4")
    x[...] = 7
    x[...] = ua.ones(3, dtype="i4")
    assert x.shape == (0, 3)
    x[...] = 1.5
    with pytest.raises(TypeError):
        x[...] = 1j


def test_setitem_0d():
    x = _zero_d(1.0)
    x[()] = 4.0
    assert float(x) == 4.0
    x[...] = _zero_d(2.0, "f4")
    assert float(x) == 2.0
    x[...] = np.array(3.0)
    assert float(x) == 3.0
    x[None] = [5.0]
    assert float(x) == 5.0


def test_setitem_0d_usm_index():
    x, h = _pair((5, 3))
    x[_zero_d(2)] = -1
    x[_zero_d(-1), _zero_d(0, "u1")] = -2
    h[2] = -1
    h[-1, 0] = -2
    np.testing.assert_array_equal(_host(x), h)


def test_setitem_value_from_another_queue():
    import dpctl

    q = dpctl.SyclQueue()
    src = ua.asarray(np.arange(5.0), sycl_queue=q)
    x = ua.zeros(5)
    x[...] = src
    np.testing.assert_array_equal(_host(x), np.arange(5.0))


def test_setitem_usm_value_of_other_usm_type():
    for ut in ["host", "shared"]:
        src = ua.asarray(np.arange(6).reshape(2, 3), usm_type=ut)
        x = ua.zeros((2, 3), dtype="i8")
        x[...] = src
        np.testing.assert_array_equal(_host(x), np.arange(6).reshape(2, 3))


# ------------------------------------------------------------------ overlap
@pytest.mark.parametrize("n", [10, 1000, 100003])
@pytest.mark.parametrize("dst,src", [
    (S(1, None), S(None, -1)), (S(None, -1), S(1, None)), (S(None, None, -1), S(None)),
    (S(3, None), S(None, -3)), (S(None, -5), S(5, None)), (S(2, None, 2), S(None, -2, 2)),
    (S(None, None, 2), S(None, None, -2)),
], ids=repr)
def test_setitem_overlapping_1d(n, dst, src):
    h = np.arange(n, dtype="i8")
    x = ua.asarray(h)
    x[dst] = x[src]
    h[dst] = h[src].copy()
    np.testing.assert_array_equal(_host(x), h)


@pytest.mark.parametrize("case", ["shift_rows", "shift_cols", "transpose", "flip", "row_bcast",
                                  "reverse_cols"])
def test_setitem_overlapping_2d(case):
    n = 300
    h = np.arange(n * n, dtype="f4").reshape(n, n)
    x = ua.asarray(h)
    if case == "shift_rows":
        x[1:] = x[:-1]
        h[1:] = h[:-1].copy()
    elif case == "shift_cols":
        x[:, 2:] = x[:, :-2]
        h[:, 2:] = h[:, :-2].copy()
    elif case == "transpose":
        x[...] = x.T
        h[...] = h.T.copy()
    elif case == "flip":
        x[...] = x[::-1, ::-1]
        h[...] = h[::-1, ::-1].copy()
    elif case == "row_bcast":
        x[...] = x[n // 2]
        h[...] = h[n // 2].copy()
    else:
        x[...] = x[:, ::-1]
        h[...] = h[:, ::-1].copy()
    np.testing.assert_array_equal(_host(x), h)


def test_setitem_overlapping_other_dtype_view():
    # the real part of a complex array overwritten by the imaginary part
    h = (np.arange(1000) + 1j * -np.arange(1000)).astype("c16")
    x = ua.asarray(h)
    x.real[1:] = x.imag[:-1]
    h.real[1:] = h.imag[:-1].copy()
    np.testing.assert_array_equal(_host(x), h)


# ------------------------------------------------------------------ integer arrays
def _np_key(key):
    return tuple(ua.asnumpy(k) if isinstance(k, ua.usm_ndarray) else k for k in key)


@pytest.mark.parametrize("key", [
    (ua.asarray([0, 2, -1]),),
    (1, ua.asarray([0, 3, 3])),
    (ua.asarray([[0], [2]]), ua.asarray([1, 2, 3])),
    (ua.asarray([0, 2]), slice(None), slice(1, 3)),
    (ua.asarray([1, 0]), ua.asarray([3, -4]), 4),
    (ua.asarray([2, 0], dtype=ua.int8), Ellipsis),
    (ua.asarray([1], dtype=ua.uint16), ua.asarray(2), ua.asarray([0, 4])),
    ([2, 0, 1],),
    (ua.asarray([0, 1, 2]), slice(None, None, -1), None),
], ids=lambda k: repr(_np_key(k)))
def test_integer_array_getitem_matches_numpy(key):
    h = np.arange(60, dtype="f4").reshape(3, 4, 5)
    x = ua.asarray(h)
    r = ua.asnumpy(x[key])
    e = h[_np_key(key)]
    assert r.shape == e.shape
    np.testing.assert_array_equal(r, e)


def test_integer_array_getitem_of_views_and_dtypes(dtype):
    h = sample((6, 7), dtype)[::-2, 1::2]
    x = ua.asarray(sample((6, 7), dtype))[::-2, 1::2]
    idx = np.array([[2, 0], [1, 1]])
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(idx)]), h[idx])
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(idx), -1]), h[idx, -1])


def test_integer_array_getitem_is_a_copy():
    x = ua.arange(10)
    y = x[ua.asarray([1, 2])]
    y[...] = -1
    assert ua.asnumpy(x)[1] == 1


@pytest.mark.parametrize("bad", [[3], [-4], [0, 5]])
def test_integer_array_out_of_bounds_raises(bad):
    x = ua.arange(3)
    with pytest.raises(IndexError):
        x[ua.asarray(bad)]


def test_integer_array_errors():
    x = ua.reshape(ua.arange(12), (3, 4))
    with pytest.raises(IndexError):
        x[ua.asarray([True, False])]                # a mask of the wrong length
    with pytest.raises(IndexError):
        x[ua.asarray(np.ones((3, 4, 1), bool))]     # more mask dimensions than x has
    with pytest.raises(IndexError):
        x[:, ua.asarray([True, False, True])]       # a mask of the wrong length after a slice
    with pytest.raises(IndexError):
        x[np.array([True, False]), :]               # a host mask of the wrong length
    with pytest.raises(ValueError):   # (an IndexError too, as NumPy's: below)
        x[ua.asarray([0, 1]), ua.asarray([0, 1, 2])]  # index arrays do not broadcast
    with pytest.raises(IndexError):
        x[ua.asarray([0.5])]


# ------------------------------------------------------------------ masks
@pytest.mark.parametrize("value", [7, True, 2.5])
def test_setitem_through_mask(value):
    h = np.arange(12, dtype="f8").reshape(3, 4)
    x = ua.asarray(h)
    m = h % 3 == 0
    x[ua.asarray(m)] = value
    h[m] = value
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    rows = np.array([True, False, True])
    x[ua.asarray(rows)] = ua.asarray(-1.0)
    h[rows] = -1.0
    np.testing.assert_array_equal(ua.asnumpy(x), h)


@pytest.mark.parametrize("mask_shape", [(3,), (3, 4), (3, 4, 5)])
def test_getitem_boolean_mask(dtype, mask_shape):
    h = sample((3, 4, 5), dtype)
    m = sample(mask_shape, np.bool_, 9)
    x = ua.asarray(h)
    got = x[ua.asarray(m)]
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(ua.asnumpy(got), h[m])


def test_getitem_boolean_mask_views_and_edges():
    h = np.arange(60, dtype="i4").reshape(6, 10)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(x[x % 7 == 0]), h[h % 7 == 0])
    v, hv = x[::-2, 1::3], h[::-2, 1::3]
    np.testing.assert_array_equal(ua.asnumpy(v[v > 20]), hv[hv > 20])
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(np.zeros(6, bool))]), h[np.zeros(6, bool)])
    assert x[ua.asarray(True)].shape == (1, 6, 10)
    assert x[ua.asarray(False)].shape == (0, 6, 10)
    # empty masks select nothing from any length (NumPy); other lengths are errors
    for mshape in [(0,), (0, 0), (6, 0), (0, 10)]:
        m = np.zeros(mshape, bool)
        got = x[ua.asarray(m)]
        assert got.shape == h[m].shape and got.dtype == x.dtype
        x[ua.asarray(m)] = -1    # selects nothing
        np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(IndexError):
        x[ua.asarray(np.zeros((5,), bool))]
    with pytest.raises(IndexError):
        x[ua.asarray(np.zeros((6, 10, 0), bool))]
    big = sample((300000,), np.float32)
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(big)[ua.asarray(big > 0.5)]),
                                  big[big > 0.5])


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (0,), (2, 0)])
def test_nonzero(dtype, shape):
    h = sample(shape, dtype)
    if h.dtype.kind != "b":
        h = (h * (sample(shape, np.int8, 3) % 2)).astype(dtype)
    got = ua.nonzero(ua.asarray(h))
    exp = np.nonzero(h)
    assert isinstance(got, tuple) and len(got) == len(exp)
    for g, e in zip(got, exp):
        assert g.dtype == ua.int64
        np.testing.assert_array_equal(ua.asnumpy(g), e)


def test_nonzero_errors():
    with pytest.raises(ValueError):
        ua.nonzero(ua.asarray(1))
    with pytest.raises(TypeError):
        ua.nonzero(np.ones(3))


# ------------------------------------------- integer-array and mask assignment
@pytest.mark.parametrize("key", [
    lambda a: (a([0, 2]),),
    lambda a: (a([-1, 0]), a([1, 3])),
    lambda a: (a([[0], [2]]), a([1, 2, 3])),
    lambda a: (1, a([0, 3])),
    lambda a: (a([2, 0]), slice(None, None, -2)),
])
def test_setitem_integer_arrays(dtype, key):
    h = sample((3, 4), dtype)
    x = ua.asarray(h)
    kn = key(np.asarray)
    ku = key(ua.asarray)
    vals = sample(h[kn].shape, dtype, 5)
    h[kn] = vals
    x[ku] = ua.asarray(vals)
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    h[kn] = vals.flat[0]                 # a scalar broadcast over the selection
    x[ku] = vals.flat[0].item()
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_setitem_integer_array_views_casts_and_errors():
    h = np.zeros((6, 5), "f4")
    x = ua.asarray(h)
    v = x[::2, ::-1]                     # assignment through a strided view reaches x
    v[ua.asarray([0, 2])] = ua.asarray(np.arange(5, dtype="i2"))
    h[::2, ::-1][[0, 2]] = np.arange(5)
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[[1, 3]] = [[1.5], [2.5]]           # host values broadcast
    h[[1, 3]] = [[1.5], [2.5]]
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(IndexError):
        x[ua.asarray([6])] = 1.0
    with pytest.raises(ValueError):
        x[ua.asarray([0, 1])] = ua.ones((3, 5))
    xr = ua.asarray(h)
    xr.flags.writable = False
    with pytest.raises(ValueError):
        xr[ua.asarray([0])] = 1.0


@pytest.mark.parametrize("n", [7, 5000])
def test_setitem_integer_array_values_in_place_or_copied(variant, n):
    # values the scatter reads as they are (contiguous, x's dtype and queue),
    # and values in x's own memory, which it must read before x changes
    h = np.arange(2 * n, dtype=np.float32)
    x = ua.asarray(h)
    idx = np.random.default_rng(3).permutation(2 * n)[:n]
    vals = -np.arange(n, dtype=np.float32)
    x[ua.asarray(idx)] = ua.asarray(vals)
    h[idx] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[ua.asarray(idx)] = x[n:]           # a contiguous view of x: copied first
    h[idx] = h[n:].copy()
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[ua.asarray(idx)] = x[::-1][:n]     # a reversed view of x
    h[idx] = h[::-1][:n].copy()
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[ua.asarray(idx)] = ua.asarray(vals[::-1].copy())[::-1]   # a strided value
    h[idx] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    w = ua.asarray(vals, dtype=ua.float64)      # another dtype: cast
    x[ua.asarray(idx)] = w + 0.5
    h[idx] = vals + 0.5
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    v = ua.asarray(vals)
    x[ua.asarray(idx)] = v
    v[...] = 0                            # the scatter has read v before this
    h[idx] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_setitem_mask_with_array_values():
    h = np.arange(24, dtype="i8").reshape(4, 6)
    x = ua.asarray(h)
    m = h % 5 == 0
    vals = -np.arange(m.sum())
    x[ua.asarray(m)] = ua.asarray(vals)
    h[m] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    rows = np.array([True, False, False, True])
    x[ua.asarray(rows)] = ua.asarray(np.full((2, 6), 7))
    h[rows] = 7 * np.ones((2, 6), "i8")
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    v = x[:, ::-2]                       # a non-contiguous destination
    hv = h[:, ::-2]
    mv = hv > 10
    v[ua.asarray(mv)] = ua.asarray(np.arange(mv.sum()))
    hv[mv] = np.arange(mv.sum())
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(ValueError):
        x[ua.asarray(m)] = ua.asarray(np.arange(m.sum() + 1))


# ------------------------------------------------------------------ searchsorted
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    s = np.sort(sample((50,), dtype))
    v = sample((3, 7), dtype, 4)
    v.flat[:3] = s[[0, 10, 49]]                # exact hits: left and right differ
    got = ua.searchsorted(ua.asarray(s), ua.asarray(v), side=side)
    assert got.dtype == ua.int64 and got.shape == v.shape
    np.testing.assert_array_equal(ua.asnumpy(got), np.searchsorted(s, v, side=side))


def test_searchsorted_nan_sorter_scalars_and_errors():
    s = np.array([-np.inf, -1.0, 0.0, 0.0, 2.0, np.nan], "f4")
    v = np.array([np.nan, 0.0, 5.0, -np.inf], "f4")
    for side in ("left", "right"):
        np.testing.assert_array_equal(
            ua.asnumpy(ua.searchsorted(ua.asarray(s), ua.asarray(v), side=side)),
            np.searchsorted(s, v, side=side))
    u = np.array([5, 1, 4, 2], "i4")
    order = np.argsort(u)
    np.testing.assert_array_equal(
        ua.asnumpy(ua.searchsorted(ua.asarray(u), ua.asarray(np.array([3, 0, 9], "i4")),
                                   sorter=ua.asarray(order))),
        np.searchsorted(u, [3, 0, 9], sorter=order))
    r = ua.searchsorted(ua.asarray(s), 0.0, side="right")
    assert r.shape == () and int(r) == 4
    assert int(ua.searchsorted(ua.asarray(np.array([1, 2, 3], "i8")), 2)) == 1
    empty = ua.searchsorted(ua.asarray(np.empty(0, "f4")), ua.asarray(v))
    np.testing.assert_array_equal(ua.asnumpy(empty), np.zeros(4))
    with pytest.raises(ValueError):
        ua.searchsorted(ua.asarray(np.ones((2, 2))), ua.asarray(1.0))
    with pytest.raises(ValueError):
        ua.searchsorted(ua.asarray(s), ua.asarray(v), side="middle")
    with pytest.raises(TypeError):
        ua.searchsorted(ua.asarray(s), "a")
    with pytest.raises(ValueError):
        ua.searchsorted(ua.asarray(s), ua.asarray(v), sorter=ua.asarray([0, 1]))


# ------------------------------------- mask compaction, nonzero and gathers
# tiles of the mask kernels (usm::kScanTile, usm::kScanVecTile)
_TILE, _VEC_TILE = 2048, 16384


@pytest.mark.parametrize("n", [1, 5, _TILE - 1, _TILE, _TILE + 1, 3 * _TILE + 7, _VEC_TILE - 1,
                               _VEC_TILE, _VEC_TILE + 1, 2 * _VEC_TILE + 3])
def test_mask_compaction_tile_boundaries(variant, n):
    h = sample((n,), np.float32)
    x = ua.asarray(h)
    for m in (h > 0.3, np.ones(n, bool), np.zeros(n, bool), np.arange(n) == n - 1,
              np.arange(n) % _TILE == 0):
        xm = ua.asarray(m)
        np.testing.assert_array_equal(ua.asnumpy(x[xm]), h[m])
        np.testing.assert_array_equal(ua.asnumpy(ua.nonzero(xm)[0]), np.nonzero(m)[0])
        y, hy = ua.asarray(h), h.copy()
        vals = np.arange(m.sum(), dtype=np.float32)
        y[xm] = ua.asarray(vals)
        hy[m] = vals
        np.testing.assert_array_equal(ua.asnumpy(y), hy)


@pytest.mark.parametrize("dt", ["i1", "i2", "f4", "i8", "c16", "?"])
def test_mask_compaction_dtypes_and_views(variant, dt):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("no fp64")
    h = sample((40, 300), dt)
    x = ua.asarray(h)
    m = sample((40, 300), np.bool_, 4)
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(m)]), h[m])
    for key in ((slice(None, None, -1), slice(None, None, 2)), (slice(None), 7),
                (slice(None, None, 3),), (slice(None), slice(None, None, -1))):
        hv, xv = h[key], x[key]
        mv = m[key]
        np.testing.assert_array_equal(ua.asnumpy(xv[ua.asarray(mv)]), hv[mv])
        # a mask that is itself a strided view
        np.testing.assert_array_equal(ua.asnumpy(xv[ua.asarray(m)[key]]), hv[mv])
        y, hy = ua.asarray(h), h.copy()
        vals = sample((int(mv.sum()),), dt, 8)
        y[key][ua.asarray(mv)] = ua.asarray(vals)
        hy[key][mv] = vals
        np.testing.assert_array_equal(ua.asnumpy(y), hy)
    # F-ordered array: C-order compaction of a transposed view
    hf = np.asfortranarray(h)
    xf = ua.permute_dims(ua.asarray(np.ascontiguousarray(h.T)), (1, 0))
    np.testing.assert_array_equal(ua.asnumpy(xf[ua.asarray(m)]), hf[m])
    z = np.zeros((0, 3), dt)
    assert ua.asarray(z)[ua.asarray(np.zeros((0, 3), bool))].shape == (0,)


def test_mask_values_broadcast_and_errors(variant):
    h = np.arange(20, dtype="f8" if _device_supports(np.float64) else "f4")
    x = ua.asarray(h)
    m = h % 3 == 0
    with pytest.raises((ValueError, IndexError)):
        x[ua.asarray(m)] = ua.asarray(np.arange(2.0))    # wrong number of values
    x[ua.asarray(m)] = ua.asarray(np.arange(m.sum()) * 1.0)
    h[m] = np.arange(m.sum())
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_nonzero_many_tiles(variant):
    h = (np.arange(11 * (_VEC_TILE // 2 + 1)) % 7 == 0).reshape(-1, 11)
    got = ua.nonzero(ua.asarray(h))
    for g, e in zip(got, np.nonzero(h)):
        np.testing.assert_array_equal(ua.asnumpy(g), e)


@pytest.mark.parametrize("dt", ["u1", "i2", "f4", "f8", "c16"])
@pytest.mark.parametrize("idt", ["i8", "i4", "u2"])
def test_take_random_indices(variant, dt, idt):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("no fp64")
    rng = np.random.default_rng(3)
    n = 50000
    h = sample((n,), dt)
    lo = 0 if idt[0] == "u" else -n
    hi = min(n, np.iinfo(idt).max)
    idx = rng.integers(lo, hi, 3 * _VEC_TILE + 5).astype(idt)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.asarray(idx))), np.take(h, idx))
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(idx)]), h[idx])
    # strided source, 2-D index array
    i2 = idx[:600].reshape(20, 30) // 2
    np.testing.assert_array_equal(ua.asnumpy(x[::-2][ua.asarray(i2)]), h[::-2][i2])


def test_take_rows_and_bounds(variant):
    h = sample((300, 7, 3), np.int32)
    x = ua.asarray(h)
    idx = np.array([5, -1, 0, 299, -300, 5])
    for axis in (0, 1, 2):
        ii = idx % h.shape[axis] - (axis % 2) * h.shape[axis]
        np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.asarray(ii), axis=axis)),
                                      np.take(h, ii, axis=axis))
    np.testing.assert_array_equal(ua.asnumpy(x[:, ::-1][ua.asarray(idx)]), h[:, ::-1][idx])
    assert ua.take(x, ua.asarray(np.zeros(0, np.int64)), axis=0).shape == (0, 7, 3)
    for bad in ([300], [-301], [0, 1, 10**12]):
        with pytest.raises(IndexError):
            ua.take(x, ua.asarray(bad), axis=0)
        with pytest.raises(IndexError):
            x[ua.asarray(bad)]
    with pytest.raises(IndexError):
        ua.take(ua.asarray(np.zeros((0, 2))), ua.asarray([0]), axis=0)
    big = ua.asarray(np.array([2**63 - 1], dtype=np.uint64))
    with pytest.raises(IndexError):
        x[big]


@pytest.mark.parametrize("where", [0, 63, 64, 4095, 4096, 9999])
def test_take_bad_index_among_many(variant, where):
    # one bad index among many valid ones, wherever it falls relative to the
    # CPU kernel's blocks of 4096 indices: IndexError, no crash
    h = np.arange(1000, dtype=np.float32)
    x = ua.asarray(h)
    idx = np.random.default_rng(5).integers(-1000, 1000, 10000)
    for bad in (1000, -1001, 2**62):
        i = idx.copy()
        i[where] = bad
        with pytest.raises(IndexError):
            ua.take(x, ua.asarray(i))
        with pytest.raises(IndexError):
            x[ua.asarray(i)] = 7.0          # checked first: nothing stored
        np.testing.assert_array_equal(ua.asnumpy(x), h)
    np.testing.assert_array_equal(ua.asnumpy(ua.take(x[::-1], ua.asarray(idx))), h[::-1][idx])
    # a scatter through a reversed view, with negative indices (last write wins
    # in NumPy; here distinct positions, so no two values race)
    pos = np.random.default_rng(6).permutation(1000)[:700] - 500
    vals = np.arange(700, dtype=np.float32)
    x[::-1][ua.asarray(pos)] = ua.asarray(vals)
    h[::-1][pos] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)


@pytest.mark.parametrize("inner", [2, 1023, 1024, 1025, 2500])
@pytest.mark.parametrize("dt", ["u1", "f4", "c16"])
def test_gather_rows(variant, dt, inner):
    # rows of x (runs of kGatherRowChunk columns on CPU devices): contiguous and
    # strided rows, repeated and negative indices, masks, bounds
    if not _device_supports(np.dtype(dt)):
        pytest.skip("no fp64")
    h = sample((40, inner), dt)
    x = ua.asarray(h)
    idx = np.array([3, -1, 0, 39, 3, -40, 17])
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(idx)]), h[idx])
    np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.asarray(idx), axis=0)), h[idx])
    np.testing.assert_array_equal(ua.asnumpy(x[:, ::-3][ua.asarray(idx)]), h[:, ::-3][idx])
    m = h.real[:, 0] > h.real[:, 0].mean() if inner else None
    np.testing.assert_array_equal(ua.asnumpy(x[ua.asarray(m), :]), h[m, :])
    with pytest.raises(IndexError):
        x[ua.asarray([0, 40])]


@pytest.mark.parametrize("dt", ["u1", "f4", "i8", "c16"])
def test_put_along_axis0(dt):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("no fp64")
    rng = np.random.default_rng(5)
    n = 30000
    h = sample((n,), dt)
    x = ua.asarray(h)
    idx = rng.permutation(n)[:20000] - n // 2            # distinct, some negative
    vals = sample((idx.size,), dt, 6)
    x[ua.asarray(idx)] = ua.asarray(vals)
    h[idx] = vals
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[ua.asarray(idx[:7].astype(np.int16))] = vals[0].item()
    h[idx[:7]] = vals[0]
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    # rows of a strided 2-D view, values broadcast over the rows
    m = sample((50, 9), dt)
    xm = ua.asarray(m)
    r = np.array([3, -1, 0, 20])
    v2 = sample((4, 9), dt, 7)
    xm[::-2][ua.asarray(r)] = ua.asarray(v2)
    m[::-2][r] = v2
    np.testing.assert_array_equal(ua.asnumpy(xm), m)
    row = sample((9,), dt, 8)
    xm[ua.asarray(r)] = ua.asarray(row)                 # one row broadcast
    m[r] = row
    np.testing.assert_array_equal(ua.asnumpy(xm), m)


def test_put_bounds_and_self_indices():
    h = np.arange(10, dtype=np.int64)
    x = ua.asarray(h)
    for bad in ([10], [-11], [0, 3, 10**12]):
        with pytest.raises(IndexError):
            x[ua.asarray(bad)] = ua.asarray(np.zeros(len(bad), np.int64))
        np.testing.assert_array_equal(ua.asnumpy(x), h)    # nothing stored
    x[x[::-1]] = ua.asarray(np.arange(10, dtype=np.int64) * 2)   # indices read from x
    h[h[::-1].copy()] = np.arange(10) * 2
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[ua.asarray(np.zeros(0, np.int64))] = 5
    np.testing.assert_array_equal(ua.asnumpy(x), h)


# ------------------------------- host masks; masks and index arrays among other indices
_H3 = np.arange(2 * 3 * 4).reshape(2, 3, 4)
_M0 = np.array([True, False])
_M1 = np.array([True, False, True])
_M2 = np.array([False, True, True, True])
_M01 = _H3[:, :, 0] > 3
_M12 = _H3[0] % 3 == 0
MIXED_KEYS = [
    _M0, [True, False], (_M0, S(None)), (_M0, ...), (_M0, S(None), S(None)), (..., _M2),
    (S(None), _M1), (S(None), _M1, S(None)), (None, _M0), (None, _M0, S(None)),
    (S(None), S(None), _M2), (_M0, _M1), (_M0, 1), (1, S(None), _M2), (0, _M1, 2),
    (_M01,), (_M01, S(None)), (S(None), _M12), (..., _M12), (_H3 % 2 == 0,),
    (None, ..., _M2), (_M0, [0, 2]), (S(None), [2, 0, 1], _M2), ([1], S(None), _M2),
    (S(None), _M1, [1, 1]), (1, _M1, None), (S(None, None, -1), _M1), (_M0, S(1, None), S(None, None, 2)),
    (np.array(True), [0, 1]), (True, _M0), (S(None), True, _M1), (1, S(None), True),
    (S(None), [0, 2]), (..., [3, 0]), (S(None), [[0], [1]], [1, 2, 3]), (0, S(None), [1, 3]),
    (np.zeros(2, bool),), (S(None), np.zeros(3, bool), S(None)), (_M0, S(None), np.array([0, 3])),
    (S(None), [True, False, True]), (1, [[True] * 4, [False] * 4, [True, False] * 2]),
]


def _on_device(key):
    """The key with its NumPy arrays as usm_ndarrays (lists stay host lists)."""
    conv = (lambda e: ua.asarray(e) if isinstance(e, np.ndarray) else e)
    return tuple(map(conv, key)) if isinstance(key, tuple) else conv(key)


@pytest.mark.parametrize("where", ["host", "device"])
@pytest.mark.parametrize("key", MIXED_KEYS, ids=repr)
def test_masks_and_arrays_among_other_indices(key, where):
    """NumPy's results for boolean masks (NumPy arrays, lists or usm_ndarrays)
    and index arrays next to slices, Ellipsis, None and integers: x[key], and
    x[key] = scalar / array (the array in NumPy's result layout)."""
    h = _H3.astype("f4")
    k = key if where == "host" else _on_device(key)
    x = ua.asarray(h)
    expected = h[key]
    got = x[k]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(ua.asnumpy(got), expected)
    vals = np.arange(expected.size, dtype="f4").reshape(expected.shape) + 100
    for value in (7.0, vals if where == "host" else ua.asarray(vals)):
        hn = h.copy()
        hn[key] = vals if not isinstance(value, float) else value
        xn = ua.asarray(h)
        xn[k] = value
        np.testing.assert_array_equal(ua.asnumpy(xn), hn)


def test_host_masks_of_every_dtype_and_errors(dtype):
    h = sample((5, 3), dtype)
    x = ua.asarray(h)
    m = np.array([True, False, True, True, False])
    np.testing.assert_array_equal(ua.asnumpy(x[m]), h[m])
    np.testing.assert_array_equal(ua.asnumpy(x[m.tolist(), 1:]), h[m.tolist(), 1:])
    np.testing.assert_array_equal(ua.asnumpy(x[:, [True, False, True]]), h[:, [True, False, True]])
    with pytest.raises(IndexError):
        x[np.ones(4, bool)]                          # wrong length
    with pytest.raises(IndexError):
        x[:, np.ones(2, bool)]                       # wrong length after a slice
    with pytest.raises(IndexError):
        x[m, 0, 1]                                   # too many indices
    with pytest.raises(IndexError):
        x[np.array([0.5, 1.5])]                      # a float index array


# take_along_axis/put_along_axis: one kernel walks x, the indices and the
# result together and steps along the axis by the index (bounds checked on
# the device). x of shape (6, 1, 7) against indices broadcasting in every
# other dimension, views with negative and non-unit strides, index dtypes.
_ALONG_CASES = [
    ((6, 5, 7), (6, 5, 7), 0), ((6, 5, 7), (3, 5, 7), 0), ((6, 5, 7), (6, 9, 7), 1),
    ((6, 5, 7), (6, 5, 2), -1), ((6, 1, 7), (6, 4, 7), 0), ((6, 5, 7), (1, 5, 3), 2),
    ((6, 5, 7), (6, 1, 4), 2), ((40000,), (50000,), 0), ((40000,), (30000,), 0), ((3, 0, 4), (3, 0, 2), 2),
    ((3, 4), (3, 0), 1),
]


@pytest.mark.parametrize("xs, ish, axis", _ALONG_CASES)
@pytest.mark.parametrize("dt", ["u1", "i4", "f4", "f8", "c16"])
def test_along_axis_as_numpy(variant, dt, xs, ish, axis):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("no fp64")
    rng = np.random.default_rng(11)
    h = sample(xs, dt)
    n = xs[axis]
    idx = rng.integers(-n, n, ish) if n else np.zeros(ish, np.int64)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(ua.take_along_axis(x, ua.asarray(idx), axis=axis)),
                                  np.take_along_axis(h, idx, axis=axis))
    # put: distinct positions along the axis (some negative), so no two values race
    if n == 0 or ish[axis] > n:
        return
    full = list(ish)
    full[axis] = n
    idx = np.argsort(rng.random(full), axis=axis).take(range(ish[axis]), axis=axis)
    idx[idx % 2 == 1] -= n
    sel = np.take_along_axis(np.arange(h.size).reshape(xs), idx, axis=axis)
    if np.unique(sel).size != sel.size:
        return      # x broadcast against the indices: positions repeat
    vals = sample(ish, dt, 4)
    e = h.copy()
    np.put_along_axis(e, idx, vals, axis=axis)
    ua.put_along_axis(x, ua.asarray(idx), ua.asarray(vals), axis=axis)
    np.testing.assert_array_equal(ua.asnumpy(x), e)


@pytest.mark.parametrize("idt", ["i1", "u2", "i4", "u8"])
def test_along_axis_views_and_index_dtypes(variant, idt):
    h = sample((9, 12), np.float32)
    v = h[::-2, 1::3]                                      # (5, 4), negative row stride
    idx = (np.arange(20).reshape(5, 4) * 7 % 4).astype(idt)
    if idt[0] == "i":
        idx = idx - 4 * (np.arange(4) % 2).astype(idt)     # some negative
    x = ua.asarray(h)
    xv = x[::-2, 1::3]
    for axis, ii in ((1, idx), (0, (idx % 5).astype(idt))):
        np.testing.assert_array_equal(
            ua.asnumpy(ua.take_along_axis(xv, ua.asarray(ii), axis=axis)),
            np.take_along_axis(v, ii.astype(np.int64), axis=axis))
    # put through the view lands in x
    rows = np.array([[3, 0, 2, 1]] * 5, dtype=idt)
    vals = sample((5, 4), np.float32, 2)
    ua.put_along_axis(xv, ua.asarray(rows), ua.asarray(vals), axis=1)
    np.put_along_axis(v, rows.astype(np.int64), vals, axis=1)
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    ua.put_along_axis(xv, ua.asarray(rows[:1]), 2.5, axis=1)   # scalar value, broadcast rows
    np.put_along_axis(v, rows[:1].astype(np.int64), 2.5, axis=1)
    np.testing.assert_array_equal(ua.asnumpy(x), h)


@pytest.mark.parametrize("bad", [5, -6, 2**40])
@pytest.mark.parametrize("where", [0, 3, 4999])
def test_along_axis_out_of_bounds(variant, bad, where):
    # IndexError, and the scatter changes nothing (the public put_along_axis
    # maps indices into range by its mode first, so the scatter is called here)
    from usmarray._core import _indexing

    h = sample((1000, 5), np.int32)
    idx = np.random.default_rng(2).integers(-5, 5, (1000, 5))
    idx.flat[where] = bad
    x = ua.asarray(h)
    with pytest.raises(IndexError):
        ua.take_along_axis(x, ua.asarray(idx), axis=1)
    with pytest.raises(IndexError):
        _indexing.put_along_axis(x, ua.asarray(idx), 7, axis=1)
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(IndexError):
        ua.take_along_axis(ua.asarray(np.zeros((3, 0))), ua.asarray(np.zeros((3, 1), np.int64)),
                           axis=1)
    with pytest.raises(ValueError):
        ua.put_along_axis(ua.broadcast_to(x[:1], (3, 5)), ua.asarray(idx[:3]), 1, axis=1)


# ------------------------------------------------------------------ several index arrays
# x[i0, i1, ...]: one offsets pass per index array on the device, then one
# gather (of rows when the remaining dimensions merge: the last two keys
# below do not, the middle one sees a negative stride)
_MULTI_KEYS = [
    lambda r: (r.integers(-6, 6, 500), r.integers(-7, 7, 500)),
    lambda r: (r.integers(0, 6, (40, 1)), slice(None), r.integers(-5, 5, (1, 30))),
    lambda r: (r.integers(0, 6, (3, 4)), 2, r.integers(0, 5, (4,))),
    lambda r: (slice(1, None), r.integers(-7, 7, 300), r.integers(0, 5, 300)),
    lambda r: (r.integers(0, 6, 8), r.integers(0, 7, 8), r.integers(0, 5, 8)),
    lambda r: (r.integers(0, 6, 0), r.integers(0, 7, 0)),
    lambda r: (r.integers(-6, 6, (9, 2)), slice(None, None, 2), slice(1, 4)),
    lambda r: (r.integers(-6, 6, 50), slice(None, None, 3), slice(None, None, 2)),
]


@pytest.mark.parametrize("case", range(len(_MULTI_KEYS)))
@pytest.mark.parametrize("idt", ["i1", "u2", "i4", "i8", "u8"])
@pytest.mark.parametrize("dt", ["u1", "f4", "c16"])
def test_several_index_arrays_as_numpy(variant, dt, idt, case):
    r = np.random.default_rng(case)
    key = _MULTI_KEYS[case](r)
    if idt[0] == "u":
        # unsigned indices: the same positions counted from the start
        key = tuple(k % (6, 7, 5)[d] if isinstance(k, np.ndarray) else k for d, k in enumerate(key))
    key = tuple(k.astype(idt) if isinstance(k, np.ndarray) else k for k in key)
    h = sample((6, 7, 5), dt)
    x = ua.asarray(h)[:, ::-1]      # a view with a negative stride
    hv = h[:, ::-1]
    ukey = tuple(ua.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    r_ = ua.asnumpy(x[ukey])
    assert r_.shape == hv[key].shape
    np.testing.assert_array_equal(r_, hv[key])
    # and the scatter, with values broadcast along the last dimension
    v = sample(hv[key].shape[-1:], dt)
    x[ukey] = ua.asarray(v)
    _assert_scattered(ua.asnumpy(x), hv, key, v)


def _assert_scattered(got, before, key, values):
    """`got` is `before` with before[key] = values, where an element that
    several index tuples name holds any one of their values: neither NumPy
    nor the array API fixes which of them lands."""
    pos = np.arange(before.size).reshape(before.shape)[key]    # flat target of each value
    vals = np.broadcast_to(values, pos.shape)
    expect = before.copy()
    expect[key] = values
    changed = np.zeros(before.size, bool)
    changed[pos.ravel()] = True
    got_f, exp_f = got.reshape(-1), expect.reshape(-1)
    np.testing.assert_array_equal(got_f[~changed], exp_f[~changed])
    for p in np.flatnonzero(changed):
        cands = vals[pos == p]
        assert (cands == got_f[p]).any(), f"element {p}: {got_f[p]!r} is none of {cands!r}"


def _check_whole_values(got, targets, vals):
    """Each element of `got` (flat) that `targets` name holds one of the
    values stored to it, whole (both parts of a complex one)."""
    for p in np.unique(targets):
        cands = vals[targets == p]
        assert (cands == got[p]).any(), f"element {p}: {got[p]!r} is none of {cands!r}"


@pytest.mark.parametrize("dt", [np.complex128, np.complex64, np.float64])
def test_repeated_indices_store_whole_values(variant, dt):
    # Thousands of stores per element race: complex128 items (16 bytes) are
    # stored in parts, and before the two-pass scatter elements ended up
    # with parts of two values (about 40 of 50 here)
    rng = np.random.default_rng(5)
    n, m = 50, 60000
    vals = (rng.standard_normal(m) + 1j * rng.standard_normal(m)).astype(dt) \
        if np.dtype(dt).kind == "c" else rng.standard_normal(m).astype(dt)
    idx = rng.integers(0, n, m)
    # one index array: rows of one item, and rows of three
    x = ua.zeros(n, dtype=dt)
    x[ua.asarray(idx)] = ua.asarray(vals)
    _check_whole_values(ua.asnumpy(x), idx, vals)
    rows = np.stack([vals, vals[::-1], -vals], axis=1)
    x2 = ua.zeros((n, 3), dtype=dt)
    x2[ua.asarray(idx)] = ua.asarray(rows)
    got = ua.asnumpy(x2)
    for c in range(3):    # (a row's items may come from different rows of values)
        _check_whole_values(got[:, c], idx, rows[:, c])
    # a negative-stride view, negative indices
    x3 = ua.zeros(2 * n, dtype=dt)
    j = idx - n
    x3[::-2][ua.asarray(j)] = ua.asarray(vals)
    _check_whole_values(ua.asnumpy(x3)[::-2], j % n, vals)
    # two index arrays (element offsets) and put_along_axis
    i0, i1 = idx % 7, idx % 8
    y = ua.zeros((7, 8), dtype=dt)
    y[ua.asarray(i0), ua.asarray(i1)] = ua.asarray(vals)
    _check_whole_values(ua.asnumpy(y).ravel(), i0 * 8 + i1, vals)
    z = ua.zeros((4, 6), dtype=dt)
    ii = (idx % 6).reshape(4, -1)
    ua.put_along_axis(z, ua.asarray(ii), ua.asarray(vals.reshape(4, -1)), axis=1)
    got = ua.asnumpy(z)
    for a in range(4):
        _check_whole_values(got[a], ii[a], vals.reshape(4, -1)[a])


@pytest.mark.parametrize("bad_axis", [0, 1, 2])
@pytest.mark.parametrize("bad", [-8, 9, 2 ** 40])
def test_several_index_arrays_out_of_bounds(variant, bad_axis, bad):
    h = sample((6, 7, 5), np.float32)
    x = ua.asarray(h)
    key = [np.random.default_rng(1).integers(0, 5, 1000) for _ in range(3)]
    key[bad_axis][777] = bad
    ukey = tuple(ua.asarray(k) for k in key)
    with pytest.raises(IndexError, match=f"axis {bad_axis} with size {h.shape[bad_axis]}"):
        x[ukey]
    with pytest.raises(IndexError, match=f"axis {bad_axis}"):
        x[ukey] = 1.0
    np.testing.assert_array_equal(ua.asnumpy(x), h)   # nothing stored


def test_several_index_arrays_uint64_and_aliasing(variant):
    x = ua.asarray(np.arange(12, dtype=np.int64).reshape(3, 4))
    with pytest.raises(IndexError, match="axis 1 with size 4"):
        x[ua.asarray(np.array([0], np.uint64)), ua.asarray(np.array([2 ** 64 - 1], np.uint64))]
    # indices read from x itself: all taken before x changes
    h = np.arange(12, dtype=np.int64).reshape(3, 4) % 3
    x = ua.asarray(h)
    col = x[:, 0]
    x[col, col] = 9
    hc = h[:, 0].copy()
    h[hc, hc] = 9
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_index_arrays_that_do_not_broadcast_are_an_index_error():
    m = ua.zeros((3, 3))
    i, j = ua.asarray([0, 1]), ua.asarray([0, 1, 2])
    with pytest.raises(IndexError):
        m[i, j]
    with pytest.raises(IndexError):
        m[i, j] = 1.0
    u = ua.zeros((2, 3, 4))
    with pytest.raises(IndexError):   # broadcast with the value first, a ValueError
        u[:, [0, 1], [0, 1, 2]] = ua.zeros(())


@pytest.mark.parametrize("key", [(slice(None), [0], Ellipsis, [1]), ([0], Ellipsis, [1]),
                                 ([[0, 1]], Ellipsis, slice(None), [2]),
                                 (slice(None), [0], None, [1]), (Ellipsis, [0], [1])], ids=str)
def test_ellipsis_between_index_arrays_separates_them(key):
    # NumPy: advanced indices apart (even by an Ellipsis of no dimension)
    # put their broadcast dimensions first
    h = np.arange(120).reshape(4, 5, 6)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(x[key]), h[key])
    v = -np.arange(h[key].size).reshape(h[key].shape)
    h[key] = v
    x[key] = ua.asarray(v)
    np.testing.assert_array_equal(ua.asnumpy(x), h)


@pytest.mark.parametrize("key", [(True, True), (True, False), (True, slice(None), True),
                                 (False, Ellipsis, True), (True, None, True)], ids=str)
def test_several_scalar_booleans_make_one_axis(key):
    h = np.arange(12.0).reshape(3, 4)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(x[key]), h[key])
    h[key] = -1.0
    x[key] = -1.0
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_out_of_bounds_index_of_an_empty_selection():
    # NumPy checks the index even when nothing is selected
    x = ua.zeros((4, 4))
    with pytest.raises(IndexError):
        x[0:0, ua.asarray([400])]
    with pytest.raises(IndexError):
        x[0:0, ua.asarray([400])] = 5.0
    assert x[0:0, ua.asarray([3])].shape == (0, 1)


def test_list_values_out_of_the_integer_range():
    # Python ints convert to the target dtype as in NumPy: OverflowError,
    # not wrapped; arrays of values cast (and wrap) as NumPy's do
    z = ua.zeros(3, dtype=ua.uint8)
    with pytest.raises(OverflowError):
        z[[0, 1]] = [-1, 300]
    assert not ua.any(z)
    z[[0, 1]] = np.array([-1, 300])
    np.testing.assert_array_equal(ua.asnumpy(z), [255, 44, 0])
    f = ua.zeros(3, dtype=ua.int32)
    f[[0, 1]] = [1.7, -2.5]
    np.testing.assert_array_equal(ua.asnumpy(f), [1, -2, 0])


@pytest.mark.parametrize("dt", ["float32", "int64", "complex64", "bool"])
def test_integer_array_assignment_from_an_offset_view(dt):
    # values that are a C-contiguous view starting inside their memory (a slice):
    # the scatter reads them from the view's first item, not the allocation's
    if not _device_supports(np.dtype(dt)):
        pytest.skip("dtype not on this device")
    base = (np.arange(12) % 7).astype(dt)
    src, src_h = ua.asarray(base)[5:7], base[5:7]
    for key in ([0, 2], np.array([3, 1])):
        x, h = ua.zeros(4, dtype=dt), np.zeros(4, dt)
        x[ua.asarray(np.asarray(key))] = src
        h[np.asarray(key)] = src_h
        np.testing.assert_array_equal(ua.asnumpy(x), h)
    rows, rows_h = ua.asarray(base.reshape(4, 3))[1:], base.reshape(4, 3)[1:]
    x, h = ua.zeros((3, 3), dtype=dt), np.zeros((3, 3), dt)
    x[ua.asarray(np.array([0, 2, 1]))] = rows
    h[np.array([0, 2, 1])] = rows_h
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x, h = ua.zeros((3, 3), dtype=dt), np.zeros((3, 3), dt)
    i = np.array([0, 2])
    x[ua.asarray(i), ua.asarray(i)] = src
    h[i, i] = src_h
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    np.testing.assert_array_equal(ua.asnumpy(np.insert(ua.asarray(base)[3:], [1, 1], base[0])),
                                  np.insert(base[3:], [1, 1], base[0]))


def test_masked_assignment_into_zero_size_arrays():
    # (a zero-size view's byte range once counted as overlapping the empty
    # value's block, now and then: the scatter raised)
    for dt in (ua.int64, ua.float32):
        for _ in range(20):
            x = ua.zeros((44, 48, 22, 0), dtype=dt)
            x[ua.ones(x.shape, dtype=ua.bool)] = ua.zeros((0,), dtype=dt)
            x[ua.ones((44, 48), dtype=ua.bool)] = ua.zeros((0,), dtype=dt)
            assert x.shape == (44, 48, 22, 0)


def test_index_errors_as_numpy():
    x = ua.zeros((3, 4))
    h = np.zeros((3, 4))
    # every index is checked, also when the broadcast result is empty
    for key in ((ua.asarray(np.array([], np.int64)), ua.asarray(10)),
                (np.array([], np.int64), np.array(10))):
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            x[key] = 1.0
        with pytest.raises(IndexError):
            h[key]
    # a float array is no index, even empty; an empty list is one
    with pytest.raises(IndexError):
        ua.arange(3)[np.array([], float)]
    assert ua.arange(3)[[]].shape == (0,) and np.take(ua.arange(3), []).shape == (0,)
    with pytest.raises(IndexError):
        ua.arange(3)[[2 ** 63]]
    # an element takes no sequence (NumPy 2); a mask over every dimension
    # takes values of at most one dimension
    with pytest.raises(ValueError):
        x[1, 2] = ua.asarray([5.0])
    with pytest.raises(TypeError):
        x[ua.ones((3, 4), dtype=ua.bool)] = ua.ones((1, 12))
    y = ua.zeros((3, 2))
    y[ua.asarray([True, False, True])] = ua.ones((2, 2))   # a mask of rows: rows of values
    np.testing.assert_array_equal(ua.asnumpy(y), [[1, 1], [0, 0], [1, 1]])


def test_numpy_0d_index_arrays_give_copies():
    x, h = _pair((2, 3))
    r = x[np.array(True)]   # NumPy's 0-d index array: a copy, as in NumPy
    r[...] = -5
    np.testing.assert_array_equal(_host(x), h)
    v = x[ua.asarray(0)]    # a 0-d usm_ndarray is an integer: a view (array API, dpctl)
    v[...] = -7
    h[0] = -7
    np.testing.assert_array_equal(_host(x), h)


# ------------------------------------------------------- from a fuzz against NumPy
def test_lists_of_python_ints_out_of_range_raise_on_every_path():
    """A list of Python ints converts to the destination's dtype itself, as
    in NumPy: OverflowError, also through a mask and through index arrays
    after a slice (they were wrapped there)."""
    x = ua.zeros(4, dtype=ua.uint8)
    with pytest.raises(OverflowError):
        x[ua.asarray([True, False, True, False])] = [-1, 300]
    y = ua.zeros((2, 4), dtype=ua.int8)
    with pytest.raises(OverflowError):
        y[:, [0, 1]] = [[-129, 200], [1, 2]]
    assert not ua.asnumpy(x).any() and not ua.asnumpy(y).any()
    y[:, [0, 1]] = [[-1, 100], [1, 2]]
    np.testing.assert_array_equal(ua.asnumpy(y), [[-1, 100, 0, 0], [1, 2, 0, 0]])


@pytest.mark.parametrize("value", [np.int64(300), np.int16(-3), np.float64(-1.5),
                                   np.float32(7.9), np.bool_(True)], ids=repr)
@pytest.mark.parametrize("key", [slice(None), [0, 2], "mask"], ids=str)
def test_numpy_scalars_cast_as_numpy(value, key):
    """NumPy scalars are typed: stored as NumPy casts them (np.int64(300)
    into uint8 is 44), not range-checked as Python ints are."""
    h = np.zeros(3, np.uint8)
    k = np.array([True, False, True]) if key == "mask" else key
    with np.errstate(all="ignore"):
        h[k] = value
    x = ua.zeros(3, dtype=ua.uint8)
    x[ua.asarray(k) if key == "mask" else k] = value
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(OverflowError):   # (a Python int still is)
        x[:] = 300


def test_huge_slice_steps():
    """A step past the dimension's length gives one item; its stride stays
    the dimension's (step * stride overflowed int64: every use raised)."""
    h = np.arange(5.0)
    x = ua.asarray(h)
    for step in (2**63 - 1, 2**63, -2**63, 10**30, -(10**30)):
        y = x[::step]
        np.testing.assert_array_equal(ua.asnumpy(y), h[::step])
        np.testing.assert_array_equal(ua.asnumpy(y + 1), h[::step] + 1)
        assert float(ua.sum(y)) == h[::step].sum()
        assert ua.shares_memory(x, y)
        y[...] = step % 7
        h[::step] = step % 7
        np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[1:1:2**63] = x[0:0]
    h2 = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(h2)[::-2**62, 1::2**63]),
                                  h2[::-2**62, 1::2**63])


def test_mask_read_from_the_destination():
    """x[x[::-1]] = False: the mask is read before x changes (as NumPy's
    direct result; the scalar path wrote while it read)."""
    h = np.random.default_rng(0).random(50000) < 0.5
    x = ua.asarray(h)
    x[x[::-1]] = False
    expected = h.copy()
    expected[h[::-1].copy()] = False
    np.testing.assert_array_equal(ua.asnumpy(x), expected)


def test_ellipsis_views_and_masks_broadcast_values_as_numpy():
    z = ua.zeros(())
    z[...] = ua.ones((1,))       # a 0-d view takes a value that broadcasts
    assert float(z) == 1.0
    with pytest.raises(ValueError):
        z[()] = ua.ones((1,))    # an element does not (NumPy's)
    x = ua.zeros((2, 2))
    x[0, 0, ...] = ua.ones((1, 1))
    np.testing.assert_array_equal(ua.asnumpy(x), [[1, 0], [0, 0]])
    y = ua.zeros(3)
    y[ua.asarray([True, False, True]), ...] = ua.ones((1, 1))
    np.testing.assert_array_equal(ua.asnumpy(y), [1, 0, 1])
    with pytest.raises(TypeError):   # the bare mask keeps NumPy's 0-or-1-D rule
        y[ua.asarray([True, False, True])] = ua.ones((1, 1))


@pytest.mark.parametrize("key", [(slice(None), "empty"), (Ellipsis, "empty"),
                                 ("empty", slice(None))], ids=str)
def test_empty_mask_selects_nothing_in_advanced_keys(key):
    h = np.arange(12.0).reshape(3, 4)
    k = tuple(np.zeros(0, dtype=bool) if e == "empty" else e for e in key)
    expected = h[k]
    got = ua.asarray(h)[tuple(ua.asarray(e) if isinstance(e, np.ndarray) else e for e in k)]
    assert got.shape == expected.shape
