"""packbits and unpackbits (usmarray/bitpacking.py) against NumPy: every
integer and bool dtype, every axis and None, both bit orders, counts that
keep, pad and drop bits, odd layouts, 0-size inputs, NumPy's dispatch
(``np.packbits(usm_ndarray)``) and the errors NumPy raises."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, refused_like_numpy

INTS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
INEXACT = ["float32", "complex64"] + (["float16"] if device_supports(ua.float16) else []) + \
    (["float64", "complex128"] if device_supports(ua.float64) else [])
SHAPES = [(13,), (3, 5), (2, 3, 9), (3, 8), (1,), (0,), (2, 0, 3)]


def _data(shape, dt, seed=0):
    """Zeros and nonzeros (negatives and large values too: any nonzero is a 1 bit)."""
    rng = np.random.default_rng(seed)
    if dt == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    v = rng.integers(0, 3, shape) * rng.choice([1, -1, 77, 2**40], shape)
    return v.astype(dt) if np.dtype(dt).kind == "i" or dt == "int64" else \
        np.where(v != 0, 1 + np.abs(v) % 250, 0).astype(dt)


def _axes(nd):
    return [None] + list(range(-nd, nd))


@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_packbits(dt, shape):
    h = _data(shape, dt)
    x = ua.asarray(h)
    for axis in _axes(len(shape)):
        for bo in ("big", "little"):
            expected = np.packbits(h, axis=axis, bitorder=bo)
            check(ua.packbits(x, axis=axis, bitorder=bo), expected, what=(axis, bo))
            check(np.packbits(x, axis=axis, bitorder=bo), expected, what=("np", axis, bo))
    check(ua.packbits(x), np.packbits(h), what="defaults")


def test_packbits_layouts():
    h = _data((6, 10), "int16", seed=3)
    x = ua.asarray(h)
    for key in [(slice(None, None, -1), slice(None, None, -2)), (slice(1, None, 2),),
                (Ellipsis, slice(None, None, -3))]:
        for axis in (None, 0, 1):
            check(ua.packbits(x[key], axis=axis), np.packbits(h[key], axis=axis), what=(key, axis))
    check(ua.packbits(x.T, axis=1, bitorder="little"), np.packbits(h.T, axis=1, bitorder="little"))
    # the byte boundary exactly and one past it
    for n in (7, 8, 9, 16, 17):
        b = _data((n,), "bool", seed=n)
        check(ua.packbits(ua.asarray(b)), np.packbits(b), what=n)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 2), (0,), (2, 0)], ids=str)
def test_unpackbits(shape):
    rng = np.random.default_rng(1)
    h = rng.integers(0, 256, shape, endpoint=False).astype(np.uint8)
    h.flat[:1] = 255
    x = ua.asarray(h)
    for axis in _axes(len(shape)):
        for bo in ("big", "little"):
            n = h.size * 8 if axis is None else h.shape[axis] * 8
            # (positive counts of an empty input: see the test below)
            counts = [None, 0, 3, 8, n, -1, -5, -n, n + 5] if h.size else [None, 0]
            for count in counts:
                expected = np.unpackbits(h, axis=axis, count=count, bitorder=bo)
                what = (axis, bo, count)
                check(ua.unpackbits(x, axis=axis, count=count, bitorder=bo), expected, what=what)
                check(np.unpackbits(x, axis=axis, count=count, bitorder=bo), expected,
                      what=("np",) + what)


def test_unpackbits_count_past_the_end_of_empty_input():
    """(NumPy's unpackbits leaves the padding of an empty input uninitialised:
    usmarray's is zeros.)"""
    got = ua.unpackbits(ua.empty((0,), dtype=ua.uint8), count=10)
    check(got, np.zeros(10, np.uint8))
    got = ua.unpackbits(ua.empty((2, 0), dtype=ua.uint8), axis=1, count=3)
    check(got, np.zeros((2, 3), np.uint8))


def test_unpackbits_layouts_and_roundtrip():
    rng = np.random.default_rng(2)
    h = rng.integers(0, 256, (5, 6)).astype(np.uint8)
    x = ua.asarray(h)
    for key in [(slice(None, None, -1), slice(None, None, -2)), (slice(None), 3),
                (Ellipsis, slice(1, None, 4))]:
        for axis in (None, 0, -1):
            if axis is not None and axis >= h[key].ndim:
                continue
            check(ua.unpackbits(x[key], axis=axis, count=-3),
                  np.unpackbits(h[key], axis=axis, count=-3), what=(key, axis))
    check(ua.unpackbits(x.T, axis=0, bitorder="little"),
          np.unpackbits(h.T, axis=0, bitorder="little"))
    for bo in ("big", "little"):
        bits = ua.unpackbits(x, axis=1, bitorder=bo)
        check(ua.packbits(bits, axis=1, bitorder=bo), h, what=bo)
    check(ua.unpackbits(x, count=np.int64(11)), np.unpackbits(h, count=np.int64(11)))


def test_pack_unpack_0d():
    """(axis None flattens a 0-d array, as NumPy.)"""
    for dt in ("bool", "int32"):
        h = np.array(5, dt)
        check(ua.packbits(ua.asarray(h)), np.packbits(h))
    h = np.array(200, np.uint8)
    check(ua.unpackbits(ua.asarray(h)), np.unpackbits(h))
    check(ua.unpackbits(ua.asarray(h), count=3), np.unpackbits(h, count=3))


@pytest.mark.parametrize("fn", ["packbits", "unpackbits"])
def test_pack_unpack_0d_axis0(fn):
    h = np.array(200, np.uint8)
    check(getattr(ua, fn)(ua.asarray(h), axis=0), getattr(np, fn)(h, axis=0))


@pytest.mark.parametrize("dt", INEXACT)
def test_packbits_refuses_inexact(dt):
    h = np.ones(3, dt)
    refused_like_numpy("packbits", h)


@pytest.mark.parametrize("dt", [d for d in INTS + INEXACT if d != "uint8"])
def test_unpackbits_refuses_other_than_uint8(dt):
    h = np.ones(3, dt)
    refused_like_numpy("unpackbits", h)


def test_errors():
    h = np.arange(5, dtype=np.uint8)
    x = ua.asarray(h)
    for bo in ("middle", "BIG", "L", ""):
        with pytest.raises(ValueError):
            np.packbits(h, bitorder=bo)
        with pytest.raises(ValueError):
            ua.packbits(x, bitorder=bo)
        with pytest.raises(ValueError):
            np.unpackbits(h, bitorder=bo)
        with pytest.raises(ValueError):
            ua.unpackbits(x, bitorder=bo)
    # count: too negative, not an integer
    with pytest.raises(ValueError, match="-count"):
        np.unpackbits(h, count=-41)
    with pytest.raises(ValueError, match="-count"):
        ua.unpackbits(x, count=-41)
    with pytest.raises(ValueError):
        np.unpackbits(x, count=-41)
    check(ua.unpackbits(x, count=-40), np.unpackbits(h, count=-40))
    with pytest.raises(TypeError):
        np.unpackbits(h, count=2.0)
    with pytest.raises(TypeError):
        ua.unpackbits(x, count=2.0)
    # axes out of bounds
    for fn in ("packbits", "unpackbits"):
        for axis in (1, -2):
            with pytest.raises(np.exceptions.AxisError):
                getattr(np, fn)(h, axis=axis)
            with pytest.raises(np.exceptions.AxisError):
                getattr(ua, fn)(x, axis=axis)
        with pytest.raises(TypeError):   # host data
            getattr(ua, fn)(h)
