"""repr and str of usm_ndarray, formatted like NumPy's, and print options.

Only what is printed reaches the host: for arrays above the summarisation
threshold each summarised axis is cut to its leading and trailing
``edgeitems`` (plus one item NumPy's summariser never shows) before the
copy, so printing a huge array moves a few kilobytes.
"""

import contextlib
import itertools
import math
import sys

import numpy as np

from ._array import usm_ndarray, view
from ._copy import asnumpy

__all__ = ["set_print_options", "get_print_options", "print_options", "usm_ndarray_repr",
           "usm_ndarray_str"]

_options = {
    "linewidth": 75,
    "edgeitems": 3,
    "threshold": 1000,
    "precision": 8,
    "floatmode": "maxprec",
    "suppress": False,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
}


def set_print_options(linewidth=None, edgeitems=None, threshold=None, precision=None,
                      floatmode=None, suppress=None, nanstr=None, infstr=None, sign=None,
                      numpy=False):
    """Set how usm_ndarrays print (the meaning of each option is NumPy's).

    ``numpy=True`` takes NumPy's current print options first.
    """
    if numpy:
        npo = np.get_printoptions()
        for k in _options:
            if k in npo:
                _options[k] = npo[k]
    new = dict(linewidth=linewidth, edgeitems=edgeitems, threshold=threshold,
               precision=precision, floatmode=floatmode, suppress=suppress, nanstr=nanstr,
               infstr=infstr, sign=sign)
    if floatmode is not None and floatmode not in ("fixed", "unique", "maxprec", "maxprec_equal"):
        raise ValueError(f"floatmode must be 'fixed', 'unique', 'maxprec' or 'maxprec_equal'")
    if sign is not None and sign not in ("-", "+", " "):
        raise ValueError("sign must be '-', '+' or ' '")
    for k, v in new.items():
        if v is not None:
            _options[k] = v


def get_print_options():
    """Current print options (a dict)."""
    return dict(_options)


@contextlib.contextmanager
def print_options(*args, **kwargs):
    """Context manager setting print options for its block."""
    saved = get_print_options()
    try:
        set_print_options(*args, **kwargs)
        yield get_print_options()
    finally:
        _options.clear()
        _options.update(saved)


def _summary_host(x, edge):
    """NumPy array of x cut to 2*edge+1 items along each axis longer than 2*edge."""
    nd = x.ndim
    pieces = []
    out_shape = []
    for d in range(nd):
        n = x.shape[d]
        if n > 2 * edge:
            pieces.append(((0, edge + 1, 0), (n - edge, n, edge + 1)))
            out_shape.append(2 * edge + 1)
        else:
            pieces.append(((0, n, 0),))
            out_shape.append(n)
    h = np.empty(out_shape, dtype=x.dtype)
    for combo in itertools.product(*pieces):
        off = x._off
        shape, dst = [], []
        for d, (a, b, at) in enumerate(combo):
            off += a * x._strides[d]
            shape.append(b - a)
            dst.append(slice(at, at + b - a))
        block = view(x, off, tuple(shape), x._strides)
        h[tuple(dst)] = asnumpy(block)
    return h


def _host_for_print(x):
    opts = _options
    summarise = math.prod(x.shape) > opts["threshold"]
    if summarise:
        return _summary_host(x, opts["edgeitems"]), True
    return asnumpy(x), False


def _format(x, prefix, separator):
    h, summarise = _host_for_print(x)
    o = _options
    with np.printoptions(nanstr=o["nanstr"], infstr=o["infstr"]):
        return np.array2string(
            h, max_line_width=o["linewidth"], precision=o["precision"],
            suppress_small=o["suppress"], separator=separator, prefix=prefix,
            threshold=0 if summarise else sys.maxsize, edgeitems=o["edgeitems"],
            sign=o["sign"], floatmode=o["floatmode"])


def _default_dtypes(x):
    qi = x._q
    return (np.dtype("bool"), np.dtype("int64"), qi.float, qi.complex)


def usm_ndarray_repr(x, prefix="usm_ndarray"):
    """NumPy-style repr: ``usm_ndarray([1., 2., 3.], dtype=float32)``."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    head = prefix + "("
    show_dtype = x.dtype not in _default_dtypes(x)
    if x.size == 0:
        shape = "" if x.shape == (0,) else f", shape={x.shape}"
        return f"{head}[]{shape}, dtype={x.dtype.name})"
    body = _format(x, head, ", ")
    if show_dtype:
        suffix = f", dtype={x.dtype.name})"
        last = body.rsplit("\n", 1)[-1]
        if len(last) + len(suffix) + (len(head) if "\n" not in body else 0) > _options["linewidth"]:
            return head + body + ",\n" + " " * len(head) + suffix[2:]
        return head + body + suffix
    return head + body + ")"


def usm_ndarray_str(x):
    """NumPy-style str: ``[1. 2. 3.]``."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    if x.size == 0:
        return "[]"
    return _format(x, "", " ")
