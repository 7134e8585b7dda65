"""``packbits`` and ``unpackbits``: bits of integer or bool arrays packed
into uint8 bytes and back, along an axis, in big- or little-endian bit order
(NumPy's functions). Elementwise shifts, masks and a sum over each byte's 8
bits, on the device."""

import operator

from . import elementwise as ew, manipulation, reduction
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._exceptions import DTypeError
from ._core._views import check_array, normalize_axis
from .creation import asarray, zeros

__all__ = ["packbits", "unpackbits"]


def _shifts(bitorder, like):
    """Each bit's position within its byte: 7..0 ("big", the first bit is
    the most significant) or 0..7 ("little"), beside the array `like`."""
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    s = list(range(7, -1, -1)) if bitorder == "big" else list(range(8))
    return asarray(s, dtype=_dtypes.uint8, sycl_queue=like.sycl_queue, usm_type=like.usm_type)


def _along_last(a, axis, name):
    """a flattened (axis None) or with `axis` moved last, and where it goes back."""
    check_array(a, name)
    if axis is None or a.ndim == 0:   # (NumPy's: a 0-d array is 1-d here)
        return manipulation.reshape(a, (-1,)), None if axis is None else \
            normalize_axis(axis, 1)
    ax = normalize_axis(axis, a.ndim)
    return manipulation.moveaxis(a, ax, -1), ax


def packbits(a, /, axis=None, bitorder="big"):
    """The elements of `a` (integer or bool: nonzero is a 1 bit) packed 8 to
    a uint8 byte along `axis` (the flattened array when None), the last
    byte padded with 0 bits, as ``numpy.packbits``."""
    if isinstance(a, usm_ndarray) and a.dtype.kind not in "biu":
        raise DTypeError("Expected an input array of integer or boolean data type")
    x, ax = _along_last(a, axis, "packbits")
    shifts = _shifts(bitorder, a)
    n = x.shape[-1]
    nbytes = -(-n // 8)
    bits = astype(ew.not_equal(x, 0), _dtypes.uint8)
    if nbytes * 8 != n:
        pad = zeros(x.shape[:-1] + (nbytes * 8 - n,), dtype=_dtypes.uint8,
                    sycl_queue=a.sycl_queue, usm_type=a.usm_type)
        bits = manipulation.concat([bits, pad], axis=-1)
    bits = manipulation.reshape(bits, x.shape[:-1] + (nbytes, 8))
    # distinct powers of two: their sum is an OR, within a byte
    r = reduction.sum(ew.bitwise_left_shift(bits, shifts), axis=-1, dtype=_dtypes.uint8)
    return r if ax is None else manipulation.moveaxis(r, -1, ax)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 array `a`, 8 per byte, as uint8 0s and 1s along
    `axis` (the flattened array when None), as ``numpy.unpackbits``:
    `count` keeps that many bits (padding with zeros past the end) or, when
    negative, drops that many from the end."""
    if isinstance(a, usm_ndarray) and a.dtype != _dtypes.uint8:
        raise DTypeError("Expected an input array of unsigned byte data type")
    x, ax = _along_last(a, axis, "unpackbits")
    shifts = _shifts(bitorder, a)
    bits = ew.bitwise_and(ew.bitwise_right_shift(x[..., None], shifts), 1)
    total = x.shape[-1] * 8
    bits = manipulation.reshape(bits, x.shape[:-1] + (total,))
    if count is not None:
        if isinstance(count, bool):
            raise TypeError("unpackbits: count must be an integer or None")
        count = operator.index(count)
        if count < -total:
            raise ValueError("-count larger than number of elements")
        keep = count if count >= 0 else total + count
        if keep <= total:
            bits = bits[..., :keep]
        else:
            pad = zeros(x.shape[:-1] + (keep - total,), dtype=_dtypes.uint8,
                        sycl_queue=a.sycl_queue, usm_type=a.usm_type)
            bits = manipulation.concat([bits, pad], axis=-1)
    return bits if ax is None else manipulation.moveaxis(bits, -1, ax)
