"""``Generator``: NumPy's ``numpy.random.Generator`` API drawing on the
device from a Philox stream, and ``default_rng``.

Every method takes NumPy's arguments plus ``dtype`` (where NumPy has none),
``device``, ``sycl_queue`` and ``usm_type`` (where the result is placed;
with ``out=`` it is out's queue). Without them a result follows its array
parameters, as computations follow their data: their queue and coerced
USM type (else the default queue and "device"). Where NumPy returns a Python scalar
(``size=None`` and scalar parameters) these return a 0-d array.
"""

import math
import operator

import numpy as np

from .._core import _dtypes
from .._core._array import empty_array, usm_ndarray
from .._core._copy import asnumpy
from .._core._device import follow_data
from .._core._layout import normalize_shape
from .._core._views import permute_dims
from ..creation import asarray, full
from . import _shuffle
from ._derived import DerivedDistributions
from ._distributions import draw
from ._philox import Philox

__all__ = ["Generator", "default_rng"]

_FLOAT_NAMES = ("float32", "float64")
_INT_NAMES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
_MASK64 = (1 << 64) - 1
# NumPy's limit (POISSON_LAM_MAX): larger rates overflow int64 counts; the
# same for int32 counts
_LAM_MAX = np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10
_LAM_MAX32 = np.iinfo(np.int32).max - np.sqrt(np.iinfo(np.int32).max) * 10


# --------------------------------------------------------------- placement
def _count_dtype(dtype, out):
    """The dtype counts (poisson, binomial) will have."""
    if isinstance(out, usm_ndarray):
        return out.dtype
    return np.dtype(np.int64) if dtype is None else np.dtype(dtype)


def _dtype(dtype, default, allowed, what):
    # (no default: None is NumPy's float64, as np.dtype(None))
    dt = default if dtype is None and default is not None else np.dtype(dtype)
    if dt.name not in allowed:
        raise TypeError(f"Unsupported dtype {dt!r} for {what}")
    return dt


def _target(what, size, dtype, out, place, allowed=_FLOAT_NAMES, default=None, shape=None):
    """(array to fill, C-contiguous; result): `out` (C or F contiguous:
    filled in memory order, as NumPy) or a new array of `size` (or `shape`,
    the parameters' broadcast shape, when size is None)."""
    if out is not None:
        if not isinstance(out, usm_ndarray):
            raise TypeError(f"out must be a usm_ndarray, got {type(out).__name__}")
        if size is not None and normalize_shape(size) != out.shape:
            raise ValueError("size must match out.shape when used together")
        if dtype is not None and np.dtype(dtype) != out.dtype:
            raise TypeError(f"Supplied output array has the wrong type. Expected "
                            f"{np.dtype(dtype)}, got {out.dtype}")
        _dtype(out.dtype, None, allowed, what)
        if not out.flags.writable:
            raise ValueError("Supplied output array must be writable")
        if out.flags.c_contiguous:
            return out, out
        if out.flags.f_contiguous:
            return permute_dims(out, tuple(range(out.ndim - 1, -1, -1))), out
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and in "
                         "machine byte-order.")
    device, usm_type, sycl_queue, *given = place
    # (the result follows array parameters: their queue and coerced USM type,
    # unless placed by the keywords)
    qi, usm_type = follow_data([a for a in (given[0] if given else ()) if isinstance(a, usm_ndarray)],
                               device, sycl_queue, usm_type)
    dt = _dtype(dtype, default or qi.float, allowed, what)
    _dtypes.check_device_support(dt, qi)
    shp = (shape or ()) if size is None else normalize_shape(size)
    res = empty_array(shp, dt, qi, usm_type, "C")
    return res, res


# --------------------------------------------------------------- parameters
def _host(v):
    return asnumpy(v) if isinstance(v, usm_ndarray) else v


def _fill_order(fill, res, v):
    """Parameter values `v` broadcast to the result's shape (ValueError if
    they do not fit it) and laid out as `fill` is filled: for an
    F-contiguous `out`, its memory order (fill is then its transpose)."""
    v = np.broadcast_to(v, res.shape)
    return v.T if fill is not res else v


def _is_scalar(v):
    return not isinstance(v, usm_ndarray) and np.ndim(v) == 0


def _params(values, size):
    """(scalars or None, host float64 arrays or None, broadcast shape) of
    distribution parameters: all scalars, or arrays broadcast together and
    to `size`."""
    if all(_is_scalar(v) for v in values):
        return [float(v) for v in values], None, ()
    host = [np.asarray(_host(v), dtype=np.float64) for v in values]
    shape = _param_shape([h.shape for h in host], size)
    return None, [np.broadcast_to(h, shape) for h in host], shape


def _param_shape(shapes, size):
    """The shape drawn for parameters of `shapes`: theirs broadcast together,
    or `size` (ValueError unless they broadcast to it)."""
    shape = np.broadcast_shapes(*shapes)   # (ValueError unless they broadcast)
    if size is None:
        return shape
    shape = normalize_shape(size)
    if np.broadcast_shapes(shape, *shapes) != shape:
        raise ValueError(f"parameters of shape {list(shapes)} do not broadcast to size {shape}")
    return shape


def _int_bound(v):
    """A scalar bound of integers as a Python int: floats truncated and
    bools as 0 and 1 (as NumPy); ValueError for NaN, OverflowError for an
    infinity."""
    if isinstance(v, (np.ndarray, usm_ndarray)):
        v = _host(v)[()]   # (a 0-d array: its value, as NumPy reads it)
    if isinstance(v, (bool, np.bool_, float, np.floating)):
        return int(v)
    return operator.index(v)


def _int_bounds(v):
    """Bounds (an array, or any scalar) as an object array of Python ints."""
    a = np.asarray(_host(v))
    if a.dtype.kind in "fb":
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError("integer bounds must be finite")
        return np.array([int(x) for x in a.flat], dtype=object).reshape(a.shape)
    if a.dtype.kind not in "iuO":
        raise TypeError(f"integer bounds must be integers, got {a.dtype}")
    return np.asarray(a, dtype=object)


# checks of parameters: (test that must hold, NumPy's message)
# (NumPy's: a NaN passes "nonneg" and "positive", its draws are NaN, also a
# NaN with its sign bit set, as inf - inf is; -0.0 fails "nonneg")
_CHECKS = {
    "nonneg": (lambda v: np.isnan(v) | np.logical_not(np.signbit(v)), "{} < 0"),
    "positive": (lambda v: np.logical_not(np.less_equal(v, 0)), "{} <= 0"),
    "prob": (lambda v: (v >= 0) & (v <= 1), "p < 0, p > 1 or p is NaN"),
    "lam": (lambda v: v >= 0, "lam < 0 or lam is NaN"),
    "gt1": (lambda v: v > 1, "{} <= 1 or {} is NaN"),
    "unit_open": (lambda v: (v >= 0) & (v < 1), "{} < 0, {} >= 1 or {} is NaN"),
}
# hypergeometric's bound on each kind's size (NumPy's)
_HYPER_MAX = 10**9


def _check(name, kind, v):
    if kind is None:
        return
    test, msg = _CHECKS[kind]
    if not np.all(test(v)):
        raise ValueError(msg.format(*(name,) * msg.count("{}")))
    if kind == "lam" and np.any(v > _LAM_MAX):
        raise ValueError("lam value too large")


class Generator(DerivedDistributions):
    """NumPy's ``Generator`` on the device, drawing from a :class:`Philox`.

    Parameters
    ----------
    bit_generator : Philox
        The stream (shared, not copied: drawing advances it).

    Notes
    -----
    ``random``, ``uniform``, ``integers`` over a full 32- or 64-bit range,
    ``choice`` with ``p`` (and with replacement), ``bytes`` and the raw
    stream equal NumPy's ``Generator(Philox(seed))`` bit for bit; the other
    distributions are drawn by counter-based algorithms of their own
    (docs/random.md).
    """

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, Philox):
            raise TypeError("bit_generator must be a usmarray.random.Philox")
        self._bg = bit_generator

    @property
    def bit_generator(self):
        return self._bg

    def __repr__(self):
        return f"Generator(Philox) at {id(self):#x}"

    def __reduce__(self):
        return type(self), (self._bg,)   # (pickles with its bit generator's state)

    def spawn(self, n_children):
        """`n_children` independent generators (NumPy's ``Generator.spawn``)."""
        return [type(self)(bg) for bg in self._bg.spawn(n_children)]

    # ----------------------------------------------------------- uniforms
    def random(self, size=None, dtype=None, out=None, *, device=None, usm_type=None,
               sycl_queue=None):
        """Floats in [0, 1): NumPy's values bit for bit (float64 from a
        word's top 53 bits, float32 from 24 bits of a 32-bit half)."""
        fill, res = _target("random", size, dtype, out, (device, usm_type, sycl_queue))
        draw(self._bg, "random", fill)
        return res

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=None, out=None, device=None,
                usm_type=None, sycl_queue=None):
        """Floats in [low, high): ``low + (high - low) * random()``, NumPy's
        values bit for bit for scalar bounds (float32: computed in float32)."""
        scal, arrs, shape = _params((low, high), size)
        if scal is not None:
            rng = scal[1] - scal[0]
            if not math.isfinite(rng):
                raise OverflowError("high - low range exceeds valid bounds")
            _check("high - low", "nonneg", rng)
        else:
            rng = arrs[1] - arrs[0]
            if not np.all(np.isfinite(rng)):
                raise OverflowError("high - low range exceeds valid bounds")
            _check("high - low", "nonneg", rng)
        fill, res = _target("uniform", size, dtype, out, (device, usm_type, sycl_queue,
                                                           (low, high)), shape=shape)
        if scal is not None:
            draw(self._bg, "uniform", fill, scal[0], rng)
        else:
            pa, pb = self._param_arrays(fill, [_fill_order(fill, res, v) for v in (arrs[0], rng)])
            draw(self._bg, "uniform", fill, pa=pa, pb=pb)
        return res

    def _param_arrays(self, fill, arrays, dtype=None):
        """Parameter arrays on fill's queue, in its C order and compute type."""
        dt = dtype or (fill.dtype if fill.dtype.kind == "f" else fill._q.float)
        # (order="C" keeps a 0-d parameter 0-d: ascontiguousarray made it (1,))
        return [asarray(np.array(a, dtype=dt, order="C"), sycl_queue=fill._q.queue)
                for a in arrays]

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *, out=None,
                 device=None, usm_type=None, sycl_queue=None):
        """Integers in [low, high) ([low, high] with `endpoint`) of any integer
        dtype or bool. Exactly uniform (Lemire's method with rejection);
        NumPy's values bit for bit only for a full 32- or 64-bit range."""
        dt = _dtype(dtype, None, _INT_NAMES, "integers")
        if high is None:
            low, high = 0, low
        info = (0, 1) if dt.kind == "b" else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
        if _is_scalar(low) and _is_scalar(high):
            lo, hi = _int_bound(low), _int_bound(high) - (0 if endpoint else 1)
            if lo < info[0]:
                raise ValueError(f"low is out of bounds for {dt}")
            if hi > info[1]:
                raise ValueError(f"high is out of bounds for {dt}")
            fill, res = _target("integers", size, dt, out, (device, usm_type, sycl_queue),
                                _INT_NAMES)
            if lo > hi and fill.size:   # (NumPy draws nothing for size 0, and says nothing)
                raise ValueError("low > high" if endpoint else "low >= high")
            if fill.size == 0:
                return res
            if hi == lo:   # one value: no draws (as NumPy)
                if fill.size:
                    fill[...] = full(fill.shape, lo, dtype=dt, sycl_queue=fill._q.queue)
                return res
            rm1 = hi - lo
            draw(self._bg, "int32" if rm1 < (1 << 32) else "int64", fill, lo, rm1)
            return res
        lo = _int_bounds(low)
        hi = np.asarray(_int_bounds(high) - (0 if endpoint else 1), dtype=object)
        shape = _param_shape([lo.shape, hi.shape], size)
        fill, res = _target("integers", size, dt, out, (device, usm_type, sycl_queue,
                                                        (low, high)), _INT_NAMES, shape=shape)
        lo, hi = _fill_order(fill, res, lo), _fill_order(fill, res, hi)
        if lo.size and min(lo.flat) < info[0]:
            raise ValueError(f"low is out of bounds for {dt}")
        if hi.size and max(hi.flat) > info[1]:
            raise ValueError(f"high is out of bounds for {dt}")
        if np.any(lo > hi):
            raise ValueError("low > high" if endpoint else "low >= high")
        rm1 = np.asarray(hi - lo, dtype=object)   # (0-d: a Python int otherwise)
        wide = bool(rm1.size) and max(rm1.flat) >= (1 << 32)
        pa, pb = self._param_arrays(fill, [np.vectorize(lambda v: v & _MASK64, otypes=[np.uint64])(x)
                                           for x in (lo, rm1)], np.uint64)
        if fill.size:
            draw(self._bg, "int64" if wide else "int32", fill, pa=pa, pb=pb)
        return res

    def bytes(self, length):
        """`length` random bytes: NumPy's bytes bit for bit (the 32-bit
        halves of the stream, little-endian)."""
        length = operator.index(length)
        # NumPy's count of 32-bit draws, C's truncating division included:
        # bytes(0) draws one, bytes(-3) none, bytes(-8) is a negative size
        q = length - 1
        n = (q // 4 if q >= 0 else -(-q // 4)) + 1
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        if n == 0:
            return b""
        x = self.integers(0, 1 << 32, size=n, dtype=np.uint32)
        return asnumpy(x).astype("<u4").tobytes()[:length]

    # ----------------------------------------------------------- distributions
    def _continuous(self, name, dist, params, checks, size, dtype, out, place,
                    allowed=_FLOAT_NAMES, default=None, prepare=None):
        """One distribution of `params` (values: scalars or arrays), each
        checked by its (name, kind) in `checks`; `prepare(values)` maps the
        checked parameters to the kernel's two."""
        scal, arrs, shape = _params(params, size)
        for (pname, kind), v in zip(checks, scal if scal is not None else arrs):
            _check(pname, kind, v)
        fill, res = _target(name, size, dtype, out, place + (params,), allowed, default, shape)
        prepare = prepare or (lambda vals: tuple(vals) + (0.0,) * (2 - len(vals)))
        if fill.size == 0:
            return res
        if scal is not None:
            draw(self._bg, dist, fill, *prepare(scal))
        else:
            vals = [a for a in prepare(arrs)]
            pa, pb = self._param_arrays(fill, [_fill_order(fill, res, v) for v in vals])
            draw(self._bg, dist, fill, pa=pa, pb=pb)
        return res

    def standard_normal(self, size=None, dtype=None, out=None, *, device=None,
                        usm_type=None, sycl_queue=None):
        """Standard normal floats (Box-Muller on pairs of words)."""
        return self._continuous("standard_normal", "normal", (), (), size, dtype, out,
                                (device, usm_type, sycl_queue), prepare=lambda v: (0.0, 1.0))

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=None, out=None, device=None,
               usm_type=None, sycl_queue=None):
        """Normal floats of mean `loc` and standard deviation `scale` >= 0."""
        return self._continuous("normal", "normal", (loc, scale),
                                ((None, None), ("scale", "nonneg")), size, dtype, out,
                                (device, usm_type, sycl_queue))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, dtype=None, out=None, device=None,
                  usm_type=None, sycl_queue=None):
        """exp of normal floats of mean `mean` and deviation `sigma` >= 0."""
        return self._continuous("lognormal", "lognormal", (mean, sigma),
                                ((None, None), ("sigma", "nonneg")), size, dtype, out,
                                (device, usm_type, sycl_queue))

    def standard_exponential(self, size=None, dtype=None, method="zig", out=None, *,
                             device=None, usm_type=None, sycl_queue=None):
        """Exponential floats of rate 1, by inversion (``-log(1 - U)``) for
        either `method` ("zig" or "inv")."""
        if method not in ("zig", "inv"):
            raise ValueError(f"method must be 'zig' or 'inv', got {method!r}")
        return self._continuous("standard_exponential", "exponential", (), (), size, dtype, out,
                                (device, usm_type, sycl_queue), prepare=lambda v: (1.0, 0.0))

    def exponential(self, scale=1.0, size=None, *, dtype=None, out=None, device=None,
                    usm_type=None, sycl_queue=None):
        """Exponential floats of mean `scale` >= 0."""
        return self._continuous("exponential", "exponential", (scale,), (("scale", "nonneg"),),
                                size, dtype, out, (device, usm_type, sycl_queue))

    def standard_gamma(self, shape, size=None, dtype=None, out=None, *, device=None,
                       usm_type=None, sycl_queue=None):
        """Gamma floats of `shape` >= 0 and scale 1 (NumPy's algorithms:
        Marsaglia-Tsang, and rejection below shape 1)."""
        return self._continuous("standard_gamma", "gamma", (shape,), (("shape", "nonneg"),),
                                size, dtype, out, (device, usm_type, sycl_queue),
                                prepare=lambda v: (v[0], 1.0 if not isinstance(v[0], np.ndarray)
                                                   else np.ones_like(v[0])))

    def gamma(self, shape, scale=1.0, size=None, *, dtype=None, out=None, device=None,
              usm_type=None, sycl_queue=None):
        """Gamma floats of `shape` >= 0 and `scale` >= 0."""
        return self._continuous("gamma", "gamma", (shape, scale),
                                (("shape", "nonneg"), ("scale", "nonneg")), size, dtype, out,
                                (device, usm_type, sycl_queue))

    def beta(self, a, b, size=None, *, dtype=None, out=None, device=None, usm_type=None,
             sycl_queue=None):
        """Beta floats of parameters `a` > 0 and `b` > 0."""
        return self._continuous("beta", "beta", (a, b), (("a", "positive"), ("b", "positive")),
                                size, dtype, out, (device, usm_type, sycl_queue))

    def poisson(self, lam=1.0, size=None, *, dtype=None, out=None, device=None,
                usm_type=None, sycl_queue=None):
        """Poisson counts of rate `lam` (int64; int32 by `dtype`)."""
        if _count_dtype(dtype, out) == np.int32 and np.any(np.asarray(_host(lam)) > _LAM_MAX32):
            raise ValueError("lam value too large for int32 counts")
        return self._continuous("poisson", "poisson", (lam,), (("lam", "lam"),), size, dtype,
                                out, (device, usm_type, sycl_queue), ("int32", "int64"),
                                _dtypes.int64)

    def binomial(self, n, p, size=None, *, dtype=None, out=None, device=None, usm_type=None,
                 sycl_queue=None):
        """Successes in `n` trials of probability `p` (int64; int32 by
        `dtype`). Floats `n` are truncated, as NumPy; integer `n` is exact
        up to 2**63 - 1."""
        top = np.iinfo(_count_dtype(dtype, out)).max if _count_dtype(dtype, out).kind == "i" \
            else np.iinfo(np.int64).max
        trials = _int_bounds(n)
        prob = np.asarray(_host(p), dtype=np.float64)
        _check("p", "prob", prob)
        if trials.size and min(trials.flat) < 0:
            raise ValueError("n < 0")
        if trials.size and max(trials.flat) > top:
            if top == np.iinfo(np.int64).max:
                raise OverflowError("n is too large: the counts are int64")
            raise ValueError("n is too large for int32 counts")
        place = (device, usm_type, sycl_queue, (n, p))
        if _is_scalar(n) and _is_scalar(p):
            fill, res = _target("binomial", size, dtype, out, place, ("int32", "int64"),
                                _dtypes.int64)
            if fill.size:
                draw(self._bg, "binomial", fill, int(trials), float(prob))
            return res
        shape = _param_shape([trials.shape, prob.shape], size)
        fill, res = _target("binomial", size, dtype, out, place, ("int32", "int64"),
                            _dtypes.int64, shape)
        if fill.size:
            (pa,) = self._param_arrays(fill, [_fill_order(fill, res, trials).astype(np.int64)],
                                       np.int64)
            (pb,) = self._param_arrays(fill, [_fill_order(fill, res, prob)])
            draw(self._bg, "binomial", fill, pa=pa, pb=pb)
        return res

    def vonmises(self, mu, kappa, size=None, *, dtype=None, out=None, device=None,
                 usm_type=None, sycl_queue=None):
        """von Mises angles in [-pi, pi] of mode `mu` and concentration
        `kappa` >= 0 (NumPy's algorithm: Best and Fisher's rejection)."""
        return self._continuous("vonmises", "vonmises", (mu, kappa),
                                ((None, None), ("kappa", "nonneg")), size, dtype, out,
                                (device, usm_type, sycl_queue))

    def zipf(self, a, size=None, *, out=None, device=None, usm_type=None, sycl_queue=None):
        """Zipf (zeta) counts >= 1 (int64) of exponent `a` > 1 (NumPy's
        rejection algorithm)."""
        return self._continuous("zipf", "zipf", (a,), (("a", "gt1"),), size, None, out,
                                (device, usm_type, sycl_queue), ("int64",), _dtypes.int64)

    def logseries(self, p, size=None, *, out=None, device=None, usm_type=None,
                  sycl_queue=None):
        """Logarithmic series counts >= 1 (int64) of `p` in [0, 1) (Kemp's
        method, as NumPy)."""
        return self._continuous("logseries", "logseries", (p,), (("p", "unit_open"),), size,
                                None, out, (device, usm_type, sycl_queue), ("int64",),
                                _dtypes.int64)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, out=None, device=None,
                       usm_type=None, sycl_queue=None):
        """Good items (int64) among `nsample` drawn without replacement from
        `ngood` good and `nbad` bad ones (each below 10**9; floats
        truncated, as NumPy). NumPy's algorithms: the draws one by one for
        samples within 10 of either end, else Stadlober's HRUA rejection."""
        good, bad, sample = (_int_bounds(v) for v in (ngood, nbad, nsample))
        if (good.size and max(good.flat) >= _HYPER_MAX) or (bad.size and max(bad.flat) >= _HYPER_MAX):
            raise ValueError(f"both ngood and nbad must be less than {_HYPER_MAX}")
        shape = _param_shape([good.shape, bad.shape, sample.shape], size)
        total = np.broadcast_to(good + bad, shape)
        if total.size and np.any(total < np.broadcast_to(sample, shape)):
            raise ValueError("ngood + nbad < nsample")
        for name, v in (("ngood", good), ("nbad", bad), ("nsample", sample)):
            if v.size and min(v.flat) < 0:
                raise ValueError(f"{name} < 0")
        place = (device, usm_type, sycl_queue, (ngood, nbad, nsample))
        packed = good + bad * (1 << 32)   # (the kernel's first parameter)
        if all(_is_scalar(v) for v in (ngood, nbad, nsample)):
            fill, res = _target("hypergeometric", size, None, out, place, ("int64",),
                                _dtypes.int64)
            if fill.size:
                draw(self._bg, "hypergeometric", fill, int(packed), int(sample))
            return res
        fill, res = _target("hypergeometric", size, None, out, place, ("int64",), _dtypes.int64,
                            shape)
        if fill.size:
            pa, pb = self._param_arrays(
                fill, [_fill_order(fill, res, v).astype(np.int64) for v in (packed, sample)],
                np.int64)
            draw(self._bg, "hypergeometric", fill, pa=pa, pb=pb)
        return res

    # ----------------------------------------------------------- permutations
    def permutation(self, x, axis=0):
        """A random permutation of ``range(x)`` (int64), or a shuffled copy
        of the array `x` along `axis`."""
        return _shuffle.permutation(self, x, axis)

    def shuffle(self, x, axis=0):
        """Shuffle the usm_ndarray `x` in place along `axis`."""
        _shuffle.shuffle(self, x, axis)

    def permuted(self, x, *, axis=None, out=None):
        """`x` with each slice along `axis` shuffled independently (the
        flattened array when axis is None)."""
        return _shuffle.permuted(self, x, axis, out)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """A random sample of ``range(a)`` or of the array `a` along `axis`.
        With `p`: NumPy's inverse-CDF sampling, bit for bit. Without
        replacement and `p`: the first items of a uniform permutation (more
        than half of the population, or one of at most 65536), else of a
        Feistel permutation keyed by the stream (not NumPy's values;
        docs/random.md)."""
        return _shuffle.choice(self, a, size, replace, p, axis, shuffle)


def default_rng(seed=None):
    """A :class:`Generator` on a :class:`Philox` seeded with `seed` (NumPy's
    ``default_rng`` takes PCG64, which is not counter-based); a Generator is
    returned as is, a Philox wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
