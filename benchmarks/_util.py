"""Shared helpers of the usmarray benchmark scripts.

Timing (medians of repetitions with ``time.perf_counter``), timing of code in
fresh Python processes, optional ``dpnp.tensor`` import, the environment
header, and a plain-text table with a ratio column and footnotes.

Conventions every script follows:

* a measurement is the median of at least ``REPS`` (7) repetitions, after
  one untimed warm-up repetition (kernel compilation or disk-cache loads,
  first-touch page faults of new allocations);
* device work is complete inside the timed region: the timed function ends
  with ``ua.synchronize()`` or reads a result back to the host;
* the ratio column is usmarray's value divided by NumPy's value *in the unit
  the row shows*: for times, above 1 means usmarray is slower; for
  bandwidths, below 1 means usmarray is slower.
"""

import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

__all__ = ["REPS", "Stat", "time_reps", "time_interleaved", "time_calls", "run_python", "subprocess_env",
           "import_dpt", "fmt_time", "fmt_bw", "Row", "Table", "header", "load_text", "OtherLoad", "clean_up"]

REPS = 7
BUSY_CPUS = 0.1   # other processes' average CPU use above which a row is flagged
# the legend printed under a table with an "other load" column
OTHER_LOAD_LEGEND = (f"other load: average CPUs used by other processes (and stolen by the "
                     f"hypervisor) while the row was measured, from /proc/stat; BUSY above "
                     f"{BUSY_CPUS} CPU means the row shared the device's cores and is not "
                     "reliable.")


# ------------------------------------------------------------------ timing
class Stat:
    """Repeated measurements of one quantity (seconds or GB/s)."""

    __slots__ = ("samples", "unit")

    def __init__(self, samples, unit="s"):
        if not samples:
            raise ValueError("no samples")
        self.samples = list(samples)
        self.unit = unit   # "s" or "GB/s"

    @property
    def median(self):
        return statistics.median(self.samples)

    @property
    def lo(self):
        return min(self.samples)

    @property
    def hi(self):
        return max(self.samples)

    def to_bandwidth(self, nbytes):
        """Seconds -> GB/s (1e9 bytes) moving `nbytes` per repetition."""
        if self.unit != "s":
            raise ValueError("already a bandwidth")
        return Stat([nbytes / t / 1e9 for t in self.samples], "GB/s")

    def fmt(self, value=None):
        v = self.median if value is None else value
        return fmt_bw(v) if self.unit == "GB/s" else fmt_time(v)

    def fmt_range(self):
        return f"{self.fmt(self.lo)} .. {self.fmt(self.hi)}"


def time_reps(fn, reps=REPS, warmup=1, setup=None):
    """Stat of `fn()` run `reps` times (after `warmup` untimed runs).

    `setup()`, when given, runs untimed before every repetition. `fn` must
    complete its device work itself (synchronize or read back)."""
    for _ in range(warmup):
        if setup is not None:
            setup()
        fn()
    out = []
    for _ in range(reps):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return Stat(out)


def turn_orders(n):
    """Orders of n turns in which each one directly follows each other one
    equally often (a Williams design: n orders for even n, 2n for odd n;
    one order for n <= 2)."""
    if n <= 2:
        return [list(range(n))]
    first, lo, hi = [0], 1, n - 1
    while len(first) < n:
        first.append(lo)
        lo += 1
        if len(first) < n:
            first.append(hi)
            hi -= 1
    orders = [[(t + k) % n for t in first] for k in range(n)]
    if n % 2:
        orders += [o[::-1] for o in orders]
    return orders


def time_interleaved(fns, reps=REPS, warmup=1, pause=0.0, warm=0.0):
    """Stats of several functions timed in turns: repetition i runs every
    function once before repetition i + 1 starts.

    A burst of load from elsewhere then lands on all of them alike, so their
    ratios stay meaningful on a shared machine. `None` entries are skipped and
    give `None`. `pause` seconds of sleep (untimed) before each call let the
    previous library's worker threads go idle: BLAS thread pools (NumPy's
    OpenBLAS, oneMKL's TBB workers) spin for a while after a call and, on a
    machine with few cores, slow the next library down by up to 2x.

    `warm` seconds: after the pause, each function runs untimed (at least
    once) until that much time has passed, and then the timed call follows,
    so it measures a call in a loop rather than the first call after an
    idle period. On a VM the first few milliseconds after idling run slowly
    (idle virtual CPUs are descheduled; thread pools that sleep rather than
    spin wake them up), which NumPy's spinning OpenBLAS threads hide and
    oneMKL's TBB workers do not (docs/linalg.md).

    With three or more functions the repetitions cycle through a Williams
    design (`turn_orders`), so each function follows every other one equally
    often: a call can be slowed by what ran just before it (on this machine
    usmarray's inv ran 1.5x slower right after dpnp's, with a 100 ms pause
    between), and a fixed predecessor would put that cost on one column
    only. (Rotating one order would keep every function's predecessor.) Two
    functions already alternate symmetrically."""
    live = [f for f in fns if f is not None]
    for _ in range(warmup):
        for f in live:
            f()
    samples = {id(f): [] for f in live}
    orders = turn_orders(len(live))
    for rep in range(reps):
        for f in (live[i] for i in orders[rep % len(orders)]):
            if pause:
                time.sleep(pause)
            if warm:
                t_end = time.perf_counter() + warm
                f()
                while time.perf_counter() < t_end:
                    f()
            t0 = time.perf_counter()
            f()
            samples[id(f)].append(time.perf_counter() - t0)
    return [None if f is None else Stat(samples[id(f)]) for f in fns]


def time_calls(fn, n, reps=REPS, finish=None, warmup_calls=None):
    """Stat of the per-call time of `fn()` called `n` times in a loop.

    `finish()` (e.g. a synchronize) runs once after each loop, inside the
    timed region, so work still queued at the end of the loop is counted."""
    for _ in range(warmup_calls if warmup_calls is not None else min(n, 1000)):
        fn()
    if finish is not None:
        finish()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if finish is not None:
            finish()
        out.append((time.perf_counter() - t0) / n)
    return Stat(out)


# ------------------------------------------------------------------ subprocesses
_NEUTRAL_CWD = None


def _neutral_cwd():
    """A directory without a ``usmarray`` folder, so ``python -c`` imports the
    installed package even when the benchmark is started from the source tree."""
    global _NEUTRAL_CWD
    if _NEUTRAL_CWD is None:
        import atexit
        import shutil

        _NEUTRAL_CWD = tempfile.mkdtemp(prefix="usmarray-bench-cwd-")
        atexit.register(shutil.rmtree, _NEUTRAL_CWD, True)
    return _NEUTRAL_CWD


def subprocess_env(**overrides):
    """os.environ with `overrides` applied (a value of None removes the variable)."""
    env = dict(os.environ)
    for k, v in overrides.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = str(v)
    return env


def run_python(code, args=(), env=None, timeout=600):
    """Run `code` with ``python -c`` in a fresh process; return the JSON
    value it prints on its last stdout line (or a float)."""
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env,
                          cwd=_neutral_cwd(), capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"subprocess failed (exit {proc.returncode}):\n{tail}")
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError("subprocess printed nothing")
    return json.loads(lines[-1])


# ------------------------------------------------------------------ dpnp.tensor
def import_dpt():
    """(dpnp.tensor module or None, reason text)."""
    try:
        import dpnp.tensor as dpt  # noqa: F401
    except Exception as e:  # not installed, or broken
        return None, f"{type(e).__name__}: {e}"
    return dpt, ""


# ------------------------------------------------------------------ formatting
def fmt_time(s):
    if s != s:
        return "nan"
    a = abs(s)
    if a >= 1:
        return f"{s:.3g} s" if a < 100 else f"{s:.0f} s"
    if a >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    if a >= 1e-6:
        return f"{s * 1e6:.3g} µs"
    return f"{s * 1e9:.3g} ns"


def fmt_bw(g):
    return f"{g:.3g} GB/s"


def fmt_ratio(r):
    if r != r:
        return "-"
    if r >= 100:
        return f"{r:.0f}"
    if r >= 10:
        return f"{r:.1f}"
    return f"{r:.2f}"


# ------------------------------------------------------------------ table
class Row:
    """One line of the table.

    `target` is (text, predicate on usmarray's Stat, value used in the ratio)
    or None; the ratio is usmarray / NumPy medians."""

    def __init__(self, label, ua=None, np=None, dpt=None, target=None, note=None, error=None,
                 ratio_target=None):
        self.label = label
        self.ua = ua
        self.np = np
        self.dpt = dpt
        self.target = target              # (text, fn(ua Stat) -> bool) about usmarray's value
        self.ratio_target = ratio_target  # (text, fn(ratio) -> bool)
        self.note = note
        self.error = error
        self.other_load = None            # CPUs used by other processes while measured

    @property
    def ratio(self):
        if self.ua is None or self.np is None:
            return float("nan")
        return self.ua.median / self.np.median

    def status(self):
        checks = []
        if self.target is not None and self.ua is not None:
            checks.append(self.target[1](self.ua))
        if self.ratio_target is not None and self.ua is not None and self.np is not None:
            checks.append(self.ratio_target[1](self.ratio))
        if self.error:
            return "ERROR"
        if not checks:
            return ""
        return "ok" if all(checks) else "MISS"

    def target_text(self):
        parts = [t[0] for t in (self.target, self.ratio_target) if t is not None]
        return ", ".join(parts)


class Table:
    def __init__(self, with_dpt, dpt_label="dpnp.tensor", ref_label="NumPy"):
        self.with_dpt = with_dpt
        self.dpt_label = dpt_label    # header of the third library's column
        self.ref_label = ref_label    # header of the column usmarray is compared with
        self.rows = []        # Row or a section title (str)
        self.notes = []       # footnote texts; a Row's note is an index into it (1-based)

    def section(self, title):
        self.rows.append(title)

    def footnote(self, text):
        self.notes.append(text)
        return len(self.notes)

    def add(self, row):
        self.rows.append(row)
        return row

    def render(self):
        head = ["measurement", "usmarray", "(min .. max)", self.ref_label,
                "ratio ua/np" if self.ref_label == "NumPy" else "ratio"]
        if self.with_dpt:
            head.append(self.dpt_label)
        head += ["target", "status", "other load"]
        body = []
        for r in self.rows:
            if isinstance(r, str):
                body.append(r)
                continue
            label = r.label + (f" [{r.note}]" if r.note else "")
            cells = [label,
                     r.ua.fmt() if r.ua else ("error" if r.error else "-"),
                     f"({r.ua.fmt_range()})" if r.ua else "",
                     r.np.fmt() if r.np else "-",
                     fmt_ratio(r.ratio)]
            if self.with_dpt:
                cells.append(r.dpt.fmt() if isinstance(r.dpt, Stat) else (r.dpt or "-"))
            ol = r.other_load
            cells += [r.target_text(), r.status(),
                      "?" if ol is None else f"{ol:.2f} CPU" + (" BUSY" if ol > BUSY_CPUS else "")]
            body.append(cells)
        widths = [len(h) for h in head]
        for cells in body:
            if isinstance(cells, list):
                widths = [max(w, len(c)) for w, c in zip(widths, cells)]
        right = {1, 3, 4} | ({5} if self.with_dpt else set())

        def line(cells):
            out = []
            for i, (c, w) in enumerate(zip(cells, widths)):
                out.append(c.rjust(w) if i in right else c.ljust(w))
            return "  ".join(out).rstrip()

        total = sum(widths) + 2 * (len(widths) - 1)
        lines = [line(head), "-" * total]
        for cells in body:
            if isinstance(cells, str):
                lines.append(cells)
            else:
                lines.append(line(cells))
        lines.append("-" * total)
        for i, n in enumerate(self.notes, 1):
            lines.append(_wrap(f"[{i}] ", n, total))
        return "\n".join(lines)


def _wrap(prefix, text, width):
    import textwrap

    return textwrap.fill(text, width=max(width, 60), initial_indent=prefix,
                         subsequent_indent=" " * len(prefix))


# ------------------------------------------------------------------ environment
def header(ua, np, dpt=None, dpt_reason=""):
    """Lines describing the machine, device, versions and date."""
    from importlib import metadata

    def ver(pkg):
        try:
            return metadata.version(pkg)
        except Exception:
            return "not installed"

    q = ua.get_default_queue()
    dev = q.sycl_device
    try:
        filt = dev.filter_string
    except Exception:
        filt = "?"
    lines = [
        f"date:        {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"device:      {dev.name} ({filt}, driver {dev.driver_version}, "
        f"{dev.max_compute_units} compute units)",
        f"host:        {platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"Python {platform.python_version()}",
        f"versions:    usmarray {ua.__version__}, numpy {np.__version__}, dpctl {ver('dpctl')}, "
        f"intel-sycl-rt {ver('intel-sycl-rt')}, intel-opencl-rt {ver('intel-opencl-rt')}",
    ]
    lines.append(f"load:        {load_text()} (other processes running compete for the "
                 f"{os.cpu_count()} CPUs the device uses)")
    if dpt is not None:
        lines.append(f"dpnp.tensor: dpnp {ver('dpnp')} (column shown)")
    else:
        lines.append(f"dpnp.tensor: not importable, column omitted ({dpt_reason})")
    return lines


class OtherLoad:
    """CPU time used by other processes (everything but this process and its
    waited-for children) while a measurement ran, in CPUs on average: a run
    that shares the machine's few cores with other work is not reliable.

    Linux only (/proc/stat); elsewhere `cpus()` returns None."""

    def __init__(self):
        self._t0 = self._sample()

    @staticmethod
    def _sample():
        import resource

        try:
            with open("/proc/stat") as f:
                fields = [int(v) for v in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        hz = os.sysconf("SC_CLK_TCK")
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        busy = (sum(fields[:8]) - idle) / hz   # user..steal, without guest (counted in user)
        own = 0.0
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
            r = resource.getrusage(who)
            own += r.ru_utime + r.ru_stime
        return time.perf_counter(), busy, own

    def cpus(self):
        t1 = self._sample()
        if self._t0 is None or t1 is None:
            return None
        wall = t1[0] - self._t0[0]
        if wall <= 0:
            return None
        others = (t1[1] - self._t0[1]) - (t1[2] - self._t0[2])
        return max(others, 0.0) / wall


def load_text():
    """The 1, 5 and 15 minute load averages, as text."""
    try:
        a, b, c = os.getloadavg()
        return f"load average {a:.2f}, {b:.2f}, {c:.2f}"
    except OSError:
        return "load average unknown"


def clean_up(ua=None):
    """Drop garbage and usmarray's cached pool blocks between big rows."""
    import gc

    gc.collect()
    if ua is not None:
        ua.synchronize()
        ua.free_cached_memory()
