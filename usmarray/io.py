"""``save``, ``savez``, ``savez_compressed`` and ``load``: NumPy's ``.npy``
and ``.npz`` files, written and read by NumPy through the host.

Saving copies each usm_ndarray to the host (one wait) and hands it to
NumPy's writer, so the files are NumPy's own and NumPy reads them;
``np.save(file, x)`` and ``np.savez(file, x=x)`` on usm_ndarrays come here
through ``__array_function__``. Loading reads with ``numpy.load`` and copies
the arrays to the device; an ``.npz`` archive gives an :class:`NpzFile`
whose members are copied to the device when they are read, as CuPy's."""

from collections.abc import Mapping

import numpy as np

from ._core._array import usm_ndarray
from ._core._copy import asnumpy
from .creation import asarray

__all__ = ["save", "savez", "savez_compressed", "load", "NpzFile"]


def _host(v):
    return asnumpy(v) if isinstance(v, usm_ndarray) else v


def save(file, arr, allow_pickle=True):
    """Save an array to a ``.npy`` file, as ``numpy.save``.

    Parameters
    ----------
    file : str, path or file object
        Where to write (``.npy`` is appended to a name without it).
    arr : usm_ndarray or array_like
        The array; a usm_ndarray is copied to the host first.
    allow_pickle : bool
        As NumPy's (object arrays only).

    Returns
    -------
    None
    """
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays to an uncompressed ``.npz`` archive, as ``numpy.savez``.

    Parameters
    ----------
    file : str, path or file object
        Where to write (``.npz`` is appended to a name without it).
    *args : usm_ndarray or array_like
        Arrays stored as ``arr_0``, ``arr_1``, ...
    allow_pickle : bool
        As NumPy's.
    **kwds : usm_ndarray or array_like
        Arrays stored under their keyword.

    Returns
    -------
    None
    """
    np.savez(file, *map(_host, args), allow_pickle=allow_pickle,
             **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Save several arrays to a compressed ``.npz`` archive, as ``numpy.savez_compressed``.

    Parameters
    ----------
    file : str, path or file object
        Where to write.
    *args : usm_ndarray or array_like
        Arrays stored as ``arr_0``, ``arr_1``, ...
    allow_pickle : bool
        As NumPy's.
    **kwds : usm_ndarray or array_like
        Arrays stored under their keyword.

    Returns
    -------
    None
    """
    np.savez_compressed(file, *map(_host, args), allow_pickle=allow_pickle,
                        **{k: _host(v) for k, v in kwds.items()})


class NpzFile(Mapping):
    """An ``.npz`` archive opened by :func:`load`: NumPy's ``NpzFile``
    whose members come out as usm_ndarrays (each read and copied to the
    device when it is asked for; members of other dtypes, strings or
    records, as the NumPy arrays ``load`` gives for them). A context manager
    and a mapping (``get``, ``values``, ...); ``files`` lists the member
    names."""

    def __init__(self, npz, device=None, usm_type=None, sycl_queue=None):
        self._npz = npz
        self._where = {"device": device, "usm_type": usm_type, "sycl_queue": sycl_queue}

    @property
    def files(self):
        """The names of the arrays in the archive."""
        return self._npz.files

    def __getitem__(self, key):
        return _to_device(self._npz[key], self._where)

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def close(self):
        """Close the archive."""
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<usmarray.io.NpzFile of {self._npz!r}>"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000, device=None, usm_type=None, sycl_queue=None):
    """Load arrays from ``.npy`` or ``.npz`` files onto the device, as ``numpy.load``.

    Parameters
    ----------
    file : str, path or file object
        The file (NumPy's files, or any NumPy reads).
    mmap_mode, allow_pickle, fix_imports, encoding, max_header_size
        As NumPy's (a memory map is read and copied to the device).
    device, usm_type, sycl_queue
        Where the arrays are made (default: the default device).

    Returns
    -------
    usm_ndarray or NpzFile
        The array of an ``.npy`` file; an :class:`NpzFile` for an archive. A
        pickled object (``allow_pickle=True``) that is not an array is
        returned as NumPy loads it.
    """
    obj = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                  encoding=encoding, max_header_size=max_header_size)
    if isinstance(obj, np.lib.npyio.NpzFile):
        return NpzFile(obj, device=device, usm_type=usm_type, sycl_queue=sycl_queue)
    return _to_device(obj, {"device": device, "usm_type": usm_type, "sycl_queue": sycl_queue})


def _to_device(obj, where):
    """A loaded NumPy array of numbers on the device; anything else as loaded."""
    if isinstance(obj, np.ndarray) and obj.dtype.kind in "biufc":
        return asarray(obj, **where)
    return obj
