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

import concurrent.futures
import functools
import hashlib
import json
import logging
import os
import platform
import re
import struct
import subprocess
import sys
import threading
import time
import warnings
from typing import NamedTuple

import numpy as np

from . import _engine, _env
from ._cache_files import cache_info, disk_cache_enabled, kernel_cache_dir, mark_used
from ._dtypes import TYPE_NAMES

__all__ = ["KernelCompileError", "make_kernel_cache", "compiled_together", "cache_info",
           "bundles_for", "resolver_of", "group_specs", "usable_cores",
           "sequence_compute_type", "arange_compute_type", "STRIDED_VARIANTS", "INNER_VARIANTS", "compile_log"]

STRIDED_VARIANTS = (1, 2, 4)   # kernels/sycl/geometry.hpp kStridedVariants
INNER_VARIANTS = (2, 4)              # kInnerVariants: unit stride in the last dimension
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
    """What one compilation produces: `names` compiled from `source`.

    `merge`: a tag of bundles whose sources warm-up may concatenate into one
    compilation (generated sources of one kind), or None (only bundles of
    the same source merge); `cost`: the relative compile time of one of its
    kernels (Family.cost), for warm-up to balance its workers."""

    __slots__ = ("key", "source", "names", "merge", "cost")

    def __init__(self, key, source, names, merge=None, cost=1.0):
        self.key = key
        self.source = source
        self.names = list(names)
        self.merge = merge
        self.cost = cost


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
# prefixes of the kernels that walk strided or broadcast operands: a first
# call compiles them apart from the contiguous ones (see Family.part)
STRIDED_WORDS = ("strided", "inner", "bcast", "rows")


def split_name(name):
    """(template name, [template arguments]) of a kernel name (a plain
    function's arguments: []), or None."""
    m = _NAME.match(name)
    if m is None:
        return None
    return m.group(1), [a.strip() for a in m.group(2).split(",")] if m.group(2) else []


def default_part_key(prefix, args):
    """The part of a family bundle that a first call of kernel `prefix<args>`
    compiles: the kernels of the same types (integer arguments, the variants
    of one kernel, set aside) and the same layout, contiguous or strided."""
    layout = "strided" if any(w in prefix for w in STRIDED_WORDS) else "contig"
    return (layout,) + tuple(a for a in args if not a.lstrip("-").isdigit())


class Family:
    """A kernel template family: which bundle holds a kernel, and all bundles.

    `prefixes`: the kernel template names it serves; `key_of(args)`: the
    bundle key of a kernel from its template arguments; `names_of(key, qi)`:
    the kernels a bundle compiles for a device; `keys(qi)`: every bundle key
    (for warm-up); `spec(key, qi)`: the BundleSpec (override it for
    generated sources); `part_of(prefix, args)`: which part of its bundle a
    kernel belongs to (default_part_key unless given; override `part` when
    a part is not a set of the bundle's names with one key); `cost`: the
    compile time of one of its kernels relative to an elementwise one's
    (measured: sorting networks ~8, scans and masks ~4-6, reductions ~3,
    gathers, scatters and where ~1.2), which warm-up and first calls balance
    their workers by;
    `costs`: {prefix: cost} for kernels of the family that differ from it."""

    def __init__(self, prefixes, source, key_of, names_of, keys, part_of=None, cost=1.0,
                 costs=None):
        self.prefixes = prefixes
        self.source = source
        self.key_of = key_of
        self.names_of = names_of
        self.keys = keys
        self.part_of = part_of or default_part_key
        self.cost = cost
        self.costs = costs or {}

    def mean_cost(self, names):
        """The mean relative compile cost of kernels `names` of the family."""
        if not self.costs or not names:
            return self.cost
        return sum(self.costs.get(split_name(n)[0], self.cost) for n in names) / len(names)

    def spec(self, key, qi):
        names = self.names_of(key, qi)
        return BundleSpec(f"{self.prefixes[0]}-{key}", _read_source(self.source), names,
                          cost=self.mean_cost(names))

    def part(self, name, spec, qi):
        """(label, kernel names) of the part of bundle `spec` that a first
        call needing kernel `name` compiles: a few kernels, under a second,
        where the whole bundle (every type and variant) takes several.
        ``usmarray warmup`` compiles whole bundles."""
        prefix, args = split_name(name)
        key = self.part_of(prefix, args)
        names = [n for n in spec.names if self.part_of(*split_name(n)) == key]
        return "-".join(key), names


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


def arange_compute_type(tname, qi):
    """Type in which arange computes floating sequences: NumPy's (float32
    for float16 and float32 items, as its fill loops), else as linspace."""
    return {"f2": "f4", "f4": "f4", "c8": "c8"}.get(tname) or sequence_compute_type(tname, qi)


def _sequence_names(_key, qi):
    names = []
    for t in device_types(qi):
        names += sorted({f"sequence<{t}, {sequence_compute_type(t, qi)}>",
                         f"sequence<{t}, {arange_compute_type(t, qi)}>"})
    return names


FAMILIES = [
    Family(("move_strided", "move_inner"), "copy.cpp", lambda a: a[0],
           lambda t, qi: _strided("move_strided", t) + _strided("move_inner", t, INNER_VARIANTS),
           lambda qi: MOVE_TYPES, cost=2),
    Family(("move_tiled",), "transpose.cpp", lambda a: a[0],
           lambda t, qi: [f"move_tiled<{t}>"], lambda qi: MOVE_TYPES),
    Family(("cast_contig", "cast_strided", "cast_vec"), "copy.cpp", lambda a: a[1],
           _cast_names, device_types),
    Family(("fill_contig", "fill_strided"), "creation.cpp", lambda a: a[0],
           lambda t, qi: [f"fill_contig<{t}>"] + _strided("fill_strided", t), lambda qi: MOVE_TYPES,
           cost=2),
    Family(("sequence",), "creation.cpp", lambda a: "all",
           _sequence_names, lambda qi: ("all",), cost=2),
    Family(("tri",), "creation.cpp", lambda a: a[0],
           lambda t, qi: _strided("tri", t, (2, 4)), lambda qi: MOVE_TYPES, cost=3),
]
_BY_PREFIX = {p: f for f in FAMILIES for p in f.prefixes}
_BY_OPERATION = {}
_NAME = re.compile(r"^([\w:]+)(?:<(.*)>)?$")


def register_family(family, operations=()):
    """Add a family (used by modules that generate kernel sources).
    `operations`: operation structs whose kernels it provides whatever the
    template (user reductions: reduce_group<their struct, ...> are theirs,
    not the reduction family's)."""
    FAMILIES.append(family)
    for p in family.prefixes:
        _BY_PREFIX[p] = family
    for op in operations:
        _BY_OPERATION[op] = family


def family_of(name):
    """(Family, template arguments) of a kernel name."""
    split = split_name(name)
    fam = None
    if split:
        fam = (_BY_OPERATION.get(split[1][0]) if split[1] else None) or _BY_PREFIX.get(split[0])
    if fam is None:
        raise RuntimeError(f"usmarray: no kernel family provides {name!r}")
    return fam, split[1]


def bundle_of(name, qi):
    fam, args = family_of(name)
    return fam.spec(fam.key_of(args), qi)


WARM_HOOKS = []
"""Functions ``hook(qi)`` that register, for warm-up, families made on first
use (usmarray.special's elementwise kernels): bundles_for calls them first."""


def bundles_for(qi):
    """Every bundle of every family for the queue's device (for warm-up)."""
    for hook in WARM_HOOKS:
        hook(qi)
    return [f.spec(k, qi) for f in FAMILIES for k in f.keys(qi)]


# --------------------------------------------------------------- disk cache
def _binary_cache_enabled():
    """Whether usmarray keeps the backend's native binaries itself (where the
    engine has an adapter for the backend). USMARRAY_BINARY_CACHE=0 makes
    every backend take the fallback of backends without one."""
    return os.environ.get("USMARRAY_BINARY_CACHE", "1") != "0"


_runtime_id = None


def _runtime_identity():
    global _runtime_id
    if _runtime_id is None:
        _runtime_id = f"{_engine.runtime_id()}|format {_FORMAT}"
    return _runtime_id


# Instruction-set extensions a CPU device's compiler may target: virtual
# machines of one CPU model (one device name) can hide some of them, and a
# binary built where they exist stops with SIGILL where they don't.
_ISA_FLAG = re.compile(r"(sse|ssse|avx|amx|fma|f16c|bmi|adx|aes|vaes|pclmul|vpclmul|gfni"
                       r"|popcnt|lzcnt|abm|movbe|sha|xop|fp16|sve|asimd|neon)")


def host_isa(cpuinfo="/proc/cpuinfo"):
    """The host CPU's instruction-set extensions, sorted and joined by
    spaces, from the first processor's ``flags`` (x86) or ``Features``
    (Arm) line of ``cpuinfo``; the machine's name where that is unreadable."""
    try:
        with open(cpuinfo) as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return " ".join(sorted(v for v in value.split() if _ISA_FLAG.match(v)))
    except OSError:
        pass
    return platform.machine()


_host_isa = None


def _device_identity(qi):
    global _host_isa
    d = qi.device
    parts = [d.backend, d.name, d.vendor, d.driver_version, d.sycl_platform.version,
             qi.fp64, qi.fp16]
    if d.is_cpu:
        if _host_isa is None:
            _host_isa = host_isa()
        parts.append(_host_isa)
    return "|".join(str(x) for x in parts)


_includes_digest = None


def _entry_path(spec, source, qi):
    global _includes_digest
    if _includes_digest is None:
        h = hashlib.sha256()
        for name, text in _include_files():
            h.update(name.encode() + b"\0" + text.encode() + b"\0")
        _includes_digest = h.hexdigest()
    h = hashlib.sha256()
    for part in (_runtime_identity(), _device_identity(qi), _includes_digest, source, *spec.names):
        h.update(part.encode())
        h.update(b"\0")
    safe = re.sub(r"[^A-Za-z0-9_.~+-]", "_", spec.key)
    return os.path.join(kernel_cache_dir(), f"{safe}-{h.hexdigest()[:24]}.bin")


class _Entry(NamedTuple):
    names: list     # kernel names (of the group, for a bundle compiled in one)
    raw: list       # their names in the binaries
    binaries: list  # native binaries, one per device image (none: runtime)
    group: str      # the file of the group's binaries, or "" (compiled alone)
    runtime: bool   # a marker: the SYCL runtime's cache holds the whole bundle


def _read_entry(path, _link=True):
    """The valid entry at `path` (a bundle's binaries, or a link to those of
    the group it was compiled in by warm-up), or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    entry = _parse_entry(path, data, _link)
    if entry is not None:
        mark_used(path)
    return entry


def _parse_entry(path, data, link):
    try:
        if not data.startswith(_MAGIC):
            return None
        (hlen,) = struct.unpack_from("<I", data, len(_MAGIC))
        pos = len(_MAGIC) + 4
        header = json.loads(data[pos:pos + hlen])
        pos += hlen
        if header.get("runtime"):
            return _Entry(header["names"], [], [], "", True) if pos == len(data) else None
        if "group" in header:
            group = os.path.join(os.path.dirname(path), os.path.basename(header["group"]))
            entry = _read_entry(group, False) if link and pos == len(data) else None
            if entry is None or not set(header["names"]) <= set(entry.names):
                return None
            return entry._replace(group=group)
        # (entries of earlier releases have no digest of their header)
        if "digest" in header and header.pop("digest") != _header_digest(header):
            return None
        binaries = []
        for size, digest in zip(header["sizes"], header["sha256"]):
            b = data[pos:pos + size]
            if len(b) != size or hashlib.sha256(b).hexdigest() != digest:
                return None
            binaries.append(b)
            pos += size
        if pos != len(data):
            return None
        return _Entry(header["names"], header["raw"], binaries, "", False)
    except Exception:
        return None


def _header_digest(header):
    """A digest of an entry's header (the kernels' names and their names in
    the binaries, which the binaries' digests do not cover: names out of
    order would launch one kernel for another)."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()


def _write_entry(path, names, raw=None, binaries=None, group=None, runtime=False):
    """Write a bundle's entry: its binaries; with `group` a link to the entry
    of the group it was compiled in; with `runtime` a marker that the SYCL
    runtime's cache holds it (names: the bundle's kernels)."""
    if group is not None or runtime:
        header = {"group": os.path.basename(group), "names": names} if group else \
            {"runtime": True, "names": names}
        binaries = []
    else:
        header = {"names": names, "raw": raw, "sizes": [len(b) for b in binaries],
                  "sha256": [hashlib.sha256(b).hexdigest() for b in binaries]}
        header["digest"] = _header_digest(header)
    header = json.dumps(header).encode()
    tmp = f"{path}.tmp.{os.getpid()}.{threading.get_ident()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(_MAGIC + struct.pack("<I", len(header)) + header + b"".join(binaries))
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not _warned_unwritable:
            _warned_unwritable.append(path)
            warnings.warn(f"usmarray cannot write its kernel cache in {os.path.dirname(path)} "
                          f"({e.strerror or e}): compiled kernels are not kept for later "
                          "processes; set USMARRAY_CACHE_DIR to a writable directory",
                          RuntimeWarning, stacklevel=2)


def _cost(spec):
    return len(spec.names) * spec.cost


# a compile's fixed cost, and a compile process's start (its interpreter and
# import), in kernel costs: ~0.25 s each
_FIXED_COST = 6.0


def usable_cores():
    """The cores this process may run on (its affinity), for parallel compiles."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def group_specs(specs, limit):
    """`specs` packed into groups compiled together (warm-up, composite
    functions' first calls): bundles of one merge tag, or of one source, in
    order, up to `limit` of cost (kernels times Family.cost; a bundle alone
    may exceed it). Returned costliest first."""
    by_kind = {}
    for s in specs:
        by_kind.setdefault(s.merge or s.source, []).append(s)
    out = []
    for members in by_kind.values():
        group, cost = [], 0.0
        for s in sorted(members, key=_cost, reverse=True):
            if group and cost + _cost(s) > limit:
                out.append(group)
                group, cost = [], 0.0
            group.append(s)
            cost += _cost(s)
        if group:
            out.append(group)
    return sorted(out, key=lambda g: -sum(map(_cost, g)))


# --------------------------------------------------------------- composite functions
# Functions made of many operations (quantile, the nan* reductions, isclose,
# unique_*, ...) need a dozen or two kernel parts on their first call, each a
# compile of its own when the operations ask for them one after the other.
# For those, first_calls.json lists the kernels a first call needed (recorded
# by tools/record_first_calls.py on the CPU device, per function and input
# dtypes, for the vector-block and the generic kernels, on 1-D inputs): on
# its first miss,
# the call compiles all the parts it will need at once, those that share a
# source as one program, on every core (nanquantile of float32 with an empty
# cache: 6.3 s -> 2.0 s on 2 cores).
_together = threading.local()
_first_calls = None


def compiled_together(func):
    """Decorator of a function composed of many kernels: its first call in a
    process compiles the kernels recorded for it (first_calls.json) together,
    before they are asked for. Calls inside it change nothing."""
    name = func.__name__

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_together, "call", None) is not None:
            return func(*args, **kwargs)
        # (the key is made only when a kernel is missing: _current_key)
        _together.call = (name, args, kwargs)
        try:
            return func(*args, **kwargs)
        finally:
            _together.call = None

    wrapper._compiled_together = True   # (tools/record_first_calls.py finds them by it)
    return wrapper


def _current_key():
    """The first_calls.json key of the composite call running in this thread, or None."""
    call = getattr(_together, "call", None)
    return None if call is None else _together_key(*call)


def _together_key(name, args, kwargs):
    """A composite call's entry in first_calls.json: its name and the dtypes
    of its array arguments; a call of scalars only (geomspace(1, 1000,
    dtype=...)) by the dtype it asks for instead."""
    dts = ",".join(a._dtype.name for a in args if hasattr(a, "_tc"))
    if not dts and kwargs.get("dtype") is not None:
        try:
            dts = "dtype=" + np.dtype(kwargs["dtype"]).name
        except TypeError:
            pass
    return f"{name}({dts})"


def _first_calls_table():
    global _first_calls
    if _first_calls is None:
        try:
            with open(os.path.join(os.path.dirname(__file__), "first_calls.json")) as f:
                _first_calls = json.load(f)
        except (OSError, ValueError):
            _first_calls = {}
    return _first_calls


# kernel names asked for, by together-key, while tools/record_first_calls.py records
recorded = None


# --------------------------------------------------------------- resolver
compile_log = []   # (bundle key, seconds, "compiled" | "disk") for `python -m usmarray`

_log = logging.getLogger("usmarray.kernels")
# headers that kernels/sycl/ include only for bundles whose kernel names call
# for them (each is a large share of a small bundle's compile time)
_OPTIONAL_HEADERS = ((re.compile(r"\bc(?:8|16)\b"), "USM_COMPLEX"),   # <complex>: complex types
                     (re.compile(r"red_logaddexp"), "USM_MATH"))       # math.hpp in reduction.hpp
_warned_unwritable = []


def _log_compiles():
    return os.environ.get("USMARRAY_LOG_COMPILES", "0") not in ("", "0")


def _report(spec, seconds, how, reason):
    """Record a compile or a load in compile_log; a compile also goes to the
    ``usmarray.kernels`` logger (INFO), and to stderr with
    USMARRAY_LOG_COMPILES=1, naming the kernel that asked for it."""
    compile_log.append((spec.key, seconds, how))
    if how != "compiled":
        _log.debug("loaded kernel bundle %s from disk in %.3f s", spec.key, seconds)
        return
    why = f" for {reason}" if reason else ""
    msg = f"compiled kernel bundle {spec.key} ({len(spec.names)} kernels) in {seconds:.2f} s{why}"
    _log.info(msg)
    if _log_compiles():
        sys.stderr.write(f"usmarray: {msg}\n")
        sys.stderr.flush()


def source_of(spec):
    """The text compiled for a bundle: its source, after the macros of the
    optional headers its kernels need (USM_COMPLEX: kernels/sycl/common.hpp
    includes <complex>; USM_MATH: reduction.hpp includes math.hpp)."""
    defines = "".join(f"#define {macro} 1\n" for pattern, macro in _OPTIONAL_HEADERS
                      if any(pattern.search(n) for n in spec.names))
    return defines + spec.source


def _use_runtime_cache():
    """The fallback of backends without a binary adapter: the SYCL runtime's
    persistent cache, under usmarray's cache directory, which skips the
    compiler's front end in later processes. Set before the process's first
    compile (the runtime reads these variables then), unless the user set
    either; not on backends with an adapter, where it is not needed (and on
    the OpenCL CPU device it makes the kernels the runtime builds slower)."""
    if "SYCL_CACHE_PERSISTENT" in os.environ or "SYCL_CACHE_DIR" in os.environ:
        return
    os.environ["SYCL_CACHE_DIR"] = os.path.join(_env.cache_dir(), "sycl")
    os.environ["SYCL_CACHE_PERSISTENT"] = "1"


class _Resolver:
    """Called by the engine with a missing kernel's name.

    A first call compiles only the part of the kernel's bundle it needs
    (Family.part); a bundle that is on disk whole (``usmarray warmup``
    compiles whole bundles) is loaded whole instead. What is compiled is
    kept on disk: with the binary adapter of the backend (OpenCL, Level
    Zero) as native binaries in usmarray's cache, else by the SYCL runtime's
    persistent cache (_use_runtime_cache), for which usmarray keeps only a
    marker of the whole bundles warm-up compiled, so that later processes
    compile (from the runtime's cache) the whole bundle instead of a part."""

    def __init__(self, qi):
        self.qi = qi
        self.kc = None
        self.loaded = set()   # keys of bundles, parts and groups whose kernels are registered
        self.locks = {}
        self.lock = threading.Lock()
        self.together = set()  # keys of composite functions whose kernels were compiled together

    def _spec_and_part(self, name):
        """(bundle of kernel `name`, the part a first call compiles or None)."""
        fam, args = family_of(name)
        spec = fam.spec(fam.key_of(args), self.qi)
        label, names = fam.part(name, spec, self.qi)
        part = None
        if len(names) < len(spec.names):
            part = BundleSpec(f"{spec.key}~{label}", spec.source, names, spec.merge,
                              fam.mean_cost(names))
        return spec, part

    def __call__(self, name):
        key = _current_key()
        if key is not None:
            if recorded is not None:
                recorded.setdefault(key, []).append(name)
            elif key not in self.together:
                self.together.add(key)
                self._compile_together(key)
        spec, part = self._spec_and_part(name)
        self.load(spec, part, reason=name)

    def _compile_together(self, key):
        """Compile the parts a first call of composite function `key` needs
        (first_calls.json) that are neither loaded nor on disk: those of one
        merge tag or source as one program (warm), the programs in threads
        (the compiler releases the GIL). A failure is left to the ordinary
        path, which reports it when the kernel is asked for."""
        mode = "simd" if self.kc.simd else "generic"
        names = _first_calls_table().get(mode, {}).get(key)
        if names:
            self.compile_parts(names, key)

    def compile_parts(self, names, label, processes=True, errors=False):
        """Compile the parts that kernels `names` belong to, those neither
        loaded nor on disk, at once: the parts of one source as one program
        unless that leaves a core idle, the programs in child processes
        (unless not `processes`) or threads. A failure raises
        KernelCompileError when `errors`, else is left to the ordinary path,
        which reports it when the kernel is asked for. `label`: what they
        are for, for the log."""
        t0 = time.perf_counter()
        parts = {}
        for n in names:
            try:
                spec, part = self._spec_and_part(n)
            except RuntimeError:   # (a kernel of a family this version lacks)
                continue
            p = part or spec
            if spec.key in self.loaded or p.key in self.loaded or not p.names:
                continue
            if self._once(spec, False, None) or self._once(p, False, None):
                continue   # (the whole bundle or the part was on disk: loaded)
            parts[p.key] = p
        if not parts:
            return
        # parts of one source compile as one program unless that leaves a
        # core idle: groups of at most a core's share of the cost (unique_values
        # of int32: the column sort alone and the rest beside it, 3.2 -> 1.9 s)
        cores = usable_cores()
        share = sum(map(_cost, parts.values())) / cores
        groups = group_specs(parts.values(), max(share, max(map(_cost, parts.values()))))
        try:
            if not (processes and self._compile_in_processes(groups, cores)):
                with concurrent.futures.ThreadPoolExecutor(min(len(groups), cores)) as pool:
                    list(pool.map(self.warm, groups))
        except KernelCompileError:
            if errors:
                raise
            return
        _log.info("compiled %d kernel parts together for %s in %.2f s", len(parts), label,
                  time.perf_counter() - t0)

    def _compile_in_processes(self, groups, cores):
        """Compile `groups` (costliest first) on `cores` cores: this process
        takes a share, child processes (usmarray/_core/_compile_worker.py) the
        rest into the disk cache, which this process then loads; what a child
        did not compile is compiled here. Returns False, compiling nothing,
        where children cannot help: one group or core, no disk cache or
        binary adapter to hand binaries over, a cache this process could not
        write (nor will the children), a frozen application, or
        USMARRAY_COMPILE_PROCESSES=0."""
        if (len(groups) < 2 or cores < 2 or not disk_cache_enabled() or not self._adapter()
                or _warned_unwritable
                or os.environ.get("USMARRAY_COMPILE_PROCESSES", "1") == "0"
                or getattr(sys, "frozen", False)):   # (sys.executable: not a Python)
            return False
        # lanes by estimated cost, longest first; a child's lane starts with
        # the child's start
        lanes = [[0.0, []]] + [[_FIXED_COST, []] for _ in range(min(cores, len(groups)) - 1)]
        for g in groups:
            lane = min(lanes, key=lambda ln: ln[0])
            lane[0] += _FIXED_COST + sum(map(_cost, g))
            lane[1].append(g)
        children = []
        try:
            for _, mine in lanes[1:]:
                if mine:
                    job = {"device": self.qi.filter_string,
                           "groups": [[[s.key, s.source, s.names, s.merge] for s in g]
                                      for g in mine]}
                    children.append((_start_compile_process(job), mine))
            for g in lanes[0][1]:
                self.warm(g)
        finally:
            for proc, _ in children:
                if proc is not None:
                    try:
                        proc.wait(timeout=120)   # (a few seconds' work)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
                    _log.debug("compile process exited with %s", proc.returncode)
        for _, mine in children:
            for g in mine:
                if not all(self._once(p, False, None) for p in g):
                    self.warm(g)   # (a child that failed, or an entry it could not write)
        return True

    def load(self, spec, part=None, reason=None):
        """Make the kernels of bundle `spec` available: loaded from disk,
        or compiled (only `part` of them, when given); `reason`: the kernel
        that asked, for the log."""
        if spec.key in self.loaded:
            return "memory"
        if part is not None and not part.names:
            return "memory"   # (no kernel of the bundle: nothing to compile)
        if part is not None:
            how = self._once(spec, False, reason)
            if how is not None:
                return how
            spec = part
        return self._once(spec, True, reason)

    def _lock(self, key):
        with self.lock:
            return self.locks.setdefault(key, threading.Lock())

    def _once(self, spec, may_compile, reason):
        with self._lock(spec.key):
            if spec.key in self.loaded:
                return "memory"
            how = self._load(spec, may_compile, reason)
            if how is not None:
                self.loaded.add(spec.key)
            return how

    def _adapter(self):
        return self.kc.can_cache_binaries and _binary_cache_enabled()

    def _path(self, spec, source):
        return _entry_path(spec, source, self.qi) if disk_cache_enabled() else None

    def _load(self, spec, may_compile, reason):
        t0 = time.perf_counter()
        source = source_of(spec)
        path = self._path(spec, source)
        entry = _read_entry(path) if path else None
        if entry is not None and not set(spec.names) <= set(entry.names):
            entry = None   # (another bundle's entry under this name: compiled again)
        if entry is not None and entry.group and entry.group in self.loaded:
            return "memory"   # (its group's kernels are all registered)
        if entry is not None and entry.binaries and self._adapter() and \
                self.kc.load_binary(entry.binaries, entry.names, entry.raw):
            if entry.group:
                self.loaded.add(entry.group)
            _report(spec, time.perf_counter() - t0, "disk", reason)
            return "disk"
        # a bundle whole in the runtime's cache (marker of warm-up) is
        # compiled whole: the runtime's cache then skips the compiler
        runtime_whole = entry is not None and entry.runtime and not self._adapter()
        if not (may_compile or runtime_whole):
            return None
        self._compile(spec, source, path, reason)
        return "compiled"

    def _compile(self, spec, source, path, reason):
        t0 = time.perf_counter()
        adapter = self._adapter()
        if not adapter and disk_cache_enabled():
            _use_runtime_cache()
        ok, log, binaries, raw = self.kc.build_source(source, _include_files(), spec.names, [])
        if not ok:
            shown = ", ".join(spec.names[:4]) + (", ..." if len(spec.names) > 4 else "")
            raise KernelCompileError(f"compiling kernel bundle {spec.key!r} ({shown}) for "
                                     f"{self.qi.device.name} failed:\n{log}")
        if path and adapter and binaries:
            _write_entry(path, spec.names, raw, binaries)
        _report(spec, time.perf_counter() - t0, "compiled", reason)
        return binaries, raw

    def warm(self, specs):
        """Warm-up: compile the bundles `specs` that are not on disk yet, as
        one program (one run of the compiler, whose fixed cost dominates
        small bundles), and keep them as one entry of the group with a link
        entry per bundle. Without a binary adapter each bundle is compiled
        alone (the runtime's cache is keyed by what one compile asks for)
        and marked as kept by the runtime. Returns "compiled" or "disk"."""
        adapter = self._adapter()
        todo = []
        for spec in specs:
            path = self._path(spec, source_of(spec))
            entry = _read_entry(path) if path else None
            if entry is None or (adapter and not entry.binaries) or (not adapter and not entry.runtime):
                todo.append((spec, path))
        if not todo:
            return "disk"
        if not adapter:
            for spec, path in todo:
                with self._lock(spec.key):
                    self._compile(spec, source_of(spec), path, "a group")
                    self.loaded.add(spec.key)
                    if path:
                        _write_entry(path, spec.names, runtime=True)
            return "compiled"
        group = BundleSpec(f"group-{todo[0][0].key}+{len(todo) - 1}",
                           "".join(dict.fromkeys(s.source for s, _ in todo)),
                           [n for s, _ in todo for n in s.names])
        source = source_of(group)
        gpath = self._path(group, source)
        with self._lock(group.key):
            binaries, raw = self._compile(group, source, gpath, "a group")
            self.loaded.update([group.key] + [s.key for s, _ in todo])
        if gpath and binaries:
            self.loaded.add(gpath)
            for spec, path in todo:
                _write_entry(path, spec.names, group=gpath)
        return "compiled"


def _start_compile_process(job):
    """A `python -m usmarray._core._compile_worker` child given `job` on its
    stdin, or None if it could not start. The job is written by a thread: a
    child reads it only after importing usmarray, and a job larger than the
    pipe's buffer would hold this process up that long."""
    try:
        # (started in usmarray's parent directory: `-m` puts the working
        # directory first on the child's path, where a source checkout's
        # usmarray, without its engine, would shadow the installed one)
        proc = subprocess.Popen([sys.executable, "-m", "usmarray._core._compile_worker"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=_PACKAGE_PARENT)
    except OSError:
        return None

    def feed(data):
        try:
            proc.stdin.write(data)
        except OSError:
            pass   # (a child that exited at once: its groups are compiled here)
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    threading.Thread(target=feed, args=(json.dumps(job).encode(),), daemon=True).start()
    return proc


_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_RESOLVERS = {}   # id(KernelCache) -> its _Resolver; kernel caches live as long as the process


def make_kernel_cache(qi):
    r = _Resolver(qi)
    kc = _engine.KernelCache(qi.ref, r)
    kc.simd = kc.simd and os.environ.get("USMARRAY_GENERIC_KERNELS", "0") != "1"
    r.kc = kc
    _RESOLVERS[id(kc)] = r
    return kc


def resolver_of(kc):
    return _RESOLVERS[id(kc)]


def _fresh_locks_in_child():
    # A lock held by another thread at the fork (a first call compiling)
    # stays held in the child, where that thread does not exist: every
    # later call needing the bundle would wait for ever.
    for r in _RESOLVERS.values():
        r.lock = threading.Lock()
        r.locks = {}


os.register_at_fork(after_in_child=_fresh_locks_in_child)


