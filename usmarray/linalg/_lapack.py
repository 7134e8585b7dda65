"""Factorisations through oneMKL's LAPACK: solve, inv, det, slogdet,
cholesky, qr, svd, svdvals, eigh, eigvalsh (and eig, eigvals on the host).

LAPACK stores matrices column-major, so the C-contiguous copy of a matrix
every factorisation needs anyway (LAPACK overwrites its input) is, to LAPACK,
the transpose. Each function uses that instead of transposing: inverse,
determinant, Cholesky and SVD factor the transpose and read their results
back as transposes; solve factors A^T and solves with its transpose. Only QR
and eigh need column-major copies (the engine's copy writes those directly).
The engine's layout contract (kernels/engine/linalg.cpp): a batch of
column-major r x c matrices is a C-contiguous (B, c, r) array.
"""

import math
from typing import NamedTuple

import numpy as np

from .. import elementwise as ew
from .._core import _dtypes, _engine, _mkl
from .._core._array import empty_array, usm_ndarray, view
from .._core._copy import asnumpy, broadcast_view, copy, copy_into, from_host
from .._core._device import coerce_usm_type, common_queue
from .._core._layout import broadcast_shapes
from ..creation import eye, ones, tril, triu, zeros
from ..manipulation import reshape
from ..reduction import all as rall, any as rany, prod, sum as rsum
from ..searching import where

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr", "svd", "svdvals",
           "eigh", "eigvalsh", "eig", "eigvals", "EighResult", "QRResult", "SlogdetResult",
           "SVDResult", "EigResult"]


class LinAlgError(np.linalg.LinAlgError):   # (a ValueError too, as NumPy's)
    """A matrix is singular (solve, inv), not positive-definite (cholesky), or
    a factorisation did not converge (svd, eigh)."""

    __module__ = "usmarray.linalg"


class EighResult(NamedTuple):
    eigenvalues: usm_ndarray
    eigenvectors: usm_ndarray


class EigResult(NamedTuple):
    eigenvalues: usm_ndarray
    eigenvectors: usm_ndarray


class QRResult(NamedTuple):
    Q: usm_ndarray
    R: usm_ndarray


class SlogdetResult(NamedTuple):
    sign: usm_ndarray
    logabsdet: usm_ndarray


class SVDResult(NamedTuple):
    U: usm_ndarray
    S: usm_ndarray
    Vh: usm_ndarray


_REAL = {_dtypes.complex64: _dtypes.float32, _dtypes.complex128: _dtypes.float64}


def compute_dtype(name, *arrays):
    """The floating dtype `name` computes in: the arrays' result type, with
    integers and bool promoted to the device's default floating type and
    float16 to float32."""
    for x in arrays:
        if not isinstance(x, usm_ndarray):
            raise TypeError(f"{name}: expected usm_ndarrays, got {type(x).__name__}")
    qi = common_queue(*arrays) if len(arrays) > 1 else arrays[0]._q
    dt = _dtypes.result_type(*arrays) if len(arrays) > 1 else arrays[0].dtype
    if dt.kind in "biu":
        return qi, qi.float
    if dt == _dtypes.float16:
        return qi, _dtypes.float32
    _dtypes.check_device_support(dt, qi)
    return qi, dt


def real_dtype(dt):
    return _REAL.get(dt, dt)


def matrices(name, x, square=False):
    """Validate a stack of matrices; (batch shape, B, rows, cols)."""
    if x.ndim < 2:
        raise ValueError(f"{name}: expected an array of at least 2 dimensions, got shape {x.shape}")
    m, n = x.shape[-2:]
    if square and m != n:
        raise ValueError(f"{name}: expected square matrices, got shape {x.shape}")
    batch = x.shape[:-2]
    return batch, math.prod(batch), m, n


def _check(info, name, what):
    if info:
        raise LinAlgError(f"{name}: {what}")


def row_major(x, dt, batch, B, m, n):
    """A C-contiguous (B, m, n) copy of x (broadcast to `batch`) in dtype dt:
    to LAPACK, the column-major n x m transposes."""
    w = empty_array((B, m, n), dt, x._q, x.usm_type)
    if B * m * n:
        copy_into(view(w, 0, batch + (m, n), _bstrides(batch, m * n) + (n, 1)),
                  broadcast_view(x, batch + (m, n)))
    return w


def col_major(x, dt, batch, B, m, n, kind=None):
    """A C-contiguous (B, n, m) array holding x's m x n matrices column-major
    (of USM type `kind`, default x's)."""
    w = empty_array((B, n, m), dt, x._q, kind or x.usm_type)
    if B * m * n:
        copy_into(view(w, 0, batch + (m, n), _bstrides(batch, m * n) + (1, m)),
                  broadcast_view(x, batch + (m, n)))
    return w


def _bstrides(batch, inner):
    st = []
    acc = inner
    for d in reversed(batch):
        st.append(acc)
        acc *= d
    return tuple(reversed(st))


def as_rows(w, batch, r, c):
    """The C-contiguous buffer w viewed as batch + (r, c) matrices stored row-major."""
    return view(w, w._off, batch + (r, c), _bstrides(batch, r * c) + (c, 1))


def as_cols(w, batch, r, c):
    """The buffer w (B, c, r) viewed as batch + (r, c) matrices stored column-major."""
    return view(w, w._off, batch + (r, c), _bstrides(batch, r * c) + (1, r))


def _lu(name, x, dt, batch, B, n):
    """LU factors of x^T (the C copy of x) and pivots, and getrf's info."""
    lu = row_major(x, dt, batch, B, n, n)
    piv = empty_array((B, n), _dtypes.int64, x._q, x.usm_type)
    _mkl.load()
    _, info = _engine.lapack_getrf(x._q.ref, lu, piv)
    return lu, piv, info


def solve(x1, x2, /):
    """Solution X of A X = B for square A (``x1``) and B (``x2``).

    ``x2`` of shape (M,) is one vector for every matrix of ``x1``; otherwise
    ``x2`` is a stack of M x K matrices whose batch dimensions broadcast with
    ``x1``'s (array API 2025.12). Raises LinAlgError for singular matrices.
    """
    qi, dt = compute_dtype("solve", x1, x2)
    abatch, _, m, _ = matrices("solve", x1, square=True)
    if x2.ndim == 1:
        if x2.shape[0] != m:
            raise ValueError(f"solve: x2 of shape {x2.shape} does not match x1 of shape {x1.shape}")
        batch = abatch
        b = x2[:, None]
        k = 1
    else:
        if x2.ndim < 2 or x2.shape[-2] != m:
            raise ValueError(f"solve: x2 of shape {x2.shape} does not match x1 of shape {x1.shape}")
        batch = broadcast_shapes(abatch, x2.shape[:-2])
        b, k = x2, x2.shape[-1]
    B = math.prod(batch)
    rhs = col_major(b, dt, batch, B, m, k, coerce_usm_type((x1.usm_type, x2.usm_type)))
    if B and m and k:
        if abatch:
            lu, piv, info = _lu("solve", x1, dt, batch, B, m)
            b_lapack = rhs
        else:
            # one matrix for every right-hand side: factor it once; the
            # column-major stack is one m x (B * k) right-hand side
            lu, piv, info = _lu("solve", x1, dt, (), 1, m)
            b_lapack = view(rhs, 0, (1, B * k, m), (B * k * m, m, 1))
        _check(info, "solve", "singular matrix")
        # lu holds the factors of A^T: solve with their transpose
        _engine.lapack_getrs(qi.ref, lu, piv, b_lapack, True)
    out = as_cols(rhs, batch, m, k)
    return out[..., 0] if x2.ndim == 1 else out


def inv(x, /):
    """Inverses of square matrices; LinAlgError for singular ones."""
    qi, dt = compute_dtype("inv", x)
    batch, B, n, _ = matrices("inv", x, square=True)
    if not B or not n:
        return empty_array(x.shape, dt, qi, x.usm_type)
    lu, piv, info = _lu("inv", x, dt, batch, B, n)
    _check(info, "inv", "singular matrix")
    _, info = _engine.lapack_getri(qi.ref, lu, piv)
    _check(info, "inv", "singular matrix")
    # the inverse of the transpose, read row-major: the inverse
    return as_rows(lu, batch, n, n)


def _lu_diagonal(lu, batch, n):
    return view(lu, lu._off, batch + (n,), _bstrides(batch, n * n) + (n + 1,))


def _permutation_sign(piv, batch, n, dt):
    # (-1) ** (number of rows getrf swapped), counted on the host: the pivots
    # are a few bytes per matrix, and oneMKL's getrf on a CPU device has
    # finished when it returns; device kernels for this would cost a first
    # call four more kernel bundles to load
    swaps = np.count_nonzero(asnumpy(piv) != np.arange(1, n + 1), axis=-1)
    sign = np.where(swaps % 2 == 1, -1, 1).astype(dt).reshape(batch)
    return from_host(sign, piv._q, piv.usm_type)


def det(x, /):
    """Determinants of square matrices (from their LU factors)."""
    qi, dt = compute_dtype("det", x)
    batch, B, n, _ = matrices("det", x, square=True)
    if not B or not n:
        return ones(batch, dtype=dt, device=x.device, usm_type=x.usm_type)
    lu, piv, _ = _lu("det", x, dt, batch, B, n)  # singular: det 0, not an error
    # one product over the diagonal and the permutation's sign, side by side
    # (copies, not a multiply kernel: one bundle less to load on a first call)
    factors = empty_array((B, n + 1), dt, qi, x.usm_type)
    copy_into(view(factors, 0, batch + (n,), _bstrides(batch, n + 1) + (1,)),
              _lu_diagonal(lu, batch, n))
    copy_into(view(factors, n, batch, _bstrides(batch, n + 1)),
              _permutation_sign(piv, batch, n, dt))
    return reshape(prod(factors, axis=-1), batch)


def slogdet(x, /):
    """Sign (a unit-modulus complex number for complex matrices, 0 when
    singular) and natural log of the absolute value of the determinants."""
    qi, dt = compute_dtype("slogdet", x)
    batch, B, n, _ = matrices("slogdet", x, square=True)
    rdt = real_dtype(dt)
    if not B or not n:
        return SlogdetResult(ones(batch, dtype=dt, device=x.device, usm_type=x.usm_type),
                             zeros(batch, dtype=rdt, device=x.device, usm_type=x.usm_type))
    lu, piv, _ = _lu("slogdet", x, dt, batch, B, n)
    d = _lu_diagonal(lu, batch, n)
    sign = ew.multiply(prod(ew.sign(d), axis=-1), _permutation_sign(piv, batch, n, dt))
    return SlogdetResult(sign, rsum(ew.log(ew.abs(d)), axis=-1))


def cholesky(x, /, *, upper=False):
    """Cholesky factor L (L @ L^H = x), or U (U^H @ U = x) with ``upper``, of
    Hermitian positive-definite matrices (their lower triangle is read).
    LinAlgError when a matrix is not positive-definite."""
    qi, dt = compute_dtype("cholesky", x)
    batch, B, n, _ = matrices("cholesky", x, square=True)
    w = row_major(x, dt, batch, B, n, n)
    if B and n:
        _mkl.load()
        # LAPACK sees x^T = conj(x): its upper factor U' (U'^H U' = x^T) read
        # row-major is U'^T, the lower factor of x; likewise for upper
        _, info = _engine.lapack_potrf(qi.ref, w, not upper)
        _check(info, "cholesky", "matrix is not positive-definite")
    r = as_rows(w, batch, n, n)
    return triu(r) if upper else tril(r)


def qr(x, /, *, mode="reduced"):
    """QR factorisation: Q with orthonormal columns, R upper triangular.
    ``mode`` "reduced" (Q m x k, R k x n, k = min(m, n)) or "complete"
    (Q m x m, R m x n)."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', got {mode!r}")
    qi, dt = compute_dtype("qr", x)
    batch, B, m, n = matrices("qr", x)
    k = min(m, n)
    qcols = m if mode == "complete" else k
    rrows = m if mode == "complete" else k
    a = col_major(x, dt, batch, B, m, n)
    tau = empty_array((B, max(k, 1)), dt, qi)
    qbuf = empty_array((B, qcols, m), dt, qi, x.usm_type)
    if B and k:
        _mkl.load()
        _engine.lapack_geqrf(qi.ref, a, tau)
    r = triu(as_cols(a, batch, m, n)[..., :rrows, :])
    if B and m and qcols:
        if k:
            # the reflectors are the first k columns of a (contiguous column-major)
            c = min(qcols, n)
            copy_into(view(qbuf, 0, (B, c, m), (qcols * m, m, 1)),
                      view(a, 0, (B, c, m), (n * m, m, 1)))
            _engine.lapack_orgqr(qi.ref, qbuf, tau, k)
            q = as_cols(qbuf, batch, m, qcols)
        else:
            q = eye(m, qcols, dtype=dt, device=x.device, usm_type=x.usm_type)
            q = copy(broadcast_view(q, batch + (m, qcols)))
    else:
        q = as_cols(qbuf, batch, m, qcols)
    return QRResult(q, r)


def _gesvd(name, x, job):
    qi, dt = compute_dtype(name, x)
    batch, B, m, n = matrices(name, x)
    k = min(m, n)
    # LAPACK sees x^T = U_t S Vt_t: x's U is Vt_t^T and its Vh is U_t^T, each
    # the row-major reading of the column-major result
    a = row_major(x, dt, batch, B, m, n)
    s = empty_array((B, k), real_dtype(dt), qi, x.usm_type)
    ucols = m if job == "A" else k
    vrows = n if job == "A" else k
    u = vh = None
    if job != "N":
        u = empty_array((B, m, ucols), dt, qi, x.usm_type)
        vh = empty_array((B, vrows, n), dt, qi, x.usm_type)
    if B and k:
        _mkl.load()
        # CPU devices: the host LAPACK's gesdd (KernelCache.simd on;
        # kernels/mkl/host.cpp says why). Non-finite input as NumPy's: a NaN
        # does not converge (LinAlgError), a matrix with infinities (and no
        # NaN) gives NaN factors; gesdd returned a finite U for those and
        # oneMKL's SYCL gesvd NaNs for both.
        host = qi.kc.simd
        inf = None
        if not bool(rall(ew.isfinite(a))):
            if bool(rany(ew.isnan(a))):
                _check(1, name, "the SVD did not converge")
            inf = rany(ew.isinf(a), axis=(1, 2), keepdims=True)   # (B, 1, 1)
            a = where(inf, 0.0, a)
        _, info = _engine.lapack_gesvd(qi.ref, a, s, vh if vh is not None else s,
                                       u if u is not None else s, job, host)
        _check(info, name, "the SVD did not converge")
        if inf is not None:
            s = where(reshape(inf, (B, 1)), float("nan"), s)
            if u is not None:
                u, vh = where(inf, float("nan"), u), where(inf, float("nan"), vh)
    elif job == "A" and B:
        # no singular values: U and Vh are identities
        if m:
            copy_into(u, broadcast_view(eye(m, dtype=dt, device=x.device, usm_type=x.usm_type), (B, m, m)))
        if n:
            copy_into(vh, broadcast_view(eye(n, dtype=dt, device=x.device, usm_type=x.usm_type), (B, n, n)))
    s = reshape(s, batch + (k,))
    if job == "N":
        return s
    return SVDResult(as_rows(u, batch, m, ucols), s, as_rows(vh, batch, vrows, n))


def svd(x, /, *, full_matrices=True):
    """Singular value decomposition x = U @ diag(S) @ Vh, singular values
    descending. ``full_matrices``: U m x m and Vh n x n, else m x k and k x n."""
    return _gesvd("svd", x, "A" if full_matrices else "S")


def svdvals(x, /):
    """Singular values, descending."""
    return _gesvd("svdvals", x, "N")


def _heevd(name, x, vectors):
    qi, dt = compute_dtype(name, x)
    batch, B, n, _ = matrices(name, x, square=True)
    a = col_major(x, dt, batch, B, n, n)
    w = empty_array((B, n), real_dtype(dt), qi, x.usm_type)
    if B and n:
        _mkl.load()
        _, info = _engine.lapack_heevd(qi.ref, a, w, vectors)
        _check(info, name, "the eigenvalue computation did not converge")
    w = reshape(w, batch + (n,))
    if not vectors:
        return w
    return EighResult(w, as_cols(a, batch, n, n))


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian
    matrices; the lower triangle is read."""
    return _heevd("eigh", x, True)


def eigvalsh(x, /):
    """Eigenvalues, ascending, of Hermitian matrices (lower triangle read)."""
    return _heevd("eigvalsh", x, False)


def _geev(name, x, vectors):
    # oneMKL's SYCL LAPACK has no geev (nonsymmetric eigenproblem): the
    # matrices go to the host and NumPy's LAPACK, and the results come back.
    qi, dt = compute_dtype(name, x)
    batch, B, n, _ = matrices(name, x, square=True)
    cdt = np.dtype(np.complex64) if dt in (_dtypes.float32, _dtypes.complex64) else \
        np.dtype(np.complex128)
    h = asnumpy(x).astype(dt if dt.kind == "c" else real_dtype(dt), copy=False)
    if B and n:
        try:
            w, v = np.linalg.eig(h)
        except np.linalg.LinAlgError as e:
            raise LinAlgError(f"{name}: {e}") from None
    else:
        w, v = np.zeros(batch + (n,), cdt), np.zeros(batch + (n, n), cdt)
    w = from_host(np.ascontiguousarray(w.astype(cdt, copy=False)), qi, x.usm_type)
    if not vectors:
        return w
    return EigResult(w, from_host(np.ascontiguousarray(v.astype(cdt, copy=False)), qi,
                                  x.usm_type))


def eig(x, /):
    """Eigenvalues and eigenvectors (columns, unit norm) of general square
    matrices, complex. Computed on the host by NumPy's LAPACK (oneMKL's SYCL
    LAPACK has no nonsymmetric eigensolver); the results are device arrays."""
    return _geev("eig", x, True)


def eigvals(x, /):
    """Eigenvalues of general square matrices, complex (on the host, see eig)."""
    return _geev("eigvals", x, False)
