"""The array API ``fft`` extension: discrete Fourier transforms on the device.

Transforms run through oneMKL's DFT (``kernels/mkl/dft.cpp``, loaded on the
first call: ``usmarray._mkl``), on the input's queue, asynchronously, into a
new array with the input's USM type. This module decides dtypes, axes,
lengths (trimming is a view, zero-padding a copy) and the normalisation
factor; the engine (``kernels/engine/fft.cpp``) turns strides into one
batched oneMKL descriptor per call, and the oneMKL layer keeps committed
descriptors in a bounded cache. docs/fft.md has the details.
"""

import math
import numbers
import operator

import numpy as np

from ._core import _dtypes, _engine, _mkl
from ._core._array import empty_array, usm_ndarray
from ._core._copy import astype, copy, copy_into
from ._core._device import resolve_queue
from .creation import asarray, zeros
from .elementwise import conj
from .manipulation import roll
from .reduction import AxisError

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_MAX_RANK = 3           # axes one oneMKL descriptor transforms (usm_mkl::kDftMaxRank)
_NORMS = ("backward", "ortho", "forward")
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


# ------------------------------------------------------------------ policy
def _scale(norm, n, forward):
    """Factor of a transform of `n` points in direction `forward` under `norm`."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    # 'backward' scales the inverse transform, 'forward' the forward one
    return 1.0 / n if (norm == "forward") == forward else 1.0


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f"norm must be 'backward', 'ortho' or 'forward', got {norm!r}")


def _check_array(x, name):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")


def _as_complex(x, name):
    """`x` as the complex type of its precision (real floating input promoted)."""
    dt = x.dtype
    if dt.kind == "c":
        return x
    if dt.kind != "f":
        raise TypeError(f"{name} needs a floating-point array, got {dt}")
    ct = _dtypes.complex128 if dt == _dtypes.float64 else _dtypes.complex64
    _dtypes.check_device_support(ct, x._q)
    return astype(x, ct)


def _as_real(x, name):
    dt = x.dtype
    if dt.kind != "f":
        raise TypeError(f"{name} needs a real floating-point array, got {dt}")
    if dt == _dtypes.float16:
        return astype(x, _dtypes.float32)
    _dtypes.check_device_support(dt, x._q)
    return x


def _real_of(ct):
    return _dtypes.float64 if ct == _dtypes.complex128 else _dtypes.float32


def _complex_of(rt):
    return _dtypes.complex128 if rt == _dtypes.float64 else _dtypes.complex64


def _axis(axis, nd):
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise AxisError(f"axis {axis} is out of bounds for an array of dimension {nd}")
    return a % nd


def _length(n, default, what="n"):
    if n is None:
        n = default
    else:
        n = operator.index(n)
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) for {what}: must be at least 1")
    return n


def _s_axes(x, s, axes, last_halved=False):
    """Normalised (lengths, axes) of an n-dimensional transform; for irfftn
    (`last_halved`) the default length of the last axis is 2 * (M - 1)."""
    nd = x.ndim
    if axes is None:
        # NumPy's rule: s alone names the last len(s) axes
        axes = list(range(nd)) if s is None else list(range(nd - len(s), nd))
        if s is not None and len(s) > nd:
            raise ValueError(f"s has {len(s)} entries for an array of dimension {nd}")
    else:
        if isinstance(axes, int) or not hasattr(axes, "__len__"):
            raise TypeError("axes must be a sequence of ints")
        axes = [_axis(a, nd) for a in axes]
    if s is not None:
        if isinstance(s, int) or not hasattr(s, "__len__"):
            raise TypeError("s must be a sequence of ints")
        s = [operator.index(v) for v in s]
        if len(s) != len(axes):
            raise ValueError(f"s and axes have different lengths ({len(s)} and {len(axes)})")
    lengths = []
    for i, a in enumerate(axes):
        m = x.shape[a]
        default = 2 * (m - 1) if last_halved and i == len(axes) - 1 else m
        v = None if s is None or s[i] == -1 else s[i]
        lengths.append(_length(v, default, f"axis {a}"))
    return lengths, axes


def _resized(x, sizes):
    """`x` trimmed (a view) or zero-padded (a copy) to `sizes`, {axis: length}."""
    shape = list(x.shape)
    trim = [slice(None)] * x.ndim
    pad = False
    for a, n in sizes.items():
        m = shape[a]
        if n < m:
            trim[a] = slice(0, n)
        pad = pad or n > m
        shape[a] = n
    x = x[tuple(trim)] if any(t.stop is not None for t in trim) else x
    if not pad:
        return x
    out = zeros(tuple(shape), dtype=x.dtype, device=x.device, usm_type=x.usm_type)
    copy_into(out[tuple(slice(0, m) for m in x.shape)], x)
    return out


def _prepared(x):
    """`x` with strides oneMKL takes: it refuses negative and zero strides
    (reversed views, broadcast inputs), which are copied."""
    if any(st <= 0 and n > 1 for st, n in zip(x.strides, x.shape)):
        return copy(x, order="C")
    return x


def _chunks(axes):
    """Unique axes split into groups of at most _MAX_RANK, the last group
    holding the last axis (the halved one of real transforms)."""
    groups = []
    rest = list(axes)
    while rest:
        groups.insert(0, rest[-_MAX_RANK:])
        rest = rest[:-_MAX_RANK]
    return groups


def _run(x, out, axes, forward, real, norm):
    # n: the number of points, counted in the real array of a real transform
    n = math.prod((out if real and not forward else x).shape[a] for a in axes)
    _engine.fft(x._q.ref, x, out, list(axes), forward, real, _scale(norm, n, forward))


def _new(shape, dt, like):
    return empty_array(tuple(shape), dt, like._q, like.usm_type)


# ------------------------------------------------------------------ complex
def _c2c(x, lengths, axes, norm, forward, name):
    """Complex transform over `axes` (lengths per axis), NumPy's semantics."""
    _check_norm(norm)
    if len(set(axes)) != len(axes):
        # repeated axes: one transform per entry, last first, as NumPy does
        for n, a in reversed(list(zip(lengths, axes))):
            x = _c2c(x, [n], [a], norm, forward, name)
        return x
    x = _resized(x, dict(zip(axes, lengths)))
    if not axes:
        return copy(x)
    out = _new(x.shape, x.dtype, x)
    if x.size == 0:
        return out
    _mkl.load()
    src = _prepared(x)
    for group in _chunks(sorted(axes)):
        _run(src, out, group, forward, False, norm)
        src = out   # later groups transform the result in place
    return out


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    """One-dimensional discrete Fourier transform along `axis`.

    Parameters
    ----------
    x : usm_ndarray
        Complex input; real floating input is promoted to the complex type
        of its precision.
    n : int, optional
        Length of the transform: the axis is trimmed or zero-padded to `n`.
    axis : int
        Axis to transform (default the last).
    norm : {"backward", "ortho", "forward"}
        Normalisation: no scaling, 1/sqrt(n) or 1/n of the forward transform.

    Returns
    -------
    usm_ndarray
        Complex array with `x`'s shape except `n` along `axis`.
    """
    _check_array(x, "fft")
    a = _axis(axis, x.ndim)
    return _c2c(_as_complex(x, "fft"), [_length(n, x.shape[a])], [a], norm, True, "fft")


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    """One-dimensional inverse discrete Fourier transform along `axis`
    (scaled by 1/n under the default norm); parameters as :func:`fft`."""
    _check_array(x, "ifft")
    a = _axis(axis, x.ndim)
    return _c2c(_as_complex(x, "ifft"), [_length(n, x.shape[a])], [a], norm, False, "ifft")


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    """N-dimensional discrete Fourier transform over `axes` (default all).

    Parameters
    ----------
    x : usm_ndarray
        Complex input (real floating input is promoted).
    s : sequence of int, optional
        Transform lengths per axis of `axes` (-1: the axis' length); axes are
        trimmed or zero-padded to them.
    axes : sequence of int, optional
        Axes to transform. Repeated axes are transformed once per entry.
    norm : {"backward", "ortho", "forward"}
        Normalisation of the forward transform (n: product of the lengths).

    Returns
    -------
    usm_ndarray
    """
    _check_array(x, "fftn")
    lengths, axes = _s_axes(x, s, axes)
    return _c2c(_as_complex(x, "fftn"), lengths, axes, norm, True, "fftn")


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    """N-dimensional inverse discrete Fourier transform; parameters as :func:`fftn`."""
    _check_array(x, "ifftn")
    lengths, axes = _s_axes(x, s, axes)
    return _c2c(_as_complex(x, "ifftn"), lengths, axes, norm, False, "ifftn")


# ------------------------------------------------------------------ real
def _r2c(x, lengths, axes, norm, name):
    """Forward transform of real `x` over `axes`, halved along the last."""
    _check_norm(norm)
    if not axes:
        raise ValueError(f"{name} needs at least one axis")
    if len(set(axes)) != len(axes):
        y = _r2c(x, lengths[-1:], axes[-1:], norm, name)
        return _c2c(y, lengths[:-1], axes[:-1], norm, True, name)
    x = _resized(x, dict(zip(axes, lengths)))
    shape = list(x.shape)
    shape[axes[-1]] = x.shape[axes[-1]] // 2 + 1
    out = _new(shape, _complex_of(x.dtype), x)
    if x.size == 0:
        return out
    _mkl.load()
    groups = _chunks(axes)
    _run(_prepared(x), out, groups[-1], True, True, norm)
    for group in groups[:-1]:
        _run(out, out, sorted(group), True, False, norm)
    return out


def _c2r(x, lengths, axes, norm, name):
    """Inverse transform of Hermitian-symmetric `x` over `axes` to a real
    array of `lengths`, the last axis given by its first n//2 + 1 items."""
    _check_norm(norm)
    if not axes:
        raise ValueError(f"{name} needs at least one axis")
    if len(set(axes)) != len(axes):
        # repeated axes: one inverse transform per entry but the last, in
        # order (NumPy's irfftn; its ifftn goes from the last entry)
        for n, a in zip(lengths[:-1], axes[:-1]):
            x = _c2c(x, [n], [a], norm, False, name)
        return _c2r(x, lengths[-1:], axes[-1:], norm, name)
    sizes = dict(zip(axes, lengths))
    sizes[axes[-1]] = lengths[-1] // 2 + 1
    x = _resized(x, sizes)
    shape = list(x.shape)
    shape[axes[-1]] = lengths[-1]
    out = _new(shape, _real_of(x.dtype), x)
    if out.size == 0:
        return out
    _mkl.load()
    src = _prepared(x)
    if len(axes) > 1:
        # The complex axes first, into a scratch array the real step reads.
        # A multi-dimensional complex -> real descriptor would read only half
        # of the input along the other axes too (assuming Hermitian symmetry
        # there): NumPy's result, and the spec's, uses all of it.
        tmp = _new(x.shape, x.dtype, x)
        for group in _chunks(sorted(axes[:-1])):
            _run(src, tmp, group, False, False, norm)
            src = tmp
    _run(src, out, axes[-1:], False, True, norm)
    return out


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    """One-dimensional discrete Fourier transform of a real signal: the
    n//2 + 1 non-negative frequency terms.

    Parameters
    ----------
    x : usm_ndarray
        Real floating input (float32 -> complex64, float64 -> complex128).
    n : int, optional
        Length of the transform (input trimmed or zero-padded to it).
    axis : int
    norm : {"backward", "ortho", "forward"}

    Returns
    -------
    usm_ndarray
        Complex array, n//2 + 1 along `axis`.
    """
    _check_array(x, "rfft")
    a = _axis(axis, x.ndim)
    return _r2c(_as_real(x, "rfft"), [_length(n, x.shape[a])], [a], norm, "rfft")


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    """Inverse of :func:`rfft`: a real signal of length `n` (default
    2 * (m - 1)) from its n//2 + 1 non-negative frequency terms (the input
    along `axis` is trimmed or zero-padded to them).

    Parameters
    ----------
    x : usm_ndarray
        Complex input (real floating input is promoted).
    n : int, optional
    axis : int
    norm : {"backward", "ortho", "forward"}

    Returns
    -------
    usm_ndarray
        Real array of `x`'s precision, `n` along `axis`.
    """
    _check_array(x, "irfft")
    a = _axis(axis, x.ndim)
    n = _length(n, 2 * (x.shape[a] - 1))
    return _c2r(_as_complex(x, "irfft"), [n], [a], norm, "irfft")


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    """N-dimensional discrete Fourier transform of a real array, halved
    along the last of `axes`; parameters as :func:`fftn`."""
    _check_array(x, "rfftn")
    lengths, axes = _s_axes(x, s, axes)
    return _r2c(_as_real(x, "rfftn"), lengths, axes, norm, "rfftn")


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    """Inverse of :func:`rfftn`: `s` are the output lengths (default: the
    input's, and 2 * (m - 1) along the last of `axes`)."""
    _check_array(x, "irfftn")
    lengths, axes = _s_axes(x, s, axes, last_halved=True)
    return _c2r(_as_complex(x, "irfftn"), lengths, axes, norm, "irfftn")


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """Discrete Fourier transform of a Hermitian-symmetric signal given by
    its first n//2 + 1 terms: a real result of length `n` (default
    2 * (m - 1)). Parameters as :func:`irfft`; `norm` scales as a forward
    transform."""
    _check_array(x, "hfft")
    a = _axis(axis, x.ndim)
    n = _length(n, 2 * (x.shape[a] - 1))
    _check_norm(norm)
    return _c2r(conj(_as_complex(x, "hfft")), [n], [a], _SWAPPED[norm], "hfft")


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """Inverse of :func:`hfft`: the n//2 + 1 terms of the inverse transform
    of a real signal. Parameters as :func:`rfft`; `norm` scales as an
    inverse transform."""
    _check_array(x, "ihfft")
    a = _axis(axis, x.ndim)
    n = _length(n, x.shape[a])
    _check_norm(norm)
    return conj(_r2c(_as_real(x, "ihfft"), [n], [a], _SWAPPED[norm], "ihfft"))


# ------------------------------------------------------------------ helpers
def _freq_dtype(dtype, device):
    qi = resolve_queue(device)
    if dtype is None:
        return qi.float
    dt = _dtypes.to_dtype(dtype)
    if dt not in (_dtypes.float32, _dtypes.float64):
        raise ValueError(f"dtype must be a real floating-point data type, got {dt}")
    _dtypes.check_device_support(dt, qi)
    return dt


def _freq(values, n, d, dtype, device):
    # computed in float64 on the host, as NumPy does, then cast: n values
    # are cheap to move and the rounding matches NumPy's
    if not isinstance(d, numbers.Real) or isinstance(d, bool):
        raise TypeError(f"d must be a real number, got {type(d).__name__}")
    if d == 0:
        raise ValueError("d must not be zero")
    dt = _freq_dtype(dtype, device)
    return asarray((values * (1.0 / (n * d))).astype(dt), device=device)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """Sample frequencies of a length-`n` transform with sample spacing `d`:
    [0, 1, ..., -2, -1] / (d * n).

    Parameters
    ----------
    n : int
        Window length (at least 1).
    d : float
        Sample spacing.
    dtype : real floating dtype, optional
        Default: the device's default real floating type.
    device : optional
        Where to place the result.
    """
    n = _length(operator.index(n), None)
    k = np.empty(n, np.float64)
    h = (n - 1) // 2 + 1
    k[:h] = np.arange(0, h)
    k[h:] = np.arange(-(n // 2), 0)
    return _freq(k, n, d, dtype, device)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """Sample frequencies of :func:`rfft`: [0, 1, ..., n//2] / (d * n);
    parameters as :func:`fftfreq`."""
    n = _length(operator.index(n), None)
    return _freq(np.arange(0, n // 2 + 1, dtype=np.float64), n, d, dtype, device)


def _shift_axes(x, axes):
    if axes is None:
        return tuple(range(x.ndim))
    if isinstance(axes, (tuple, list)):
        return tuple(_axis(a, x.ndim) for a in axes)
    return (_axis(axes, x.ndim),)


def fftshift(x, /, *, axes=None):
    """`x` rolled so the zero-frequency term is at the centre of `axes`
    (default all): by n//2 along each."""
    _check_array(x, "fftshift")
    ax = _shift_axes(x, axes)
    if not ax:
        return copy(x)
    return roll(x, tuple(x.shape[a] // 2 for a in ax), axis=ax)


def ifftshift(x, /, *, axes=None):
    """Inverse of :func:`fftshift`: rolls by -(n//2) along each of `axes`."""
    _check_array(x, "ifftshift")
    ax = _shift_axes(x, axes)
    if not ax:
        return copy(x)
    return roll(x, tuple(-(x.shape[a] // 2) for a in ax), axis=ax)
