"""Hand-written OpenMP loops (``floor.c``) for the bandwidth rows of
bench_reductions.py and the fusion rows of bench_kernels.py: the time the
host's cores and memory need for the same work, measured beside usmarray
and NumPy.

``load()`` builds ``floor.c`` with the system C compiler (``$CC``, else
``cc``; ``-O3 -march=native -fopenmp``) into a temporary directory and
returns a `Floor`, or ``(None, reason)`` when there is no compiler or OpenMP.
Nothing here is part of usmarray.
"""

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile

import numpy as np

__all__ = ["Floor", "load"]

_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor.c")


class Floor:
    """The loops of floor.c on NumPy arrays (C-contiguous, of the loop's dtype)."""

    def __init__(self, lib, threads):
        self.threads = threads
        i64, fp32, fp64 = ctypes.c_int64, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_double)
        self._sum = lib.floor_sum_f32
        self._sum.argtypes, self._sum.restype = [fp32, i64], ctypes.c_float
        self._max = lib.floor_max_f64
        self._max.argtypes, self._max.restype = [fp64, i64], ctypes.c_double
        self._argmax = lib.floor_argmax_f32
        self._argmax.argtypes, self._argmax.restype = [fp32, i64], i64
        self._cols = lib.floor_sum_axis0_f32
        self._cols.argtypes, self._cols.restype = [fp32, i64, i64, fp32], None
        self._rows = lib.floor_sum_axis1_f32
        self._rows.argtypes, self._rows.restype = [fp32, i64, i64, fp32], None
        self._binary = lib.floor_binary_f32
        self._binary.argtypes, self._binary.restype = [fp32, fp32, fp32, i64, ctypes.c_int], None
        self._square = lib.floor_square_f32
        self._square.argtypes, self._square.restype = [fp32, fp32, i64], None
        self._fused5 = lib.floor_fused5_f32
        self._fused5.argtypes, self._fused5.restype = [fp32] * 6 + [i64], None
        self._sqdist = lib.floor_sqdist_f32
        self._sqdist.argtypes, self._sqdist.restype = [fp32, fp32, i64], ctypes.c_float

    @staticmethod
    def _p(a, ctype):
        return a.ctypes.data_as(ctypes.POINTER(ctype))

    def sum(self, x):
        return self._sum(self._p(x, ctypes.c_float), x.size)

    def max(self, x):
        return self._max(self._p(x, ctypes.c_double), x.size)

    def argmax(self, x):
        return self._argmax(self._p(x, ctypes.c_float), x.size)

    def sum_axis0(self, m, out):
        self._cols(self._p(m, ctypes.c_float), m.shape[0], m.shape[1], self._p(out, ctypes.c_float))
        return out

    def sum_axis1(self, m, out):
        self._rows(self._p(m, ctypes.c_float), m.shape[0], m.shape[1], self._p(out, ctypes.c_float))
        return out

    # (fusion rows: float32 arrays of one size, a multiple of 4, 16-byte aligned)
    def binary(self, a, b, out, op):
        """out = a + b, a - b or a * b (op "add", "subtract", "multiply")."""
        f = ctypes.c_float
        self._binary(self._p(a, f), self._p(b, f), self._p(out, f), a.size,
                     ("add", "subtract", "multiply").index(op))
        return out

    def square(self, a, out):
        self._square(self._p(a, ctypes.c_float), self._p(out, ctypes.c_float), a.size)
        return out

    def fused5(self, a, b, c, d, e, out):
        """out = a * b + c * d - e in one loop."""
        self._fused5(*(self._p(v, ctypes.c_float) for v in (a, b, c, d, e, out)), a.size)
        return out

    def unfused5(self, a, b, c, d, e, t1, t2, out):
        """The same in the four loops an unfused evaluation runs (t1, t2: temporaries)."""
        self.binary(a, b, t1, "multiply")
        self.binary(c, d, t2, "multiply")
        self.binary(t1, t2, t1, "add")
        return self.binary(t1, e, out, "subtract")

    def sqdist(self, x, y):
        """sum((x - y) ** 2) in one loop."""
        return self._sqdist(self._p(x, ctypes.c_float), self._p(y, ctypes.c_float), x.size)

    def sqdist_unfused(self, x, y, t):
        """The same in three loops (t: a temporary)."""
        self.square(self.binary(x, y, t, "subtract"), t)
        return self.sum(t)

    def check(self):
        """Compare every loop with NumPy once: a wrong loop is no floor."""
        rng = np.random.default_rng(1)
        x = rng.random(100003, dtype=np.float32)
        x64 = x.astype(np.float64)
        m = rng.random((301, 257), dtype=np.float32)
        ok = (np.isclose(self.sum(x), x.sum(dtype=np.float64), rtol=1e-4)
              and self.max(x64) == x64.max() and self.argmax(x) == x.argmax()
              and np.allclose(self.sum_axis0(m, np.empty(257, np.float32)), m.sum(axis=0), rtol=1e-4)
              and np.allclose(self.sum_axis1(m, np.empty(301, np.float32)), m.sum(axis=1), rtol=1e-4))
        v = [rng.random(4000, dtype=np.float32) for _ in range(5)]
        out, t1, t2 = (np.empty(4000, np.float32) for _ in range(3))
        want = v[0] * v[1] + v[2] * v[3] - v[4]
        ok = ok and np.allclose(self.fused5(*v, out), want, rtol=1e-5, atol=1e-6) \
            and np.allclose(self.unfused5(*v, t1, t2, out), want, rtol=1e-5) \
            and np.isclose(self.sqdist(v[0], v[1]), np.sum((v[0] - v[1]) ** 2), rtol=1e-4) \
            and np.isclose(self.sqdist_unfused(v[0], v[1], t1), np.sum((v[0] - v[1]) ** 2),
                           rtol=1e-4)
        if not ok:
            raise RuntimeError("floor.c disagrees with NumPy")


def load():
    """(Floor, None), or (None, why not)."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None, "no C compiler"
    # OpenMP threads that spin after a loop would take the cores the next
    # library's call needs (libgomp reads this when it loads)
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    with open(_SRC, "rb") as f:
        key = hashlib.sha256(f.read() + cc.encode()).hexdigest()[:16]
    lib_path = os.path.join(tempfile.gettempdir(), f"usmarray-bench-floor-{key}.so")
    if not os.path.exists(lib_path):
        tmp = lib_path + f".{os.getpid()}"
        cmd = [cc, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", _SRC, "-o", tmp]
        try:
            subprocess.run(cmd, check=True, capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as e:
            return None, f"floor.c did not build ({type(e).__name__})"
        os.replace(tmp, lib_path)
    lib = ctypes.CDLL(lib_path)
    fl = Floor(lib, _omp_threads())
    fl.check()
    return fl, None


def _omp_threads():
    n = os.environ.get("OMP_NUM_THREADS", "")
    if n.split(",")[0].strip().isdigit():
        return int(n.split(",")[0])
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
