"""NumPy's power-series polynomial functions (coefficients highest power
first): ``polyval``, ``polyfit``, ``roots``, ``poly``, ``polyadd``,
``polysub``, ``polymul``, ``polydiv``, ``polyder`` and ``polyint``.

``polyval`` and ``polyfit`` stay on the device (``polyfit`` is NumPy's
scaled least squares, solved by an SVD). ``roots`` and ``poly`` of a
matrix need eigenvalues of a general matrix, which ``linalg.eigvals``
computes on the host (oneMKL's SYCL LAPACK has no ``geev``); ``roots``
also reads the coefficients, whose zeros decide the degree. ``polydiv``
divides on the host: the remainder's length depends on its values, and
the coefficients are few."""

import warnings

import numpy as np

from . import creation, elementwise as ew, linalg, manipulation, reduction
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import asnumpy, astype
from ._core._device import coerced_kind
from .convolution import convolve
from .matrices import vander
from .searching import nonzero
from .stacking import atleast_1d

__all__ = ["polyval", "polyfit", "roots", "poly", "polyadd", "polysub", "polymul", "polydiv",
           "polyder", "polyint"]


def polyval(p, x):
    """The polynomial with coefficients `p` (highest power first) at `x`, by
    Horner's rule, as ``numpy.polyval``."""
    if not isinstance(p, usm_ndarray):
        raise TypeError("polyval: p must be a usm_ndarray")
    if p.ndim != 1:
        raise ValueError("polyval: p must be 1-d")
    x = x if isinstance(x, usm_ndarray) else creation.asarray(x, **_beside(p))
    y = creation.zeros_like(x)
    for i in range(p.shape[0]):
        y = ew.add(ew.multiply(y, x), p[i])   # (p[i]: a 0-d array, no host read)
    return y


def _beside(like, kind=None):
    """Creation keywords of a helper array beside the array `like`: its
    queue, and its USM type (or `kind`)."""
    return {"sycl_queue": like.sycl_queue, "usm_type": kind or like.usm_type}


def _on_queue(a, like, kind=None):
    return a if isinstance(a, usm_ndarray) else creation.asarray(a, **_beside(like, kind))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial fit of degree `deg` to points (x, y), as
    ``numpy.polyfit``.

    Parameters
    ----------
    x : usm_ndarray or array_like
        1-d sample points.
    y : usm_ndarray or array_like
        Values at them: 1-d, or 2-d with one data set per column.
    deg : int
        The degree.
    rcond : float, optional
        Relative cut-off of small singular values (default ``len(x) * eps``).
    full : bool
        Also return residuals, rank, singular values and rcond.
    w : usm_ndarray or array_like, optional
        Weights of the points (multiplying the residuals, not their squares).
    cov : bool or "unscaled"
        Also return the covariance matrix of the coefficients.

    Returns
    -------
    usm_ndarray or tuple
        The coefficients, highest power first ((deg + 1,) or (deg + 1, K)),
        then what `full` or `cov` ask for. A rank short of deg + 1 warns
        ``numpy.exceptions.RankWarning`` (unless `full`).
    """
    arrays = [a for a in (x, y, w) if isinstance(a, usm_ndarray)]
    if not arrays:
        raise TypeError("polyfit: expected a usm_ndarray operand")
    like, kind = arrays[0], coerced_kind(arrays)
    order = int(deg) + 1   # (NumPy's int(): a float degree is truncated)
    x, y = ew.add(_on_queue(x, like, kind), 0.0), ew.add(_on_queue(y, like, kind), 0.0)
    if order < 1:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = ew.add(_on_queue(w, like, kind), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = ew.multiply(lhs, manipulation.reshape(w, (-1, 1)))
        rhs = ew.multiply(rhs, w if rhs.ndim == 1 else manipulation.reshape(w, (-1, 1)))
    # columns scaled to unit norm: a better conditioned problem
    # (NumPy's: lhs * lhs, a complex scale for complex x)
    scale = ew.sqrt(reduction.sum(ew.multiply(lhs, lhs), axis=0))
    lhs = ew.divide(lhs, scale)
    dt = _dtypes.result_type(lhs.dtype, rhs.dtype)
    c, resids, rank, s = linalg.lstsq(astype(lhs, dt, copy=False), astype(rhs, dt, copy=False),
                                      rcond)
    c = ew.divide(c, scale if c.ndim == 1 else manipulation.reshape(scale, (-1, 1)))
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, np.int32(rank), s, rcond   # (NumPy's rank: an int32)
    if not cov:
        return c
    vbase = linalg.inv(linalg.matmul(linalg.matrix_transpose(lhs), lhs))
    vbase = ew.divide(vbase, linalg.outer(scale, scale))
    if cov == "unscaled":
        fac = 1
    else:
        if x.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the "
                             "covariance matrix")
        fac = ew.divide(resids, x.shape[0] - order)
    if y.ndim == 1:
        return c, ew.multiply(vbase, fac)
    return c, ew.multiply(manipulation.reshape(vbase, vbase.shape + (1,)), fac)


def roots(p):
    """The roots of the polynomial with coefficients `p` (highest power
    first), as ``numpy.roots``: the eigenvalues of its companion matrix,
    real when they all are (then of p's real type), else complex."""
    if not isinstance(p, usm_ndarray):
        raise TypeError("roots: p must be a usm_ndarray")
    p = atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    h = asnumpy(p)     # (its zeros decide the degree)
    nz = np.nonzero(h)[0]
    if len(nz) == 0:
        return creation.empty((0,), dtype=_dtypes.device_dtype(np.dtype(np.float64), p._q),
                              **_beside(p))
    trailing = len(h) - nz[-1] - 1
    h = h[nz[0]:nz[-1] + 1]
    if h.dtype.kind not in "fc":
        h = h.astype(float)
    if len(h) > 1:
        a = np.diag(np.ones(len(h) - 2, h.dtype), -1)
        a[0, :] = -h[1:] / h[0]
        r = asnumpy(linalg.eigvals(creation.asarray(a, **_beside(p))))
        if h.dtype.kind != "c" and not r.imag.any():
            r = r.real    # (NumPy's eigvals: real when every eigenvalue is)
    else:
        r = np.empty(0)   # (NumPy's array([]): float64 whatever p's type)
    return creation.asarray(np.concatenate((r, np.zeros(trailing, r.dtype))), **_beside(p))


def poly(seq_of_zeros):
    """The coefficients (highest power first, leading 1) of the monic
    polynomial with the given roots, or of a square matrix's characteristic
    polynomial, as ``numpy.poly``."""
    if not isinstance(seq_of_zeros, usm_ndarray):
        raise TypeError("poly: expected a usm_ndarray")
    z = atleast_1d(seq_of_zeros)
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = linalg.eigvals(z)
    elif len(sh) == 1:
        z = astype(z, np.dtype(np.mintypecode(z.dtype.char)), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    one = creation.ones((1,), dtype=z.dtype, **_beside(z))
    a = one
    for i in range(z.shape[0]):
        a = convolve(a, manipulation.concat([one, ew.negative(z[i:i + 1])]))
    if z.dtype.kind == "c":
        # roots in conjugate pairs: real coefficients
        r = asnumpy(z)
        if np.all(np.sort(r) == np.sort(r.conjugate())):
            a = astype(ew.real(a), ew.real(a).dtype, copy=True)
    return a


def _operands(name, *ps):
    """The coefficient arrays `ps` as 1-d usm_ndarrays on their common queue
    (scalars and host sequences as ``numpy.atleast_1d`` makes them: int64,
    float64, complex128)."""
    arrays = [p for p in ps if isinstance(p, usm_ndarray)]
    if not arrays:
        raise TypeError(f"{name}: expected a usm_ndarray operand")
    kind = coerced_kind(arrays)
    out = [atleast_1d(_on_queue(p, arrays[0], kind)) for p in ps]
    for p in out:
        if p.ndim != 1:
            raise ValueError(f"{name}: coefficients must be 0-d or 1-d, not {p.ndim}-d")
    return out


def _padded_op(name, op, a1, a2):
    a1, a2 = _operands(name, a1, a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = manipulation.concat([creation.zeros((diff,), dtype=a1.dtype, **_beside(a1)), a1])
    elif diff < 0:
        a2 = manipulation.concat([creation.zeros((-diff,), dtype=a2.dtype, **_beside(a2)), a2])
    return op(a1, a2)


def polyadd(a1, a2):
    """The sum of two polynomials (coefficients highest power first, the
    shorter one padded with leading zeros), as ``numpy.polyadd``."""
    return _padded_op("polyadd", ew.add, a1, a2)


def polysub(a1, a2):
    """The difference ``a1 - a2`` of two polynomials, as ``numpy.polysub``."""
    return _padded_op("polysub", ew.subtract, a1, a2)


def _trimmed(p):
    """p without leading zeros, [0] when nothing is left (numpy.poly1d's
    coefficients; the host reads where the first nonzero is)."""
    nz = nonzero(p)[0]
    if nz.shape[0] == 0:
        return creation.zeros((1,), dtype=p.dtype, **_beside(p))
    return p[int(nz[0]):]


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their
    coefficients, leading zeros dropped as NumPy's poly1d drops them), as
    ``numpy.polymul``."""
    a1, a2 = _operands("polymul", a1, a2)
    return convolve(_trimmed(a1), _trimmed(a2))


def polydiv(u, v):
    """Quotient and remainder of the polynomial division ``u / v``, as
    ``numpy.polydiv`` (float results; leading remainder coefficients within
    1e-14 of zero dropped). Computed on the host from the coefficients."""
    u, v = _operands("polydiv", u, v)
    quot, rem = np.polydiv(asnumpy(u), asnumpy(v))
    kind = coerced_kind([u, v])
    return creation.asarray(quot, **_beside(u, kind)), creation.asarray(rem, **_beside(u, kind))


def _descending(n, like):
    """n, n - 1, ..., 1 (int64, NumPy's ``arange(n, 0, -1)``), beside `like`."""
    return creation.arange(n, 0, -1, dtype=_dtypes.int64, **_beside(like))


def polyder(p, m=1):
    """The m-th derivative of a polynomial, as ``numpy.polyder``."""
    m = int(m)   # (NumPy's: a float order is truncated)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    (p,) = _operands("polyder", p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = ew.multiply(p[:-1], _descending(max(n, 0), p))
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of a polynomial, as ``numpy.polyint``: the
    integration constants `k` (a scalar, or m of them, the first for the
    first integration) default to zero."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    (p,) = _operands("polyint", p)
    f64 = _dtypes.device_dtype(_dtypes.float64, p._q)
    if k is None:
        k = creation.zeros((m,), dtype=f64, **_beside(p))
    k = atleast_1d(_on_queue(k, p))
    if k.ndim != 1:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    if k.shape[0] == 1 and m > 1:
        k = ew.multiply(k[0], creation.ones((m,), dtype=f64, **_beside(p)))
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        y = ew.divide(p, _descending(p.shape[0], p))
        p = manipulation.concat([y, k[i:i + 1]])
    return p
