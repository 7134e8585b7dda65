"""Python and NumPy scalars meeting arrays: the dtype a scalar takes beside
an array, its bytes as an item of a dtype (as an operand, or stored the way
NumPy casts a stored scalar), and arrays filled with one item."""

import struct

import numpy as np

from . import _dtypes, _engine
from ._array import empty_array
from ._copy import broadcast_view
from ._exceptions import DTypeError
from ._layout import WRITABLE

__all__ = ["as_scalar", "is_scalar", "weak_scalar_dtype", "scalars_dtype", "scalar_value",
           "scalar_bytes", "numpy_scalar_into", "fill", "scalar_array", "int_range"]


def is_scalar(value):
    return isinstance(value, (bool, int, float, complex, np.generic)) and np.ndim(value) == 0


def weak_scalar_dtype(s, adt, qi):
    """dtype a Python scalar takes next to an array of dtype `adt`."""
    k = adt.kind
    if isinstance(s, bool):
        return adt
    if isinstance(s, int):
        return adt if k in "iufc" else _dtypes.int64
    if isinstance(s, float):
        return adt if k in "fc" else qi.float
    if k == "c":
        return adt
    if adt is _dtypes.float32 or adt is _dtypes.float16:
        return _dtypes.complex64
    return qi.complex


def scalars_dtype(values, qi):
    """The result dtype of scalars alone (no array among them), as NumPy
    finds it: NumPy scalars are of their dtypes and Python numbers weak
    beside them; Python numbers alone take the default dtypes (bool, int64,
    the default float and complex types)."""
    strong = [_dtypes.to_dtype(v.dtype) for v in values if isinstance(v, np.generic)]
    weak = [as_scalar(v) for v in values if not isinstance(v, np.generic)]
    if strong:
        dt = strong[0]
        for d in strong[1:]:
            dt = _dtypes.promote(dt, d)
        for w in weak:
            dt = _dtypes.promote(dt, weak_scalar_dtype(w, dt, qi))
        return dt
    dt = _dtypes.bool
    for w in weak:
        d = (_dtypes.bool if isinstance(w, bool) else _dtypes.int64 if isinstance(w, int)
             else qi.float if isinstance(w, float) else qi.complex)
        dt = _dtypes.promote(dt, d)
    return dt


# struct formats of the dtypes (native byte order, like device memory here);
# struct.pack costs a tenth of a NumPy round trip on the per-call path.
_PACK = {np.dtype(c): struct.Struct("=" + f) for c, f in (
    ("i1", "b"), ("u1", "B"), ("i2", "h"), ("u2", "H"), ("i4", "i"), ("u4", "I"),
    ("i8", "q"), ("u8", "Q"), ("f2", "e"), ("f4", "f"), ("f8", "d"), ("c8", "ff"),
    ("c16", "dd"))}
_RANGE = {np.dtype(c): (int(np.iinfo(c).min), int(np.iinfo(c).max))
          for c in ("i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8")}


def int_range(dt):
    """(smallest, largest) value of the integer dtype `dt` (np.iinfo without its per-call cost)."""
    return _RANGE[dt]


def scalar_value(s, dt):
    """Bytes of scalar `s` as dtype `dt`, OverflowError if an int does not fit."""
    if dt.kind == "b":
        return b"\x01" if s else b"\x00"
    if dt.kind in "iu" and not isinstance(s, bool) and isinstance(s, int):
        lo, hi = _RANGE[dt]
        if s < lo or s > hi:
            raise OverflowError(f"Python int {s} out of bounds for {dt.name}")
    if isinstance(s, complex) and dt.kind != "c":
        s = s.real
    return _pack(s, dt)


def _pack(s, dt):
    """Bytes of the Python number `s` (in range for an integer `dt`) as `dt`."""
    p = _PACK[dt]
    try:
        if dt.kind == "c":
            s = complex(s)
            return p.pack(s.real, s.imag)
        return p.pack(s)
    except (OverflowError, struct.error):
        # values struct will not round (1e300 as float32 is inf, as in NumPy)
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array(s, dtype=dt).tobytes()


def as_scalar(s):
    """A Python scalar for `s` (a Python, NumPy or ctypes scalar), or None."""
    if isinstance(s, (bool, int, float, complex)):
        return s
    if isinstance(s, np.generic) and s.dtype.kind in "biufc":
        return s.item()
    if isinstance(s, _dtypes.CTYPES_SCALARS):
        return s.value
    return None


def numpy_scalar_into(value, dt):
    """A value stored into an array of dtype `dt` (``x[...] = value``): a
    real or bool NumPy scalar cast as NumPy casts it (NumPy scalars are
    typed: ``np.int64(300)`` stores 44 in uint8, where the Python int 300
    raises OverflowError); anything else as it is (a complex one into a real
    dtype is refused by scalar_bytes)."""
    if isinstance(value, np.generic) and value.dtype.kind in "biuf" and dt.kind in "biuf" \
            and value.dtype != dt:
        with np.errstate(all="ignore"):
            return value.astype(dt)
    return value


def scalar_bytes(value, dt, strict=True):
    """Bytes of the Python scalar `value` as an item of dtype `dt`, cast as
    NumPy stores a Python scalar into an array (``x[...] = value``): a float
    into an integer dtype truncates towards zero (NaN raises ValueError,
    infinities OverflowError), anything into bool is its truth value, and
    an integer that does not fit raises OverflowError.

    strict: a complex value into a real or bool dtype raises DTypeError
    (NumPy warns and drops the imaginary part, dpctl.tensor raises: losing
    it silently is a bug); otherwise the imaginary part is dropped (the
    creation functions, as NumPy's ``full``).
    """
    if isinstance(value, (np.generic, np.ndarray)) and np.ndim(value) == 0:
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        raise TypeError(f"expected a Python scalar, got {type(value).__name__}")
    if isinstance(value, complex) and dt.kind != "c":
        if strict:
            raise DTypeError(f"cannot assign a complex value to an array of dtype {dt.name}")
        # (into bool: the truth of the whole value, 1j is True, as NumPy)
        value = bool(value) if dt.kind == "b" else value.real
    if dt.kind == "b":
        return b"\x01" if value else b"\x00"
    if isinstance(value, float) and dt.kind in "iu":
        if value != value:
            raise ValueError(f"cannot convert float NaN to {dt.name}")
        if value in (float("inf"), float("-inf")):
            raise OverflowError(f"cannot convert float infinity to {dt.name}")
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and dt.kind in "iu":
        lo, hi = _RANGE[dt]
        if value < lo or value > hi:
            raise OverflowError(f"Python int {value} out of bounds for {dt.name}")
    return _pack(value, dt)


def fill(x, value_bytes):
    """x[...] = one item given as bytes (a kernel or a device fill)."""
    if not x._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    qi = x._q
    _engine.fill(qi.ref, qi.kc, x, value_bytes)


def scalar_array(s, dt, qi, kind, shape):
    """A read-only broadcast view of a 0-d device array holding `s`."""
    a = empty_array((), dt, qi, kind)
    fill(a, scalar_value(s, dt))
    return broadcast_view(a, shape)
