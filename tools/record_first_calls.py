"""Record the kernels that the first call of each composite function needs
(usmarray/_core/first_calls.json).

Functions decorated with ``_kernels.compiled_together`` (quantile, the nan*
reductions, isclose, unique_*, ...) compile on their first call in a process
the parts of the kernels listed for them in first_calls.json, all at once
(usmarray/_core/_kernels.py, "composite functions"). This script makes that
list: for each such function, input dtype and kernel variant (vector-block
or generic), a fresh process calls the function once on 1-D inputs of 1000
elements and records every kernel the call asks the resolver for. Run it
after changing a composite function or the kernels it uses (an out-of-date
list costs first-call time, never correctness)::

    cd /tmp && python /path/to/usmarray/tools/record_first_calls.py

The children share a kernel cache of their own, which holds only the parts
first calls compile: in a cache that warm-up filled, loading one kernel loads
its whole bundle, and the call's other kernels of that bundle would not be
asked for (nor recorded). The script writes the JSON file of the source tree
it lives in; it takes several minutes.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "usmarray", "_core", "first_calls.json")

DTYPES = ("float32", "float64", "int32", "int64", "bool")

# name -> the call, on x and y (1-D arrays of the dtype), i (int64 indices),
# m (a bool mask) and x2 (a 2-D array of the dtype)
CALLS = {
    "quantile": "ua.quantile(x, 0.3)",
    "percentile": "ua.percentile(x, 30)",
    "median": "ua.median(x)",
    "nanquantile": "ua.nanquantile(x, 0.3)",
    "nanpercentile": "ua.nanpercentile(x, 30)",
    "nanmedian": "ua.nanmedian(x)",
    "average": "ua.average(x, weights=y)",
    "ptp": "ua.ptp(x)",
    "cov": "ua.cov(x2)",
    "corrcoef": "ua.corrcoef(x2)",
    "nanmin": "ua.nanmin(x)",
    "nanmax": "ua.nanmax(x)",
    "nanargmin": "ua.nanargmin(x)",
    "nanargmax": "ua.nanargmax(x)",
    "nansum": "ua.nansum(x)",
    "nanprod": "ua.nanprod(x)",
    "nanmean": "ua.nanmean(x)",
    "nanvar": "ua.nanvar(x)",
    "nanstd": "ua.nanstd(x)",
    "allclose": "ua.allclose(x, y)",
    "isclose": "ua.isclose(x, y)",
    "array_equal": "ua.array_equal(x, y)",
    "array_equiv": "ua.array_equiv(x, y)",
    "logsumexp": "ua.logsumexp(x)",
    "reduce_hypot": "ua.reduce_hypot(x)",
    "unique_values": "ua.unique_values(x)",
    "unique_counts": "ua.unique_counts(x)",
    "unique_inverse": "ua.unique_inverse(x)",
    "unique_all": "ua.unique_all(x)",
    "isin": "ua.isin(x, y)",
    "mean": "ua.mean(x)",
    "var": "ua.var(x)",
    "std": "ua.std(x)",
    "put": "ua.put(x, i, y[:100])",
    "put_along_axis": "ua.put_along_axis(x, i, y[:100], axis=0)",
    "place": "ua.place(x, m, y)",
    "extract": "ua.extract(m, x)",
    "top_k": "ua.top_k(x, 5)",
    "bincount": ["ua.bincount(i, y[:100])", "ua.bincount(ua.abs(x))"],
    "digitize": "ua.digitize(x, ua.sort(y[:10]))",
    "interp": "ua.interp(x, ua.sort(y), y)",
    "histogram": "ua.histogram(x)",
    "histogram2d": "ua.histogram2d(x, y)",
    "histogramdd": "ua.histogramdd(x2[:, :3])",
    "nan_to_num": "ua.nan_to_num(x)",
    "pad": "ua.pad(x2, 2)",
    "einsum": "ua.einsum('ij,kj->ik', x2, x2)",
    # (arrays for ends, and Python scalars with and without dtype=)
    "geomspace": ["ua.geomspace(ua.abs(x[:1]) + 1, ua.abs(x[1:2]) + 2)",
                  "ua.geomspace(1.0, 1000.0, 50, dtype=dt)", "ua.geomspace(1.0, 1000.0, 50)"],
    "unravel_index": "ua.unravel_index(i, (10, 100))",
    "ravel_multi_index": "ua.ravel_multi_index((i, i), (1000, 1000))",
    "tril_indices": "ua.tril_indices(64)",
    "triu_indices": "ua.triu_indices(64)",
    "tril_indices_from": "ua.tril_indices_from(x2)",
    "triu_indices_from": "ua.triu_indices_from(x2)",
    "logspace": ["ua.logspace(x[:1], x[1:2])", "ua.logspace(0.0, 3.0, 50, dtype=dt)",
                 "ua.logspace(0.0, 3.0, 50)"],
}

CHILD = r"""
import json, sys
import numpy as np
import usmarray as ua
from usmarray._core import _kernels
dt = sys.argv[1]
rng = np.random.default_rng(0)
h = (rng.random(1000) * 100 - 30)
x = ua.asarray(h.astype(dt)); y = ua.asarray(h[::-1].astype(dt))
x2 = ua.asarray(h.reshape(40, 25).astype(dt))
i = ua.asarray(rng.integers(0, 1000, 100))
m = ua.asarray(h > 20)
_kernels.recorded = {}
try:
    r = CALL
    ua.synchronize()
except (TypeError, ValueError):   # (not defined for the dtype: nothing to compile ahead)
    _kernels.recorded = {}
print("RESULT " + json.dumps(_kernels.recorded))
"""


def main(argv=None):
    import argparse
    import usmarray as ua

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", type=lambda s: s.split(","), default=None,
                   help="record these functions again (comma-separated), keep the other entries")
    args = p.parse_args(argv)
    decorated = sorted(n for n in dir(ua) if getattr(getattr(ua, n), "_compiled_together", False))
    missing = sorted(set(decorated) - set(CALLS))
    if missing:
        sys.exit(f"no call for: {', '.join(missing)} (add them to CALLS)")
    table = {"simd": {}, "generic": {}}
    if args.only:
        unknown = sorted(set(args.only) - set(decorated))
        if unknown:
            sys.exit(f"not composite functions: {', '.join(unknown)}")
        with open(OUT) as f:
            table = json.load(f)
        for mode in table:
            table[mode] = {k: v for k, v in table[mode].items()
                           if k.split("(")[0] not in args.only}
        decorated = args.only
    cache = tempfile.mkdtemp(prefix="usmarray-record-")
    env0 = {k: v for k, v in os.environ.items() if k != "USMARRAY_GENERIC_KERNELS"}
    env0["USMARRAY_CACHE_DIR"] = cache
    for mode in table:
        env = dict(env0, USMARRAY_GENERIC_KERNELS="1" if mode == "generic" else "0")
        for name in decorated:
            calls = CALLS[name] if isinstance(CALLS[name], list) else [CALLS[name]]
            for dt in DTYPES:
                for call in calls:
                    code = CHILD.replace("CALL", call)
                    r = subprocess.run([sys.executable, "-c", code, dt], env=env,
                                       capture_output=True, text=True, cwd="/")
                    if r.returncode != 0:
                        sys.exit(f"{name}({dt}) failed:\n{r.stderr}")
                    rec = json.loads(r.stdout.split("RESULT ")[-1])
                    for key, names in rec.items():
                        table[mode][key] = list(dict.fromkeys(names))
                    if not rec:   # (no kernels: oneMKL's matmul under einsum of floats)
                        table[mode].setdefault(f"{name}({dt})", [])
                    print(f"{mode:8s} {call} ({dt}): {sum(len(v) for v in rec.values())} "
                          "kernels", flush=True)
    shutil.rmtree(cache, ignore_errors=True)
    with open(OUT, "w") as f:
        json.dump(table, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
