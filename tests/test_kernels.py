"""The kernel cache (usmarray/_core/_kernels.py) and the command line.

Every check runs in fresh Python processes whose ``USMARRAY_CACHE_DIR``
points at a temporary directory (the variable is read at import), so the
user's cache is never written. Cold compilations are kept few: the small
``move_strided-u4`` bundle (a same-dtype strided copy of int32) is the one
compiled cold; entries for corruption tests are copies of one compiled entry.

``usmarray warmup`` compiles every bundle for the device (more than 100 on
this version: several minutes cold on a 2-CPU machine). Its temporary cache
is therefore seeded with a copy of the entries already in the user's cache
(read only); set ``USMARRAY_TEST_COLD_WARMUP=1`` to run it from an empty
cache instead.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import hashlib

import numpy as np
import pytest

import usmarray as ua

INSTALLED_KERNEL_SOURCES = os.path.join(os.path.dirname(ua.__file__), "_core", "sycl")
BUNDLE = "move_strided-u4"
TIMEOUT = 600

# One strided same-dtype copy (int32): needs exactly the move_strided-u4 bundle.
CHILD = r"""
import json, sys
import numpy as np
import usmarray as ua
h = np.arange(35, dtype=np.int32).reshape(5, 7)
x = ua.asarray(h)
y = ua.empty((7, 5), dtype=ua.int32)
y[...] = x.T
ok = bool(np.array_equal(ua.asnumpy(y), h.T))
print("RESULT " + json.dumps({
    "ok": ok,
    "log": [[k, how] for k, _, how in ua._core._kernels.compile_log],
    "cache": ua._core._kernels.cache_info(),
}))
"""


def _env(cache_dir, **extra):
    env = dict(os.environ)
    for k in ("USMARRAY_KERNEL_DIR", "USMARRAY_DISK_CACHE", "USMARRAY_SYCL_PERSISTENT_CACHE",
              "SYCL_CACHE_DIR", "SYCL_CACHE_PERSISTENT", "USMARRAY_CACHE_DIR"):
        env.pop(k, None)
    if cache_dir is not None:
        env["USMARRAY_CACHE_DIR"] = str(cache_dir)
    for k, v in extra.items():
        env[k] = str(v)
    return env


def _run(args, cache_dir, timeout=TIMEOUT, **extra):
    return subprocess.run(args, env=_env(cache_dir, **extra), capture_output=True, text=True,
                          timeout=timeout, cwd="/")


def _child(cache_dir, code=CHILD, **extra):
    r = _run([sys.executable, "-c", code], cache_dir, **extra)
    assert r.returncode == 0, f"child failed:\n{r.stdout}\n{r.stderr}"
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def _entries(cache_dir):
    d = os.path.join(str(cache_dir), "kernels")
    if not os.path.isdir(d):
        return []
    return sorted(n for n in os.listdir(d))


def _bundle_entry(cache_dir, bundle=BUNDLE):
    names = [n for n in _entries(cache_dir) if n.startswith(bundle + "-") and n.endswith(".bin")]
    assert len(names) == 1, names
    return os.path.join(str(cache_dir), "kernels", names[0])


def _only_log(res):
    return [tuple(e) for e in res["log"]]


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def compiled_cache(tmp_path_factory):
    """A cache directory in which one cold process compiled move_strided-u4.

    Yields (directory, entry path, entry bytes, log of the cold process)."""
    d = tmp_path_factory.mktemp("kcache-cold")
    res = _child(d)
    entry = _bundle_entry(d)
    with open(entry, "rb") as f:
        data = f.read()
    return d, entry, data, res


def _copy_cache(src, dst):
    shutil.copytree(str(src), str(dst), dirs_exist_ok=True)
    return dst


# ------------------------------------------------------------------ cold / disk
def test_cold_process_compiles_and_writes_entry(compiled_cache):
    d, entry, data, res = compiled_cache
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "compiled")]
    assert res["cache"]["path"] == os.path.join(str(d), "kernels")
    assert res["cache"]["enabled"] is True
    assert res["cache"]["entries"] == 1
    assert os.path.getsize(entry) > 0
    # nothing half-written is left behind
    assert all(n.endswith(".bin") for n in _entries(d)), _entries(d)


def test_second_process_loads_from_disk(compiled_cache, tmp_path):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    before = os.stat(entry)
    res = _child(d)
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "disk")]
    after = os.stat(entry)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert res["cache"]["entries"] == 1


# ------------------------------------------------------------------ corruption
def _overwrite_middle(data):
    b = bytearray(data)
    m = len(b) // 2
    b[m:m + 64] = bytes((x ^ 0xFF) for x in b[m:m + 64])
    return bytes(b)


def _parse_entry(data):
    """The documented entry layout: magic, u32 header length, JSON header, binaries."""
    magic_end = len(ua._core._kernels._MAGIC)
    assert data.startswith(ua._core._kernels._MAGIC)
    (hlen,) = struct.unpack_from("<I", data, magic_end)
    pos = magic_end + 4
    header = json.loads(data[pos:pos + hlen])
    return data[:magic_end], header, data[pos + hlen:]


def _garbage_binary_valid_checksum(data):
    """Binaries replaced by garbage of the same size, with matching checksums:
    passes every integrity check, but the device cannot load it."""
    magic, header, payload = _parse_entry(data)
    bins = []
    pos = 0
    for size in header["sizes"]:
        bins.append(bytes((i * 7 + 3) & 0xFF for i in range(size)))
        pos += size
    header["sha256"] = [hashlib.sha256(b).hexdigest() for b in bins]
    return _entry_bytes(magic, header, b"".join(bins))


def _entry_bytes(magic, header, payload, digest=True):
    """An entry of `header` (its digest made anew unless not `digest`)."""
    header = {k: v for k, v in header.items() if k != "digest"} if digest else header
    if digest:
        header["digest"] = hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()
    h = json.dumps(header).encode()
    return magic + struct.pack("<I", len(h)) + h + payload


def _names_reordered(data):
    """The kernels' names in the binaries out of order, the rest intact: only
    the header's digest tells (a load would launch one kernel for another)."""
    magic, header, payload = _parse_entry(data)
    assert len(header["raw"]) > 1 and "digest" in header
    header["raw"] = header["raw"][::-1]
    return _entry_bytes(magic, header, payload, digest=False)


CORRUPTIONS = {
    "overwrite-middle": _overwrite_middle,
    "truncate-half": lambda d: d[: len(d) // 2],
    "truncate-empty": lambda d: b"",
    "trailing-bytes": lambda d: d + b"\0" * 100,
    "header-garbage": lambda d: b"\x00" * 16 + d[16:],
    "garbage-binary-valid-checksum": _garbage_binary_valid_checksum,
    "names-reordered": _names_reordered,
}


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_corrupted_entry_is_recompiled_and_rewritten(compiled_cache, tmp_path, how):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    good = compiled_cache[2]
    bad = CORRUPTIONS[how](good)
    assert bad != good
    with open(entry, "wb") as f:
        f.write(bad)
    res = _child(d)
    assert res["ok"], "the result must be correct despite the corrupted entry"
    assert _only_log(res) == [(BUNDLE, "compiled")]
    # the entry was rewritten with a valid one: the next process loads it
    with open(_bundle_entry(d), "rb") as f:
        rewritten = f.read()
    assert rewritten != bad
    res2 = _child(d)
    assert res2["ok"]
    assert _only_log(res2) == [(BUNDLE, "disk")]
    assert all(n.endswith(".bin") for n in _entries(d)), _entries(d)


def test_entry_of_another_bundle_is_not_used(compiled_cache, tmp_path):
    """A valid entry of other kernels under the bundle's name (a copied or
    mixed-up cache) is compiled again, not loaded: its kernels are not the
    bundle's."""
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    magic, header, payload = _parse_entry(compiled_cache[2])
    header["names"] = ["some_other_kernel<int>"] * len(header["names"])
    with open(entry, "wb") as f:
        f.write(_entry_bytes(magic, header, payload))
    res = _child(d)
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "compiled")]
    assert _only_log(_child(d)) == [(BUNDLE, "disk")]


def test_entry_of_other_sources_is_not_used(compiled_cache, tmp_path):
    """Changed kernel sources give another cache key: a stale entry is ignored."""
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    src = tmp_path / "src"
    shutil.copytree(INSTALLED_KERNEL_SOURCES, src)
    with open(src / "copy.cpp", "a") as f:
        f.write("\n// a comment changes the source text\n")
    res = _child(d, USMARRAY_KERNEL_DIR=src)
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "compiled")]
    assert len([n for n in _entries(d) if n.startswith(BUNDLE)]) == 2


# ------------------------------------------------------------------ concurrency
def test_concurrent_cold_processes_share_an_empty_cache(tmp_path):
    d = tmp_path / "c"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD], env=_env(d), cwd="/",
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=TIMEOUT) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, f"{out}\n{err}"
        res = json.loads([ln for ln in out.splitlines() if ln.startswith("RESULT ")][-1][7:])
        assert res["ok"]
        assert _only_log(res)[0][0] == BUNDLE
    names = _entries(d)
    assert len(names) == 1 and names[0].startswith(BUNDLE) and names[0].endswith(".bin"), names
    res = _child(d)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "disk")]


# ------------------------------------------------------------------ disabled disk cache
def test_disk_cache_disabled_writes_nothing(tmp_path):
    d = tmp_path / "c"
    for _ in range(2):
        res = _child(d, USMARRAY_DISK_CACHE=0)
        assert res["ok"]
        assert _only_log(res) == [(BUNDLE, "compiled")]
        assert res["cache"]["enabled"] is False
        assert res["cache"]["entries"] == 0
        assert _entries(d) == []


def test_disk_cache_disabled_does_not_read_entries(compiled_cache, tmp_path):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    before = os.stat(entry)
    res = _child(d, USMARRAY_DISK_CACHE=0)
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "compiled")]
    after = os.stat(entry)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert len(_entries(d)) == 1


def test_unwritable_cache_location_still_works(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory's parent should be")
    d = blocker / "cache"
    res = _child(d)
    assert res["ok"]
    assert _only_log(res) == [(BUNDLE, "compiled")]
    assert res["cache"]["entries"] == 0


# ------------------------------------------------------------------ compile errors
ERROR_CHILD = r"""
import json
import numpy as np
import usmarray as ua
out = {}
x = ua.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
y = ua.empty((4, 3), dtype=ua.int32)
for attempt in ("first", "second"):
    try:
        y[...] = x.T
        out[attempt] = None
    except Exception as e:
        out[attempt] = [type(e).__name__, isinstance(e, ua.KernelCompileError),
                        isinstance(e, RuntimeError), str(e)]
# kernels of other sources still work
z = ua.zeros((4, 6), dtype=ua.float32)
z[:, ::2] = 1.5
out["other_ok"] = bool((ua.asnumpy(z)[:, ::2] == 1.5).all() and (ua.asnumpy(z)[:, 1::2] == 0).all())
out["log"] = [[k, how] for k, _, how in ua._core._kernels.compile_log]
print("RESULT " + json.dumps(out))
"""

MARKER = "usmarray_test_injected_syntax_error"


def test_kernel_compile_error_is_reported(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(INSTALLED_KERNEL_SOURCES, src)
    text = (src / "copy.cpp").read_text()
    i = text.index("void move_strided")
    (src / "copy.cpp").write_text(text[:i] + f"int {MARKER} = ;\n" + text[i:])
    d = tmp_path / "c"
    res = _child(d, code=ERROR_CHILD, USMARRAY_KERNEL_DIR=src)
    first = res["first"]
    assert first is not None, "a kernel from a broken source must not run"
    name, is_kce, is_runtime, msg = first
    assert is_kce, f"expected KernelCompileError, got {name}: {msg[:500]}"
    assert is_runtime
    assert BUNDLE in msg                         # names the bundle
    assert "move_strided<u4" in msg              # and its kernels
    assert "error" in msg.lower()                # carries the compiler log...
    assert MARKER in msg                         # ...quoting the offending source line
    # a second use fails the same way (no half-registered bundle)
    second = res["second"]
    assert second is not None and second[1], second
    assert BUNDLE in second[3]
    assert res["other_ok"]
    # nothing was cached for the broken bundle
    assert not [n for n in _entries(d) if n.startswith(BUNDLE)]


# ------------------------------------------------------------------ command line
def _seed_from_user_cache(dst):
    """Copy the entries of the user's own cache (read only) into `dst`."""
    if os.environ.get("USMARRAY_TEST_COLD_WARMUP") == "1":
        return
    user = ua._core._env.cache_dir()
    for sub in ("kernels", "sycl"):
        s = os.path.join(user, sub)
        if os.path.isdir(s) and os.path.realpath(s) != os.path.realpath(os.path.join(dst, sub)):
            shutil.copytree(s, os.path.join(dst, sub), dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.tmp.*"))


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory):
    d = tmp_path_factory.mktemp("kcache-warmup")
    _seed_from_user_cache(str(d))
    r = _run([sys.executable, "-m", "usmarray", "warmup"], d, timeout=1800)
    return d, r


_NBUNDLES = r"""
from usmarray._core import _kernels
from usmarray._core._device import default_queue
print("RESULT " + str(len(_kernels.bundles_for(default_queue()))))
"""

_SUMMARY = re.compile(r"(\d+) bundles in [\d.]+ s: (.*)")


def _summary(stdout):
    m = _SUMMARY.search(stdout)
    assert m, stdout
    counts = {}
    for part in m.group(2).split(","):
        n, how = part.strip().split()
        counts[how] = int(n)
    return int(m.group(1)), counts


def test_warmup_compiles_every_bundle(warm_cache):
    d, r = warm_cache
    assert r.returncode == 0, r.stdout + r.stderr
    n_bundles = int(_run([sys.executable, "-c", _NBUNDLES], d).stdout.split("RESULT ")[-1])
    total, counts = _summary(r.stdout)
    assert total == n_bundles
    assert sum(counts.values()) == n_bundles
    assert set(counts) <= {"compiled", "disk", "memory"}
    assert os.path.join(str(d), "kernels") in r.stdout
    # every bundle has its entry, and no temporary files are left
    bins = [n for n in _entries(d) if n.endswith(".bin")]
    assert len(bins) >= n_bundles
    assert all(n.endswith(".bin") for n in _entries(d))
    # progress bar on stderr reaches the end
    assert f"{n_bundles}/{n_bundles} bundles" in r.stderr


def test_warmup_again_loads_everything_from_disk(warm_cache):
    d, r0 = warm_cache
    assert r0.returncode == 0
    exe = shutil.which("usmarray", path=os.path.dirname(sys.executable)) or "usmarray"
    r = _run([exe, "warmup", "--quiet"], d)
    assert r.returncode == 0, r.stdout + r.stderr
    total, counts = _summary(r.stdout)
    assert counts == {"disk": total}
    assert "warm-up [" not in r.stderr            # --quiet: no progress bar


_OWN_KERNELS_AFTER_WARMUP = r"""
import json
import usmarray as ua
from usmarray._core import _kernels
for dt in ("float32", "float64", "complex64"):
    x = ua.ones(8, dtype=dt)
    ua.isclose(x, x)                       # the closeness kernel (elementwise)
    ua.vecdot(x, x), x @ x                 # the dot products (a reduction kernel)
    ua.einsum("ij,ij->i", x[None], x[None])
ua.frexp(ua.ones(3, dtype="float32"))      # usmarray.special's
print("RESULT " + json.dumps(sorted({how for _, _, how in _kernels.compile_log})))
"""


def test_warmup_covers_kernels_made_on_first_use(warm_cache):
    """usmarray's own kernels that are made on first use (elementwise and
    reduction kernels of user-kernel form: isclose, the dot products,
    usmarray.special) are compiled by warm-up: their first calls load them."""
    d, r = warm_cache
    assert r.returncode == 0
    assert _child(d, _OWN_KERNELS_AFTER_WARMUP) == ["disk"]


def test_info_command(warm_cache):
    d, _ = warm_cache
    exe = shutil.which("usmarray", path=os.path.dirname(sys.executable)) or "usmarray"
    for args in ([exe], [sys.executable, "-m", "usmarray", "info"]):
        r = _run(args, d)
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout
        assert "SYCL devices:" in out
        dev = ua.get_default_queue().sycl_device
        assert dev.filter_string in out and dev.name in out
        assert "Default device" in out
        assert f"Kernel cache: {os.path.join(str(d), 'kernels')}" in out
        assert "OK" in out and "MISMATCH" not in out
        # the check computation loaded its kernels from the warm cache
        hows = re.findall(r"kernel bundle \S+\s+(\w+)", out)
        assert hows and set(hows) == {"disk"}, out


def test_info_reports_disabled_cache(tmp_path):
    exe = shutil.which("usmarray", path=os.path.dirname(sys.executable)) or "usmarray"
    d = tmp_path / "c"
    _seed_from_user_cache(str(d))
    r = _run([exe, "info"], d, USMARRAY_DISK_CACHE=0)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "(disabled)" in r.stdout


# ------------------------------------------------------------------ parts, groups
# float32 sin of a contiguous array: a first call compiles only the part of
# the ew-sin bundle with the float32 loop's contiguous kernels.
SIN_CHILD = r"""
import json, sys
import numpy as np
import usmarray as ua
h = np.linspace(-3, 3, 1001, dtype=np.float32)
ok = bool(np.allclose(ua.asnumpy(ua.sin(ua.asarray(h))), np.sin(h), rtol=1e-6, atol=1e-6))
print("RESULT " + json.dumps({
    "ok": ok,
    "log": [[k, how] for k, _, how in ua._core._kernels.compile_log],
}))
"""
SIN_PART = "ew-sin~unary-op_sin-f4-f4"

WARM_CHILD = r"""
import json, sys
import usmarray as ua
from usmarray._core import _kernels
from usmarray._core._device import default_queue
qi = default_queue()
specs = [_kernels.bundle_of(n, qi) for n in sys.argv[1:]]
how = _kernels.resolver_of(qi.kc).warm(specs)
print("RESULT " + json.dumps({"how": how, "keys": [s.key for s in specs]}))
"""


def _warm(cache_dir, *kernel_names, **extra):
    r = _run([sys.executable, "-c", WARM_CHILD, *kernel_names], cache_dir, **extra)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads([ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")][-1][7:])


def test_first_call_compiles_a_part_of_the_bundle(tmp_path):
    d = tmp_path / "c"
    res = _child(d, code=SIN_CHILD)
    assert res["ok"]
    assert _only_log(res) == [(SIN_PART, "compiled")]
    assert [n for n in _entries(d) if n.startswith("ew-sin")] == \
        [n for n in _entries(d) if n.startswith(SIN_PART + "-")]
    res = _child(d, code=SIN_CHILD)
    assert res["ok"] and _only_log(res) == [(SIN_PART, "disk")]


def test_part_holds_the_kernels_of_one_loop_and_layout():
    from usmarray._core import _kernels
    from usmarray._core._device import default_queue

    qi = default_queue()
    fam, args = _kernels.family_of("binary_vec<op_add, f4, f4, f4>")
    spec = fam.spec(fam.key_of(args), qi)
    label, names = fam.part("binary_vec<op_add, f4, f4, f4>", spec, qi)
    assert "binary_vec<op_add, f4, f4, f4>" in names
    assert "binary_contig<op_add, f4, f4, f4>" in names      # its fallback
    assert all("f4, f4, f4" in n for n in names)
    assert set(names) < set(spec.names)
    # the parts of one loop (contiguous, a scalar on either side, strided)
    # hold each of its kernels once
    loop = [n for n in spec.names if "f4, f4, f4" in n]
    parts = {fam.part(n, spec, qi)[0]: set(fam.part(n, spec, qi)[1]) for n in loop}
    assert len(parts) == 4
    assert sum(len(p) for p in parts.values()) == len(loop)
    assert set().union(*parts.values()) == set(loop)
    strided = [p for k, p in parts.items() if k.startswith("strided")][0]
    assert all(any(w in n for w in ("strided", "inner", "bcast", "rows")) for n in strided)
    # a reduction's part holds the passes over its partial states
    fam, args = _kernels.family_of("reduce_rows_vec<usmk::red_sum, i4, i8, i8>")
    spec = fam.spec(fam.key_of(args), qi)
    _, names = fam.part("reduce_rows_vec<usmk::red_sum, i4, i8, i8>", spec, qi)
    assert "reduce_cols<usmk::red_sum, i8, i8, i8>" in names


def test_parts_of_shared_bundles_hold_one_operation():
    # Kernels that serve several operations sit in parts of their own, so
    # that a first call does not compile the others' kernels with them.
    from usmarray._core import _kernels
    from usmarray._core._device import default_queue

    qi = default_queue()

    def part(name):
        fam, args = _kernels.family_of(name)
        spec = fam.spec(fam.key_of(args), qi)
        return fam, fam.part(name, spec, qi)[1]

    _, names = part("radix_scan<i4>")                 # unique_* and the radix sort
    assert names == ["radix_scan<i4>"]
    _, names = part("unique_count<i4>")
    assert not any(n.startswith("radix_") for n in names)
    _, names = part("take_strided<u4, 1>")            # not the scatters
    assert names == [f"take_strided<u4, {nd}>" for nd in _kernels.STRIDED_VARIANTS]
    # per-kernel compile costs: a part's mean, for balancing first calls
    fam, names = part("radix_bits<f4, 0>")
    assert fam.mean_cost(["sort_cols<u4>"]) > fam.mean_cost(names) > 0
    assert fam.mean_cost(["sort_cols<u4>", "radix_scan<u4>"]) == \
        (fam.costs["sort_cols"] + fam.costs["radix_scan"]) / 2


def test_first_call_parts_of_one_source_share_the_cores(tmp_path, monkeypatch):
    # Parts of one source compile as one program unless that would leave a
    # core idle: then the costliest goes alone.
    from usmarray._core import _kernels
    from usmarray._core._device import default_queue

    qi = default_queue()
    res = _kernels.resolver_of(qi.kc)
    parts = {res._spec_and_part(n)[1].key
             for n in ("sort_cols<u4>", "unique_count<i4>", "radix_scan<i4>")}
    assert len(parts) == 3
    kernels = ["sort_cols<u4>", "unique_count<i4>", "radix_scan<i4>"]
    warmed = []
    monkeypatch.setattr(_kernels, "_first_calls_table",
                        lambda: {"simd": {"k": kernels}, "generic": {"k": kernels}})
    monkeypatch.setattr(res, "loaded", set())      # as if nothing were compiled or on disk
    monkeypatch.setattr(res, "_once", lambda spec, may, reason: False)
    monkeypatch.setattr(res, "warm", lambda specs: warmed.append([s.key for s in specs]))
    monkeypatch.setattr(_kernels, "usable_cores", lambda: 2)
    res._compile_together("k")
    cols = [g for g in warmed if any("~cols" in k for k in g)]
    assert len(warmed) == 2 and len(cols) == 1 and len(cols[0]) == 1
    monkeypatch.setattr(_kernels, "usable_cores", lambda: 1)
    warmed.clear()
    res._compile_together("k")
    assert len(warmed) == 1 and len(warmed[0]) == 3


def test_warmup_group_is_loaded_whole_through_links(tmp_path):
    d = tmp_path / "c"
    res = _warm(d, "unary_contig<op_sin, f4, f4>", "unary_contig<op_cos, f4, f4>")
    assert res == {"how": "compiled", "keys": ["ew-sin", "ew-cos"]}
    entries = _entries(d)
    assert len([n for n in entries if n.startswith("group-ew-")]) == 1
    assert len([n for n in entries if n.startswith("ew-sin-")]) == 1      # links
    assert len([n for n in entries if n.startswith("ew-cos-")]) == 1
    # a first call finds the whole bundle (through its link): no part compiled
    res = _child(d, code=SIN_CHILD)
    assert res["ok"] and _only_log(res) == [("ew-sin", "disk")]
    assert not [n for n in _entries(d) if "~" in n]
    # a second warm-up finds everything on disk
    assert _warm(d, "unary_contig<op_sin, f4, f4>", "unary_contig<op_cos, f4, f4>")["how"] == "disk"


@pytest.mark.parametrize("which", ["group", "link"])
def test_corrupted_group_or_link_is_compiled_again(tmp_path, which):
    d = tmp_path / "c"
    _warm(d, "unary_contig<op_sin, f4, f4>", "unary_contig<op_cos, f4, f4>")
    prefix = "group-ew-" if which == "group" else "ew-sin-"
    path = os.path.join(str(d), "kernels", [n for n in _entries(d) if n.startswith(prefix)][0])
    with open(path, "r+b") as f:
        f.seek(len(ua._core._kernels._MAGIC) + 6)
        f.write(b"\xff\xfe")
    res = _child(d, code=SIN_CHILD)
    assert res["ok"] and _only_log(res) == [(SIN_PART, "compiled")]


def test_two_processes_compile_one_part_at_once(tmp_path):
    d = tmp_path / "c"
    procs = [subprocess.Popen([sys.executable, "-c", SIN_CHILD], env=_env(d), cwd="/",
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=TIMEOUT)
        assert p.returncode == 0, out + err
        res = json.loads([ln for ln in out.splitlines() if ln.startswith("RESULT ")][-1][7:])
        assert res["ok"] and _only_log(res)[0][0] == SIN_PART
    assert [n for n in _entries(d) if n.startswith("ew-")] == \
        [n for n in _entries(d) if n.startswith(SIN_PART + "-") and n.endswith(".bin")]
    res = _child(d, code=SIN_CHILD)
    assert res["ok"] and _only_log(res) == [(SIN_PART, "disk")]


# ------------------------------------------------------------------ backend adapters
def test_opencl_adapter_and_refusals():
    from usmarray._core._device import default_queue

    kc = default_queue().kc
    if default_queue().device.backend.name != "opencl":
        pytest.skip("the OpenCL adapter needs an OpenCL device")
    assert kc.binary_adapter == "opencl" and kc.can_cache_binaries
    assert kc.adapter_loads("opencl", [b"not a binary" * 10]) is False
    # the Level Zero adapter refuses an OpenCL device (and needs libze_loader)
    assert kc.adapter_loads("level_zero", [b"\0" * 64]) is False
    with pytest.raises(ValueError):
        kc.adapter_loads("cuda", [b""])


def test_adapter_loads_what_it_wrote(compiled_cache):
    from usmarray._core._device import default_queue

    kc = default_queue().kc
    if kc.binary_adapter != "opencl":
        pytest.skip("needs the OpenCL adapter")
    _, _, data, _ = compiled_cache
    _, header, payload = _parse_entry(data)
    bins, pos = [], 0
    for size in header["sizes"]:
        bins.append(payload[pos:pos + size])
        pos += size
    assert kc.adapter_loads("opencl", bins) is True


FALLBACK_CHILD = CHILD.replace('"cache": ua._core._kernels.cache_info(),', '''"cache": ua._core._kernels.cache_info(),
    "sycl_env": [__import__("os").environ.get("SYCL_CACHE_PERSISTENT"),
                 __import__("os").environ.get("SYCL_CACHE_DIR")],''')


def test_fallback_without_adapter_uses_the_runtime_cache(tmp_path):
    """USMARRAY_BINARY_CACHE=0: what backends without an adapter do. usmarray
    writes no binaries; the SYCL runtime's persistent cache, under
    usmarray's cache directory, keeps what was compiled."""
    d = tmp_path / "c"
    res = _child(d, code=FALLBACK_CHILD, USMARRAY_BINARY_CACHE=0)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "compiled")]
    sycl_dir = os.path.join(str(d), "sycl")
    assert res["sycl_env"] == ["1", sycl_dir]
    assert not [n for n in _entries(d) if n.endswith(".bin")]
    files = [os.path.join(r, f) for r, _, fs in os.walk(sycl_dir) for f in fs]
    assert files, "the runtime's cache holds the compiled bundle"
    # the next process compiles again through the runtime's cache, correctly
    res = _child(d, code=FALLBACK_CHILD, USMARRAY_BINARY_CACHE=0)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "compiled")]


def test_fallback_keeps_the_users_runtime_cache_settings(tmp_path):
    d, own = tmp_path / "c", tmp_path / "own"
    res = _child(d, code=FALLBACK_CHILD, USMARRAY_BINARY_CACHE=0, SYCL_CACHE_DIR=own)
    assert res["ok"] and res["sycl_env"] == [None, str(own)]
    assert not os.path.isdir(os.path.join(str(d), "sycl"))


def test_fallback_warmup_marks_whole_bundles(tmp_path):
    d = tmp_path / "c"
    res = _warm(d, "move_strided<u4, 1>", USMARRAY_BINARY_CACHE=0)
    assert res["how"] == "compiled"
    assert [n for n in _entries(d) if n.startswith(BUNDLE)]        # the marker
    # a first call then compiles the whole bundle (which the runtime holds)
    res = _child(d, code=FALLBACK_CHILD, USMARRAY_BINARY_CACHE=0)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "compiled")]
    assert _warm(d, "move_strided<u4, 1>", USMARRAY_BINARY_CACHE=0)["how"] == "disk"


# ------------------------------------------------------------------ logging, read-only cache
LOG_CHILD = r"""
import json, logging
records = []
class H(logging.Handler):
    def emit(self, r):
        records.append(r.getMessage())
logging.getLogger("usmarray.kernels").addHandler(H())
logging.getLogger("usmarray.kernels").setLevel(logging.INFO)
import numpy as np, usmarray as ua
ua.asnumpy(ua.sin(ua.asarray(np.ones(10, np.float32))))
print("RESULT " + json.dumps(records))
"""


def test_compiles_are_logged(tmp_path):
    r = _run([sys.executable, "-c", LOG_CHILD], tmp_path / "c", USMARRAY_LOG_COMPILES=1)
    assert r.returncode == 0, r.stdout + r.stderr
    records = json.loads(r.stdout.split("RESULT ")[-1])
    assert len(records) == 1 and SIN_PART in records[0]
    assert "unary_vec<op_sin, f4, f4>" in records[0] or "unary_contig<op_sin, f4, f4>" in records[0]
    assert re.search(r"usmarray: compiled kernel bundle ew-sin~\S+ \(\d+ kernels\) in [\d.]+ s "
                     r"for unary_\w+<op_sin, f4, f4>", r.stderr), r.stderr
    # loads from disk are not logged at INFO, nor printed
    r = _run([sys.executable, "-c", LOG_CHILD], tmp_path / "c", USMARRAY_LOG_COMPILES=1)
    assert json.loads(r.stdout.split("RESULT ")[-1]) == []
    assert "usmarray: compiled" not in r.stderr


READ_ONLY_CHILD = r"""
import json, warnings
import numpy as np, usmarray as ua
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = ua.asarray(np.arange(8, dtype=np.float32))
    ok = bool(np.allclose(ua.asnumpy(ua.sin(a)), np.sin(np.arange(8, dtype=np.float32))))
    ok = ok and bool(np.allclose(ua.asnumpy(ua.cos(a)), np.cos(np.arange(8, dtype=np.float32))))
print("RESULT " + json.dumps({"ok": ok, "warnings": [str(x.message) for x in w
                                                      if issubclass(x.category, RuntimeWarning)]}))
"""


def _make_read_only(path):
    """Make a directory read-only for this process, or skip (root ignores
    permission bits: an immutable directory is used then)."""
    os.chmod(path, 0o555)
    if os.geteuid() != 0:
        return lambda: os.chmod(path, 0o755)
    r = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if r.returncode != 0:
        os.chmod(path, 0o755)
        pytest.skip("running as root without chattr: cannot make a directory read-only")
    return lambda: (subprocess.run(["chattr", "-i", str(path)]), os.chmod(path, 0o755))


def test_read_only_cache_works_and_warns_once(tmp_path):
    d = tmp_path / "c"
    os.makedirs(d / "kernels")
    restore = _make_read_only(d / "kernels")
    try:
        r = _run([sys.executable, "-c", READ_ONLY_CHILD], d)
    finally:
        restore()
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.split("RESULT ")[-1])
    assert res["ok"]
    assert len(res["warnings"]) == 1, res["warnings"]       # two compiles, one warning
    assert "cannot write its kernel cache" in res["warnings"][0]
    assert "USMARRAY_CACHE_DIR" in res["warnings"][0]
    assert _entries(d) == []


# ------------------------------------------------------------------ composite functions
TOGETHER_CHILD = r"""
import json
import numpy as np
import usmarray as ua
from usmarray._core import _kernels
h = np.random.default_rng(1).random(1000).astype(np.float32)
h[::7] = np.nan
r = float(ua.nanquantile(ua.asarray(h), 0.3))
print("RESULT " + json.dumps({"ok": bool(np.isclose(r, np.nanquantile(h, 0.3), rtol=1e-6)),
                              "log": [[k, how] for k, _, how in _kernels.compile_log]}))
"""


def test_composite_function_compiles_its_parts_together(tmp_path):
    # (in this process's threads: USMARRAY_COMPILE_PROCESSES=0)
    d = tmp_path / "c"
    res = _child(d, code=TOGETHER_CHILD, USMARRAY_COMPILE_PROCESSES="0")
    assert res["ok"]
    log = _only_log(res)
    groups = [k for k, how in log if k.startswith("group-")]
    assert len(groups) >= 2 and all(how == "compiled" for k, how in log)
    # every part it needed came from the groups: no part compiled alone
    assert not [k for k, how in log if not k.startswith("group-")]
    parts = [n for n in _entries(d) if "~" in n and not n.startswith("group-")]
    assert len(parts) >= 10                        # a link per part
    res = _child(d, code=TOGETHER_CHILD)           # a later process loads them
    assert res["ok"] and {how for _, how in _only_log(res)} == {"disk"}


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: no compile processes")
def test_composite_function_hands_groups_to_a_compile_process(tmp_path):
    # Groups go to a child process (usmarray._core._compile_worker), which
    # writes them to the disk cache; this process compiles the rest and loads
    # the child's parts from disk.
    d = tmp_path / "c"
    res = _child(d, code=TOGETHER_CHILD)
    assert res["ok"]
    log = _only_log(res)
    here = [k for k, how in log if how == "compiled"]
    from_child = [k for k, how in log if how == "disk"]
    assert here and all(k.startswith("group-") for k in here)
    assert from_child and not any(k.startswith("group-") for k in from_child)
    groups = [n for n in _entries(d) if n.startswith("group-")]
    assert len(groups) > len(here)                 # the child's groups are on disk too
    res = _child(d, code=TOGETHER_CHILD)
    assert res["ok"] and {how for _, how in _only_log(res)} == {"disk"}


def test_failed_compile_process_leaves_its_groups_to_this_process(tmp_path):
    # a child that exits at once (as if it could not start usmarray)
    d = tmp_path / "c"
    code = "import sys; sys.executable = '/bin/false'\n" + TOGETHER_CHILD
    res = _child(d, code=code)
    assert res["ok"]
    log = _only_log(res)
    assert len(log) >= 2 and all(how == "compiled" and k.startswith("group-") for k, how in log)


def test_compiled_together_key_and_nesting():
    from usmarray._core import _kernels

    seen = []

    @_kernels.compiled_together
    def inner(x, y=None):
        seen.append(_kernels._current_key())

    @_kernels.compiled_together
    def outer(x):
        inner(x)
        seen.append(_kernels._current_key())

    x = ua.asarray(np.zeros(3, np.float32))
    inner(x, ua.asarray(np.zeros(3, np.int64)))
    outer(x)
    assert seen == ["inner(float32,int64)", "outer(float32)", "outer(float32)"]
    assert _kernels._current_key() is None
    assert outer._compiled_together and outer.__name__ == "outer"
    # a call of scalars only is keyed by the dtype it asks for
    assert _kernels._together_key("geomspace", (1.0, 1000.0), {"dtype": ua.float32}) == \
        "geomspace(dtype=float32)"
    assert _kernels._together_key("geomspace", (1.0, 1000.0), {"dtype": "int64"}) == \
        "geomspace(dtype=int64)"
    assert _kernels._together_key("geomspace", (1.0, 1000.0), {}) == "geomspace()"
    assert _kernels._together_key("geomspace", (x, x), {"dtype": "int64"}) == \
        "geomspace(float32,float32)"


def test_first_calls_table_matches_the_kernels():
    """Every kernel first_calls.json lists exists (a family provides it);
    every composite function has an entry for float32 (for those of integer
    indices or scalars only: for int64, or with no dtype)."""
    from usmarray._core import _device, _kernels

    # (the families of kernels in user-kernel form, isclose's, register on
    # first use or in warm-up: run warm-up's hooks, whatever ran before)
    _kernels.bundles_for(_device.queue_info(ua.asarray([1]).sycl_queue))
    table = _kernels._first_calls_table()
    assert set(table) == {"simd", "generic"}
    for mode in table.values():
        for key, names in mode.items():
            for n in names:
                _kernels.family_of(n)
    decorated = [n for n in dir(ua) if getattr(getattr(ua, n), "_compiled_together", False)]
    assert len(decorated) >= 30
    for name in decorated:
        assert any(k.startswith(name + "(") and ("float32" in k or k == name + "()" or
                                                 k == name + "(int64)")
                   for k in table["simd"]), name


def test_stale_first_calls_entry_is_harmless(tmp_path):
    code = TOGETHER_CHILD.replace("from usmarray._core import _kernels\n", """from usmarray._core import _kernels
_kernels._first_calls = {"simd": {"nanquantile(float32)": ["no_such_kernel<f4>",
    "unary_contig<op_sin, f4, f4>"]}, "generic": {}}
""")
    res = _child(tmp_path / "c", code=code)
    assert res["ok"]


# ------------------------------------------------------------------ last use, prune, clear
DAY = 86400


def _age(path, days):
    t = os.stat(path).st_mtime - days * DAY
    os.utime(path, (t, t))


def _days_unused(path):
    import time
    return (time.time() - os.stat(path).st_mtime) / DAY


def _write(path, data=b"x", days=0):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    _age(path, days)


def test_reading_an_entry_marks_it_used(compiled_cache, tmp_path):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    _age(entry, 40)
    res = _child(d)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "disk")]
    assert _days_unused(entry) < 0.01
    # an entry used within the day is not written (mtime to the second)
    _age(entry, 0.5)
    _child(d)
    assert 0.49 < _days_unused(entry) < 0.51


def test_reading_a_link_marks_its_group_used(tmp_path):
    d = tmp_path / "c"
    _warm(d, "unary_contig<op_sin, f4, f4>", "unary_contig<op_cos, f4, f4>")
    kdir = os.path.join(str(d), "kernels")
    group = [os.path.join(kdir, n) for n in _entries(d) if n.startswith("group-ew-")]
    link = [os.path.join(kdir, n) for n in _entries(d) if n.startswith("ew-sin-")]
    cos = [os.path.join(kdir, n) for n in _entries(d) if n.startswith("ew-cos-")]
    assert len(group) == len(link) == len(cos) == 1
    for p in group + link + cos:
        _age(p, 40)
    res = _child(d, code=SIN_CHILD)
    assert res["ok"] and _only_log(res) == [("ew-sin", "disk")]
    assert _days_unused(group[0]) < 0.01 and _days_unused(link[0]) < 0.01
    assert _days_unused(cos[0]) > 39      # not read
    # pruning keeps what was used: the sine still loads from disk
    r = _run([sys.executable, "-m", "usmarray", "cache", "prune"], d)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not os.path.exists(cos[0]) and os.path.exists(group[0]) and os.path.exists(link[0])
    assert _only_log(_child(d, code=SIN_CHILD)) == [("ew-sin", "disk")]


def test_prune_removes_files_unused_for_days(compiled_cache, tmp_path):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    entry = _bundle_entry(d)
    old = [os.path.join(str(d), "kernels", "ew-old-0123456789abcdef01234567.bin"),
           os.path.join(str(d), "kernels", "ew-old.bin.tmp.123.456"),     # a writer that died
           os.path.join(str(d), "sycl", "prog", "deadbeef", "0.bin")]     # the runtime's cache
    for p in old:
        _write(p, b"y" * 1000, days=40)
    marker = os.path.join(str(d), "user-novec", "fz_0123")
    _write(marker, b"", days=10)
    other = os.path.join(str(d), "notes.txt")     # not a file of the cache
    _write(other, b"z", days=400)

    def cache(*args):
        r = _run([sys.executable, "-m", "usmarray", "cache", *args], d)
        return r.returncode, r.stdout + r.stderr

    rc, out = cache("prune", "--dry-run")
    assert rc == 0 and "would remove 3 files unused for more than 30 days (2.9 KiB)" in out, out
    assert all(os.path.exists(p) for p in old)
    rc, out = cache()
    assert rc == 0 and "2 bundles" in out and "earlier 2.9 KiB" in out, out
    rc, out = cache("prune")
    assert rc == 0 and "removed 3 files" in out, out
    assert not any(os.path.exists(p) for p in old)
    assert not os.path.exists(os.path.join(str(d), "sycl", "prog"))    # emptied directories
    assert os.path.exists(entry) and os.path.exists(marker) and os.path.exists(other)
    rc, out = cache("prune", "--days", "5")
    assert rc == 0 and "removed 1 files unused for more than 5 days" in out, out
    assert not os.path.exists(marker) and os.path.exists(entry)
    res = _child(d)
    assert res["ok"] and _only_log(res) == [(BUNDLE, "disk")]
    rc, out = cache("prune", "--days", "-1")
    assert rc == 2 and "--days must be 0 or more" in out, out


def test_clear_removes_every_file_of_the_cache(compiled_cache, tmp_path):
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    _write(os.path.join(str(d), "sycl", "prog", "0.bin"), b"y" * 10)
    other = os.path.join(str(d), "notes.txt")
    _write(other, b"z")
    r = _run([sys.executable, "-m", "usmarray", "cache", "clear", "-n"], d)
    assert r.returncode == 0 and "would remove 2 files" in r.stdout, r.stdout + r.stderr
    assert _entries(d)
    r = _run([sys.executable, "-m", "usmarray", "cache", "clear"], d)
    assert r.returncode == 0 and "removed 2 files" in r.stdout, r.stdout + r.stderr
    assert not os.path.exists(os.path.join(str(d), "kernels"))
    assert not os.path.exists(os.path.join(str(d), "sycl")) and os.path.exists(other)
    res = _child(d)      # compiled again, and kept
    assert res["ok"] and _only_log(res) == [(BUNDLE, "compiled")] and res["cache"]["entries"] == 1


def test_prune_and_clear_leave_files_not_of_the_cache(compiled_cache, tmp_path):
    """A cache directory shared with the user's own files (USMARRAY_CACHE_DIR=.
    in a project with a kernels/ folder): only usmarray's entries and the
    SYCL runtime's cache files are counted and removed."""
    d = _copy_cache(compiled_cache[0], tmp_path / "c")
    mine = [os.path.join(str(d), "kernels", "cuda", "my_kernel.cu"),
            os.path.join(str(d), "kernels", "README.md"),
            os.path.join(str(d), "sycl", "notes.txt"),
            os.path.join(str(d), "user-novec", "not-empty.txt")]
    for p in mine:
        _write(p, b"keep me", days=100)
    _write(os.path.join(str(d), "sycl", "1", "2", "0.bin"), b"y" * 10, days=100)
    _write(os.path.join(str(d), "sycl", "1", "2", "0_access_time.txt"), b"1", days=100)
    r = _run([sys.executable, "-m", "usmarray", "cache", "prune"], d)
    assert r.returncode == 0 and "removed 2 files" in r.stdout, r.stdout + r.stderr
    assert all(os.path.exists(p) for p in mine)
    assert not os.path.exists(os.path.join(str(d), "sycl", "1"))
    r = _run([sys.executable, "-m", "usmarray", "cache", "clear"], d)
    assert r.returncode == 0 and "removed 1 files" in r.stdout, r.stdout + r.stderr
    assert all(os.path.exists(p) for p in mine)
    assert not [n for n in _entries(d) if n.endswith(".bin")]


def test_cache_info_buckets_bytes_by_last_use(tmp_path, monkeypatch):
    from usmarray._core import _cache_files
    monkeypatch.setenv("USMARRAY_CACHE_DIR", str(tmp_path))
    k = os.path.join(str(tmp_path), "kernels")
    _write(os.path.join(k, "a-1.bin"), b"a" * 10)
    _write(os.path.join(k, "b-2.bin"), b"b" * 20, days=3)
    _write(os.path.join(k, "c-3.bin"), b"c" * 40, days=31)
    _write(os.path.join(str(tmp_path), "user-novec", "m"), b"", days=50)
    info = _cache_files.cache_info()
    assert info["path"] == k and info["entries"] == 3 and info["bytes"] == 70
    assert info["unused"] == {"<1": 10, "1-30": 20, ">30": 40}
    assert _cache_files.prune(30, dry_run=True) == (2, 40)
    with pytest.raises(ValueError):
        _cache_files.prune(-1)
    _cache_files.mark_used(os.path.join(k, "c-3.bin"))
    assert _cache_files.prune(30) == (1, 0)       # only the marker
    assert sorted(os.listdir(k)) == ["a-1.bin", "b-2.bin", "c-3.bin"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")   # (fork beside threads)
def test_forked_child_gets_fresh_compile_locks():
    """A fork while another thread compiles (holding the resolver's locks):
    the child, where that thread does not exist, must not wait for them."""
    import threading
    from usmarray._core import _kernels
    from usmarray._core._device import default_queue
    r = _kernels.resolver_of(default_queue().kc)
    bundle_lock = r._lock("a-bundle-being-compiled")
    held, release = threading.Event(), threading.Event()

    def compiling():
        with bundle_lock, r.lock:
            held.set()
            release.wait(60)

    t = threading.Thread(target=compiling)
    t.start()
    try:
        assert held.wait(30)
        pid = os.fork()
        if pid == 0:   # the child: both locks free
            ok = r._lock("a-bundle-being-compiled").acquire(timeout=5) and r.lock.acquire(
                timeout=5)
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
    finally:
        release.set()
        t.join()
    assert os.waitstatus_to_exitcode(status) == 0


def test_warmup_refusals_are_one_line(tmp_path):
    r = _run([sys.executable, "-m", "usmarray", "warmup"], tmp_path, USMARRAY_DISK_CACHE=0)
    assert r.returncode == 2 and "disk cache is off" in r.stderr and "Traceback" not in r.stderr
    assert not os.listdir(str(tmp_path))
    r = _run([sys.executable, "-m", "usmarray", "warmup", "--device", "bogus"], tmp_path)
    assert r.returncode == 1 and "bogus" in r.stderr and "Traceback" not in r.stderr
    r = _run([sys.executable, "-m", "usmarray", "cache", "prune", "--days", "nan"], tmp_path)
    assert r.returncode == 2 and "--days must be 0 or more" in r.stderr


def test_warmup_stops_at_an_interrupt(monkeypatch):
    """Ctrl-C: the queued groups are cancelled and the workers ended, rather
    than the pool running every group first (its workers hand a
    KeyboardInterrupt back as a result and go on)."""
    from usmarray._core import _warmup
    stopped = []

    class Pool:
        def __init__(self, *a, **k):
            self._processes = {1: self}

        def submit(self, fn, *args):
            raise KeyboardInterrupt

        def terminate(self):
            stopped.append("terminate")

        def shutdown(self, wait=True, cancel_futures=False):
            stopped.append(("shutdown", wait, cancel_futures))

    monkeypatch.setattr(_warmup.concurrent.futures, "ProcessPoolExecutor", Pool)
    from usmarray._core._device import default_queue
    with pytest.raises(KeyboardInterrupt):
        _warmup.warmup(default_queue(), progress=False)
    assert stopped == ["terminate", ("shutdown", False, True)]


# ------------------------------------------------------------------ CPU ISA
def test_host_isa_reads_the_instruction_set_flags(tmp_path):
    from usmarray._core import _kernels

    f = tmp_path / "cpuinfo"
    f.write_text("processor\t: 0\nflags\t\t: fpu avx2 sse2 hypervisor avx512f fma\n"
                 "processor\t: 1\nflags\t\t: fpu sse2\n")
    assert _kernels.host_isa(str(f)) == "avx2 avx512f fma sse2"
    f.write_text("processor\t: 0\nFeatures\t: fp asimd evtstrm sve\n")
    assert _kernels.host_isa(str(f)) == "asimd sve"
    assert _kernels.host_isa(str(tmp_path / "missing")) != ""


def test_cpu_entries_are_keyed_by_the_instruction_set(monkeypatch):
    """A virtual machine that hides AVX-512 reports the same CPU device name
    as one that has it; a binary of the one would stop the other with
    SIGILL, so the entry name depends on the host's ISA."""
    from usmarray._core import _device, _kernels

    qi = _device.queue_info(ua.asarray([1]).sycl_queue)
    if not qi.device.is_cpu:
        pytest.skip("the default device is not a CPU")
    spec = _kernels.bundle_of("move_strided<u4, 1>", qi)
    here = _kernels._entry_path(spec, "source", qi)
    assert _kernels._entry_path(spec, "source", qi) == here
    monkeypatch.setattr(_kernels, "_host_isa", "sse2")
    assert _kernels._entry_path(spec, "source", qi) != here
