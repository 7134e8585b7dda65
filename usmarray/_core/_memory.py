"""Memory pool control and synchronisation helpers."""

from . import _engine
from ._device import default_queue, resolve_queue

__all__ = ["memory_pool_stats", "set_memory_pool_limit", "free_cached_memory",
           "get_default_queue", "synchronize"]


def memory_pool_stats():
    """Bytes and blocks cached by the pool and in use by arrays.

    Freed arrays return their USM block to a pool (one per context, device
    and USM kind) for reuse by later allocations of the same size class; the
    pool caches up to ``limit`` bytes (``USMARRAY_POOL_LIMIT`` or
    :func:`set_memory_pool_limit`).
    """
    return _engine.pool_stats()


def set_memory_pool_limit(nbytes):
    """Cache at most `nbytes` of freed USM for reuse (0 disables the pool)."""
    if not 0 <= nbytes < 2 ** 64:
        raise ValueError(f"the pool limit must be a size in [0, 2**64), not {nbytes!r}")
    _engine.pool_set_limit(int(nbytes))


def free_cached_memory():
    """Return every cached block to the SYCL runtime (waits for pending work on them)."""
    _engine.pool_free_cached()


def get_default_queue(device=None):
    """The dpctl.SyclQueue usmarray uses for `device` (default: the default device)."""
    return (default_queue() if device is None else resolve_queue(device)).queue


def synchronize(device=None):
    """Wait for all work usmarray submitted: the device's default queue and
    every command on arrays usmarray knows, on any queue. Then release the
    foreign memory (dpctl.memory, imported buffers) whose last use completed.
    """
    qi = default_queue() if device is None else resolve_queue(device)
    _engine.queue_wait(qi.ref)
    _engine.synchronize()


def _parse_size(text):
    text = text.strip().lower()
    mult = 1
    for suffix, m in (("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)):
        if text.endswith(suffix):
            text, mult = text[:-1], m
            break
    v = float(text) * mult
    if not 0 <= v < 2 ** 64:   # (also NaN; inf would overflow int())
        raise ValueError(text)
    return int(v)


def _init_from_env():
    import os

    v = os.environ.get("USMARRAY_POOL_LIMIT")
    if v:
        try:
            set_memory_pool_limit(_parse_size(v))
        except ValueError:
            raise ValueError(f"USMARRAY_POOL_LIMIT={v!r} is not a size (e.g. 0, 512M, 2G)") from None


_init_from_env()
