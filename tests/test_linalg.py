"""usmarray.linalg against numpy.linalg: dtypes, batch shapes (broadcast,
0-size), views, keywords, singular / not positive-definite input (errors),
and reconstructions (Q@R, U@diag(S)@Vh, L@L^H, V@diag(w)@V^H)."""

import subprocess
import sys
import textwrap

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports

LA = ua.linalg
FLOATS = [d for d in (ua.float32, ua.float64, ua.complex64, ua.complex128) if device_supports(d)]


def _tol(dt):
    return 5e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def _close(got, expected, dt, scale=1.0, what=""):
    assert isinstance(got, ua.usm_ndarray), type(got)
    g = ua.asnumpy(got)
    expected = np.asarray(expected)
    assert g.shape == expected.shape, (what, g.shape, expected.shape)
    np.testing.assert_allclose(g, expected, rtol=_tol(dt), atol=_tol(dt) * scale, err_msg=what)


def _rand(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        h = h + 1j * rng.standard_normal(shape)
    return h.astype(dt)


def _well(shape, dt, seed=0):
    """Well-conditioned square matrices: random plus n times the identity."""
    n = shape[-1]
    return (_rand(shape, dt, seed) + n * np.eye(n)).astype(dt)


def _hpd(shape, dt, seed=0):
    """Hermitian positive-definite matrices."""
    a = _rand(shape, dt, seed)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dt)


def _ct(h):
    return np.conj(np.swapaxes(h, -1, -2))


# ---------------------------------------------------------------- solve / inv / det

@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("sa, sb", [((4, 4), (4,)), ((4, 4), (4, 3)), ((3, 5, 5), (3, 5, 2)),
                                    ((3, 5, 5), (5,)), ((2, 1, 4, 4), (3, 4, 2)),
                                    ((4, 4), (2, 4, 1)), ((0, 3, 3), (0, 3, 2)),
                                    ((0, 3, 3), (3,)), ((2, 3, 3), (2, 3, 0)), ((0, 0), (0,))])
def test_solve(dt, sa, sb):
    a, b = _well(sa, dt, 1), _rand(sb, dt, 2)
    got = LA.solve(ua.asarray(a), ua.asarray(b))
    assert got.dtype == dt
    if len(sb) == 1:
        expected = np.linalg.solve(a, b[:, None])[..., 0] if a.size else \
            np.zeros(sa[:-2] + sb, dt)
    else:
        expected = np.linalg.solve(a, b) if a.size and b.size else \
            np.zeros(np.broadcast_shapes(sa[:-2], sb[:-2]) + sb[-2:], dt)
    _close(got, expected, dt)


def test_solve_views_and_promotion():
    a = _well((6, 6), np.float64)
    b = _rand((6, 4), np.float32)
    x1 = ua.asarray(a)[::2, ::-2].mT      # strided, reversed, transposed
    x2 = ua.asarray(b)[::2, 1:3]
    got = LA.solve(x1, x2)
    assert got.dtype == ua.float64
    _close(got, np.linalg.solve(a[::2, ::-2].T, b[::2, 1:3].astype(np.float64)), ua.float64)
    # integers compute in the default floating type
    ai = np.array([[2, 1], [1, 3]])
    got = LA.solve(ua.asarray(ai), ua.asarray(np.array([1, 2])))
    assert got.dtype == ua.__array_namespace_info__().default_dtypes()["real floating"]
    np.testing.assert_allclose(ua.asnumpy(got), np.linalg.solve(ai, [1, 2]), rtol=1e-6)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_singular(dt):
    s = np.array([[1, 2], [2, 4]], dtype=dt)
    batch = np.stack([np.eye(2, dtype=dt), s])
    for x in (s, batch):
        with pytest.raises(LA.LinAlgError):
            LA.solve(ua.asarray(x), ua.asarray(np.ones(2, dt)))
        with pytest.raises(LA.LinAlgError):
            LA.inv(ua.asarray(x))
        with pytest.raises(LA.LinAlgError):
            LA.solve(ua.asarray(x), ua.asarray(np.ones((3,) + x.shape, dt)))
    assert issubclass(LA.LinAlgError, ValueError)
    # singular matrices have determinant 0 and slogdet (0, -inf)
    _close(LA.det(ua.asarray(s)), 0.0, dt)
    sign, logabs = LA.slogdet(ua.asarray(s))
    assert ua.asnumpy(sign) == 0 and ua.asnumpy(logabs) == -np.inf


@pytest.mark.parametrize("fn", ["solve", "inv", "det", "slogdet", "cholesky", "eigh",
                                "eigvalsh", "eig", "eigvals", "matrix_power"])
def test_not_square(fn):
    x = ua.asarray(np.ones((3, 4)))
    args = (x, x) if fn == "solve" else (x, 2) if fn == "matrix_power" else (x,)
    with pytest.raises(ValueError):
        getattr(LA, fn)(*args)
    with pytest.raises(ValueError):
        getattr(LA, fn)(*((ua.asarray(np.ones(3)),) * len(args)) if fn != "matrix_power"
                        else (ua.asarray(np.ones(3)), 2))


def test_errors():
    with pytest.raises(TypeError):
        LA.inv(np.eye(2))
    with pytest.raises(ValueError):
        LA.solve(ua.asarray(np.eye(3)), ua.asarray(np.ones(4)))
    with pytest.raises(ValueError):
        LA.solve(ua.asarray(np.eye(3)), ua.asarray(np.ones((4, 2))))
    with pytest.raises(ValueError):
        LA.qr(ua.asarray(np.eye(3)), mode="r")
    with pytest.raises(ValueError):
        LA.matrix_norm(ua.asarray(np.eye(3)), ord=3)
    with pytest.raises(ValueError):
        LA.cross(ua.asarray(np.ones(4)), ua.asarray(np.ones(4)))
    with pytest.raises(ValueError):
        LA.outer(ua.asarray(np.ones((2, 2))), ua.asarray(np.ones(2)))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(4, 4), (3, 6, 6), (2, 3, 2, 2), (0, 3, 3), (1, 1), (0, 0)])
def test_inv(dt, shape):
    a = _well(shape, dt, 3)
    got = LA.inv(ua.asarray(a))
    assert got.dtype == dt
    _close(got, np.linalg.inv(a) if a.size else a, dt)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (2, 2, 3, 3), (0, 3, 3), (0, 0), (1, 1)])
def test_det_slogdet(dt, shape):
    a = _rand(shape, dt, 4)
    _close(LA.det(ua.asarray(a)), np.linalg.det(a), dt, scale=10)
    sign, logabs = LA.slogdet(ua.asarray(a))
    s0, l0 = np.linalg.slogdet(a)
    assert sign.dtype == dt and logabs.dtype == np.empty(0, dt).real.dtype
    _close(sign, s0, dt)
    _close(logabs, l0, dt)


def test_det_view():
    a = _rand((3, 8, 8), np.float64, 5)
    x = ua.asarray(a)[:, 1::2, ::2]
    _close(LA.det(x), np.linalg.det(a[:, 1::2, ::2]), ua.float64)


# ---------------------------------------------------------------- cholesky / qr / svd / eigh

@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(4, 4), (3, 6, 6), (0, 2, 2), (1, 1)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dt, shape, upper):
    a = _hpd(shape, dt, 6)
    got = LA.cholesky(ua.asarray(a), upper=upper)
    assert got.dtype == dt
    f = ua.asnumpy(got)
    expected = np.linalg.cholesky(a) if a.size else a
    if upper:
        expected = _ct(expected)
        assert np.all(np.tril(f, -1) == 0)
        np.testing.assert_allclose(_ct(f) @ f, a, rtol=_tol(dt), atol=_tol(dt) * shape[-1])
    else:
        assert np.all(np.triu(f, 1) == 0)
        np.testing.assert_allclose(f @ _ct(f), a, rtol=_tol(dt), atol=_tol(dt) * shape[-1])
    _close(got, expected, dt)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_cholesky_not_positive_definite(dt):
    a = np.array([[1, 2], [2, 1]], dtype=dt)
    with pytest.raises(LA.LinAlgError):
        LA.cholesky(ua.asarray(a))
    with pytest.raises(LA.LinAlgError):
        LA.cholesky(ua.asarray(np.stack([np.eye(2, dtype=dt), a])), upper=True)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 2, 3, 5), (0, 3, 2),
                                   (3, 0), (0, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dt, shape, mode):
    a = _rand(shape, dt, 7)
    q, r = LA.qr(ua.asarray(a), mode=mode)
    q0, r0 = np.linalg.qr(a, mode=mode)
    assert q.shape == q0.shape and r.shape == r0.shape and q.dtype == dt and r.dtype == dt
    qh, rh = ua.asnumpy(q), ua.asnumpy(r)
    np.testing.assert_allclose(qh @ rh, a, rtol=_tol(dt), atol=_tol(dt) * 10)
    assert np.all(np.tril(rh, -1) == 0)
    k = q0.shape[-1]
    np.testing.assert_allclose(_ct(qh) @ qh, np.broadcast_to(np.eye(k), q0.shape[:-2] + (k, k)),
                               atol=_tol(dt) * 10)
    # unique up to the signs (phases) of R's diagonal
    np.testing.assert_allclose(np.abs(rh), np.abs(r0), rtol=_tol(dt), atol=_tol(dt) * 10)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 2, 3, 5), (0, 3, 2),
                                   (3, 0), (1, 1)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dt, shape, full, variant):
    # variant: the host LAPACK's gesdd on the CPU device, or oneMKL's SYCL gesvd
    a = _rand(shape, dt, 8)
    u, s, vh = LA.svd(ua.asarray(a), full_matrices=full)
    u0, s0, vh0 = np.linalg.svd(a, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (u0.shape, s0.shape, vh0.shape)
    assert u.dtype == dt and vh.dtype == dt and s.dtype == s0.dtype
    _close(s, s0, dt, scale=10)
    uh, sh, vhh = ua.asnumpy(u), ua.asnumpy(s), ua.asnumpy(vh)
    k = s0.shape[-1]
    rec = (uh[..., :, :k] * sh[..., None, :]) @ vhh[..., :k, :]
    np.testing.assert_allclose(rec, a, rtol=_tol(dt), atol=_tol(dt) * 10)
    for m in (uh, _ct(vhh)):
        c = m.shape[-1]
        np.testing.assert_allclose(_ct(m) @ m, np.broadcast_to(np.eye(c), m.shape[:-2] + (c, c)),
                                   atol=_tol(dt) * 10)
    _close(LA.svdvals(ua.asarray(a)), s0, dt, scale=10)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_svd_nonfinite_input_raises(dt, variant):
    # NumPy raises LinAlgError ("SVD did not converge") for NaN input
    a = _rand((4, 3), dt, 12)
    a[1, 2] = np.nan
    with pytest.raises(LA.LinAlgError):
        LA.svd(ua.asarray(a))
    with pytest.raises(LA.LinAlgError):
        LA.svdvals(ua.asarray(a))


@pytest.mark.parametrize("dt", [d for d in FLOATS if d.kind == "f"], ids=lambda d: d.name)
def test_svd_of_infinities_is_nan_as_numpy(dt, variant):
    """The SVD of a matrix with infinities (and no NaN) is NaN, as NumPy's
    singular values (its U and Vh are partly NaN; NumPy's batched SVD of
    such a stack did not return here: no oracle); the host gesdd gave a
    finite U, the SYCL path an error. The other matrices of the batch are
    factored as usual."""
    a = _rand((3, 4, 3), dt, 5)
    a[1, 0, 2] = np.inf
    a[2, 3, 0] = -np.inf
    assert np.isnan(np.linalg.svd(a[1].astype(np.float64), compute_uv=False)).all()
    u, s, vh = LA.svd(ua.asarray(a))
    for got in (u, s, vh):
        g = ua.asnumpy(got)
        assert np.isnan(g[1:]).all() and np.isfinite(g[0]).all()
    _close(s[0], np.linalg.svd(a[0].astype(np.float64), compute_uv=False), dt, scale=10)
    assert np.isnan(ua.asnumpy(LA.svdvals(ua.asarray(a[1])))).all()
    assert np.isnan(ua.asnumpy(LA.pinv(ua.asarray(a[1])))).all()
    assert int(LA.matrix_rank(ua.asarray(a[1]))) == np.linalg.matrix_rank(a[1]) == 0


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(4, 4), (3, 6, 6), (2, 1, 3, 3), (0, 2, 2), (1, 1)])
def test_eigh(dt, shape):
    h = _rand(shape, dt, 9)
    a = (h + _ct(h)).astype(dt)
    w, v = LA.eigh(ua.asarray(a))
    w0 = np.linalg.eigvalsh(a)
    assert w.dtype == w0.dtype and v.dtype == dt and v.shape == a.shape
    _close(w, w0, dt, scale=10)
    vh, wh = ua.asnumpy(v), ua.asnumpy(w)
    np.testing.assert_allclose((vh * wh[..., None, :]) @ _ct(vh), a, rtol=_tol(dt),
                               atol=_tol(dt) * 10)
    _close(LA.eigvalsh(ua.asarray(a)), w0, dt, scale=10)


def test_eigh_reads_lower_triangle():
    a = _rand((5, 5), np.float64, 10)
    lower = np.tril(a) + np.tril(a, -1).T
    _close(LA.eigvalsh(ua.asarray(a)), np.linalg.eigvalsh(lower), ua.float64)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (0, 2, 2)])
def test_eig(dt, shape):
    a = _rand(shape, dt, 11)
    w, v = LA.eig(ua.asarray(a))
    cdt = np.complex64 if dt in (ua.float32, ua.complex64) else np.complex128
    assert w.dtype == cdt and v.dtype == cdt and w.shape == shape[:-1] and v.shape == shape
    vh, wh = ua.asnumpy(v), ua.asnumpy(w)
    np.testing.assert_allclose(a @ vh, vh * wh[..., None, :], rtol=_tol(dt), atol=_tol(dt) * 10)
    w2 = ua.asnumpy(LA.eigvals(ua.asarray(a)))
    np.testing.assert_allclose(np.sort_complex(w2.reshape(-1)), np.sort_complex(wh.reshape(-1)),
                               rtol=_tol(dt), atol=_tol(dt) * 10)


# ---------------------------------------------------------------- composites

@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 2, 3), (2, 0)])
def test_pinv_matrix_rank(dt, shape):
    a = _rand(shape, dt, 12)
    _close(LA.pinv(ua.asarray(a)), np.linalg.pinv(a) if a.size else np.zeros(
        shape[:-2] + shape[:-3:-1], dt), dt, scale=10)
    r = LA.matrix_rank(ua.asarray(a))
    assert r.dtype == ua.int64
    np.testing.assert_array_equal(ua.asnumpy(r), np.linalg.matrix_rank(a) if a.size else
                                  np.zeros(shape[:-2], np.int64))


def test_matrix_rank_rtol():
    a = np.diag([1.0, 1e-3, 1e-9]).astype(np.float64)
    stack = ua.asarray(np.stack([a, a]))
    assert int(LA.matrix_rank(ua.asarray(a))) == 3
    assert int(LA.matrix_rank(ua.asarray(a), rtol=1e-6)) == 2
    got = LA.matrix_rank(stack, rtol=ua.asarray(np.array([1e-6, 1e-2])))
    np.testing.assert_array_equal(ua.asnumpy(got), [2, 1])
    p = LA.pinv(ua.asarray(a), rtol=1e-6)
    np.testing.assert_allclose(ua.asnumpy(p), np.diag([1.0, 1e3, 0.0]))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dt, ord, keepdims):
    a = _rand((2, 3, 4), dt, 13)
    got = LA.matrix_norm(ua.asarray(a), ord=ord, keepdims=keepdims)
    expected = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    assert got.dtype == expected.dtype
    _close(got, expected, dt, scale=10)


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # NumPy's ord=-1 with a 0
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("ord", [2, 1, 0, np.inf, -np.inf, 3, 0.5, -1])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (-1, False), ((0, 2), True),
                                            ((1, 0), False), (1, True)])
def test_vector_norm(dt, ord, axis, keepdims):
    a = _rand((2, 3, 4), dt, 14)
    a[0, 0, 0] = 0
    got = LA.vector_norm(ua.asarray(a), ord=ord, axis=axis, keepdims=keepdims)
    expected = np.linalg.vector_norm(a, ord=ord, axis=axis, keepdims=keepdims)
    assert got.dtype == expected.dtype
    _close(got, expected, dt, scale=10)


def test_vector_norm_view():
    a = _rand((6, 8), np.float64, 15)
    _close(LA.vector_norm(ua.asarray(a)[::2, ::-3], axis=0), np.linalg.vector_norm(
        a[::2, ::-3], axis=0), ua.float64)


@pytest.mark.parametrize("dt", [ua.int64] + FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(dt, n):
    if n < 0 and np.dtype(dt).kind in "iu":
        a = np.array([[2, 1], [1, 1]], dtype=dt)
    else:
        a = (_well((2, 3, 3), dt, 16) / 3).astype(dt) if np.dtype(dt).kind in "fc" else \
            np.arange(18, dtype=dt).reshape(2, 3, 3) % 3
    got = LA.matrix_power(ua.asarray(a), n)
    expected = np.linalg.matrix_power(a, n)
    if np.dtype(dt).kind in "iu" and n >= 0:
        assert got.dtype == dt
        np.testing.assert_array_equal(ua.asnumpy(got), expected)
    else:
        _close(got, expected, expected.dtype, scale=10)


def test_matrix_power_is_new_array():
    x = ua.asarray(np.eye(2))
    y = LA.matrix_power(x, 1)
    y[0, 0] = 5
    assert float(x[0, 0]) == 1


@pytest.mark.parametrize("s1, s2, axis", [((3,), (3,), -1), ((4, 3), (3,), -1),
                                          ((3, 5), (3, 5), -2), ((2, 1, 3), (4, 3), -1)])
def test_cross(s1, s2, axis):
    a, b = _rand(s1, np.float64, 17), _rand(s2, np.float64, 18)
    _close(LA.cross(ua.asarray(a), ua.asarray(b), axis=axis), np.cross(a, b, axis=axis),
           ua.float64)
    ai = np.arange(6).reshape(2, 3)
    got = LA.cross(ua.asarray(ai), ua.asarray(ai[::-1]))
    assert got.dtype == ua.int64
    np.testing.assert_array_equal(ua.asnumpy(got), np.cross(ai, ai[::-1]))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "float32", "complex64"])
def test_cross_views_and_types(dt):
    """One kernel writes the three components: into 1-d results (0-d
    component views), from reversed and strided views; integers wrap as
    NumPy's; bool is refused as by NumPy."""
    a = (np.arange(12) * 37 % 23 - 11).astype(dt).reshape(4, 3)
    b = (np.arange(12) * 11 % 17 - 8).astype(dt).reshape(4, 3)
    x, y = ua.asarray(a), ua.asarray(b)
    with np.errstate(over="ignore"):
        for p, q, hp, hq in ((x[0], y[1], a[0], b[1]), (x[0, ::-1], y[2], a[0, ::-1], b[2]),
                             (x[::-2], y[::2, ::-1], a[::-2], b[::2, ::-1]), (x.T, y.T, a.T, b.T)):
            axis = 0 if p.shape[0] == 3 and p.ndim == 2 else -1
            want = np.cross(hp, hq, axis=axis)
            got = LA.cross(p, q, axis=-2 if axis == 0 else -1)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-6)
    with pytest.raises(TypeError):
        LA.cross(ua.asarray([True, False, True]), ua.asarray([True, True, True]))


def test_outer():
    a, b = np.arange(3.0), np.arange(4) - 1
    got = LA.outer(ua.asarray(a), ua.asarray(b))
    np.testing.assert_array_equal(ua.asnumpy(got), np.outer(a, b))


@pytest.mark.parametrize("offset", [0, 1, -2, 5, -5])
def test_diagonal_trace(offset):
    a = np.arange(2 * 4 * 5).reshape(2, 4, 5).astype(np.int32)
    d = LA.diagonal(ua.asarray(a), offset=offset)
    np.testing.assert_array_equal(ua.asnumpy(d), np.diagonal(a, offset, -2, -1))
    t = LA.trace(ua.asarray(a), offset=offset)
    assert t.dtype == ua.int64      # as sum: integers accumulate in the default integer type
    np.testing.assert_array_equal(ua.asnumpy(t), np.trace(a, offset, -2, -1))
    t = LA.trace(ua.asarray(a), offset=offset, dtype=ua.float32)
    assert t.dtype == ua.float32
    # a view of a view
    v = ua.asarray(a)[:, ::-1, 1:]
    np.testing.assert_array_equal(ua.asnumpy(LA.diagonal(v, offset=offset)),
                                  np.diagonal(a[:, ::-1, 1:], offset, -2, -1))


def test_reexports_and_capabilities():
    assert LA.matmul is ua.matmul and LA.tensordot is ua.tensordot
    assert LA.vecdot is ua.vecdot and LA.matrix_transpose is ua.matrix_transpose
    assert "linalg" in ua.__array_namespace_info__().capabilities()["extensions"]
    for name in LA.__all__:
        assert callable(getattr(LA, name))


def test_results_are_named_tuples():
    a = ua.asarray(_hpd((3, 3), np.float64))
    assert LA.eigh(a).eigenvectors.shape == (3, 3)
    assert LA.qr(a).R.shape == (3, 3)
    assert LA.svd(a).Vh.shape == (3, 3)
    assert LA.slogdet(a).logabsdet.shape == ()
    assert LA.eig(a).eigenvalues.shape == (3,)


def test_results_are_independent_of_inputs():
    h = _well((4, 4), np.float64)
    x = ua.asarray(h)
    for f in (LA.inv, LA.cholesky, LA.det):
        f(ua.asarray(_hpd((4, 4), np.float64)))
    LA.inv(x)
    LA.solve(x, x)
    LA.qr(x)
    LA.svd(x)
    np.testing.assert_array_equal(ua.asnumpy(x), h)


def test_other_queues():
    # an out-of-order queue: the LAPACK calls must wait for the copies before them by events
    dev = ua.get_default_queue().sycl_device
    ctx = dpctl.SyclContext(dev)
    q1, q2 = dpctl.SyclQueue(ctx, dev), dpctl.SyclQueue(ctx, dev)
    a, b = _well((3, 6, 6), np.float64, 20), _rand((3, 6, 2), np.float64, 21)
    spd = _hpd((3, 6, 6), np.float64, 22)
    for _ in range(3):
        x, y, s = (ua.asarray(h, sycl_queue=q1) for h in (a, b, spd))
        sol = LA.solve(ua.multiply(x, 1.0), ua.multiply(y, 1.0))
        assert sol.sycl_queue == q1
        _close(sol, np.linalg.solve(a, b), ua.float64)
        _close(LA.inv(ua.multiply(x, 1.0)), np.linalg.inv(a), ua.float64)
        _close(LA.det(ua.multiply(x, 1.0)), np.linalg.det(a), ua.float64, scale=1e6)
        _close(LA.cholesky(ua.multiply(s, 1.0)), np.linalg.cholesky(spd), ua.float64)
        _close(LA.svdvals(ua.multiply(x, 1.0)), np.linalg.svd(a, compute_uv=False), ua.float64)
        _close(LA.eigvalsh(ua.multiply(s, 1.0)), np.linalg.eigvalsh(spd), ua.float64)
    with pytest.raises(ua.ExecutionPlacementError):
        LA.solve(ua.asarray(a, sycl_queue=q1), ua.asarray(b, sycl_queue=q2))


def test_missing_onemkl_raises_import_error():
    # import usmarray works without oneMKL; the first linalg call says what to install
    code = textwrap.dedent("""
        import usmarray as ua
        from usmarray._core import _mkl
        _mkl._LIBRARIES = _mkl._LIBRARIES + (("onemkl-sycl-nothing", "libmkl_nothing.so.0"),)
        x = ua.asarray([[2.0, 0.0], [0.0, 2.0]])
        for attempt in range(2):
            try:
                ua.linalg.inv(x)
            except ImportError as e:
                assert "pip install" in str(e) and "onemkl-sycl-lapack" in str(e), e
            else:
                raise SystemExit("no ImportError")
        print("ok", float(ua.sum(x)))
    """)
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok 4.0"


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (3, 0), (0, 3)])
@pytest.mark.parametrize("ord", [1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"])
def test_matrix_norm_of_empty_matrices(shape, ord):
    # NumPy's answers: the largest of no sums or singular values is 0, the
    # smallest of none an error
    h = np.zeros(shape)
    try:
        want = np.linalg.norm(h, ord=ord, axis=(-2, -1))
    except ValueError:
        with pytest.raises(ValueError):
            ua.linalg.matrix_norm(ua.asarray(h), ord=ord)
        return
    np.testing.assert_array_equal(ua.asnumpy(ua.linalg.matrix_norm(ua.asarray(h), ord=ord)), want)
