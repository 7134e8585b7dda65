"""linalg functions built from others: norms, rank, pseudo-inverse, powers,
cross and outer products, diagonals and traces."""

import math
import operator

import numpy as np

from .. import elementwise as ew
from .._core import _dtypes
from .._core._array import empty_array, usm_ndarray, view
from .._core._copy import astype, broadcast_view, copy
from .._core._device import coerce_usm_type
from .._core._layout import broadcast_shapes
from ..creation import eye, zeros
from ..linear_algebra import matmul, products_summed
from ..manipulation import expand_dims, matrix_transpose, moveaxis, reshape
from ..reduction import max as rmax, min as rmin, normalize_axes, sum as rsum
from ..searching import count_nonzero, where
from ..user_kernels import ElementwiseKernel, device_items, warm_up
from ._lapack import LinAlgError, compute_dtype, inv, matrices, real_dtype, svd, svdvals

__all__ = ["cross", "diagonal", "matrix_norm", "matrix_power", "matrix_rank", "outer", "pinv",
           "trace", "vector_norm"]


# One kernel for the three components (the six products and three
# differences of the composition were ten kernels and a stack). Integer
# items wrap as NumPy's: the arithmetic is modulo the type's range either way.
_CROSS = ElementwiseKernel(
    "T a0, T a1, T a2, T b0, T b1, T b2", "T c0, T c1, T c2",
    "c0 = a1 * b2 - a2 * b1; c1 = a2 * b0 - a0 * b2; c2 = a0 * b1 - a1 * b0;", "usmarray_cross")


def _warm(qi):
    """Register the cross kernel for the device's floating types (warm-up
    compiles it)."""
    for _, one in device_items(qi, (_dtypes.float32, _dtypes.float64, _dtypes.complex64,
                                    _dtypes.complex128)):
        _CROSS.source(*[one] * 9)


warm_up(_warm, _CROSS)


def _array(name, x):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")


def diagonal(x, /, *, offset=0):
    """The ``offset`` diagonal of each matrix (a view): shape (..., k)."""
    _array("diagonal", x)
    matrices("diagonal", x)
    offset = operator.index(offset)
    m, n = x.shape[-2:]
    s0, s1 = x.strides[-2:]
    if offset >= 0:
        k = max(0, min(m, n - offset))
        start = offset * s1 if k else 0
    else:
        k = max(0, min(m + offset, n))
        start = -offset * s0 if k else 0
    return view(x, x._off + start, x.shape[:-2] + (k,), x.strides[:-2] + (s0 + s1,))


def trace(x, /, *, offset=0, dtype=None):
    """Sums of the ``offset`` diagonals; ``dtype`` as in ``sum``."""
    return rsum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1, x2, /):
    """Outer product of two vectors."""
    _array("outer", x1)
    _array("outer", x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer: expected two 1-d arrays")
    return ew.multiply(x1[:, None], x2[None, :])


def cross(x1, x2, /, *, axis=-1):
    """Cross products of 3-element vectors along ``axis`` (broadcast)."""
    _array("cross", x1)
    _array("cross", x2)
    axis = operator.index(axis)
    if axis >= 0:
        raise ValueError("cross: axis must be negative (it counts from the last dimension)")
    if -axis > min(x1.ndim, x2.ndim):
        raise ValueError(f"cross: axis {axis} is out of bounds for shapes {x1.shape}, {x2.shape}")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: the vectors along axis {axis} must have 3 elements")
    dt = _dtypes.result_type(x1, x2)
    if dt.kind == "b":
        raise TypeError("cross: not defined for bool arrays (as NumPy's: no bool subtract)")
    shape = broadcast_shapes(x1.shape, x2.shape)
    a, b = (broadcast_view(astype(v, dt, copy=False), shape) for v in (x1, x2))
    out = empty_array(shape, dt, x1._q, coerce_usm_type((x1.usm_type, x2.usm_type)))
    ax = len(shape) + axis
    rest = shape[:ax] + shape[ax + 1:]
    # (views, also 0-d ones: indexing would give the output's items as copies)
    comps = [view(v, v._off + i * v._strides[ax], rest, v._strides[:ax] + v._strides[ax + 1:])
             for v in (a, b, out) for i in range(3)]
    _CROSS(*comps)
    return out


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector p-norms over ``axis`` (None: all elements; an int or a tuple):
    ord ±inf, 0 (number of non-zeros), 1, 2, any other real p."""
    _array("vector_norm", x)
    qi, dt = compute_dtype("vector_norm", x)
    rdt = real_dtype(dt)
    axes = normalize_axes(axis, x.ndim)
    xd = x if x.dtype == dt else astype(x, dt)
    if ord == 2:
        # one pass: the sum of conj(x) * x, no |x| or squares stored
        s = products_summed(xd, xd, dt, axis=axes, conj=True, keepdims=keepdims)
        return ew.sqrt(ew.real(s) if dt.kind == "c" else s)
    a = ew.abs(xd)
    if a.dtype != rdt:
        a = astype(a, rdt)
    if ord == math.inf:
        r = rmax(a, axis=axes, keepdims=keepdims) if a.size else \
            zeros(_reduced_shape(x.shape, axes, keepdims), dtype=rdt, device=x.device, usm_type=x.usm_type)
    elif ord == -math.inf:
        r = rmin(a, axis=axes, keepdims=keepdims)
    elif ord == 0:
        r = astype(count_nonzero(a, axis=axes, keepdims=keepdims), rdt)
    elif ord == 1:
        r = rsum(a, axis=axes, keepdims=keepdims)
    else:
        p = float(ord)
        if p == 0 or math.isnan(p):
            raise ValueError(f"vector_norm: invalid ord {ord!r}")
        r = ew.pow(rsum(ew.pow(a, p), axis=axes, keepdims=keepdims), 1.0 / p)
    return r


def _reduced_shape(shape, axes, keepdims):
    return tuple(1 if i in axes else d for i, d in enumerate(shape) if keepdims or i not in axes)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norms: "fro", "nuc", 1, -1, 2, -2, inf, -inf."""
    _array("matrix_norm", x)
    matrices("matrix_norm", x)
    qi, dt = compute_dtype("matrix_norm", x)
    rdt = real_dtype(dt)
    if ord in ("fro", "nuc", 2, -2):
        if ord == "fro":
            r = vector_norm(x, axis=(-2, -1), keepdims=False, ord=2)
        else:
            s = svdvals(x)
            if ord == "nuc":
                r = rsum(s, axis=-1)
            elif s.shape[-1] == 0 and ord == 2:   # (the largest of none: 0, as NumPy;
                r = zeros(s.shape[:-1], dtype=rdt, device=x.device, usm_type=x.usm_type)   # -2 raises below)
            else:
                r = rmax(s, axis=-1) if ord == 2 else rmin(s, axis=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        a = ew.abs(x if x.dtype == dt else astype(x, dt))
        if a.dtype != rdt:
            a = astype(a, rdt)
        sums = rsum(a, axis=-2 if ord in (1, -1) else -1)
        if sums.shape[-1] == 0 and ord in (1, math.inf):   # (the largest of none: 0, as NumPy)
            r = zeros(sums.shape[:-1], dtype=rdt, device=x.device, usm_type=x.usm_type)
        else:
            r = rmax(sums, axis=-1) if ord in (1, math.inf) else rmin(sums, axis=-1)
    else:
        raise ValueError(f"matrix_norm: invalid ord {ord!r}")
    if keepdims:
        r = reshape(r, r.shape + (1, 1))
    return r


def _rtol(s, rtol, m, n, rdt):
    # the cutoff relative to the largest singular value, per matrix
    if rtol is None:
        rtol = max(m, n) * float(_dtypes.finfo(rdt).eps)
    if isinstance(rtol, usm_ndarray):
        rtol = expand_dims(astype(rtol, rdt), axis=-1)
    return ew.multiply(rmax(s, axis=-1, keepdims=True), rtol)


def matrix_rank(x, /, *, rtol=None):
    """Number of singular values above ``rtol`` times the largest (default
    rtol: max(M, N) * eps)."""
    _array("matrix_rank", x)
    _, _, m, n = matrices("matrix_rank", x)
    s = svdvals(x)
    if s.shape[-1] == 0:
        return zeros(s.shape[:-1], dtype=_dtypes.int64, device=x.device, usm_type=x.usm_type)
    return count_nonzero(ew.greater(s, _rtol(s, rtol, m, n, s.dtype)), axis=-1)


def pinv(x, /, *, rtol=None):
    """Moore-Penrose pseudo-inverse (singular values at or below ``rtol``
    times the largest are treated as zero; default rtol max(M, N) * eps)."""
    _array("pinv", x)
    batch, _, m, n = matrices("pinv", x)
    qi, dt = compute_dtype("pinv", x)
    if m == 0 or n == 0:
        return zeros(batch + (n, m), dtype=dt, device=x.device, usm_type=x.usm_type)
    u, s, vh = svd(x, full_matrices=False)
    keep = ew.greater(s, _rtol(s, rtol, m, n, s.dtype))
    sinv = where(keep, ew.divide(1, where(keep, s, 1)), 0)
    v = matrix_transpose(ew.conj(vh) if dt.kind == "c" else vh)
    uh = matrix_transpose(ew.conj(u) if dt.kind == "c" else u)
    return matmul(ew.multiply(v, astype(sinv[..., None, :], dt)), uh)


def matrix_power(x, n, /):
    """x raised to the integer power n (n < 0: powers of the inverse)."""
    _array("matrix_power", x)
    batch, _, m, _ = matrices("matrix_power", x, square=True)
    n = operator.index(n)
    if n == 0:
        e = eye(m, dtype=x.dtype, device=x.device, usm_type=x.usm_type)
        return astype(broadcast_view(e, batch + (m, m)), x.dtype)
    if n < 0:
        x = inv(x)
        n = -n
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return copy(result) if result is x else result


def norm(x, /, ord=None, axis=None, keepdims=False):
    """NumPy's ``linalg.norm`` (CuPy has it too): a vector norm over one axis
    (2-norm by default), a matrix norm over two (Frobenius by default), the
    2-norm of the flattened array when neither `ord` nor `axis` is given."""
    if isinstance(axis, int):
        axis = (axis,)
    if axis is None:
        if ord is None:
            return vector_norm(x, axis=None, keepdims=keepdims)
        axis = tuple(range(x.ndim))
    if len(axis) == 1:
        return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError("norm: improper number of dimensions to norm")
    nd = x.ndim
    a0, a1 = (ax % nd for ax in axis)
    m = moveaxis(x, (a0, a1), (-2, -1))
    r = matrix_norm(m, keepdims=keepdims, ord="fro" if ord is None else ord)
    return moveaxis(r, (-2, -1), (a0, a1)) if keepdims else r


def lstsq(a, b, rcond=None):
    """NumPy's ``linalg.lstsq``: the least-squares solution x of a @ x = b
    (a M x N, b of M rows), by the SVD. Returns ``(x, residuals, rank, s)``:
    singular values at or below ``rcond`` times the largest count as zero
    (default: machine epsilon times max(M, N); a negative ``rcond``, as
    NumPy's -1, is machine epsilon); residuals (squared, per
    column of b) only when rank == N < M, else empty; the rank (a Python
    int: the host reads it) and the singular values."""
    if not isinstance(a, usm_ndarray) or not isinstance(b, usm_ndarray):
        raise TypeError("lstsq: expected usm_ndarrays")
    if a.ndim != 2:
        raise LinAlgError(f"lstsq: a must be 2-dimensional, got {a.ndim} dimensions")
    if b.ndim not in (1, 2):
        raise LinAlgError(f"lstsq: b must be 1- or 2-dimensional, got {b.ndim} dimensions")
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("lstsq: incompatible dimensions")
    qi, dt = compute_dtype("lstsq", a, b)
    a, b = astype(a, dt, copy=False), astype(b, dt, copy=False)
    rdt = real_dtype(dt)
    if rcond is None:
        rcond = float(np.finfo(rdt).eps) * max(m, n)
    elif rcond < 0:
        rcond = float(np.finfo(rdt).eps)
    u, s, vh = svd(a, full_matrices=False)
    # (no singular values for an empty a: x is zeros, the rank 0)
    keep = ew.greater(s, ew.multiply(s[0], rcond)) if s.shape[0] else astype(s, _dtypes.bool)
    sinv = where(keep, ew.divide(1, where(keep, s, 1)), 0)
    b2 = b if b.ndim == 2 else reshape(b, (m, 1))

    def herm(v):
        t = matrix_transpose(v)
        return ew.conj(t) if t.dtype.kind == "c" else t
    x = matmul(herm(vh), ew.multiply(reshape(sinv, (-1, 1)), matmul(herm(u), b2)))
    rank = int(rsum(astype(keep, _dtypes.int64)))
    if rank == n and m > n:
        r = ew.abs(ew.subtract(matmul(a, x), b2))
        resids = rsum(ew.multiply(r, r), axis=0)
    else:
        resids = empty_array((0,), rdt, qi, coerce_usm_type((a.usm_type, b.usm_type)))
    if b.ndim == 1:
        x = reshape(x, (n,))
    return x, resids, rank, s
