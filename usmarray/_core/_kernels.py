"""Kernel families, their bundles, run-time compilation and the disk cache.

Kernels are SYCL C++ free functions in the sources under ``kernels/sycl/``
(installed as ``usmarray/_core/sycl/``). A *family* is a kernel template (or a
few); a *bundle* is the set of instantiations compiled together, because the
fixed cost of one compilation dominates: e.g. every "cast to float32" kernel
is one bundle. The engine asks for a kernel by name (``cast_strided<f4, f8,
2>``); when its (context, device) cache does not hold it, the resolver here
finds the bundle of that name, loads it from the disk cache or compiles it,
and registers all its kernels.

The disk cache keeps the device binary of each bundle (backends that allow
reloading one: OpenCL), keyed by a hash of the sources, the kernel names and
the device and runtime identity. Entries are written to a temporary file and
renamed into place, so concurrent processes never see half an entry; an
entry that fails its checksum or does not load is compiled again and
replaced.
"""

import hashlib
import json
import os
import re
import struct
import sys
import threading
import time

from . import _engine, _env
from ._dtypes import TYPE_NAMES

__all__ = ["KernelCompileError", "make_kernel_cache", "warmup", "cache_info", "bundles_for",
           "sequence_compute_type", "STRIDED_VARIANTS", "INNER_VARIANTS", "compile_log"]

STRIDED_VARIANTS = (1, 2, 3, 4, 8)   # kernels/sycl/geometry.hpp kStridedVariants
INNER_VARIANTS = (2, 3)              # kInnerVariants: unit stride in the last dimension
MOVE_TYPES = ("u1", "u2", "u4", "u8", "x16")
_MAGIC = b"USMARRAY-KBIN\x02"
_FORMAT = "1"   # bump when the meaning of cached entries changes


class KernelCompileError(RuntimeError):
    """A kernel bundle failed to compile; the message carries the compiler log."""


def source_dir():
    return os.environ.get("USMARRAY_KERNEL_DIR") or os.path.join(os.path.dirname(__file__), "sycl")


_files = {}


def _read_source(name):
    text = _files.get(name)
    if text is None:
        with open(os.path.join(source_dir(), name), encoding="utf-8") as f:
            text = _files[name] = f.read()
    return text


_includes = None


def _include_files():
    global _includes
    if _includes is None:
        d = source_dir()
        _includes = [(n, _read_source(n)) for n in sorted(os.listdir(d)) if n.endswith(".hpp")]
    return _includes


class BundleSpec:
    """What one compilation produces: `names` compiled from `source`."""

    __slots__ = ("key", "source", "names")

    def __init__(self, key, source, names):
        self.key = key
        self.source = source
        self.names = list(names)


def device_types(qi):
    """Type names of kernels the device can run (no f8/c16 without fp64)."""
    out = []
    for t in TYPE_NAMES:
        if t in ("f8", "c16") and not qi.fp64:
            continue
        if t == "f2" and not qi.fp16:
            continue
        out.append(t)
    return out


def sequence_compute_type(tname, qi):
    """Type in which sequence<T, C> computes start + i * step for item type T."""
    if tname == "u8":
        return "u8"
    if tname in ("f2", "f4", "f8"):
        return "f8" if qi.fp64 else "f4"
    if tname in ("c8", "c16"):
        return "c16" if qi.fp64 else "c8"
    return "i8"


# --------------------------------------------------------------- families
class Family:
    """A kernel template family: which bundle holds a kernel, and all bundles.

    `prefixes`: the kernel template names it serves; `key_of(args)`: the
    bundle key of a kernel from its template arguments; `names_of(key, qi)`:
    the kernels a bundle compiles for a device; `keys(qi)`: every bundle key
    (for warm-up); `spec(key, qi)`: the BundleSpec (override it for
    generated sources)."""

    def __init__(self, prefixes, source, key_of, names_of, keys):
        self.prefixes = prefixes
        self.source = source
        self.key_of = key_of
        self.names_of = names_of
        self.keys = keys

    def spec(self, key, qi):
        return BundleSpec(f"{self.prefixes[0]}-{key}", _read_source(self.source),
                          self.names_of(key, qi))


def _strided(prefix, targs, variants=STRIDED_VARIANTS):
    return [f"{prefix}<{targs}, {nd}>" for nd in variants]


def simd_kernels(qi):
    """Whether bundles for the queue's device include vector-block kernels
    (kernels/sycl/common.hpp: usmk::simd_blocks): on CPU devices, where the
    engine launches them (KernelCache.simd)."""
    return qi.device.is_cpu


def _cast_names(dst, qi):
    names = []
    simd = simd_kernels(qi)
    for src in device_types(qi):
        if src != dst:
            names.append(f"cast_contig<{src}, {dst}>")
            names += _strided("cast_strided", f"{src}, {dst}")
            # vector-block variants: conversions to float32/float64 from
            # 32- and 64-bit real types (see VECTOR_TYPES in _elementwise_ops)
            if simd and dst in ("f4", "f8") and src in ("i4", "u4", "i8", "u8", "f4", "f8"):
                names.append(f"cast_vec<{src}, {dst}>")
    return names


def _sequence_names(_key, qi):
    names = []
    for t in device_types(qi):
        names.append(f"sequence<{t}, {sequence_compute_type(t, qi)}>")
    return names


FAMILIES = [
    Family(("move_strided", "move_inner"), "copy.cpp", lambda a: a[0],
           lambda t, qi: _strided("move_strided", t) + _strided("move_inner", t, INNER_VARIANTS),
           lambda qi: MOVE_TYPES),
    Family(("cast_contig", "cast_strided", "cast_vec"), "copy.cpp", lambda a: a[1],
           _cast_names, device_types),
    Family(("fill_contig", "fill_strided"), "creation.cpp", lambda a: a[0],
           lambda t, qi: [f"fill_contig<{t}>"] + _strided("fill_strided", t), lambda qi: MOVE_TYPES),
    Family(("sequence",), "creation.cpp", lambda a: "all",
           _sequence_names, lambda qi: ("all",)),
    Family(("tri",), "creation.cpp", lambda a: a[0],
           lambda t, qi: _strided("tri", t, (2, 3, 4, 8)), lambda qi: MOVE_TYPES),
]
_BY_PREFIX = {p: f for f in FAMILIES for p in f.prefixes}
_NAME = re.compile(r"^(\w+)<(.*)>$")


def register_family(family):
    """Add a family (used by modules that generate kernel sources)."""
    FAMILIES.append(family)
    for p in family.prefixes:
        _BY_PREFIX[p] = family


def bundle_of(name, qi):
    m = _NAME.match(name)
    fam = _BY_PREFIX.get(m.group(1)) if m else None
    if fam is None:
        raise RuntimeError(f"usmarray: no kernel family provides {name!r}")
    args = [a.strip() for a in m.group(2).split(",")]
    return fam.spec(fam.key_of(args), qi)


def bundles_for(qi):
    """Every bundle of every family for the queue's device (for warm-up)."""
    return [f.spec(k, qi) for f in FAMILIES for k in f.keys(qi)]


# --------------------------------------------------------------- disk cache
def _disk_cache_enabled():
    return os.environ.get("USMARRAY_DISK_CACHE", "1") != "0"


def kernel_cache_dir():
    return os.path.join(_env.cache_dir(), "kernels")


_runtime_id = None


def _runtime_identity():
    global _runtime_id
    if _runtime_id is None:
        _runtime_id = f"{_engine.runtime_id()}|format {_FORMAT}"
    return _runtime_id


def _device_identity(qi):
    d = qi.device
    return "|".join(str(x) for x in (d.backend, d.name, d.vendor, d.driver_version,
                                     d.sycl_platform.version, qi.fp64, qi.fp16))


def _entry_path(spec, qi, options):
    h = hashlib.sha256()
    for part in (_runtime_identity(), _device_identity(qi), spec.source, *options, *spec.names):
        h.update(part.encode())
        h.update(b"\0")
    for name, text in _include_files():
        h.update(name.encode())
        h.update(text.encode())
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", spec.key)
    return os.path.join(kernel_cache_dir(), f"{safe}-{h.hexdigest()[:24]}.bin")


def _read_entry(path):
    """(names, raw_names, binaries) of a valid entry, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        if not data.startswith(_MAGIC):
            return None
        (hlen,) = struct.unpack_from("<I", data, len(_MAGIC))
        pos = len(_MAGIC) + 4
        header = json.loads(data[pos:pos + hlen])
        pos += hlen
        binaries = []
        for size, digest in zip(header["sizes"], header["sha256"]):
            b = data[pos:pos + size]
            if len(b) != size or hashlib.sha256(b).hexdigest() != digest:
                return None
            binaries.append(b)
            pos += size
        if pos != len(data):
            return None
        return header["names"], header["raw"], binaries
    except Exception:
        return None


def _write_entry(path, names, raw, binaries):
    header = json.dumps({"names": names, "raw": raw, "sizes": [len(b) for b in binaries],
                         "sha256": [hashlib.sha256(b).hexdigest() for b in binaries]}).encode()
    tmp = f"{path}.tmp.{os.getpid()}.{threading.get_ident()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(_MAGIC + struct.pack("<I", len(header)) + header + b"".join(binaries))
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


# --------------------------------------------------------------- resolver
compile_log = []   # (bundle key, seconds, "compiled" | "disk") for `python -m usmarray`


class _Resolver:
    """Called by the engine with a missing kernel's name."""

    def __init__(self, qi):
        self.qi = qi
        self.kc = None
        self.loaded = set()
        self.locks = {}
        self.lock = threading.Lock()

    def __call__(self, name):
        self.load(bundle_of(name, self.qi))

    def load(self, spec):
        with self.lock:
            lk = self.locks.setdefault(spec.key, threading.Lock())
        with lk:
            if spec.key in self.loaded:
                return "memory"
            how = self._load(spec)
            self.loaded.add(spec.key)
            return how

    def _load(self, spec):
        kc, qi = self.kc, self.qi
        options = []
        t0 = time.perf_counter()
        use_disk = _disk_cache_enabled() and kc.can_cache_binaries
        path = _entry_path(spec, qi, options) if use_disk else None
        if path:
            entry = _read_entry(path)
            if entry is not None and entry[0] == spec.names and kc.load_binary(entry[2], entry[0], entry[1]):
                compile_log.append((spec.key, time.perf_counter() - t0, "disk"))
                return "disk"
        ok, log, binaries, raw = kc.build_source(spec.source, _include_files(), spec.names, options)
        if not ok:
            shown = ", ".join(spec.names[:4]) + (", ..." if len(spec.names) > 4 else "")
            raise KernelCompileError(
                f"compiling kernel bundle {spec.key!r} ({shown}) for {qi.device.name} failed:\n{log}")
        if path and binaries:
            _write_entry(path, spec.names, raw, binaries)
        compile_log.append((spec.key, time.perf_counter() - t0, "compiled"))
        return "compiled"


_RESOLVERS = {}   # id(KernelCache) -> its _Resolver; kernel caches live as long as the process


def make_kernel_cache(qi):
    r = _Resolver(qi)
    kc = _engine.KernelCache(qi.ref, r)
    kc.simd = kc.simd and os.environ.get("USMARRAY_GENERIC_KERNELS", "0") != "1"
    r.kc = kc
    _RESOLVERS[id(kc)] = r
    return kc


def warmup(qi, progress=True, threads=None):
    """Compile (or load from disk) every kernel bundle for the queue's device.

    Returns a list of (bundle key, seconds, how)."""
    specs = bundles_for(qi)
    resolver = _RESOLVERS[id(qi.kc)]
    n = len(specs)
    done = []
    lock = threading.Lock()
    t_start = time.perf_counter()

    def report():
        if not progress:
            return
        k = len(done)
        width = 30
        fill = int(width * k / n) if n else width
        el = time.perf_counter() - t_start
        sys.stderr.write(f"\rwarm-up [{'#' * fill}{'.' * (width - fill)}] {k}/{n} bundles, {el:5.1f} s")
        sys.stderr.flush()

    def work(items):
        for spec in items:
            t0 = time.perf_counter()
            how = resolver.load(spec)
            with lock:
                done.append((spec.key, time.perf_counter() - t0, how))
                report()

    report()
    threads = threads or min(4, os.cpu_count() or 1)
    chunks = [specs[i::threads] for i in range(threads)]
    ts = [threading.Thread(target=work, args=(c,)) for c in chunks if c]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if progress:
        sys.stderr.write("\n")
    return done



def cache_info():
    """Location, entry count and size in bytes of the disk cache."""
    d = kernel_cache_dir()
    count = size = 0
    if os.path.isdir(d):
        for n in os.listdir(d):
            if n.endswith(".bin"):
                count += 1
                try:
                    size += os.path.getsize(os.path.join(d, n))
                except OSError:
                    pass
    return {"path": d, "entries": count, "bytes": size, "enabled": _disk_cache_enabled()}
