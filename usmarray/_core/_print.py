"""repr and str of usm_ndarray, formatted like NumPy's, and print options.

Only what is printed reaches the host: for arrays above the summarisation
threshold each summarised axis is cut to its leading and trailing
``edgeitems`` (plus one item NumPy's summariser never shows) before the
copy, so printing a huge array moves a few kilobytes.
"""

import contextlib
import itertools
import math
import operator
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


_FLOATMODES = ("fixed", "unique", "maxprec", "maxprec_equal")
_SIGNS = ("-", "+", " ")


def _checked_options(linewidth=None, edgeitems=None, threshold=None, precision=None,
                     floatmode=None, suppress=None, nanstr=None, infstr=None, sign=None,
                     numpy=False):
    """The print options after these (None: unchanged), validated as
    dpctl.tensor validated them: TypeError for a count that is not an
    integer or a string option that is not a string, ValueError for an
    unknown ``sign`` or ``floatmode``. Nothing is set."""
    opts = dict(_options)
    if numpy:
        npo = np.get_printoptions()
        opts.update((k, npo[k]) for k in _options if k in npo)
    for name, v in (("linewidth", linewidth), ("edgeitems", edgeitems),
                    ("threshold", threshold), ("precision", precision)):
        if v is not None:
            try:
                opts[name] = int(operator.index(v))
            except TypeError:
                raise TypeError(f"{name} must be an integer, got {v!r}") from None
            if opts[name] < 0:
                raise ValueError(f"{name} must not be negative, got {v!r}")
    for name, v in (("nanstr", nanstr), ("infstr", infstr)):
        if v is not None:
            if not isinstance(v, str):
                raise TypeError(f"{name} must be a string, got {v!r}")
            opts[name] = v
    if sign is not None:
        if sign not in _SIGNS:
            raise ValueError(f"sign must be one of '-', '+', ' ', got {sign!r}")
        opts["sign"] = sign
    if floatmode is not None:
        if floatmode not in _FLOATMODES:
            raise ValueError("floatmode must be one of 'fixed', 'unique', 'maxprec', "
                             f"'maxprec_equal', got {floatmode!r}")
        opts["floatmode"] = floatmode
    if suppress is not None:
        opts["suppress"] = bool(suppress)
    return opts


def set_print_options(linewidth=None, edgeitems=None, threshold=None, precision=None,
                      floatmode=None, suppress=None, nanstr=None, infstr=None, sign=None,
                      numpy=False):
    """Set how usm_ndarrays print (dpctl.tensor's function; each option means
    what NumPy's print option of that name means).

    Parameters
    ----------
    linewidth, edgeitems, threshold, precision : int, optional
        Characters per line; items shown at each end of a summarised axis;
        the size above which arrays are summarised; digits of floats.
    floatmode : {"fixed", "unique", "maxprec", "maxprec_equal"}, optional
    suppress : bool, optional
        Print numbers that are zero at the precision as zero.
    nanstr, infstr : str, optional
        How NaN and infinity print.
    sign : {"-", "+", " "}, optional
        What precedes positive numbers.
    numpy : bool, optional
        Start from NumPy's current print options.

    None leaves an option as it is.

    Raises
    ------
    TypeError
        For a count that is not an integer, or a string option that is not a
        string (as dpctl.tensor).
    ValueError
        For a negative count, or an unknown `sign` or `floatmode`.
    """
    _options.update(_checked_options(linewidth, edgeitems, threshold, precision, floatmode,
                                     suppress, nanstr, infstr, sign, numpy))


def get_print_options():
    """Current print options (a dict)."""
    return dict(_options)


@contextlib.contextmanager
def print_options(*args, **kwargs):
    """Context manager setting print options (`set_print_options`'
    arguments) for its block; yields them as a dict and restores the
    previous ones on exit."""
    saved = get_print_options()
    try:
        set_print_options(*args, **kwargs)
        yield get_print_options()
    finally:
        _options.clear()
        _options.update(saved)


def _summary_host(x, edge):
    """NumPy array of x cut to 2*edge+1 items along each axis longer than
    2*edge: the first edge, then the last edge+1 (the one NumPy's summary
    hides, and NumPy shows the last item even when edge is 0)."""
    nd = x.ndim
    pieces = []
    out_shape = []
    for d in range(nd):
        n = x.shape[d]
        if n > 2 * edge:
            pieces.append(((0, edge, 0), (n - edge - 1, n, edge)))
            out_shape.append(2 * edge + 1)
        else:
            pieces.append(((0, n, 0),))
            out_shape.append(n)
    h = np.empty(out_shape, dtype=x.dtype)
    for combo in itertools.product(*pieces):
        if any(a == b for a, b, _ in combo):
            continue
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


def _format(x, prefix, separator, suffix=""):
    h, summarise = _host_for_print(x)
    o = _options
    with np.printoptions(nanstr=o["nanstr"], infstr=o["infstr"]):
        return np.array2string(
            h, max_line_width=o["linewidth"], precision=o["precision"],
            suppress_small=o["suppress"], separator=separator, prefix=prefix, suffix=suffix,
            threshold=0 if summarise else sys.maxsize, edgeitems=o["edgeitems"],
            sign=o["sign"], floatmode=o["floatmode"])


def _default_dtypes(x):
    qi = x._q
    return (np.dtype("bool"), np.dtype("int64"), qi.float, qi.complex)


def _options_given(**kw):
    """set_print_options keywords of the ones given (not None)."""
    return {k: v for k, v in kw.items() if v is not None}


def usm_ndarray_repr(x, line_width=None, precision=None, suppress=None, prefix="usm_ndarray"):
    """NumPy-style repr (``usm_ndarray([0.5, 1.5, 3.0], dtype=float32)``).

    ``line_width``, ``precision`` and ``suppress`` override the print options
    for this call (dpctl.tensor's signature), validated as by
    `set_print_options`.

    As NumPy's: the dtype is shown unless it is a default one (bool, int64,
    the device's default floating and complex dtypes) and always for empty
    arrays; the shape is shown for empty arrays other than 1-D and for
    summarised ones; they go on a new line when the last line is full.
    """
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    given = _options_given(linewidth=line_width, precision=precision, suppress=suppress)
    if given:
        with print_options(**given):
            return usm_ndarray_repr(x, prefix=prefix)
    head = prefix + "("
    size = x.size
    body = "[]" if size == 0 else _format(x, head, ", ", ")")
    extras = []
    if (size == 0 and x.shape != (0,)) or size > _options["threshold"]:
        extras.append(f"shape={x.shape}")
    if size == 0 or x.dtype not in _default_dtypes(x):
        extras.append(f"dtype={x.dtype.name}")
    if not extras:
        return head + body + ")"
    text = head + body + ","
    tail = ", ".join(extras) + ")"
    last = len(text) - text.rfind("\n") - 1
    sep = "\n" + " " * len(head) if last + len(tail) + 1 > _options["linewidth"] else " "
    return text + sep + tail


def usm_ndarray_str(x, line_width=None, edge_items=None, threshold=None, precision=None,
                    floatmode=None, suppress=None, sign=None, numpy=False, separator=" ",
                    prefix="", suffix="", scalar_str=True):
    """NumPy-style str (``[0.5 1.5 3.5]``).

    The keywords (dpctl.tensor's signature) override the print options for
    this call, validated as by `set_print_options`; ``numpy=True`` starts
    from NumPy's print options. A 0-d array prints as its scalar's str, or
    with `scalar_str` False formatted with the options (as
    ``numpy.array2string`` formats one).
    """
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"expected a usm_ndarray, got {type(x).__name__}")
    given = _options_given(linewidth=line_width, edgeitems=edge_items, threshold=threshold,
                           precision=precision, floatmode=floatmode, suppress=suppress, sign=sign)
    if given or numpy:
        with print_options(numpy=numpy, **given):
            return usm_ndarray_str(x, separator=separator, prefix=prefix, suffix=suffix,
                                   scalar_str=scalar_str)
    if x.size == 0:
        return "[]"
    if x.ndim == 0 and scalar_str:
        return str(asnumpy(x)[()])   # as NumPy: the scalar's str
    # prefix and suffix only indent continuation lines, as in numpy.array2string
    return _format(x, prefix, separator, suffix)
