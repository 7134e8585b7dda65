"""NumPy-style methods of usm_ndarray (usmarray/methods.py): every method of the
tables against the NumPy ndarray method, in-place ones (sort, fill), view's
item-size rule, get(), item(), tolist(), and the properties NumPy users
expect (size, nbytes)."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample
from usmarray import methods

FLOAT = np.float64 if device_supports(ua.float64) else np.float32
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _h(shape=(3, 4), dt=np.float32, seed=0):
    return sample(shape, dt, seed)


# method -> [(host array, args, kwargs)]; arrays among args become usm_ndarrays
CASES = {
    "sum": [(_h(), (), {}), (_h(), (0,), {}), (_h(), (), dict(axis=1, keepdims=True)),
            (_h(dt=np.int32), (), dict(dtype=np.int64))],
    "prod": [(_h(), (), dict(axis=0))],
    "mean": [(_h(), (), {}), (_h(dt=np.int32), (1,), {})],
    "std": [(_h(), (), {}), (_h(), (), dict(axis=0, ddof=1))],
    "var": [(_h(), (1,), dict(keepdims=True))],
    "min": [(_h(), (), {}), (_h(), (0,), {})],
    "max": [(_h(), (), dict(axis=-1))],
    "argmin": [(_h(), (), {}), (_h(), (1,), {})],
    "argmax": [(_h(), (), dict(axis=0, keepdims=True))],
    "any": [(_h() > 8, (), {}), (_h() > 8, (1,), {})],
    "all": [(_h(dt=np.int32), (), {}), (_h() > -30, (0,), {})],
    "cumsum": [(_h(), (), {}), (_h(), (1,), {})],
    "cumprod": [(_h((2, 3)), (), dict(axis=0))],
    "ravel": [(_h(), (), {}), (_h().T, (), {}), (_h(), ("F",), {})],
    "squeeze": [(_h((1, 3, 1)), (), {}), (_h((1, 3, 1)), (0,), {})],
    "swapaxes": [(_h((2, 3, 4)), (0, 2), {})],
    "clip": [(_h(), (-1, 1), {}), (_h(), (), dict(min=0)), (_h(), (None, 2.5), {})],
    "round": [(_h(), (), {}), (_h(), (1,), {})],
    "dot": [(_h((3, 4)), (_h((4, 2), seed=1),), {}), (_h((4,)), (_h((4,), seed=2),), {})],
    "nonzero": [(_h() > 0, (), {})],
    "repeat": [(_h((2, 3)), (2,), {}), (_h((2, 3)), (2,), dict(axis=0))],
    "take": [(_h(), (np.array([0, 2]),), dict(axis=1)), (_h(), (np.array([7, 0]),), {})],
    "argsort": [(_h(), (), {}), (_h(), (0,), dict(kind="stable")),
                (_h(), (), dict(kind="quicksort"))],
    "searchsorted": [(np.sort(_h((8,))), (_h((3,), seed=5),), {}),
                     (np.sort(_h((8,))), (_h((3,), seed=5),), dict(side="right"))],
    "diagonal": [(_h(), (), {}), (_h((3, 4, 2)), (1,), dict(axis1=1, axis2=0))],
    "trace": [(_h(), (), {}), (_h((4, 4)), (-1,), {}), (_h(dt=np.int32), (), dict(dtype=FLOAT))],
    "reshape": [(_h(), (2, 6), {}), (_h(), ((6, 2),), {}), (_h(), (-1,), {}),
                (_h(), ((4, 3),), dict(order="F"))],
    "transpose": [(_h((2, 3, 4)), (), {}), (_h((2, 3, 4)), (1, 0, 2), {}),
                  (_h((2, 3, 4)), ((2, 0, 1),), {}), (_h((3,)), (), {})],
    "flatten": [(_h(), (), {}), (_h().T, (), {}), (_h(), ("F",), {})],
    "astype": [(_h(), (np.int32,), {}), (_h(), (FLOAT,), {}), (_h(dt=np.int16), ("f4",), {})],
    "copy": [(_h(), (), {}), (np.asfortranarray(_h()), (), {})],
    "tolist": [(_h(), (), {}), (_h(dt=np.int32), (), {}), (_h(dt=np.complex64), (), {}),
               (np.float32(2.5) * np.ones((), np.float32), (), {})],
    "tobytes": [(_h(), (), {}), (_h().T, (), {}), (_h(), ("F",), {})],
    "item": [(_h((1,)), (), {}), (_h(), (5,), {}), (_h(), (-1,), {}), (_h(), (1, 2), {}),
             (_h(), ((2, 3),), {}), (_h((), dt=np.int32), (), {})],
    "view": [(_h(dt=np.int32), (np.float32,), {}), (_h(), (np.uint32,), {}),
             (_h(dt=np.uint8), (np.int8,), {}),
             (_h(), (), {})],
    # in place (return None): compared through the array afterwards, see test_in_place
    "sort": [(_h(), (), {}), (_h(), (0,), {}), (_h(dt=np.int32), (), dict(axis=-1)),
             (_h(), (), dict(kind="heapsort")), (_h(), (), dict(kind="stable"))],
    "fill": [(_h(), (3.5,), {}), (_h(dt=np.int32), (7,), {}), (_h(dt=np.bool_), (True,), {})],
    "get": [(_h(), (), {}), (_h().T, (), {}), (_h(), (), dict(order="F"))],
    "conj": [(_h(), (), {}), (_h(dt=np.complex64), (), {}), (_h(dt=np.int32), (), {})],
    "conjugate": [(_h(dt=np.complex64), (), {}), (_h(dt=np.bool_), (), {})],
}
IN_PLACE = {"sort", "fill"}
HOST_RESULT = {"tolist", "tobytes", "item", "get"}
# NumPy's index dtype (int64 everywhere) and usmarray's default integer
INDEX_RESULTS = {"argmin", "argmax", "argsort", "nonzero", "searchsorted"}


def _dev(v):
    return ua.asarray(v) if isinstance(v, np.ndarray) else v


def _calls():
    for name, cases in sorted(CASES.items()):
        for i, (h, args, kwargs) in enumerate(cases):
            yield pytest.param(name, h, args, kwargs, id=f"{name}-{i}")


def test_every_method_has_a_case():
    names = set(methods.DELEGATED) | set(methods.ADAPTED)
    assert names - set(CASES) == set(), "add cases for these methods"
    assert set(CASES) - names == set()
    for name in names:
        assert callable(getattr(ua.usm_ndarray, name)), name


def _compare(got, expected, name):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _compare(g, e, name)
        return
    if isinstance(expected, np.generic):
        expected = np.asarray(expected)
    check(got, expected, name not in INDEX_RESULTS, name)


@pytest.mark.parametrize("name, h, args, kwargs", list(_calls()))
def test_method_matches_numpy(name, h, args, kwargs):
    x = ua.asarray(h)
    if h.flags.f_contiguous and not h.flags.c_contiguous:
        x = ua.asarray(h, order="F")
    dargs = tuple(_dev(a) for a in args)
    hh = h.copy(order="K")
    if name == "get":   # (CuPy's method: NumPy's counterpart is a host copy)
        expected = np.array(hh, order=kwargs.get("order", "C"))
    else:
        expected = getattr(hh, name)(*args, **kwargs)
    got = getattr(x, name)(*dargs, **kwargs)
    if name in IN_PLACE:
        assert got is None and expected is None
        check(x, hh, what=name)
        return
    if name in HOST_RESULT:
        assert type(got) is type(expected), (name, type(got), type(expected))
        if isinstance(expected, np.ndarray):
            assert got.dtype == expected.dtype
            assert got.flags.c_contiguous == expected.flags.c_contiguous or \
                kwargs.get("order") == "F" and got.flags.f_contiguous
            np.testing.assert_array_equal(got, expected)
        else:
            assert got == expected, (name, got, expected)
        return
    _compare(got, expected, name)


def test_views_share_memory():
    x = ua.asarray(_h())
    for v in (x.reshape(2, 6), x.transpose(), x.ravel(), x.view(ua.int32), x.swapaxes(0, 1)):
        assert v._alloc is x._alloc
    f = x.flatten()
    assert f._alloc is not x._alloc
    c = x.copy()
    assert c._alloc is not x._alloc and c.flags.c_contiguous
    assert ua.asarray(np.asfortranarray(_h()), order="F").copy().flags.c_contiguous


def test_view_needs_same_itemsize():
    x = ua.asarray(_h())
    with pytest.raises(ValueError, match="item size"):
        x.view(np.float64)
    with pytest.raises(ValueError, match="item size"):
        x.view(np.int8)
    with pytest.raises(TypeError):
        x.view(np.float32, type=np.ndarray)
    # a view writes through
    v = x.view(ua.int32)
    v[0, 0] = 0
    assert float(x[0, 0]) == 0.0


def test_sort_in_place_of_a_view_and_read_only():
    h = _h((4, 6))
    x = ua.asarray(h)
    x[:, ::2].sort(axis=0)
    h[:, ::2].sort(axis=0)
    check(x, h)
    x.flags.writable = False
    with pytest.raises(ValueError):
        x.sort()
    with pytest.raises(ValueError):
        x.fill(1)


def test_method_out_and_errors():
    h = _h()
    x = ua.asarray(h)
    o = ua.empty((4,), dtype=ua.float32)
    assert x.sum(axis=0, out=o) is o
    check(o, h.sum(axis=0))
    assert x.mean(0, out=o) is o
    check(o, h.mean(0))
    with pytest.raises(TypeError, match="where"):
        x.sum(where=x > 0)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        x.dot(np.ones(4, np.float32))
    with pytest.raises(ValueError):
        x.item()          # more than one element
    with pytest.raises(IndexError):
        x.item(12)
    with pytest.raises(TypeError):
        x.reshape(2.5, 3)
    with pytest.raises(TypeError, match="order"):
        x.sort(order="f0")


def test_get_into_out():
    h = _h()
    x = ua.asarray(h)
    out = np.empty((3, 4), np.float64)
    assert x.get(out=out) is out
    np.testing.assert_array_equal(out, h)
    with pytest.raises(ValueError):
        x.get(out=np.empty((2, 2)))


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("shape", [(), (1,), (3, 4)])
def test_get_keeps_shape_and_orders(shape, order):
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = ua.asarray(h)
    got = x.get(order=order)
    assert got.shape == h.shape       # (a 0-d array stays 0-d, as CuPy's get)
    np.testing.assert_array_equal(got, h)
    if order == "F" or (order == "A" and x.flags.fnc):
        assert got.flags.f_contiguous
    else:
        assert got.flags.c_contiguous
    got = x.T.get(order="A") if h.ndim == 2 else got
    assert got.flags.f_contiguous or got.ndim < 2
    with pytest.raises(ValueError, match="order"):
        x.get(order="Z")


@pytest.mark.parametrize("shape", [(), (0,), (3, 4), (2, 0, 5)])
def test_size_and_nbytes(shape, dtype):
    h = np.zeros(shape, dtype)
    x = ua.zeros(shape, dtype=dtype)
    assert x.size == h.size and isinstance(x.size, int)
    assert x.nbytes == h.nbytes and isinstance(x.nbytes, int)
    assert x.tolist() == h.tolist()


def test_methods_return_device_arrays():
    x = ua.asarray(_h())
    for r in (x.sum(), x.max(axis=0), x.cumsum(), x.reshape(12), x.clip(0, 1), x.round()):
        assert isinstance(r, ua.usm_ndarray) and r.device == x.device


def test_round_with_decimals_past_the_float_range():
    # 10**400 is inf: NumPy's NaN, not Python's OverflowError
    h = np.array([1.234, -5.6])
    x = ua.asarray(h)
    for d in (400, -400, 309, 2, -1):
        np.testing.assert_array_equal(ua.asnumpy(x.round(d)), np.round(h, d))


@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
def test_item_keys_as_numpy(shape):
    h = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    x = ua.asarray(h)
    keys = [(), (0,), ((0,),), (-1,), (1,), ((1,),), (5,), (1, 2), ((1, 2),), ((0, 0),),
            (np.int64(3),), (6,), ((),), (True,), (np.bool_(True),), ((True,),)]
    for args in keys:
        try:
            expected = h.item(*args)
        except (TypeError, ValueError, IndexError) as e:
            with pytest.raises(type(e)):
                x.item(*args)
            continue
        assert x.item(*args) == expected, args
