"""Searching functions: where."""

from . import _dtypes, _engine, _kernels
from ._array import empty_array, usm_ndarray
from ._copy import broadcast_shapes, broadcast_view
from ._device import coerce_usm_type, common_queue

__all__ = ["where"]


def _where_family():
    mv = _kernels.MOVE_TYPES
    return _kernels.Family(("where_contig", "where_strided"), "where.cpp", lambda a: a[0],
                           lambda t, qi: [f"where_contig<{t}>"] +
                           [f"where_strided<{t}, {nd}>" for nd in _kernels.STRIDED_VARIANTS],
                           lambda qi: mv)


def _take_family():
    return _kernels.Family(("take_strided",), "where.cpp", lambda a: a[0],
                           lambda t, qi: [f"take_strided<{t}, {nd}>"
                                          for nd in _kernels.STRIDED_VARIANTS],
                           lambda qi: _kernels.MOVE_TYPES)


_kernels.register_family(_where_family())
_kernels.register_family(_take_family())


def where(condition, x1, x2, /):
    """Elements of `x1` where `condition` is true, else of `x2` (broadcast).

    `x1` and `x2` may be Python scalars (not both); the result dtype is
    their promoted dtype.
    """
    from .elementwise import _as_scalar, _cast, _scalar_array, _weak_scalar_dtype

    if not isinstance(condition, usm_ndarray):
        raise TypeError(f"where: condition must be a usm_ndarray, got {type(condition).__name__}")
    arrays = [a for a in (x1, x2) if isinstance(a, usm_ndarray)]
    for v in (x1, x2):
        if not isinstance(v, usm_ndarray) and _as_scalar(v) is None:
            raise TypeError(f"where: x1 and x2 must be usm_ndarrays or Python scalars, got {type(v).__name__}")
    qi = common_queue(condition, *arrays)
    if not arrays:
        raise TypeError("where: at least one of x1, x2 must be a usm_ndarray")
    if len(arrays) == 2:
        dt = _dtypes.promote(x1._dtype, x2._dtype)
    else:
        a = arrays[0]
        s = _as_scalar(x2 if a is x1 else x1)
        dt = _dtypes.promote(a._dtype, _weak_scalar_dtype(s, a._dtype, qi))
    shape = broadcast_shapes(condition._shape, *(a._shape for a in arrays))
    kind = coerce_usm_type([condition._alloc.kind] + [a._alloc.kind for a in arrays])
    ops = []
    for v in (x1, x2):
        if isinstance(v, usm_ndarray):
            v = v if v._dtype is dt else _cast(v, dt)
            ops.append(broadcast_view(v, shape))
        else:
            ops.append(_scalar_array(_as_scalar(v), dt, qi, kind, shape))
    c = condition if condition._dtype is _dtypes.bool else _cast(condition, _dtypes.bool)
    out = empty_array(shape, dt, qi, kind)
    _engine.where(qi.ref, qi.kc, broadcast_view(c, shape), ops[0], ops[1], out)
    return out
