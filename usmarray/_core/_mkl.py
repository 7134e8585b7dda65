"""Loading oneMKL's SYCL libraries, on the first call that needs them.

linalg, fft and floating-point matmul call oneMKL's SYCL interfaces through
``libusmarray_mkl.so`` (``kernels/mkl/``). That library is built against
oneMKL's headers only, so ``import usmarray`` works when oneMKL is absent;
``load()`` opens oneMKL's libraries (found through their wheels' metadata, in
dependency order) and then ``libusmarray_mkl.so``, and raises ImportError
naming the packages to install when one is missing.
"""

import os
import sys
from importlib import metadata

from . import _engine

__all__ = ["load", "available"]

# (distribution, library file) in the order they must be loaded: the TBB
# threading layer and MKL's core before the SYCL interfaces that use them.
_LIBRARIES = (
    ("tbb", "libtbb.so.12"),
    ("mkl", "libmkl_core.so.3"),
    ("mkl", "libmkl_tbb_thread.so.3"),
    ("mkl", "libmkl_intel_ilp64.so.3"),
    ("onemkl-sycl-blas", "libmkl_sycl_blas.so.6"),
    ("onemkl-sycl-lapack", "libmkl_sycl_lapack.so.6"),
    ("onemkl-sycl-dft", "libmkl_sycl_dft.so.6"),
)
INSTALL_HINT = ("pip install 'onemkl-sycl-blas==2026.1.*' 'onemkl-sycl-lapack==2026.1.*' "
                "'onemkl-sycl-dft==2026.1.*'")

_error = None


def _locate(dist_name, filename):
    for prefix in (sys.prefix, sys.base_prefix):
        path = os.path.join(prefix, "lib", filename)
        if os.path.exists(path):
            return path
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if f.name == filename:
            return str(dist.locate_file(f))
    return None


def load():
    """Load oneMKL once per process; ImportError (with what to install) if it cannot be."""
    global _error
    if _engine.mkl_loaded():
        return
    if _error is not None:
        raise ImportError(_error)
    paths = []
    for dist_name, filename in _LIBRARIES:
        path = _locate(dist_name, filename)
        if path is None:
            _error = (f"this function needs oneMKL's SYCL libraries, and {filename} (package "
                      f"{dist_name}) was not found: {INSTALL_HINT}")
            raise ImportError(_error)
        paths.append(path)
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libusmarray_mkl.so")
    try:
        _engine.mkl_load(paths, shim)
    except ImportError as e:
        _error = f"{e}; reinstalling oneMKL may help: {INSTALL_HINT}"
        raise ImportError(_error) from None


def available():
    """Whether oneMKL can be loaded (loads it)."""
    try:
        load()
    except ImportError:
        return False
    return True
