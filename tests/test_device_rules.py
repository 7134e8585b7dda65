"""Device-dependent dtype rules, checked on stand-ins for devices without fp64
or fp16 (the CPU device here has both): type resolution must never pick a
loop the device cannot run, and creation must refuse such dtypes."""

import types

import pytest

import usmarray as ua
from usmarray._core import _dtypes
from usmarray._core._scalars import weak_scalar_dtype as _weak_scalar_dtype
from usmarray.elementwise import OP


def fake_queue(fp64, fp16):
    """What type resolution reads of a queue."""
    return types.SimpleNamespace(
        fp64=fp64, fp16=fp16, caps=(fp64, fp16),
        float=_dtypes.float64 if fp64 else _dtypes.float32,
        complex=_dtypes.complex128 if fp64 else _dtypes.complex64,
        device=types.SimpleNamespace(name="stand-in device"))


NO_FP64 = fake_queue(False, True)
NO_FP16 = fake_queue(True, False)
NEITHER = fake_queue(False, False)


def _types_of(r):
    ins, out, sig = r
    return list(ins) + [out]


@pytest.mark.parametrize("qi", [NO_FP64, NO_FP16, NEITHER], ids=["no-fp64", "no-fp16", "neither"])
@pytest.mark.parametrize("name", sorted(OP))
def test_resolution_uses_only_supported_types(qi, name):
    op = OP[name]
    banned = set()
    if not qi.fp64:
        banned |= {_dtypes.float64, _dtypes.complex128}
    if not qi.fp16:
        banned.add(_dtypes.float16)
    for dt in _dtypes.DTYPES:
        if dt in banned:
            continue
        dts = (dt,) * op.nin
        try:
            r = op.resolve(dts, qi)
        except TypeError:
            continue      # the operation does not take this dtype at all
        assert not banned & set(_types_of(r)), (name, dt, r)


def test_integer_inputs_fall_back_to_float32_without_fp64():
    r = OP["sin"].resolve((_dtypes.int64,), NO_FP64)
    assert r[1] == _dtypes.float32
    r = OP["divide"].resolve((_dtypes.int32, _dtypes.int32), NO_FP64)
    assert r[1] == _dtypes.float32


def test_python_float_scalars_take_the_device_default():
    assert _weak_scalar_dtype(1.5, _dtypes.int32, NO_FP64) is _dtypes.float32
    assert _weak_scalar_dtype(1j, _dtypes.int32, NO_FP64) is _dtypes.complex64
    assert _weak_scalar_dtype(1.5, _dtypes.int32, NO_FP16) is _dtypes.float64


def test_fp64_dtype_is_refused_on_a_device_without_it():
    with pytest.raises(ValueError, match="fp64"):
        _dtypes.check_device_support(_dtypes.float64, NO_FP64)
    with pytest.raises(ValueError):
        _dtypes.check_device_support(_dtypes.complex128, NO_FP64)
    with pytest.raises(ValueError):
        _dtypes.check_device_support(_dtypes.float16, NO_FP16)
    assert _dtypes.device_dtype(_dtypes.float64, NO_FP64) is _dtypes.float32
    assert _dtypes.device_dtype(_dtypes.complex128, NO_FP64) is _dtypes.complex64


def test_index_results_coerce_usm_types_as_dpctl_tensor():
    """A gather's result has the coerced USM type of the array and its
    indices (device > shared > host), as dpctl.tensor's."""
    for xk, ik, want in (("host", "device", "device"), ("shared", "host", "shared"),
                         ("device", "host", "device"), ("host", "host", "host")):
        x = ua.arange(6.0, usm_type=xk)
        i = ua.asarray([4, 0], usm_type=ik)
        m = ua.asarray([True, False] * 3, usm_type=ik)
        x2 = ua.reshape(x, (2, 3))
        for r in (ua.take(x, i), x[i], x[m], x2[m[:2]], x2[ua.reshape(m, (2, 3))],
                  ua.take_along_axis(x, i, axis=0)):
            assert r.usm_type == want, (xk, ik, r.usm_type)
