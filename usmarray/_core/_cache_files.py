"""The kernel cache's files: where they are, how much they hold, when they
were last used, and removing those no process uses any more
(``usmarray cache``).

A bundle's entry is written once and never changed, so its modification
time can record its last use: a process that reads an entry sets it to now
when it is more than a day old (one ``stat`` per entry read, and at most one
``utime`` a day). Entries of earlier usmarray versions, kernel sources and
devices are keyed differently and are never read again; their modification
times age, and ``prune`` removes them. Removing an entry a process still
uses costs that process a compile, never a wrong result: entries are read
whole or not at all (``_kernels._read_entry``).

The directories are those under ``_env.cache_dir()`` that usmarray writes:
``kernels`` (its entries), ``sycl`` (the SYCL runtime's persistent cache,
for backends whose binaries usmarray does not keep) and ``user-novec``
(markers of user kernels without a vector form).
"""

import os
import time

from . import _env

__all__ = ["kernel_cache_dir", "disk_cache_enabled", "cache_info", "mark_used", "prune", "clear"]

_DAY = 86400.0
_SUBDIRS = ("kernels", "sycl", "user-novec")


def kernel_cache_dir():
    return os.path.join(_env.cache_dir(), "kernels")


def disk_cache_enabled():
    return os.environ.get("USMARRAY_DISK_CACHE", "1") != "0"


def mark_used(path):
    """Record a use of the cache file `path` (see the module docstring)."""
    try:
        if time.time() - os.stat(path).st_mtime > _DAY:
            os.utime(path)
    except OSError:
        pass   # (a read-only cache, or the file removed meanwhile)


# The SYCL runtime's persistent cache: binaries, sources, locks and the
# eviction bookkeeping of its nested per-program directories.
_RUNTIME_FILES = (".bin", ".src", ".lock", "_access_time.txt")


def _owned(sub, nested, name, size):
    """Whether a file is one usmarray or the runtime wrote: a cache directory
    may be shared with the user's own files (``USMARRAY_CACHE_DIR=.`` in a
    project with a ``kernels`` folder), which usmarray never counts or
    removes."""
    if sub == "kernels":   # entries and their temporaries, not nested
        return not nested and (name.endswith(".bin") or ".bin.tmp." in name)
    if sub == "user-novec":   # empty markers, not nested
        return not nested and size == 0
    return name.endswith(_RUNTIME_FILES) or name == "cache_size.txt"


def _files():
    """(path, bytes, modification time) of every file of the cache."""
    root = _env.cache_dir()
    for sub in _SUBDIRS:
        top = os.path.join(root, sub)
        for dirpath, _, names in os.walk(top):
            for n in names:
                p = os.path.join(dirpath, n)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                if _owned(sub, dirpath != top, n, st.st_size):
                    yield p, st.st_size, st.st_mtime


def cache_info():
    """Location, entry count and size in bytes of the disk cache, and the
    bytes of all its files by days since their last use (``"unused"``:
    {"<1", "1-30", ">30"})."""
    d = kernel_cache_dir()
    count = size = 0
    unused = {"<1": 0, "1-30": 0, ">30": 0}
    now = time.time()
    for p, n, mtime in _files():
        if os.path.dirname(p) == d and p.endswith(".bin"):
            count += 1
            size += n
        days = (now - mtime) / _DAY
        unused["<1" if days < 1 else "1-30" if days <= 30 else ">30"] += n
    return {"path": d, "entries": count, "bytes": size, "enabled": disk_cache_enabled(),
            "unused": unused}


def _remove(paths, dry_run):
    count = size = 0
    for p, n in paths:
        if not dry_run:
            try:
                os.unlink(p)
            except OSError:
                continue
        count += 1
        size += n
    return count, size


def prune(days=30, dry_run=False):
    """Remove the cache's files unused for more than `days` days.

    Returns
    -------
    (files, bytes) removed (with `dry_run`, that would be removed).
    """
    if days < 0:
        raise ValueError(f"days must be >= 0, got {days}")
    limit = time.time() - days * _DAY
    removed = _remove([(p, n) for p, n, mtime in _files() if mtime < limit], dry_run)
    if not dry_run:
        _remove_empty_dirs()
    return removed


def clear(dry_run=False):
    """Remove every file of the cache; returns (files, bytes) as prune."""
    removed = _remove([(p, n) for p, n, _ in _files()], dry_run)
    if not dry_run:
        _remove_empty_dirs(tops=True)
    return removed


def _remove_empty_dirs(tops=False):
    # (the SYCL runtime's cache nests a directory per program; rmdir leaves
    # the directories that still hold something, the user's files included)
    for sub in _SUBDIRS:
        top = os.path.join(_env.cache_dir(), sub)
        for dirpath, _, _ in os.walk(top, topdown=False):
            if dirpath != top or tops:
                try:
                    os.rmdir(dirpath)
                except OSError:
                    pass
