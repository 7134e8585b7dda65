"""Cold-start benchmark: what a user waits for while usmarray compiles its
kernels the first time, with an empty kernel cache.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_coldstart.py
    python bench_coldstart.py --only sin,add,sort --no-warmup   # a quick look
    python bench_coldstart.py --list                            # the function table
    python bench_coldstart.py --check                           # every entry runs?

Every measurement runs in a fresh process (``sys.executable``) whose
``USMARRAY_CACHE_DIR`` is a new, empty directory (and, where a case turns on
the SYCL runtime's persistent cache, whose ``SYCL_CACHE_DIR`` lies inside
it), so nothing compiled earlier is reused. Rows of the Markdown table:

1. first call of each public function of the ``usmarray`` namespace, one
   process and one empty cache per function: the child builds its inputs by
   host copies (``ua.asarray`` of NumPy arrays, which launch no kernel) and
   times only the call and ``ua.synchronize()``; median, 90th percentile,
   worst and the five slowest. The list of functions comes from
   ``dir(usmarray)`` at run time; a public function the table
   (``make_cases``) does not know is reported and counted as skipped, so
   none is left out silently;
2. the ``usmarray`` command (device listing and a check computation): wall
   time of the whole process;
3. a four-line script (``arange``, ``sin``, ``* 2``, ``sum``): wall time of
   the whole process, and of the three lines after the import;
4. the same script twice on one cache directory with
   ``USMARRAY_BINARY_CACHE=0`` and the SYCL runtime's persistent cache on:
   the second process reloads through the SYCL runtime, as backends other
   than OpenCL do; both times and the saving;
5. ``usmarray warmup --quiet``: wall time (minutes; ``--no-warmup`` skips it).

One sample per case: a first call happens once per cache (run the script
again to see the spread; a busy machine shows in the "other load" column).
Parallel processes (``--jobs``) compete for the cores the compiler and the
device share, so their times are not comparable with the targets; the
default is one at a time. A full run takes roughly 10 to 20 minutes on 2
cores (about 200 processes, most of them compiling one to six bundles), and
the warm-up row a few minutes more.
"""

import argparse
import atexit
import concurrent.futures
import datetime
import inspect
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types

# The environment the user's shell gave us. Children start from this copy:
# importing usmarray in this process sets OCL_ICD_FILENAMES, and a child that
# inherits it would not start the way a user's process does.
_SHELL_ENV = dict(os.environ)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import _util  # noqa: E402

# Targets (seconds): (text, predicate on the measured value).
TARGETS = {
    "median": ("median <= 1.0 s", lambda s: s <= 1.0),
    "worst": ("worst <= 2.5 s", lambda s: s <= 2.5),
    "main": ("<= 3 s", lambda s: s <= 3.0),
    "script": ("<= 2 s", lambda s: s <= 2.0),
    "warmup": ("<= 120 s", lambda s: s <= 120.0),
}

ROWS = ("first", "main", "script", "second", "warmup")

# Cache-related variables a case sets itself; a value inherited from the
# shell (a warm SYCL cache, a disabled disk cache) would falsify the case.
_CACHE_VARS = ("USMARRAY_CACHE_DIR", "USMARRAY_DISK_CACHE", "USMARRAY_BINARY_CACHE",
               "USMARRAY_COMPILE_PROCESSES",
               "SYCL_CACHE_PERSISTENT", "SYCL_CACHE_DIR")


# ------------------------------------------------------------------ the function table
def _call(ua, name, *args, **kwargs):
    # getattr at call time: a function the package renamed or removed fails
    # in its own entry instead of breaking the whole table.
    return lambda: getattr(ua, name)(*args, **kwargs)


def make_cases(ua, np):
    """name -> zero-argument callable that makes one small call of
    ``usmarray.<name>``.

    Loaded by every child process. The inputs are built here, before any
    timing, by ``ua.asarray`` of C-contiguous NumPy arrays of the final
    dtype: a host-to-device memcpy, no kernel. Mostly 1000 float32 elements;
    the values keep each function inside its domain (acos, atanh, log, ...)."""
    rng = np.random.default_rng(0)
    n = 1000
    A = ua.asarray
    f32 = np.float32
    hf = rng.uniform(0.1, 0.9, n).astype(f32)
    hn = hf.copy()
    hn[::10] = np.nan
    xf = A(hf)                                             # float32 in (0.1, 0.9)
    yf = A(rng.uniform(0.1, 0.9, n).astype(f32))
    xg = A(hf + f32(1))                                    # >= 1, for acosh
    xn = A(hn)                                             # 10 % NaN
    xs = A(np.sort(rng.uniform(0.0, 1.0, n).astype(f32)))  # sorted, for searchsorted
    wf = A(rng.uniform(0.0, 1.0, n).astype(f32))           # weights
    xi = A(rng.integers(-100, 100, n, dtype=np.int32))
    yi = A(rng.integers(1, 100, n, dtype=np.int32))
    sh = A(rng.integers(0, 8, n, dtype=np.int32))          # shift counts
    xu = A(rng.integers(0, 20, n, dtype=np.int32))         # few distinct values
    yu = A(np.arange(0, 20, 3, dtype=np.int32))
    xb = A(rng.random(n) < 0.5)
    yb = A(rng.random(n) < 0.5)
    xc = A((rng.uniform(0.1, 0.9, n) + 1j * rng.uniform(0.1, 0.9, n)).astype(np.complex64))
    idx = A(rng.integers(0, n, 100, dtype=np.int64))
    vals = A(rng.uniform(0.1, 0.9, 100).astype(f32))
    m = A(rng.uniform(0.1, 0.9, (64, 64)).astype(f32))     # 2-D float32
    idx2 = A(rng.integers(0, 64, (64, 4), dtype=np.int64))
    vals2 = A(rng.uniform(0.1, 0.9, (64, 4)).astype(f32))
    row = A(hf.reshape(1, n))                              # a size-1 axis, for squeeze
    x3 = A(rng.uniform(0.1, 0.9, (4, 8, 10)).astype(f32))
    a32 = A(hf[:32].copy())
    b32 = A(hf[32:64].copy())
    # written to by put, put_along_axis and place (not the inputs of other entries)
    xp1 = A(hf.copy())
    xp2 = A(hf.copy())
    mp = A(np.asarray(rng.uniform(0.1, 0.9, (64, 64)), dtype=f32))

    c = {}
    for name in ("abs acos asin asinh atan atanh cbrt ceil cos cosh exp exp2 expm1 floor "
                 "isfinite isinf isnan log log10 log1p log2 negative positive reciprocal round "
                 "rsqrt sign signbit sin sinh sqrt square tan tanh trunc").split():
        c[name] = _call(ua, name, xf)
    c["acosh"] = _call(ua, "acosh", xg)
    for name in ("add atan2 copysign divide equal floor_divide greater greater_equal hypot less "
                 "less_equal logaddexp maximum minimum multiply nextafter not_equal pow "
                 "remainder subtract").split():
        c[name] = _call(ua, name, xf, yf)
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        c[name] = _call(ua, name, xi, yi)
    c["bitwise_invert"] = _call(ua, "bitwise_invert", xi)
    c["bitwise_left_shift"] = _call(ua, "bitwise_left_shift", xi, sh)
    c["bitwise_right_shift"] = _call(ua, "bitwise_right_shift", xi, sh)
    for name in ("logical_and", "logical_or", "logical_xor"):
        c[name] = _call(ua, name, xb, yb)
    c["logical_not"] = _call(ua, "logical_not", xb)
    for name in ("angle", "conj", "imag", "real", "proj"):
        c[name] = _call(ua, name, xc)
    c["clip"] = _call(ua, "clip", xf, 0.2, 0.8)

    # reductions, scans, statistics
    for name in ("sum prod max min mean var std argmax argmin cumulative_sum cumulative_prod "
                 "cumulative_logsumexp logsumexp reduce_hypot median ptp").split():
        c[name] = _call(ua, name, xf)
    c["all"] = _call(ua, "all", xb)
    c["any"] = _call(ua, "any", xb)
    c["count_nonzero"] = _call(ua, "count_nonzero", xb)
    c["quantile"] = _call(ua, "quantile", xf, 0.5)
    c["percentile"] = _call(ua, "percentile", xf, 50.0)
    c["average"] = _call(ua, "average", xf, weights=wf)
    c["cov"] = _call(ua, "cov", m)
    c["corrcoef"] = _call(ua, "corrcoef", m)
    for name in ("nanmin nanmax nanargmin nanargmax nansum nanprod nanmean nanvar nanstd "
                 "nanmedian").split():
        c[name] = _call(ua, name, xn)
    c["nanquantile"] = _call(ua, "nanquantile", xn, 0.5)
    c["nanpercentile"] = _call(ua, "nanpercentile", xn, 50.0)

    # searching, sorting, sets
    c["where"] = _call(ua, "where", xb, xf, yf)
    c["nonzero"] = _call(ua, "nonzero", xb)
    c["argwhere"] = _call(ua, "argwhere", xb)
    c["flatnonzero"] = _call(ua, "flatnonzero", xb)
    c["searchsorted"] = _call(ua, "searchsorted", xs, xf)
    c["sort"] = _call(ua, "sort", xf)
    c["argsort"] = _call(ua, "argsort", xf)
    c["top_k"] = _call(ua, "top_k", xf, 10)
    for name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        c[name] = _call(ua, name, xu)
    c["isin"] = _call(ua, "isin", xu, yu)

    # linear algebra of the main namespace (oneMKL for floating matmul)
    c["matmul"] = _call(ua, "matmul", m, m)
    c["vecdot"] = _call(ua, "vecdot", m, m)
    c["tensordot"] = _call(ua, "tensordot", m, m, axes=1)
    c["inner"] = _call(ua, "inner", xf, yf)

    # manipulation (many are views: no kernel, and timed all the same)
    c["reshape"] = _call(ua, "reshape", xf, (10, 100))
    c["broadcast_to"] = _call(ua, "broadcast_to", xf, (4, n))
    c["broadcast_arrays"] = _call(ua, "broadcast_arrays", xf, row)
    c["broadcast_shapes"] = _call(ua, "broadcast_shapes", (3, 1), (1, 4))
    c["permute_dims"] = _call(ua, "permute_dims", m, (1, 0))
    c["expand_dims"] = _call(ua, "expand_dims", xf, axis=0)
    c["squeeze"] = _call(ua, "squeeze", row, axis=0)
    c["swapaxes"] = _call(ua, "swapaxes", m, 0, 1)
    c["flip"] = _call(ua, "flip", xf)
    c["moveaxis"] = _call(ua, "moveaxis", x3, 0, -1)
    c["matrix_transpose"] = _call(ua, "matrix_transpose", m)
    c["unstack"] = _call(ua, "unstack", m)
    c["concat"] = _call(ua, "concat", [xf, yf])
    c["stack"] = _call(ua, "stack", [xf, yf])
    c["roll"] = _call(ua, "roll", xf, 3)
    c["repeat"] = _call(ua, "repeat", xf, 2)
    c["tile"] = _call(ua, "tile", xf, (2,))
    c["diff"] = _call(ua, "diff", xf)

    # indexing
    c["take"] = _call(ua, "take", xf, idx)
    c["take_along_axis"] = _call(ua, "take_along_axis", m, idx2, axis=1)
    c["put"] = _call(ua, "put", xp1, idx, vals)
    c["put_along_axis"] = _call(ua, "put_along_axis", mp, idx2, vals2, axis=1)
    c["place"] = _call(ua, "place", xp2, xb, vals)
    c["extract"] = _call(ua, "extract", xb, xf)

    # comparison of whole arrays
    c["allclose"] = _call(ua, "allclose", xf, yf)
    c["isclose"] = _call(ua, "isclose", xf, yf)
    c["array_equal"] = _call(ua, "array_equal", xf, yf)

    # stacking and splitting
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        c[name] = _call(ua, name, xf)
    for name in ("vstack", "hstack", "dstack", "column_stack"):
        c[name] = _call(ua, name, [xf, yf])
    c["split"] = _call(ua, "split", xf, 4)
    c["array_split"] = _call(ua, "array_split", xf, 3)
    c["hsplit"] = _call(ua, "hsplit", m, 2)
    c["vsplit"] = _call(ua, "vsplit", m, 2)
    c["dsplit"] = _call(ua, "dsplit", x3, 2)
    c["append"] = _call(ua, "append", xf, yf)

    # creation
    c["asarray"] = _call(ua, "asarray", hf)
    c["from_numpy"] = _call(ua, "from_numpy", hf)
    c["empty"] = _call(ua, "empty", (n,), dtype=ua.float32)
    c["zeros"] = _call(ua, "zeros", (n,), dtype=ua.float32)
    c["ones"] = _call(ua, "ones", (n,), dtype=ua.float32)
    c["full"] = _call(ua, "full", (n,), 2.5, dtype=ua.float32)
    c["arange"] = _call(ua, "arange", n, dtype=ua.float32)
    c["linspace"] = _call(ua, "linspace", 0.0, 1.0, n, dtype=ua.float32)
    c["eye"] = _call(ua, "eye", 64, dtype=ua.float32)
    for name in ("empty_like", "zeros_like", "ones_like"):
        c[name] = _call(ua, name, xf)
    c["full_like"] = _call(ua, "full_like", xf, 2.5)
    c["tril"] = _call(ua, "tril", m)
    c["triu"] = _call(ua, "triu", m)
    c["meshgrid"] = _call(ua, "meshgrid", a32, b32)

    # copies and casts
    c["asnumpy"] = _call(ua, "asnumpy", xf)
    c["to_numpy"] = _call(ua, "to_numpy", xf)
    c["astype"] = _call(ua, "astype", xi, ua.float32)
    c["copy"] = _call(ua, "copy", xf)

    # dtype helpers (host only)
    c["isdtype"] = _call(ua, "isdtype", ua.float32, "real floating")
    c["result_type"] = _call(ua, "result_type", xf, xi)
    c["can_cast"] = _call(ua, "can_cast", ua.int32, ua.float32)
    c["finfo"] = _call(ua, "finfo", ua.float32)
    c["iinfo"] = _call(ua, "iinfo", ua.int32)

    # DLPack
    c["from_dlpack"] = _call(ua, "from_dlpack", hf)
    c["sycl_device_to_dldevice"] = lambda: ua.sycl_device_to_dldevice(xf.sycl_device)
    c["dldevice_to_sycl_device"] = lambda: ua.dldevice_to_sycl_device(xf.__dlpack_device__())

    # queue and memory pool; the setters write back the current value, so the
    # --check process keeps its state
    c["get_default_queue"] = _call(ua, "get_default_queue")
    c["synchronize"] = _call(ua, "synchronize")
    c["memory_pool_stats"] = _call(ua, "memory_pool_stats")
    c["free_cached_memory"] = _call(ua, "free_cached_memory")
    c["set_memory_pool_limit"] = lambda: ua.set_memory_pool_limit(ua.memory_pool_stats()["limit"])

    # printing
    c["get_print_options"] = _call(ua, "get_print_options")
    c["set_print_options"] = lambda: ua.set_print_options(**ua.get_print_options())

    def print_options_block():
        with ua.print_options(precision=3):
            pass

    c["print_options"] = print_options_block

    def host_operands_block():
        # a NumPy operand copied to the device inside the block
        with ua.allow_host_operands():
            np.add(np.ones(xf.shape, np.float32), xf)

    c["allow_host_operands"] = host_operands_block
    c["usm_ndarray_repr"] = _call(ua, "usm_ndarray_repr", xf)
    c["usm_ndarray_str"] = _call(ua, "usm_ndarray_str", xf)

    # NumPy's functions beyond the array API
    bins = A(np.linspace(0.0, 1.0, 11).astype(f32))
    m8 = A(rng.uniform(0.1, 0.9, (8, 8)).astype(f32))
    pts = A(rng.uniform(0.1, 0.9, (n, 2)).astype(f32))
    i4 = A(np.arange(4, dtype=np.int64))
    mf = A(np.asarray(rng.uniform(0.1, 0.9, (64, 64)), dtype=f32))   # written by fill_diagonal
    c["bincount"] = _call(ua, "bincount", xu)
    c["digitize"] = _call(ua, "digitize", xf, bins)
    c["interp"] = _call(ua, "interp", xf, xs, wf)
    for name in ("histogram", "histogram_bin_edges"):
        c[name] = _call(ua, name, xf, bins=10)
    c["histogram2d"] = _call(ua, "histogram2d", xf, yf, bins=8)
    c["histogramdd"] = _call(ua, "histogramdd", pts, bins=4)
    c["delete"] = _call(ua, "delete", xf, [1, 5, 7])
    c["insert"] = _call(ua, "insert", xf, 3, 2.5)
    c["diag"] = _call(ua, "diag", m)
    c["diagflat"] = _call(ua, "diagflat", a32)
    c["diag_indices"] = _call(ua, "diag_indices", 64)
    c["diag_indices_from"] = _call(ua, "diag_indices_from", m)
    c["fill_diagonal"] = _call(ua, "fill_diagonal", mf, 0.5)
    c["einsum"] = _call(ua, "einsum", "ij,jk->ik", m, m)
    c["einsum_path"] = _call(ua, "einsum_path", "ij,jk->ik", m, m)
    c["kron"] = _call(ua, "kron", m8, m8)
    c["pad"] = _call(ua, "pad", xf, 3)
    c["nan_to_num"] = _call(ua, "nan_to_num", xn)
    c["geomspace"] = _call(ua, "geomspace", 1.0, 1000.0, n, dtype=ua.float32)
    c["logspace"] = _call(ua, "logspace", 0.0, 3.0, n, dtype=ua.float32)
    c["identity"] = _call(ua, "identity", 64, dtype=ua.float32)
    c["tri"] = _call(ua, "tri", 64, dtype=ua.float32)
    c["indices"] = _call(ua, "indices", (8, 8))
    for name in ("tril_indices", "triu_indices"):
        c[name] = _call(ua, name, 64)
    for name in ("tril_indices_from", "triu_indices_from"):
        c[name] = _call(ua, name, m)
    c["ix_"] = _call(ua, "ix_", i4, i4)
    c["ravel_multi_index"] = _call(ua, "ravel_multi_index", (idx, idx), (n, n))
    c["unravel_index"] = _call(ua, "unravel_index", idx, (10, 100))
    for name in ("iscomplex", "isreal", "real_if_close"):
        c[name] = _call(ua, name, xc)
    c["iscomplexobj"] = _call(ua, "iscomplexobj", xc)
    c["isrealobj"] = _call(ua, "isrealobj", xf)
    c["get_array_module"] = _call(ua, "get_array_module", xf)
    # (a fused function's first call: tracing it and compiling its kernel)
    c["fuse"] = lambda: ua.fuse()(lambda a, b: a * b + 1.5)(xf, yf)

    # files through the host (NumPy's formats), in a directory of the child's own
    d = tempfile.mkdtemp(prefix="usmarray-coldstart-")
    atexit.register(shutil.rmtree, d, True)
    np.save(os.path.join(d, "in.npy"), hf)
    c["save"] = _call(ua, "save", os.path.join(d, "out.npy"), xf)
    c["savez"] = _call(ua, "savez", os.path.join(d, "out.npz"), a=xf)
    c["savez_compressed"] = _call(ua, "savez_compressed", os.path.join(d, "outc.npz"), a=xf)
    c["load"] = _call(ua, "load", os.path.join(d, "in.npy"))
    return c


def public_names(ua, np):
    """(sorted public callables of the namespace, {excluded name: reason})."""
    callables, excluded = [], {}
    for name in sorted(dir(ua)):
        if name.startswith("_"):
            continue
        obj = getattr(ua, name)
        if isinstance(obj, types.ModuleType):
            excluded[name] = "module"
        elif inspect.isclass(obj):
            excluded[name] = "exception" if issubclass(obj, BaseException) else "class"
        elif isinstance(obj, np.dtype):
            excluded[name] = "dtype"
        elif not callable(obj):
            excluded[name] = "constant"
        else:
            callables.append(name)
    return callables, excluded


# ------------------------------------------------------------------ child processes
# One function's first call. argv: this file, the function's name.
FIRST_CALL_CODE = r"""
import importlib.util, json, sys, time
import numpy as np
import usmarray as ua
try:
    from usmarray._core._kernels import compile_log   # bundles compiled or loaded so far
except ImportError:
    compile_log = None
spec = importlib.util.spec_from_file_location("_bench_coldstart_table", sys.argv[1])
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)
fn = table.make_cases(ua, np)[sys.argv[2]]
ua.synchronize()
before = len(compile_log) if compile_log is not None else 0
t0 = time.perf_counter()
r = fn()
ua.synchronize()
t = time.perf_counter() - t0
bundles = [list(e) for e in compile_log[before:]] if compile_log is not None else None
print(json.dumps({"s": t, "input_bundles": before, "bundles": bundles}))
"""

# The four-line script, with a clock around the three lines after the import.
FOUR_LINES = """\
import usmarray as ua
x = ua.arange(1000000, dtype=ua.float32)
y = ua.sin(x) * 2
float(ua.sum(y))
"""
_L = FOUR_LINES.splitlines()
FOUR_LINE_CODE = "\n".join(
    ["import time", _L[0], "t0 = time.perf_counter()", *_L[1:],
     "t = time.perf_counter() - t0",
     "import json",
     "try:",
     "    from usmarray._core._kernels import compile_log",
     "    how = [e[2] for e in compile_log]",
     "except ImportError:",
     "    how = None",
     'print(json.dumps({"s": t, "how": how}))']) + "\n"


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def case_env(cache_dir, sycl_persistent=False, **extra):
    """The shell's environment with an empty cache: `cache_dir` as
    USMARRAY_CACHE_DIR, and with `sycl_persistent` the SYCL runtime's
    persistent cache in `cache_dir`/sycl."""
    env = {k: v for k, v in _SHELL_ENV.items() if k not in _CACHE_VARS}
    env["USMARRAY_CACHE_DIR"] = cache_dir
    if sycl_persistent:
        env["SYCL_CACHE_PERSISTENT"] = "1"
        env["SYCL_CACHE_DIR"] = os.path.join(cache_dir, "sycl")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def new_cache_dir():
    return tempfile.mkdtemp(prefix="usmarray-coldstart-")


def run_process(argv, env, timeout):
    """(wall seconds, stdout) of a fresh process; RuntimeError when it fails.

    Started in `env`'s cache directory: it holds no ``usmarray`` folder, so the
    installed package is imported even when the benchmark runs from the
    source tree."""
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=env["USMARRAY_CACHE_DIR"], capture_output=True,
                          text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"{os.path.basename(argv[0])} {' '.join(argv[1:2])} failed "
                           f"(exit {proc.returncode}):\n{tail}")
    return wall, proc.stdout


def last_json(stdout):
    lines = stdout.strip().splitlines()
    if not lines:
        raise RuntimeError("the child printed nothing")
    return json.loads(lines[-1])


def dir_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def console_script():
    # The venv's entry point sits next to its interpreter; PATH may hold another.
    path = os.path.join(os.path.dirname(sys.executable), "usmarray")
    if not os.path.exists(path):
        raise RuntimeError(f"no console script {path} (is usmarray installed in this venv?)")
    return path


def percentile(values, p):
    """`p`-th percentile, linear between order statistics (NumPy's default)."""
    v = sorted(values)
    if len(v) == 1:
        return v[0]
    k = (len(v) - 1) * p / 100
    i = int(k)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (k - i)


# ------------------------------------------------------------------ the benchmark
class Bench:
    def __init__(self, args, ua, np):
        self.args = args
        self.ua = ua
        self.np = np
        self.rows = []     # [case, measured, target, status, other load]
        self.notes = []    # footnotes, numbered from 1
        self.extra = []    # lines printed under the table
        self.errors = 0

    def footnote(self, text):
        self.notes.append(text)
        return len(self.notes)

    def add(self, case, measured, target="", status="", load=None, note=None):
        label = case + (f" [{note}]" if note else "")
        ol = "?" if load is None else (f"{load:.2f} CPU"
                                       + (" BUSY" if load > _util.BUSY_CPUS else ""))
        self.rows.append([label, measured, target, status, ol])

    def fail(self, case, e, note=None, load=None):
        self.errors += 1
        self.add(case, "error", "", "ERROR", load, note)
        self.extra.append(f"ERROR in '{case}': {type(e).__name__}: {e}")

    @staticmethod
    def status(*checks):
        return "ok" if all(checks) else "MISS"

    # ---------------------------------------------------------------- 1. first calls
    def first_call(self, name):
        d = new_cache_dir()
        try:
            _, out = run_process([sys.executable, "-c", FIRST_CALL_CODE, os.path.abspath(__file__),
                                  name], case_env(d), self.args.timeout)
            return last_json(out)
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def bench_first_calls(self):
        case = "first call of each public function"
        names, _ = public_names(self.ua, self.np)
        table = make_cases(self.ua, self.np)
        unknown = [n for n in names if n not in table]
        stale = sorted(set(table) - set(names))
        if unknown:
            self.extra.append(f"WARNING: {len(unknown)} public function(s) have no entry in the "
                              f"table and were skipped: {', '.join(unknown)}")
        if stale:
            self.extra.append(f"WARNING: table entries that are no public callable of usmarray "
                              f"(skipped): {', '.join(stale)}")
        todo = [n for n in names if n in table]
        if self.args.only:
            todo = [n for n in todo if n in self.args.only]
        note = self.footnote(
            "One fresh process per function, each with its own empty USMARRAY_CACHE_DIR. "
            "Untimed: interpreter start, imports, inputs built by ua.asarray of NumPy arrays "
            "(host copies, no kernel), ua.synchronize(). Timed (perf_counter): one small call "
            "(mostly 1000 float32 elements; `--list` shows them) and ua.synchronize(), i.e. "
            "compiling the bundles the call needs, writing them to the cache, launching. "
            f"{self.args.jobs} process(es) at a time"
            + ("" if self.args.jobs == 1 else " (parallel compiles slow each other: not "
               "comparable with the targets)") + ". Percentiles interpolate linearly.")
        times, bundles, failed = {}, {}, {}
        load = _util.OtherLoad()

        def one(name):
            try:
                return name, self.first_call(name), None
            except Exception as e:
                return name, None, e

        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            for name, r, e in pool.map(one, todo):
                done += 1
                if e is not None:
                    failed[name] = e
                    log(f"  [{done}/{len(todo)}] {name}: {type(e).__name__}")
                    continue
                times[name] = r["s"]
                bundles[name] = r["bundles"]
                if r["input_bundles"]:
                    self.extra.append(f"WARNING: building the inputs of '{name}' used "
                                      f"{r['input_bundles']} kernel bundle(s); they were not timed")
                nb = "?" if r["bundles"] is None else len(r["bundles"])
                log(f"  [{done}/{len(todo)}] {name}: {_util.fmt_time(r['s'])} ({nb} bundles)")
        cpus = load.cpus()
        for name, e in failed.items():
            self.errors += 1
            self.extra.append(f"ERROR in first call of '{name}': {type(e).__name__}: {e}")
        if not times:
            self.fail(case, RuntimeError("no function was timed"), note, cpus)
            return
        v = list(times.values())
        med, p90 = statistics.median(v), percentile(v, 90)
        worst = max(times, key=times.get)
        slow = sorted(times, key=times.get, reverse=True)[:5]
        f = _util.fmt_time
        measured = (f"{len(v)} timed"
                    + (" (subset: --only)" if self.args.only else "")
                    + (f", {len(unknown)} skipped" if unknown else "")
                    + (f", {len(failed)} failed" if failed else "")
                    + f"; median {f(med)}, p90 {f(p90)}, worst {f(times[worst])} ({worst}); "
                    "slowest: " + ", ".join(f"{n} {f(times[n])}" for n in slow))
        target = f"{TARGETS['median'][0]}, {TARGETS['worst'][0]}"
        status = self.status(TARGETS["median"][1](med), TARGETS["worst"][1](times[worst]))
        if failed:
            status += f" ({len(failed)} ERROR)"
        self.add(case, measured, target, status, cpus, note)

        def desc(n):
            b = bundles[n]
            if b is None:
                return f"{n} {f(times[n])}"
            keys = ", ".join(f"{k} {how} {f(s)}" for k, s, how in b) or "no bundle"
            return f"{n} {f(times[n])}: {keys}"

        self.extra.append("slowest first calls and their bundles: " + "; ".join(map(desc, slow)))
        no_kernel = sorted(n for n in times if bundles[n] == [])
        if no_kernel:
            self.extra.append(f"{len(no_kernel)} function(s) needed no kernel bundle: "
                              + ", ".join(no_kernel))

    # ---------------------------------------------------------------- 2. usmarray
    def bench_main_job(self):
        case = "usmarray main job"
        note = self.footnote(
            "The `usmarray` console script next to sys.executable (device list, versions, "
            "cache, a check computation against NumPy), empty USMARRAY_CACHE_DIR: wall time "
            "of the whole process, from start to exit.")
        d = new_cache_dir()
        load = _util.OtherLoad()
        try:
            wall, out = run_process([console_script()], case_env(d), self.args.timeout)
        except Exception as e:
            self.fail(case, e, note, load.cpus())
            return
        finally:
            shutil.rmtree(d, ignore_errors=True)
        compiled = len(re.findall(r"kernel bundle\s+\S+\s+compiled", out))
        t = TARGETS["main"]
        self.add(case, f"{_util.fmt_time(wall)} ({compiled} bundles compiled)", t[0],
                 self.status(t[1](wall)), load.cpus(), note)

    # ---------------------------------------------------------------- 3. four lines
    def four_lines(self, env):
        wall, out = run_process([sys.executable, "-c", FOUR_LINE_CODE], env, self.args.timeout)
        r = last_json(out)
        return wall, r["s"], r["how"]

    @staticmethod
    def how_text(how):
        if how is None:
            return "bundles unknown"
        counts = {}
        for h in how:
            counts[h] = counts.get(h, 0) + 1
        return ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no bundle"

    def bench_script(self):
        case = "four-line script"
        note = self.footnote(
            "A fresh `python -c` process running `" + "; ".join(FOUR_LINES.splitlines())
            + "`, empty USMARRAY_CACHE_DIR: wall time of the whole process (interpreter start, "
            "import, compiles, exit); 'after import': perf_counter in the child around the "
            "three lines after the import.")
        d = new_cache_dir()
        load = _util.OtherLoad()
        try:
            wall, lines, how = self.four_lines(case_env(d))
        except Exception as e:
            self.fail(case, e, note, load.cpus())
            return
        finally:
            shutil.rmtree(d, ignore_errors=True)
        t = TARGETS["script"]
        self.add(case, f"{_util.fmt_time(wall)} (after import {_util.fmt_time(lines)}; "
                       f"{self.how_text(how)})",
                 t[0], self.status(t[1](wall)), load.cpus(), note)

    def bench_second_process(self):
        case = "four-line script, second process, native binary reload off"
        note = self.footnote(
            "The four-line script twice in a row on ONE new cache directory, both processes "
            "with USMARRAY_BINARY_CACHE=0 (usmarray does not reload device binaries itself) "
            "and SYCL_CACHE_PERSISTENT=1, SYCL_CACHE_DIR=<that directory>/sycl (the SYCL "
            "runtime keeps and reloads them): first and second process, wall time of the "
            "whole process (after import: the three lines); saving = first - second. "
            "Report only.")
        d = new_cache_dir()
        load = _util.OtherLoad()
        try:
            env = case_env(d, sycl_persistent=True, USMARRAY_BINARY_CACHE=0)
            w1, l1, h1 = self.four_lines(env)
            sycl_bytes = dir_bytes(env["SYCL_CACHE_DIR"])
            w2, l2, h2 = self.four_lines(env)
        except Exception as e:
            self.fail(case, e, note, load.cpus())
            return
        finally:
            shutil.rmtree(d, ignore_errors=True)
        f = _util.fmt_time
        self.add(case, f"first {f(w1)} (after import {f(l1)}), second {f(w2)} (after import "
                       f"{f(l2)}); saving {f(w1 - w2)} ({f(l1 - l2)} after import)",
                 "report only", "", load.cpus(), note)
        self.extra.append(f"second-process row: first process {self.how_text(h1)}, second "
                          f"{self.how_text(h2)}; SYCL cache after the first: "
                          f"{sycl_bytes / 1e6:.1f} MB")
        if h2 and "disk" in h2:
            self.extra.append("WARNING: with USMARRAY_BINARY_CACHE=0 the second process still "
                              "loaded bundles from usmarray's own cache ('disk'): this build "
                              "does not honour the switch, so the row does not measure the SYCL "
                              "runtime's cache")
        if sycl_bytes == 0:
            self.extra.append("WARNING: the SYCL persistent cache stayed empty after the first "
                              "process: the second process could not reload from it")

    # ---------------------------------------------------------------- 5. warmup
    def bench_warmup(self):
        case = "usmarray warmup"
        note = self.footnote(
            "`usmarray warmup --quiet` (every kernel bundle of the default device, the "
            "command's default number of parallel compiles), empty USMARRAY_CACHE_DIR: wall "
            "time of the whole process.")
        d = new_cache_dir()
        load = _util.OtherLoad()
        try:
            wall, out = run_process([console_script(), "warmup", "--quiet"], case_env(d),
                                    max(self.args.timeout, 3600))
        except Exception as e:
            self.fail(case, e, note, load.cpus())
            return
        finally:
            shutil.rmtree(d, ignore_errors=True)
        m = re.search(r"^(\d+) bundles in .*$", out, re.M)
        t = TARGETS["warmup"]
        self.add(case, _util.fmt_time(wall) + (f" ({m.group(0)})" if m else ""), t[0],
                 self.status(t[1](wall)), load.cpus(), note)

    # ---------------------------------------------------------------- main
    def prime(self):
        """One untimed four-line run on a throw-away cache: the first process
        after a while reads the runtime's and compiler's libraries from disk,
        which would land on whichever case came first."""
        d = new_cache_dir()
        try:
            self.four_lines(case_env(d))
        except Exception as e:
            self.extra.append(f"WARNING: the untimed priming run failed: {type(e).__name__}: {e}")
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def run(self):
        steps = {"first": self.bench_first_calls, "main": self.bench_main_job,
                 "script": self.bench_script, "second": self.bench_second_process,
                 "warmup": self.bench_warmup}
        log("[priming the OS file cache]")
        self.prime()
        for name in ROWS:
            if name not in self.args.rows or (name == "warmup" and self.args.no_warmup):
                continue
            log(f"[{name}]")
            t0 = time.perf_counter()
            steps[name]()
            log(f"  done in {time.perf_counter() - t0:.1f} s")

    def render(self):
        head = ["case", "measured", "target", "status", "other load"]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
        for r in self.rows:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
        lines.append("")
        for i, n in enumerate(self.notes, 1):
            lines.append(f"[{i}] {n}")
        return "\n".join(lines)


# ------------------------------------------------------------------ header
def cpu_model():
    model, n = None, 0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model is None:
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("processor"):
                    n += 1
    except OSError:
        pass
    return model or platform.processor() or platform.machine(), n or os.cpu_count()


def header_lines(ua):
    from importlib import metadata

    def ver(pkg):
        try:
            return metadata.version(pkg)
        except Exception:
            return "not installed"

    model, n = cpu_model()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = n
    try:
        dev = ua.__array_namespace_info__().default_device()
        sd = dev.sycl_device
        device = f"{dev} = {sd.name} (driver {sd.driver_version}, {sd.max_compute_units} compute units)"
    except Exception as e:
        device = f"unknown ({type(e).__name__}: {e})"
    return [
        f"date:     {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"machine:  {model}, {n} logical CPUs ({usable} usable), Python {platform.python_version()}",
        f"versions: usmarray {ver('usmarray')}, dpctl {ver('dpctl')}, "
        f"intel-sycl-rt {ver('intel-sycl-rt')}, intel-opencl-rt {ver('intel-opencl-rt')}",
        f"device:   {device}",
        f"load:     {_util.load_text()}",
    ]


# ------------------------------------------------------------------ --list, --check
def cmd_list(ua, np):
    names, excluded = public_names(ua, np)
    table = make_cases(ua, np)
    print(f"{len(table)} table entries:")
    print(", ".join(sorted(table)))
    unknown = [n for n in names if n not in table]
    print(f"\npublic callables without an entry ({len(unknown)}): {', '.join(unknown) or 'none'}")
    stale = sorted(set(table) - set(names))
    print(f"entries that are no public callable ({len(stale)}): {', '.join(stale) or 'none'}")
    by_reason = {}
    for n, why in excluded.items():
        by_reason.setdefault(why, []).append(n)
    print("\nexcluded public names:")
    for why, ns in sorted(by_reason.items()):
        print(f"  {why} ({len(ns)}): {', '.join(ns)}")
    return 0


def cmd_check(ua, np, only):
    """Every table entry once, in this process, with the normal cache."""
    try:
        from usmarray._core._kernels import compile_log
    except ImportError:
        compile_log = None
    names, _ = public_names(ua, np)
    table = make_cases(ua, np)
    if compile_log is not None and compile_log:
        print(f"WARNING: building the inputs used {len(compile_log)} kernel bundle(s)")
    todo = sorted(n for n in table if not only or n in only)
    bad = []
    t_start = time.perf_counter()
    for i, name in enumerate(todo, 1):
        t0 = time.perf_counter()
        try:
            table[name]()
            ua.synchronize()
        except Exception as e:
            bad.append((name, e))
            log(f"  [{i}/{len(todo)}] {name}: {type(e).__name__}: {e}")
            continue
        log(f"  [{i}/{len(todo)}] {name}: {_util.fmt_time(time.perf_counter() - t0)}")
    unknown = [n for n in names if n not in table]
    stale = sorted(set(table) - set(names))
    print(f"check: {len(todo)} entries in {time.perf_counter() - t_start:.0f} s, "
          f"{len(bad)} raised")
    for name, e in bad:
        print(f"  {name}: {type(e).__name__}: {e}")
    if unknown:
        print(f"public callables without an entry: {', '.join(unknown)}")
    if stale:
        print(f"entries that are no public callable: {', '.join(stale)}")
    return 1 if bad else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", type=lambda s: [n for n in s.split(",") if n], default=None,
                   help="comma-separated function names: time only these in the first-call row")
    p.add_argument("--jobs", type=int, default=1,
                   help="first-call processes run at once (default 1: parallel compiles "
                        "distort the times)")
    p.add_argument("--rows", type=lambda s: s.split(","), default=list(ROWS),
                   help=f"comma-separated rows to run (default all): {','.join(ROWS)}")
    p.add_argument("--no-warmup", action="store_true",
                   help="skip the `usmarray warmup` row (it takes minutes)")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds before a child process is abandoned (default 600)")
    p.add_argument("--list", action="store_true",
                   help="print the function table's names and the excluded public names")
    p.add_argument("--check", action="store_true",
                   help="run every table entry once in this process with the normal cache "
                        "and list the entries that raise")
    args = p.parse_args(argv)
    bad_rows = set(args.rows) - set(ROWS)
    if bad_rows:
        p.error(f"unknown rows: {', '.join(sorted(bad_rows))} (choose from {', '.join(ROWS)})")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")

    # Imported here, not at the top: the children load this file for its
    # table and import usmarray themselves, and the environment they get is
    # the copy taken before this import (_SHELL_ENV).
    import numpy as np
    import usmarray as ua

    if args.only:
        unknown = [n for n in args.only if n not in make_cases(ua, np)]
        if unknown:
            p.error(f"not in the function table: {', '.join(unknown)} (see --list)")
    if args.list:
        return cmd_list(ua, np)
    if args.check:
        return cmd_check(ua, np, args.only)

    t_start = time.perf_counter()
    head = header_lines(ua)
    print("usmarray cold-start benchmark (empty kernel cache per case)")
    print()
    for line in head:
        print(f"    {line}")
    print()
    sys.stdout.flush()
    bench = Bench(args, ua, np)
    bench.run()
    print(bench.render())
    print()
    print("status: the row's target met (ok) or not (MISS). other load: average CPUs used by "
          "other processes while the row was measured (from /proc/stat); BUSY above "
          f"{_util.BUSY_CPUS} CPU: the row shared the cores, run again on an idle machine.")
    for line in bench.extra:
        print()
        print(line)
    print()
    print(f"total benchmark time: {time.perf_counter() - t_start:.0f} s; at the end: "
          f"{_util.load_text()}")
    return 1 if bench.errors else 0


if __name__ == "__main__":
    sys.exit(main())
