"""Array layouts as plain tuples: strides, contiguity flags, the span of a
view, shape normalisation and broadcasting. No arrays, no devices: every
other module of the core builds on these."""

import operator

__all__ = ["C_CONTIG", "F_CONTIG", "WRITABLE", "RO_LOCK", "KIND_CODE", "c_strides", "f_strides",
           "contig_flags", "displacement_bounds", "normalize_shape", "check_shape",
           "merged_stride", "broadcast_shapes", "MAX_NDIM"]

# flag bits
C_CONTIG = 1
F_CONTIG = 2
WRITABLE = 4
RO_LOCK = 8   # memory that must stay read-only (read-only imports): never writable again

KIND_CODE = {"device": 1, "shared": 2, "host": 3}


def c_strides(shape):
    st, acc = [], 1
    for s in reversed(shape):
        st.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(st))


def f_strides(shape):
    st, acc = [], 1
    for s in shape:
        st.append(acc)
        acc *= max(s, 1)
    return tuple(st)


_FLAGS = {}   # (shape, strides) -> contig_flags: views of the same layouts recur


def contig_flags(shape, strides):
    """C_CONTIG/F_CONTIG bits of a layout (size-1 dimensions ignored)."""
    key = (shape, strides)
    try:
        f = _FLAGS.get(key)
    except TypeError:   # (lists: not kept)
        return _contig_flags(shape, strides)
    if f is None:
        if len(_FLAGS) > 4096:
            _FLAGS.clear()
        f = _FLAGS[key] = _contig_flags(shape, strides)
    return f


def _contig_flags(shape, strides):
    if 0 in shape:
        return C_CONTIG | F_CONTIG
    flags = C_CONTIG | F_CONTIG
    acc = 1
    for s, st in zip(reversed(shape), reversed(strides)):
        if s != 1 and st != acc:
            flags &= ~C_CONTIG
            break
        acc *= s
    acc = 1
    for s, st in zip(shape, strides):
        if s != 1 and st != acc:
            flags &= ~F_CONTIG
            break
        acc *= s
    return flags


def displacement_bounds(shape, strides):
    """(min, max) element displacement from element zero; None if size 0."""
    lo = hi = 0
    for s, st in zip(shape, strides):
        if s == 0:
            return None
        d = (s - 1) * st
        if d < 0:
            lo += d
        else:
            hi += d
    return lo, hi


_MAX_ELEMENTS = 2 ** 63 - 1   # element counts and offsets are int64 in the engine


def _dimension(s):
    if isinstance(s, bool):   # (operator.index keeps a bool a bool)
        raise TypeError(f"shape entries must be integers, not bool ({s!r})")
    return int(operator.index(s))


def normalize_shape(shape):
    """`shape` (an int, a sequence of ints or a 1-d array of them) as a tuple
    of Python ints.

    TypeError for anything else (bools too, as NumPy); ValueError for a
    negative dimension, more than 64 dimensions, or a shape whose dimensions
    (the non-zero ones: the strides of a zero-size array) multiply past
    2**63 - 1, even when another is 0 (NumPy refuses ``empty((0, 2**64))``
    too; the engine's sizes and strides are int64)."""
    try:
        if isinstance(shape, (tuple, list)):
            shp = tuple(_dimension(s) for s in shape)
        elif getattr(shape, "ndim", None) == 1 and hasattr(shape, "tolist"):
            shp = tuple(_dimension(s) for s in shape.tolist())   # (a 1-d NumPy array, as NumPy)
        else:
            shp = (_dimension(shape),)
    except TypeError:
        raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    check_shape(shp)
    return shp


MAX_NDIM = 64   # (NumPy's)


def check_shape(shp):
    """ValueError for a tuple of ints that is no array shape (see normalize_shape)."""
    if len(shp) > MAX_NDIM:
        raise ValueError(f"arrays have at most {MAX_NDIM} dimensions")
    n = 1
    for s in shp:
        if s < 0:
            raise ValueError(f"negative dimensions are not allowed: {shp}")
        if s:
            n *= s
    if n > _MAX_ELEMENTS:
        raise ValueError(f"the shape {shp} is too large: its dimensions multiply past 2**63 - 1")


# strides and offsets in elements whose byte counts (up to 16-byte items)
# stay within int64, the engine's type for them
_MAX_STRIDE = 2 ** 59


def check_strides(strides, offset, what="strides"):
    """ValueError for strides or an offset (in elements) beyond what the
    engine's int64 byte arithmetic holds, also where a dimension of length 0
    or 1 never uses its stride."""
    for v in strides + (offset,):
        if not -_MAX_STRIDE <= v <= _MAX_STRIDE:
            raise ValueError(f"{what}: stride or offset {v} is out of range "
                             f"(at most 2**59 elements in magnitude)")


def merged_stride(shape, strides):
    """The one stride that walks dimensions `shape` in C order (1 when they
    hold at most one element), or None when they do not merge."""
    st = None
    for n, s in zip(reversed(shape), reversed(strides)):
        if n == 1:
            continue
        if st is None:
            st = (s, n)
        elif s != st[0] * st[1]:
            return None
        else:
            st = (st[0], st[1] * n)
    return 1 if st is None else st[0]


def broadcast_shapes(*shapes):
    """Broadcast shape of `shapes` (array API rules), or ValueError."""
    nd = max((len(s) for s in shapes), default=0)
    out = [1] * nd
    for s in shapes:
        for i, d in enumerate(s, nd - len(s)):
            o = out[i]
            if d == o or d == 1:
                continue
            if o == 1:
                out[i] = d
            else:
                raise ValueError(f"shapes {', '.join(str(tuple(x)) for x in shapes)} cannot be broadcast together")
    return tuple(out)
