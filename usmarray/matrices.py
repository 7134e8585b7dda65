"""NumPy's matrix helpers beyond the array API: ``identity``, ``diag``,
``diagflat``, ``fill_diagonal``, ``diag_indices``, ``diag_indices_from``,
``tri``, ``tril_indices``, ``triu_indices``, ``tril_indices_from``,
``triu_indices_from`` and ``kron``.

Diagonals are strided views (one stride, the sum of the matrix's strides),
so ``diag`` of a matrix is a view as in CuPy and ``fill_diagonal`` writes
through one; the triangles come from ``tril``'s kernel, the Kronecker product
is one broadcast multiply."""

import operator

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._kernels import compiled_together
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import astype, copy_into
from ._core._device import resolve_queue
from ._core._scalars import as_scalar, fill, scalar_bytes
from ._core._views import check_array, expand_dims, reshape
from .creation import arange, asarray, eye, full, ones, tril
from .manipulation import flip, permute_dims
from .reduction import cumulative_prod
from .searching import nonzero

__all__ = ["identity", "diag", "diagflat", "fill_diagonal", "diag_indices", "diag_indices_from",
           "tri", "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
           "kron", "fliplr", "flipud", "rot90", "vander"]


def identity(n, dtype=None, *, device=None, usm_type="device", sycl_queue=None):
    """The n x n identity matrix, as ``numpy.identity``.

    Parameters
    ----------
    n : int
        Number of rows (and columns).
    dtype : dtype, optional
        Default: the device's default floating dtype.
    device, usm_type, sycl_queue
        Where the array is made, as for ``usmarray.eye``.

    Returns
    -------
    usm_ndarray
        Ones on the diagonal, zeros elsewhere.
    """
    return eye(operator.index(n), dtype=dtype, device=device, usm_type=usm_type,
               sycl_queue=sycl_queue)


def _diagonal_view(m, k):
    """The k-th diagonal of the last two axes of `m`: a strided view."""
    rows, cols = m.shape[-2:]
    s0, s1 = m._strides[-2:]
    n = max(0, min(rows - max(0, -k), cols - max(0, k)))
    off = m._off + (max(0, -k) * s0 + max(0, k) * s1 if n else 0)
    return view(m, off, m.shape[:-2] + (n,), m._strides[:-2] + (s0 + s1,))


def diag(v, k=0):
    """A diagonal, or a matrix with a given diagonal, as ``numpy.diag``.

    Parameters
    ----------
    v : usm_ndarray
        1-d: the diagonal of the matrix to make; 2-d: the matrix whose
        diagonal is returned.
    k : int
        Which diagonal: 0 the main one, above it for k > 0, below for k < 0.

    Returns
    -------
    usm_ndarray
        For 1-d `v`, a new square matrix of side ``len(v) + abs(k)``, zero off
        the diagonal; for 2-d `v`, a view of its k-th diagonal (NumPy's is a
        read-only view, CuPy's a view: writing to it writes to `v`).
    """
    check_array(v, "diag")
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = empty_array((n, n), v.dtype, v._q, v.usm_type)
        fill(out, bytes(v.dtype.itemsize))
        if v.size:
            copy_into(_diagonal_view(out, k), v)
        return out
    if v.ndim == 2:
        return _diagonal_view(v, k)
    raise ValueError("diag: input must be 1- or 2-d")


def diagflat(v, k=0):
    """A matrix with the flattened input on its k-th diagonal, as ``numpy.diagflat``.

    Parameters
    ----------
    v : usm_ndarray
        Flattened (C order) to the diagonal.
    k : int
        Which diagonal, as for :func:`diag`.

    Returns
    -------
    usm_ndarray
        New square matrix of side ``v.size + abs(k)``.
    """
    check_array(v, "diagflat")
    return diag(reshape(v, (-1,)), k)


def fill_diagonal(a, val, wrap=False):
    """Fill the main diagonal in place, as ``numpy.fill_diagonal``.

    Parameters
    ----------
    a : usm_ndarray
        At least 2-d; with more than two dimensions all of the same length
        (the diagonal is ``a[i, i, ..., i]``).
    val : scalar or usm_ndarray
        The value(s), cast to `a`'s dtype. An array is flattened and repeated
        as often as the diagonal needs (NumPy's ``a.flat[...] = val``).
    wrap : bool
        For a tall matrix: continue the diagonal after every ``ncols + 1``
        rows, as NumPy does (its flat stride skips a row each time).

    Returns
    -------
    None
    """
    check_array(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("fill_diagonal: array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("fill_diagonal: all dimensions of input must be of equal length")
    rows, cols = a.shape[0], a.shape[-1]
    if a.ndim == 2 and wrap and rows > cols + 1:
        # NumPy's flat positions 0, cols + 1, 2 (cols + 1), ... over the whole array
        p = np.arange(0, rows * cols, cols + 1)
        i = asarray(p // cols, sycl_queue=a.sycl_queue)
        j = asarray(p % cols, sycl_queue=a.sycl_queue)
        v = _values(a, val, p.size)
        a[i, j] = v if isinstance(v, usm_ndarray) else \
            full((p.size,), v, dtype=a.dtype, sycl_queue=a.sycl_queue)
        return None
    n = min(a.shape)
    d = view(a, a._off, (n,), (sum(a._strides),))
    v = _values(a, val, n)
    if isinstance(v, usm_ndarray):
        copy_into(d, v)
    elif n:
        fill(d, scalar_bytes(v, a.dtype, strict=False))
    return None


def _values(a, val, n):
    """`val` as fill_diagonal writes it: a scalar, or n values of a flat
    array (repeated cyclically, as NumPy's flat assignment does)."""
    s = as_scalar(val)
    if s is not None and not isinstance(val, usm_ndarray):
        if isinstance(s, complex) and a.dtype.kind != "c":
            raise TypeError(f"fill_diagonal: cannot assign a complex value to {a.dtype.name}")
        return s
    check_array(val, "fill_diagonal")
    if val.dtype.kind == "c" and a.dtype.kind != "c":
        raise TypeError(f"fill_diagonal: cannot assign {val.dtype.name} values to "
                        f"{a.dtype.name}")
    v = reshape(val, (-1,))
    if v.size == n or v.size == 0:
        return astype(v[:n], a.dtype, copy=False) if v.size else v[:0]
    idx = ew.remainder(arange(n, sycl_queue=a.sycl_queue), v.size)
    return astype(v[idx], a.dtype, copy=False)


def diag_indices(n, ndim=2, *, device=None, usm_type="device", sycl_queue=None):
    """Indices of the main diagonal of an n x ... x n array, as ``numpy.diag_indices``.

    Parameters
    ----------
    n : int
        The length of every dimension.
    ndim : int
        The number of dimensions.
    device, usm_type, sycl_queue
        Where the index array is made.

    Returns
    -------
    tuple of usm_ndarray
        `ndim` times the same ``arange(n)``, for ``a[diag_indices(n)]``.
    """
    i = arange(operator.index(n), device=device, usm_type=usm_type, sycl_queue=sycl_queue)
    return (i,) * operator.index(ndim)


def diag_indices_from(arr):
    """Indices of the main diagonal of `arr`, as ``numpy.diag_indices_from``.

    Parameters
    ----------
    arr : usm_ndarray
        At least 2-d, all dimensions of one length.

    Returns
    -------
    tuple of usm_ndarray
        As :func:`diag_indices`, on `arr`'s queue.
    """
    check_array(arr, "diag_indices_from")
    if arr.ndim < 2:
        raise ValueError("diag_indices_from: input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("diag_indices_from: all dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim, sycl_queue=arr.sycl_queue, usm_type=arr.usm_type)


def tri(N, M=None, k=0, dtype=None, *, device=None, usm_type="device", sycl_queue=None):
    """Ones at and below the k-th diagonal, zeros above, as ``numpy.tri``.

    Parameters
    ----------
    N : int
        Number of rows.
    M : int, optional
        Number of columns (default `N`).
    k : int
        The diagonal up to which the array is filled (0 the main one,
        above it for k > 0).
    dtype : dtype, optional
        Default: the device's default floating dtype (NumPy's float).
    device, usm_type, sycl_queue
        Where the array is made.

    Returns
    -------
    usm_ndarray
        Shape (N, M).
    """
    N = max(operator.index(N), 0)   # (negative: empty, as NumPy)
    M = N if M is None else max(operator.index(M), 0)
    qi = resolve_queue(device, sycl_queue)
    if dtype is not None and np.dtype(dtype) == np.dtype(float):
        dtype = None   # NumPy's float: the device's default floating dtype
    one = ones((N, M), dtype=dtype, sycl_queue=qi.queue, usm_type=usm_type)
    return tril(one, k=operator.index(k))


def _tri_indices(n, k, m, upper, device, usm_type, sycl_queue):
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    k = operator.index(k)
    t = tri(n, m, k - 1 if upper else k, dtype=_dtypes.bool, device=device, usm_type=usm_type,
            sycl_queue=sycl_queue)
    return nonzero(ew.logical_not(t) if upper else t)


@compiled_together
def tril_indices(n, k=0, m=None, *, device=None, usm_type="device", sycl_queue=None):
    """Row and column indices of the lower triangle, as ``numpy.tril_indices``.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int
        Diagonal offset, as for :func:`tri`.
    m : int, optional
        Number of columns (default `n`).
    device, usm_type, sycl_queue
        Where the index arrays are made.

    Returns
    -------
    tuple of usm_ndarray
        Two int64 arrays, in row-major order.
    """
    return _tri_indices(n, k, m, False, device, usm_type, sycl_queue)


@compiled_together
def triu_indices(n, k=0, m=None, *, device=None, usm_type="device", sycl_queue=None):
    """Row and column indices of the upper triangle, as ``numpy.triu_indices``.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int
        Diagonal offset: the triangle starts at the k-th diagonal.
    m : int, optional
        Number of columns (default `n`).
    device, usm_type, sycl_queue
        Where the index arrays are made.

    Returns
    -------
    tuple of usm_ndarray
        Two int64 arrays, in row-major order.
    """
    return _tri_indices(n, k, m, True, device, usm_type, sycl_queue)


def _from(name, arr, k, upper):
    check_array(arr, name)
    if arr.ndim != 2:
        raise ValueError(f"{name}: input array must be 2-d")
    return _tri_indices(arr.shape[0], k, arr.shape[1], upper, None, arr.usm_type,
                        arr.sycl_queue)


@compiled_together
def tril_indices_from(arr, k=0):
    """Indices of the lower triangle of `arr`, as ``numpy.tril_indices_from``.

    Parameters
    ----------
    arr : usm_ndarray
        A 2-d array.
    k : int
        Diagonal offset.

    Returns
    -------
    tuple of usm_ndarray
        As :func:`tril_indices` for `arr`'s shape, on its queue.
    """
    return _from("tril_indices_from", arr, k, False)


@compiled_together
def triu_indices_from(arr, k=0):
    """Indices of the upper triangle of `arr`, as ``numpy.triu_indices_from``.

    Parameters
    ----------
    arr : usm_ndarray
        A 2-d array.
    k : int
        Diagonal offset.

    Returns
    -------
    tuple of usm_ndarray
        As :func:`triu_indices` for `arr`'s shape, on its queue.
    """
    return _from("triu_indices_from", arr, k, True)


def kron(a, b):
    """Kronecker product, as ``numpy.kron``.

    Parameters
    ----------
    a, b : usm_ndarray or scalar
        The factors; the one with fewer dimensions gets leading axes of
        length 1. A Python scalar is a 0-d array of the default dtype of its
        kind, as in NumPy.

    Returns
    -------
    usm_ndarray
        Blocks ``a[i, j, ...] * b``: shape ``a.shape * b.shape`` elementwise,
        the promoted dtype. One broadcast multiply of ``a`` with its axes
        interleaved with ``b``'s.
    """
    if not isinstance(a, usm_ndarray) and not isinstance(b, usm_ndarray):
        raise TypeError("kron: expected a usm_ndarray")
    # a Python scalar is an array to NumPy's kron (int64, float64), not a weak scalar
    like = a if isinstance(a, usm_ndarray) else b
    a, b = (v if isinstance(v, usm_ndarray)
            else asarray(v, sycl_queue=like.sycl_queue, usm_type=like.usm_type) for v in (a, b))
    if a.ndim == 0 or b.ndim == 0:
        return ew.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    as_ = (1,) * (nd - a.ndim) + a.shape
    bs = (1,) * (nd - b.ndim) + b.shape
    a2 = reshape(a, as_)
    b2 = reshape(b, bs)
    # a's axes at even positions, b's at odd ones: (a0, b0, a1, b1, ...)
    a2 = expand_dims(a2, axis=tuple(range(1, 2 * nd, 2)))
    b2 = expand_dims(b2, axis=tuple(range(0, 2 * nd, 2)))
    return reshape(ew.multiply(a2, b2), tuple(p * q for p, q in zip(as_, bs)))


def fliplr(m):
    """`m` with its columns (axis 1) reversed, as ``numpy.fliplr`` (a view)."""
    check_array(m, "fliplr")
    if m.ndim < 2:
        raise ValueError("fliplr: input must be >= 2-d")
    return flip(m, axis=1)


def flipud(m):
    """`m` with its rows (axis 0) reversed, as ``numpy.flipud`` (a view)."""
    check_array(m, "flipud")
    if m.ndim < 1:
        raise ValueError("flipud: input must be >= 1-d")
    return flip(m, axis=0)


def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees `k` times in the plane of `axes`, from the
    first towards the second, as ``numpy.rot90`` (a view).

    Parameters
    ----------
    m : usm_ndarray
        At least 2-d.
    k : int
        Number of rotations (negative: the other way).
    axes : pair of ints
        The plane, two different axes.
    """
    check_array(m, "rot90")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2")
    k = operator.index(k) % 4
    nd = m.ndim
    a0, a1 = axes
    if a0 == a1 or abs(a0 - a1) == nd:
        raise ValueError("rot90: axes must be different")
    if not (-nd <= a0 < nd and -nd <= a1 < nd):
        raise ValueError(f"rot90: axes={axes} out of range for an array of {nd} dimensions")
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axis=a0), axis=a1)
    perm = list(range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(flip(m, axis=a1), tuple(perm))
    return flip(permute_dims(m, tuple(perm)), axis=a1)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d `x`: columns x**(N-1), ..., x, 1
    (reversed when `increasing`), as ``numpy.vander``, built by a cumulative
    product along the rows as NumPy builds it, in NumPy's dtype.
    """
    check_array(x, "vander")
    if x.ndim != 1:
        raise ValueError("vander: x must be a one-dimensional array or sequence")
    n = x.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError(f"vander: N must be non-negative, got {n}")
    # NumPy's dtype: promote_types(x.dtype, int) (float32 -> float64, uint64 -> float64)
    dt = _dtypes.device_dtype(_dtypes.to_dtype(np.promote_types(x.dtype, np.int64)), x._q)
    m = empty_array((x.shape[0], n), dt, x._q, x._alloc.kind)
    t = m if increasing else flip(m, axis=1)   # (filled through; m stays C-contiguous)
    if n and x.shape[0]:
        t[:, 0] = 1
        if n > 1:
            t[:, 1:] = expand_dims(astype(x, dt, copy=False), axis=-1)
            t[:, 1:] = cumulative_prod(t[:, 1:], axis=1)
    return m

