"""Interchange with other libraries, for real: torch (CPU), dpnp and
TensorFlow. Each library's tests run where it is installed: torch comes
with the `interop` extra (CI installs it); dpnp and TensorFlow are large and
run in their own marked groups (`pytest -m "dpnp or tensorflow"` in an
environment that has them)."""

import numpy as np
import pytest

import usmarray as ua
from conftest import sample

KDL_CPU = 1
TORCH_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32",
                "float64", "complex64", "complex128"]


# ------------------------------------------------------------------ torch
@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _to_torch(torch, x):
    """The documented way for CPU torch: ask for a kDLCPU capsule."""
    return torch.from_dlpack(x.__dlpack__(dl_device=(KDL_CPU, 0), max_version=(1, 0)))


@pytest.mark.parametrize("dt", TORCH_DTYPES)
def test_torch_values_every_dtype(torch, dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    t = _to_torch(torch, x)
    assert str(t.dtype) == f"torch.{dt}"
    np.testing.assert_array_equal(t.numpy(), h)
    back = ua.from_dlpack(t)
    assert back.dtype == x.dtype
    np.testing.assert_array_equal(ua.asnumpy(back), h)


def test_torch_zero_copy_from_usmarray_both_directions_of_mutation(torch):
    x = ua.asarray(np.arange(12, dtype="f4").reshape(3, 4))
    t = _to_torch(torch, x)
    assert t.data_ptr() == x._pointer
    t[0, 0] = 42.0                    # torch writes, usmarray sees
    assert ua.asnumpy(x)[0, 0] == 42.0
    x[2, 3] = -1.0                    # usmarray writes (asynchronously), torch sees
    x.sycl_queue.wait()               # once the write is done: torch does not see our events
    assert t[2, 3].item() == -1.0


def test_torch_views_keep_strides(torch):
    h = np.arange(30, dtype="i8").reshape(5, 6)
    x = ua.asarray(h)[::2, 1::3].T
    t = _to_torch(torch, x)
    np.testing.assert_array_equal(t.numpy(), h[::2, 1::3].T)
    assert t.data_ptr() == x._pointer
    r = ua.asarray(h)[::-1]           # negative strides: exported as a copy torch accepts
    np.testing.assert_array_equal(_to_torch(torch, r).numpy(), h[::-1])


def test_torch_copies_when_asked(torch):
    x = ua.arange(5.0)
    t = torch.from_dlpack(x.__dlpack__(dl_device=(KDL_CPU, 0), max_version=(1, 0), copy=True))
    t[0] = 9.0
    assert ua.asnumpy(x)[0] == 0.0


def test_usmarray_from_torch_copies_into_usm(torch):
    t = torch.arange(10, dtype=torch.float32).reshape(2, 5)[:, 1:]
    x = ua.from_dlpack(t)
    np.testing.assert_array_equal(ua.asnumpy(x), t.numpy())
    t[0, 0] = -7                      # host memory: the array is a copy in USM
    assert ua.asnumpy(x)[0, 0] != -7
    with pytest.raises(BufferError):
        ua.from_dlpack(t, copy=False)
    x2 = ua.from_dlpack(torch.to_dlpack(t))      # a legacy capsule from torch
    np.testing.assert_array_equal(ua.asnumpy(x2), t.numpy())


def test_torch_memory_outlives_the_usmarray_reference(torch):
    x = ua.asarray(np.arange(1000, dtype="f8"))
    t = _to_torch(torch, x)
    del x
    import gc

    gc.collect()
    assert t.sum().item() == sum(range(1000))


# ------------------------------------------------------------------ dpnp
@pytest.fixture(scope="module")
def dpnp():
    return pytest.importorskip("dpnp")


@pytest.mark.dpnp
def test_dpnp_suai_both_ways(dpnp):
    d = dpnp.arange(10, dtype="f4")
    x = ua.asarray(d)                           # SUAI import: zero-copy
    assert x._pointer == d.__sycl_usm_array_interface__["data"][0]
    x[0] = 99
    d.sycl_queue.wait()
    assert float(d[0]) == 99
    d2 = dpnp.asarray(ua.arange(5.0, sycl_queue=d.sycl_queue))   # usmarray -> dpnp via SUAI
    np.testing.assert_array_equal(dpnp.asnumpy(d2), np.arange(5.0))


@pytest.mark.dpnp
def test_dpnp_dlpack_both_ways(dpnp):
    d = dpnp.arange(6, dtype="i4").reshape(2, 3)
    x = ua.from_dlpack(d)                       # kDLOneAPI: zero-copy
    assert x._pointer == d.__sycl_usm_array_interface__["data"][0]
    np.testing.assert_array_equal(ua.asnumpy(x), np.arange(6).reshape(2, 3))
    y = ua.arange(4.0)
    d3 = dpnp.from_dlpack(y)
    assert d3.__sycl_usm_array_interface__["data"][0] == y._pointer
    np.testing.assert_array_equal(dpnp.asnumpy(d3), np.arange(4.0))


# ------------------------------------------------------------------ TensorFlow
@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


@pytest.mark.tensorflow
def test_tensorflow_takes_a_legacy_cpu_capsule(tf):
    h = np.arange(12, dtype="f4").reshape(3, 4)
    x = ua.asarray(h)
    t = tf.experimental.dlpack.from_dlpack(x.__dlpack__(dl_device=(KDL_CPU, 0)))
    np.testing.assert_array_equal(t.numpy(), h)
    x[0, 0] = 42.0                     # zero-copy: TensorFlow sees a later write
    x.sycl_queue.wait()
    assert t.numpy()[0, 0] == 42.0


@pytest.mark.tensorflow
def test_usmarray_from_tensorflow(tf):
    t = tf.reshape(tf.range(12, dtype=tf.float64), (3, 4))
    x = ua.from_dlpack(tf.experimental.dlpack.to_dlpack(t))
    np.testing.assert_array_equal(ua.asnumpy(x), t.numpy())
