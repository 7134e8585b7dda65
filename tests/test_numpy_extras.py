"""NumPy's functions beyond the array API that a NumPy or CuPy user reaches
for first (issue 32): diagonals and triangles, kron, logarithmic sequences,
index helpers, insert/delete, type checks, nan_to_num, the conj methods and
get_array_module, against NumPy over dtypes, shapes and axes, called through
NumPy's dispatch (``np.diag(usm_ndarray)``) and directly; and the error
messages that say how to move host data."""

import warnings

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F64 = device_supports(ua.float64)
FLOAT = np.float64 if HAS_F64 else np.float32
COMPLEX = np.complex128 if HAS_F64 else np.complex64
FLOATS = ["float32"] + (["float64"] if HAS_F64 else []) + \
    (["float16"] if device_supports(ua.float16) else [])
REAL = ["bool", "int8", "uint16", "int32", "int64"] + FLOATS
ALL = REAL + ["complex64"] + (["complex128"] if HAS_F64 else [])


def _same(got, expected, what=""):
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), (what, got)
        for g, e in zip(got, expected):
            _same(g, e, what)
        return
    if isinstance(expected, (bool, np.bool_)):
        assert got is bool(expected) or got == expected, (what, got, expected)
        return
    check(got, expected, True, what)


# ----------------------------------------------------------------- section 3: messages
def test_concatenate_with_a_list_says_asarray():
    x = ua.asarray(np.arange(3.0))
    with pytest.raises(TypeError, match=r"numpy\.concatenate: operand of type builtins\.list"
                                         r".*ua\.asarray"):
        np.concatenate([x, [1.0]])
    with pytest.raises(TypeError, match=r"concat: operand of type builtins\.list.*ua\.asarray"):
        ua.concat([x, [1.0]])
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.stack((x, (1.0, 2.0, 3.0)))


def test_operator_with_a_list_says_what_np_add_says():
    x = ua.asarray(np.arange(4.0))
    with pytest.raises(TypeError) as e1:
        x + [1, 2, 3, 4]
    with pytest.raises(TypeError) as e2:
        np.add(x, [1, 2, 3, 4])
    tail = "usmarray does not move data between host and device implicitly"
    assert tail in str(e1.value) and tail in str(e2.value)
    assert "ua.asarray(...)" in str(e1.value)


def test_allow_host_operands_copies_numpy_arrays_to_the_device():
    h = np.arange(6.0).reshape(2, 3)
    x = ua.asarray(h, usm_type="shared")
    w = np.array([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="allow_host_operands"):
        w * x
    with ua.allow_host_operands():
        for got, expected in ((w * x, w * h), (x - w, h - w), (np.add(w, x), w + h),
                              (np.concatenate([x, w[None]]), np.concatenate([h, w[None]])),
                              (np.where(x > 2, w, x), np.where(h > 2, w, h))):
            assert isinstance(got, ua.usm_ndarray)
            assert got.sycl_queue == x.sycl_queue and got.usm_type == "shared"
            np.testing.assert_array_equal(ua.asnumpy(got), expected)
        with pytest.raises(TypeError, match="builtins.list"):
            x + [1.0, 2.0, 3.0]          # lists stay refused
        with pytest.raises(TypeError):
            np.add(x, w, out=np.empty((2, 3)))   # a NumPy out= would need a copy back
        with pytest.raises(TypeError):
            np.sum(x, axis=0, out=np.empty(3))
        with pytest.raises(TypeError):
            np.concatenate([x, w[None]], out=np.empty((3, 3)))
        with ua.allow_host_operands(False):
            with pytest.raises(TypeError, match="operand of type numpy.ndarray"):
                w * x
        np.testing.assert_array_equal(ua.asnumpy(w * x), w * h)
    with pytest.raises(TypeError):       # the block's end restores the refusal
        w * x


def test_allow_host_operands_is_per_thread():
    import threading
    x = ua.asarray(np.arange(3.0))
    seen = []

    def other():
        try:
            np.ones(3) + x
            seen.append("copied")
        except TypeError:
            seen.append("refused")
    with ua.allow_host_operands():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == ["refused"]


def test_foreign_ufunc_named_by_its_own_module():
    special = pytest.importorskip("scipy.special")
    # the ufunc itself: with SCIPY_ARRAY_API=1 (tests/test_consumers.py sets it),
    # scipy.special.erf is a wrapper and the ufunc lives in scipy.special._ufuncs
    erf = special.erf if isinstance(special.erf, np.ufunc) else special._ufuncs.erf
    x = ua.asarray(np.arange(4.0))
    with pytest.raises(TypeError, match=r"^scipy\.special\.erf has no usmarray counterpart"):
        erf(x)
    with pytest.raises(TypeError, match=r"^numpy\.isnat"):
        np.isnat(x)   # (a NumPy ufunc usmarray lacks keeps NumPy's name)


# ----------------------------------------------------------------- diagonals, triangles, kron
@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3)], ids=str)
def test_diag_of_a_matrix(variant, dt, shape):
    h = sample(shape, dt)
    x = ua.asarray(h)
    for k in (-3, -1, 0, 1, 2, 6):
        _same(np.diag(x, k), np.diag(h, k), f"diag k={k}")
    d = ua.diag(x)
    if d.size:   # a view, as CuPy's: writing to it writes to x
        d[...] = ua.asarray(h[0, :1])
        assert ua.asnumpy(x)[0, 0] == h[0, 0]


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("n", [0, 1, 5])
def test_diag_and_diagflat_make_matrices(variant, dt, n):
    h = sample((n,), dt)
    for k in (-2, 0, 3):
        _same(np.diag(ua.asarray(h), k), np.diag(h, k), f"diag k={k}")
    h2 = sample((2, 3), dt)
    _same(np.diagflat(ua.asarray(h2), -1), np.diagflat(h2, -1), "diagflat")
    with pytest.raises(ValueError):
        ua.diag(ua.asarray(sample((2, 2, 2), dt)))


@pytest.mark.parametrize("dt", ["int32", "uint16", "bool"] + FLOATS + ["complex64"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (9, 2), (3, 3, 3), (1, 1)], ids=str)
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal(variant, dt, shape, wrap):
    h = sample(shape, dt)
    x = ua.asarray(h)
    for val in (sample((), dt)[()].item(), sample((2,), dt, 3), sample((2, 2), dt, 4),
                sample((20,), dt, 5)):
        e = h.copy()
        np.fill_diagonal(e, val, wrap=wrap)
        v = ua.asarray(val) if isinstance(val, np.ndarray) else val
        assert np.fill_diagonal(x, v, wrap=wrap) is None
        check(x, e, True, f"fill_diagonal {val!r}")
        h = e


def test_fill_diagonal_errors():
    with pytest.raises(ValueError):
        ua.fill_diagonal(ua.zeros(3), 1)
    with pytest.raises(ValueError):
        ua.fill_diagonal(ua.zeros((2, 3, 2)), 1)
    with pytest.raises(TypeError):
        ua.fill_diagonal(ua.zeros((2, 2)), 1j)
    base = ua.zeros(3)
    for val in (9, ua.asarray([1.0, 2.0, 3.0])):   # a read-only view: nothing written
        with pytest.raises(ValueError):
            ua.fill_diagonal(ua.broadcast_to(base, (3, 3)), val)
    assert not ua.any(base)


@pytest.mark.parametrize("dt", [None, "int32", "bool", "float32", "complex64"])
def test_identity_and_tri(dt):
    _same(ua.identity(4, dtype=dt), np.identity(4, dtype=dt or FLOAT), "identity")
    for n, m, k in [(3, None, 0), (3, 5, 1), (5, 2, -1), (0, 3, 0), (4, 4, -9), (2, 3, 9)]:
        _same(ua.tri(n, m, k, dtype=dt), np.tri(n, m, k, dtype=dt or FLOAT), f"tri {n} {m} {k}")
    x = ua.asarray(np.zeros(2, np.float32))
    _same(np.tri(3, 2, like=x), np.tri(3, 2, dtype=FLOAT), "tri like=")


@pytest.mark.parametrize("n, k, m", [(4, 0, None), (4, -1, 6), (3, 2, 2), (5, 9, None),
                                     (0, 0, 3), (3, -5, None)])
def test_triangle_indices(variant, n, k, m):
    _same(ua.tril_indices(n, k, m), np.tril_indices(n, k, m), "tril_indices")
    _same(ua.triu_indices(n, k, m), np.triu_indices(n, k, m), "triu_indices")
    h = np.zeros((n, n if m is None else m), np.float32)
    _same(np.tril_indices_from(ua.asarray(h), k), np.tril_indices_from(h, k), "tril_from")
    _same(np.triu_indices_from(ua.asarray(h), k=k), np.triu_indices_from(h, k=k), "triu_from")
    with pytest.raises(ValueError):
        ua.tril_indices_from(ua.zeros(3))


def test_diag_indices():
    _same(ua.diag_indices(3, 4), np.diag_indices(3, 4), "diag_indices")
    h = np.zeros((4, 4, 4))
    _same(np.diag_indices_from(ua.asarray(h)), np.diag_indices_from(h), "diag_indices_from")
    with pytest.raises(ValueError):
        ua.diag_indices_from(ua.zeros((2, 3)))


@pytest.mark.parametrize("dta, dtb", [("float32", "float32"), ("int32", "int64"),
                                      ("bool", "bool"), ("int8", "float32"),
                                      ("complex64", "float32")])
@pytest.mark.parametrize("sa, sb", [((2, 3), (3, 2)), ((3,), (2, 2)), ((2, 1, 2), (3,)),
                                    ((0, 2), (2, 2)), ((4,), (5,))], ids=str)
def test_kron(variant, dta, dtb, sa, sb):
    a, b = sample(sa, dta), sample(sb, dtb, 1)
    _same(np.kron(ua.asarray(a), ua.asarray(b)), np.kron(a, b), "kron")
    _same(ua.kron(ua.asarray(a), 2), np.kron(a, 2), "kron scalar")


# ----------------------------------------------------------------- logspace, geomspace
@pytest.mark.parametrize("start, stop, num, endpoint, base", [
    (0, 3, 7, True, 10.0), (1.5, -2, 5, False, 2.0), (0, 1, 1, True, 10.0),
    (0, 1, 0, True, 10.0), (2, 2, 4, True, np.e)])
def test_logspace_scalars(variant, start, stop, num, endpoint, base):
    _same(ua.logspace(start, stop, num, endpoint=endpoint, base=base),
          np.logspace(start, stop, num, endpoint=endpoint, base=base).astype(FLOAT), "logspace")
    _same(ua.logspace(start, stop, num, dtype=np.int64),
          np.logspace(start, stop, num, dtype=np.int64), "logspace int")


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_logspace_and_geomspace_of_arrays(variant, axis):
    s, e = np.array([0.5, 1.0, 2.0]), np.array([3.0, -1.0, 2.5])
    _same(np.logspace(ua.asarray(s), ua.asarray(e), 4, axis=axis),
          np.logspace(s, e, 4, axis=axis), "logspace arrays")
    _same(np.geomspace(ua.asarray(s), ua.asarray(e * 7 + 30), 5, endpoint=False, axis=axis),
          np.geomspace(s, e * 7 + 30, 5, endpoint=False, axis=axis), "geomspace arrays")
    f = s.astype(np.float32)
    _same(np.logspace(ua.asarray(f), ua.asarray(f + 1), 3), np.logspace(f, f + 1, 3), "float32")


@pytest.mark.parametrize("start, stop, num, endpoint", [
    (1, 1000, 4, True), (-1, -1000, 5, False), (1j, 1000j, 4, True), (2, 3, 1, True),
    (0.5, 8, 0, True), (1 + 1j, 1000 + 1000j, 4, True), (8, 2, 3, True)])
def test_geomspace_scalars(variant, start, stop, num, endpoint):
    e = np.geomspace(start, stop, num, endpoint=endpoint)
    _same(ua.geomspace(start, stop, num, endpoint=endpoint), e.astype(np.result_type(e, FLOAT)),
          "geomspace")
    _same(ua.geomspace(start, stop, num, dtype=np.float32 if not isinstance(start, complex)
                       else np.complex64),
          np.geomspace(start, stop, num, dtype=np.float32 if not isinstance(start, complex)
                       else np.complex64), "geomspace dtype")


@pytest.mark.parametrize("start, stop, num, endpoint, dt", [
    (1 + 3j, 5, 3, False, np.uint16), (-3 - 1j, 8, 2, True, np.int32), (3 + 4j, 6 - 8j, 5, True,
                                                                         np.int64)])
def test_geomspace_exact_ends_into_integers(start, stop, num, endpoint, dt):
    # the ends are the given numbers exactly: a complex end rounded below an
    # integer truncated one lower when cast
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (NumPy warns of the discarded imaginary parts)
        e = np.geomspace(start, stop, num, endpoint=endpoint, dtype=dt)
        g = ua.asnumpy(ua.geomspace(start, stop, num, endpoint=endpoint, dtype=dt))
    assert g[0] == e[0] == int(complex(start).real)
    if endpoint:
        assert g[-1] == e[-1] == int(complex(stop).real)


def test_geomspace_rejects_zero():
    with pytest.raises(ValueError, match="cannot include zero"):
        ua.geomspace(0, 10)
    with pytest.raises(ValueError):
        ua.logspace(0, 1, -1)


# ----------------------------------------------------------------- index helpers
@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0, 3), (3, 1, 2)], ids=str)
@pytest.mark.parametrize("dt", [None, "int32", "float32"])
def test_indices(variant, dims, dt):
    _same(ua.indices(dims, dtype=dt), np.indices(dims, dtype=dt or int), "dense")
    _same(ua.indices(dims, dtype=dt, sparse=True), np.indices(dims, dtype=dt or int,
                                                               sparse=True), "sparse")


def test_ix_(variant):
    a, b = np.array([0, 2]), np.array([True, False, True, True])
    h = sample((3, 4), "float32")
    got = np.ix_(ua.asarray(a), ua.asarray(b))
    _same(got, np.ix_(a, b), "ix_")
    check(ua.asarray(h)[got], h[np.ix_(a, b)], True, "indexing with ix_")
    _same(ua.ix_([1, 0], [], [3]), np.ix_([1, 0], [], [3]), "ix_ host sequences")
    with pytest.raises(ValueError):
        ua.ix_(ua.zeros((2, 2), dtype=ua.int64))


@pytest.mark.parametrize("dt", ["int8", "uint16", "int32", "int64"])
@pytest.mark.parametrize("shape", [(4, 6), (24,), (2, 3, 4), (1, 24, 1)], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_and_ravel_roundtrip(variant, dt, shape, order):
    i = np.array([0, 5, 23, 7, 11, 17], dtype=dt)
    got = np.unravel_index(ua.asarray(i), shape, order=order)
    exp = np.unravel_index(i, shape, order=order)
    _same(got, exp, "unravel_index")
    _same(np.ravel_multi_index(got, shape, order=order),
          np.ravel_multi_index(exp, shape, order=order), "ravel_multi_index")
    _same(ua.unravel_index(ua.asarray(i.reshape(2, 3)), shape, order=order),
          np.unravel_index(i.reshape(2, 3), shape, order=order), "unravel 2-d")


def test_unravel_and_ravel_errors_and_modes(variant):
    with pytest.raises(ValueError, match="out of bounds"):
        ua.unravel_index(ua.asarray([3, 12]), (3, 4))
    with pytest.raises(ValueError, match="out of bounds"):
        ua.unravel_index(ua.asarray([-1]), (3, 4))
    with pytest.raises(TypeError):
        ua.unravel_index(ua.asarray([1.0]), (3, 4))
    _same(ua.unravel_index(5, (3, 4)), tuple(np.asarray(v) for v in np.unravel_index(5, (3, 4))),
          "scalar")
    r, c = np.array([0, 5, -1, 2]), np.array([-3, 1, 9, 2])
    dr, dc = ua.asarray(r), ua.asarray(c)
    for mode in ("wrap", "clip", ("clip", "wrap")):
        _same(np.ravel_multi_index((dr, dc), (3, 4), mode=mode),
              np.ravel_multi_index((r, c), (3, 4), mode=mode), f"mode={mode}")
    with pytest.raises(ValueError, match="invalid entry"):
        np.ravel_multi_index((dr, dc), (3, 4))
    with pytest.raises(ValueError):
        ua.ravel_multi_index((dr,), (3, 4))
    _same(ua.ravel_multi_index((dr[:1], 2), (6, 4)), np.ravel_multi_index((r[:1], 2), (6, 4)),
          "an int coordinate broadcasts")


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("obj, axis", [
    (1, 0), (-1, 1), ([0, 2], 1), ([], 0), (slice(1, 5, 2), 1), (slice(None, None, -2), 0),
    ([True, False, True, False], 0), ([3, 3, 0], 1), (5, None), ([0, 1, 2, 3], 0)], ids=str)
def test_delete(variant, dt, obj, axis):
    h = sample((4, 6), dt)
    _same(np.delete(ua.asarray(h), obj, axis), np.delete(h, obj, axis), "delete")


def test_delete_errors():
    x = ua.asarray(np.arange(12).reshape(3, 4))
    with pytest.raises(IndexError, match="axis 1 with size 4"):
        ua.delete(x, 7, axis=1)
    with pytest.raises(ValueError):
        ua.delete(x, [True, False], axis=0)
    _same(ua.delete(x, ua.asarray([0, 2]), axis=1), np.delete(np.arange(12).reshape(3, 4),
                                                             [0, 2], axis=1), "device obj")


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("obj, values, axis", [
    (1, 5, 0), (0, 7, None), (4, 11, 1), (-2, 3, 1), ([1], 9, 1), ([0, 2, 2], 4, 1),
    (slice(0, 6, 2), 2, 1), ([6, 0], 1, 1), ([], 1, 0)], ids=str)
def test_insert_scalars(variant, dt, obj, values, axis):
    h = sample((3, 6), dt)
    v = values if dt != "bool" else bool(values)
    _same(np.insert(ua.asarray(h), obj, v, axis), np.insert(h, obj, v, axis), "insert")


@pytest.mark.parametrize("dt", ["int32", "float32", "complex64"])
@pytest.mark.parametrize("obj, vshape, axis", [
    (1, (3,), 1), ([1], (3, 1), 1), (2, (2, 6), 0), ([0, 3], (2,), 1), ([0, 3], (3, 2), 1),
    (1, (4,), None), ([1, 1], (2,), None), (0, (), 0)], ids=str)
def test_insert_arrays(variant, dt, obj, vshape, axis):
    h = sample((3, 6), dt)
    v = sample(vshape, "int32", 1)
    _same(np.insert(ua.asarray(h), obj, ua.asarray(v), axis), np.insert(h, obj, v, axis),
          "insert values")


def test_insert_errors():
    x = ua.asarray(np.arange(6))
    with pytest.raises(IndexError):
        ua.insert(x, 8, 1)
    with pytest.raises(IndexError):
        ua.insert(x, [8], 1)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        ua.insert(x, 1, [1, 2])


# ----------------------------------------------------------------- type checks, nan_to_num
@pytest.mark.parametrize("dt", ALL)
def test_type_checks(dt):
    h = sample((3, 4), dt)
    if h.dtype.kind == "c":
        h[0] = h[0].real
    x = ua.asarray(h)
    assert np.iscomplexobj(x) is (h.dtype.kind == "c")
    assert np.isrealobj(x) is (h.dtype.kind != "c")
    _same(np.iscomplex(x), np.iscomplex(h), "iscomplex")
    _same(np.isreal(x), np.isreal(h), "isreal")
    assert ua.iscomplexobj(h) is np.iscomplexobj(h) and ua.isrealobj(1.0) is True


@pytest.mark.parametrize("dt", ["complex64"] + (["complex128"] if HAS_F64 else []))
@pytest.mark.parametrize("tol", [100, 1e-3])
def test_real_if_close(dt, tol):
    small = np.array([1 + 1e-9j, 2 - 1e-10j], dtype=dt)
    big = np.array([1 + 1e-2j, 2], dtype=dt)
    for h in (small, big):
        _same(np.real_if_close(ua.asarray(h), tol=tol), np.real_if_close(h, tol=tol), "ric")
    r = sample((3,), "float32")
    x = ua.asarray(r)
    assert np.real_if_close(x) is x


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("kw", [{}, dict(nan=-1.5, posinf=7, neginf=-8), dict(posinf=1e30)],
                         ids=str)
def test_nan_to_num(variant, dt, kw):
    h = sample((4, 5), dt)
    if h.dtype.kind in "fc":
        special = np.array([np.nan, np.inf, -np.inf], dtype=h.real.dtype)
        h.real.flat[:3] = special
        if h.dtype.kind == "c":
            h.imag.flat[5:8] = special
    e = np.nan_to_num(h, **kw)
    x = ua.asarray(h)
    _same(np.nan_to_num(x, **kw), e, "copy")
    check(x, h, True, "input unchanged")
    r = np.nan_to_num(x, copy=False, **kw)
    assert r is x
    check(x, e, True, "in place")


# ----------------------------------------------------------------- conj, get_array_module
@pytest.mark.parametrize("dt", ALL)
def test_conj_methods(dt):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    for name in ("conj", "conjugate"):
        r = getattr(x, name)()
        _same(r, getattr(h, name)(), name)
        assert r._alloc is not x._alloc


def test_get_array_module():
    x = ua.asarray([1.0])
    assert ua.get_array_module(x) is ua
    assert ua.get_array_module(np.ones(2), 3, x) is ua
    assert ua.get_array_module(np.ones(2)) is np
    assert ua.get_array_module() is np
    xp = ua.get_array_module(x)
    check(xp.sum(x), np.array(1.0), False)


@pytest.mark.parametrize("base, start, stop", [
    (np.array([[2.0], [10.0]]), 0, 2), (np.array([2.0, 10.0]), 0, 3),
    (np.array([2.0, 10.0]), np.array([0.0, 1.0]), np.array([2.0, 3.0])), (np.array(3.0), 0, 2)])
@pytest.mark.parametrize("axis", [0, -1])
def test_logspace_array_bases(base, start, stop, axis):
    # the ends and the base broadcast together, the samples on a new axis
    # (an array base with scalar ends came out (1, 2, 3) instead of (3, 2, 1))
    dev = [ua.asarray(v) if isinstance(v, np.ndarray) else v for v in (start, stop, base)]
    got = ua.logspace(dev[0], dev[1], 4, base=dev[2], axis=axis)
    want = np.logspace(start, stop, 4, base=base, axis=axis)
    assert got.shape == want.shape
    np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-12)


# ----------------------------------------------------------------- convolution
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16, np.int32, np.uint8, np.bool_,
                                np.complex64])
@pytest.mark.parametrize("func", ["convolve", "correlate"])
def test_convolve_correlate(func, dt):
    if not device_supports(dt):
        pytest.skip("the device lacks the dtype")
    rng = np.random.default_rng(3)
    tol = {np.float16: 3e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(dt, 1e-12)
    for na in (1, 2, 5, 8):
        for nv in (1, 3, 4, 9):
            a, v = sample((na,), dt, rng.integers(1000)), sample((nv,), dt, rng.integers(1000))
            for mode in ("full", "same", "valid"):
                expected = getattr(np, func)(a, v, mode)
                got = getattr(ua, func)(ua.asarray(a), ua.asarray(v), mode)
                assert got.dtype == expected.dtype and got.shape == expected.shape, \
                    (na, nv, mode)
                # integers exact; floats summed in another order
                np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=tol, atol=tol * 4,
                                           err_msg=f"{na} {nv} {mode}")


def test_convolve_arguments():
    rng = np.random.default_rng(4)
    a, v = rng.standard_normal(30), rng.standard_normal(6)
    # views of any stride, a list operand, mixed dtypes, NumPy's dispatch
    got = np.correlate(ua.asarray(a)[::-3], ua.asarray(v)[::2], "same")
    np.testing.assert_allclose(ua.asnumpy(got), np.correlate(a[::-3], v[::2], "same"))
    got = ua.convolve(ua.asarray(np.array([1, 2, 3], np.int32)), [0.5, 1.0])
    np.testing.assert_array_equal(ua.asnumpy(got), np.convolve([1, 2, 3], [0.5, 1.0]))
    np.testing.assert_array_equal(ua.asnumpy(ua.convolve(ua.asarray(np.float64(2.0)), [1.0, 2.0])),
                                  [2.0, 4.0])
    np.testing.assert_allclose(ua.asnumpy(ua.convolve(ua.asarray(a), v[:3], mode=1)),
                               np.convolve(a, v[:3], mode=1), rtol=1e-13)
    x = ua.asarray(a)
    with pytest.raises(ValueError, match="too deep"):
        ua.convolve(ua.asarray(np.ones((2, 2))), [1.0])
    with pytest.raises(ValueError, match="a cannot be empty"):
        ua.convolve(ua.asarray(np.ones(0)), [1.0])
    with pytest.raises(ValueError, match="v cannot be empty"):
        ua.correlate(x, np.ones(0))
    with pytest.raises(ValueError, match="mode"):
        ua.convolve(x, [1.0], "bogus")
    with pytest.raises(TypeError):
        ua.convolve([1.0], [2.0])


# ----------------------------------------------------------------- grids and blocks
GRID_KEYS = [np.s_[0:5], np.s_[0:5:2], np.s_[-1:1:5j], np.s_[0:5, 0:3], np.s_[0:1:3j, 2:5],
             np.s_[0.5:3:0.5, 0:2], np.s_[:3, :2, 1:2], np.s_[5:0:-1], np.s_[0:5:1j],
             np.s_[3:1], np.s_[0:5:-1, 0:2], np.s_[1:2:1j, 0:2], np.s_[0:4, 1:2:4j, -1:1:0.5]]


@pytest.mark.parametrize("key", GRID_KEYS, ids=range(len(GRID_KEYS)))
@pytest.mark.parametrize("name", ["mgrid", "ogrid"])
def test_mgrid_ogrid(name, key):
    try:
        expected = getattr(np, name)[key]
    except ValueError:
        with pytest.raises(ValueError):
            getattr(ua, name)[key]
        return
    got = getattr(ua, name)[key]
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
    else:
        got, expected = (got,), (expected,)
    for g, e in zip(got, expected):
        assert isinstance(g, ua.usm_ndarray)
        r = ua.asnumpy(g)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_array_equal(r, e)


def _concat_cases(m):
    """r_/c_ keys of module m (numpy or usmarray), arrays made by m."""
    x = m.asarray(np.arange(6.0).reshape(2, 3))
    y = m.asarray(np.array([1, 2, 3], np.int32))
    i8 = m.asarray(np.array([1, 2], np.int8))
    return [
        lambda: m.r_[1:4, 7, y], lambda: m.r_[y, 0, 5.5], lambda: m.r_[-1:1:6j, [0] * 3, 5, 6],
        lambda: m.r_["-1", x, x], lambda: m.r_["0,2", [1, 2, 3], [4, 5, 6]],
        lambda: m.r_["0,2,0", [1, 2, 3], [4, 5, 6]], lambda: m.r_["1,2,0", [1, 2, 3], [4, 5, 6]],
        lambda: m.r_["0,3,-1", [1, 2]], lambda: m.r_["0,3,1", [1, 2]],
        lambda: m.r_["0,3,-2", [[1, 2]]], lambda: m.r_[0:5:2], lambda: m.r_[5],
        lambda: m.r_[np.int8(3), i8], lambda: m.r_[3, i8], lambda: m.r_[y, True],
        lambda: m.c_[y, y], lambda: m.c_[x, x], lambda: m.c_[1:4, y],
        lambda: m.c_[m.asarray(np.array([[1, 2, 3]])), 0, 0, m.asarray(np.array([[4, 5, 6]]))],
        # NumPy's errors
        lambda: m.r_[300, i8], lambda: m.r_[[1, 2], "0"], lambda: m.r_["x", [1, 2]],
        lambda: m.r_[()], lambda: m.r_["0,0", 1, 2], lambda: m.r_[x, y],
    ]


@pytest.mark.skipif(not HAS_F64, reason="the cases' NumPy results are float64")
@pytest.mark.parametrize("case", range(len(_concat_cases(np))))
def test_r_c_(case):
    try:
        expected = _concat_cases(np)[case]()
    except (ValueError, OverflowError) as e:
        with pytest.raises(type(e)):
            _concat_cases(ua)[case]()
        return
    got = _concat_cases(ua)[case]()
    check(got, expected)


def test_r_c_placement_and_refusals():
    q = ua.asarray([1]).sycl_queue
    x = ua.asarray(np.arange(3, dtype=np.int16), usm_type="shared")
    r = ua.r_[x, 1:3]
    assert r.sycl_queue == q and r.usm_type == "shared" and r.dtype == ua.int64
    with pytest.raises(ValueError, match="matrix"):
        ua.r_["r", [1, 2]]
    with pytest.raises(TypeError):
        ua.r_[x, object()]
    with pytest.raises(ValueError, match="first"):
        ua.r_[x, "0"]
    assert len(ua.r_) == 0


def _on_device(c):
    if isinstance(c, list):
        return [_on_device(x) for x in c]
    return ua.asarray(c) if isinstance(c, np.ndarray) else c


def test_block():
    rng = np.random.default_rng(0)
    a, b, c = rng.standard_normal((2, 2)), rng.standard_normal((2, 3)), rng.standard_normal((1, 5))
    v = np.arange(3.0)
    cases = [[[a, b], [c]], [a, a], [[a], [a]], [v, v], [[v], [v]], [[[a]]], [[1, 2], [3, 4]],
             [v, 5.0], [[np.ones((2, 2, 2)), np.zeros((2, 2, 3), np.float32)]], a,
             [[a, np.zeros((2, 1), np.int32)], [np.ones((1, 3))]]]
    for case in cases:
        expected = np.block(case)
        # (np.block dispatches when a block is a usm_ndarray)
        dispatched = [np.block(_on_device(case))] if "array(" in repr(case) else []
        for got in [ua.block(_on_device(case))] + dispatched:
            assert isinstance(got, ua.usm_ndarray)
            r = ua.asnumpy(got)
            assert r.dtype == expected.dtype and r.shape == expected.shape
            np.testing.assert_array_equal(r, expected)
    assert ua.asnumpy(ua.block([1, 2])).tolist() == [1, 2]
    x = ua.asarray(a)
    with pytest.raises(ValueError, match="cannot be empty"):
        ua.block([])
    with pytest.raises(ValueError, match="cannot be empty"):
        ua.block([[], [x]])
    with pytest.raises(ValueError, match="depths are mismatched"):
        ua.block([[x], x])
    with pytest.raises(TypeError, match="tuple"):
        ua.block((x, x))
    with pytest.raises(ValueError):
        ua.block([[x, ua.asarray(b)], [x]])


# ----------------------------------------------------------------- polynomials
def _host(a):
    return np.asarray(ua.asnumpy(a) if isinstance(a, ua.usm_ndarray) else a)


@pytest.mark.parametrize("kw", [{}, dict(full=True), dict(w="w"), dict(cov=True),
                                dict(cov="unscaled"), dict(columns=True),
                                dict(columns=True, cov=True), dict(dt=np.float32),
                                dict(ints=True)], ids=str)
def test_polyfit(kw):
    kw = dict(kw)
    rng = np.random.default_rng(0)
    x = np.linspace(0, 2, 30)
    y = 1 + 2 * x - 3 * x ** 2 + 0.01 * rng.standard_normal(30)
    if kw.pop("columns", False):
        y = np.stack([y, 2 * y], axis=1)
    if kw.pop("ints", False):
        x, y = np.arange(10), np.arange(10) ** 2
    dt = kw.pop("dt", None)
    if dt is not None:
        x, y = x.astype(dt), y.astype(dt)
    if kw.get("w") == "w":
        kw["w"] = np.linspace(1, 2, len(x))
    expected = np.polyfit(x, y, 2, **kw)
    got = np.polyfit(ua.asarray(x), ua.asarray(y), 2,
                     **{k: ua.asarray(v) if isinstance(v, np.ndarray) else v
                        for k, v in kw.items()})
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    tol = 2e-4 if dt == np.float32 else 1e-7
    for g, e in zip(got, expected):
        g, e = _host(g), np.asarray(e)
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol)


def test_polyfit_rank_warning_and_errors():
    x, y = ua.asarray(np.linspace(0, 1, 8)), ua.asarray(np.linspace(1, 2, 8))
    with pytest.warns(np.exceptions.RankWarning):
        ua.polyfit(ua.asarray(np.ones(5)), ua.asarray(np.arange(5.0)), 3)
    with pytest.raises(ValueError, match="deg"):
        ua.polyfit(x, y, -1)
    with pytest.raises(TypeError, match="same length"):
        ua.polyfit(x, y[:5], 1)
    with pytest.raises(TypeError, match="1D vector"):
        ua.polyfit(ua.asarray(np.ones((2, 2))), y, 1)
    with pytest.raises(ValueError, match="exceed order"):
        ua.polyfit(x[:3], y[:3], 2, cov=True)


@pytest.mark.parametrize("p", [[1.0, -3, 2], [1.0, 0, 1], [0, 0, 1.0, -1, 0, 0], [1, 2, 3], [0.0, 0],
                               [5.0], np.array([1, -6, 11, -6], np.float32), [1 + 1j, 2]], ids=str)
def test_roots(p):
    p = np.asarray(p)
    expected = np.roots(p)
    got = np.roots(ua.asarray(p))
    assert isinstance(got, ua.usm_ndarray)
    g = ua.asnumpy(got)
    assert g.shape == expected.shape and g.dtype == expected.dtype
    np.testing.assert_allclose(np.sort_complex(g), np.sort_complex(expected), atol=1e-5)


@pytest.mark.parametrize("z", [[1.0, 2.0], [1, 2, 3], [1j, -1j], [1 + 1j, 2], [[1.0, 2], [3, 4]],
                               np.array([1.0, 2], np.float32)], ids=str)
def test_poly(z):
    z = np.asarray(z)
    expected = np.poly(z)
    g = ua.asnumpy(np.poly(ua.asarray(z)))
    assert g.shape == expected.shape and g.dtype == expected.dtype
    np.testing.assert_allclose(g, expected, atol=1e-12)
    assert ua.poly(ua.asarray(np.zeros(0))) == 1.0
    with pytest.raises(ValueError, match="square"):
        ua.poly(ua.asarray(np.ones((2, 3))))


POLY_ARGS = {"i8": np.array([1, -2, 3], np.int8), "i64": np.array([4, 5]),
             "f32": np.array([0.5, -1.25, 2, 3], np.float32), "f64": np.array([0.75]),
             "c128": np.array([1 + 2j, -0.5j, 3]), "u8": np.array([7, 9, 1, 2, 3], np.uint8),
             "bool": np.array([True, False])}


@pytest.mark.skipif(not HAS_F64, reason="NumPy's results are float64")
@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul", "polydiv"])
@pytest.mark.parametrize("a", POLY_ARGS)
@pytest.mark.parametrize("b", ["i64", "f32", "c128", "u8", "bool"])
def test_poly_arithmetic(name, a, b):
    ha, hb = POLY_ARGS[a], POLY_ARGS[b]
    try:
        expected = getattr(np, name)(ha, hb)
    except TypeError:   # (NumPy's bool - bool)
        with pytest.raises(TypeError):
            getattr(np, name)(ua.asarray(ha), ua.asarray(hb))
        return
    got = getattr(np, name)(ua.asarray(ha), ua.asarray(hb))
    _same(got, expected, (name, a, b))


@pytest.mark.skipif(not HAS_F64, reason="NumPy's results are float64")
@pytest.mark.parametrize("p", POLY_ARGS)
@pytest.mark.parametrize("m", [0, 1, 2, 5])
@pytest.mark.parametrize("k", [None, 3, [1.5], [1, 2j, 3, 4, 5]], ids=str)
def test_polyder_polyint(p, m, k):
    hp = POLY_ARGS[p]
    x = ua.asarray(hp)
    _same(np.polyder(x, m), np.polyder(hp, m), ("polyder", p, m))
    if k is not None and np.size(k) not in (1, m) and np.size(k) < m:
        with pytest.raises(ValueError, match="k must be"):
            ua.polyint(x, m, k)
        return
    _same(np.polyint(x, m, k), np.polyint(hp, m, k), ("polyint", p, m, k))
    if m == 0:
        assert ua.polyint(x, 0) is x and ua.polyder(x, 0) is x   # (NumPy's: p itself)


def test_poly_arithmetic_scalars_and_errors():
    x = ua.asarray(np.array([1.0, 2.0], np.float32))
    _same(ua.polyadd(x, 2), np.polyadd(np.array([1.0, 2.0], np.float32), 2))
    _same(ua.polymul(3, x), np.polymul(3, np.array([1.0, 2.0], np.float32)))
    with pytest.raises(TypeError, match="usm_ndarray"):
        ua.polyadd([1, 2], 3)
    with pytest.raises(ValueError, match="1-d"):
        ua.polysub(ua.ones((2, 2)), x)
    with pytest.raises(ValueError, match="positive"):
        ua.polyder(x, -1)
    with pytest.raises(ValueError, match="positive"):
        ua.polyint(x, -2)


SET_ARGS = [(np.array([3, 1, 2, 3, np.nan, 5, np.nan, 1.0]), np.array([1, 7, np.nan, 3.0])),
            (np.array([5, 1, 3, 3, 9]), np.array([3, 9, 11], np.int32)),
            (np.array([5, 1, 3, 3, 9]).reshape(5, 1), np.array([3.0, 1.5, 9])),
            (np.array([], np.float64), np.array([1, 2])), (np.array([1 + 1j, 2]), np.array([2]))]


@pytest.mark.skipif(not HAS_F64, reason="the cases' NumPy results are float64")
@pytest.mark.parametrize("name", ["union1d", "intersect1d", "setdiff1d", "setxor1d"])
@pytest.mark.parametrize("case", range(len(SET_ARGS)))
def test_set_operations(name, case):
    a, b = SET_ARGS[case]
    f = getattr(np, name)
    _same(f(ua.asarray(a), ua.asarray(b)), f(a, b), name)
    if name != "union1d":   # NumPy's unique values: the same again with assume_unique
        ua_, ub = np.unique(a), np.unique(b)
        _same(f(ua.asarray(ua_), ua.asarray(ub), assume_unique=True),
              f(ua_, ub, assume_unique=True), name)


def test_intersect1d_indices():
    a, b = np.array([5, 1, 3, 3, 9, 1]), np.array([3, 1, 1, 7])
    for au in (False, True):
        x, y = (np.unique(a), np.unique(b)) if au else (a, b)
        _same(np.intersect1d(ua.asarray(x), ua.asarray(y), assume_unique=au,
                             return_indices=True),
              np.intersect1d(x, y, assume_unique=au, return_indices=True))


def test_select_choose_compress():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    d = ua.asarray(x)
    _same(np.select([d > 0.5, d < -0.5], [d, d * 2]), np.select([x > 0.5, x < -0.5], [x, x * 2]))
    _same(ua.select([d > 0], [d], 0.5), np.select([x > 0], [x], 0.5))   # weak default
    _same(ua.select([d[0] > 0, d > 1], [1.5, d]), np.select([x[0] > 0, x > 1], [1.5, x]))
    with pytest.raises(TypeError, match="boolean"):
        ua.select([d], [d])
    with pytest.raises(ValueError, match="same length"):
        ua.select([d > 0], [d, d])
    c = [np.array([1, 2, 3, 4]), np.array([10, 20, 30, 40]), np.array([100, 200, 300, 400])]
    i = np.array([0, 3, -1, 2])
    for mode in ("wrap", "clip"):
        _same(ua.choose(ua.asarray(i), [ua.asarray(v) for v in c], mode=mode),
              np.choose(i, c, mode=mode))
    _same(np.choose(ua.asarray(i % 3), [ua.asarray(v) for v in c]), np.choose(i % 3, c))
    with pytest.raises(ValueError, match="invalid entry"):
        ua.choose(ua.asarray(i), [ua.asarray(v) for v in c])
    _same(np.compress(ua.asarray([0, 1, 1]), d, axis=1), np.compress([0, 1, 1], x, axis=1))
    _same(np.compress(ua.asarray([True, False, True]), d), np.compress([True, False, True], x))
    _same(np.compress(ua.asarray([False, True, True, False]), d, axis=0),
          np.compress([False, True, True, False], x, axis=0))
    with pytest.raises(IndexError):
        ua.compress(ua.asarray([False, True, True, True]), d, axis=0)


def test_putmask_place_extract():
    x = np.arange(12.0).reshape(3, 4)
    for values in ([10.0, 20.0], 2.5, []):
        e, d = x.copy(), ua.asarray(x)
        np.putmask(e, e % 3 == 0, np.asarray(values))
        assert np.putmask(d, d % 3 == 0, ua.asarray(np.asarray(values))) is None
        _same(d, e)
    e, d = np.arange(6), ua.asarray(np.arange(6))
    np.putmask(e, e > 2, 2.7)            # a scalar is cast as it is
    np.putmask(d, d > 2, 2.7)
    _same(d, e)
    with pytest.raises(TypeError, match="safe"):   # an array must cast safely
        ua.putmask(d, d > 2, ua.asarray([2.5]))
    with pytest.raises(ValueError, match="same size"):
        ua.putmask(d, ua.asarray([True]), 1)
    e, d = x.copy(), ua.asarray(x)
    np.place(e, (e > 4).ravel(), [7.0, 8.0])
    np.place(d, ua.asarray((x > 4).ravel()), ua.asarray([7.0, 8.0]))   # the same size suffices
    _same(d, e)
    i = ua.arange(5)
    with pytest.raises(TypeError, match="safe"):   # np.place: array values cast safely
        np.place(i, i > 2, ua.asarray([1.5, 2.5]))
    ua.place(i, i > 2, ua.asarray([1.5, 2.5]))     # (ua.place casts, as dpctl.tensor's)
    _same(i, np.array([0, 1, 2, 1, 2]))
    _same(np.extract(ua.asarray([1, 0, 2]), ua.asarray(x)), np.extract([1, 0, 2], x))
    with pytest.raises(IndexError):
        np.extract(ua.ones(20), ua.asarray(x))


@pytest.mark.parametrize("shape", [(2, 4), 5, (0,), (3, 0)])
def test_resize(shape):
    for h in (np.arange(3.0), np.zeros(0), np.arange(6).reshape(2, 3)):
        _same(np.resize(ua.asarray(h), shape), np.resize(h, shape))
    with pytest.raises(ValueError, match="non-negative"):
        ua.resize(ua.arange(3), (-1, 2))


def test_trim_zeros_and_sinc():
    for h, kw in ((np.array([0, 0, 1, 2, 0]), {}), (np.array([0, 0, 1, 2, 0]), dict(trim="f")),
                  (np.array([0, 0, 1, 2, 0]), dict(trim="B")), (np.zeros(3), {}),
                  (np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]]), {}),
                  (np.array([[0, 0, 0, 0], [0, 1, 2, 0], [0, 0, 0, 0]]), dict(axis=1))):
        _same(np.trim_zeros(ua.asarray(h), **kw), np.trim_zeros(h, **kw))
    with pytest.raises(ValueError):
        ua.trim_zeros(ua.asarray([0, 1]), "x")
    for dt in ["float16", "float32", "int32", "bool", "complex64"] + (
            ["float64"] if HAS_F64 else []):
        if not device_supports(np.dtype(dt)):
            continue
        h = np.array([0, 0.5, -1.5, 3, 1e-3]).astype(dt)
        _same(np.sinc(ua.asarray(h)), np.sinc(h), dt)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int8", "int32", "uint64",
                                "bool"])
def test_modf_divmod(dt):
    if not device_supports(np.dtype(dt)) or (dt in ("int32", "uint64") and not HAS_F64):
        pytest.skip("the device lacks the dtype NumPy computes in")
    h = np.array([-2.0, -0.5, 0, 1.75, 3, 100]).astype(dt)
    if np.dtype(dt).kind == "f":
        h = np.concatenate([h, np.array([np.inf, -np.inf, np.nan, -0.0], dt)])
    for got, want in zip(np.modf(ua.asarray(h)), np.modf(h)):
        _same(got, want, dt)
        np.testing.assert_array_equal(np.signbit(ua.asnumpy(got)), np.signbit(want))
    g = np.array([3, -2, 2, 7, 1, 5]).astype(dt)
    with np.errstate(all="ignore"):
        want = np.divmod(h[:6], g)
    _same(np.divmod(ua.asarray(h[:6]), ua.asarray(g)), want, dt)
    _same(ua.divmod(ua.asarray(h[:6]), ua.asarray(g)), want, dt)
    with pytest.raises(TypeError):
        ua.modf(ua.asarray(np.array([1j], np.complex64)))


# ----------------------------------------------------------------- gradient, unwrap
def test_gradient_spacing_forms():
    f = np.array([1.0, 2.0, 4.0, 8.0, 9.0])
    x = ua.asarray(f)
    # coordinates as a list; complex coordinates and a complex spacing (NumPy
    # computes in complex and keeps the real part, with a ComplexWarning)
    np.testing.assert_allclose(ua.asnumpy(ua.gradient(x, [0, 1, 3, 4, 6])),
                               np.gradient(f, [0, 1, 3, 4, 6]))
    c = np.array([0, 1 + 1j, 2, 3, 5])
    with pytest.warns(np.exceptions.ComplexWarning):
        got = ua.gradient(x, ua.asarray(c))
    with pytest.warns(np.exceptions.ComplexWarning):
        expected = np.gradient(f, c)
    np.testing.assert_allclose(ua.asnumpy(got), expected)
    with pytest.warns(np.exceptions.ComplexWarning):
        got = ua.gradient(x, 1 + 1j)
    with pytest.warns(np.exceptions.ComplexWarning):
        expected = np.gradient(f, 1 + 1j)
    np.testing.assert_allclose(ua.asnumpy(got), expected)
    m = np.arange(12.0).reshape(3, 4) ** 2
    np.testing.assert_allclose(ua.asnumpy(ua.gradient(ua.asarray(m), axis=np.int64(1))),
                               np.gradient(m, axis=1))
    with pytest.raises(ValueError, match="scalars or 1d"):
        ua.gradient(x, np.ones((5, 1)))


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.float32, np.float64])
def test_unwrap_dtypes(dt):
    h = np.array([0, 5, 10, 3, 9, 2], dt)
    for kw in ({}, dict(period=6), dict(period=6, discont=4), dict(period=5.0)):
        expected = np.unwrap(h, **kw)
        got = ua.asnumpy(ua.unwrap(ua.asarray(h), **kw))
        assert got.dtype == expected.dtype, kw
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    with pytest.raises(TypeError, match="complex"):
        ua.unwrap(ua.asarray(h + 1j))
    with pytest.raises(ValueError, match="one dimensional"):
        ua.unwrap(ua.asarray(np.array(3.0)))


# ----------------------------------------------------------------- review of statistics & co.
def _same_results(got, expected, **tol):
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = ua.asnumpy(g) if isinstance(g, ua.usm_ndarray) else np.asarray(g)
        e = np.asarray(e)
        assert g.shape == e.shape and g.dtype == e.dtype, (g, e)
        np.testing.assert_allclose(g, e, **tol)


@pytest.mark.parametrize("kinds", ["cc", "rc", "cr"])
@pytest.mark.parametrize("kw", [{}, dict(full=True), dict(cov=True)], ids=str)
def test_polyfit_complex(kinds, kw):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(9) + (1j * rng.standard_normal(9) if kinds[0] == "c" else 0)
    y = rng.standard_normal(9) + (1j * rng.standard_normal(9) if kinds[1] == "c" else 0)
    _same_results(ua.polyfit(ua.asarray(x), ua.asarray(y), 2, **kw), np.polyfit(x, y, 2, **kw),
                  rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("args,kw", [((-1, 1, 3), dict(dtype=np.complex64)), ((-1j, 1j, 3), {}),
                                     ((-1j, 1j, 5), {}), ((1j, -1j, 4), {}), ((-2, -8, 3), {}),
                                     ((1 + 1j, 4 + 4j, 4), {}), ((-1 + 0j, 1, 3), {})], ids=str)
def test_geomspace_complex_and_dtype(args, kw):
    _same_results(ua.geomspace(*args, **kw), np.geomspace(*args, **kw), rtol=1e-6, atol=1e-7)


def test_sequence_and_index_helper_edges():
    f32 = np.array([1.0, 2.0], np.float32)
    assert ua.logspace(ua.asarray(f32), 4.0, 3).dtype == np.logspace(f32, 4.0, 3).dtype
    one = np.array([1])
    for call in (lambda m, a: m.ravel_multi_index((a(one), a(one)), (0, 3), mode="wrap"),
                 lambda m, a: m.ravel_multi_index((a(one), a(one)), (2 ** 40, 2 ** 40)),
                 lambda m, a: m.unravel_index(a(one), ()),
                 lambda m, a: m.insert(m.arange(3.0), [], a(np.array([1.0, 2.0])))):
        with pytest.raises(ValueError):
            call(np, np.asarray)
        with pytest.raises(ValueError):
            call(ua, ua.asarray)
    assert ua.unravel_index(0, ()) == ()
    b = ua.asarray(np.ones(2))
    r = ua.block(b)
    r[0] = 5.0      # a copy, as NumPy's
    np.testing.assert_array_equal(ua.asnumpy(b), [1.0, 1.0])
    x = ua.arange(6.0)
    parts = np.split(x, np.array([2, 4]))     # host split points
    assert [ua.asnumpy(p).tolist() for p in parts] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]


def test_statistics_edges():
    a = np.array([-np.inf, 1.0, np.inf])
    i8 = np.array([1, 5, 3], np.int8)
    # integer quantiles take the elements (NumPy): infinities stay, dtypes too
    for arr, q in ((a, 1), (a, [0, 1]), (i8, 1), (i8, [0, 1]), (i8, 0.5)):
        _same_results(ua.quantile(ua.asarray(arr), q), np.quantile(arr, q))
    _same_results(ua.quantile(ua.asarray(a), ua.asarray(np.array([0, 1]))),
                  np.quantile(a, np.array([0, 1])))
    _same_results(ua.percentile(ua.asarray(i8), 100), np.percentile(i8, 100))
    # complex var/std: real, as NumPy's
    c = np.array([1 + 1j, 2, 3j, -1 - 2j])
    _same_results(ua.var(ua.asarray(c)), np.var(c), rtol=1e-12)
    _same_results(np.std(ua.asarray(c.astype(np.complex64)), ddof=1),
                  np.std(c.astype(np.complex64), ddof=1), rtol=1e-6)
    with pytest.raises(TypeError, match="inexact"):
        ua.nanmean(ua.asarray(np.array([1.5, np.nan])), dtype=np.int64)
    with pytest.raises(TypeError, match="inexact"):
        ua.nanvar(ua.asarray(np.array([1.5, np.nan])), dtype=np.int32)
    with pytest.raises(ValueError, match="ddof"):
        ua.cov(ua.asarray(np.ones(3)), ddof=1.5)
    _same_results(ua.cov(ua.asarray(np.arange(4.0)), ddof=2.0), np.cov(np.arange(4.0), ddof=2.0))
    r = ua.nanquantile(ua.asarray(np.zeros((0, 3))), 0.5, axis=0)     # NaN, not an error
    assert r.shape == (3,) and np.isnan(ua.asnumpy(r)).all()
    assert ua.roots(ua.asarray(np.array([0, 5.0], np.float32))).dtype == np.float64
