"""Pickling of ``usm_ndarray``: the data travels through host memory.

What a pickle keeps, as NumPy's does: dtype, shape, contents, and the
layout's contiguity: a C-contiguous array comes back C-contiguous, an
F-contiguous one F-contiguous, and any other view (steps, negative or
broadcast strides, an offset into a larger allocation) comes back as a new
C-contiguous array holding only the view's elements. Also kept: the USM kind
(``usm_type``), the device (by its filter string; the unpickling process's
default device when no device matches that string there), and a cleared
``writable`` flag. The unpickled array owns new memory, so its ``writable``
flag can be set again even where the original's memory was shared
read-only. ``array_namespace`` is not kept.

With protocol 5 the data is a ``pickle.PickleBuffer``, which ``pickle.dumps(x,
protocol=5, buffer_callback=...)`` hands out of band (no copy into the
pickle stream); memory the host can address (host and shared USM, and any
USM of a CPU device) is handed out without a copy at all.
"""

import pickle

import numpy as np

from ._core._copy import asnumpy, from_host, host_view
from ._core._device import default_queue, resolve_queue
from ._core._layout import WRITABLE
from ._dask import register_if_loaded as register_with_dask

__all__ = ["reduce_array", "reconstruct"]


def _host_data(x, order):
    """A NumPy array with x's contents, contiguous in `order` ("C" or "F")."""
    h = host_view(x)
    if h is None:
        h = asnumpy(x)
    if order == "F":
        return h if h.flags.f_contiguous else np.asfortranarray(h)
    return h if h.flags.c_contiguous else h.copy(order="C")


def reduce_array(x, protocol):
    """``usm_ndarray.__reduce_ex__``: (reconstruct, its arguments)."""
    order = "F" if x.flags.f_contiguous and not x.flags.c_contiguous else "C"
    h = _host_data(x, order)
    if protocol >= 5:
        # Flat bytes in memory order: consumers of out-of-band buffers (distributed's
        # frame joining) take only C-contiguous one-dimensional buffers.
        data = pickle.PickleBuffer(h.reshape(-1, order="A").view(np.uint8))
    else:
        data = h.tobytes(order="A")
    return reconstruct, (data, x._dtype.str, x._shape, order, x.usm_type,
                         x._q.filter_string, not x._flags & WRITABLE)


def _unpickling_queue(filter_string):
    try:
        return resolve_queue(filter_string)
    except (ValueError, TypeError):
        # no such device in this process (another machine, another selector)
        return default_queue()


def reconstruct(data, dtype, shape, order, usm_type, filter_string, read_only):
    """A new usm_ndarray from the arguments `reduce_array` pickled."""
    # a Dask worker unpickles chunks before its first reduction counts them
    register_with_dask()
    if isinstance(data, pickle.PickleBuffer):   # out of band, handed back as it was
        data = data.raw()
    h = np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape, order=order)
    x = from_host(h, _unpickling_queue(filter_string), usm_type, order)
    if read_only:
        x.flags.writable = False
    return x

