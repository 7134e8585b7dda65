"""The core of usmarray: the mechanism every public function stands on.

Bottom to top (each module imports only those above it in this list):

- ``_env`` (the OpenCL ICD and cache directory, set before the SYCL runtime
  loads), ``_engine`` (the compiled engine), ``_dtypes``, ``_exceptions``,
  ``_layout`` (strides, flags and broadcasting of plain tuples);
- ``_kernels`` (the kernel resolver and disk cache), ``_device`` (queues),
  ``_memory`` (the pool, ``synchronize``), ``_mkl`` (loading oneMKL);
- ``_suai`` (SUAI export and parsing), ``_array`` (``usm_ndarray``),
  ``_copy`` (copies across queues, contexts and the host; ``astype``),
  ``_scalars``, ``_views``, ``_reduce`` (the reduction skeleton),
  ``_masks``, ``_indexing`` (the plans of gathers and scatters),
  ``_dlpack``, ``_print``.

Nothing here imports the API modules of ``usmarray`` (creation, elementwise,
...) or the interop modules; ``tests/test_layers.py`` checks it.
"""

from . import _env  # noqa: F401  (sets OCL_ICD_FILENAMES before _engine loads the SYCL runtime)
