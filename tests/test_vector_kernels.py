"""Vector-block kernels (``unary_vec``, ``binary_vec``, ``binary_scalar_*_vec``,
``cast_vec``): on devices that use them (CPUs) they serve contiguous,
aligned results of the loops with a vector form. Their results must equal
the scalar kernels' (exactly for operator forms, within the float tolerance
for sycl:: math functions) for every length (whole vectors, partial last
vectors, partial last work-items), and NumPy's for conversions."""

import contextlib

import numpy as np
import pytest

import usmarray as ua
from usmarray import elementwise as ew
from usmarray._elementwise_ops import VECTOR_TYPES
from conftest import TOL, device_supports, sample

# whole vectors (16 float32 lanes, usm::kSimdVectors = 32 per work-item, 2
# work-items per group), partial last vectors and partial last work-items
SIZES = [1, 7, 16, 17, 127, 128, 129, 511, 512, 513, 1023, 1024, 1025, 4097]

VECTOR_OPS = sorted(name for name, op in ew.OP.items() if op.vector_sigs)


def _queue_kc():
    return ua.asarray([0])._q.kc


pytestmark = pytest.mark.skipif(not _queue_kc().simd,
                                reason="the default device does not use vector-block kernels")


@contextlib.contextmanager
def simd(enabled):
    kc = _queue_kc()
    old = kc.simd
    kc.simd = enabled
    try:
        yield
    finally:
        kc.simd = old


def _loop_dtypes(name):
    """The dtypes of the operation's loops that have a vector form."""
    op = ew.OP[name]
    out = []
    for ins, res, sig in op.loops:
        if sig in op.vector_sigs and device_supports(res):
            out.append(res)
    return out


CASES = [(name, dt) for name in VECTOR_OPS for dt in _loop_dtypes(name)]


def _data(dt, n, seed):
    """Varied values of dtype dt; floats include signed zeros, infinities,
    NaN, subnormals and large magnitudes."""
    v = sample((n,), dt, seed)
    if np.dtype(dt).kind == "f":
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-300, 1e30, -1.0, 1.0,
                            0.5, -0.5, 2.0, 3.0], dtype=dt)
        k = min(n, special.size)
        rng = np.random.default_rng(seed + 1)
        v[rng.choice(n, k, replace=False)] = special[:k]
    elif dt in (ua.int32, ua.int64):
        v[: min(n, 3)] = np.array([np.iinfo(dt).min, np.iinfo(dt).max, 0], dtype=dt)[: min(n, 3)]
    return v


def _same(got, ref, exact):
    if exact or got.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, ref)
    else:
        rtol, atol = TOL[got.dtype]
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True)


def _exact(name):
    return "(" not in ew.OP[name].vexpr


def _both_paths(fn):
    with simd(True):
        v = ua.asnumpy(fn())
    with simd(False):
        s = ua.asnumpy(fn())
    return v, s


@pytest.mark.parametrize("name,dt", CASES, ids=[f"{n}-{d.name}" for n, d in CASES])
def test_vector_form_matches_scalar_form(name, dt):
    f = getattr(ua, name)
    nin = ew.OP[name].nin
    with np.errstate(all="ignore"):
        for n in SIZES:
            args = [ua.asarray(_data(dt, n, seed)) for seed in range(nin)]
            v, s = _both_paths(lambda: f(*args))
            assert v.dtype == np.dtype(dt)
            _same(v, s, _exact(name))


BINARY_VECTOR = [(name, dt) for name, dt in CASES if ew.OP[name].nin == 2]


@pytest.mark.parametrize("name,dt", BINARY_VECTOR, ids=[f"{n}-{d.name}" for n, d in BINARY_VECTOR])
def test_scalar_operand_vector_forms(name, dt):
    f = getattr(ua, name)
    value = 3 if np.dtype(dt).kind in "iu" else 2.5
    with np.errstate(all="ignore"):
        for n in (1, 17, 129, 1000):
            x = ua.asarray(_data(dt, n, 0))
            for call in (lambda: f(x, value), lambda: f(value, x)):
                v, s = _both_paths(call)
                assert v.dtype == np.dtype(dt)
                _same(v, s, _exact(name))


# rows whose byte length is a multiple of 64 (the rows variant's condition):
# one work-item per row, several, and a last partial one
ROW_SHAPES = [(5, 16), (3, 272), (7, 1024), (3, 1040), (2, 48)]


@pytest.mark.parametrize("name,dt", BINARY_VECTOR, ids=[f"{n}-{d.name}" for n, d in BINARY_VECTOR])
def test_rows_vector_forms(name, dt):
    """A matrix with a row or a column (either side), and a column with a
    row: the rows variant against the scalar kernels."""
    f = getattr(ua, name)
    with np.errstate(all="ignore"):
        for rows, cols in ROW_SHAPES:
            m = ua.asarray(_data(dt, rows * cols, 0).reshape(rows, cols))
            row = ua.asarray(_data(dt, cols, 1))
            col = ua.asarray(_data(dt, rows, 2).reshape(rows, 1))
            for args in ((m, row), (row, m), (m, col), (col, m), (col, row), (m, m)):
                v, s = _both_paths(lambda: f(*args))
                assert v.shape == (rows, cols)
                _same(v, s, _exact(name))


def test_rows_against_numpy():
    m = _data(ua.float32, 6 * 320, 0).reshape(6, 320)
    r = _data(ua.float32, 320, 1)
    c = _data(ua.float32, 6, 2).reshape(6, 1)
    xm, xr, xc = ua.asarray(m), ua.asarray(r), ua.asarray(c)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ua.asnumpy(xm + xr), m + r)
        np.testing.assert_array_equal(ua.asnumpy(xc - xm), c - m)
        np.testing.assert_array_equal(ua.asnumpy(xc * xr), c * r)
        # rows not a multiple of 64 bytes (the one-item kernels) give the same
        np.testing.assert_array_equal(ua.asnumpy(xm[:, :300] / xr[:300]), m[:, :300] / r[:300])


# results just below and above usm::kStreamBytes (4 MiB): ordinary stores,
# then streaming ones
STREAM_SIZES = [(1 << 20) - 17, (1 << 20) + 33]


@pytest.mark.parametrize("n", SIZES + STREAM_SIZES)
def test_arithmetic_against_numpy(n):
    a = _data(ua.float32, n, 0)
    b = _data(ua.float32, n, 1)
    x, y = ua.asarray(a), ua.asarray(b)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ua.asnumpy(x + y), a + b)
        np.testing.assert_array_equal(ua.asnumpy(x * 2.0), a * np.float32(2))
        np.testing.assert_array_equal(ua.asnumpy(1.5 - x), np.float32(1.5) - a)
        np.testing.assert_array_equal(ua.asnumpy(x / y), a / b)
        i = sample((n,), ua.int64, 3)
        np.testing.assert_array_equal(ua.asnumpy(ua.asarray(i) * 7 - 1), i * 7 - 1)


@pytest.mark.parametrize("n", STREAM_SIZES)
def test_streaming_threshold_against_numpy(n):
    a = _data(ua.float32, n, 0)
    b = _data(ua.float32, n, 1)
    x, y = ua.asarray(a), ua.asarray(b)
    # (the binary and scalar kernels: test_arithmetic_against_numpy)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ua.asnumpy(ua.negative(x)), -a)
        m, r = a[: n - n % 512].reshape(-1, 512), b[:512]
        xm = ua.asarray(m)
        np.testing.assert_array_equal(ua.asnumpy(xm + ua.asarray(r)), m + r)
        if device_supports(ua.float64):
            np.testing.assert_array_equal(ua.asnumpy(ua.astype(x, ua.float64)), a.astype(np.float64))
        # in place: the result is also an operand
        x += y
        a += b
        np.testing.assert_array_equal(ua.asnumpy(x), a)
    # scans (int64 results of n / 2 items: the same number of bytes)
    i = sample((n // 2,), ua.int64, 2) % 1000
    np.testing.assert_array_equal(ua.asnumpy(ua.cumulative_sum(ua.asarray(i))), np.cumsum(i))


CAST_SOURCES = [d for d in (ua.int32, ua.uint32, ua.int64, ua.uint64, ua.float32, ua.float64)
                if device_supports(d)]
CAST_TARGETS = [d for d in (ua.float32, ua.float64) if device_supports(d)]
CASTS = [(s, d) for s in CAST_SOURCES for d in CAST_TARGETS if s != d]


@pytest.mark.parametrize("src,dst", CASTS, ids=[f"{s.name}-{d.name}" for s, d in CASTS])
def test_cast_vector_form(src, dst):
    rng = np.random.default_rng(0)
    for n in SIZES:
        if np.dtype(src).kind == "f":
            h = _data(src, n, 0)
            if np.dtype(src).itemsize > np.dtype(dst).itemsize:
                # values between float32 neighbours: the rounding shows
                h = (h.astype(np.float64) * (1 + 2.0 ** -30)).astype(src)
        else:
            info = np.iinfo(src)
            h = rng.integers(info.min, info.max, n, dtype=src, endpoint=True)
        x = ua.asarray(h)
        v, s = _both_paths(lambda: ua.astype(x, dst))
        with np.errstate(all="ignore"):
            expected = h.astype(dst)
        np.testing.assert_array_equal(v, expected)
        np.testing.assert_array_equal(s, expected)


def test_unaligned_result_and_in_place():
    """Results not aligned for vector stores (views at an offset) take the
    scalar kernels; in-place updates of aligned arrays the vector ones."""
    a = sample((1001,), ua.float32, 0)
    b = sample((1001,), ua.float32, 1)
    x, y = ua.asarray(a), ua.asarray(b)
    z = x[1:]
    z += y[1:]
    a[1:] += b[1:]
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    x += y
    a += b
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    w = ua.sin(x[3:])
    np.testing.assert_allclose(ua.asnumpy(w), np.sin(a[3:]), rtol=1e-5, atol=1e-6)
    c = ua.astype(ua.asarray(a.astype(np.float64))[5:], ua.float32)
    np.testing.assert_array_equal(ua.asnumpy(c), a[5:])


def test_small_integer_types_keep_scalar_kernels():
    # their vector kernels would cost the kernel compiler seconds each
    assert not {"i1", "u1", "i2", "u2"} & set(VECTOR_TYPES)
    h = np.arange(-150, 150).astype(np.int8)
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(h) + ua.asarray(h)), h + h)
