"""Boolean masks: the number of true elements (which must reach the host:
it is a result's length), their positions, and the compaction and
expansion of values by a mask (``x[mask]``, ``x[mask] = v``, nonzero).
One scan of the mask per use (kernels/sycl/scan.cpp)."""

from . import _dtypes, _engine, _kernels
from ._array import empty_array
from ._views import reshape

__all__ = ["mask_offsets", "flat_mask", "true_positions"]


def _mask_core_names(_key, qi):
    v = ["_vec"] if _kernels.simd_kernels(qi) else []
    return [f"{k}{s}<i8>" for k in ("mask_count", "mask_index") for s in [""] + v] + \
        ["mask_offsets<i8>"]


def _mask_move_names(t, qi):
    v = ["_vec"] if _kernels.simd_kernels(qi) else []
    return [f"{k}{s}<{t}>" for k in ("mask_compact", "mask_expand") for s in [""] + v]


# boolean masks and nonzero: the count and the indices in one bundle, the
# compaction and expansion of values in one per item size
_kernels.register_family(_kernels.Family(
    ("mask_count", "mask_offsets", "mask_index", "mask_count_vec", "mask_index_vec"),
    "scan.cpp", lambda a: "i8", _mask_core_names, lambda qi: ("i8",), cost=6))
_kernels.register_family(_kernels.Family(
    ("mask_compact", "mask_expand", "mask_compact_vec", "mask_expand_vec"), "scan.cpp",
    lambda a: a[0], _mask_move_names, lambda qi: _kernels.MOVE_TYPES, cost=6))
# elements per tile of the generic mask kernels (usm::kScanTile): the
# offsets array has one entry per tile and one for the total
_MASK_TILE = 2048


def mask_offsets(m):
    """(tile offsets, count of true elements) of a contiguous 1-D bool mask:
    one host wait, for the count."""
    qi = m._q
    n = m._shape[0]
    off = empty_array((-(-n // _MASK_TILE) + 1,), _dtypes.int64, qi, m._alloc.kind)
    return off, (_engine.mask_count(qi.ref, qi.kc, m, off) if n else 0)


def flat_mask(mask):
    """`mask` as a contiguous 1-D bool array (a view when it is one)."""
    m = reshape(mask, (-1,))
    return m if m._flags & 1 else reshape(mask, (-1,), copy=True)


def true_positions(mask):
    """int64 indices of the true elements of a bool array, in C order of the
    flattened mask. The count must reach the host (it is the result's
    length): one wait for the device."""
    m = flat_mask(mask)
    qi = m._q
    off, count = mask_offsets(m)
    out = empty_array((count,), _dtypes.int64, qi, m._alloc.kind)
    if count:
        _engine.mask_compact(qi.ref, qi.kc, m, out, off, out, True)
    return out
