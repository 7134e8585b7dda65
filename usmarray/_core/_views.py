"""Views: the array's memory seen with another shape, strides or order of
axes (reshape, permute_dims, expand_dims, squeeze, flip, moveaxis,
swapaxes, matrix_transpose, unstack, broadcast_to), and reshape's copy when
the layout allows no view. The array API's manipulation functions that
need only a view are defined here, where indexing and the reductions
reach them; ``usmarray.manipulation`` exports them."""

import operator

import numpy as np

from ._array import c_view, empty_array, usm_ndarray, view
from ._copy import broadcast_view, copy_into
from ._exceptions import AxisError
from ._layout import C_CONTIG, F_CONTIG, c_strides, f_strides, normalize_shape

__all__ = ["reshape", "reshaped_view", "broadcast_to", "permute_dims", "expand_dims", "squeeze",
           "flip", "moveaxis", "swapaxes", "matrix_transpose", "unstack", "check_array",
           "normalize_axis", "as_tuple", "axis_tuple"]


def check_array(x, name=None):
    """`x`, or TypeError naming the function `name` when it is not a usm_ndarray."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name + ': ' if name else ''}expected a usm_ndarray, "
                        f"got {type(x).__name__}")
    return x


def normalize_axis(axis, nd):
    """`axis` (an integer, negative from the end) as one in [0, nd), or AxisError."""
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        raise AxisError(f"axis {axis} is out of bounds for an array of dimension {nd}")
    return axis % nd


def _reshaped_strides(shape, strides, new_shape, order):
    """Strides viewing (shape, strides) as new_shape without a copy, or None
    (NumPy's attempt_nocopy_reshape, for C or F order)."""
    old = [(s, st) for s, st in zip(shape, strides) if s != 1]
    if order == "F":
        old = old[::-1]
        new = list(new_shape)[::-1]
    else:
        new = list(new_shape)
    out = [0] * len(new)
    oi = ni = 0
    while oi < len(old) and ni < len(new):
        if new[ni] == 1:
            out[ni] = 0
            ni += 1
            continue
        np_, op_ = new[ni], old[oi][0]
        nj, oj = ni + 1, oi + 1
        while np_ != op_:
            if np_ < op_:
                np_ *= new[nj]
                nj += 1
            else:
                op_ *= old[oj][0]
                oj += 1
        for k in range(oi, oj - 1):
            if old[k][1] != old[k + 1][0] * old[k + 1][1]:
                return None
        st = old[oj - 1][1]
        for k in range(nj - 1, ni - 1, -1):
            out[k] = st
            st *= new[k]
        oi, ni = oj, nj
    for k in range(ni, len(new)):
        out[k] = 0
    if order == "F":
        out = out[::-1]
    return tuple(out)


def _new_shape(x, shape):
    """`shape` (an int or a sequence, one -1 allowed) checked against x's size."""
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    if any(isinstance(s, (bool, np.bool_)) for s in shape):
        raise TypeError(f"shape must be a sequence of ints, got {tuple(shape)!r} (bools)")
    try:
        shape = [operator.index(s) for s in shape]
    except TypeError:
        raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    size = x.size
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape an array of size {size} into shape {tuple(shape)}")
        shape[shape.index(-1)] = size // known
    shape = normalize_shape(tuple(shape))
    n = 1
    for s in shape:
        n *= s
    if n != size:
        raise ValueError(f"cannot reshape an array of size {size} into shape {shape}")
    return shape


def reshaped_view(x, shape, order="C"):
    """A view of `x` with a new shape (ValueError for the wrong size), or None
    when x's layout needs a copy for it."""
    shape = _new_shape(x, shape)
    if order == "C" and x._flags & C_CONTIG:
        return c_view(x, shape)
    if x.size == 0:
        st = c_strides(shape) if order == "C" else f_strides(shape)
        return view(x, x._off, shape, st)
    st = _reshaped_strides(x._shape, x._strides, shape, order)
    return None if st is None else view(x, x._off, shape, st)


def reshape(x, /, shape, *, order="C", copy=None):
    """`x` with a new shape: a view when the layout allows, a copy otherwise
    (``copy=False`` raises ValueError when a copy would be needed). `order`
    "C", "F" or NumPy's "A" (F for an F- and not C-contiguous x, else C)."""
    check_array(x)
    if copy not in (None, True, False):
        raise ValueError(f"copy must be True, False or None, got {copy!r}")
    if order == "A":
        order = "F" if (x._flags & (C_CONTIG | F_CONTIG)) == F_CONTIG else "C"
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C', 'F' or 'A', got {order!r}")
    if copy is not True:
        v = reshaped_view(x, shape, order)
        if v is not None:
            return v
        if copy is False:
            raise ValueError("reshape needs a copy for this layout, but copy=False")
    shape = _new_shape(x, shape)
    size = x.size
    # copy: read x in `order`, write a new contiguous array
    out = empty_array(shape, x._dtype, x._q, x._alloc.kind, order)
    if size:
        src_flat = x if (x._flags & (1 if order == "C" else 2)) else _contiguous(x, order)
        st = _reshaped_strides(src_flat._shape, src_flat._strides, shape, order)
        copy_into(out, view(src_flat, src_flat._off, shape, st))
    return out


def ravel(x, order="C"):
    """`x` as 1-d and contiguous, a view where x's memory is that already
    (a copy otherwise, as NumPy's): read in `order`, "C", "F", "A" (as
    reshape) or NumPy's "K", the axes in the order of their strides' sizes
    (each still read in its own direction, as NumPy's)."""
    check_array(x)
    if order == "K" and not x._flags & C_CONTIG:
        if (x._flags & (C_CONTIG | F_CONTIG)) == F_CONTIG:
            order = "F"
        else:
            x, order = permute_dims(x, _k_order(x._shape, x._strides)), "C"
    r = reshape(x, (-1,), order="C" if order == "K" else order)
    # (contiguous, as NumPy's: a strided 1-D view, x[::2] or x[::-1, ::-1]
    # folded into one stride, is copied; reshape(-1) keeps such views)
    return r if r._flags & C_CONTIG else reshape(r, (-1,), copy=True)


def _k_order(shape, strides):
    """NumPy's "K" order of axes, its iterator's: on the axes from the
    innermost (the last) out, a stable insertion sort moves an axis inwards
    past those of larger strides; one of stride 0 or length 1 is ambiguous
    and compares with nothing (ravel of broadcast_to([[1, 2, 3]], (2, 3)) is
    1 2 3 1 2 3). Returned outermost first."""
    perm = list(range(len(shape)))[::-1]
    for i0 in range(1, len(perm)):
        ipos, a0 = i0, perm[i0]
        for i1 in range(i0 - 1, -1, -1):
            a1 = perm[i1]
            if 0 in (strides[a0], strides[a1]) or 1 in (shape[a0], shape[a1]):
                continue
            if abs(strides[a1]) > abs(strides[a0]):
                ipos = i1
            else:
                break
        if ipos != i0:
            perm.insert(ipos, perm.pop(i0))
    return tuple(perm[::-1])


def _contiguous(x, order):
    out = empty_array(x._shape, x._dtype, x._q, x._alloc.kind, order)
    copy_into(out, x)
    return out


def broadcast_to(x, /, shape):
    """Read-only view of `x` broadcast to `shape` (ValueError if incompatible,
    also for a shape of fewer dimensions than x's, as NumPy and dpctl.tensor)."""
    check_array(x)
    shape = normalize_shape(shape)
    if len(shape) < len(x._shape):
        raise ValueError(f"cannot broadcast an array of shape {x._shape} to the shape {shape} "
                         "of fewer dimensions")
    v = broadcast_view(x, shape)
    if v is x:
        v = view(x, x._off, x._shape, x._strides)
    v._flags &= ~4   # broadcast views share elements: not writable, as in NumPy
    return v


def permute_dims(x, /, axes):
    """View of `x` with its axes permuted."""
    check_array(x)
    nd = len(x._shape)
    axes = [normalize_axis(a, nd) for a in as_tuple(axes)]   # ((0) is 0: dpctl.tensor took it)
    if sorted(axes) != list(range(nd)):
        raise ValueError(f"axes {tuple(axes)} are not a permutation of the {nd} dimensions")
    return _permuted(x, axes)


def _permuted(x, axes):
    shape, strides = x._shape, x._strides
    return view(x, x._off, tuple([shape[a] for a in axes]), tuple([strides[a] for a in axes]))


def expand_dims(x, /, axis=0):
    """View of `x` with a new axis of length 1 at `axis` (int or tuple)."""
    check_array(x)
    axes = as_tuple(axis)
    nd = x.ndim + len(axes)
    axes = sorted(normalize_axis(a, nd) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis in expand_dims")
    shape, strides = list(x._shape), list(x._strides)
    for a in axes:
        shape.insert(a, 1)
        strides.insert(a, 0)
    return view(x, x._off, tuple(shape), tuple(strides))


def squeeze(x, /, axis=None):
    """View of `x` without the given axes of length 1 (all of them for
    ``axis=None``, as in NumPy and dpctl.tensor)."""
    check_array(x)
    nd = x.ndim
    if axis is None:
        axes = {i for i in range(nd) if x._shape[i] == 1}
    elif nd == 0 and type(axis) is int and axis in (0, -1):
        # (NumPy's and dpctl.tensor's: axis 0 of a 0-d array squeezes nothing)
        return view(x, x._off, (), ())
    else:
        given = [normalize_axis(a, nd) for a in as_tuple(axis)]
        axes = set(given)
        if len(axes) != len(given):
            raise ValueError("squeeze: repeated axis")
    for a in axes:
        if x._shape[a] != 1:
            raise ValueError(f"cannot squeeze axis {a}: its length is {x._shape[a]}, not 1")
    keep = [i for i in range(nd) if i not in axes]
    return view(x, x._off, tuple(x._shape[i] for i in keep), tuple(x._strides[i] for i in keep))


def as_tuple(v):
    """An int or a sequence of them (tuple, list, range...) as a tuple: the
    forms NumPy and dpctl.tensor take for axes, shifts and repetitions."""
    if isinstance(v, tuple):
        return v
    if isinstance(v, (list, range)):
        return tuple(v)
    return (v,)


def axis_tuple(axis, nd, what="axis"):
    """Tuple of non-negative axes from an int or a tuple (or list) of ints
    (no repeats)."""
    out = tuple(normalize_axis(a, nd) for a in as_tuple(axis))
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {what}")
    return out


def flip(x, /, *, axis=None):
    """View of `x` with the order of elements reversed along `axis` (default: all)."""
    check_array(x)
    nd = x.ndim
    axes = range(nd) if axis is None else axis_tuple(axis, nd)
    off, strides = x._off, list(x._strides)
    for a in axes:
        if x._shape[a] > 0:
            off += (x._shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return view(x, off, x._shape, tuple(strides))


def moveaxis(x, source, destination, /):
    """View of `x` with axes `source` moved to positions `destination`."""
    check_array(x)
    nd = len(x._shape)
    if type(source) is int and type(destination) is int:
        # one axis: the common case, without the tuples' checks
        s, d = normalize_axis(source, nd), normalize_axis(destination, nd)
        if s == d:
            return view(x, x._off, x._shape, x._strides)
        order = list(range(nd))
        order.pop(s)
        order.insert(d, s)
        return _permuted(x, order)
    src = axis_tuple(source, nd, "source")
    dst = axis_tuple(destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    order = [a for a in range(nd) if a not in src]
    for d, a in sorted(zip(dst, src)):
        order.insert(d, a)
    return permute_dims(x, tuple(order))


def swapaxes(x, axis1, axis2, /):
    """View of `x` with axes `axis1` and `axis2` interchanged (dpctl.tensor, NumPy)."""
    check_array(x)
    nd = x.ndim
    a, b = normalize_axis(axis1, nd), normalize_axis(axis2, nd)
    order = list(range(nd))
    order[a], order[b] = b, a
    return permute_dims(x, tuple(order))


def matrix_transpose(x, /):
    """View of `x` with its last two axes swapped (``x.mT``)."""
    check_array(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs an array of at least 2 dimensions")
    return x.mT


def unstack(x, /, *, axis=0):
    """Tuple of views of `x`, one per index along `axis`."""
    check_array(x)
    a = normalize_axis(axis, x.ndim) if x.ndim else normalize_axis(axis, 0)
    shape = x._shape[:a] + x._shape[a + 1:]
    strides = x._strides[:a] + x._strides[a + 1:]
    return tuple(view(x, x._off + i * x._strides[a], shape, strides) for i in range(x._shape[a]))
