"""Reduction, search, scan, sort, mask and gather benchmarks (issue 9's
figures): usmarray against NumPy (and dpnp.tensor when importable) on the
same device.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_reductions.py

Rows (warm kernel cache, median of interleaved repetitions): sum of 10**7
float32; sum over axis 0 and axis 1 of a 4096x2048 float32 matrix; max of
10**7 float64; argmax of 10**7 float32; sum of 4*10**7 float32 (160 MB,
more than most CPUs' caches hold: a read from memory; no target);
cumulative_sum of 10**7 float32; sort of 2*10**6 float32, int64, int32 and
float64, and of 2*10**7 of each (usmarray and NumPy only), and of 2*10**6
float32 of which 90% are zeros (sparse data; no target); argsort of
2*10**6 float32 (NumPy stable); sort and argsort along the rows of a
20000x100 array (many short rows; argsort without a target); unique_values of 10**7
int32 with 10**4 distinct values; ``a[a > 0.5]`` of 10**7 float32; take of
10**6 random indices from 10**7 float32, the same gather by index pairs
``x[i0, i1]`` from a 4000x2500 view of the data and the scatter ``x[idx] =
v`` (these two without a target); take_along_axis along the rows of a
20000x100 array, in argsort order (no target); the per-call time of
``float(ua.sum(x))`` and of ``x + y`` then ``asnumpy`` on 1-element arrays.
A second table gives each row's effective bandwidth (bytes read + written
/ time) beside that of ``a + b``, and the ratio a row would have at that
bandwidth. A third, when a C compiler with OpenMP is at hand, times
hand-written loops over all the host's cores for the bandwidth rows
(``floor.c``, in the same turns as usmarray and NumPy, on copies of the
data): the ratio to NumPy that the machine's cores and memory allow.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _floor  # noqa: E402
import _util  # noqa: E402
from _util import Row, Table, time_calls, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402


def _ratio(limit):
    return (f"<= {limit:g} x NumPy", lambda r: r <= limit)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=9, help="repetitions of each throughput row")
    p.add_argument("--calls", type=int, default=5000, help="calls per per-call repetition")
    p.add_argument("--only", default="", help="run only rows whose label contains this text")
    p.add_argument("--no-floor", action="store_true", help="skip the hand-written C loops (floor.c)")
    p.add_argument("--warm", type=float, default=0.0,
                   help="seconds of untimed calls of each function before each timed one, so "
                        "that rows measure a call in a loop, not the first call after the other "
                        "libraries' turns (0, the default: no such calls; see "
                        "_util.time_interleaved)")
    args = p.parse_args(argv)
    dpt, dpt_reason = _util.import_dpt()
    fl, fl_reason = (None, "--no-floor") if args.no_floor else _floor.load()
    t = Table(with_dpt=dpt is not None)
    sync = ua.synchronize
    rng = np.random.default_rng(0)
    n = 10 ** 7
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    a64 = a.astype(np.float64)
    big = rng.random(4 * n, dtype=np.float32)   # 160 MB: read from memory, not from a cache
    m = rng.random((4096, 2048), dtype=np.float32)
    ns = 2 * 10 ** 6
    sf = rng.random(ns, dtype=np.float32)
    si8 = rng.integers(-2 ** 62, 2 ** 62, ns, dtype=np.int64)
    si4 = rng.integers(-2 ** 31, 2 ** 31 - 1, ns, dtype=np.int32)
    sf8 = rng.random(ns)
    sz = np.where(rng.random(ns) < 0.9, np.float32(0), sf)   # sparse data: 90% zeros
    uq = rng.integers(0, 10 ** 4, n, dtype=np.int32)
    idx = rng.integers(0, n, 10 ** 6, dtype=np.int64)
    g2 = a.reshape(4000, 2500)    # the take row's data, indexed by pairs
    i0, i1 = np.divmod(idx, 2500)
    rf = sf.reshape(-1, 100)    # many short rows: the last axis of a (20000, 100) array
    ri8 = si8.reshape(-1, 100)
    r10 = sf.reshape(-1, 10)    # rows of 10: class scores, argmax per row
    ro = np.argsort(rf, axis=1)   # an order per row, as argsort gives for take_along_axis
    w = a.copy()                  # scattered into
    v6 = b[:10 ** 6].copy()
    hosts = dict(a=a, b=b, a64=a64, big=big, m=m, sf=sf, sf8=sf8, sz=sz, si8=si8, si4=si4, uq=uq, idx=idx,
                 rf=rf, ri8=ri8,
                 r10=r10, ro=ro, w=w, v6=v6, g2=g2, i0=i0, i1=i1)
    U = {k: ua.asarray(v) for k, v in hosts.items()}
    # 2e7-key sorts (issue 31's sizes): usmarray and NumPy only (dpnp.tensor's
    # sorts of this size take seconds)
    nb = 10 ** 7 * 2
    big_sorts = dict(bf4=rng.random(nb, dtype=np.float32), bf8=rng.random(nb),
                     bi4=rng.integers(-2 ** 31, 2 ** 31 - 1, nb, dtype=np.int32),
                     bi8=rng.integers(-2 ** 62, 2 ** 62, nb, dtype=np.int64))
    U.update({k: ua.asarray(v) for k, v in big_sorts.items()})
    D = {k: dpt.asarray(v) for k, v in hosts.items()} if dpt is not None else None
    dsync = D["a"].sycl_queue.wait if D else None

    def dp(expr):
        """A dpnp.tensor function (None when dpnp.tensor is absent)."""
        if D is None or expr is None:
            return None
        return lambda: (expr(dpt, D), dsync())

    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run; each usmarray repetition ends "
        "with ua.synchronize() (or reads its result back), so device work is inside the timed "
        "region. The libraries take turns (every repetition runs each once, in orders where "
        "each follows each other equally often), so load from elsewhere hits all columns "
        "alike. Ratio = usmarray / NumPy."
        + (f" Each timed call follows {args.warm * 1e3:.0f} ms of untimed calls of the same "
           "function (--warm): a call in a loop." if args.warm else ""))
    # the C loops read copies, so none of them follows a library that has
    # just read the same array into the caches
    if fl is not None:
        ca, ca64, cbig, cm = a.copy(), a64.copy(), big.copy(), m.copy()
        c_cols, c_rows = np.empty(m.shape[1], np.float32), np.empty(m.shape[0], np.float32)
        floors = {
            "sum, 1e7 float32": lambda: fl.sum(ca),
            "sum axis 0, 4096x2048 float32": lambda: fl.sum_axis0(cm, c_cols),
            "sum axis 1, 4096x2048 float32": lambda: fl.sum_axis1(cm, c_rows),
            "max, 1e7 float64": lambda: fl.max(ca64),
            "argmax, 1e7 float32": lambda: fl.argmax(ca),
            "sum, 4e7 float32 (160 MB)": lambda: fl.sum(cbig),
        }
    else:
        floors = {}
    # (label, usmarray fn, NumPy fn, dpnp.tensor expr or None, bytes moved, ratio target)
    f4, f8, i8, i4 = 4, 8, 8, 4
    cases = [
        ("a + b, 1e7 float32 (bandwidth reference)", lambda: (U["a"] + U["b"], sync()),
         lambda: a + b, lambda d, D: D["a"] + D["b"], 3 * n * f4, None),
        ("sum, 1e7 float32", lambda: (ua.sum(U["a"]), sync()), lambda: a.sum(),
         lambda d, D: d.sum(D["a"]), n * f4, 0.5),
        ("sum axis 0, 4096x2048 float32", lambda: (ua.sum(U["m"], axis=0), sync()),
         lambda: m.sum(axis=0), lambda d, D: d.sum(D["m"], axis=0), m.nbytes + 2048 * f4, 0.5),
        ("sum axis 1, 4096x2048 float32", lambda: (ua.sum(U["m"], axis=1), sync()),
         lambda: m.sum(axis=1), lambda d, D: d.sum(D["m"], axis=1), m.nbytes + 4096 * f4, 0.5),
        ("max, 1e7 float64", lambda: (ua.max(U["a64"]), sync()), lambda: a64.max(),
         lambda d, D: d.max(D["a64"]), n * f8, 0.5),
        ("argmax, 1e7 float32", lambda: (ua.argmax(U["a"]), sync()), lambda: a.argmax(),
         lambda d, D: d.argmax(D["a"]), n * f4, 0.5),
        ("sum, 4e7 float32 (160 MB)", lambda: (ua.sum(U["big"]), sync()), lambda: big.sum(),
         lambda d, D: d.sum(D["big"]), 4 * n * f4, None),
        ("argmax axis 1, 200000x10 float32", lambda: (ua.argmax(U["r10"], axis=1), sync()),
         lambda: r10.argmax(axis=1), lambda d, D: d.argmax(D["r10"], axis=1),
         ns * f4 + ns // 10 * i8, None),
        ("argmax axis 1, 20000x100 float32", lambda: (ua.argmax(U["rf"], axis=1), sync()),
         lambda: rf.argmax(axis=1), lambda d, D: d.argmax(D["rf"], axis=1),
         ns * f4 + ns // 100 * i8, None),
        ("max axis 1, 200000x10 float32", lambda: (ua.max(U["r10"], axis=1), sync()),
         lambda: r10.max(axis=1), lambda d, D: d.max(D["r10"], axis=1),
         ns * f4 + ns // 10 * f4, None),
        ("cumulative_sum, 1e7 float32", lambda: (ua.cumulative_sum(U["a"]), sync()),
         lambda: np.cumsum(a), lambda d, D: d.cumulative_sum(D["a"]), 2 * n * f4, 0.2),
        ("sort, 2e6 float32", lambda: (ua.sort(U["sf"]), sync()), lambda: np.sort(sf),
         lambda d, D: d.sort(D["sf"]), 2 * ns * f4, 1.0),
        ("sort, 2e6 int64", lambda: (ua.sort(U["si8"]), sync()), lambda: np.sort(si8),
         lambda d, D: d.sort(D["si8"]), 2 * ns * i8, 1.0),
        ("sort, 2e6 int32", lambda: (ua.sort(U["si4"]), sync()), lambda: np.sort(si4),
         lambda d, D: d.sort(D["si4"]), 2 * ns * i4, 1.0),
        ("sort, 2e6 float64", lambda: (ua.sort(U["sf8"]), sync()), lambda: np.sort(sf8),
         lambda d, D: d.sort(D["sf8"]), 2 * ns * f8, 1.0),
    ] + [
        (f"sort, 2e7 {name}", (lambda k: lambda: (ua.sort(U[k]), sync()))(key),
         (lambda v: lambda: np.sort(v))(big_sorts[key]), None, 2 * nb * big_sorts[key].itemsize, 1.0)
        for name, key in (("float32", "bf4"), ("float64", "bf8"), ("int32", "bi4"), ("int64", "bi8"))
    ] + [
        ("sort, 2e6 float32, 90% zeros", lambda: (ua.sort(U["sz"]), sync()), lambda: np.sort(sz),
         lambda d, D: d.sort(D["sz"]), 2 * ns * f4, None),
        ("argsort, 2e6 float32 (NumPy stable)", lambda: (ua.argsort(U["sf"]), sync()),
         lambda: np.argsort(sf, kind="stable"), lambda d, D: d.argsort(D["sf"], stable=True),
         ns * (f4 + i8), 1.0),
        ("sort rows, 20000x100 float32", lambda: (ua.sort(U["rf"]), sync()),
         lambda: np.sort(rf), lambda d, D: d.sort(D["rf"]), 2 * ns * f4, 0.5),
        ("sort rows, 20000x100 int64", lambda: (ua.sort(U["ri8"]), sync()),
         lambda: np.sort(ri8), lambda d, D: d.sort(D["ri8"]), 2 * ns * i8, 0.5),
        ("argsort rows, 20000x100 float32 (NumPy stable)", lambda: (ua.argsort(U["rf"]), sync()),
         lambda: np.argsort(rf, kind="stable"), lambda d, D: d.argsort(D["rf"], stable=True),
         ns * (f4 + i8), None),
        ("unique_values, 1e7 int32, 1e4 distinct", lambda: (ua.unique_values(U["uq"]), sync()),
         lambda: np.unique(uq), lambda d, D: d.unique_values(D["uq"]), n * i4, 1.0),
        ("a[a > 0.5], 1e7 float32", lambda: (U["a"][U["a"] > 0.5], sync()), lambda: a[a > 0.5],
         lambda d, D: D["a"][D["a"] > 0.5], n * f4 + n + n // 2 * f4, 0.5),
        ("take 1e6 random indices from 1e7 float32", lambda: (ua.take(U["a"], U["idx"]), sync()),
         lambda: np.take(a, idx), lambda d, D: d.take(D["a"], D["idx"]),
         10 ** 6 * (i8 + 2 * f4), 0.5),
        ("x[i0, i1], 1e6 random index pairs into 4000x2500 float32",
         lambda: (U["g2"][U["i0"], U["i1"]], sync()),
         lambda: g2[i0, i1], lambda d, D: D["g2"][D["i0"], D["i1"]],
         10 ** 6 * (2 * i8 + 2 * f4), None),
        ("x[idx] = v, 1e6 random indices into 1e7 float32",
         lambda: (U["w"].__setitem__(U["idx"], U["v6"]), sync()),
         lambda: w.__setitem__(idx, v6), lambda d, D: D["w"].__setitem__(D["idx"], D["v6"]),
         10 ** 6 * (i8 + 2 * f4), None),
        ("take_along_axis axis 1, 20000x100 float32",
         lambda: (ua.take_along_axis(U["rf"], U["ro"], axis=1), sync()),
         lambda: np.take_along_axis(rf, ro, axis=1),
         lambda d, D: d.take_along_axis(D["rf"], D["ro"], axis=1), ns * (2 * f4 + i8), None),
    ]
    bw = []   # (label, bytes, Stats)
    floor_rows = []   # (label, usmarray, NumPy, C loop Stats)
    t.section("throughput (warm kernel cache)")
    for label, fu, fn, fd, nbytes, limit in cases:
        if args.only and args.only not in label and not label.startswith("a + b"):
            continue
        load = _util.OtherLoad()
        try:
            su, sn, sd, sc = time_interleaved([fu, fn, dp(fd), floors.get(label)], reps=args.reps,
                                              warm=args.warm)
        except Exception as e:   # an operation missing or failing in one library
            try:
                su, sn = time_interleaved([fu, fn], reps=args.reps, warm=args.warm)
                sd, sc = f"error: {type(e).__name__}", None
            except Exception as e2:
                t.add(Row(label, error=f"{type(e2).__name__}: {e2}", note=note))
                continue
        row = t.add(Row(label, su, sn, dpt=sd, ratio_target=_ratio(limit) if limit else None,
                        note=note))
        row.other_load = load.cpus()
        bw.append((label, nbytes, su, sn, sd if isinstance(sd, _util.Stat) else None))
        if sc is not None:
            floor_rows.append((label, su, sn, sc))
        _util.clean_up()
    t.section("per call, 1-element float32 arrays")
    note_c = t.footnote(
        f"{args.calls} calls in a loop; per-call time = total / calls. Each call waits for its "
        "result on the host (float() or asnumpy), so launch, wait and read-back are all counted.")
    x1, y1 = ua.ones(1, dtype=ua.float32), ua.ones(1, dtype=ua.float32)
    h1 = np.ones(1, dtype=np.float32)
    d1 = dpt.ones(1, dtype="f4") if dpt is not None else None
    load = _util.OtherLoad()
    su = time_calls(lambda: float(ua.sum(x1)), args.calls, reps=args.reps)
    sn = time_calls(lambda: float(np.sum(h1)), args.calls, reps=args.reps)
    sd = time_calls(lambda: float(dpt.sum(d1)), args.calls // 5, reps=args.reps) if d1 is not None else None
    # issue 31's targets: 9 µs for each of the two read-back calls
    t.add(Row("float(ua.sum(x))", su, sn, dpt=sd, target=("<= 9 µs", lambda s: s.median <= 9e-6),
              note=note_c)).other_load = load.cpus()
    load = _util.OtherLoad()
    su = time_calls(lambda: ua.asnumpy(x1 + y1), args.calls, reps=args.reps)
    sn = time_calls(lambda: np.asarray(h1 + h1), args.calls, reps=args.reps)
    sd = (time_calls(lambda: dpt.asnumpy(d1 + d1), args.calls // 5, reps=args.reps)
          if d1 is not None else None)
    t.add(Row("asnumpy(x + y)", su, sn, dpt=sd, target=("<= 9 µs", lambda s: s.median <= 9e-6),
              note=note_c)).other_load = load.cpus()

    print("\n".join(_util.header(ua, np, dpt, dpt_reason)))
    print(t.render())
    print(f"other load: average CPUs used by other processes while the row was measured "
          f"(/proc/stat); BUSY above {_util.BUSY_CPUS} CPU means the row shared the device's "
          "cores and is not reliable.")
    # effective bandwidth
    ref = next((s for lab, nb, s, _, _ in bw if lab.startswith("a + b")), None)
    ref_bw = 3 * n * 4 / ref.median / 1e9 if ref else float("nan")
    print()
    print("effective bandwidth: bytes read + written (inputs once, outputs once) / median time")
    head = f"{'measurement':44s} {'MB':>7s} {'usmarray':>10s} {'NumPy':>10s}"
    head += f" {'dpnp.tensor':>12s}" if dpt is not None else ""
    head += f" {'ua / (a + b)':>13s} {'ratio at (a + b)':>17s}"
    print(head)
    print("-" * len(head))
    for lab, nb, su, sn, sd in bw:
        g = nb / su.median / 1e9
        line = f"{lab[:44]:44s} {nb / 1e6:7.1f} {g:#6.3g} GB/s {nb / sn.median / 1e9:#5.3g} GB/s"
        if dpt is not None:
            line += f" {nb / sd.median / 1e9:#7.3g} GB/s" if sd is not None else f" {'-':>12s}"
        line += f" {g / ref_bw:13.3g} {(nb / sn.median / 1e9) / ref_bw:17.3g}"
        print(line)
    print("ratio at (a + b): the ratio to NumPy of a usmarray row that moved its bytes at the "
          "bandwidth of a + b (NumPy's bandwidth / that of usmarray's a + b); a target below it "
          "asks for more than a + b's bandwidth.")
    print()
    if floor_rows:
        print(f"hand-written loops (benchmarks/floor.c, OpenMP, {fl.threads} threads, same turns, "
              "copies of the data): median times")
        head = (f"{'measurement':44s} {'usmarray':>10s} {'NumPy':>10s} {'C loop':>10s} "
                f"{'ua / NumPy':>11s} {'C / NumPy':>10s} {'ua / C':>7s}")
        print(head)
        print("-" * len(head))
        for lab, su, sn, sc in floor_rows:
            print(f"{lab[:44]:44s} {su.fmt():>10s} {sn.fmt():>10s} {sc.fmt():>10s} "
                  f"{su.median / sn.median:11.3g} {sc.median / sn.median:10.3g} "
                  f"{su.median / sc.median:7.3g}")
        print("C / NumPy: the ratio a row reaches at the speed of a plain loop over all cores; a "
              "target below it asks for more than this machine's cores and memory gave that loop.")
    else:
        print(f"hand-written loops: not measured ({fl_reason})")
    busy = [r.label for r in t.rows
            if not isinstance(r, str) and r.other_load is not None and r.other_load > _util.BUSY_CPUS]
    if busy:
        print(f"WARNING: {len(busy)} row(s) measured while the CPUs were busy elsewhere: "
              + "; ".join(busy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
