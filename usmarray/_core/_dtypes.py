"""Data types: the array API dtypes (NumPy dtype objects), their type codes
shared with the compiled engine, device support and the inspection
functions ``isdtype``, ``result_type``, ``can_cast``, ``finfo``, ``iinfo``."""

import builtins
import ctypes
import sys

import numpy as np

__all__ = [
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
    "isdtype", "result_type", "can_cast", "finfo", "iinfo",
]

bool = np.dtype("bool")
int8 = np.dtype("int8")
uint8 = np.dtype("uint8")
int16 = np.dtype("int16")
uint16 = np.dtype("uint16")
int32 = np.dtype("int32")
uint32 = np.dtype("uint32")
int64 = np.dtype("int64")
uint64 = np.dtype("uint64")
float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
complex64 = np.dtype("complex64")
complex128 = np.dtype("complex128")

# Index = type code of the compiled engine (kernels/engine/engine.hpp) and of
# kernel names (kernels/sycl/common.hpp).
DTYPES = (bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
          float16, float32, float64, complex64, complex128)
TYPE_NAMES = ("b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8",
              "f2", "f4", "f8", "c8", "c16")
TC = {dt: i for i, dt in enumerate(DTYPES)}

_BY_NAME = {dt.name: dt for dt in DTYPES}
_LITTLE = sys.byteorder == "little"

SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
INTEGRAL = SIGNED + UNSIGNED
REAL_FLOATING = (float16, float32, float64)
COMPLEX = (complex64, complex128)
NUMERIC = INTEGRAL + REAL_FLOATING + COMPLEX

_KINDS = {
    "bool": (bool,),
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integral": INTEGRAL,
    "real floating": REAL_FLOATING,
    "complex floating": COMPLEX,
    "numeric": NUMERIC,
}


def to_dtype(dtype):
    """Convert a dtype specifier to one of the supported NumPy dtypes.

    Raises TypeError for anything that is not one of the array API types.
    """
    if isinstance(dtype, np.dtype):
        dt = dtype
    else:
        try:
            dt = np.dtype(dtype)
        except Exception:
            raise TypeError(f"data type {dtype!r} is not understood") from None
    if dt.byteorder == ">" or (dt.byteorder == "<" and not _LITTLE):
        dt = dt.newbyteorder("=")   # data in USM is in native byte order
    if dt in TC:
        # canonicalise aliases (e.g. 'long' vs 'longlong')
        return DTYPES[TC[dt]]
    raise TypeError(f"data type {dtype!r} is not supported by usmarray; supported: "
                    + ", ".join(d.name for d in DTYPES))


def dtype_of(x):
    """The dtype of an array, or `x` itself when it is a dtype specifier.

    NumPy's scalar types (``np.float64``) have a ``dtype`` attribute too (a
    descriptor of the class), so types are taken as specifiers, not arrays.
    """
    return x if isinstance(x, type) else getattr(x, "dtype", x)


def check_device_support(dt, qinfo):
    """Raise ValueError when the queue's device cannot hold `dt`."""
    if dt in (float64, complex128) and not qinfo.fp64:
        raise ValueError(
            f"{dt.name} is not supported by device {qinfo.device.name!r}: "
            "it has no fp64 support; use float32/complex64")
    if dt is float16 and not qinfo.fp16:
        raise ValueError(f"float16 is not supported by device {qinfo.device.name!r}")


def device_dtype(dt, qinfo):
    """Map a dtype to one the device supports (for inputs whose dtype was not
    asked for explicitly, e.g. a float64 NumPy array on a device without fp64)."""
    if not qinfo.fp64:
        if dt is float64:
            return float32
        if dt is complex128:
            return complex64
    if dt is float16 and not qinfo.fp16:
        return float32
    return dt


def isdtype(dtype, kind):
    """Whether `dtype` is of the kind(s) `kind` (array API ``isdtype``)."""
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        dtype = to_dtype(dtype)   # NumPy's scalar types, as np.isdtype takes them
    if not isinstance(dtype, np.dtype) or dtype not in TC:
        raise TypeError(f"isdtype expects a supported dtype, got {dtype!r}")
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        try:
            return dtype in _KINDS[kind]
        except KeyError:
            raise ValueError(f"unknown data type kind {kind!r}") from None
    if isinstance(kind, type) and issubclass(kind, np.generic):
        kind = to_dtype(kind)
    if isinstance(kind, np.dtype):
        return dtype == kind
    raise TypeError(f"kind must be a dtype, a string or a tuple of them, got {kind!r}")


def _kind_order(dt):
    if dt is bool:
        return 0
    if dt.kind in "iu":
        return 1
    if dt.kind == "f":
        return 2
    return 3


def promote(a, b):
    """Promote two dtypes per the array API table (NumPy's rules where the
    standard leaves mixed kinds open: int64 with uint64 gives float64)."""
    if a is b:
        return a
    return DTYPES[TC[np.promote_types(a, b)]]


def _scalar_dtype(x, other):
    """dtype a Python scalar takes next to an array dtype `other` (weak scalar)."""
    if isinstance(x, builtins.bool):
        return other if other is not None else bool
    if isinstance(x, int):
        return int64 if other is None or other is bool else other
    if isinstance(x, float):
        if other is not None and other.kind in "fc":
            return other
        return float64
    if isinstance(x, complex):
        if other is not None and other.kind == "c":
            return other
        if other is float32 or other is float16:
            return complex64
        return complex128
    raise TypeError(f"{type(x).__name__} is not an array, a dtype or a Python scalar")


def result_type(*arrays_and_dtypes):
    """Result dtype of an operation on the arguments (array API ``result_type``)."""
    dts, scalars = [], []
    for x in arrays_and_dtypes:
        if isinstance(x, (builtins.bool, int, float, complex)):
            scalars.append(x)
            continue
        dt = dtype_of(x)
        dts.append(to_dtype(dt))
    if not dts:
        if scalars:
            raise ValueError("result_type needs at least one array or dtype")
        raise ValueError("at least one array or dtype is required")
    res = dts[0]
    for d in dts[1:]:
        res = promote(res, d)
    for s in scalars:
        res = promote(res, _scalar_dtype(s, res))
    return res


def can_cast(from_, to, /, *, casting="safe"):
    """Whether `from_` can be cast to `to`: by the promotion rules
    (``casting="safe"``, the array API's function), or by NumPy's rule of
    another `casting` ("no", "equiv", "same_kind", "unsafe"; dpctl.tensor's
    keyword)."""
    f = to_dtype(dtype_of(from_))
    t = to_dtype(to)
    if casting != "safe":
        if casting not in ("no", "equiv", "same_kind", "unsafe"):
            raise ValueError(f"casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', "
                             f"got {casting!r}")
        return builtins.bool(np.can_cast(f, t, casting=casting))
    if f is t:
        return True
    if f is bool:
        return True
    if t is bool:
        return False
    fk, tk = _kind_order(f), _kind_order(t)
    if fk > tk:
        return False
    if fk == tk == 1:
        return promote(f, t) is t
    if fk < tk:
        # integer -> floating/complex: allowed when exactly representable,
        # as NumPy's "safe" casting decides
        return builtins.bool(np.can_cast(f, t, casting="safe"))
    return promote(f, t) is t


class finfo_object:
    """Machine limits of a floating-point dtype (array API ``finfo``)."""

    __slots__ = ("bits", "eps", "epsneg", "max", "min", "smallest_normal", "tiny", "dtype",
                 "precision", "resolution")

    def __init__(self, dt):
        info = np.finfo(dt)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.epsneg = float(info.epsneg)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        # NumPy's and dpctl.tensor's names beside the array API's
        self.tiny = self.smallest_normal
        self.precision = int(info.precision)
        self.resolution = float(info.resolution)
        self.dtype = DTYPES[TC[np.dtype(info.dtype)]]

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, "
                f"smallest_normal={self.smallest_normal}, dtype={self.dtype.name})")


class iinfo_object:
    """Machine limits of an integer dtype (array API ``iinfo``)."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, dt):
        info = np.iinfo(dt)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = dt

    def __repr__(self):
        return f"iinfo(bits={self.bits}, max={self.max}, min={self.min}, dtype={self.dtype.name})"


def finfo(type, /):
    dt = to_dtype(dtype_of(type))
    if dt.kind not in "fc":
        raise TypeError(f"finfo needs a floating-point dtype, got {dt.name}")
    return finfo_object(dt)


def iinfo(type, /):
    dt = to_dtype(dtype_of(type))
    if dt.kind not in "iu":
        raise TypeError(f"iinfo needs an integer dtype, got {dt.name}")
    return iinfo_object(dt)


# ctypes scalar types whose .value is a Python bool, int or float
CTYPES_SCALARS = (ctypes.c_bool, ctypes.c_byte, ctypes.c_ubyte, ctypes.c_short, ctypes.c_ushort,
                  ctypes.c_int, ctypes.c_uint, ctypes.c_long, ctypes.c_ulong, ctypes.c_longlong,
                  ctypes.c_ulonglong, ctypes.c_float, ctypes.c_double)


def plain_scalar(v):
    """`v`, or the Python value of a ctypes scalar (accepted wherever Python
    scalars are, as dpctl.tensor did)."""
    return v.value if isinstance(v, CTYPES_SCALARS) else v
