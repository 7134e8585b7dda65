"""``usm_ndarray``: an N-dimensional view of USM memory bound to a SYCL queue.

The array holds an engine ``Allocation`` (pooled memory, or memory owned by
another object: a dpctl.memory object, a SUAI exporter, a DLPack capsule),
an element offset, shape and strides in elements, the dtype and the
``_QueueInfo`` of its queue. Views share the allocation.
"""

import math
import operator

import dpctl
import dpctl.memory as dpm
import numpy as np

from . import _dtypes, _engine
from ._device import Device, queue_info, resolve_queue

__all__ = ["usm_ndarray", "Flags"]

# flag bits
C_CONTIG = 1
F_CONTIG = 2
WRITABLE = 4
RO_LOCK = 8   # memory that must stay read-only (read-only imports): never writable again

KIND_CODE = {"device": 1, "shared": 2, "host": 3}
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


def c_strides(shape):
    st, acc = [], 1
    for s in reversed(shape):
        st.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(st))


def f_strides(shape):
    st, acc = [], 1
    for s in shape:
        st.append(acc)
        acc *= max(s, 1)
    return tuple(st)


def contig_flags(shape, strides):
    """C_CONTIG/F_CONTIG bits of a layout (size-1 dimensions ignored)."""
    if 0 in shape:
        return C_CONTIG | F_CONTIG
    flags = C_CONTIG | F_CONTIG
    acc = 1
    for s, st in zip(reversed(shape), reversed(strides)):
        if s != 1 and st != acc:
            flags &= ~C_CONTIG
            break
        acc *= s
    acc = 1
    for s, st in zip(shape, strides):
        if s != 1 and st != acc:
            flags &= ~F_CONTIG
            break
        acc *= s
    return flags


def displacement_bounds(shape, strides):
    """(min, max) element displacement from element zero; None if size 0."""
    lo = hi = 0
    for s, st in zip(shape, strides):
        if s == 0:
            return None
        d = (s - 1) * st
        if d < 0:
            lo += d
        else:
            hi += d
    return lo, hi


def normalize_shape(shape):
    if isinstance(shape, (tuple, list)):
        try:
            shp = tuple(operator.index(s) for s in shape)
        except TypeError:
            raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    else:
        try:
            shp = (operator.index(shape),)
        except TypeError:
            raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    if any(s < 0 for s in shp):
        raise ValueError(f"negative dimensions are not allowed: {shp}")
    if len(shp) > 64:
        raise ValueError("arrays have at most 64 dimensions")
    return shp


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
        n, strides, flags = _c_layout(shape)
    else:
        n = math.prod(shape)
        strides = f_strides(shape)
        flags = contig_flags(shape, strides) | WRITABLE
    return make(_engine.allocate(qi.ref, n * dt.itemsize, kind), 0, shape, strides, dt, qi, flags)


def view(x, off, shape, strides, dt=None):
    """A view of `x`'s memory with another geometry (flags recomputed)."""
    dt = x._dtype if dt is None else dt
    return make(x._alloc, off, shape, strides, dt, x._q,
                contig_flags(shape, strides) | (x._flags & (WRITABLE | RO_LOCK)), x._ns)


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
                raise ValueError("cannot make this array writable: its memory was shared read-only")
            a._flags |= WRITABLE
        else:
            a._flags &= ~WRITABLE

    @property
    def fc(self):
        return self.f_contiguous and not self.c_contiguous

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
        n = alloc.capacity or alloc.nbytes
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
        flags = WRITABLE
        if isinstance(buffer, str):
            kw = dict(buffer_ctor_kwargs)
            q = kw.pop("queue", None)
            qi = resolve_queue(None, q) if q is None or isinstance(q, dpctl.SyclQueue) else resolve_queue(q)
            dt = self._dtype_for(dtype, qi)
            bounds = displacement_bounds(shape, strides)
            lo, hi = bounds if bounds else (0, -1)
            if offset + lo < 0:
                raise ValueError("the array would start before its buffer (offset and negative strides)")
            if buffer not in KIND_CODE:
                raise ValueError(f"buffer must be 'device', 'shared' or 'host', got {buffer!r}")
            alloc = _engine.allocate(qi.ref, (offset + hi + 1) * dt.itemsize, KIND_CODE[buffer])
        else:
            alloc, qi, ro = _buffer_of(buffer)
            dt = self._dtype_for(dtype, qi)
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
    def _dtype_for(dtype, qi):
        if dtype is None:
            return qi.float
        dt = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dt, qi)
        return dt

    # ------------------------------------------------------------ geometry
    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        from .manipulation import reshape

        y = reshape(self, new_shape, copy=False)
        self._shape, self._strides, self._off = y._shape, y._strides, y._off
        self._flags = contig_flags(self._shape, self._strides) | (self._flags & (WRITABLE | RO_LOCK))

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

    def to_device(self, device, /, *, stream=None):
        """The array on another device or queue (a copy unless the memory is reachable).

        ``stream`` may be None or a dpctl.SyclQueue (its only effect is to be
        validated: usmarray orders the copy by events)."""
        if stream is not None and not isinstance(stream, dpctl.SyclQueue):
            raise TypeError("stream must be None or a dpctl.SyclQueue")
        from ._copy import to_queue

        return to_queue(self, resolve_queue(device))

    # ------------------------------------------------------------ namespace
    def __array_namespace__(self, *, api_version=None):
        if api_version is not None and api_version not in _API_VERSIONS:
            raise ValueError(f"unsupported array API version {api_version!r}; "
                             f"supported: {', '.join(_API_VERSIONS)}")
        if self._ns is not None:
            return self._ns
        import usmarray

        return usmarray

    # ------------------------------------------------------------ views
    @property
    def T(self):
        nd = len(self._shape)
        if nd < 2:
            return self
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
            from .creation import zeros_like

            z = zeros_like(self)
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

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key):
        from ._indexing import getitem

        return getitem(self, key)

    def __setitem__(self, key, value):
        from ._indexing import setitem

        if (isinstance(value, (usm_ndarray, np.ndarray)) and value.dtype.kind == "c"
                and self._dtype.kind != "c"):
            # (every path: basic, integer-array and boolean-mask indexing)
            raise TypeError(f"cannot assign a complex array ({value.dtype.name}) to an array "
                            f"of dtype {self._dtype.name}")
        setitem(self, key, value)

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        st = self._strides[0]
        shape, strides = self._shape[1:], self._strides[1:]
        return (view(self, self._off + i * st, shape, strides) for i in range(self._shape[0]))

    # ------------------------------------------------------------ scalars
    def _scalar(self, what):
        if math.prod(self._shape) != 1:
            if what == "bool":
                raise ValueError("the truth value of an array with more than one element "
                                 "(or none) is ambiguous; use any() or all()")
            raise TypeError(f"only arrays with one element can be converted to {what}")
        dt = self._dtype
        raw = _engine.read_bytes(self._q.ref, self._alloc, self._off * dt.itemsize, dt.itemsize)
        return np.frombuffer(raw, dt)[0].item()

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __int__(self):
        v = self._scalar("int")
        if isinstance(v, complex):
            raise TypeError("cannot convert a complex array to int")
        return int(v)

    def __float__(self):
        v = self._scalar("float")
        if isinstance(v, complex):
            raise TypeError("cannot convert a complex array to float")
        return float(v)

    def __complex__(self):
        return complex(self._scalar("complex"))

    def __index__(self):
        if self._dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self._dtype.name}")
        if self._shape:
            raise TypeError("only 0-d integer arrays can be used as an index")
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
        return round(v, ndigits)

    def __contains__(self, value):
        # NumPy's rule: `value in x` is any(x == value)
        eq = self.__eq__(value)
        if eq is NotImplemented:
            return False
        from .reduction import any as _any

        return bool(_any(eq))

    # ------------------------------------------------------------ host
    def __array__(self, dtype=None, /, *, copy=None):
        from ._copy import host_view, asnumpy

        if copy is not True:
            h = host_view(self)
            if h is not None:
                if dtype is None or np.dtype(dtype) == h.dtype:
                    return h
                if copy is False:
                    raise ValueError("converting to another dtype needs a copy, but copy=False")
                return h.astype(dtype)
            if copy is False:
                raise ValueError("the array is in device memory the host cannot reach: "
                                 "a copy is needed, but copy=False")
        h = asnumpy(self)
        if dtype is not None and np.dtype(dtype) != h.dtype:
            h = h.astype(dtype)
        return h

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export as a DLPack capsule (array API contract; kDLOneAPI or kDLCPU).

        ``stream`` may be None (the producer finishes pending work first), -1
        (no synchronisation) or a dpctl.SyclQueue of the array's context (its
        later commands wait for the pending work; no host wait). For
        consumers that take only legacy kDLCPU capsules (TensorFlow), use
        ``x.__dlpack__(dl_device=(1, 0))``.
        """
        from .dlpack import export

        return export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """(kDLOneAPI, index of the memory's root device in sycl::device::get_devices())."""
        from .dlpack import dlpack_device

        return dlpack_device(self)

    @property
    def __sycl_usm_array_interface__(self):
        from ._suai import export_suai

        return export_suai(self)

    def __copy__(self):
        from ._copy import copy

        return copy(self)

    def __deepcopy__(self, memo):
        from ._copy import copy

        return copy(self)

    def __sizeof__(self):
        # The USM the view spans (broadcast repeats once), as NumPy arrays report
        # their data: Dask and distributed budget worker memory by sys.getsizeof.
        n = math.prod(s if st else min(s, 1) for s, st in zip(self._shape, self._strides))
        return object.__sizeof__(self) + n * self._dtype.itemsize

    def __reduce_ex__(self, protocol):
        """Pickle support: contents through host memory, usm_type and device
        kept (see ``usmarray._pickle``); protocol 5 hands the data out of band."""
        from ._pickle import reduce_array

        return reduce_array(self, protocol)

    # ------------------------------------------------------------ printing
    def __repr__(self):
        from ._print import usm_ndarray_repr

        return usm_ndarray_repr(self)

    def __str__(self):
        from ._print import usm_ndarray_str

        return usm_ndarray_str(self)


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
        from ._suai import import_suai_memory

        return import_suai_memory(buffer)
    raise TypeError("buffer must be 'device', 'shared', 'host', a dpctl.memory object, a "
                    f"usm_ndarray or an object with __sycl_usm_array_interface__, got "
                    f"{type(buffer).__name__}")
