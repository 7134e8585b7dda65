"""Foundation benchmarks of usmarray against NumPy (and dpnp.tensor when importable).

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_foundation.py

Rows:

1. ``import usmarray`` time in a fresh process;
2. time to the first result of a copy kernel in a fresh process, with an
   empty kernel cache (cold) and with the cache that run left (warm), for a
   same-dtype strided copy and for a cast;
3. per-call overhead of copying a 1-element array, of ``x + y`` and of ``x[i]``;
4. bandwidth of 400 MB device-to-device copies, contiguous and strided;
5. host-to-device and device-to-host bandwidth.

Prints one table; see the footnotes for how each row is timed. The whole run
takes a few minutes on a 2-core machine (``--quick`` for a smoke test).
"""

import argparse
import math
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import REPS, Row, Stat, Table, time_calls, time_reps  # noqa: E402

import usmarray as ua  # noqa: E402

IMPORT_CODE = ("import time; t=time.perf_counter(); import {mod}; "
               "print(time.perf_counter()-t)")

# Time to the first result of one copy in a fresh process. The input is
# created (and the device initialised) before the timed region, through a
# host transfer that needs no kernel; the result is read back to the host.
FIRST_RESULT_CODE = r"""
import json, sys, time
import numpy as np
lib, kind, dev = sys.argv[1], sys.argv[2], sys.argv[3]
if lib == "ua":
    import usmarray as xp
    from usmarray import asnumpy
    def put(h): return xp.asarray(h)
    def sync(): xp.synchronize()
else:
    import dpnp.tensor as xp
    asnumpy = xp.asnumpy
    def put(h): return xp.asarray(h, device=dev)
    def sync(): pass
h = np.arange(100_000, dtype=np.int32)
x = put(h)
sync()
t0 = time.perf_counter()
if kind == "move":
    r = asnumpy(xp.copy(x[::2]))
else:
    r = asnumpy(xp.astype(x[::2], xp.float32))
t_lib = time.perf_counter() - t0
t0 = time.perf_counter()
e = h[::2].copy() if kind == "move" else h[::2].astype(np.float32)
t_np = time.perf_counter() - t0
assert np.array_equal(r, e), "wrong result"
log = []
if lib == "ua":
    from usmarray._core._kernels import compile_log
    log = compile_log
print(json.dumps({"lib": t_lib, "np": t_np, "log": log}))
"""


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


class Bench:
    def __init__(self, args):
        self.args = args
        self.reps = args.reps
        self.dpt, reason = _util.import_dpt()
        self.dpt_reason = reason
        self.queue = ua.get_default_queue()
        self.device = self.queue.sycl_device
        try:
            self.filter = self.device.filter_string
        except Exception:
            self.filter = None
        self.table = Table(with_dpt=self.dpt is not None)
        self.errors = 0
        self.extra = []     # lines printed under the table

    # ---------------------------------------------------------------- helpers
    def row(self, label, measure, note=None, target=None, ratio_target=None):
        """Run `measure()` -> (ua Stat, np Stat, dpt Stat|str|None); add the row."""
        log(f"  {label} ...")
        t0 = time.perf_counter()
        load = _util.OtherLoad()
        try:
            u, n, d = measure()
            r = Row(label, u, n, d, target=target, ratio_target=ratio_target, note=note)
            r.other_load = load.cpus()
        except Exception as e:
            self.errors += 1
            traceback.print_exc()
            r = Row(label, note=note, error=f"{type(e).__name__}: {e}")
            self.extra.append(f"ERROR in '{label}': {type(e).__name__}: {e}")
        log(f"    done in {time.perf_counter() - t0:.1f} s")
        return self.table.add(r)

    def dpt_try(self, fn):
        """dpnp.tensor measurement, or None when dpnp is absent, or an error text."""
        if self.dpt is None:
            return None
        try:
            return fn()
        except Exception as e:
            self.extra.append(f"dpnp.tensor measurement failed: {type(e).__name__}: {e}")
            return "error"

    def dpt_put(self, h):
        dpt = self.dpt
        return dpt.asarray(h, device=self.filter) if self.filter else dpt.asarray(h)

    # ---------------------------------------------------------------- 1. import
    def bench_import(self):
        t = self.table
        t.section("import")
        reps = max(self.reps, 7)

        def fresh(mod):
            code = IMPORT_CODE.format(mod=mod)
            run = lambda: _util.run_python(code)  # noqa: E731
            run()   # untimed: warms the OS file cache like any second start
            return Stat([float(run()) for _ in range(reps)])

        note = t.footnote(
            f"Fresh `python -c` process per sample ({reps} samples after one untimed run): "
            "time.perf_counter() around the import statement only (interpreter start-up excluded). "
            "NumPy column: `import numpy` the same way; usmarray's import includes numpy's and "
            "dpctl's. Ratio = usmarray/NumPy time.")
        self.row("import usmarray", lambda: (fresh("usmarray"), fresh("numpy"),
                                             self.dpt_try(lambda: fresh("dpnp.tensor"))),
                 note=note, target=("<= 0.5 s", lambda s: s.median <= 0.5))

    # ---------------------------------------------------------------- 2. first result
    def bench_first_result(self):
        t = self.table
        t.section("time to first result of a copy kernel (fresh process)")
        reps = self.reps
        dev = self.filter or ""
        note = t.footnote(
            "Fresh process per sample. Before the timed region: imports, a 100000-element int32 "
            "array x copied from the host (device initialised, no kernel compiled). Timed: "
            "`asnumpy(copy(x[::2]))` (same-dtype strided move) or `asnumpy(astype(x[::2], "
            "float32))` (cast), i.e. kernel lookup + compile or disk-cache load + launch + "
            "read-back. Cold: USMARRAY_CACHE_DIR set to a new empty directory for every sample "
            "(usmarray does not use the SYCL runtime's persistent cache); warm: a later process "
            "with a directory a cold run filled. NumPy column: the "
            "same operation on the host array, first call in the same fresh process.")
        made = []

        def samples(lib, kind, base_env):
            cold, warm, np_cold, logs = [], [], [], []
            dirs = []
            for _ in range(reps):
                d = tempfile.mkdtemp(prefix="usmarray-bench-cache-")
                made.append(d)
                dirs.append(d)
                env = base_env(d)
                r = _util.run_python(FIRST_RESULT_CODE, (lib, kind, dev), env=env)
                cold.append(r["lib"])
                np_cold.append(r["np"])
                logs.append(r["log"])
            for i in range(reps):
                r = _util.run_python(FIRST_RESULT_CODE, (lib, kind, dev), env=base_env(dirs[i]))
                warm.append(r["lib"])
                logs.append(r["log"])
            return Stat(cold), Stat(warm), Stat(np_cold), logs

        def ua_env(d):
            return _util.subprocess_env(USMARRAY_CACHE_DIR=d, USMARRAY_DISK_CACHE=None,
                                        SYCL_CACHE_PERSISTENT=None, SYCL_CACHE_DIR=None)

        def dpt_env(d):
            return _util.subprocess_env(SYCL_CACHE_PERSISTENT=1, SYCL_CACHE_DIR=d)

        try:
            for kind, what in (("move", "same-dtype strided copy(x[::2]), int32"),
                               ("cast", "cast astype(x[::2], float32), int32->float32")):
                res = {}

                def measure_cold():
                    res["ua"] = samples("ua", kind, ua_env)
                    res["dpt"] = self.dpt_try(lambda: samples("dpt", kind, dpt_env))
                    d = res["dpt"]
                    return res["ua"][0], res["ua"][2], (d[0] if isinstance(d, tuple) else d)

                def measure_warm():
                    if "ua" not in res:
                        raise RuntimeError("the cold measurement failed")
                    d = res["dpt"]
                    return res["ua"][1], res["ua"][2], (d[1] if isinstance(d, tuple) else d)

                self.row(f"{what}: cold cache", measure_cold, note=note)
                self.row(f"{what}: warm cache", measure_warm, note=note)
                if "ua" in res:
                    kinds = {}
                    for lg in res["ua"][3]:
                        for key, sec, how in lg:
                            kinds.setdefault((key, how), []).append(sec)
                    desc = ", ".join(f"{key} {how} (median {_util.fmt_time(_median(v))})"
                                     for (key, how), v in sorted(kinds.items()))
                    self.extra.append(f"kernel bundles behind '{kind}' first results: {desc}")
        finally:
            for d in made:
                shutil.rmtree(d, ignore_errors=True)

    # ---------------------------------------------------------------- 3. per-call overhead
    def bench_overhead(self):
        t = self.table
        t.section("per-call overhead, 1-element arrays")
        n_async = self.args.calls
        n_sync = max(n_async // 4, 1000)
        h = np.ones(1, dtype=np.float32)
        hi = np.ones(1, dtype=np.int32)
        x = ua.asarray(h)
        xi = ua.asarray(hi)
        sync = ua.synchronize
        np_copy = lambda: time_calls(lambda: np.copy(h), n_async, self.reps)  # noqa: E731
        np_ref = {}

        def npc():
            if "s" not in np_ref:
                np_ref["s"] = np_copy()
            return np_ref["s"]

        def dpt_calls(fn_of, n, per_call_sync):
            dpt = self.dpt
            xd = self.dpt_put(h)
            q = xd.sycl_queue
            f = fn_of(dpt, xd, q)
            if per_call_sync:
                return time_calls(f, n, self.reps)
            return time_calls(f, n, self.reps, finish=q.wait)

        note_a = t.footnote(
            f"{n_async} calls in a loop, then one ua.synchronize(), all inside the timed region; "
            f"per-call time = total / {n_async}; median of {self.reps} loops after 1000 untimed "
            "calls. The result of each call is dropped (its block returns to usmarray's pool). "
            "NumPy column: np.copy of a 1-element host array, same loop (no sync needed).")
        note_s = t.footnote(
            f"{n_sync} calls, each followed by a wait for the device: ua.synchronize() (queue "
            "wait) or ua.asnumpy(result) (read-back into a new NumPy array); per-call time = "
            f"total / {n_sync}; NumPy column as [{note_a}].")
        note_k = t.footnote(
            "As [%d] with ua.astype(x, float32) of a 1-element int32 array: the engine launches "
            "a cast kernel (cast_contig) instead of a memcpy. NumPy column: x.astype(np.float32) "
            "on the host." % note_a)

        self.row("ua.copy(x), async, 1 sync per loop", lambda: (
            time_calls(lambda: ua.copy(x), n_async, self.reps, finish=sync), npc(),
            self.dpt_try(lambda: dpt_calls(lambda dpt, xd, q: (lambda: dpt.copy(xd)),
                                           n_async, False))),
            note=note_a, target=("<= 20 µs", lambda s: s.median <= 20e-6))

        def copy_sync():
            ua.copy(x)
            sync()

        def copy_readback():
            ua.asnumpy(ua.copy(x))

        self.row("ua.copy(x) + synchronize() per call", lambda: (
            time_calls(copy_sync, n_sync, self.reps), npc(),
            self.dpt_try(lambda: dpt_calls(
                lambda dpt, xd, q: (lambda: (dpt.copy(xd), q.wait())), n_sync, True))),
            note=note_s)
        self.row("ua.copy(x) + asnumpy read-back per call", lambda: (
            time_calls(copy_readback, n_sync, self.reps), npc(),
            self.dpt_try(lambda: dpt_calls(
                lambda dpt, xd, q: (lambda: dpt.asnumpy(dpt.copy(xd))), n_sync, True))),
            note=note_s)
        self.row("ua.astype(x_int32, float32), async (kernel)", lambda: (
            time_calls(lambda: ua.astype(xi, ua.float32), n_async, self.reps, finish=sync),
            time_calls(lambda: hi.astype(np.float32), n_async, self.reps),
            self.dpt_try(lambda: dpt_calls(
                lambda dpt, xd, q: (lambda xdi=dpt.astype(xd, dpt.int32): dpt.astype(xdi, dpt.float32)),
                n_async, False))),
            note=note_k)
        note_e = t.footnote(
            "As [%d]: x + y of two 1-element float32 arrays (an elementwise kernel), and x[5] "
            "of a 1000-element float32 array (a 0-d copy of the item, as NumPy's x[5] is a "
            "scalar; docs/numpy.md, \"Integer indexing gives values\"). NumPy column: the same "
            "on host arrays." % note_a)
        hl = np.arange(1000, dtype=np.float32)
        xl = ua.asarray(hl)
        self.row("x + y, async (kernel)", lambda: (
            time_calls(lambda: x + x, n_async, self.reps, finish=sync),
            time_calls(lambda: h + h, n_async, self.reps),
            self.dpt_try(lambda: dpt_calls(lambda dpt, xd, q: (lambda: xd + xd), n_async, False))),
            note=note_e, target=("<= 4 µs", lambda s: s.median <= 4e-6))
        self.row("x[i] of a 1-D array", lambda: (
            time_calls(lambda: xl[5], n_async, self.reps, finish=sync),
            time_calls(lambda: hl[5], n_async, self.reps),
            self.dpt_try(lambda: dpt_calls(
                lambda dpt, xd, q: (lambda xdl=dpt.arange(1000, dtype=dpt.float32): xdl[5]),
                n_async, False))),
            note=note_e)
        del x, xi, xl
        _util.clean_up(ua)

    # ---------------------------------------------------------------- 4. device copies
    def bench_device_copies(self):
        t = self.table
        mb = self.args.mb
        n = int(mb * 1e6) // 4
        side = int(math.isqrt(n))
        t.section(f"device-to-device copy bandwidth, {mb:g} MB of float32 output (read + write)")
        note = t.footnote(
            "usmarray: `y = ua.copy(view, order='C')` then ua.synchronize() inside the timed "
            "region (allocation of y included; after the untimed warm-up repetition it is served "
            "by usmarray's pool, so no page faults). NumPy: np.copyto(dst, view) into a "
            "preallocated C-contiguous host array. GB/s = 2 x output bytes (each output element "
            "read once and written once; bytes of skipped source elements not counted) / median "
            "time. Ratio = usmarray/NumPy GB/s. Every usmarray result is checked against NumPy "
            "once, untimed.")
        ratio_target = (">= 0.7x NumPy", lambda r: r >= 0.7)
        sync = ua.synchronize
        bytes_moved = 2 * 4 * n

        def case(ua_view, np_view, dst_np, dpt_view=None, bytes_=None):
            bytes_ = bytes_ or bytes_moved
            # correctness once (untimed); this also compiles/loads the kernel
            got = ua.asnumpy(ua.copy(ua_view, order="C"))
            np.copyto(dst_np, np_view)
            if not np.array_equal(got, dst_np):
                raise AssertionError("usmarray copy differs from NumPy")
            del got

            def f():
                ua.copy(ua_view, order="C")
                sync()

            u = time_reps(f, self.reps).to_bandwidth(bytes_)
            nn = time_reps(lambda: np.copyto(dst_np, np_view), self.reps).to_bandwidth(bytes_)
            d = None
            if dpt_view is not None:
                d = self.dpt_try(lambda: self._dpt_copy_bw(dpt_view(), bytes_))
            return u, nn, d

        # 1-D source: contiguous, reversed; then the same memory as (side, side): transpose.
        log("  allocating 1-D source ...")
        h = np.arange(n, dtype=np.float32)
        dst = np.empty(n, dtype=np.float32)
        dst[...] = 0
        x = ua.asarray(h)
        xd = self.dpt_try(lambda: self.dpt_put(h)) if self.dpt is not None else None
        has_dpt = xd is not None and not isinstance(xd, str)
        self.row(f"contiguous ua.copy(x), x: ({n},)",
                 lambda: case(x, h, dst, (lambda: xd) if has_dpt else None),
                 note=note, ratio_target=ratio_target)
        self.row(f"reversed ua.copy(x[::-1]), x: ({n},)",
                 lambda: case(x[::-1], h[::-1], dst, (lambda: xd[::-1]) if has_dpt else None),
                 note=note, ratio_target=ratio_target)
        # the first side * side elements as a square matrix (all of them at the default size)
        m = side * side
        h2 = h[:m].reshape(side, side)
        x2 = ua.reshape(x[:m], (side, side))
        d2 = dst[:m].reshape(side, side)
        self.row(f"transpose ua.copy(x.T, order='C'), x: ({side}, {side})",
                 lambda: case(x2.T, h2.T, d2,
                              (lambda: self.dpt.reshape(xd[:m], (side, side)).T) if has_dpt else None,
                              2 * 4 * m),
                 note=note, ratio_target=ratio_target)
        del h2, x2, d2
        del x, xd, h
        _util.clean_up(ua)

        # (side, 2 * side) source, every second column: output (side, side).
        log("  allocating 2-D source ...")
        h = np.arange(side * 2 * side, dtype=np.float32).reshape(side, 2 * side)
        x = ua.asarray(h)
        xd = self.dpt_try(lambda: self.dpt_put(h)) if self.dpt is not None else None
        has_dpt = xd is not None and not isinstance(xd, str)
        d2 = dst[:side * side].reshape(side, side)
        self.row(f"strided ua.copy(x[:, ::2]), x: ({side}, {2 * side})",
                 lambda: case(x[:, ::2], h[:, ::2], d2,
                              (lambda: xd[:, ::2]) if has_dpt else None, 2 * 4 * side * side),
                 note=note, ratio_target=ratio_target)
        del x, xd, h, d2, dst
        _util.clean_up(ua)

    def _dpt_copy_bw(self, view, nbytes):
        dpt = self.dpt
        q = view.sycl_queue

        def f():
            dpt.copy(view, order="C")
            q.wait()

        return time_reps(f, self.reps).to_bandwidth(nbytes)

    # ---------------------------------------------------------------- 5. host transfers
    def bench_transfers(self):
        t = self.table
        mb = self.args.mb
        n = int(mb * 1e6) // 4
        t.section(f"host <-> device transfer bandwidth, {mb:g} MB float32 (read + write)")
        nbytes = 2 * 4 * n
        note = t.footnote(
            "host->device: `y = ua.asarray(h)` (allocates y, served by the pool after the "
            "warm-up repetition; the engine waits for the memcpy) then ua.synchronize(). "
            "device->host: `ua.asnumpy(x)` (allocates a new NumPy array every time, so its "
            "first-touch page faults are included; the engine waits for the memcpy). NumPy "
            "column: np.copyto(dst, h) host-to-host into a preallocated array. GB/s = 2 x "
            "array bytes / median time.")
        h = np.arange(n, dtype=np.float32)
        dst = np.empty_like(h)
        dst[...] = 0
        np_ref = {}

        def np_bw():
            if "s" not in np_ref:
                np_ref["s"] = time_reps(lambda: np.copyto(dst, h), self.reps).to_bandwidth(nbytes)
            return np_ref["s"]

        def h2d():
            y = ua.asarray(h)
            if not np.array_equal(ua.asnumpy(y[-1000:]), h[-1000:]):
                raise AssertionError("host->device copy differs")
            del y

            def f():
                ua.asarray(h)
                ua.synchronize()

            u = time_reps(f, self.reps).to_bandwidth(nbytes)
            d = self.dpt_try(lambda: self._dpt_bw(lambda: self.dpt_put(h), nbytes))
            return u, np_bw(), d

        x = ua.asarray(h)

        def d2h():
            if not np.array_equal(ua.asnumpy(x), h):
                raise AssertionError("device->host copy differs")
            u = time_reps(lambda: ua.asnumpy(x), self.reps).to_bandwidth(nbytes)

            def dd():
                xd = self.dpt_put(h)
                return self._dpt_bw(lambda: self.dpt.asnumpy(xd), nbytes)

            return u, np_bw(), self.dpt_try(dd)

        self.row("host->device ua.asarray(h)", h2d, note=note)
        self.row("device->host ua.asnumpy(x)", d2h, note=note)
        # For reading the device->host row: NumPy's own allocating copy.
        s = time_reps(lambda: np.array(h), self.reps).to_bandwidth(nbytes)
        self.extra.append(f"reference: NumPy allocating host copy np.array(h) of {mb:g} MB ran at "
                          f"{s.fmt()} (new pages every time, like ua.asnumpy)")
        del x, h, dst
        _util.clean_up(ua)

    def _dpt_bw(self, fn, nbytes):
        def f():
            r = fn()
            q = getattr(r, "sycl_queue", None)
            if q is not None:
                q.wait()

        return time_reps(f, self.reps).to_bandwidth(nbytes)

    # ---------------------------------------------------------------- main
    def run(self):
        sections = self.args.only
        steps = [("import", self.bench_import), ("first", self.bench_first_result),
                 ("overhead", self.bench_overhead), ("bandwidth", self.bench_device_copies),
                 ("transfer", self.bench_transfers)]
        for name, fn in steps:
            if sections and name not in sections:
                continue
            log(f"[{name}]")
            try:
                fn()
            except Exception as e:   # a section that failed outside its rows
                self.errors += 1
                traceback.print_exc()
                self.extra.append(f"ERROR in section {name}: {type(e).__name__}: {e}")


def _median(v):
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=REPS,
                   help=f"repetitions per measurement (median reported; default {REPS})")
    p.add_argument("--mb", type=float, default=400,
                   help="output size in MB of the bandwidth rows (default 400)")
    p.add_argument("--calls", type=int, default=20000,
                   help="calls per loop of the overhead rows (default 20000)")
    p.add_argument("--only", type=lambda s: s.split(","), default=None,
                   help="comma-separated sections: import,first,overhead,bandwidth,transfer")
    p.add_argument("--quick", action="store_true",
                   help="smoke test: 3 repetitions, 40 MB, 2000 calls (not for reporting)")
    args = p.parse_args(argv)
    if args.quick:
        args.reps, args.mb, args.calls = 3, 40, 2000
    elif args.reps < 7:
        log("warning: fewer than 7 repetitions; the medians are not for reporting")

    t_start = time.perf_counter()
    bench = Bench(args)
    head = _util.header(ua, np, bench.dpt, bench.dpt_reason)
    print("usmarray foundation benchmark")
    print("\n".join(head))
    sys.stdout.flush()
    bench.run()
    print()
    print(bench.table.render())
    print("ratio ua/np = usmarray's median / NumPy's median in the row's unit: for times above 1 "
          "means usmarray is slower, for GB/s below 1 means usmarray is slower. status: the row's "
          "target met (ok) or not (MISS). other load: average CPUs used by other processes while "
          f"the row was measured (from /proc/stat); BUSY above {_util.BUSY_CPUS} CPU: the row "
          "shared the cores and its numbers are not reliable, run again on an idle machine.")
    busy = [r.label for r in bench.table.rows
            if not isinstance(r, str) and r.other_load is not None and r.other_load > _util.BUSY_CPUS]
    if busy:
        print(f"WARNING: {len(busy)} row(s) measured while other processes were using the CPUs: "
              + "; ".join(busy))
    for line in bench.extra:
        print(line)
    print(f"total benchmark time: {time.perf_counter() - t_start:.0f} s; at the end: "
          f"{_util.load_text()}")
    return 1 if bench.errors else 0


if __name__ == "__main__":
    sys.exit(main())
