"""Elementwise functions (every entry of ``usmarray/_elementwise_ops.py``) and
``clip``: values, result dtypes and shapes against NumPy for every dtype the
device supports, many memory layouts, broadcasting, mixed dtypes, Python
scalars (weak-scalar rules), dtypes a function does not accept, integer
corner cases, and the array API standard's special cases (asserted with the
standard's exact values where NumPy deviates from it)."""

import math
import operator
import warnings

import numpy as np
import pytest

import usmarray as ua
from usmarray._elementwise_ops import OPS
from conftest import check, to_host, SUPPORTED_DTYPES, device_supports, sample

UNARY = [op[0] for op in OPS if op[1] == 1]
BINARY = [op[0] for op in OPS if op[1] == 2]


HAS_F16 = device_supports(ua.float16)


# ------------------------------------------------------------------ oracles
def _np_rsqrt(x):
    return 1 / np.sqrt(x)


def _complex_of(dt):
    return np.result_type(dt, np.complex64)


def _np_proj(x):
    z = x.astype(_complex_of(x.dtype))
    inf = np.isinf(z.real) | np.isinf(z.imag)
    p = np.where(inf, np.inf + 0j, z).astype(z.dtype)
    p.imag = np.where(inf, np.copysign(0, z.imag), z.imag)
    return p


def _np_angle(x):
    return np.angle(x.astype(_complex_of(x.dtype)))


NP_FUNC = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "bitwise_invert": np.invert,
    "conj": np.conjugate, "atan2": np.arctan2, "bitwise_left_shift": np.left_shift,
    "bitwise_right_shift": np.right_shift, "pow": np.power, "rsqrt": _np_rsqrt,
    "proj": _np_proj, "angle": _np_angle,
}


def np_func(name):
    f = NP_FUNC.get(name) or getattr(np, name, None)
    assert f is not None, f"no NumPy oracle for {name}: add one to NP_FUNC"
    return f


# Which input dtypes each function accepts, from the array API standard (plus
# NumPy's rule that integer and bool inputs of floating-point functions are
# promoted to a floating dtype). A table entry missing here fails the tests.
KIND = {
    # unary
    "abs": "numeric", "acos": "float", "acosh": "float", "asin": "float", "asinh": "float",
    "atan": "float", "atanh": "float", "bitwise_invert": "intbool", "ceil": "real",
    "conj": "numeric", "cos": "float", "cosh": "float", "exp": "float", "expm1": "float",
    "floor": "real", "imag": "numeric", "isfinite": "numeric", "isinf": "numeric",
    "isnan": "numeric", "log": "float", "log1p": "float", "log2": "float", "log10": "float",
    "logical_not": "all", "negative": "numeric-nobool", "positive": "numeric",
    "real": "numeric", "reciprocal": "float", "round": "numeric", "sign": "numeric",
    "signbit": "real", "sin": "float", "sinh": "float", "sqrt": "float", "square": "numeric",
    "tan": "float", "tanh": "float", "trunc": "real", "cbrt": "real", "exp2": "float",
    "rsqrt": "real", "angle": "float", "proj": "float",
    # binary
    "add": "numeric", "atan2": "real", "bitwise_and": "intbool", "bitwise_left_shift": "intbool",
    "bitwise_or": "intbool", "bitwise_right_shift": "intbool", "bitwise_xor": "intbool",
    "copysign": "real", "divide": "float", "equal": "all", "floor_divide": "real",
    "greater": "all", "greater_equal": "all", "hypot": "real", "less": "all",
    "less_equal": "all", "logaddexp": "real", "logical_and": "all", "logical_or": "all",
    "logical_xor": "all", "maximum": "all", "minimum": "all", "multiply": "numeric",
    "nextafter": "real", "not_equal": "all", "pow": "numeric", "remainder": "real",
    "subtract": "numeric-nobool",
    # NumPy's beyond the array API
    "degrees": "real", "radians": "real", "fabs": "real", "spacing": "real", "fmax": "all",
    "fmin": "all", "fmod": "real", "heaviside": "real", "logaddexp2": "real",
    "float_power": "numeric", "gcd": "int", "lcm": "int",
}


def accepts(name, dt):
    """Whether `name` accepts an input (or promoted inputs) of dtype `dt`."""
    kind = KIND[name]
    k = np.dtype(dt).kind
    if kind in ("numeric", "float", "all"):
        return True
    if kind == "numeric-nobool":
        return k != "b"
    if kind == "real":
        return k != "c"
    if kind == "intbool":
        return k in "biu"
    if kind == "int":
        return k in "iu"
    if kind == "bool":
        return k == "b"
    raise AssertionError(kind)


# Where the standard leaves the result dtype open and the package differs from
# NumPy (bool inputs of round, sign and positive compute in int8, as in
# dpctl.tensor; integer reciprocal computes in the smallest float holding the
# input): only values are compared, against NumPy on inputs cast to int8 /
# float64. Integer division computes in the default float type, as NumPy's
# does.
BOOL_AS_INT8 = {"round", "sign", "positive"}
INT_TO_FLOAT = {"reciprocal"}


def _oracle(name, arrays):
    """(expected NumPy result, whether its dtype must match)."""
    f = np_func(name)
    kinds = {a.dtype.kind for a in arrays}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in BOOL_AS_INT8 and "b" in kinds:
            return f(*[a.astype(np.int8) for a in arrays]), False
        if name in INT_TO_FLOAT and kinds <= set("biu"):
            return f(*[a.astype(np.float64) for a in arrays]), False
        if name == "angle" and "c" not in kinds:
            return f(*arrays), False
        return f(*arrays), True






def _bits(dt):
    return np.dtype(dt).itemsize * 8


def inputs(name, dt, shape, seed=1):
    """NumPy inputs of dtype `dt` for `name`, in (mostly) its interesting domain."""
    dt = np.dtype(dt)
    k = dt.kind
    a = sample(shape, dt, seed)
    if name in ("acos", "asin", "atanh") and k in "fc":
        a = (a / 12).astype(dt)
    elif name == "acosh" and k == "f":
        a = (np.abs(a) / 4 + 0.8).astype(dt)          # a few below 1: NaN
    elif name in ("log", "log2", "log10", "log1p", "sqrt", "rsqrt") and k == "f":
        a = np.abs(a)
        a.reshape(-1)[::5] *= -1                      # some negatives: NaN
    if name in UNARY:
        return [a]
    b = sample(shape, dt, seed + 1)
    if name == "pow":
        if k in "iu":
            b = (np.abs(b.astype(np.int64)) % 6).astype(dt)
        elif k in "fc":
            b = (b / 5).astype(dt)
    elif name in ("bitwise_left_shift", "bitwise_right_shift") and k in "iu":
        b = (np.abs(b.astype(np.int64)) % (_bits(dt) + 4)).astype(dt)   # incl. >= width
    elif name in ("floor_divide", "remainder") and k in "iu":
        b.reshape(-1)[::5] = 0                        # integer division by zero gives 0
    return [a, b]


def rep_dtype(name):
    """A representative dtype the function accepts."""
    kind = KIND[name]
    if name in ("proj", "angle"):
        return ua.complex64
    return {"intbool": ua.int32, "int": ua.int32, "bool": ua.bool}.get(kind, ua.float32)


def call(name, *args):
    return getattr(ua, name)(*args)


# ================================================================== values
@pytest.mark.parametrize("name", UNARY)
def test_unary(name, dtype):
    if not accepts(name, dtype):
        with pytest.raises(TypeError):
            call(name, ua.asarray(sample((4,), dtype)))
        return
    (h,) = inputs(name, dtype, (7, 5))
    expected, check_dtype = _oracle(name, [h])
    got = call(name, ua.asarray(h))
    check(got, expected, check_dtype)
    if not check_dtype and name in INT_TO_FLOAT:
        assert got.dtype.kind == "f"


@pytest.mark.parametrize("name", BINARY)
def test_binary(name, dtype):
    if not accepts(name, dtype):
        x = ua.asarray(sample((4,), dtype))
        with pytest.raises(TypeError):
            call(name, x, x)
        return
    a, b = inputs(name, dtype, (6, 7))
    expected, check_dtype = _oracle(name, [a, b])
    got = call(name, ua.asarray(a), ua.asarray(b))
    check(got, expected, check_dtype)
    if not check_dtype and name in INT_TO_FLOAT:
        assert got.dtype.kind == "f"


def test_every_table_entry_is_exported():
    for name in UNARY + BINARY + ["clip"]:
        assert callable(getattr(ua, name)), name
        assert name in KIND or name == "clip", f"no expectations for {name}"


# ================================================================== layouts
# name -> (base shape, view applied identically to the NumPy and the device array)
LAYOUTS = {
    "0d": ((), lambda a: a),
    "zero-size": ((0, 3), lambda a: a),
    "zero-size-view": ((4, 6), lambda a: a[2:2, ::2]),
    "1d": ((17,), lambda a: a),
    "1d-large": ((1031,), lambda a: a),
    "3d": ((2, 3, 4), lambda a: a),
    "negative-strides": ((6, 8), lambda a: a[::-1, ::-2]),
    "transpose": ((6, 8), lambda a: a.T),
    "step-2": ((21,), lambda a: a[::2]),
    "3d-strided": ((4, 5, 6), lambda a: a[1:, ::2, ::-3]),
    "3d-permuted": ((2, 3, 4), "permute"),
    "fortran": ((5, 6), "fortran"),
    "element-of-2d": ((4, 5), lambda a: a[2, 3, ...]),
    # more dimensions than the largest strided kernel (4): several launches
    "5d-every-axis-strided": ((3, 4, 3, 4, 6), lambda a: a[::2, ::-2, 1:, ::3, ::-2]),
    "7d-permuted": ((2, 3, 2, 3, 2, 3, 4), "permute7"),
}


def _make_layout(layout, h):
    """(NumPy view, device view) of host data `h` in the given layout."""
    _, view = LAYOUTS[layout]
    if view == "permute":
        return np.transpose(h, (2, 0, 1)), ua.permute_dims(ua.asarray(h), (2, 0, 1))
    if view == "permute7":
        p = (6, 3, 0, 5, 1, 4, 2)
        return np.transpose(h, p), ua.permute_dims(ua.asarray(h), p)
    if view == "fortran":
        hf = np.asfortranarray(h)
        x = ua.asarray(hf)
        assert x.flags.f_contiguous and not x.flags.c_contiguous
        return hf, x
    return view(h), view(ua.asarray(h))


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", UNARY)
def test_unary_layouts(name, layout):
    dt = rep_dtype(name)
    (h,) = inputs(name, dt, LAYOUTS[layout][0])
    hv, xv = _make_layout(layout, h)
    expected, check_dtype = _oracle(name, [hv])
    got = call(name, xv)
    check(got, expected, check_dtype, layout)
    if layout == "fortran":
        assert got.flags.f_contiguous


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", BINARY)
def test_binary_layouts(name, layout):
    dt = rep_dtype(name)
    a, b = inputs(name, dt, LAYOUTS[layout][0])
    av, x1 = _make_layout(layout, a)
    bv, x2 = _make_layout(layout, b)
    expected, check_dtype = _oracle(name, [av, bv])
    check(call(name, x1, x2), expected, check_dtype, layout)
    # one operand in this layout, the other C-contiguous of the same shape
    x3 = ua.asarray(bv.copy(order="C"))
    check(call(name, x1, x3), expected, check_dtype, layout + " with C operand")
    check(call(name, x3, x1), _oracle(name, [bv, av])[0], check_dtype, "C operand with " + layout)


# ================================================================== broadcasting
BROADCASTS = [
    ((3, 1), (1, 4)),
    ((4,), (3, 4)),
    ((3, 4), (4,)),
    ((), (2, 3)),
    ((2, 3, 4), ()),
    ((2, 1, 3), (4, 1)),
    ((0, 1), (1, 5)),
    ((1,), (0,)),
    ((5, 1, 1), (1, 1, 6)),
    ((70, 300), (70, 1)),        # a column broadcast along long rows
    ((1,), (9, 130)),
    ((4, 5, 600), (4, 5, 1)),    # collapses to a column broadcast
]


@pytest.mark.parametrize("shapes", BROADCASTS, ids=lambda s: f"{s[0]}-{s[1]}")
@pytest.mark.parametrize("name", BINARY)
def test_binary_broadcasting(name, shapes):
    dt = rep_dtype(name)
    s1, s2 = shapes
    a = inputs(name, dt, s1, seed=3)[0]
    b = inputs(name, dt, s2, seed=4)[1]
    expected, check_dtype = _oracle(name, [a, b])
    assert expected.shape == np.broadcast_shapes(s1, s2)
    check(call(name, ua.asarray(a), ua.asarray(b)), expected, check_dtype, str(shapes))


@pytest.mark.parametrize("name", ["add", "atan2", "less", "bitwise_xor"])
def test_broadcasting_noncontiguous(name):
    dt = rep_dtype(name)
    a, _ = inputs(name, dt, (6, 8), seed=5)
    _, b = inputs(name, dt, (8, 3), seed=6)
    av, bv = a[::-2, :1], b[::-3, 1]           # (3, 1) negative strides, (3,) strided
    x1, x2 = ua.asarray(a)[::-2, :1], ua.asarray(b)[::-3, 1]
    expected, check_dtype = _oracle(name, [av, bv])
    check(call(name, x1, x2), expected, check_dtype)
    check(call(name, x2, x1), _oracle(name, [bv, av])[0], check_dtype)


@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (3, 2)), ((0,), (2,))])
def test_broadcasting_incompatible(shapes):
    x1 = ua.asarray(np.ones(shapes[0], np.float32))
    x2 = ua.asarray(np.ones(shapes[1], np.float32))
    with pytest.raises(ValueError):
        ua.add(x1, x2)


# ================================================================== mixed dtypes
MIXED_FUNCS = ["add", "multiply", "divide", "floor_divide", "atan2", "bitwise_or",
               "less", "equal", "maximum"]


def _mixed_data(dt, seed):
    h = sample((3, 4), dt, seed)
    if np.dtype(dt).kind in "iu":
        h = np.abs(h) + 1   # positive: also valid in the unsigned dtypes
        h = h.astype(dt)
    return h


@pytest.mark.parametrize("name", MIXED_FUNCS)
def test_mixed_dtypes(name, dtype):
    """Every (dtype, other dtype) pair: NumPy's promotion where the standard or
    the task fixes it; TypeError where the promoted dtype is not accepted."""
    errors = []
    for dt2 in SUPPORTED_DTYPES:
        if dt2 == dtype:
            continue
        k1, k2 = np.dtype(dtype).kind, np.dtype(dt2).kind
        if (k1 == "b") != (k2 == "b"):
            continue   # mixing bool with numeric dtypes: not specified
        a, b = _mixed_data(dtype, 1), _mixed_data(dt2, 2)
        p = np.promote_types(dtype, dt2)
        x1, x2 = ua.asarray(a), ua.asarray(b)
        if not accepts(name, p) or (KIND[name] == "real" and "c" in (k1, k2)):
            try:
                call(name, x1, x2)
                errors.append(f"{dtype}, {dt2}: no TypeError")
            except TypeError:
                pass
            continue
        expected, check_dtype = _oracle(name, [a, b])
        if name == "atan2" and k1 in "iu" and k2 in "iu":
            # float results of two different integer dtypes: the standard leaves
            # the dtype open (NumPy picks the first float loop both cast to,
            # usmarray promotes first); values are compared in float64
            with np.errstate(all="ignore"):
                expected = np_func(name)(a.astype(np.float64), b.astype(np.float64))
            check_dtype = False
        try:
            got = call(name, x1, x2)
            if not check_dtype:
                assert got.dtype.kind == expected.dtype.kind, (got.dtype, expected.dtype)
            check(got, expected, check_dtype, f"{dtype}, {dt2}")
        except Exception as e:   # collect every pair's failure
            errors.append(f"{dtype}, {dt2}: {type(e).__name__}: {e}")
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("d1, d2, res", [
    ("int8", "float32", "float32"),
    ("uint8", "int8", "int16"),
    ("uint16", "int16", "int32"),
    ("uint32", "int32", "int64"),
    ("int64", "uint64", "float64"),
    ("int8", "uint64", "float64"),
    ("float16", "float32", "float32"),
    ("float32", "complex64", "complex64"),
    ("float64", "complex64", "complex128"),
    ("int16", "float16", "float32"),
    ("bool", "bool", "bool"),
])
def test_promotion_examples(d1, d2, res):
    for d in (d1, d2, res):
        if not device_supports(np.dtype(d)):
            pytest.skip(f"device has no {d}")
    x1 = ua.asarray(np.ones(3, d1))
    x2 = ua.asarray(np.full(3, 2, d2))
    for r in (ua.add(x1, x2), ua.add(x2, x1), ua.multiply(x1, x2)):
        assert r.dtype == np.dtype(res)
    check(ua.add(x1, x2), np.ones(3, d1) + np.full(3, 2, d2))


# ================================================================== Python scalars
def _scalars(name, dt):
    """Python scalars to combine with an array of dtype `dt`."""
    k = np.dtype(dt).kind
    if k == "b":
        return [True, False]
    if name == "pow" and k in "iu":
        return [0, 2, 3]
    if name in ("bitwise_left_shift", "bitwise_right_shift"):
        return [0, 3, _bits(dt) - 1, _bits(dt)]
    if k == "u":
        return [0, 3, 1.5]
    if k == "i":
        return [0, 3, -2, 1.5]
    if k == "f":
        return [2, -3, 1.5, -0.25, 2 - 1j]
    return [2, 1.5, 2 - 1j]


@pytest.mark.parametrize("name", BINARY)
def test_binary_python_scalars(name, dtype):
    """x op s and s op x against NumPy (NEP 50 weak scalars: the scalar takes
    the array's dtype when its kind allows; int arrays with float scalars give
    the default float; real float arrays with complex scalars give the
    matching complex dtype)."""
    f = getattr(ua, name)
    if not accepts(name, dtype):
        x = ua.asarray(sample((4,), dtype))
        s = _scalars("add", dtype)[0]
        with pytest.raises(TypeError):
            f(x, s)
        with pytest.raises(TypeError):
            f(s, x)
        return
    h = inputs(name, dtype, (3, 5))[0]
    if name in ("pow", "bitwise_left_shift", "bitwise_right_shift") and h.dtype.kind in "iu":
        h = (np.abs(h.astype(np.int64)) % 6).astype(dtype)   # exponents/counts >= 0
    layouts = {"contiguous": (h, ua.asarray(h)),
               "strided": (h[:, ::-2], ua.asarray(h)[:, ::-2]),
               "0d": (h[1, 2], ua.asarray(h)[1, 2])}
    errors = []
    for s in _scalars(name, dtype):
        for left in (False, True):
            for lname, (hv, xv) in layouts.items():
                args_np = (s, hv) if left else (hv, s)
                args_ua = (s, xv) if left else (xv, s)
                what = f"{name}({'s, x' if left else 'x, s'}) s={s!r} {dtype} {lname}"
                real_only = KIND[name] == "real"
                if isinstance(s, complex) and real_only:
                    try:
                        f(*args_ua)
                        errors.append(f"{what}: no TypeError for a complex scalar")
                    except TypeError:
                        pass
                    continue
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        expected = np_func(name)(*args_np)
                        np_exc = None
                    except (TypeError, OverflowError) as e:
                        np_exc = type(e)
                if np_exc is not None:
                    exc = OverflowError if issubclass(np_exc, OverflowError) else TypeError
                    try:
                        f(*args_ua)
                        errors.append(f"{what}: NumPy raises {np_exc.__name__}, usmarray does not")
                    except exc:
                        pass
                    except Exception as e:
                        errors.append(f"{what}: {type(e).__name__} instead of {exc.__name__}")
                    continue
                expected = np.asarray(expected)
                check_dtype = True
                if name in BOOL_AS_INT8 and h.dtype.kind == "b":
                    check_dtype = False
                try:
                    got = f(*args_ua)
                    check(got, expected, check_dtype, what)
                except Exception as e:
                    errors.append(f"{what}: {type(e).__name__}: {e}")
    assert not errors, "\n".join(errors)


def test_scalar_weak_rules():
    x8 = ua.asarray(np.array([1, -2, 3], np.int8))
    r = ua.add(x8, 1)
    assert r.dtype == ua.int8
    check(r, np.array([2, -1, 4], np.int8))
    r = ua.add(1, x8)
    assert r.dtype == ua.int8
    assert ua.multiply(x8, True).dtype == ua.int8
    r = ua.add(x8, 1.5)
    assert r.dtype == ua.__array_namespace_info__().default_dtypes()["real floating"]
    check(r, np.array([2.5, -0.5, 4.5]), check_dtype=False)
    xf = ua.asarray(np.array([1, 2], np.float32))
    r = ua.add(xf, 1j)
    assert r.dtype == ua.complex64
    check(r, np.array([1 + 1j, 2 + 1j], np.complex64))
    assert ua.add(2 - 3j, xf).dtype == ua.complex64
    assert ua.multiply(xf, 3).dtype == ua.float32
    assert ua.add(xf, 1e300).dtype == ua.float32      # value overflows to inf, dtype kept
    assert ua.asnumpy(ua.add(xf, 1e300))[0] == np.inf
    if HAS_F16:
        xh = ua.asarray(np.array([1, 2], np.float16))
        assert ua.add(xh, 2.5).dtype == ua.float16
        assert ua.add(xh, 1j).dtype == ua.complex64
    xb = ua.asarray(np.array([True, False]))
    assert ua.logical_and(xb, True).dtype == ua.bool
    check(ua.logical_or(False, xb), np.array([True, False]))
    # NumPy scalars are treated like the Python scalars they hold
    check(ua.add(x8, np.int64(1)), np.array([2, -1, 4], np.int8))


@pytest.mark.parametrize("dt, value", [("uint8", -1), ("int8", 300), ("int8", -129),
                                       ("uint16", 70000), ("int32", 2**31), ("uint64", -1),
                                       ("int64", 2**63)])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "bitwise_and", "maximum"])
def test_scalar_out_of_range_overflow(name, dt, value):
    x = ua.asarray(np.arange(3, dtype=dt))
    f = getattr(ua, name)
    with pytest.raises(OverflowError):
        f(x, value)
    with pytest.raises(OverflowError):
        f(value, x)


def test_scalar_operand_errors():
    x = ua.asarray(np.arange(3.0, dtype=np.float32))
    with pytest.raises(TypeError):
        ua.add(x, "1")
    with pytest.raises(TypeError):
        ua.add(None, x)
    with pytest.raises(TypeError):
        ua.add(1, 2)                          # no array at all
    with pytest.raises(TypeError):
        ua.sin(1.0)
    with pytest.raises(TypeError):
        ua.add(x, np.ones(3, np.float32))     # host arrays are not converted implicitly
    with pytest.raises(TypeError):
        ua.add([1, 2, 3], x)


# ================================================================== unsupported dtypes
@pytest.mark.parametrize("name, dt", [
    ("bitwise_and", "float32"), ("bitwise_or", "float64"), ("bitwise_xor", "complex64"),
    ("bitwise_invert", "float32"), ("bitwise_left_shift", "float32"),
    ("bitwise_right_shift", "complex128"),
    ("atan2", "complex64"), ("copysign", "complex64"), ("hypot", "complex128"),
    ("logaddexp", "complex64"), ("nextafter", "complex64"),
    ("floor_divide", "complex64"), ("remainder", "complex64"),
    ("ceil", "complex64"), ("floor", "complex128"), ("trunc", "complex64"),
    ("signbit", "complex64"), ("cbrt", "complex64"),
    ("rsqrt", "complex64"), ("subtract", "bool"), ("negative", "bool"),
])
def test_unsupported_dtype_raises(name, dt):
    if not device_supports(np.dtype(dt)):
        pytest.skip(f"device has no {dt}")
    x = ua.asarray(sample((3,), dt))
    args = (x,) if name in UNARY else (x, x)
    with pytest.raises(TypeError):
        call(name, *args)


@pytest.mark.parametrize("other", ["int8", "uint16", "float32", "complex64"])
def test_subtract_of_bool_and_a_number(other):
    """Only bool - bool has no loop in NumPy: bool beside a number promotes."""
    b, o = sample((5,), "bool"), sample((5,), other)
    check(ua.subtract(ua.asarray(b), ua.asarray(o)), np.subtract(b, o))
    check(ua.asarray(o) - ua.asarray(b), o - b)


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater",
                                  "greater_equal"])
@pytest.mark.parametrize("signed", ["int8", "int32", "int64"])
def test_signed_beside_uint64_compares_exactly(name, signed):
    """NumPy 2 compares them exactly; their promoted type, float64, rounds."""
    s = np.array([-2 ** 63, -1, 0, 1, 2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1], np.int64)
    s = s.astype(signed)   # (wraps to the narrower type: still a mix of signs)
    u = np.array([0, 1, 2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1], np.uint64)
    a, b = np.meshgrid(s, u, indexing="ij")
    f = getattr(np, name)
    for x, y in ((a, b), (b, a)):
        check(call(name, ua.asarray(x), ua.asarray(y)), f(x, y))
        check(f(ua.asarray(x), ua.asarray(y)), f(x, y))
    out = ua.empty(a.shape, dtype=ua.bool)
    assert getattr(ua, name)(ua.asarray(a), ua.asarray(b), out=out) is out
    check(out, f(a, b))


@pytest.mark.parametrize("name", ["bitwise_and", "atan2", "remainder"])
def test_unsupported_promoted_pair_raises(name):
    pairs = {"bitwise_and": ("int32", "float32"),
             "atan2": ("float32", "complex64"), "remainder": ("int8", "complex64")}[name]
    x1 = ua.asarray(sample((3,), pairs[0]))
    x2 = ua.asarray(sample((3,), pairs[1]))
    with pytest.raises(TypeError):
        call(name, x1, x2)
    with pytest.raises(TypeError):
        call(name, x2, x1)


# ================================================================== integer inputs to float functions
@pytest.mark.parametrize("dt, res", [("bool", "float16"), ("int8", "float16"), ("uint8", "float16"),
                                     ("int16", "float32"), ("uint16", "float32"),
                                     ("int32", "float64"), ("uint32", "float64"),
                                     ("int64", "float64"), ("uint64", "float64")])
@pytest.mark.parametrize("name", ["sin", "exp", "sqrt", "log1p", "tanh"])
def test_integer_input_of_float_function(name, dt, res):
    if not device_supports(np.dtype(res)):
        pytest.skip(f"device has no {res}")
    h = np.abs(sample((11,), dt)).astype(dt) if name in ("sqrt", "log1p") else sample((11,), dt)
    got = call(name, ua.asarray(h))
    assert got.dtype == np.dtype(res)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(h)
    check(got, expected)


# ================================================================== integer corner cases
INT_DTYPES = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind in "iu"]
INT_IDS = [np.dtype(d).name for d in INT_DTYPES]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=INT_IDS)
def test_integer_division_by_zero(dt):
    info = np.iinfo(dt)
    a = np.array([0, 1, 7, info.max, info.min, 5], dtype=dt)
    if info.min < 0:
        a[5] = -5
    b = np.zeros_like(a)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    check(ua.floor_divide(x1, x2), np.zeros_like(a))
    check(ua.remainder(x1, x2), np.zeros_like(a))
    check(ua.floor_divide(x1, 0), np.zeros_like(a))
    check(ua.remainder(x1, 0), np.zeros_like(a))
    # and the device is still usable afterwards
    check(ua.floor_divide(x1, ua.asarray(np.full_like(a, 2))), a // 2)


@pytest.mark.parametrize("dt", [d for d in INT_DTYPES if np.dtype(d).kind == "i"],
                         ids=[n for n in INT_IDS if n.startswith("int")])
def test_integer_min_divided_by_minus_one(dt):
    info = np.iinfo(dt)
    a = np.array([info.min, info.min, info.max, -7, 7, 0], dtype=dt)
    b = np.full_like(a, -1)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    with np.errstate(all="ignore"):
        check(ua.floor_divide(x1, x2), a // b)     # INT_MIN // -1 wraps to INT_MIN
        check(ua.remainder(x1, x2), np.zeros_like(a))
        check(ua.floor_divide(x1, -1), a // b)
        check(ua.remainder(x1, -1), np.zeros_like(a))


@pytest.mark.parametrize("dt", INT_DTYPES, ids=INT_IDS)
def test_integer_floor_divide_remainder_signs(dt):
    """Python's semantics: floor division, remainder with the divisor's sign."""
    k = np.dtype(dt).kind
    vals = [-7, -6, -1, 0, 1, 6, 7, 100] if k == "i" else [0, 1, 6, 7, 100, 255]
    divs = [-3, -1, 1, 2, 3, 7] if k == "i" else [1, 2, 3, 7, 200]
    a = np.array([v for v in vals for _ in divs], dtype=dt)
    b = np.array([d for _ in vals for d in divs], dtype=dt)
    q = np.array([int(v) // int(d) for v, d in zip(a, b)], dtype=dt)
    r = np.array([int(v) % int(d) for v, d in zip(a, b)], dtype=dt)
    check(ua.floor_divide(ua.asarray(a), ua.asarray(b)), q)
    check(ua.remainder(ua.asarray(a), ua.asarray(b)), r)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=INT_IDS)
def test_shifts_by_bit_width_or_more(dt):
    bits = _bits(dt)
    info = np.iinfo(dt)
    counts = np.array([0, 1, bits - 1, bits, bits + 1, 2 * bits, min(info.max, 1000)], dtype=dt)
    for v in ([1, info.max, info.min, -1, -100] if info.min < 0 else [1, info.max, 100]):
        a = np.full(counts.shape, v, dtype=dt)
        x1, x2 = ua.asarray(a), ua.asarray(counts)
        check(ua.bitwise_left_shift(x1, x2), np.left_shift(a, counts), what=f"{v} << counts")
        check(ua.bitwise_right_shift(x1, x2), np.right_shift(a, counts), what=f"{v} >> counts")
    # array of values shifted by a scalar count >= width
    a = sample((9,), dt)
    check(ua.bitwise_left_shift(ua.asarray(a), bits), np.zeros_like(a))
    check(ua.bitwise_right_shift(ua.asarray(a), bits), np.where(a < 0, -1, 0).astype(dt))


@pytest.mark.parametrize("dt", [d for d in INT_DTYPES if np.dtype(d).kind == "i"],
                         ids=[n for n in INT_IDS if n.startswith("int")])
def test_pow_negative_integer_exponent(dt):
    """Integers to negative integer powers (unspecified by the standard):
    ValueError, as NumPy, for arrays, scalars and operators alike."""
    a = np.array([1, -1, -1, 2, -2, 3, 100, 7], dtype=dt)
    b = np.array([1, 1, 2, 1, 3, 2, 5, -100], dtype=dt)
    with pytest.raises(ValueError):
        np.power(a, b)
    x = ua.asarray(a)
    for f in (lambda: ua.pow(x, ua.asarray(b)), lambda: ua.pow(x, -1), lambda: x ** -1,
              lambda: x ** ua.asarray(b), lambda: 2 ** ua.asarray(b), lambda: ua.pow(2, ua.asarray(b)),
              lambda: ua.asarray(a[0]) ** -2, lambda: x ** np.int64(-1),
              lambda: ua.pow(ua.astype(x, ua.bool), ua.asarray(b))):
        with pytest.raises(ValueError):
            f()
    with pytest.raises(ValueError):
        x **= -1
    np.testing.assert_array_equal(ua.asnumpy(x), a)   # untouched
    # non-negative exponents, floating exponents and unsigned exponents still work
    check(x ** 2, a ** 2)
    b2 = np.abs(b) % 5
    check(ua.pow(x, ua.asarray(b2)), a ** b2)
    check(x ** -1.0, a ** -1.0)
    check(x ** ua.asarray(np.array([0, 1, 2, 3, 0, 1, 2, 3], dtype=np.uint8)),
          a ** np.array([0, 1, 2, 3, 0, 1, 2, 3], dtype=np.uint8))


@pytest.mark.parametrize("dt", INT_DTYPES, ids=INT_IDS)
def test_integer_pow_wraps_like_numpy(dt):
    a = sample((20,), dt)
    b = (np.abs(sample((20,), dt, seed=5).astype(np.int64)) % 70).astype(dt)
    check(ua.pow(ua.asarray(a), ua.asarray(b)), np.power(a, b))
    check(ua.pow(2, ua.asarray(b)), np.power(2, b))


@pytest.mark.parametrize("dt", [d for d in INT_DTYPES if np.dtype(d).kind == "i"],
                         ids=[n for n in INT_IDS if n.startswith("int")])
def test_integer_min_unary(dt):
    info = np.iinfo(dt)
    a = np.array([info.min, info.max, -1, 0], dtype=dt)
    x = ua.asarray(a)
    with np.errstate(all="ignore"):
        check(ua.negative(x), np.negative(a))
        check(ua.abs(x), np.abs(a))
        check(ua.sign(x), np.sign(a))
        check(ua.bitwise_invert(x), np.invert(a))
        check(ua.square(x), np.square(a))


# ================================================================== special values (spec)
REAL_DTYPES = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "f"]
REAL_IDS = [np.dtype(d).name for d in REAL_DTYPES]
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0, 100.0]

# Real floating unary functions whose special cases in the standard are C99's,
# which NumPy follows: compared with NumPy including the sign of zero results.
UNARY_C99 = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh",
             "exp", "expm1", "floor", "log", "log1p", "log2", "log10", "negative", "positive",
             "reciprocal", "round", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc",
             "cbrt", "exp2", "signbit", "isfinite", "isinf", "isnan"]


def _same_zero_signs(got, expected, what=""):
    g = np.asarray(got)
    zero = (np.asarray(expected) == 0)
    np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(np.asarray(expected)[zero]),
                                  err_msg=f"{what}: signs of zero results")


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
@pytest.mark.parametrize("name", UNARY_C99)
def test_unary_real_special_values(name, dt):
    h = np.array(SPECIAL, dtype=dt)
    with np.errstate(all="ignore"):
        expected = np_func(name)(h)
    got = call(name, ua.asarray(h))
    check(got, expected)
    if expected.dtype.kind == "f":
        _same_zero_signs(to_host(got), expected, name)


def test_sign_real_special_values():
    h = np.array([-np.inf, -3.5, -1e-30, -0.0, 0.0, 1e-30, 2.0, np.inf, np.nan])
    got = ua.sign(ua.asarray(h))
    check(got, np.array([-1, -1, -1, 0, 0, 1, 1, 1, np.nan]))
    # both zeros give +0, as in NumPy (check() does not tell -0 from +0)
    for dt in (ua.float16, ua.float32, ua.float64):
        z = ua.asnumpy(ua.sign(ua.asarray(np.array([-0.0, 0.0], dt))))
        assert not np.any(np.signbit(z)), dt


# binary functions whose real special cases NumPy shares with the standard
BINARY_C99 = ["add", "subtract", "multiply", "divide", "atan2", "copysign", "hypot", "pow",
              "logaddexp", "nextafter", "equal", "not_equal", "less", "less_equal",
              "greater", "greater_equal", "maximum", "minimum"]


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
@pytest.mark.parametrize("name", BINARY_C99)
def test_binary_real_special_values(name, dt):
    v = np.array(SPECIAL, dtype=dt)
    a, b = np.repeat(v, v.size), np.tile(v, v.size)
    with np.errstate(all="ignore"):
        expected = np_func(name)(a, b)
    got = call(name, ua.asarray(a), ua.asarray(b))
    check(got, expected)
    if expected.dtype.kind == "f" and name not in ("maximum", "minimum", "nextafter"):
        # the order of signed zeros is unspecified for maximum/minimum; NumPy's
        # float16 nextafter(+-0, -+0) returns x1, the standard wants x2
        _same_zero_signs(to_host(got), expected, name)


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
def test_nextafter_spec_values(dt):
    a = np.array([-0.0, 0.0, 0.0, -0.0, np.nan, 1.0, 1.0, 0.0, 0.0], dtype=dt)
    b = np.array([0.0, -0.0, 0.0, -0.0, 1.0, np.nan, 1.0, 1.0, -1.0], dtype=dt)
    got = to_host(ua.nextafter(ua.asarray(a), ua.asarray(b)))
    assert got.dtype == np.dtype(dt)
    np.testing.assert_array_equal(np.signbit(got[:4]), [False, True, False, True])
    np.testing.assert_array_equal(got[:4], 0)
    assert np.isnan(got[4]) and np.isnan(got[5]) and got[6] == 1
    tiny = np.finfo(dt).smallest_subnormal
    np.testing.assert_array_equal(got[7:], [tiny, -tiny])


def _spec_floor_divide(a, b):
    """Allowed results of floor_divide(a, b) per the standard (a set)."""
    nan, inf = math.nan, math.inf
    neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)) or (a == 0 and b == 0):
        return [nan]
    if a == 0:
        return [-0.0 if neg else 0.0]
    if b == 0:
        return [-inf if neg else inf]
    if math.isinf(a):
        return [-inf if neg else inf, nan]        # NaN allowed ("match Python")
    if math.isinf(b):
        return [-0.0, -1.0] if neg else [0.0]     # -1.0 allowed ("match Python")
    return [float(a // b)]


def _spec_remainder(a, b):
    nan = math.nan
    if (math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0):
        return [nan]
    if a == 0:
        return [math.copysign(0.0, b)]
    if math.isinf(b):
        return [a] if (a > 0) == (b > 0) else [b]
    return [a % b]    # Python's %, zero results carry the divisor's sign


def _matches(got, allowed):
    for e in allowed:
        if math.isnan(e):
            if math.isnan(got):
                return True
        elif got == e and math.copysign(1, got) == math.copysign(1, e):
            return True
    return False


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_floor_divide_remainder_special_values(name, dt):
    vals = SPECIAL + [-3.0, 7.0, -100.0]
    a = np.array([x for x in vals for _ in vals], dtype=dt)
    b = np.array([y for _ in vals for y in vals], dtype=dt)
    got = to_host(call(name, ua.asarray(a), ua.asarray(b)))
    assert got.dtype == np.dtype(dt)
    spec = _spec_floor_divide if name == "floor_divide" else _spec_remainder
    bad = [f"{name}({x!r}, {y!r}) = {g!r}, allowed {spec(float(x), float(y))}"
           for x, y, g in zip(a.tolist(), b.tolist(), got.tolist())
           if not _matches(g, spec(float(x), float(y)))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
def test_floor_divide_remainder_finite_values(dt):
    a = sample((40,), dt, seed=7)
    b = sample((40,), dt, seed=8)
    b[b == 0] = 1
    with np.errstate(all="ignore"):
        check(ua.floor_divide(ua.asarray(a), ua.asarray(b)), np.floor_divide(a, b))
        check(ua.remainder(ua.asarray(a), ua.asarray(b)), np.remainder(a, b))


def test_copysign_nan_signs():
    a = np.array([np.nan, np.nan, 2.0, 2.0, -np.nan], dtype=np.float32)
    b = np.array([-1.0, 1.0, -np.nan, np.nan, -0.0], dtype=np.float32)
    got = to_host(ua.copysign(ua.asarray(a), ua.asarray(b)))
    np.testing.assert_array_equal(np.signbit(got), [True, False, True, False, True])
    np.testing.assert_array_equal(np.isnan(got), [True, True, False, False, True])
    np.testing.assert_array_equal(np.abs(got[2:4]), [2.0, 2.0])


def test_signbit_nan():
    h = np.array([np.nan, -np.nan, -0.0, 0.0, -np.inf], dtype=np.float32)
    check(ua.signbit(ua.asarray(h)), np.signbit(h))


PI = math.pi
INF, NAN = math.inf, math.nan
# (function, input, expected) for complex inputs, from the standard's special
# cases; None in an expected component: only NaN-ness / value without sign checked
COMPLEX_SPECIAL = [
    ("sqrt", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("sqrt", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ("sqrt", complex(1.0, INF), complex(INF, INF)),
    ("sqrt", complex(NAN, INF), complex(INF, INF)),
    ("sqrt", complex(-INF, 1.0), complex(0.0, INF)),
    ("sqrt", complex(INF, 1.0), complex(INF, 0.0)),
    ("sqrt", complex(1.0, NAN), complex(NAN, NAN)),
    ("sqrt", complex(INF, NAN), complex(INF, NAN)),
    ("log", complex(-0.0, 0.0), complex(-INF, PI)),
    ("log", complex(0.0, 0.0), complex(-INF, 0.0)),
    ("log", complex(1.0, INF), complex(INF, PI / 2)),
    ("log", complex(-INF, 1.0), complex(INF, PI)),
    ("log", complex(INF, 1.0), complex(INF, 0.0)),
    ("log", complex(-INF, INF), complex(INF, 3 * PI / 4)),
    ("log", complex(INF, INF), complex(INF, PI / 4)),
    ("log", complex(INF, NAN), complex(INF, NAN)),
    ("log", complex(NAN, INF), complex(INF, NAN)),
    ("exp", complex(0.0, 0.0), complex(1.0, 0.0)),
    ("exp", complex(-0.0, 0.0), complex(1.0, 0.0)),
    ("exp", complex(INF, 0.0), complex(INF, 0.0)),
    ("exp", complex(-INF, 1.0), complex(0.0 * math.cos(1.0), 0.0 * math.sin(1.0))),
    ("exp", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("exp", complex(1.0, NAN), complex(NAN, NAN)),
    ("exp", complex(1.0, INF), complex(NAN, NAN)),
    ("expm1", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("expm1", complex(INF, 0.0), complex(INF, 0.0)),
    ("expm1", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("expm1", complex(1.0, INF), complex(NAN, NAN)),
    ("log1p", complex(-1.0, 0.0), complex(-INF, 0.0)),
    ("log1p", complex(1.0, INF), complex(INF, PI / 2)),
    ("log1p", complex(-INF, 1.0), complex(INF, PI)),
    ("log1p", complex(INF, 1.0), complex(INF, 0.0)),
    ("acos", complex(0.0, 0.0), complex(PI / 2, -0.0)),
    ("acos", complex(-0.0, 0.0), complex(PI / 2, -0.0)),
    ("acos", complex(1.0, INF), complex(PI / 2, -INF)),
    ("acos", complex(-INF, 1.0), complex(PI, -INF)),
    ("acos", complex(INF, 1.0), complex(0.0, -INF)),
    ("acos", complex(-INF, INF), complex(3 * PI / 4, -INF)),
    ("acos", complex(INF, INF), complex(PI / 4, -INF)),
    ("acosh", complex(0.0, 0.0), complex(0.0, PI / 2)),
    ("acosh", complex(1.0, INF), complex(INF, PI / 2)),
    ("acosh", complex(-INF, 1.0), complex(INF, PI)),
    ("acosh", complex(INF, 1.0), complex(INF, 0.0)),
    ("acosh", complex(INF, NAN), complex(INF, NAN)),
    ("asinh", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("asinh", complex(1.0, INF), complex(INF, PI / 2)),
    ("asinh", complex(INF, 1.0), complex(INF, 0.0)),
    ("asinh", complex(INF, INF), complex(INF, PI / 4)),
    ("asinh", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("atanh", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("atanh", complex(0.0, NAN), complex(0.0, NAN)),
    ("atanh", complex(1.0, 0.0), complex(INF, 0.0)),
    ("atanh", complex(1.0, INF), complex(0.0, PI / 2)),
    ("atanh", complex(INF, 1.0), complex(0.0, PI / 2)),
    ("atanh", complex(INF, INF), complex(0.0, PI / 2)),
    ("atanh", complex(INF, NAN), complex(0.0, NAN)),
    ("tanh", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("tanh", complex(INF, 1.0), complex(1.0, 0.0)),
    ("tanh", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("tanh", complex(0.0, INF), complex(0.0, NAN)),
    ("sinh", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("sinh", complex(INF, 0.0), complex(INF, 0.0)),
    ("sinh", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("cosh", complex(0.0, 0.0), complex(1.0, 0.0)),
    ("cosh", complex(INF, 0.0), complex(INF, 0.0)),
    ("sign", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("sign", complex(-0.0, -0.0), complex(0.0, 0.0)),
    ("sign", complex(3.0, -4.0), complex(0.6, -0.8)),
    ("sign", complex(NAN, 1.0), complex(NAN, NAN)),
    ("sign", complex(1.0, NAN), complex(NAN, NAN)),
    ("proj", complex(INF, 1.0), complex(INF, 0.0)),
    ("proj", complex(1.0, -INF), complex(INF, -0.0)),
    ("proj", complex(NAN, INF), complex(INF, 0.0)),
    ("proj", complex(-INF, NAN), complex(INF, 0.0)),
    ("proj", complex(1.0, -2.0), complex(1.0, -2.0)),
]


def _component_ok(g, e, signed_zero=True):
    if math.isnan(e):
        return math.isnan(g)
    if e == 0:
        return g == 0 and (not signed_zero or math.copysign(1, g) == math.copysign(1, e))
    if math.isinf(e):
        return g == e
    return math.isclose(g, e, rel_tol=1e-6, abs_tol=1e-7)


@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"],
                         ids=lambda d: np.dtype(d).name)
def test_complex_special_values(dt):
    bad = []
    for name, z, e in COMPLEX_SPECIAL:
        x = ua.asarray(np.array([z], dtype=dt))
        g = complex(to_host(call(name, x))[0])
        signed = name != "sign"      # the standard's "0 + 0j" for sign(+-0 +-0j) leaves signs open
        if not (_component_ok(g.real, e.real, signed) and _component_ok(g.imag, e.imag, signed)):
            bad.append(f"{name}({z!r}) = {g!r}, expected {e!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"],
                         ids=lambda d: np.dtype(d).name)
def test_complex_branch_cuts(dt):
    """On the negative real axis sqrt and log are continuous from above and
    conjugate-symmetric: x + 0j and x - 0j land on the two sides of the cut."""
    z = np.array([complex(-4, 0.0), complex(-4, -0.0), complex(-1, 0.0), complex(-1, -0.0),
                  complex(-0.25, 0.0), complex(-0.25, -0.0)], dtype=dt)
    x = ua.asarray(z)
    rtol = 1e-6 if dt == ua.complex64 else 1e-14
    s = to_host(ua.sqrt(x))
    np.testing.assert_allclose(s, [2j, -2j, 1j, -1j, 0.5j, -0.5j], rtol=rtol, atol=rtol)
    np.testing.assert_array_equal(np.signbit(s.imag), [False, True] * 3)
    lg = to_host(ua.log(x))
    np.testing.assert_allclose(lg, [complex(math.log(4), PI), complex(math.log(4), -PI),
                                    complex(0, PI), complex(0, -PI),
                                    complex(math.log(0.25), PI), complex(math.log(0.25), -PI)],
                               rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"],
                         ids=lambda d: np.dtype(d).name)
def test_complex_sqrt_is_principal_root(dt):
    """The principal square root never has a negative real part (the exact
    root of a negative real number is purely imaginary, real part +0)."""
    z = np.concatenate([sample((50,), dt, seed=9),
                        np.array([-4, -1, -0.25, -9, -1e-3], dtype=dt),
                        np.array([complex(-2, -0.0), complex(-100, -0.0)], dtype=dt)])
    s = to_host(ua.sqrt(ua.asarray(z)))
    bad = np.signbit(s.real)
    assert not bad.any(), [f"sqrt({a}) = {r}" for a, r in zip(z[bad].tolist(), s[bad].tolist())]


@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"],
                         ids=lambda d: np.dtype(d).name)
def test_complex_classification_and_abs(dt):
    z = np.array([complex(INF, NAN), complex(NAN, INF), complex(NAN, 1), complex(1, NAN),
                  complex(-INF, 0), complex(1, 2), complex(0, -0.0)], dtype=dt)
    x = ua.asarray(z)
    check(ua.isinf(x), [True, True, False, False, True, False, False])
    check(ua.isnan(x), [True, True, True, True, False, False, False])
    check(ua.isfinite(x), [False, False, False, False, False, True, True])
    got = to_host(ua.abs(x))
    assert got.dtype == np.dtype(dt).type(0).real.dtype
    np.testing.assert_array_equal(got[[0, 1, 4]], [INF, INF, INF])
    assert np.isnan(got[2]) and np.isnan(got[3])
    np.testing.assert_allclose(got[5], math.sqrt(5), rtol=1e-6)
    e = z.copy()
    check(ua.equal(x, ua.asarray(e)), [False, False, False, False, True, True, True])
    check(ua.not_equal(x, ua.asarray(e)), [True, True, True, True, False, False, False])


@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"],
                         ids=lambda d: np.dtype(d).name)
def test_complex_round_components(dt):
    z = np.array([complex(0.5, -1.5), complex(2.5, 3.5), complex(-0.5, 0.4),
                  complex(NAN, 1.6)], dtype=dt)
    got = to_host(ua.round(ua.asarray(z)))
    np.testing.assert_array_equal(got.real, [0.0, 2.0, -0.0, NAN])
    np.testing.assert_array_equal(got.imag, [-2.0, 4.0, 0.0, 2.0])
    assert np.signbit(got.real[2])


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
def test_round_half_to_even(dt):
    h = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49, -0.0], dtype=dt)
    got = to_host(ua.round(ua.asarray(h)))
    np.testing.assert_array_equal(got, np.array([0, 2, 2, -0.0, -2, -2, 3, -0.0], dtype=dt))
    assert np.signbit(got[3]) and np.signbit(got[7])


# ================================================================== clip
@pytest.mark.parametrize("dt", [d for d in SUPPORTED_DTYPES if np.dtype(d).kind in "iuf"],
                         ids=lambda d: np.dtype(d).name)
def test_clip_scalars_arrays_none(dt):
    h = sample((4, 6), dt)
    x = ua.asarray(h)
    k = np.dtype(dt).kind
    lo, hi = (2, 50) if k == "u" else (-5, 7)
    for args, exp in [((lo, hi), np.minimum(np.maximum(h, lo), hi)),
                      ((lo, None), np.maximum(h, lo)),
                      ((None, hi), np.minimum(h, hi)),
                      ((None, None), h)]:
        got = ua.clip(x, *args)
        check(got, exp.astype(dt), what=str(args))
        got = ua.clip(x, min=args[0], max=args[1])
        check(got, exp.astype(dt), what=f"keywords {args}")
    # array bounds (same dtype as x), broadcast along rows / columns
    lo_a = sample((1, 6), dt, seed=3)
    hi_a = (lo_a.astype(np.float64) + 20).astype(dt)      # <= 120: fits every dtype
    got = ua.clip(x, ua.asarray(lo_a), ua.asarray(hi_a))
    check(got, np.minimum(np.maximum(h, lo_a), hi_a))
    got = ua.clip(x, None, ua.asarray(hi_a[0]))
    check(got, np.minimum(h, hi_a[0]))
    # on a non-contiguous view
    check(ua.clip(x[::-1, ::2], lo, hi), np.clip(h[::-1, ::2], lo, hi))


def test_clip_none_returns_a_copy():
    h = np.arange(5, dtype=np.float32)
    x = ua.asarray(h)
    r = ua.clip(x)
    check(r, h)
    assert r is not x
    r[0] = 100
    assert to_host(x)[0] == 0


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
def test_clip_nan_propagates(dt):
    h = np.array([np.nan, 1.0, -3.0, 4.0, 0.5, 2.0], dtype=dt)
    lo = np.array([0.0, np.nan, -1.0, 0.0, 0.0, 0.0], dtype=dt)
    hi = np.array([1.0, 3.0, np.nan, 3.0, 1.0, 1.0], dtype=dt)
    got = ua.clip(ua.asarray(h), ua.asarray(lo), ua.asarray(hi))
    check(got, np.array([np.nan, np.nan, np.nan, 3.0, 0.5, 1.0], dtype=dt))
    check(ua.clip(ua.asarray(h), 0.0, 1.0), np.array([np.nan, 1, 0, 1, 0.5, 1], dtype=dt))


def test_clip_result_dtype_is_x_dtype():
    x8 = ua.asarray(np.array([-100, 0, 100], np.int8))
    r = ua.clip(x8, -10, 10)
    assert r.dtype == ua.int8
    check(r, np.array([-10, 0, 10], np.int8))
    xf = ua.asarray(np.array([-2.5, 0.25, 9.0], np.float32))
    r = ua.clip(xf, -1, 1)
    assert r.dtype == ua.float32
    check(r, np.array([-1, 0.25, 1], np.float32))
    r = ua.clip(xf, ua.asarray(np.array(-1.0, np.float32)), 1.5)
    assert r.dtype == ua.float32
    assert r.shape == (3,)


def test_clip_shapes():
    for shape in [(), (0,), (3, 0, 2), (2, 3, 4)]:
        h = sample(shape, np.float32)
        check(ua.clip(ua.asarray(h), -1.0, 1.0), np.clip(h, -1.0, 1.0), what=str(shape))
    hf = np.asfortranarray(sample((4, 5), np.float32))
    got = ua.clip(ua.asarray(hf), -1.0, 1.0)
    check(got, np.clip(hf, -1.0, 1.0))


def test_clip_errors():
    x = ua.asarray(np.arange(4.0, dtype=np.float32))
    with pytest.raises(TypeError):
        ua.clip(np.arange(4.0), 0, 1)


def test_clip_complex():
    # NumPy's (and dpctl.tensor's) lexicographic order of complex values
    h = np.array([1 + 5j, -1 + 0j, 0.5 + 0.5j, 2 - 1j, complex(np.nan, 1)], np.complex64)
    x = ua.asarray(h)
    with np.errstate(invalid="ignore"):
        check(ua.clip(x, 0, 1), np.clip(h, 0, 1))
        check(ua.clip(x, 0.5 + 0j, 1 + 1j), np.clip(h, 0.5 + 0j, 1 + 1j))


# ================================================================== misc
def test_results_are_new_arrays():
    h = np.arange(6, dtype=np.float32)
    x = ua.asarray(h)
    for r in (ua.positive(x), ua.conj(x), ua.real(x), ua.add(x, 0)):
        assert r is not x
        assert r._pointer != x._pointer
    check(x, h)


def test_unary_bool_functions():
    h = np.array([True, False, True])
    x = ua.asarray(h)
    check(ua.logical_not(x), ~h)
    check(ua.bitwise_invert(x), ~h)
    check(ua.logical_xor(x, ua.asarray(h[::-1])), h ^ h[::-1])


_INT_TYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


@pytest.mark.parametrize("name", sorted(n for n, o in ua.elementwise.OP.items()
                                        if o.nin == 2 and o.float_only))
def test_float_only_operations_of_two_integer_types(name):
    """Integer operands of two types into an operation with floating loops
    only: NumPy's result dtype and values (each operand cast on its own)."""
    nf = getattr(np, {"atan2": "arctan2"}.get(name, name))
    h1, h2 = np.array([1, 2, 3, 0]), np.array([3, 1, 2, 1])
    for a in _INT_TYPES:
        for b in _INT_TYPES:
            x, y = h1.astype(a), h2.astype(b)
            with np.errstate(all="ignore"):
                expected = nf(x, y)
            if not device_supports(expected.dtype):
                continue
            check(getattr(ua, name)(ua.asarray(x), ua.asarray(y)), expected, what=f"{a} {b}")


# ---- extreme operands (found by differential fuzzing against NumPy)
_COMPLEX = [d for d in SUPPORTED_DTYPES if np.dtype(d).kind == "c"]


@pytest.mark.parametrize("dt", _COMPLEX, ids=str)
def test_complex_division_does_not_overflow_where_the_quotient_is_finite(dt):
    big = np.finfo(np.float32 if dt == ua.complex64 else np.float64).max
    a = np.array([big + 1j, big * 0.8 + 0j, -big - big * 1j, 1e30 + 1e30j, 3 - 4j], dt)
    b = np.array([3 + 1j, 100 + 0j, 126 + 0j, 1e30 + 1e30j, 0.5 + 2j], dt)
    got = to_host(ua.asarray(a) / ua.asarray(b))
    want = a / b
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.real.dtype).eps)


@pytest.mark.parametrize("dt", _COMPLEX, ids=str)
def test_complex_square_does_not_overflow_its_imaginary_part(dt):
    big = np.finfo(np.float32 if dt == ua.complex64 else np.float64).max
    tiny = np.finfo(np.float32 if dt == ua.complex64 else np.float64).smallest_subnormal
    z = np.array([big + 0.5j, big + 0j, big + tiny * 1j], dt)
    with np.errstate(over="ignore"):
        want = np.square(z)
    got = to_host(ua.square(ua.asarray(z)))
    np.testing.assert_array_equal(got.imag, want.imag)
    assert np.all(np.isinf(got.real))


@pytest.mark.parametrize("dt", _COMPLEX, ids=str)
def test_complex_pow_integer_exponents_and_extremes(dt):
    base = ua.asarray(np.array([2j, 1 + 1j, 0.5 - 0.25j], dt))
    for n in (3, 7, 65, -5, 99):
        got = to_host(base ** n)
        want = np.array([2j, 1 + 1j, 0.5 - 0.25j], dt) ** n
        np.testing.assert_allclose(got, want, rtol=64 * np.finfo(want.real.dtype).eps)
    assert to_host(ua.asarray(np.array([2j], dt)) ** 7)[0].real == 0   # exact, as NumPy's
    r = np.finfo(np.float32 if dt == ua.complex64 else np.float64)
    z = np.array([r.max / 2 + 0j, r.smallest_subnormal * (1 + 1j)], dt)
    w = np.array([1 + 2j, 0.5 + 0.5j], dt)
    with np.errstate(all="ignore"):
        want = z ** w
    got = to_host(ua.asarray(z) ** ua.asarray(w))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=1e-4 if dt == ua.complex64 else 1e-12)


@pytest.mark.parametrize("dt", _COMPLEX, ids=str)
@pytest.mark.parametrize("name", ["sin", "cos", "sinh", "cosh"])
def test_complex_trig_keeps_a_subnormal_part_next_to_a_large_one(dt, name):
    r = np.finfo(np.float32 if dt == ua.complex64 else np.float64)
    y = 100.0 if dt == ua.complex64 else 1000.0
    z = np.array([r.smallest_subnormal + y * 1j, y + r.smallest_subnormal * 1j], dt)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
    got = to_host(getattr(ua, name)(ua.asarray(z)))
    for part in ("real", "imag"):   # (assert_allclose mishandles complex infinities)
        np.testing.assert_allclose(getattr(got, part), getattr(want, part),
                                   rtol=1e-5 if dt == ua.complex64 else 1e-13)


@pytest.mark.parametrize("dt", REAL_DTYPES, ids=REAL_IDS)
def test_float_remainders_of_tiny_exact_multiples(dt):
    """The OpenCL CPU runtime's fmod gave y for exact multiples of a y near
    the smallest normal; fmod, remainder and floor_divide are exact."""
    if dt == ua.float16:
        pytest.skip("float16 is computed in float32")
    f = np.finfo(dt)
    rng = np.random.default_rng(3)
    y = rng.uniform(0, 8 * float(f.tiny), 4000).astype(dt)
    x = (y * rng.integers(1, 9, y.size)).astype(dt)
    y = np.concatenate([y, np.array([f.smallest_subnormal, f.tiny], dt)])
    x = np.concatenate([x, np.array([1, 1], dt)])
    for name in ("fmod", "remainder", "floor_divide"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(x, y)
        got = to_host(getattr(ua, name)(ua.asarray(x), ua.asarray(y)))
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("op", ["iadd", "isub", "imul", "ifloordiv", "imod", "irshift",
                                "ilshift", "ipow", "iand"])
def test_inplace_computes_in_the_result_dtype_as_numpy(op):
    xh = np.array([100, 9, -127, 5], np.int8)
    yh = np.array([256, 257, 300, 3], np.int16)
    x = ua.asarray(xh)
    assert getattr(operator, op)(x, ua.asarray(yh)) is x
    getattr(operator, op)(xh, yh)
    check(x, xh)


def test_inplace_float_into_narrower_float_rounds_once():
    xh = np.array([1.0, 3.0], np.float32)
    yh = np.array([2.0 ** -30, 1e-9])
    x = ua.asarray(xh)
    x += ua.asarray(yh)
    xh += yh
    check(x, xh)


def test_inplace_refusals_in_numpys_order():
    x = ua.asarray(np.array([5, -3], np.int8))
    with pytest.raises(ua.DTypeError):
        x += ua.asarray(np.array([7, 2 ** 64 - 1], np.uint64))   # float64 result
    check(x, np.array([5, -3], np.int8))
    xb = ua.asarray(np.array([True, False]))
    with pytest.raises(OverflowError):
        xb += 2 ** 63                 # the int's range first
    with pytest.raises(TypeError):
        xb **= -1                     # then the cast (int64 into bool)
    with pytest.raises(ValueError):
        x **= -1                      # then the negative power


def test_power_checks_follow_numpy():
    got = ua.asarray(np.array([2, 3], np.uint64)) ** ua.asarray(np.array([2, -1], np.int64))
    check(got, np.array([2, 3], np.uint64) ** np.array([2, -1], np.int64))   # float64
    xu = ua.asarray(np.array([2], np.uint8))
    xi = ua.asarray(np.array([2, -1], np.int8))
    for f in (lambda: xu ** -1, lambda: xi ** -129, lambda: 128 ** xi):
        with pytest.raises(OverflowError):
            f()
    with pytest.raises(ValueError):
        xi ** ua.asarray(np.array([1, -1], np.int8))


@pytest.mark.parametrize("dt", _COMPLEX, ids=str)
def test_complex_exp2_as_numpy(dt):
    z = np.array([0, 1 + 1j, -2.5 + 0.5j, 10 - 3j, 1j, -0.0 - 0.0j], dt)
    got = to_host(ua.exp2(ua.asarray(z)))
    want = np.exp2(z)
    assert got.dtype == want.dtype
    for part in ("real", "imag"):
        np.testing.assert_allclose(getattr(got, part), getattr(want, part),
                                   rtol=1e-5 if dt == ua.complex64 else 1e-13, atol=1e-30)


def test_clip_refuses_bounds_of_a_higher_kind():
    """The result keeps x's dtype (dpctl.tensor's clip): a float bound of an
    integer array, or a complex bound of a real one, is refused, not cast
    (-5.0 into uint8 wrapped to 251)."""
    x = ua.asarray(np.array([3, 200], np.uint8))
    for lo, hi in ((None, -5.0), (0.5, None), (None, ua.asarray([-5.0]))):
        with pytest.raises(ua.DTypeError):
            ua.clip(x, lo, hi)
    xf = ua.asarray(np.array([1.0, 2.0], np.float32))
    with pytest.raises(ua.DTypeError):
        ua.clip(xf, None, ua.asarray(np.array([1.5 + 2j], np.complex64)))
    # NumPy's clip (dispatch) promotes instead
    check(np.clip(x, None, -5.0), np.clip(np.array([3, 200], np.uint8), None, -5.0))


def test_clip_by_a_wider_integer_array_saturates():
    x = ua.asarray(np.array([-100, 0, 100], np.int8))
    r = ua.clip(x, ua.asarray(np.array([-1000, -1000, 500], np.int16)),
                ua.asarray(np.array([-300, 1000, 1000], np.int16)))
    assert r.dtype == ua.int8
    check(r, np.array([-128, 0, 127], np.int8))
