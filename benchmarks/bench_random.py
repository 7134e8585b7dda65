"""Random number benchmarks: usmarray.random against NumPy's default_rng()
(PCG64) and, when importable, dpnp.random, on the default device
(opencl:cpu here).

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_random.py

Rows (issue 29; warm kernel cache, median of repetitions in one process,
the libraries taking turns): random(10**7) float64 and float32,
standard_normal(10**7) float64, integers(0, 1000, 10**7) int64,
permutation(10**7), choice(10**6, 10**5, replace=False).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import Row, Table, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402


def _dpnp():
    try:
        import dpnp
    except Exception as e:  # not installed, or broken
        return None, f"{type(e).__name__}: {e}"
    return dpnp, ""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=_util.REPS, help="repetitions of each row")
    args = p.parse_args(argv)
    dp, dp_reason = _dpnp()
    t = Table(with_dpt=dp is not None)
    sync = ua.synchronize
    g = ua.random.default_rng(0)
    ng = np.random.default_rng(0)
    dg = dp.random.RandomState(0) if dp is not None else None
    n = 10**7
    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run (kernels loaded, the result "
        "block pooled); each usmarray repetition ends with ua.synchronize(). The libraries take "
        "turns, so load from elsewhere hits all columns alike. Ratio = usmarray / NumPy time; "
        "NumPy draws from PCG64 (default_rng), usmarray from Philox4x64-10. The dpnp column "
        "(when shown) is dpnp.random.RandomState (oneMKL's generators).")
    t.section("warm draws")
    cases = [
        ("random(10**7) float64", lambda: g.random(n), lambda: ng.random(n),
         (lambda: dg.random_sample(n)) if dg else None, 0.25),
        ("random(10**7) float32", lambda: g.random(n, dtype=np.float32),
         lambda: ng.random(n, dtype=np.float32), None, 0.25),
        ("standard_normal(10**7) float64", lambda: g.standard_normal(n),
         lambda: ng.standard_normal(n), (lambda: dg.standard_normal(n)) if dg else None, 0.3),
        ("integers(0, 1000, 10**7) int64", lambda: g.integers(0, 1000, n),
         lambda: ng.integers(0, 1000, n), (lambda: dg.randint(0, 1000, n)) if dg else None, 0.3),
        # (no dpnp column: dpnp 0.20's permutation shuffles on the host one swap at a time,
        # over ten minutes for 10**7)
        ("permutation(10**7)", lambda: g.permutation(n), lambda: ng.permutation(n), None, 1.0),
        ("choice(10**6, 10**5, replace=False)", lambda: g.choice(10**6, 10**5, replace=False),
         lambda: ng.choice(10**6, 10**5, replace=False), None, 1.0),
    ]
    for label, fu, fn, fd, target in cases:
        load = _util.OtherLoad()
        fdd = (lambda fd=fd: fd().sycl_queue.wait()) if fd else None
        su, sn, sd = time_interleaved([lambda fu=fu: (fu(), sync()), fn, fdd], reps=args.reps)
        t.add(Row(label, su, sn, dpt=sd, note=note,
                  ratio_target=(f"<= {target} NumPy", lambda r, x=target: r <= x)))
        t.rows[-1].other_load = load.cpus()
        _util.clean_up(ua)
    header = _util.header(ua, np)
    header[-1] = (f"dpnp:        dpnp {dp.__version__} (column shown: dpnp.random)" if dp is not None
                  else f"dpnp:        not importable, column omitted ({dp_reason})")
    print("\n".join(header))
    print(t.render())
    print(_util.OTHER_LOAD_LEGEND)
    return 0


if __name__ == "__main__":
    sys.exit(main())
