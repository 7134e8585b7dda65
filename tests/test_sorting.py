"""sort and argsort: values, stability (equal keys keep their order, also
descending), axes, views, NaNs, every real dtype, errors; NumPy as oracle."""

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES as SUPPORTED, sample


def _ties(shape, dtype, seed=0):
    """Data with many equal keys, so stability is visible in argsort."""
    h = sample(shape, dtype, seed)
    if np.dtype(dtype).kind in "iuf":
        h = (h % 5).astype(dtype)
    return h


def _np_argsort(h, axis, descending):
    if not descending:
        return np.argsort(h, axis=axis, kind="stable")
    # stable descending: sort the reversed array ascending, map back, reverse
    n = h.shape[axis]
    r = np.flip(np.argsort(np.flip(h, axis=axis), axis=axis, kind="stable"), axis=axis)
    return n - 1 - r


@pytest.mark.parametrize("shape, axis", [((37,), -1), ((5, 40), 1), ((5, 40), 0),
                                         ((3, 4, 50), 1), ((2, 1000), -1), ((0,), 0), ((4, 1), 1)])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort(dtype, shape, axis, descending):
    h = _ties(shape, dtype)
    x = ua.asarray(h)
    s = ua.sort(x, axis=axis, descending=descending)
    exp = np.sort(h, axis=axis)
    if descending:
        exp = np.flip(exp, axis=axis)
    assert s.dtype == x.dtype and s.shape == h.shape
    np.testing.assert_array_equal(ua.asnumpy(s), exp)
    i = ua.argsort(x, axis=axis, descending=descending)
    assert i.dtype == ua.int64
    np.testing.assert_array_equal(ua.asnumpy(i), _np_argsort(h, axis, descending))


def test_sort_nans_views_and_large():
    h = np.array([3.0, np.nan, -np.inf, 0.0, np.nan, 1.0, -0.0], "f4")
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(ua.asarray(h))), np.sort(h))
    np.testing.assert_array_equal(ua.asnumpy(ua.argsort(ua.asarray(h))),
                                  np.argsort(h, kind="stable"))
    m = sample((30, 40), np.int32)
    v, hv = ua.asarray(m)[::-3, 1::2], m[::-3, 1::2]
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(v, axis=0)), np.sort(hv, axis=0))
    big = sample((200003,), np.float32)
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(ua.asarray(big))), np.sort(big))
    x = ua.asarray(big)
    assert not np.shares_memory(ua.asnumpy(x), ua.asnumpy(ua.sort(x)))
    np.testing.assert_array_equal(ua.asnumpy(x), big)   # the input is untouched


def test_sort_0d():
    # dpctl.tensor's answer: a 0-d copy, and index 0
    x = ua.asarray(2.5)
    s, i = ua.sort(x), ua.argsort(x, descending=True)
    assert s.shape == () and float(s) == 2.5 and s._alloc is not x._alloc
    assert i.shape == () and i.dtype == ua.int64 and int(i) == 0
    assert ua.sort(x, axis=0).shape == ()
    with pytest.raises(np.exceptions.AxisError):
        ua.sort(x, axis=1)


def test_sort_errors():
    with pytest.raises(IndexError):
        ua.sort(ua.ones((2, 3)), axis=2)
    with pytest.raises(TypeError):
        ua.argsort(np.ones(3))


# ---------------------------------------------------------------- radix sort
# Rows of 256 items or more of real types take the LSD radix sort; its CPU
# form (one work-item per block) and generic form (work-groups of 32 with a
# shared digit table) both run here, through the engine flag kc.simd.
@pytest.fixture(params=["cpu", "generic"])
def variant(request):
    kc = ua.asarray([0])._q.kc
    saved = kc.simd
    kc.simd = saved and request.param == "cpu"
    yield request.param
    kc.simd = saved


REAL = [d for d in SUPPORTED if np.dtype(d).kind != "c"]


def _wide(n, dtype, seed=0):
    """Values over the dtype's whole range (every digit of the key varies)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
    h = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(dt)
    h[rng.integers(0, n, n // 50)] = np.nan
    h[rng.integers(0, n, n // 50)] = -np.nan
    h[rng.integers(0, n, n // 50)] = 0.0
    h[rng.integers(0, n, n // 50)] = -0.0
    h[rng.integers(0, n, n // 100)] = np.inf
    h[rng.integers(0, n, n // 100)] = -np.inf
    return h


def _check_sorts(h, axis=-1, x=None):
    x = ua.asarray(h) if x is None else x
    for desc in (False, True):
        exp = np.sort(h, axis=axis)
        if desc:
            exp = np.flip(exp, axis=axis)
        s = ua.sort(x, axis=axis, descending=desc)
        assert s.dtype == x.dtype and s.shape == h.shape
        np.testing.assert_array_equal(ua.asnumpy(s), exp)
        i = ua.argsort(x, axis=axis, descending=desc)
        np.testing.assert_array_equal(ua.asnumpy(i), _np_argsort(h, axis, desc))


# (8193 to 32769: around where one row of 4- and 8-byte keys leaves the
# one-work-item form for the leading pass and segments, sort or argsort)
@pytest.mark.parametrize("n", [256, 257, 2049, 4097, 8193, 9000, 16384, 16385, 32768, 32769])
@pytest.mark.parametrize("dt", REAL, ids=lambda d: d.name)
def test_radix_dtypes_sizes(variant, dt, n):
    _check_sorts(_wide(n, dt, seed=n))
    _check_sorts(_ties((n,), dt, seed=n))     # stability with many equal keys


@pytest.mark.parametrize("shape", [(2, 2000), (7, 1500), (3, 9000), (2, 20000)])
@pytest.mark.parametrize("dt", [ua.int16, ua.int32, ua.float32, ua.int64, ua.uint64, ua.float64],
                         ids=lambda d: d.name)
def test_radix_few_rows(variant, dt, shape):
    # 2 to 7 rows: a work-item per row up to the one-row limits of the key
    # size, the leading pass and segments over all rows past them
    if dt not in SUPPORTED:
        pytest.skip("no device support")
    h = _wide(shape[0] * shape[1], dt, seed=shape[1]).reshape(shape)
    _check_sorts(h)
    _check_sorts(_ties(shape, dt, seed=shape[0]))


@pytest.mark.parametrize("dt", [ua.float16, ua.float32, ua.float64], ids=lambda d: d.name)
def test_radix_special_floats(variant, dt):
    if dt not in SUPPORTED:
        pytest.skip("no device support")
    base = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1.0, -1.0,
                     np.finfo(dt).max, -np.finfo(dt).max, np.finfo(dt).tiny, -np.finfo(dt).tiny], dt)
    h = np.tile(base, 40)
    _check_sorts(h)
    s = ua.asnumpy(ua.sort(ua.asarray(h)))
    zeros = s[s == 0]
    # sort puts -0.0 before +0.0 (argsort keeps them in input order, as above)
    assert np.all(np.signbit(zeros[:40])) and not np.any(np.signbit(zeros[40:]))
    assert np.all(np.isnan(s[-80:])) and not np.any(np.isnan(s[:-80]))
    d = ua.asnumpy(ua.sort(ua.asarray(h), descending=True))
    assert np.all(np.isnan(d[:80]))


@pytest.mark.parametrize("dt", [ua.int32, ua.uint64, ua.float32], ids=lambda d: d.name)
def test_radix_skipped_passes(variant, dt):
    n = 3000
    const = np.full(n, 7, dt)                                  # every pass skipped
    _check_sorts(const)
    h = np.arange(n).astype(dt)[::-1].copy()
    _check_sorts(h)
    if np.dtype(dt).kind in "iu":
        hi = ((np.arange(n) % 3) << (8 * np.dtype(dt).itemsize - 8)).astype(dt)  # top byte only
        _check_sorts(hi)
        ext = np.array([np.iinfo(dt).min, np.iinfo(dt).max, 0, 1] * 100, dt)
        _check_sorts(ext)


@pytest.mark.parametrize("shape, axis", [((3, 700), 1), ((700, 3), 0), ((2, 300, 5), 1),
                                         ((40, 260), -1), ((1, 5000), 1), ((9, 70), 1),
                                         ((100, 9), 0)])
@pytest.mark.parametrize("dt", [ua.int16, ua.float32, ua.int64], ids=lambda d: d.name)
def test_radix_rows_and_axes(variant, dt, shape, axis):
    _check_sorts(_ties(shape, dt, seed=3), axis=axis)
    _check_sorts(_wide(int(np.prod(shape)), dt, seed=4).reshape(shape), axis=axis)


def test_radix_strided_views(variant):
    h = _wide(4 * 900, np.float32, seed=5).reshape(4, 900)
    x = ua.asarray(h)
    _check_sorts(h[::-2, ::-1], x=x[::-2, ::-1])
    _check_sorts(h[1:, 3::2], axis=1, x=x[1:, 3::2])
    _check_sorts(h.T[::-1], axis=0, x=x.T[::-1])


@pytest.mark.parametrize("shape", [(32768 * 8,), (32768 * 8 + 1,), (2, 32768 * 3 - 1), (5, 40001)])
@pytest.mark.parametrize("dt", [ua.int32, ua.uint16, ua.float32, ua.int64, ua.float64],
                         ids=lambda d: d.name)
def test_radix_many_tiles_and_determinism(variant, dt, shape):
    # rows long enough for many tiles and count chunks (the look-back
    # between a row's tiles, rows of their own); two runs are bit-identical
    n = int(np.prod(shape))
    h = _wide(n, dt, seed=7).reshape(shape)
    _check_sorts(h)
    _check_sorts(_ties(shape, dt, seed=8))
    x = ua.asarray(h)
    for f in (ua.sort, ua.argsort):
        a, b = ua.asnumpy(f(x, descending=True)), ua.asnumpy(f(x, descending=True))
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dt", [ua.float16, ua.float32, ua.float64], ids=lambda d: d.name)
@pytest.mark.parametrize("n", [300001, 3001])
def test_radix_float_keys_bits_kept(variant, dt, n):
    # long rows (the blocked passes) and rows of one work-item (float32: by
    # wide digits): without NaNs the CPU form maps the keys once and maps
    # them back at the end; with NaNs every NaN keeps its bits
    if dt not in SUPPORTED:
        pytest.skip("no device support")
    rng = np.random.default_rng(11)
    h = (rng.standard_normal(n) * 100).astype(dt)
    h[::5] = -0.0
    h[1::7] = np.inf
    h[2::11] = -np.inf
    h[3::13] = np.finfo(dt).tiny / 4          # subnormals
    s = ua.asnumpy(ua.sort(ua.asarray(h)))
    exp = np.sort(h)
    np.testing.assert_array_equal(s, exp)
    assert np.signbit(s[s == 0]).all() and np.signbit(exp[exp == 0]).all()
    d = ua.asnumpy(ua.sort(ua.asarray(h), descending=True))
    np.testing.assert_array_equal(d, exp[::-1])
    u = np.dtype(f"u{np.dtype(dt).itemsize}")
    h[4::17] = np.nan
    h[6::19] = -np.nan
    s = ua.asnumpy(ua.sort(ua.asarray(h)))
    np.testing.assert_array_equal(s, np.sort(h))
    np.testing.assert_array_equal(np.sort(s.view(u)), np.sort(h.view(u)))


@pytest.mark.parametrize("dt", [ua.int16, ua.uint32, ua.int64, ua.float32, ua.float64],
                         ids=lambda d: d.name)
@pytest.mark.parametrize("case", ["uniform", "nan", "narrow", "mixed", "repeats", "skewed"])
@pytest.mark.parametrize("n", [2**18 + 3001, 20000])
def test_radix_leading_digit_segments(variant, dt, case, n):
    # rows past 2^18 keys (past 8192 to 32768 for 4- and 8-byte keys, sort
    # or argsort) on the CPU form: a pass by the leading digit, then
    # segments sorted in the cache (mapped floats without NaNs, keys as read
    # with them); a skewed leading digit takes buckets by a table of 18-bit
    # prefixes from a sample (mixed; repeats: a fifth of the keys one value,
    # so that splitters repeat), or the passes over memory (skewed)
    if dt not in SUPPORTED:
        pytest.skip("no device support")
    rng = np.random.default_rng(12)
    if np.dtype(dt).kind == "f":
        h = rng.random(n).astype(dt)                      # [0, 1): the top bits constant
        if case == "nan":
            h[::97] = np.nan
            h[5::89] = -np.nan
        elif case == "narrow":
            h = (h * 1e-3 + 7).astype(dt)
        elif case in ("mixed", "repeats"):
            h = (rng.standard_normal(n) * 3).astype(dt)   # both signs, a few exponents
            h[::101] = -0.0
            if case == "repeats":
                h[::5] = 1.5
        elif case == "skewed":
            h[: n * 3 // 4] = 0.25                        # most keys one value
    else:
        info = np.iinfo(dt)
        h = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        if case == "nan":
            h = (h % 1000).astype(dt)                     # low bytes only
        elif case == "narrow":
            h = (h >> 3).astype(dt)                       # the top bits constant
        elif case in ("mixed", "repeats"):
            z = rng.standard_normal(n) * (float(info.max) - float(info.min)) / 16
            h = (z + (0 if info.min else float(info.max) / 2)).astype(dt)  # around the middle
            if case == "repeats":
                h[::5] = h[7]
        elif case == "skewed":
            h[: n * 3 // 4] = 5
    _check_sorts(h)
    _check_sorts(np.stack([h, h[::-1]]), axis=1)          # two rows
    if np.dtype(dt).kind == "f":
        u = np.dtype(f"u{np.dtype(dt).itemsize}")
        s = ua.asnumpy(ua.sort(ua.asarray(h)))
        np.testing.assert_array_equal(np.sort(s.view(u)), np.sort(h.view(u)))   # bits kept


@pytest.mark.parametrize("dt", [ua.int64, ua.uint64, ua.float64], ids=lambda d: d.name)
def test_radix_segments_of_wide_keys(variant, dt):
    # 8-byte keys that vary in most of their bits: a segment is split by the
    # top digit of its range, its few large buckets sorted by their lower
    # bits, then one insertion pass; segments of more than 16384 keys are
    # split by 8 bits first (12 values of the top byte: segments of ~22000)
    rng = np.random.default_rng(21)
    n = 2**18 + 5003
    top = (rng.integers(0, 12, n) * 20).astype(np.uint64) << np.uint64(56)
    h = top | rng.integers(0, 2**56, n, dtype=np.uint64)
    # clusters: keys of one bucket's top bits differing only in their low bits
    for k in range(40):
        at = rng.integers(0, n - 300)
        h[at:at + 300] = (h[at] & ~np.uint64(2**20 - 1)) | rng.integers(0, 2**20, 300, dtype=np.uint64)
    h[7::1000] = h[3]                                     # equal keys
    if dt != ua.uint64:
        h = h.view(np.dtype(dt))                          # both signs (no NaN: no top byte 0x7f, 0xff)
    _check_sorts(h.astype(dt))


@pytest.mark.parametrize("dt", [ua.int32, ua.int64, ua.uint32, ua.float32, ua.float64], ids=lambda d: d.name)
@pytest.mark.parametrize("share", [0.2, 0.55, 0.99, 1.0])
def test_radix_dominant_key(variant, dt, share):
    # one key making much of the row (sparse data's zeros, a clipped bound):
    # one row is split by it first (radix_split, from 30% of the sample),
    # then the keys before and after it sorted; in the segments (two rows,
    # or a smaller share) a long segment that the key makes most of is split
    # the same way, instead of the passes over memory
    if dt not in SUPPORTED:
        pytest.skip("no device support")
    rng = np.random.default_rng(31)
    n = 2**18 + 777
    h = _wide(n, dt, seed=5)
    key = np.sort(h)[n // 3]                              # keys on both sides of it
    h[rng.random(n) < share] = key
    _check_sorts(h)
    _check_sorts(np.stack([h, h[::-1]]), axis=1)
    if np.dtype(dt).kind == "f":
        # a NaN of one payload making most of the keys, NaNs of others among
        # them: every NaN keeps its bits, the numbers sort before them
        u = np.dtype(f"u{np.dtype(dt).itemsize}")
        h[rng.random(n) < share] = np.nan
        g = h.view(u)
        g[5::1001] |= 1                                   # another payload
        s = ua.asnumpy(ua.sort(ua.asarray(h)))
        np.testing.assert_array_equal(s, np.sort(h))
        np.testing.assert_array_equal(np.sort(s.view(u)), np.sort(h.view(u)))


@pytest.mark.parametrize("dt", [ua.int16, ua.int32, ua.int64, ua.uint32], ids=lambda d: d.name)
@pytest.mark.parametrize("lo, hi", [(-1000, 1000), (-3, 2), (2**14 - 50, 2**14 + 50)])
def test_radix_keys_less_the_smallest(variant, dt, lo, hi):
    # keys that span fewer bytes than the bits that vary (signed integers of
    # both signs near zero): the digits of the keys less the smallest, through
    # the segments, the passes over memory and radix_rows
    if np.dtype(dt).kind == "u" and lo < 0:
        pytest.skip("unsigned")
    rng = np.random.default_rng(13)
    n = 2**18 + 4099
    h = rng.integers(lo, hi, n).astype(dt)
    _check_sorts(h)
    _check_sorts(h[:5000])                                # radix_rows: one row
    _check_sorts(h[: 9 * 3000].reshape(9, 3000))          # radix_rows: rows
    h[: n * 3 // 4] = lo                                  # the leading digit skewed
    _check_sorts(h)


@pytest.mark.parametrize("dt", [ua.uint8, ua.int32, ua.float32, ua.float64], ids=lambda d: d.name)
def test_radix_rows_skip_passes_per_row(variant, dt):
    # the CPU's radix_rows skips, row by row, the passes whose digit all of
    # the row's keys share: rows with every pass, none, or only some
    h = _wide(12 * 300, dt, seed=9).reshape(12, 300)
    h[0] = h[0, 0]
    h[5] = h[5, 7]
    if np.dtype(dt).kind in "iu" and np.dtype(dt).itemsize > 1:
        h[3] = (np.arange(300) % 4) << (8 * np.dtype(dt).itemsize - 8)   # the top digit only
        h[7] = np.arange(300)[::-1] % 200                                   # the lowest only
    _check_sorts(h)
    _check_sorts(h[:1])   # one row


def test_sort_many_short_rows_and_empty(variant):
    h = _ties((3000, 7), np.int32, seed=6)
    _check_sorts(h)
    _check_sorts(h, axis=0)
    for shape in [(0,), (1,), (0, 300), (300, 0), (5, 1)]:
        h = np.zeros(shape, np.float32)
        _check_sorts(h)
        _check_sorts(h, axis=0)


@pytest.mark.parametrize("n", [33, 40, 63, 64, 65, 100, 128, 255, 256, 700, 1023, 1024, 1025])
@pytest.mark.parametrize("dt", REAL, ids=lambda d: d.name)
def test_vector_network_rows(variant, dt, n):
    # rows of 33 to 1024 keys: on CPU devices sort_cols sorts 16 (8) rows at
    # once and a work-item per row argsorts the row in explicit vectors
    # (sort_vec); else the radix sort or the merges
    rows = max(2, 6000 // n)
    h = _wide(rows * n, dt, seed=n).reshape(rows, n)
    _check_sorts(h)
    _check_sorts(_ties((rows, n), dt, seed=n))
    if np.dtype(dt).kind == "f":
        # values are written as read (NaN signs and payloads)
        u = np.dtype(f"u{np.dtype(dt).itemsize}")
        h[:, ::7] = np.array(-np.nan, dtype=dt)
        for desc in (False, True):
            s = ua.asnumpy(ua.sort(ua.asarray(h), descending=desc))
            np.testing.assert_array_equal(np.sort(s.view(u), axis=1), np.sort(h.view(u), axis=1))


@pytest.mark.parametrize("dt, lo, hi", [(np.int64, -2**63, 2**63 - 1), (np.int64, 0, 2**50),
                                        (np.int64, 0, 2**40), (np.uint32, 0, 2**32 - 1),
                                        (np.int32, -2**20, 2**20), (np.uint32, 0, 2**13)])
def test_radix_segments_wide_digits(variant, dt, lo, hi):
    # one long row on CPU devices: segments of one leading digit sorted by
    # ceil(bits / 12) passes of digits up to 12 bits wide, the bits being
    # those that vary in the segment (all digits counted at once, or before
    # each pass when their counts exceed 32 KB: 45-48 or 53-64 bits)
    h = np.random.default_rng(hi % 1000).integers(lo, hi, 300001, dtype=dt, endpoint=True)
    h[::1000] = hi
    x = ua.asarray(h)
    for desc in (False, True):
        exp = np.sort(h)
        np.testing.assert_array_equal(ua.asnumpy(ua.sort(x, descending=desc)),
                                      exp[::-1] if desc else exp)


def _check_row_sorts(x, h, nan_rows):
    """Both sorts of x's rows against NumPy's of h's; in the first `nan_rows`
    rows with NaNs, the NaNs' bits in row order."""
    for desc in (False, True):
        exp = np.sort(h, axis=1)
        if desc:
            exp = np.flip(exp, axis=1)
        s = ua.asnumpy(ua.sort(x, descending=desc))
        np.testing.assert_array_equal(s, exp)
        if h.dtype.kind != "f":
            continue
        u = np.dtype(f"u{h.dtype.itemsize}")
        nan = np.isnan(h)
        for r in np.flatnonzero(nan.any(axis=1))[:nan_rows]:
            np.testing.assert_array_equal(s[r].view(u)[np.isnan(s[r])], h[r].view(u)[nan[r]])


@pytest.mark.parametrize("rows", [1, 3, 8, 15, 16, 17, 35])
@pytest.mark.parametrize("n", [2, 5, 12, 100])
@pytest.mark.parametrize("dt", [ua.uint8, ua.int16, ua.float16, ua.float32, ua.int64, ua.float64],
                         ids=lambda d: d.name)
def test_column_network_groups(variant, dt, n, rows):
    # sort on CPU devices (sort_cols): 16 rows (8 of 8-byte keys) per step,
    # the last group padded with copies of the last row, a row's last keys
    # read together with the next row's (not past the array's end); in rows
    # with NaNs the NaNs keep their bits and row order
    h = _wide(rows * n, dt, seed=rows * n).reshape(rows, n)
    _check_row_sorts(ua.asarray(h), h, rows)
    # the rows of a view that ends before its buffer does
    big = _wide((rows + 1) * n, dt, seed=n).reshape(rows + 1, n)
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(ua.asarray(big)[:rows])),
                                  np.sort(big[:rows], axis=1))


@pytest.mark.parametrize("dt, n", [(ua.uint8, 32), (ua.uint8, 33), (ua.int16, 100), (ua.float32, 31),
                                   (ua.float32, 33), (ua.float32, 256), (ua.float32, 257),
                                   (ua.int64, 100), (ua.float64, 40)],
                         ids=lambda v: getattr(v, "name", str(v)))
def test_column_network_staged_groups(variant, dt, n):
    # results of 4 MB and more in rows of 32 to 256 keys: each group of rows
    # is copied into private memory and back with streaming stores (n = 31
    # and 257 are not; uint8 rows of 33 put every other group's result off
    # the 64-byte alignment streaming needs); a last group of fewer rows; a
    # source view starting a row in; NaNs keep their bits and row order
    item = np.dtype(dt).itemsize
    rows = -(-(4 << 20) // (n * item)) + 5
    h = _wide((rows + 1) * n, dt, seed=n).reshape(rows + 1, n)
    whole = ua.asarray(h)
    _check_row_sorts(whole[:rows], h[:rows], 200)
    _check_row_sorts(whole[1:], h[1:], 200)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33])
@pytest.mark.parametrize("dt", REAL, ids=lambda d: d.name)
def test_sorting_network_rows(variant, dt, n):
    # rows of up to 32 keys take a sorting network per row (8, 16 and 32
    # wide, padded): special floats, many equal keys (stability), both orders
    _check_sorts(_wide(60 * n, dt, seed=n).reshape(60, n))
    _check_sorts(_ties((60, n), dt, seed=n))
    _check_sorts(_ties((n, 45), dt, seed=n), axis=0)


def test_sorts_in_flight_on_two_queues_keep_their_tables():
    # skewed float keys take a bucket table the host fills in a pooled block:
    # it must wait for the block's last use, the table of a sort still running
    # on another queue (wrong results in 10-19 of 20 pairs before)
    ctx, dev = ua.get_default_queue().sycl_context, ua.get_default_queue().sycl_device
    q1 = dpctl.SyclQueue(ctx, dev, property="in_order")
    q2 = dpctl.SyclQueue(ctx, dev, property="in_order")
    rng = np.random.default_rng(0)
    for _ in range(6):
        h1 = rng.standard_normal(200_000).astype(np.float32)
        h2 = (rng.standard_normal(200_000) * 64.0).astype(np.float32)
        y1 = ua.sort(ua.asarray(h1, sycl_queue=q1))
        y2 = ua.sort(ua.asarray(h2, sycl_queue=q2))
        np.testing.assert_array_equal(ua.asnumpy(y1), np.sort(h1))
        np.testing.assert_array_equal(ua.asnumpy(y2), np.sort(h2))
