"""FFT benchmarks: usmarray.fft against numpy.fft (and dpnp.fft when
importable) on the same device.

Run from outside the source tree so the installed package is imported::

    cd /tmp && python /path/to/usmarray/benchmarks/bench_fft.py

Rows (issue 10; warm, median of repetitions): fft complex64 2^20; rfft
float32 2^20; fftn complex64 256^3; rfft2 (rfftn over both axes) float32
1024^2; the first call of each in a fresh process, which loads oneMKL and
commits the transform's descriptor (the kernel cache is warm: usmarray's
own kernels are not involved in these transforms). One more warm row: fft
along the middle axis of a (512, 64, 512) complex64 array (looped batches).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import _util  # noqa: E402
from _util import Row, Stat, Table, time_interleaved  # noqa: E402

import usmarray as ua  # noqa: E402

FIRST_CALL = """
import sys, time, json
import numpy as np
import usmarray as ua
case = sys.argv[1]
rng = np.random.default_rng(0)
shape, dtype, fn = {
    "fft": ((1 << 20,), np.complex64, lambda x: ua.fft.fft(x)),
    "rfft": ((1 << 20,), np.float32, lambda x: ua.fft.rfft(x)),
    "fftn": ((256, 256, 256), np.complex64, lambda x: ua.fft.fftn(x)),
    "rfft2": ((1024, 1024), np.float32, lambda x: ua.fft.rfftn(x, axes=(-2, -1))),
}[case]
x = ua.asarray(rng.random(shape).astype(dtype))
ua.synchronize()
t0 = time.perf_counter()
y = fn(x)
ua.synchronize()
print(json.dumps(time.perf_counter() - t0))
"""


def _dpnp():
    try:
        import dpnp
    except Exception as e:  # not installed, or broken
        return None, f"{type(e).__name__}: {e}"
    return dpnp, ""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=_util.REPS, help="repetitions of each warm row")
    p.add_argument("--first-reps", type=int, default=5, help="fresh processes per first-call row")
    args = p.parse_args(argv)
    dp, dp_reason = _dpnp()
    t = Table(with_dpt=dp is not None)
    sync = ua.synchronize
    rng = np.random.default_rng(0)
    c1 = (rng.random(1 << 20) + 1j * rng.random(1 << 20)).astype(np.complex64)
    r1 = rng.random(1 << 20, dtype=np.float32)
    c3 = (rng.random((256, 256, 256), dtype=np.float32)
          + 1j * rng.random((256, 256, 256), dtype=np.float32)).astype(np.complex64)
    r2 = rng.random((1024, 1024), dtype=np.float32)
    note = t.footnote(
        f"Median of {args.reps} repetitions after one untimed run (oneMKL loaded, the "
        "descriptor committed and cached, the result block pooled); each usmarray repetition "
        "ends with ua.synchronize(). The libraries take turns, so load from elsewhere hits all "
        "columns alike. Ratio = usmarray / NumPy time. The dpnp column (when shown) is "
        "dpnp.fft, which also calls oneMKL.")
    t.section("warm transforms")
    one_d = ("<= 1.0 NumPy", lambda rr: rr <= 1.0)
    n_d = ("<= 1.5 NumPy", lambda rr: rr <= 1.5)
    cases = [
        ("fft complex64 2^20", ua.fft.fft, np.fft.fft, "fft", c1, {}, one_d),
        ("rfft float32 2^20", ua.fft.rfft, np.fft.rfft, "rfft", r1, {}, one_d),
        ("fftn complex64 256^3", ua.fft.fftn, np.fft.fftn, "fftn", c3, {}, n_d),
        ("rfft2 float32 1024^2", ua.fft.rfftn, np.fft.rfftn, "rfftn", r2, {"axes": (-2, -1)},
         n_d),
        # not an issue-10 row: a transform along a middle axis (looped batches)
        ("fft complex64 (512, 64, 512), axis 1", ua.fft.fft, np.fft.fft, "fft",
         c3.reshape(512, 64, 512), {"axis": 1}, None),
    ]
    for label, fu, fn, dname, h, kw, rtarget in cases:
        x = ua.asarray(h)
        fd = None
        if dp is not None:
            dx = dp.asarray(h)
            dfun = getattr(dp.fft, dname)
            fd = (lambda dx=dx, dfun=dfun: (dfun(dx, **kw), dx.sycl_queue.wait()))
        load = _util.OtherLoad()
        su, sn, sd = time_interleaved([lambda: (fu(x, **kw), sync()), lambda: fn(h, **kw), fd],
                                      reps=args.reps)
        t.add(Row(label, su, sn, dpt=sd, ratio_target=rtarget, note=note))
        t.rows[-1].other_load = load.cpus()
        del x
        _util.clean_up(ua)
    t.section("first call in a fresh process")
    note_f = t.footnote(
        "Fresh process per sample, same input as the warm row; timed from just before the call "
        "to its completion (ua.synchronize()): loading oneMKL's libraries, committing the "
        "descriptor and the transform. usmarray's kernel cache is warm (not involved).")
    for label, case in (("fft complex64 2^20", "fft"), ("rfft float32 2^20", "rfft"),
                        ("fftn complex64 256^3", "fftn"), ("rfft2 float32 1024^2", "rfft2")):
        load = _util.OtherLoad()
        s = Stat([_util.run_python(FIRST_CALL, (case,)) for _ in range(args.first_reps)])
        t.add(Row(f"{label}: first call", s, note=note_f,
                  target=("<= 300 ms", lambda st: st.median <= 0.3)))
        t.rows[-1].other_load = load.cpus()
    header = _util.header(ua, np)
    header[-1] = (f"dpnp:        dpnp {dp.__version__} (column shown: dpnp.fft)" if dp is not None
                  else f"dpnp:        not importable, column omitted ({dp_reason})")
    print("\n".join(header))
    print(t.render())
    print(_util.OTHER_LOAD_LEGEND)
    return 0


if __name__ == "__main__":
    sys.exit(main())
