"""matmul (function and @ operators), vecdot and tensordot against NumPy:
shapes (1-D promotion, broadcast batches), dtypes, views, errors."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, sample

NUMERIC = [ua.int8, ua.int32, ua.uint16, ua.int64, ua.float32, ua.float64, ua.complex64,
           ua.complex128]


def _small(shape, dtype, seed=0):
    h = sample(shape, dtype, seed)
    return (h % 4).astype(dtype) if np.dtype(dtype).kind in "iu" else h


@pytest.mark.parametrize("dtype", NUMERIC, ids=lambda d: d.name)
@pytest.mark.parametrize("s1, s2", [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)),
                                    ((6,), (6,)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
                                    ((2, 1, 3, 4), (5, 4, 2)), ((0, 3), (3, 2)), ((3, 0), (0, 2)),
                                    ((1, 70), (70, 130))])
def test_matmul(dtype, s1, s2, variant):
    # variant: floating products through the host BLAS on the CPU device, or oneMKL's SYCL gemm
    a, b = _small(s1, dtype, 1), _small(s2, dtype, 2)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    check(ua.matmul(x1, x2), np.matmul(a, b))
    check(x1 @ x2, a @ b)


def check_product(got, a, b):
    """got == a @ b within the rounding error bound of a float32/float64 product
    (the order of a BLAS's accumulation differs from NumPy's)."""
    expected = np.matmul(a, b)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    ref = np.matmul(a.astype(np.complex128 if expected.dtype.kind == "c" else np.float64), b)
    bound = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    eps = np.finfo(expected.dtype).eps
    k = a.shape[-1]
    assert np.all(np.abs(ua.asnumpy(got) - ref) <= 2 * k * eps * bound + np.finfo(expected.dtype).tiny)


def check_dot(got, a, b, conj=False, axis=-1):
    """got == sum(a * b, axis) (conj(a) with `conj`): exact for integers,
    within the rounding bound of a float sum otherwise."""
    ca = np.conj(a) if conj else a
    expected = np.sum(ca * b, axis=axis, dtype=np.result_type(a, b))
    assert got.shape == expected.shape and got.dtype == expected.dtype
    g = ua.asnumpy(got)
    if expected.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, expected)
        return
    wide = np.complex128 if expected.dtype.kind == "c" else np.float64
    ref = np.sum(ca.astype(wide) * b.astype(wide), axis=axis)
    bound = np.sum(np.abs(ca.astype(wide) * b.astype(wide)), axis=axis)
    k = np.broadcast_shapes(a.shape, b.shape)[axis] if a.ndim else 1
    eps = float(np.finfo(expected.dtype).eps)
    assert np.all(np.abs(g.astype(wide) - ref) <= (k + 2) * eps * bound + 1e-30), (g, ref)


@pytest.mark.parametrize("dtype", NUMERIC + [ua.float16, ua.uint64], ids=lambda d: d.name)
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100003])
def test_dot_products_of_vectors(dtype, n, variant):
    """1-D matmul, np.dot/inner, vecdot and einsum's batched dot products are one
    reduction pass (products not stored): against NumPy for every dtype and
    sizes around the vector blocks; views with strides and negative strides."""
    a, b = _small((2 * n,), dtype, 1), _small((2 * n,), dtype, 2)
    if np.dtype(dtype).kind == "f":
        a, b = a / 4, b / 4
    x, y = ua.asarray(a)[::2], ua.asarray(b)[::-2]
    ah, bh = a[::2], b[::-2]
    check_dot(x @ y, ah, bh)
    check_dot(ua.matmul(x, y), ah, bh)
    check_dot(np.dot(x, y), ah, bh)
    check_dot(np.inner(x, y), ah, bh)
    check_dot(ua.vecdot(x, y), ah, bh, conj=True)
    m = 2 * (n // 2)
    x2, y2 = ua.reshape(x[:m], (2, -1)), ua.reshape(y[:m], (2, -1))
    check_dot(ua.einsum("ij,ij->i", x2, y2), ah[:m].reshape(2, -1), bh[:m].reshape(2, -1))
    check_dot(ua.vecdot(x2, y2, axis=0), ah[:m].reshape(2, -1), bh[:m].reshape(2, -1),
              conj=True, axis=0)


def test_dot_products_mixed_types_and_broadcast():
    a, b = _small((4, 1, 6), ua.int8, 1), _small((3, 6), ua.float32, 2)
    check_dot(ua.vecdot(ua.asarray(a), ua.asarray(b)), a, b)
    check_dot(ua.einsum("ij,ij->i", ua.asarray(a[0, :1].repeat(3, 0)), ua.asarray(b)),
              a[0, :1].repeat(3, 0), b)
    with pytest.raises(ValueError):
        ua.ones(3) @ ua.ones(4)
    with pytest.raises(ValueError):
        ua.vecdot(ua.ones(3), ua.ones(4))


@pytest.mark.parametrize("dtype", [ua.int8, ua.int32, ua.uint64], ids=lambda d: d.name)
@pytest.mark.parametrize("s1, s2", [((9, 13), (13, 6)), ((2, 5, 7), (7, 3)), ((4, 8), (8, 4)),
                                    ((3, 70, 33), (3, 33, 65))])
def test_matmul_tiled_rows(dtype, s1, s2):
    # the integer kernel computes 4 rows per work-item: full and partial row tiles, batches,
    # and an operand read through a strided view (copied to a contiguous layout first)
    a, b = _small(s1, dtype, 3), _small(s2, dtype, 4)
    x1, x2 = ua.asarray(a), ua.asarray(b)
    check(ua.matmul(x1, x2), np.matmul(a, b))
    big = _small(s1[:-1] + (2 * s1[-1],), dtype, 5)
    check(ua.matmul(ua.asarray(big)[..., ::2], x2), np.matmul(big[..., ::2], b))


def test_matmul_promotion_views_and_operators(variant):
    a = sample((5, 4), np.float32)
    b = sample((6, 5), np.int16)
    x, y = ua.asarray(a)[::-1, 1:], ua.asarray(b)[::2].mT   # strided operands
    got = ua.matmul(x.mT, y)
    check_product(got, a[::-1, 1:].T, b[::2].T)
    i = ua.asarray(np.eye(3, dtype="f4"))
    m = ua.asarray(sample((3, 3), np.float32, 5))
    i @= m
    check(i, ua.asnumpy(m))
    assert ua.ones(3).__matmul__(np.ones(3)) is NotImplemented
    with pytest.raises(ValueError):
        ua.ones((2, 3)) @ ua.ones((2, 3))
    with pytest.raises(ValueError):
        ua.matmul(ua.asarray(1.0), ua.ones(3))
    # bool products: NumPy's (an or of ands)
    rng = np.random.default_rng(5)
    ba, bb = rng.random((3, 40)) > 0.9, rng.random((40, 2)) > 0.9
    for got, want in ((ua.matmul(ua.asarray(ba), ua.asarray(bb)), ba @ bb),
                      (ua.vecdot(ua.asarray(ba), ua.asarray(bb[:, 0])), np.vecdot(ba, bb[:, 0])),
                      (ua.matmul(ua.ones(3, dtype=ua.bool), ua.ones(3, dtype=ua.bool)),
                       np.ones(3, bool) @ np.ones(3, bool))):
        check(got, want)
    v = ua.ones((2, 2))
    with pytest.raises(ValueError):
        v @= ua.ones((2, 3))


@pytest.mark.parametrize("dtype", [ua.int32, ua.float32, ua.complex64], ids=lambda d: d.name)
@pytest.mark.parametrize("s1, s2, axis", [((5,), (5,), -1), ((3, 5), (5,), -1),
                                          ((4, 3), (4, 1), 0), ((2, 3, 4), (3, 4), -2)])
def test_vecdot(dtype, s1, s2, axis):
    a, b = _small(s1, dtype, 1), _small(s2, dtype, 2)
    check(ua.vecdot(ua.asarray(a), ua.asarray(b), axis=axis), np.vecdot(a, b, axis=axis))


def test_vecdot_errors():
    with pytest.raises(ValueError):
        ua.vecdot(ua.ones((3, 4)), ua.ones((3, 5)))
    with pytest.raises(IndexError):
        ua.vecdot(ua.ones(3), ua.ones(3), axis=1)


@pytest.mark.parametrize("s1, s2, axes", [((3, 4), (4, 5), 1), ((2, 3, 4), (3, 4, 5), 2),
                                          ((3, 4), (5,), 0), ((2, 3, 4), (4, 2, 3), ((0, 1), (1, 2))),
                                          ((3, 4), (4, 3), ((0, 1), (1, 0)))])
def test_tensordot(s1, s2, axes):
    a, b = sample(s1, np.float64, 1), sample(s2, np.float64, 2)
    check(ua.tensordot(ua.asarray(a), ua.asarray(b), axes=axes), np.tensordot(a, b, axes=axes))


def test_tensordot_errors():
    with pytest.raises(ValueError):
        ua.tensordot(ua.ones((2, 3)), ua.ones((2, 3)), axes=1)
    with pytest.raises(ValueError):
        ua.tensordot(ua.ones((2, 3)), ua.ones((3,)), axes=3)
    with pytest.raises(ValueError):
        ua.tensordot(ua.ones((2, 3)), ua.ones((3,)), axes=((1,), (0, 0)))
    # axes out of range: refused (they were taken modulo the dimensions)
    x = ua.ones((3, 3))
    for axes in (([2], [0]), ([0], [5]), ([-3], [0])):
        with pytest.raises(IndexError):
            ua.tensordot(x, x, axes=axes)
    with pytest.raises(ValueError):
        ua.tensordot(x, x, axes=([0, 0], [0, 1]))


def test_tensordot_one_axis_per_side():
    # NumPy's axes=(1, 0): one pair, each side an int
    a, b = sample((3, 4), np.float64, 1), sample((4, 2), np.float64, 2)
    check(ua.tensordot(ua.asarray(a), ua.asarray(b), axes=(1, 0)), np.tensordot(a, b, (1, 0)))
    check(np.tensordot(ua.asarray(a), ua.asarray(b), (1, 0)), np.tensordot(a, b, (1, 0)))


def test_matmul_right_after_the_kernels_that_make_its_operands(variant):
    # operands still being written when matmul is called: the CPU device's
    # host BLAS then runs in a host task ordered after those kernels (with
    # ready operands it runs at once on the calling thread)
    a = sample((32, 96, 80), np.float32)
    b = sample((80, 64), np.float32)
    for _ in range(3):
        x = ua.asarray(a) * 2 + 1          # kernels queued just before the product
        y = ua.sin(ua.asarray(b))
        got = ua.matmul(x, y)
        check_product(got, a * 2 + 1, np.sin(b))
