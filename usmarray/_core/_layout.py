"""Array layouts as plain tuples: strides, contiguity flags, the span of a
view, shape normalisation and broadcasting. No arrays, no devices: every
other module of the core builds on these."""

import operator

__all__ = ["C_CONTIG", "F_CONTIG", "WRITABLE", "RO_LOCK", "KIND_CODE", "c_strides", "f_strides",
           "contig_flags", "displacement_bounds", "normalize_shape", "merged_stride",
           "broadcast_shapes"]

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


def contig_flags(shape, strides):
    """C_CONTIG/F_CONTIG bits of a layout (size-1 dimensions ignored)."""
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


def normalize_shape(shape):
    if isinstance(shape, (tuple, list)):
        try:
            shp = tuple(operator.index(s) for s in shape)
        except TypeError:
            raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    else:
        try:
            shp = (operator.index(shape),)
        except TypeError:
            raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None
    if any(s < 0 for s in shp):
        raise ValueError(f"negative dimensions are not allowed: {shp}")
    if len(shp) > 64:
        raise ValueError("arrays have at most 64 dimensions")
    return shp


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
