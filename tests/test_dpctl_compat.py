"""dpctl.tensor names and keywords beyond the array API (issue 11): each
checked against NumPy, with the errors dpctl.tensor raised."""

import ctypes

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample


def test_dtype_is_numpy_dtype():
    assert ua.dtype is np.dtype
    assert ua.dtype("f4") == ua.float32
    assert ua.zeros(2, dtype=ua.dtype("i2")).dtype == np.int16


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "f2"])
def test_finfo_every_numpy_field(dt):
    if not ua.__array_namespace_info__().default_dtypes()["real floating"] == ua.float64 \
            and dt == "f8":
        pytest.skip("no fp64")
    ours, theirs = ua.finfo(dt), np.finfo(dt)
    for f in ("bits", "eps", "max", "min", "smallest_normal", "tiny", "precision", "resolution"):
        assert getattr(ours, f) == getattr(theirs, f), f
    assert ours.dtype == np.dtype(theirs.dtype)


@pytest.mark.parametrize("layout", ["C", "F"])
def test_from_numpy(layout):
    h = np.asarray(sample((3, 4), np.int32), order=layout)
    x = ua.from_numpy(h)
    check(x, h)
    assert x.flags.f_contiguous == (layout == "F")
    q = dpctl.SyclQueue()
    y = ua.from_numpy(h, usm_type="shared", sycl_queue=q)
    assert y.usm_type == "shared" and y.sycl_queue == q
    check(ua.from_numpy([1.5, 2.5]), np.array([1.5, 2.5]))


def test_swapaxes_and_squeeze_all():
    h = sample((2, 1, 3, 1), np.float32)
    x = ua.asarray(h)
    check(ua.swapaxes(x, 0, 2), np.swapaxes(h, 0, 2))
    check(ua.swapaxes(x, -1, 1), np.swapaxes(h, -1, 1))
    check(ua.squeeze(x), np.squeeze(h))
    check(ua.squeeze(x, axis=1), np.squeeze(h, axis=1))
    check(ua.squeeze(ua.ones(())), np.squeeze(np.ones(())))
    with pytest.raises(np.exceptions.AxisError):
        ua.swapaxes(x, 0, 4)


def test_axis_error_is_numpy_axis_error():
    x = ua.ones((2, 3))
    for f in (lambda: ua.sum(x, axis=2), lambda: ua.squeeze(x, axis=-3),
              lambda: ua.expand_dims(x, axis=5)):
        with pytest.raises(np.exceptions.AxisError):
            f()
    # still a ValueError and an IndexError, as before
    assert issubclass(ua.AxisError, ValueError) and issubclass(ua.AxisError, IndexError)


@pytest.mark.parametrize("dt", [np.int32, np.float32, np.complex64, np.uint8])
def test_logical_functions_take_any_dtype(dt):
    a, b = sample((17,), dt, 1), sample((17,), dt, 2)
    a[::3] = 0
    b[::4] = 0
    x, y = ua.asarray(a), ua.asarray(b)
    check(ua.logical_and(x, y), np.logical_and(a, b))
    check(ua.logical_or(x, y), np.logical_or(a, b))
    check(ua.logical_xor(x, y), np.logical_xor(a, b))
    check(ua.logical_not(x), np.logical_not(a))
    check(ua.logical_and(x, 0), np.logical_and(a, 0))
    check(ua.logical_or(2.5, x), np.logical_or(2.5, a))
    check(ua.logical_and(x, ua.asarray(b.astype(bool))), np.logical_and(a, b.astype(bool)))


def test_ctypes_and_numpy_scalars_as_operands():
    h = np.arange(5, dtype=np.int32)
    x = ua.asarray(h)
    check(x + ctypes.c_int(3), h + 3)
    check(ctypes.c_double(0.5) * ua.asarray(h.astype(np.float32)), 0.5 * h.astype(np.float32))
    check(x * np.int16(2), h * np.int16(2))
    with pytest.raises(TypeError):
        x + ctypes.c_char(b"a")


def test_allclose():
    a = np.array([1.0, 2.0, np.inf, -np.inf, 0.0], dtype=np.float32)
    x = ua.asarray(a)
    assert ua.allclose(x, ua.asarray(a * np.float32(1 + 1e-6))) is True
    assert ua.allclose(x, ua.asarray(a * (1 + 1e-3))) is False
    # dpctl.tensor's rule: |a - b| <= max(atol, rtol * max(|a|, |b|))
    assert ua.allclose(ua.asarray([1e-9]), ua.asarray([0.0])) is True
    assert ua.allclose(ua.asarray([np.inf]), ua.asarray([-np.inf])) is False
    n = ua.asarray([np.nan, 1.0])
    assert ua.allclose(n, n) is False
    assert ua.allclose(n, n, equal_nan=True) is True
    assert ua.allclose(ua.asarray([1, 2]), ua.asarray([[1, 2], [1, 2]])) is True
    assert ua.allclose(ua.asarray([1, 2]), ua.asarray([1, 3])) is False
    c = ua.asarray([1 + 1j, 2j], dtype=ua.complex64)
    assert ua.allclose(c, c + 1e-9) is True
    with pytest.raises(TypeError):
        ua.allclose(a, x)
    with pytest.raises(ValueError):
        ua.allclose(x, x, atol=-1)


def test_repr_str_functions():
    h = np.array([1.23456, 2.5, -3.0])
    x = ua.asarray(h)
    assert ua.usm_ndarray_repr(x) == repr(x)
    assert ua.usm_ndarray_str(x) == str(x)
    assert "1.23" in ua.usm_ndarray_repr(x, precision=2) and "1.235" not in \
        ua.usm_ndarray_repr(x, precision=2)
    assert ua.usm_ndarray_str(x, separator=", ") == np.array2string(h, separator=", ")
    assert ua.usm_ndarray_repr(x, prefix="tensor").startswith("tensor([")
    # the overrides do not stick
    assert ua.get_print_options()["precision"] == 8
    with pytest.raises(TypeError):
        ua.usm_ndarray_str(h)


def test_dldevice_conversions():
    dev = ua.empty(1).sycl_device
    dl = ua.sycl_device_to_dldevice(dev)
    assert dl == ua.empty(1).__dlpack_device__()
    assert ua.dldevice_to_sycl_device(dl) == dev
    with pytest.raises(ValueError):
        ua.dldevice_to_sycl_device((ua.DLDeviceType.kDLCPU, 0))
    with pytest.raises(ValueError):
        ua.dldevice_to_sycl_device((ua.DLDeviceType.kDLOneAPI, 1000))
    with pytest.raises(TypeError):
        ua.sycl_device_to_dldevice("cpu")


def _np_put(a, ind, v, axis, mode):
    n = a.shape[axis]
    ind = np.clip(ind, -n, n - 1) if mode == "wrap" else np.clip(ind, 0, n - 1)
    ind = np.where(ind < 0, ind + n, ind)
    out = np.moveaxis(a.copy(), axis, 0)
    out[ind] = np.moveaxis(np.broadcast_to(v, a.shape[:axis] + ind.shape + a.shape[axis + 1:]),
                           axis, 0)
    return np.moveaxis(out, 0, axis)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_put(mode, axis):
    h = sample((4, 5, 3), np.float32)
    n = h.shape[axis]
    ind = np.array([0, -2, 7, -9])           # in range, and out of range both ways
    # keep indices that land on distinct positions (repeats land in any order)
    lo = -n if mode == "wrap" else 0
    mapped = np.clip(ind, lo, n - 1)
    mapped = np.where(mapped < 0, mapped + n, mapped)
    _, first = np.unique(mapped, return_index=True)
    ind = ind[np.sort(first)]
    vshape = list(h.shape)
    vshape[axis] = len(ind)
    v = sample(tuple(vshape), np.float32, 3)
    x = ua.asarray(h)
    ua.put(x, ua.asarray(ind), ua.asarray(v), axis=axis, mode=mode)
    check(x, _np_put(h, ind, v, axis % 3, mode))


def test_put_errors_and_scalars():
    x = ua.asarray(np.arange(6))
    ua.put(x, ua.asarray([1, 3]), 9)
    check(x, np.array([0, 9, 2, 9, 4, 5]))
    with pytest.raises(ValueError):
        ua.put(x, ua.asarray([1]), 1, mode="modulo")
    with pytest.raises(ValueError):
        ua.put(ua.ones((2, 2)), ua.asarray([0]), 1.0)     # axis needed
    with pytest.raises(ValueError):
        ua.put(x, ua.asarray([[0]]), 1)
    with pytest.raises(IndexError):
        ua.put(x, ua.asarray([0.5]), 1)
    with pytest.raises(ValueError):
        ua.put(_read_only(), ua.asarray([0]), 1)


def _read_only():
    x = ua.asarray(np.arange(3))
    x.flags.writable = False
    return x


@pytest.mark.parametrize("axis", [0, 1])
def test_put_along_axis(axis):
    h = sample((4, 6), np.int32)
    ind = np.argsort(sample((4, 6), np.float32, 5), axis=axis)[:2] if axis == 0 else \
        np.argsort(sample((4, 6), np.float32, 5), axis=axis)[:, :2]
    v = sample(ind.shape, np.int32, 7)
    x = ua.asarray(h)
    ua.put_along_axis(x, ua.asarray(ind), ua.asarray(v), axis=axis)
    expected = h.copy()
    np.put_along_axis(expected, ind, v, axis=axis)
    check(x, expected)
    # out-of-range indices are clipped in "clip" mode
    y = ua.asarray(h)
    ua.put_along_axis(y, ua.full((4, 1), 50, dtype=ua.int64), 0, axis=1, mode="clip")
    expected = h.copy()
    expected[:, -1] = 0
    check(y, expected)


def test_extract_and_place():
    h = sample((3, 5), np.float32)
    cond = h > 0
    x = ua.asarray(h)
    check(ua.extract(ua.asarray(cond), x), np.extract(cond, h))
    check(ua.extract(ua.asarray(cond.astype(np.int8)), x), np.extract(cond, h))
    a = h.copy()
    np.place(a, cond, [1.0, 2.0])
    ua.place(x, ua.asarray(cond), ua.asarray([1.0, 2.0], dtype=ua.float32))
    check(x, a)
    y = ua.asarray(h)
    ua.place(y, ua.zeros((3, 5), dtype=ua.bool), ua.asarray([], dtype=ua.float32))
    check(y, h)
    with pytest.raises(ValueError):
        ua.place(y, ua.asarray(cond), ua.asarray([], dtype=ua.float32))
    with pytest.raises(ValueError):
        ua.extract(ua.asarray(cond[:2]), x)


@pytest.mark.parametrize("mode", ["largest", "smallest"])
def test_top_k(mode):
    h = sample((6, 40), np.float32)
    x = ua.asarray(h)
    r = ua.top_k(x, 5, axis=1, mode=mode)
    order = np.argsort(-h if mode == "largest" else h, axis=1, kind="stable")[:, :5]
    check(r.indices, order)
    check(r.values, np.take_along_axis(h, order, axis=1))
    flat = ua.top_k(x, 3, mode=mode)
    o = np.argsort(-h.ravel() if mode == "largest" else h.ravel(), kind="stable")[:3]
    check(flat.indices, o)
    check(flat.values, h.ravel()[o])
    assert ua.top_k(x, 0, axis=0).values.shape == (0, 40)
    with pytest.raises(ValueError):
        ua.top_k(x, 41, axis=1)
    with pytest.raises(ValueError):
        ua.top_k(x, 1, mode="biggest")


def _np_logsumexp(h, axis, keepdims):
    h = h.astype(np.float64)
    m = np.max(h, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(h - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_and_reduce_hypot(axis, keepdims):
    h = sample((7, 9), np.float32) * 30      # exp overflows float32 without the shift
    x = ua.asarray(h)
    ax = tuple(range(2)) if axis is None else axis
    got = ua.logsumexp(x, axis=axis, keepdims=keepdims)
    assert got.dtype == ua.float32
    np.testing.assert_allclose(ua.asnumpy(got), _np_logsumexp(h, ax, keepdims), rtol=1e-5)
    big = h * 1e30                            # squares overflow float32
    got = ua.reduce_hypot(ua.asarray(big), axis=axis, keepdims=keepdims)
    ref = np.sqrt(np.sum(big.astype(np.float64) ** 2, axis=ax, keepdims=keepdims))
    np.testing.assert_allclose(ua.asnumpy(got), ref, rtol=1e-5)


def test_logsumexp_special_values_and_types():
    check(ua.logsumexp(ua.asarray([-np.inf, -np.inf])), np.array(-np.inf))
    check(ua.logsumexp(ua.asarray([np.inf, 1.0])), np.array(np.inf))
    assert np.isnan(float(ua.logsumexp(ua.asarray([np.nan, 1.0]))))
    check(ua.logsumexp(ua.empty((0,))), np.array(-np.inf))
    check(ua.reduce_hypot(ua.empty((2, 0)), axis=1), np.zeros(2))
    check(ua.reduce_hypot(ua.asarray([np.inf, np.nan])), np.array(np.inf))
    r = ua.logsumexp(ua.asarray([1, 2, 3]))
    assert r.dtype == ua.__array_namespace_info__().default_dtypes()["real floating"]
    assert ua.reduce_hypot(ua.asarray([3.0, 4.0], dtype=ua.float32), dtype=ua.float32).dtype \
        == ua.float32
    with pytest.raises(TypeError):
        ua.logsumexp(ua.asarray([1j]))
    # another dtype: computed in floating point, cast to it (as dpctl.tensor)
    r = ua.reduce_hypot(ua.asarray([3.0, 4.0]), dtype=ua.int32)
    assert r.dtype == ua.int32 and int(r) == 5
    r = ua.logsumexp(ua.zeros(4), dtype=ua.complex64)
    assert r.dtype == ua.complex64 and abs(complex(r) - np.log(4)) < 1e-6


# ------------------------------------------------------------ out= and order=
@pytest.mark.parametrize("name", ["sin", "abs", "negative", "isnan", "logical_not"])
def test_unary_out(name):
    h = sample((4, 5), np.float32)
    x = ua.asarray(h)
    expected = getattr(np, name if name != "abs" else "absolute")(h)
    out = ua.empty(h.shape, dtype=expected.dtype)
    assert getattr(ua, name)(x, out=out) is out
    check(out, expected)
    # a strided out
    big = ua.zeros((4, 10), dtype=expected.dtype)
    getattr(ua, name)(x, out=big[:, ::2])
    check(big[:, ::2], expected)
    check(big[:, 1::2], np.zeros((4, 5), expected.dtype))


@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum", "logical_and"])
def test_binary_out(name):
    a, b = sample((3, 4), np.int32, 1), sample((4,), np.int32, 2)
    x, y = ua.asarray(a), ua.asarray(b)
    expected = getattr(np, name)(a, b)
    out = ua.empty((3, 4), dtype=expected.dtype)
    assert getattr(ua, name)(x, y, out=out) is out
    check(out, expected)
    out = ua.empty((3, 4), dtype=expected.dtype)
    getattr(ua, name)(x, 3, out=out)                 # scalar operand
    check(out, getattr(np, name)(a, np.int32(3)))


def test_out_casts_same_kind_and_rejects_others():
    a = sample((6,), np.float64)
    x = ua.asarray(a)
    o32 = ua.empty(6, dtype=ua.float32)
    ua.multiply(x, x, out=o32)
    check(o32, (a * a).astype(np.float32))
    oc = ua.empty(6, dtype=ua.complex128)
    ua.add(x, 1.0, out=oc)                             # float64 -> complex128 is safe
    check(oc, (a + 1).astype(np.complex128))
    with pytest.raises(ValueError):
        ua.add(x, x, out=ua.empty(6, dtype=ua.int64))     # float -> int is not same kind
    with pytest.raises(ValueError):
        ua.add(x, x, out=ua.empty(5))
    with pytest.raises(TypeError):
        ua.add(x, x, out=np.empty(6))
    ro = ua.empty(6)
    ro.flags.writable = False
    with pytest.raises(ValueError):
        ua.sin(x, out=ro)
    other = ua.empty(6, sycl_queue=dpctl.SyclQueue())
    with pytest.raises(ValueError):                    # ExecutionPlacementError
        ua.add(x, x, out=other)
    with pytest.raises(ValueError):
        ua.add(x, x, order="Q")


def test_out_overlapping_inputs_as_numpy():
    h = np.arange(12.0).reshape(3, 4)
    x = ua.asarray(h)
    ua.add(x[:, :3], x[:, 1:], out=x[:, 1:])           # shifted overlap: needs a temporary
    e = h.copy()
    np.add(e[:, :3], e[:, 1:], out=e[:, 1:])
    check(x, e)
    y = ua.asarray(h)
    ua.multiply(y, 2.0, out=y)                         # the same view: in place
    check(y, h * 2)
    z = ua.asarray(h)
    ua.negative(z[::-1], out=z)                        # reversed view of itself
    check(z, -h[::-1])


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_order_of_new_results(order):
    h = np.asfortranarray(sample((3, 5), np.float32))
    x = ua.asarray(h)
    assert x.flags.f_contiguous
    for r in (ua.exp(x, order=order), ua.add(x, x, order=order), ua.add(x, 1.0, order=order),
              ua.where(ua.asarray(h > 0), x, 0.0, order=order),
              ua.clip(x, -1.0, 1.0, order=order)):
        want_f = order in ("F", "A", "K")
        assert r.flags.f_contiguous == want_f and r.flags.c_contiguous == (not want_f)
    check(ua.exp(x, order="C"), np.exp(h))


def test_where_and_clip_out():
    h = sample((4, 4), np.float32)
    x = ua.asarray(h)
    out = ua.empty((4, 4), dtype=ua.float32)
    assert ua.where(ua.asarray(h > 0), x, -x, out=out) is out
    check(out, np.where(h > 0, h, -h))
    out = ua.empty((4, 4), dtype=ua.float32)
    assert ua.clip(x, -1.0, 1.0, out=out) is out
    check(out, np.clip(h, -1.0, 1.0))
    with pytest.raises(ValueError):
        ua.clip(x, 0.0, 1.0, out=ua.empty((4, 4), dtype=ua.int32))


def test_elementwise_function_objects():
    import inspect
    import pickle

    assert ua.add.nin == 2 and ua.add.nout == 1 and ua.sin.nin == 1
    assert ua.add.__name__ == "add" and "out=" in ua.add.__doc__
    assert "ff->f" in ua.add.types and "d->d" in ua.sin.types
    assert all("->?" in t for t in ua.less.types)
    sig = inspect.signature(ua.add)
    assert list(sig.parameters)[:2] == ["x1", "x2"]
    assert sig.parameters["x1"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert pickle.loads(pickle.dumps(ua.multiply)) is ua.multiply


# ------------------------------------------------------------ in-place operators
@pytest.mark.parametrize("left, right", [("f4", "f8"), ("i1", "i8"), ("u1", "u4"), ("c8", "c16"),
                                         ("i4", "i8")])
def test_inplace_casts_right_operand_same_kind(left, right):
    """dpctl.tensor ran x op= y when y casts (same kind) to x's dtype."""
    a, b = sample((5,), left, 1), sample((5,), right, 2)
    x = ua.asarray(a)
    x += ua.asarray(b)
    expected = (a + b.astype(left)).astype(left)
    check(x, expected)
    y = ua.asarray(a)
    y *= ua.asarray(b)
    check(y, (a * b.astype(left)).astype(left))


@pytest.mark.parametrize("left, right", [("i4", "f4"), ("f4", "c8"), ("u1", "i1")])
def test_inplace_rejects_other_kinds(left, right):
    x = ua.asarray(sample((3,), left))
    with pytest.raises(TypeError) as e:
        x += ua.asarray(sample((3,), right))
    assert isinstance(e.value, ValueError)       # dpctl.tensor raised ValueError
    with pytest.raises(ValueError):
        x /= 2 if left[0] in "iu" else 1j


def test_inplace_with_overlapping_operand():
    h = np.arange(10.0)
    x = ua.asarray(h)
    x[1:] += x[:-1]
    e = h.copy()
    e[1:] += e[:-1]                               # NumPy reads the operand before writing
    check(x, e)
    y = ua.asarray(h)
    y[::-1] -= y
    f = h.copy()
    f[::-1] -= f
    check(y, f)


# ------------------------------------------------------------ out= on reductions, take modes
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "argmax", "argmin",
                                  "cumulative_sum", "logsumexp"])
def test_out_keyword_of_reductions(name):
    h = sample((4, 6), np.float32)
    x = ua.asarray(h)
    r = getattr(ua, name)(x, axis=1)
    out = ua.empty(r.shape, dtype=r.dtype)
    assert getattr(ua, name)(x, axis=1, out=out) is out
    check(out, ua.asnumpy(r))
    with pytest.raises(ValueError):
        getattr(ua, name)(x, axis=1, out=ua.empty((99,), dtype=r.dtype))


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_take_modes(mode):
    h = sample((5, 4), np.int32)
    x = ua.asarray(h)
    ind = np.array([0, -1, 7, -8, 2])
    n = 5
    m = np.clip(ind, -n, n - 1) if mode == "wrap" else np.clip(ind, 0, n - 1)
    m = np.where(m < 0, m + n, m)
    check(ua.take(x, ua.asarray(ind), axis=0, mode=mode), h[m])
    out = ua.empty((5, 4), dtype=ua.int32)
    assert ua.take(x, ua.asarray(ind), axis=0, mode=mode, out=out) is out
    check(out, h[m])
    with pytest.raises(IndexError):
        ua.take(x, ua.asarray(ind), axis=0)                # the array API's function checks
    with pytest.raises(IndexError):
        ua.take(x, ua.asarray(ind), axis=0, mode="raise")  # NumPy's name for it
    inside = ua.asarray([0, -1, 2])
    check(ua.take(x, inside, axis=0, mode="raise"), h[[0, -1, 2]])
    y = ua.asarray(h)
    with pytest.raises(IndexError):
        ua.put(y, ua.asarray(ind), 0, axis=0, mode="raise")
    check(y, h)                                            # nothing stored
    ua.put(y, inside, 0, axis=0, mode="raise")
    e = h.copy()
    e[[0, -1, 2]] = 0
    check(y, e)
    with pytest.raises(ValueError):
        ua.take(x, inside, axis=0, mode="bad")
    ta = ua.take_along_axis(x, ua.asarray(np.full((5, 1), 9)), axis=1, mode=mode)
    check(ta, h[:, [3]] if mode == "clip" else h[:, [3]])


# ------------------------------------------------------------ sort kind=, complex isin, matmul
@pytest.mark.parametrize("kind", [None, "stable", "mergesort", "radixsort"])
def test_sort_kind(kind):
    h = sample((50,), np.int16)
    x = ua.asarray(h)
    check(ua.sort(x, kind=kind), np.sort(h, kind="stable"))
    check(ua.argsort(x, kind=kind), np.argsort(h, kind="stable"))
    with pytest.raises(ValueError):
        ua.sort(x, kind="quicksort")


def test_isin_complex():
    a = np.array([1 + 1j, 2, 3j, np.nan, 1 - 1j, 0], dtype=np.complex64)
    b = np.array([3j, 1 + 1j, np.nan, 0], dtype=np.complex64)
    x, y = ua.asarray(a), ua.asarray(b)
    check(ua.isin(x, y), np.isin(a, b))
    check(ua.isin(x, y, invert=True), np.isin(a, b, invert=True))
    check(ua.isin(ua.asarray(a.reshape(2, 3)), y), np.isin(a.reshape(2, 3), b))
    check(ua.isin(x, ua.asarray(b[:0])), np.isin(a, b[:0]))
    check(ua.isin(x, ua.asarray([2.0, 0.0])), np.isin(a, [2.0, 0.0]))   # mixed: complex result type


def test_matmul_keywords():
    a, b = sample((3, 4), np.float32), sample((4, 5), np.float32)
    x, y = ua.asarray(a), ua.asarray(b)
    out = ua.empty((3, 5), dtype=ua.float32)
    assert ua.matmul(x, y, out=out) is out
    np.testing.assert_allclose(ua.asnumpy(out), a @ b, rtol=1e-5, atol=1e-5)
    r = ua.matmul(ua.asarray(sample((3, 4), np.int32)), ua.asarray(sample((4, 5), np.int32)),
                  dtype=ua.float32)
    assert r.dtype == ua.float32
    f = ua.matmul(x, y, order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    with pytest.raises(ValueError):
        ua.matmul(x, y, out=ua.empty((5, 3), dtype=ua.float32))
    with pytest.raises(ValueError):
        ua.matmul(x, y, order="X")


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_logsumexp(axis, include_initial):
    h = sample((5, 3000), np.float32) * 20           # exp overflows float32 without logaddexp
    h[0, :3] = [-np.inf, -1000.0, 3.0]               # tiny prefixes stay finite
    x = ua.asarray(h)
    got = ua.cumulative_logsumexp(x, axis=axis, include_initial=include_initial)
    ref = np.logaddexp.accumulate(h.astype(np.float64), axis=axis)
    if include_initial:
        pad = np.full((1, 3000) if axis == 0 else (5, 1), -np.inf)
        ref = np.concatenate([pad, ref], axis=axis)
    assert got.dtype == ua.float32 and got.shape == ref.shape
    np.testing.assert_allclose(ua.asnumpy(got), ref, rtol=2e-5, atol=1e-4)
    r = ua.cumulative_logsumexp(ua.asarray([1, 2, 3]))
    np.testing.assert_allclose(ua.asnumpy(r), np.logaddexp.accumulate([1.0, 2.0, 3.0]),
                               rtol=1e-6)
    with pytest.raises(TypeError):
        ua.cumulative_logsumexp(ua.asarray([1j]))


def test_ctypes_scalars_in_creation_functions():
    check(ua.full(3, ctypes.c_int(7)), np.full(3, 7))
    check(ua.full_like(ua.zeros(2), ctypes.c_double(1.5)), np.full(2, 1.5))
    check(ua.arange(ctypes.c_int(5)), np.arange(5))
    check(ua.arange(0, 10, ctypes.c_long(3)), np.arange(0, 10, 3))
    check(ua.linspace(ctypes.c_double(0.0), 1.0, num=5), np.linspace(0.0, 1.0, 5))
    x = ua.zeros(3, dtype=ua.int32)
    x[...] = ctypes.c_int(4)
    check(x, np.full(3, 4, dtype=np.int32))
    check(ua.where(ua.asarray([True, False]), ua.asarray([1, 2]), ctypes.c_int(9)),
          np.array([1, 9]))


def test_searchsorted_mixed_dtypes_and_layouts():
    s = np.arange(0, 40, 2, dtype=np.int32)
    v = np.array([[3.5, -1.0, 40.0], [2.0, 7.0, 38.0]])
    x1 = ua.asarray(np.repeat(s, 2))[::2]                 # non-contiguous sorted input
    x2 = ua.asarray(v).T                                  # float64 values, transposed
    for side in ("left", "right"):
        check(ua.searchsorted(x1, x2, side=side), np.searchsorted(s, v.T, side=side))
    check(ua.searchsorted(ua.asarray(s[::-1])[::-1], ua.asarray(v.astype(np.float32))),
          np.searchsorted(s, v.astype(np.float32)))


def test_float16_logsumexp_and_reduce_hypot_do_not_overflow():
    """The scaled sums are kept in float32 (70000 exps of 0 overflowed float16)."""
    if not device_supports(ua.float16):
        pytest.skip("no float16")
    r = ua.logsumexp(ua.zeros(70000, dtype="float16"))
    assert r.dtype == ua.float16 and abs(float(r) - np.log(70000)) < 0.01
    r = ua.reduce_hypot(ua.ones(70000, dtype="float16"))
    assert r.dtype == ua.float16 and abs(float(r) - np.sqrt(70000)) < 0.5
