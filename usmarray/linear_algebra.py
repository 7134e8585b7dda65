"""Linear algebra functions of the main namespace: matmul, vecdot, tensordot
(matrix_transpose lives with the manipulation functions). Floating matmul
runs oneMKL's gemm, integer and bool products a register-tiled kernel of ours
(kernels/sycl/matmul.cpp); dot products of vectors (vecdot, a 1-D matmul) a
reduction kernel."""

import operator

from . import elementwise as ew
from ._core import _dtypes, _engine, _kernels, _mkl
from ._core._array import empty_array, usm_ndarray
from ._core._copy import astype, broadcast_view, check_out, copy, copy_into
from ._core._device import coerce_usm_type, common_queue
from ._core._layout import broadcast_shapes
from ._core._views import normalize_axis
from .creation import as_pair
from .manipulation import permute_dims, reshape
from .reduction import any as rany
from .user_kernels import device_items, warm_up
from .user_reductions import ReductionKernel

__all__ = ["matmul", "vecdot", "matvec", "vecmat", "tensordot", "inner", "vdot"]

_kernels.register_family(_kernels.Family(
    ("matmul_tiled",), "matmul.cpp", lambda a: a[0],
    lambda t, qi: [f"matmul_tiled<{t}>"],
    # float32/64 and complex products run oneMKL's gemm: no kernels for them
    lambda qi: [t for t in _kernels.device_types(qi) if t not in ("b1", "f4", "f8", "c8", "c16")],
    cost=10))


# Dot products in one pass over the operands, the products never stored:
# a ReductionKernel on the built-in reductions' skeleton (vector blocks on
# CPU devices). float16 sums in float32, as ua.sum does.
_DOTS = {k: ReductionKernel("T x, T y", "T z", m, "a + b", "z = a", "0", "usmarray_dot",
                            reduce_type=rt)
         for k, m, rt in (("real", "x * y", None), ("half", "x * y", "float32"),
                          ("complex", "conj(x) * y", None))}


def _dot_kernel(dt, conj=False):
    return _DOTS["complex" if conj and dt.kind == "c" else
                 "half" if dt == _dtypes.float16 else "real"]


def products_summed(x1, x2, dt, axis=None, conj=False, keepdims=False):
    """``sum(x1 * x2, axis)`` (``conj(x1)`` with `conj`) of the broadcast
    operands in dtype `dt` (not bool), in one pass: the products are not
    stored (vecdot, a 1-D matmul, einsum's batched dot products, 2-norms)."""
    return _dot_kernel(dt, conj)(astype(x1, dt, copy=False), astype(x2, dt, copy=False),
                                 axis=axis, keepdims=keepdims)


def _warm(qi):
    """Register the dot kernels for the device's types, so that ``usmarray
    warmup`` compiles them."""
    for d, one in device_items(qi, _dtypes.REAL_FLOATING + _dtypes.COMPLEX +
                               (_dtypes.int32, _dtypes.int64)):
        _dot_kernel(d).prepare(one, one)
        if d.kind == "c":   # (vecdot's, conjugating its first operand)
            _dot_kernel(d, conj=True).prepare(one, one)


warm_up(_warm, *_DOTS.values())


def _operands(name, x1, x2):
    if not isinstance(x1, usm_ndarray) or not isinstance(x2, usm_ndarray):
        raise TypeError(f"{name}: operands must be usm_ndarrays")
    qi = common_queue(x1, x2)
    dt = _dtypes.result_type(x1, x2)
    return qi, dt, coerce_usm_type((x1.usm_type, x2.usm_type))


def matmul(x1, x2, /, *, out=None, dtype=None, order="K"):
    """Matrix product with NumPy's rules: 1-D operands are a row (left) or a
    column (right) vector, leading dimensions broadcast.

    dpctl.tensor's keywords: ``dtype`` casts both operands to it first;
    ``out`` receives the result (its shape, the operands' queue, a dtype the
    result casts to within its kind); ``order`` ("K", "C", "F", "A") lays out
    a new result ("K" and "A": C order, as the product is computed).
    """
    if dtype is not None:
        if not isinstance(x1, usm_ndarray) or not isinstance(x2, usm_ndarray):
            raise TypeError("matmul: operands must be usm_ndarrays")
        dt = _dtypes.to_dtype(dtype)
        x1, x2 = astype(x1, dt, copy=False), astype(x2, dt, copy=False)
    if order not in ("K", "C", "F", "A"):
        raise ValueError(f"order must be one of 'K', 'C', 'F', 'A', got {order!r}")
    r = _matmul(x1, x2)
    if out is not None:
        check_out("matmul", out, r.shape, r.dtype, r._q)
        out[...] = r
        return out
    return copy(r, order="F") if order == "F" and r.ndim >= 2 else r


def _matmul(x1, x2):
    qi, dt, usm = _operands("matmul", x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul does not take zero-dimensional arrays")
    if dt.kind == "b":
        # NumPy's bool product (an OR of ANDs): the count of true pairs, in
        # int32, is nonzero
        return ew.not_equal(_matmul(astype(x1, _dtypes.int32), astype(x2, _dtypes.int32)), 0)
    if x1.ndim == 1 and x2.ndim == 1:
        # (a reduction reads the vectors at memory speed; gemm of 1 x k x 1
        # is a slow path of oneMKL's: 6-8 x the time)
        if x1.shape != x2.shape:
            raise ValueError(f"matmul: shapes {x1.shape} and {x2.shape} do not align")
        return products_summed(x1, x2, dt)
    a = reshape(x1, (1,) + x1.shape) if x1.ndim == 1 else x1
    b = reshape(x2, x2.shape + (1,)) if x2.ndim == 1 else x2
    n, k = a.shape[-2:]
    k2, m = b.shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: shapes {x1.shape} and {x2.shape} do not align "
                         f"({k} != {k2})")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    nb = 1
    for d in batch:
        nb *= d

    # Floating products go to oneMKL's gemm, which also takes transposed
    # (F-contiguous) matrices; integer products run a kernel of ours.
    blas = dt.kind in "fc" and dt.itemsize >= 4
    if blas:
        _mkl.load()

    def laid_out(v, rows, cols):
        # (B, rows, cols) of dtype dt, contiguous (or a transposed matrix for
        # gemm); an operand without batch dimensions stays one matrix (batch
        # stride 0)
        if v.ndim == 2:
            v = astype(v, dt, copy=False)
            if not (v.flags.c_contiguous or (blas and v.flags.f_contiguous)):
                v = copy(v, order="C")
            return v[None]
        if v.dtype == dt and v.flags.c_contiguous and v.shape == batch + (rows, cols):
            return reshape(v, (nb, rows, cols))
        w = empty_array((nb, rows, cols), dt, qi, usm)
        copy_into(reshape(w, batch + (rows, cols)), broadcast_view(v, batch + (rows, cols)))
        return w

    out = empty_array((nb, n, m), dt, qi, usm)
    if nb and n and m:
        if k == 0:
            out[...] = 0
        else:
            la, lb = laid_out(a, n, k), laid_out(b, k, m)
            if blas:
                # CPU devices: the host BLAS in a host task (KernelCache.simd
                # on; kernels/mkl/host.cpp says why)
                _engine.gemm(qi.ref, la, lb, out, qi.kc.simd)
            else:
                _engine.matmul(qi.ref, qi.kc, la, lb, out)
    shape = batch + (n, m)
    if x1.ndim == 1:
        shape = shape[:-2] + (m,)
    if x2.ndim == 1:
        shape = shape[:-1]
    return reshape(out, shape)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot products of vectors along `axis` (broadcast): sum(conj(x1) * x2)."""
    qi, dt, _ = _operands("vecdot", x1, x2)
    nd = len(broadcast_shapes(x1.shape, x2.shape))
    if min(x1.ndim, x2.ndim) == 0:
        raise ValueError("vecdot needs arrays of at least one dimension")
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise IndexError(f"axis {axis} is out of bounds for {nd} dimensions")
    a = a - nd if a >= 0 else a
    if -a > min(x1.ndim, x2.ndim) or x1.shape[a] != x2.shape[a]:
        raise ValueError(f"vecdot: shapes {x1.shape} and {x2.shape} differ along axis {axis}")
    if dt.kind == "b":
        return rany(ew.logical_and(x1, x2), axis=a)   # (NumPy's bool vecdot)
    return products_summed(x1, x2, dt, a, conj=True)


def _core_dims(name, x1, x2, n1, n2):
    _operands(name, x1, x2)
    if x1.ndim < n1 or x2.ndim < n2:
        raise ValueError(f"{name}: operands of at least {n1} and {n2} dimensions expected, got "
                         f"shapes {x1.shape} and {x2.shape}")


def matvec(x1, x2, /):
    """Matrix-vector products over the last axes, ``x1[..., m, n]`` times
    ``x2[..., n]`` (leading dimensions broadcast), as ``numpy.matvec``."""
    _core_dims("matvec", x1, x2, 2, 1)
    return _matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /):
    """Vector-matrix products over the last axes, ``conj(x1[..., n])`` times
    ``x2[..., n, m]`` (leading dimensions broadcast), as ``numpy.vecmat``."""
    _core_dims("vecmat", x1, x2, 1, 2)
    v = ew.conj(x1) if x1.dtype.kind == "c" else x1
    return _matmul(v[..., None, :], x2)[..., 0, :]


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the last `axes` axes of x1 and the first of x2
    (an int), or over the given pairs of axes (two sequences)."""
    _operands("tensordot", x1, x2)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be non-negative")
        if axes > min(x1.ndim, x2.ndim):
            raise ValueError("tensordot: axes exceeds the arrays' dimensions")
        a1 = tuple(range(x1.ndim - axes, x1.ndim))
        a2 = tuple(range(axes))
    else:
        if len(axes) != 2:
            raise ValueError("tensordot: axes must be an int or a pair of sequences of axes")
        # (an int per side is NumPy's form of one pair)
        a1, a2 = (tuple(operator.index(v) for v in ax) if hasattr(ax, "__len__")
                  else (operator.index(ax),) for ax in axes)
        if len(a1) != len(a2):
            raise ValueError("tensordot: the two axes sequences differ in length")
        a1 = tuple(normalize_axis(v, x1.ndim) for v in a1)   # (AxisError out of range)
        a2 = tuple(normalize_axis(v, x2.ndim) for v in a2)
        if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
            raise ValueError("tensordot: repeated axis")
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"tensordot: axis {i} of x1 ({x1.shape[i]}) and axis {j} of x2 "
                             f"({x2.shape[j]}) differ")
    free1 = [d for d in range(x1.ndim) if d not in a1]
    free2 = [d for d in range(x2.ndim) if d not in a2]
    k = 1
    for i in a1:
        k *= x1.shape[i]
    n = 1
    for d in free1:
        n *= x1.shape[d]
    m = 1
    for d in free2:
        m *= x2.shape[d]
    p1 = reshape(permute_dims(x1, tuple(free1) + a1), (n, k))
    p2 = reshape(permute_dims(x2, a2 + tuple(free2)), (k, m))
    r = matmul(p1, p2)
    return reshape(r, tuple(x1.shape[d] for d in free1) + tuple(x2.shape[d] for d in free2))


def inner(a, b):
    """Inner product over the last axes, as ``numpy.inner``.

    Parameters
    ----------
    a, b : usm_ndarray
        Arrays with equal last dimensions (or either 0-d: a product).

    Returns
    -------
    usm_ndarray
        Shape ``a.shape[:-1] + b.shape[:-1]``.
    """
    a, b = as_pair("inner", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ew.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, axes=((a.ndim - 1,), (b.ndim - 1,)))


def _matmul_op(self, other):
    return matmul(self, other) if isinstance(other, usm_ndarray) else NotImplemented


def _rmatmul_op(self, other):
    return matmul(other, self) if isinstance(other, usm_ndarray) else NotImplemented


def _imatmul_op(self, other):
    if not isinstance(other, usm_ndarray):
        return NotImplemented
    r = matmul(self, other)
    if r.shape != self.shape:
        raise ValueError(f"in-place matmul would change the shape {self.shape} to {r.shape}")
    if not _dtypes.can_cast(r.dtype, self.dtype):
        raise TypeError(f"in-place matmul: the result dtype {r.dtype} cannot be cast to "
                        f"{self.dtype}")
    self[...] = r
    return self


# ``@``, bound onto usm_ndarray by usmarray.methods.install
OPERATORS = {"__matmul__": _matmul_op, "__rmatmul__": _rmatmul_op, "__imatmul__": _imatmul_op}


def vdot(a, b, /):
    """The dot product of the flattened arrays, the first conjugated, as
    ``numpy.vdot``: a 0-d array (of bools, NumPy's or-of-ands, for two
    bool arrays)."""
    if not isinstance(a, usm_ndarray) or not isinstance(b, usm_ndarray):
        raise TypeError("vdot: operands must be usm_ndarrays")
    if a.size != b.size:
        raise ValueError(f"vdot: the arrays have {a.size} and {b.size} elements")
    a, b = reshape(a, (-1,)), reshape(b, (-1,))
    if a.dtype.kind == "b" and b.dtype.kind == "b":
        return rany(ew.logical_and(a, b))
    # (a bool operand counts as 0 and 1 of the other's dtype)
    a = astype(a, b.dtype) if a.dtype.kind == "b" else a
    b = astype(b, a.dtype) if b.dtype.kind == "b" else b
    return vecdot(a, b)

