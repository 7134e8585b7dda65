"""repr/str of usm_ndarray against NumPy's, and the print options."""

import time

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES as DTYPES, device_supports as _device_supports, sample


class usm_ndarray(np.ndarray):
    """NumPy prints a subclass with its class name as the prefix and wraps lines
    for that prefix: the repr a usm_ndarray must have."""


def np_repr(h):
    """NumPy's repr of `h` as if its class were usm_ndarray."""
    return repr(np.asarray(h).view(usm_ndarray))


@pytest.fixture(autouse=True)
def _restore_print_options():
    saved = ua.get_print_options()
    yield
    ua.set_print_options(**saved)


def _check(x, h):
    assert str(x) == str(h)
    assert repr(x) == np_repr(h)


def _check_summarised(x, h):
    """str and repr of a summarised array, including the shape= NumPy >= 2.2 adds."""
    assert str(x) == str(h)
    assert repr(x) == np_repr(h)


def test_repr_example():
    x = ua.asarray([1.0, 2.0, 3.0], dtype=ua.float32)
    assert repr(x) == "usm_ndarray([1., 2., 3.], dtype=float32)"
    assert str(x) == "[1. 2. 3.]"


def test_repr_default_dtypes_not_shown():
    assert repr(ua.asarray([1.0, 2.5])) == "usm_ndarray([1. , 2.5])"
    assert repr(ua.asarray([1, 2])) == "usm_ndarray([1, 2])"
    assert repr(ua.asarray([True, False])) == "usm_ndarray([ True, False])"
    assert repr(ua.asarray([1j, 2])) == "usm_ndarray([0.+1.j, 2.+0.j])"
    assert repr(ua.asarray([1, 2], dtype="i4")) == "usm_ndarray([1, 2], dtype=int32)"


def test_repr_oracle_sanity():
    # the NumPy oracle itself: indentation by len("usm_ndarray(")
    h = np.arange(6, dtype="f4").reshape(2, 3)
    assert np_repr(h) == ("usm_ndarray([[0., 1., 2.],\n"
                          "             [3., 4., 5.]], dtype=float32)")
    assert np_repr(h) == repr(h).replace("array(", "usm_ndarray(").replace("\n      ",
                                                                          "\n            ")


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (2, 1, 2, 3), (1,), (4, 1)])
def test_repr_each_dtype(shape, dtype):
    h = sample(shape, dtype)
    _check(ua.asarray(h), h)


def test_repr_0d(dtype):
    h = sample((), dtype)
    x = ua.full((), h[()], dtype=dtype)
    assert repr(x) == np_repr(h)
    assert repr(x[None]) == np_repr(h[None])


def test_str_0d(dtype):
    # NumPy's str of a 0-d array is the str of its scalar
    h = sample((), dtype)
    x = ua.full((), h[()], dtype=dtype)
    assert str(x) == str(h)


def test_repr_0d_values():
    assert repr(ua.full((), 5)) == "usm_ndarray(5)"
    assert repr(ua.full((), 1.5, dtype="f4")) == "usm_ndarray(1.5, dtype=float32)"
    assert repr(ua.full((), True)) == "usm_ndarray(True)"
    assert repr(ua.full((), 1 + 2j)) == "usm_ndarray(1.+2.j)"


def test_str_0d_values():
    assert str(ua.full((), 5)) == "5"
    assert str(ua.full((), True)) == "True"
    assert str(ua.full((), 2.0)) == str(np.array(2.0))
    assert str(ua.full((), 1 + 2j)) == str(np.array(1 + 2j))


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (1, 0, 2)])
@pytest.mark.parametrize("dt", ["f8", "f4", "i8", "u1", "?", "c16"])
def test_repr_size_zero(shape, dt):
    h = np.empty(shape, dtype=dt)
    _check(ua.empty(shape, dtype=dt), h)


def test_repr_size_zero_examples():
    assert repr(ua.empty(0)) == "usm_ndarray([], dtype=float64)"
    assert repr(ua.empty((2, 0), dtype="i4")) == "usm_ndarray([], shape=(2, 0), dtype=int32)"
    assert str(ua.empty((3, 0))) == "[]"


@pytest.mark.parametrize("values", [
    [np.nan, 1.0, -np.inf], [np.inf, np.nan], [1e-10, 1.0], [1e10, 1.0, 2.0], [1e16, 1.0],
    [0.1, 0.25, 1 / 3], [-0.0, 0.0], [123456789.123, 1.5], [1e-5, 1e-6], [1.0, 100.0, 1000.5],
    [-1.5, 2.25, 1e-300], [3.14159265358979, 2.718281828459045],
], ids=repr)
@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "c8", "c16"])
def test_repr_float_formatting(values, dt):
    with np.errstate(all="ignore"):
        h = np.array(values, dtype=dt)
        if np.dtype(dt).kind == "c":
            h = h - 1j * h[::-1]
    _check(ua.asarray(h), h)


@pytest.mark.parametrize("dt,values", [("i8", [-(2 ** 63), 2 ** 63 - 1]), ("u8", [0, 2 ** 64 - 1]),
                                       ("i1", [-128, 127, 0]), ("u2", [65535, 1]),
                                       ("i4", [-5, 123456, 7])])
def test_repr_int_extremes(dt, values):
    h = np.array(values, dtype=dt)
    _check(ua.asarray(h), h)


@pytest.mark.parametrize("n", [20, 30, 75, 200])
@pytest.mark.parametrize("dt", ["f4", "f8", "i2", "i8", "c8", "?"])
def test_repr_line_wrapping(n, dt):
    h = sample((n,), dt) if dt != "f4" else (np.arange(n, dtype="f4") * 1.25 - 7)
    _check(ua.asarray(h), h)
    h2 = sample((3, n // 2), dt, seed=2)
    _check(ua.asarray(h2), h2)


def test_repr_non_contiguous_views():
    h = sample((6, 7, 5), "f4")
    x = ua.asarray(h)
    for key in [(slice(None, None, -1),), (slice(None), slice(None, None, 2)), (Ellipsis, 0),
                (1, slice(None, None, -3), slice(1, None, 2)), (None, 2)]:
        _check(x[key], h[key])
    _check(ua.permute_dims(x, (2, 0, 1)), np.transpose(h, (2, 0, 1)))


def test_repr_usm_types():
    h = np.arange(5, dtype="i2")
    for ut in ["device", "shared", "host"]:
        _check(ua.asarray(h, usm_type=ut), h)


# ------------------------------------------------------------------ summarisation
@pytest.mark.parametrize("shape", [(1001,), (1000,), (40, 30), (10, 10, 11), (1, 1001), (1001, 1),
                                   (7, 200), (3, 3, 3, 3, 3, 3, 3)])
def test_repr_summarised_shapes(shape):
    h = np.arange(int(np.prod(shape)), dtype="i8").reshape(shape)
    x = ua.reshape(ua.arange(int(np.prod(shape))), shape)
    _check_summarised(x, h)


@pytest.mark.parametrize("dt", ["f4", "f8", "c16", "i4", "u1", "?"])
def test_repr_summarised_each_dtype(dt):
    h = sample((50, 60), dt)
    _check_summarised(ua.asarray(h), h)


def test_repr_summarised_format_from_edge_items_only():
    # a huge value in the hidden middle must not change the printed format
    h = np.arange(3000, dtype="f8") / 7
    h[1500] = 1e300
    x = ua.asarray(h)
    _check_summarised(x, h)


def test_repr_summarised_views():
    h = np.arange(20000, dtype="f8").reshape(100, 200)
    x = ua.reshape(ua.arange(20000, dtype="f8"), (100, 200))
    _check_summarised(x[::-1, ::3], h[::-1, ::3])
    _check_summarised(x.T, h.T)
    _check_summarised(x[5], h[5])
    _check_summarised(x[:, 150:], h[:, 150:])


def _timed(fn):
    fn()                     # the first call may compile kernels
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def test_repr_huge_1d_fast():
    n = 10 ** 6
    x = ua.arange(n)
    r, dt = _timed(lambda: repr(x))
    s, dt2 = _timed(lambda: str(x))
    h = np.arange(n)
    assert s == str(h)
    assert r == np_repr(h)
    assert dt < 0.25 and dt2 < 0.25


def test_repr_huge_2d_fast():
    x = ua.reshape(ua.arange(4 * 10 ** 6, dtype="f8"), (2000, 2000))
    r, dt = _timed(lambda: repr(x))
    h = np.arange(4 * 10 ** 6, dtype="f8").reshape(2000, 2000)
    assert r == np_repr(h)
    assert dt < 0.25
    # a strided view of it: still only the printed items move
    v = x[::-7, 1::3]
    rv, dtv = _timed(lambda: repr(v))
    assert rv == np_repr(h[::-7, 1::3])
    assert dtv < 0.25
    s, dts = _timed(lambda: str(x.T))
    assert s == str(h.T)
    assert dts < 0.25


def test_repr_huge_3d_fast():
    x = ua.reshape(ua.arange(10 ** 6, dtype="f4"), (100, 100, 100))
    r, dt = _timed(lambda: repr(x))
    assert r == np_repr(np.arange(10 ** 6, dtype="f4").reshape(100, 100, 100))
    assert dt < 0.25


def test_repr_summarised_shows_shape():
    # NumPy (>= 2.2) appends shape= when the array is summarised: the shape cannot be
    # read from the printed items
    cases = [(ua.arange(10 ** 6), np.arange(10 ** 6)),
             (ua.reshape(ua.arange(4 * 10 ** 6, dtype="f8"), (2000, 2000)),
              np.arange(4 * 10 ** 6, dtype="f8").reshape(2000, 2000)),
             (ua.arange(1001, dtype="f4"), np.arange(1001, dtype="f4")),
             (ua.reshape(ua.arange(1100, dtype="i2"), (11, 100)),
              np.arange(1100, dtype="i2").reshape(11, 100))]
    for x, h in cases:
        assert repr(x) == np_repr(h)
    with ua.print_options(threshold=5), np.printoptions(threshold=5):
        h = np.arange(10, dtype="u1")
        assert repr(ua.asarray(h)) == np_repr(h)


# ------------------------------------------------------------------ print options
def test_get_print_options_defaults_match_numpy():
    opts = ua.get_print_options()
    assert isinstance(opts, dict)
    npo = np.get_printoptions()
    for k in ["linewidth", "edgeitems", "threshold", "precision"]:
        assert opts[k] == npo[k]


def test_get_print_options_returns_a_copy():
    opts = ua.get_print_options()
    opts["precision"] = 1
    assert ua.get_print_options()["precision"] != 1


def test_set_print_options_precision():
    h = np.array([1 / 3, 2 / 3, 1.0], dtype="f8")
    x = ua.asarray(h)
    ua.set_print_options(precision=3)
    assert ua.get_print_options()["precision"] == 3
    with np.printoptions(precision=3):
        assert str(x) == str(h)
        assert repr(x) == np_repr(h)
    assert repr(x) == "usm_ndarray([0.333, 0.667, 1.   ])"


@pytest.mark.parametrize("threshold,edgeitems", [(5, 1), (10, 2), (9, 4), (0, 3), (100, 1),
                                                 (24, 2), (23, 2)])
def test_set_print_options_threshold_edgeitems(threshold, edgeitems):
    ua.set_print_options(threshold=threshold, edgeitems=edgeitems)
    with np.printoptions(threshold=threshold, edgeitems=edgeitems):
        for shape in [(10,), (4, 6), (2, 3, 4), (24,)]:
            h = np.arange(int(np.prod(shape)), dtype="i4").reshape(shape)
            x = ua.asarray(h)
            assert str(x) == str(h)
            assert repr(x) == np_repr(h)


@pytest.mark.parametrize("edgeitems", [0, 1, 3])
def test_summary_edges_show_the_last_item(edgeitems):
    # (with edgeitems=0 NumPy still prints the last item: "[... 2999]")
    ua.set_print_options(threshold=3, edgeitems=edgeitems)
    with np.printoptions(threshold=3, edgeitems=edgeitems):
        for shape in [(3000,), (40, 50), (3, 1000), (7, 7, 7)]:
            h = np.arange(int(np.prod(shape))).reshape(shape)
            assert str(ua.asarray(h)) == str(h)
            assert repr(ua.asarray(h)) == np_repr(h)


def test_numpy_array_repr_str_array2string_dispatch():
    h = np.linspace(0, 1, 7)
    x = ua.asarray(h)
    assert np.array_repr(x) == repr(x)
    with np.printoptions(precision=2):
        assert np.array_repr(x, precision=2) == np_repr(h)
    assert np.array_str(x, precision=3) == np.array_str(h, precision=3)
    assert np.array2string(x, separator=", ", precision=2, prefix="ab") == \
        np.array2string(h, separator=", ", precision=2, prefix="ab")
    assert np.array2string(ua.arange(3000), threshold=5, edgeitems=2) == \
        np.array2string(np.arange(3000), threshold=5, edgeitems=2)
    with pytest.raises(TypeError, match="formatter"):
        np.array2string(x, formatter={"float": str})


def test_array2string_0d_takes_the_print_options():
    """As numpy.array2string formats a 0-d array (not as its scalar's str):
    usmarray's print options where no argument is given."""
    x, h = ua.asarray(1 / 3), np.asarray(1 / 3)
    with ua.print_options(precision=2, sign="+"):
        assert np.array2string(x) == "+0.33" == ua.array2string(x)
        assert np.array2string(x, precision=4) == np.array2string(h, precision=4, sign="+")
    assert np.array2string(x) == np.array2string(h)
    with ua.print_options(nanstr="NaN"):
        assert ua.array2string(ua.asarray(np.nan)) == "NaN"
    assert str(x) == str(h)   # (str stays the scalar's)


@pytest.mark.parametrize("linewidth", [10, 20, 40, 120])
def test_set_print_options_linewidth(linewidth):
    h = np.arange(40, dtype="f4").reshape(2, 20) / 3
    x = ua.asarray(h)
    ua.set_print_options(linewidth=linewidth)
    with np.printoptions(linewidth=linewidth):
        assert str(x) == str(h)
        assert repr(x) == np_repr(h)


def test_set_print_options_partial_update_keeps_others():
    ua.set_print_options(precision=2)
    ua.set_print_options(linewidth=50)
    opts = ua.get_print_options()
    assert opts["precision"] == 2 and opts["linewidth"] == 50


@pytest.mark.parametrize("kw", [dict(suppress=True), dict(sign="+"), dict(sign=" "),
                                dict(floatmode="fixed"), dict(floatmode="unique"),
                                dict(floatmode="maxprec_equal"), dict(nanstr="NaN", infstr="Inf")],
                         ids=repr)
def test_set_print_options_other(kw):
    h = np.array([1e-9, -1.5, np.nan, np.inf, 2.0 / 3])
    x = ua.asarray(h)
    ua.set_print_options(**kw)
    with np.printoptions(**kw):
        assert str(x) == str(h)
        assert repr(x) == np_repr(h)


def test_set_print_options_bad_values():
    with pytest.raises(ValueError):
        ua.set_print_options(floatmode="bogus")
    with pytest.raises(ValueError):
        ua.set_print_options(sign="*")


def test_print_options_context_manager():
    before = ua.get_print_options()
    h = np.array([1 / 3, 2.0])
    x = ua.asarray(h)
    with ua.print_options(precision=2, linewidth=30):
        assert ua.get_print_options()["precision"] == 2
        assert ua.get_print_options()["linewidth"] == 30
        with np.printoptions(precision=2, linewidth=30):
            assert repr(x) == np_repr(h)
    assert ua.get_print_options() == before
    assert repr(x) == np_repr(h)


def test_print_options_context_manager_restores_on_error():
    before = ua.get_print_options()
    with pytest.raises(RuntimeError):
        with ua.print_options(threshold=3):
            assert ua.get_print_options()["threshold"] == 3
            raise RuntimeError("boom")
    assert ua.get_print_options() == before


def test_print_options_nested():
    with ua.print_options(precision=4):
        with ua.print_options(edgeitems=1):
            o = ua.get_print_options()
            assert o["precision"] == 4 and o["edgeitems"] == 1
        o = ua.get_print_options()
        assert o["precision"] == 4 and o["edgeitems"] == 3
    assert ua.get_print_options()["precision"] == 8


def test_set_print_options_from_numpy():
    with np.printoptions(precision=2, threshold=7, edgeitems=1, linewidth=33):
        ua.set_print_options(numpy=True)
        o = ua.get_print_options()
        assert (o["precision"], o["threshold"], o["edgeitems"], o["linewidth"]) == (2, 7, 1, 33)


def test_numpy_print_options_do_not_leak_in():
    h = np.array([1 / 3, 2.0])
    x = ua.asarray(h)
    expected = np_repr(h)
    with np.printoptions(precision=2, threshold=1):
        assert repr(x) == expected
