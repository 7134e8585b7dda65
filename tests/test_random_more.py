"""NumPy's other Generator distributions (usmarray/random/_derived.py) and
CuPy's module-level functions: statistics against SciPy's distributions
(fixed seeds, so deterministic), NumPy's parameter errors, shapes and
placement."""

import numpy as np
import pytest

import usmarray as ua

stats = pytest.importorskip("scipy.stats")

N = 20000


def _ks(x, cdf):
    return stats.kstest(ua.asnumpy(x), cdf).pvalue


CONTINUOUS = {
    "laplace": (lambda g, n: g.laplace(1.0, 2.0, n), stats.laplace(1, 2).cdf),
    "logistic": (lambda g, n: g.logistic(-1.0, 0.5, n), stats.logistic(-1, 0.5).cdf),
    "gumbel": (lambda g, n: g.gumbel(1.0, 2.0, n), stats.gumbel_r(1, 2).cdf),
    "weibull": (lambda g, n: g.weibull(1.5, n), stats.weibull_min(1.5).cdf),
    "pareto": (lambda g, n: g.pareto(3.0, n), stats.lomax(3).cdf),
    "power": (lambda g, n: g.power(3.0, n), stats.powerlaw(3).cdf),
    "rayleigh": (lambda g, n: g.rayleigh(2.0, n), stats.rayleigh(scale=2).cdf),
    "standard_cauchy": (lambda g, n: g.standard_cauchy(n), stats.cauchy().cdf),
    "chisquare": (lambda g, n: g.chisquare(3.5, n), stats.chi2(3.5).cdf),
    "standard_t": (lambda g, n: g.standard_t(4.0, n), stats.t(4).cdf),
    "f": (lambda g, n: g.f(3.0, 7.0, n), stats.f(3, 7).cdf),
    "triangular": (lambda g, n: g.triangular(0.0, 1.0, 3.0, n), stats.triang(1 / 3, 0, 3).cdf),
    "wald": (lambda g, n: g.wald(2.0, 3.0, n), stats.invgauss(2 / 3, scale=3).cdf),
    "wald_skewed": (lambda g, n: g.wald(5.0, 0.01, n), stats.invgauss(500, scale=0.01).cdf),
    # (both of NumPy's branches: df > 1, and df <= 1 through a Poisson count)
    "noncentral_chisquare": (lambda g, n: g.noncentral_chisquare(3.0, 2.0, n),
                             stats.ncx2(3, 2).cdf),
    "noncentral_chisquare_df_below_1": (lambda g, n: g.noncentral_chisquare(0.5, 4.0, n),
                                        stats.ncx2(0.5, 4).cdf),
    "noncentral_chisquare_central": (lambda g, n: g.noncentral_chisquare(2.5, 0.0, n),
                                     stats.chi2(2.5).cdf),
    "noncentral_f": (lambda g, n: g.noncentral_f(3.0, 7.0, 1.5, n), stats.ncf(3, 7, 1.5).cdf),
    "vonmises": (lambda g, n: g.vonmises(0.0, 2.0, n), stats.vonmises(2.0).cdf),
    "vonmises_flat": (lambda g, n: g.vonmises(0.0, 1e-6, n), stats.uniform(-np.pi, 2 * np.pi).cdf),
    "vonmises_concentrated": (lambda g, n: g.vonmises(0.0, 500.0, n), stats.vonmises(500.0).cdf),
}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_continuous_against_scipy(name):
    draw, cdf = CONTINUOUS[name]
    x = draw(ua.random.default_rng(12345), N)
    assert x.shape == (N,) and x.dtype == ua.float64
    assert _ks(x, cdf) > 1e-3
    # the same seed, the same values
    np.testing.assert_array_equal(ua.asnumpy(x), ua.asnumpy(draw(ua.random.default_rng(12345), N)))


def test_float32_draws():
    g = ua.random.default_rng(7)
    x = g.laplace(0.0, 1.0, N, dtype=ua.float32)
    assert x.dtype == ua.float32 and _ks(x, stats.laplace().cdf) > 1e-3
    x = g.standard_cauchy(N, dtype=ua.float32)
    assert x.dtype == ua.float32 and _ks(x, stats.cauchy().cdf) > 1e-3
    # (von Mises in float: NumPy's form of the rejection lost the angles'
    # digits at large kappa, p 4e-31 at 1e5)
    for kappa in (0.01, 3.0, 1e5):
        x = g.vonmises(0.0, kappa, N, dtype=ua.float32)
        assert x.dtype == ua.float32
        assert _ks(ua.asnumpy(x).astype(np.float64), stats.vonmises(kappa).cdf) > 1e-3
    with pytest.raises(TypeError):
        g.laplace(size=3, dtype=ua.int32)


def test_discrete_moments():
    g = ua.random.default_rng(3)
    x = ua.asnumpy(g.geometric(0.3, N))
    assert x.dtype == np.int64 and x.min() >= 1
    assert abs(x.mean() - 1 / 0.3) < 4 * np.sqrt((1 - 0.3) / 0.3 ** 2 / N)
    assert np.all(ua.asnumpy(g.geometric(1.0, 10)) == 1)
    y = ua.asnumpy(g.negative_binomial(5, 0.4, N))
    mean, var = 5 * 0.6 / 0.4, 5 * 0.6 / 0.16
    assert y.dtype == np.int64 and abs(y.mean() - mean) < 4 * np.sqrt(var / N)
    # chi-square of the geometric counts against its pmf
    k = np.arange(1, 12)
    observed = np.array([(x == v).sum() for v in k] + [(x >= 12).sum()])
    expected = np.append(stats.geom(0.3).pmf(k), stats.geom(0.3).sf(11)) * N
    assert stats.chisquare(observed, expected).pvalue > 1e-3


def _chi2_pvalue(x, pmf, sf, lo, hi):
    """Chi-square p-value of the counts x against pmf on [lo, hi] and the
    tail sf(hi) beyond."""
    k = np.arange(lo, hi + 1)
    observed = np.array([(x == v).sum() for v in k] + [(x > hi).sum()])
    expected = np.append(pmf(k), sf(hi)) * x.size
    keep = expected > 5
    observed = np.append(observed[keep], observed[~keep].sum())
    expected = np.append(expected[keep], expected[~keep].sum())
    if expected[-1] == 0:
        observed, expected = observed[:-1], expected[:-1]
    return stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue


@pytest.mark.parametrize("name, draw, dist, lo, hi", [
    ("zipf", lambda g, n: g.zipf(2.5, n), stats.zipf(2.5), 1, 40),
    ("zipf_near_1", lambda g, n: g.zipf(1.3, n), stats.zipf(1.3), 1, 60),
    ("logseries", lambda g, n: g.logseries(0.7, n), stats.logser(0.7), 1, 20),
    ("logseries_near_1", lambda g, n: g.logseries(0.99, n), stats.logser(0.99), 1, 60),
    # (NumPy's two algorithms, and each of their reflections: the sample
    # within 10 of either end drawn one by one; HRUA on the smaller kind and
    # the smaller of the sample and its complement)
    ("hypergeometric_small_sample", lambda g, n: g.hypergeometric(30, 70, 7, n),
     stats.hypergeom(100, 30, 7), 0, 7),
    ("hypergeometric_sample_near_total", lambda g, n: g.hypergeometric(30, 70, 95, n),
     stats.hypergeom(100, 30, 95), 25, 30),
    ("hypergeometric_hrua", lambda g, n: g.hypergeometric(100, 200, 50, n),
     stats.hypergeom(300, 100, 50), 0, 50),
    ("hypergeometric_hrua_more_good", lambda g, n: g.hypergeometric(700, 300, 400, n),
     stats.hypergeom(1000, 700, 400), 200, 400),
    ("hypergeometric_hrua_big_sample", lambda g, n: g.hypergeometric(60, 40, 80, n),
     stats.hypergeom(100, 60, 80), 30, 60),
    ("hypergeometric_huge", lambda g, n: g.hypergeometric(10**8, 3 * 10**8, 10**6, n),
     stats.hypergeom(4 * 10**8, 10**8, 10**6), 248000, 252000),
])
def test_rejection_counts_against_scipy(name, draw, dist, lo, hi):
    """Zipf, logarithmic series and hypergeometric counts (NumPy's
    rejection algorithms, on one sub-stream per element) against SciPy's
    pmf; the same seed gives the same counts."""
    x = draw(ua.random.default_rng(2024), N)
    assert x.dtype == ua.int64 and x.shape == (N,)
    h = ua.asnumpy(x)
    if "huge" in name:   # (a binned test: the counts spread over thousands of values)
        edges = np.linspace(lo, hi, 21)
        observed = np.histogram(h, edges)[0]
        expected = np.diff(dist.cdf(edges - 1)) * N
        assert observed.sum() > 0.99 * N
        p = stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue
    else:
        assert h.min() >= max(lo, dist.support()[0])
        p = _chi2_pvalue(h, dist.pmf, dist.sf, lo, hi)
    assert p > 1e-3
    np.testing.assert_array_equal(h, ua.asnumpy(draw(ua.random.default_rng(2024), N)))


def test_multivariate_hypergeometric():
    """Counts per colour summing to nsample; each colour's marginal is
    hypergeometric (chi-square against SciPy's), the last colour's too."""
    g = ua.random.default_rng(21)
    colors = [30, 50, 20, 100]
    x = ua.asnumpy(g.multivariate_hypergeometric(colors, 40, size=N))
    assert x.shape == (N, 4) and x.dtype == np.int64 and np.all(x.sum(axis=1) == 40)
    for j in (0, 3):
        dist = stats.hypergeom(200, colors[j], 40)
        assert _chi2_pvalue(x[:, j], dist.pmf, dist.sf, 0, 40) > 1e-3
    assert ua.asnumpy(g.multivariate_hypergeometric([3, 5, 2], 4)).shape == (3,)
    assert ua.asnumpy(g.multivariate_hypergeometric([], 0, size=2)).shape == (2, 0)
    np.testing.assert_array_equal(ua.asnumpy(g.multivariate_hypergeometric([7], 3, size=2)),
                                  [[3], [3]])
    ng = np.random.default_rng(0)
    for args in (([3, -1], 1), ([3, 5], 9), ([3, 5], -1), ([[3]], 1), ([3.5, 2], 1),
                 ([3, 5], 2, None, "bad")):
        with pytest.raises(ValueError):
            ng.multivariate_hypergeometric(*args)
        with pytest.raises(ValueError):
            g.multivariate_hypergeometric(*args)


def test_rejection_distribution_edges():
    g = ua.random.default_rng(11)
    # von Mises angles stay in [-pi, pi] about any mode, as NumPy's
    for mu, kappa in ((10.0, 2.0), (-7.0, 1e7), (3.0, 1e-9), (np.pi, 50.0)):
        x = ua.asnumpy(g.vonmises(mu, kappa, 2000))
        ref = np.random.default_rng(0).vonmises(mu, kappa, 2000)
        assert np.all(np.abs(x) <= np.pi) and np.all(np.abs(ref) <= np.pi)
        if kappa > 1:   # the circular mean: NumPy's within sampling error
            assert abs(np.angle(np.exp(1j * x).mean() / np.exp(1j * ref).mean())) < 0.2
    assert np.isnan(ua.asnumpy(g.vonmises(0.0, np.nan, 2))).all()
    x = ua.asnumpy(g.vonmises(ua.asarray([0.0, 2.0]), 200.0, (3000, 2)))
    np.testing.assert_allclose(x.mean(axis=0), [0.0, 2.0], atol=0.01)
    assert g.vonmises(0.0, 1.0, 10, dtype=ua.float32).dtype == ua.float32
    assert np.all(ua.asnumpy(g.logseries(0.0, 5)) == 1)
    assert np.all(ua.asnumpy(g.zipf(2000.0, 5)) == 1)
    # hypergeometric: no bad ones, no good ones, the whole population
    np.testing.assert_array_equal(ua.asnumpy(g.hypergeometric(5, 0, 3, 4)), [3] * 4)
    np.testing.assert_array_equal(ua.asnumpy(g.hypergeometric(0, 5, 3, 4)), [0] * 4)
    np.testing.assert_array_equal(ua.asnumpy(g.hypergeometric(40, 60, 100, 4)), [40] * 4)
    np.testing.assert_array_equal(ua.asnumpy(g.hypergeometric(0, 0, 0, 3)), [0] * 3)
    # array parameters broadcast; floats truncate as NumPy's
    x = ua.asnumpy(g.hypergeometric(ua.asarray([10, 500]), [20, 500], 12, (1000, 2)))
    assert x.shape == (1000, 2) and x[:, 0].max() <= 10 and x[:, 1].max() <= 12
    np.testing.assert_allclose(x.mean(axis=0), [4.0, 6.0], atol=0.3)
    assert int(g.hypergeometric(2.9, 0, 2.5)) == 2
    # the mean of the Wald draws and of the noncentral ones with NaN noncentrality
    np.testing.assert_allclose(ua.asnumpy(g.wald(3.0, 1e6, N)).mean(), 3.0, rtol=1e-2)
    assert np.isnan(ua.asnumpy(g.noncentral_chisquare(2.0, np.nan, 3))).all()
    y = g.noncentral_chisquare(ua.asarray([0.5, 3.0], usm_type="host"), [1.0, 0.0], (4000, 2))
    assert y.usm_type == "host"
    np.testing.assert_allclose(ua.asnumpy(y).mean(axis=0), [1.5, 3.0], rtol=0.08)


def test_multivariate():
    g = ua.random.default_rng(5)
    d = ua.asnumpy(g.dirichlet([1.0, 2.0, 3.0], 5000))
    assert d.shape == (5000, 3)
    np.testing.assert_allclose(d.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(d.mean(axis=0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    for method in ("svd", "cholesky", "eigh"):
        m = ua.asnumpy(g.multivariate_normal([1.0, -1.0], cov, 50000, method=method))
        assert m.shape == (50000, 2)
        np.testing.assert_allclose(m.mean(axis=0), [1.0, -1.0], atol=0.03)
        np.testing.assert_allclose(np.cov(m.T), cov, atol=0.05)
    with pytest.warns(RuntimeWarning):
        g.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], 3)
    with pytest.raises(ValueError):
        g.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], 3, check_valid="raise")
    c = ua.asnumpy(g.multinomial(20, [0.2, 0.3, 0.5], 10000))
    assert c.shape == (10000, 3) and c.dtype == np.int64
    assert np.all(c.sum(axis=1) == 20) and c.min() >= 0
    np.testing.assert_allclose(c.mean(axis=0), [4, 6, 10], atol=0.15)


@pytest.mark.parametrize("call", [
    lambda g: g.laplace(0, -1), lambda g: g.gumbel(0, -1), lambda g: g.logistic(0, -1),
    lambda g: g.weibull(-1), lambda g: g.pareto(0), lambda g: g.power(0),
    lambda g: g.rayleigh(-1), lambda g: g.chisquare(0), lambda g: g.standard_t(0),
    lambda g: g.f(0, 1), lambda g: g.f(1, 0), lambda g: g.geometric(0),
    lambda g: g.geometric(1.5), lambda g: g.negative_binomial(0, 0.5),
    lambda g: g.triangular(2, 1, 3), lambda g: g.triangular(0, 4, 3),
    lambda g: g.triangular(1, 1, 1), lambda g: g.dirichlet([1.0, -1.0]),
    lambda g: g.dirichlet([[1.0]]), lambda g: g.multinomial(5, [0.6, 0.6, 0.1]),
    lambda g: g.multinomial(5, [-0.1, 1.1]), lambda g: g.multivariate_normal([0.0], [[1.0, 0]]),
    lambda g: g.multivariate_normal([0.0, 1.0], np.eye(3)),
    lambda g: g.laplace(np.zeros(3), 1.0, size=(2,)),
    lambda g: g.wald(0.0, 1.0), lambda g: g.wald(1.0, 0.0), lambda g: g.vonmises(0.0, -1.0),
    lambda g: g.zipf(1.0), lambda g: g.zipf(np.nan), lambda g: g.zipf([2.0, 0.5]),
    lambda g: g.logseries(1.0), lambda g: g.logseries(-0.1), lambda g: g.logseries(np.nan),
    lambda g: g.noncentral_chisquare(0, 1), lambda g: g.noncentral_chisquare(1, -1),
    lambda g: g.noncentral_f(0, 1, 1), lambda g: g.noncentral_f(1, 0, 1),
    lambda g: g.noncentral_f(1, 1, -1), lambda g: g.hypergeometric(10**9, 1, 1),
    lambda g: g.hypergeometric(-1, 5, 1), lambda g: g.hypergeometric(5, -1, 1),
    lambda g: g.hypergeometric(5, 5, -1), lambda g: g.hypergeometric(5, 5, 11),
    lambda g: g.hypergeometric([5, 1], 5, [3, 7]), lambda g: g.hypergeometric(np.nan, 1, 1),
])
def test_parameter_errors_as_numpy(call):
    with pytest.raises(ValueError):
        call(np.random.default_rng(0))   # (the oracle agrees)
    with pytest.raises(ValueError):
        call(ua.random.default_rng(0))


def test_array_parameters_broadcast_and_place():
    dpctl = pytest.importorskip("dpctl")
    q = dpctl.SyclQueue()
    g = ua.random.default_rng(1)
    loc = ua.asarray([0.0, 100.0], usm_type="host", sycl_queue=q)
    x = g.laplace(loc, 1.0, size=(3, 2))
    assert x.shape == (3, 2) and x.usm_type == "host" and x.sycl_queue == q
    assert np.all(ua.asnumpy(x)[:, 1] > 50)
    assert g.weibull(ua.asarray([1.0, 2.0]), size=(4, 2)).shape == (4, 2)
    assert g.laplace(np.array([0.0, 1.0])).shape == (2,)
    assert g.gumbel(size=(2, 3)).shape == (2, 3)


def test_module_level_functions():
    """CuPy's cupy.random.normal(...) and friends: the module-wide
    generator, reseeded by seed()."""
    ua.random.seed(42)
    a = ua.asnumpy(ua.random.normal(1.0, 2.0, 100))
    ua.random.seed(42)
    b = ua.asnumpy(ua.random.normal(1.0, 2.0, 100))
    np.testing.assert_array_equal(a, b)
    assert ua.random.uniform(0, 1, 5).shape == (5,)
    assert ua.random.random((2, 2)).shape == (2, 2)
    assert ua.random.ranf is ua.random.random_sample
    assert int(ua.random.choice(5, 1)[0]) in range(5)
    x = ua.arange(10)
    ua.random.shuffle(x)
    assert sorted(ua.asnumpy(x).tolist()) == list(range(10))
    for name in ("exponential", "gamma", "beta", "poisson", "binomial", "laplace", "dirichlet",
                 "multivariate_normal", "multinomial", "permutation", "standard_t"):
        assert callable(getattr(ua.random, name))


def test_edges_numpy_handles():
    """From a fuzz against NumPy: small Dirichlet concentrations (gamma
    draws underflow: NumPy's stick-breaking), zero ones, multinomial counts
    past 2**53, geometric counts past int64 (clamped), the SVD factor of a
    covariance that is not symmetric, -0.0 scales."""
    g = ua.random.default_rng(3)
    x = ua.asnumpy(g.dirichlet([1e-4] * 3, 5000))
    assert not np.isnan(x).any()
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(x.mean(axis=0), [1 / 3] * 3, atol=0.03)
    np.testing.assert_array_equal(ua.asnumpy(g.dirichlet([0.0, 0.0], 2)), np.zeros((2, 2)))
    np.testing.assert_array_equal(ua.asnumpy(g.dirichlet([0.0, 1e-5], 2)), [[0, 1], [0, 1]])
    n = 2 ** 53 + 1
    assert np.all(ua.asnumpy(g.multinomial(n, [0.25] * 4, 50)).sum(axis=1) == n)
    assert int(ua.asnumpy(g.multinomial(2 ** 63 - 1, [0.5, 0.5], 1)).sum()) == 2 ** 63 - 1
    with pytest.raises(TypeError):
        g.multinomial(5.0, [0.5, 0.5])
    assert np.all(ua.asnumpy(g.geometric(1e-300, 3)) == np.iinfo(np.int64).max)
    assert ua.asnumpy(g.geometric(1e-18, 10000)).min() > 0
    cov = [[1.0, 0.9], [0.0, 1.0]]
    got = np.cov(ua.asnumpy(g.multivariate_normal([0, 0], cov, 50000, check_valid="ignore")).T)
    expected = np.cov(np.random.default_rng(0).multivariate_normal(
        [0, 0], cov, 50000, check_valid="ignore").T)
    np.testing.assert_allclose(got, expected, atol=0.05)
    with pytest.raises(ValueError):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]], 3, method="eigh", check_valid="raise")
    for call in (lambda: g.laplace(0, -0.0, 3), lambda: g.weibull(-0.0, 3)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        g.pareto(None, 2)


def test_explicit_placement_wins():
    g = ua.random.default_rng(0)
    assert g.laplace(ua.asarray([0.0, 1.0]), usm_type="host").usm_type == "host"
    assert g.multinomial(5, ua.asarray([0.5, 0.5], usm_type="shared")).usm_type == "shared"


def test_negative_binomial_bounds_as_numpy():
    g, ng = ua.random.default_rng(0), np.random.default_rng(0)
    for args in ((1, 1e-18, 10), (np.nan, 0.5)):
        with pytest.raises(ValueError):
            ng.negative_binomial(*args)
        with pytest.raises(ValueError):
            g.negative_binomial(*args)
    assert int(g.negative_binomial(np.inf, 1.0)) == 0 == ng.negative_binomial(np.inf, 1.0)
