"""``usmarray warmup``: compile every kernel bundle for a device ahead of time.

Bundles are compiled whole (a first call compiles only the part it needs),
several to one run of the compiler: a run's fixed cost (the headers, the
device libraries) is most of a small bundle's time, so bundles that can
share a source (generated elementwise sources, or one source file) are
packed into groups of about GROUP_COST. The groups are compiled in a pool of
worker processes, one per core (threads of one process wait on the
compiler's locks a quarter of the time; processes do not), the costliest
first, so that no worker is left with a long one at the end. The workers
write the disk cache; entries are renamed into place, so processes that
compile the same bundle at once (two warm-ups, a warm-up and a program)
never see half an entry.
"""

import concurrent.futures
import multiprocessing
import sys
import time

from . import _kernels
from ._device import resolve_queue

__all__ = ["warmup"]

# cost of a group (kernels times their Family.cost): 600 elementwise kernels
# compile in about 18 s on one core here, against a fixed cost of ~0.3 s per run
GROUP_COST = 600

_worker_specs = {}   # in a worker: device filter string -> {bundle key: BundleSpec}


def _compile(filter_string, keys):
    """In a worker process: compile (or find on disk) the bundles `keys` as
    one group; returns (keys, seconds, how)."""
    qi = resolve_queue(filter_string)
    specs = _worker_specs.get(filter_string)
    if specs is None:
        specs = _worker_specs[filter_string] = {s.key: s for s in _kernels.bundles_for(qi)}
    t0 = time.perf_counter()
    how = _kernels.resolver_of(qi.kc).warm([specs[k] for k in keys])
    return keys, time.perf_counter() - t0, how


def _stop(pool):
    """Cancel the queued groups and end the workers at once."""
    # (shutdown forgets the processes: take them first)
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        try:
            proc.terminate()
        except (OSError, ValueError):
            pass   # (already gone)
    pool.shutdown(wait=False, cancel_futures=True)


def _jobs(jobs):
    return jobs or _kernels.usable_cores()


def warmup(qi, progress=True, jobs=None, verbose=False):
    """Compile (or find on disk) every kernel bundle for the queue's device.

    Parameters
    ----------
    qi : _QueueInfo
        The device's queue.
    progress : bool
        Show a progress bar on stderr.
    jobs : int, optional
        Worker processes (default: one per core the process may use).
    verbose : bool
        Print each group's time and whether it was compiled or on disk.

    Returns
    -------
    list of (bundle keys, seconds, how)
        One entry per group; `how` is "compiled", "disk" or "failed" (a
        compile error, reported on stderr; the other groups go on).
    """
    specs = _kernels.bundles_for(qi)
    todo = _kernels.group_specs(specs, GROUP_COST)
    n, total = len(specs), 0
    done = []
    t_start = time.perf_counter()

    def report(line=None):
        if line and verbose:
            sys.stderr.write("\r" + line + " " * 10 + "\n")
        if progress:
            fill = int(30 * total / n) if n else 30
            el = time.perf_counter() - t_start
            sys.stderr.write(f"\rwarm-up [{'#' * fill}{'.' * (30 - fill)}] {total}/{n} bundles, "
                             f"{el:5.1f} s")
        sys.stderr.flush()

    report()
    # spawn: a forked child would inherit the SYCL runtime's threads and locks
    ctx = multiprocessing.get_context("spawn")
    workers = max(1, min(_jobs(jobs), len(todo)))
    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx)
    try:
        futures = [pool.submit(_compile, qi.filter_string, [s.key for s in g]) for g in todo]
        for f in concurrent.futures.as_completed(futures):
            try:
                keys, seconds, how = f.result()
            except Exception as e:   # (a compile error: the other groups go on)
                keys = [s.key for s in todo[futures.index(f)]]
                seconds, how = 0.0, "failed"
                sys.stderr.write(f"\rwarm-up: {keys[0]} and {len(keys) - 1} more failed: "
                                 f"{e}\n")
            done.append((keys, seconds, how))
            total += len(keys)
            label = keys[0] + (f" and {len(keys) - 1} more" if len(keys) > 1 else "")
            report(f"  {label:34s} {how:9s} {seconds * 1e3:9.1f} ms")
    except BaseException:
        # Ctrl-C (or a worker's KeyboardInterrupt, which the pool hands back as
        # a result while the worker goes on to the next group): stop now.
        # Leaving the pool would wait for every queued group; what is done
        # stays on disk, entries being renamed into place whole.
        _stop(pool)
        raise
    pool.shutdown()
    if progress:
        sys.stderr.write("\n")
    return done
