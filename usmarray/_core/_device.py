"""Devices, queues and placement.

Every array is bound to a ``dpctl.SyclQueue``. usmarray keeps one in-order
queue per device as the default for that device (in-order queues order
commands without event bookkeeping and launch faster), and a ``_QueueInfo``
per queue with what operations need on their hot path: the queue's address
for the engine, the kernel cache of its (context, device), device aspects
and default dtypes.
"""

import weakref

import dpctl

from . import _dtypes, _engine
from ._kernels import make_kernel_cache

__all__ = ["Device", "ExecutionPlacementError", "NoDeviceError", "default_queue",
           "queue_info", "resolve_queue", "common_queue", "coerce_usm_type"]


class ExecutionPlacementError(ValueError):
    """Arrays of one operation are bound to different SYCL queues."""


class NoDeviceError(RuntimeError):
    """No SYCL device is visible to the process."""


NO_DEVICE_HELP = (
    "usmarray found no SYCL device. On a machine without an Intel GPU the device is the CPU, "
    "provided by the OpenCL CPU runtime of the 'intel-opencl-rt' wheel: install the runtime "
    "that matches usmarray (pip install 'intel-opencl-rt==2026.1.*' "
    "'intel-cmplr-lib-ur==2026.1.*'; intel-cmplr-lib-ur 2026.2 has no OpenCL adapter). "
    "If you set OCL_ICD_FILENAMES yourself, it must point at libintelocl.so; "
    "ONEAPI_DEVICE_SELECTOR must not filter all devices out. "
    "For Intel GPUs install the GPU driver with Level Zero support.")


class _QueueInfo:
    __slots__ = ("queue", "ref", "device", "context", "kc", "fp64", "fp16", "caps", "float",
                 "complex", "in_order", "_device_obj", "filter_string", "__weakref__")

    def __init__(self, q):
        self.queue = q
        self.ref = q.addressof_ref()
        dev = q.sycl_device
        self.device = dev
        self.context = q.sycl_context
        self.fp64 = dev.has_aspect_fp64
        self.fp16 = dev.has_aspect_fp16
        self.caps = (self.fp64, self.fp16)   # what type resolution depends on
        self.float = _dtypes.float64 if self.fp64 else _dtypes.float32
        self.complex = _dtypes.complex128 if self.fp64 else _dtypes.complex64
        self.in_order = q.is_in_order
        self.kc = _kernel_cache(self)
        self._device_obj = None
        try:
            self.filter_string = dev.get_filter_string()
        except Exception:
            self.filter_string = dev.name


# dpctl.SyclQueue -> _QueueInfo, while an array (or Device) holds it: a
# program that makes a queue per task lets them go (a plain dict kept every
# queue ever used alive). Arrays compare queues by their _QueueInfo's
# identity, which this keeps: one per queue at a time.
_QUEUES = weakref.WeakValueDictionary()
_KCACHES = {}      # (SyclContext, SyclDevice) -> KernelCache
_DEVICE_QUEUES = {}  # SyclDevice -> (default dpctl.SyclQueue for it, its _QueueInfo, kept)
_default = None


def _kernel_cache(qi):
    key = (qi.context, qi.device)
    kc = _KCACHES.get(key)
    if kc is None:
        kc = _KCACHES[key] = make_kernel_cache(qi)
    return kc


def queue_info(q):
    """The _QueueInfo of a dpctl.SyclQueue."""
    qi = _QUEUES.get(q)
    if qi is None:
        qi = _QUEUES[q] = _QueueInfo(q)
    return qi


def _queue_for_device(dev):
    e = _DEVICE_QUEUES.get(dev)
    if e is None:
        try:
            ctx = dev.sycl_platform.default_context
            q = dpctl.SyclQueue(ctx, dev, property="in_order")
        except Exception:
            q = dpctl.SyclQueue(dev, property="in_order")
        e = _DEVICE_QUEUES[dev] = (q, queue_info(q))
    return e[0]


def default_queue():
    """_QueueInfo of the default device's default queue."""
    global _default
    if _default is None:
        try:
            dev = dpctl.select_default_device()
        except Exception as e:
            raise NoDeviceError(NO_DEVICE_HELP) from e
        _default = queue_info(_queue_for_device(dev))
    return _default


def _from_device_like(device):
    if isinstance(device, Device):
        return device._qi
    if isinstance(device, dpctl.SyclQueue):
        return queue_info(device)
    if isinstance(device, dpctl.SyclDevice):
        return queue_info(_queue_for_device(device))
    if isinstance(device, str):
        try:
            dev = dpctl.SyclDevice(device)
        except Exception as e:
            if not dpctl.get_devices():
                raise NoDeviceError(NO_DEVICE_HELP) from e
            raise ValueError(f"no SYCL device matches filter string {device!r}") from e
        return queue_info(_queue_for_device(dev))
    # array API: x.device of another array may be passed
    dev = getattr(device, "device", None)
    if isinstance(dev, Device):
        return dev._qi
    raise TypeError(f"device must be None, a Device, a dpctl.SyclQueue, a dpctl.SyclDevice "
                    f"or a filter string, got {type(device).__name__}")


def resolve_queue(device=None, sycl_queue=None):
    """_QueueInfo for the ``device=``/``sycl_queue=`` keywords of a function."""
    if sycl_queue is not None:
        if not isinstance(sycl_queue, dpctl.SyclQueue):
            raise TypeError(f"sycl_queue must be a dpctl.SyclQueue, got {type(sycl_queue).__name__}")
        qi = queue_info(sycl_queue)
        if device is not None and _from_device_like(device).queue != sycl_queue:
            raise TypeError("device and sycl_queue keywords are both given and disagree")
        return qi
    if device is None:
        return default_queue()
    return _from_device_like(device)


def common_queue(*arrays):
    """The queue shared by `arrays` (compute follows data)."""
    qi = arrays[0]._q
    for a in arrays[1:]:
        if a._q is not qi:
            raise ExecutionPlacementError(
                "arrays are bound to different SYCL queues "
                f"({qi.filter_string} and {a._q.filter_string}, or two queues of one device); "
                "move one of them with x.to_device(y.device) before combining them")
    return qi


_USM_RANK = {"device": 2, "shared": 1, "host": 0}


def coerce_usm_type(types):
    """USM type of a result from its inputs': device > shared > host."""
    best, rank = "host", -1
    for t in types:
        r = _USM_RANK[t]
        if r > rank:
            best, rank = t, r
    return best


def coerced_kind(arrays, default="device"):
    """USM type of a result from the arrays it is computed from (that of
    the first when all agree, the common case; `default` for none)."""
    if not arrays:
        return default
    kind = arrays[0]._alloc.kind
    for a in arrays:
        if a._alloc.kind != kind:
            return coerce_usm_type([b._alloc.kind for b in arrays])
    return kind


def follow_data(arrays, device=None, sycl_queue=None, usm_type=None):
    """(queue info, USM type) of a new result computed from `arrays`: their
    queue and coerced type, unless the keywords place it (the default
    queue and "device" memory without arrays)."""
    qi = common_queue(*arrays) if arrays and device is None and sycl_queue is None \
        else resolve_queue(device, sycl_queue)
    return qi, usm_type or coerced_kind(arrays)


class Device:
    """An array API device: a SYCL queue that arrays are bound to.

    Usable as ``device=`` of every usmarray function. Two Device objects are
    equal when their queues are.
    """

    __slots__ = ("_qi",)

    def __init__(self, *args, **kwargs):
        raise TypeError("use Device.create_device(obj) or an array's .device")

    @classmethod
    def _of(cls, qi):
        d = qi._device_obj
        if d is None:
            d = object.__new__(cls)
            d._qi = qi
            qi._device_obj = d
        return d

    @classmethod
    def create_device(cls, device=None):
        """Device from None (default), a filter string, a SyclDevice, a SyclQueue or a Device."""
        if isinstance(device, Device):
            return device
        return cls._of(resolve_queue(device))

    @property
    def sycl_queue(self):
        return self._qi.queue

    @property
    def sycl_device(self):
        return self._qi.device

    @property
    def sycl_context(self):
        return self._qi.context

    def wait(self):
        """Wait for all commands submitted to the device's queue."""
        _engine.queue_wait(self._qi.ref)

    def print_device_info(self):
        self._qi.device.print_device_info()

    def __eq__(self, other):
        if isinstance(other, Device):
            return self._qi is other._qi
        if isinstance(other, dpctl.SyclQueue):
            return self._qi.queue == other
        return NotImplemented

    def __hash__(self):
        return hash(self._qi.queue)

    def __repr__(self):
        return f"Device({self._qi.filter_string})"
