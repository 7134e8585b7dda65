"""Sorts along many short rows: usmarray against NumPy on the same device.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_sort_rows.py

Rows: ``sort`` and stable ``argsort`` of 2*10**6 keys laid out as
(2*10**6 // k, k) arrays, sorted along the last axis, for row lengths k from 8
to 4000 and float32 and int64 keys (``--dtypes``, ``--lengths``). These are
the shapes where NumPy's SIMD sorting networks are strongest and where
usmarray's row kernels change (docs/algorithms.md, "Short rows"). No target:
issue 9 names none for them.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import Row, Table, time_interleaved  # noqa: E402

N = 2 * 10 ** 6


def _keys(rng, dtype, k):
    shape = (N // k, k)
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-2 ** 62, 2 ** 62, shape).astype(dtype)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=_util.REPS, help="repetitions of each row")
    p.add_argument("--dtypes", default="float32,int64", help="comma-separated key dtypes")
    p.add_argument("--lengths", default="8,16,32,40,64,100,128,256,512,1000,4000",
                   help="comma-separated row lengths")
    args = p.parse_args(argv)
    import usmarray as ua

    rng = np.random.default_rng(0)
    sync = ua.synchronize
    t = Table(with_dpt=False)
    note = t.footnote(
        f"2e6 keys as (2e6 // k, k), sorted along the last axis. Median of {args.reps} "
        "interleaved repetitions after one untimed run; each usmarray repetition ends with "
        "ua.synchronize(). NumPy's argsort is its stable one (kind='stable'), as usmarray's "
        "argsort is stable. Ratio = usmarray / NumPy.")
    for dtype in args.dtypes.split(","):
        t.section(f"{dtype} keys")
        for k in (int(v) for v in args.lengths.split(",")):
            h = _keys(rng, dtype, k)
            x = ua.asarray(h)
            for label, fu, fn in (
                    ("sort", lambda: (ua.sort(x), sync()), lambda: np.sort(h)),
                    ("argsort", lambda: (ua.argsort(x), sync()),
                     lambda: np.argsort(h, kind="stable"))):
                load = _util.OtherLoad()
                su, sn = time_interleaved([fu, fn], reps=args.reps)
                t.add(Row(f"{label}, rows of {k}", su, sn, note=note)).other_load = load.cpus()
            del x
            _util.clean_up(ua)
    print("\n".join(_util.header(ua, np)[:-1]))
    print(t.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
