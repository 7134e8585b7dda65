"""``einsum`` and ``einsum_path``, as NumPy has them.

A contraction is a sequence of pairwise products on the paths usmarray
already has: each pair's shared labels that are still needed later become
the batch dimensions of one ``matmul``, the shared labels that are not are
its inner dimension, the others its rows and columns (no shared label left
to sum: a broadcast multiply). Labels only one operand has and nothing later
needs are summed first; a label repeated within an operand is its diagonal,
a strided view. With three or more operands the order of the pairs is
NumPy's own path (``numpy.einsum_path`` run on the operands' shapes only:
zero-stride stand-ins, no data), greedy unless ``optimize`` names another or
gives the path; ``einsum_path`` returns NumPy's path and report for the
shapes. NumPy's ``optimize=False`` evaluates three or more operands in one
loop; usmarray uses the greedy path then too (the same sums, rounded in
another order)."""

import string

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray, view
from ._core._copy import astype, check_out, copy, copy_into
from ._core._device import common_queue
from ._core._views import permute_dims, reshape
from ._core._kernels import compiled_together
from .creation import asarray
from .elementwise import mixed_operand_error
from .linear_algebra import matmul, products_summed
from .reduction import sum as _sum

__all__ = ["einsum", "einsum_path"]

_SYMBOLS = string.ascii_lowercase + string.ascii_uppercase   # NumPy's einsum_symbols


# ----------------------------------------------------------------- parsing
def _split_args(operands):
    """(subscripts string, operand list) from NumPy's two call forms:
    ``einsum("ij,jk->ik", a, b)`` and ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        return operands[0].replace(" ", ""), list(operands[1:])
    # the interleaved form: op, sub, op, sub, ..., and an output sublist when the count is odd
    rest = list(operands)
    out = rest.pop() if len(rest) % 2 else None
    ops, subs = rest[0::2], rest[1::2]

    def letters(sub):
        s = ""
        for v in sub:
            if v is Ellipsis:
                s += "..."
                continue
            try:
                s += _SYMBOLS[int(v)]
            except (IndexError, TypeError, ValueError):
                raise ValueError(f"einsum: subscript {v!r} is not an integer in [0, 52) "
                                 "or Ellipsis") from None
        return s

    text = ",".join(letters(s) for s in subs)
    if out is not None:
        text += "->" + letters(out)
    return text, ops


def _parse(subscripts, shapes):
    """(input label strings, output label string), ellipses replaced by
    labels of their own (right-aligned, as they broadcast)."""
    if "->" in subscripts:
        ins, out = subscripts.split("->", 1)
        if "->" in out or "-" in ins or ">" in ins:
            raise ValueError("Subscripts can only contain one '->'.")
    else:
        ins, out = subscripts, None
    terms = ins.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the subscripts name {len(terms)} operands, "
                         f"{len(shapes)} were given")
    used = set(subscripts) - set(".,->")
    for c in used:
        if c not in _SYMBOLS:
            raise ValueError(f"Character {c} is not a valid symbol.")
    spare = [c for c in reversed(_SYMBOLS) if c not in used]
    longest = 0
    labels = []
    for t, shape in zip(terms, shapes):
        if "." in t:
            if t.count(".") != 3 or t.count("...") != 1:
                raise ValueError("Invalid Ellipses.")
            n = len(shape) - (len(t) - 3)
            if n < 0:
                raise ValueError("Ellipses lengths do not match.")
            longest = max(longest, n)
            t = t.replace("...", "".join(spare[:n][::-1]))
        if len(t) != len(shape):
            raise ValueError(f"einsum: operand of {len(shape)} dimensions with subscripts "
                             f"{t!r} ({len(t)} labels): use '...' to broadcast the others")
        labels.append(t)
    ell = "".join(spare[:longest][::-1])
    if out is None:
        flat = "".join(labels)
        out = ell + "".join(c for c in sorted(set(flat) - set(ell)) if flat.count(c) == 1)
    else:
        if "." in out:
            if out.count(".") != 3 or out.count("...") != 1:
                raise ValueError("Invalid Ellipses.")
            out = out.replace("...", ell)
        elif longest:
            # (NumPy does not sum the dimensions an ellipsis covers implicitly)
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        for c in out:
            if out.count(c) > 1:
                raise ValueError(f"einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
            if not any(c in t for t in labels):
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
    return labels, out


# ----------------------------------------------------------------- evaluation
def _diagonal(x, labels):
    """x with each repeated label taken once (its diagonal, a view)."""
    while len(set(labels)) < len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        axes = [i for i, l in enumerate(labels) if l == c]
        sizes = {x.shape[i] for i in axes}
        if len(sizes) > 1:
            raise ValueError(f"dimensions in operand for collapsing index '{c}' don't match "
                             f"({' != '.join(str(x.shape[i]) for i in axes)})")
        keep = [i for i in range(x.ndim) if i not in axes[1:]]
        strides = list(x._strides)
        strides[axes[0]] = sum(x._strides[i] for i in axes)
        x = view(x, x._off, tuple(x.shape[i] for i in keep), tuple(strides[i] for i in keep))
        labels = "".join(labels[i] for i in keep)
    return x, labels


def _summed(x, labels, keep):
    """x summed over its labels not in `keep` (in its own dtype, as NumPy's einsum)."""
    axes = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not axes:
        return x, labels
    return _sum(x, axis=axes, dtype=x.dtype), "".join(c for c in labels if c in keep)


def _ordered(x, labels, order):
    return permute_dims(x, tuple(labels.index(c) for c in order))


def _pair(a, la, b, lb, keep):
    """The contraction of two terms, keeping the labels in `keep`."""
    a, la = _summed(a, la, keep | set(lb))
    b, lb = _summed(b, lb, keep | set(la))
    shared = [c for c in la if c in lb]
    # a label of length 1 in one operand and n in the other broadcasts; summed
    # away, it is the other's sum (a * sum(b)), which the product then sees
    for c in shared:
        na, nb = a.shape[la.index(c)], b.shape[lb.index(c)]
        if na != nb and 1 not in (na, nb):
            raise ValueError(f"einsum: operands could not be broadcast together: label '{c}' "
                             f"has lengths {na} and {nb}")
        if c not in keep and na != nb:
            if na == 1:
                b = _sum(b, axis=lb.index(c), dtype=b.dtype, keepdims=True)
            else:
                a = _sum(a, axis=la.index(c), dtype=a.dtype, keepdims=True)
    batch = [c for c in shared if c in keep]
    inner = [c for c in shared if c not in keep]
    fa = [c for c in la if c not in lb]
    fb = [c for c in lb if c not in la]
    a = _ordered(a, la, batch + fa + inner)
    b = _ordered(b, lb, batch + inner + fb)
    nbt = len(batch)
    sa, sb = a.shape, b.shape
    fa_shape, fb_shape = sa[nbt:nbt + len(fa)], sb[nbt + len(inner):]
    if not inner:
        a = reshape(a, sa + (1,) * len(fb))
        b = reshape(b, sb[:nbt] + (1,) * len(fa) + fb_shape)
        return ew.multiply(a, b), "".join(batch + fa + fb)
    k = int(np.prod(sa[nbt + len(fa):]))
    dt = _dtypes.result_type(a, b)
    if not fa and not fb and dt.kind != "b":
        # dot products only ("ij,ij->i"): one reduction pass, where matmul
        # would run gemm on 1 x 1 matrices
        r = products_summed(reshape(a, sa[:nbt] + (k,)), reshape(b, sb[:nbt] + (k,)), dt,
                            axis=-1)
        return r, "".join(batch)
    a = reshape(a, sa[:nbt] + (int(np.prod(fa_shape)), k))
    b = reshape(b, sb[:nbt] + (k, int(np.prod(fb_shape))))
    r = matmul(a, b)
    return reshape(r, r.shape[:-2] + fa_shape + fb_shape), "".join(batch + fa + fb)


def _stand_ins(ops):
    """Zero-stride NumPy arrays of the operands' shapes (for NumPy's path finder)."""
    return [np.broadcast_to(np.zeros((), dtype=o.dtype), o.shape) for o in ops]


def _path(subscripts, ops, optimize):
    if len(ops) < 3:
        return [tuple(range(len(ops)))]
    if optimize is False or optimize is True:
        optimize = "greedy"
    path, _ = np.einsum_path(subscripts, *_stand_ins(ops), optimize=optimize)
    return path[1:]


def _operands(raw):
    """The operands as usm_ndarrays on one queue (Python scalars made there)."""
    arrays = [o for o in raw if isinstance(o, usm_ndarray)]
    if not arrays:
        raise TypeError("einsum: expected at least one usm_ndarray operand")
    q = common_queue(*arrays).queue
    ops = []
    for o in raw:
        if isinstance(o, usm_ndarray):
            ops.append(o)
        elif isinstance(o, (list, tuple, np.ndarray)):
            raise mixed_operand_error("einsum", o)
        else:
            ops.append(asarray(o, sycl_queue=q))
    return ops


@compiled_together
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation, as ``numpy.einsum``.

    Parameters
    ----------
    *operands
        ``subscripts, *arrays`` (``"ij,jk->ik"``, implicit output, ``...``
        broadcasting), or NumPy's interleaved form ``a, [0, 1], b, [1, 2],
        [0, 2]``. The arrays are usm_ndarrays (Python scalars allowed).
    out : usm_ndarray, optional
        Where to put the result.
    dtype : dtype, optional
        Compute in this dtype (the operands are cast by `casting`).
    order : {'K', 'C', 'F', 'A'}
        Memory order of the result ('F' makes it F-contiguous).
    casting : str
        The cast allowed for `dtype`, as NumPy's (default "safe").
    optimize : bool, str, list
        With three or more operands, the order of the pairwise products:
        NumPy's path for these shapes ("greedy" for False and True,
        "optimal", or an explicit ``["einsum_path", (i, j), ...]``).

    Returns
    -------
    usm_ndarray
        The result, of the operands' promoted dtype (bool products are
        counted in int64 and reported as bool). Products of pairs run
        ``matmul`` (oneMKL's gemm for floating types).
    """
    subscripts, raw = _split_args(operands)
    ops = _operands(raw)
    if dtype is not None:
        dt = _dtypes.to_dtype(dtype)
        for o in ops:
            if not np.can_cast(o.dtype, dt, casting):
                raise TypeError(f"Cannot cast array data from {o.dtype!r} to {dt!r} according "
                                f"to the rule {casting!r}")
        ops = [astype(o, dt, copy=False) for o in ops]
    res_dt = _dtypes.result_type(*ops)
    work_dt = _dtypes.int64 if res_dt.kind == "b" else res_dt
    labels, out_labels = _parse(subscripts, [o.shape for o in ops])
    terms = []
    for o, lab in zip(ops, labels):
        o, lab = _diagonal(astype(o, work_dt, copy=False), lab)
        terms.append((o, lab))
    for step in _path(subscripts, ops, optimize):
        picked = [terms[i] for i in step]
        for i in sorted(step, reverse=True):
            terms.pop(i)
        needed = set(out_labels).union(*(set(lab) for _, lab in terms))
        x, lx = picked[0]
        if len(picked) == 1:
            x, lx = _summed(x, lx, needed)
        for j in range(1, len(picked)):
            y, ly = picked[j]
            rest = needed.union(*(set(lab) for _, lab in picked[j + 1:]))
            x, lx = _pair(x, lx, y, ly, rest)
        terms.append((x, lx))
    while len(terms) > 1:   # (a path that left terms out)
        (x, lx), (y, ly) = terms[0], terms[1]
        rest = set(out_labels).union(*(set(lab) for _, lab in terms[2:]))
        terms[:2] = [_pair(x, lx, y, ly, rest)]
    x, lx = terms[0]
    x, lx = _summed(x, lx, set(out_labels))
    r = _ordered(x, lx, list(out_labels))
    if res_dt.kind == "b":
        r = ew.not_equal(r, 0)
    elif r.dtype != res_dt:
        r = astype(r, res_dt)
    if out is not None:
        check_out("einsum", out, r.shape, r.dtype, r._q)
        copy_into(out, r)
        return out
    if order == "F" and r.ndim > 1:
        r = copy(r, order="F")
    return r


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """The order of pairwise products for an einsum, as ``numpy.einsum_path``.

    Parameters
    ----------
    *operands
        As for :func:`einsum` (only the shapes are used).
    optimize : str, list or tuple
        "greedy", "optimal", an explicit path, or ``(name, memory_limit)``.
    einsum_call : bool
        Not supported (NumPy's internal use).

    Returns
    -------
    path : list
        ``["einsum_path", (i, j), ...]``: NumPy's path for these shapes.
    report : str
        NumPy's printed description of the contraction.
    """
    if einsum_call:
        raise TypeError("einsum_path: einsum_call=True is not supported")
    args = list(operands)
    for i, a in enumerate(args):
        if isinstance(a, usm_ndarray):
            args[i] = np.broadcast_to(np.zeros((), dtype=a.dtype), a.shape)
        elif isinstance(a, np.ndarray):
            raise mixed_operand_error("einsum_path", a)
    return np.einsum_path(*args, optimize=optimize)
