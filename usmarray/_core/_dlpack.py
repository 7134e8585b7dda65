"""DLPack interchange: ``usm_ndarray.__dlpack__``/``__dlpack_device__`` and
``from_dlpack``.

Exports follow the array API's ``__dlpack__`` contract (versioned capsules
for consumers that ask with ``max_version``, BufferError where an export is
impossible) and the kDLOneAPI protocol for USM: ``device_id`` is the index of
the allocation's root device in ``sycl::device::get_devices()``, and only
memory bound to its platform's default context is exported as kDLOneAPI.
Imports accept kDLOneAPI tensors zero-copy (after checking the pointer
against the device's default context) and copy kDLCPU tensors into USM.
"""

import enum
import operator

import dpctl
import numpy as np

from . import _dtypes, _engine
from ._array import empty_array, make, usm_ndarray, view
from ._copy import asnumpy, copy as copy_array, from_host, host_accessible, host_view, to_queue
from ._device import _queue_for_device, queue_info, resolve_queue
from ._layout import (KIND_CODE, RO_LOCK, WRITABLE, c_strides, check_strides, contig_flags,
                      displacement_bounds)
from ._suai import _queue_in, usm_kind_or_device

__all__ = ["DLDeviceType", "from_dlpack", "CopyRequiredError", "dldevice_to_sycl_device",
           "sycl_device_to_dldevice"]


class CopyRequiredError(BufferError, ValueError):
    """An export or import needs a copy, but ``copy=False`` was given.

    The array API names ``BufferError`` for ``from_dlpack`` and ``ValueError``
    for ``__dlpack__(dl_device=..., copy=False)``; this is both, so either
    ``except`` clause catches it."""


class NoDLPackError(TypeError, AttributeError):
    """``from_dlpack`` of an object without ``__dlpack__``: the array API
    names AttributeError, dpctl.tensor raised TypeError; this is both."""


class DLDeviceType(enum.IntEnum):
    """DLPack device types (``DLDeviceType`` of dlpack.h)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


READ_ONLY = 1
IS_COPIED = 2
_ONEAPI = int(DLDeviceType.kDLOneAPI)
_CPU = int(DLDeviceType.kDLCPU)


_roots = {}        # DLPack device_id -> dpctl root device
_targets = {}      # DLPack device_id -> (default context, its address, its devices, their addresses)
_homes = {}        # (device_id, index in the context's devices) -> _QueueInfo for imports


def _root_device(device_id):
    """The dpctl root device at position `device_id` of sycl::device::get_devices()."""
    if not _roots:
        for d in dpctl.get_devices():
            _roots[_engine.device_index(d.addressof_ref())] = d
    return _roots.get(device_id)


def _target(device_id):
    """What importing a kDLOneAPI tensor of `device_id` needs, computed once."""
    t = _targets.get(device_id)
    if t is None:
        dev = _root_device(device_id)
        if dev is None:
            return None
        ctx = dev.sycl_platform.default_context
        devs = ctx.get_devices()
        t = _targets[device_id] = (ctx, ctx.addressof_ref(), devs,
                                   [d.addressof_ref() for d in devs], dev)
    return t


def dlpack_device(x):
    return (DLDeviceType.kDLOneAPI, x._alloc.device_index)


def _capsule(owner, ptr, shape, strides, tc, versioned, dev_type, dev_id, flags):
    if flags & READ_ONLY and not versioned:
        raise BufferError("a read-only array cannot be exported as a legacy DLPack capsule (it "
                          "cannot say read-only): ask for a versioned one with max_version=(1, 0)")
    return _engine.dlpack_capsule(owner, ptr, shape, strides, tc, versioned, dev_type, dev_id,
                                  flags)


def _array_capsule(x, versioned, dev_type, dev_id, copied):
    flags = (0 if x._flags & WRITABLE else READ_ONLY) | (IS_COPIED if copied else 0)
    return _capsule(x, x._pointer, x._shape, x._strides, x._tc, versioned, dev_type, dev_id, flags)


def _host_capsule(h, versioned, copied, read_only):
    isz = h.dtype.itemsize
    flags = (READ_ONLY if read_only else 0) | (IS_COPIED if copied else 0)
    return _capsule(h, h.ctypes.data, h.shape, tuple(s // isz for s in h.strides),
                    _dtypes.TC[_dtypes.to_dtype(h.dtype)], versioned, _CPU, 0, flags)


def _sync(x, stream):
    """Order the consumer after x's pending work: a queue barrier for a SYCL
    stream, a host wait for None, nothing for -1."""
    if stream is None:
        x._alloc.wait()
    elif isinstance(stream, dpctl.SyclQueue):
        x._alloc.order_before(stream.addressof_ref())


def export(x, stream=None, max_version=None, dl_device=None, copy=None):
    """``usm_ndarray.__dlpack__``."""
    if copy not in (None, True, False):
        raise ValueError(f"copy must be None, True or False, got {copy!r}")
    versioned = False
    if max_version is not None:
        try:
            if not (isinstance(max_version, tuple) and len(max_version) == 2):
                raise TypeError
            major, _ = (operator.index(v) for v in max_version)   # (NumPy's ints too)
        except TypeError:
            raise TypeError(f"max_version must be None or a tuple of two ints, got {max_version!r}") \
                from None
        versioned = major >= 1
    own_type, own_id = dlpack_device(x)
    if dl_device is None:
        dev_type, dev_id = int(own_type), own_id
    else:
        try:
            dev_type, dev_id = (operator.index(v) for v in dl_device)   # (not 1.5)
        except (TypeError, ValueError):
            raise TypeError(f"dl_device must be None or a tuple (device_type, device_id), "
                            f"got {dl_device!r}") from None
    if stream is not None and dev_type == _CPU:
        # (the array API's __dlpack__: "when kDLCPU is in use, stream must be None")
        raise ValueError("stream must be None when exporting to kDLCPU")
    if stream is not None and not (isinstance(stream, int) and stream == -1):
        if not isinstance(stream, dpctl.SyclQueue):
            raise TypeError("stream must be None, -1 or a dpctl.SyclQueue, got "
                            f"{type(stream).__name__}")

    negative = any(st < 0 for st, n in zip(x._strides, x._shape) if n > 1)
    if negative:
        # DLPack does not forbid negative strides, but consumers do (torch
        # aborts the process on them): export a copy, or refuse if told not to.
        if copy is False:
            raise CopyRequiredError("an array with negative strides cannot be exported without "
                                    "a copy (DLPack consumers do not accept them), but "
                                    "copy=False")
        x = copy_array(x, order="C")
        copy = None
    if dev_type == _ONEAPI:
        if dev_id == own_id and x._alloc.in_default_context:
            y, copied = (copy_array(x), True) if copy is True else (x, negative)
        else:
            # another device, or memory outside the default context (which a
            # kDLOneAPI consumer could not find): only a copy can be exported
            if copy is False:
                why = ("another device" if dev_id != own_id else
                       "its memory is not bound to the platform's default context")
                raise CopyRequiredError(f"exporting this array as kDLOneAPI device {dev_id} "
                                        f"needs a copy ({why}), but copy=False")
            dev = _root_device(dev_id)
            if dev is None:
                raise BufferError(f"there is no SYCL device with DLPack device_id {dev_id}")
            y = to_queue(x, queue_info(_queue_for_device(dev)))
            if y is x or y._alloc is x._alloc:
                y = copy_array(y)
            copied = True
        if isinstance(stream, dpctl.SyclQueue) and stream.sycl_context != y._q.context:
            raise ValueError("stream must be a queue of the exported memory's SYCL context "
                             "(the platform's default context)")
        _sync(y, stream)
        return _array_capsule(y, versioned, _ONEAPI, dev_id, copied)
    if dev_type == _CPU:
        if dev_id != 0:
            raise BufferError(f"kDLCPU device_id must be 0, got {dev_id}")
        if host_accessible(x) and copy is not True:
            x._alloc.wait()
            return _array_capsule(x, versioned, _CPU, 0, negative)
        if copy is False:
            raise CopyRequiredError("the array is in device memory the host cannot reach: "
                                    "exporting it to kDLCPU needs a copy, but copy=False")
        # A copy's layout is the producer's to choose: C order, the one layout
        # every kDLCPU consumer takes (TensorFlow refuses transposed and
        # strided tensors, JAX strided ones).
        h = host_view(x) if host_accessible(x) else None
        if h is None:
            h = np.asarray(asnumpy(x), order="C")      # asnumpy copied: reorder only if needed
        else:
            h = np.array(h, copy=True, order="C")
        return _host_capsule(h, versioned, True, False)
    raise BufferError(f"usmarray cannot export to DLPack device type {dev_type} "
                      "(only kDLOneAPI and kDLCPU)")


class _HostMemory:
    """__array_interface__ over a consumed kDLCPU tensor (kept alive by its holder)."""

    __slots__ = ("_holder", "__array_interface__")

    def __init__(self, holder, ptr, shape, strides, dt, read_only):
        self._holder = holder
        self.__array_interface__ = {
            "data": (ptr, read_only), "shape": shape, "typestr": dt.str, "version": 3,
            "strides": None if strides is None else tuple(s * dt.itemsize for s in strides)}


def _check_strides(strides):
    """BufferError for strides the engine's int64 byte arithmetic cannot hold."""
    if strides is not None:
        try:
            check_strides(tuple(strides), 0, "DLPack")
        except ValueError as e:
            raise BufferError(str(e)) from None


def _oneapi_plan(info):
    """What viewing a kDLOneAPI tensor needs, checked before its capsule is
    consumed: (dtype, shape, strides, lo, start, end, USM kind, context
    address, home _QueueInfo); start is None for an empty tensor."""
    dt = _dtypes.DTYPES[info["tc"]]
    shape = info["shape"]
    strides = info["strides"]
    if strides is None:
        strides = c_strides(shape)
    _check_strides(strides)
    device_id = info["device_id"]
    target = _target(device_id)
    if target is None:
        raise BufferError(f"there is no SYCL device with DLPack device_id {device_id}")
    ctx, ctxref, devs, devrefs, root = target
    bounds = displacement_bounds(shape, strides)
    if bounds is None:
        return (dt, shape, strides, 0, None, None, usm_kind_or_device(info["base"], ctxref), None,
                queue_info(_queue_for_device(root)))
    ptr = info["data"]
    # BufferError: the DLPack contract's error for data that cannot be imported
    base, byte_offset = info["base"], info["byte_offset"]
    base_kind = _engine.pointer_kind(base, ctxref)
    if base_kind == "unknown":
        raise BufferError(f"the kDLOneAPI tensor's data pointer {base:#x} is not USM memory of "
                          f"the default context of the platform of device_id {device_id} "
                          "(the kDLOneAPI protocol's requirement)")
    if byte_offset:
        rng = _engine.allocation_range(base, ctxref)
        end = None if rng is None else rng[0] + rng[1]
        if (end is not None and ptr >= end) or _engine.pointer_kind(ptr, ctxref) == "unknown":
            room = "" if end is None else f" ({end - base} bytes from the data pointer)"
            raise BufferError(f"the kDLOneAPI tensor's byte_offset {byte_offset} runs past the "
                              f"end of its USM allocation{room}")
    kind = base_kind
    idx = _engine.pointer_device_in(ptr, ctxref, devrefs)
    home = _homes.get((device_id, idx))
    if home is None:
        alloc_dev = devs[idx] if idx >= 0 else root
        home = _homes[(device_id, idx)] = queue_info(_queue_in(ctx, alloc_dev))
    lo, hi = bounds
    isz = dt.itemsize
    start, end = ptr + lo * isz, ptr + (hi + 1) * isz
    # The producer's shape and strides are not trusted: the view must lie in
    # the USM allocation holding element zero (as SUAI imports check).
    rng = _engine.allocation_range(ptr, ctxref)
    if rng is not None:
        a0, size = rng
        if start < a0 or end > a0 + size:
            raise BufferError(
                f"the DLPack tensor's shape, strides and byte_offset reach bytes "
                f"[{start - a0}, {end - a0}) of a USM allocation of {size} bytes")
    elif (_engine.pointer_kind(start, ctxref) == "unknown"
          or _engine.pointer_kind(end - 1, ctxref) == "unknown"):
        raise BufferError("the DLPack tensor's shape, strides and byte_offset reach outside "
                          "USM memory")
    return dt, shape, strides, lo, start, end, kind, ctxref, home


def _import_oneapi(holder, info, plan):
    dt, shape, strides, lo, start, end, kind, ctxref, home = plan
    if start is None:
        return empty_array(shape, dt, home, kind)
    alloc = _engine.wrap(start, end - start, KIND_CODE[kind], ctxref,
                         home.device.addressof_ref(), holder)
    ro = bool(info["flags"] & READ_ONLY)
    flags = contig_flags(shape, strides) | (RO_LOCK if ro else WRITABLE)
    return make(alloc, -lo, shape, tuple(strides), dt, home, flags)


def from_dlpack(x, /, *, device=None, copy=None):
    """A usm_ndarray from an object with ``__dlpack__`` or a DLPack capsule.

    kDLOneAPI tensors are viewed without a copy (unless ``copy=True``, or
    ``device`` asks for another device); kDLCPU tensors are copied into USM
    on ``device`` (default device if None) — ``copy=False`` then raises
    BufferError, as host memory is not USM.
    """
    if copy not in (None, True, False):
        raise ValueError(f"copy must be None, True or False, got {copy!r}")
    if isinstance(device, tuple):
        # dpctl.tensor's form: a DLPack device, (kDLCPU, 0) for a NumPy array
        if len(device) != 2:
            raise TypeError(f"a DLPack device is (device_type, device_id), got {device!r}")
        if int(device[0]) == _CPU:
            if int(device[1]) != 0:
                raise ValueError(f"kDLCPU device_id must be 0, got {device[1]}")
            if not hasattr(x, "__dlpack__"):
                raise TypeError("from_dlpack to kDLCPU needs an object with __dlpack__")
            try:
                return np.from_dlpack(x, device="cpu", copy=copy)
            except TypeError:
                # a producer without DLPack 1.0's keywords (dl_device, copy):
                # its tensor as it comes, copied to the host
                if copy is False:
                    raise CopyRequiredError("the producer cannot export to kDLCPU without a "
                                            "copy (its __dlpack__ takes no dl_device), but "
                                            "copy=False") from None
                got = from_dlpack(x)
                return asnumpy(got) if isinstance(got, usm_ndarray) else np.array(got)
        device = dldevice_to_sycl_device(device)
    if isinstance(x, usm_ndarray) and device is None and x._alloc.in_default_context:
        # our own array in the memory a capsule would share: a view (any
        # strides, where DLPack's export of negative ones copies) or a copy
        return copy_array(x) if copy else view(x, x._off, x._shape, x._strides)
    qi = None if device is None else resolve_queue(device)
    ordered = None   # the queue the producer ordered its work before
    if type(x).__name__ == "PyCapsule":
        cap = x
    elif hasattr(x, "__dlpack__"):
        kwargs = {}
        producer = None
        if hasattr(x, "__dlpack_device__"):
            try:
                producer = x.__dlpack_device__()
            except Exception:
                producer = None
        oneapi = producer is not None and int(producer[0]) == _ONEAPI
        # A kDLOneAPI producer's copy is not asked for: we view its memory,
        # ordered after its pending work, and copy on our queue (dpnp 0.20's
        # copy=True export is not ordered after its pending work: a fuzz
        # read unwritten memory in 8 of 20 calls)
        if copy is not None and not (oneapi and copy is True):
            kwargs["copy"] = copy
        if oneapi:
            # the producer orders its pending work before our queue's
            target = qi or (queue_info(_queue_for_device(_root_device(int(producer[1]))))
                            if _root_device(int(producer[1])) is not None else None)
            if target is not None:
                kwargs["stream"] = ordered = target.queue
        try:
            cap = x.__dlpack__(max_version=(1, 0), **kwargs)
        except TypeError:
            legacy = {k: v for k, v in kwargs.items() if k == "stream"}
            try:
                cap = x.__dlpack__(**legacy)
            except TypeError:
                cap = x.__dlpack__()
    else:
        raise NoDLPackError(f"from_dlpack needs an object with __dlpack__ or a DLPack capsule, "
                            f"got {type(x).__name__}")
    # Everything that can refuse the tensor runs before the capsule is consumed.
    info = _engine.dlpack_info(cap)
    dev_type = info["device_type"]
    copied = bool(info["flags"] & IS_COPIED)
    if dev_type == _ONEAPI:
        plan = _oneapi_plan(info)
        holder, info = _engine.dlpack_consume(cap)
        arr = _import_oneapi(holder, info, plan)
        if ordered is not None and arr.size:
            # the producer's pending work, ordered before our queue, before
            # every later use of the memory (the engine's launches do not
            # see a barrier they did not submit)
            arr._alloc.order_after(ordered.addressof_ref())
    elif dev_type in (_CPU, int(DLDeviceType.kDLCUDAHost), int(DLDeviceType.kDLROCMHost)):
        if copy is False:
            raise CopyRequiredError("the DLPack tensor is in host memory, which is not USM: "
                                    "importing it needs a copy, but copy=False")
        _check_strides(info["strides"])
        holder, info = _engine.dlpack_consume(cap)
        dt = _dtypes.DTYPES[info["tc"]]
        if info["data"] == 0 or 0 in info["shape"]:
            h = np.empty(info["shape"], dtype=dt)
        else:
            h = np.asarray(_HostMemory(holder, info["data"], info["shape"], info["strides"], dt,
                                       bool(info["flags"] & READ_ONLY)))
        target = qi or resolve_queue(None)
        _dtypes.check_device_support(dt, target)
        return from_host(h, target)
    else:
        raise BufferError(f"usmarray cannot import DLPack tensors of device type {dev_type} "
                          "(only kDLOneAPI and kDLCPU)")
    if qi is not None and qi is not arr._q:
        same_memory = qi.context == arr._q.context and qi.device == arr._q.device
        if not same_memory and copy is False:
            raise CopyRequiredError(f"the DLPack tensor is on another device than {device!r}: "
                                    "a copy is needed, but copy=False")
        arr = to_queue(arr, qi)
        copied = copied or not same_memory
    if copy is True and not copied:
        arr = copy_array(arr)
    return arr


def dldevice_to_sycl_device(dl_dev, /):
    """The ``dpctl.SyclDevice`` a DLPack device ``(kDLOneAPI, device_id)`` names.

    ``device_id`` is the index of a root device in
    ``sycl::device::get_devices()`` (``dpctl.get_devices()``), as the kDLOneAPI
    protocol defines. ValueError for other device types or unknown ids.
    """
    if not isinstance(dl_dev, tuple) or len(dl_dev) != 2:
        raise TypeError(f"expected a DLPack device (device_type, device_id), got {dl_dev!r}")
    dev_type, dev_id = dl_dev
    if int(dev_type) != _ONEAPI:
        raise ValueError(f"not a kDLOneAPI device: {dl_dev!r}")
    dev = _root_device(int(dev_id))
    if dev is None:
        raise ValueError(f"no SYCL root device has DLPack device_id {dev_id}")
    return dev


def sycl_device_to_dldevice(dev, /):
    """The DLPack device ``(DLDeviceType.kDLOneAPI, device_id)`` of a root ``dpctl.SyclDevice``."""
    if not isinstance(dev, dpctl.SyclDevice):
        raise TypeError(f"expected a dpctl.SyclDevice, got {type(dev).__name__}")
    idx = _engine.device_index(dev.addressof_ref())
    if idx < 0:
        raise ValueError(f"{dev.name} is not a root device: it has no DLPack device_id")
    return (DLDeviceType.kDLOneAPI, idx)
