"""piecewise, apply_along_axis and apply_over_axes (usmarray/functional.py)
against NumPy: callables, constants, the "otherwise" function, single
conditions, 0-d and 0-size inputs; every axis, functions returning scalars
and arrays of other shapes; odd layouts; NumPy's dispatch
(``np.piecewise(usm_ndarray, ...)``) and NumPy's errors."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F64 = device_supports(ua.float64)
FLOAT = "float64" if HAS_F64 else "float32"
DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float32",
          "complex64"] + (["float16"] if device_supports(ua.float16) else []) + \
    (["float64", "complex128"] if HAS_F64 else [])


def _both(fn_name, *args, **kw):
    """(ua.f(...), np.f(...) dispatched) on the device arguments."""
    return getattr(ua, fn_name)(*args, **kw), getattr(np, fn_name)(*args, **kw)


# ================================================================= piecewise
@pytest.mark.parametrize("dt", DTYPES)
def test_piecewise_dtypes(dt):
    h = sample((3, 5), dt, seed=1)
    x = ua.asarray(h)
    hc = [h != 0, h == h.flat[0]] if dt == "bool" else [h.real < 0, h.real > 3]
    c = [ua.asarray(v) for v in hc]
    # two callables and an "otherwise" constant; later conditions win
    fl = [lambda v: v * 2, lambda v: v[::-1], 1]
    expected = np.piecewise(h, hc, fl)
    for got in _both("piecewise", x, c, fl):
        check(got, expected, what=dt)
    # constants only
    expected = np.piecewise(h, hc, [0, 1])
    for got in _both("piecewise", x, c, [0, 1]):
        check(got, expected, what=dt)


def test_piecewise_callables_constants_otherwise():
    h = np.linspace(-3, 3, 13).astype(FLOAT)
    x = ua.asarray(h)
    hc = [h < -1, (h >= -1) & (h < 1)]
    c = [x < -1, (x >= -1) & (x < 1)]
    for fl in ([lambda v: -v, lambda v: v ** 2], [lambda v: -v, 0.5, lambda v: v + 10],
               [1, 2, 3], [lambda v: -v, lambda v: v * 0 + 7, 4.5]):
        expected = np.piecewise(h, hc, fl)
        for got in _both("piecewise", x, c, fl):
            check(got, expected, what=fl)


def test_piecewise_overlapping_conditions_later_wins():
    h = np.arange(12.0).reshape(3, 4) - 4
    x = ua.asarray(h)
    check(ua.piecewise(x, [x < 2, x < 0], [1, 2]), np.piecewise(h, [h < 2, h < 0], [1, 2]))


def test_piecewise_single_condition_array():
    h = np.arange(-3, 4)
    x = ua.asarray(h)
    for fl in ([lambda v: v * 10], [lambda v: v * 10, -1], lambda v: v * 10):
        expected = np.piecewise(h, h < 0, fl if isinstance(fl, list) else [fl])
        check(ua.piecewise(x, x < 0, fl), expected, what=fl)
    check(np.piecewise(x, x < 0, [lambda v: v * 10, -1]),
          np.piecewise(h, h < 0, [lambda v: v * 10, -1]))


def test_piecewise_conditions_stacked_array_and_ints():
    h = np.arange(-3, 4)
    x = ua.asarray(h)
    check(ua.piecewise(x, ua.stack([x < 0, x > 1]), [1, 2, 3]),
          np.piecewise(h, np.stack([h < 0, h > 1]), [1, 2, 3]))
    # non-bool conditions are read as bool
    check(ua.piecewise(x, [x], [9, 1]), np.piecewise(h, [h], [9, 1]))
    # a list of Python bools as the condition of a 1-d x
    h = np.array([1.0, 2, 3])
    check(ua.piecewise(ua.asarray(h), [True, False, True], [9]),
          np.piecewise(h, [True, False, True], [9]))


def test_piecewise_0d():
    h = np.array(3.0)
    x = ua.asarray(h)
    for cond, hcond, fl in [(x > 2, h > 2, [lambda v: v * 10, 0]),
                            (x > 5, h > 5, [lambda v: v * 10, lambda v: v - 1]),
                            ([True], [True], [lambda v: v * 10]),
                            (True, True, [lambda v: v + 1]),
                            ([x > 2, x < 1], [h > 2, h < 1], [lambda v: v * 10, 1, 5])]:
        expected = np.piecewise(h, hcond, fl)
        got = ua.piecewise(x, cond, fl)
        assert got.ndim == 0
        check(got, expected, what=(hcond, fl))


def test_piecewise_args_kwargs_and_result_dtype():
    h = np.arange(-3, 4)
    x = ua.asarray(h)
    fl = [lambda v, a, b=0: v * a + b, 0]
    check(ua.piecewise(x, [x < 0], fl, 3, b=1), np.piecewise(h, [h < 0], fl, 3, b=1))
    # float results into an integer x: truncated, as NumPy
    check(ua.piecewise(x, [x < 0], [lambda v: v * 2.7, 1.9]),
          np.piecewise(h, [h < 0], [lambda v: v * 2.7, 1.9]))
    # functions returning a scalar or a 0-d array
    check(ua.piecewise(x, [x > 0], [lambda v: 5, 1]), np.piecewise(h, [h > 0], [lambda v: 5, 1]))
    check(ua.piecewise(x, [x > 0], [lambda v: ua.asarray(5), 1]),
          np.piecewise(h, [h > 0], [lambda v: np.asarray(5), 1]))


def test_piecewise_layouts_and_empty():
    h = np.arange(24.0).reshape(4, 6) - 10
    x = ua.asarray(h)
    v, hv = x[::-1, ::-2], h[::-1, ::-2]
    check(ua.piecewise(v, [v < 0], [lambda t: t * 2, 1]),
          np.piecewise(hv, [hv < 0], [lambda t: t * 2, 1]))
    check(ua.piecewise(x.T, [x.T > 3], [lambda t: -t]),
          np.piecewise(h.T, [h.T > 3], [lambda t: -t]))
    e = np.empty((0, 2))
    check(ua.piecewise(ua.asarray(e), [ua.empty((0, 2), dtype=ua.bool)], [1, 2]),
          np.piecewise(e, [np.empty((0, 2), bool)], [1, 2]))
    # a condition that holds nowhere: the function is not needed
    check(ua.piecewise(x, [x > 100], [lambda t: t[0:0] + 1, 3]),
          np.piecewise(h, [h > 100], [lambda t: t[0:0] + 1, 3]))


def test_piecewise_lower_dimensional_condition_selects_rows():
    h = np.arange(9.0).reshape(3, 3)
    cond = np.array([True, False, True])
    expected = np.piecewise(h, [cond], [-1])          # rows 0 and 2
    check(ua.piecewise(ua.asarray(h), [ua.asarray(cond)], [-1]), expected)


def test_piecewise_errors():
    h = np.arange(-3, 4).astype(FLOAT)
    x = ua.asarray(h)
    for fl in ([1, 2, 3, 4], [1]):
        with pytest.raises(ValueError):
            np.piecewise(h, [h < 2, h < 0], fl)
        with pytest.raises(ValueError):
            ua.piecewise(x, [x < 2, x < 0], fl)
        with pytest.raises(ValueError):
            np.piecewise(x, [x < 2, x < 0], fl)
    with pytest.raises(TypeError):
        ua.piecewise(h, [h < 0], [1])


@pytest.mark.parametrize("shape", [(7,), (1, 7)])
def test_piecewise_host_condition_in_list_refused(shape):
    h = np.arange(-3, 4).astype(FLOAT).reshape(shape)
    with pytest.raises(TypeError, match="NumPy arrays"):
        ua.piecewise(ua.asarray(h), [h.reshape(-1) < 0], [1])


# ================================================================= apply_along_axis
def _funcs():
    """(usmarray function, NumPy function, label): the results are scalars,
    1-d arrays of the slice's length and of another length, 2-d arrays."""
    return [
        (ua.sum, np.sum, "sum->scalar"),
        (lambda v: ua.max(v) - ua.min(v), lambda v: np.max(v) - np.min(v), "ptp->0-d"),
        (lambda v: 3, lambda v: 3, "python int"),
        (lambda v: [1.5, 2.5], lambda v: [1.5, 2.5], "python list"),
        (ua.sort, np.sort, "sort->same length"),
        (lambda v: v[1:] - v[:-1], lambda v: v[1:] - v[:-1], "diff->shorter"),
        (lambda v: ua.concat([v, v]), lambda v: np.concatenate([v, v]), "longer"),
        (lambda v: v[:, None] * v[None, :2], lambda v: v[:, None] * v[None, :2], "2-d"),
        (lambda v: ua.argmax(v), np.argmax, "argmax->int64"),
    ]


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_apply_along_axis_every_axis(axis):
    h = sample((2, 3, 4), "float32", seed=axis + 5)
    x = ua.asarray(h)
    for uf, nf, what in _funcs():
        expected = np.apply_along_axis(nf, axis, h)
        check(ua.apply_along_axis(uf, axis, x), expected, what=what)
        check(np.apply_along_axis(uf, axis, x), expected, what=f"np {what}")


@pytest.mark.parametrize("dt", DTYPES)
def test_apply_along_axis_dtypes(dt):
    h = sample((3, 4), dt, seed=2)
    x = ua.asarray(h)
    check(ua.apply_along_axis(ua.flip, 1, x), np.apply_along_axis(np.flip, 1, h), what=dt)
    check(ua.apply_along_axis(lambda v: v[0], 0, x), np.apply_along_axis(lambda v: v[0], 0, h),
          what=dt)


def test_apply_along_axis_args_layouts_and_1d():
    h = sample((4, 3, 5), FLOAT, seed=3)
    x = ua.asarray(h)
    check(ua.apply_along_axis(lambda v, a, b=1: v * a + b, 1, x, 2, b=5),
          np.apply_along_axis(lambda v, a, b=1: v * a + b, 1, h, 2, b=5))
    check(ua.apply_along_axis(ua.cumulative_sum, 1, x[::-1, :, ::-2]),
          np.apply_along_axis(np.cumsum, 1, h[::-1, :, ::-2]))
    check(ua.apply_along_axis(ua.sort, 0, ua.permute_dims(x, (2, 1, 0))),
          np.apply_along_axis(np.sort, 0, h.transpose(2, 1, 0)))
    check(ua.apply_along_axis(ua.max, 0, x[0, 0]), np.apply_along_axis(np.max, 0, h[0, 0]))
    # an empty axis (the iteration dimensions are not empty)
    e = np.empty((3, 0))
    check(ua.apply_along_axis(ua.sum, 1, ua.asarray(e)), np.apply_along_axis(np.sum, 1, e))


def test_apply_along_axis_result_dtype_is_the_first_calls():
    h = np.arange(6).reshape(2, 3)
    f_np = lambda v: v * 1 if v[0] == 0 else v * 1.5    # noqa: E731
    f_ua = lambda v: v * 1 if int(v[0]) == 0 else v * 1.5   # noqa: E731
    check(ua.apply_along_axis(f_ua, 1, ua.asarray(h)), np.apply_along_axis(f_np, 1, h))


def test_apply_along_axis_errors():
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        np.apply_along_axis(np.sum, 0, np.empty((3, 0)))
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        ua.apply_along_axis(ua.sum, 0, ua.empty((3, 0)))
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        np.apply_along_axis(ua.sum, 0, ua.empty((3, 0)))
    x = ua.asarray(np.arange(6.0).reshape(2, 3))
    for ax in (2, -3):
        with pytest.raises(np.exceptions.AxisError):
            ua.apply_along_axis(ua.sum, ax, x)
    with pytest.raises(np.exceptions.AxisError):
        ua.apply_along_axis(ua.sum, 0, ua.asarray(1.0))
    # results of different shapes
    h = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError):
        np.apply_along_axis(lambda v: v[:v[0] + 1], 1, h)
    with pytest.raises(ValueError):
        ua.apply_along_axis(lambda v: v[:int(v[0]) + 1], 1, ua.asarray(h))
    with pytest.raises(TypeError):
        ua.apply_along_axis(np.sum, 0, h)


# ================================================================= apply_over_axes
@pytest.mark.parametrize("axes", [0, 1, 2, -1, [0, 2], (1, 2), [0, 1, 2], [2, 0], []])
def test_apply_over_axes(axes):
    h = sample((2, 3, 4), FLOAT, seed=9)
    x = ua.asarray(h)
    expected = np.apply_over_axes(np.sum, h, axes)
    check(ua.apply_over_axes(np.sum, x, axes), expected, what=axes)
    check(np.apply_over_axes(np.sum, x, axes), expected, what=axes)
    kd = lambda a, ax: ua.max(a, axis=ax, keepdims=True)   # noqa: E731
    check(ua.apply_over_axes(kd, x, axes), np.apply_over_axes(
        lambda a, ax: np.max(a, axis=ax, keepdims=True), h, axes))
    cs = lambda a, axis: ua.cumulative_sum(a, axis=axis)   # noqa: E731
    check(ua.apply_over_axes(cs, x[::-1, :, ::-2], axes),
          np.apply_over_axes(np.cumsum, h[::-1, :, ::-2], axes))


@pytest.mark.parametrize("dt", ["bool", "int8", "uint32", "float32", "complex64"])
def test_apply_over_axes_dtypes(dt):
    h = sample((3, 4), dt, seed=4)
    check(ua.apply_over_axes(np.sum, ua.asarray(h), [0, 1]), np.apply_over_axes(np.sum, h, [0, 1]))


def test_apply_over_axes_0d_and_errors():
    check(ua.apply_over_axes(np.sum, ua.asarray(1.0), []),
          np.apply_over_axes(np.sum, np.array(1.0), []))
    h = np.arange(24.0).reshape(2, 3, 4)
    x = ua.asarray(h)
    with pytest.raises(ValueError, match="correct shape"):
        np.apply_over_axes(lambda a, ax: np.sum(a), h, [0])
    with pytest.raises(ValueError, match="correct shape"):
        ua.apply_over_axes(lambda a, ax: ua.sum(a), x, [0])
    with pytest.raises(np.exceptions.AxisError):
        ua.apply_over_axes(np.sum, x, [3])
    with pytest.raises(TypeError):
        ua.apply_over_axes(np.sum, h, [0])
