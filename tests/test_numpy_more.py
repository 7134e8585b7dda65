"""rollaxis, copyto, sort_complex, common_type, matvec and vecmat against
NumPy: dtypes (result dtypes exactly NumPy's), axes and bounds, copyto's
casting rules for arrays and Python scalars and its where= masks, odd
layouts, 0-d and 0-size inputs, NumPy's dispatch and NumPy's errors."""

import itertools

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F64 = device_supports(ua.float64)
HAS_F16 = device_supports(ua.float16)
ALL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
       "float32", "complex64"] + (["float16"] if HAS_F16 else []) + \
    (["float64", "complex128"] if HAS_F64 else [])
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


def _raises_like(np_call, ua_call, what=""):
    """Both raise (usmarray an exception of NumPy's type or a subclass), or
    neither; NumPy's result (or None)."""
    try:
        expected = np_call()
    except Exception as e:   # noqa: BLE001
        with pytest.raises(type(e)):
            ua_call()
        return None
    return expected


# ================================================================= rollaxis
def test_rollaxis_every_axis_and_start():
    h = np.arange(24).reshape(2, 3, 4)
    x = ua.asarray(h)
    for axis, start in itertools.product(range(-4, 4), range(-5, 6)):
        expected = _raises_like(lambda: np.rollaxis(h, axis, start),
                                lambda: ua.rollaxis(x, axis, start), (axis, start))
        if expected is None:
            with pytest.raises(np.exceptions.AxisError):
                np.rollaxis(x, axis, start)
            continue
        check(ua.rollaxis(x, axis, start), expected, what=(axis, start))
        check(np.rollaxis(x, axis, start), expected, what=("np", axis, start))
    check(ua.rollaxis(x, 2), np.rollaxis(h, 2))
    check(ua.rollaxis(x, np.int64(2), np.int32(1)), np.rollaxis(h, 2, 1))


def test_rollaxis_layouts_and_views():
    h = sample((3, 4, 5), "float32", seed=1)
    x = ua.asarray(h)
    check(ua.rollaxis(x[::-1, :, ::2], 2, 1), np.rollaxis(h[::-1, :, ::2], 2, 1))
    check(ua.rollaxis(ua.asarray(np.empty((0, 2, 3))), 2), np.rollaxis(np.empty((0, 2, 3)), 2))
    check(ua.rollaxis(ua.asarray(np.arange(3)), 0, 1), np.rollaxis(np.arange(3), 0, 1))
    v = ua.rollaxis(x, 1, 3)            # a view, as NumPy's
    v[0, 0, 0] = 100.0
    assert float(x[0, 0, 0]) == 100.0


def test_rollaxis_errors():
    x = ua.asarray(np.arange(6).reshape(2, 3))
    for axis, start in [(2, 0), (-3, 0), (0, 3), (0, -3), (0, 4)]:
        with pytest.raises(np.exceptions.AxisError):
            np.rollaxis(np.arange(6).reshape(2, 3), axis, start)
        with pytest.raises(np.exceptions.AxisError):
            ua.rollaxis(x, axis, start)
    with pytest.raises(np.exceptions.AxisError):
        ua.rollaxis(ua.asarray(1.0), 0)
    with pytest.raises(TypeError):
        ua.rollaxis(np.arange(3), 0)


# ================================================================= copyto
def _copy_np(dst, src, **kw):
    d = dst.copy()
    np.copyto(d, src, **kw)
    return d


def _copy_ua(dst, src, dispatch=False, **kw):
    d = ua.asarray(dst)
    s = ua.asarray(src) if isinstance(src, np.ndarray) else src
    if isinstance(kw.get("where"), np.ndarray):
        kw["where"] = ua.asarray(kw["where"])
    r = (np.copyto if dispatch else ua.copyto)(d, s, **kw)
    assert r is None
    return d


@pytest.mark.parametrize("ddt", ALL)
def test_copyto_casting_arrays(ddt):
    """Every (dst, src) dtype pair under every casting rule: the copy where
    NumPy allows it, TypeError where it refuses."""
    dst = sample((2, 3), ddt, seed=1)
    for sdt in ALL:
        src = (sample((2, 3), sdt, seed=2) if np.dtype(sdt).kind != "f" else
               np.round(sample((2, 3), sdt, seed=2)))   # (no fractions: int casts are exact)
        if np.dtype(sdt).kind in "iuf" and np.dtype(ddt).kind in "iu":
            src = np.abs(src) % 50       # (in range of every integer dst)
        for casting in CASTINGS:
            what = (ddt, sdt, casting)
            expected = _raises_like(lambda: _copy_np(dst, src, casting=casting),
                                    lambda: _copy_ua(dst, src, casting=casting), what)
            if expected is not None:
                check(_copy_ua(dst, src, casting=casting), expected, what=what)
        expected = _raises_like(lambda: _copy_np(dst, src), lambda: _copy_ua(dst, src, True))
        if expected is not None:
            check(_copy_ua(dst, src, dispatch=True), expected, what=(ddt, sdt, "np.copyto"))


SCALARS = [True, 3, -1, 300, 2**40, 2.5, float("inf"), 1 + 2j, np.float32(2), np.int64(5),
           np.float64(1.5), np.complex64(1j), np.uint8(200), np.bool_(False)]


@pytest.mark.parametrize("ddt", ALL)
def test_copyto_casting_scalars(ddt):
    """Python scalars are weak (NEP 50: an int fits or raises, a float goes
    into any float dtype under same_kind), NumPy scalars strong."""
    dst = np.zeros((2, 3), ddt)
    for s, casting in itertools.product(SCALARS, ["no", "safe", "same_kind", "unsafe"]):
        if (casting == "unsafe" and np.dtype(ddt).kind in "iub"
                and isinstance(s, float) and not np.isfinite(s)):
            continue     # (inf into an integer: undefined in C, NumPy's value is the platform's)
        what = (ddt, s, casting)
        expected = _raises_like(lambda: _copy_np(dst, s, casting=casting),
                                lambda: _copy_ua(dst, s, casting=casting), what)
        if expected is not None:
            check(_copy_ua(dst, s, casting=casting), expected, what=what)


@pytest.mark.parametrize("ddt, value", [("uint64", 2**63), ("uint64", 2**64 - 1),
                                        ("float32", 2**64), ("float64", 2**70),
                                        ("complex64", 2**64)])
def test_copyto_python_int_beyond_int64(ddt, value):
    dst = np.zeros(3, ddt)
    check(_copy_ua(dst, value), _copy_np(dst, value))


@pytest.mark.parametrize("where", [np.array([True, False, True]), np.array([[True], [False]]),
                                   np.array(False), np.array(True), True, False, np.True_,
                                   np.array([[True, False, True], [False, True, False]])],
                         ids=lambda w: f"where{np.shape(w)}{np.asarray(w).ravel()[:3]}")
def test_copyto_where(where):
    dst = np.arange(6.0).reshape(2, 3)
    src = np.array([10.0, 20, 30])
    for dispatch in (False, True):
        check(_copy_ua(dst, src, dispatch, where=where), _copy_np(dst, src, where=where),
              what=dispatch)
        check(_copy_ua(dst, 7.0, dispatch, where=where), _copy_np(dst, 7.0, where=where))
        check(_copy_ua(dst, src[:, None][:1], dispatch, where=where),
              _copy_np(dst, src[:, None][:1], where=where))
    # with a cast that needs casting="unsafe"
    di, sf = dst.astype(np.int32), src + 0.5
    check(_copy_ua(di, sf, where=where, casting="unsafe"),
          _copy_np(di, sf, where=where, casting="unsafe"))
    with pytest.raises(TypeError):
        _copy_ua(di, sf, where=where)


def test_copyto_layouts_and_overlap():
    d = ua.asarray(np.zeros((4, 6)))
    ua.copyto(d[::-2, 1::2], ua.asarray(np.arange(6.0).reshape(2, 3)[::-1]),
              where=ua.asarray([True, False, True]))
    dn = np.zeros((4, 6))
    np.copyto(dn[::-2, 1::2], np.arange(6.0).reshape(2, 3)[::-1],
              where=np.array([True, False, True]))
    check(d, dn)
    h = np.arange(6.0)
    for dkey, skey, where in [(slice(1, None), slice(None, -1), None),
                              (slice(None, None, -1), slice(None), None),
                              (slice(None, None, -1), slice(None), h > 1)]:
        x, hn = ua.asarray(h), h.copy()
        kw = {} if where is None else {"where": where}
        np.copyto(hn[dkey], hn[skey], **kw)
        if where is not None:
            kw["where"] = ua.asarray(where)
        ua.copyto(x[dkey], x[skey], **kw)
        check(x, hn, what=(dkey, skey))
    check(_copy_ua(np.array(1.0), np.array(3.0)), _copy_np(np.array(1.0), np.array(3.0)))
    check(_copy_ua(np.zeros((0, 3)), np.ones(3)), _copy_np(np.zeros((0, 3)), np.ones(3)))
    check(_copy_ua(np.zeros((2, 3), np.int16), np.array(4, np.int16)),
          _copy_np(np.zeros((2, 3), np.int16), np.array(4, np.int16)))


def test_copyto_errors():
    dst = np.arange(6.0).reshape(2, 3)
    src = np.array([10.0, 20, 30])
    d, s = ua.asarray(dst), ua.asarray(src)
    cases = [
        (dict(where=np.array([1, 0, 1])), TypeError),            # where not bool
        (dict(where=np.array([True, False])), ValueError),       # where does not broadcast
        (dict(casting="foo"), ValueError),
    ]
    for kw, exc in cases:
        with pytest.raises(exc):
            np.copyto(dst.copy(), src, **kw)
        ukw = {k: ua.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        with pytest.raises(exc):
            ua.copyto(d, s, **ukw)
    for bad_src in (np.ones(2), np.ones((3, 2, 3))):
        with pytest.raises(ValueError):
            np.copyto(dst.copy(), bad_src)
        with pytest.raises(ValueError):
            ua.copyto(d, ua.asarray(bad_src))
        with pytest.raises(ValueError):
            ua.copyto(d, ua.asarray(bad_src), where=False)
    with pytest.raises(TypeError):
        ua.copyto(dst, s)              # host dst
    with pytest.raises(TypeError):
        ua.copyto(d, src)              # host src
    check(d, dst)                      # (nothing written by the failed calls)


# ================================================================= sort_complex
def _complex_data(dt, shape=(3, 5)):
    rng = np.random.default_rng(0)
    if np.dtype(dt).kind == "c":
        h = (rng.integers(-3, 3, shape) + 1j * rng.integers(-3, 3, shape)).astype(dt)
        h.flat[0], h.flat[6] = complex(np.nan, 1), complex(1, np.nan)
        return h
    if dt == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    h = rng.integers(0, 100, shape).astype(dt)
    if np.dtype(dt).kind == "f":
        h.flat[1], h.flat[6], h.flat[7] = np.nan, -0.0, np.inf
    return h


@pytest.mark.parametrize("dt", ALL)
def test_sort_complex(dt):
    h = _complex_data(dt)
    x = ua.asarray(h)
    expected = np.sort_complex(h)
    assert expected.dtype.kind == "c"
    for got in (ua.sort_complex(x), np.sort_complex(x)):
        check(got, expected, what=dt)
    check(ua.sort_complex(x[::-1, ::-2].T), np.sort_complex(h[::-1, ::-2].T), what="layout")
    check(ua.sort_complex(x[0]), np.sort_complex(h[0]), what="1-d")
    check(ua.sort_complex(x[:0]), np.sort_complex(h[:0]), what="0-size")


def test_sort_complex_0d():
    with pytest.raises(np.exceptions.AxisError):
        np.sort_complex(np.array(1.0))
    with pytest.raises(np.exceptions.AxisError):
        ua.sort_complex(ua.asarray(1.0))


# ================================================================= common_type
@pytest.mark.parametrize("dt", ALL)
def test_common_type(dt):
    h = np.zeros(2, dt)
    x = ua.asarray(h)
    expected = _raises_like(lambda: np.common_type(h), lambda: ua.common_type(x))
    if expected is not None:
        assert ua.common_type(x) is expected
        assert np.common_type(x) is expected
    for dt2 in ALL:
        h2 = np.zeros(3, dt2)
        x2 = ua.asarray(h2)
        expected = _raises_like(lambda: np.common_type(h, h2), lambda: ua.common_type(x, x2))
        if expected is None:
            continue
        assert ua.common_type(x, x2) is expected, (dt, dt2)
        assert np.common_type(x, x2) is expected, (dt, dt2)
        assert ua.common_type(x, h2) is expected, (dt, dt2)    # (dtypes only: host arrays too)


def test_common_type_edge_cases():
    assert ua.common_type() is np.common_type()
    assert ua.common_type(ua.empty((0,), dtype=ua.int8), ua.asarray(np.float32(1))) is \
        np.common_type(np.empty(0, np.int8), np.array(np.float32(1)))
    with pytest.raises((TypeError, AttributeError)):
        np.common_type(1.0)
    with pytest.raises(TypeError):
        ua.common_type(1.0)


# ================================================================= matvec, vecmat
MATMUL_DTYPES = [d for d in ALL if d != "bool"]
SHAPES = [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (2, 4)), ((1, 3, 4), (5, 1, 4)),
          ((3, 0), (0,)), ((0, 3, 4), (4,)), ((4, 2, 3), (1, 3))]


def _mk(shape, dt, rng):
    if np.dtype(dt).kind == "c":
        return (rng.integers(-3, 4, shape) + 1j * rng.integers(-3, 4, shape)).astype(dt)
    return rng.integers(0 if dt[0] == "u" else -3, 4, shape).astype(dt)


@pytest.mark.parametrize("d1", MATMUL_DTYPES)
def test_matvec_vecmat(d1):
    rng = np.random.default_rng(8)
    for d2 in dict.fromkeys([d1, "int8", "float32", "complex64"]):
        for sm, sv in SHAPES:
            m, v = _mk(sm, d1, rng), _mk(sv, d2, rng)
            expected = np.matvec(m, v)
            what = (d1, d2, sm, sv)
            check(ua.matvec(ua.asarray(m), ua.asarray(v)), expected, what=what)
            check(np.matvec(ua.asarray(m), ua.asarray(v)), expected, what=("np",) + what)
            vv, mm = _mk(sv, d1, rng), np.swapaxes(_mk(sm, d2, rng), -1, -2)
            expected = np.vecmat(vv, mm)
            check(ua.vecmat(ua.asarray(vv), ua.asarray(mm)), expected, what=what)
            check(np.vecmat(ua.asarray(vv), ua.asarray(mm)), expected, what=("np",) + what)


def test_vecmat_conjugates_the_vector_matvec_does_not():
    rng = np.random.default_rng(9)
    c, m = _mk((3,), "complex64", rng), _mk((3, 2), "complex64", rng)
    check(ua.vecmat(ua.asarray(c), ua.asarray(m)), np.vecmat(c, m))
    check(ua.matvec(ua.asarray(m.T), ua.asarray(c)), np.matvec(m.T, c))
    assert not np.allclose(np.vecmat(c, m), c @ m)


def test_matvec_vecmat_layouts_and_out():
    rng = np.random.default_rng(10)
    m, v = _mk((4, 5), "float32", rng), _mk((5,), "float32", rng)
    M, V = ua.asarray(m), ua.asarray(v)
    check(ua.matvec(M[::-1, ::2], V[::-2]), np.matvec(m[::-1, ::2], v[::-2]))
    check(ua.matvec(M.T, ua.asarray(v[:4])), np.matvec(m.T, v[:4]))
    check(ua.vecmat(V[::-2], M.T[::2, ::-1]), np.vecmat(v[::-2], m.T[::2, ::-1]))
    o = ua.empty((4,), dtype=ua.float32)
    assert np.matvec(M, V, out=o) is o
    check(o, np.matvec(m, v))
    o = ua.empty((5,), dtype=ua.float32)
    assert np.vecmat(ua.asarray(v[:4]), M, out=o) is o
    check(o, np.vecmat(v[:4], m))


def test_matvec_vecmat_errors():
    m, v = np.ones((3, 4)), np.ones(3)
    M, V = ua.asarray(m), ua.asarray(v)
    for np_call, ua_call in [
        (lambda: np.matvec(m, v), lambda: ua.matvec(M, V)),                        # n mismatch
        (lambda: np.vecmat(np.ones(4), m), lambda: ua.vecmat(ua.asarray(np.ones(4)), M)),
        (lambda: np.matvec(v, v), lambda: ua.matvec(V, V)),                        # 1-d matrix
        (lambda: np.vecmat(v, v), lambda: ua.vecmat(V, V)),
        (lambda: np.matvec(m, 1.0), lambda: ua.matvec(M, ua.asarray(1.0))),        # 0-d vector
        (lambda: np.vecmat(1.0, m), lambda: ua.vecmat(ua.asarray(1.0), M)),
        (lambda: np.matvec(np.ones((2, 3, 4)), np.ones((3, 4))),
         lambda: ua.matvec(ua.asarray(np.ones((2, 3, 4))), ua.asarray(np.ones((3, 4))))),
    ]:
        with pytest.raises(ValueError):
            np_call()
        with pytest.raises(ValueError):
            ua_call()
    with pytest.raises(TypeError):
        ua.matvec(m, ua.asarray(np.ones(4)))          # host matrix


def test_matvec_vecmat_of_bool():
    """(NumPy's bool result: a logical or of ands)"""
    h = np.random.default_rng(2).random((3, 4)) > 0.7
    b = ua.asarray(h)
    check(ua.matvec(b, b[0]), np.matvec(h, h[0]))
    check(np.vecmat(b[:, 0], b), np.vecmat(h[:, 0], h))
