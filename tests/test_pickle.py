"""pickle, copy.copy and copy.deepcopy of usm_ndarray: contents, dtype, shape,
layout (C/F contiguity: what NumPy keeps), usm_type, device, read-only flag;
protocol 5 out-of-band buffers; a round trip through a spawned process."""

import copy
import multiprocessing
import pickle

import numpy as np
import pytest

import usmarray as ua
from usmarray._core._layout import c_strides, f_strides
from conftest import SUPPORTED_DTYPES, sample

PROTOCOLS = [2, 3, 4, 5]
USM_TYPES = ["device", "shared", "host"]

# name -> (view of a (4, 6) array, the same view of its NumPy copy)
LAYOUTS = {
    "C": lambda a: a,
    "F": lambda a: a.T,
    "C-offset": lambda a: a[1:3],
    "strided": lambda a: a[::2, 1::2],
    "negative": lambda a: a[::-1, ::-2],
    "offset-2d": lambda a: a[1:, 2:],
    "column": lambda a: a[:, 1],
    "0-d": lambda a: a[1, 2],
    "zero-size": lambda a: a[:0],
    "zero-size-F": lambda a: a[:, :0].T,
}


def _make(dtype, usm_type="device", layout="C"):
    h = sample((4, 6), dtype)
    x = ua.asarray(h, usm_type=usm_type)
    return LAYOUTS[layout](x), LAYOUTS[layout](h)


def _expected_layout(x):
    """NumPy's rule: C-contiguous stays C, F-only stays F, anything else becomes C."""
    if x.flags.f_contiguous and not x.flags.c_contiguous:
        return f_strides(x.shape)
    return c_strides(x.shape)


def _check(y, x, h, read_only=False):
    assert type(y) is ua.usm_ndarray
    assert y.dtype == x.dtype and y.shape == x.shape
    assert y.usm_type == x.usm_type
    assert y.sycl_device == x.sycl_device
    assert y.strides == _expected_layout(x)
    assert y.flags.writable is not read_only
    assert y._alloc is not x._alloc   # new memory
    np.testing.assert_array_equal(ua.asnumpy(y), h)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", SUPPORTED_DTYPES, ids=lambda d: d.name)
def test_pickle_dtype_layout(dtype, layout):
    x, h = _make(dtype, layout=layout)
    for protocol in PROTOCOLS:
        _check(pickle.loads(pickle.dumps(x, protocol=protocol)), x, h)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only"])
@pytest.mark.parametrize("usm_type", USM_TYPES)
@pytest.mark.parametrize("layout", ["C", "F", "negative"])
def test_pickle_usm_type_read_only(layout, usm_type, read_only, protocol):
    x, h = _make(ua.float32, usm_type, layout)
    if read_only:
        x.flags.writable = False
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    _check(y, x, h, read_only)
    if read_only:
        with pytest.raises(ValueError):
            y[...] = 0
        y.flags.writable = True   # its own memory: may be written again
        y[...] = 0
        np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_pickle_pending_work_and_independence():
    x = ua.arange(1000, dtype=ua.int64)
    x += 1   # a kernel that may still run when pickling starts
    y = pickle.loads(pickle.dumps(x))
    x[...] = 0
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(1, 1001))


def test_pickle_in_containers_shares_nothing_but_identity():
    x = ua.asarray([1.0, 2.0, 3.0])
    a, b, v = pickle.loads(pickle.dumps([x, x, x[::2]], protocol=5))
    assert a is b   # pickle's memo: one object stays one object
    np.testing.assert_array_equal(ua.asnumpy(v), [1.0, 3.0])


@pytest.mark.parametrize("usm_type", USM_TYPES)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_protocol5_out_of_band(usm_type, layout):
    h = sample((512, 256), np.float64)
    x = LAYOUTS[layout](ua.asarray(h, usm_type=usm_type))
    hv = LAYOUTS[layout](h)
    buffers = []
    s = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1 and len(s) < 1000   # the data is not in the stream
    raw = buffers[0].raw()
    assert raw.nbytes == x.nbytes
    # flat bytes: what b"".join and socket writes take (distributed joins frames)
    view = memoryview(buffers[0])
    assert view.ndim == 1 and view.c_contiguous and view.format == "B"
    assert len(b"".join([b"", buffers[0]])) == x.nbytes
    if x.flags.forc and x.sycl_device.is_cpu:
        # host-addressable memory leaves without a copy
        assert np.frombuffer(raw, dtype=np.uint8).ctypes.data == x._pointer
    _check(pickle.loads(s, buffers=buffers), x, hv)
    # the buffers as another process would get them: plain bytes
    _check(pickle.loads(s, buffers=[b.raw().tobytes() for b in buffers]), x, hv)
    with pytest.raises(pickle.UnpicklingError):
        pickle.loads(s)   # out-of-band data missing


def test_protocol5_in_band_is_one_stream():
    x = ua.asarray(sample((64, 64), np.float32))
    s = pickle.dumps(x, protocol=5)
    assert len(s) > x.nbytes
    np.testing.assert_array_equal(ua.asnumpy(pickle.loads(s)), ua.asnumpy(x))


def test_unknown_device_falls_back_to_default():
    x = ua.asarray([1, 2, 3], dtype=ua.int32)
    fs = x._q.filter_string.encode()
    s = pickle.dumps(x, protocol=4)
    assert s.count(fs) == 1
    # device number 9 of that backend and type, which this process does not have
    # (the same length: pickle strings are length-prefixed)
    other = fs[:-1] + b"9"
    with pytest.raises(ValueError):
        ua.Device.create_device(other.decode())
    y = pickle.loads(s.replace(fs, other))
    assert y.sycl_device == ua.Device.create_device().sycl_device
    np.testing.assert_array_equal(ua.asnumpy(y), [1, 2, 3])


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
@pytest.mark.parametrize("usm_type", USM_TYPES)
@pytest.mark.parametrize("layout", ["C", "F", "negative", "0-d", "zero-size"])
def test_copy_module(how, usm_type, layout):
    x, h = _make(ua.complex64, usm_type, layout)
    y = getattr(copy, how)(x)
    assert y.dtype == x.dtype and y.shape == x.shape and y.usm_type == usm_type
    assert y.sycl_queue == x.sycl_queue
    if x.flags.f_contiguous and not x.flags.c_contiguous:
        assert y.flags.f_contiguous
    assert y.flags.writable   # a copy is writable, as NumPy's copy.copy/deepcopy are
    assert y._alloc is not x._alloc
    np.testing.assert_array_equal(ua.asnumpy(y), h)
    if y.size:
        y[...] = 0
        np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_deepcopy_memo():
    x = ua.asarray([1, 2])
    a, b = copy.deepcopy([x, x])
    assert a is b and a is not x


def _child_sum(x):
    """Runs in a spawned process: receives an array, sends back a new one."""
    return ua.multiply(x, 2), x.usm_type, x.dtype, float(ua.sum(x))


def test_multiprocessing_spawn():
    h = sample((300, 200), np.float32)
    x = ua.asarray(h, usm_type="shared").T
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        y, usm_type, dt, total = pool.apply(_child_sum, (x,))
    assert (usm_type, dt) == ("shared", np.float32)
    assert y.usm_type == "shared" and y.flags.f_contiguous
    np.testing.assert_allclose(total, h.sum(dtype=np.float64), rtol=1e-4)
    np.testing.assert_array_equal(ua.asnumpy(y), 2 * h.T)
