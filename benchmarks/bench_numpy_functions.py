"""NumPy functions beyond the array API (statistics, comparison, histograms,
linear algebra through NumPy's dispatch): usmarray against NumPy (and dpnp.tensor has none of them) on the same device.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_numpy_functions.py

Rows (warm kernel cache, median of interleaved repetitions): median and
quantile (3 q) of 2*10**6 float32, both overall and along axis 1 of a
1000x2000 matrix; nanmean, nanstd and nanargmax of 10**7 float32 with 10 %
NaN; average with weights of 10**7 float32; isclose of 10**7 float32; cov of
a 64x10**5 float32 matrix; vstack of two 2000x2000 float32 matrices;
histogram (50 bins) of 10**7 float32; bincount of 10**7 values in 1000 bins;
dot and 2-norm of 10**7 float32 vectors; einsum "ij,ij->i" of a 1000x2000
matrix; cross products of 10**6 float32 3-vectors.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import Row, Table, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=7, help="repetitions of each row")
    p.add_argument("--only", default="", help="run only rows whose label contains this text")
    args = p.parse_args(argv)
    t = Table(with_dpt=False)
    sync = ua.synchronize
    rng = np.random.default_rng(0)
    s = rng.random(2 * 10 ** 6, dtype=np.float32)
    m = s.reshape(1000, 2000)
    a = rng.random(10 ** 7, dtype=np.float32)
    an = a.copy()
    an[rng.integers(0, a.size, a.size // 10)] = np.nan
    w = rng.random(10 ** 7, dtype=np.float32)
    b = a * np.float32(1.000001)
    c = rng.random((64, 10 ** 5), dtype=np.float32)
    v = rng.random((2000, 2000), dtype=np.float32)
    i = rng.integers(0, 1000, 10 ** 7)
    x3 = rng.random((10 ** 6, 3), dtype=np.float32)
    y3 = rng.random((10 ** 6, 3), dtype=np.float32)
    U = {k: ua.asarray(x) for k, x in dict(s=s, m=m, a=a, an=an, w=w, b=b, c=c, v=v, i=i,
                                             x3=x3, y3=y3).items()}
    q = [0.1, 0.5, 0.9]
    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run; each usmarray repetition ends "
        "with ua.synchronize() (or reads its result back). usmarray and NumPy take turns. "
        "Ratio = usmarray / NumPy.")
    cases = [
        ("median, 2e6 float32", lambda: np.median(U["s"]), lambda: np.median(s)),
        ("median axis 1, 1000x2000 float32", lambda: np.median(U["m"], axis=1),
         lambda: np.median(m, axis=1)),
        ("quantile (3 q), 2e6 float32", lambda: np.quantile(U["s"], q), lambda: np.quantile(s, q)),
        ("quantile (3 q) axis 1, 1000x2000 float32", lambda: np.quantile(U["m"], q, axis=1),
         lambda: np.quantile(m, q, axis=1)),
        ("nanmean, 1e7 float32, 10% NaN", lambda: np.nanmean(U["an"]), lambda: np.nanmean(an)),
        ("nanstd, 1e7 float32, 10% NaN", lambda: np.nanstd(U["an"]), lambda: np.nanstd(an)),
        ("nanargmax, 1e7 float32, 10% NaN", lambda: np.nanargmax(U["an"]),
         lambda: np.nanargmax(an)),
        ("average with weights, 1e7 float32", lambda: np.average(U["a"], weights=U["w"]),
         lambda: np.average(a, weights=w)),
        ("isclose, 1e7 float32", lambda: np.isclose(U["a"], U["b"]), lambda: np.isclose(a, b)),
        ("cov, 64x1e5 float32", lambda: np.cov(U["c"]), lambda: np.cov(c)),
        ("vstack, 2 x 2000x2000 float32", lambda: np.vstack([U["v"], U["v"]]),
         lambda: np.vstack([v, v])),
        ("histogram, 50 bins, 1e7 float32", lambda: np.histogram(U["a"], bins=50),
         lambda: np.histogram(a, bins=50)),
        ("bincount, 1e7 values in 1000 bins", lambda: np.bincount(U["i"]),
         lambda: np.bincount(i)),
        ("dot of two 1e7 float32 vectors", lambda: np.dot(U["a"], U["w"]),
         lambda: np.dot(a, w)),
        ("linalg.norm, 1e7 float32", lambda: np.linalg.norm(U["a"]),
         lambda: np.linalg.norm(a)),
        ("einsum ij,ij->i, 1000x2000 float32", lambda: np.einsum("ij,ij->i", U["m"], U["m"]),
         lambda: np.einsum("ij,ij->i", m, m)),
        ("cross, 1e6 x 3 float32", lambda: np.cross(U["x3"], U["y3"]),
         lambda: np.cross(x3, y3)),
    ]
    t.section("throughput (warm kernel cache)")
    for label, fu, fn in cases:
        if args.only and args.only not in label:
            continue
        load = _util.OtherLoad()
        su, sn = time_interleaved([lambda fu=fu: (fu(), sync()), fn], reps=args.reps)
        t.add(Row(label, su, sn, note=note)).other_load = load.cpus()
        _util.clean_up()
    print("\n".join(_util.header(ua, np, None, "not compared (no such functions)")))
    print(t.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
