"""Shared fixtures: the default queue's device capabilities and dtype lists."""

import numpy as np
import pytest

import usmarray as ua

ALL_DTYPES = [ua.bool, ua.int8, ua.uint8, ua.int16, ua.uint16, ua.int32, ua.uint32, ua.int64,
              ua.uint64, ua.float16, ua.float32, ua.float64, ua.complex64, ua.complex128]


def device_supports(dt, device=None):
    """Whether the (default) device can hold dtype `dt` (float16 is not an array
    API dtype, so the namespace info leaves it out even where it works)."""
    dev = ua.Device.create_device(device).sycl_device
    if dt == ua.float16:
        return dev.has_aspect_fp16
    if dt in (ua.float64, ua.complex128):
        return dev.has_aspect_fp64
    return True


def device_dtypes(device=None):
    """The dtypes the (default) device supports, float16 included where it has fp16."""
    return [d for d in ALL_DTYPES if device_supports(d, device)]


SUPPORTED_DTYPES = device_dtypes()


@pytest.fixture(params=SUPPORTED_DTYPES, ids=lambda d: d.name)
def dtype(request):
    return request.param


@pytest.fixture(params=["vector", "generic"])
def variant(request):
    """Runs a test with the CPU vector-block kernels and with the generic (GPU)
    ones, by the KernelCache.simd switch (what USMARRAY_GENERIC_KERNELS=1 turns
    off), so code only a GPU would run is tested on the CPU device too."""
    kc = ua.asarray([0])._q.kc
    if request.param == "vector" and not (ua.asarray([0])._q.device.is_cpu and kc.simd):
        pytest.skip("vector-block kernels are off on this device (or USMARRAY_GENERIC_KERNELS=1)")
    old = kc.simd
    kc.simd = request.param == "vector"
    try:
        yield request.param
    finally:
        kc.simd = old


@pytest.fixture
def queue():
    return ua.get_default_queue()


def sample(shape, dtype, seed=0):
    """Deterministic NumPy data of `dtype` with varied values (incl. negatives)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dt)
    elif dt.kind == "f":
        v = (rng.standard_normal(n) * 10).astype(dt)
    else:
        v = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    return v.reshape(shape)


# (rtol, atol) of float comparisons against NumPy, by result dtype
TOL = {
    np.dtype("float16"): (2e-3, 1e-3),
    np.dtype("float32"): (1e-5, 1e-6),
    np.dtype("float64"): (1e-12, 1e-14),
    np.dtype("complex64"): (2e-5, 1e-6),
    np.dtype("complex128"): (1e-12, 1e-14),
}


def to_host(x):
    assert isinstance(x, ua.usm_ndarray), type(x)
    return ua.asnumpy(x)


def check(got, expected, check_dtype=True, what=""):
    """Compare a usm_ndarray with a NumPy result: type, shape, dtype, values."""
    assert isinstance(got, ua.usm_ndarray), (what, type(got))
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    if check_dtype:
        assert got.dtype == expected.dtype, (what, got.dtype, expected.dtype)
    g = to_host(got)
    if g.dtype.kind in "fc":
        rtol, atol = TOL[g.dtype]
        np.testing.assert_allclose(g, expected, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=what)
    else:
        assert expected.dtype.kind not in "fc", (what, g.dtype, expected.dtype)
        np.testing.assert_array_equal(g, expected, err_msg=what)


def refused_like_numpy(name, h, exc=TypeError):
    """NumPy's function `name` refuses the host array h with `exc`, and so do
    ``ua.<name>`` and ``np.<name>`` of h on the device."""
    for call in (lambda: getattr(np, name)(h), lambda: getattr(ua, name)(ua.asarray(h)),
                 lambda: getattr(np, name)(ua.asarray(h))):
        with pytest.raises(exc):
            call()
