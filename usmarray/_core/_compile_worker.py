"""A child process that compiles kernel groups into the disk cache.

A composite function's first call (``_kernels._Resolver._compile_together``)
compiles several groups of kernel parts at once. Threads of one process
compiling together wait on the SYCL kernel compiler's locks (two groups of
1.7 s and 1.0 s: 2.3 s in two threads, 2.0 s in two processes including
their start), so the call hands some groups to this module, run as
``python -m usmarray._core._compile_worker``: a fresh interpreter that does
not import the user's program (as a multiprocessing child would). It reads
``{"device": filter string, "groups": [[[key, source, names, merge], ...], ...]}``
as JSON on stdin, compiles each group as warm-up does (an entry per group and
a link per part in the disk cache, which the caller then loads) and exits 0
when every group compiled.
"""

import json
import sys

from . import _kernels
from ._device import resolve_queue


def main():
    job = json.load(sys.stdin)
    qi = resolve_queue(job["device"])
    res = _kernels.resolver_of(qi.kc)
    ok = True
    for group in job["groups"]:
        specs = [_kernels.BundleSpec(key, source, names, merge) for key, source, names, merge in group]
        try:
            res.warm(specs)
        except _kernels.KernelCompileError:
            ok = False   # (the caller compiles what is missing itself and reports it)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
