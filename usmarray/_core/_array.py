"""``usm_ndarray``: an N-dimensional view of USM memory bound to a SYCL queue.

The array holds an engine ``Allocation`` (pooled memory, or memory owned by
another object: a dpctl.memory object, a SUAI exporter, a DLPack capsule),
an element offset, shape and strides in elements, the dtype and the
``_QueueInfo`` of its queue. Views share the allocation.

The class here holds what the array computes from itself and the modules
below it (geometry, placement, views of its own memory, scalar conversion,
SUAI export). Everything that needs copies, indexing, printing, the
operators or the array API functions is bound onto the class by
``usmarray.methods.install()`` once the package has loaded: this module
imports nothing above it.
"""

import math
import operator
import struct
import sys

import dpctl
import dpctl.memory as dpm
import numpy as np

from . import _dtypes, _engine, _suai
from ._device import Device, queue_info, resolve_queue
from ._layout import (C_CONTIG, F_CONTIG, KIND_CODE, MAX_NDIM, RO_LOCK, WRITABLE, c_strides,
                      check_strides, contig_flags, displacement_bounds, f_strides,
                      normalize_shape)

__all__ = ["usm_ndarray", "Flags", "make", "empty_array", "empty_c", "view", "c_view", "from_suai"]

_new = object.__new__


def make(alloc, off, shape, strides, dt, qi, flags, ns=None):
    """Internal constructor: no validation."""
    a = _new(usm_ndarray)
    a._alloc = alloc
    a._off = off
    a._shape = shape
    a._strides = strides
    a._dtype = dt
    a._tc = _dtypes.TC[dt]
    a._q = qi
    a._flags = flags
    a._ns = ns
    return a


_ITEM = {}   # dtype -> (item bytes -> the Python scalar NumPy's .item() gives)


def _item_of(dt):
    f = _ITEM.get(dt)
    if f is None:
        size = dt.itemsize
        if dt.kind == "c":
            unpack = struct.Struct("=" + ("ff" if size == 8 else "dd")).unpack
            f = lambda b: complex(*unpack(b))   # noqa: E731
        else:
            code = {"b": "?", "i": "bhiq", "u": "BHIQ", "f": "efd"}[dt.kind]
            if dt.kind in "iu":
                code = code[(1, 2, 4, 8).index(size)]
            elif dt.kind == "f":
                code = code[(2, 4, 8).index(size)]
            unpack = struct.Struct("=" + code).unpack
            f = lambda b: unpack(b)[0]   # noqa: E731
        _ITEM[dt] = f
    return f


_C_LAYOUTS = {}   # shape -> (size, C strides, flags): new arrays skip recomputing them


def _c_layout(shape):
    lay = _C_LAYOUTS.get(shape)
    if lay is None:
        if len(_C_LAYOUTS) > 4096:
            _C_LAYOUTS.clear()
        st = c_strides(shape)
        lay = _C_LAYOUTS[shape] = (math.prod(shape), st, contig_flags(shape, st) | WRITABLE)
    return lay


def empty_array(shape, dt, qi, usm_type="device", order="C"):
    """A new array with uninitialised contents (shape already normalised)."""
    try:
        kind = KIND_CODE[usm_type]
    except (KeyError, TypeError):
        raise ValueError(f"usm_type must be 'device', 'shared' or 'host', got {usm_type!r}") from None
    if order == "C":
        return empty_c(shape, dt, qi, kind)
    strides = f_strides(shape)
    return make(_engine.allocate(qi.ref, math.prod(shape) * dt.itemsize, kind), 0, shape, strides,
                dt, qi, contig_flags(shape, strides) | WRITABLE)


def empty_c(shape, dt, qi, kind):
    """empty_array in C order, `kind` a KIND_CODE value (no checks: for the
    common-case paths of elementwise.py, _reduce.py and searching.py)."""
    n, strides, flags = _c_layout(shape)
    return make(_engine.allocate(qi.ref, n * dt.itemsize, kind), 0, shape, strides, dt, qi, flags)


def c_view(x, shape):
    """A view of the C-contiguous `x` as the C-contiguous `shape` (of x's size)."""
    _, strides, flags = _c_layout(shape)
    return make(x._alloc, x._off, shape, strides, x._dtype, x._q,
                (flags & (C_CONTIG | F_CONTIG)) | _view_rights(x._flags), x._ns)


def view(x, off, shape, strides, dt=None):
    """A view of `x`'s memory with another geometry (flags recomputed). A
    view of a read-only array stays read-only (its writable flag cannot be
    set, as NumPy's views of a read-only base)."""
    dt = x._dtype if dt is None else dt
    if len(shape) > MAX_NDIM:
        raise ValueError(f"arrays have at most {MAX_NDIM} dimensions, found {len(shape)}")
    return make(x._alloc, off, shape, strides, dt, x._q,
                contig_flags(shape, strides) | _view_rights(x._flags), x._ns)


def _view_rights(flags):
    return (flags & (WRITABLE | RO_LOCK)) | (0 if flags & WRITABLE else RO_LOCK)


class Flags:
    """Memory layout flags of a usm_ndarray (``x.flags``)."""

    __slots__ = ("_arr",)

    def __init__(self, arr):
        self._arr = arr

    @property
    def c_contiguous(self):
        return bool(self._arr._flags & C_CONTIG)

    @property
    def f_contiguous(self):
        return bool(self._arr._flags & F_CONTIG)

    @property
    def writable(self):
        return bool(self._arr._flags & WRITABLE)

    @writable.setter
    def writable(self, value):
        a = self._arr
        if value:
            if a._flags & RO_LOCK:
                raise ValueError("cannot make this array writable: it is a view of a read-only "
                                 "array, a broadcast (its items alias each other) or memory "
                                 "shared read-only")
            a._flags |= WRITABLE
        else:
            a._flags &= ~WRITABLE

    @property
    def flags(self):
        """dpctl.tensor's integer of the flags: 1 C-contiguous, 2 F-contiguous, 4 writable."""
        return self._arr._flags & 7

    @property
    def fc(self):
        """Both C- and F-contiguous (dpctl.tensor's meaning: 1-d and empty arrays)."""
        return self.f_contiguous and self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def contiguous(self):
        return self.forc

    _KEYS = {"C": "c_contiguous", "C_CONTIGUOUS": "c_contiguous", "F": "f_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "W": "writable", "WRITABLE": "writable",
             "FC": "fc", "FNC": "fnc", "FORC": "forc", "CONTIGUOUS": "contiguous"}

    def __getitem__(self, name):
        try:
            return getattr(self, self._KEYS[name.upper()])
        except (KeyError, AttributeError):
            raise KeyError(f"unknown flag {name!r}") from None

    def __setitem__(self, name, value):
        if self._KEYS.get(name.upper()) != "writable":
            raise KeyError(f"flag {name!r} cannot be set")
        self.writable = value

    def __eq__(self, other):
        if isinstance(other, Flags):
            return self._arr._flags & 7 == other._arr._flags & 7
        if isinstance(other, int):
            return self._arr._flags & 7 == other
        return NotImplemented

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  WRITABLE : {self.writable}")


class _AllocationMemory:
    """SUAI of a whole allocation, for building a dpctl.memory object on it."""

    __slots__ = ("_alloc", "__sycl_usm_array_interface__")

    def __init__(self, alloc, queue):
        self._alloc = alloc
        n = alloc.nbytes   # (the array's bytes, as dpctl's usm_data: not the pool block)
        self.__sycl_usm_array_interface__ = {
            "data": (alloc.ptr, False), "shape": (n,), "strides": None,
            "typestr": "|u1", "version": 1, "syclobj": queue}


_MEMORY_CLASS = {"device": dpm.MemoryUSMDevice, "shared": dpm.MemoryUSMShared,
                 "host": dpm.MemoryUSMHost}


# dpctl.memory objects cannot say read-only (their SUAI always does): the
# memory of a read-only array is handed out as one of these, and arrays built
# on it are read-only, as NumPy arrays built on a read-only buffer are.
class _ReadOnlyMemoryUSMDevice(dpm.MemoryUSMDevice):
    _usmarray_read_only = True


class _ReadOnlyMemoryUSMShared(dpm.MemoryUSMShared):
    _usmarray_read_only = True


class _ReadOnlyMemoryUSMHost(dpm.MemoryUSMHost):
    _usmarray_read_only = True


_READ_ONLY_MEMORY_CLASS = {"device": _ReadOnlyMemoryUSMDevice, "shared": _ReadOnlyMemoryUSMShared,
                           "host": _ReadOnlyMemoryUSMHost}


class usm_ndarray:
    """An N-dimensional array in SYCL USM memory.

    Parameters
    ----------
    shape : int or tuple of ints
    dtype : dtype, optional
        Default: the device's default floating dtype (float64 when the
        device has fp64, else float32).
    strides : tuple of ints, optional
        In elements. Default: contiguous in `order`.
    buffer : {"device", "shared", "host"}, dpctl.memory object, usm_ndarray or SUAI object
        A string allocates new USM of that kind (``buffer_ctor_kwargs`` may
        give ``queue=``); otherwise the array views the given memory.
    offset : int
        Offset of element zero from the start of the buffer, in elements.
    order : {"C", "F"}
    buffer_ctor_kwargs : dict
    array_namespace : module, optional
        What ``__array_namespace__`` returns.

    Raises
    ------
    ValueError
        If the view does not fit inside the buffer, or the device cannot
        hold `dtype`.
    TypeError
        For unsupported dtypes or buffer objects.
    """

    __slots__ = ("_alloc", "_off", "_shape", "_strides", "_dtype", "_tc", "_q", "_flags", "_ns",
                 "__weakref__")
    __hash__ = None

    def __init__(self, shape, dtype=None, strides=None, buffer="device", offset=0, order="C",
                 buffer_ctor_kwargs=dict(), array_namespace=None):
        shape = normalize_shape(shape)
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', got {order!r}")
        try:
            offset = operator.index(offset)
        except TypeError:
            raise TypeError(f"offset must be an integer, got {offset!r}") from None
        if strides is None:
            strides = c_strides(shape) if order == "C" else f_strides(shape)
        else:
            try:
                strides = tuple(operator.index(s) for s in strides)
            except TypeError:
                raise TypeError(f"strides must be a sequence of ints, got {strides!r}") from None
            if len(strides) != len(shape):
                raise ValueError(f"strides {strides} do not match shape {shape}")
        check_strides(strides, offset)
        flags = WRITABLE
        if isinstance(buffer, str):
            kw = dict(buffer_ctor_kwargs)
            q = kw.pop("queue", None)
            kw.pop("alignment", None)   # (pool blocks are aligned for every dtype and vector)
            if kw:
                raise TypeError(f"buffer_ctor_kwargs: unexpected keyword {next(iter(kw))!r} "
                                "(dpctl.memory's constructors take queue and alignment)")
            qi = resolve_queue(None, q) if q is None or isinstance(q, dpctl.SyclQueue) else resolve_queue(q)
            dt = self._dtype_for(dtype, qi)
            bounds = displacement_bounds(shape, strides)
            lo, hi = bounds if bounds else (0, -1)
            if offset == 0:
                offset = -lo   # (negative strides: dpctl.tensor places element zero so they fit)
            if offset + lo < 0:
                raise ValueError("the array would start before its buffer (offset and negative strides)")
            if buffer not in KIND_CODE:
                raise ValueError(f"buffer must be 'device', 'shared' or 'host', got {buffer!r}")
            alloc = _engine.allocate(qi.ref, (offset + hi + 1) * dt.itemsize, KIND_CODE[buffer])
        else:
            alloc, qi, ro = _buffer_of(buffer)
            dt = self._dtype_for(dtype, qi, data=True)
            if ro:
                flags = RO_LOCK
            bounds = displacement_bounds(shape, strides)
            if bounds is not None:
                lo, hi = bounds
                if offset + lo < 0 or (offset + hi + 1) * dt.itemsize > alloc.nbytes:
                    raise ValueError(
                        f"an array of shape {shape}, strides {strides}, offset {offset} and item "
                        f"size {dt.itemsize} does not fit in a buffer of {alloc.nbytes} bytes")
            elif offset < 0 or offset * dt.itemsize > alloc.nbytes:
                raise ValueError("offset is outside the buffer")
        self._alloc = alloc
        self._off = offset
        self._shape = shape
        self._strides = strides
        self._dtype = dt
        self._tc = _dtypes.TC[dt]
        self._q = qi
        self._flags = contig_flags(shape, strides) | flags
        self._ns = array_namespace

    @staticmethod
    def _dtype_for(dtype, qi, data=False):
        """The array's dtype; `data`: the memory holds items already, whose
        bytes a non-native byte order would misread (new memory takes the
        native order of the same type)."""
        if dtype is None:
            return qi.float
        if data and np.dtype(dtype).byteorder == (">" if sys.byteorder == "little" else "<"):
            raise ValueError(f"usm_ndarray has native byte order only, got {np.dtype(dtype)}")
        dt = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dt, qi)
        return dt

    # ------------------------------------------------------------ geometry
    @property
    def shape(self):
        # (assigning x.shape, a reshape in place, is set by usmarray.methods)
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        return math.prod(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def strides(self):
        """Strides in elements (as dpctl.tensor; NumPy's are in bytes)."""
        return self._strides

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return math.prod(self._shape) * self._dtype.itemsize

    @property
    def flags(self):
        return Flags(self)

    @property
    def _element_offset(self):
        return self._off

    @property
    def _pointer(self):
        return self._alloc.ptr + self._off * self._dtype.itemsize

    @property
    def _byte_bounds(self):
        b = displacement_bounds(self._shape, self._strides)
        start = self._pointer
        if b is None:
            return start, start
        isz = self._dtype.itemsize
        return start + b[0] * isz, start + (b[1] + 1) * isz

    # ------------------------------------------------------------ placement
    @property
    def usm_type(self):
        return self._alloc.kind

    @property
    def usm_data(self):
        """The dpctl.memory object of the array's allocation."""
        # Code outside usmarray does not see our events: finish pending work first.
        self._alloc.wait()
        if not self._flags & WRITABLE:
            return _READ_ONLY_MEMORY_CLASS[self._alloc.kind](
                _AllocationMemory(self._alloc, self._q.queue))
        owner = self._alloc.owner
        if isinstance(owner, (dpm.MemoryUSMDevice, dpm.MemoryUSMShared, dpm.MemoryUSMHost)) \
                and owner._pointer == self._alloc.ptr:
            return owner
        return _MEMORY_CLASS[self._alloc.kind](_AllocationMemory(self._alloc, self._q.queue))

    @property
    def sycl_queue(self):
        return self._q.queue

    @property
    def sycl_device(self):
        return self._q.device

    @property
    def sycl_context(self):
        return self._q.context

    @property
    def device(self):
        return Device._of(self._q)

    # ------------------------------------------------------------ views
    @property
    def T(self):
        nd = len(self._shape)
        if nd < 2:
            return self   # (dpctl.tensor's: x itself)
        if nd > 2:
            raise ValueError("x.T needs a 2-D array; use x.mT for stacks of matrices or "
                             "permute_dims for other axes")
        return view(self, self._off, self._shape[::-1], self._strides[::-1])

    @property
    def mT(self):
        if len(self._shape) < 2:
            raise ValueError("x.mT needs at least 2 dimensions")
        sh, st = list(self._shape), list(self._strides)
        sh[-1], sh[-2] = sh[-2], sh[-1]
        st[-1], st[-2] = st[-2], st[-1]
        return view(self, self._off, tuple(sh), tuple(st))

    @property
    def real(self):
        if self._dtype.kind != "c":
            return self
        return self._component(0)

    @real.setter
    def real(self, value):
        self.real[...] = value

    @property
    def imag(self):
        if self._dtype.kind != "c":
            # zeros that stay read-only, as NumPy's imag of a real array
            qi = self._q
            z = empty_array(self._shape, self._dtype, qi, self._alloc.kind)
            _engine.fill(qi.ref, qi.kc, z, bytes(self._dtype.itemsize))
            z._flags = (z._flags & ~WRITABLE) | RO_LOCK
            return z
        return self._component(1)

    @imag.setter
    def imag(self, value):
        if self._dtype.kind != "c":
            raise TypeError("cannot set the imaginary part of a real array")
        self.imag[...] = value

    def _component(self, part):
        rt = _dtypes.float32 if self._dtype is _dtypes.complex64 else _dtypes.float64
        return view(self, 2 * self._off + part, self._shape, tuple(2 * s for s in self._strides), rt)

    # ------------------------------------------------------------ sequence
    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    # (__iter__, which gives 0-d copies of a 1-D array's items as x[i] does,
    # is set by usmarray.methods)

    # ------------------------------------------------------------ scalars
    def _python_scalar(self, what):
        """The one element of a 0-d array for int(), float(), complex(),
        bool() and operator.index(): only 0-d arrays convert, as in
        dpctl.tensor (NumPy 2 deprecates converting others)."""
        if self._shape and math.prod(self._shape) == 1:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self._scalar(what)

    def _scalar(self, what):
        if math.prod(self._shape) != 1:
            if what == "bool":
                raise ValueError("the truth value of an array with more than one element "
                                 "(or none) is ambiguous; use any() or all()")
            raise TypeError(f"only arrays with one element can be converted to {what}")
        dt = self._dtype
        raw = _engine.read_bytes(self._q.ref, self._alloc, self._off * dt.itemsize, dt.itemsize)
        return _item_of(dt)(raw)

    def __bool__(self):
        return bool(self._python_scalar("bool"))

    def __int__(self):
        v = self._python_scalar("int")
        if isinstance(v, complex):
            raise TypeError("cannot convert a complex array to int")
        return int(v)

    def __float__(self):
        v = self._python_scalar("float")
        if isinstance(v, complex):
            raise TypeError("cannot convert a complex array to float")
        return float(v)

    def __complex__(self):
        return complex(self._python_scalar("complex"))

    def __index__(self):
        if self._dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self._dtype.name}")
        if self._shape:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars "
                            "(and used as an index)")
        return int(self._scalar("int"))

    def __format__(self, spec):
        # a 0-d array formats like its Python scalar (as NumPy's 0-d arrays
        # do), so f"{xp.sum(x):.3f}" works; other arrays take no format spec
        if self._shape == ():
            return format(self._scalar("a Python scalar"), spec)
        if spec:
            raise TypeError("unsupported format string passed to usm_ndarray.__format__: "
                            "only 0-d arrays take a format spec")
        return str(self)

    def __round__(self, ndigits=None):
        # as round() of a NumPy scalar (what NumPy's reductions return): a
        # Python int without ndigits; usmarray.round rounds arrays elementwise
        if self._shape != ():
            raise TypeError("round() needs a 0-d array; use usmarray.round(x) to round the "
                            "elements of an array")
        v = self._scalar("a Python scalar")
        if isinstance(v, complex):
            raise TypeError("round() of a complex array is undefined")
        if ndigits is None:
            return round(v)
        return round(self._dtype.type(v), ndigits)   # NumPy's rounding, and its scalar type

    @property
    def __sycl_usm_array_interface__(self):
        return _suai.export_suai(self)

    def __sizeof__(self):
        # The USM the view spans (broadcast repeats once), as NumPy arrays report
        # their data: Dask and distributed budget worker memory by sys.getsizeof.
        n = math.prod(s if st else min(s, 1) for s, st in zip(self._shape, self._strides))
        return object.__sizeof__(self) + n * self._dtype.itemsize


def _buffer_of(buffer):
    """(Allocation, _QueueInfo, read_only) of a buffer given to the constructor."""
    if isinstance(buffer, usm_ndarray):
        return buffer._alloc, buffer._q, not buffer._flags & WRITABLE
    if isinstance(buffer, (dpm.MemoryUSMDevice, dpm.MemoryUSMShared, dpm.MemoryUSMHost)):
        q = buffer.sycl_queue
        qi = queue_info(q)
        alloc = _engine.wrap(buffer._pointer, buffer.nbytes, KIND_CODE[buffer.get_usm_type()],
                             qi.context.addressof_ref(), buffer.sycl_device.addressof_ref(), buffer)
        return alloc, qi, getattr(buffer, "_usmarray_read_only", False)
    if hasattr(buffer, "__sycl_usm_array_interface__"):
        return _suai.import_suai_memory(buffer)
    raise TypeError("buffer must be 'device', 'shared', 'host', a dpctl.memory object, a "
                    f"usm_ndarray or an object with __sycl_usm_array_interface__, got "
                    f"{type(buffer).__name__}")


def from_suai(obj):
    """Zero-copy usm_ndarray viewing the memory an object describes by SUAI."""
    alloc, off, shape, strides, dt, qi, flags = _suai.import_suai(obj)
    if alloc is None:   # nothing to view: an empty array on the named queue (flags: its USM type)
        return empty_array(shape, dt, qi, flags)
    return make(alloc, off, shape, strides, dt, qi, flags)
