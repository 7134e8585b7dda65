"""Interchange with other libraries, for real: torch (CPU), dpnp, TensorFlow
and JAX, and NumPy's plain ``np.from_dlpack``. The ``interop`` extra installs
every one of these libraries, and CI installs that extra: under CI (``CI``
set) a missing library fails its group instead of skipping it, so no group
can pass by not running. Elsewhere each library's tests skip where it is not
installed (``pytest -m "dpnp or tensorflow or jax"`` runs the large ones)."""

import gc
import importlib
import os

import numpy as np
import pytest

import usmarray as ua
from conftest import sample

KDL_CPU = 1
TORCH_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32",
                "float64", "complex64", "complex128"]




def _library(name):
    """Import an interop library: a skip where it is not installed, a failure
    in CI, which installs all of them."""
    if os.environ.get("CI"):
        return importlib.import_module(name)
    return pytest.importorskip(name)


# ------------------------------------------------------------------ torch
@pytest.fixture(scope="module")
def torch():
    return _library("torch")


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
    # the producer's copy of a transposed or strided view is in C order
    h = np.arange(12.0).reshape(3, 4)
    for v, hv in ((ua.asarray(h).T, h.T), (ua.asarray(h)[:, ::2], h[:, ::2])):
        c = torch.from_dlpack(v.__dlpack__(dl_device=(KDL_CPU, 0), max_version=(1, 0), copy=True))
        assert c.is_contiguous()
        np.testing.assert_array_equal(c.numpy(), hv)


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
    gc.collect()
    assert t.sum().item() == sum(range(1000))


# ------------------------------------------------------------------ dpnp
@pytest.fixture(scope="module")
def dpnp():
    return _library("dpnp")


@pytest.mark.dpnp
def test_dpnp_suai_both_ways(dpnp):
    d = dpnp.arange(10, dtype="f4")
    x = ua.asarray(d)                           # SUAI import: zero-copy
    assert x._pointer == d.__sycl_usm_array_interface__["data"][0]
    x[0] = 99
    d.sycl_queue.wait()
    assert float(d[0]) == 99
    # usmarray -> dpnp via SUAI: dpnp 0.20's asarray copies every foreign SUAI
    # object (IntelPython/dpnp#2554), so docs/interchange.md sends users to from_dlpack
    y = ua.arange(5.0, sycl_queue=d.sycl_queue)
    d2 = dpnp.asarray(y)
    np.testing.assert_array_equal(dpnp.asnumpy(d2), np.arange(5.0))
    assert d2.__sycl_usm_array_interface__["data"][0] != y._pointer
    with pytest.raises(ValueError, match="copy=False"):
        dpnp.asarray(y, copy=False)


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
    t = ua.reshape(ua.arange(12.0), (3, 4))[:, ::2].T      # views keep their strides
    d4 = dpnp.from_dlpack(t)
    assert d4.__sycl_usm_array_interface__["data"][0] == t._pointer
    np.testing.assert_array_equal(dpnp.asnumpy(d4), np.arange(12.0).reshape(3, 4)[:, ::2].T)



@pytest.mark.dpnp
def test_dpnp_kernels_and_usmarray_kernels_on_one_allocation(dpnp):
    # dpnp brings its own kernels and oneMKL calls; they must run on the SYCL
    # runtime that usmarray pins, on memory usmarray allocated, and the other way round
    h = np.linspace(-1.0, 1.0, 64, dtype="f4")
    x = ua.asarray(h)
    d = dpnp.from_dlpack(x)                              # zero-copy
    assert d.__sycl_usm_array_interface__["data"][0] == x._pointer
    np.testing.assert_allclose(dpnp.asnumpy(dpnp.sin(d)), np.sin(h), rtol=1e-6)
    np.testing.assert_allclose(float(dpnp.linalg.norm(d)), np.linalg.norm(h), rtol=1e-6)
    d *= 2                                               # dpnp writes, usmarray reads
    d.sycl_queue.wait()
    np.testing.assert_array_equal(ua.asnumpy(x), 2 * h)
    e = dpnp.cumsum(dpnp.arange(10, dtype="i8"))
    np.testing.assert_array_equal(ua.asnumpy(ua.from_dlpack(e) + 1), np.cumsum(np.arange(10)) + 1)

# ------------------------------------------------------------------ TensorFlow
@pytest.fixture(scope="module")
def tf():
    # TensorFlow's C++ INFO lines (oneDNN, CPU features) would fill the test log
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    return _library("tensorflow")


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


@pytest.mark.tensorflow
@pytest.mark.parametrize("dt", TORCH_DTYPES + ["uint16", "uint32", "uint64"])
def test_tensorflow_every_dtype_both_ways(tf, dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    t = tf.experimental.dlpack.from_dlpack(x.__dlpack__(dl_device=(KDL_CPU, 0)))
    assert t.dtype.name == dt
    np.testing.assert_array_equal(t.numpy(), h)
    back = ua.from_dlpack(t)                 # TensorFlow's tensors have __dlpack__ too
    assert back.dtype == x.dtype
    np.testing.assert_array_equal(ua.asnumpy(back), h)


@pytest.mark.tensorflow
@pytest.mark.parametrize("view", ["strided", "transposed"])
def test_tensorflow_refuses_non_c_strides_and_takes_the_producers_copy(tf, view):
    h = np.arange(24, dtype="f4").reshape(4, 6)
    x = ua.asarray(h)
    v, hv = (x[:, ::2], h[:, ::2]) if view == "strided" else (x.T, h.T)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid strides"):
        tf.experimental.dlpack.from_dlpack(v.__dlpack__(dl_device=(KDL_CPU, 0)))
    # the documented copy: the producer copies into C order, which TensorFlow takes
    t = tf.experimental.dlpack.from_dlpack(v.__dlpack__(dl_device=(KDL_CPU, 0), copy=True))
    np.testing.assert_array_equal(t.numpy(), hv)
    x[0, 0] = -1.0
    x.sycl_queue.wait()
    assert t.numpy()[0, 0] == 0.0            # a copy: later writes do not show


@pytest.mark.tensorflow
def test_tensorflow_convert_to_tensor_aliases_and_np_array_copies(tf):
    x = ua.asarray(np.arange(12, dtype="f4").reshape(3, 4))
    # TensorFlow calls x.__array__() without copy=, so it gets a view of the
    # USM and keeps it: later writes show up in the "immutable" tensor
    t = tf.convert_to_tensor(x)
    x[0, 0] = 42.0
    x.sycl_queue.wait()
    assert t.numpy()[0, 0] == 42.0
    # np.array(x) asks __array__(copy=True): a tensor of its own
    c = tf.convert_to_tensor(np.array(x))
    x[0, 1] = 43.0
    x.sycl_queue.wait()
    assert c.numpy()[0, 1] == 1.0
    assert tf.convert_to_tensor(x).numpy()[0, 1] == 43.0


# ------------------------------------------------------------------ JAX
@pytest.fixture(scope="module")
def jax():
    return _library("jax")


def _to_jax(jax, x, **kw):
    """The documented route: NumPy takes a kDLCPU capsule (zero-copy), JAX the
    NumPy array (zero-copy where JAX can use the memory as it is)."""
    return jax.numpy.from_dlpack(np.from_dlpack(x, device="cpu"), **kw)


@pytest.mark.jax
def test_jax_refuses_usmarray_itself(jax):
    # why the route goes through NumPy: JAX reads __dlpack_device__ (kDLOneAPI)
    # and refuses it, and it takes no capsule
    x = ua.arange(4.0)
    with pytest.raises(TypeError, match="unsupported device type"):
        jax.numpy.from_dlpack(x)
    with pytest.raises(TypeError, match="__dlpack__ and __dlpack_device__"):
        jax.numpy.from_dlpack(x.__dlpack__(dl_device=(KDL_CPU, 0)))


@pytest.mark.jax
@pytest.mark.parametrize("dt", TORCH_DTYPES + ["uint16", "uint32", "uint64"])
def test_jax_zero_copy_every_dtype(jax, dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    with jax.enable_x64(True):               # 64-bit dtypes stay 64-bit
        j = _to_jax(jax, x, copy=False)
        assert j.dtype == np.dtype(dt)
        assert j.unsafe_buffer_pointer() == x._pointer
        np.testing.assert_array_equal(np.asarray(j), h)


@pytest.mark.jax
def test_jax_without_x64_converts_64_bit_dtypes(jax):
    x = ua.arange(5.0)
    with jax.enable_x64(False):
        # JAX's default: float64 becomes a float32 copy, even with copy=False
        j = _to_jax(jax, x, copy=False)
        assert j.dtype == np.float32 and j.unsafe_buffer_pointer() != x._pointer
        j32 = _to_jax(jax, ua.astype(x, ua.float32), copy=False)
        assert j32.dtype == np.float32


@pytest.mark.jax
def test_jax_sees_later_writes_and_keeps_the_memory_alive(jax):
    x = ua.asarray(np.arange(1000, dtype="f4"))
    j = _to_jax(jax, x)
    assert j.unsafe_buffer_pointer() == x._pointer
    x[0] = 5000.0                            # JAX assumes immutability: this is visible
    x.sycl_queue.wait()
    assert float(j[0]) == 5000.0
    del x
    gc.collect()
    assert float(j.sum()) == sum(range(1, 1000)) + 5000.0


@pytest.mark.jax
def test_jax_views(jax):
    h = np.arange(64 * 4, dtype="f4").reshape(16, 16)
    x = ua.asarray(h)
    t = _to_jax(jax, x.T, copy=False)        # a transposition: JAX takes it as it is
    assert t.unsafe_buffer_pointer() == x._pointer
    np.testing.assert_array_equal(np.asarray(t), h.T)
    r = _to_jax(jax, x[4:], copy=False)      # 256 bytes in: still 64-byte aligned
    assert r.unsafe_buffer_pointer() == x[4:]._pointer
    # 4 bytes in: JAX copies what is not 64-byte aligned, and says so when told not to
    np.testing.assert_array_equal(np.asarray(_to_jax(jax, x[0, 1:])), h[0, 1:])
    with pytest.raises(ValueError, match="aligned"):
        _to_jax(jax, x[0, 1:], copy=False)
    # strided views: JAX refuses them; the producer's copy (C order) goes in
    with pytest.raises(Exception, match="compact"):
        _to_jax(jax, x[:, ::2])
    c = jax.numpy.from_dlpack(np.from_dlpack(x[:, ::2], device="cpu", copy=True))
    np.testing.assert_array_equal(np.asarray(c), h[:, ::2])


@pytest.mark.jax
def test_jax_read_only_arrays_go_in_as_copies(jax):
    x = ua.arange(6.0, dtype=ua.float32)
    x.flags["W"] = False
    with pytest.raises(BufferError, match="readonly"):
        _to_jax(jax, x)                      # NumPy's legacy export cannot say read-only
    j = jax.numpy.from_dlpack(np.from_dlpack(x, device="cpu", copy=True))
    np.testing.assert_array_equal(np.asarray(j), np.arange(6.0))


@pytest.mark.jax
def test_usmarray_from_jax_copies_into_usm(jax):
    j = jax.numpy.arange(12, dtype=jax.numpy.float32).reshape(3, 4)
    x = ua.from_dlpack(j)                    # JAX is kDLCPU: copied into USM
    np.testing.assert_array_equal(ua.asnumpy(x), np.asarray(j))
    assert x._pointer != j.unsafe_buffer_pointer()
    with pytest.raises(BufferError):
        ua.from_dlpack(j, copy=False)
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(j)), np.asarray(j))
    # a round trip through JAX's own computation
    y = ua.from_dlpack(jax.numpy.cumsum(_to_jax(jax, x), axis=1))
    np.testing.assert_array_equal(ua.asnumpy(y), np.cumsum(np.arange(12.0).reshape(3, 4), axis=1))


# ------------------------------------------------------------------ NumPy's plain from_dlpack
_NUMPY_RAISES_BUFFERERROR = np.lib.NumpyVersion(np.__version__) >= "2.5.0.dev0"


def test_plain_numpy_from_dlpack_is_asked_for_the_arrays_own_device(monkeypatch):
    # np.from_dlpack(x) passes dl_device=None, which the __dlpack__ contract
    # defines as "the array's own device": a kDLOneAPI capsule. NumPy cannot
    # hold it; NumPy 2.5 says so with BufferError, earlier releases with RuntimeError.
    calls = []
    export = ua.usm_ndarray.__dlpack__

    def spy(self, **kw):
        calls.append(kw)
        return export(self, **kw)

    monkeypatch.setattr(ua.usm_ndarray, "__dlpack__", spy)
    x = ua.arange(4.0)
    with pytest.raises(BufferError if _NUMPY_RAISES_BUFFERERROR else RuntimeError,
                       match="Unsupported device"):
        np.from_dlpack(x)
    assert calls == [{"dl_device": None, "copy": None, "max_version": (1, 0)}]
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), np.arange(4.0))
    assert calls[-1]["dl_device"] == (KDL_CPU, 0)


@pytest.mark.consumers
def test_array_api_extra_testing_helpers(monkeypatch):
    # array-api-extra's testing helpers call np.from_dlpack(x) and fall back to
    # np.asarray(x) only on TypeError or BufferError
    xpx = _library("array_api_extra")
    x = ua.asarray(np.arange(6.0).reshape(2, 3))
    if not _NUMPY_RAISES_BUFFERERROR:
        with pytest.raises(RuntimeError, match="Unsupported device"):
            xpx.testing.assert_close(x, x)
        # the workaround docs/ecosystem.md gives: compare host copies
        xpx.testing.assert_close(ua.asnumpy(x), ua.asnumpy(x * (1 + 1e-12)))
        with pytest.raises(AssertionError):
            xpx.testing.assert_close(ua.asnumpy(x), ua.asnumpy(x + 1))
        # NumPy 2.5's from_dlpack raises BufferError where this NumPy raises
        # RuntimeError; with that, the helpers take usm_ndarrays as they are
        from_dlpack = np.from_dlpack

        def from_dlpack_raising_buffererror(obj, *, device=None, copy=None):
            try:
                return from_dlpack(obj, device=device, copy=copy)
            except RuntimeError as e:
                raise BufferError(str(e)) from None

        monkeypatch.setattr(np, "from_dlpack", from_dlpack_raising_buffererror)
    xpx.testing.assert_close(x, x * (1 + 1e-12))
    xpx.testing.assert_equal(x, ua.asarray(np.arange(6.0).reshape(2, 3)))
    with pytest.raises(AssertionError):
        xpx.testing.assert_close(x, x + 1)
