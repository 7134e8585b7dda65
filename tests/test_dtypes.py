"""Data type functions (isdtype, finfo, iinfo, result_type, can_cast) and
the dtype= keyword with every kind of dtype specifier NumPy users pass."""

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES as DTYPES, device_supports as _device_supports

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.mark.parametrize("dt", DTYPES)
def test_numpy_scalar_types_are_dtypes(dt):
    """np.float64 (a NumPy scalar type) works wherever ua.float64 does."""
    t = np.dtype(dt).type
    d = getattr(ua, np.dtype(dt).name)
    for kind in KINDS:
        assert ua.isdtype(t, kind) == ua.isdtype(d, kind) == np.isdtype(t, kind)
    assert ua.isdtype(d, t) and ua.isdtype(t, (np.int8, t))
    assert ua.result_type(t, ua.int8) == ua.result_type(d, ua.int8)
    assert ua.result_type(t) is d
    assert ua.can_cast(t, ua.float64) == ua.can_cast(d, ua.float64)
    assert ua.can_cast(ua.int8, t) == ua.can_cast(ua.int8, d)
    if d.kind in "fc":
        assert ua.finfo(t).eps == ua.finfo(d).eps == np.finfo(t).eps
    elif d.kind in "iu":
        assert ua.iinfo(t).max == np.iinfo(t).max
    if _device_supports(np.dtype(dt)):
        assert ua.zeros(2, dtype=t).dtype is d
        assert ua.asarray([1, 0], dtype=t).dtype is d
        assert ua.astype(ua.ones(2, dtype=ua.int8), t).dtype is d
        assert ua.__array_namespace_info__().dtypes(kind=t) == {d.name: d}
        assert ua.full((2, 2), 1, dtype=t).dtype is d and ua.eye(2, dtype=t).dtype is d
        if d.kind in "iufc" and ua.can_cast(ua.int8, d):
            assert ua.sum(ua.ones(3, dtype=ua.int8), dtype=t).dtype is d


def test_dtype_functions_still_take_arrays_and_reject_non_dtypes():
    x = ua.ones(3, dtype=ua.float32)
    assert ua.finfo(x).bits == 32 and ua.result_type(x, ua.int8) is ua.float32
    assert ua.can_cast(x, ua.float64)
    for bad in (object, int, "float32", str):
        with pytest.raises(TypeError):
            ua.isdtype(bad, "numeric")
    with pytest.raises(TypeError):
        ua.finfo(np.int32)
    with pytest.raises(TypeError):
        ua.iinfo(np.float32)
    with pytest.raises(TypeError):
        ua.isdtype(np.str_, "numeric")


def test_can_cast_casting_keyword_as_dpctl_tensor():
    for f, t in ((ua.float64, ua.float32), (ua.int64, ua.int8), (ua.int8, ua.uint8),
                 (ua.float32, ua.int32), (ua.complex64, ua.float32), (ua.int16, ua.int16)):
        for casting in ("no", "equiv", "same_kind", "unsafe"):
            assert ua.can_cast(f, t, casting=casting) == np.can_cast(f, t, casting=casting)
    assert ua.can_cast(ua.float32, ua.float64) and not ua.can_cast(ua.float64, ua.float32)
    with pytest.raises(ValueError):
        ua.can_cast(ua.float32, ua.float64, casting="bogus")
