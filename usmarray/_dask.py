"""usm_ndarray in Dask's array dispatch, as Dask registers CuPy's arrays.

Dask computes some parts of its reductions with functions it looks up by
chunk type: the element counts behind ``mean``/``var``/``std`` (for unknown
types a NumPy array, which a usm_ndarray refuses as an operand: no implicit
transfers), the concatenation of partial results and ``to_numpy``. Without
these entries, ``d.mean(axis=0)`` of a Dask array of usm_ndarray chunks
fails.

Dask is optional, so nothing here imports it. The entries go into
``dask.array.dispatch`` once Dask's array module is loaded: at ``import
usmarray`` if it already is, otherwise when a chunk meets its first NumPy
function (``usm_ndarray.__array_function__``, which Dask calls while it builds
a graph, before any reduction runs) or is unpickled in a worker process.
"""

import sys

from ._core._array import usm_ndarray
from ._core._copy import asnumpy
from .creation import asarray, empty
from .indexing import take
from .linear_algebra import tensordot
from .manipulation import concat

__all__ = ["register_if_loaded"]

_registered = False


def register_if_loaded():
    """Register usm_ndarray with Dask's array dispatch, once, if Dask's array
    module is loaded (cheap to call often)."""
    global _registered
    if _registered:
        return
    dispatch = sys.modules.get("dask.array.dispatch")
    backends = sys.modules.get("dask.array.backends")
    if dispatch is None or backends is None:
        return
    _registered = True
    dispatch.numel_lookup.register(usm_ndarray, backends._numel_arraylike)
    dispatch.nannumel_lookup.register(usm_ndarray, backends._nannumel)
    dispatch.concatenate_lookup.register(
        usm_ndarray, lambda arrays, axis=0: concat(list(arrays), axis=axis))
    dispatch.tensordot_lookup.register(
        usm_ndarray, lambda a, b, axes=2: tensordot(a, b, axes=axes))
    dispatch.take_lookup.register(
        usm_ndarray, lambda a, indices, axis=None: take(a, asarray(indices, device=a.device),
                                                        axis=axis))
    dispatch.empty_lookup.register(
        usm_ndarray, lambda shape, dtype=None, **kw: empty(shape, dtype=dtype))
    dispatch.to_numpy_dispatch.register(usm_ndarray, lambda x, **kw: asnumpy(x))
    # (Dask's chunk percentiles: np.percentile of a chunk, which dispatches here)
    dispatch.percentile_lookup.register(usm_ndarray, backends.percentile)
