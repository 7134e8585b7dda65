"""NumPy's functions that pick elements by conditions or indices beyond the
array API: ``select``, ``choose``, ``compress``, ``putmask`` and
``trim_zeros`` (``place`` and ``extract`` are in usmarray.indexing), with
NumPy's rules.

Conditions and choices are data: usm_ndarrays (or Python scalars where NumPy
takes a scalar). Where NumPy raises for an index out of range the host reads
the range of the indices (one wait)."""

import operator

import numpy as np

from . import elementwise as ew, manipulation, reduction, searching
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import asnumpy, astype, with_out
from ._core._device import coerced_kind, common_queue
from ._core._scalars import scalars_dtype
from ._core._indexing import take
from ._core._views import normalize_axis
from .creation import asarray, full
from .indexing import take_along_axis
from .searching import nonzero, where

__all__ = ["select", "choose", "compress", "putmask", "trim_zeros", "copyto"]


def _arrays(name, values):
    arrays = [v for v in values if isinstance(v, usm_ndarray)]
    if not arrays:
        raise TypeError(f"{name}: expected usm_ndarray operands")
    return common_queue(*arrays)


def select(condlist, choicelist, default=0):
    """For each element, the choice of the first true condition, else
    `default`, as ``numpy.select``.

    Parameters
    ----------
    condlist : sequence of bool usm_ndarrays
        The conditions, broadcast together with the choices.
    choicelist : sequence of usm_ndarrays or scalars
        One choice per condition.
    default : scalar or usm_ndarray
        Where no condition holds (a Python scalar is weak, as in NumPy).

    Returns
    -------
    usm_ndarray
        The choices' and default's result dtype, their broadcast shape.
    """
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    qi = _arrays("select", condlist + choicelist + [default])
    for i, c in enumerate(condlist):
        if not isinstance(c, usm_ndarray) or c.dtype != _dtypes.bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    if any(isinstance(v, usm_ndarray) for v in choicelist + [default]):
        dt = _dtypes.result_type(*choicelist, default)
    else:   # (scalars only: np.select([c], [1], default=2.5))
        dt = scalars_dtype(choicelist + [default], qi)
    kind = coerced_kind([v for v in condlist + choicelist + [default] if isinstance(v, usm_ndarray)])
    result = default if isinstance(default, usm_ndarray) else \
        full((), default, dtype=dt, sycl_queue=qi.queue, usm_type=kind)
    result = astype(result, dt, copy=False)
    for c, v in zip(reversed(condlist), reversed(choicelist)):
        result = where(c, v, result)
    shape = np.broadcast_shapes(*(np.shape(v) for v in condlist + choicelist + [default]))
    return astype(manipulation.broadcast_to(result, shape), dt, copy=True)


@with_out
def choose(a, choices, mode="raise"):
    """``choices[a[i]][i]`` for each element of the index array `a` (the
    choices broadcast with it), as ``numpy.choose``; `mode` "raise" (NumPy's
    ValueError for an index out of range), "wrap" or "clip"; ``out=`` as
    dpctl.tensor's."""
    if not isinstance(a, usm_ndarray):
        raise TypeError("choose: a must be a usm_ndarray of indices")
    if a.dtype.kind == "b":
        a = astype(a, _dtypes.int64)   # (NumPy casts bool indices safely, to 0 and 1)
    if a.dtype.kind not in "iu":
        raise TypeError(f"choose: indices must be integers, not {a.dtype}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode not understood: {mode!r}")
    choices = list(choices)
    if not choices:
        raise ValueError("0-length sequence.")
    qi = _arrays("choose", [a] + choices)
    choices = [c if isinstance(c, usm_ndarray) else asarray(c, sycl_queue=qi.queue)
               for c in choices]
    n = len(choices)
    dt = _dtypes.result_type(*choices)
    shape = np.broadcast_shapes(a.shape, *(c.shape for c in choices))
    idx = astype(a, _dtypes.int64, copy=False)
    if mode == "raise":
        if a.size and (int(reduction.min(idx)) < 0 or int(reduction.max(idx)) >= n):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = ew.remainder(idx, n)
    else:
        idx = ew.minimum(ew.maximum(idx, 0), n - 1)
    stacked = manipulation.stack([manipulation.broadcast_to(astype(c, dt, copy=False), shape)
                                  for c in choices])
    idx = manipulation.broadcast_to(idx, shape)
    return manipulation.reshape(take_along_axis(stacked, manipulation.reshape(idx, (1,) + shape),
                                                axis=0), shape)


@with_out
def compress(condition, a, axis=None):
    """The slices of `a` along `axis` (flattened when None) where `condition`
    (1-d, nonzero is true) holds, as ``numpy.compress``: a shorter condition
    leaves the rest out; a true entry beyond the axis is an IndexError."""
    if not isinstance(a, usm_ndarray):
        raise TypeError("compress: a must be a usm_ndarray")
    c = condition if isinstance(condition, usm_ndarray) else asarray(condition,
                                                                     sycl_queue=a.sycl_queue,
                                                                     usm_type=a.usm_type)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a, ax = manipulation.reshape(a, (-1,)), 0
    else:
        ax = normalize_axis(operator.index(axis), a.ndim)
    pos = nonzero(c)[0]
    n = a.shape[ax]
    if pos.size and int(pos[-1]) >= n:
        raise IndexError(f"index {int(pos[-1])} is out of bounds for axis {ax} with size {n}")
    return take(a, pos, axis=ax)


def _values(name, a, values):
    """`values` on a's queue: arrays must cast to a's dtype safely (NumPy's
    rule), scalars are cast as they are (2.7 into integers is 2)."""
    if isinstance(values, usm_ndarray):
        if not np.can_cast(values.dtype, a.dtype, "safe"):
            raise TypeError(f"{name}: cannot cast array data from dtype('{values.dtype}') to "
                            f"dtype('{a.dtype}') according to the rule 'safe'")
        return values
    return asarray(np.asarray(values), sycl_queue=a.sycl_queue, usm_type=a.usm_type)


def putmask(a, mask, values):
    """``a.flat[i] = values.flat[i % values.size]`` where ``mask.flat[i]``, in
    place, as ``numpy.putmask`` (the mask has a's size; empty values change
    nothing)."""
    if not isinstance(a, usm_ndarray):
        raise TypeError("putmask: argument a must be a usm_ndarray")
    m = mask if isinstance(mask, usm_ndarray) else asarray(mask, sycl_queue=a.sycl_queue)
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    v = _values("putmask", a, values)
    m = manipulation.reshape(ew.not_equal(m, 0) if m.dtype.kind != "b" else m, a.shape)
    v = manipulation.reshape(v, (-1,))
    if v.size == 0 or a.size == 0:
        return
    pos = nonzero(manipulation.reshape(m, (-1,)))[0]
    a[m] = take(v, ew.remainder(pos, v.size))


def trim_zeros(filt, trim="fb", axis=None):
    """`filt` without its leading ("f") and/or trailing ("b") zeros along
    `axis` (every axis when None: the box holding the nonzero elements), as
    ``numpy.trim_zeros``: a view. The host reads the box's bounds."""
    if not isinstance(filt, usm_ndarray):
        raise TypeError("trim_zeros: filt must be a usm_ndarray")
    t = trim.lower()
    if not t or any(ch not in "fb" for ch in t):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = filt.ndim
    if nd == 0:
        raise ValueError("trim_zeros requires an array of at least 1 dimension")
    axes = range(nd) if axis is None else [normalize_axis(a, nd) for a in (
        axis if isinstance(axis, (tuple, list)) else (axis,))]
    nz = ew.not_equal(filt, 0)
    key = [slice(None)] * nd
    for ax in axes:
        n = filt.shape[ax]
        others = tuple(d for d in range(nd) if d != ax)
        along = reduction.any(nz, axis=others) if others else nz
        pos = nonzero(along)[0]
        if pos.size == 0:
            key[ax] = slice(0, 0)
            continue
        bounds = manipulation.concat([pos[:1], pos[-1:]])
        first, last = asnumpy(bounds).tolist()
        key[ax] = slice(first if "f" in t else 0, last + 1 if "b" in t else n)
    return filt[tuple(key)]


_CASTING = ("no", "equiv", "safe", "same_kind", "unsafe")


def copyto(dst, src, casting="same_kind", where=True):
    """``dst[...] = src`` where `where` holds (src and where broadcast to
    dst's shape), in place, as ``numpy.copyto``: src's dtype must cast to
    dst's under `casting` (Python scalars by NumPy's rules for them)."""
    if not isinstance(dst, usm_ndarray):
        raise TypeError("copyto: argument dst must be a usm_ndarray")
    if casting not in _CASTING:
        raise ValueError(f"casting must be one of {_CASTING}, got {casting!r}")
    # NumPy's casting rules, arrays and weak Python scalars alike, on empty
    # host arrays: only dtypes (and scalar values) matter to them
    probe = np.empty(0, dst.dtype)
    if isinstance(src, usm_ndarray):
        common_queue(dst, src)
        np.copyto(probe, np.empty(0, src.dtype), casting=casting)
    else:
        if isinstance(src, (list, tuple)) or hasattr(src, "__array__") and \
                not isinstance(src, np.generic):
            raise TypeError("copyto: src must be a usm_ndarray or a scalar")
        np.copyto(probe, src, casting=casting)
        # the value NumPy stores (Python ints beyond int64, complex into real
        # under casting="unsafe"), made on the host
        h = np.array(src)
        src = asarray(h if h.dtype == dst.dtype else h.astype(dst.dtype),
                      sycl_queue=dst.sycl_queue)
    if not dst.flags.writable:
        raise ValueError("copyto: the destination is read-only")
    src = astype(src, dst.dtype, copy=False)
    if where is True or isinstance(where, np.bool_) and where:
        dst[...] = src
        return
    if isinstance(where, (bool, np.bool_)):
        manipulation.broadcast_to(src, dst.shape)   # (the shapes still must agree)
        return
    if not isinstance(where, usm_ndarray):
        raise TypeError("copyto: where must be a bool usm_ndarray or a Python bool")
    common_queue(dst, where)
    if where.dtype.kind != "b":
        raise TypeError(f"copyto: cannot cast where from {where.dtype} to bool according to "
                        "the rule 'safe'")
    manipulation.broadcast_to(where, dst.shape)
    dst[...] = searching.where(where, src, dst)
