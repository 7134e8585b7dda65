"""usmarray: N-dimensional arrays in SYCL Unified Shared Memory.

Implements the Python array API standard on SYCL devices (Intel GPUs, and the
CPU through the OpenCL CPU runtime that pip installs). Arrays are
``usm_ndarray`` objects bound to a ``dpctl.SyclQueue``; kernels are SYCL C++
compiled at run time and cached on disk.

The package is layered (docs/architecture.md): ``_core`` holds the array
object and the mechanism; the API modules (creation, elementwise, ...)
stand on it; the interop modules (NumPy's protocols, pickling, Dask) on
those. This module gathers the public names and, last, binds the array's
methods and operators (``methods.install``).
"""

import atexit as _atexit
import sys as _sys

try:
    from ._core import _engine
except ImportError as _e:  # pragma: no cover - depends on how usmarray is run
    import os as _os

    if _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "..", "kernels", "engine")):
        raise ImportError(
            "usmarray is being imported from its source tree, which has no compiled engine: "
            "install it (pip install .) and run from another directory, or use the "
            "`usmarray` command") from _e
    raise
from numpy import dtype  # dpctl.tensor exported numpy.dtype as its dtype
from ._core._array import usm_ndarray, Flags
from ._core._copy import asnumpy, to_numpy, astype, copy
from ._core._device import Device, ExecutionPlacementError, NoDeviceError
from ._core._exceptions import DTypeError
from ._core._dtypes import (bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
                            float16, float32, float64, complex64, complex128,
                            isdtype, result_type, can_cast, finfo, iinfo)
from ._core._dlpack import (from_dlpack, DLDeviceType, CopyRequiredError,
                            dldevice_to_sycl_device, sycl_device_to_dldevice)
from ._core._kernels import KernelCompileError
from ._core._memory import (get_default_queue, memory_pool_stats, set_memory_pool_limit,
                            free_cached_memory, synchronize)
from ._core._print import (set_print_options, get_print_options, print_options,
                           usm_ndarray_repr, usm_ndarray_str)
from ._info import __array_namespace_info__
from .creation import (asarray, empty, zeros, ones, full, arange, linspace, eye, empty_like,
                       zeros_like, ones_like, full_like, tril, triu, meshgrid, from_numpy)
from .elementwise import *  # noqa: F401,F403  (functions generated from the table)
from .elementwise import clip
from .reduction import (sum, prod, max, min, all, any, mean, var, std, cumulative_sum,
                        cumulative_logsumexp, cumulative_prod, AxisError)
from .special_reductions import logsumexp, reduce_hypot
from .searching import (where, argmax, argmin, count_nonzero, nonzero, searchsorted, argwhere,
                        flatnonzero)
from .sorting import sort, argsort, top_k, partition, argpartition, lexsort, sort_complex
from .sets import (unique_values, unique_counts, unique_inverse, unique_all, isin, union1d,
                   intersect1d, setdiff1d, setxor1d)
from .selection import select, choose, compress, putmask, trim_zeros, copyto
from .special import sinc, divmod, modf, frexp, ldexp, bitwise_count, i0, isposinf, isneginf, fix
from .linear_algebra import matmul, vecdot, matvec, vecmat, tensordot, inner, vdot
from . import linalg
from .manipulation import (reshape, broadcast_to, broadcast_arrays, broadcast_shapes,
                           permute_dims, expand_dims, squeeze, swapaxes, flip, moveaxis,
                           matrix_transpose, unstack, concat, stack, roll, repeat, tile, diff,
                           ediff1d, resize, rollaxis)
from .indexing import take, take_along_axis, put, put_along_axis, place, extract
from .comparison import allclose, isclose, array_equal, array_equiv
from .statistics import (median, quantile, percentile, nanmedian, nanquantile, nanpercentile,
                         average, ptp, cov, corrcoef)
from .nanfunctions import (nanmin, nanmax, nanargmin, nanargmax, nansum, nanprod, nanmean,
                           nanvar, nanstd, nancumsum, nancumprod)
from .stacking import (atleast_1d, atleast_2d, atleast_3d, vstack, hstack, dstack, column_stack,
                       block, split, array_split, hsplit, vsplit, dsplit, append)
from . import fft, utils
from .type_checks import (common_type, iscomplexobj, isrealobj, iscomplex, isreal, real_if_close,
                          nan_to_num, get_array_module)
from .matrices import (identity, diag, diagflat, fill_diagonal, diag_indices, diag_indices_from,
                       tri, tril_indices, triu_indices, tril_indices_from, triu_indices_from,
                       kron, fliplr, flipud, rot90, vander)
from .sequences import logspace, geomspace
from .calculus import gradient, trapezoid, unwrap
from .polynomials import (polyval, polyfit, roots, poly, polyadd, polysub, polymul, polydiv,
                          polyder, polyint)
from .convolution import convolve, correlate
from .ufunc_methods import scatter_add, scatter_max, scatter_min
from .index_tricks import (indices, ix_, mgrid, ogrid, r_, c_, unravel_index, ravel_multi_index, delete,
                           insert)
from .padding import pad
from .functional import piecewise, apply_along_axis, apply_over_axes
from .bitpacking import packbits, unpackbits
from .binning import bincount, digitize, interp
from .histograms import histogram, histogram_bin_edges, histogram2d, histogramdd
from .contractions import einsum, einsum_path
from .io import save, savez, savez_compressed, load
from . import testing
from .numpy_protocols import allow_host_operands
from . import random
from .user_kernels import ElementwiseKernel, RawKernel, RawModule
from .user_reductions import ReductionKernel
from .fusion import fuse
from .windows import bartlett, blackman, hamming, hanning, kaiser
from .numpy_names import *  # noqa: F401,F403  (NumPy's names: arccos, concatenate, array, ...)
from ._core._copy import with_out as _with_out

# dpctl.tensor's out= keyword on the functions that had it (and NumPy's
# nanargmin/nanargmax): indices only into int64 arrays, where they cannot wrap
(sum, prod, max, min, cumulative_sum, cumulative_prod, cumulative_logsumexp, logsumexp,
 reduce_hypot) = map(_with_out, (sum, prod, max, min, cumulative_sum, cumulative_prod,
                                 cumulative_logsumexp, logsumexp, reduce_hypot))
argmax, argmin, nanargmax, nanargmin = (_with_out(f, "no")
                                        for f in (argmax, argmin, nanargmax, nanargmin))

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = 2.718281828459045
pi = 3.141592653589793
inf = float("inf")
nan = float("nan")
newaxis = None

# the array's methods, operators and NumPy's protocols, once every module has loaded
from . import methods as _methods  # noqa: E402
_methods.install(_sys.modules[__name__])

_atexit.register(_engine.shutdown)

from ._dask import register_if_loaded as _register_with_dask  # noqa: E402
_register_with_dask()   # when Dask's array module came first (usmarray/_dask.py)

del _atexit, _sys
