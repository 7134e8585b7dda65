"""Python operators of usm_ndarray: binary, reflected, in-place and unary forms
against NumPy; in-place type and shape rules, read-only and overlapping
operands; operands of other types (NotImplemented, no implicit host/device
mixing); arrays on different queues; truth values of comparisons."""

import operator
import warnings

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import check, to_host, device_supports, sample


# symbol -> (operator function, in-place operator function or None, the
# dtypes the operator accepts: "numeric", "numeric-nobool", "float", "real",
# "intbool", "all")
BINARY_OPS = {
    "+": (operator.add, operator.iadd, "numeric"),
    "-": (operator.sub, operator.isub, "numeric-nobool"),
    "*": (operator.mul, operator.imul, "numeric"),
    "/": (operator.truediv, operator.itruediv, "float"),
    "//": (operator.floordiv, operator.ifloordiv, "real"),
    "%": (operator.mod, operator.imod, "real"),
    "**": (operator.pow, operator.ipow, "numeric"),
    "&": (operator.and_, operator.iand, "intbool"),
    "|": (operator.or_, operator.ior, "intbool"),
    "^": (operator.xor, operator.ixor, "intbool"),
    "<<": (operator.lshift, operator.ilshift, "intbool"),
    ">>": (operator.rshift, operator.irshift, "intbool"),
    "==": (operator.eq, None, "all"),
    "!=": (operator.ne, None, "all"),
    "<": (operator.lt, None, "all"),
    "<=": (operator.le, None, "all"),
    ">": (operator.gt, None, "all"),
    ">=": (operator.ge, None, "all"),
}
INPLACE_OPS = [s for s, v in BINARY_OPS.items() if v[1] is not None]
UNARY_OPS = {
    "-x": (operator.neg, "numeric-nobool"),
    "+x": (operator.pos, "numeric"),
    "abs": (abs, "numeric"),
    "~x": (operator.invert, "intbool"),
}
IDS = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod",
       "**": "pow", "&": "and", "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift",
       "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
       "-x": "neg", "+x": "pos", "abs": "abs", "~x": "invert"}


def accepts(kind, dt):
    k = np.dtype(dt).kind
    return {"numeric": True, "all": True, "float": True, "numeric-nobool": k != "b",
            "real": k != "c", "intbool": k in "biu"}[kind]






def np_apply(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def operands(sym, dt, shape=(4, 5), seed=1):
    """NumPy operands for `a sym b` of dtype `dt`."""
    a = sample(shape, dt, seed)
    b = sample(shape, dt, seed + 1)
    k = np.dtype(dt).kind
    if sym in ("**", "<<", ">>") and k in "iu":
        a = np.abs(a.astype(np.int64)).astype(dt)
        b = (np.abs(b.astype(np.int64)) % 7).astype(dt)
    elif sym == "**" and k in "fc":
        b = (b / 5).astype(dt)
    elif sym in ("//", "%") and k in "iu":
        b.reshape(-1)[::4] = 0
    elif sym in ("==", "!=") and shape:
        b.reshape(-1)[::2] = a.reshape(-1)[::2]     # some equal elements
    return a, b


def dtype_specified(sym, dt):
    """False where the standard leaves the result dtype open and usmarray
    differs from NumPy (integer true division; bool in numeric operators)."""
    k = np.dtype(dt).kind
    if sym == "/" and k in "biu":
        return False
    return True


# ================================================================== binary
@pytest.mark.parametrize("sym", list(BINARY_OPS), ids=IDS.get)
def test_binary_operator(sym, dtype):
    fn, _, kind = BINARY_OPS[sym]
    a, b = operands(sym, dtype)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    if not accepts(kind, dtype):
        with pytest.raises(TypeError):
            fn(x1, x2)
        return
    expected = np_apply(fn, a, b)
    check(fn(x1, x2), expected, dtype_specified(sym, dtype), sym)
    # the operator is the function
    name = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
            "%": "remainder", "**": "pow", "&": "bitwise_and", "|": "bitwise_or",
            "^": "bitwise_xor", "<<": "bitwise_left_shift", ">>": "bitwise_right_shift",
            "==": "equal", "!=": "not_equal", "<": "less", "<=": "less_equal", ">": "greater",
            ">=": "greater_equal"}[sym]
    np.testing.assert_array_equal(to_host(fn(x1, x2)), to_host(getattr(ua, name)(x1, x2)))


@pytest.mark.parametrize("sym", list(BINARY_OPS), ids=IDS.get)
def test_binary_operator_layouts_and_broadcasting(sym):
    fn, _, kind = BINARY_OPS[sym]
    dt = ua.int32 if kind == "intbool" else ua.float32
    a, b = operands(sym, dt, (6, 8))
    x1, x2 = ua.asarray(a), ua.asarray(b)
    cases = [
        ("negative strides", a[::-1, ::-2], b[::-1, ::-2], x1[::-1, ::-2], x2[::-1, ::-2]),
        ("transposes", a.T, b.T, x1.T, x2.T),
        ("row with matrix", a[2], b, x1[2], x2),
        ("column with row", a[:, :1], b[:1, :], x1[:, :1], x2[:1, :]),
        ("0-d with 2-d", a[1, 1, ...], b, x1[1, 1, ...], x2),
        ("zero-size", a[:0], b[:0], x1[:0], x2[:0]),
    ]
    for what, ha, hb, ua1, ua2 in cases:
        check(fn(ua1, ua2), np_apply(fn, ha, hb), True, f"{sym} {what}")


def _scalars(sym, dt):
    k = np.dtype(dt).kind
    if k == "b":
        return [True, False]
    if sym in ("**", "<<", ">>") and k in "iu":
        return [0, 2, 3]
    if k == "u":
        return [0, 1, 7, 2.5]
    if k == "i":
        return [0, 3, -2, 2.5]
    if k == "f":
        return [2, -3, 0.5, 1.5j]
    return [2, -0.5, 1 - 2j]


@pytest.mark.parametrize("sym", list(BINARY_OPS), ids=IDS.get)
def test_operator_with_python_scalars(sym, dtype):
    """x op s and the reflected s op x (e.g. ``1 - x``, ``2 ** x``) against NumPy."""
    fn, _, kind = BINARY_OPS[sym]
    if not accepts(kind, dtype):
        return
    a, _ = operands(sym, dtype, (3, 4))
    x = ua.asarray(a)
    errors = []
    for s in _scalars(sym, dtype):
        for left in (False, True):
            args_np, args_ua = ((s, a), (s, x)) if left else ((a, s), (x, s))
            what = f"{'s ' + sym + ' x' if left else 'x ' + sym + ' s'} with s={s!r}, {dtype}"
            if isinstance(s, complex) and kind == "real":
                try:
                    fn(*args_ua)
                    errors.append(f"{what}: no TypeError")
                except TypeError:
                    pass
                continue
            try:
                expected = np_apply(fn, *args_np)
            except (TypeError, OverflowError) as e:
                try:
                    fn(*args_ua)
                    errors.append(f"{what}: NumPy raises {type(e).__name__}, usmarray does not")
                except (TypeError, OverflowError) as e2:
                    if isinstance(e, OverflowError) != isinstance(e2, OverflowError):
                        errors.append(f"{what}: {type(e2).__name__}, NumPy {type(e).__name__}")
                continue
            check_dtype = not (sym == "/" and np.dtype(dtype).kind in "biu"
                               and not isinstance(s, (float, complex)))
            try:
                check(fn(*args_ua), expected, check_dtype, what)
            except Exception as e:
                errors.append(f"{what}: {type(e).__name__}: {e}")
    assert not errors, "\n".join(errors)


def test_reflected_examples():
    h = np.array([1, 2, 3, 4], dtype=np.int32)
    x = ua.asarray(h)
    check(1 - x, 1 - h)
    check(2 ** x, 2 ** h)
    check(10 // x, 10 // h)
    check(10 % x, 10 % h)
    check(1 << x, 1 << h)
    check(256 >> x, 256 >> h)
    check(6 & x, 6 & h)
    check(6 | x, 6 | h)
    check(6 ^ x, 6 ^ h)
    check(5 * x, 5 * h)
    check(1 / x, 1 / h, check_dtype=False)
    r = 1.5 - x
    assert r.dtype == ua.__array_namespace_info__().default_dtypes()["real floating"]
    check(r, 1.5 - h, check_dtype=False)
    check(2 < x, 2 < h)
    check(2 >= x, 2 >= h)
    check(3 == x, 3 == h)
    f = ua.asarray(h.astype(np.float32))
    check(2.0 ** f, 2.0 ** h.astype(np.float32))
    check(1j - f, 1j - h.astype(np.float32))
    # NumPy scalars on the left defer to usm_ndarray as Python scalars do
    r = np.float32(2) * f
    assert isinstance(r, ua.usm_ndarray)
    check(r, 2 * h.astype(np.float32))
    r = np.int64(7) - x
    assert isinstance(r, ua.usm_ndarray)
    check(r, 7 - h)


def test_reflected_methods_called_directly():
    a = sample((3, 4), np.float32, 1)
    b = sample((3, 4), np.float32, 2)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    check(x1.__rsub__(x2), b - a)
    check(x1.__rtruediv__(x2), b / a)
    check(x1.__rpow__(2), np_apply(np.power, 2, a))
    check(x1.__radd__(1.0), 1.0 + a)


# ================================================================== unary
@pytest.mark.parametrize("sym", list(UNARY_OPS), ids=IDS.get)
def test_unary_operator(sym, dtype):
    fn, kind = UNARY_OPS[sym]
    h = sample((4, 5), dtype)
    x = ua.asarray(h)
    if not accepts(kind, dtype):
        with pytest.raises(TypeError):
            fn(x)
        return
    if np.dtype(dtype).kind == "b" and sym in ("+x", "abs"):
        # bool in numeric operators: dtype left open by the standard
        check(fn(x), fn(h.astype(np.int8)), check_dtype=False)
        return
    check(fn(x), np_apply(fn, h), True, sym)
    check(fn(x[::-1, ::2]), np_apply(fn, h[::-1, ::2]), True, sym + " strided")
    check(fn(x[1, 2, ...]), np_apply(fn, h[1, 2, ...]), True, sym + " 0-d")


def test_abs_of_complex_is_real():
    h = np.array([3 + 4j, -1j, 0], dtype=np.complex64)
    r = abs(ua.asarray(h))
    assert r.dtype == ua.float32
    check(r, np.abs(h))


# ================================================================== in-place
def _inplace_operands(sym, dt):
    a, b = operands(sym, dt, (4, 6))
    return a, b


@pytest.mark.parametrize("sym", INPLACE_OPS, ids=IDS.get)
def test_inplace_operator(sym, dtype):
    fn, ifn, kind = BINARY_OPS[sym]
    a, b = _inplace_operands(sym, dtype)
    x, y = ua.asarray(a), ua.asarray(b)
    if not accepts(kind, dtype):
        with pytest.raises(TypeError):
            ifn(x, y)
        return
    expected = np_apply(fn, a, b)
    if expected.dtype != np.dtype(dtype):
        # the result dtype cannot be cast to x's (int /= int): TypeError
        with pytest.raises(TypeError):
            ifn(x, y)
        check(x, a)
        return
    ptr = x._pointer
    r = ifn(x, y)
    assert r is x
    assert x._pointer == ptr
    check(x, expected, True, sym + "=")
    check(y, b)      # the right operand is not modified


@pytest.mark.parametrize("sym", INPLACE_OPS, ids=IDS.get)
def test_inplace_operator_with_scalar(sym, dtype):
    fn, ifn, kind = BINARY_OPS[sym]
    if not accepts(kind, dtype):
        return
    a, _ = _inplace_operands(sym, dtype)
    k = np.dtype(dtype).kind
    s = True if k == "b" else (2 if k in "iu" else 1.5)
    expected = np_apply(fn, a, s)
    x = ua.asarray(a)
    if expected.dtype != np.dtype(dtype):
        with pytest.raises(TypeError):
            ifn(x, s)
        return
    ptr = x._pointer
    r = ifn(x, s)
    assert r is x and x._pointer == ptr
    check(x, expected, True, f"x {sym}= {s!r}")


@pytest.mark.parametrize("sym", ["+", "*", "-", "//", "**"])
def test_inplace_on_views(sym):
    """In-place on non-contiguous views and Fortran arrays writes through."""
    fn, ifn, _ = BINARY_OPS[sym]
    a, b = operands(sym, np.float32, (6, 8))
    base = ua.asarray(a)
    v = base[::-2, 1::3]
    ifn(v, ua.asarray(b)[::-2, 1::3])
    exp = a.copy()
    exp[::-2, 1::3] = np_apply(fn, a[::-2, 1::3], b[::-2, 1::3])
    check(base, exp, True, "strided view")
    base = ua.asarray(a)
    v = base.T
    ifn(v, 2)
    check(base, np_apply(fn, a, 2), True, "transpose with scalar")
    base = ua.asarray(a)
    v = base[:, ::2]
    ifn(v, 3)                   # scalar into a non-contiguous view
    exp = a.copy()
    exp[:, ::2] = np_apply(fn, a[:, ::2], 3)
    check(base, exp, True, "strided view with scalar")
    hf = np.asfortranarray(a)
    xf = ua.asarray(hf)
    ifn(xf, ua.asarray(b))
    assert xf.flags.f_contiguous
    check(xf, np_apply(fn, a, b), True, "Fortran")


def test_inplace_type_rules():
    xi = ua.asarray(np.arange(5, dtype=np.int32))
    with pytest.raises(TypeError):
        xi += ua.asarray(np.ones(5, np.float64))
    with pytest.raises(TypeError):
        xi += 1.5
    with pytest.raises(TypeError):
        xi /= ua.asarray(np.ones(5, np.int32))
    check(xi, np.arange(5, dtype=np.int32))       # unchanged by the failed operations

    hf = np.linspace(-2, 2, 5).astype(np.float32)
    xf = ua.asarray(hf)
    h8 = np.array([1, -2, 3, -4, 5], np.int8)
    ptr = xf._pointer
    xf += ua.asarray(h8)
    assert xf.dtype == ua.float32 and xf._pointer == ptr
    check(xf, hf + h8)
    xf *= ua.asarray(h8)
    check(xf, (hf + h8) * h8)

    # cast and broadcast together: float32 (3, 4) += int8 (4,)
    h2 = sample((3, 4), np.float32)
    x2 = ua.asarray(h2)
    x2 += ua.asarray(h8[:4])
    check(x2, h2 + h8[:4])
    x2[:, ::2] -= ua.asarray(h8[:1])
    exp = h2 + h8[:4]
    exp[:, ::2] -= h8[:1]
    check(x2, exp)

    x16 = ua.asarray(np.array([100, -200, 300], np.int16))
    x16 += ua.asarray(np.array([1, 2, 3], np.int8))      # int8 promotes to int16
    check(x16, np.array([101, -198, 303], np.int16))
    x16 -= ua.asarray(np.array([1, 2, 3], np.uint8))
    check(x16, np.array([100, -200, 300], np.int16))

    x8 = ua.asarray(np.array([1, 2, 3], np.int8))
    with pytest.raises(OverflowError):
        x8 += 300
    xc = ua.asarray(np.array([1, 2], np.float32))
    with pytest.raises(TypeError):
        xc += 1j
    xb = ua.asarray(np.array([True, False]))
    with pytest.raises(TypeError):
        xb -= True
    xb |= True
    check(xb, np.array([True, True]))


def test_inplace_broadcasting():
    a = sample((3, 4), np.float32)
    row = sample((4,), np.float32, 2)
    x = ua.asarray(a)
    ptr = x._pointer
    x += ua.asarray(row)
    assert x.shape == (3, 4) and x._pointer == ptr
    check(x, a + row)
    x *= ua.asarray(row[:1])             # (1,)
    check(x, (a + row) * row[:1])
    x -= ua.asarray(np.float32(1.0))     # 0-d
    check(x, (a + row) * row[:1] - 1)
    column = sample((3, 1), np.float32, 3)
    x /= ua.asarray(column)              # a column along each row
    check(x, ((a + row) * row[:1] - 1) / column)
    big = sample((50, 700), np.float32, 4)
    xb = ua.asarray(big)[::-1]           # rows reversed, unit stride along them
    xb -= ua.asarray(big[:, :1])[::-1]
    check(xb, big[::-1] - big[::-1, :1])
    # the right operand would make x grow: ValueError, x unchanged
    before = to_host(x)
    y = ua.asarray(sample((2, 3, 4), np.float32))
    with pytest.raises(ValueError):
        x += y
    col = ua.asarray(sample((4,), np.float32))
    x1 = ua.asarray(sample((4,), np.float32))
    with pytest.raises(ValueError):
        x1 += ua.asarray(sample((3, 4), np.float32))
    with pytest.raises(ValueError):
        x += ua.asarray(sample((3, 5), np.float32))
    check(x, before)
    assert col.shape == (4,)


def test_inplace_read_only():
    h = np.arange(6, dtype=np.float32)
    x = ua.asarray(h)
    x.flags.writable = False
    with pytest.raises(ValueError):
        x += 1
    with pytest.raises(ValueError):
        x *= ua.asarray(h)
    v = x[::2]
    with pytest.raises(ValueError):
        v -= 1
    check(x, h)
    # operators that create new arrays still work on read-only arrays
    check(x + 1, h + 1)


@pytest.mark.parametrize("dt", [ua.int32, ua.float32, ua.float64, ua.complex64],
                         ids=lambda d: np.dtype(d).name)
def test_inplace_overlapping(dt):
    if not device_supports(dt):
        pytest.skip(f"device has no {dt}")
    h = sample((12,), dt)
    cases = [
        ("x[1:] += x[:-1]", lambda x: x[1:].__iadd__(x[:-1])),
        ("x[:-1] += x[1:]", lambda x: x[:-1].__iadd__(x[1:])),
        ("x += x[::-1]", lambda x: x.__iadd__(x[::-1])),
        ("x[2:] -= x[:-2]", lambda x: x[2:].__isub__(x[:-2])),
        ("x *= x", lambda x: x.__imul__(x)),
        ("x[::2] += x[1::2]", lambda x: x[::2].__iadd__(x[1::2])),
        ("x[3:9] *= x[::-2]", lambda x: x[3:9].__imul__(x[::-2])),
    ]
    for what, op in cases:
        expected = h.copy()
        with np.errstate(all="ignore"):
            op(expected)              # NumPy: as if the right operand were copied first
        x = ua.asarray(h)
        op(x)
        check(x, expected, True, what)
    # 2-D: in-place with the transpose of itself
    h2 = sample((5, 5), dt)
    x2 = ua.asarray(h2)
    x2 += x2.T
    check(x2, h2 + h2.T, True, "x += x.T")
    x2 = ua.asarray(h2)
    x2 += x2[0]                   # a row of x broadcast over x
    check(x2, h2 + h2[0], True, "x += x[0]")
    x2 = ua.asarray(h2)
    x2 *= x2[:, 2:3]              # a column of x broadcast over x
    check(x2, h2 * h2[:, 2:3], True, "x *= x[:, 2:3]")
    x2 = ua.asarray(h2)
    x2 -= x2[1, 1, ...]           # a 0-d view of x
    check(x2, h2 - h2[1, 1], True, "x -= x[1, 1]")
    x2 = ua.asarray(h2)
    x2[1:, 1:] -= x2[:-1, :-1]
    exp = h2.copy()
    exp[1:, 1:] -= h2[:-1, :-1]
    check(x2, exp, True, "x[1:, 1:] -= x[:-1, :-1]")


def test_inplace_integer_corner_cases():
    info = np.iinfo(np.int32)
    h = np.array([7, -7, info.min, 0], np.int32)
    x = ua.asarray(h)
    x //= ua.asarray(np.zeros(4, np.int32))
    check(x, np.zeros(4, np.int32))
    x = ua.asarray(h)
    x %= 0
    check(x, np.zeros(4, np.int32))
    x = ua.asarray(h)
    x //= -1
    with np.errstate(all="ignore"):
        check(x, h // np.int32(-1))
    x = ua.asarray(h)
    x <<= 40
    check(x, np.zeros(4, np.int32))
    x = ua.asarray(h)
    x >>= 40
    check(x, np.where(h < 0, -1, 0).astype(np.int32))
    x = ua.asarray(np.array([2, 3], np.uint8))
    x **= 9
    check(x, np.array([2, 3], np.uint8) ** np.uint8(9))


# ================================================================== other operand types
@pytest.mark.parametrize("other", [None, "abc", object()], ids=repr)
def test_comparison_with_unsupported_types(other):
    x = ua.asarray(np.arange(3, dtype=np.float32))
    assert x.__eq__(other) is NotImplemented
    assert x.__ne__(other) is NotImplemented
    assert x.__lt__(other) is NotImplemented
    assert x.__add__(other) is NotImplemented
    assert x.__radd__(other) is NotImplemented
    # Python's fallback: identity comparison for == and !=, TypeError for ordering
    assert (x == other) is False
    assert (x != other) is True
    with pytest.raises(TypeError):
        x < other
    with pytest.raises(TypeError):
        x + other
    with pytest.raises(TypeError):
        other - x


@pytest.mark.parametrize("other", [[1, 2, 3], (1, 2, 3)], ids=repr)
def test_host_sequences_say_how_to_move_them(other):
    """A list or tuple is host data next to the array: the TypeError says to
    use ua.asarray, as np.add(x, list) does; == and != keep Python's identity
    fallback (``x in [a, b]``)."""
    x = ua.asarray(np.arange(3, dtype=np.float32))
    for f in (lambda: x + other, lambda: other - x, lambda: x < other, lambda: x * other):
        with pytest.raises(TypeError, match=r"ua\.asarray"):
            f()
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        y = ua.asarray(np.arange(3, dtype=np.float32))
        y += other
    assert x.__eq__(other) is NotImplemented and (x == other) is False and (x != other) is True


def test_inplace_with_unsupported_type():
    x = ua.asarray(np.arange(3, dtype=np.float32))
    assert x.__iadd__("abc") is NotImplemented
    with pytest.raises(TypeError):
        x += "abc"
    with pytest.raises(TypeError):
        x += None


def test_no_implicit_host_device_mixing():
    x = ua.asarray(np.arange(3, dtype=np.float64 if device_supports(ua.float64) else np.float32))
    h = np.ones(3)
    with pytest.raises(TypeError):
        h + x
    with pytest.raises(TypeError):
        x + h
    with pytest.raises(TypeError):
        x * h
    with pytest.raises(TypeError):
        h - x
    with pytest.raises(TypeError):
        x += h
    with pytest.raises(TypeError):
        h += x
    with pytest.raises(TypeError):
        x < h


def test_hash_is_disabled():
    with pytest.raises(TypeError):
        hash(ua.asarray(np.arange(3)))


# ================================================================== queues
def test_arrays_on_different_queues():
    assert issubclass(ua.ExecutionPlacementError, ValueError)
    dev = ua.get_default_queue().sycl_device
    q2 = dpctl.SyclQueue(dev)
    h = np.arange(4, dtype=np.float32)
    x1 = ua.asarray(h)
    x2 = ua.asarray(h, sycl_queue=q2)
    assert x2.sycl_queue == q2
    for fn in (operator.add, operator.mul, operator.eq, operator.lt, ua.subtract, ua.atan2):
        with pytest.raises(ua.ExecutionPlacementError):
            fn(x1, x2)
        with pytest.raises(ua.ExecutionPlacementError):
            fn(x2, x1)
    with pytest.raises(ua.ExecutionPlacementError):
        x1 += x2
    check(x1, h)
    # arrays of the same second queue combine, and scalars are fine
    check(x2 + x2, h + h)
    check(x2 * 2, h * 2)
    assert (x2 + x2).sycl_queue == q2


# ================================================================== truth values
def test_bool_of_comparisons():
    x = ua.asarray(np.int32(3))
    y = ua.asarray(np.int32(3))
    z = ua.asarray(np.int32(4))
    assert bool(x == y) is True
    assert bool(x == z) is False
    assert bool(x < z) is True
    assert bool(x != y) is False
    x0, y0 = ua.asarray(np.float32(1.5)), ua.asarray(np.float32(1.5))
    assert x0.ndim == 0
    assert bool(x0 == y0) is True
    assert bool(x0 > y0) is False
    assert bool(x0 == 1.5) and not bool(x0 == 2)
    if x0 == y0:
        pass
    else:
        pytest.fail("0-d comparison is falsy")
    with pytest.raises(TypeError):     # only 0-d arrays convert (dpctl.tensor's rule)
        bool(ua.asarray(np.ones((1, 1), np.float32)) == 1.0)
    big = ua.asarray(np.arange(3))
    with pytest.raises(ValueError):
        bool(big == big)
    nan = ua.asarray(np.float32(np.nan))
    assert bool(nan == nan) is False
    assert bool(nan != nan) is True


@pytest.mark.parametrize("dt", ["int8", "uint16", "int64", "float32", "float64", "complex64"])
def test_power_of_two_is_square(dt, variant):
    # NumPy's fast path for a Python scalar exponent 2: x * x, in x's dtype
    h = np.array([-3, -1, 0, 1, 2, 7, 11], dtype=dt) if dt[0] != "u" else \
        np.array([0, 1, 2, 7, 255, 300], dtype=dt)
    x = ua.asarray(h)
    with np.errstate(over="ignore"):
        expected = h * h
    for r in (x ** 2, ua.pow(x, 2)) + ((x ** 2.0,) if h.dtype.kind in "fc" else ()):
        assert r.dtype == expected.dtype
        np.testing.assert_array_equal(ua.asnumpy(r), expected)
    f = ua.asarray(np.array([-0.0, np.inf, -np.inf, np.nan], np.float32))
    np.testing.assert_array_equal(ua.asnumpy(f ** 2), np.array([0.0, np.inf, np.inf, np.nan],
                                                               np.float32))


def test_integer_array_to_a_float_power_of_two_is_float64():
    # x ** 2 squares in x's dtype; x ** 2.0 of integers is float64, as
    # NumPy (the square shortcut kept int8 and wrapped), fused too
    h = np.array([1, 2, 100], dtype=np.int8)
    x = ua.asarray(h)
    for r in (x ** 2.0, ua.pow(x, 2.0), ua.fuse()(lambda a: a ** 2.0)(x)):
        assert r.dtype == ua.float64
        np.testing.assert_array_equal(ua.asnumpy(r), h.astype(np.float64) ** 2.0)
    assert (x ** 2).dtype == ua.int8
    f = ua.asarray([1.5, -2.0], dtype=ua.float32)
    assert (f ** 2.0).dtype == ua.float32
    np.testing.assert_array_equal(ua.asnumpy(f ** 2.0), np.array([2.25, 4.0], np.float32))


@pytest.mark.parametrize("dt", ["uint8", "int8", "uint64", "int64"])
def test_comparisons_with_ints_beyond_the_dtype(dt):
    # NumPy 2: every item compares alike with a Python int out of the
    # dtype's range (arithmetic with it still raises)
    info = np.iinfo(dt)
    h = np.array([info.min, 0, info.max], dtype=dt)
    x = ua.asarray(h)
    for s in (info.max + 1, info.min - 1, 2**70, -2**70):
        for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
            np.testing.assert_array_equal(ua.asnumpy(op(x, s)), op(h, s))
            np.testing.assert_array_equal(ua.asnumpy(op(s, x)), op(s, h))
        np.testing.assert_array_equal(ua.asnumpy(ua.less(x, s)), np.less(h, s))
    out = ua.ones(3, dtype=ua.bool)
    ua.equal(x, info.max + 1, out=out)
    np.testing.assert_array_equal(ua.asnumpy(out), [False] * 3)
    with pytest.raises(OverflowError):
        x + (info.max + 1)


def test_empty_integer_arrays_to_negative_powers():
    # no power is computed: nothing to refuse (NumPy)
    assert (ua.asarray(np.zeros(0, np.int64)) ** -1).shape == (0,)
    with pytest.raises(ValueError):
        ua.asarray(np.ones(2, np.int64)) ** -1


@pytest.mark.parametrize("dt", ["int16", "int64", "uint8", "float32", "float64"])
def test_divmod_builtin(dt):
    """Python's divmod of arrays, either side, as NumPy's arrays give it."""
    h = np.array([7, 5, 0, 9, 100], dt)
    d = np.array([2, 3, 7, 4, 9], dt)
    x, y = ua.asarray(h), ua.asarray(d)
    for got, expected in ((divmod(x, y), divmod(h, d)), (divmod(x, 3), divmod(h, 3)),
                          (divmod(11, y), divmod(11, d))):
        assert len(got) == 2
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype
            np.testing.assert_array_equal(ua.asnumpy(g), e)
