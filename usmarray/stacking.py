"""NumPy's joining and splitting beyond the array API, as CuPy has them:
``atleast_1d``/``2d``/``3d``, ``vstack``, ``hstack``, ``dstack``,
``column_stack``, ``block``, ``split``, ``array_split``, ``hsplit``,
``vsplit``, ``dsplit`` and ``append``: views and ``concat`` on the array's
device."""

import operator

import numpy as np

from . import manipulation
from ._core import _copy, _dtypes
from ._core._array import usm_ndarray
from ._core._device import coerced_kind, common_queue, resolve_queue
from ._core._views import check_array
from ._core._reduce import normalize_axes
from .creation import as_pair, asarray

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack", "dstack", "column_stack",
           "block", "split", "array_split", "hsplit", "vsplit", "dsplit", "append"]


def _atleast(name, nd, arys):
    out = []
    for a in arys:
        check_array(a, name)
        if a.ndim < nd:
            if nd == 3 and a.ndim == 2:
                a = manipulation.reshape(a, a.shape + (1,))
            elif nd == 3 and a.ndim == 1:
                a = manipulation.reshape(a, (1,) + a.shape + (1,))
            else:
                a = manipulation.reshape(a, (1,) * (nd - a.ndim) + a.shape)
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Arrays with at least one dimension, as ``numpy.atleast_1d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; a 0-d array becomes shape (1,).
    """
    return _atleast("atleast_1d", 1, arys)


def atleast_2d(*arys):
    """Arrays with at least two dimensions, as ``numpy.atleast_2d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; shape (N,) becomes (1, N), 0-d becomes (1, 1).
    """
    return _atleast("atleast_2d", 2, arys)


def atleast_3d(*arys):
    """Arrays with at least three dimensions, as ``numpy.atleast_3d``.

    Parameters
    ----------
    *arys : usm_ndarray
        The arrays.

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        Views; (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1).
    """
    return _atleast("atleast_3d", 3, arys)


def _as_list(name, tup):
    if isinstance(tup, usm_ndarray) or not isinstance(tup, (list, tuple)):
        raise TypeError(f"{name}: arrays to stack must be passed as a list or tuple")
    if not tup:
        raise ValueError(f"{name}: need at least one array to concatenate")
    return list(tup)


def _cast_all(arrays, dtype, casting):
    """The arrays in `dtype` (None: as they are) if NumPy's `casting` rule
    allows it (TypeError otherwise, as NumPy's)."""
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe', got {casting!r}")
    if dtype is None:
        return arrays
    dt = _dtypes.to_dtype(dtype)
    for a in arrays:
        if not np.can_cast(a.dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {dt!r} according to "
                            f"the rule {casting!r}")
    return [_copy.astype(a, dt) for a in arrays]


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays row-wise (along the first axis), as ``numpy.vstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays; 1-d ones are taken as rows (1, N).
    dtype : dtype, optional
        The result type.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}
        NumPy's rule for casting to `dtype`.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 0 of the arrays made at least 2-d.
    """
    arrs = [atleast_2d(a) for a in _as_list("vstack", tup)]
    return manipulation.concat(_cast_all(arrs, dtype, casting), axis=0)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays column-wise, as ``numpy.hstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays.
    dtype : dtype, optional
        The result type.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}
        NumPy's rule for casting to `dtype`.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 1 (along axis 0 for 1-d arrays).
    """
    arrs = [atleast_1d(a) for a in _as_list("hstack", tup)]
    axis = 0 if arrs[0].ndim == 1 else 1
    return manipulation.concat(_cast_all(arrs, dtype, casting), axis=axis)


def dstack(tup):
    """Stack arrays depth-wise (along the third axis), as ``numpy.dstack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        Arrays; (N,) is taken as (1, N, 1), (M, N) as (M, N, 1).

    Returns
    -------
    usm_ndarray
        The concatenation along axis 2 of the arrays made at least 3-d.
    """
    arrs = [atleast_3d(a) for a in _as_list("dstack", tup)]
    return manipulation.concat(arrs, axis=2)


def column_stack(tup):
    """Stack 1-d arrays as columns of a 2-d array, as ``numpy.column_stack``.

    Parameters
    ----------
    tup : list or tuple of usm_ndarray
        1-d arrays (columns) and 2-d arrays.

    Returns
    -------
    usm_ndarray
        The concatenation along axis 1.
    """
    arrs = []
    for a in _as_list("column_stack", tup):
        check_array(a, "column_stack")
        arrs.append(manipulation.reshape(a, (-1, 1)) if a.ndim < 2 else a)
    return manipulation.concat(arrs, axis=1)


def _block_layout(a, where, leaves):
    """(list depth, largest block ndim) of the nested lists `a`, collecting
    the blocks into `leaves`; NumPy's errors for tuples, empty lists and
    mismatched depths."""
    if isinstance(a, tuple):
        raise TypeError(f"arrays{where} is a tuple. Only lists can be used to arrange blocks, "
                        "and block does not allow implicit conversion from tuple to an array.")
    if isinstance(a, list):
        if not a:
            raise ValueError(f"List at arrays{where} cannot be empty")
        parts = [_block_layout(x, f"{where}[{i}]", leaves) for i, x in enumerate(a)]
        if any(p[0] != parts[0][0] for p in parts):
            raise ValueError(f"List depths are mismatched in arrays{where}: every block must be "
                             "nested in the same number of lists")
        return parts[0][0] + 1, max(p[1] for p in parts)
    leaves.append(a)
    return 0, a.ndim if isinstance(a, usm_ndarray) else np.ndim(a)


def block(arrays):
    """An array assembled from nested lists of blocks, as ``numpy.block``:
    the innermost lists are joined along the last axis, the lists holding
    them along the one before, and so on.

    Parameters
    ----------
    arrays : nested list of usm_ndarray or scalars
        Blocks, every one nested in the same number of lists (tuples are
        refused, as NumPy does). Blocks of fewer dimensions than the result
        get leading axes of length 1. Scalars and host data are copied to
        the usm_ndarrays' common queue.

    Returns
    -------
    usm_ndarray
        Of the blocks' promoted dtype, with max(list depth, largest block
        ndim) dimensions.
    """
    leaves = []
    depth, nd = _block_layout(arrays, "", leaves)
    nd = max(nd, depth)
    devs = [a for a in leaves if isinstance(a, usm_ndarray)]
    q = common_queue(*devs) if devs else resolve_queue(None, None)
    kind = coerced_kind(devs)

    def assemble(a, level):
        if isinstance(a, list):
            return manipulation.concat([assemble(x, level + 1) for x in a], axis=level - depth)
        a = a if isinstance(a, usm_ndarray) else asarray(a, sycl_queue=q.queue, usm_type=kind)
        return manipulation.reshape(a, (1,) * (nd - a.ndim) + a.shape) if a.ndim < nd else a

    r = assemble(arrays, 0)
    # (a single block: a copy, as NumPy's, never the block itself)
    return r if depth else asarray(r, copy=True)


def _split(name, ary, indices_or_sections, axis, equal):
    check_array(ary, name)
    if ary.ndim == 0:
        raise ValueError(f"{name}: cannot split a 0-d array")
    axis = normalize_axes(axis, ary.ndim)[0]
    n = ary.shape[axis]
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        cuts = [operator.index(i) for i in indices_or_sections]
        bounds = [0] + cuts + [n]
    else:
        if sections <= 0:
            raise ValueError(f"{name}: number sections must be larger than 0")
        each, extra = divmod(n, sections)
        if equal and extra:
            raise ValueError(f"{name}: array split does not result in an equal division")
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = [0]
        for s in sizes:
            bounds.append(bounds[-1] + s)
    head = (slice(None),) * axis
    return [ary[head + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def array_split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays (views), as ``numpy.array_split``.

    Parameters
    ----------
    ary : usm_ndarray
        The array.
    indices_or_sections : int or sequence of ints
        A number of sections (the first ``n % sections`` one longer), or the
        indices where `axis` is cut.
    axis : int
        The axis to split.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    return _split("array_split", ary, indices_or_sections, axis, False)


def split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays (views), as ``numpy.split``.

    Parameters
    ----------
    ary : usm_ndarray
        The array.
    indices_or_sections : int or sequence of ints
        A number of equal sections (ValueError if they cannot be equal), or
        the indices where `axis` is cut.
    axis : int
        The axis to split.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    return _split("split", ary, indices_or_sections, axis, True)


def hsplit(ary, indices_or_sections):
    """Split horizontally (axis 1; axis 0 for 1-d), as ``numpy.hsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 1-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    check_array(ary, "hsplit")
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split("hsplit", ary, indices_or_sections, 1 if ary.ndim > 1 else 0, True)


def vsplit(ary, indices_or_sections):
    """Split vertically (axis 0), as ``numpy.vsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 2-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    check_array(ary, "vsplit")
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("vsplit", ary, indices_or_sections, 0, True)


def dsplit(ary, indices_or_sections):
    """Split depth-wise (axis 2), as ``numpy.dsplit``.

    Parameters
    ----------
    ary : usm_ndarray
        The array (at least 3-d).
    indices_or_sections : int or sequence of ints
        As :func:`split`'s.

    Returns
    -------
    list of usm_ndarray
        The pieces.
    """
    check_array(ary, "dsplit")
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", ary, indices_or_sections, 2, True)


def append(arr, values, axis=None):
    """`values` appended to `arr` (a copy), as ``numpy.append``.

    Parameters
    ----------
    arr : usm_ndarray
        The array.
    values : usm_ndarray or scalar
        What to append; with an `axis` it must have `arr`'s shape except
        along `axis`.
    axis : int, optional
        None: both are flattened first.

    Returns
    -------
    usm_ndarray
        The concatenation (type promotion as ``concat``'s).
    """
    arr, values = as_pair("append", arr, values)
    if axis is None:
        arr, values = manipulation.reshape(arr, (-1,)), manipulation.reshape(values, (-1,))
        axis = 0
    return manipulation.concat([arr, values], axis=axis)
