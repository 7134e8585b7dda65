"""``pad``, as ``numpy.pad``: modes constant, edge, reflect, symmetric,
wrap (and NumPy's others: empty, linear_ramp, maximum, minimum, mean,
median).

Axes are padded one after the other, each on the array the earlier ones
made, which is NumPy's order (a corner takes the later axis' value). An
axis' padded length is one gather for the modes that copy elements (edge,
reflect, symmetric, wrap: a map from each output position to a source
index, made on the host from the pad widths alone) or one ``concat`` of the
two pad blocks with the array (constant, ramps, statistics). The maps are
NumPy's results in closed form: wrap repeats the axis with period n, reflect
mirrors with period 2(n - 1) and symmetric with period 2n; the "odd"
reflections add ``2 * edge`` terms that grow by ``2 * (last - first)`` per
period, which is where NumPy's repeated reflections about the growing edges
end up."""

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._copy import astype, broadcast_view
from ._core._indexing import take
from ._core._views import check_array, reshape
from ._core._kernels import compiled_together
from .creation import asarray, empty, full
from .manipulation import concat
from .reduction import max as _max, mean as _mean, min as _min
from .statistics import median as _median

__all__ = ["pad"]

_ALLOWED = {"constant": ("constant_values",), "edge": (), "wrap": (), "empty": (),
            "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
            "linear_ramp": ("end_values",), "maximum": ("stat_length",),
            "minimum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",)}


def _as_pairs(x, ndim, as_index=False):
    """NumPy's broadcast of a pad argument to ``ndim`` (before, after) pairs."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(x)
    if as_index:
        x = np.round(x).astype(np.int64, copy=False)
        if x.size and x.min() < 0:
            raise ValueError("index can't contain negative values")
    if x.ndim < 3:
        if x.size == 1:
            v = x.ravel()[0]
            return ((v, v),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            v = x.ravel()
            return ((v[0], v[1]),) * ndim
    try:
        return np.broadcast_to(x, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"pad: could not broadcast {x.shape} to ({ndim}, 2)") from None


def _widths(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, w in pad_width.items():
            seq[axis] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    w = np.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _as_pairs(w, ndim, as_index=True)]


def _source_map(n, before, after, mode, odd):
    """(source index, mirrored, period count) of every output position."""
    j = np.arange(-before, n + after)
    if mode == "wrap":
        return j % n, None, None
    if mode == "edge" or n == 1:
        return np.clip(j, 0, n - 1), None, None
    period = 2 * (n - 1) if mode == "reflect" else 2 * n
    k, r = np.divmod(j, period)
    mirrored = r >= n
    src = np.where(mirrored, period - r - (mode == "symmetric"), r)
    return src, (mirrored if odd else None), (k if odd else None)


def _along(v, axis, like):
    """A host vector as an array beside `like` (its queue and USM type),
    shaped to broadcast along `axis` of it."""
    return reshape(asarray(v, sycl_queue=like.sycl_queue, usm_type=like.usm_type),
                   (1,) * axis + (v.size,) + (1,) * (like.ndim - axis - 1))


def _gathered(x, axis, before, after, mode, odd):
    n = x.shape[axis]
    src, mirrored, k = _source_map(n, before, after, mode, odd)
    q = x.sycl_queue
    y = take(x, asarray(src, sycl_queue=q, usm_type=x.usm_type), axis=axis)
    if mirrored is None:
        return y
    # odd reflection: y -> -y + 2 * (k + mirrored) * last - 2 * k * first, computed in a
    # signed or floating type (NumPy's 2 * edge - chunk wraps the same way for integers)
    ct = x.dtype if x.dtype.kind in "fc" else _dtypes.int64
    y = astype(y, ct, copy=False)
    first = astype(x[(slice(None),) * axis + (slice(0, 1),)], ct, copy=False)
    last = astype(x[(slice(None),) * axis + (slice(n - 1, n),)], ct, copy=False)
    sign = _along(np.where(mirrored, -1, 1), axis, x)
    c_last = _along(2 * (k + mirrored), axis, x)
    c_first = _along(-2 * k, axis, x)
    r = ew.add(ew.multiply(y, sign),
               ew.add(ew.multiply(c_last, last), ew.multiply(c_first, first)))
    return astype(r, x.dtype, copy=False)


def _block(x, axis, width):
    return x.shape[:axis] + (width,) + x.shape[axis + 1:]


def _stat(x, axis, width_pair, length_pair, mode):
    """The two statistics of NumPy's maximum/minimum/mean/median modes."""
    n = x.shape[axis]
    out = []
    for side, length in enumerate(length_pair):
        length = n if length is None else min(int(length), n)
        if length <= 0 and mode in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        sl = slice(0, length) if side == 0 else slice(n - length, n)
        part = x[(slice(None),) * axis + (sl,)]
        if mode == "maximum":
            s = _max(part, axis=axis, keepdims=True)
        elif mode == "minimum":
            s = _min(part, axis=axis, keepdims=True)
        elif mode == "mean":
            s = _mean(part if part.dtype.kind in "fc" else astype(part, x._q.float),
                      axis=axis, keepdims=True)
        else:
            s = _median(part, axis=axis, keepdims=True)
        if x.dtype.kind in "iu" and s.dtype.kind in "fc":
            s = ew.round(s)   # NumPy rounds (half to even) into integer arrays (bools: any nonzero)
        out.append(astype(s, x.dtype, copy=False))
    return out


def _ramp(x, axis, width, end, edge, left):
    """NumPy's linear_ramp: linspace(end, edge, width, endpoint=False)."""
    # (float16 ramps are computed in float32, integers in the default float)
    ft = x.dtype if x.dtype.kind in "fc" and x.dtype.itemsize > 2 else \
        (_dtypes.float32 if x.dtype.kind == "f" else x._q.float)
    t = _along(np.arange(width), axis, x)
    edge = astype(edge, ft, copy=False)
    y = ew.add(ew.multiply(astype(t, ft), ew.divide(ew.subtract(edge, end), width)), end)
    if x.dtype.kind in "iu":
        y = ew.floor(y)
    y = astype(y, x.dtype, copy=False)
    return y if left else y[(slice(None),) * axis + (slice(None, None, -1),)]


def _padded_axis(x, axis, width_pair, mode, opts):
    before, after = width_pair
    if mode in ("edge", "wrap", "reflect", "symmetric"):
        return _gathered(x, axis, before, after, mode, opts.get("reflect_type") == "odd")
    n = x.shape[axis]
    if mode == "constant":
        sides = [full(_block(x, axis, w), v, dtype=x.dtype, sycl_queue=x.sycl_queue,
                      usm_type=x.usm_type) for w, v in zip(width_pair, opts["constant_values"])]
    elif mode == "empty":
        sides = [empty(_block(x, axis, w), dtype=x.dtype, sycl_queue=x.sycl_queue,
                       usm_type=x.usm_type) for w in width_pair]
    elif mode == "linear_ramp":
        edges = (x[(slice(None),) * axis + (slice(0, 1),)],
                 x[(slice(None),) * axis + (slice(n - 1, n),)])
        sides = [_ramp(x, axis, w, e, edge, side == 0)
                 for side, (w, e, edge) in enumerate(zip(width_pair, opts["end_values"], edges))]
    else:
        stats = _stat(x, axis, width_pair, opts["stat_length"], mode)
        sides = [astype(broadcast_view(s, _block(x, axis, w)), x.dtype)
                 for s, w in zip(stats, width_pair)]
    return concat([sides[0], x, sides[1]], axis=axis)


@compiled_together
def pad(array, pad_width, mode="constant", **kwargs):
    """Pad an array, as ``numpy.pad``.

    Parameters
    ----------
    array : usm_ndarray
        The array.
    pad_width : int, sequence or dict
        Number of values padded before and after each axis: ``n``,
        ``(before, after)``, ``((before_0, after_0), ...)`` or
        ``{axis: n or (before, after)}``.
    mode : str
        ``"constant"`` (`constant_values`, default 0), ``"edge"``,
        ``"reflect"`` and ``"symmetric"`` (`reflect_type` "even" or "odd"),
        ``"wrap"``, ``"empty"``, ``"linear_ramp"`` (`end_values`),
        ``"maximum"``, ``"minimum"``, ``"mean"``, ``"median"``
        (`stat_length`). A callable mode is not supported.
    **kwargs
        The mode's options, NumPy's: scalars or per-axis pairs (host values).

    Returns
    -------
    usm_ndarray
        The padded array, of `array`'s dtype, on its queue.
    """
    check_array(array, "pad")
    if callable(mode):
        raise TypeError("pad: a callable mode is not supported by usmarray")
    if mode not in _ALLOWED:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_ALLOWED[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    nd = array.ndim
    widths = _widths(pad_width, nd)
    opts = dict(kwargs)
    if mode == "constant":
        opts["constant_values"] = None
        cv = kwargs.get("constant_values", 0)
        pairs = _as_pairs(cv, nd)
    elif mode == "linear_ramp":
        pairs = _as_pairs(kwargs.get("end_values", 0), nd)
    elif mode in ("maximum", "minimum", "mean", "median"):
        pairs = _as_pairs(kwargs.get("stat_length"), nd, as_index=True)
    elif mode in ("reflect", "symmetric"):
        if opts.get("reflect_type", "even") not in ("even", "odd"):
            raise ValueError("reflect_type must be 'even' or 'odd'")
        if opts.get("reflect_type") == "odd" and array.dtype.kind == "b":
            # (NumPy's odd reflections of bool are its bool casts of 2 * edge - x after
            # each reflection in turn: not a closed form, nor a meaningful result)
            raise TypeError("pad: reflect_type='odd' is not supported for bool arrays")
        pairs = [None] * nd
    else:
        pairs = [None] * nd
    if mode not in ("constant", "empty"):
        for axis, w in enumerate(widths):
            if array.shape[axis] == 0 and any(w):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
    x = array
    for axis, (w, p) in enumerate(zip(widths, pairs)):
        if not any(w):
            continue
        if mode == "constant":
            opts["constant_values"] = p
        elif mode == "linear_ramp":
            opts["end_values"] = p
        elif mode in ("maximum", "minimum", "mean", "median"):
            opts["stat_length"] = p
        x = _padded_axis(x, axis, w, mode, opts)
    if x is array:
        return astype(array, array.dtype, copy=True)
    return x
