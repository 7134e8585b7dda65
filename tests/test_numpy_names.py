"""NumPy's names in the namespace (usmarray/numpy_names.py, windows.py,
comparison.array_equiv), with NumPy as the oracle."""

import numpy as np
import pytest

import usmarray as ua

FP64 = ua.get_default_queue().sycl_device.has_aspect_fp64


def default_float_dtype():
    return np.dtype(np.float64 if FP64 else np.float32)


def _host(r):
    return ua.asnumpy(r) if isinstance(r, ua.usm_ndarray) else r


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    got = _host(got)
    if isinstance(want, np.generic):   # (a device result is a 0-d array)
        want = np.asarray(want)
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


H = np.arange(24, dtype=np.int32).reshape(2, 3, 4) % 7


@pytest.mark.parametrize("name, args, kwargs", [
    ("concatenate", ([H, H],), {}),
    ("concatenate", ([H, H],), {"axis": None}),
    ("concatenate", ([H, H[:1]],), {"axis": 0}),
    ("cumsum", (H,), {}),
    ("cumsum", (H,), {"axis": 1}),
    ("cumprod", (H,), {"axis": -1}),
    ("amax", (H,), {"axis": 0}),
    ("amin", (H,), {"axis": (0, 2), "keepdims": True}),
    ("transpose", (H,), {}),
    ("transpose", (H, (1, 0, 2)), {}),
    ("ravel", (H,), {}),
    ("ravel", (H,), {"order": "F"}),
    ("unique", (H,), {}),
    ("unique", (H,), {"return_counts": True, "return_index": True}),
    ("diagonal", (H,), {"offset": 1, "axis1": 1, "axis2": 2}),
    ("trace", (H[0],), {}),
    ("dot", (H[0], H[0].T), {}),
    ("outer", (H[0, 0], H[1, 1]), {}),
    ("cross", (H[..., :3], H[..., 1:]), {}),
    ("around", (H / 7, 2), {}),
    ("ndim", (H,), {}),
    ("shape", (H,), {}),
    ("size", (H,), {}),
    ("size", (H, 1), {}),
])
def test_numpy_functions_match_numpy(name, args, kwargs):
    dev = tuple([ua.asarray(a) for a in v] if isinstance(v, list) else
                ua.asarray(v) if isinstance(v, np.ndarray) else v for v in args)
    _same(getattr(ua, name)(*dev, **kwargs), getattr(np, name)(*args, **kwargs))


def test_numpy_functions_share_the_dispatch_rules():
    """``ua.cumsum`` and ``np.cumsum`` on a usm_ndarray are one translation:
    same result, same refusals."""
    x = ua.asarray(H)
    _same(ua.cumsum(x, axis=0), ua.asnumpy(np.cumsum(x, axis=0)))
    with pytest.raises(TypeError):
        ua.cumsum(x, bogus=1)
    with pytest.raises(TypeError):
        ua.concatenate([x, H])   # NumPy arrays are not mixed in implicitly
    assert ua.shares_memory(x, x[1:]) and not ua.may_share_memory(x, ua.asarray(H))
    assert "numpy.cumsum" in ua.cumsum.__doc__


@pytest.mark.parametrize("alias, name", [
    ("absolute", "abs"), ("arccos", "acos"), ("arccosh", "acosh"), ("arcsin", "asin"),
    ("arcsinh", "asinh"), ("arctan", "atan"), ("arctan2", "atan2"), ("arctanh", "atanh"),
    ("bitwise_not", "bitwise_invert"), ("conjugate", "conj"), ("invert", "bitwise_invert"),
    ("left_shift", "bitwise_left_shift"), ("mod", "remainder"), ("power", "pow"),
    ("right_shift", "bitwise_right_shift"), ("rint", "round"), ("true_divide", "divide"),
])
def test_ufunc_aliases_are_the_array_api_functions(alias, name):
    assert getattr(ua, alias) is getattr(ua, name)
    f = getattr(np, alias)
    if alias in ("bitwise_not", "invert", "left_shift", "right_shift", "mod"):
        h = np.array([1, 2, 7, -3, 12], dtype=np.int64)
    else:
        h = np.array([0.25, 0.5, 0.75, 1.5, 2.5])
        h = h / 4 if alias in ("arccos", "arcsin", "arctanh") else h + (alias == "arccosh")
    args = (h,) * f.nin
    got = getattr(ua, alias)(*(ua.asarray(a) for a in args))
    want = f(*args)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-15)


@pytest.mark.parametrize("obj", [[1, 2, 3], [[1.5, 2], [3, 4]], 7, H, H[:, ::-1]])
@pytest.mark.parametrize("ndmin", [0, 1, 4])
def test_array_copies_and_pads_dimensions(obj, ndmin):
    want = np.array(obj, ndmin=ndmin)
    if want.dtype == np.float64:
        want = want.astype(default_float_dtype())
    got = ua.array(obj, ndmin=ndmin)
    _same(got, want)
    src = ua.asarray(obj)
    copied = ua.array(src)
    assert isinstance(copied, ua.ndarray) and not ua.shares_memory(copied, src)
    assert ua.shares_memory(ua.array(src, copy=None), src)
    with pytest.raises(ValueError):
        ua.array(obj if isinstance(obj, np.ndarray) else np.asarray(obj), copy=False)
    with pytest.raises(ValueError):
        ua.array(obj, ndmin=-1)


def test_ascontiguousarray_and_asfortranarray():
    x = ua.asarray(H.astype(np.float32))
    assert ua.ascontiguousarray(x) is x or ua.shares_memory(ua.ascontiguousarray(x), x)
    t = x.mT
    c = ua.ascontiguousarray(t)
    assert c.flags.c_contiguous and not ua.shares_memory(c, t)
    _same(c, np.ascontiguousarray(ua.asnumpy(t)))
    f = ua.asfortranarray(x)
    assert f.flags.f_contiguous and f.shape == x.shape
    _same(f, np.asfortranarray(ua.asnumpy(x)))
    # NumPy's rule: at least one dimension
    assert ua.ascontiguousarray(ua.asarray(3.0)).shape == np.ascontiguousarray(3.0).shape == (1,)
    assert ua.asfortranarray(5).shape == (1,)
    assert ua.ascontiguousarray([1, 2], dtype=ua.int8).dtype == ua.int8


@pytest.mark.parametrize("dtype", [float, np.float32, np.int64, np.int32])
def test_fromfunction_matches_numpy(dtype):
    f = lambda i, j, k=1: i * 3 - j + k  # noqa: E731
    want = np.fromfunction(f, (3, 4), dtype=dtype, k=2)
    got = ua.fromfunction(f, (3, 4), dtype=dtype, k=2)
    if want.dtype == np.float64:
        want = want.astype(default_float_dtype())
    _same(got, want)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-2, 0, 1, 2, 3, 8, 51])
def test_windows_match_numpy(name, M):
    want = getattr(np, name)(M)
    got = ua.asnumpy(getattr(ua, name)(M))
    assert got.shape == want.shape
    assert got.dtype == default_float_dtype()
    tol = 1e-15 if got.dtype == np.float64 else 1e-6
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)
    if M > 1:   # symmetric, as NumPy's
        np.testing.assert_array_equal(got, got[::-1])


@pytest.mark.parametrize("M", [0, 1, 2, 9, 40])
@pytest.mark.parametrize("beta", [0, 5, 8.6, 14])
def test_kaiser_matches_numpy(M, beta):
    want = np.kaiser(M, beta)
    got = ua.asnumpy(ua.kaiser(M, beta))
    assert got.shape == want.shape
    tol = 1e-13 if got.dtype == np.float64 else 1e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_window_arguments():
    x = ua.hamming(6, dtype=ua.float32, usm_type="shared")
    assert x.dtype == ua.float32 and x.usm_type == "shared"
    np.testing.assert_allclose(ua.asnumpy(x), np.hamming(6), rtol=1e-6)
    assert ua.hanning(np.int64(4)).shape == (4,)
    assert ua.bartlett(5.0).shape == (5,)       # NumPy takes integral floats too
    with pytest.raises(TypeError):
        ua.hanning(4.5)
    with pytest.raises(TypeError):
        ua.hanning("4")
    with pytest.raises(TypeError):
        ua.blackman(4, dtype=ua.int32)


@pytest.mark.parametrize("a, b", [
    (H, H), (H, H[:1]), (H[0], H[:1]), (H, H[:, :2]), (H[0, 0], H[1, 0]), (H, 3), (H % 1, 0),
    (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
])
def test_array_equiv_matches_numpy(a, b):
    dev = [ua.asarray(v) if isinstance(v, np.ndarray) else v for v in (a, b)]
    want = np.array_equiv(a, b)
    assert ua.array_equiv(*dev) is bool(want)
    assert np.array_equiv(*dev) is bool(want)


def test_ndarray_is_the_array_class():
    assert ua.ndarray is ua.usm_ndarray
    assert isinstance(ua.arange(3), ua.ndarray)
