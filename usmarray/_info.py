"""``__array_namespace_info__``: inspection of capabilities, devices and dtypes."""

import importlib.util

import dpctl

from ._core import _dtypes
from ._core._device import _queue_for_device, default_queue, Device, queue_info, resolve_queue

__all__ = ["__array_namespace_info__"]

_KIND_TABLE = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    # float16 works where the device has it, but is not an array API dtype
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KIND_TABLE["numeric"] = _KIND_TABLE["integral"] + _KIND_TABLE["real floating"] + \
    _KIND_TABLE["complex floating"]

_EXTENSIONS = tuple(e for e in ("fft", "linalg") if importlib.util.find_spec(f"{__package__}.{e}"))


class Info:
    """What this implementation supports (array API inspection namespace)."""

    __module__ = "usmarray"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64,
                # not a key of the standard: which of its extensions this build has
                "extensions": _EXTENSIONS}

    def default_device(self):
        return Device._of(default_queue())

    def devices(self):
        return tuple(Device._of(queue_info(_queue_for_device(d))) for d in dpctl.get_devices())

    def _qi(self, device):
        return default_queue() if device is None else resolve_queue(device)

    def default_dtypes(self, *, device=None):
        qi = self._qi(device)
        return {"real floating": qi.float, "complex floating": qi.complex,
                "integral": _dtypes.int64, "indexing": _dtypes.int64}

    def dtypes(self, *, device=None, kind=None):
        qi = self._qi(device)
        if kind is None:
            names = ("bool",) + _KIND_TABLE["numeric"]
        elif isinstance(kind, tuple):
            names = []
            for k in kind:
                for n in self._names(k):
                    if n not in names:
                        names.append(n)
        else:
            names = self._names(kind)
        out = {}
        for n in names:
            dt = getattr(_dtypes, n)
            if (dt in (_dtypes.float64, _dtypes.complex128) and not qi.fp64) or \
                    (dt is _dtypes.float16 and not qi.fp16):
                continue
            out[n] = dt
        return out

    @staticmethod
    def _names(kind):
        if isinstance(kind, str):
            try:
                return _KIND_TABLE[kind]
            except KeyError:
                raise ValueError(f"unknown data type kind {kind!r}") from None
        dt = _dtypes.to_dtype(kind)
        return (dt.name,)


def __array_namespace_info__():
    return Info()
