"""Interchange benchmarks: DLPack round trips, zero-copy and copying.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_interchange.py

Rows: a zero-copy round trip ``from_dlpack(x.__dlpack__())`` for arrays of
4 KB and 400 MB (its time must not depend on the size), the same through
NumPy as consumer (``np.from_dlpack(x, device="cpu")``), a copying round
trip (``copy=True``) of 400 MB, and a kDLCPU import of a 400 MB NumPy array.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import REPS, Row, Table, time_calls, time_reps  # noqa: E402

import usmarray as ua  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=REPS)
    p.add_argument("--mb", type=int, default=400)
    args = p.parse_args(argv)
    n_big = args.mb * (1 << 20) // 4
    t = Table(with_dpt=False)
    note_rt = t.footnote(
        "Per-call time of `ua.from_dlpack(x.__dlpack__(...))` over 2000 calls (median of "
        f"{args.reps} loops), the resulting array dropped each time. Zero-copy: the capsule "
        "views x's memory; its cost must not grow with the array. NumPy column: "
        "`np.from_dlpack(h)` of a NumPy array of the same size (also zero-copy).")
    note_copy = t.footnote(
        "`ua.from_dlpack(x, copy=True)` (a device copy of the whole array) and "
        "`ua.from_dlpack(h)` of a NumPy array (kDLCPU: copied into USM), each followed by a "
        "synchronize; median of repetitions. NumPy column: `np.from_dlpack(h, copy=True)`.")
    t.section("zero-copy round trips")
    for label, n in (("4 KB", 1024), (f"{args.mb} MB", n_big)):
        x = ua.ones(n, dtype=ua.float32)
        h = np.ones(n, dtype=np.float32)
        ua.synchronize()
        for kind, kw in (("versioned", {"max_version": (1, 0)}), ("legacy", {})):
            s = time_calls(lambda: ua.from_dlpack(x.__dlpack__(**kw)), 2000, reps=args.reps)
            s_np = time_calls(lambda: np.from_dlpack(h), 2000, reps=args.reps)
            t.add(Row(f"from_dlpack(x.__dlpack__()) {kind}, {label} float32", s, s_np,
                      note=note_rt))
        s = time_calls(lambda: np.from_dlpack(x, device="cpu"), 2000, reps=args.reps)
        s_np = time_calls(lambda: np.from_dlpack(h), 2000, reps=args.reps)
        t.add(Row(f"np.from_dlpack(x, device='cpu'), {label} float32", s, s_np, note=note_rt))
        del x, h
    t.section("copying transfers")
    x = ua.ones(n_big, dtype=ua.float32)
    h = np.ones(n_big, dtype=np.float32)
    ua.synchronize()
    s = time_reps(lambda: (ua.from_dlpack(x, copy=True), ua.synchronize()), reps=args.reps)
    s_np = time_reps(lambda: np.from_dlpack(h, copy=True), reps=args.reps)
    t.add(Row(f"ua.from_dlpack(x, copy=True), {args.mb} MB", s, s_np, note=note_copy))
    s = time_reps(lambda: (ua.from_dlpack(h), ua.synchronize()), reps=args.reps)
    t.add(Row(f"ua.from_dlpack(numpy array), {args.mb} MB (kDLCPU -> USM)", s, s_np,
              note=note_copy))
    print("\n".join(_util.header(ua, np)))
    print(t.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
