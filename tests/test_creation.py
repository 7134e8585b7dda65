"""Array creation functions, checked against NumPy."""

import math

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports as _device_supports, sample


def _host(x):
    return ua.asnumpy(x)


def _assert_same(x, h, exact=True):
    assert isinstance(x, ua.usm_ndarray)
    assert x.shape == h.shape
    assert x.dtype == h.dtype
    if exact:
        np.testing.assert_array_equal(_host(x), h)
    else:
        np.testing.assert_allclose(_host(x), h, rtol=1e-12 if h.dtype.itemsize >= 8 else 1e-5,
                                   atol=1e-12 if h.dtype.itemsize >= 8 else 1e-5)


# ------------------------------------------------------------------ asarray
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (0,), (2, 0)])
def test_asarray_numpy_each_dtype(shape, dtype):
    h = sample(shape, dtype)
    x = ua.asarray(h)
    _assert_same(x, h)
    assert x.flags.c_contiguous
    assert x.usm_type == "device"
    assert x.sycl_queue == ua.get_default_queue()


def test_asarray_numpy_0d(dtype):
    h = sample((), dtype)
    x = ua.asarray(h)
    _assert_same(x, h)
    s = ua.asarray(h[()])          # NumPy scalar
    _assert_same(s, h)


def test_asarray_numpy_non_contiguous(dtype):
    h = sample((6, 8), dtype)
    for v in [h[::2], h[:, ::-3], h.T, h[1:5:2, ::-1].T, np.broadcast_to(h[0], (3, 8))]:
        _assert_same(ua.asarray(v), v)


def test_asarray_numpy_fortran(dtype):
    h = np.asfortranarray(sample((3, 5), dtype))
    x = ua.asarray(h)
    _assert_same(x, h)
    assert x.flags.f_contiguous and not x.flags.c_contiguous    # order="K" keeps the layout
    xc = ua.asarray(h, order="C")
    _assert_same(xc, h)
    assert xc.flags.c_contiguous


@pytest.mark.parametrize("dt", ["i2", "u4", "i8", "f4", "f8", "c8", "c16"])
def test_asarray_numpy_big_endian(dt):
    h = sample((4, 3), dt)
    be = h.astype(np.dtype(dt).newbyteorder(">"))
    x = ua.asarray(be)
    assert x.dtype == np.dtype(dt)
    assert x.dtype.isnative
    np.testing.assert_array_equal(_host(x), h)
    y = ua.asarray(h, dtype=np.dtype(dt).newbyteorder(">"))
    assert y.dtype == np.dtype(dt)
    np.testing.assert_array_equal(_host(y), h)


def test_asarray_numpy_with_dtype():
    h = np.array([[1.7, -2.2], [3.5, 100.9]])
    x = ua.asarray(h, dtype="i4")
    _assert_same(x, h.astype("i4"))
    y = ua.asarray(np.arange(5, dtype="i2"), dtype=ua.complex64)
    _assert_same(y, np.arange(5).astype("c8"))


@pytest.mark.parametrize("value,dt", [(True, "bool"), (False, "bool"), (5, "int64"), (-3, "int64"),
                                      (0, "int64"), (2.5, "float64"), (float("inf"), "float64"),
                                      (1 + 2j, "complex128"), (0j, "complex128"),
                                      (2 ** 63 - 1, "int64"), (-(2 ** 63), "int64")])
def test_asarray_python_scalars(value, dt):
    x = ua.asarray(value)
    assert x.shape == ()
    assert x.dtype == np.dtype(dt)
    assert _host(x)[()] == value


def test_asarray_python_scalar_with_dtype():
    x = ua.asarray(3, dtype="f4")
    assert x.shape == () and x.dtype == ua.float32 and float(x) == 3.0
    y = ua.asarray(2 ** 63, dtype="u8")
    assert y.dtype == ua.uint64 and int(y) == 2 ** 63
    z = ua.asarray(True, dtype="i1")
    assert z.dtype == ua.int8 and int(z) == 1


@pytest.mark.parametrize("obj,dt", [
    ([1, 2, 3], "int64"), ([[1, 2], [3, 4]], "int64"), ([1, 2.5], "float64"),
    ([[1.0, 2], [3, 4]], "float64"), ([True, False], "bool"), ([True, 2], "int64"),
    ([1, 1j], "complex128"), ([[0.5], [1j]], "complex128"), ((1, 2, 3), "int64"),
    ([(1, 2), [3, 4]], "int64"), ([[[1]], [[2]]], "int64"), ([], "float64"),
    ([[], []], "float64"),
], ids=repr)
def test_asarray_nested_sequences(obj, dt):
    x = ua.asarray(obj)
    h = np.array(obj, dtype=dt)
    _assert_same(x, h)


def test_asarray_nested_with_dtype():
    _assert_same(ua.asarray([[1, 2], [3, 4]], dtype="f4"), np.array([[1, 2], [3, 4]], "f4"))
    _assert_same(ua.asarray([1.5, 2.5], dtype="c8"), np.array([1.5, 2.5], "c8"))
    x = ua.asarray([[1, 2, 3], [4, 5, 6]], order="F")
    assert x.flags.f_contiguous
    np.testing.assert_array_equal(_host(x), [[1, 2, 3], [4, 5, 6]])


def test_asarray_ragged_raises():
    with pytest.raises(ValueError):
        ua.asarray([[1, 2], [3]])


@pytest.mark.parametrize("obj", [2 ** 63, -(2 ** 63) - 1, [1, 2 ** 64], [[0], [2 ** 70]]],
                         ids=repr)
def test_asarray_python_int_overflow(obj):
    with pytest.raises(OverflowError):
        ua.asarray(obj)


@pytest.mark.parametrize("obj", [["a", "b"], "abc", None, object(), [None], np.array(["x"]),
                                 np.array([object()])], ids=repr)
def test_asarray_non_numeric(obj):
    with pytest.raises(TypeError):
        ua.asarray(obj)


@pytest.mark.parametrize("obj", [np.arange(3), [1, 2], 1.5, np.float32(2)], ids=repr)
def test_asarray_copy_false_from_host(obj):
    with pytest.raises(ValueError):
        ua.asarray(obj, copy=False)


def test_asarray_buffer_protocol():
    x = ua.asarray(bytearray(b"\x01\x02\x03"))
    _assert_same(x, np.array([1, 2, 3], dtype="u1"))
    y = ua.asarray(memoryview(np.arange(4, dtype="i2")))
    _assert_same(y, np.arange(4, dtype="i2"))


def test_asarray_usm_copy_none_no_copy():
    x = ua.asarray(np.arange(6.0))
    y = ua.asarray(x)
    assert y is x or (y.usm_data._pointer == x.usm_data._pointer and y.shape == x.shape)
    y[0] = 42.0
    assert float(x[0]) == 42.0
    v = x[::-2]
    w = ua.asarray(v, copy=None)
    w[0] = -1.0
    assert float(x[5]) == -1.0
    z = ua.asarray(x, copy=False)
    z[1] = 7.0
    assert float(x[1]) == 7.0
    same = ua.asarray(x, dtype=x.dtype, device=x.device, usm_type=x.usm_type, copy=False)
    same[2] = 9.0
    assert float(x[2]) == 9.0


def test_asarray_usm_copy_true():
    h = np.arange(6.0).reshape(2, 3)
    x = ua.asarray(h)
    y = ua.asarray(x, copy=True)
    assert y is not x
    _assert_same(y, h)
    y[...] = 0.0
    _assert_same(x, h)
    # a copy of a non-contiguous view
    v = x[:, ::-2]
    c = ua.asarray(v, copy=True)
    _assert_same(c, h[:, ::-2])
    c[...] = -1.0
    _assert_same(x, h)


def test_asarray_usm_dtype_change_copies():
    h = np.arange(6, dtype="i4")
    x = ua.asarray(h)
    y = ua.asarray(x, dtype="f4")
    _assert_same(y, h.astype("f4"))
    y[0] = 99.0
    _assert_same(x, h)
    with pytest.raises(ValueError):
        ua.asarray(x, dtype="f4", copy=False)


@pytest.mark.parametrize("ut", ["host", "shared"])
def test_asarray_usm_usm_type_change(ut):
    h = np.arange(5.0)
    x = ua.asarray(h)
    y = ua.asarray(x, usm_type=ut)
    assert y.usm_type == ut
    _assert_same(y, h)
    y[0] = 10.0
    _assert_same(x, h)
    with pytest.raises(ValueError):
        ua.asarray(x, usm_type=ut, copy=False)


def test_asarray_usm_other_queue():
    q = dpctl.SyclQueue()
    h = np.arange(4, dtype="i8")
    x = ua.asarray(h)
    y = ua.asarray(x, sycl_queue=q)
    assert y.sycl_queue == q
    _assert_same(y, h)
    z = ua.asarray(y, device=x.device)
    assert z.sycl_queue == x.sycl_queue
    _assert_same(z, h)


def test_asarray_list_of_usm_arrays():
    a = ua.asarray(np.array([1.0, 2.0]))
    b = ua.asarray(np.array([3.0, 4.0]))
    _assert_same(ua.asarray([a, b]), np.array([[1.0, 2.0], [3.0, 4.0]]))


@pytest.mark.parametrize("obj", [[np.int64(3)], list(np.arange(3)), [np.float32(1.5), 2],
                                 [np.ones(2), np.zeros(2)], [np.uint8(1), np.int8(-1)],
                                 [[np.bool_(True)], [False]]], ids=repr)
def test_asarray_sequences_of_numpy_scalars_and_arrays(obj):
    h = np.asarray(obj)
    _assert_same(ua.asarray(obj), h.astype(h.dtype if h.dtype != np.float64 or
                                           _device_supports(np.float64) else np.float32))


def test_asarray_list_of_usm_arrays_keeps_their_queue_and_usm_type():
    # dpctl.tensor's rule: the arrays' queue and their coerced USM type
    q = dpctl.SyclQueue(ua.get_default_queue().sycl_context, ua.get_default_queue().sycl_device)
    a = ua.asarray([1.0, 2.0], sycl_queue=q, usm_type="host")
    r = ua.asarray([a, a])
    assert r.sycl_queue == q and r.usm_type == "host"
    np.testing.assert_array_equal(_host(r + a), [[2.0, 4.0], [2.0, 4.0]])
    assert ua.asarray([a, ua.asarray([3.0, 4.0], sycl_queue=q)]).usm_type == "device"
    assert ua.asarray([a], usm_type="shared").usm_type == "shared"
    with pytest.raises(ua.ExecutionPlacementError):
        ua.asarray([a, ua.asarray([3.0, 4.0])])
    assert ua.asarray([a, ua.asarray([3.0, 4.0])], device=q).sycl_queue == q


def test_asarray_bad_arguments():
    with pytest.raises(ValueError):
        ua.asarray([1, 2], copy="yes")
    with pytest.raises(ValueError):
        ua.asarray([1, 2], usm_type="managed")
    with pytest.raises(ValueError):
        ua.asarray([1, 2], order="Q")
    with pytest.raises(TypeError):
        ua.asarray([1, 2], dtype=object)
    with pytest.raises(TypeError):
        ua.asarray([1, 2], sycl_queue="not a queue")


# ------------------------------------------------------------------ placement keywords
def _queue_for_kw(kind):
    if kind == "default":
        return {}, ua.get_default_queue()
    if kind == "device_str":
        return {"device": "cpu"}, ua.get_default_queue()
    if kind == "device_obj":
        d = ua.Device.create_device("opencl:cpu")
        return {"device": d}, d.sycl_queue
    if kind == "sycl_device":
        dev = ua.get_default_queue().sycl_device
        return {"device": dev}, ua.get_default_queue()
    q = dpctl.SyclQueue()
    if kind == "sycl_queue":
        return {"sycl_queue": q}, q
    if kind == "device_queue":
        return {"device": q}, q
    return {"device": ua.Device.create_device(q), "sycl_queue": q}, q


CREATORS = {
    "asarray_list": lambda **kw: ua.asarray([[1.0, 2.0], [3.0, 4.0]], **kw),
    "asarray_numpy": lambda **kw: ua.asarray(np.arange(6, dtype="i2"), **kw),
    "empty": lambda **kw: ua.empty((2, 3), **kw),
    "zeros": lambda **kw: ua.zeros((2, 3), **kw),
    "ones": lambda **kw: ua.ones(4, dtype="i4", **kw),
    "full": lambda **kw: ua.full((3,), 2.5, **kw),
    "arange": lambda **kw: ua.arange(0, 10, 2, **kw),
    "arange_float": lambda **kw: ua.arange(0.0, 1.0, 0.25, **kw),
    "linspace": lambda **kw: ua.linspace(0, 1, 5, **kw),
    "eye": lambda **kw: ua.eye(3, 4, k=1, **kw),
    "empty_like": lambda **kw: ua.empty_like(ua.zeros(3), **kw),
    "zeros_like": lambda **kw: ua.zeros_like(ua.ones((2, 2)), **kw),
    "ones_like": lambda **kw: ua.ones_like(ua.zeros(3, dtype="u1"), **kw),
    "full_like": lambda **kw: ua.full_like(ua.zeros(3), 7.0, **kw),
}

EXPECTED = {
    "asarray_list": np.array([[1.0, 2.0], [3.0, 4.0]]),
    "asarray_numpy": np.arange(6, dtype="i2"),
    "zeros": np.zeros((2, 3)),
    "ones": np.ones(4, dtype="i4"),
    "full": np.full(3, 2.5),
    "arange": np.arange(0, 10, 2),
    "arange_float": np.arange(0.0, 1.0, 0.25),
    "linspace": np.linspace(0, 1, 5),
    "eye": np.eye(3, 4, k=1),
    "zeros_like": np.zeros((2, 2)),
    "ones_like": np.ones(3, dtype="u1"),
    "full_like": np.full(3, 7.0),
}


@pytest.mark.parametrize("kind", ["default", "device_str", "device_obj", "sycl_device",
                                  "sycl_queue", "device_queue", "both"])
@pytest.mark.parametrize("name", list(CREATORS))
def test_creation_queue_keywords(name, kind):
    kw, q = _queue_for_kw(kind)
    x = CREATORS[name](**kw)
    assert x.sycl_queue == q
    assert x.device == ua.Device.create_device(q)
    if name in EXPECTED:
        _assert_same(x, EXPECTED[name], exact=False)


@pytest.mark.parametrize("ut", ["device", "shared", "host"])
@pytest.mark.parametrize("name", list(CREATORS))
def test_creation_usm_type(name, ut):
    x = CREATORS[name](usm_type=ut)
    assert x.usm_type == ut
    if name in EXPECTED:
        _assert_same(x, EXPECTED[name], exact=False)


@pytest.mark.parametrize("name", ["empty", "zeros", "ones", "full", "arange", "linspace", "eye"])
def test_creation_default_usm_type_is_device(name):
    assert CREATORS[name]().usm_type == "device"


@pytest.mark.parametrize("name", list(CREATORS))
def test_creation_bad_usm_type(name):
    with pytest.raises(ValueError):
        CREATORS[name](usm_type="managed")


def test_creation_conflicting_device_and_queue():
    q1, q2 = dpctl.SyclQueue(), dpctl.SyclQueue()
    with pytest.raises((TypeError, ValueError)):
        ua.zeros(3, device=ua.Device.create_device(q1), sycl_queue=q2)


def test_creation_bad_device():
    with pytest.raises(TypeError):
        ua.zeros(3, device=1.5)
    with pytest.raises(ValueError):
        ua.zeros(3, device="level_zero:gpu:9")


# ------------------------------------------------------------------ empty / zeros / ones
@pytest.mark.parametrize("shape", [5, (), (0,), (2, 3), [3, 1, 2], (4, 0, 2)], ids=repr)
def test_empty_zeros_ones_shapes(shape):
    nshape = (shape,) if isinstance(shape, int) else tuple(shape)
    e = ua.empty(shape)
    assert e.shape == nshape and e.dtype == ua.float64 and e.flags.c_contiguous
    _assert_same(ua.zeros(shape), np.zeros(nshape))
    _assert_same(ua.ones(shape), np.ones(nshape))


def test_empty_zeros_ones_each_dtype(dtype):
    e = ua.empty((2, 3), dtype=dtype)
    assert e.dtype == dtype and e.shape == (2, 3)
    _assert_same(ua.zeros((2, 3), dtype=dtype), np.zeros((2, 3), dtype))
    _assert_same(ua.ones((3, 2), dtype=dtype), np.ones((3, 2), dtype))
    _assert_same(ua.zeros((), dtype=dtype), np.zeros((), dtype))


def test_zeros_ones_negative_zero_and_bits():
    z = ua.zeros(4, dtype="f4")
    assert not np.signbit(_host(z)).any()
    o = ua.ones(3, dtype="c8")
    _assert_same(o, np.ones(3, "c8"))


@pytest.mark.parametrize("fn", [ua.empty, ua.zeros, ua.ones])
def test_empty_zeros_ones_order_f(fn):
    x = fn((3, 4), dtype="i4", order="F")
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    assert x.strides == (1, 3)
    with pytest.raises(ValueError):
        fn((2, 2), order="K")


@pytest.mark.parametrize("fn", [ua.empty, ua.zeros, ua.ones])
def test_empty_zeros_ones_bad_args(fn):
    with pytest.raises(ValueError):
        fn((2, -1))
    with pytest.raises(TypeError):
        fn((2, 1.5))
    with pytest.raises(TypeError):
        fn(3, dtype="U3")
    with pytest.raises(TypeError):
        fn(3, dtype=object)


# ------------------------------------------------------------------ full
@pytest.mark.parametrize("value,dt", [(True, "bool"), (False, "bool"), (3, "int64"),
                                      (-(2 ** 63), "int64"), (2.5, "float64"), (-0.0, "float64"),
                                      (float("nan"), "float64"), (1 - 1j, "complex128")],
                         ids=repr)
def test_full_dtype_inference(value, dt):
    x = ua.full((2, 3), value)
    _assert_same(x, np.full((2, 3), value, dtype=dt))
    if isinstance(value, float):
        np.testing.assert_array_equal(np.signbit(_host(x)), np.signbit(np.full((2, 3), value)))


def test_full_each_dtype(dtype):
    k = np.dtype(dtype).kind
    value = {"b": True, "i": -7, "u": 200, "f": -1.25, "c": 2 + 3j}[k]
    _assert_same(ua.full((4, 2), value, dtype=dtype), np.full((4, 2), value, dtype=dtype))
    _assert_same(ua.full((), value, dtype=dtype), np.full((), value, dtype=dtype))
    _assert_same(ua.full(0, value, dtype=dtype), np.full(0, value, dtype=dtype))


def test_full_with_dtype_conversion():
    _assert_same(ua.full(3, 2.7, dtype="i4"), np.full(3, 2.7).astype("i4"))
    _assert_same(ua.full(3, 5, dtype="f4"), np.full(3, 5, dtype="f4"))
    _assert_same(ua.full(3, True, dtype="f8"), np.full(3, True, dtype="f8"))
    _assert_same(ua.full(3, 1, dtype="?"), np.full(3, 1, dtype="?"))
    _assert_same(ua.full(3, 2 ** 64 - 1, dtype="u8"), np.full(3, 2 ** 64 - 1, dtype="u8"))
    with pytest.raises(OverflowError):
        ua.full(3, 300, dtype="i1")
    with pytest.raises(OverflowError):
        ua.full(3, -1, dtype="u4")


def test_full_numpy_scalar_fill():
    x = ua.full(3, np.float32(1.5))
    assert x.dtype.kind == "f"
    np.testing.assert_array_equal(_host(x), [1.5, 1.5, 1.5])
    y = ua.full(2, np.int16(4))
    assert y.dtype.kind == "i"
    np.testing.assert_array_equal(_host(y), [4, 4])


def test_full_order_f():
    x = ua.full((2, 3), 1.5, order="F")
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    _assert_same(x, np.full((2, 3), 1.5))


@pytest.mark.parametrize("fill_dt", ["i2", "f4", "c16", "?"])
def test_full_0d_usm_fill(fill_dt):
    fv = ua.full((), 3, dtype=fill_dt)
    x = ua.full((2, 4), fv)
    _assert_same(x, np.full((2, 4), 3, dtype=fill_dt))
    y = ua.full((3,), fv, dtype="f8")
    _assert_same(y, np.full(3, float(np.array(3, dtype=fill_dt).real)))
    z = ua.full((3,), fv, usm_type="host")
    assert z.usm_type == "host"
    _assert_same(z, np.full(3, 3, dtype=fill_dt))


def test_full_0d_usm_fill_other_queue():
    q = dpctl.SyclQueue()
    fv = ua.full((), 2.0)
    x = ua.full(3, fv, sycl_queue=q)
    assert x.sycl_queue == q
    _assert_same(x, np.full(3, 2.0))


def test_full_bad_fill():
    with pytest.raises(TypeError):
        ua.full(3, "a")
    with pytest.raises(TypeError):
        ua.full(3, None)


# ------------------------------------------------------------------ arange
@pytest.mark.parametrize("args", [(10,), (0,), (-3,), (2, 10), (2, 10, 3), (10, 2, -3), (10, 2),
                                  (5, 5), (-5, 5, 1), (-10, 10, 7), (7, -7, -2), (0, 1, 100),
                                  (3, 100000, 7), (2 ** 40, 2 ** 40 + 5)], ids=repr)
def test_arange_int(args):
    x = ua.arange(*args)
    _assert_same(x, np.arange(*args))


@pytest.mark.parametrize("args", [(1.0,), (0.5, 3.2, 0.3), (3.2, 0.5, -0.3), (0, 1, 0.1),
                                  (-1.5, 1.5, 0.5), (0.0, 1e-3, 1e-4), (10, 0.0, -1.5),
                                  (0.0, 0.0, 0.1), (1.0, 0.0, 0.1), (0, 5, 1.0), (2.5,),
                                  (-2.5, 10.0, 0.125)], ids=repr)
def test_arange_float(args):
    _assert_same(ua.arange(*args), np.arange(*args))   # NumPy's values, bit for bit


@pytest.mark.parametrize("dt", ["i1", "u1", "i2", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"])
def test_arange_dtype(dt):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("dtype not supported by the device")
    for args in [(10,), (1, 20, 3), (90, 10, -7)]:
        if np.dtype(dt).kind == "u" and args[-1] < 0:
            h = np.arange(*args).astype(dt)
        else:
            h = np.arange(*args, dtype=dt)
        _assert_same(ua.arange(*args, dtype=dt), h)


@pytest.mark.parametrize("dt", ["f2", "f4", "f8"])
def test_arange_random_float_steps_as_numpy(dt):
    # NumPy's items: start, start + step, then start + i * (their difference),
    # in float32 for float16 and float32 (start + i * step was 1 ulp off)
    if not _device_supports(np.dtype(dt)):
        pytest.skip("dtype not supported by the device")
    rng = np.random.default_rng(7)
    for _ in range(100):
        a = float(rng.uniform(-50, 50))
        step = float(rng.uniform(0.01, 3)) * rng.choice([-1, 1])
        b = a + step * int(rng.integers(1, 100))
        _assert_same(ua.arange(a, b, step, dtype=dt), np.arange(a, b, step, dtype=dt))


def test_arange_float_bounds_int_dtype():
    _assert_same(ua.arange(0.5, 5.5, 1.5, dtype="i4"), np.arange(0.5, 5.5, 1.5, dtype="i4"))


def test_arange_large_float_exact_values():
    x = ua.arange(0.0, 1000.0, 0.5)
    np.testing.assert_array_equal(_host(x), np.arange(0.0, 1000.0, 0.5))


def test_arange_keyword_stop_and_step():
    _assert_same(ua.arange(3, stop=9, step=2), np.arange(3, 9, 2))


def test_arange_errors():
    with pytest.raises(ValueError):
        ua.arange(0, 10, 0)
    with pytest.raises(ValueError):
        ua.arange(0.0, 1.0, 0.0)
    with pytest.raises(TypeError):
        ua.arange(1 + 2j)
    with pytest.raises(TypeError):
        ua.arange("10")
    # NumPy's rule: the first two values must be of the dtype, the rest wrap
    for args in ((250, 260), (127, 130), (0, 70000, 1000), (-5, 5)):
        dt = "u1" if args == (-5, 5) else "i1"
        with pytest.raises(OverflowError):
            np.arange(*args, dtype=dt)
        with pytest.raises(OverflowError):
            ua.arange(*args, dtype=dt)
    for args, dt in (((300,), "i1"), ((0, 300, 7), "u1"), ((255, 250, -1), "u1"),
                     ((0, -300, -1), "i1"), ((0, 70000), "i2")):
        np.testing.assert_array_equal(ua.asnumpy(ua.arange(*args, dtype=dt)),
                                      np.arange(*args, dtype=dt))
    np.testing.assert_array_equal(ua.asnumpy(ua.arange(0, 5, None)), np.arange(5))
    for args in ((0, float("inf")), (0.0, 1.0, float("nan")), (float("-inf"), 0.0)):
        with pytest.raises(ValueError):   # NumPy's error for a count that is not finite
            ua.arange(*args)


# ------------------------------------------------------------------ linspace
@pytest.mark.parametrize("args", [(0, 1, 5), (0, 1, 1), (0, 1, 0), (-3.5, 7.25, 11), (5, -5, 4),
                                  (0, 1, 2), (2, 2, 5), (1e-3, 1e3, 7), (0, 10, 1000)], ids=repr)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_float(args, endpoint):
    x = ua.linspace(*args, endpoint=endpoint)
    h = np.linspace(*args, endpoint=endpoint)
    _assert_same(x, h, exact=False)
    if endpoint and args[2] > 1:
        assert float(x[-1]) == float(args[1])
    if args[2] > 0:
        assert float(x[0]) == float(args[0])


@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_complex(endpoint):
    for start, stop, num in [(0, 1 + 2j, 4), (1j, -1j, 5), (1 + 1j, 3.0, 1), (0j, 2j, 0)]:
        x = ua.linspace(start, stop, num, endpoint=endpoint)
        h = np.linspace(start, stop, num, endpoint=endpoint)
        _assert_same(x, h, exact=False)
    x = ua.linspace(0, 1 + 1j, 3, dtype="c8")
    _assert_same(x, np.linspace(0, 1 + 1j, 3, dtype="c8"), exact=False)


@pytest.mark.parametrize("dt", ["f2", "f4"])
def test_linspace_float_dtypes(dt):
    if not _device_supports(np.dtype(dt)):
        pytest.skip("dtype not supported by the device")
    _assert_same(ua.linspace(0, 2, 9, dtype=dt), np.linspace(0, 2, 9, dtype=dt), exact=False)


@pytest.mark.parametrize("args", [(0, 10, 7), (0, 100, 6), (3, 20, 5), (0, 10, 4)], ids=repr)
@pytest.mark.parametrize("dt", ["i4", "i8", "u2"])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_int_dtype(args, dt, endpoint):
    _assert_same(ua.linspace(*args, dtype=dt, endpoint=endpoint),
                 np.linspace(*args, dtype=dt, endpoint=endpoint))


def test_linspace_int_dtype_exact_points():
    # the point (-50, 76, 21)[10] is 13 exactly: a fused multiply-add made it
    # 12.999999999999998, floored to 12
    _assert_same(ua.linspace(-50, 76, 21, dtype="i8"), np.linspace(-50, 76, 21, dtype="i8"))
    rng = np.random.default_rng(5)
    for _ in range(200):
        a, b = (int(v) for v in rng.integers(-100, 100, 2))
        n, endpoint = int(rng.integers(2, 60)), bool(rng.integers(0, 2))
        _assert_same(ua.linspace(a, b, n, dtype="i8", endpoint=endpoint),
                     np.linspace(a, b, n, dtype="i8", endpoint=endpoint))
        _assert_same(ua.linspace(a / 3, b * 1.7, n, endpoint=endpoint),
                     np.linspace(a / 3, b * 1.7, n, endpoint=endpoint))


@pytest.mark.parametrize("args", [(-10, 0, 7), (5, -5, 6), (-1, 1, 9)], ids=repr)
def test_linspace_int_dtype_negative_values(args):
    _assert_same(ua.linspace(*args, dtype="i4"), np.linspace(*args, dtype="i4"))


def test_linspace_errors():
    with pytest.raises(ValueError):
        ua.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        ua.linspace(0, 1, 2.5)
    with pytest.raises(TypeError):
        ua.linspace("0", 1, 3)
    with pytest.raises(TypeError):
        ua.linspace(0, 1j, 3, dtype="f8")


# ------------------------------------------------------------------ eye
@pytest.mark.parametrize("n,m", [(1, None), (3, None), (3, 5), (5, 3), (0, None), (4, 0), (0, 3)])
@pytest.mark.parametrize("k", [0, 1, -1, 2, -2, 4, -4, 10, -10])
def test_eye(n, m, k):
    _assert_same(ua.eye(n, m, k=k), np.eye(n, m, k=k))


def test_eye_each_dtype(dtype):
    _assert_same(ua.eye(4, 3, k=-1, dtype=dtype), np.eye(4, 3, k=-1, dtype=dtype))


@pytest.mark.parametrize("k", [0, 2, -1])
def test_eye_order_f(k):
    x = ua.eye(4, 6, k=k, order="F")
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    _assert_same(x, np.eye(4, 6, k=k))


def test_eye_errors():
    with pytest.raises(ValueError):
        ua.eye(-1)
    with pytest.raises(ValueError):
        ua.eye(2, -3)
    with pytest.raises(TypeError):
        ua.eye(2.5)
    with pytest.raises(TypeError):
        ua.eye(3, k=1.5)


# ------------------------------------------------------------------ *_like
LIKE_FNS = {
    "empty_like": lambda x, **kw: ua.empty_like(x, **kw),
    "zeros_like": lambda x, **kw: ua.zeros_like(x, **kw),
    "ones_like": lambda x, **kw: ua.ones_like(x, **kw),
    "full_like": lambda x, **kw: ua.full_like(x, 3, **kw),
}
NP_LIKE = {
    "zeros_like": lambda h, **kw: np.zeros_like(h, **kw),
    "ones_like": lambda h, **kw: np.ones_like(h, **kw),
    "full_like": lambda h, **kw: np.full_like(h, 3, **kw),
}


@pytest.mark.parametrize("name", list(LIKE_FNS))
def test_like_defaults_from_x(name, dtype):
    for ut in ["device", "shared", "host"]:
        h = sample((3, 4), dtype)
        x = ua.asarray(h, usm_type=ut)
        y = LIKE_FNS[name](x)
        assert y.shape == x.shape
        assert y.dtype == x.dtype
        assert y.usm_type == ut
        assert y.sycl_queue == x.sycl_queue
        if name in NP_LIKE:
            _assert_same(y, NP_LIKE[name](h))


@pytest.mark.parametrize("name", list(LIKE_FNS))
def test_like_overrides(name):
    x = ua.asarray(np.arange(6, dtype="i4").reshape(2, 3))
    q = dpctl.SyclQueue()
    y = LIKE_FNS[name](x, dtype="f4", usm_type="shared", sycl_queue=q)
    assert y.dtype == ua.float32 and y.usm_type == "shared" and y.sycl_queue == q
    if name in NP_LIKE:
        _assert_same(y, NP_LIKE[name](np.empty((2, 3), "i4"), dtype="f4"))
    z = LIKE_FNS[name](x, device=ua.Device.create_device(q))
    assert z.sycl_queue == q and z.dtype == ua.int32 and z.usm_type == "device"


@pytest.mark.parametrize("name", list(LIKE_FNS))
def test_like_order(name):
    hf = np.asfortranarray(np.arange(12, dtype="f4").reshape(3, 4))
    xf = ua.asarray(hf)
    assert xf.flags.f_contiguous
    y = LIKE_FNS[name](xf)
    assert y.flags.f_contiguous and not y.flags.c_contiguous
    assert LIKE_FNS[name](xf, order="C").flags.c_contiguous
    assert LIKE_FNS[name](ua.zeros((3, 4)), order="F").flags.f_contiguous
    # 'K' on a permuted (neither C nor F) array keeps the order of its strides
    h = np.arange(24.0).reshape(2, 3, 4)
    hp = np.transpose(h, (1, 2, 0))
    xp = ua.permute_dims(ua.asarray(h), (1, 2, 0))
    yp = LIKE_FNS[name](xp)
    ref = np.empty_like(hp)
    assert yp.strides == tuple(s // ref.itemsize for s in ref.strides)
    if name in NP_LIKE:
        _assert_same(yp, NP_LIKE[name](hp))
    # strided input: the result is a fresh dense array
    ys = LIKE_FNS[name](ua.asarray(h)[:, ::-1, ::2])
    assert ys.shape == (2, 3, 2)
    assert ys.flags.c_contiguous
    with pytest.raises(ValueError):
        LIKE_FNS[name](xf, order="Z")


def test_full_like_values():
    xi = ua.zeros(4, dtype="i2")
    _assert_same(ua.full_like(xi, 2.9), np.full_like(np.zeros(4, "i2"), 2.9))
    _assert_same(ua.full_like(xi, 5, dtype="c8"), np.full(4, 5, dtype="c8"))
    xb = ua.zeros(3, dtype="?")
    _assert_same(ua.full_like(xb, True), np.full(3, True))
    fv = ua.full((), 6, dtype="i8")
    _assert_same(ua.full_like(ua.zeros((2, 2)), fv), np.full((2, 2), 6.0))
    with pytest.raises(TypeError):
        ua.full_like(xi, "x")
    with pytest.raises(OverflowError):
        ua.full_like(xi, 2 ** 20)


def test_like_requires_usm_ndarray():
    with pytest.raises(TypeError):
        ua.zeros_like(np.zeros(3))
    with pytest.raises(TypeError):
        ua.empty_like([1, 2])


def test_like_zero_size():
    x = ua.empty((0, 3), dtype="u2")
    for name in LIKE_FNS:
        y = LIKE_FNS[name](x)
        assert y.shape == (0, 3) and y.dtype == ua.uint16


# ------------------------------------------------------------------ tril / triu
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 2, 3, 3), (1, 1), (0, 3),
                                   (3, 0), (2, 0, 2)])
@pytest.mark.parametrize("k", [0, 1, -1, 2, -3, 10, -10])
def test_tril_triu(shape, k):
    h = sample(shape, "f4")
    x = ua.asarray(h)
    _assert_same(ua.tril(x, k=k), np.tril(h, k=k))
    _assert_same(ua.triu(x, k=k), np.triu(h, k=k))
    _assert_same(x, h)   # input untouched


def test_tril_triu_each_dtype(dtype):
    h = sample((3, 5, 4), dtype)
    x = ua.asarray(h)
    _assert_same(ua.tril(x, k=1), np.tril(h, k=1))
    _assert_same(ua.triu(x, k=-1), np.triu(h, k=-1))


@pytest.mark.parametrize("view", ["T", "step", "neg", "perm", "fortran", "bcast"])
@pytest.mark.parametrize("k", [0, 1, -2])
def test_tril_triu_non_contiguous(view, k):
    h = sample((6, 8, 10), "i4")
    x = ua.asarray(h)
    if view == "T":
        xv, hv = ua.permute_dims(x, (0, 2, 1)), np.transpose(h, (0, 2, 1))
    elif view == "step":
        xv, hv = x[::2, 1::2, ::3], h[::2, 1::2, ::3]
    elif view == "neg":
        xv, hv = x[:, ::-1, ::-2], h[:, ::-1, ::-2]
    elif view == "perm":
        xv, hv = ua.permute_dims(x, (2, 0, 1)), np.transpose(h, (2, 0, 1))
    elif view == "fortran":
        hf = np.asfortranarray(h[0])
        xv, hv = ua.asarray(hf), hf
    else:
        xv, hv = ua.broadcast_to(x[0, 0], (3, 4, 10)), np.broadcast_to(h[0, 0], (3, 4, 10))
    _assert_same(ua.tril(xv, k=k), np.tril(hv, k=k))
    _assert_same(ua.triu(xv, k=k), np.triu(hv, k=k))


def test_tril_triu_keeps_placement():
    x = ua.asarray(np.ones((3, 3)), usm_type="shared")
    for fn in (ua.tril, ua.triu):
        y = fn(x)
        assert y.usm_type == "shared" and y.sycl_queue == x.sycl_queue
        assert y.dtype == x.dtype
        y[...] = 5.0        # a new array
        assert float(x[0, 0]) == 1.0


def test_tril_triu_errors():
    for fn in (ua.tril, ua.triu):
        with pytest.raises(ValueError):
            fn(ua.ones(3))
        with pytest.raises(ValueError):
            fn(ua.full((), 1.0))
        with pytest.raises(TypeError):
            fn(np.ones((3, 3)))


# ------------------------------------------------------------------ meshgrid
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(4,), (3, 5), (2, 3, 4), (0, 3), (1, 1, 1), (3, 2, 0)],
                         ids=repr)
def test_meshgrid(indexing, sizes):
    hs = [np.arange(n, dtype="f4") * (i + 1) - i for i, n in enumerate(sizes)]
    xs = [ua.asarray(h) for h in hs]
    out = ua.meshgrid(*xs, indexing=indexing)
    ref = np.meshgrid(*hs, indexing=indexing)
    assert isinstance(out, (list, tuple))
    assert len(out) == len(ref)
    for o, r in zip(out, ref):
        _assert_same(o, r)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_non_contiguous_inputs(indexing):
    h1 = np.arange(10, dtype="i8")
    h2 = np.arange(12, dtype="i8") * 10
    x1, x2 = ua.asarray(h1)[::-3], ua.asarray(h2)[1::2]
    out = ua.meshgrid(x1, x2, indexing=indexing)
    ref = np.meshgrid(h1[::-3], h2[1::2], indexing=indexing)
    for o, r in zip(out, ref):
        _assert_same(o, r)


def test_meshgrid_outputs_are_independent():
    a = ua.asarray(np.arange(3.0))
    b = ua.asarray(np.arange(2.0))
    g1, g2 = ua.meshgrid(a, b)
    g1[...] = -1.0
    _assert_same(a, np.arange(3.0))
    _assert_same(g2, np.meshgrid(np.arange(3.0), np.arange(2.0))[1])


def test_meshgrid_placement():
    a = ua.asarray(np.arange(3.0), usm_type="host")
    b = ua.asarray(np.arange(2.0), usm_type="shared")
    out = ua.meshgrid(a, b)
    for o in out:
        assert o.usm_type == "shared"
        assert o.sycl_queue == a.sycl_queue
    c = ua.asarray(np.arange(2.0), usm_type="device")
    assert all(o.usm_type == "device" for o in ua.meshgrid(a, c))
    assert all(o.usm_type == "host" for o in ua.meshgrid(a, a))


def test_meshgrid_each_dtype(dtype):
    h1, h2 = sample((3,), dtype), sample((4,), dtype, seed=1)
    out = ua.meshgrid(ua.asarray(h1), ua.asarray(h2))
    for o, r in zip(out, np.meshgrid(h1, h2)):
        _assert_same(o, r)


def test_meshgrid_errors():
    a = ua.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        ua.meshgrid(a, ua.asarray(np.arange(3, dtype="f4")))
    with pytest.raises(TypeError):
        ua.meshgrid(a, ua.asarray(np.arange(3)))
    with pytest.raises(ValueError):
        ua.meshgrid(a, ua.zeros((2, 2)))
    with pytest.raises(ValueError):
        ua.meshgrid(ua.full((), 1.0))
    with pytest.raises(ValueError):
        ua.meshgrid(a, indexing="xyz")
    with pytest.raises(TypeError):
        ua.meshgrid(a, np.arange(3.0))


def test_meshgrid_other_queue_raises():
    a = ua.asarray(np.arange(3.0))
    b = ua.asarray(np.arange(3.0), sycl_queue=dpctl.SyclQueue())
    with pytest.raises(ValueError):        # ExecutionPlacementError is a ValueError
        ua.meshgrid(a, b)


def test_meshgrid_no_inputs():
    assert list(ua.meshgrid()) == []


def test_complex_fill_into_bool_is_its_truth():
    np.testing.assert_array_equal(ua.asnumpy(ua.full(2, 1j, dtype=ua.bool)), [True, True])
    np.testing.assert_array_equal(ua.asnumpy(ua.full(2, 0j, dtype=ua.bool)), [False, False])
    np.testing.assert_array_equal(ua.asnumpy(ua.full_like(ua.zeros(3), 1j, dtype=ua.bool)),
                                  [True] * 3)


@pytest.mark.parametrize("call", [
    lambda m: m.full(2, np.int8(1)), lambda m: m.full(2, np.float32(1.5)),
    lambda m: m.full(2, np.bool_(True)), lambda m: m.full(2, 1.5),
    lambda m: m.linspace(np.float32(0), 1, 3), lambda m: m.linspace(np.float32(0),
                                                                     np.float32(1), 3),
    lambda m: m.linspace(np.complex64(0), 1, 3), lambda m: m.linspace(0, 1, 3),
    lambda m: m.logspace(np.float32(1), 2, 3), lambda m: m.logspace(1, 2, 3),
    lambda m: m.arange(0.5, 1.0, dtype=bool), lambda m: m.arange(0.5, 2.5, dtype=bool),
], ids=lambda c: "")
def test_numpy_scalars_keep_their_types(call):
    """NumPy scalars are typed and Python numbers weak, as in NumPy (a
    float32 end makes a float32 linspace); bool aranges of fractional bounds."""
    expected = call(np)
    got = call(ua)
    if not _device_supports(expected.dtype):
        pytest.skip("the device lacks the dtype")
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=1e-6)


def test_insert_refuses_a_complex_scalar_into_a_real_array():
    with pytest.raises(TypeError):
        ua.insert(ua.asarray(np.arange(3.0)), 1, 2 + 5j)
    _assert_same(ua.insert(ua.asarray(np.arange(3.0) + 0j), 1, 2 + 5j),
                 np.insert(np.arange(3.0) + 0j, 1, 2 + 5j))


def test_linspace_retstep():
    for args, kw in (((2, 3, 5), {}), ((2, 3, 1), {}), ((0, 1, 4), dict(endpoint=False)),
                     ((0, 1, 0), {})):
        got, step = ua.linspace(*args, retstep=True, **kw)
        e, estep = np.linspace(*args, retstep=True, **kw)
        np.testing.assert_allclose(ua.asnumpy(got), e)
        assert (math.isnan(step) and math.isnan(estep)) or step == estep


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse, copy", [(True, True), (True, False), (False, False)])
def test_meshgrid_sparse_and_views(indexing, sparse, copy):
    a, b = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0])
    x, y = ua.asarray(a), ua.asarray(b)
    expected = np.meshgrid(a, b, indexing=indexing, sparse=sparse, copy=copy)
    for got in (ua.meshgrid(x, y, indexing=indexing, sparse=sparse, copy=copy),
                np.meshgrid(x, y, indexing=indexing, sparse=sparse, copy=copy)):
        for g, e in zip(got, expected):
            assert g.shape == e.shape
            np.testing.assert_array_equal(ua.asnumpy(g), e)
    if not copy and not sparse:
        assert not ua.meshgrid(x, y, copy=False)[0].flags.writable   # (items repeat)


# ------------------------------------------------------- from a fuzz against NumPy
@pytest.mark.parametrize("fill, dt", [(np.int64(300), "int8"), (np.float64(-3.5), "uint8"),
                                      (np.float16(65504), "int8"), (np.uint64(2**64 - 1), "int8"),
                                      (np.float64("nan"), "int8"), (np.int16(-3), "uint16")],
                         ids=repr)
def test_full_casts_numpy_scalars_as_numpy(fill, dt):
    """A NumPy scalar fill is typed: cast as NumPy's full casts it (as
    x.fill and x[...] = store it), not range-checked as a Python int."""
    with np.errstate(all="ignore"):
        expected = np.full(3, fill, dtype=dt)
        like = np.full_like(np.zeros(3, dt), fill)
    np.testing.assert_array_equal(ua.asnumpy(ua.full(3, fill, dtype=dt)), expected)
    np.testing.assert_array_equal(ua.asnumpy(ua.full_like(ua.zeros(3, dtype=dt), fill)), like)
    with pytest.raises(OverflowError):   # (a Python int out of range still raises)
        ua.full(3, 300, dtype="int8")


@pytest.mark.parametrize("args, dt", [((1e5, 0, -1), "float16"), ((1e39, 0, -1e38), "float32"),
                                      ((0.5, 3.0, 1.0), "float64")], ids=str)
def test_arange_first_items_are_numpys(args, dt):
    """An arange whose start overflows the dtype starts with inf, as NumPy's
    (start + 0 * (inf - inf) was NaN)."""
    if not _device_supports(dt):
        pytest.skip(f"{dt} not supported")
    with np.errstate(all="ignore"):
        expected = np.arange(*args, dtype=dt)[:4]
    np.testing.assert_array_equal(ua.asnumpy(ua.arange(*args, dtype=dt))[:4], expected)


@pytest.mark.parametrize("k", [2**63, -2**63 - 1, 2**70, -2**70, 3, -3])
def test_triangles_of_any_k(k):
    h = np.arange(6.0).reshape(2, 3)
    kn = min(max(k, -10), 10)   # (NumPy's own tri takes a C long)
    np.testing.assert_array_equal(ua.asnumpy(ua.tril(ua.asarray(h), k=k)), np.tril(h, k=kn))
    np.testing.assert_array_equal(ua.asnumpy(ua.triu(ua.asarray(h), k=k)), np.triu(h, k=kn))
    np.testing.assert_array_equal(ua.asnumpy(ua.tri(2, 3, k=k)), np.tri(2, 3, k=kn))
