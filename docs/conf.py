"""Sphinx configuration of usmarray's documentation.

Build:  sphinx-build -W -b html docs docs/_build/html   (pip install ".[docs]")

The guide pages are the Markdown files beside this one (myst-parser). The API
reference is generated here, at every build, from the installed package's
namespace: every public name of ``usmarray``, ``usmarray.linalg``,
``usmarray.fft``, ``usmarray.random`` and ``usmarray.testing`` gets an entry, grouped
by the module that defines it, so a new function needs no edit here (a new
module an entry in ``_SECTIONS``), and a broken docstring fails the ``-W`` build.
"""

import enum
import os
import types

import numpy as np

import usmarray
import usmarray.fft
import usmarray.linalg
import usmarray.random
import usmarray.testing

project = "usmarray"
author = "usmarray developers"
copyright = "usmarray developers"
release = version = usmarray.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
html_theme = "alabaster"
html_title = f"usmarray {release}"

# NumPy-style docstrings
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "none"
autosummary_generate = False
myst_heading_anchors = 3

# ---------------------------------------------------------------- API pages
_HERE = os.path.dirname(os.path.abspath(__file__))
_API = os.path.join(_HERE, "api")

# defining module -> (page, section title); pages are listed in this order
_SECTIONS = {
    "usmarray.creation": ("creation", "Array creation"),
    "usmarray._core._copy": ("creation", "Copies and host transfers"),
    "usmarray.elementwise": ("elementwise", "Elementwise functions"),
    "usmarray.reduction": ("statistics", "Reductions and statistics"),
    "usmarray.special_reductions": ("statistics", "Special reductions"),
    "usmarray.searching": ("searching", "Searching"),
    "usmarray.sorting": ("searching", "Sorting"),
    "usmarray.sets": ("searching", "Sets"),
    "usmarray._core._views": ("manipulation", "Manipulation"),
    "usmarray.manipulation": ("manipulation", "Manipulation"),
    "usmarray.indexing": ("manipulation", "Indexing functions"),
    "usmarray.linear_algebra": ("linear_algebra", "Linear algebra"),
    "usmarray.statistics": ("numpy_functions", "Statistics"),
    "usmarray.nanfunctions": ("numpy_functions", "NaN-skipping reductions"),
    "usmarray.stacking": ("numpy_functions", "Joining and splitting"),
    "usmarray.comparison": ("numpy_functions", "Comparing arrays"),
    "usmarray.matrices": ("numpy_functions", "Diagonals, triangles and kron"),
    "usmarray.sequences": ("numpy_functions", "Logarithmic sequences"),
    "usmarray.index_tricks": ("numpy_functions", "Index helpers, insert and delete"),
    "usmarray.padding": ("numpy_functions", "Padding"),
    "usmarray.binning": ("numpy_functions", "Counting, binning and interpolation"),
    "usmarray.histograms": ("numpy_functions", "Histograms"),
    "usmarray.contractions": ("numpy_functions", "Einstein summation"),
    "usmarray.type_checks": ("numpy_functions", "Type checks"),
    "usmarray.calculus": ("numpy_functions", "Differences and integrals"),
    "usmarray.polynomials": ("numpy_functions", "Polynomials"),
    "usmarray.convolution": ("numpy_functions", "Convolution"),
    "usmarray.ufunc_methods": ("numpy_functions", "Scatter operations (ufunc.at)"),
    "usmarray.selection": ("numpy_functions", "Selecting by conditions and indices"),
    "usmarray.special": ("numpy_functions", "Special functions"),
    "usmarray.functional": ("numpy_functions", "Functional programming"),
    "usmarray.bitpacking": ("numpy_functions", "Packing bits"),
    "usmarray.numpy_names": ("numpy_functions", "NumPy's names"),
    "usmarray.windows": ("numpy_functions", "Window functions"),
    "usmarray.io": ("io", "Saving and loading"),
    "usmarray._core._dtypes": ("dtypes", "Data type functions"),
    "usmarray._core._device": ("devices", "Devices and queues"),
    "usmarray._core._memory": ("devices", "Memory pool and synchronisation"),
    "usmarray._core._dlpack": ("interchange", "DLPack"),
    "usmarray._core._print": ("utilities", "Printing"),
    "usmarray._core._exceptions": ("utilities", "Exceptions"),
    "usmarray._core._kernels": ("utilities", "Exceptions"),
    "usmarray._info": ("devices", "Inspection"),
    "usmarray.user_kernels": ("kernels", "User kernels"),
    "usmarray.user_reductions": ("kernels", "User kernels"),
    "usmarray.fusion": ("kernels", "Fusion"),
}
_PAGE_TITLES = {
    "array": "The array object", "creation": "Creation and copies",
    "elementwise": "Elementwise functions", "statistics": "Reductions and statistics",
    "searching": "Searching, sorting and sets", "manipulation": "Manipulation and indexing",
    "linear_algebra": "Linear algebra", "numpy_functions": "NumPy functions",
    "kernels": "User kernels and fusion",
    "linalg": "usmarray.linalg", "fft": "usmarray.fft", "random": "usmarray.random",
    "utils": "usmarray.utils",
    "dtypes": "Data types", "devices": "Devices, queues and memory",
    "interchange": "Interchange", "io": "Files",
    "utilities": "Printing, testing and exceptions",
    "other": "Other",
}
_ARRAY_CLASSES = ("usm_ndarray", "ndarray", "Flags")


def _directive(qualname, obj):
    if isinstance(obj, type):
        if issubclass(obj, BaseException):
            return f".. autoexception:: {qualname}\n"
        if issubclass(obj, enum.Enum):
            return f".. autoclass:: {qualname}\n   :members:\n   :undoc-members:\n"
        # (Generator's methods come partly from a mixin of usmarray's)
        inherited = any(b.__module__.startswith("usmarray") for b in obj.__mro__[1:])
        return f".. autoclass:: {qualname}\n   :members:\n" + \
            ("   :inherited-members:\n" if inherited else "")
    return f".. autofunction:: {qualname}\n"


def _public(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in sorted(names, key=str.lower):
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType):
            continue
        yield name, obj


def _section_page(title, entries, intro="", noindex=()):
    """An rst page: a summary table, then one entry per name (those in
    `noindex`, objects another page documents, without an index entry)."""
    lines = [title, "=" * len(title), ""]
    if intro:
        lines += [intro, ""]
    for section, items in entries.items():
        if len(entries) > 1 or section != title:
            lines += [section, "-" * len(section), ""]
        lines += [".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {q}" for q, _ in items] + [""]
        for q, obj in items:
            d = _directive(q, obj)
            if q in noindex:
                first, _, rest = d.partition("\n")
                d = first + "\n   :no-index:\n" + rest
            lines.append(d)
    return "\n".join(lines) + "\n"


def _write(name, text):
    path = os.path.join(_API, name + ".rst")
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:   # unchanged files keep their time stamp: incremental builds
        with open(path, "w") as f:
            f.write(text)


def _array_page():
    title = _PAGE_TITLES["array"]
    lines = [title, "=" * len(title), "",
             ".. autoclass:: usmarray.usm_ndarray",
             "   :members:",
             "   :undoc-members:",
             "   :special-members: __array_namespace__, __dlpack__, __dlpack_device__, "
             "__getitem__, __setitem__, __array__, __reduce_ex__",
             "",
             "``usmarray.ndarray`` is the same class (NumPy's and CuPy's name for it).",
             "",
             ".. autoclass:: usmarray.Flags",
             "   :members:",
             ""]
    return "\n".join(lines)


_CONSTANTS = """Constants
---------

.. data:: usmarray.e

   Euler's number, 2.718281828459045.

.. data:: usmarray.pi

   3.141592653589793.

.. data:: usmarray.inf

   Positive infinity.

.. data:: usmarray.nan

   Not a number.

.. data:: usmarray.newaxis

   ``None``: a new axis of length one in indexing.

.. data:: usmarray.mgrid

   Dense coordinate grids by slicing, as ``numpy.mgrid``: ``mgrid[0:5, 0:1:3j]``
   (a complex step asks for that many points, the stop included).

.. data:: usmarray.ogrid

   The same as open (sparse, broadcastable) grids, as ``numpy.ogrid``.

.. data:: usmarray.r_

   Arrays joined along their first axis by indexing, as ``numpy.r_``:
   ``r_[x, 0, 1:4, -1:1:5j]`` (slices as ``arange``, a complex step as
   ``linspace``; a first string item ``"axis,ndmin,trans1d"`` as NumPy's).

.. data:: usmarray.c_

   The same along the last axis, 1-d items as columns, as ``numpy.c_``.
"""


def _generate():
    os.makedirs(_API, exist_ok=True)
    pages = {}
    dtypes = []
    for name, obj in _public(usmarray):
        if name in _ARRAY_CLASSES or name in ("e", "pi", "inf", "nan", "newaxis", "mgrid",
                                               "ogrid", "r_", "c_"):
            continue
        if isinstance(obj, np.dtype):
            dtypes.append(name)
            continue
        if obj is np.dtype:
            continue   # usmarray.dtype is numpy.dtype, as in dpctl.tensor
        if not callable(obj):
            raise RuntimeError(f"usmarray.{name}: a public name the API pages do not place")
        page, section = _SECTIONS.get(getattr(obj, "__module__", ""), ("other", "Other"))
        pages.setdefault(page, {}).setdefault(section, []).append((f"usmarray.{name}", obj))
    pages.setdefault("dtypes", {})
    for sub in ("linalg", "fft", "random", "utils"):
        mod = getattr(usmarray, sub)
        pages[sub] = {f"usmarray.{sub}": [(f"usmarray.{sub}.{n}", o) for n, o in _public(mod)]}
    pages.setdefault("utilities", {})["Testing (usmarray.testing)"] = [
        (f"usmarray.testing.{n}", o) for n, o in _public(usmarray.testing)]

    order = ["array"] + [p for p in _PAGE_TITLES if p != "array" and p in pages]
    for page in order:
        if page == "array":
            text = _array_page()
        elif page in ("linalg", "fft", "random"):
            intro = (f"The array API ``{page}`` extension; the guide page :doc:`/{page}` "
                     "describes it.") if page != "random" else \
                ("NumPy's ``Generator`` API on the device (not part of the array API); the "
                 "guide page :doc:`/random` describes it.")
            text = _section_page(_PAGE_TITLES[page], pages[page], intro)
        elif page == "utils":
            intro = ("The helpers dpctl 0.22 removed from ``dpctl.utils`` "
                     "(:doc:`/dpctl-migration`).")
            # (ExecutionPlacementError is usmarray's, documented with the devices)
            again = {q for items in pages[page].values() for q, o in items
                     if getattr(usmarray, q.rsplit(".", 1)[1], None) is o}
            text = _section_page(_PAGE_TITLES[page], pages[page], intro, again)
        else:
            text = _section_page(_PAGE_TITLES[page], pages[page])
        if page == "dtypes":
            text += ("\nData types\n----------\n\n"
                     "NumPy dtype objects; ``usmarray.dtype`` is ``numpy.dtype``. float64 and "
                     "complex128 need a device with fp64, float16 one with fp16 (float16 is "
                     "not an array API dtype).\n\n"
                     + "".join(f".. data:: usmarray.{d}\n\n   ``numpy.dtype('{d}')``.\n\n"
                               for d in dtypes) + _CONSTANTS)
        _write(page, text)
    toc = ["API reference", "=============", "",
           "Every public name of ``usmarray``, ``usmarray.linalg``, ``usmarray.fft``, "
           "``usmarray.random``, ``usmarray.testing`` and ``usmarray.utils``.", "",
           ".. toctree::", "   :maxdepth: 2", ""] + [f"   {p}" for p in order]
    _write("index", "\n".join(toc) + "\n")
    for f in os.listdir(_API):   # pages of an earlier build that this one has no names for
        if f.endswith(".rst") and f[:-4] not in order and f != "index.rst":
            os.remove(os.path.join(_API, f))


_generate()
