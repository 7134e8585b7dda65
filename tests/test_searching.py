"""where(): selection by a boolean condition, against NumPy, through both
kernel variants (the CPU vector-block ``where_vec`` and the generic ones),
for every item size, array and scalar operands, broadcasts, views and lengths
around vector and work-item boundaries."""

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, device_supports, sample

# whole vectors (16 lanes), partial last vectors, partial last work-items
# (32 vectors each), and a long array
SIZES = [0, 1, 15, 16, 17, 511, 512, 513, 1025, 100003]


def _cond(n, seed=1):
    return np.random.default_rng(seed).random(n) < 0.4


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", SUPPORTED_DTYPES, ids=lambda d: d.name)
def test_where_arrays(variant, dt, n):
    c, a, b = _cond(n), sample((n,), dt, 2), sample((n,), dt, 3)
    r = ua.where(ua.asarray(c), ua.asarray(a), ua.asarray(b))
    assert r.dtype == dt
    np.testing.assert_array_equal(ua.asnumpy(r), np.where(c, a, b))


@pytest.mark.parametrize("n", [1, 17, 513, 100003])
@pytest.mark.parametrize("dt", [ua.bool, ua.int8, ua.int16, ua.float32, ua.int64, ua.complex64,
                                ua.complex128], ids=lambda d: d.name)
@pytest.mark.parametrize("side", ["x1", "x2", "both"])
def test_where_scalar_operands(variant, dt, n, side):
    """A Python scalar (a broadcast 0-d array inside) on either side or both
    as 0-d arrays."""
    if dt not in SUPPORTED_DTYPES:
        pytest.skip("dtype not supported")
    c, a = _cond(n), sample((n,), dt, 2)
    s = np.asarray(True if dt == ua.bool else 3, dtype=dt)
    if side == "x1":
        r, e = ua.where(ua.asarray(c), s.item(), ua.asarray(a)), np.where(c, s, a)
    elif side == "x2":
        r, e = ua.where(ua.asarray(c), ua.asarray(a), s.item()), np.where(c, a, s)
    else:
        t = np.asarray(False if dt == ua.bool else -5, dtype=dt)
        r, e = ua.where(ua.asarray(c), ua.asarray(s), ua.asarray(t)), np.where(c, s, t)
    assert r.dtype == dt and r.shape == (n,)
    np.testing.assert_array_equal(ua.asnumpy(r), e)


@pytest.mark.parametrize("dt", [ua.uint8, ua.float32, ua.float64], ids=lambda d: d.name)
def test_where_views_and_broadcasts(variant, dt):
    if dt not in SUPPORTED_DTYPES:
        pytest.skip("dtype not supported")
    c = _cond(6 * 700).reshape(6, 700)
    a, b = sample((6, 700), dt, 2), sample((6, 700), dt, 3)
    C, A, B = ua.asarray(c), ua.asarray(a), ua.asarray(b)
    cases = [
        (C[:, 1:], A[:, 1:], B[:, :-1], c[:, 1:], a[:, 1:], b[:, :-1]),    # offset views
        (C[::-2], A[::2], B[::-2], c[::-2], a[::2], b[::-2]),              # negative, step 2
        (C.T, A.T, B.T, c.T, a.T, b.T),                                    # F order
        (C[:, :1], A, B[0], c[:, :1], a, b[0]),                            # broadcasts
        (C, A[:, :1], 2, c, a[:, :1], 2),                                  # column and scalar
    ]
    for cc, aa, bb, ec, ea, eb in cases:
        e = np.where(ec, ea, np.asarray(eb, dtype=dt) if np.isscalar(eb) else eb)
        np.testing.assert_array_equal(ua.asnumpy(ua.where(cc, aa, bb)), e)


@pytest.mark.parametrize("offset", [0, 1, 3])
def test_where_unaligned_output(variant, offset):
    """out= at an offset that is not a vector boundary takes the other kernel."""
    n = 4099
    c, a = _cond(n), sample((n,), ua.float32, 2)
    buf = ua.zeros(n + 8, dtype=ua.float32)
    out = buf[offset:offset + n]
    assert ua.where(ua.asarray(c), ua.asarray(a), 0.5, out=out) is out
    np.testing.assert_array_equal(ua.asnumpy(out), np.where(c, a, np.float32(0.5)))
    rest = np.delete(ua.asnumpy(buf), np.arange(offset, offset + n))
    assert not rest.any()


def test_where_condition_cast_and_errors():
    c = np.array([0, 2, -1, 0], dtype=np.int32)
    r = ua.where(ua.asarray(c), ua.asarray([1.0, 2, 3, 4]), -1.0)
    np.testing.assert_array_equal(ua.asnumpy(r), np.where(c, [1.0, 2, 3, 4], -1.0))
    with pytest.raises(TypeError):
        ua.where(c, ua.asarray([1.0]), 0.0)       # a NumPy condition
    # no array among the values: NumPy's dtype of the two scalars, the condition's shape
    r = ua.where(ua.asarray([True, False]), 1, 2.5)
    assert r.dtype == ua.asarray(1.0).dtype   # (the default float type)
    np.testing.assert_array_equal(ua.asnumpy(r), [1.0, 2.5])
    with pytest.raises(ValueError):
        ua.where(ua.asarray([True, False, True]), ua.asarray([1.0, 2.0]), 0.0)


def test_where_with_the_condition_alone_is_nonzero():
    h = np.array([[0, 3], [4, 0]])
    for got, want in zip(ua.where(ua.asarray(h)), np.where(h)):
        np.testing.assert_array_equal(ua.asnumpy(got), want)
    with pytest.raises(ValueError):
        ua.where(ua.asarray(h), 1)


def test_searchsorted_of_python_ints_beyond_the_dtype():
    # before or after every value, as NumPy (they do not convert to the dtype)
    for dt, vals in (("int8", (1000, -1000, 127, -128)), ("uint8", (-1, 256, 0)),
                     ("int64", (2 ** 63, -(2 ** 63) - 1))):
        h = np.array([-5, 0, 3, 100] if dt != "uint8" else [0, 3, 100], dtype=dt)
        for v in vals:
            for side in ("left", "right"):
                r = ua.searchsorted(ua.asarray(h), v, side=side)
                assert r.dtype == ua.int64 and r.shape == ()
                assert int(r) == np.searchsorted(h, v, side=side), (dt, v, side)


def test_searchsorted_sorter_out_of_range_is_a_value_error():
    x1 = ua.asarray([3.0, 1.0, 2.0])
    np.testing.assert_array_equal(
        ua.asnumpy(ua.searchsorted(x1, ua.asarray([2.5]), sorter=ua.asarray([1, 2, 0]))), [2])
    for bad in ([1, 2, 3], [-4, 0, 1], [-2, 2, 0], [-1, 0, 1]):   # negatives too, as NumPy
        for dt in ("int8", "int64"):
            with pytest.raises(ValueError):
                ua.searchsorted(x1, ua.asarray([2.5]), sorter=ua.asarray(bad, dtype=dt))


@pytest.mark.parametrize("dt", ["float32", "float16"])
def test_searchsorted_places_python_numbers_exactly(dt):
    """A Python number is placed as NumPy places it, by its exact value: it
    was rounded to the array's type first (2**24 + 1 went before
    2**24 + 2's equals in float32, where NumPy puts it after 2**24)."""
    if not device_supports(dt):
        pytest.skip(f"{dt} not supported")
    rng = np.random.default_rng(0)
    h = np.sort(np.concatenate([rng.standard_normal(300), [2.0**11, 2.0**11 + 2]]).astype(dt))
    x = ua.asarray(h)
    values = rng.standard_normal(100).tolist() + h[:40].astype(float).tolist() + \
        [2**11 + 1, 2**11 + 1.0, 1e39, -1e39, 0.1, 1 / 3]
    if dt == "float32":
        values += [2**24 + 1, 0.10000000075]
        h2 = np.array([2**24, 2**24 + 2], dt)
        for side in ("left", "right"):
            assert int(ua.searchsorted(ua.asarray(h2), 2**24 + 1, side=side)) == 1
    for v in values:
        for side in ("left", "right"):
            expected = np.searchsorted(h, v, side=side)
            assert int(ua.searchsorted(x, v, side=side)) == expected, (v, side)
            assert int(np.searchsorted(x, v, side=side)) == expected
