"""usmarray.pad against numpy.pad: every mode over dtypes, shapes and pad
widths (wider than the axis too, where reflect and wrap repeat), through
NumPy's dispatch (np.pad(usm_ndarray)) and directly, in both kernel variants."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

HAS_F64 = device_supports(ua.float64)
FLOATS = ["float32"] + (["float64"] if HAS_F64 else []) + \
    (["float16"] if device_supports(ua.float16) else [])
DTYPES = ["bool", "int8", "uint8", "int32", "int64"] + FLOATS + ["complex64"]

WIDTHS = [0, 2, (1, 3), ((2, 1), (0, 5)), ((7, 8), (9, 1)), {1: (2, 0)}]
COPYING = [("edge", {}), ("wrap", {}), ("reflect", {}), ("symmetric", {}),
           ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"})]


def _width(w, nd):
    return {a: v for a, v in w.items() if a < nd} if isinstance(w, dict) else \
        (w if nd == 2 or not isinstance(w, tuple) or not isinstance(w[0], tuple) else w[:nd])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("mode, kw", COPYING, ids=lambda v: str(v) if v else "")
@pytest.mark.parametrize("shape", [(3, 4), (1, 5), (5,), (2, 3, 2)], ids=str)
def test_copying_modes(variant, dt, mode, kw, shape):
    h = sample(shape, dt)
    x = ua.asarray(h)
    if kw.get("reflect_type") == "odd" and dt == "bool":
        with pytest.raises(TypeError, match="bool"):
            np.pad(x, 2, mode, **kw)
        return
    for w in WIDTHS:
        w = _width(w, len(shape))
        if isinstance(w, tuple) and isinstance(w[0], tuple) and len(w) != len(shape):
            continue
        e = np.pad(h, w, mode, **kw)
        got = np.pad(x, w, mode, **kw)
        if kw.get("reflect_type") == "odd" and h.dtype.kind in "fc" and e.size:
            # NumPy reflects about each new edge in turn, usmarray adds the edges'
            # multiples in closed form: the same sums, rounded apart (cancellation)
            assert (got.shape, got.dtype) == (e.shape, e.dtype), (mode, kw, w)
            scale = float(np.max(np.abs(e.astype(np.complex128))))
            np.testing.assert_allclose(ua.asnumpy(got), e, rtol=0, atol=scale * (
                4e-3 if dt == "float16" else 1e-6 if dt != "float64" else 1e-14))
        else:
            check(got, e, True, f"{mode} {kw} {w}")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("values", [None, 7, (1, 2), ((3, 4), (5, 6))], ids=str)
def test_constant(variant, dt, values):
    h = sample((3, 4), dt)
    x = ua.asarray(h)
    kw = {} if values is None else {"constant_values": values}
    for w in WIDTHS:
        check(np.pad(x, w, "constant", **kw), np.pad(h, w, "constant", **kw), True, f"{w}")
    check(ua.pad(x, 2, mode="constant", constant_values=1.5 if dt != "bool" else True),
          np.pad(h, 2, mode="constant", constant_values=1.5 if dt != "bool" else True), True,
          "a float into the dtype (NumPy's cast)")


@pytest.mark.parametrize("dt", ["int32", "int64"] + FLOATS + ["complex64"])
@pytest.mark.parametrize("mode, kw", [
    ("linear_ramp", {}), ("linear_ramp", {"end_values": (5, -3)}),
    ("maximum", {}), ("minimum", {"stat_length": 2}), ("mean", {}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}), ("median", {}),
    ("median", {"stat_length": 3})], ids=str)
def test_statistic_and_ramp_modes(variant, dt, mode, kw):
    h = sample((4, 5), dt)
    x = ua.asarray(h)
    if dt == "complex64" and mode == "median":
        # (usmarray's median is quantile's, which takes real input only, as NumPy's quantile)
        with pytest.raises(TypeError):
            np.pad(x, 2, mode, **kw)
        return
    for w in (2, ((1, 3), (4, 0))):
        e = np.pad(h, w, mode, **kw)
        got = np.pad(x, w, mode, **kw)
        if dt == "float16":
            # (NumPy's ramp accumulates in float16, usmarray's in float32)
            assert (got.shape, got.dtype) == (e.shape, e.dtype), (mode, kw, w)
            np.testing.assert_allclose(ua.asnumpy(got).astype(np.float32), e, rtol=5e-3,
                                       atol=1e-2)
        else:
            check(got, e, True, f"{mode} {kw} {w}")


@pytest.mark.parametrize("mode", ["mean", "median"])
def test_statistics_of_booleans_are_their_truth(mode):
    # NumPy casts a bool array's mean or median to bool (nonzero: True);
    # rounding it first made 1/3 False
    for h in (np.array([True, False, False]), np.array([True, False, True, False]),
              np.array([[False, True], [False, False]])):
        check(ua.pad(ua.asarray(h), 1, mode), np.pad(h, 1, mode), True, f"{mode} {h}")


def test_empty_mode_and_zero_size():
    h = sample((3, 4), "float32")
    got = ua.pad(ua.asarray(h), ((1, 2), (0, 1)), mode="empty")
    assert got.shape == (6, 5) and got.dtype == np.float32
    check(got[1:4, 0:4], h, True, "the array in the middle")
    z = np.zeros((0, 3), np.float32)
    check(np.pad(ua.asarray(z), 2), np.pad(z, 2), True, "constant extends an empty axis")
    with pytest.raises(ValueError, match="empty axis 0"):
        ua.pad(ua.asarray(z), 1, mode="edge")
    check(np.pad(ua.asarray(z), ((0, 0), (1, 1)), mode="edge"),
          np.pad(z, ((0, 0), (1, 1)), mode="edge"), True, "only the non-empty axis")
    s = ua.asarray(np.float32(3))
    r = ua.pad(s, 2)
    assert r.shape == () and r._alloc is not s._alloc


def test_errors():
    x = ua.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match="not supported"):
        ua.pad(x, 1, mode="nope")
    with pytest.raises(ValueError, match="unsupported keyword"):
        ua.pad(x, 1, mode="edge", constant_values=3)
    with pytest.raises(ValueError, match="negative"):
        ua.pad(x, -1)
    with pytest.raises(TypeError, match="integral"):
        ua.pad(x, 1.5)
    with pytest.raises(TypeError, match="callable"):
        ua.pad(x, 1, mode=lambda *a: None)
    with pytest.raises(ValueError, match="reflect_type"):
        ua.pad(x, 1, mode="reflect", reflect_type="sideways")
    with pytest.raises(ValueError):
        ua.pad(x, ((1, 2), (3, 4), (5, 6)))
