"""Tests of the usm_ndarray object: constructor, attributes, flags, views,
scalar conversion, host interoperability and devices."""

import copy as pycopy
import math
import operator
import sys

import dpctl
import dpctl.memory as dpm
import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES as DTYPES, device_supports as _device_supports, sample


MEMORY_CLASSES = {"device": dpm.MemoryUSMDevice, "shared": dpm.MemoryUSMShared,
                  "host": dpm.MemoryUSMHost}


def _host(x):
    return ua.asnumpy(x)


def _fresh(shape, dtype, seed=0, usm_type="device"):
    """(usm_ndarray, NumPy copy) with deterministic varied data."""
    h = sample(shape, dtype, seed)
    return ua.asarray(h, usm_type=usm_type), h


def _scalar(value, dtype=None):
    """A 0-d array (built with full, independent of asarray's scalar handling)."""
    return ua.full((), value, dtype=dtype)


def _mem_values(mem, dtype):
    # usmarray's writes are asynchronous: code that reads the memory through
    # another API (here dpctl) synchronises with the queue first.
    mem.sycl_queue.wait()
    return np.frombuffer(mem.copy_to_host().tobytes(), dtype=dtype)


# ------------------------------------------------------------------ constructor
@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_ctor_buffer_kinds(usm_type):
    x = ua.usm_ndarray((2, 3), dtype="i4", buffer=usm_type)
    assert x.usm_type == usm_type
    assert x.shape == (2, 3)
    assert x.dtype == np.dtype("int32")
    assert x.strides == (3, 1)
    assert isinstance(x.usm_data, MEMORY_CLASSES[usm_type])
    assert x.usm_data.get_usm_type() == usm_type
    assert x.usm_data.nbytes == x.nbytes   # the array's bytes, not its pool block
    x[...] = np.arange(6, dtype="i4").reshape(2, 3)
    np.testing.assert_array_equal(_host(x), np.arange(6).reshape(2, 3))


def test_ctor_default_buffer_is_device_and_default_queue():
    x = ua.usm_ndarray(4)
    assert x.usm_type == "device"
    assert x.shape == (4,)
    assert x.sycl_queue == ua.get_default_queue()


def test_ctor_default_dtype_is_float64_with_fp64():
    assert ua.get_default_queue().sycl_device.has_aspect_fp64
    x = ua.usm_ndarray((3,))
    assert x.dtype == ua.float64
    assert x.dtype == ua.__array_namespace_info__().default_dtypes()["real floating"]


def test_ctor_buffer_ctor_kwargs_queue():
    q = dpctl.SyclQueue()
    x = ua.usm_ndarray((5,), dtype="f4", buffer="shared", buffer_ctor_kwargs={"queue": q})
    assert x.sycl_queue == q
    assert x.usm_type == "shared"
    x[...] = 1.5
    np.testing.assert_array_equal(_host(x), np.full(5, 1.5, "f4"))


def test_ctor_refuses_unknown_kwargs_and_byte_orders():
    # as dpctl.tensor: TypeError for a keyword dpctl.memory does not take,
    # ValueError for a non-native byte order over memory holding items (the
    # bytes would be misread; new memory takes the native order)
    with pytest.raises(TypeError):
        ua.usm_ndarray((2,), "f4", buffer_ctor_kwargs={"foo": 1})
    assert ua.usm_ndarray((2,), "f4", buffer_ctor_kwargs={"alignment": 64}).shape == (2,)
    swapped = ">f4" if sys.byteorder == "little" else "<f4"
    with pytest.raises(ValueError):
        ua.usm_ndarray((1,), swapped, buffer=ua.zeros(2, dtype="f4"))


def test_ctor_negative_strides_on_new_memory():
    # dpctl.tensor places element zero so that the array fits
    x = ua.usm_ndarray((2, 3), "i4", strides=(-3, -1))
    x[...] = ua.asarray(np.arange(6, dtype="i4").reshape(2, 3))
    np.testing.assert_array_equal(ua.asnumpy(x), np.arange(6).reshape(2, 3))
    assert x._off == 5
    assert ua.usm_ndarray((3,), "i4", strides=(-1,), offset=2)._off == 2   # given: kept


@pytest.mark.parametrize("rep", range(3))
@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_ctor_on_dpctl_memory_is_zero_copy(usm_type, rep):
    q = dpctl.SyclQueue()
    mem = MEMORY_CLASSES[usm_type](10 * 8, queue=q)
    mem.copy_from_host(np.arange(10, dtype="i8").view(np.uint8))
    x = ua.usm_ndarray((10,), dtype="i8", buffer=mem)
    assert x.usm_data is mem
    assert x.usm_type == usm_type
    assert x.sycl_queue == q
    np.testing.assert_array_equal(_host(x), np.arange(10))
    x[2:5] = -7
    expected = np.arange(10)
    expected[2:5] = -7
    np.testing.assert_array_equal(_mem_values(mem, "i8"), expected)
    # a strided write through a view
    x[::3] = 100
    expected[::3] = 100
    np.testing.assert_array_equal(_mem_values(mem, "i8"), expected)


@pytest.mark.parametrize("rep", range(3))
@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_ctor_on_dpctl_memory_write_visible_after_queue_wait(usm_type, rep):
    q = dpctl.SyclQueue()
    mem = MEMORY_CLASSES[usm_type](10 * 4, queue=q)
    mem.copy_from_host(np.zeros(10, dtype="i4").view(np.uint8))
    x = ua.usm_ndarray((10,), dtype="i4", buffer=mem)
    x[1::2] = 3
    x.sycl_queue.wait()
    np.testing.assert_array_equal(_mem_values(mem, "i4"), [0, 3] * 5)


@pytest.mark.parametrize("rep", range(3))
@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_usm_data_of_foreign_memory_sees_writes(usm_type, rep):
    q = dpctl.SyclQueue()
    mem = MEMORY_CLASSES[usm_type](8 * 8, queue=q)
    mem.copy_from_host(np.zeros(8, dtype="f8").view(np.uint8))
    x = ua.usm_ndarray((8,), dtype="f8", buffer=mem)
    x[::-3] = 2.5
    expected = np.zeros(8)
    expected[::-3] = 2.5
    # usm_data hands the memory to code outside usmarray: the write must be complete
    np.testing.assert_array_equal(_mem_values(x.usm_data, "f8"), expected)


def test_ctor_on_dpctl_memory_with_offset_and_strides():
    mem = dpm.MemoryUSMShared(12 * 4)
    mem.copy_from_host(np.arange(12, dtype="f4").view(np.uint8))
    x = ua.usm_ndarray((2, 3), dtype="f4", buffer=mem, offset=1, strides=(5, 2))
    base = np.arange(12, dtype="f4")
    expected = np.lib.stride_tricks.as_strided(base[1:], shape=(2, 3), strides=(20, 8))
    np.testing.assert_array_equal(_host(x), expected)
    x[...] = 0
    base2 = np.arange(12, dtype="f4")
    np.lib.stride_tricks.as_strided(base2[1:], shape=(2, 3), strides=(20, 8))[...] = 0
    np.testing.assert_array_equal(_mem_values(mem, "f4"), base2)


def test_ctor_on_dpctl_memory_too_small():
    mem = dpm.MemoryUSMDevice(40)
    with pytest.raises(ValueError):
        ua.usm_ndarray((11,), dtype="f4", buffer=mem)
    with pytest.raises(ValueError):
        ua.usm_ndarray((10,), dtype="f8", buffer=mem)
    with pytest.raises(ValueError):
        ua.usm_ndarray((10,), dtype="f4", buffer=mem, offset=1)
    with pytest.raises(ValueError):
        ua.usm_ndarray((3,), dtype="f4", buffer=mem, strides=(5,))
    # exactly fits
    x = ua.usm_ndarray((10,), dtype="f4", buffer=mem)
    assert x.nbytes == 40
    y = ua.usm_ndarray((3,), dtype="f4", buffer=mem, strides=(4,), offset=1)
    assert y.shape == (3,)


def test_ctor_on_usm_ndarray_buffer():
    base = ua.asarray(np.arange(12, dtype="i4"))
    v = ua.usm_ndarray((3, 2), dtype="i4", buffer=base, offset=2, strides=(3, 1))
    hb = np.arange(12, dtype="i4")
    expected = np.lib.stride_tricks.as_strided(hb[2:], shape=(3, 2), strides=(12, 4))
    np.testing.assert_array_equal(_host(v), expected)
    assert v.usm_type == base.usm_type
    assert v.sycl_queue == base.sycl_queue
    # shares memory with base
    v[...] = -1
    expected_base = hb.copy()
    np.lib.stride_tricks.as_strided(expected_base[2:], shape=(3, 2), strides=(12, 4))[...] = -1
    np.testing.assert_array_equal(_host(base), expected_base)


def test_ctor_on_usm_ndarray_buffer_reinterprets_dtype():
    base = ua.asarray(np.arange(4, dtype="i4"))
    v = ua.usm_ndarray((2,), dtype="i8", buffer=base)
    np.testing.assert_array_equal(_host(v), np.arange(4, dtype="i4").view("i8"))


def test_ctor_on_usm_ndarray_buffer_must_fit():
    base = ua.empty(6, dtype="i4")
    with pytest.raises(ValueError):
        ua.usm_ndarray((7,), dtype="i4", buffer=base)
    with pytest.raises(ValueError):
        ua.usm_ndarray((6,), dtype="i4", buffer=base, offset=1)
    with pytest.raises(ValueError):
        ua.usm_ndarray((4,), dtype="i8", buffer=base)
    with pytest.raises(ValueError):
        ua.usm_ndarray((2, 2), dtype="i4", buffer=base, strides=(4, 2))
    ok = ua.usm_ndarray((2, 2), dtype="i4", buffer=base, strides=(3, 2))
    assert ok.shape == (2, 2)


def test_ctor_strides_and_offset_in_elements():
    x = ua.usm_ndarray((2, 3), dtype="i2", strides=(1, 2), offset=3, buffer="shared")
    assert x.strides == (1, 2)
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    x[...] = np.array([[1, 2, 3], [4, 5, 6]], dtype="i2")
    np.testing.assert_array_equal(_host(x), [[1, 2, 3], [4, 5, 6]])
    # the memory holds 3 + 6 elements at least, element zero at index 3
    raw = ua.usm_ndarray((6,), dtype="i2", buffer=x, offset=3)
    np.testing.assert_array_equal(_host(raw), [1, 4, 2, 5, 3, 6])


def test_ctor_negative_strides():
    base = ua.asarray(np.arange(10, dtype="f8"))
    r = ua.usm_ndarray((10,), dtype="f8", buffer=base, strides=(-1,), offset=9)
    np.testing.assert_array_equal(_host(r), np.arange(10)[::-1])
    assert r.strides == (-1,)
    assert not r.flags.c_contiguous and not r.flags.f_contiguous
    r2 = ua.usm_ndarray((2, 3), dtype="f8", buffer=base, strides=(-3, -1), offset=9)
    np.testing.assert_array_equal(_host(r2), [[9, 8, 7], [6, 5, 4]])
    r[0] = 42
    assert _host(base)[9] == 42
    with pytest.raises(ValueError):
        ua.usm_ndarray((10,), dtype="f8", buffer=base, strides=(-1,), offset=8)
    with pytest.raises(ValueError):
        ua.usm_ndarray((3,), dtype="f8", strides=(-1,), offset=1)   # new memory, starts before
    y = ua.usm_ndarray((3,), dtype="f8", strides=(-1,), offset=2)    # new memory, fits
    y[...] = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(_host(y), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3, 4), (3, 0, 0)])
def test_ctor_zero_size(shape):
    x = ua.usm_ndarray(shape, dtype="f4")
    assert x.shape == shape
    assert x.size == 0
    assert x.nbytes == 0
    assert x.ndim == len(shape)
    assert x.flags.c_contiguous and x.flags.f_contiguous
    assert _host(x).shape == shape
    assert len(x) == shape[0]


def test_ctor_zero_dim():
    x = ua.usm_ndarray((), dtype="i4")
    assert x.shape == () and x.ndim == 0 and x.size == 1 and x.strides == ()
    assert x.nbytes == 4
    x[...] = 5
    assert int(x) == 5


@pytest.mark.parametrize("shape", [(2, 3), (4, 1, 5), (3,)])
def test_ctor_order_f(shape):
    x = ua.usm_ndarray(shape, dtype="i4", order="F")
    expected_strides = tuple(s // 4 for s in np.empty(shape, "i4", order="F").strides)
    assert x.strides == expected_strides
    assert x.flags.f_contiguous
    assert x.flags.c_contiguous == (sum(d > 1 for d in shape) <= 1)
    h = np.arange(math.prod(shape), dtype="i4").reshape(shape)
    x[...] = h
    np.testing.assert_array_equal(_host(x), h)
    c = ua.usm_ndarray(shape, dtype="i4", order="C")
    assert c.strides == tuple(s // 4 for s in np.empty(shape, "i4").strides)


def test_ctor_shape_as_int_and_list():
    assert ua.usm_ndarray(5, dtype="u1").shape == (5,)
    assert ua.usm_ndarray([2, 3], dtype="u1").shape == (2, 3)
    assert ua.usm_ndarray(np.int64(4), dtype="u1").shape == (4,)
    assert ua.usm_ndarray((np.int32(2), 3), dtype="u1").shape == (2, 3)


@pytest.mark.parametrize("shape", [-1, (2, -3), (-1, 0)])
def test_ctor_negative_shape(shape):
    with pytest.raises(ValueError):
        ua.usm_ndarray(shape, dtype="f4")


@pytest.mark.parametrize("shape", [2.5, (2, 1.0), "abc", (None,), ((2,),)])
def test_ctor_non_int_shape(shape):
    with pytest.raises(TypeError):
        ua.usm_ndarray(shape, dtype="f4")


@pytest.mark.parametrize("order", ["K", "A", "c", None, 1])
def test_ctor_bad_order(order):
    with pytest.raises(ValueError):
        ua.usm_ndarray((2, 2), dtype="f4", order=order)


def test_ctor_bad_buffer():
    with pytest.raises(ValueError):
        ua.usm_ndarray((2,), dtype="f4", buffer="managed")
    with pytest.raises(TypeError):
        ua.usm_ndarray((2,), dtype="f4", buffer=bytearray(8))
    with pytest.raises(TypeError):
        ua.usm_ndarray((2,), dtype="f4", buffer=np.zeros(2, "f4"))


def test_ctor_strides_length_mismatch():
    with pytest.raises(ValueError):
        ua.usm_ndarray((2, 3), dtype="f4", strides=(3,))


def _unsupported_dtypes():
    out = [object, "U5", "S3", "V8", "M8[s]", "m8[s]", np.dtype([("a", "i4")])]
    ld = np.dtype(np.longdouble)
    if ld.itemsize > 8:
        out.append(np.longdouble)
        out.append(ld.name)        # e.g. 'float128'
    if np.dtype(np.clongdouble).itemsize > 16:
        out.append(np.clongdouble)
    return out


@pytest.mark.parametrize("dt", _unsupported_dtypes(), ids=str)
def test_ctor_unsupported_dtype(dt):
    with pytest.raises(TypeError):
        ua.usm_ndarray((2,), dtype=dt)


def test_ctor_unknown_dtype_string():
    with pytest.raises(TypeError):
        ua.usm_ndarray((2,), dtype="not-a-dtype")


def test_ctor_every_dtype(dtype):
    h = sample((3, 4), dtype)
    x = ua.usm_ndarray((3, 4), dtype=dtype)
    assert x.dtype == dtype
    assert x.itemsize == np.dtype(dtype).itemsize
    assert x.nbytes == 12 * np.dtype(dtype).itemsize
    assert x.strides == (4, 1)
    x[...] = h
    back = _host(x)
    assert back.dtype == dtype
    np.testing.assert_array_equal(back, h)


@pytest.mark.parametrize("spec,expected", [("f4", "float32"), ("i8", "int64"), ("?", "bool"),
                                           ("complex64", "complex64"), (float, "float64"),
                                           (int, "int64"), (bool, "bool"), (complex, "complex128"),
                                           (np.uint16, "uint16"), (">i4", "int32"),
                                           ("<f8", "float64")])
def test_ctor_dtype_specifiers(spec, expected):
    x = ua.usm_ndarray((2,), dtype=spec)
    assert x.dtype == np.dtype(expected)
    assert x.dtype.isnative


def test_ctor_array_namespace_kwarg():
    sentinel = object()
    x = ua.usm_ndarray((2,), dtype="f4", array_namespace=sentinel)
    assert x.__array_namespace__() is sentinel
    y = ua.usm_ndarray((2,), dtype="f4")
    assert y.__array_namespace__() is ua


OVERFLOWING = {
    "empty_2d": lambda: ua.empty((2 ** 40, 2 ** 40)),
    "ctor_f8": lambda: ua.usm_ndarray((2 ** 61,), "f8"),
    "ctor_offset": lambda: ua.usm_ndarray((2,), "f8", offset=2 ** 62),
    "ctor_strides": lambda: ua.usm_ndarray((2, 2), "f8", strides=(2 ** 62, 1)),
    "arange": lambda: ua.arange(0, 2 ** 62),
    "zeros_3d": lambda: ua.zeros((2 ** 31,) * 3, dtype="u1"),
    "full": lambda: ua.full((2 ** 62,), 1.5),
    "ones_like_shape": lambda: ua.ones((2 ** 63 - 1,), dtype="i2"),
    "huge_but_representable": lambda: ua.empty((2 ** 50,), dtype="u1"),
}


@pytest.mark.parametrize("case", sorted(OVERFLOWING))
def test_sizes_too_big_raise_value_or_memory_error(case):
    """As NumPy: a size whose bytes overflow is a ValueError, memory that
    cannot be had a MemoryError (never a TypeError of the engine's binding)."""
    with pytest.raises((ValueError, MemoryError)):
        OVERFLOWING[case]()


class _ReadOnlySUAI:
    def __init__(self, mem, n):
        self._mem = mem
        self.__sycl_usm_array_interface__ = {
            "data": (mem._pointer, True), "shape": (n,), "strides": None, "typestr": "<f8",
            "version": 1, "syclobj": mem.sycl_queue}


def _read_only_arrays():
    x = ua.arange(8.0)
    x.flags.writable = False
    mem = dpm.MemoryUSMDevice(64, queue=ua.get_default_queue())
    y = ua.asarray(_ReadOnlySUAI(mem, 8))    # memory shared read-only: locked
    return {"flag": x, "import": y}


@pytest.mark.parametrize("origin", ["flag", "import"])
@pytest.mark.parametrize("how", ["array", "usm_data", "view_usm_data"])
def test_buffer_of_read_only_memory_is_read_only(origin, how):
    """usm_ndarray(..., buffer=b) over read-only memory is read-only and
    cannot be made writable, as NumPy arrays built on a read-only buffer."""
    ro = _read_only_arrays()[origin]
    before = _host(ro).copy()
    buf = {"array": ro, "usm_data": ro.usm_data, "view_usm_data": ro[2:].usm_data}[how]
    y = ua.usm_ndarray((4,), "f8", buffer=buf, offset=1)
    assert not y.flags.writable
    with pytest.raises(ValueError):
        y[0] = 5.0
    with pytest.raises(ValueError):
        y.flags.writable = True
    with pytest.raises(ValueError):
        y += 1
    z = ua.usm_ndarray((8,), "f8", buffer=ua.usm_ndarray((8,), "f8", buffer=buf))
    assert not z.flags.writable
    np.testing.assert_array_equal(_host(ro), before)


def test_buffer_of_writable_memory_stays_writable():
    x = ua.zeros(8)
    for buf in (x, x.usm_data):
        y = ua.usm_ndarray((8,), "f8", buffer=buf)
        assert y.flags.writable
        y[1] = 2.0
    assert _host(x)[1] == 2.0


# ------------------------------------------------------------------ attributes
def test_basic_attributes():
    h = sample((2, 3, 4), "f4")
    x = ua.asarray(h)
    assert x.shape == (2, 3, 4)
    assert isinstance(x.shape, tuple)
    assert x.ndim == 3
    assert x.size == 24
    assert x.dtype == ua.float32
    assert x.strides == (12, 4, 1)
    assert x.itemsize == 4
    assert x.nbytes == 96
    assert x.usm_type == "device"
    assert isinstance(x.usm_data, dpm.MemoryUSMDevice)
    assert isinstance(x.sycl_queue, dpctl.SyclQueue)
    assert isinstance(x.sycl_device, dpctl.SyclDevice)
    assert isinstance(x.sycl_context, dpctl.SyclContext)
    assert x.sycl_device == x.sycl_queue.sycl_device
    assert x.sycl_context == x.sycl_queue.sycl_context
    assert x.sycl_device.is_cpu


@pytest.mark.parametrize("key", [(slice(None), slice(None, None, 2)), (slice(None, None, -1),),
                                 (Ellipsis, 1), (1, slice(1, None), slice(None, None, -2))])
def test_strides_of_views_match_numpy(key):
    h = np.arange(3 * 4 * 6, dtype="i2").reshape(3, 4, 6)
    x = ua.asarray(h)
    v = x[key]
    hv = h[key]
    assert v.shape == hv.shape
    assert v.strides == tuple(s // h.itemsize for s in hv.strides)
    assert v.size == hv.size
    assert v.nbytes == hv.nbytes


def test_usm_data_of_view_is_whole_allocation():
    x = ua.asarray(np.arange(10, dtype="i4"))
    v = x[3:6]
    m = v.usm_data
    assert m.nbytes >= x.nbytes
    np.testing.assert_array_equal(_mem_values(m, "i4")[:10], np.arange(10))


def test_device_attribute_usable_in_creation():
    x = ua.ones(3)
    d = x.device
    assert isinstance(d, ua.Device)
    y = ua.zeros(4, device=d)
    assert y.sycl_queue == x.sycl_queue
    assert y.device == d
    assert d.sycl_queue == x.sycl_queue
    assert d.sycl_device == x.sycl_device
    assert d.sycl_context == x.sycl_context


def test_device_equality():
    x = ua.ones(3)
    y = ua.empty(2, dtype="i4")
    assert x.device == y.device
    assert ua.__array_namespace_info__().default_device() == x.device
    assert ua.Device.create_device() == x.device
    assert ua.Device.create_device("opencl:cpu") == x.device
    assert ua.Device.create_device("cpu") == x.device
    assert ua.Device.create_device(x.sycl_device) == x.device
    assert ua.Device.create_device(x.device) is x.device
    assert hash(ua.Device.create_device("opencl:cpu")) == hash(x.device)
    q = dpctl.SyclQueue()
    dq = ua.Device.create_device(q)
    assert dq.sycl_queue == q
    assert dq != x.device
    z = ua.zeros(2, device=dq)
    assert z.sycl_queue == q
    assert z.device == dq


def test_device_ctor_direct_and_bad_filter():
    with pytest.raises(TypeError):
        ua.Device()
    with pytest.raises(ValueError):
        ua.Device.create_device("level_zero:gpu:7")
    with pytest.raises(TypeError):
        ua.Device.create_device(3.5)


def test_to_device_same_device():
    x = ua.asarray([1, 2, 3])
    y = x.to_device(x.device)
    np.testing.assert_array_equal(_host(y), [1, 2, 3])
    assert y.device == x.device
    q = dpctl.SyclQueue()
    z = x.to_device(q)
    assert z.sycl_queue == q
    np.testing.assert_array_equal(_host(z), [1, 2, 3])


# ------------------------------------------------------------------ flags
def test_flags_contiguity():
    x = ua.empty((3, 4), dtype="f4")
    f = x.flags
    assert f.c_contiguous and not f.f_contiguous and f.writable
    assert f["C"] and f["C_CONTIGUOUS"] and not f["F"] and not f["F_CONTIGUOUS"]
    assert f["W"] and f["WRITABLE"]
    assert f["FORC"] and f["CONTIGUOUS"] and not f["FNC"] and not f["FC"]
    assert f["c"]
    t = x.T
    assert t.flags.f_contiguous and not t.flags.c_contiguous
    assert t.flags["FNC"] and not t.flags["FC"]
    # dpctl.tensor's FC: C- and F-contiguous at once (1-d arrays); its integer flags
    v = ua.empty(5, dtype="f4")
    assert v.flags.fc and v.flags["FC"] and not v.flags.fnc
    assert f.flags == 1 | 4 and t.flags.flags == 2 | 4 and v.flags.flags == 7
    s = x[:, ::2]
    assert not s.flags.c_contiguous and not s.flags.f_contiguous and not s.flags.forc
    col = x[:, 1:2]
    assert not col.flags.c_contiguous
    row = x[1:2, :]
    assert row.flags.c_contiguous
    with pytest.raises(KeyError):
        f["nonsense"]


def test_flags_size_one_dims_ignored():
    x = ua.empty((1, 5, 1), dtype="f4")
    assert x.flags.c_contiguous
    col = ua.empty((5, 3), dtype="f4")[:, 0:1]   # shape (5,1), strides (3,1)
    assert not col.flags.c_contiguous
    one = ua.empty((4, 4), dtype="f4")[1:2, 2:3]
    assert one.flags.c_contiguous and one.flags.f_contiguous
    v = ua.empty((1, 4), dtype="f4")
    assert v.flags.c_contiguous and v.flags.f_contiguous


def test_flags_writable_toggle():
    x = ua.zeros(5, dtype="i4")
    x.flags.writable = False
    assert not x.flags.writable
    assert not x.flags["W"]
    with pytest.raises(ValueError):
        x[0] = 1
    with pytest.raises(ValueError):
        x[...] = ua.ones(5, dtype="i4")
    with pytest.raises(ValueError):
        x[1:3] = np.array([1, 2])
    v = x[1:]
    assert not v.flags.writable
    with pytest.raises(ValueError):
        v[0] = 3
    np.testing.assert_array_equal(_host(x), np.zeros(5))
    x.flags.writable = True
    x[0] = 9
    assert _host(x)[0] == 9
    x.flags["W"] = False
    assert not x.flags.writable
    with pytest.raises(KeyError):
        x.flags["C"] = True


def test_flags_read_only_host_view():
    x = ua.arange(4, usm_type="shared")
    x.flags.writable = False
    h = np.asarray(x)
    assert not h.flags.writeable


# ------------------------------------------------------------------ T / mT
def test_T_2d():
    x, h = _fresh((3, 5), "i4")
    t = x.T
    assert t.shape == (5, 3)
    np.testing.assert_array_equal(_host(t), h.T)
    t[0, 2] = 1000       # a view
    h[2, 0] = 1000
    np.testing.assert_array_equal(_host(x), h)


def test_T_1d_and_0d_return_self():
    x = ua.arange(4)
    assert x.T is x
    z = _scalar(3.0)
    assert z.T is z


def test_T_3d_raises():
    with pytest.raises(ValueError):
        ua.empty((2, 3, 4)).T


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (2, 1, 3, 5)])
def test_mT(shape):
    x, h = _fresh(shape, "f4")
    m = x.mT
    np.testing.assert_array_equal(_host(m), np.swapaxes(h, -1, -2))
    m[..., 0, 0] = 77
    np.swapaxes(h, -1, -2)[..., 0, 0] = 77
    np.testing.assert_array_equal(_host(x), h)


def test_mT_needs_2d():
    with pytest.raises(ValueError):
        ua.arange(3).mT


# ------------------------------------------------------------------ real / imag
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_real_imag_views(dt):
    x, h = _fresh((3, 4), dt)
    r, i = x.real, x.imag
    assert r.dtype == h.real.dtype and i.dtype == h.imag.dtype
    np.testing.assert_array_equal(_host(r), h.real)
    np.testing.assert_array_equal(_host(i), h.imag)
    np.testing.assert_array_equal(_host(x[:, ::2].imag), h[:, ::2].imag)
    np.testing.assert_array_equal(_host(x.T.real), h.T.real)
    r[0] = 5.0
    h.real[0] = 5.0
    i[:, 1] = -2.0
    h.imag[:, 1] = -2.0
    np.testing.assert_array_equal(_host(x), h)
    x[1:, ::-1].imag[...] = 0.5
    h[1:, ::-1].imag[...] = 0.5
    np.testing.assert_array_equal(_host(x), h)


def test_real_imag_setters():
    x, h = _fresh((5,), "complex128")
    x.real = 1.0
    x.imag = ua.asarray(np.arange(5.0))
    np.testing.assert_array_equal(_host(x), 1.0 + 1j * np.arange(5.0))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "c"], ids=str)
def test_real_of_real_array_is_array(dtype):
    x, h = _fresh((4,), dtype)
    assert x.real is x
    im = x.imag
    assert im.shape == x.shape
    assert im.dtype == x.dtype
    np.testing.assert_array_equal(_host(im), np.zeros(4, dtype))


def test_imag_of_real_array_cannot_be_set():
    x = ua.zeros(3)
    with pytest.raises((TypeError, ValueError)):
        x.imag = 1.0


# ------------------------------------------------------------------ namespace
def test_array_namespace():
    x = ua.ones(2)
    assert x.__array_namespace__() is ua
    assert x.__array_namespace__(api_version="2025.12") is ua
    assert x.__array_namespace__(api_version="2023.12") is ua
    assert x.__array_namespace__(api_version=None) is ua
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2099.01")
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2025")
    assert ua.__array_api_version__ == "2025.12"


def test_namespace_info():
    info = ua.__array_namespace_info__()
    devs = info.devices()
    assert isinstance(devs, tuple) and devs     # a tuple since the 2025.12 standard
    assert all(isinstance(d, ua.Device) for d in devs)
    dd = info.default_device()
    assert dd in devs
    assert dd == ua.empty(1).device
    dft = info.default_dtypes()
    assert dft == {"real floating": ua.float64, "complex floating": ua.complex128,
                   "integral": ua.int64, "indexing": ua.int64}
    assert info.default_dtypes(device=dd) == dft
    caps = info.capabilities()
    assert {"boolean indexing", "data-dependent shapes"} <= set(caps)
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    if "max dimensions" in caps:
        assert caps["max dimensions"] is None or caps["max dimensions"] >= 8


def test_namespace_info_dtypes():
    info = ua.__array_namespace_info__()
    all_dt = info.dtypes()
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64", "complex64", "complex128"]
    for n in names:
        assert all_dt[n] == np.dtype(n)
    assert set(all_dt) <= set(names) | {"float16"}
    assert info.dtypes(kind="bool") == {"bool": ua.bool}
    assert info.dtypes(kind="signed integer") == {
        "int8": ua.int8, "int16": ua.int16, "int32": ua.int32, "int64": ua.int64}
    assert info.dtypes(kind="unsigned integer") == {
        "uint8": ua.uint8, "uint16": ua.uint16, "uint32": ua.uint32, "uint64": ua.uint64}
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8",
                                                 "uint16", "uint32", "uint64"}
    assert {"float32", "float64"} <= set(info.dtypes(kind="real floating")) <= \
        {"float16", "float32", "float64"}
    assert info.dtypes(kind="complex floating") == {"complex64": ua.complex64,
                                                    "complex128": ua.complex128}
    assert set(info.dtypes(kind="numeric")) == set(all_dt) - {"bool"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64",
                                                                   "complex128"}
    assert info.dtypes(device=info.default_device()) == all_dt
    with pytest.raises(ValueError):
        info.dtypes(kind="strings")


# ------------------------------------------------------------------ len / iter
def test_len():
    assert len(ua.empty((4, 2))) == 4
    assert len(ua.empty((0, 2))) == 0
    with pytest.raises(TypeError):
        len(_scalar(1.0))


def test_iter_1d_yields_0d_arrays(dtype):
    x, h = _fresh((5,), dtype)
    items = list(x)
    assert len(items) == 5
    for it, hv in zip(items, h):
        assert isinstance(it, ua.usm_ndarray)
        assert it.shape == ()
        assert it.dtype == dtype
        assert _host(it) == hv


def test_iter_2d_and_views():
    x, h = _fresh((3, 4), "i4")
    rows = list(x[:, ::-1])
    assert len(rows) == 3
    for r, hr in zip(rows, h[:, ::-1]):
        np.testing.assert_array_equal(_host(r), hr)
    rows[1][0] = 999          # rows are views
    h[1, -1] = 999
    np.testing.assert_array_equal(_host(x), h)
    assert list(ua.empty((0, 3))) == []


def test_iter_0d_raises():
    with pytest.raises(TypeError):
        iter(_scalar(1))
    with pytest.raises(TypeError):
        list(_scalar(1))


# ------------------------------------------------------------------ scalar conversion
def test_scalar_conversion_only_0d():
    # dpctl.tensor's rule (NumPy 2 deprecates the others): TypeError
    for shape in ((1,), (1, 1), (1, 1, 1)):
        x = ua.full(shape, 3, dtype="i4")
        for convert in (bool, int, float, complex, operator.index):
            with pytest.raises(TypeError, match="only 0-dimensional"):
                convert(x)
        assert x.item() == 3


@pytest.mark.parametrize("shape", [()])
def test_scalar_conversion_size_one(shape):
    assert bool(ua.full(shape, True)) is True
    assert bool(ua.full(shape, 0.0)) is False
    i = int(ua.full(shape, -7, dtype="i2"))
    assert i == -7 and type(i) is int
    f = float(ua.full(shape, 2.5, dtype="f4"))
    assert f == 2.5 and type(f) is float
    c = complex(ua.full(shape, 1 + 2j))
    assert c == 1 + 2j and type(c) is complex
    assert complex(ua.full(shape, 3, dtype="i4")) == 3 + 0j
    assert float(ua.full(shape, 3, dtype="u8")) == 3.0
    assert int(ua.full(shape, 3.9)) == 3
    assert int(ua.full(shape, -3.9)) == -3
    assert int(ua.full(shape, True)) == 1


def test_scalar_conversion_each_dtype(dtype):
    h = sample((), dtype)
    x = ua.asarray(h)
    h = h.reshape(1)
    assert bool(x) == bool(h[0])
    assert complex(x) == complex(h[0])
    if np.dtype(dtype).kind != "c":
        assert float(x) == float(h[0])
        assert int(x) == int(h[0])
    else:
        with pytest.raises(TypeError):
            int(x)
        with pytest.raises(TypeError):
            float(x)


def test_scalar_conversion_of_views(dtype):
    # the item is read at the view's offset, whatever its strides
    h = sample((4, 5), dtype)
    x = ua.asarray(h)
    for idx in ((2, 3), (slice(1, 2), slice(4, 5)), (slice(None, None, -1), slice(3, 4)),
                (slice(3, 0, -2), slice(0, 5, 4))):
        hv, xv = h[idx], x[idx]
        if hv.size != 1:
            hv, xv = hv[-1:, :1], xv[-1:, :1]
        # (only 0-d arrays convert: a one-element view is read through x.item())
        assert xv.item() == hv.item()
        xv = xv[(0,) * xv.ndim + (...,)] if xv.ndim else xv
        assert complex(xv) == complex(hv.reshape(()))
        assert bool(xv) == bool(hv.reshape(()))
        if np.dtype(dtype).kind != "c":
            assert float(xv) == float(hv.reshape(()))


def test_uint64_large_to_int():
    x = _scalar(2**64 - 1, dtype="u8")
    assert int(x) == 2**64 - 1
    assert operator.index(x) == 2**64 - 1


@pytest.mark.parametrize("shape", [(2,), (0,), (2, 2), (1, 2)])
def test_scalar_conversion_errors(shape):
    x = ua.zeros(shape)
    with pytest.raises(ValueError):
        bool(x)
    with pytest.raises(TypeError):
        int(x)
    with pytest.raises(TypeError):
        float(x)
    with pytest.raises(TypeError):
        complex(x)
    with pytest.raises(TypeError):
        operator.index(ua.zeros(shape, dtype="i8"))


def test_int_of_inf_nan():
    with pytest.raises(OverflowError):
        int(_scalar(float("inf")))
    with pytest.raises(OverflowError):
        int(_scalar(-np.inf, dtype="f4"))
    with pytest.raises(ValueError):
        int(_scalar(float("nan")))
    assert math.isnan(float(_scalar(float("nan"))))
    assert float(_scalar(float("-inf"))) == float("-inf")


def test_index():
    assert operator.index(_scalar(5)) == 5
    assert operator.index(_scalar(-3, dtype="i1")) == -3
    assert operator.index(_scalar(7, dtype="u2")) == 7
    assert [10, 20, 30, 40][_scalar(2)] == 30
    assert list(range(10))[_scalar(1):_scalar(4)] == [1, 2, 3]
    for dt in ["f4", "f8", "c8"]:
        with pytest.raises(TypeError):
            operator.index(_scalar(1, dtype=dt))
    with pytest.raises(TypeError):
        operator.index(_scalar(True))
    with pytest.raises(TypeError):
        operator.index(ua.asarray([1]))


# ------------------------------------------------------------------ __array__
def test_np_asarray_values(dtype):
    for shape, key in [((3, 4), ...), ((3, 4), (slice(None), slice(None, None, -2))),
                       ((0, 2), ...), ((3,), 1)]:
        h = sample(shape, dtype)
        x = ua.asarray(h)[key]
        hv = h[key]
        a = np.asarray(x)
        assert a.dtype == hv.dtype
        assert a.shape == hv.shape
        np.testing.assert_array_equal(a, hv)
        b = np.array(x)
        np.testing.assert_array_equal(b, hv)


@pytest.mark.parametrize("usm_type", ["host", "shared", "device"])
def test_np_asarray_copy_false_zero_copy(usm_type):
    x = ua.asarray(np.arange(6, dtype="i4"), usm_type=usm_type)
    h = np.asarray(x, copy=False)
    np.testing.assert_array_equal(h, np.arange(6))
    h[2] = 100
    assert _host(x)[2] == 100
    # strided views too
    v = x[::-2]
    hv = np.asarray(v, copy=False)
    np.testing.assert_array_equal(hv, _host(x)[::-2])
    hv[0] = -5
    assert _host(x)[5] == -5
    # default (copy=None) also avoids a copy on host-reachable memory
    hn = np.asarray(x)
    hn[0] = 77
    assert _host(x)[0] == 77
    # writes by usmarray are seen through the view
    x[1] = 55
    assert np.asarray(x, copy=False)[1] == 55


@pytest.mark.parametrize("usm_type", ["host", "device"])
def test_np_asarray_copy_true_is_independent(usm_type):
    x = ua.asarray(np.arange(6, dtype="i4"), usm_type=usm_type)
    h = np.array(x, copy=True)
    h[0] = 100
    assert _host(x)[0] == 0


def test_np_asarray_dtype():
    x = ua.asarray(np.arange(4, dtype="i4"), usm_type="shared")
    h = np.asarray(x, dtype="f8")
    assert h.dtype == np.float64
    np.testing.assert_array_equal(h, np.arange(4.0))
    with pytest.raises(ValueError):
        np.asarray(x, dtype="f8", copy=False)
    # same dtype with copy=False is fine
    assert np.asarray(x, dtype="i4", copy=False).dtype == np.int32


# ------------------------------------------------------------------ misc
def test_copy_and_deepcopy():
    x, h = _fresh((3, 3), "f8")
    for y in (pycopy.copy(x), pycopy.deepcopy(x)):
        assert y is not x
        np.testing.assert_array_equal(_host(y), h)
        y[...] = 0
        np.testing.assert_array_equal(_host(x), h)


def test_hash_unsupported():
    with pytest.raises(TypeError):
        hash(ua.ones(2))


def test_shape_setter():
    x = ua.asarray(np.arange(12))
    x.shape = (3, 4)
    assert x.shape == (3, 4)
    assert x.strides == (4, 1)
    np.testing.assert_array_equal(_host(x), np.arange(12).reshape(3, 4))
    y = x.T
    with pytest.raises(AttributeError):   # needs a copy (NumPy's and dpctl.tensor's error)
        y.shape = (12,)
    np.testing.assert_array_equal(_host(x), np.arange(12).reshape(3, 4))
    v = x[:, ::2]                     # (3, 2) with strides (4, 2): viewable as (6,)
    v.shape = (6,)
    assert v.strides == (2,)
    np.testing.assert_array_equal(_host(v), np.arange(0, 12, 2))


# ---------------------------------------------- Python protocols of 0-d arrays
@pytest.mark.parametrize("spec", ["", ".3f", "10.2e", "+g", "^12"])
def test_format_0d_like_numpy(spec):
    h = np.array([1.25, -2.5, 3.125], "f4")
    x = ua.asarray(h)
    assert f"{ua.sum(x):{spec}}" == f"{np.sum(h).item():{spec}}"
    assert format(ua.asarray(np.int16(-7)), spec.replace(".3f", "d").replace("10.2e", "5d")
                  .replace("+g", "+d")) == format(-7, spec.replace(".3f", "d").replace(
                      "10.2e", "5d").replace("+g", "+d"))
    assert format(x, "") == str(x)
    if spec:
        with pytest.raises(TypeError):
            format(x, spec)                          # as NumPy: no spec for arrays of rank > 0


def test_format_0d_bool_and_complex():
    assert f"{ua.asarray(True)}" == "True" and f"{ua.asarray(True):>6}" == f"{True:>6}"
    if _device_supports(np.complex128):
        assert f"{ua.asarray(1 + 2j):.2f}" == "1.00+2.00j"


def test_round_0d_like_numpy_scalars():
    for v, nd in [(2.5, None), (3.5, None), (-2.675, 2), (1234.5, -2), (7, None), (17, -1),
                  (2.675, 2), (np.float32(1.55), 1)]:
        x = ua.asarray(v)
        # as round() of the NumPy scalar: a Python int without ndigits, else
        # NumPy's scaled rounding (2.675 -> 2.68, as usmarray.round; Python's
        # exact rounding gives 2.67) in the array's scalar type
        got, expected = round(x, nd), round(np.asarray(v)[()], nd)
        assert got == expected and type(got) is type(expected)
    assert round(ua.sum(ua.asarray([0.4, 0.4]))) == 1 and isinstance(round(ua.asarray(2.0)), int)
    with pytest.raises(TypeError):
        round(ua.asarray([1.5, 2.5]))
    if _device_supports(np.complex128):
        with pytest.raises(TypeError):
            round(ua.asarray(1 + 2j))


@pytest.mark.parametrize("dt", ["i4", "f4", "c8", "?"])
def test_contains_like_numpy(dt):
    h = np.array([[1, 0, 3], [4, 5, 6]], dtype=dt)
    x = ua.asarray(h)
    for v in (3, 3.0, 0, 7, True, 2.5, 1 + 0j):
        try:
            expected = v in h
        except TypeError:
            continue
        if isinstance(v, complex) and dt != "c8" or isinstance(v, float) and dt in "i4?":
            continue   # the array API's scalar rules reject these mixes (NumPy casts)
        assert (v in x) is expected, v
    assert (ua.asarray(h[0]) in x) is (h[0] in h)
    assert ("a" in x) is False
    assert (3 in ua.asarray(np.zeros((0,), dt))) is False


def test_view_refuses_a_non_native_byte_order():
    x = ua.asarray([1.0, 2.0])
    other = ">f8" if np.little_endian else "<f8"
    with pytest.raises(ValueError):
        x.view(other)
    assert x.view("=f8").dtype == np.float64
    np.testing.assert_array_equal(ua.asnumpy(x.view("i8")), np.array([1.0, 2.0]).view("i8"))


def test_element_assignment_takes_no_sequence():
    x = ua.zeros((3, 4))
    h = np.zeros((3, 4))
    for v in ([5.0], (5.0,), [[5.0]], []):
        with pytest.raises(ValueError):
            h[1, 2] = v
        with pytest.raises(ValueError):
            x[1, 2] = v
    x[1] = [1, 2, 3, 4]
    x[2, 1:2] = [7.0]
    h[1] = [1, 2, 3, 4]
    h[2, 1:2] = [7.0]
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_asarray_of_a_range_and_an_array_interface():
    for r in (range(4), range(0), range(10, -3, -4)):
        want = np.asarray(r)
        got = ua.asarray(r)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(ua.asnumpy(got), want)
    assert ua.asarray(range(3), dtype=ua.float32).dtype == ua.float32

    class OnlyInterface:
        def __init__(self, a):
            self.a = a
            self.__array_interface__ = a.__array_interface__

    h = np.arange(6.0).reshape(2, 3)[:, ::2]
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(OnlyInterface(h))), h)


def test_masked_assignment_with_a_mask_of_another_queue():
    q2 = dpctl.SyclQueue(ua.get_default_queue().sycl_device)
    x = ua.arange(6.0)
    m = ua.asarray([True, False] * 3, sycl_queue=q2)
    x[m] = 1.0
    x[ua.asarray([1], sycl_queue=q2)] = 9.0
    np.testing.assert_array_equal(ua.asnumpy(x), [1, 9, 1, 3, 1, 5])
    np.testing.assert_array_equal(ua.asnumpy(x[m]), [1, 1, 1])
