"""CuPy's legacy random API: ``RandomState`` (NumPy's legacy method names)
and the module-wide state behind the module-level functions."""

import sys

import numpy as np
import pytest

import usmarray as ua

R = ua.random


def test_random_state_reproducible_and_reseeded():
    a, b = R.RandomState(7), R.RandomState(7)
    np.testing.assert_array_equal(ua.asnumpy(a.rand(3, 4)), ua.asnumpy(b.rand(3, 4)))
    np.testing.assert_array_equal(ua.asnumpy(a.randn(5)), ua.asnumpy(b.randn(5)))
    first = ua.asnumpy(a.random_sample(10))
    a.seed(7)
    a.rand(3, 4)
    a.randn(5)
    np.testing.assert_array_equal(ua.asnumpy(a.random_sample(10)), first)
    # its values are the Generator's on a Philox of the same seed
    np.testing.assert_array_equal(
        ua.asnumpy(R.RandomState(3).random_sample(100)),
        ua.asnumpy(R.Generator(R.Philox(3)).random(100)))
    assert ua.asnumpy(R.RandomState().rand(2)).shape == (2,)
    assert R.RandomState(1).rand().shape == ()


def test_random_state_integer_methods_as_numpy():
    rs, ref = R.RandomState(0), np.random.RandomState(0)
    x = ua.asnumpy(rs.randint(3, 9, size=5000))
    assert x.dtype == ref.randint(3, 9, size=2).dtype
    assert set(np.unique(x)) == set(range(3, 9))
    x = ua.asnumpy(rs.randint(5, size=1000, dtype=np.uint8))
    assert x.dtype == np.uint8 and x.max() == 4
    # random_integers: both ends included; one argument is [1, low]
    x = ua.asnumpy(rs.random_integers(3, 6, size=4000))
    assert set(np.unique(x)) == {3, 4, 5, 6}
    x = ua.asnumpy(rs.random_integers(4, size=4000))
    assert set(np.unique(x)) == {1, 2, 3, 4}
    x = ua.asnumpy(rs.tomaxint(2000))
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() > sys.maxsize // 2
    assert set(np.unique(ua.asnumpy(rs.interval(3, 1000)))) == {0, 1, 2, 3}
    with pytest.raises(ValueError):
        rs.randint(5, 3)


def test_random_state_distributions_and_keywords():
    rs = R.RandomState(5)
    x = ua.asnumpy(rs.normal(2.0, 0.5, 20000))
    assert abs(x.mean() - 2.0) < 0.02 and abs(x.std() - 0.5) < 0.02
    assert rs.standard_gamma(2.0, (3, 2)).shape == (3, 2)
    assert rs.exponential(1.0, 4, dtype=ua.float32).dtype == ua.float32
    assert rs.rand(3, dtype=np.float32).dtype == ua.float32
    assert rs.randn(3, usm_type="host").usm_type == "host"
    x = ua.arange(10)
    rs.shuffle(x)
    assert sorted(ua.asnumpy(x).tolist()) == list(range(10))
    assert sorted(ua.asnumpy(rs.permutation(6)).tolist()) == list(range(6))
    assert ua.asnumpy(rs.choice(4, 50, p=[0, 0, 1.0, 0])).tolist() == [2] * 50
    assert rs.hypergeometric(10, 10, 5, 3).shape == (3,)
    assert isinstance(rs.generator, R.Generator)
    for name in ("binomial", "poisson", "dirichlet", "zipf", "vonmises", "wald",
                 "noncentral_f", "multinomial", "bytes"):
        assert callable(getattr(rs, name)) and getattr(rs, name).__name__ == name
    # NumPy's errors
    for call in (lambda: rs.normal(0, -1), lambda: rs.zipf(0.5), lambda: rs.binomial(-1, 0.5)):
        with pytest.raises(ValueError):
            call()


def test_module_wide_state():
    saved = R.get_random_state()
    try:
        rs = R.RandomState(11)
        R.set_random_state(rs)
        assert R.get_random_state() is rs
        a = ua.asnumpy(R.rand(5))
        np.testing.assert_array_equal(a, ua.asnumpy(R.RandomState(11).rand(5)))
        R.seed(11)
        np.testing.assert_array_equal(ua.asnumpy(R.random_sample(5)), a)
        R.seed(11)
        np.testing.assert_array_equal(ua.asnumpy(R.random(5)), a)
        assert set(np.unique(ua.asnumpy(R.random_integers(2, size=500)))) == {1, 2}
        assert ua.asnumpy(R.hypergeometric(3, 0, 2, 2)).tolist() == [2, 2]
        R.reset_states()
        assert R.get_random_state() is not rs
        with pytest.raises(TypeError):
            R.set_random_state(np.random.RandomState(0))
    finally:
        R.set_random_state(saved)
