"""Basic indexing (integers, slices, Ellipsis, None, boolean scalars): views,
and assignment into them with broadcasting and casting."""

import operator

import numpy as np

from . import _dtypes, _engine
from ._array import WRITABLE, usm_ndarray, view

__all__ = ["getitem", "setitem", "basic_view", "scalar_bytes"]


def _index_kind(k):
    """'int', 'slice', 'ellipsis', 'none', 'bool' or raise IndexError."""
    if k is None:
        return "none"
    if k is Ellipsis:
        return "ellipsis"
    if isinstance(k, slice):
        return "slice"
    if isinstance(k, (bool, np.bool_)):
        return "bool"
    if isinstance(k, usm_ndarray):
        if k.ndim == 0 and k.dtype.kind in "iu":
            return "int"
        if k.ndim == 0 and k.dtype.kind == "b":
            return "bool"
        raise IndexError("integer array and boolean array indices are not supported yet; "
                         "only integers, slices, Ellipsis, None and 0-d integer arrays")
    if isinstance(k, (list, np.ndarray)):
        raise IndexError("integer array and boolean array indices are not supported yet; "
                         "only integers, slices, Ellipsis, None and 0-d integer arrays")
    try:
        operator.index(k)
        return "int"
    except TypeError:
        raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and 0-d integer "
                         f"arrays are valid indices, got {type(k).__name__}") from None


def basic_view(x, key):
    """(offset, shape, strides) of `x[key]` for a basic index `key`."""
    if not isinstance(key, tuple):
        key = (key,)
    kinds = [_index_kind(k) for k in key]
    n_ell = kinds.count("ellipsis")
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for t in kinds if t in ("int", "slice"))
    nd = len(x._shape)
    if consumed > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, "
                         f"but {consumed} were indexed")
    if n_ell == 0:
        key = key + (Ellipsis,)
        kinds.append("ellipsis")
    off = x._off
    shape, strides = [], []
    dim = 0
    for k, t in zip(key, kinds):
        if t == "int":
            n = x._shape[dim]
            i = operator.index(k)
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            if i < 0:
                i += n
            off += i * x._strides[dim]
            dim += 1
        elif t == "slice":
            n = x._shape[dim]
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            if length:
                off += start * x._strides[dim]
            shape.append(length)
            strides.append(x._strides[dim] * step)
            dim += 1
        elif t == "none":
            shape.append(1)
            strides.append(0)
        elif t == "bool":
            # a boolean scalar index acts like a 0-d mask: a new axis of length 1 or 0
            shape.append(1 if bool(k) else 0)
            strides.append(0)
        else:  # ellipsis
            rest = nd - consumed
            shape.extend(x._shape[dim:dim + rest])
            strides.extend(x._strides[dim:dim + rest])
            dim += rest
    return off, tuple(shape), tuple(strides)


def getitem(x, key):
    off, shape, strides = basic_view(x, key)
    return view(x, off, shape, strides)


def scalar_bytes(value, dt, strict=True):
    """Bytes of the Python scalar `value` as an item of dtype `dt`.

    strict: the array API's rules for mixing Python scalars with arrays (an
    int goes into integer, floating and complex arrays, a float into
    floating and complex ones, a complex only into complex ones; a bool into
    any); otherwise NumPy's unsafe cast. Integers that do not fit raise
    OverflowError either way.
    """
    if isinstance(value, (np.generic, np.ndarray)) and np.ndim(value) == 0:
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        raise TypeError(f"expected a Python scalar, got {type(value).__name__}")
    if strict and not isinstance(value, bool):
        allowed = "iufc" if isinstance(value, int) else "fc" if isinstance(value, float) else "c"
        if dt.kind not in allowed:
            raise TypeError(f"cannot assign a Python {type(value).__name__} to an array of "
                            f"dtype {dt.name}")
    if isinstance(value, int) and not isinstance(value, bool) and dt.kind in "iu":
        info = np.iinfo(dt)
        if value < info.min or value > info.max:
            raise OverflowError(f"Python int {value} out of bounds for {dt.name}")
    if dt.kind == "b":
        return np.array(bool(value), dtype=dt).tobytes()
    if isinstance(value, complex) and dt.kind != "c":
        value = value.real
    if isinstance(value, float) and dt.kind in "iu":
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"cannot convert {value} to {dt.name}")
        value = int(value)
        info = np.iinfo(dt)
        if value < info.min or value > info.max:
            raise OverflowError(f"{value} out of bounds for {dt.name}")
    with np.errstate(over="ignore"):
        return np.array(value, dtype=dt).tobytes()


def fill(x, value_bytes):
    """x[...] = one item given as bytes (a kernel or a device fill)."""
    qi = x._q
    _engine.fill(qi.ref, qi.kc, x, value_bytes)


def _set_masked(x, mask, value):
    """x[mask] = value for a boolean mask over x's leading dimensions and a
    scalar (or one-element) value: a where() into x."""
    from ._copy import broadcast_view
    from .elementwise import _as_scalar, _cast, _scalar_array

    if mask._shape != x._shape[:mask.ndim]:
        raise IndexError(f"boolean index of shape {mask._shape} does not match the indexed "
                         f"array's shape {x._shape}")
    if mask._q is not x._q:
        from ._device import common_queue

        common_queue(x, mask)
    m = view(mask, mask._off, mask._shape + (1,) * (x.ndim - mask.ndim),
             mask._strides + (0,) * (x.ndim - mask.ndim))
    m = broadcast_view(m, x._shape)
    if isinstance(value, usm_ndarray):
        if value.size != 1:
            raise IndexError("assigning an array through a boolean mask is not supported yet; "
                             "assign a scalar or use where()")
        v = value if value._dtype is x._dtype else _cast(value, x._dtype)
        v = broadcast_view(view(v, v._off, (), ()), x._shape)
    else:
        s = _as_scalar(value)
        if s is None:
            raise TypeError(f"cannot assign a {type(value).__name__} through a boolean mask")
        scalar_bytes(s, x._dtype)   # the array API's scalar rules
        v = _scalar_array(s, x._dtype, x._q, x._alloc.kind, x._shape)
    qi = x._q
    _engine.where(qi.ref, qi.kc, m, v, x, x)


def setitem(x, key, value):
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if isinstance(key, usm_ndarray) and key.dtype == np.bool_ and key.ndim > 0:
        _set_masked(x, key, value)
        return
    off, shape, strides = basic_view(x, key)
    dst = view(x, off, shape, strides)
    if isinstance(value, (bool, int, float, complex, np.generic)) and np.ndim(value) == 0:
        if 0 in shape:
            scalar_bytes(value, x._dtype)  # still validate
            return
        fill(dst, scalar_bytes(value, x._dtype))
        return
    from ._copy import assign

    assign(dst, value)
