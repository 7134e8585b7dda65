"""Linear algebra benchmarks: usmarray (matmul, usmarray.linalg) against
NumPy (and dpnp.linalg when importable) on the same device.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_linalg.py

Rows (issue 10; warm, median of repetitions): matmul float32 and float64
1024x1024 and a batch of 64 float32 128x128 products (oneMKL gemm);
solve, inv, cholesky, qr, svd, eigh and det of a 512x512 float64 matrix
(oneMKL LAPACK); and the first call of each in a fresh process (loading
oneMKL; usmarray's kernel cache warm).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import Row, Stat, Table, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402

# name -> (arguments built from a seed, usmarray call, NumPy call, dpnp call)
SETUP = """
import numpy as np
rng = np.random.default_rng(0)
g1024 = rng.random((1024, 1024), dtype=np.float32)
g1024b = rng.random((1024, 1024), dtype=np.float32)
b64 = rng.random((64, 128, 128), dtype=np.float32)
m512 = rng.random((512, 512)) + 512 * np.eye(512)
r512 = rng.random((512, 8))
spd512 = m512 @ m512.T
CASES = {
    "matmul f32": ((g1024, g1024b), "matmul", "matmul"),
    "matmul f64": ((g1024.astype(np.float64), g1024b.astype(np.float64)), "matmul", "matmul"),
    "matmul batch": ((b64, b64), "matmul", "matmul"),
    "solve": ((m512, r512), "linalg.solve", "linalg.solve"),
    "inv": ((m512,), "linalg.inv", "linalg.inv"),
    "cholesky": ((spd512,), "linalg.cholesky", "linalg.cholesky"),
    "qr": ((m512,), "linalg.qr", "linalg.qr"),
    "svd": ((m512,), "linalg.svd", "linalg.svd"),
    "eigh": ((spd512,), "linalg.eigh", "linalg.eigh"),
    "det": ((m512,), "linalg.det", "linalg.det"),
}
"""

FIRST_CALL = SETUP + """
import sys, time, json, functools
import usmarray as ua
args, name, _ = CASES[sys.argv[1]]
fn = functools.reduce(getattr, name.split("."), ua)
xs = [ua.asarray(a) for a in args]
ua.synchronize()
t0 = time.perf_counter()
r = fn(*xs)
ua.synchronize()
print(json.dumps(time.perf_counter() - t0))
"""

LABELS = [
    ("matmul f32", "matmul float32 1024x1024", 1.25),
    ("matmul f64", "matmul float64 1024x1024", 1.25),
    ("matmul batch", "matmul float32 64x(128x128)", 1.25),
    ("solve", "solve float64 512x512, 8 rhs", 1.5),
    ("inv", "inv float64 512x512", 1.5),
    ("cholesky", "cholesky float64 512x512", 1.5),
    ("qr", "qr float64 512x512", 1.5),
    ("svd", "svd float64 512x512", 1.5),
    ("eigh", "eigh float64 512x512", 1.5),
    ("det", "det float64 512x512", 1.5),
]


def _dpnp():
    try:
        import dpnp
    except Exception as e:  # not installed, or broken
        return None, f"{type(e).__name__}: {e}"
    return dpnp, ""


def _resolve(mod, name):
    for part in name.split("."):
        mod = getattr(mod, part)
    return mod


def _first_calls(t, args, only):
    """The first-call rows: one fresh process per sample."""
    t.section("first call in a fresh process")
    note_f = t.footnote(
        "Fresh process per sample, same input as the warm row; timed from just before the call "
        "to its completion (ua.synchronize()): loading oneMKL's libraries (dlopen of about 280 MB, "
        "plus its CPU kernels for the instruction set on the first computation), oneMKL's "
        "one-time initialisation (docs/linalg.md) and the call. usmarray's kernel cache is warm.")
    for key, label, _ in LABELS:
        if only is not None and key not in only:
            continue
        load = _util.OtherLoad()
        s = Stat([_util.run_python(FIRST_CALL, (key,)) for _ in range(args.first_reps)])
        t.add(Row(f"{label}: first call", s, note=note_f,
                  target=("<= 300 ms", lambda st: st.median <= 0.3)))
        t.rows[-1].other_load = load.cpus()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=_util.REPS, help="repetitions of each warm row")
    p.add_argument("--first-reps", type=int, default=3, help="fresh processes per first-call row")
    p.add_argument("--pause", type=float, default=0.1,
                   help="untimed sleep before each call, so the other library's BLAS threads "
                        "stop spinning (see _util.time_interleaved)")
    p.add_argument("--warm", type=float, default=0.02,
                   help="seconds of untimed calls after each pause, before the timed call, so "
                        "the warm rows measure a call in a loop (0: the first call after the "
                        "pause; see _util.time_interleaved)")
    p.add_argument("--idle-rows", action=argparse.BooleanOptionalAction, default=True,
                   help="also time the matmul rows as the first call after the pause")
    p.add_argument("--only", default=None, help="comma-separated case names (default: all)")
    args = p.parse_args(argv)
    only = None if args.only is None else set(args.only.split(","))
    dp, dp_reason = _dpnp()
    t = Table(with_dpt=dp is not None, dpt_label="dpnp")
    sync = ua.synchronize
    ns = {}
    exec(SETUP, ns)
    cases = ns["CASES"]
    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run (oneMKL loaded, result and "
        "scratchpad blocks pooled); each usmarray repetition ends with ua.synchronize(). The "
        "libraries take turns, so load from elsewhere hits all columns alike, with "
        f"{args.pause * 1e3:.0f} ms of untimed sleep before each turn: NumPy's OpenBLAS threads "
        "spin after a call and, back to back, slow oneMKL's next call down by up to 2x on this "
        "2-core machine (and oneMKL's TBB workers slow NumPy). After the sleep each library runs "
        f"untimed for {args.warm * 1e3:.0f} ms (at least one call) before the timed call, so the "
        "row is a call in a loop, not the first call after an idle period. Ratio = usmarray / "
        "NumPy time. The dpnp column (when shown) is dpnp.matmul / dpnp.linalg, which also call "
        "oneMKL.")
    note_idle = t.footnote(
        f"As [1], but the timed call is the first one after the {args.pause * 1e3:.0f} ms pause "
        "(no warm-up calls). On this VM idle virtual CPUs are descheduled and oneMKL's TBB "
        "workers sleep, so the first ~10 ms of work after an idle period run up to 2x slower; "
        "NumPy's OpenBLAS threads spin for about 0.1 s after each call, which hides it. No "
        "target: the warm rows are the ones issue 10 sets figures for.")
    sections = [("warm", args.warm, note, None)]
    if args.idle_rows and args.warm:
        sections.append((f"first call after {args.pause * 1e3:.0f} ms idle", 0.0, note_idle,
                         {"matmul f32", "matmul f64", "matmul batch"}))
    for title, warm, row_note, keys in sections:
        t.section(title)
        for key, label, limit in LABELS:
            if (only is not None and key not in only) or (keys is not None and key not in keys):
                continue
            hargs, uname, nname = cases[key]
            fu, fn = _resolve(ua, uname), _resolve(np, nname)
            xs = [ua.asarray(a) for a in hargs]
            fd = None
            if dp is not None:
                dxs = [dp.asarray(a) for a in hargs]
                dfun = _resolve(dp, nname)
                fd = (lambda dxs=dxs, dfun=dfun: (dfun(*dxs), dxs[0].sycl_queue.wait()))
            load = _util.OtherLoad()
            su, sn, sd = time_interleaved([lambda: (fu(*xs), sync()), lambda: fn(*hargs), fd],
                                          reps=args.reps, pause=args.pause, warm=warm)
            target = None if keys is not None else (
                f"<= {limit} NumPy", lambda rr, limit=limit: rr <= limit)
            t.add(Row(label, su, sn, dpt=sd, note=row_note, ratio_target=target))
            t.rows[-1].other_load = load.cpus()
            del xs
            _util.clean_up(ua)
    if args.first_reps > 0:
        _first_calls(t, args, only)
    header = _util.header(ua, np)
    header[-1] = (f"dpnp:        dpnp {dp.__version__} (column shown: dpnp.linalg)"
                  if dp is not None else f"dpnp:        not importable, column omitted ({dp_reason})")
    print("\n".join(header))
    print(t.render())
    print(_util.OTHER_LOAD_LEGEND)
    return 0


if __name__ == "__main__":
    sys.exit(main())
