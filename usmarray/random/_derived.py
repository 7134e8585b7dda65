"""NumPy's other ``Generator`` distributions, as transforms on the device of
the draws the kernels make (uniforms, standard exponentials and normals,
gamma, binomial and Poisson counts), by NumPy's formulas.

Their values are not NumPy's (NumPy draws some by rejection, and the
primitive draws other than uniforms differ already, docs/random.md), but
they are deterministic, the same on every device, and statistically NumPy's
distributions (tests/test_random_more.py checks them against SciPy's)."""

import operator
import warnings

import numpy as np

from .. import elementwise as ew, linalg
from .._core import _dtypes
from .._core._array import usm_ndarray
from .._core._copy import asnumpy, astype
from .._core._device import follow_data
from .._core._layout import normalize_shape
from ..creation import asarray
from ..manipulation import concat, expand_dims
from ..reduction import sum as _sum
from ..searching import where

__all__ = ["DerivedDistributions"]

# NumPy's largest Poisson rate (int64's maximum less ten of its square roots)
_POISSON_LAM_MAX = float(np.iinfo(np.int64).max) - np.sqrt(float(np.iinfo(np.int64).max)) * 10


def _host(v):
    h = np.asarray(asnumpy(v) if isinstance(v, usm_ndarray) else v)
    if h.dtype.kind not in "biuf":
        raise TypeError(f"a distribution parameter must be a real number, got {h.dtype}")
    return h.astype(np.float64)


def _negative(h):
    """NumPy's check of non-negative parameters: the sign bit (-0.0 too), NaN passing."""
    return ~np.isnan(h) & np.signbit(h)


def _check(name, v, bad, what):
    """ValueError (NumPy's) where `bad` holds for a parameter's values."""
    h = _host(v)
    if h.size and np.any(bad(h)):
        raise ValueError(f"{name} {what}")


class DerivedDistributions:
    """The methods of Generator built on its primitive draws (a mixin: the
    class defines random, standard_exponential, standard_normal,
    standard_gamma, gamma, poisson and binomial)."""

    # ------------------------------------------------------------ helpers
    def _derived_target(self, params, size, dtype, device, usm_type, sycl_queue, placed=()):
        """(shape, placement keywords, float dtype) of a derived draw: the
        parameters' broadcast shape (or `size`, which they must broadcast
        to), on the array parameters' queue and coerced USM type unless
        placed by the keywords."""
        arrays = [p for p in tuple(params) + tuple(placed) if isinstance(p, usm_ndarray)]
        shapes = [np.shape(p) if not isinstance(p, usm_ndarray) else p.shape for p in params]
        try:
            b = np.broadcast_shapes(*shapes) if shapes else ()
        except ValueError:
            raise ValueError("shape mismatch: the parameters could not be broadcast together") \
                from None
        if size is not None:
            shape = normalize_shape(size)
            if np.broadcast_shapes(shape, b) != shape:
                raise ValueError(f"size {shape} is not compatible with the parameters' shape {b}")
        else:
            shape = b
        qi, kind = follow_data(arrays, device, sycl_queue, usm_type)
        dt = qi.float if dtype is None else _dtypes.to_dtype(dtype)
        if dt.kind != "f" or dt.itemsize < 4:
            raise TypeError(f"Unsupported dtype {dt} (float32 and float64 only)")
        _dtypes.check_device_support(dt, qi)
        return shape, {"sycl_queue": qi.queue, "usm_type": kind}, dt

    @staticmethod
    def _on(p, place, dt):
        """A parameter as an operand: an array in `dt` on the draw's queue
        (0-d for a number)."""
        if isinstance(p, usm_ndarray):   # (copied where the draw goes elsewhere)
            return asarray(p, dtype=dt, **place)
        return asarray(np.asarray(p, dtype=dt), dtype=dt, **place)

    def _open_unit(self, shape, dt, place):
        """Uniforms in (0, 1): the stream's [0, 1) with 0 moved to 1/2 (a
        draw of probability 2**-53 that NumPy draws again)."""
        u = self.random(shape, dtype=dt, **place)
        return where(ew.equal(u, 0), 0.5, u)

    # -------------------------------------------------------- continuous
    def _loc_scale_unit(self, loc, scale, size, dtype, device, usm_type, sycl_queue):
        """(loc, scale, open uniforms) of a location-scale draw, `scale` >= 0."""
        _check("scale", scale, _negative, "< 0")
        shape, place, dt = self._derived_target((loc, scale), size, dtype, device, usm_type,
                                                sycl_queue)
        return self._on(loc, place, dt), self._on(scale, place, dt), \
            self._open_unit(shape, dt, place)

    def laplace(self, loc=0.0, scale=1.0, size=None, *, dtype=None, device=None, usm_type=None,
                sycl_queue=None):
        """Laplace (double exponential) floats of location `loc`, `scale` >= 0."""
        loc, scale, u = self._loc_scale_unit(loc, scale, size, dtype, device, usm_type,
                                             sycl_queue)
        up = ew.greater_equal(u, 0.5)
        e = ew.log(where(up, ew.subtract(2.0, ew.add(u, u)), ew.add(u, u)))
        return ew.add(loc, ew.multiply(where(up, ew.negative(e), e), scale))

    def logistic(self, loc=0.0, scale=1.0, size=None, *, dtype=None, device=None, usm_type=None,
                 sycl_queue=None):
        """Logistic floats: ``loc + scale * log(U / (1 - U))``, `scale` >= 0."""
        loc, scale, u = self._loc_scale_unit(loc, scale, size, dtype, device, usm_type,
                                             sycl_queue)
        return ew.add(loc, ew.multiply(scale, ew.log(ew.divide(u, ew.subtract(1.0, u)))))

    def gumbel(self, loc=0.0, scale=1.0, size=None, *, dtype=None, device=None, usm_type=None,
               sycl_queue=None):
        """Gumbel floats: ``loc - scale * log(-log(U))``, `scale` >= 0."""
        loc, scale, u = self._loc_scale_unit(loc, scale, size, dtype, device, usm_type,
                                             sycl_queue)
        return ew.subtract(loc, ew.multiply(scale, ew.log(ew.negative(ew.log(u)))))

    def _of_exponential(self, params, size, dtype, device, usm_type, sycl_queue):
        shape, place, dt = self._derived_target(params, size, dtype, device, usm_type,
                                                sycl_queue)
        e = self.standard_exponential(shape, dtype=dt, **place)
        return e, [self._on(p, place, dt) for p in params], place, dt

    def weibull(self, a, size=None, *, dtype=None, device=None, usm_type=None, sycl_queue=None):
        """Weibull floats of shape `a` >= 0: ``E ** (1 / a)`` (0 where a is 0)."""
        _check("a", a, _negative, "< 0")
        e, (a,), _, _ = self._of_exponential((a,), size, dtype, device, usm_type, sycl_queue)
        return where(ew.equal(a, 0), 0.0, ew.pow(e, ew.divide(1.0, a)))

    def pareto(self, a, size=None, *, dtype=None, device=None, usm_type=None, sycl_queue=None):
        """Pareto II (Lomax) floats of shape `a` > 0: ``expm1(E / a)``."""
        _check("a", a, lambda h: h <= 0, "<= 0")
        e, (a,), _, _ = self._of_exponential((a,), size, dtype, device, usm_type, sycl_queue)
        return ew.expm1(ew.divide(e, a))

    def power(self, a, size=None, *, dtype=None, device=None, usm_type=None, sycl_queue=None):
        """Power-function floats in [0, 1] of exponent `a` > 0:
        ``(1 - exp(-E)) ** (1 / a)``."""
        _check("a", a, lambda h: h <= 0, "<= 0")
        e, (a,), _, _ = self._of_exponential((a,), size, dtype, device, usm_type, sycl_queue)
        return ew.pow(ew.negative(ew.expm1(ew.negative(e))), ew.divide(1.0, a))

    def rayleigh(self, scale=1.0, size=None, *, dtype=None, device=None, usm_type=None,
                 sycl_queue=None):
        """Rayleigh floats: ``scale * sqrt(2 E)``, `scale` >= 0."""
        _check("scale", scale, _negative, "< 0")
        e, (scale,), _, _ = self._of_exponential((scale,), size, dtype, device, usm_type,
                                                 sycl_queue)
        return ew.multiply(scale, ew.sqrt(ew.add(e, e)))

    def standard_cauchy(self, size=None, *, dtype=None, device=None, usm_type=None,
                        sycl_queue=None):
        """Cauchy floats (location 0, scale 1): the ratio of two normals."""
        shape, place, dt = self._derived_target((), size, dtype, device, usm_type, sycl_queue)
        n = self.standard_normal((2,) + tuple(shape), dtype=dt, **place)
        return ew.divide(n[0], n[1])

    def chisquare(self, df, size=None, *, dtype=None, device=None, usm_type=None,
                  sycl_queue=None):
        """Chi-square floats of `df` > 0 degrees of freedom: 2 * Gamma(df / 2)."""
        _check("df", df, lambda h: h <= 0, "<= 0")
        shape, place, dt = self._derived_target((df,), size, dtype, device, usm_type, sycl_queue)
        g = self.standard_gamma(ew.multiply(self._on(df, place, dt), 0.5), shape, dtype=dt,
                                **place)
        return ew.add(g, g)

    def standard_t(self, df, size=None, *, dtype=None, device=None, usm_type=None,
                   sycl_queue=None):
        """Student's t floats of `df` > 0 degrees of freedom:
        ``N / sqrt(chisquare(df) / df)``."""
        _check("df", df, lambda h: h <= 0, "<= 0")
        shape, place, dt = self._derived_target((df,), size, dtype, device, usm_type, sycl_queue)
        n = self.standard_normal(shape, dtype=dt, **place)
        c = self.chisquare(df, shape, dtype=dt, **place)
        return ew.divide(n, ew.sqrt(ew.divide(c, self._on(df, place, dt))))

    def f(self, dfnum, dfden, size=None, *, dtype=None, device=None, usm_type=None,
          sycl_queue=None):
        """F (Fisher-Snedecor) floats: ``(chisq(dfnum) / dfnum) / (chisq(dfden) / dfden)``."""
        _check("dfnum", dfnum, lambda h: h <= 0, "<= 0")
        _check("dfden", dfden, lambda h: h <= 0, "<= 0")
        shape, place, dt = self._derived_target((dfnum, dfden), size, dtype, device, usm_type,
                                                sycl_queue)
        a = ew.divide(self.chisquare(dfnum, shape, dtype=dt, **place), self._on(dfnum, place, dt))
        b = ew.divide(self.chisquare(dfden, shape, dtype=dt, **place), self._on(dfden, place, dt))
        return ew.divide(a, b)

    def triangular(self, left, mode, right, size=None, *, dtype=None, device=None,
                   usm_type=None, sycl_queue=None):
        """Triangular floats on [left, right] peaking at `mode` (inversion)."""
        lh, mh, rh = _host(left), _host(mode), _host(right)
        if np.any(lh > mh):
            raise ValueError("left > mode")
        if np.any(mh > rh):
            raise ValueError("mode > right")
        if np.any(lh == rh):
            raise ValueError("left == right")
        shape, place, dt = self._derived_target((left, mode, right), size, dtype, device,
                                                usm_type, sycl_queue)
        left, mode, right = (self._on(v, place, dt) for v in (left, mode, right))
        base = ew.subtract(right, left)
        lb = ew.subtract(mode, left)
        u = self.random(shape, dtype=dt, **place)
        lo = ew.add(left, ew.sqrt(ew.multiply(u, ew.multiply(lb, base))))
        hi = ew.subtract(right, ew.sqrt(ew.multiply(ew.subtract(1.0, u),
                                                    ew.multiply(ew.subtract(right, mode), base))))
        return where(ew.less_equal(u, ew.divide(lb, base)), lo, hi)

    def wald(self, mean, scale, size=None, *, dtype=None, device=None, usm_type=None,
             sycl_queue=None):
        """Wald (inverse Gaussian) floats of `mean` > 0 and `scale` > 0
        (Michael, Schucany and Haas's transform of a normal and a uniform,
        as NumPy's, in a form without its cancellation)."""
        _check("mean", mean, lambda h: h <= 0, "<= 0")
        _check("scale", scale, lambda h: h <= 0, "<= 0")
        shape, place, dt = self._derived_target((mean, scale), size, dtype, device, usm_type,
                                                sycl_queue)
        mu, sc = self._on(mean, place, dt), self._on(scale, place, dt)
        n = self.standard_normal(shape, dtype=dt, **place)
        y = ew.multiply(mu, ew.multiply(n, n))
        # the smaller root mu + mu/(2 sc) (y - sqrt(4 sc y + y^2)) is
        # mu t / (1 + sqrt(1 + t))^2 with t = 4 sc / y (mu itself at y = 0)
        t = ew.divide(ew.multiply(4.0, sc), y)
        d = ew.add(1.0, ew.sqrt(ew.add(1.0, t)))
        x = where(ew.isinf(t), mu, ew.divide(ew.multiply(mu, t), ew.multiply(d, d)))
        u = self.random(shape, dtype=dt, **place)
        return where(ew.less_equal(u, ew.divide(mu, ew.add(mu, x))), x,
                     ew.divide(ew.multiply(mu, mu), x))

    def noncentral_chisquare(self, df, nonc, size=None, *, dtype=None, device=None,
                             usm_type=None, sycl_queue=None):
        """Noncentral chi-square floats of `df` > 0 degrees of freedom and
        noncentrality `nonc` >= 0, by NumPy's formulas: a chi-square of
        df - 1 plus a squared normal of mean sqrt(nonc) for df > 1, a
        chi-square of df + 2 Poisson(nonc / 2) otherwise."""
        _check("df", df, lambda h: h <= 0, "<= 0")
        _check("nonc", nonc, _negative, "< 0")
        shape, place, dt = self._derived_target((df, nonc), size, dtype, device, usm_type,
                                                sycl_queue)
        dfv, nc = self._on(df, place, dt), self._on(nonc, place, dt)
        nan = ew.isnan(nc)
        nc = where(nan, 0.0, nc)
        big = ew.greater(dfv, 1.0)
        z = ew.add(self.standard_normal(shape, dtype=dt, **place), ew.sqrt(nc))
        above = ew.add(self.chisquare(where(big, ew.subtract(dfv, 1.0), 1.0), shape, dtype=dt,
                                      **place), ew.multiply(z, z))
        i = self.poisson(where(big, 0.0, ew.multiply(nc, 0.5)), shape, **place)
        below = self.chisquare(ew.add(dfv, ew.multiply(astype(i, dt), 2.0)), shape, dtype=dt,
                               **place)
        res = where(ew.logical_and(big, ew.not_equal(nc, 0.0)), above, below)
        return where(nan, float("nan"), res)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, *, dtype=None, device=None,
                     usm_type=None, sycl_queue=None):
        """Noncentral F floats: ``(noncentral_chisquare(dfnum, nonc) / dfnum)
        / (chisquare(dfden) / dfden)``, `dfnum`, `dfden` > 0, `nonc` >= 0."""
        _check("dfnum", dfnum, lambda h: h <= 0, "<= 0")
        _check("dfden", dfden, lambda h: h <= 0, "<= 0")
        _check("nonc", nonc, _negative, "< 0")
        shape, place, dt = self._derived_target((dfnum, dfden, nonc), size, dtype, device,
                                                usm_type, sycl_queue)
        num, den = self._on(dfnum, place, dt), self._on(dfden, place, dt)
        t = ew.multiply(self.noncentral_chisquare(dfnum, nonc, shape, dtype=dt, **place), den)
        return ew.divide(t, ew.multiply(self.chisquare(dfden, shape, dtype=dt, **place), num))

    # ----------------------------------------------------------- discrete
    def geometric(self, p, size=None, *, dtype=None, device=None, usm_type=None,
                  sycl_queue=None):
        """Trials to the first success (int64, >= 1) of probability `p` in
        (0, 1]: ``ceil(-E / log1p(-p))`` (1 for p = 1)."""
        _check("p", p, lambda h: ~((h > 0) & (h <= 1)), "must be in (0, 1]")
        shape, place, dt = self._derived_target((p,), size, None, device, usm_type, sycl_queue)
        e = self.standard_exponential(shape, dtype=dt, **place)
        pv = self._on(p, place, dt)
        k = ew.ceil(ew.divide(ew.negative(e), ew.log1p(ew.negative(pv))))
        k = where(ew.greater_equal(pv, 1.0), 1.0, ew.maximum(k, 1.0))
        return _as_counts(k, dtype)   # (counts past the dtype: its largest, as NumPy's)

    def negative_binomial(self, n, p, size=None, *, dtype=None, device=None, usm_type=None,
                          sycl_queue=None):
        """Failures before the `n`-th success (int64) of probability `p`
        in (0, 1]: ``Poisson(Gamma(n, (1 - p) / p))``."""
        _check("n", n, np.isnan, "must not be NaN")
        _check("n", n, lambda h: h <= 0, "<= 0")
        _check("p", p, lambda h: ~((h > 0) & (h <= 1)), "must be in (0, 1]")
        # (NumPy's bound: the Poisson rate a draw may reach stays below its limit)
        nh, ph = _host(n), _host(p)
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = (1 - ph) / ph * (nh + 10 * np.sqrt(nh))
        if np.any(lam > _POISSON_LAM_MAX):
            raise ValueError("n too large or p too small, see Generator.negative_binomial Notes")
        shape, place, dt = self._derived_target((n, p), size, None, device, usm_type, sycl_queue)
        nv, pv = self._on(n, place, dt), self._on(p, place, dt)
        g = self.gamma(nv, ew.divide(ew.subtract(1.0, pv), pv), shape, dtype=dt, **place)
        # (p = 1: no failures, also for an infinite n, whose gamma draw is NaN there)
        return self.poisson(where(ew.greater_equal(pv, 1.0), 0.0, g), dtype=dtype)

    # ------------------------------------------------------ multivariate
    def dirichlet(self, alpha, size=None, *, dtype=None, device=None, usm_type=None,
                  sycl_queue=None):
        """Dirichlet vectors (size + (k,)) of the k concentrations `alpha`
        >= 0: gamma draws normalised to sum 1; when every alpha is below 0.1
        (where gamma draws underflow to 0), NumPy's stick-breaking of beta
        draws. A zero alpha gives zeros."""
        ah = _host(alpha)
        if ah.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence of floats")
        if ah.size and np.any(~(ah >= 0)):   # (NumPy 2's: a zero gives zeros)
            raise ValueError("alpha < 0")
        k = ah.shape[0]
        shape = () if size is None else tuple(normalize_shape(size))
        _, place, dt = self._derived_target((), None, dtype, device, usm_type, sycl_queue,
                                            placed=(alpha,))
        if k and not ah.any():   # (nothing to share: NumPy's zeros)
            return asarray(np.zeros(shape + (k,)), dtype=dt, **place)
        if k and ah.max() < 0.1:
            parts, acc = [], None
            for j in range(k - 1):
                rest = float(ah[j + 1:].sum())
                if ah[j] == 0 or rest == 0:
                    v = asarray(np.full(shape, 0.0 if ah[j] == 0 else 1.0), dtype=dt, **place)
                else:
                    v = self.beta(float(ah[j]), rest, shape, dtype=dt, **place)
                parts.append(v if acc is None else ew.multiply(acc, v))
                left = ew.subtract(1.0, v)
                acc = left if acc is None else ew.multiply(acc, left)
            parts.append(acc if acc is not None else asarray(np.ones(shape), dtype=dt, **place))
            return concat([expand_dims(v, axis=-1) for v in parts], axis=-1)
        a = self._on(ah, place, dt)
        g = self.standard_gamma(a, shape + (k,), dtype=dt, **place)
        total = _sum(g, axis=-1, keepdims=True)
        return where(ew.equal(total, 0), 0.0, ew.divide(g, total))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", dtype=None, device=None, usm_type=None,
                            sycl_queue=None):
        """Normal vectors (size + (n,)) of `mean` (n,) and covariance `cov`
        (n, n): ``mean + z @ A`` with A from the SVD ("svd", NumPy's
        default), Cholesky ("cholesky") or eigen ("eigh") factors of cov.
        A cov that is not positive semi-definite warns (``check_valid``
        "warn"), raises ("raise") or passes ("ignore"), as NumPy's."""
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        mh, ch = _host(mean), _host(cov)
        if mh.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if ch.ndim != 2 or ch.shape[0] != ch.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mh.shape[0] != ch.shape[0]:
            raise ValueError("mean and cov must have same length")
        n = mh.shape[0]
        shape = () if size is None else normalize_shape(size)
        _, place, dt = self._derived_target(
            tuple(v for v in (mean, cov) if isinstance(v, usm_ndarray)), None, dtype, device,
            usm_type, sycl_queue)
        c = asarray(ch, dtype=dt, **place)
        # x = z @ A.T with NumPy's factor A of each method (u sqrt(s) of the
        # SVD, also for a cov that is not symmetric)
        psd = True
        if method == "cholesky":
            a = linalg.matrix_transpose(linalg.cholesky(c))
        elif method == "eigh":
            s, u = linalg.eigh(c)
            psd = not np.any(asnumpy(s) < -tol)
            a = linalg.matrix_transpose(ew.multiply(u, ew.sqrt(ew.abs(s))))
        else:
            u, s, vh = linalg.svd(c)
            a = linalg.matrix_transpose(ew.multiply(u, ew.sqrt(s)))
            if check_valid != "ignore":
                # (NumPy's test: the factors rebuild cov within tol)
                v, sv = asnumpy(vh), asnumpy(s)
                psd = np.allclose(np.dot(v.T * sv, v), ch, rtol=tol, atol=tol)
        if not psd and check_valid != "ignore":
            if check_valid == "raise":
                raise ValueError("covariance is not symmetric positive-semidefinite.")
            warnings.warn("covariance is not symmetric positive-semidefinite.",
                          RuntimeWarning, stacklevel=2)
        z = self.standard_normal(tuple(shape) + (n,), dtype=dt, **place)
        return ew.add(linalg.matmul(z, a), asarray(mh, dtype=dt, **place))

    def multinomial(self, n, pvals, size=None, *, device=None, usm_type=None, sycl_queue=None):
        """Counts (int64, size + (k,)) of `n` trials over the k outcomes of
        probabilities `pvals` (the last one takes what the others leave):
        a binomial draw per outcome, of the trials left."""
        ph = _host(pvals)
        if ph.ndim != 1 or ph.shape[0] == 0:
            raise ValueError("pvals must be a non-empty one-dimensional sequence")
        if np.any(ph < 0) or np.any(ph > 1) or np.any(np.isnan(ph)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if ph[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        nh = np.asarray(asnumpy(n) if isinstance(n, usm_ndarray) else n)
        if nh.dtype.kind not in "biu":
            raise TypeError("n must be an integer or an array of integers")
        if nh.size and np.any(nh < 0):
            raise ValueError("n < 0")
        shape, place, _ = self._derived_target((n,), size, None, device, usm_type, sycl_queue,
                                               placed=(pvals,))
        # the trials left, in int64 (exact up to 2**63 - 1)
        left = asarray(np.broadcast_to(nh.astype(np.int64), shape), dtype=_dtypes.int64, **place)
        out, rest = [], 1.0
        for p in ph[:-1]:
            q = min(max(float(p) / rest, 0.0), 1.0) if rest > 0 else 0.0
            x = astype(self.binomial(left, q, shape, **place), _dtypes.int64)
            out.append(x)
            left = ew.subtract(left, x)
            rest -= float(p)
        out.append(left)
        return concat([expand_dims(v, axis=-1) for v in out], axis=-1)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals", *,
                                    device=None, usm_type=None, sycl_queue=None):
        """Counts (int64, size + (k,)) of each of the k colours among
        `nsample` items drawn without replacement from `colors[j]` items of
        colour j: one hypergeometric draw per colour (NumPy's "marginals"
        method, also for "count"), each kind below 10**9 (hypergeometric's
        bound)."""
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        ch = np.asarray(asnumpy(colors) if isinstance(colors, usm_ndarray) else colors)
        bad = ("colors must be a one-dimensional sequence of nonnegative integers not "
               "exceeding 9223372036854775807.")
        if ch.ndim != 1 or (ch.size and ch.dtype.kind not in "iu") or (ch.size and ch.min() < 0):
            raise ValueError(bad)
        ch = ch.astype(np.int64)
        total = int(ch.sum())
        nsample = operator.index(nsample)
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        shape = () if size is None else tuple(normalize_shape(size))
        _, place, _ = self._derived_target((), None, None, device, usm_type, sycl_queue,
                                           placed=(colors,))
        left = asarray(np.full(shape, nsample, dtype=np.int64), dtype=_dtypes.int64, **place)
        out, rest = [], total
        for c in ch[:-1]:
            rest -= int(c)
            x = self.hypergeometric(int(c), rest, left, shape, **place)
            out.append(x)
            left = ew.subtract(left, x)
        if ch.size:
            out.append(left)
        if not out:
            return asarray(np.zeros(shape + (0,), dtype=np.int64), dtype=_dtypes.int64, **place)
        return concat([expand_dims(v, axis=-1) for v in out], axis=-1)


def _as_counts(k, dtype):
    """Whole-number floats as int64 counts (or `dtype`'s integers), those
    past the dtype's range its largest value (NumPy's clamp)."""
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"Unsupported dtype {dt} for counts (integer types only)")
    top = int(np.iinfo(dt).max)
    big = ew.greater_equal(k, float(top))   # (float(2**63 - 1) is 2**63: beyond)
    return where(big, top, astype(where(big, 0.0, k), dt))
