"""Manipulation functions beyond reshape/broadcast (flip, moveaxis,
matrix_transpose, unstack, concat, stack, roll, repeat, tile) and take:
values, dtypes, views versus copies and errors, against NumPy."""

import dpctl
import numpy as np
import pytest

import usmarray as ua
from conftest import check, sample


def _views_same_memory(v, x):
    return v.usm_data is x.usm_data or v._alloc is x._alloc


# ------------------------------------------------------------------ views
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 1, 0)])
def test_flip(dtype, axis):
    h = sample((3, 4, 5), dtype)
    x = ua.asarray(h)
    f = ua.flip(x, axis=axis)
    assert f._alloc is x._alloc
    check(f, np.flip(h, axis=axis))
    check(ua.flip(x[::2, 1:, ::-3], axis=axis), np.flip(h[::2, 1:, ::-3], axis=axis))


def test_flip_edge_cases():
    check(ua.flip(ua.asarray(np.float32(3))), np.float32(3))
    check(ua.flip(ua.empty((0, 3))), np.empty((0, 3)))
    with pytest.raises(IndexError):
        ua.flip(ua.ones((2, 2)), axis=2)
    with pytest.raises(ValueError):
        ua.flip(ua.ones((2, 2)), axis=(0, 0))


@pytest.mark.parametrize("src, dst", [(0, -1), (-1, 0), ((0, 1), (2, 0)), ((0, 1, 2), (1, 2, 0)),
                                      (1, 1)])
def test_moveaxis(src, dst):
    h = sample((2, 3, 4), np.int32)
    x = ua.asarray(h)
    m = ua.moveaxis(x, src, dst)
    assert m._alloc is x._alloc
    check(m, np.moveaxis(h, src, dst))


def test_moveaxis_errors():
    x = ua.ones((2, 3))
    with pytest.raises(ValueError):
        ua.moveaxis(x, (0, 1), 0)
    with pytest.raises(IndexError):
        ua.moveaxis(x, 2, 0)
    with pytest.raises(ValueError):
        ua.moveaxis(x, (0, 0), (0, 1))


def test_matrix_transpose():
    h = sample((2, 3, 4), np.float32)
    check(ua.matrix_transpose(ua.asarray(h)), np.swapaxes(h, -1, -2))
    with pytest.raises(ValueError):
        ua.matrix_transpose(ua.ones(3))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis):
    h = sample((2, 3, 4), np.float32)
    x = ua.asarray(h)
    parts = ua.unstack(x, axis=axis)
    expected = [np.take(h, i, axis=axis) for i in range(h.shape[axis])]
    assert isinstance(parts, tuple) and len(parts) == len(expected)
    for p, e in zip(parts, expected):
        assert p._alloc is x._alloc
        check(p, e)
    with pytest.raises(IndexError):
        ua.unstack(x, axis=3)


# ------------------------------------------------------------------ copies
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concat(dtype, axis):
    hs = [sample((2, 3), dtype, 0), sample((2, 3), dtype, 1)]
    if axis == 0:
        hs.append(sample((4, 3), dtype, 2))
    elif axis in (1, -1):
        hs.append(sample((2, 1), dtype, 2))
    else:
        hs.append(sample((5,), dtype, 2))
    r = ua.concat([ua.asarray(h) for h in hs], axis=axis)
    check(r, np.concatenate(hs, axis=axis))


def test_concat_promotes_views_and_zero_size():
    a = sample((3, 4), np.int16)
    b = sample((3, 2), np.float32)
    x = ua.asarray(a)[::-1, ::2]
    y = ua.asarray(b)
    e = ua.empty((3, 0), dtype=ua.int8)
    r = ua.concat((x, e, y), axis=1)
    check(r, np.concatenate([a[::-1, ::2], np.empty((3, 0), np.int8), b], axis=1))
    assert r.dtype == ua.float32


def test_concat_usm_type_and_errors():
    a = ua.ones((2,), usm_type="host")
    b = ua.ones((2,), usm_type="shared")
    assert ua.concat([a, b]).usm_type == "shared"
    with pytest.raises(ValueError):
        ua.concat([ua.ones((2, 3)), ua.ones((2, 4))], axis=0)
    with pytest.raises(ValueError):
        ua.concat([ua.ones((2, 3)), ua.ones((2,))], axis=0)
    with pytest.raises(ValueError):
        ua.concat([ua.asarray(1.0), ua.asarray(2.0)])
    with pytest.raises(ValueError):
        ua.concat([])
    with pytest.raises(TypeError):
        ua.concat(ua.ones(3))
    with pytest.raises(TypeError):
        ua.concat([ua.ones(3), np.ones(3)])
    q = dpctl.SyclQueue(ua.get_default_queue().sycl_device)
    with pytest.raises(ua.ExecutionPlacementError):
        ua.concat([ua.ones(3), ua.ones(3, sycl_queue=q)])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(dtype, axis):
    hs = [sample((3, 4), dtype, i) for i in range(3)]
    check(ua.stack([ua.asarray(h) for h in hs], axis=axis), np.stack(hs, axis=axis))


def test_stack_errors_and_scalars():
    check(ua.stack([ua.asarray(1.5), ua.asarray(2)]), np.array([1.5, 2.0]))
    with pytest.raises(ValueError):
        ua.stack([ua.ones(2), ua.ones(3)])
    with pytest.raises(IndexError):
        ua.stack([ua.ones(2), ua.ones(2)], axis=2)


@pytest.mark.parametrize("shift, axis", [(1, None), (-7, None), (2, 0), (-1, 1), (5, -1),
                                         ((1, 2), (0, 1)), ((1, -1), (1, 1)), (3, (0, 2)),
                                         (0, 1), (12, 0)])
def test_roll(dtype, shift, axis):
    h = sample((3, 4, 5), dtype)
    check(ua.roll(ua.asarray(h), shift, axis=axis), np.roll(h, shift, axis=axis))
    v = h[::-1, :, 1::2]
    check(ua.roll(ua.asarray(h)[::-1, :, 1::2], shift, axis=axis), np.roll(v, shift, axis=axis))


def test_roll_edge_cases():
    check(ua.roll(ua.empty((0, 3)), 2, axis=1), np.empty((0, 3)))
    check(ua.roll(ua.asarray(np.float32(5)), 3), np.float32(5))
    # shifts and axes broadcast, as in NumPy and dpctl.tensor
    h = np.arange(6).reshape(2, 3)
    check(ua.roll(ua.asarray(h), (1, 2), axis=0), np.roll(h, (1, 2), axis=0))
    check(ua.roll(ua.asarray(h), (1,), axis=(0, 1)), np.roll(h, (1,), axis=(0, 1)))
    with pytest.raises(ValueError):
        ua.roll(ua.ones((2, 2)), (1, 2), axis=(0, 1, 0))


@pytest.mark.parametrize("repeats, axis", [(2, None), (3, 0), (1, 1), (0, 1), (2, -1)])
def test_repeat_int(dtype, repeats, axis):
    h = sample((3, 4), dtype)
    check(ua.repeat(ua.asarray(h), repeats, axis=axis), np.repeat(h, repeats, axis=axis))
    check(ua.repeat(ua.asarray(h)[::-1, ::2], repeats, axis=axis),
          np.repeat(h[::-1, ::2], repeats, axis=axis))


def test_repeat_array_counts():
    h = sample((3, 4), np.float32)
    x = ua.asarray(h)
    r = np.array([0, 2, 1, 3])
    check(ua.repeat(x, ua.asarray(r), axis=1), np.repeat(h, r, axis=1))
    check(ua.repeat(x, ua.asarray([2]), axis=0), np.repeat(h, 2, axis=0))
    check(ua.repeat(x, ua.asarray(np.array([1, 0, 2])), axis=0), np.repeat(h, [1, 0, 2], axis=0))
    with pytest.raises(ValueError):
        ua.repeat(x, ua.asarray([1, 2]), axis=0)
    with pytest.raises(ValueError):
        ua.repeat(x, -1)
    with pytest.raises(ValueError):
        ua.repeat(x, ua.asarray([1, -1, 1]), axis=0)
    with pytest.raises(TypeError):
        ua.repeat(x, ua.asarray([1.5]), axis=0)


@pytest.mark.parametrize("shape, reps", [((3,), (2,)), ((2, 3), (2, 1)), ((2, 3), (3,)),
                                         ((3,), (2, 2)), ((2, 1, 3), (1, 2, 0, 2)), ((), (3,))])
def test_tile(dtype, shape, reps):
    h = sample(shape, dtype)
    check(ua.tile(ua.asarray(h), reps), np.tile(h, reps))
    with pytest.raises(ValueError):
        ua.tile(ua.asarray(h), (-1,))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take(dtype, axis):
    h = sample((4, 5), dtype)
    idx = np.array([0, -1, 2, 2, 1])
    r = ua.take(ua.asarray(h), ua.asarray(idx), axis=axis)
    check(r, np.take(h, idx, axis=axis))


def test_take_errors():
    x = ua.asarray(np.arange(6).reshape(2, 3))
    check(ua.take(ua.arange(5), ua.asarray([4, 0])), np.array([4, 0]))
    with pytest.raises(ValueError):
        ua.take(x, ua.asarray([0]))          # axis needed for 2-D
    with pytest.raises(IndexError):
        ua.take(x, ua.asarray([3]), axis=1)
    with pytest.raises(IndexError):
        ua.take(x, ua.asarray([0]), axis=2)
    with pytest.raises(TypeError):
        ua.take(x, [0], axis=0)


@pytest.mark.parametrize("n, axis", [(1, -1), (2, 0), (0, 1), (3, 1), (5, 1)])
def test_diff(dtype, n, axis):
    h = sample((4, 5), dtype)
    if h.dtype.kind == "u":
        h = np.sort(h, axis=axis)        # differences stay non-negative
    check(ua.diff(ua.asarray(h), n=n, axis=axis), np.diff(h, n=n, axis=axis))


def test_diff_prepend_append_and_errors():
    h = sample((3, 4), np.float32)
    x = ua.asarray(h)
    p, a = sample((3, 1), np.float32, 1), sample((3, 2), np.float32, 2)
    check(ua.diff(x, prepend=ua.asarray(p), append=ua.asarray(a)),
          np.diff(h, prepend=p, append=a))
    check(ua.diff(x, axis=0, append=ua.asarray(h[:1])), np.diff(h, axis=0, append=h[:1]))
    with pytest.raises(ValueError):
        ua.diff(x, n=-1)
    with pytest.raises(ValueError):
        ua.diff(ua.asarray(1.0))
    with pytest.raises(IndexError):
        ua.diff(x, axis=2)
    # n=0: the input itself, as NumPy's (no prepend/append, also for 0-d)
    assert ua.diff(x, n=0, prepend=ua.asarray(p)) is x
    s = ua.asarray(1.0)
    assert ua.diff(s, n=0) is s and np.diff(s, n=0) is s


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_axis(dtype, axis):
    h = sample((4, 5), dtype)
    idx = np.argsort(sample((4, 5), np.float32, 3), axis=axis)
    check(ua.take_along_axis(ua.asarray(h), ua.asarray(idx), axis=axis),
          np.take_along_axis(h, idx, axis=axis))
    first = np.zeros((1, 5) if axis == 0 else (4, 1), np.int64) - 1   # broadcast, negative
    check(ua.take_along_axis(ua.asarray(h), ua.asarray(first), axis=axis),
          np.take_along_axis(h, first, axis=axis))


def test_take_along_axis_errors():
    x = ua.ones((3, 4))
    with pytest.raises(ValueError):
        ua.take_along_axis(x, ua.asarray([0, 1]), axis=1)
    with pytest.raises(IndexError):
        ua.take_along_axis(x, ua.asarray([[4]]), axis=1)
    with pytest.raises(IndexError):
        ua.take_along_axis(x, ua.asarray([[0]]), axis=2)


def test_squeeze_repeated_axes():
    x = ua.zeros((1, 3, 1))
    for axis in ((0, 0), (2, -1)):
        with pytest.raises(ValueError):
            ua.squeeze(x, axis=axis)
    assert ua.squeeze(x, axis=(0, 2)).shape == (3,)


def test_diff_with_scalar_edges():
    # NumPy's: a scalar prepend/append is one step along the axis (and takes
    # part in the result dtype, as its array would)
    h = np.array([[1.0, 4, 9], [2, 3, 5]], np.float32)
    x = ua.asarray(h)
    for kw in (dict(prepend=0), dict(append=1.5), dict(prepend=0, append=0, axis=0)):
        got, want = ua.diff(x, **kw), np.diff(h, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(ua.asnumpy(got), want)


# ------------------------------------------------------- from a fuzz against NumPy
_RAVEL_VIEWS = {
    "step": (lambda x: x[::2], lambda h: h[::2]),
    "reversed": (lambda x: x[::-1], lambda h: h[::-1]),
    "reversed2d": (lambda x: ua.reshape(x, (2, 3))[::-1, ::-1], lambda h: h.reshape(2, 3)[::-1, ::-1]),
    "transposed": (lambda x: ua.reshape(x, (2, 3)).T, lambda h: h.reshape(2, 3).T),
}


@pytest.mark.parametrize("name", sorted(_RAVEL_VIEWS))
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_is_contiguous_as_numpy(name, order):
    """ravel returns a contiguous array, a copy unless x's memory is that
    already (a strided view folded into one stride was returned: writes
    changed x)."""
    make_ua, make_np = _RAVEL_VIEWS[name]
    h = np.arange(6.0)
    x = make_ua(ua.asarray(h))
    hv = make_np(h)
    expected = np.ravel(hv, order=order)
    r = ua.ravel(x, order=order)
    np.testing.assert_array_equal(ua.asnumpy(r), expected)
    assert r.flags.c_contiguous
    assert ua.shares_memory(r, x) == np.shares_memory(expected, hv)   # (a view where NumPy's is)
    np.testing.assert_array_equal(ua.asnumpy(x.ravel(order)), expected)
    y = ua.arange(4.0)
    y.ravel()[0] = 7   # (a contiguous array: still a view)
    assert float(y[0]) == 7


def test_views_of_read_only_arrays_stay_read_only():
    a = ua.arange(6.0)
    a.flags.writable = False
    for v in (ua.flip(a), a[1:], ua.reshape(a, (2, 3)), ua.reshape(a, (2, 3)).T,
              ua.broadcast_to(ua.arange(3.0), (2, 3))):
        assert not v.flags.writable
        with pytest.raises(ValueError):
            v.flags.writable = True
    a.flags.writable = True   # (the array itself may be made writable again, as NumPy's)
    a[0] = 5
    assert float(a[0]) == 5


def test_dimension_limit_and_argument_checks():
    with pytest.raises(ValueError):
        ua.expand_dims(ua.arange(3.0), axis=tuple(range(1, 101)))
    z = ua.zeros((1,) * 64)
    with pytest.raises(ValueError):
        ua.stack([z, z])
    with pytest.raises(ValueError):
        z[None]
    with pytest.raises(ValueError):
        ua.arange(3).transpose(())
    assert ua.asarray(5).transpose(()).shape == ()
    with pytest.raises(TypeError):
        ua.reshape(ua.arange(6), (True, 6))
    with pytest.raises(ValueError):
        ua.reshape(ua.arange(6), (2, 3), copy="x")
    with pytest.raises(np.exceptions.AxisError):
        ua.squeeze(ua.asarray(1.0), axis=(0, 0))
    assert ua.squeeze(ua.asarray(1.0), axis=0).shape == ()
    np.testing.assert_array_equal(
        ua.asnumpy(ua.repeat(ua.asarray([1.0, 2.0]), ua.asarray([1, 2], dtype=ua.uint64))),
        [1.0, 2.0, 2.0])
