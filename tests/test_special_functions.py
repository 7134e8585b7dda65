"""frexp, ldexp, bitwise_count, i0, isposinf, isneginf and fix
(usmarray/special.py) against NumPy: every dtype each accepts (result dtypes
exactly NumPy's), special values (signed zeros, infinities, NaN, subnormals,
the largest finite values, integer extremes), exponents that overflow and
underflow, broadcasting, odd layouts, 0-d and 0-size inputs, the errors
NumPy raises, and NumPy's dispatch (``np.frexp(usm_ndarray)``, ``out=``)."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, refused_like_numpy, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F16 = device_supports(ua.float16)
HAS_F64 = device_supports(ua.float64)
FLOATS = [d for d, ok in (("float16", HAS_F16), ("float32", True), ("float64", HAS_F64)) if ok]
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
REAL = ["bool"] + INTS + FLOATS
COMPLEX = ["complex64"] + (["complex128"] if HAS_F64 else [])
EXPONENT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64"]


def _loop_dtype(dt):
    """The float type NumPy computes frexp/ldexp in for `dt` (as for sqrt)."""
    return np.sqrt(np.zeros(1, dt)).dtype


def _needs(dt):
    if not device_supports(_loop_dtype(dt)):
        pytest.skip(f"the device lacks {_loop_dtype(dt)}, the type NumPy computes {dt} in")


def _exact(got, expected, what=""):
    """Bit-exact comparison (frexp/ldexp are exact): dtype, shape, values,
    NaNs where NumPy's are and the signs of zeros."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (what, type(got))
        for g, e in zip(got, expected):
            _exact(g, e, what)
        return
    assert isinstance(got, ua.usm_ndarray), (what, type(got))
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    assert got.dtype == expected.dtype, (what, got.dtype, expected.dtype)
    g = ua.asnumpy(got)
    np.testing.assert_array_equal(g, expected, err_msg=str(what))
    if g.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(g), np.signbit(expected), err_msg=str(what))


def _special(dt):
    """Values of float dtype `dt` that exercise every branch: signed zeros,
    infinities, NaN, the largest finite values, the smallest normal and
    subnormal values, ordinary numbers."""
    fi = np.finfo(dt)
    return np.array([0.0, -0.0, 1.0, -1.5, 0.75, 3.25, 1e4, -12345.678, np.inf, -np.inf, np.nan,
                     -np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny, fi.smallest_subnormal,
                     -fi.smallest_subnormal, fi.tiny / 3, fi.tiny * 0.75, 1 - fi.epsneg,
                     1 + fi.eps], dtype=np.float64 if dt != "float16" else np.float32).astype(dt)


def _values(dt):
    """Each dtype's interesting values: specials for floats, the extremes for integers."""
    if np.dtype(dt).kind == "f":
        return _special(dt)
    if dt == "bool":
        return np.array([True, False, True, False, True])
    ii = np.iinfo(dt)
    return np.array([0, 1, 3, 100, ii.max, ii.max - 1, ii.min, ii.min + 1, ii.max // 3], dtype=dt)


# ================================================================= frexp
@pytest.mark.parametrize("dt", REAL)
def test_frexp_dtypes_and_special_values(dt):
    _needs(dt)
    h = _values(dt)
    x = ua.asarray(h)
    expected = np.frexp(h)
    assert expected[0].dtype == _loop_dtype(dt) and expected[1].dtype == np.int32
    _exact(ua.frexp(x), expected, dt)
    _exact(np.frexp(x), expected, f"np.frexp {dt}")


@pytest.mark.parametrize("dt", FLOATS)
def test_frexp_every_binade(dt):
    """Every power of two of the type (normal and subnormal), and its neighbours."""
    fi = np.finfo(dt)
    e = np.arange(fi.minexp - fi.nmant, fi.maxexp, dtype=np.float64)
    p = np.ldexp(np.ones_like(e), e.astype(np.int32)).astype(dt)
    up, down = np.nextafter(p, np.array(np.inf, dt)), np.nextafter(p, np.array(0, dt))
    h = np.concatenate([p, up, -down])
    _exact(ua.frexp(ua.asarray(h)), np.frexp(h), dt)


@pytest.mark.parametrize("dt", ["float32"] + (["float64"] if HAS_F64 else []))
def test_frexp_random_roundtrip(dt):
    rng = np.random.default_rng(7)
    h = (rng.standard_normal(257) * 10.0 ** rng.integers(-30, 30, 257)).astype(dt)
    m, e = ua.frexp(ua.asarray(h))
    _exact((m, e), np.frexp(h), dt)
    _exact(ua.ldexp(m, e), h, "ldexp(frexp(x)) == x")


def test_frexp_layouts():
    h = sample((4, 6), "float32", seed=1) * 1e3
    x = ua.asarray(h)
    for key in [(slice(None, None, -1), slice(None, None, -2)), (slice(1, None, 2), 3),
                (Ellipsis, slice(None, None, -1))]:
        _exact(ua.frexp(x[key]), np.frexp(h[key]), key)
    _exact(ua.frexp(x.T), np.frexp(h.T), "T")
    # 0-d and 0-size
    _exact(ua.frexp(ua.asarray(np.float32(-6.0))), np.frexp(np.array(np.float32(-6.0))), "0-d")
    for dt in ["float32", "int8", "bool"]:
        e = np.empty((0, 3), dt)
        _exact(ua.frexp(ua.asarray(e)), np.frexp(e), f"0-size {dt}")


@pytest.mark.parametrize("dt", COMPLEX)
def test_frexp_refuses_complex(dt):
    x = ua.asarray(np.array([1 + 2j], dt))
    with pytest.raises(TypeError):
        np.frexp(np.array([1 + 2j], dt))
    with pytest.raises(TypeError):
        ua.frexp(x)
    with pytest.raises(TypeError):
        np.frexp(x)


def test_frexp_out_tuple():
    h = np.array([1.5, -4.0, 0.0, 3e-300])
    x = ua.asarray(h)
    m, e = ua.empty(4), ua.empty(4, dtype=ua.int32)
    r = np.frexp(x, out=(m, e))
    assert r[0] is m and r[1] is e
    _exact((m, e), np.frexp(h))



# ================================================================= ldexp
@pytest.mark.parametrize("dt", REAL)
@pytest.mark.parametrize("edt", EXPONENT_DTYPES)
def test_ldexp_dtypes(dt, edt):
    """x1 of every real dtype, x2 of every integer dtype NumPy accepts; the
    exponents overflow, underflow (to subnormals and to zero) and are 0."""
    _needs(dt)
    h = _values(dt)
    rng = np.random.default_rng(3)
    if edt == "bool":
        n = rng.integers(0, 2, h.size).astype(bool)
    else:
        ii = np.iinfo(edt)
        pool = np.array([0, 1, 2, 5, 60, -1, -3, -30, -200, 127, -128, 1100, -1100, 20000, -20000])
        pool = pool[(pool >= ii.min) & (pool <= ii.max)]
        n = rng.choice(pool, h.size).astype(edt)
        n[:2] = [ii.max, ii.min]
    expected = np.ldexp(h, n)
    assert expected.dtype == _loop_dtype(dt)
    _exact(ua.ldexp(ua.asarray(h), ua.asarray(n)), expected, (dt, edt))
    _exact(np.ldexp(ua.asarray(h), ua.asarray(n)), expected, ("np.ldexp", dt, edt))


@pytest.mark.parametrize("dt", FLOATS)
def test_ldexp_overflow_underflow_subnormal(dt):
    """Results rounded once into the subnormals, the exact overflow
    threshold, signs kept by zeros and infinities."""
    fi = np.finfo(dt)
    h = np.array([1.0, -1.0, 1.5, -1.75, 0.75, 1 + fi.eps, 1 - fi.epsneg, 3.0], dt)
    for k in [fi.maxexp - 1, fi.maxexp, fi.maxexp + 1, fi.minexp, fi.minexp - 1,
              fi.minexp - fi.nmant, fi.minexp - fi.nmant - 1, fi.minexp - fi.nmant - 2,
              fi.minexp - 3, 2 * fi.maxexp, -2 * fi.maxexp]:
        n = np.full(h.shape, k, np.int32)
        _exact(ua.ldexp(ua.asarray(h), ua.asarray(n)), np.ldexp(h, n), (dt, k))
    # the largest value's exponent up and down by one
    m = np.array([fi.max, -fi.max, fi.smallest_subnormal, -fi.smallest_subnormal], dt)
    for k in (1, -1, -fi.nmant - 1, fi.nmant):
        n = np.full(m.shape, k, np.int16)
        _exact(ua.ldexp(ua.asarray(m), ua.asarray(n)), np.ldexp(m, n), (dt, "extremes", k))


@pytest.mark.parametrize("dt", ["float32", "int16"])
@pytest.mark.parametrize("n", [0, 3, 1000, 2000, True, False, np.int32(5), np.uint8(7),
                               np.uint32(40), np.bool_(True)])
def test_ldexp_scalar_exponent(dt, n):
    h = _values(dt)
    x = ua.asarray(h)
    expected = np.ldexp(h, n)
    _exact(ua.ldexp(x, n), expected, (dt, n))
    _exact(np.ldexp(x, n), expected, ("np.ldexp", dt, n))


@pytest.mark.parametrize("n", [-1, -3, -1000, np.int64(-2), np.int8(-1)])
def test_ldexp_negative_scalar_exponent(n):
    h = np.array([1.0, 3.0, -0.5, np.inf, 0.0], np.float32)
    x = ua.asarray(h)
    _exact(ua.ldexp(x, n), np.ldexp(h, n), n)
    _exact(np.ldexp(x, n), np.ldexp(h, n), ("np.ldexp", n))


@pytest.mark.parametrize("n", [2**63, 2**70, -2**63 - 1, -2**70])
def test_ldexp_huge_python_exponent_clamps(n):
    """(usmarray clamps Python ints NumPy refuses with OverflowError: the
    result is x * 2**(+-huge), an infinity or a zero of x's sign.)"""
    h = np.array([1.0, -2.0, 0.0, np.inf, np.nan])
    expected = np.ldexp(h, 4000 if n > 0 else -4000)
    _exact(ua.ldexp(ua.asarray(h), n), expected, n)


def test_ldexp_large_in_range_python_exponent():
    h = np.array([1.0, -2.0, 0.0, np.inf, np.nan, 5e-324])
    for n in [10**6, 2**31, 2**62]:
        _exact(ua.ldexp(ua.asarray(h), n), np.ldexp(h, 4000), n)


@pytest.mark.parametrize("x1, dt", [(3, "float16"), (True, "float16"), (2.5, "float64"),
                                    (np.float32(1.5), "float32"), (np.int8(3), "float16"),
                                    (np.int32(3), "float64"), (np.float16(0.5), "float16")])
def test_ldexp_scalar_mantissa(x1, dt):
    """A Python int takes NumPy's first loop (float16), a Python float the
    default float type (NEP 50), NumPy scalars their own type's loop."""
    if not device_supports(np.dtype(dt)):
        pytest.skip("device lacks the dtype")
    n = np.array([[1, -2, 3], [0, 5, -7]], np.int32)
    expected = np.ldexp(x1, n)
    assert expected.dtype == dt
    _exact(ua.ldexp(x1, ua.asarray(n)), expected, x1)
    _exact(np.ldexp(x1, ua.asarray(n)), expected, ("np.ldexp", x1))


def test_ldexp_broadcasting_and_layouts():
    h = sample((4, 6), "float64", seed=2)
    n = (np.arange(24).reshape(4, 6) % 11 - 5).astype(np.int16)
    x, k = ua.asarray(h), ua.asarray(n)
    _exact(ua.ldexp(x[::-1, ::-2], k[::-1, 1::2]), np.ldexp(h[::-1, ::-2], n[::-1, 1::2]), "neg")
    _exact(ua.ldexp(x[::2, ::-2], k[1::2, :1]), np.ldexp(h[::2, ::-2], n[1::2, :1]), "bcast")
    _exact(ua.ldexp(x, k[1]), np.ldexp(h, n[1]), "row")
    _exact(ua.ldexp(x[:, :1], k[0]), np.ldexp(h[:, :1], n[0]), "outer")
    _exact(ua.ldexp(x.T, k.T[::-1]), np.ldexp(h.T, n.T[::-1]), "T")
    _exact(ua.ldexp(x[0, 0], k), np.ldexp(h[0, 0], n), "0-d x")
    _exact(ua.ldexp(ua.asarray(np.float32(3)), 2), np.ldexp(np.array(np.float32(3)), 2), "0-d")
    e = np.empty((0, 6))
    _exact(ua.ldexp(ua.asarray(e), k[0]), np.ldexp(e, n[0]), "0-size")
    with pytest.raises(ValueError):
        ua.ldexp(x, k[:, :5])


def test_ldexp_out():
    h = np.arange(6.0).reshape(2, 3)
    n = np.array([[1], [-1]], np.int8)
    o = ua.empty((2, 3))
    r = np.ldexp(ua.asarray(h), ua.asarray(n), out=o)
    assert r is o
    _exact(o, np.ldexp(h, n))
    o32 = ua.empty((2, 3), dtype=ua.float32)   # (same_kind: float64 into float32)
    np.ldexp(ua.asarray(h), ua.asarray(n), out=o32)
    _exact(o32, np.ldexp(h, n).astype(np.float32))


@pytest.mark.parametrize("bad", ["float32", "float64", "uint64", "complex64"])
def test_ldexp_refuses_exponent_dtypes(bad):
    h = np.array([1.0, 2.0])
    n = np.ones(2, bad)
    with pytest.raises(TypeError):
        np.ldexp(h, n)
    with pytest.raises(TypeError):
        ua.ldexp(ua.asarray(h), ua.asarray(n))
    with pytest.raises(TypeError):
        np.ldexp(ua.asarray(h), ua.asarray(n))


@pytest.mark.parametrize("bad", [2.0, np.float32(1.0), np.uint64(1), 1j])
def test_ldexp_refuses_scalar_exponents(bad):
    h = np.array([1.0, 2.0])
    with pytest.raises(TypeError):
        np.ldexp(h, bad)
    with pytest.raises(TypeError):
        ua.ldexp(ua.asarray(h), bad)
    with pytest.raises(TypeError):
        np.ldexp(ua.asarray(h), bad)


@pytest.mark.parametrize("dt", COMPLEX)
def test_ldexp_refuses_complex_mantissa(dt):
    n = ua.asarray(np.array([1, 2], np.int32))
    with pytest.raises(TypeError):
        np.ldexp(np.ones(2, dt), np.array([1, 2], np.int32))
    with pytest.raises(TypeError):
        ua.ldexp(ua.asarray(np.ones(2, dt)), n)
    with pytest.raises(TypeError):
        ua.ldexp(1 + 2j, n)
    with pytest.raises(TypeError):
        np.ldexp(1 + 2j, n)


# ================================================================= bitwise_count
@pytest.mark.parametrize("dt", ["bool"] + INTS)
def test_bitwise_count(dt):
    h = _values(dt)
    if dt != "bool":
        rng = np.random.default_rng(5)
        ii = np.iinfo(dt)
        h = np.concatenate([h, rng.integers(ii.min, ii.max, 40, dtype=dt, endpoint=True)])
    x = ua.asarray(h)
    expected = np.bitwise_count(h)
    assert expected.dtype == np.uint8
    _exact(ua.bitwise_count(x), expected, dt)
    _exact(np.bitwise_count(x), expected, f"np {dt}")
    _exact(ua.bitwise_count(x[::-3]), np.bitwise_count(h[::-3]), f"strided {dt}")
    _exact(ua.bitwise_count(x[:0]), np.bitwise_count(h[:0]), f"0-size {dt}")
    _exact(ua.bitwise_count(x[1]), np.bitwise_count(np.asarray(h[1])), f"0-d {dt}")
    m = np.resize(h, 12).reshape(3, 4)
    _exact(ua.bitwise_count(ua.asarray(m).T[::-1]), np.bitwise_count(m.T[::-1]), f"2-d {dt}")


def test_bitwise_count_out():
    h = np.array([1, 255, 7, 0], np.uint8)
    o = ua.empty(4, dtype=ua.uint8)
    assert np.bitwise_count(ua.asarray(h), out=o) is o
    _exact(o, np.bitwise_count(h))
    o = ua.empty(4, dtype=ua.int32)
    np.bitwise_count(ua.asarray(h), out=o)
    _exact(o, np.bitwise_count(h).astype(np.int32))


@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
def test_bitwise_count_refuses_inexact(dt):
    h = np.ones(2, dt)
    refused_like_numpy("bitwise_count", h)


# ================================================================= i0
def _i0_expected(h):
    """NumPy's i0 (float16 as usmarray computes it, in float32); +-inf -> inf."""
    h = np.asarray(h)
    e = np.i0(h.astype(np.float32)).astype(np.float16) if h.dtype == np.float16 else np.i0(h)
    return np.where(np.isinf(h), np.inf, e).astype(e.dtype)


_I0_POINTS = [0.0, -0.0, 1e-30, 0.1, -1.0, 2.5, 5.0, 10.0, 11.0, 11.5, -11.9, 12.0, 20.0, 29.9,
              30.0, 30.1, 31.0, 50.0, 85.0, 88.0, 88.7, 89.0, 100.0, 300.0, 700.0, 709.0, 710.0,
              1000.0, np.nan, np.inf, -np.inf]


@pytest.mark.parametrize("dt", FLOATS)
def test_i0_floats(dt):
    h = np.array(_I0_POINTS).astype(dt)
    rng = np.random.default_rng(11)
    lim = {"float16": 11.0, "float32": 88.0, "float64": 700.0}[dt]
    h = np.concatenate([h, rng.uniform(-lim, lim, 64).astype(dt),
                        rng.uniform(-35, 35, 64).astype(dt)])
    x = ua.asarray(h)
    expected = _i0_expected(h)
    check(ua.i0(x), expected, what=dt)
    check(np.i0(x), expected, what=f"np.i0 {dt}")
    g = ua.asnumpy(ua.i0(x))
    np.testing.assert_array_equal(np.isinf(g), np.isinf(expected))


def test_i0_float64_accuracy_in_ulp():
    """Against the exact value (mpmath): 1 ulp up to |x| = 60 (the
    double-double power series; plain steps reached 11 ulp), 5 beyond."""
    if "float64" not in FLOATS:
        pytest.skip("no fp64")
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    h = np.concatenate([np.linspace(-60, 60, 1201), np.linspace(60, 705, 130)])
    exact = np.array([float(mpmath.besseli(0, mpmath.mpf(float(v)))) for v in h])
    ulps = np.abs(ua.asnumpy(ua.i0(ua.asarray(h))) - exact) / np.spacing(exact)
    inner = np.abs(h) <= 60
    assert ulps[inner].max() <= 1, h[inner][np.argmax(ulps[inner])]
    assert ulps[~inner].max() <= 5, h[~inner][np.argmax(ulps[~inner])]


@pytest.mark.parametrize("dt", ["bool"] + INTS)
def test_i0_integers_give_default_float(dt):
    h = np.array([0, 1, 2, 5, 30, 100]).astype(dt) if dt != "bool" else np.array([True, False])
    expected = np.i0(h)
    x = ua.asarray(h)
    check(ua.i0(x), expected, what=dt)
    check(np.i0(x), expected, what=f"np.i0 {dt}")


def test_i0_inf_is_inf():
    """(NumPy's i0 gives NaN at +-inf; usmarray's the limit, inf.)"""
    g = ua.asnumpy(ua.i0(ua.asarray([np.inf, -np.inf])))
    np.testing.assert_array_equal(g, [np.inf, np.inf])


def test_i0_layouts():
    h = sample((5, 4), "float32", seed=4)
    x = ua.asarray(h)
    check(ua.i0(x[::-2, ::-1]), _i0_expected(h[::-2, ::-1]))
    check(ua.i0(x.T), _i0_expected(h.T))
    check(ua.i0(x[1, 2]), _i0_expected(h[1, 2]), what="0-d")
    check(ua.i0(x[:0]), _i0_expected(h[:0]), what="0-size")


@pytest.mark.parametrize("dt", COMPLEX)
def test_i0_refuses_complex(dt):
    h = np.ones(2, dt)
    refused_like_numpy("i0", h)


# ================================================================= isposinf, isneginf, fix
@pytest.mark.parametrize("name", ["isposinf", "isneginf", "fix"])
@pytest.mark.parametrize("dt", REAL)
def test_isposinf_isneginf_fix(name, dt):
    if np.dtype(dt).kind == "f":
        h = np.concatenate([_special(dt), np.array([0.5, -0.5, 2.5, -2.5, 7.999, -7.999], dt)])
    else:
        h = _values(dt)
    x = ua.asarray(h)
    expected = getattr(np, name)(h)
    _exact(getattr(ua, name)(x), expected, (name, dt))
    _exact(getattr(np, name)(x), expected, (f"np.{name}", dt))
    _exact(getattr(ua, name)(x[::-2]), getattr(np, name)(h[::-2]), (name, dt, "strided"))
    _exact(getattr(ua, name)(x[:0]), getattr(np, name)(h[:0]), (name, dt, "0-size"))
    _exact(getattr(ua, name)(x[3]), getattr(np, name)(np.asarray(h[3])), (name, dt, "0-d"))
    # out=, positional and keyword, through NumPy too
    o_dt = expected.dtype
    for call in (lambda o: getattr(ua, name)(x, o), lambda o: getattr(ua, name)(x, out=o),
                 lambda o: getattr(np, name)(x, out=o)):
        o = ua.empty(h.shape, dtype=o_dt)
        assert call(o) is o
        _exact(o, expected, (name, dt, "out"))


@pytest.mark.parametrize("name", ["isposinf", "isneginf", "fix"])
@pytest.mark.parametrize("dt", COMPLEX)
def test_isposinf_isneginf_fix_refuse_complex(name, dt):
    h = np.array([np.inf + 0j, 1 + 1j], dt)
    with pytest.raises(TypeError):
        getattr(np, name)(h)
    with pytest.raises(TypeError):
        getattr(ua, name)(ua.asarray(h))
    with pytest.raises(TypeError):
        getattr(np, name)(ua.asarray(h))


@pytest.mark.parametrize("name", ["frexp", "ldexp", "bitwise_count", "i0", "isposinf",
                                  "isneginf", "fix"])
def test_host_operands_refused(name):
    f = getattr(ua, name)
    args = (np.ones(2),) + ((ua.asarray([1, 2]),) if name == "ldexp" else ())
    with pytest.raises(TypeError):
        f(*args)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_i0_past_exp_range_is_inf(dt):
    """exp(|x|) overflows: inf, as NumPy's i0, also where 2 pi |x| itself
    overflows (it gave inf / inf = NaN near the largest floats)."""
    big = np.finfo(dt).max
    h = np.array([big, -big, big / 2, 1e4, -800.0], dt)
    got = ua.asnumpy(ua.i0(ua.asarray(h)))
    assert np.all(np.isposinf(got))
