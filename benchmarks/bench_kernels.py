"""User kernels and fusion (issue 28's figures): ``@ua.fuse``,
``ElementwiseKernel`` and ``ReductionKernel`` against what they replace.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_kernels.py

Rows (warm kernel cache, medians of interleaved repetitions in one
process; the "reference" column is what the row names, the ratio is
usmarray's time over it):

* ``@ua.fuse`` of ``a * b + c * d - e`` on 1e7 float32: against the same
  expression unfused in usmarray, numexpr (the ``test`` extra; its default
  threads), 6 arrays' bytes at the bandwidth ``a + b`` reaches, NumPy and
  (when importable) dpnp.tensor;
* ``@ua.fuse`` of ``sum((x - y) ** 2)``: against unfused usmarray,
  numexpr and NumPy;
* ``ElementwiseKernel`` softplus (``log1p(exp(x))``): against the built-in
  softplus, ``ua.logaddexp(0.0, x)``; and a kernel of the same body as a
  built-in operation (``exp``) against it: the user path's own cost;
* ``ReductionKernel`` L2 norm: against the reduction kernel of
  ``ua.sum(x * x)`` (``ua.sum`` of a precomputed ``x * x``), and NumPy;
* the cost of a call: each kind on arrays of 1000 float32, calls in a loop,
  against the built-in or unfused path (reported, no target);
* the same computations as hand-written C loops (``floor.c``: one loop,
  and the loops an unfused evaluation runs), whose ratio is the floor of
  the fused-vs-unfused rows on the machine, and the fused kernels against
  the one loop;
* the first call of a new fused kernel, a new ElementwiseKernel and a new
  ReductionKernel with an empty kernel cache (fresh processes, fresh cache
  directories): the first call's time minus the second's.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _floor  # noqa: E402
import _util  # noqa: E402
from _util import Row, Stat, Table, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402

try:
    import numexpr as ne  # noqa: E402
except ImportError:   # (the test extra installs it)
    ne = None


def _at_most(limit):
    return (f"<= {limit:g} x reference", lambda r: r <= limit)


_FIRST_CALL = r"""
import json, sys, time
import numpy as np
import usmarray as ua
x = ua.asarray(np.random.default_rng(0).random(10 ** 6, dtype=np.float32))
y = ua.asarray(np.random.default_rng(1).random(10 ** 6, dtype=np.float32))
ua.synchronize()
what = sys.argv[1]
if what == "fuse":
    f = ua.fuse(lambda x, y: ua.sum((x - y) * (x + 1.5)))
elif what == "elementwise":
    f = ua.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1.5f", "first_call")
else:
    f = ua.ReductionKernel("T x, T y", "T z", "x * y + 1.5f", "a + b", "z = a", "0",
                           "first_call")
times = []
for _ in range(2):
    t0 = time.perf_counter()
    f(x, y)
    ua.synchronize()
    times.append(time.perf_counter() - t0)
print(json.dumps(times))
"""


def first_calls(reps):
    """{kind: Stat of first-call seconds (minus the second call's)}."""
    out = {}
    for kind in ("fuse", "elementwise", "reduction"):
        samples = []
        for _ in range(reps):
            with tempfile.TemporaryDirectory() as cache:
                env = _util.subprocess_env(USMARRAY_CACHE_DIR=cache)
                t1, t2 = _util.run_python(_FIRST_CALL, (kind,), env=env)
                samples.append(t1 - t2)
        out[kind] = Stat(samples)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=15, help="repetitions of each row")
    p.add_argument("--calls", type=int, default=2000,
                   help="calls per repetition of the per-call rows")
    p.add_argument("--first-reps", type=int, default=3,
                   help="fresh processes for each first-call row (0: skip them)")
    p.add_argument("--no-floor", action="store_true",
                   help="skip the hand-written C loops (floor.c)")
    args = p.parse_args(argv)
    dpt, dpt_reason = _util.import_dpt()
    t = Table(with_dpt=dpt is not None, ref_label="reference")
    sync = ua.synchronize
    n = 10 ** 7
    rng = np.random.default_rng(0)
    h = [rng.random(n, dtype=np.float32) for _ in range(5)]
    a, b, c, d, e = (ua.asarray(v) for v in h)
    x, y = a, b
    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run, the columns in turns; each "
        "usmarray repetition ends with ua.synchronize(). Ratio = usmarray / reference.")

    @ua.fuse()
    def fused(a, b, c, d, e):
        return a * b + c * d - e

    @ua.fuse()
    def sqdist(x, y):
        return ua.sum((x - y) ** 2)

    def unfused(a, b, c, d, e):
        return a * b + c * d - e

    softplus = ua.ElementwiseKernel("T x", "T y", "y = log1p(exp(x))", "softplus")
    uexp = ua.ElementwiseKernel("T x", "T y", "y = exp(x)", "user_exp")
    l2 = ua.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    xx = x * x
    hx, hy = h[0], h[1]
    dargs = [dpt.asarray(v) for v in h] if dpt is not None else None

    def row(label, fu, fref, target, fd=None):
        load = _util.OtherLoad()
        su, sr, sd = time_interleaved([fu, fref, fd], reps=args.reps)
        r = t.add(Row(label, su, sr, dpt=sd, ratio_target=target, note=note))
        r.other_load = load.cpus()
        _util.clean_up()
        return su, sr

    fnote_c = t.footnote(
        "benchmarks/floor.c, OpenMP over all cores, streaming stores as usmarray's kernels: "
        "what the machine allows. Its one-loop / unfused ratio is the floor of the row 'fused "
        "vs unfused usmarray' on this machine (reports, no target).")

    def floor_row(label, fu, fref):
        load = _util.OtherLoad()
        su, sr = time_interleaved([fu, fref], reps=args.reps)
        t.add(Row(label, su, sr, note=fnote_c)).other_load = load.cpus()
        _util.clean_up()

    t.section("@ua.fuse: a * b + c * d - e, 1e7 float32")
    fu = lambda: (fused(a, b, c, d, e), sync())
    row("fused vs unfused usmarray", fu, lambda: (unfused(a, b, c, d, e), sync()),
        _at_most(0.5))
    if ne is not None:
        row("fused vs numexpr", fu, lambda: ne.evaluate("a * b + c * d - e", local_dict=dict(
            a=h[0], b=h[1], c=h[2], d=h[3], e=h[4])), _at_most(0.5))
    else:
        t.add(Row("fused vs numexpr", error="numexpr is not installed (pip install numexpr)"))
    # six arrays' bytes at the bandwidth a + b reaches (three arrays' bytes)
    su, s_add = time_interleaved([fu, lambda: (a + b, sync())], reps=args.reps)
    ref = Stat([2 * s for s in s_add.samples])
    r = t.add(Row("fused vs 6 arrays at the bandwidth of a + b", su, ref,
                  ratio_target=_at_most(1.3), note=note))
    r.other_load = None
    row("fused vs NumPy", fu, lambda: h[0] * h[1] + h[2] * h[3] - h[4], None,
        (lambda: (dargs[0] * dargs[1] + dargs[2] * dargs[3] - dargs[4],
                  dargs[0].sycl_queue.wait())) if dpt is not None else None)

    fl, fl_reason = (None, "--no-floor") if args.no_floor else _floor.load()
    tmp = [np.empty(n, np.float32) for _ in range(3)] if fl is not None else None
    if fl is not None:
        cf = lambda: fl.fused5(*h, tmp[2])
        floor_row("the same in C loops (floor.c): one loop vs the four unfused ones", cf,
                  lambda: fl.unfused5(*h, *tmp))
        floor_row("fused vs the one C loop", fu, cf)
    t.section("@ua.fuse: sum((x - y) ** 2), 1e7 float32")
    fs = lambda: (sqdist(x, y), sync())
    row("fused vs unfused usmarray", fs, lambda: (ua.sum((x - y) ** 2), sync()),
        _at_most(0.35))
    if ne is not None:
        row("fused vs numexpr", fs, lambda: ne.evaluate("sum((x - y) ** 2)",
                                                        local_dict=dict(x=hx, y=hy)),
            _at_most(0.5))
    row("fused vs NumPy", fs, lambda: np.sum((hx - hy) ** 2), None)
    if fl is not None:
        cs = lambda: fl.sqdist(hx, hy)
        floor_row("the same in C loops (floor.c): one loop vs the three unfused ones", cs,
                  lambda: fl.sqdist_unfused(hx, hy, tmp[0]))
        floor_row("fused vs the one C loop", fs, cs)
    else:
        t.add(Row("C loops (floor.c)", error=fl_reason))

    t.section("ElementwiseKernel, 1e7 float32")
    row("softplus log1p(exp(x)) vs built-in softplus logaddexp(0, x)",
        lambda: (softplus(x), sync()), lambda: (ua.logaddexp(0.0, x), sync()), _at_most(1.1))
    row("y = exp(x) vs the built-in exp (the user path's cost)",
        lambda: (uexp(x), sync()), lambda: (ua.exp(x), sync()), _at_most(1.1))
    row("softplus vs NumPy log1p(exp(x))", lambda: (softplus(x), sync()),
        lambda: np.log1p(np.exp(hx)), None)

    t.section("ReductionKernel L2 norm, 1e7 float32")
    row("L2 norm vs the reduction kernel of ua.sum(x * x)", lambda: (l2(x), sync()),
        lambda: (ua.sum(xx), sync()), _at_most(1.15))
    row("L2 norm vs unfused ua.sqrt(ua.sum(x * x))", lambda: (l2(x), sync()),
        lambda: (ua.sqrt(ua.sum(x * x)), sync()), None)
    row("L2 norm vs NumPy np.linalg.norm", lambda: (l2(x), sync()),
        lambda: np.linalg.norm(hx), None)

    # the call's own cost: arrays of 1000 items, calls in a loop
    t.section("per call, 1000 float32 (calls in a loop; reports, no target)")
    note_c = t.footnote(
        f"{args.calls} calls in a loop, then ua.synchronize(); per-call time = total / calls "
        "(launch and Python work: the kernels take under a microsecond).")
    s1, s2 = ua.asarray(h[0][:1000]), ua.asarray(h[1][:1000])
    kern = ua.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1.5f", "per_call")
    sq = ua.fuse(lambda x, y: ua.sum((x - y) * (x - y)))
    aff = ua.fuse(lambda x, y: x * y + 1.5)
    for label, fu, fref in (
            ("ElementwiseKernel x * y + 1.5f vs built-in x * y", lambda: kern(s1, s2),
             lambda: s1 * s2),
            ("@ua.fuse x * y + 1.5 vs unfused", lambda: aff(s1, s2), lambda: s1 * s2 + 1.5),
            ("ReductionKernel L2 norm vs ua.sum(x)", lambda: l2(s1), lambda: ua.sum(s1)),
            ("@ua.fuse sum((x - y) * (x - y)) vs unfused", lambda: sq(s1, s2),
             lambda: ua.sum((s1 - s2) * (s1 - s2)))):
        load = _util.OtherLoad()
        su = _util.time_calls(fu, args.calls, reps=args.reps, finish=sync)
        sr = _util.time_calls(fref, args.calls, reps=args.reps, finish=sync)
        t.add(Row(label, su, sr, note=note_c)).other_load = load.cpus()

    if args.first_reps:
        t.section("first call of a new kernel, empty kernel cache (fresh processes)")
        fc = first_calls(args.first_reps)
        fnote = t.footnote(
            "A new kernel in a fresh process with a fresh cache directory: the first call's time "
            "minus the second's (compiling and loading the kernel), 1e6 float32 inputs; the "
            "reference column is empty: these rows report, they have no target.")
        for kind, label in (("fuse", "@ua.fuse of sum((x - y) * (x + 1.5))"),
                            ("elementwise", "ElementwiseKernel z = x * y + 1.5f"),
                            ("reduction", "ReductionKernel of x * y + 1.5f")):
            t.add(Row(label, fc[kind], None, note=fnote))

    print("\n".join(_util.header(ua, np, dpt, dpt_reason)))
    print(f"numexpr: {ne.__version__ + ' (' + str(ne.nthreads) + ' threads)' if ne else 'absent'}")
    print(t.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
