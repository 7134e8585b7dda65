"""``__sycl_usm_array_interface__`` (SUAI): export, and zero-copy import of
any object that has it, per the SUAI specification (version 1): shape,
typestr, data = (pointer, read-only flag), strides in elements (None: C
contiguous), offset in elements, syclobj naming the SYCL context."""

import ctypes

import dpctl
import numpy as np

from . import _dtypes, _engine
from ._device import _queue_for_device, queue_info
from ._layout import (C_CONTIG, KIND_CODE, RO_LOCK, WRITABLE, c_strides, check_shape,
                      check_strides, contig_flags, displacement_bounds)

__all__ = ["export_suai", "import_suai", "import_suai_memory"]


def export_suai(x):
    # Consumers of SUAI do not see usmarray's events: finish pending work.
    x._alloc.wait()
    return {
        "data": (x._alloc.ptr, not (x._flags & WRITABLE)),
        "shape": x._shape,
        "strides": None if x._flags & C_CONTIG else x._strides,
        "typestr": x._dtype.str,
        "version": 1,
        "syclobj": x._q.queue,
        "offset": x._off,
    }


_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]


def _capsule_kind(obj):
    if type(obj).__name__ != "PyCapsule":
        return None
    try:
        return _capsule_name(obj).decode()
    except Exception:
        return None


_queues = {}   # (SyclContext, SyclDevice) -> in-order queue for imports in that context


def _queue_in(ctx, dev):
    if dev.sycl_platform.default_context == ctx:
        return _queue_for_device(dev)
    q = _queues.get((ctx, dev))
    if q is None:
        q = _queues[(ctx, dev)] = dpctl.SyclQueue(ctx, dev, property="in_order")
    return q


def _syclobj(obj):
    """(context, queue or None) named by a SUAI syclobj."""
    if isinstance(obj, dpctl.SyclQueue):
        return obj.sycl_context, obj
    if isinstance(obj, dpctl.SyclContext):
        return obj, None
    if isinstance(obj, str):
        try:
            dev = dpctl.SyclDevice(obj)
        except Exception as e:
            raise ValueError(f"SUAI syclobj filter string {obj!r} selects no device") from e
        return dev.sycl_platform.default_context, None
    kind = _capsule_kind(obj)
    if kind is None and hasattr(obj, "_get_capsule"):
        obj = obj._get_capsule()
        kind = _capsule_kind(obj)
        if kind is None:
            raise TypeError("SUAI syclobj._get_capsule() did not return a capsule")
    if kind == "SyclQueueRef":
        q = dpctl.SyclQueue(obj)
        return q.sycl_context, q
    if kind == "SyclContextRef":
        return dpctl.SyclContext(obj), None
    if kind is not None:
        raise TypeError(f"SUAI syclobj capsule {kind!r} is neither 'SyclContextRef' nor 'SyclQueueRef'")
    raise TypeError("SUAI syclobj must be a filter string, a dpctl.SyclContext, a dpctl.SyclQueue, "
                    "a 'SyclContextRef'/'SyclQueueRef' capsule or an object with _get_capsule(), "
                    f"got {type(obj).__name__}")


def _parse(obj):
    try:
        iface = obj.__sycl_usm_array_interface__
    except Exception as e:
        raise TypeError(f"reading __sycl_usm_array_interface__ of {type(obj).__name__} failed: {e}") from e
    if not isinstance(iface, dict):
        raise TypeError("__sycl_usm_array_interface__ must be a dict")
    for key in ("data", "shape", "typestr", "version", "syclobj"):
        if key not in iface:
            raise ValueError(f"__sycl_usm_array_interface__ lacks the required key {key!r}")
    version = iface["version"]
    if not (isinstance(version, (int, np.integer)) and not isinstance(version, bool)
            and version == 1):
        raise ValueError(f"__sycl_usm_array_interface__ version {iface['version']!r} is not "
                         "supported (only version 1)")
    data = iface["data"]
    if not (isinstance(data, tuple) and len(data) == 2 and isinstance(data[0], int)):
        raise TypeError("SUAI 'data' must be a tuple (pointer: int, read_only: bool)")
    ptr, ro = data
    if not 0 < ptr < 1 << 64:
        raise ValueError(f"SUAI data pointer {ptr} is not an address")
    shape = iface["shape"]
    if not isinstance(shape, tuple) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shape):
        raise ValueError(f"SUAI 'shape' must be a tuple of non-negative ints, got {shape!r}")
    if len(shape) > 64:
        raise ValueError(f"SUAI 'shape' has {len(shape)} dimensions; arrays have at most 64")
    shape = tuple(int(s) for s in shape)   # (int subclasses as plain ints)
    try:
        check_shape(shape)
    except ValueError as e:
        raise ValueError(f"SUAI 'shape': {e}") from None
    typestr = iface["typestr"]
    if not isinstance(typestr, str):
        # (np.dtype(None) would be float64)
        raise ValueError(f"SUAI 'typestr' must be a type string, got {typestr!r}")
    try:
        dt = np.dtype(typestr)
    except Exception:
        raise ValueError(f"SUAI 'typestr' {typestr!r} is not a valid type string") from None
    if dt.kind not in "biufc" or dt.byteorder == ">" or dt not in _dtypes.TC:
        raise ValueError(f"SUAI 'typestr' {typestr!r} is not a supported data type")
    dt = _dtypes.to_dtype(dt)
    strides = iface.get("strides")
    if strides is None:
        strides = c_strides(shape)
    elif not (isinstance(strides, tuple) and len(strides) == len(shape)
              and all(isinstance(s, int) and not isinstance(s, bool) for s in strides)):
        raise ValueError(f"SUAI 'strides' must be None or a tuple of {len(shape)} ints, got {strides!r}")
    else:
        strides = tuple(int(s) for s in strides)
    offset = iface.get("offset", 0)
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise ValueError(f"SUAI 'offset' must be an int, got {offset!r}")
    offset = int(offset)
    check_strides(strides, offset, "SUAI")
    return ptr, bool(ro), shape, dt, strides, offset, iface["syclobj"]


def _wrap(owner, ptr, nbytes, ctx, q):
    """(Allocation, _QueueInfo) of USM [ptr, ptr + nbytes) in context `ctx`, kept alive by `owner`."""
    if ptr + nbytes > 1 << 64:
        raise ValueError(f"SUAI shape/strides/offset reach {ptr + nbytes - (1 << 64)} bytes "
                         "past the end of the address space")
    ctxref = ctx.addressof_ref()
    kind = _engine.pointer_kind(ptr, ctxref)
    if kind == "unknown":
        raise ValueError(f"SUAI data pointer {ptr:#x} is not a USM allocation of the context "
                         "given by syclobj")
    rng = _engine.allocation_range(ptr, ctxref)
    if rng is not None:
        base, size = rng
        if ptr + nbytes > base + size:
            raise ValueError(f"SUAI shape/strides/offset reach {ptr + nbytes - base - size} bytes "
                             "past the end of the USM allocation")
    elif nbytes > 1 and _engine.pointer_kind(ptr + nbytes - 1, ctxref) == "unknown":
        raise ValueError("SUAI shape/strides/offset reach past the end of the USM allocation")
    if q is None:
        devs = ctx.get_devices()
        idx = _engine.pointer_device_in(ptr, ctxref, [d.addressof_ref() for d in devs])
        if idx < 0:
            raise ValueError("cannot find the device of the SUAI data pointer in its context")
        q = _queue_in(ctx, devs[idx])
    qi = queue_info(q)
    alloc = _engine.wrap(ptr, nbytes, KIND_CODE[kind], ctxref, qi.device.addressof_ref(), owner)
    return alloc, qi


def usm_kind_or_device(ptr, ctxref):
    """The USM type of the allocation at `ptr` in a context, "device" for
    NULL or memory the context does not know (the type of an empty import,
    which has no memory to wrap: empty host arrays stay host arrays)."""
    kind = _engine.pointer_kind(ptr, ctxref) if ptr else "unknown"
    return kind if kind in KIND_CODE else "device"


def import_suai(obj):
    """(Allocation, offset, shape, strides, dtype, _QueueInfo, flags) of the
    array an object describes by SUAI, for ``_array.from_suai``; for an
    array with no elements the allocation is None and flags its USM type
    (that of a non-NULL pointer, else "device")."""
    ptr, ro, shape, dt, strides, offset, syclobj = _parse(obj)
    ctx, q = _syclobj(syclobj)
    isz = dt.itemsize
    bounds = displacement_bounds(shape, strides)
    if bounds is None:
        # nothing to view: an empty array on the named queue
        if q is None:
            q = _queue_in(ctx, ctx.get_devices()[0])
        return None, 0, shape, None, dt, queue_info(q), usm_kind_or_device(ptr, ctx.addressof_ref())
    lo, hi = bounds
    if offset + lo < 0:
        raise ValueError("SUAI strides/offset reach before the data pointer")
    alloc, qi = _wrap(obj, ptr, (offset + hi + 1) * isz, ctx, q)
    flags = contig_flags(shape, strides) | (RO_LOCK if ro else WRITABLE)
    return alloc, offset, shape, strides, dt, qi, flags


def import_suai_memory(obj):
    """(Allocation, _QueueInfo, read_only) of the bytes a SUAI object spans,
    from its first element (as dpctl.memory objects built on it): the buffer
    of ``usm_ndarray(shape, buffer=obj)``."""
    ptr, ro, shape, dt, strides, offset, syclobj = _parse(obj)
    ctx, q = _syclobj(syclobj)
    bounds = displacement_bounds(shape, strides)
    if bounds is None:
        raise ValueError("the SUAI object describes no memory (size 0)")
    lo, hi = bounds
    if offset + lo < 0:
        raise ValueError("SUAI strides/offset reach before the data pointer")
    isz = dt.itemsize
    alloc, qi = _wrap(obj, ptr + (offset + lo) * isz, (hi - lo + 1) * isz, ctx, q)
    return alloc, qi, ro
