"""usmarray.fft against numpy.fft: every function, dtypes, n/s (trimmed and
zero-padded), axes (negative, non-trailing, unordered, repeated, more than
one descriptor holds), norm modes, odd and prime lengths, batches, views
(strided, transposed, reversed, broadcast), empty and length-1 edge cases,
errors, and the descriptor cache."""

import threading

import dpctl
import numpy as np
import pytest

import usmarray as ua
from usmarray._core import _engine
from conftest import sample

NORMS = ["backward", "ortho", "forward"]
EPS = {np.dtype("complex64"): np.finfo(np.float32).eps, np.dtype("float32"): np.finfo(np.float32).eps,
       np.dtype("complex128"): np.finfo(np.float64).eps, np.dtype("float64"): np.finfo(np.float64).eps}


def check(got, expected):
    """`got` has numpy's dtype and shape and equals `expected` (computed in
    double precision from the same input) within an FFT's rounding error."""
    assert isinstance(got, ua.usm_ndarray)
    g = ua.asnumpy(got)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    eps = EPS[g.dtype]
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    n = max(expected.size, 2)
    err = float(np.abs(g - expected).max()) if expected.size else 0.0
    assert err <= 8 * eps * np.log2(n) * scale, (err, scale)


def wide(h):
    """`h` in double precision: the oracle's input."""
    return h.astype(np.complex128 if h.dtype.kind == "c" else np.float64)


def complex_sample(shape, dtype, seed=0):
    return sample(shape, dtype, seed)


# ------------------------------------------------------------------ fft / ifft
@pytest.mark.parametrize("dtype", [ua.complex64, ua.complex128], ids=lambda d: d.name)
@pytest.mark.parametrize("fn", ["fft", "ifft"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n, axis", [(None, -1), (None, 0), (None, 1), (5, -1), (17, -1),
                                     (3, 0), (9, -3), (1, 1)])
def test_fft_ifft(dtype, fn, norm, n, axis):
    h = complex_sample((4, 6, 11), dtype)
    got = getattr(ua.fft, fn)(ua.asarray(h), n=n, axis=axis, norm=norm)
    assert got.dtype == dtype
    check(got, getattr(np.fft, fn)(wide(h), n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("dtype, ctype", [(ua.float32, ua.complex64), (ua.float64, ua.complex128)],
                         ids=["float32", "float64"])
def test_fft_real_input_is_promoted(dtype, ctype):
    h = sample((3, 10), dtype)
    for fn in ("fft", "ifft", "fftn", "ifftn"):
        got = getattr(ua.fft, fn)(ua.asarray(h))
        assert got.dtype == ctype
        check(got, getattr(np.fft, fn)(wide(h)))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 16, 97, 243, 1009, 4096, 30030])
def test_fft_lengths(n):
    """Any length: powers of two, mixed radices, primes (Bluestein)."""
    h = complex_sample((n,), np.complex64, n)
    x = ua.asarray(h)
    check(ua.fft.fft(x), np.fft.fft(wide(h)))
    check(ua.fft.ifft(x), np.fft.ifft(wide(h)))
    r = sample((n,), np.float64, n)
    check(ua.fft.rfft(ua.asarray(r)), np.fft.rfft(r))
    check(ua.fft.irfft(ua.asarray(h), n=n), np.fft.irfft(wide(h), n=n))


def test_round_trip_large():
    h = complex_sample((1 << 16,), np.complex128)
    x = ua.asarray(h)
    y = ua.fft.ifft(ua.fft.fft(x))
    assert np.allclose(ua.asnumpy(y), h, rtol=0, atol=1e-12)


@pytest.mark.parametrize("shape, axis", [((64, 128), -1), ((64, 128), 0), ((3, 5, 7, 9), 1),
                                         ((2, 1, 8), 1), ((1, 1, 33), -1), ((200, 3), 0)])
def test_batched(shape, axis):
    h = complex_sample(shape, np.complex64)
    check(ua.fft.fft(ua.asarray(h), axis=axis), np.fft.fft(wide(h), axis=axis))
    r = sample(shape, np.float32)
    check(ua.fft.rfft(ua.asarray(r), axis=axis), np.fft.rfft(wide(r), axis=axis))


VIEWS = {   # view(a, xp) for a (12, 10) array of namespace xp
    "strided": lambda a, xp: a[::2, 1::3],
    "transposed": lambda a, xp: a.T,
    "reversed": lambda a, xp: a[::-1, ::-1],
    "reversed-rows": lambda a, xp: a[:, ::-2],
    "offset": lambda a, xp: a[1:, 2:],
    "permuted-3d": lambda a, xp: xp.permute_dims(xp.reshape(a, (4, 6, 5)), (1, 2, 0))[:, ::2],
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("axis", [0, -1])
def test_views(view, axis):
    h = complex_sample((12, 10), np.complex64)
    r = sample((12, 10), np.float32)
    x, y = VIEWS[view](ua.asarray(h), ua), VIEWS[view](ua.asarray(r), ua)
    hv, rv = VIEWS[view](h, np), VIEWS[view](r, np)
    check(ua.fft.fft(x, axis=axis), np.fft.fft(wide(hv), axis=axis))
    check(ua.fft.ifftn(x), np.fft.ifftn(wide(hv)))
    check(ua.fft.rfft(y, axis=axis), np.fft.rfft(wide(rv), axis=axis))
    check(ua.fft.irfft(x, axis=axis), np.fft.irfft(wide(hv), axis=axis))
    check(ua.fft.rfftn(y), np.fft.rfftn(wide(rv)))
    check(ua.fft.irfftn(x), np.fft.irfftn(wide(hv)))


def test_broadcast_input():
    h = complex_sample((1, 16), np.complex64)
    x = ua.broadcast_to(ua.asarray(h), (5, 16))
    check(ua.fft.fft(x), np.fft.fft(np.broadcast_to(wide(h), (5, 16))))
    check(ua.fft.fft(x, axis=0), np.fft.fft(np.broadcast_to(wide(h), (5, 16)), axis=0))


def test_inputs_are_not_modified():
    h = complex_sample((6, 9, 8), np.complex64)
    x = ua.asarray(h)
    for f in (lambda: ua.fft.fft(x), lambda: ua.fft.fftn(x), lambda: ua.fft.irfftn(x),
              lambda: ua.fft.irfft(x), lambda: ua.fft.hfft(x), lambda: ua.fft.irfftn(x, axes=(0, 2, 1)),
              lambda: ua.fft.ifftn(x, s=(4, 4, 4, 4), axes=(0, 1, 2, 0))):
        f()
        assert np.array_equal(ua.asnumpy(x), h)


# ------------------------------------------------------------------ fftn / ifftn
S_AXES = [
    (None, None), (None, (0, 2)), (None, (-1, -3)), (None, (2, 0)), (None, (1,)), ((4, 3), (0, 2)),
    ((9, 13), (-1, 0)), ((-1, 5, 2), (0, 1, 2)), (None, (0, 1, 0)), ((3, 5, 2), (2, 2, 0)), (None, ()),
]


@pytest.mark.parametrize("dtype", [ua.complex64, ua.complex128], ids=lambda d: d.name)
@pytest.mark.parametrize("fn", ["fftn", "ifftn"])
@pytest.mark.parametrize("s, axes", S_AXES)
@pytest.mark.parametrize("norm", NORMS)
def test_fftn(dtype, fn, s, axes, norm):
    h = complex_sample((6, 4, 7), dtype)
    got = getattr(ua.fft, fn)(ua.asarray(h), s=s, axes=axes, norm=norm)
    assert got.dtype == dtype
    check(got, getattr(np.fft, fn)(wide(h), s=s, axes=axes, norm=norm))


@pytest.mark.parametrize("axes", [None, (0, 1, 2, 3), (3, 1, 0, 2), (0, 1, 2, 3, 4)])
def test_fftn_more_axes_than_one_descriptor(axes):
    shape = (3, 4, 5, 6) if axes is None or len(axes) == 4 else (2, 3, 4, 2, 5)
    h = complex_sample(shape, np.complex128)
    for fn in ("fftn", "ifftn"):
        check(getattr(ua.fft, fn)(ua.asarray(h), axes=axes, norm="ortho"),
              getattr(np.fft, fn)(h, axes=axes, norm="ortho"))
    r = sample(shape, np.float64)
    check(ua.fft.rfftn(ua.asarray(r), axes=axes), np.fft.rfftn(r, axes=axes))
    c = np.fft.rfftn(r, axes=axes)
    check(ua.fft.irfftn(ua.asarray(c), s=[r.shape[a] for a in (axes or range(r.ndim))], axes=axes),
          r)


def test_s_without_axes_follows_numpy():
    h = complex_sample((4, 6, 5), np.complex64)
    with pytest.warns(DeprecationWarning):
        expected = np.fft.fftn(wide(h), s=(3, 8))
    check(ua.fft.fftn(ua.asarray(h), s=(3, 8)), expected)


# ------------------------------------------------------------------ real transforms
@pytest.mark.parametrize("dtype", [ua.float32, ua.float64], ids=lambda d: d.name)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n, axis", [(None, -1), (None, 0), (7, -1), (20, -1), (6, 1), (1, -1),
                                     (2, 0)])
def test_rfft_ihfft(dtype, norm, n, axis):
    h = sample((5, 9, 10), dtype)
    for fn in ("rfft", "ihfft"):
        got = getattr(ua.fft, fn)(ua.asarray(h), n=n, axis=axis, norm=norm)
        assert got.dtype == (ua.complex64 if dtype == ua.float32 else ua.complex128)
        check(got, getattr(np.fft, fn)(wide(h), n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("dtype", [ua.complex64, ua.complex128], ids=lambda d: d.name)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n, axis", [(None, -1), (None, 0), (7, -1), (8, -1), (30, -1), (4, 1),
                                     (1, -1), (2, 0)])
def test_irfft_hfft(dtype, norm, n, axis):
    h = complex_sample((5, 9, 10), dtype)
    for fn in ("irfft", "hfft"):
        got = getattr(ua.fft, fn)(ua.asarray(h), n=n, axis=axis, norm=norm)
        assert got.dtype == (ua.float32 if dtype == ua.complex64 else ua.float64)
        check(got, getattr(np.fft, fn)(wide(h), n=n, axis=axis, norm=norm))


RS_AXES = [(None, None), (None, (0, 2)), (None, (2, 0)), (None, (-2,)), ((4, 6), (0, 1)),
           ((5, 9), (1, 2)), ((3, 5, 7), (0, 1, 2)), ((-1, 4), (2, 1)), (None, (0, 1, 0)),
           ((2, 7, 3, 4), (1, 0, 1, 2)), ((3, 5, 4, 6), (2, 0, 0, 1))]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s, axes", RS_AXES)
def test_rfftn_irfftn(norm, s, axes):
    r = sample((6, 5, 8), np.float32)
    check(ua.fft.rfftn(ua.asarray(r), s=s, axes=axes, norm=norm),
          np.fft.rfftn(wide(r), s=s, axes=axes, norm=norm))
    c = complex_sample((6, 5, 8), np.complex64)
    check(ua.fft.irfftn(ua.asarray(c), s=s, axes=axes, norm=norm),
          np.fft.irfftn(wide(c), s=s, axes=axes, norm=norm))


def test_real_round_trips():
    r = sample((7, 12, 9), np.float64)
    x = ua.asarray(r)
    assert np.allclose(ua.asnumpy(ua.fft.irfft(ua.fft.rfft(x), n=9)), r, atol=1e-12)
    assert np.allclose(ua.asnumpy(ua.fft.irfftn(ua.fft.rfftn(x), s=r.shape)), r, atol=1e-12)
    assert np.allclose(ua.asnumpy(ua.fft.hfft(ua.fft.ihfft(x), n=9)), r, atol=1e-12)


def test_irfft_ignores_imaginary_dc_and_nyquist():
    c = complex_sample((5,), np.complex128)   # c[0] and c[4] have imaginary parts
    check(ua.fft.irfft(ua.asarray(c)), np.fft.irfft(c))
    check(ua.fft.irfft(ua.asarray(c), n=9), np.fft.irfft(c, n=9))


# ------------------------------------------------------------------ edge cases
def test_empty_batches():
    for shape, axis in (((0, 8), -1), ((3, 0, 4), 0), ((0, 4), 0)):
        h = np.zeros(shape, np.complex64)
        x = ua.asarray(h)
        if h.shape[axis] == 0:
            with pytest.raises(ValueError):
                ua.fft.fft(x, axis=axis)
            got, exp = ua.fft.fft(x, n=3, axis=axis), np.fft.fft(h, n=3, axis=axis)
        else:
            got, exp = ua.fft.fft(x, axis=axis), np.fft.fft(h, axis=axis)
        assert got.shape == exp.shape and got.dtype == ua.complex64
        check(got, exp)
        assert ua.fft.rfft(ua.real(x), n=4, axis=axis).shape == np.fft.rfft(h.real, n=4, axis=axis).shape
        assert ua.fft.irfft(x, n=4, axis=axis).shape == np.fft.irfft(h, n=4, axis=axis).shape
    with pytest.raises(ValueError):   # as NumPy: a transform of no points
        ua.fft.fftn(ua.zeros((0, 3), dtype=ua.complex64))
    assert ua.fft.fftn(ua.zeros((0, 3), dtype=ua.complex64), axes=(1,)).shape == (0, 3)


def test_length_one():
    h = complex_sample((4, 1), np.complex64)
    x = ua.asarray(h)
    check(ua.fft.fft(x), np.fft.fft(wide(h)))
    check(ua.fft.irfft(x, n=1), np.fft.irfft(wide(h), n=1))
    check(ua.fft.rfft(ua.real(x)), np.fft.rfft(wide(h).real))
    with pytest.raises(ValueError):
        ua.fft.irfft(x)   # n = 2 * (1 - 1) = 0
    with pytest.raises(ValueError):
        ua.fft.hfft(x)


def test_zero_dimensional():
    x = ua.asarray(np.complex64(3 + 1j))
    assert ua.asnumpy(ua.fft.fftn(x)) == np.complex64(3 + 1j)
    with pytest.raises(IndexError):
        ua.fft.fft(x)


def test_result_placement():
    h = complex_sample((8,), np.complex64)
    for usm in ("device", "shared", "host"):
        x = ua.asarray(h, usm_type=usm)
        for fn in (ua.fft.fft, ua.fft.ifftn, ua.fft.irfft, ua.fft.hfft):
            y = fn(x)
            assert y.usm_type == usm and y.device == x.device
        assert ua.fft.rfft(ua.real(x)).usm_type == usm


# ------------------------------------------------------------------ errors
def test_errors():
    x = ua.asarray(complex_sample((4, 6), np.complex64))
    r = ua.asarray(sample((4, 6), np.float32))
    with pytest.raises(ValueError):
        ua.fft.fft(x, norm="none")
    with pytest.raises(ValueError):
        ua.fft.rfftn(r, norm="Ortho")
    for bad in (0, -2):
        with pytest.raises(ValueError):
            ua.fft.fft(x, n=bad)
        with pytest.raises(ValueError):
            ua.fft.irfft(x, n=bad)
        with pytest.raises(ValueError):
            ua.fft.fftn(x, s=(bad, 3), axes=(0, 1))
    with pytest.raises(TypeError):
        ua.fft.fft(x, n=2.5)
    with pytest.raises(IndexError):
        ua.fft.fft(x, axis=2)
    with pytest.raises(IndexError):
        ua.fft.fftn(x, axes=(0, -3))
    with pytest.raises(ValueError):
        ua.fft.fftn(x, s=(3,), axes=(0, 1))
    with pytest.raises(TypeError):
        ua.fft.fft(ua.arange(8))           # integers
    with pytest.raises(TypeError):
        ua.fft.fft(ua.ones(8, dtype=ua.bool))
    with pytest.raises(TypeError):
        ua.fft.rfft(x)                     # complex input to a real transform
    with pytest.raises(TypeError):
        ua.fft.ihfft(x)
    with pytest.raises(TypeError):
        ua.fft.fft(np.ones(8, np.complex64))
    with pytest.raises(ValueError):
        ua.fft.rfftn(r, axes=())
    with pytest.raises(ValueError):
        ua.fft.fftfreq(0)
    with pytest.raises(ValueError):
        ua.fft.fftfreq(4, d=0.0)
    with pytest.raises(TypeError):
        ua.fft.fftfreq(4, d=1j)
    with pytest.raises(ValueError):
        ua.fft.rfftfreq(4, dtype=ua.int32)
    with pytest.raises(ValueError):
        ua.fft.fftfreq(4, dtype=ua.complex64)


def test_float64_needs_fp64(monkeypatch):
    """On a device without fp64, float64/complex128 results are a clear
    ValueError (simulated: this CPU device has fp64)."""
    x = ua.asarray(sample((8,), np.float64))
    monkeypatch.setattr(x._q, "fp64", False)
    with pytest.raises(ValueError, match="fp64"):
        ua.fft.fft(x)
    with pytest.raises(ValueError, match="fp64"):
        ua.fft.rfft(x)
    with pytest.raises(ValueError, match="fp64"):
        ua.fft.fftfreq(8, dtype=ua.float64, device=x.device)


# ------------------------------------------------------------------ frequencies and shifts
@pytest.mark.parametrize("n", [1, 2, 7, 10])
@pytest.mark.parametrize("d", [1.0, 0.25, 3, np.float32(0.5)])
@pytest.mark.parametrize("dtype", [None, ua.float32, ua.float64], ids=str)
def test_fftfreq(n, d, dtype):
    for fn in ("fftfreq", "rfftfreq"):
        got = getattr(ua.fft, fn)(n, d=d, dtype=dtype)
        exp = getattr(np.fft, fn)(n, d=d)
        want = ua.__array_namespace_info__().default_dtypes()["real floating"] if dtype is None \
            else dtype
        assert got.dtype == want
        assert np.array_equal(ua.asnumpy(got), exp.astype(want))


def test_fftfreq_device():
    dev = ua.asarray([1.0]).device
    assert ua.fft.fftfreq(5, device=dev).device == dev
    assert ua.fft.rfftfreq(5, device=dev).device == dev


@pytest.mark.parametrize("axes", [None, 0, -1, (0, 1), (1,), [-1, 0]])
@pytest.mark.parametrize("shape", [(5, 8), (4, 7), (1, 3)])
def test_fftshift(axes, shape):
    h = sample(shape, np.float32)
    x = ua.asarray(h)
    for fn in ("fftshift", "ifftshift"):
        got = getattr(ua.fft, fn)(x, axes=axes)
        exp = getattr(np.fft, fn)(h, axes=axes)
        assert got.dtype == x.dtype
        assert np.array_equal(ua.asnumpy(got), exp)
    assert np.array_equal(ua.asnumpy(ua.fft.ifftshift(ua.fft.fftshift(x, axes=axes), axes=axes)), h)


# ------------------------------------------------------------------ descriptor cache
def test_descriptor_cache():
    ua.fft.fft(ua.ones(4, dtype=ua.complex64))   # oneMKL loaded
    entries, limit, hits, misses = _engine.fft_cache(-1)
    try:
        h = complex_sample((3, 50), np.complex64)
        x = ua.asarray(h)
        ua.fft.fft(x)
        _, _, hits1, misses1 = _engine.fft_cache(-1)
        for _ in range(3):
            check(ua.fft.fft(x), np.fft.fft(wide(h)))
        _, _, hits2, misses2 = _engine.fft_cache(-1)
        assert misses2 == misses1 and hits2 == hits1 + 3
        _engine.fft_cache(2)
        for n in (11, 12, 13, 14, 15):
            check(ua.fft.fft(x, n=n), np.fft.fft(wide(h), n=n))
        assert _engine.fft_cache(-1)[0] <= 2
        check(ua.fft.fft(x, n=11), np.fft.fft(wide(h), n=11))   # evicted: committed again
    finally:
        _engine.fft_cache(limit)
    assert _engine.fft_cache(-1)[1] == limit


def test_threads():
    """Transforms from several threads (the cache is shared and locked)."""
    errors = []

    def work(seed):
        try:
            for k in range(5):
                n = 16 + seed * 7 + k
                h = complex_sample((4, n), np.complex64, seed)
                check(ua.fft.fft(ua.asarray(h)), np.fft.fft(wide(h)))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_capabilities_list_fft():
    assert "fft" in ua.__array_namespace_info__().capabilities()["extensions"]


def test_out_of_order_queue():
    """Transforms are ordered by events with the commands around them."""
    q = dpctl.SyclQueue(ua.get_default_queue().sycl_device)   # out of order
    assert not q.is_in_order
    h = complex_sample((64, 300), np.complex64)
    x = ua.asarray(h, sycl_queue=q)
    z = ua.fft.ifftn(ua.fft.fftn(x * 2, axes=(0, 1)), axes=(0, 1)) + 1
    assert np.allclose(ua.asnumpy(z), 2 * h + 1, atol=1e-4)
    r = ua.fft.irfftn(ua.fft.rfftn(ua.real(x), axes=(1, 0)), s=(300, 64), axes=(1, 0))
    assert np.allclose(ua.asnumpy(r), h.real, atol=1e-4)
