"""dpctl.tensor drop-in, second pass (issue 30): bool inputs, integers where
tuples are expected, scalar conversion, assignment and in-place casting,
arrays as arguments, usmarray.utils, print options and error types; NumPy
as the oracle where it has the call. (Complex ordering: test_complex_order.)"""

import operator

import dpctl
import numpy as np
import pytest

import usmarray as ua
import usmarray.utils as uu


def same(got, expected):
    g = ua.asnumpy(got) if isinstance(got, ua.usm_ndarray) else np.asarray(got)
    e = np.asarray(expected)
    assert g.shape == e.shape, (g.shape, e.shape)
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    np.testing.assert_array_equal(g, e)


B = np.array([True, False, True, False])
OTHERS = [np.array([1, -2, 3, 0], "i1"), np.array([1, 2, 3, 0], "u2"),
          np.array([1, -2, 3, 0], "i8"), np.array([0.5, -2, 3, np.nan], "f4"),
          np.array([0.5, -2, 3, 1], "f8")]


# ------------------------------------------------------------------ bool inputs
@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "maximum",
                                  "minimum", "equal", "not_equal"])
def test_bool_comparisons_and_extremes(name):
    f, nf = getattr(ua, name), getattr(np, name)
    same(f(ua.asarray(B), ua.asarray(B[::-1].copy())), nf(B, B[::-1]))
    for o in OTHERS:
        # mixed bool/number operands: NumPy's promotion
        with np.errstate(invalid="ignore"):
            same(f(ua.asarray(B), ua.asarray(o)), nf(B, o))
            same(f(ua.asarray(o), ua.asarray(B)), nf(o, B))


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_bool_with_integers(name):
    f, nf = getattr(ua, name), getattr(np, name)
    same(f(ua.asarray(B), ua.asarray(B[::-1].copy())), nf(B, B[::-1]))
    for o in OTHERS[:3]:
        same(f(ua.asarray(B), ua.asarray(o)), nf(B, o))


@pytest.mark.parametrize("name", ["abs", "ceil", "floor", "trunc", "real", "imag"])
def test_unary_bool_keeps_bool(name):
    same(getattr(ua, name)(ua.asarray(B)), getattr(np, name)(B))


@pytest.mark.parametrize("dt", ["i1", "u1", "i2", "i4", "u4", "i8", "u8"])
@pytest.mark.parametrize("name", ["ceil", "floor", "trunc"])
def test_rounding_integers_keep_their_dtype(name, dt):
    # dpctl.tensor's result dtypes, NumPy 2's too
    h = np.array([0, 1, 7, 100], dt)
    same(getattr(ua, name)(ua.asarray(h)), getattr(np, name)(h))


@pytest.mark.parametrize("name", ["exp2", "exp", "sin", "sqrt", "log1p", "cbrt", "tanh"])
def test_float_functions_of_bool(name):
    # NumPy computes these for bools in float16 (the first float loop), as usmarray
    f = getattr(np, name)
    r = getattr(ua, name)(ua.asarray(B))
    with np.errstate(all="ignore"):
        e = f(B)
    assert r.dtype == e.dtype
    np.testing.assert_allclose(ua.asnumpy(r).astype("f4"), e.astype("f4"), rtol=2e-3)


def test_add_multiply_of_bools_and_subtract_raises():
    b, c = ua.asarray(B), ua.asarray(B[::-1].copy())
    same(ua.add(b, c), np.add(B, B[::-1]))           # logical or
    same(ua.multiply(b, c), np.multiply(B, B[::-1]))  # logical and
    same(b + True, B + True)
    for f in (lambda: ua.subtract(b, c), lambda: ua.negative(b), lambda: -b, lambda: b - c):
        with pytest.raises(TypeError):
            f()


# ------------------------------------------------------------------ integers for tuples
def _pair(shape=(2, 3, 4)):
    h = np.arange(np.prod(shape), dtype="f4").reshape(shape)
    return h, ua.asarray(h)


@pytest.mark.parametrize("call", [
    lambda m, a: m.tile(a, 2),
    lambda m, a: m.tile(a, (2, 1)),
    lambda m, a: m.tile(a, [1, 2, 1, 1]),
    lambda m, a: m.roll(a, 1),
    lambda m, a: m.roll(a, -1, axis=1),
    lambda m, a: m.roll(a, [1, 2], axis=[0, 2]),
    lambda m, a: m.roll(a, (1, 1), axis=1),
    lambda m, a: m.moveaxis(a, 0, 2),
    lambda m, a: m.moveaxis(a, [0, 1], [2, 0]),
    lambda m, a: m.flip(a, axis=1),
    lambda m, a: m.flip(a, axis=[0, 2]),
    lambda m, a: m.flip(a, axis=(0, 1)),
    lambda m, a: m.expand_dims(a, axis=1),
    lambda m, a: m.expand_dims(a, axis=[0, 4]),
    lambda m, a: m.squeeze(m.expand_dims(a, axis=0), axis=0),
    lambda m, a: m.sum(a, axis=1),
    lambda m, a: m.max(a, axis=2),
    lambda m, a: m.reshape(a, 24),
    lambda m, a: m.reshape(a, [4, 6]),
    lambda m, a: m.broadcast_to(m.reshape(a, (24,))[:1], 5),
    lambda m, a: m.full(3, 2.0),
    lambda m, a: m.zeros(4),
    lambda m, a: m.ones([2, 2]),
    lambda m, a: m.empty(np.int64(0)),
    lambda m, a: m.permute_dims(a, [2, 0, 1]),
    lambda m, a: m.repeat(a, 2, axis=1),
], ids=lambda c: "")
def test_int_and_list_forms(call):
    h, x = _pair()
    same(call(ua, x), call(np, h))


def test_list_axes_of_reductions_and_squeeze():
    # dpctl.tensor takes lists of axes (NumPy's reductions take tuples only)
    h, x = _pair()
    same(ua.sum(x, axis=[0, 2]), np.sum(h, axis=(0, 2)))
    same(ua.squeeze(ua.expand_dims(x, axis=(0, 1)), axis=[0, 1]), h)
    with pytest.raises(TypeError):
        ua.tile(x, 1.5)


# ------------------------------------------------------------------ scalar conversion
@pytest.mark.parametrize("convert", [int, float, complex, bool, operator.index,
                                     lambda a: a.__int__(), lambda a: a.__float__()],
                         ids=["int", "float", "complex", "bool", "index", "__int__", "__float__"])
@pytest.mark.parametrize("shape", [(1,), (1, 1), (1, 1, 1)])
def test_only_0d_arrays_convert(convert, shape):
    x = ua.ones(shape, dtype="i8")
    with pytest.raises(TypeError, match="only 0-dimensional arrays"):
        convert(x)
    assert convert(ua.ones((), dtype="i8")) == convert(np.ones((), dtype="i8"))
    # item() still reads a one-element array, as NumPy's
    assert x.item() == 1


def test_conversion_of_larger_arrays():
    x = ua.ones(3)
    for convert in (int, float, complex):
        with pytest.raises(TypeError):
            convert(x)
    with pytest.raises(ValueError):
        bool(x)
    with pytest.raises(ValueError):
        bool(ua.ones(0))


# ------------------------------------------------------------------ assignment and in-place casts
def test_dtype_error_is_both():
    assert issubclass(ua.DTypeError, TypeError) and issubclass(ua.DTypeError, ValueError)
    assert ua.elementwise.InPlaceCastError is ua.DTypeError


@pytest.mark.parametrize("dt", ["?", "i4", "u1", "f4", "f8"])
def test_complex_scalar_into_real(dt):
    x = ua.zeros(3, dtype=dt)
    for key in (Ellipsis, 0, slice(1, None), ua.asarray([0, 2]), x == 0):
        with pytest.raises(ua.DTypeError):
            x[key] = 1 + 2j
    np.testing.assert_array_equal(ua.asnumpy(x), np.zeros(3, dt))


@pytest.mark.parametrize("left, right", [("i4", 1.5), ("i4", 1j), ("f4", 1j), ("u1", 0.5),
                                         ("i8", "f4"), ("f4", "c8"), ("?", 1)])
def test_inplace_cast_errors(left, right):
    x = ua.ones(3, dtype=left)
    y = ua.ones(3, dtype=right) if isinstance(right, str) else right
    h = np.ones(3, dtype=left)
    hy = np.ones(3, dtype=right) if isinstance(right, str) else right
    with pytest.raises(TypeError):   # NumPy's
        h += hy
    with pytest.raises(ua.DTypeError):
        x += y
    with pytest.raises(ValueError):  # dpctl.tensor's
        x += y
    np.testing.assert_array_equal(ua.asnumpy(x), np.ones(3, left))


def test_unsupported_dtype_is_dtype_error():
    f = ua.ones(3, dtype="f4")
    for call in (lambda: ua.bitwise_and(f, f), lambda: ua.bitwise_invert(f),
                 lambda: ua.remainder(f, ua.ones(3, dtype="c8")), lambda: ua.subtract(f > 0, f > 0),
                 lambda: ua.add(f, f, out=ua.empty(3, dtype="i4"))):
        with pytest.raises(ua.DTypeError):
            call()


# ------------------------------------------------------------------ arrays as arguments
@pytest.mark.parametrize("fill", [ua.asarray(2.5), np.asarray(2.5), np.asarray(3, "i2"),
                                  ua.asarray([1.0, 2.0, 3.0]), np.arange(3, dtype="f4"),
                                  [1, 2, 3]], ids=lambda v: type(v).__name__)
def test_full_with_array_fill_value(fill):
    h = ua.asnumpy(fill) if isinstance(fill, ua.usm_ndarray) else fill
    same(ua.full((2, 3), fill), np.full((2, 3), h))
    same(ua.full((2, 3), fill, dtype="f8"), np.full((2, 3), h, dtype="f8"))
    like = ua.zeros((2, 3), dtype="i4")
    same(ua.full_like(like, fill), np.full_like(np.zeros((2, 3), "i4"), h))


class _UsmNdarrayOnly:
    """An object that has only ``__usm_ndarray__`` (as dpnp's arrays)."""

    def __init__(self, a):
        self._a = a

    @property
    def __usm_ndarray__(self):
        return self._a


class _SuaiOnly:
    def __init__(self, a):
        self._a = a

    @property
    def __sycl_usm_array_interface__(self):
        return self._a.__sycl_usm_array_interface__


@pytest.mark.parametrize("wrap", [_UsmNdarrayOnly, _SuaiOnly])
@pytest.mark.parametrize("order", ["C", "F", "K"])
@pytest.mark.parametrize("copy", [None, True, False])
def test_asarray_of_device_array_objects(wrap, order, copy):
    x = ua.asarray(np.arange(6, dtype="f4").reshape(2, 3))
    obj = wrap(x)
    if copy is False and order == "F":
        with pytest.raises(ValueError):
            ua.asarray(obj, order=order, copy=copy)
        return
    r = ua.asarray(obj, order=order, copy=copy)
    same(r, np.arange(6, dtype="f4").reshape(2, 3))
    assert r.flags.f_contiguous if order == "F" else r.flags.c_contiguous
    shares = r._pointer == x._pointer
    assert shares == (copy is not True and order != "F")
    # in sequences too
    same(ua.asarray([obj, obj]), np.stack([np.arange(6, dtype="f4").reshape(2, 3)] * 2))


def test_reshape_copy_false_and_shape_assignment():
    x = ua.asarray(np.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError):
        ua.reshape(x.T, (12,), copy=False)
    v = ua.reshape(x[:, ::2], (6,), copy=False)        # uniform stride: a view
    assert v._pointer == x._pointer
    y = ua.asarray(np.arange(12.0).reshape(3, 4))
    y.shape = (2, 6)
    assert y.shape == (2, 6) and y.strides == (6, 1)
    y.shape = 12
    y.shape = (3, -1)
    same(y, np.arange(12.0).reshape(3, 4))
    t = y.T
    with pytest.raises(AttributeError):           # NumPy's and dpctl.tensor's error
        t.shape = (12,)
    with pytest.raises(ValueError):
        y.shape = (5,)
    h = np.arange(12.0).reshape(3, 4).T
    with pytest.raises(AttributeError):
        h.shape = (12,)


# ------------------------------------------------------------------ usmarray.utils
def test_utils_get_execution_queue():
    q = ua.get_default_queue()
    q2 = dpctl.SyclQueue(q.sycl_context, q.sycl_device)
    assert uu.get_execution_queue([q, q]) is q
    assert uu.get_execution_queue((q,)) is q
    assert uu.get_execution_queue([q, q2]) is None
    assert uu.get_execution_queue([]) is None
    assert uu.get_execution_queue([q, "x"]) is None
    assert uu.get_execution_queue(["x"]) is None
    with pytest.raises(TypeError):
        uu.get_execution_queue(q)


def test_utils_get_coerced_usm_type():
    assert uu.get_coerced_usm_type(["host", "shared"]) == "shared"
    assert uu.get_coerced_usm_type(("host", "device", "shared")) == "device"
    assert uu.get_coerced_usm_type(["host"]) == "host"
    assert uu.get_coerced_usm_type([]) is None
    assert uu.get_coerced_usm_type(["host", "gpu"]) is None
    assert uu.get_coerced_usm_type(["host", 1]) is None
    with pytest.raises(TypeError):
        uu.get_coerced_usm_type("host")


def test_utils_validate_usm_type_and_error():
    for t in ("device", "shared", "host"):
        uu.validate_usm_type(t)
        uu.validate_usm_type(t, allow_none=False)
    uu.validate_usm_type(None)
    with pytest.raises(TypeError):
        uu.validate_usm_type(None, allow_none=False)
    with pytest.raises(ValueError):
        uu.validate_usm_type("gpu")
    with pytest.raises(TypeError):
        uu.validate_usm_type(1)
    assert uu.ExecutionPlacementError is ua.ExecutionPlacementError
    q2 = dpctl.SyclQueue(ua.get_default_queue().sycl_device)
    with pytest.raises(uu.ExecutionPlacementError):
        ua.ones(3) + ua.ones(3, sycl_queue=q2)


# ------------------------------------------------------------------ print options
@pytest.fixture
def _restore_print_options():
    saved = ua.get_print_options()
    yield
    ua.set_print_options(**saved)


@pytest.mark.usefixtures("_restore_print_options")
@pytest.mark.parametrize("kw, exc", [
    (dict(linewidth="80"), TypeError), (dict(edgeitems=2.5), TypeError),
    (dict(threshold=None, precision="3"), TypeError), (dict(nanstr=0), TypeError),
    (dict(infstr=b"inf"), TypeError), (dict(sign="x"), ValueError),
    (dict(floatmode="exact"), ValueError), (dict(threshold=-1), ValueError),
])
def test_print_option_errors(kw, exc):
    before = ua.get_print_options()
    with pytest.raises(exc):
        ua.set_print_options(**kw)
    with pytest.raises(exc):
        with ua.print_options(**kw):
            pass
    assert ua.get_print_options() == before
    x = ua.asarray([1.0, 2.0])
    rkw = {("line_width" if k == "linewidth" else "edge_items" if k == "edgeitems" else k): v
           for k, v in kw.items() if k not in ("nanstr", "infstr")}
    if rkw:
        with pytest.raises(exc):
            ua.usm_ndarray_str(x, **rkw)


@pytest.mark.usefixtures("_restore_print_options")
@pytest.mark.parametrize("kw", [dict(sign="+"), dict(sign=" "), dict(suppress=True),
                                dict(threshold=5, edgeitems=1), dict(threshold=5, edgeitems=2),
                                dict(precision=3, floatmode="fixed"),
                                dict(nanstr="NaN", infstr="Inf"), dict(linewidth=20)])
def test_print_options_honoured(kw):
    h = np.array([[1e-9, -2.5, np.nan, 3.0, np.inf, 0.0, 7.25, -1e-3]] * 3)
    x = ua.asarray(h)
    with ua.print_options(**kw) as opts:
        assert all(opts[k] == v for k, v in kw.items())
        got = ua.usm_ndarray_str(x)
    with np.printoptions(**kw):
        assert got == np.array2string(h)
    # the same options as arguments of usm_ndarray_str
    args = {("line_width" if k == "linewidth" else "edge_items" if k == "edgeitems" else k): v
            for k, v in kw.items() if k not in ("nanstr", "infstr")}
    if len(args) == len(kw):
        with np.printoptions(**kw):
            assert ua.usm_ndarray_str(x, **args) == np.array2string(h)


@pytest.mark.usefixtures("_restore_print_options")
def test_print_options_context_restores_and_numpy_start():
    before = ua.get_print_options()
    with ua.print_options(precision=2, suppress=True):
        assert ua.get_print_options()["precision"] == 2
    assert ua.get_print_options() == before
    with np.printoptions(precision=4):
        ua.set_print_options(numpy=True)
    assert ua.get_print_options()["precision"] == 4
    ua.set_print_options(suppress=True)
    ua.set_print_options(suppress=False)
    assert ua.get_print_options()["suppress"] is False


# ------------------------------------------------------------------ error types
def test_error_types_as_dpctl():
    x = ua.ones((2, 3))
    with pytest.raises(ValueError):
        ua.moveaxis(x, (0, 0), (0, 1))
    with pytest.raises(ValueError):
        ua.moveaxis(x, (0, 1), 0)
    same(ua.flip(x, axis=(0, 1)), np.flip(np.ones((2, 3)), axis=(0, 1)))
    with pytest.raises(ValueError):
        ua.broadcast_to(ua.ones(3), (1,))
    with pytest.raises(ValueError):
        ua.broadcast_to(ua.ones((1, 3)), (3,))   # fewer dimensions: NumPy refuses too
    with pytest.raises(ValueError):
        np.broadcast_to(np.ones((1, 3)), (3,))
    with pytest.raises(ValueError):
        ua.broadcast_arrays()
    assert [a.shape for a in ua.broadcast_arrays(ua.ones(3), ua.ones((2, 1)))] == [(2, 3)] * 2


def test_sort_of_0d():
    x = ua.asarray(3.5)
    same(ua.sort(x), np.asarray(3.5))
    same(ua.argsort(x), np.asarray(0))
    same(ua.sort(x, descending=True), np.asarray(3.5))
    # (np.sort is NumPy's: no axis to sort a 0-d array along)
    with pytest.raises(np.exceptions.AxisError):
        np.sort(x, axis=-1)


# ------------------------------------------------- from dpctl.tensor's own tests
class _SuaiOnly:
    """An object with nothing but __sycl_usm_array_interface__ (as dpctl's
    tests' mock arrays)."""

    def __init__(self, x):
        self._x = x

    @property
    def __sycl_usm_array_interface__(self):
        return self._x.__sycl_usm_array_interface__


def test_elementwise_functions_take_suai_objects():
    h = np.arange(10)
    x = ua.asarray(h)
    np.testing.assert_array_equal(ua.asnumpy(ua.add(x, _SuaiOnly(x))), h + h)
    np.testing.assert_array_equal(ua.asnumpy(ua.less(_SuaiOnly(x), 5)), h < 5)
    np.testing.assert_array_equal(ua.asnumpy(ua.negative(_SuaiOnly(x))), -h)


def test_take_and_put_of_0d_arrays():
    x = ua.asarray(7)
    np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.zeros(3, dtype=ua.int64))), [7, 7, 7])
    np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.asarray([0, -1]), axis=0)), [7, 7])
    y = ua.asarray(5)
    ua.put(y, ua.asarray([0]), ua.asarray(2))
    assert int(y) == 2
    ua.put(y, ua.asarray([0]), 3, axis=0)
    assert int(y) == 3


def test_from_dlpack_to_host_of_a_legacy_producer():
    """A producer whose __dlpack__ takes only `stream`: exported as it can,
    copied to the host for device=(kDLCPU, 0)."""
    class Legacy:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    x = ua.arange(5.0)
    got = ua.from_dlpack(Legacy(x), device=(1, 0))
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, np.arange(5.0))
    with pytest.raises(BufferError):
        ua.from_dlpack(Legacy(x), device=(1, 0), copy=False)
    np.testing.assert_array_equal(ua.asnumpy(ua.from_dlpack(Legacy(x))), np.arange(5.0))


def test_small_api_forms_dpctl_tensor_took():
    x = ua.reshape(ua.arange(24), (2, 3, 4))
    assert ua.permute_dims(ua.arange(3), (0)).shape == (3,)          # (0) is the int 0
    assert ua.moveaxis(x, range(2), (1, 2)).shape == (4, 2, 3)
    assert ua.squeeze(ua.asarray(1), 0).shape == ()
    assert ua.finfo(ua.float32).epsneg == float(np.finfo(np.float32).epsneg)
    # (a tuple, the standard's since 2025.12, where dpctl.tensor gave a list)
    assert ua.meshgrid() == () and isinstance(ua.meshgrid(ua.arange(2)), tuple)
    out = ua.empty(3)
    assert ua.clip(ua.asarray([0.0, 2.0, 5.0]), 1, 3, out) is out
    np.testing.assert_array_equal(ua.asnumpy(out), [1.0, 2.0, 3.0])
    fill = ua.asarray(2.0, usm_type="shared")
    assert ua.full(3, fill).usm_type == "shared"          # (computation follows data)
    assert ua.full(3, 2.0).usm_type == "device"
    r = ua.cumulative_sum(ua.asarray(4))
    assert r.shape == () and int(r) == 4
