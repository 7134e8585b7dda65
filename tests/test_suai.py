"""``__sycl_usm_array_interface__`` (SUAI): export by usm_ndarray, zero-copy
import of any object describing USM memory with it (every ``syclobj`` form
of the specification), validation of malformed interfaces, and round trips
through a minimal consumer written here."""

import gc
import math
import weakref

import dpctl
import dpctl.memory as dpm
import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, sample

MEMORY = {"device": dpm.MemoryUSMDevice, "shared": dpm.MemoryUSMShared,
          "host": dpm.MemoryUSMHost}


# ------------------------------------------------------------------ a minimal producer
class Producer:
    """Owns a dpctl.memory object and describes (part of) it by SUAI.

    The interface dict is built on every access, so capsules in ``syclobj``
    are fresh each time (a dpctl capsule can be consumed only once)."""

    def __init__(self, mem, shape, typestr, strides=None, offset=0, readonly=False,
                 syclobj=None, byte_offset=0, **override):
        self.mem = mem
        self.shape = shape
        self.typestr = typestr
        self.strides = strides
        self.offset = offset
        self.readonly = readonly
        self.syclobj = syclobj if syclobj is not None else (lambda: mem.sycl_queue)
        self.byte_offset = byte_offset
        self.override = override

    @property
    def __sycl_usm_array_interface__(self):
        d = {"shape": self.shape, "typestr": self.typestr,
             "data": (self.mem._pointer + self.byte_offset, self.readonly),
             "strides": self.strides, "offset": self.offset, "version": 1,
             "syclobj": self.syclobj()}
        for k, v in self.override.items():
            if v is _MISSING:
                d.pop(k, None)
            else:
                d[k] = v
        return d


_MISSING = object()


class RawSUAI:
    """An object whose SUAI is exactly the given dict."""

    def __init__(self, iface, keep=None):
        self.__sycl_usm_array_interface__ = iface
        self.keep = keep


class CapsuleHolder:
    """A syclobj that is neither a context nor a queue but has _get_capsule()."""

    def __init__(self, make):
        self._make = make

    def _get_capsule(self):
        return self._make()


def _mem_with(values, kind="device", queue=None):
    """A dpctl.memory object of `kind` holding the bytes of NumPy array `values`."""
    queue = queue or ua.get_default_queue()
    b = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
    mem = MEMORY[kind](max(b.size, 1), queue=queue)
    if b.size:
        mem.copy_from_host(b)
    return mem


def _mem_read(mem, dtype):
    return np.frombuffer(mem.copy_to_host().tobytes(), dtype=dtype)


def _mem_write(mem, values):
    mem.copy_from_host(np.ascontiguousarray(values).view(np.uint8).reshape(-1))


def _host(x):
    return ua.asnumpy(x)


# ------------------------------------------------------------------ export
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (), (0,), (3, 0)])
def test_export_contiguous(shape, dtype):
    x = ua.asarray(sample(shape, dtype))
    d = x.__sycl_usm_array_interface__
    assert d["version"] == 1
    assert d["shape"] == shape
    assert isinstance(d["shape"], tuple)
    assert d["typestr"] == np.dtype(dtype).str
    assert np.dtype(d["typestr"]) == np.dtype(dtype)
    assert d["strides"] is None
    assert d.get("offset", 0) == 0
    ptr, ro = d["data"]
    assert isinstance(ptr, int) and ro is False
    assert ptr == x._pointer
    assert isinstance(d["syclobj"], dpctl.SyclQueue)
    assert d["syclobj"] == x.sycl_queue


def test_export_typestrings():
    expect = {ua.bool: "|b1", ua.int8: "|i1", ua.uint8: "|u1", ua.int16: "<i2",
              ua.uint16: "<u2", ua.int32: "<i4", ua.uint32: "<u4", ua.int64: "<i8",
              ua.uint64: "<u8", ua.float16: "<f2", ua.float32: "<f4", ua.float64: "<f8",
              ua.complex64: "<c8", ua.complex128: "<c16"}
    for dt in SUPPORTED_DTYPES:
        assert ua.empty((2,), dtype=dt).__sycl_usm_array_interface__["typestr"] == expect[dt]


def _element_zero(d):
    itemsize = np.dtype(d["typestr"]).itemsize
    return d["data"][0] + d.get("offset", 0) * itemsize


@pytest.mark.parametrize("view", [
    lambda a: a.T,
    lambda a: a[::-1],
    lambda a: a[:, ::-2],
    lambda a: a[1:, 2],
    lambda a: a[2:, 1:3],
    lambda a: a[::2, ::-1].T,
    lambda a: a[3, 4],
    lambda a: a[2:4],
])
def test_export_views(view):
    h = np.arange(48, dtype=np.float32).reshape(6, 8)
    x = ua.asarray(h)
    v = view(x)
    hv = np.asarray(view(h))
    d = v.__sycl_usm_array_interface__
    assert d["shape"] == hv.shape
    if v.flags.c_contiguous:
        assert d["strides"] is None
    else:
        assert d["strides"] == tuple(s // 4 for s in hv.strides)
    # data pointer + offset (elements) is element zero
    assert _element_zero(d) == v._pointer
    assert d["data"][0] <= v._pointer
    assert isinstance(d.get("offset", 0), int)
    # the described memory, read through dpctl, is the view's data
    np.testing.assert_array_equal(_consume(v), hv)


def test_export_offset_in_elements():
    x = ua.arange(20, dtype=ua.int64)
    d = x[7:].__sycl_usm_array_interface__
    assert d["data"][0] + d["offset"] * 8 == x._pointer + 7 * 8
    assert d["strides"] is None
    d = x[::-1].__sycl_usm_array_interface__
    assert d["strides"] == (-1,)
    assert d["data"][0] + d["offset"] * 8 == x._pointer + 19 * 8


def test_export_fortran_layout_has_strides():
    x = ua.empty((3, 4), dtype=ua.int32, order="F")
    d = x.__sycl_usm_array_interface__
    assert d["strides"] == (1, 3)


def test_export_complex_components():
    h = (np.arange(6) + 1j * np.arange(6, 12)).astype(np.complex64)
    x = ua.asarray(h)
    for part, hp in ((x.real, h.real), (x.imag, h.imag)):
        d = part.__sycl_usm_array_interface__
        assert d["typestr"] == "<f4"
        assert d["strides"] == (2,)
        np.testing.assert_array_equal(_consume(part), hp)


def test_export_read_only_flag():
    x = ua.arange(5, dtype=ua.float32)
    assert x.__sycl_usm_array_interface__["data"][1] is False
    x.flags.writable = False
    assert x.__sycl_usm_array_interface__["data"][1] is True
    b = ua.broadcast_to(ua.arange(3, dtype=ua.int32), (4, 3))
    d = b.__sycl_usm_array_interface__
    assert d["data"][1] is True
    assert d["strides"] == (0, 1)


def test_export_syclobj_is_the_arrays_queue():
    dev = ua.get_default_queue().sycl_device
    q = dpctl.SyclQueue(dpctl.SyclContext(dev), dev)
    x = ua.zeros((3,), sycl_queue=q)
    assert x.__sycl_usm_array_interface__["syclobj"] == q
    assert x.to_device(q).__sycl_usm_array_interface__["syclobj"] == q


def test_export_waits_for_pending_work():
    """A consumer that knows nothing about usmarray's events reads final data."""
    n = 1 << 22
    x = ua.zeros((n,), dtype=ua.float32)
    x[::-1] = ua.full((n,), 3.0, dtype=ua.float32)
    x[1::2] = 5.0
    mem = dpm.as_usm_memory(x)
    r = _mem_read(mem, np.float32)
    e = np.full(n, 3.0, np.float32)
    e[1::2] = 5.0
    np.testing.assert_array_equal(r, e)


# ------------------------------------------------------------------ a minimal consumer
def _consume(obj):
    """Read an SUAI object's array the way a third-party consumer would:
    wrap the described bytes in a dpctl.memory object, copy them to the host
    and interpret them with NumPy."""
    d = obj.__sycl_usm_array_interface__
    assert d["version"] == 1
    dt = np.dtype(d["typestr"])
    shape = tuple(d["shape"])
    strides = d.get("strides")
    if strides is None:
        strides, acc = [], 1
        for n in reversed(shape):
            strides.insert(0, acc)
            acc *= max(n, 1)
    off = d.get("offset", 0) or 0
    if math.prod(shape) == 0:
        return np.empty(shape, dt)
    lo = off + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    mem = dpm.as_usm_memory(obj)
    # zero copy: the memory object starts at the lowest element described
    assert mem._pointer == d["data"][0] + lo * dt.itemsize
    raw = mem.copy_to_host().tobytes()
    return np.ndarray(shape, dtype=dt, buffer=raw, offset=(off - lo) * dt.itemsize,
                      strides=tuple(s * dt.itemsize for s in strides)).copy()


def test_round_trip_to_consumer(dtype):
    h = sample((5, 7), dtype, seed=3)
    x = ua.asarray(h)
    for v, hv in [(x, h), (x.T, h.T), (x[::-1, 2:], h[::-1, 2:]), (x[1, ::-3], h[1, ::-3]),
                  (x[4, 6], h[4, 6])]:
        got = _consume(v)
        assert got.dtype == h.dtype
        np.testing.assert_array_equal(got, np.asarray(hv))


def test_round_trip_consumer_memory_object_is_zero_copy():
    x = ua.zeros((16,), dtype=ua.int32, usm_type="device")
    mem = dpm.MemoryUSMDevice(x)
    assert mem._pointer == x._pointer and mem.nbytes == 64
    _mem_write(mem, np.arange(16, dtype=np.int32) * 3)
    mem.sycl_queue.wait()
    np.testing.assert_array_equal(_host(x), np.arange(16) * 3)
    x[5] = -1
    x.sycl_queue.wait()
    assert _mem_read(mem, np.int32)[5] == -1


def test_round_trip_back_into_usmarray_shares_memory():
    h = np.arange(30, dtype=np.float64).reshape(5, 6)
    x = ua.asarray(h)
    v = x[1:, ::-2]
    y = ua.asarray(RawSUAI(v.__sycl_usm_array_interface__, keep=v))
    assert y._pointer == v._pointer and y.shape == v.shape and y.strides == v.strides
    np.testing.assert_array_equal(_host(y), h[1:, ::-2])
    y[0, 0] = -5.0
    assert float(x[1, 5]) == -5.0


# ------------------------------------------------------------------ import: syclobj forms
SYCLOBJ_FORMS = ["filter-string", "device-filter-string", "SyclContext", "SyclQueue",
                 "SyclContextRef-capsule", "SyclQueueRef-capsule",
                 "_get_capsule-context", "_get_capsule-queue"]


def _syclobj_maker(form, q):
    ctx = q.sycl_context
    return {
        "filter-string": lambda: q.sycl_device.backend.name + ":" + (
            "cpu" if q.sycl_device.is_cpu else "gpu"),
        "device-filter-string": lambda: q.sycl_device.filter_string,
        "SyclContext": lambda: ctx,
        "SyclQueue": lambda: q,
        "SyclContextRef-capsule": lambda: ctx._get_capsule(),
        "SyclQueueRef-capsule": lambda: q._get_capsule(),
        "_get_capsule-context": lambda: CapsuleHolder(ctx._get_capsule),
        "_get_capsule-queue": lambda: CapsuleHolder(q._get_capsule),
    }[form]


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
@pytest.mark.parametrize("form", SYCLOBJ_FORMS)
def test_import_asarray_every_syclobj_form(form, kind):
    q = ua.get_default_queue()   # the platform's default context: filter strings name it
    h = np.arange(24, dtype=np.int32).reshape(4, 6)
    mem = _mem_with(h, kind, q)
    obj = Producer(mem, (4, 6), "<i4", syclobj=_syclobj_maker(form, q))
    x = ua.asarray(obj)
    assert x.shape == (4, 6) and x.dtype == np.int32
    assert x.usm_type == kind
    assert x.sycl_context == q.sycl_context
    if form in ("SyclQueue", "SyclQueueRef-capsule", "_get_capsule-queue"):
        assert x.sycl_queue == q
    assert x._pointer == mem._pointer
    np.testing.assert_array_equal(_host(x), h)
    # zero copy, both ways
    _mem_write(mem, h[::-1].copy())
    mem.sycl_queue.wait()
    np.testing.assert_array_equal(_host(x), h[::-1])
    x[1, 2] = 1000
    x.sycl_queue.wait()
    assert _mem_read(mem, np.int32)[1 * 6 + 2] == 1000


@pytest.mark.parametrize("form", SYCLOBJ_FORMS)
def test_import_buffer_every_syclobj_form(form):
    q = ua.get_default_queue()
    h = np.arange(12, dtype=np.float32)
    mem = _mem_with(h, "device", q)
    obj = Producer(mem, (12,), "<f4", syclobj=_syclobj_maker(form, q))
    x = ua.usm_ndarray((3, 4), dtype="f4", buffer=obj)
    assert x._pointer == mem._pointer
    assert x.sycl_context == q.sycl_context
    np.testing.assert_array_equal(_host(x), h.reshape(3, 4))
    x[2, 3] = -7.0
    x.sycl_queue.wait()
    assert _mem_read(mem, np.float32)[11] == -7.0
    _mem_write(mem, np.zeros(12, np.float32))
    mem.sycl_queue.wait()
    np.testing.assert_array_equal(_host(x), np.zeros((3, 4), np.float32))


@pytest.fixture(scope="module")
def other_context_queue():
    """A queue whose context is not the platform's default context."""
    dev = ua.get_default_queue().sycl_device
    try:
        sub = dev.create_sub_devices(partition=1)[0]
    except Exception:
        pytest.skip("the device cannot be partitioned into sub-devices")
    return dpctl.SyclQueue(dpctl.SyclContext(sub), sub)


@pytest.mark.parametrize("form", ["SyclContext", "SyclQueue", "SyclContextRef-capsule",
                                  "SyclQueueRef-capsule", "_get_capsule-queue"])
def test_import_in_non_default_context(other_context_queue, form):
    q = other_context_queue
    h = np.arange(10, dtype=np.int16)
    mem = _mem_with(h, "device", q)
    x = ua.asarray(Producer(mem, (10,), "<i2", syclobj=_syclobj_maker(form, q)))
    assert x.sycl_context == q.sycl_context
    np.testing.assert_array_equal(_host(x), h)
    x[0] = 77
    x.sycl_queue.wait()
    assert _mem_read(mem, np.int16)[0] == 77


def test_import_syclobj_naming_another_context_is_rejected(other_context_queue):
    q_default = ua.get_default_queue()
    mem = _mem_with(np.arange(4, dtype=np.int32), "device", other_context_queue)
    obj = Producer(mem, (4,), "<i4", syclobj=lambda: q_default.sycl_context)
    with pytest.raises(ValueError, match="(?i)usm|context|pointer"):
        ua.asarray(obj)


@pytest.mark.parametrize("typestr,dt", [("<f8", np.float64), ("|b1", np.bool_), ("|u1", np.uint8),
                                        ("<c8", np.complex64), ("<f2", np.float16),
                                        ("<u8", np.uint64), ("|i1", np.int8)])
def test_import_typestrings(typestr, dt):
    h = sample((9,), dt, seed=1)
    mem = _mem_with(h)
    x = ua.asarray(Producer(mem, (9,), typestr))
    assert x.dtype == np.dtype(dt)
    np.testing.assert_array_equal(_host(x), h)


def test_import_strides_and_offset():
    h = np.arange(40, dtype=np.int32)
    mem = _mem_with(h)
    cases = [((3,), (2,), 4), ((3,), (-2,), 10), ((2, 3), (10, 3), 1), ((2, 3), (-10, -1), 39),
             ((4, 2), (1, 20), 0), ((3,), (0,), 7), ((), None, 13)]
    for shape, strides, offset in cases:
        x = ua.asarray(Producer(mem, shape, "<i4", strides=strides, offset=offset))
        st = strides if strides is not None else ()
        e = np.lib.stride_tricks.as_strided(h[offset:], shape=shape,
                                            strides=tuple(s * 4 for s in st)) \
            if all(s >= 0 for s in st) else None
        if e is None:
            idx = offset + sum(np.indices(shape)[i] * s for i, s in enumerate(st))
            e = h[idx]
        assert x.shape == shape
        np.testing.assert_array_equal(_host(x), e)
        assert x._pointer == mem._pointer + offset * 4


def test_import_buffer_views_described_memory_with_offset():
    """usm_ndarray(shape, buffer=obj) views the memory the SUAI object
    describes: with an offset, that memory starts at the described element
    zero (as dpctl.memory.MemoryUSM*(obj) does), not at data[0]."""
    h = np.arange(20, dtype=np.int32)
    mem = _mem_with(h)
    obj = Producer(mem, (3,), "<i4", strides=(1,), offset=4)
    assert dpm.MemoryUSMDevice(obj)._pointer == mem._pointer + 16   # dpctl's reading
    x = ua.usm_ndarray((3,), dtype="i4", buffer=obj)
    np.testing.assert_array_equal(_host(x), h[4:7])
    assert x._pointer == mem._pointer + 16


def test_import_zero_size():
    mem = _mem_with(np.arange(4, dtype=np.float32))
    x = ua.asarray(Producer(mem, (0, 3), "<f4"))
    assert x.shape == (0, 3) and x.dtype == np.float32
    assert _host(x).shape == (0, 3)


@pytest.mark.parametrize("path", ["asarray", "buffer"])
def test_import_read_only(path):
    h = np.arange(6, dtype=np.float64)
    mem = _mem_with(h)
    obj = Producer(mem, (6,), "<f8", readonly=True)
    x = ua.asarray(obj) if path == "asarray" else ua.usm_ndarray((6,), dtype="f8", buffer=obj)
    assert not x.flags.writable
    np.testing.assert_array_equal(_host(x), h)
    with pytest.raises(ValueError):
        x[0] = 1.0
    with pytest.raises(ValueError):
        x[1:3] = ua.zeros((2,))
    with pytest.raises(ValueError):
        x.flags.writable = True
    # views and re-exports stay read-only
    assert not x[::2].flags.writable
    assert x.__sycl_usm_array_interface__["data"][1] is True
    with pytest.raises(ValueError):
        x[::-1][0] = 2.0
    np.testing.assert_array_equal(_mem_read(mem, np.float64), h)


def test_import_keeps_producer_alive():
    h = np.arange(8, dtype=np.int64)
    obj = Producer(_mem_with(h), (8,), "<i8")
    ref = weakref.ref(obj)
    x = ua.asarray(obj)
    del obj
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(_host(x[::-1]), h[::-1])
    del x
    ua.synchronize()
    gc.collect()
    ua.free_cached_memory()   # also releases deferred foreign owners
    gc.collect()
    assert ref() is None


def test_asarray_of_dpctl_memory_object():
    h = np.arange(32, dtype=np.uint8)
    for kind in ("device", "shared", "host"):
        mem = _mem_with(h, kind)
        x = ua.asarray(mem)
        assert x.shape == (32,) and x.dtype == np.uint8
        assert x.usm_type == kind
        assert x._pointer == mem._pointer
        ro = mem.__sycl_usm_array_interface__["data"][1]
        assert x.flags.writable == (not ro)
        np.testing.assert_array_equal(_host(x), h)
        _mem_write(mem, h[::-1].copy())
        mem.sycl_queue.wait()
        np.testing.assert_array_equal(_host(x), h[::-1])
        # and as a constructor buffer, reinterpreted as another dtype
        y = ua.usm_ndarray((8,), dtype="i4", buffer=mem)
        np.testing.assert_array_equal(_host(y), h[::-1].copy().view(np.int32))


# ------------------------------------------------------------------ malformed interfaces
def _base_iface(mem, **changes):
    d = {"shape": (4,), "typestr": "<i4", "data": (mem._pointer, False), "strides": None,
         "offset": 0, "version": 1, "syclobj": mem.sycl_queue}
    for k, v in changes.items():
        if v is _MISSING:
            del d[k]
        else:
            d[k] = v
    return d


@pytest.fixture
def mem16():
    return _mem_with(np.arange(4, dtype=np.int32))


def _both_paths_raise(iface, match, keep=None):
    obj = RawSUAI(iface, keep)
    with pytest.raises((TypeError, ValueError), match=match):
        ua.asarray(obj)
    with pytest.raises((TypeError, ValueError), match=match):
        ua.usm_ndarray((1,), dtype="i4", buffer=obj)


@pytest.mark.parametrize("key", ["data", "shape", "typestr", "version", "syclobj"])
def test_malformed_missing_required_key(mem16, key):
    _both_paths_raise(_base_iface(mem16, **{key: _MISSING}), match=key, keep=mem16)


@pytest.mark.parametrize("typestr", ["xyz", "<U4", "O", "|V8", "<M8", ">i4", "i9"])
def test_malformed_typestr(mem16, typestr):
    _both_paths_raise(_base_iface(mem16, typestr=typestr), match="typestr", keep=mem16)


@pytest.mark.parametrize("version", [2, 0, "1"])
def test_malformed_version(mem16, version):
    _both_paths_raise(_base_iface(mem16, version=version), match="version", keep=mem16)


def test_malformed_data(mem16):
    for data in ([mem16._pointer, False], mem16._pointer, (mem16._pointer,),
                 ("0x1234", False), (mem16._pointer, False, 0)):
        _both_paths_raise(_base_iface(mem16, data=data), match="data", keep=mem16)


def test_malformed_pointer_not_usm(mem16):
    h = np.zeros(64, dtype=np.int32)
    _both_paths_raise(_base_iface(mem16, data=(h.ctypes.data, False)),
                      match="(?i)usm|pointer", keep=h)


@pytest.mark.parametrize("changes", [
    {"shape": (5,)},                        # one element too many
    {"shape": (1000,)},
    {"strides": (2,)},                      # 4 elements 2 apart: 7 slots
    {"offset": 1},                          # shifted by one
    {"shape": (2, 2), "strides": (3, 1)},   # last element at 4
], ids=["shape", "shape-far", "strides", "offset", "2d"])
def test_malformed_extent_past_allocation_end(mem16, changes):
    _both_paths_raise(_base_iface(mem16, **changes), match="(?i)past|end|fit|allocation",
                      keep=mem16)


def test_malformed_extent_spanning_into_another_allocation():
    """The described elements must lie in the one allocation data[0] points
    into, even if a later element happens to fall into another allocation."""
    q = ua.get_default_queue()
    mems = sorted((dpm.MemoryUSMDevice(4096, queue=q) for _ in range(8)),
                  key=lambda m: m._pointer)
    a, b = mems[0], mems[1]
    gap = b._pointer - a._pointer
    assert gap >= 4096
    iface = {"shape": (2,), "typestr": "|u1", "data": (a._pointer, False), "strides": (gap,),
             "offset": 0, "version": 1, "syclobj": q}
    _both_paths_raise(iface, match="(?i)past|end|allocation", keep=mems)


@pytest.mark.parametrize("changes", [
    {"strides": (-1,)},
    {"offset": -1},
    {"strides": (-1,), "offset": 2},
    {"shape": (2, 2), "strides": (2, -1), "offset": 0},
], ids=["negative-stride", "negative-offset", "stride-and-offset", "2d"])
def test_malformed_extent_before_data_pointer(mem16, changes):
    _both_paths_raise(_base_iface(mem16, **changes), match="(?i)before|negative|offset",
                      keep=mem16)


@pytest.mark.parametrize("syclobj", [42, None, 3.5, ["opencl:cpu"], object()],
                         ids=["int", "None", "float", "list", "object"])
def test_malformed_syclobj_type(mem16, syclobj):
    _both_paths_raise(_base_iface(mem16, syclobj=syclobj), match="syclobj", keep=mem16)


def test_malformed_syclobj_capsule_and_get_capsule(mem16):
    q = mem16.sycl_queue
    dev_capsule = q.sycl_device  # a device is not a valid syclobj
    _both_paths_raise(_base_iface(mem16, syclobj=dev_capsule), match="syclobj", keep=mem16)
    _both_paths_raise(_base_iface(mem16, syclobj=CapsuleHolder(lambda: 17)), match="capsule",
                      keep=mem16)
    _both_paths_raise(_base_iface(mem16, syclobj="no-such-backend:gpu:99"),
                      match="(?i)filter|syclobj|device", keep=mem16)


@pytest.mark.parametrize("changes", [{"shape": [4]}, {"shape": (-1,)}, {"shape": 4},
                                     {"strides": (1, 1)}, {"strides": [1]}, {"offset": 0.5}],
                         ids=["list", "negative", "int", "strides-length", "strides-list",
                              "offset-float"])
def test_malformed_geometry(mem16, changes):
    key = next(iter(changes))
    _both_paths_raise(_base_iface(mem16, **changes), match=key, keep=mem16)


@pytest.mark.parametrize("changes", [
    {"data": (-1, False)}, {"data": (2 ** 70, False)}, {"data": (0, False)},
    {"typestr": None}, {"version": 1.0}, {"version": True},
    {"shape": (1,) * 65}, {"shape": (2 ** 62,)}, {"offset": 2 ** 62},
    {"shape": (2, 2), "strides": (2 ** 62, 1)}, {"shape": (2 ** 40, 2 ** 40)},
], ids=["pointer-negative", "pointer-2**70", "pointer-null", "typestr-None", "version-1.0",
        "version-True", "65-dims", "shape-2**62", "offset-2**62", "strides-2**62", "size-2**80"])
def test_malformed_values_raise_value_error(mem16, changes):
    """Values of the right key but impossible content: ValueError on both
    import paths, never a TypeError from the engine's bindings, and never a
    silent default (typestr None is not float64)."""
    obj = RawSUAI(_base_iface(mem16, **changes), mem16)
    with pytest.raises(ValueError):
        ua.asarray(obj)
    with pytest.raises(ValueError):
        ua.usm_ndarray((1,), dtype="i4", buffer=obj)


def test_malformed_interface_not_a_dict():
    with pytest.raises(TypeError):
        ua.asarray(RawSUAI([("shape", (1,))]))


def test_interface_property_raising_is_reported():
    class Broken:
        @property
        def __sycl_usm_array_interface__(self):
            raise RuntimeError("exporter is broken")

    with pytest.raises((TypeError, ValueError, RuntimeError), match="broken"):
        ua.asarray(Broken())


class _Iface:
    def __init__(self, d, keep):
        self.__sycl_usm_array_interface__ = d
        self.keep = keep


@pytest.mark.parametrize("shape, strides, offset", [((1,), (2 ** 64,), 0), ((0,), (2 ** 70,), 0),
                                                     ((2,), (1,), 2 ** 63)])
def test_strides_and_offsets_beyond_int64_are_refused(shape, strides, offset):
    x = ua.arange(4.0)
    with pytest.raises(ValueError):
        ua.usm_ndarray(shape, dtype="f8", strides=strides, buffer=x, offset=offset)
    d = dict(x.__sycl_usm_array_interface__, shape=shape, strides=strides, offset=offset)
    with pytest.raises(ValueError):
        ua.asarray(_Iface(d, x))
