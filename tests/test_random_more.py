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
