"""DLPack: the producer (__dlpack__, __dlpack_device__), the consumer
(from_dlpack) and capsule lifetimes, checked through a minimal consumer and
hand-built capsules written here with ctypes (the DLPack 1.x ABI)."""

import ctypes
import gc
import sys

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, sample

KDL_CPU, KDL_ONEAPI = 1, 14
READ_ONLY, IS_COPIED = 1, 2


# ------------------------------------------------------------------ the ABI, in ctypes
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DELETER_V = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                                     ("deleter", DELETER_V), ("flags", ctypes.c_uint64),
                                     ("dl_tensor", DLTensor)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DELETER)]

_api = ctypes.pythonapi
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


def read_capsule(cap):
    """What a consumer sees in a capsule (without consuming it)."""
    name = capsule_name(cap)
    ptr = _api.PyCapsule_GetPointer(cap, name.encode())
    if name == "dltensor_versioned":
        mt = DLManagedTensorVersioned.from_address(ptr)
        t, version, flags = mt.dl_tensor, (mt.version.major, mt.version.minor), mt.flags
    else:
        t, version, flags = DLManagedTensor.from_address(ptr).dl_tensor, None, None
    nd = t.ndim
    return {
        "name": name, "version": version, "flags": flags, "data": t.data or 0,
        "device": (t.device.device_type, t.device.device_id),
        "shape": tuple(t.shape[i] for i in range(nd)),
        "strides": None if not t.strides else tuple(t.strides[i] for i in range(nd)),
        "dtype": (t.dtype.code, t.dtype.bits, t.dtype.lanes), "byte_offset": t.byte_offset,
    }


_keep = []   # hand-built tensors and their deleters must outlive the capsules
deleted = []


@DELETER_V
def _count_deleter(p):
    deleted.append(ctypes.addressof(p.contents))


def hand_capsule(data, shape, *, code=2, bits=32, lanes=1, byte_offset=0, version=(1, 0),
                 flags=0, device=(KDL_ONEAPI, 0), strides=None):
    """A versioned capsule over `data` built by hand (a foreign producer)."""
    nd = len(shape)
    shp = (ctypes.c_int64 * max(nd, 1))(*shape)
    st = None if strides is None else (ctypes.c_int64 * max(nd, 1))(*strides)
    mt = DLManagedTensorVersioned()
    mt.version = DLPackVersion(*version)
    mt.deleter = _count_deleter
    mt.flags = flags
    mt.dl_tensor = DLTensor(data, DLDevice(*device), nd, DLDataType(code, bits, lanes),
                            ctypes.cast(shp, ctypes.POINTER(ctypes.c_int64)),
                            None if st is None else ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)),
                            byte_offset)
    _keep.append((mt, shp, st))
    return _api.PyCapsule_New(ctypes.addressof(mt), b"dltensor_versioned", None), \
        ctypes.addressof(mt)


def device_id_of(dev):
    """The kDLOneAPI device_id of a root device: its index in the device list."""
    return [d for d in dpctl.get_devices()].index(dev)


# ------------------------------------------------------------------ producer
def test_dlpack_device_is_oneapi_root_device_index():
    x = ua.arange(4)
    t, i = x.__dlpack_device__()
    assert t == KDL_ONEAPI and int(t) == 14 and isinstance(i, int)
    assert i == device_id_of(x.sycl_device)
    assert ua.DLDeviceType(t).name == "kDLOneAPI"


def test_capsule_kinds_follow_max_version():
    x = ua.asarray(np.arange(6, dtype="f4").reshape(2, 3))
    legacy = read_capsule(x.__dlpack__())
    assert legacy["name"] == "dltensor" and legacy["version"] is None
    for mv in [(0, 8), (0, 0)]:
        assert read_capsule(x.__dlpack__(max_version=mv))["name"] == "dltensor"
    for mv in [(1, 0), (1, 5), (2, 0)]:
        v = read_capsule(x.__dlpack__(max_version=mv))
        assert v["name"] == "dltensor_versioned"
        assert v["version"][0] == 1
        assert v["flags"] & (READ_ONLY | IS_COPIED) == 0
    for bad in [(1,), [1, 0], "1.0", (1, "0"), (1.0, 0)]:
        with pytest.raises(TypeError):
            x.__dlpack__(max_version=bad)
    # NumPy's integers are integers (a consumer may compute the version)
    assert read_capsule(x.__dlpack__(max_version=(np.int64(1), np.int32(0))))["version"][0] == 1
    with pytest.raises(TypeError):
        x.__dlpack__(dl_device=(1.5, 0))


def test_capsule_describes_the_array(dtype):
    h = sample((3, 4), dtype)
    x = ua.asarray(h)[::2, 1::2].T
    c = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert c["device"] == (KDL_ONEAPI, device_id_of(x.sycl_device))
    assert c["shape"] == x.shape
    assert c["strides"] == x.strides
    assert c["data"] + c["byte_offset"] == x._pointer
    code = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[np.dtype(dtype).kind]
    assert c["dtype"] == (code, np.dtype(dtype).itemsize * 8, 1)


def test_read_only_and_copied_flags():
    x = ua.arange(5.0)
    x.flags.writable = False
    assert read_capsule(x.__dlpack__(max_version=(1, 0)))["flags"] & READ_ONLY
    with pytest.raises(BufferError):
        x.__dlpack__()   # a legacy capsule cannot signal read-only
    y = ua.arange(5.0)
    c = read_capsule(y.__dlpack__(max_version=(1, 0), copy=True))
    assert c["flags"] & IS_COPIED and c["data"] != y._pointer


def test_dl_device_cpu_is_zero_copy_for_host_accessible_memory():
    for usm_type in ("device", "shared", "host"):
        x = ua.arange(6.0, usm_type=usm_type)
        c = read_capsule(x.__dlpack__(max_version=(1, 0), dl_device=(KDL_CPU, 0)))
        assert c["device"] == (KDL_CPU, 0)
        if usm_type != "device" or x.sycl_device.is_cpu:
            assert c["data"] == x._pointer and not c["flags"] & IS_COPIED
        c2 = read_capsule(x.__dlpack__(max_version=(1, 0), dl_device=(KDL_CPU, 0), copy=True))
        assert c2["flags"] & IS_COPIED and c2["data"] != x._pointer


def test_dl_device_errors():
    x = ua.arange(3.0)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))           # CUDA
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(KDL_ONEAPI, 999), copy=True)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(KDL_ONEAPI, 999), copy=False)
    with pytest.raises(TypeError):
        x.__dlpack__(dl_device="cpu")
    with pytest.raises(ValueError):
        x.__dlpack__(copy="yes")


def test_stream_rules():
    x = ua.arange(4.0)
    q = x.sycl_queue
    x.__dlpack__(stream=None)
    x.__dlpack__(stream=-1)
    x.__dlpack__(stream=q)
    x.__dlpack__(stream=dpctl.SyclQueue(q.sycl_context, q.sycl_device))
    with pytest.raises(ValueError):
        x.__dlpack__(dl_device=(KDL_CPU, 0), stream=q)   # kDLCPU takes only None
    with pytest.raises(ValueError):
        x.__dlpack__(dl_device=(KDL_CPU, 0), stream=-1, max_version=(1, 0))
    with pytest.raises(TypeError):
        x.__dlpack__(stream=1)
    with pytest.raises(TypeError):
        x.__dlpack__(stream="queue")


def test_stream_orders_the_consumer_queue_after_pending_work():
    n = 1 << 22
    q2 = dpctl.SyclQueue(ua.get_default_queue().sycl_context, ua.get_default_queue().sycl_device)
    for _ in range(5):
        x = ua.zeros(n, dtype=ua.float32)
        x[::-1] = ua.full(n, 3.0, dtype=ua.float32)     # pending work on x
        cap = x.__dlpack__(stream=q2, max_version=(1, 0))
        y = ua.from_dlpack(cap)
        z = ua.copy(ua.asarray(y, device=q2))
        assert np.all(ua.asnumpy(z) == 3.0)


@pytest.fixture(scope="module")
def sub_device_queue():
    dev = ua.get_default_queue().sycl_device
    try:
        sub = dev.create_sub_devices(partition=1)[0]
    except Exception:
        pytest.skip("the device cannot be partitioned")
    ctx = dpctl.SyclContext(sub)
    return dpctl.SyclQueue(ctx, sub)


def test_memory_outside_the_default_context(sub_device_queue):
    x = ua.arange(6.0, sycl_queue=sub_device_queue)
    assert x.sycl_context != x.sycl_device.sycl_platform.default_context
    with pytest.raises(BufferError):
        x.__dlpack__(max_version=(1, 0), copy=False)
    c = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert c["flags"] & IS_COPIED and c["device"][0] == KDL_ONEAPI
    y = ua.from_dlpack(x)
    assert y.sycl_context == y.sycl_device.sycl_platform.default_context
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(6.0))


# ------------------------------------------------------------------ consumer
def test_negative_strides_are_exported_as_copies():
    h = np.arange(12, dtype="f4").reshape(3, 4)
    x = ua.asarray(h)[:, ::-1]
    c = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert c["flags"] & IS_COPIED and all(s >= 0 for s in c["strides"])
    np.testing.assert_array_equal(ua.asnumpy(ua.from_dlpack(x)), h[:, ::-1])
    # BufferError (from_dlpack's rule) and ValueError (__dlpack__'s dl_device rule)
    with pytest.raises(BufferError):
        x.__dlpack__(copy=False)
    with pytest.raises(ValueError):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    assert issubclass(ua.CopyRequiredError, BufferError)


def test_round_trip_is_zero_copy(dtype):
    x = ua.asarray(sample((4, 5), dtype))[1:, ::2].T
    for kw in ({"max_version": (1, 0)}, {}):
        y = ua.from_dlpack(x.__dlpack__(**kw))
        assert y._pointer == x._pointer and y.shape == x.shape and y.strides == x.strides
        assert y.dtype == x.dtype and y.usm_type == x.usm_type
        np.testing.assert_array_equal(ua.asnumpy(y), ua.asnumpy(x))
    y = ua.from_dlpack(x)
    y[...] = y[0, 0]                     # mutation is seen through the original
    np.testing.assert_array_equal(ua.asnumpy(x), np.full(x.shape, ua.asnumpy(x)[0, 0]))


def test_round_trip_keeps_usm_kind():
    for usm_type in ("device", "shared", "host"):
        x = ua.arange(4, usm_type=usm_type)
        y = ua.from_dlpack(x)
        assert y.usm_type == usm_type and y._pointer == x._pointer


def test_from_dlpack_copy_and_device():
    x = ua.arange(4.0)
    y = ua.from_dlpack(x, copy=True)
    assert y._pointer != x._pointer
    y[0] = 7
    assert ua.asnumpy(x)[0] == 0
    z = ua.from_dlpack(x, device=x.device, copy=False)
    assert z._pointer == x._pointer
    with pytest.raises(ValueError):
        ua.from_dlpack(x, copy="no")
    # the array API's AttributeError (dpctl.tensor's TypeError: both)
    for exc in (AttributeError, TypeError):
        with pytest.raises(exc):
            ua.from_dlpack([1, 2, 3])


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_empty_imports_keep_their_usm_type(usm_type):
    e = ua.empty((0, 3), usm_type=usm_type)
    assert ua.from_dlpack(e.__dlpack__()).usm_type == usm_type
    assert ua.from_dlpack(e.__dlpack__(max_version=(1, 0))).usm_type == usm_type

    class SUAI:
        __sycl_usm_array_interface__ = e.__sycl_usm_array_interface__
    assert ua.asarray(SUAI()).usm_type == usm_type
    dpnp = pytest.importorskip("dpnp")
    d = dpnp.empty((0,), usm_type=usm_type)
    assert ua.from_dlpack(d).usm_type == usm_type == ua.asarray(d).usm_type


def test_read_only_capsule_gives_read_only_array():
    x = ua.arange(4.0)
    x.flags.writable = False
    y = ua.from_dlpack(x.__dlpack__(max_version=(1, 0)))
    assert not y.flags.writable
    with pytest.raises(ValueError):
        y[0] = 1
    with pytest.raises(ValueError):
        y.flags.writable = True


def test_capsule_used_twice_raises():
    x = ua.arange(3)
    for kw in ({}, {"max_version": (1, 0)}):
        cap = x.__dlpack__(**kw)
        ua.from_dlpack(cap)
        assert capsule_name(cap).startswith("used_")
        with pytest.raises(BufferError):
            ua.from_dlpack(cap)


def test_unnamed_capsule_is_a_type_error():
    # a legal capsule without a name (the engine aborted the interpreter)
    buf = ctypes.c_int(0)
    with pytest.raises(TypeError):
        ua.from_dlpack(_api.PyCapsule_New(ctypes.addressof(buf), None, None))


def test_import_waits_for_the_producers_pending_work():
    # dpnp orders its kernels before our queue by a barrier (the stream
    # argument); usmarray's launches, on the OpenCL queue underneath, must
    # still follow it (they read stale memory in 17 of 20 runs)
    dpnp = pytest.importorskip("dpnp")
    for _ in range(5):
        d = dpnp.zeros(10**6)
        d += 1
        y = ua.from_dlpack(d)
        assert float(ua.sum(y)) == 10**6
        d = dpnp.zeros(10**6)
        d += 2
        assert (ua.asnumpy(ua.from_dlpack(d)) == 2).all()


def test_copy_of_a_producer_with_pending_work():
    """from_dlpack(dpnp_array, copy=True): dpnp's own copy=True export is
    not ordered after its pending kernels (wrong values in 8 of 20 calls);
    usmarray views the memory, ordered, and copies it itself."""
    dpnp = pytest.importorskip("dpnp")
    d = dpnp.ones(2 * 10**6, dtype="float32")
    for _ in range(8):
        e = d * 2.0
        y = ua.from_dlpack(e, copy=True)
        assert (ua.asnumpy(y) == 2).all()
        y[0] = 5
        assert float(e[0]) == 2.0


def test_host_tensors_are_copied_into_usm():
    h = np.arange(12, dtype="i4").reshape(3, 4)[:, ::-1]
    y = ua.from_dlpack(h)
    assert isinstance(y, ua.usm_ndarray) and y.device == ua.Device.create_device()
    np.testing.assert_array_equal(ua.asnumpy(y), h)
    h[0, 0] = -5
    assert ua.asnumpy(y)[0, 0] != -5
    with pytest.raises(BufferError):
        ua.from_dlpack(h, copy=False)
    with pytest.raises(ValueError):
        ua.from_dlpack(h, copy=False)
    q = dpctl.SyclQueue(ua.get_default_queue().sycl_context, ua.get_default_queue().sycl_device)
    assert ua.from_dlpack(h, device=q).sycl_queue == q


# ------------------------------------------------------------------ hand-built capsules
def test_hand_built_oneapi_capsule_is_zero_copy():
    x = ua.arange(8, dtype=ua.float32)
    ptr = x._pointer
    dev_id = device_id_of(x.sycl_device)
    cap, addr = hand_capsule(ptr, (2, 3), device=(KDL_ONEAPI, dev_id), byte_offset=8,
                             strides=(3, 1))
    y = ua.from_dlpack(cap)
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(2, 8, dtype="f4").reshape(2, 3))
    assert y._pointer == ptr + 8
    del y
    gc.collect()
    assert addr in deleted               # usmarray called the producer's deleter


@pytest.mark.parametrize("kw, exc", [
    ({"lanes": 2}, BufferError),
    ({"code": 4, "bits": 16}, BufferError),        # bfloat16
    ({"code": 0, "bits": 12}, BufferError),        # 12-bit integers
    ({"byte_offset": 2}, BufferError),             # not a multiple of the item size
    ({"version": (2, 0)}, BufferError),
    ({"device": (2, 0)}, BufferError),             # CUDA
])
def test_hand_built_capsule_errors(kw, exc):
    x = ua.arange(8, dtype=ua.float32)
    kw.setdefault("device", (KDL_ONEAPI, device_id_of(x.sycl_device)))
    cap, addr = hand_capsule(x._pointer, (4,), **kw)
    with pytest.raises(exc):
        ua.from_dlpack(cap)
    if exc is BufferError and "device" not in kw or kw.get("version") == (2, 0):
        assert capsule_name(cap) == "dltensor_versioned"   # not consumed


def test_pointer_from_another_context_is_rejected(sub_device_queue):
    other = ua.arange(4.0, sycl_queue=sub_device_queue)     # not in the default context
    cap, _ = hand_capsule(other._pointer, (4,), bits=64,
                          device=(KDL_ONEAPI, device_id_of(ua.get_default_queue().sycl_device)))
    with pytest.raises(BufferError, match="not USM memory of the default context"):
        ua.from_dlpack(cap)


def test_host_pointer_claiming_oneapi_is_rejected():
    h = np.arange(4, dtype="f4")
    cap, _ = hand_capsule(h.ctypes.data, (4,),
                          device=(KDL_ONEAPI, device_id_of(ua.get_default_queue().sycl_device)))
    with pytest.raises(BufferError, match="data pointer 0x[0-9a-f]+ is not USM memory"):
        ua.from_dlpack(cap)
    assert capsule_name(cap) == "dltensor_versioned"   # not consumed


def test_byte_offset_past_the_allocation_is_rejected():
    # BufferError naming the offset (the pointer itself is USM)
    x = ua.arange(8, dtype=ua.float32)
    dev = (KDL_ONEAPI, device_id_of(x.sycl_device))
    for off in (1 << 40, x._alloc.capacity or x._alloc.nbytes + 4096):
        off -= off % 4
        cap, _ = hand_capsule(x._pointer, (2,), device=dev, byte_offset=off)
        with pytest.raises(BufferError, match=f"byte_offset {off} runs past"):
            ua.from_dlpack(cap)
        assert capsule_name(cap) == "dltensor_versioned"


# ------------------------------------------------------------------ lifetimes
def test_unconsumed_capsule_releases_the_array():
    x = ua.arange(10)
    base = sys.getrefcount(x)
    caps = [x.__dlpack__(), x.__dlpack__(max_version=(1, 0))]
    assert sys.getrefcount(x) == base + 2
    del caps
    gc.collect()
    assert sys.getrefcount(x) == base


def test_consumed_capsule_keeps_memory_until_the_consumer_frees_it():
    x = ua.asarray(np.arange(1000, dtype="i8"))
    base = sys.getrefcount(x)
    cap = x.__dlpack__(max_version=(1, 0))
    y = ua.from_dlpack(cap)
    del cap
    gc.collect()
    assert sys.getrefcount(x) == base + 1   # the consumer's holder keeps the export alive
    del x
    gc.collect()
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(1000))
    h = np.from_dlpack(y, device="cpu")     # NumPy as another consumer
    del y
    gc.collect()
    np.testing.assert_array_equal(h, np.arange(1000))


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_many_round_trips_do_not_leak():
    x = ua.arange(100.0)
    h = np.arange(100.0)

    def rounds(n):
        for _ in range(n):
            ua.from_dlpack(x.__dlpack__())                       # legacy, consumed
            ua.from_dlpack(x.__dlpack__(max_version=(1, 0)))     # versioned, consumed
            x.__dlpack__()                                       # legacy, unconsumed
            x.__dlpack__(max_version=(1, 0))                     # versioned, unconsumed
            np.from_dlpack(x, device="cpu")                      # another consumer

    rounds(2000)
    gc.collect()
    before = _rss()
    rounds(25000)        # 10^5 capsules
    gc.collect()
    grown = _rss() - before
    assert grown < 4 << 20, f"RSS grew by {grown / 2**20:.1f} MB"
    del h


# ------------------------------------------------------------------ NumPy
def test_numpy_zero_copy_both_ways():
    x = ua.arange(6.0, usm_type="shared")
    h = np.from_dlpack(x, device="cpu")
    h[1] = 42                       # a write through NumPy is seen by usmarray
    assert ua.asnumpy(x)[1] == 42
    h2 = np.from_dlpack(x, device="cpu", copy=True)
    h2[2] = -1
    assert ua.asnumpy(x)[2] == 2
    y = ua.from_dlpack(np.arange(5, dtype="u2"))
    assert y.dtype == ua.uint16
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(5))


@pytest.mark.parametrize("dt", SUPPORTED_DTYPES, ids=str)
def test_numpy_round_trip_every_dtype(dt):
    h = sample((2, 3), dt)
    x = ua.from_dlpack(h)
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), h)


def test_from_dlpack_device_as_a_dlpack_device():
    """dpctl.tensor's form of ``device``: (kDLCPU, 0) gives a NumPy array,
    (kDLOneAPI, i) an array on root device i."""
    h = np.arange(5.0)
    got = ua.from_dlpack(ua.asarray(h), device=(KDL_CPU, 0))
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, h)
    dev_id = ua.sycl_device_to_dldevice(ua.asarray(h).sycl_device)[1]
    y = ua.from_dlpack(h, device=(KDL_ONEAPI, dev_id))
    assert isinstance(y, ua.usm_ndarray)
    np.testing.assert_array_equal(ua.asnumpy(y), h)
    with pytest.raises(ValueError):
        ua.from_dlpack(h, device=(KDL_CPU, 1))
    with pytest.raises(TypeError):
        ua.from_dlpack(h, device=(KDL_CPU, 0, 0))


def test_from_dlpack_of_a_usm_ndarray_views_any_strides():
    x = ua.arange(6.0)
    v = ua.from_dlpack(x[::-1], copy=False)
    v[0] = 100.0
    assert ua.asnumpy(x)[-1] == 100.0
    c = ua.from_dlpack(x[::-2], copy=True)
    c[0] = -1.0
    np.testing.assert_array_equal(ua.asnumpy(c), ua.asnumpy(x)[::-2] * [0, 1, 1] + [-1, 0, 0])


def test_import_of_strides_beyond_int64_byte_arithmetic_is_a_buffer_error():
    import torch
    t = torch.zeros(1, dtype=torch.float64).as_strided((1,), (2 ** 60,))
    with pytest.raises((BufferError, ValueError)):
        ua.from_dlpack(t)
