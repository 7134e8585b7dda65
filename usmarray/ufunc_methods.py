"""NumPy's ufunc methods ``at`` and ``reduceat`` for the elementwise
table's binary operations (``np.add.at(x, idx, v)``,
``np.add.reduceat(x, idx)``), and CuPy's ``scatter_add``, ``scatter_max``
and ``scatter_min`` on ``at``.

``at`` applies the operation in place once per occurrence of an index, in
index order, as NumPy's unbuffered loop does, so repeated indices
accumulate (where ``x[idx] += v`` applies one of them). The positions are
sorted (stably: occurrences keep their order) and one work-item per
distinct target element applies its values in turn, with the table's own
operation: results are NumPy's bit for bit where the operation is exact,
and in NumPy's order of operations where it is not.

``reduceat`` reduces the slices between consecutive indices along an axis,
one work-item per output element: in order for operations that do not
associate (``subtract``, ``divide``), pairwise over runs of 128 items for
those that do, as NumPy sums (rounding apart from NumPy's, which unrolls
its runs, but of the same size)."""

import numpy as np

from . import elementwise as ew, manipulation, reduction
from ._core import _dtypes, _engine
from ._core._array import empty_array, usm_ndarray
from ._core._copy import asnumpy, astype
from ._core._indexing import take
from ._core._device import coerced_kind
from ._core._views import moveaxis, normalize_axis
from ._core._layout import C_CONTIG, WRITABLE, broadcast_shapes
from ._core._scalars import is_scalar
from .creation import arange, asarray
from .searching import nonzero
from .sorting import sort_with_order
from .user_kernels import check_device_type, cxx_type, register_kernel, source_hash

__all__ = ["ufunc_at", "ufunc_reduceat", "scatter_add", "scatter_max", "scatter_min"]

# (pointer parameters: launch_raw launches it, as it does RawKernels)
# The steps in NumPy's order, each rounded: the kernel compiler's default
# floating-point model may reassociate the loop (the operation's struct is
# compiled under the pragma too, as its operations are inlined into it).
_KERNEL = """#pragma clang fp reassociate(off) contract(off)
{struct}
USM_KERNEL(1)
void {name}({ta} *a, const std::int64_t *pos, const std::int64_t *starts, const {li2} *v,
            std::int64_t m) {{
  const std::int64_t k = usmk::linear_id();
  if (k >= m) return;
  const std::int64_t j0 = starts[k], j1 = starts[k + 1], t = pos[j0];
  {ta} s = a[t];
  // (j steps by 1 + pos[j] - t, which is 1 within the run: an induction the
  // compiler cannot vectorise, and so cannot reassociate, whatever its
  // floating-point model; the pragma alone does not stop the OpenCL CPU
  // compiler)
  for (std::int64_t j = j0; j < j1; j += 1 + (pos[j] - t))
    s = usmk::convert<{ta}>(op_{op}::apply<{lo}>(usmk::convert<{li1}>(s), v[j]));
  a[t] = s;
}}
"""
_NAMES = {}


def _kernel(op, ta, li1, li2, lo):
    key = (op.name, ta, li1, li2, lo)
    name = _NAMES.get(key)
    if name is None:
        types = dict(ta=cxx_type(ta), li1=cxx_type(li1), li2=cxx_type(li2), lo=cxx_type(lo))
        # (named by its source: the compiled bundle on disk is found by name)
        name = "usm_at_" + op.name + "_" + source_hash(_KERNEL, op.source(), *types.values())
        # (<complex> only where a type is complex: kernels/sycl/common.hpp)
        complex_ = "#define USM_COMPLEX 1\n" if any(
            d.kind == "c" for d in (ta, li1, li2, lo)) else ""
        register_kernel([name], complex_ + _KERNEL.format(struct=op.source(), name=name,
                                                          op=op.name, **types), name)
        _NAMES[key] = name
    return name


def _binary(name, what):
    op = ew.OP.get(name)
    if op is None or op.nin != 2:
        raise TypeError(f"{what} is not supported by usmarray (binary elementwise operations "
                        "only)")
    return op


def _int_array(k):
    """Whether the index `k` is an integer array (on the device or the host)."""
    if isinstance(k, usm_ndarray):
        return k.dtype.kind in "iu"
    return isinstance(k, (list, np.ndarray)) and np.asarray(k).dtype.kind in "iu"


def _positions(a, indices):
    """The flat (C order) positions of the elements ``a[indices]`` names, in
    its shape: for one integer array per dimension (the usual key) from the
    indices themselves (bounds read by the host), else by indexing an iota
    of a's shape with the key (any index NumPy takes)."""
    key = indices if isinstance(indices, tuple) else (indices,)
    if len(key) == a.ndim > 0 and all(_int_array(k) for k in key):
        try:
            broadcast_shapes(*(np.shape(k) if not isinstance(k, usm_ndarray) else k.shape
                               for k in key))
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast "
                             "together") from None
        pos, stride = None, 1
        for d in reversed(range(a.ndim)):
            n = a.shape[d]
            k = asarray(key[d], dtype=_dtypes.int64, sycl_queue=a.sycl_queue)
            if k.size and (int(reduction.min(k)) < -n or int(reduction.max(k)) >= n):
                raise IndexError(f"an index is out of bounds for axis {d} with size {n}")
            k = ew.multiply(ew.add(k, ew.multiply(ew.less(k, 0), n)), stride)
            pos = k if pos is None else ew.add(pos, k)
            stride *= n
        return pos
    iota = arange(a.size, dtype=_dtypes.int64, sycl_queue=a.sycl_queue)
    return manipulation.reshape(iota, a.shape)[indices]


def ufunc_at(name, a, indices, b, what=None):
    """``numpy.<name>.at(a, indices, b)``: a[indices] = op(a[indices], b),
    unbuffered (each occurrence of an index applies its value in turn).

    Parameters
    ----------
    name : str
        A binary operation of the elementwise table (``"add"``, ``"maximum"``, ...).
    a : usm_ndarray
        The array changed in place.
    indices : index
        Anything ``a[indices]`` takes (integer arrays, also host lists and
        NumPy arrays, slices, tuples of them).
    b : usm_ndarray or scalar
        Values, broadcast to the shape of ``a[indices]``.
    what : str, optional
        The name errors give (NumPy's ufunc and method).
    """
    what = what or f"numpy.{name}.at"
    op = _binary(name, what)
    if not isinstance(a, usm_ndarray):
        raise TypeError(f"{what}: the first operand must be a usm_ndarray")
    if not a._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if b is None:
        raise TypeError(f"{what}: second operand needed for ufunc")
    qi = a._q
    if is_scalar(b):
        # NumPy's at takes a scalar as an array (np.asarray: int64, float64, its
        # NumPy type), not as a weak Python number
        bdt = _dtypes.device_dtype(np.asarray(b).dtype, qi)
    elif isinstance(b, usm_ndarray):
        bdt = b.dtype
    else:
        raise ew.mixed_operand_error(what, b)
    # (the result is cast back to a's dtype unsafely, as NumPy's at does)
    (li1, li2), lo, _ = op.resolve((a.dtype, bdt), qi)
    pos = _positions(a, indices)
    n = pos.size
    if broadcast_shapes(np.shape(b) if is_scalar(b) else b.shape, pos.shape) != pos.shape:
        raise ValueError(f"{what}: values of shape {b.shape} cannot be broadcast to the "
                         f"selection's shape {pos.shape}")
    if n == 0:
        return
    v = asarray(np.asarray(b), sycl_queue=a.sycl_queue) if is_scalar(b) else b
    v = astype(v, li2, copy=False)
    if name == "pow" and li2.kind in "iu" and v.size and int(reduction.min(v)) < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    v = manipulation.reshape(astype(manipulation.broadcast_to(v, pos.shape), li2, copy=True),
                             (-1,))
    s, order = sort_with_order(manipulation.reshape(pos, (-1,)))
    vs = v[order]
    # the first occurrence of each target, and the end
    firsts = ew.add(nonzero(ew.not_equal(s[1:], s[:-1]))[0], 1)
    starts = manipulation.concat([asarray([0], dtype=_dtypes.int64, sycl_queue=a.sycl_queue), firsts,
                           asarray([n], dtype=_dtypes.int64, sycl_queue=a.sycl_queue)])
    m = starts.shape[0] - 1
    work = a if a._flags & C_CONTIG else astype(a, a.dtype, order="C", copy=True)
    flat = manipulation.reshape(work, (-1,))
    _engine.launch_raw(qi.ref, qi.kc, _kernel(op, a.dtype, li1, li2, lo),
                       [flat, s, starts, vs, np.int64(m).tobytes()], [m], [1])
    if work is not a:
        a[...] = work


# One output element per work-item: the slice [idx[k], end) of the axis
# (moved first, C order, `inner` items per step), where end is the next index
# (or idx[k] + 1 when that is not larger) and the axis' length after the
# last index. {body}: the steps over x[j * inner + r] for j in [i0, end).
_REDUCEAT = """#pragma clang fp reassociate(off) contract(off)
{struct}
#define STEP(a, b) usmk::convert<{to}>(op_{op}::apply<{to}>(usmk::convert<{ti}>(a), \\
                                                            usmk::convert<{ti}>(b)))
USM_KERNEL(1)
void {name}(const {ti} *x, const std::int64_t *idx, {to} *out, std::int64_t m,
            std::int64_t n, std::int64_t inner) {{
  const std::int64_t g = usmk::linear_id();
  if (g >= m * inner) return;
  const std::int64_t k = g / inner, r = g - k * inner, i0 = idx[k];
  const std::int64_t end = k + 1 < m ? (idx[k + 1] > i0 ? idx[k + 1] : i0 + 1) : n;
{body}
  out[g] = s;
}}
"""
# in order (operations that do not associate: subtract, divide)
_IN_ORDER = """  {to} s = usmk::convert<{to}>(x[i0 * inner + r]);
  for (std::int64_t j = i0 + 1; j < end; ++j) s = STEP(s, x[j * inner + r]);"""
# pairwise over runs of 128 items (each run in order), as NumPy's sums: a
# stack of partial results, merged as the bits of a binary counter carry,
# the earlier one always the left operand
_PAIRWISE = """  {to} stack[64];
  int depth = 0;
  for (std::int64_t j = i0, runs = 0; j < end; j += 128, ++runs) {{
    const std::int64_t stop = j + 128 < end ? j + 128 : end;
    {to} t = usmk::convert<{to}>(x[j * inner + r]);
    for (std::int64_t jj = j + 1; jj < stop; ++jj) t = STEP(t, x[jj * inner + r]);
    for (std::int64_t c = runs; c & 1; c >>= 1) t = STEP(stack[--depth], t);
    stack[depth++] = t;
  }}
  {to} s = stack[--depth];
  while (depth > 0) s = STEP(stack[--depth], s);"""
# Operations whose steps may be grouped (exact for integers and comparisons;
# for floating-point sums and products a smaller rounding error)
_ASSOCIATIVE = {"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
                "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"}


def _reduceat_kernel(op, ti, to):
    key = ("reduceat", op.name, ti, to)
    name = _NAMES.get(key)
    if name is None:
        types = dict(ti=cxx_type(ti), to=cxx_type(to))
        body = (_PAIRWISE if op.name in _ASSOCIATIVE else _IN_ORDER).format(**types)
        src = _REDUCEAT.format(struct=op.source(), name="{name}", op=op.name, body=body, **types)
        name = "usm_reduceat_" + op.name + "_" + source_hash(src)
        complex_ = "#define USM_COMPLEX 1\n" if "c" in (ti.kind, to.kind) else ""
        register_kernel([name], complex_ + src.replace("{name}", name), name)
        _NAMES[key] = name
    return name


def _reduceat_dtype(name, dt):
    """NumPy's accumulator for ``<name>.reduceat`` without ``dtype=``: sums and
    products of bools and narrow integers in int64 (uint64), as ``reduce``."""
    if name in ("add", "multiply") and (dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < 8)):
        return _dtypes.uint64 if dt.kind == "u" else _dtypes.int64
    return dt


def ufunc_reduceat(name, a, indices, axis=0, dtype=None, what=None):
    """``numpy.<name>.reduceat(a, indices, axis, dtype)``: the operation
    reduced over ``a[indices[k]:indices[k + 1]]`` along `axis` for each k
    (``a[indices[k]]`` where the next index is not larger, up to the end
    after the last index).

    Parameters
    ----------
    name : str
        A binary operation of the elementwise table whose result can be its
        first operand again (``"add"``, ``"maximum"``, ``"subtract"``, ...).
    a : usm_ndarray
        The data.
    indices : 1-d integer sequence or usm_ndarray
        Where the slices start, each in [0, a.shape[axis]) (IndexError
        otherwise; the host reads their range).
    axis : int
        The axis reduced (default 0, as NumPy's).
    dtype : dtype, optional
        The accumulator and result type (NumPy's default: int64 for sums and
        products of bools and narrower integers, else a's dtype or the
        operation's result type).

    Returns
    -------
    usm_ndarray
        ``a``'s shape with ``len(indices)`` along `axis`.
    """
    what = what or f"numpy.{name}.reduceat"
    op = _binary(name, what)
    if not isinstance(a, usm_ndarray):
        raise TypeError(f"{what}: the first operand must be a usm_ndarray")
    if a.ndim == 0:
        raise TypeError(f"{what}: cannot reduce a 0-d array")
    qi = a._q
    ax = normalize_axis(axis, a.ndim)
    idx = indices if isinstance(indices, usm_ndarray) else np.asarray(indices)
    if idx.ndim != 1:
        raise ValueError(f"{what}: indices must be 1-d, not {idx.ndim}-d")
    if idx.dtype.kind not in "iu" and not (idx.dtype.kind == "f" and idx.size == 0):
        raise TypeError(f"{what}: indices must be integers, not {idx.dtype}")
    idx = asarray(idx, dtype=_dtypes.int64, sycl_queue=a.sycl_queue)
    n, m = a.shape[ax], idx.shape[0]
    if m:
        lo, hi = int(reduction.min(idx)), int(reduction.max(idx))
        for bad in (lo, hi):
            if not 0 <= bad < n:
                raise IndexError(f"index {bad} out-of-bounds in {what.split('numpy.')[-1]} "
                                 f"[0, {n})")
    acc = _reduceat_dtype(name, a.dtype) if dtype is None else _dtypes.to_dtype(np.dtype(dtype))
    check_device_type(what, acc, qi)
    # (float16 sums and products accumulate in float32, as NumPy's loops do)
    # (float16 folds keep the running value in float32, as NumPy's loops do)
    work = _dtypes.float32 if acc is _dtypes.float16 and name in (
        "add", "subtract", "multiply", "divide") else acc
    (li1, li2), lo_t, _ = op.resolve((work, work), qi)
    if lo_t is not li1:
        raise TypeError(f"{what}: the operation's result ({lo_t}) cannot be its first operand "
                        f"({li1}) again: no reduction")
    if dtype is not None and lo_t is not work:
        raise TypeError(f"{what}: no loop of the operation computes in {acc} (dtype={acc})")
    rest = a.shape[:ax] + a.shape[ax + 1:]
    x = astype(moveaxis(a, ax, 0), li2, order="C", copy=True)
    if op.name == "pow" and li2.kind == "i" and m and x.size:
        _check_exponents(what, x, idx, n)
    inner = int(np.prod(rest, dtype=np.int64))
    res = empty_array((m,) + rest, lo_t, qi, coerced_kind([v for v in (a, indices) if isinstance(v, usm_ndarray)]))
    if m * inner:
        _engine.launch_raw(qi.ref, qi.kc, _reduceat_kernel(op, li2, lo_t),
                           [x, idx, res, np.int64(m).tobytes(), np.int64(n).tobytes(),
                            np.int64(inner).tobytes()], [m * inner], [1])
    return moveaxis(res if work is acc else astype(res, acc), 0, ax)


def _check_exponents(what, x, idx, n):
    """ValueError, as NumPy's (and ``**``), when an integer power.reduceat
    raises an integer to a negative power: an element after the first of a
    slice (x along its first axis; idx the slices' starts)."""
    starts = asnumpy(idx)
    ends = np.append(starts[1:], n)
    # (the slices' exponent ranges [start + 1, end) marked by a cumulative
    # sum of +1 at each beginning and -1 at each end)
    real = ends > starts + 1
    edges = np.zeros(n + 1, dtype=np.int64)
    np.add.at(edges, starts[real] + 1, 1)
    np.add.at(edges, ends[real], -1)
    used = np.cumsum(edges[:n]) > 0
    if used.any():
        sel = asarray(np.flatnonzero(used), sycl_queue=x.sycl_queue)
        if int(reduction.min(take(x, sel, axis=0))) < 0:
            raise ValueError(f"{what}: integers to negative integer powers are not allowed")


def scatter_add(a, slices, value):
    """CuPy's ``cupyx.scatter_add``: ``numpy.add.at(a, slices, value)``."""
    ufunc_at("add", a, slices, value)


def scatter_max(a, slices, value):
    """CuPy's ``cupyx.scatter_max``: ``numpy.maximum.at(a, slices, value)``."""
    ufunc_at("maximum", a, slices, value)


def scatter_min(a, slices, value):
    """CuPy's ``cupyx.scatter_min``: ``numpy.minimum.at(a, slices, value)``."""
    ufunc_at("minimum", a, slices, value)
