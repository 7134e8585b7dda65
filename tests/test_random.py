"""usmarray.random: the Philox stream and the draws NumPy makes by position
equal NumPy's bit for bit; the other distributions are tested against
SciPy's (fixed seeds, so the tests are deterministic); every draw depends
only on its position (any chunking, either kernel variant)."""

import numpy as np
import pytest

import usmarray as ua
from usmarray import random as R

stats = pytest.importorskip("scipy.stats")

SEEDS = [0, 1, 12345, 2**70 + 3]
SIZES = [0, 1, 3, 5, 7, 8, 33, 1001]


def pair(seed):
    return R.Generator(R.Philox(seed)), np.random.Generator(np.random.Philox(seed))


def host(x):
    return ua.asnumpy(x)


def same_state(bg, nbg):
    a, b = bg.state, nbg.state
    assert (a["state"]["counter"] == b["state"]["counter"]).all()
    assert (a["state"]["key"] == b["state"]["key"]).all()
    assert (a["buffer"] == b["buffer"]).all()
    assert (a["buffer_pos"], a["has_uint32"], a["uinteger"]) == \
        (b["buffer_pos"], b["has_uint32"], b["uinteger"])


# ------------------------------------------------------------ bit for bit
@pytest.mark.parametrize("seed", SEEDS)
def test_raw_and_random_equal_numpy(seed):
    g, ng = pair(seed)
    for n in SIZES:
        assert (host(g.bit_generator.random_raw(n)) == ng.bit_generator.random_raw(n)).all()
        for dt in (np.float64, np.float32):
            got, ref = host(g.random(n, dtype=dt)), ng.random(n, dtype=dt)
            assert got.dtype == ref.dtype and (got == ref).all(), (n, dt)
        assert (host(g.uniform(-2.5, 7.25, n)) == ng.uniform(-2.5, 7.25, n)).all()
        same_state(g.bit_generator, ng.bit_generator)


@pytest.mark.parametrize("seed", [3, 2**40])
def test_interleaved_calls_keep_numpys_state(seed):
    """Words, 32-bit halves and the kept half in any order: NumPy's values
    and NumPy's state after every call."""
    g, ng = pair(seed)
    rs = np.random.default_rng(seed)
    for _ in range(80):
        n = int(rs.integers(0, 40))
        c = int(rs.integers(0, 6))
        if c == 0:
            got, ref = host(g.random(n)), ng.random(n)
        elif c == 1:
            got, ref = host(g.random(n, dtype=np.float32)), ng.random(n, dtype=np.float32)
        elif c == 2:
            got, ref = host(g.integers(0, 2**32, n, dtype=np.uint32)), \
                ng.integers(0, 2**32, n, dtype=np.uint32)
        elif c == 3:
            got, ref = host(g.integers(-2**63, 2**63, n)), ng.integers(-2**63, 2**63, n)
        elif c == 4:
            got, ref = g.bytes(n), ng.bytes(n)
        else:
            got, ref = host(g.integers(0, 2**64, n, dtype=np.uint64)), \
                ng.integers(0, 2**64, n, dtype=np.uint64)
        assert np.array_equal(np.asarray(got), np.asarray(ref)) if c != 4 else got == ref
        same_state(g.bit_generator, ng.bit_generator)


@pytest.mark.parametrize("seed", SEEDS)
def test_advance_jumped_spawn(seed):
    g, ng = pair(seed)
    g.random(5)
    ng.random(5)
    for delta in (1, 3, 2**64 + 1, 2**200):
        g.bit_generator.advance(delta)
        ng.bit_generator.advance(delta)
        same_state(g.bit_generator, ng.bit_generator)
        assert (host(g.random(13)) == ng.random(13)).all()
    gj = R.Generator(g.bit_generator.jumped(2))
    nj = np.random.Generator(ng.bit_generator.jumped(2))
    same_state(gj.bit_generator, nj.bit_generator)
    assert (host(gj.random(17, dtype=np.float32)) == nj.random(17, dtype=np.float32)).all()
    g, ng = pair(seed)
    for child, nchild in zip(g.spawn(3), ng.spawn(3)):
        assert (host(child.random(9)) == nchild.random(9)).all()
        assert (host(child.bit_generator.random_raw(6)) == nchild.bit_generator.random_raw(6)).all()


def test_counter_wraps_and_explicit_key():
    top = 2**256 - 3
    g = R.Generator(R.Philox(key=[7, 9], counter=top))
    ng = np.random.Generator(np.random.Philox(key=[7, 9], counter=top))
    assert (host(g.random(101)) == ng.random(101)).all()
    same_state(g.bit_generator, ng.bit_generator)


@pytest.mark.parametrize("low", [2**64 - 1, 2**64 - 40, 2**64 - 300, 2**64 - 3000, 2**32 - 7])
def test_counter_word_carries_inside_a_call(variant, low):
    """A carry out of the counter's first word in the middle of a call (the
    vector kernels take the first rounds' shortcuts only where no block of a
    work-item carries) and a first word crossing 2^32: NumPy's values."""
    counter = 5 * 2**128 + 3 * 2**64 + low
    g = R.Generator(R.Philox(key=[11, 2**63 + 5], counter=counter))
    ng = np.random.Generator(np.random.Philox(key=[11, 2**63 + 5], counter=counter))
    for n in (4096, 5003):
        assert (host(g.random(n)) == ng.random(n)).all()
        assert (host(g.random(2 * n, dtype=np.float32)) == ng.random(2 * n, dtype=np.float32)).all()
        assert (host(g.bit_generator.random_raw(n)) == ng.bit_generator.random_raw(n)).all()
        same_state(g.bit_generator, ng.bit_generator)


def test_state_from_and_to_numpy():
    ng = np.random.Generator(np.random.Philox(3))
    ng.random(3, dtype=np.float32)    # keeps a half
    ng.random(2)                      # and moves on
    bg = R.Philox()
    bg.state = ng.bit_generator.state
    g = R.Generator(bg)
    assert (host(g.random(11, dtype=np.float32)) == ng.random(11, dtype=np.float32)).all()
    ref = bg.to_numpy()
    assert (ref.random_raw(5) == host(bg.random_raw(5))).all()
    with pytest.raises(ValueError):
        bg.state = {"bit_generator": "PCG64"}


def test_choice_with_p_equals_numpy():
    p = np.array([0.1, 0.2, 0.05, 0.4, 0.25])
    g, ng = pair(4)
    assert (host(g.choice(5, 1000, p=p)) == ng.choice(5, 1000, p=p)).all()
    assert (host(g.choice(5, 3, p=p, replace=False)) == ng.choice(5, 3, p=p, replace=False)).all()
    a = ua.asarray(np.arange(50.0).reshape(5, 10))
    assert (host(g.choice(a, (2, 3), p=p)) ==
            ng.choice(np.arange(50.0).reshape(5, 10), (2, 3), p=p)).all()


# ------------------------------------------------------------ position only
def test_any_chunking_gives_the_same_values():
    """Split calls draw what one call draws: every value depends only on
    its position (sub-stream distributions included)."""
    cases = [("random", ()), ("standard_normal", ()), ("integers", (0, 7)),
             ("gamma", (2.5,)), ("poisson", (4.0,)), ("binomial", (20, 0.3))]
    for name, args in cases:
        whole = host(getattr(R.default_rng(9), name)(*args, size=64))
        g = R.default_rng(9)
        parts = [host(getattr(g, name)(*args, size=k)) for k in (16, 16, 32)]
        assert np.array_equal(whole, np.concatenate(parts)), name


SIMD_SIZES = [1, 5, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000, 4097, 70001]


@pytest.mark.parametrize("n", SIMD_SIZES)
def test_vector_and_generic_kernels_agree(variant, n):
    """The same seed gives the same arrays with the CPU vector-block and the
    generic kernels (and NumPy's where NumPy's values are defined)."""
    g, ng = pair(n)
    assert (host(g.random(n)) == ng.random(n)).all()
    assert (host(g.random(n, dtype=np.float32)) == ng.random(n, dtype=np.float32)).all()
    assert (host(g.uniform(1, 5, n)) == ng.uniform(1, 5, n)).all()
    assert (host(g.bit_generator.random_raw(n)) == ng.bit_generator.random_raw(n)).all()
    assert (host(g.integers(0, 2**32, n, dtype=np.uint32)) ==
            ng.integers(0, 2**32, n, dtype=np.uint32)).all()
    draws = [("int64", lambda r: r.integers(-3, 1000, n)),
             ("uint8", lambda r: r.integers(0, 200, n, dtype=np.uint8)),
             ("uint16", lambda r: r.integers(0, 60000, n, dtype=np.uint16)),
             ("int32", lambda r: r.integers(-5, 5, n, dtype=np.int32)),
             # 2^32 mod this range is 2^30 - 1: about a quarter of the draws are
             # rejected and redrawn from their sub-streams
             ("rejections", lambda r: r.integers(0, 3 * 2**30 + 1, n)),
             ("rejections-u32", lambda r: r.integers(0, 3 * 2**30 + 1, n, dtype=np.uint32)),
             ("rejections-i32", lambda r: r.integers(-2**31 + 7, 2**30, n, dtype=np.int32)),
             ("normal", lambda r: r.standard_normal(n)),
             ("normal32", lambda r: r.normal(1.5, 2.0, n, dtype=np.float32)),
             ("lognormal", lambda r: r.lognormal(0.5, 0.75, n)),
             ("exponential", lambda r: r.exponential(2.0, n)),
             ("exponential32", lambda r: r.standard_exponential(n, dtype=np.float32)),
             ("uniform32", lambda r: r.uniform(-1, 1, n, dtype=np.float32))]
    got = {}
    for name, f in draws:
        got[name] = host(f(R.default_rng(77)))
    kc = ua.asarray([0])._q.kc
    old = kc.simd
    kc.simd = not old
    try:
        for name, f in draws:
            assert np.array_equal(got[name], host(f(R.default_rng(77)))), name
    finally:
        kc.simd = old


# ------------------------------------------------------------ statistics
N = 100_000
ALPHA = 1e-3   # fixed seeds: these p-values are the same on every run


def ks(sample, cdf):
    assert stats.kstest(host(sample), cdf).pvalue > ALPHA


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_continuous_ks(dtype):
    g = R.default_rng(2024)
    ks(g.random(N, dtype=dtype), stats.uniform().cdf)
    ks(g.uniform(-3, 5, N, dtype=dtype), stats.uniform(-3, 8).cdf)
    ks(g.standard_normal(N, dtype=dtype), stats.norm().cdf)
    ks(g.normal(1.5, 2.0, N, dtype=dtype), stats.norm(1.5, 2.0).cdf)
    ks(g.lognormal(0.3, 0.6, N, dtype=dtype), stats.lognorm(0.6, scale=np.exp(0.3)).cdf)
    ks(g.standard_exponential(N, dtype=dtype), stats.expon().cdf)
    ks(g.exponential(2.5, N, dtype=dtype), stats.expon(scale=2.5).cdf)
    for shape in (0.3, 1.0, 4.5):
        ks(g.gamma(shape, 2.0, N, dtype=dtype), stats.gamma(shape, scale=2.0).cdf)
    ks(g.standard_gamma(2.0, N, dtype=dtype), stats.gamma(2.0).cdf)
    for a, b in ((0.5, 0.7), (2.0, 5.0), (1.0, 3.0)):
        ks(g.beta(a, b, N, dtype=dtype), stats.beta(a, b).cdf)


def chi2_counts(values, probs):
    """Chi-square of the counts of integer values against probabilities
    (bins with expected counts below 5 pooled)."""
    values = host(values) if isinstance(values, ua.usm_ndarray) else np.asarray(values)
    obs = np.bincount(values.ravel().astype(np.int64), minlength=len(probs)).astype(float)
    assert obs.size == len(probs), "a value outside the support"
    exp = probs * values.size
    keep = exp >= 5
    if (~keep).any():   # the rare values pooled into one bin
        obs = np.append(obs[keep], obs[~keep].sum())
        exp = np.append(exp[keep], exp[~keep].sum())
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


def test_integers_chi_square_and_bounds(dtype=np.int64):
    g = R.default_rng(5)
    assert chi2_counts(g.integers(0, 10, N), np.full(10, 0.1)) > ALPHA
    assert chi2_counts(g.integers(3, 9, N, endpoint=True) - 3, np.full(7, 1 / 7)) > ALPHA
    for dt in (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
               np.uint64):
        info = (0, 1) if dt is np.bool_ else (np.iinfo(dt).min, np.iinfo(dt).max)
        x = host(g.integers(info[0], info[1], 5000, dtype=dt, endpoint=True))
        assert x.dtype == dt and x.min() >= info[0] and x.max() <= info[1]
        assert len(np.unique(x)) > 1
    # a range whose draws are rejected a quarter of the time (redrawn from
    # sub-streams, 16 lanes at once in the vector-block kernel)
    r = 3 * 2**30 + 1
    often = host(g.integers(0, r, N))
    assert often.min() >= 0 and often.max() < r
    assert chi2_counts(often * 16 // r, np.full(16, 1 / 16)) > ALPHA
    assert chi2_counts(often % 16, np.full(16, 1 / 16)) > ALPHA
    wide = host(g.integers(0, 3 * 2**40, N))
    assert wide.min() >= 0 and wide.max() < 3 * 2**40
    assert abs(wide.mean() / (1.5 * 2**40) - 1) < 4 * np.sqrt(1 / 3 / N)
    arr = host(g.integers(np.array([0, 10, 100]), np.array([5, 20, 1000]), (4000, 3)))
    assert (arr >= [0, 10, 100]).all() and (arr < [5, 20, 1000]).all()


@pytest.mark.parametrize("lam", [0.5, 4.0, 30.0, 1e4])
def test_poisson(lam):
    x = host(R.default_rng(int(lam * 10)).poisson(lam, N))
    assert x.dtype == np.int64
    se = np.sqrt(lam / N)
    assert abs(x.mean() - lam) < 4 * se
    assert abs(x.var() / lam - 1) < 4 * np.sqrt(2 / N + 1 / (lam * N))
    if lam < 50:
        k = np.arange(int(lam * 4 + 20))
        assert chi2_counts(x, stats.poisson(lam).pmf(k)) > ALPHA


@pytest.mark.parametrize("n,p", [(10, 0.3), (100, 0.7), (1000, 0.5), (5, 0.99), (40, 0.02)])
def test_binomial(n, p):
    x = host(R.default_rng(n).binomial(n, p, N))
    m, v = n * p, n * p * (1 - p)
    assert abs(x.mean() - m) < 4 * np.sqrt(v / N)
    assert abs(x.var() / v - 1) < 4 * np.sqrt(2 / N)
    assert chi2_counts(x, stats.binom(n, p).pmf(np.arange(n + 1))) > ALPHA


def test_choice_statistics():
    g = R.default_rng(11)
    p = np.array([0.5, 0.25, 0.125, 0.125])
    assert chi2_counts(g.choice(4, N, p=p), p) > ALPHA
    assert chi2_counts(g.choice(6, N), np.full(6, 1 / 6)) > ALPHA
    for pop, k in ((10**6, 10**5), (50, 50), (50, 20), (2**40, 1000)):
        s = host(g.choice(pop, k, replace=False))
        assert s.shape == (k,) and len(np.unique(s)) == k and s.min() >= 0 and s.max() < pop
    # without replacement every value is equally likely in every place
    firsts = np.array([int(host(g.choice(5, 3, replace=False))[0]) for _ in range(1000)])
    assert chi2_counts(firsts, np.full(5, 0.2)) > ALPHA


@pytest.mark.parametrize("pop", [65_537, 100_003, 1 << 20, (1 << 20) + 1, 3 * 10**9])
def test_choice_without_replacement_large_populations(pop):
    """Populations past the uniform-permutation limit take the first k items
    of a Feistel permutation of range(pop) (kernels/sycl/random.cpp:
    rng_sample), walked back into range: distinct, in range, uniform values
    with no relation between neighbours, different for every seed and the
    same for the same seed."""
    k = 30_000
    s = host(R.default_rng(pop).choice(pop, k, replace=False))
    assert s.dtype == np.int64 and s.shape == (k,) and len(np.unique(s)) == k
    assert s.min() >= 0 and s.max() < pop
    assert np.array_equal(s, host(R.default_rng(pop).choice(pop, k, replace=False)))
    assert not np.array_equal(s, host(R.default_rng(pop + 1).choice(pop, k, replace=False)))
    deciles = s * 10 // pop
    assert chi2_counts(deciles, np.full(10, 0.1)) > ALPHA
    # neighbours: the deciles of items i and i + 1 independent (100 cells)
    assert chi2_counts(deciles[:-1] * 10 + deciles[1:], np.full(100, 0.01)) > ALPHA
    # low bits too (the Feistel halves' boundary)
    assert chi2_counts(s % 16, np.full(16, 1 / 16)) > ALPHA


def test_choice_without_replacement_first_items_over_seeds():
    """Over many seeds, the first item of a sample of a large population
    falls in every decile equally often, and so does the 100th."""
    pop = 200_000
    s = np.array([host(R.default_rng(seed).choice(pop, 100, replace=False))[[0, 99]]
                  for seed in range(1500)])
    for j in range(2):
        assert chi2_counts(s[:, j] * 10 // pop, np.full(10, 0.1)) > ALPHA


@pytest.mark.parametrize("n", [0, 1, 10, 4096, 4097, 100_000, 3_000_000])
def test_permutation_is_a_permutation(n):
    x = host(R.default_rng(n).permutation(n))
    assert x.dtype == np.int64 and np.array_equal(np.sort(x), np.arange(n))
    if n >= 4097:
        assert not np.array_equal(x, np.arange(n))


def test_permutation_uniform_and_shuffles():
    g = R.default_rng(3)
    # all 24 orders of 4 items equally often
    codes = [tuple(host(g.permutation(4))) for _ in range(2400)]
    _, counts = np.unique(np.array(codes), axis=0, return_counts=True)
    assert len(counts) == 24 and stats.chisquare(counts).pvalue > ALPHA
    x = ua.asarray(np.arange(60.0).reshape(6, 10))
    g.shuffle(x, axis=1)
    h = host(x)
    assert (np.sort(h, axis=1) == np.arange(60.0).reshape(6, 10)).all()
    assert (h[:, :1] - h[:, :1] == 0).all() and (np.diff(h[:, 0] - np.arange(0, 60, 10)) == 0).all()
    y = host(g.permuted(ua.asarray(np.arange(200).reshape(10, 20)), axis=1))
    assert (np.sort(y, axis=1) == np.arange(200).reshape(10, 20)).all()
    assert len({tuple(r - r.min()) for r in y}) > 1   # rows shuffled independently
    z = host(g.permuted(ua.asarray(np.arange(30).reshape(5, 6))))
    assert np.array_equal(np.sort(z.ravel()), np.arange(30))
    long = ua.asarray(np.arange(2 * 10_000).reshape(2, 10_000) % 97)
    g.shuffle(long, axis=1)
    assert (np.sort(host(long), axis=1) == np.sort(np.arange(20_000).reshape(2, -1) % 97,
                                                    axis=1)).all()
    a = ua.asarray(np.arange(12).reshape(4, 3))
    p = host(g.permutation(a))
    assert sorted(map(tuple, p)) == sorted(map(tuple, np.arange(12).reshape(4, 3)))


# ------------------------------------------------------------ API and errors
def test_out_size_dtype_and_placement():
    g, ng = pair(8)
    o = ua.empty((3, 4))
    assert g.random(out=o) is o
    assert (host(o) == ng.random((3, 4))).all()
    f = ua.asarray(np.empty((3, 4), order="F"))
    g.random(out=f)
    ref = np.empty((3, 4), order="F")
    ng.random(out=ref)
    assert (host(f) == ref).all()
    with pytest.raises(ValueError):
        g.random(out=ua.empty((4, 6))[:, ::2])
    with pytest.raises(ValueError):
        g.random((4, 3), out=o)
    with pytest.raises(TypeError):
        g.random(out=ua.empty(3, dtype=ua.float32), dtype=np.float64)
    s = g.random()
    assert isinstance(s, ua.usm_ndarray) and s.shape == ()
    assert g.normal(size=(2, 3), dtype=np.float32).dtype == np.float32
    assert g.random(4, usm_type="shared").usm_type == "shared"
    assert g.poisson(3.0, 5, dtype=np.int32).dtype == np.int32
    loc = g.normal(np.array([0.0, 100.0, -100.0]), 0.1, size=(1000, 3))
    assert np.allclose(host(loc).mean(axis=0), [0, 100, -100], atol=0.05)
    assert host(g.gamma(ua.asarray([1.0, 50.0]), 1.0)).shape == (2,)


def test_errors_as_numpy():
    g = R.default_rng(0)
    bad = [
        (ValueError, lambda: g.normal(0, -1)), (ValueError, lambda: g.uniform(2, 1)),
        (ValueError, lambda: g.integers(5, 5)), (ValueError, lambda: g.integers(0, 300, dtype=np.uint8)),
        (ValueError, lambda: g.integers(-1, 3, dtype=np.uint32)),
        (TypeError, lambda: g.random(dtype=np.int32)), (TypeError, lambda: g.integers(0, 1, dtype=np.float64)),
        (TypeError, lambda: g.integers(0, 5, dtype=None)),
        (TypeError, lambda: g.standard_normal(dtype=np.int64)),
        (ValueError, lambda: g.choice(3, p=[0.5, 0.6, 0.1])), (ValueError, lambda: g.random(size=-1)),
        (ValueError, lambda: g.poisson(-1)), (ValueError, lambda: g.poisson(1e30)),
        (ValueError, lambda: g.binomial(-1, 0.5)), (ValueError, lambda: g.binomial(1, 1.5)),
        (ValueError, lambda: g.gamma(-1)), (ValueError, lambda: g.beta(0, 1)),
        (ValueError, lambda: g.exponential(-1)), (ValueError, lambda: g.lognormal(0, -1)),
        (ValueError, lambda: g.choice(5, 6, replace=False)), (ValueError, lambda: g.choice(0, 1)),
        (ValueError, lambda: g.choice(2**70, 3)),   # (range(2**63) is the largest, as NumPy)
        (ValueError, lambda: g.normal(np.zeros(3), 1.0, size=(2, 2))),
        (TypeError, lambda: g.random(size=1.5)), (OverflowError, lambda: g.uniform(-1e308, 1e308)),
        (TypeError, lambda: R.Generator(np.random.Philox(0))),
        (TypeError, lambda: g.shuffle(np.arange(3))),
    ]
    for exc, f in bad:
        with pytest.raises(exc):
            f()


def test_default_rng_and_legacy_wrappers():
    g = R.default_rng(42)
    assert R.default_rng(g) is g
    assert isinstance(R.default_rng(R.Philox(1)).bit_generator, R.Philox)
    assert (host(R.default_rng(42).random(5)) ==
            np.random.Generator(np.random.Philox(42)).random(5)).all()
    R.seed(7)
    a = host(R.rand(2, 3))
    R.seed(7)
    assert np.array_equal(a, host(R.random_sample((2, 3))))
    assert a.shape == (2, 3) and ((a >= 0) & (a < 1)).all()
    assert R.randn(4, dtype=np.float32).dtype == np.float32
    r = host(R.randint(3, 9, size=100))
    assert r.min() >= 3 and r.max() < 9
    assert host(R.randint(5, size=10)).max() < 5


# --------------------------------------------------------------- found by review
def test_integer_bounds_arrays_scalars_and_floats():
    g = R.default_rng(3)
    x = ua.asnumpy(g.integers([0, 5], 10, size=(1000, 2)))
    assert x[:, 0].min() >= 0 and x[:, 1].min() >= 5 and x.max() < 10
    x = ua.asnumpy(g.integers(np.zeros(3, int), 10, endpoint=True))
    assert x.shape == (3,) and x.max() <= 10
    x = ua.asnumpy(g.integers([0.0, 100.9], [10, 200.5], size=(500, 2)))   # truncated, as NumPy
    assert x[:, 0].max() < 10 and x[:, 1].min() >= 100 and x[:, 1].max() < 200
    assert ua.asnumpy(g.integers(0.0, 10.0, 5)).max() < 10
    assert ua.asnumpy(g.integers(5, 3, size=0)).shape == (0,)   # no draws: no check
    with pytest.raises(ValueError):
        g.integers(5, 3, size=1)
    with pytest.raises(ValueError):
        g.integers(np.nan, 10)
    with pytest.raises(ValueError):
        g.integers([0.0, np.nan], 10)


def test_array_parameters_into_an_f_order_out():
    # out[i, j] is drawn with the parameters at [i, j] whatever out's order
    g = R.default_rng(4)
    loc = np.arange(12.0).reshape(3, 4) * 100
    for order in ("C", "F"):
        o = ua.empty((3, 4), order=order)
        g.normal(loc, 1e-9, out=o)
        np.testing.assert_allclose(ua.asnumpy(o), loc, atol=1e-6)
        g.uniform(loc, loc + 1e-9, out=o)
        np.testing.assert_allclose(ua.asnumpy(o), loc, atol=1e-6)
        o = ua.empty((3, 4), dtype=ua.int64, order=order)
        lo = loc.astype(np.int64)
        g.integers(lo, lo + 1, out=o)
        np.testing.assert_array_equal(ua.asnumpy(o), lo)
        g.binomial(lo, 1.0, out=o)
        np.testing.assert_array_equal(ua.asnumpy(o), lo)
        # parameters broadcast to out's shape
        o = ua.empty((2, 3), order=order)
        g.uniform([0.0, 10.0, 20.0], [1.0, 11.0, 21.0], out=o)
        h = ua.asnumpy(o)
        assert ((h >= [0, 10, 20]) & (h < [1, 11, 21])).all()
        o = ua.empty((2, 3), dtype=ua.int64, order=order)
        g.integers([0, 100, 200], [1, 101, 201], out=o)
        np.testing.assert_array_equal(ua.asnumpy(o), [[0, 100, 200]] * 2)
    with pytest.raises(ValueError):
        g.normal(np.zeros((2, 3)), 1.0, out=ua.empty(3))


def test_binomial_of_huge_n():
    g = R.default_rng(5)
    top = 2**63 - 1
    np.testing.assert_array_equal(ua.asnumpy(g.binomial(top, 1.0, 3)), [top] * 3)
    np.testing.assert_array_equal(ua.asnumpy(g.binomial(2**53 + 1, 1.0, 2)), [2**53 + 1] * 2)
    np.testing.assert_array_equal(ua.asnumpy(g.binomial([2**62 + 1, 5], 1.0)), [2**62 + 1, 5])
    for n, p in ((10**17, 0.5), (10**18, 0.5), (2**62, 0.25), (10**18, 1e-17), (top, 0.5)):
        x = ua.asnumpy(g.binomial(n, p, 100000)).astype(np.float64)
        m, v = n * p, n * p * (1 - p)
        assert abs(x.mean() - m) < 5 * np.sqrt(v / x.size), (n, p)
        assert abs(x.var() / v - 1) < 0.03, (n, p, x.var() / v)
        assert x.min() >= 0 and x.max() <= n
    with pytest.raises(OverflowError):
        g.binomial(2**63, 0.5)
    with pytest.raises(ValueError):
        g.binomial(-1, 0.5)
    with pytest.raises(ValueError):
        g.binomial(2**31, 0.5, dtype=np.int32)
    with pytest.raises(ValueError):
        g.poisson(1e12, dtype=np.int32)
    assert ua.asnumpy(g.poisson(1e9, 10, dtype=np.int32)).min() > 0


def test_beta_of_small_parameters_in_float32():
    # x = u**(1/a) underflows float32 for a = 0.01; the ratio x / (x + y)
    # may not: in logarithms then (about 7% of values were 0 instead)
    x = ua.asnumpy(R.default_rng(1).beta(0.01, 0.01, 200000, dtype=np.float32))
    y = ua.asnumpy(R.default_rng(1).beta(0.01, 0.01, 200000))
    for lo, hi in ((0, 1.4e-45), (1.4e-45, 1e-10), (1e-10, 0.5)):
        px, py = ((x >= lo) & (x < hi)).mean(), ((y >= lo) & (y < hi)).mean()
        assert abs(px - py) < 0.01, (lo, hi, px, py)


@pytest.mark.parametrize("nan", [np.nan, -np.nan], ids=["nan", "negative-nan"])
def test_nan_and_negative_zero_parameters_as_numpy(nan):
    # (a NaN with its sign bit set, as inf - inf computes, is a NaN too)
    g = R.default_rng(6)
    for f in (lambda: g.normal(0, nan, 3), lambda: g.exponential(nan, 3),
              lambda: g.gamma(nan, 1.0, 3), lambda: g.gamma(2.0, nan, 3),
              lambda: g.beta(nan, 1.0, 3), lambda: g.beta(0.5, nan, 3),
              lambda: g.lognormal(0, nan, 3), lambda: g.standard_gamma(nan, 3),
              lambda: g.normal(0, ua.asarray([1.0, nan]), 2)[1:]):
        assert np.isnan(ua.asnumpy(f())).all()
    for f in (lambda: g.normal(0, -0.0), lambda: g.exponential(-0.0), lambda: g.gamma(-0.0)):
        with pytest.raises(ValueError):
            f()
    np.testing.assert_array_equal(ua.asnumpy(g.poisson(-0.0, 2)), [0, 0])
    with pytest.raises(ValueError):
        g.poisson(np.nan)


def test_choice_edges_as_numpy():
    g = R.default_rng(7)
    p = np.full(3, 1 / 3, dtype=np.float32)   # sums to 1 within float32's tolerance
    assert set(ua.asnumpy(g.choice(3, 100, p=p)).tolist()) <= {0, 1, 2}
    for replace in (True, False):
        x = ua.asnumpy(g.choice(2**63, 5, replace=replace))
        assert x.dtype == np.int64 and (x >= 0).all() and len(set(x.tolist())) == 5
    with pytest.raises(ValueError):
        g.choice(2**64, 3)
    with pytest.raises(ValueError):
        g.choice(5.5, 3)


def test_shapes_and_casts_as_numpy():
    g = R.default_rng(8)
    assert g.random(np.array([2, 3])).shape == (2, 3)
    with pytest.raises(np.exceptions.AxisError):
        g.permutation(np.array(5))
    with pytest.raises(TypeError):
        g.permuted(ua.asarray([0.5, 1.5]), out=ua.empty(2, dtype=ua.int64))
    base = ua.zeros(3)
    with pytest.raises(ValueError):   # a read-only out: nothing written
        g.permuted(ua.asarray([[1.0, 2.0, 3.0]] * 3), axis=1, out=ua.broadcast_to(base, (3, 3)))
    assert not ua.any(base)
    y = g.permuted(ua.asarray([1, 2, 3], dtype=ua.int32), out=ua.empty(3, dtype=ua.int64))
    assert sorted(ua.asnumpy(y).tolist()) == [1, 2, 3]


def test_split_calls_of_box_muller_methods():
    # calls start at an even word: after an odd n the next call skips one
    # value of the single call's stream (docs/random.md)
    whole = ua.asnumpy(R.default_rng(9).standard_normal(12))
    g = R.default_rng(9)
    a, b = ua.asnumpy(g.standard_normal(4)), ua.asnumpy(g.standard_normal(6))
    np.testing.assert_array_equal(np.concatenate([a, b]), whole[:10])
    g = R.default_rng(9)
    a, b = ua.asnumpy(g.standard_normal(3)), ua.asnumpy(g.standard_normal(5))
    np.testing.assert_array_equal(np.concatenate([a, b]), np.concatenate([whole[:3], whole[4:9]]))


# ---- argument handling found by fuzzing against NumPy's Generator
def _position(g):
    st = g.bit_generator.state
    return st["state"]["counter"].tolist(), st["buffer_pos"], st["has_uint32"]


def test_0d_array_parameters_as_numpy():
    g = ua.random.default_rng(0)
    m = g.random()   # a 0-d usm_ndarray
    for call in (lambda: g.normal(0.0, m), lambda: g.exponential(m), lambda: g.gamma(m + 1),
                 lambda: g.uniform(m, 2.0), lambda: g.poisson(ua.asarray(3.0)),
                 lambda: g.binomial(ua.asarray(5), 0.5)):
        r = call()
        assert isinstance(r, ua.usm_ndarray) and r.shape == ()
    assert 0 <= int(g.integers(ua.asarray(5))) < 5
    c = ua.asnumpy(g.choice(ua.asarray(5), 3))
    assert c.shape == (3,) and set(c) <= set(range(5))


def test_failed_calls_do_not_advance_the_stream():
    g = ua.random.default_rng(1)
    before = _position(g)
    with pytest.raises(ValueError):
        g.normal(0.0, ua.asarray([1.0, 2.0]), size=3)
    assert _position(g) == before


def test_float32_parameters_beyond_float32_are_inf_as_numpy():
    g = ua.random.default_rng(2)
    n = np.random.default_rng(2)
    got = ua.asnumpy(g.standard_gamma(1e300, 3, dtype=np.float32))
    assert got.dtype == np.float32
    with np.errstate(over="ignore"):
        want = n.standard_gamma(1e300, 3, dtype=np.float32)
    np.testing.assert_array_equal(got, want)


def test_generator_and_philox_pickle_and_deepcopy():
    import copy
    import pickle
    g = ua.random.Generator(ua.random.Philox(11))
    g.random(5)
    for clone in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        np.testing.assert_array_equal(ua.asnumpy(clone.random(7)), ua.asnumpy(
            pickle.loads(pickle.dumps(g)).random(7)))
    n = np.random.Generator(np.random.Philox(11))
    n.random(5)
    np.testing.assert_array_equal(ua.asnumpy(copy.deepcopy(g).random(7)), n.random(7))
    bg = pickle.loads(pickle.dumps(ua.random.Philox(3)))
    want = [np.random.Philox(s).random_raw(2) for s in np.random.Philox(3).seed_seq.spawn(2)]
    got = [ua.asnumpy(b.random_raw(2)) for b in bg.spawn(2)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("length", [-9, -8, -5, -4, -3, -1, 0, 1, 3, 4, 5, 9])
def test_bytes_of_any_length_as_numpy(length):
    n = np.random.Generator(np.random.Philox(7))
    u = ua.random.Generator(ua.random.Philox(7))
    try:
        want = n.bytes(length)
    except ValueError:
        with pytest.raises(ValueError):
            u.bytes(length)
        return
    assert u.bytes(length) == want
    assert n.random() == float(u.random())   # the streams stay together


def test_beta_at_extreme_shapes_is_finite():
    """Subnormal shapes give 0s and 1s as NumPy's (the logarithm fallback
    gave NaN), float32 shapes near its largest values 0.5 (ga + gb overflowed)."""
    g = ua.random.default_rng(4)
    x = ua.asnumpy(g.beta(1e-310, 1e-310, 20000))
    assert not np.isnan(x).any() and set(np.unique(x)) <= {0.0, 0.5, 1.0}
    assert 0.45 < x.mean() < 0.55
    x = ua.asnumpy(g.beta(2e38, 2e38, 1000, dtype=np.float32))
    np.testing.assert_allclose(x, 0.5, rtol=1e-3)


def test_argument_types_as_numpy():
    g = ua.random.default_rng(5)
    assert 3 <= int(g.integers(np.array(3.0), 10)) < 10   # a 0-d float bound
    with pytest.raises(TypeError):
        g.bit_generator.advance(1.5)
    with pytest.raises(TypeError):
        g.bit_generator.state = 5
