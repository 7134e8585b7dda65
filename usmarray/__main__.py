"""Command line: ``python -m usmarray [info|warmup|cache]``.

``info`` (the default) lists the SYCL devices, the default device, runtime
and package versions, the kernel cache, and runs a short computation on the
default device checked against NumPy. ``warmup`` compiles every kernel
bundle for a device ahead of time. ``cache`` shows the kernel cache's size
and when its files were last used; ``cache prune`` removes those unused for
30 days (``--days``), ``cache clear`` all of them. (Benchmarks live in ``benchmarks/`` of
the source tree.)
"""

import argparse
import os
import sys
import time
from importlib import metadata

import dpctl
import numpy as np

import usmarray as ua
from usmarray._core import _cache_files, _env, _kernels, _warmup
from usmarray._core._device import NO_DEVICE_HELP, resolve_queue


def _versions():
    out = {}
    for pkg in ("usmarray", "dpctl", "numpy", "intel-sycl-rt", "intel-cmplr-lib-ur",
                "intel-cmplr-lib-rt", "intel-opencl-rt"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def _fmt_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024


def cmd_info(args):
    print(f"usmarray {ua.__version__} (array API {ua.__array_api_version__})")
    print("\nPackages:")
    for k, v in _versions().items():
        print(f"  {k:20s} {v}")
    print("\nEnvironment:")
    print(f"  OCL_ICD_FILENAMES    {os.environ.get('OCL_ICD_FILENAMES', '(unset)')}"
          + ("  (set by usmarray)" if _env.icd_library else ""))
    for var in ("ONEAPI_DEVICE_SELECTOR", "SYCL_CACHE_PERSISTENT", "SYCL_CACHE_DIR"):
        if var in os.environ:
            print(f"  {var:20s} {os.environ[var]}")
    devs = dpctl.get_devices()
    print("\nSYCL devices:")
    if not devs:
        print("  none")
        print("\n" + NO_DEVICE_HELP)
        return 1
    for d in devs:
        aspects = ", ".join(a for a, ok in (("fp64", d.has_aspect_fp64), ("fp16", d.has_aspect_fp16)) if ok)
        print(f"  {d.filter_string:18s} {d.name}  [{d.driver_version}] ({aspects or 'no fp64/fp16'})")
    dev = ua.__array_namespace_info__().default_device()
    print(f"\nDefault device: {dev}  ({dev.sycl_device.name})")
    dd = ua.__array_namespace_info__().default_dtypes(device=dev)
    print(f"  default dtypes: float {dd['real floating'].name}, complex "
          f"{dd['complex floating'].name}, integer {dd['integral'].name}")
    _print_cache()

    print("\nCheck against NumPy on the default device:")
    t0 = time.perf_counter()
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ua.asarray(h)
    y = ua.astype(x[:, ::-1].T, ua.float64 if dev.sycl_device.has_aspect_fp64 else ua.float32)
    z = ua.tril(ua.reshape(ua.linspace(0, 1, 16, device=dev), (4, 4)))
    expect_y = h[:, ::-1].T.astype(y.dtype)
    expect_z = np.tril(np.linspace(0, 1, 16).reshape(4, 4)).astype(z.dtype)
    ok = np.array_equal(ua.asnumpy(y), expect_y) and np.allclose(ua.asnumpy(z), expect_z)
    el = time.perf_counter() - t0
    print(f"  astype(x[:, ::-1].T), tril(linspace(...).reshape)  ->  {'OK' if ok else 'MISMATCH'}"
          f"  ({el * 1e3:.0f} ms, including kernel compilation or cache loads)")
    print(f"  {y!r}")
    for key, sec, how in _kernels.compile_log:
        print(f"    kernel bundle {key:22s} {how:9s} {sec * 1e3:8.1f} ms")
    return 0 if ok else 1


def _print_cache():
    ci = _cache_files.cache_info()
    print(f"\nKernel cache: {ci['path']}" + ("" if ci["enabled"] else "  (disabled)"))
    print(f"  {ci['entries']} bundles, {_fmt_bytes(ci['bytes'])}"
          f"  (set USMARRAY_CACHE_DIR to move it; `python -m usmarray warmup` fills it)")
    u = ci["unused"]
    print(f"  last used: today {_fmt_bytes(u['<1'])}, 1-30 days ago {_fmt_bytes(u['1-30'])}, "
          f"earlier {_fmt_bytes(u['>30'])}  (`python -m usmarray cache prune` removes the last)")


def cmd_cache(args):
    if args.action == "prune":
        n, size = _cache_files.prune(args.days, args.dry_run)
        what = f"files unused for more than {args.days:g} days"
    elif args.action == "clear":
        n, size = _cache_files.clear(args.dry_run)
        what = "files"
    else:
        _print_cache()
        return 0
    print(f"{'would remove' if args.dry_run else 'removed'} {n} {what} ({_fmt_bytes(size)}) "
          f"from {_env.cache_dir()}")
    return 0


def cmd_warmup(args):
    if not _cache_files.disk_cache_enabled():
        print("usmarray warmup: the disk cache is off (USMARRAY_DISK_CACHE=0): a warm-up "
              "would keep nothing", file=sys.stderr)
        return 2
    try:
        qi = resolve_queue(args.device)
    except (ValueError, TypeError, RuntimeError) as e:
        print(f"usmarray warmup: no device for {args.device or 'the default device'}: {e}",
              file=sys.stderr)
        return 1
    print(f"Compiling all kernel bundles for {ua.Device._of(qi)} ({qi.device.name}) into "
          f"{_cache_files.kernel_cache_dir()}")
    t0 = time.perf_counter()
    try:
        done = _warmup.warmup(qi, progress=not args.quiet, jobs=args.jobs, verbose=args.verbose)
    except KeyboardInterrupt:
        print("\nusmarray warmup: interrupted (the bundles compiled so far stay in the cache)",
              file=sys.stderr)
        return 130
    el = time.perf_counter() - t0
    counts = {}
    for keys, _, how in done:
        counts[how] = counts.get(how, 0) + len(keys)
    print(f"{sum(counts.values())} bundles in {el:.1f} s: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return 1 if "failed" in counts else 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m usmarray", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("info", help="devices, versions, kernel cache, and a check against NumPy")
    w = sub.add_parser("warmup", help="compile all kernel bundles for a device ahead of time")
    w.add_argument("--device", default=None, help="filter string, e.g. opencl:cpu:0 (default device)")
    w.add_argument("--jobs", "-j", type=int, default=None,
                   help="parallel compilations (default: one per core)")
    w.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    w.add_argument("--verbose", "-v", action="store_true",
                   help="each bundle's time, and whether it was compiled or loaded")
    c = sub.add_parser("cache", help="the kernel cache: its size, or prune/clear it")
    c.add_argument("action", nargs="?", choices=("info", "prune", "clear"), default="info",
                   help="info (default): size and last use; prune: remove the files unused "
                        "for --days days (those of earlier versions, sources and devices); "
                        "clear: remove everything (kernels compile again as they are used)")
    c.add_argument("--days", type=float, default=30, help="prune: days unused (default 30)")
    c.add_argument("--dry-run", "-n", action="store_true", help="only say what would go")
    args = p.parse_args(argv)
    if args.cmd == "warmup":
        return cmd_warmup(args)
    if args.cmd == "cache":
        if not args.days >= 0:   # (NaN too)
            c.error(f"--days must be 0 or more, got {args.days:g}")
        return cmd_cache(args)
    return cmd_info(args)


if __name__ == "__main__":
    sys.exit(main())
