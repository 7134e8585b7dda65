"""NumPy's protocols on usm_ndarray (usmarray/numpy_protocols.py): every mapped
NumPy ufunc and function, iterated from the mapping tables themselves, against
NumPy on host data; ufunc out=, reduce and accumulate; rejected keywords;
unmapped names; NumPy operands next to usm_ndarrays (TypeError saying what to do)."""

import operator

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample
from usmarray import numpy_protocols as nps

HAS_F64 = device_supports(ua.float64)
FLOAT = np.float64 if HAS_F64 else np.float32
COMPLEX = np.complex128 if HAS_F64 else np.complex64
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

UFUNC_DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float32", FLOAT().dtype.name,
                "complex64"]


def same(got, expected, what="", check_dtype=True):
    """A dispatched result (arrays, tuples of them, Python scalars) against NumPy's."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (what, type(got))
        for g, e in zip(got, expected):
            same(g, e, what, check_dtype)
        return
    if isinstance(expected, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), what
        for g, e in zip(got, expected):
            same(g, e, what, check_dtype)
        return
    if isinstance(expected, (bool, int, float, tuple, np.bool_)) and not isinstance(got, ua.usm_ndarray):
        assert got == expected, (what, got, expected)
        return
    if isinstance(expected, np.dtype) or isinstance(got, np.dtype):
        assert got == expected, (what, got, expected)
        return
    check(got, expected, check_dtype, what)


# ======================================================================= ufuncs
def _ufunc_inputs(fn, dt):
    """Host operands for a ufunc: varied values; the second operand of binary
    integer operations is small and positive (shifts, powers, divisions)."""
    a = sample((3, 5), dt, seed=1)
    if fn.nin == 1:
        return (a,)
    b = sample((3, 5), dt, seed=2)
    if np.dtype(dt).kind in "iu":
        b = (np.abs(b.astype(np.int64)) % 5 + 1).astype(dt)
    return a, b


# NumPy results whose dtype differs from usmarray's on purpose (the array API's rule)
# (compared with NumPy computing in usmarray's result dtype): bool inputs compute in
# int8 where the array API has no bool loop; reciprocal of integers is a float
# (NumPy's is an integer); rint (ua.round) keeps integers (NumPy's: float64)
DTYPE_DIFFERS = {
    "reciprocal": "biu", "rint": "biu", "absolute": "b", "ceil": "b", "floor": "b",
    "trunc": "b", "maximum": "b", "minimum": "b",
}


@pytest.mark.parametrize("dt", UFUNC_DTYPES)
@pytest.mark.parametrize("name", sorted(set(nps.UFUNCS) - {"matmul", "vecdot", "matvec", "vecmat"}))
def test_ufunc_matches_numpy(name, dt):
    if not device_supports(np.dtype(dt)):
        pytest.skip("dtype not on this device")
    ufunc = getattr(np, name)
    fn = nps.UFUNCS[name]
    hs = _ufunc_inputs(fn, dt)
    xs = [ua.asarray(h) for h in hs]
    try:
        direct = fn(*xs)
    except TypeError:
        # the usmarray function does not take this dtype: neither does the dispatch
        with pytest.raises(TypeError):
            ufunc(*xs)
        return
    got = ufunc(*xs)
    if ufunc.nout > 1:   # (divmod, modf)
        with np.errstate(all="ignore"):
            for g, d, e in zip(got, direct, ufunc(*hs)):
                assert g.dtype == d.dtype
                check(g, e, True, name)
        return
    assert isinstance(got, ua.usm_ndarray)
    assert got.dtype == direct.dtype
    differs = np.dtype(dt).kind in DTYPE_DIFFERS.get(name, "")
    if differs:
        hs = [h.astype(got.dtype) for h in hs]
    with np.errstate(all="ignore"):
        try:
            expected = ufunc(*hs)
        except TypeError:
            return   # NumPy has no loop for it (e.g. bool subtract): nothing to compare
    if differs:
        expected = expected.astype(got.dtype)
    check(got, expected, True, name)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "less", "arctan2", "power"])
def test_ufunc_with_scalars(name):
    h = sample((4, 3), np.float32)
    x = ua.asarray(h)
    ufunc = getattr(np, name)
    check(ufunc(x, 2), ufunc(h, np.float32(2)), what=name)
    check(ufunc(2.5, x), ufunc(np.float32(2.5), h), what=name)
    # NumPy scalars are scalars, not host arrays
    check(ufunc(x, np.float32(3)), ufunc(h, np.float32(3)), what=name)
    check(ufunc(np.float32(3), x), ufunc(np.float32(3), h), what=name)


def test_operators_with_numpy_scalars():
    h = sample((5,), np.float32)
    x = ua.asarray(h)
    check(np.float32(2) * x, np.float32(2) * h)
    check(x - np.float32(2), h - np.float32(2))
    check(np.int64(3) + x, h + np.float32(3))


def test_ufunc_matmul_and_vecdot():
    a, b = sample((3, 4), np.float32), sample((4, 2), np.float32, seed=3)
    check(np.matmul(ua.asarray(a), ua.asarray(b)), a @ b)
    o = ua.empty((3, 2), dtype=ua.float32)
    r = np.matmul(ua.asarray(a), ua.asarray(b), out=o)
    assert r is o
    check(o, a @ b)
    v, w = sample((3, 4), np.float32, seed=4), sample((3, 4), np.float32, seed=5)
    check(np.vecdot(ua.asarray(v), ua.asarray(w)), np.vecdot(v, w))
    check(np.vecdot(ua.asarray(v), ua.asarray(w), axis=0), np.vecdot(v, w, axis=0))
    with pytest.raises(TypeError, match="axes"):
        np.matmul(ua.asarray(a), ua.asarray(b), axes=[(0, 1), (0, 1), (0, 1)])


def test_ufunc_table_names():
    # the table is made from the elementwise table: array API names and NumPy's differ
    for np_name, ua_name in [("arcsin", "asin"), ("power", "pow"), ("absolute", "abs"),
                             ("invert", "bitwise_invert"), ("left_shift", "bitwise_left_shift"),
                             ("conjugate", "conj"), ("true_divide", "divide"), ("rint", "round"),
                             ("sin", "sin"), ("add", "add")]:
        assert nps.UFUNCS[np_name] is getattr(ua, ua_name)
    # every elementwise function NumPy has as a ufunc (by name or alias) is mapped
    for name in ua.elementwise.__all__:
        u = getattr(np, name, None)
        if isinstance(u, np.ufunc):
            assert u.__name__ in nps.UFUNCS, name


# ------------------------------------------------------------------ out=
@pytest.mark.parametrize("out_dt", [np.float32, FLOAT])
def test_ufunc_out(out_dt):
    a, b = sample((4, 5), np.float32), sample((4, 5), np.float32, seed=1)
    x, y = ua.asarray(a), ua.asarray(b)
    o = ua.empty((4, 5), dtype=out_dt)
    r = np.add(x, y, out=(o,))
    assert r is o
    check(o, (a + b).astype(out_dt))
    r = np.sin(x, out=o)
    assert r is o
    np.testing.assert_allclose(ua.asnumpy(o), np.sin(a), rtol=1e-6)   # computed in float32
    # in place: the operand is the output
    np.multiply(x, 2, out=x)
    check(x, a * 2)


def test_ufunc_result_broadcasts_into_out():
    # NumPy's rule for ufuncs: the result broadcast to out's shape
    h = sample((3, 4), np.float32)
    x = ua.asarray(h)
    out, e = ua.empty((3, 4), dtype=ua.float32), np.empty((3, 4), np.float32)
    assert np.add(x[0], 1, out=out) is out
    np.add(h[0], 1, out=e)
    check(out, e)
    assert np.sin(x[:, :1], out=(out,)) is out
    check(out, np.broadcast_to(np.sin(h[:, :1]), (3, 4)))
    with pytest.raises(ValueError):
        np.add(x, 1, out=ua.empty((4,), dtype=ua.float32))   # the other way: refused


def test_ufunc_out_errors():
    x = ua.asarray(sample((4,), np.float32))
    with pytest.raises(ValueError):
        np.add(x, x, out=ua.empty((3,), dtype=ua.float32))
    with pytest.raises(TypeError, match="ua.asarray"):
        np.add(x, x, out=np.empty(4, np.float32))
    with pytest.raises(ValueError):
        # a float result into an integer out: not a same-kind cast
        np.add(x, x, out=ua.empty((4,), dtype=ua.int32))


def test_ufunc_dtype_keyword():
    h = sample((6,), np.int32)
    x = ua.asarray(h)
    check(np.add(x, x, dtype=np.float32), np.add(h, h, dtype=np.float32))
    check(np.sqrt(x, dtype=np.float32), np.sqrt(h, dtype=np.float32))
    # inputs cast within their kind only (NumPy's casting="same_kind"): a
    # float -> int cast truncated them
    f = ua.asarray([1.7, -2.6, 3.5])
    for call in (lambda: np.sin(f, dtype="int64"), lambda: np.sin(f, dtype=bool),
                 lambda: np.add(f, 1, dtype="int8")):
        with pytest.raises(TypeError, match="same_kind"):
            call()
    # (a reduction's input is cast as its dtype says, as NumPy's: truncated)
    assert int(np.add.reduce(f, dtype="int32")) == np.add.reduce(ua.asnumpy(f), dtype="int32")


@pytest.mark.parametrize("kwargs", [dict(where=True), dict(casting="same_kind"), dict(subok=True),
                                    dict(order="C")])
def test_ufunc_default_keywords_accepted(kwargs):
    h = sample((3, 4), np.float32)
    check(np.add(ua.asarray(h), 1, **kwargs), np.add(h, np.float32(1), **kwargs))


@pytest.mark.parametrize("kwargs, word", [
    (dict(where=False), "where"), (dict(casting="unsafe"), "casting"),
    (dict(subok=False), "subok"), (dict(signature="ff->f"), "signature"),
])
def test_ufunc_unsupported_keywords(kwargs, word):
    x = ua.asarray(sample((3,), np.float32))
    with pytest.raises(TypeError, match=word):
        np.add(x, x, **kwargs)


def test_ufunc_where_array_rejected():
    x = ua.asarray(sample((3,), np.float32))
    with pytest.raises(TypeError, match="where=.*ua.where"):
        np.sin(x, where=x > 0)
    with pytest.raises(TypeError, match="where"):
        np.add.reduce(x, where=x > 0)


# ------------------------------------------------------------------ reduce / accumulate
REDUCE_DTYPES = ["bool", "int32", "float32", FLOAT().dtype.name]


@pytest.mark.parametrize("dt", REDUCE_DTYPES)
@pytest.mark.parametrize("name", sorted(nps.REDUCE))
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), ((0, 2), False),
                                            (-1, False)])
def test_ufunc_reduce(name, dt, axis, keepdims):
    ufunc = getattr(np, name)
    h = sample((3, 4, 5), dt)
    x = ua.asarray(h)
    try:
        direct = getattr(ua, nps.REDUCE[name])(x, axis=axis, keepdims=keepdims)
    except TypeError:
        with pytest.raises(TypeError):
            ufunc.reduce(x, axis=axis, keepdims=keepdims)
        return
    got = ufunc.reduce(x, axis=axis, keepdims=keepdims)
    assert got.dtype == direct.dtype
    check(got, ufunc.reduce(h, axis=axis, keepdims=keepdims), what=name)


@pytest.mark.parametrize("name", sorted(nps.REDUCE))
def test_ufunc_reduce_default_axis_is_0(name):
    ufunc = getattr(np, name)
    h = sample((3, 4), np.int32)
    check(ufunc.reduce(ua.asarray(h)), ufunc.reduce(h), what=name)


def test_ufunc_reduce_dtype_and_out():
    h = sample((3, 4), np.int32)
    x = ua.asarray(h)
    check(np.add.reduce(x, dtype=np.int64), np.add.reduce(h, dtype=np.int64))
    check(np.maximum.reduce(x, axis=1, dtype=np.float32),
          np.maximum.reduce(h, axis=1, dtype=np.float32))
    o = ua.empty((4,), dtype=ua.int64)
    assert np.add.reduce(x, out=o) is o
    check(o, np.add.reduce(h).astype(np.int64))
    o = ua.empty((3,), dtype=ua.bool)
    assert np.logical_or.reduce(x, axis=1, out=(o,)) is o
    check(o, np.logical_or.reduce(h, axis=1))


@pytest.mark.parametrize("dt", ["int32", "float32", FLOAT().dtype.name])
@pytest.mark.parametrize("name", sorted(nps.ACCUMULATE))
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_ufunc_accumulate(name, dt, axis):
    ufunc = getattr(np, name)
    h = sample((4, 5), dt)
    x = ua.asarray(h)
    kw = {} if axis is None else {"axis": axis}
    check(ufunc.accumulate(x, **kw), ufunc.accumulate(h, **kw), what=name)


def test_ufunc_accumulate_dtype_and_out():
    h = sample((6,), np.int8)
    x = ua.asarray(h)
    check(np.add.accumulate(x, dtype=np.int64), np.add.accumulate(h, dtype=np.int64))
    o = ua.empty((6,), dtype=ua.int64)
    assert np.multiply.accumulate(x, dtype=np.int64, out=(o,)) is o
    check(o, np.multiply.accumulate(h, dtype=np.int64))


@pytest.mark.parametrize("call", [
    lambda x: np.subtract.reduce(x), lambda x: np.maximum.accumulate(x),
    lambda x: np.ldexp.accumulate(x), lambda x: np.ldexp.reduceat(x, [0, 1]),
    lambda x: np.sin.at(x, [0]), lambda x: np.add.reduce(x, initial=1.0),
])
def test_ufunc_unsupported_methods(call):
    x = ua.asarray(sample((4,), np.float32))
    with pytest.raises(TypeError, match="numpy"):
        call(x)


def test_unmapped_ufunc():
    x = ua.asarray(sample((4,), np.float32))
    with pytest.raises(TypeError, match="numpy.isnat"):
        np.isnat(x)


# ======================================================================= mixed operands
def test_mixed_numpy_operands_message():
    h = np.ones(3, dtype=np.float32)
    x = ua.ones(3, dtype=ua.float32)
    for expr in (lambda: h + x, lambda: x + h, lambda: h * x, lambda: x - h, lambda: h < x,
                 lambda: x == h, lambda: np.add(h, x), lambda: np.add(x, h),
                 lambda: np.sin(x, out=np.empty(3, np.float32))):
        with pytest.raises(TypeError, match=r"ua\.asarray"):
            expr()
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        h += x
    y = ua.ones(3, dtype=ua.float32)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        y += h
    check(y, np.ones(3, np.float32))   # unchanged


def test_mixed_operands_in_functions():
    h = np.ones(3, dtype=np.float32)
    x = ua.ones(3, dtype=ua.float32)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.concatenate([x, h])
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.where(x > 0, x, h)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        x.dot(h)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.add(x, [1.0, 2.0, 3.0])
    # after ua.asarray it works, on the device
    check(ua.asarray(h) + x, h + h)


def test_numpy_functions_on_host_arrays_unchanged():
    h = sample((3, 4), np.float32)
    assert isinstance(np.sum(h), np.floating)
    assert isinstance(np.sin(h), np.ndarray)


def test_array_conversion_still_copies_to_host():
    h = sample((3, 4), np.float32)
    x = ua.asarray(h)
    for conv in (np.asarray, np.array, np.asanyarray):
        r = conv(x)
        assert isinstance(r, np.ndarray)
        np.testing.assert_array_equal(r, h)
    assert np.asarray(x, dtype=np.float64).dtype == np.float64


# ======================================================================= functions
def _f(shape=(3, 4), dt=np.float32, seed=0):
    return sample(shape, dt, seed)


def _spd(n=4):
    a = sample((n, n), FLOAT, seed=7)
    return a @ a.T + n * np.eye(n, dtype=FLOAT)


_SORTED = np.sort(_f((12,), np.float32, 3))
_INTS = np.array([3, 1, 2, 3, 1, 0, 5, 2], np.int32)
_NANS = np.where(np.arange(12).reshape(3, 4) % 5 == 1, np.nan, _f()).astype(np.float32)

# NumPy name -> [(args, kwargs)], host data (arrays become usm_ndarrays; lists of
# arrays become lists of usm_ndarrays). Every entry of FUNCTIONS needs one.
CASES = {
    "sum": [((_f(),), {}), ((_f(),), dict(axis=0, keepdims=True)), ((_f(dt=np.int32),),
                                                                     dict(dtype=np.int64))],
    "prod": [((_f(),), dict(axis=1))],
    "mean": [((_f(),), {}), ((_f(),), dict(axis=(0, 1))), ((_f(dt=np.int32),), {}),
             ((_f(dt=np.int32),), dict(dtype=np.float32))],
    "std": [((_f(),), {}), ((_f(),), dict(axis=0, ddof=1))],
    "var": [((_f(),), dict(axis=1, keepdims=True)), ((_f(),), dict(ddof=2))],
    "min": [((_f(),), {}), ((_f(),), dict(axis=0))],
    "max": [((_f(),), dict(axis=-1, keepdims=True))],
    "amin": [((_f(),), dict(axis=1))],
    "amax": [((_f(),), {})],
    "argmin": [((_f(),), {}), ((_f(),), dict(axis=0))],
    "argmax": [((_f(),), dict(axis=1, keepdims=True))],
    "all": [((_f(dt=np.int32),), {}), ((_f() > 0,), dict(axis=0))],
    "any": [((_f() > 5,), dict(axis=1))],
    "count_nonzero": [((_f() > 0,), {}), ((_f(dt=np.int32),), dict(axis=0))],
    "nonzero": [((_f() > 0,), {})],
    "concatenate": [(([_f(), _f(seed=1)],), {}), (([_f(), _f((3, 2))],), dict(axis=1)),
                    (([_f(), _f(seed=1)],), dict(axis=None))],
    "stack": [(([_f(), _f(seed=1)],), {}), (([_f(), _f(seed=1)],), dict(axis=-1))],
    "transpose": [((_f((2, 3, 4)),), {}), ((_f((2, 3, 4)),), dict(axes=(1, 0, 2))),
                  ((_f((2, 3, 4)), (2, 0, 1)), {})],
    "matrix_transpose": [((_f((2, 3, 4)),), {})],
    "reshape": [((_f(), (2, 6)), {}), ((_f(), (-1,)), dict(order="F"))],
    "ravel": [((_f(),), {}), ((_f(),), dict(order="F"))],
    "expand_dims": [((_f(), 1), {})],
    "squeeze": [((_f((1, 3, 1)),), {}), ((_f((1, 3, 1)),), dict(axis=2))],
    "flip": [((_f(),), {}), ((_f(),), dict(axis=1))],
    "roll": [((_f(), 2), {}), ((_f(), -1), dict(axis=0))],
    "tile": [((_f((2, 3)), (2, 2)), {})],
    "repeat": [((_f((2, 3)), 2), {}), ((_f((2, 3)), 3), dict(axis=1))],
    "moveaxis": [((_f((2, 3, 4)), 0, -1), {})],
    "swapaxes": [((_f((2, 3, 4)), 0, 2), {})],
    "broadcast_to": [((_f((1, 4)), (3, 4)), {})],
    "broadcast_arrays": [((_f((1, 4)), _f((3, 1))), {})],
    "meshgrid": [((_f((3,)), _f((2,))), {}), ((_f((3,)), _f((2,))), dict(indexing="ij"))],
    "diff": [((_f(),), {}), ((_f(),), dict(axis=0, n=2))],
    "unstack": [((_f(),), {})],
    "sort": [((_f(),), {}), ((_f(),), dict(axis=0)), ((_f(),), dict(axis=None)),
             ((_f(),), dict(kind="quicksort")), ((_f(),), dict(kind="mergesort"))],
    "argsort": [((_f(),), {}), ((_f(),), dict(axis=0, kind="stable")),
                ((_f(),), dict(axis=None, kind="stable"))],
    "searchsorted": [((_SORTED, _f((5,), seed=4)), {}), ((_SORTED, _SORTED[3:6]), dict(side="right"))],
    "isin": [((_INTS, _INTS[:3]), {}), ((_INTS, _INTS[:3]), dict(invert=True))],
    "unique": [((_INTS,), {}), ((_INTS,), dict(return_counts=True)),
               ((_INTS,), dict(return_index=True, return_inverse=True, return_counts=True)),
               ((_INTS.reshape(2, 4),), dict(return_inverse=True))],
    "unique_values": [((_INTS,), {})],
    "unique_counts": [((_INTS,), {})],
    "unique_inverse": [((_INTS.reshape(2, 4),), {})],
    "unique_all": [((_INTS,), {})],
    "clip": [((_f(), -1, 1), {}), ((_f(),), dict(min=0)), ((_f(), None, 0.5), {})],
    "take": [((_f(), np.array([0, 2])), dict(axis=1)), ((_f(), np.array([5, 1])), {}),
             ((_f(), np.array([11, 1])), dict(axis=None))],
    "take_along_axis": [((_f(), np.argsort(_f(), axis=1)), dict(axis=1)),
                        ((_f(), np.array([3, 0, 11])), dict(axis=None))],
    "can_cast": [((_f(), np.float64), {}), ((_f(), np.int8), dict(casting="same_kind"))],
    "tensordot": [((_f((3, 4)), _f((4, 5))), dict(axes=1))],
    "dot": [((_f((3, 4)), _f((4, 2))), {}), ((_f((4,)), _f((4,), seed=1)), {}),
            ((_f((2, 3, 4)), _f((4, 2))), {}), ((_f((3, 4)), _f((4,))), {})],
    "outer": [((_f((3,)), _f((4,))), {}), ((_f((2, 2)), _f((3,))), {})],   # (NumPy flattens)
    "cumsum": [((_f(),), {}), ((_f(),), dict(axis=1)), ((_f(dt=np.int8),), dict(dtype=np.int64))],
    "cumprod": [((_f(),), dict(axis=0)), ((_f((2, 3)),), {})],
    "cumulative_sum": [((_f(),), dict(axis=1)), ((_f((5,)),), dict(include_initial=True))],
    "cumulative_prod": [((_f(),), dict(axis=0))],
    "zeros_like": [((_f(),), {}), ((_f(),), dict(dtype=np.int32)), ((_f(),), dict(shape=(2, 5)))],
    "ones_like": [((_f(),), {}), ((_f(),), dict(shape=7, dtype=np.int8))],
    "empty_like": [((_f(),), {}), ((_f(),), dict(dtype=np.int16)), ((_f(),), dict(shape=(0, 2)))],
    "full_like": [((_f(), 7), {}), ((_f(), 2.5), dict(shape=(2,)))],
    "copy": [((_f(),), {})],
    "astype": [((_f(), np.int32), {})],
    "tril": [((_f(),), {}), ((_f(),), dict(k=1))],
    "triu": [((_f(),), dict(k=-1))],
    "real": [((_f(dt=np.complex64),), {})],
    "imag": [((_f(dt=np.complex64),), {})],
    "angle": [((_f(dt=np.complex64),), {}), ((_f(),), {}), ((np.array([1, -1], np.int8),), {}),
              ((np.array([3, -2], np.int16),), {}), ((np.array([True, False]),), {})],
    "round": [((_f(),), {}), ((_f(),), dict(decimals=2)), ((_f(dt=FLOAT) * 100,), dict(decimals=-1)),
              ((_f(dt=np.complex64),), dict(decimals=1)), ((_f(dt=np.int32),), {}),
              # integers: unchanged for decimals > 0, NumPy's float way below
              ((_INTS * 37,), dict(decimals=-1)), ((_INTS * 37,), dict(decimals=-2)),
              ((_INTS,), dict(decimals=2)), ((_INTS.astype(np.int8),), dict(decimals=-1))],
    "allclose": [((_f(), _f()), {}), ((_f(), _f(seed=1)), {}),
                 ((_f(), _f() * 1.001), dict(rtol=1e-2)), ((_NANS, _NANS), dict(equal_nan=True))],
    "isclose": [((_f(), _f() * 1.001), {}), ((_f(), _f() * 1.001), dict(rtol=1e-2)),
                ((_NANS, _NANS), dict(equal_nan=True)), ((_f(), 0.5), dict(atol=1.0))],
    # (two separate arrays; shared memory: test_numpy_idioms.test_shares_memory)
    "shares_memory": [((_f(), _f()), {})],
    "may_share_memory": [((_f(), _f()), {})],
    "array_equal": [((_f(), _f()), {}), ((_f(), _f((4, 3))), {}), ((_NANS, _NANS), {}),
                    ((_NANS, _NANS), dict(equal_nan=True))],
    "array_equiv": [((_f(), _f()), {}), ((_f(), _f()[:1]), {}), ((_f()[:1], _f()[:1]), {}),
                    ((_f(), _f((4, 3))), {})],
    "median": [((_f(),), {}), ((_f(),), dict(axis=1, keepdims=True)), ((_NANS,), dict(axis=0)),
               ((_f(dt=np.int32),), {})],
    "quantile": [((_f(), 0.3), {}), ((_f(), [0.25, 0.75]), dict(axis=0)),
                 ((_f(), 0.5), dict(axis=1, method="lower", keepdims=True))],
    "percentile": [((_f(), 30), {}), ((_f(), [10, 90]), dict(axis=(0, 1), method="midpoint"))],
    "nanmedian": [((_NANS,), {}), ((_NANS,), dict(axis=1, keepdims=True))],
    "nanquantile": [((_NANS, [0.2, 0.7]), dict(axis=0))],
    "nanpercentile": [((_NANS, 40), dict(axis=1, method="nearest"))],
    "nanmin": [((_NANS,), {}), ((_NANS,), dict(axis=1))],
    "nanmax": [((_NANS,), dict(axis=0, keepdims=True))],
    "nanargmin": [((_NANS,), {}), ((_NANS,), dict(axis=1))],
    "nanargmax": [((_NANS,), dict(axis=0))],
    "nansum": [((_NANS,), {}), ((_NANS,), dict(axis=1))],
    "nanprod": [((_NANS,), dict(axis=0))],
    "nancumsum": [((_NANS,), {}), ((_NANS,), dict(axis=1))],
    "nancumprod": [((_NANS,), dict(axis=0)), ((_INTS,), {})],
    "nanmean": [((_NANS,), {}), ((_NANS,), dict(axis=1, keepdims=True))],
    "nanvar": [((_NANS,), dict(axis=1)), ((_NANS,), dict(ddof=1))],
    "nanstd": [((_NANS,), dict(axis=0))],
    "average": [((_f(),), {}), ((_f(),), dict(axis=1, weights=_f((4,), seed=2) + 2)),
                ((_f(),), dict(weights=_f(seed=2) + 2, returned=True))],
    "ptp": [((_f(),), {}), ((_f(dt=np.int32),), dict(axis=1))],
    "atleast_1d": [((_f(()),), {}), ((_f(), _f((2,))), {})],
    "atleast_2d": [((_f((3,)),), {})],
    "atleast_3d": [((_f((3,)),), {}), ((_f(),), {})],
    "vstack": [(([_f(), _f((2, 4))],), {}), (([_f((4,)), _f((4,))],), {})],
    "hstack": [(([_f(), _f((3, 2))],), {}), (([_f((4,)), _f((2,))],), {})],
    "dstack": [(([_f(), _f()],), {})],
    "column_stack": [(([_f((3,)), _f()],), {})],
    "split": [((_f(), 2), dict(axis=1)), ((_f(), [1, 2]), {})],
    "array_split": [((_f(), 3), dict(axis=1))],
    "hsplit": [((_f(), 2), {})],
    "vsplit": [((_f(), 3), {})],
    "dsplit": [((_f((2, 3, 4)), 2), {})],
    "argwhere": [((_f() > 0,), {})],
    "flatnonzero": [((_f() > 0,), {})],
    "append": [((_f(), _f()), {}), ((_f(), _f((1, 4))), dict(axis=0))],
    "cov": [((_f(),), {}), ((_f(),), dict(rowvar=False, bias=True)), ((_f((4,)), _f((4,), seed=1)), {})],
    "corrcoef": [((_f(),), {}), ((_f((4,)), _f((4,), seed=1)), {})],
    "inner": [((_f(), _f((2, 4))), {})],
    "result_type": [((_f(), _f(dt=np.int32)), {})],
    "where": [((_f() > 0, _f(), _f(seed=1)), {}), ((_f() > 0,), {})],
    "trace": [((_f((3, 3)),), {}), ((_f((2, 3, 4)),), dict(axis1=1, axis2=2, offset=1))],
    "diagonal": [((_f((3, 4)),), {}), ((_f((2, 3, 4)),), dict(axis1=0, axis2=2))],
    "shape": [((_f(),), {})],
    "ndim": [((_f(),), {})],
    "size": [((_f(),), {}), ((_f(),), dict(axis=1))],
    "put_along_axis": [],   # in place: test_put_along_axis
    "put": [],   # in place: test_numpy_put
    "linalg.cholesky": [((_spd(),), {})],
    "linalg.cross": [((_f((4, 3)), _f((4, 3), seed=1)), {})],
    "linalg.det": [((_spd(),), {})],
    "linalg.diagonal": [((_f((2, 3, 4)),), dict(offset=1))],
    "linalg.eig": [],   # eigenvectors are unique up to scale: test_linalg_eig
    "linalg.eigh": [],
    "linalg.eigvals": [],
    "linalg.eigvalsh": [((_spd(),), {})],
    "linalg.inv": [((_spd(),), {})],
    "linalg.matmul": [((_f((3, 4)), _f((4, 2))), {})],
    "linalg.matrix_norm": [((_f(dt=FLOAT),), {}), ((_f(dt=FLOAT),), dict(ord=1))],
    "linalg.matrix_power": [((_spd(), 3), {})],
    "linalg.matrix_rank": [((_spd(),), {})],
    "linalg.matrix_transpose": [((_f((2, 3, 4)),), {})],
    "linalg.norm": [((_f(dt=FLOAT),), {}), ((_f(dt=FLOAT),), dict(axis=1)),
                    ((_f(dt=FLOAT),), dict(ord=1)), ((_f((2, 3, 4), FLOAT),), dict(axis=(0, 2)))],
    "linalg.outer": [((_f((3,)), _f((4,))), {})],
    "linalg.pinv": [((_f((4, 3), FLOAT),), {})],
    "linalg.qr": [],   # signs of Q and R columns may differ: test_linalg_factorisations
    "linalg.slogdet": [((_spd(),), {})],
    "linalg.solve": [((_spd(), _f((4, 2), FLOAT)), {})],
    "linalg.svd": [((_f((4, 3), FLOAT),), dict(compute_uv=False))],
    "linalg.svdvals": [((_f((4, 3), FLOAT),), {})],
    "linalg.lstsq": [],   # a tuple with an int: test_numpy_lstsq
    "linalg.tensordot": [((_f((3, 4)), _f((4, 5))), dict(axes=1))],
    "linalg.trace": [((_f((2, 3, 3)),), {})],
    "linalg.vecdot": [((_f(), _f(seed=1)), {})],
    "linalg.vector_norm": [((_f(dt=FLOAT),), {}), ((_f(dt=FLOAT),), dict(axis=1, ord=1))],
    "fft.fft": [((_f((4, 8), COMPLEX),), {}), ((_f((4, 8), FLOAT),), dict(n=6, axis=0, norm="ortho"))],
    "fft.ifft": [((_f((4, 8), COMPLEX),), {})],
    "fft.fftn": [((_f((4, 8), COMPLEX),), {})],
    "fft.ifftn": [((_f((4, 8), COMPLEX),), dict(axes=(0,)))],
    "fft.fft2": [((_f((2, 4, 8), COMPLEX),), {})],
    "fft.ifft2": [((_f((2, 4, 8), COMPLEX),), {})],
    "fft.rfft": [((_f((4, 8), FLOAT),), {})],
    "fft.irfft": [((_f((4, 5), COMPLEX),), {})],
    "fft.rfftn": [((_f((4, 8), FLOAT),), {})],
    "fft.irfftn": [((_f((4, 5), COMPLEX),), {})],
    "fft.rfft2": [((_f((2, 4, 8), FLOAT),), {})],
    "fft.irfft2": [((_f((2, 4, 5), COMPLEX),), {})],
    "fft.hfft": [((_f((4, 5), COMPLEX),), {})],
    "fft.ihfft": [((_f((4, 8), FLOAT),), {})],
    "fft.fftshift": [((_f((4, 5)),), {})],
    "fft.ifftshift": [((_f((4, 5)),), dict(axes=(1,)))],
    # NumPy's functions beyond the array API (tested over dtypes, shapes and axes in
    # test_numpy_extras.py, test_padding.py, test_histograms.py, test_einsum.py, test_io.py)
    "diag": [((_f((3, 4)),), dict(k=1)), ((_f((4,)),), dict(k=-1))],
    "diagflat": [((_f((2, 2)),), {})],
    "fill_diagonal": [],   # in place: test_numpy_extras.py
    "putmask": [], "place": [],   # in place: test_numpy_extras.py
    "union1d": [((np.array([3.0, 1, np.nan, 3]), np.array([2.0, np.nan])), {})],
    "intersect1d": [((np.array([5, 1, 3, 3, 9]), np.array([3, 9, 11])), {}),
                    ((np.array([5, 1, 3, 3, 9]), np.array([3, 9, 11])),
                     dict(return_indices=True))],
    "setdiff1d": [((np.array([5, 1, 3, 3, 9]), np.array([3, 11])), {})],
    "setxor1d": [((np.array([5, 1, 3, 3, 9]), np.array([3, 11])), {})],
    "select": [(([np.arange(4) > 1, np.arange(4) > 2], [np.arange(4.0), -np.arange(4.0)]),
                dict(default=0.5))],
    "choose": [((np.array([0, 1, 1]), [np.array([1, 2, 3]), np.array([10, 20, 30])]), {})],
    "compress": [((np.array([True, False, True]), _f((3, 3))), dict(axis=0))],
    "trim_zeros": [((np.array([0, 0, 1.5, 2, 0]),), {})],
    "sinc": [((np.array([0.0, 0.5, -1.5]),), {})],
    # (tested over dtypes and special values in test_special_functions.py,
    # test_functional.py, test_bitpacking.py, test_numpy_more.py)
    "isposinf": [((np.array([np.inf, -np.inf, np.nan, 1.0]),), {})],
    "isneginf": [((np.array([np.inf, -np.inf, np.nan, 1.0]),), {})],
    "fix": [((np.array([2.5, -2.5, 0.4]),), {}), ((_INTS,), {})],
    "i0": [((np.array([0.0, -1.5, 3.0, 40.0]),), {}), ((np.array([1, 2], np.int32),), {})],
    "rollaxis": [((_f((2, 3, 4)), 2), {}), ((_f((2, 3, 4)), 0, 2), {})],
    "copyto": [],   # in place: test_numpy_more.py
    "sort_complex": [((np.array([3.0, 1.0, 2.0], np.float32),), {}),
                     ((np.array([2 + 1j, 2 - 1j, 1 + 5j]),), {})],
    "common_type": [((np.array([1], np.int8), np.array([1.0], np.float32)), {})],
    "piecewise": [((np.array([-2.0, -0.5, 0.5, 2.0]), [np.array([True, True, False, False])],
                    [lambda v: -v, 7.0]), {})],
    "apply_along_axis": [((np.sum, 1, _f()), {}), ((np.diff, 0, _f()), {})],
    "apply_over_axes": [((np.sum, _f((2, 3, 4)), [0, 2]), {})],
    "packbits": [((np.array([[1, 0, 1], [0, 1, 1]], np.int8),), dict(axis=1)),
                 ((np.array([True, False, True]),), dict(bitorder="little"))],
    "unpackbits": [((np.array([[5, 255]], np.uint8),), dict(axis=1, count=11))],
    "resize": [((np.arange(3.0), (2, 4)), {})],
    "extract": [((np.array([1, 0, 2]), np.array([4.0, 5.0, 6.0])), {})],
    "around": [((np.array([1.25, 2.5, -3.755]),), dict(decimals=1))],
    "kron": [((_f((2, 3)), _f((3, 2), seed=1)), {})],
    "fliplr": [((_f(),), {})],
    "vander": [((_f((4,)),), {}), ((_INTS[:5],), dict(N=3, increasing=True)), ((_f((3,)),), dict(N=0))],
    "ediff1d": [((_f(),), {}), ((_INTS,), dict(to_begin=-1, to_end=np.array([7, 8])))],
    "gradient": [((_f(),), {}), ((_f(),), dict(axis=1, edge_order=2)), ((_f(), 0.5, 2.0), {}),
                 ((_f(), np.array([0.0, 0.5, 2.0]), np.array([1.0, 1.5, 3.0, 3.2])),
                  dict(edge_order=2)), ((_INTS,), {})],
    "unwrap": [((np.array([0.0, 3.0, 6.5, 0.2, -3.1, 3.0, 9.5]),), {}),
               ((np.array([[0.0, 350.0, 10.0], [5.0, 190.0, 20.0]]),), dict(period=360.0)),
               ((np.array([0.0, 4.0, 8.0, 1.0]),), dict(discont=5.0))],
    "polyval": [((np.array([3.0, -1.0, 2.0]), _f()), {}), ((np.array([1, 2, 3]), _INTS), {})],
    "polyfit": [((np.arange(6.0), np.arange(6.0) ** 2, 2), {})],
    "roots": [((np.array([1.0, -3.0, 2.0]),), {})],
    "polyadd": [((np.array([1.0, 2.0, 3.0]), np.array([4, 5])), {})],
    "polysub": [((np.array([1, 2]), np.array([4.0, 5.0, 6.0])), {})],
    "polymul": [((np.array([1.0, 2.0]), np.array([3.0, -1.0, 2.0])), {})],
    "polydiv": [((np.array([1.0, -3.0, 2.0, 5.0]), np.array([1.0, 2.0])), {})],
    "polyder": [((np.array([1.0, 2.0, 3.0, 4.0]),), {}), ((np.array([1, 2, 3]), 2), {})],
    "polyint": [((np.array([3.0, 2.0, 1.0]),), {}), ((np.array([1, 2]), 2, [1.0, 2.0]), {})],
    "array_repr": [((np.array([1.5, 2.0, -3.25]),), {}),
                   ((np.array([1.5, 2.0, -3.25]),), dict(precision=1))],
    "array_str": [((np.array([[1.5, 2.0], [0.0, -3.25]]),), dict(suppress_small=True))],
    "array2string": [((np.arange(6.0).reshape(2, 3),), dict(separator=", ", prefix="x = "))],
    "poly": [((np.array([1.0, 2.0]),), {}), ((np.array([[1.0, 2.0], [3.0, 4.0]]),), {})],
    "trapezoid": [((_f(),), {}), ((_f(),), dict(dx=0.5, axis=0)),
                  ((_f(),), dict(x=np.array([0.0, 0.5, 2.0, 2.5]))), ((_INTS,), {})],
    "flipud": [((_f(),), {}), ((_INTS,), {})],
    "rot90": [((_f(),), {}), ((_f(),), dict(k=-1)), ((_f((2, 3, 4)),), dict(k=3, axes=(2, 0))),
              ((_f(),), dict(k=2)), ((_f(),), dict(k=4))],
    "block": [(([[_f((2, 2)), _f((2, 3), seed=1)], [_f((1, 5), seed=2)]],), {})],
    "convolve": [((_f((7,)), _f((3,), seed=1)), {}), ((_INTS, np.array([1, -2], np.int32)),
                                                       dict(mode="same"))],
    "correlate": [((_f((7,)), _f((3,), seed=1)), {}), ((_f((3,)), _f((7,), seed=1)),
                                                       dict(mode="full"))],
    "vdot": [((_f(), _f(seed=1)), {}), ((_f(dt=np.complex64), _f(dt=np.complex64, seed=1)), {})],
    "cross": [((_f((4, 3)), _f((4, 3), seed=1)), {}), ((_f((3, 5)), _f((5, 3), seed=1)),
                                                       dict(axisa=0, axisc=0))],
    "partition": [((_f(),), dict(kth=2)), ((_f(),), dict(kth=(0, 1)))],
    "argpartition": [((_f(),), dict(kth=2))],
    # (a tuple of keys: NumPy dispatches on a tuple's items, not a list's)
    "lexsort": [(((_INTS % 2, _INTS),), {}), ((np.stack([_f((6,)) > 0.5, _f((6,), seed=3)]),), {})],
    "diag_indices_from": [((_f((3, 3)),), {})],
    "tril_indices_from": [((_f((3, 4)),), dict(k=1))],
    "triu_indices_from": [((_f((3, 4)),), {})],
    "logspace": [((_f(()), _f((), seed=1) + 3), dict(num=5))],
    "geomspace": [((np.abs(_f((2,))) + 1, np.abs(_f((2,), seed=1)) + 20), dict(num=4, axis=1))],
    "histogram": [((_f((40,)),), dict(bins=5))],
    "histogram_bin_edges": [((_f((40,)),), dict(bins="auto"))],
    "histogram2d": [((_f((40,)), _f((40,), seed=1)), dict(bins=4))],
    "histogramdd": [((_f((40, 3)),), dict(bins=3))],
    "bincount": [((np.array([0, 3, 1, 3, 7]),), {})],
    "digitize": [((_f((10,)), np.array([-1.0, 0.0, 1.0])), {})],
    "interp": [((_f((10,)), np.array([-1.0, 0.0, 2.0]), np.array([1.0, 3.0, -2.0])), {})],
    "nan_to_num": [((_NANS,), {})],
    "iscomplexobj": [((_f(),), {}), ((_f(dt=COMPLEX),), {})],
    "isrealobj": [((_f(),), {})],
    "iscomplex": [((_f(dt=COMPLEX),), {})],
    "isreal": [((_f(),), {})],
    "real_if_close": [((_f(dt=COMPLEX),), {}), ((_f(),), {})],
    "delete": [((_f(), [0, 2]), dict(axis=1))],
    "insert": [((_f(), 1, 5.0), dict(axis=0))],
    "unravel_index": [((np.array([1, 5, 7]), (3, 4)), {})],
    "ravel_multi_index": [(([np.array([0, 2]), np.array([1, 3])], (3, 4)), {})],
    "ix_": [((np.array([0, 2]), np.array([1, 3])), {})],
    "einsum": [(("ij,jk->ik", _f((3, 4)), _f((4, 2), seed=1)), {})],
    "einsum_path": [(("ij,jk,kl->il", _f((3, 4)), _f((4, 5)), _f((5, 2))), {})],
    "pad": [((_f(), 2), dict(mode="reflect"))],
    "save": [],   # files: test_io.py
    "savez": [],
    "savez_compressed": [],
}
# results whose dtype is NumPy's default, not the array API one usmarray keeps
VALUES_ONLY = {"fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn", "fft.fft2", "fft.ifft2",
               "fft.rfft", "fft.irfft", "fft.rfftn", "fft.irfftn", "fft.rfft2", "fft.irfft2",
               "fft.hfft", "fft.ihfft", "linalg.det", "linalg.slogdet", "unique", "unique_all",
               "unique_inverse", "unique_counts", "nonzero", "argmin", "argmax", "argsort",
               "searchsorted", "count_nonzero", "where", "argwhere", "flatnonzero", "nanargmin",
               "nanargmax"}


def _unique_sorted(got, expected, name):
    """unique_* results in any order (NumPy 2.3+ does not sort unique_values):
    compared sorted by value, inverse indices through the values they pick."""
    def host(r):
        r = tuple(r) if isinstance(r, tuple) else (r,)
        return [ua.asnumpy(a) if isinstance(a, ua.usm_ndarray) else np.asarray(a) for a in r]

    g, e = host(got), host(expected)
    assert len(g) == len(e), name
    og, oe = np.argsort(g[0], kind="stable"), np.argsort(e[0], kind="stable")
    np.testing.assert_array_equal(g[0][og], e[0][oe])
    fields = {"unique_counts": ["counts"], "unique_inverse": ["inverse"],
              "unique_all": ["index", "inverse", "counts"]}[name]
    for field, a, b in zip(fields, g[1:], e[1:]):
        if field == "inverse":
            np.testing.assert_array_equal(g[0][a], e[0][b])
        elif field == "index":
            np.testing.assert_array_equal(a[og], b[oe])   # first occurrences
        else:
            np.testing.assert_array_equal(a[og], b[oe])


# how a result is compared, where not by `same`
def _partitioned(got, expected, name):
    # NumPy's order within the parts is its introselect's: the rows hold the
    # same elements (the partition property: test_partition_argpartition)
    np.testing.assert_array_equal(np.sort(ua.asnumpy(got), -1), np.sort(expected, -1))


COMPARE = {
    "partition": _partitioned, "argpartition": _partitioned,
    "common_type": lambda g, e, n: _same_type(g, e),
    "i0": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, rtol=1e-14),
    # (a sum in another order, and vander's products by a scan)
    "trapezoid": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, rtol=1e-6),
    "polyfit": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, atol=1e-9),
    "roots": lambda g, e, n: np.testing.assert_allclose(np.sort(ua.asnumpy(g)), np.sort(e)),
    "poly": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, atol=1e-12),
    # (strings; the repr names its class)
    "array_repr": lambda g, e, n: g == e.replace("array(", "usm_ndarray(") or
    pytest.fail(f"{n}: {g!r} vs {e!r}"),
    "array_str": lambda g, e, n: g == e or pytest.fail(f"{n}: {g!r} vs {e!r}"),
    "array2string": lambda g, e, n: g == e or pytest.fail(f"{n}: {g!r} vs {e!r}"),
    "convolve": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, rtol=1e-5),
    "correlate": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, rtol=1e-5),
    "gradient": lambda g, e, n: [np.testing.assert_allclose(ua.asnumpy(a), b, rtol=1e-6, atol=1e-6)
                                 for a, b in (zip(g, e) if isinstance(e, tuple) else [(g, e)])],
    "vander": lambda g, e, n: np.testing.assert_allclose(ua.asnumpy(g), e, rtol=1e-6) or
    (g.dtype == e.dtype and g.flags.c_contiguous) or pytest.fail(f"{n}: {g.dtype}"),
    "unique_values": lambda g, e, n: np.testing.assert_array_equal(np.sort(ua.asnumpy(g)),
                                                                   np.sort(e)),
    "unique_counts": _unique_sorted, "unique_inverse": _unique_sorted,
    "unique_all": _unique_sorted,
    "empty_like": lambda g, e, n: (g.shape, g.dtype) == (e.shape, e.dtype) or
    pytest.fail(f"{n}: {g.shape} {g.dtype} vs {e.shape} {e.dtype}"),
    # (the path and NumPy's report of it, for the shapes)
    "einsum_path": lambda g, e, n: g == e or pytest.fail(f"{n}: {g} vs {e}"),
}


def _np_name(f):
    return f.what[len("numpy."):]


def _same_type(got, expected):
    assert got is expected, (got, expected)


def _to_device(v):
    if isinstance(v, np.ndarray):
        return ua.asarray(v)
    if isinstance(v, (list, tuple)):
        return type(v)(_to_device(w) for w in v)
    return v


def _np_func(name):
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_mapped_function_has_a_case():
    names = {_np_name(f) for f in nps.FUNCTIONS.values()}
    assert names - set(CASES) == set(), "add test cases for these mapped NumPy functions"
    assert set(CASES) - names == set(), "cases for functions no longer mapped"


def _calls():
    for name, cases in sorted(CASES.items()):
        for i, (args, kwargs) in enumerate(cases):
            yield pytest.param(name, args, kwargs, id=f"{name}-{i}")


@pytest.mark.parametrize("name, args, kwargs", list(_calls()))
def test_function_matches_numpy(name, args, kwargs):
    func = _np_func(name)
    expected = func(*args, **kwargs)
    got = func(*[_to_device(a) for a in args], **{k: _to_device(v) for k, v in kwargs.items()})
    if isinstance(expected, np.ndarray) or isinstance(got, ua.usm_ndarray):
        assert isinstance(got, ua.usm_ndarray), type(got)
    if isinstance(expected, np.generic):
        expected = np.asarray(expected)
    if name in COMPARE:
        COMPARE[name](got, expected, name)
        return
    if hasattr(expected, "_fields"):   # NumPy's result namedtuples
        expected = tuple(expected)
        got = tuple(got)
    same(got, expected, name, name not in VALUES_ONLY)


def test_function_results_stay_on_device():
    x = ua.asarray(_f())
    for r in (np.sum(x), np.mean(x, axis=0), np.concatenate([x, x]), np.linalg.matrix_norm(x),
              np.fft.fft(x)):
        assert isinstance(r, ua.usm_ndarray)
        assert r.device == x.device


def test_put_along_axis():
    h = _f()
    idx = np.argmax(h, axis=1, keepdims=True)
    x = ua.asarray(h)
    np.put_along_axis(x, ua.asarray(idx), 0.0, axis=1)
    np.put_along_axis(h, idx, 0.0, axis=1)
    check(x, h)
    # NumPy's rules, not usmarray's default mode="wrap": out of bounds raises
    bad = np.full_like(idx, h.shape[1])
    with pytest.raises(IndexError):
        np.put_along_axis(h, bad, 1.0, axis=1)
    with pytest.raises(IndexError):
        np.put_along_axis(x, ua.asarray(bad), 1.0, axis=1)
    check(x, h)
    v = ua.asarray(h[0].copy())
    np.put_along_axis(v, ua.asarray([-1, 0]), ua.asarray([5.0, 6.0]), axis=None)
    e = h[0].copy()
    np.put_along_axis(e, np.array([-1, 0]), np.array([5.0, 6.0]), axis=None)
    check(v, e)


def test_function_dtype_keyword_gives_that_dtype():
    # np.mean(ints, dtype=int64) is an int64 (NumPy divides, then converts);
    # a float input is not truncated to an integer dtype (same_kind)
    h = np.array([1, 2, 4], np.int8)
    x = ua.asarray(h)
    for f in (np.mean, np.std, np.var):
        for dt in ("int64", "float32"):
            check(f(x, dtype=dt), f(h, dtype=dt))
        assert x.mean(dtype="int64").dtype == np.int64
    with pytest.raises(TypeError, match="same_kind"):
        np.mean(ua.asarray([1.5, 2.5]), dtype="int64")


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_modes_are_numpys(mode):
    # np.take's modes, not usmarray's (dpctl.tensor's): "wrap" is modulo the
    # axis' length, "clip" clips negative indices to 0; indices of any shape
    h = np.arange(12).reshape(3, 4) * 10
    x = ua.asarray(h)
    for idx, axis in (([5, -7, 2], None), ([[0, 3], [1, 2]], 1), ([-1, 7], 0), (2, 1)):
        try:
            e = np.take(h, idx, axis=axis, mode=mode)
        except IndexError:
            with pytest.raises(IndexError):
                np.take(x, ua.asarray(idx), axis=axis, mode=mode)
            continue
        check(np.take(x, ua.asarray(idx), axis=axis, mode=mode), e)
    out = ua.empty((2,), dtype=x.dtype)
    assert np.take(x, ua.asarray([1, 13]), mode=mode if mode != "raise" else "wrap", out=out) is out


@pytest.mark.parametrize("axis", [-1, 0])
def test_partition_argpartition(axis):
    # the element at kth is the sorted one, smaller ones before, larger after
    h = sample((6, 7), np.float32)
    x = ua.asarray(h)
    n = h.shape[axis]
    for kth in (0, 3, -1, (1, 4)):
        p = ua.asnumpy(np.partition(x, kth, axis=axis))
        i = np.argpartition(x, kth, axis=axis)
        v = np.take_along_axis(h, ua.asnumpy(i), axis=axis)
        s = np.sort(h, axis=axis)
        for got in (p, v):
            for k in (kth if isinstance(kth, tuple) else (kth,)):
                k %= n
                at = np.take(got, [k], axis=axis)
                np.testing.assert_array_equal(at, np.take(s, [k], axis=axis))
                assert (np.take(got, range(k), axis=axis) <= at).all()
                assert (np.take(got, range(k, n), axis=axis) >= at).all()
    for bad in (7, -8, (1, 9)):
        with pytest.raises(ValueError):
            np.partition(ua.asarray(h[0]), bad)


def test_partition_kth_and_axis_none():
    h = sample((6, 7), np.float32)
    x = ua.asarray(h)
    # axis=None partitions the flattened array; kth may be a NumPy array
    np.testing.assert_array_equal(ua.asnumpy(np.partition(x, 20, axis=None))[20],
                                  np.sort(h, axis=None)[20])
    i = ua.asnumpy(np.argpartition(x, np.array([3, 30]), axis=None))
    np.testing.assert_array_equal(h.reshape(-1)[i][[3, 30]], np.sort(h, axis=None)[[3, 30]])
    with pytest.raises(ValueError, match="Booleans"):
        np.partition(x, True)
    with pytest.raises(TypeError, match="integer"):
        np.partition(x, [])
    with pytest.raises(TypeError, match="integer"):
        np.partition(x, 1.0)
    # NumPy checks no kth along an empty axis
    assert np.partition(ua.asarray(np.zeros(0)), 5).shape == (0,)


def test_sort_argsort_of_0d():
    x = ua.asarray(np.array(3.0))
    with pytest.raises(np.exceptions.AxisError):
        np.sort(x)
    np.testing.assert_array_equal(ua.asnumpy(np.sort(x, axis=None)), [3.0])
    r = np.argsort(x)
    assert r.shape == (1,) and ua.asnumpy(r).tolist() == [0]
    for kth in (0, -1):   # (NumPy partitions a 0-d array as a 1-d one)
        r = np.argpartition(x, kth)
        assert r.shape == (1,) and ua.asnumpy(r).tolist() == [0]
    with pytest.raises(ValueError):
        np.argpartition(x, 1)


def test_unique_equal_nan():
    h = np.array([np.nan, 1.0, np.nan, 2.0, 1.0, np.nan])
    x = ua.asarray(h)
    for kw in ({}, dict(return_index=True, return_inverse=True, return_counts=True),
               dict(return_counts=True), dict(equal_nan=False),
               dict(equal_nan=False, return_counts=True)):
        expected = np.unique(h, **kw)
        got = np.unique(x, **kw)
        expected = expected if isinstance(expected, tuple) else (expected,)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(ua.asnumpy(g), e)
    c = h + 1j * np.array([0, 0, 1, 0, 0, np.nan])
    np.testing.assert_array_equal(ua.asnumpy(np.unique(ua.asarray(c))), np.unique(c))


def test_vdot_of_bools():
    a, b = np.array([True, False, True]), np.array([False, False, True])
    got = np.vdot(ua.asarray(a), ua.asarray(b))
    assert got.dtype == np.bool_ and bool(got) == np.vdot(a, b)
    assert not bool(np.vdot(ua.asarray(a), ua.asarray(~a)))
    i = np.array([3, 4, 5], np.int32)
    assert int(np.vdot(ua.asarray(a), ua.asarray(i))) == np.vdot(a, i)


def test_lexsort_keys():
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 3, (4, 9)), rng.integers(0, 4, (4, 9))
    for axis in (-1, 0):
        check(ua.lexsort([ua.asarray(a), ua.asarray(b)], axis=axis), np.lexsort([a, b], axis=axis))
    check(ua.lexsort(ua.asarray(np.stack([a[0], b[0]]))), np.lexsort(np.stack([a[0], b[0]])))
    with pytest.raises(ValueError):
        ua.lexsort([ua.asarray(a), ua.asarray(b[:2])])


def test_ediff1d_trapezoid_vander_edges():
    x = ua.asarray(_INTS)
    with pytest.raises(TypeError):   # to_begin must cast to ints within its kind
        ua.ediff1d(x, to_begin=0.5)
    with pytest.raises(TypeError):
        ua.ediff1d(ua.asarray([True, False]))
    h = _f((3, 4))
    xs = np.cumsum(_f((3, 4), seed=2) ** 2, axis=1)   # sample points per row
    np.testing.assert_allclose(ua.asnumpy(ua.trapezoid(ua.asarray(h), ua.asarray(xs))),
                               np.trapezoid(h, xs), rtol=1e-6)
    with pytest.raises(ValueError):
        ua.trapezoid(ua.asarray(h), axis=2)
    with pytest.raises(ValueError):
        ua.vander(ua.asarray(h))
    with pytest.raises(ValueError):
        ua.vander(x, N=-1)
    check(ua.vander(x, 4), np.vander(_INTS, 4))


def test_linalg_factorisations():
    a = _spd()
    x = ua.asarray(a)
    w, v = np.linalg.eigh(x)
    np.testing.assert_allclose(ua.asnumpy(w), np.linalg.eigvalsh(a), rtol=1e-4)
    np.testing.assert_allclose(ua.asnumpy(v @ ua.asarray(np.diag(ua.asnumpy(w))) @ v.mT), a,
                               rtol=1e-4, atol=1e-4)
    q, r = np.linalg.qr(x)
    np.testing.assert_allclose(ua.asnumpy(q @ r), a, rtol=1e-4, atol=1e-4)
    u, s, vh = np.linalg.svd(x)
    np.testing.assert_allclose(ua.asnumpy(s), np.linalg.svd(a, compute_uv=False), rtol=1e-4)
    assert isinstance(u, ua.usm_ndarray) and isinstance(vh, ua.usm_ndarray)


def test_linalg_eig():
    a = _spd()
    x = ua.asarray(a)
    w = np.linalg.eigvals(x)
    assert isinstance(w, ua.usm_ndarray)
    np.testing.assert_allclose(np.sort(ua.asnumpy(w).real), np.linalg.eigvalsh(a), rtol=1e-4)
    w, v = np.linalg.eig(x)
    av = ua.asnumpy(ua.matmul(ua.astype(x, v.dtype), v))
    np.testing.assert_allclose(av, ua.asnumpy(v) * ua.asnumpy(w), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_creation_like(usm_type):
    x = ua.ones(2, dtype=ua.float32, usm_type=usm_type)
    h = np.ones(2, dtype=np.float32)
    for make in (lambda like: np.zeros((2, 3), like=like),
                 lambda like: np.ones(4, dtype=np.int16, like=like),
                 lambda like: np.full((2, 2), 7, like=like),
                 lambda like: np.full(3, 1.5, dtype=np.float32, like=like),
                 lambda like: np.arange(5, like=like), lambda like: np.arange(1, 9, 3, like=like),
                 lambda like: np.asarray(np.arange(6.0).reshape(2, 3), like=like),
                 lambda like: np.asarray([1, 2, 3], dtype=np.int8, like=like),
                 lambda like: np.array([[1.0, 2.0]], like=like),
                 lambda like: np.eye(3, 4, k=1, like=like),
                 lambda like: np.identity(3, like=like)):
        r = make(x)
        assert isinstance(r, ua.usm_ndarray)
        assert r.usm_type == usm_type and r.sycl_queue == x.sycl_queue
        check(r, make(h))
    e = np.empty((2, 3), like=x)
    assert isinstance(e, ua.usm_ndarray) and e.shape == (2, 3) and e.usm_type == usm_type
    r = np.zeros_like(x, shape=(3, 1))
    assert r.usm_type == usm_type and r.sycl_queue == x.sycl_queue
    r = np.array([1, 2], ndmin=2, like=x)   # (ndmin as NumPy's, which Dask asks for)
    assert r.shape == (1, 2) and r.usm_type == usm_type and r.sycl_queue == x.sycl_queue


# ------------------------------------------------------------------ out= and dtype=
def test_function_out():
    h = _f()
    x = ua.asarray(h)
    o = ua.empty((4,), dtype=ua.float32)
    assert np.sum(x, axis=0, out=o) is o
    check(o, np.sum(h, axis=0))
    assert np.mean(x, axis=0, out=o) is o         # usmarray's mean has no out=: copied in
    check(o, np.mean(h, axis=0))
    o2 = ua.empty((6, 4), dtype=FLOAT)
    assert np.concatenate([x, x], out=o2) is o2
    check(o2, np.concatenate([h, h]).astype(FLOAT))
    with pytest.raises(ValueError):
        np.sum(x, axis=0, out=ua.empty((3,), dtype=ua.float32))
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.sum(x, axis=0, out=np.empty(4, np.float32))


# ------------------------------------------------------------------ rejected calls
@pytest.mark.parametrize("call, word", [
    (lambda x: np.sum(x, where=x > 0), "where"),
    (lambda x: np.sum(x, initial=1.0), "initial"),
    (lambda x: np.max(x, initial=1.0), "initial"),
    (lambda x: np.round(ua.astype(x, ua.bool), decimals=-1), "decimals"),
    (lambda x: np.sort(x, order="a"), "order"),
])
def test_unsupported_arguments(call, word):
    x = ua.asarray(_f((3, 3)))
    with pytest.raises(TypeError, match=word):
        call(x)


@pytest.mark.parametrize("func", [np.is_busday, np.datetime_as_string, np.busday_count])
def test_unmapped_function_raises(func):
    x = ua.asarray(_f((4,)))
    args = (x,) * (2 if func is np.busday_count else 1)
    with pytest.raises(TypeError, match=f"{func.__module__}.{func.__name__}.*no usmarray"):
        func(*args)


def test_other_array_types_get_notimplemented():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

    x = ua.asarray(_f((3,)))
    assert x.__array_function__(np.sum, (ua.usm_ndarray, Other), (x,), {}) is NotImplemented
    assert np.add(x, Other()) == "other"
    assert np.concatenate([x, Other()]) == "other"
    assert operator.index(ua.asarray(np.int64(3))) == 3


def test_numpy_scalar_on_the_left_of_a_comparison():
    # NumPy hands the scalar to __array_ufunc__ as a 0-d ndarray
    h = np.array([1.0, 3.0, 5.0])
    x = ua.asarray(h)
    for s in (np.float64(2.5), np.float32(3.0), np.int64(3)):
        for op in (lambda a, b: a < b, lambda a, b: a == b, lambda a, b: a >= b,
                   lambda a, b: a + b):
            np.testing.assert_array_equal(ua.asnumpy(op(s, x)), op(s, h))


@pytest.mark.parametrize("name", sorted(n[len("numpy."):] for n in nps._AXIS_OF_0D) + ["mean",
                                                                                       "median"])
@pytest.mark.parametrize("axis", [0, -1])
def test_axis_of_a_0d_array(name, axis):
    # NumPy reads axis 0 (or -1) of a 0-d array as no axis in the functions built on
    # ufunc.reduce/accumulate, argmax and argsort; mean and median refuse it
    h = np.array(2.5)
    func = getattr(np, name)
    if name == "repeat":
        func = lambda a, axis: np.repeat(a, 2, axis=axis)   # noqa: E731
    try:
        expected = func(h, axis=axis)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            func(ua.asarray(h), axis=axis)
        return
    got = func(ua.asarray(h), axis=axis)
    assert np.shape(got) == np.shape(expected)
    np.testing.assert_array_equal(ua.asnumpy(got), expected)


_C2 = np.array([False, True])
NUMPY_EDGE_CALLS = {
    # (a differential fuzz of np.* on usm_ndarrays against NumPy found these apart)
    "take, clip mode, no indices": lambda m: np.take(m(np.arange(6).reshape(2, 3)),
                                                     m(np.zeros(0, np.int64)), axis=-1,
                                                     mode="clip"),
    "where, two Python scalars": lambda m: np.where(m(_C2), 1, np.nan),
    "where, a NumPy and a Python scalar": lambda m: np.where(m(_C2), np.float32(1), 2),
    "where, two ints": lambda m: np.where(m(_C2), 1, 2),
    "select, scalar choice and default": lambda m: np.select([m(_C2)], [1], default=300),
    "select, scalars of two kinds": lambda m: np.select([m(_C2)], [np.float32(1)], default=2),
    "add.reduce of 0-d": lambda m: np.add.reduce(m(np.array(4.0))),
    "maximum.reduce of 0-d, keepdims": lambda m: np.maximum.reduce(m(np.array(4.0)), axis=-1,
                                                                   keepdims=True),
    "cumulative_sum of 0-d": lambda m: np.cumulative_sum(m(np.array(8, np.uint8))),
    "cumulative_sum of 0-d, initial": lambda m: np.cumulative_sum(
        m(np.array(8, np.uint8)), include_initial=True, axis=-1),
    "cumulative_prod of 0-d": lambda m: np.cumulative_prod(m(np.array(3.0)), axis=0),
    "tril of 1-d": lambda m: np.tril(m(np.array([-5.0, -2.0], np.float32))),
    "triu of 1-d, k": lambda m: np.triu(m(np.array([1, 2, 3])), k=1),
    "nanmean of 0-d float, axis 0": lambda m: np.nanmean(m(np.array(3.0)), axis=0),
    # (a differential fuzz of creation and manipulation)
    "ravel order K of a strided view": lambda m: np.ravel(
        m(_A24)[:, ::-1, ::2].transpose(2, 0, 1), order="K"),
    "ravel order A of an F array": lambda m: np.ravel(m(_F6), order="A"),
    "flatten order K": lambda m: m(_A24).transpose(1, 2, 0)[::-1].flatten(order="K"),
    "flatten order A of an F array": lambda m: m(_F6).flatten(order="A"),
    "reshape order A of an F array": lambda m: np.reshape(m(_F6), (3, 2), order="A"),
    "repeat of 0-d along axis 0": lambda m: np.repeat(m(np.array(5.0)), 2, axis=0),
    "repeat, no counts along an empty axis": lambda m: np.repeat(m(np.zeros((2, 0))), [], axis=1),
    "roll, tuple shift without axis": lambda m: np.roll(m(np.arange(5)), (1, 2)),
    "meshgrid, mixed types and 0-d": lambda m: np.meshgrid(
        m(np.arange(3, dtype=np.int8)), m(np.array(7.0)), m(np.arange(2.0).reshape(2, 1))),
    "meshgrid, ij": lambda m: np.meshgrid(m(np.arange(3)), m(np.arange(2.0)), indexing="ij"),
    # (a differential fuzz of reductions and statistics)
    "prod of float16 into a float64 out": lambda m: np.prod(
        m(np.array([10.1, 9.9, 10.3], np.float16)), out=m(np.zeros((), np.float64))),
    "cumprod of float16 into a float32 out": lambda m: np.cumprod(
        m(np.array([10.1, 9.9, 10.3], np.float16)), out=m(np.zeros(3, np.float32))),
    "sum of bools into an int8 out": lambda m: np.sum(m(np.ones(300, bool)),
                                                      out=m(np.zeros((), np.int8))),
    "searchsorted of an empty strided v": lambda m: np.searchsorted(
        m(np.array([], np.uint64)), m(np.zeros((0, 10), np.uint64))[:, ::2]),
    "nanquantile of no integers, lower": lambda m: np.nanquantile(m(np.zeros(0, np.int8)), 0.5,
                                                                 method="lower"),
}
_A24 = np.arange(24.0).reshape(2, 3, 4)
_F6 = np.asfortranarray(np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("name", list(NUMPY_EDGE_CALLS))
def test_numpy_edge_calls(name):
    call = NUMPY_EDGE_CALLS[name]
    expected = call(lambda h: h)
    got = call(ua.asarray)
    if isinstance(expected, tuple):   # (meshgrid)
        assert isinstance(got, tuple) and len(got) == len(expected)
    else:
        got, expected = (got,), (expected,)
    for g, e in zip(got, expected):
        assert isinstance(g, ua.usm_ndarray)
        assert g.dtype == np.asarray(e).dtype and g.shape == np.shape(e)
        np.testing.assert_array_equal(ua.asnumpy(g), e)


def test_nanvar_of_complex_values_with_a_real_dtype():
    # the variance of the complex values (|x - mean|^2), not of their real
    # parts; (NumPy's 9.75 here takes the mean of the real parts first)
    a = np.array([1 + 2j, 3 - 1j, 5j, 2 + 2j, np.nan])
    for f, want in ((np.nanvar, 5.75), (np.nanstd, 5.75 ** 0.5)):
        got = f(ua.asarray(a), dtype=np.float64)
        assert got.dtype == ua.float64
        np.testing.assert_allclose(float(got), want, rtol=1e-12)


def test_nanmean_of_a_0d_integer_refuses_axis_0_as_numpy():
    with pytest.raises(np.exceptions.AxisError):
        np.nanmean(np.array(3), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        np.nanmean(ua.asarray(np.array(3)), axis=0)


def test_argsort_of_a_0d_array_takes_it_as_1d():
    x = ua.asarray(np.array(3.0))
    for axis in (0, -1, None):
        check(np.argsort(x, axis=axis), np.argsort(np.array(3.0), axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        np.argsort(x, axis=1)


def test_qr_mode_r_is_r_alone():
    h = np.random.default_rng(1).standard_normal((5, 3))
    r = np.linalg.qr(ua.asarray(h), mode="r")
    assert isinstance(r, ua.usm_ndarray) and r.shape == (3, 3)
    # (R is unique up to the signs of its rows)
    np.testing.assert_allclose(np.abs(ua.asnumpy(r)), np.abs(np.linalg.qr(h, mode="r")),
                               atol=1e-12)


def test_binding_is_inspects():
    """Function._bind (without inspect, for signatures without *args and
    **kwargs) gives what inspect.Signature.bind gives, errors included, for
    every mapped function: all positional prefixes, every keyword alone, a
    keyword given twice, an unknown one, missing required arguments."""
    sentinel = object()
    for f in list(nps.FUNCTIONS.values()) + list(nps.LIKE_FUNCTIONS.values()):
        params = list(f._sig.parameters.values())
        names = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        calls = [((sentinel,) * k, {}) for k in range(len(names) + 2)]
        calls += [((sentinel,), {n: 1}) for n in names]
        calls += [((), {n: 1 for n in names})]
        calls += [((sentinel,), {"no_such_parameter": 1})]
        for args, kwargs in calls:
            try:
                want = dict(f._sig.bind(*args, **kwargs).arguments)
            except TypeError:
                want = TypeError
            try:
                got = f._bind(args, kwargs)
            except TypeError:
                got = TypeError
            assert got == want, (f.what, len(args), sorted(kwargs))
            if want is not TypeError:
                assert list(got) == list(want), f.what   # (the signature's order)


_M2 = np.array([[2.0, 1.0], [5.0, 3.0]])
_C2X2 = np.array([[2.0, 1 + 1j], [5 - 2j, 3.0]])
NUMPY_LINALG_FFT_CALLS = {
    # (a differential fuzz of linalg and fft found these apart; compared to rounding)
    "pinv, NumPy's default rcond (float32)": lambda m: np.linalg.pinv(
        m(np.diag([1.0, 1e-7]).astype(np.float32))),
    "pinv, NumPy's default rcond": lambda m: np.linalg.pinv(m(np.diag([1.0, 1e-15, 3e-16]))),
    "pinv, rcond": lambda m: np.linalg.pinv(m(np.diag([1.0, 1e-15, 3e-16])), rcond=1e-16),
    "pinv, rtol=None": lambda m: np.linalg.pinv(m(np.diag([1.0, 1e-15, 3e-16])), rtol=None),
    "pinv, hermitian": lambda m: np.linalg.pinv(m(_M2 + _M2.T), hermitian=True),
    "eigvalsh, upper triangle": lambda m: np.linalg.eigvalsh(m(_M2), UPLO="U"),
    "eigvalsh, upper triangle, complex": lambda m: np.linalg.eigvalsh(m(_C2X2), UPLO="U"),
    "eigh, upper triangle, values": lambda m: np.linalg.eigh(m(_M2), UPLO="U")[0],
    "matrix_rank, absolute tol": lambda m: np.linalg.matrix_rank(m(np.diag([1, 1e-3, 1e-9])),
                                                                tol=1e-4),
    "matrix_rank, tol per matrix": lambda m: np.linalg.matrix_rank(
        m(np.stack([np.diag([1, 1e-3, 1e-9]), np.eye(3)])), tol=m(np.array([1e-4, 2.0]))),
    "matrix_rank, hermitian": lambda m: np.linalg.matrix_rank(m(np.diag([1, 1e-3, 1e-19])),
                                                             hermitian=True),
    "svd hermitian, values": lambda m: np.linalg.svd(m(_M2 + _M2.T), hermitian=True)[1],
    "irfftn, s of -1": lambda m: np.fft.irfftn(m(np.arange(10.0).reshape(2, 5) + 1j),
                                               s=(-1, -1), axes=(0, 1)),
    "irfft2, s of -1 last": lambda m: np.fft.irfft2(m(np.arange(10.0).reshape(2, 5) + 1j),
                                                   s=(2, -1)),
    "vecdot, axis of each operand": lambda m: np.vecdot(m(np.arange(18.0).reshape(2, 3, 3)),
                                                        m(np.arange(9.0).reshape(3, 3)), axis=1),
    "vecdot, axis 0": lambda m: np.vecdot(m(np.arange(6.0).reshape(3, 2)),
                                          m(np.arange(3.0).reshape(3, 1)), axis=0),
}


@pytest.mark.parametrize("name", list(NUMPY_LINALG_FFT_CALLS))
def test_numpy_linalg_fft_calls(name):
    call = NUMPY_LINALG_FFT_CALLS[name]
    expected = call(lambda h: h)
    got = call(ua.asarray)
    got = ua.asnumpy(got) if isinstance(got, ua.usm_ndarray) else np.asarray(got)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6 * max(
        1.0, float(np.max(np.abs(expected), initial=0))))


def test_ufunc_dtype_names_the_loop():
    """NumPy 2's ``dtype=`` picks the loop by its output: one whose output is
    not that dtype is a TypeError, not a result of another dtype."""
    h = np.array([1, 2, 3], np.int32)
    x = ua.asarray(h)
    for call in (lambda a: np.less(a, 1, dtype=np.float64), lambda a: np.sin(a, dtype=np.int64)):
        with pytest.raises(TypeError):
            call(h)
        with pytest.raises(TypeError):
            call(x)
    for call in (lambda a: np.add(a, 1, dtype=np.float32), lambda a: np.sin(a, dtype=np.float32),
                 lambda a: np.logical_and(a, a - 1, dtype=bool)):
        got, want = call(x), call(h)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-6)


def test_bool_square_by_power_is_int8():
    b = np.array([True, False])
    for e in (2, 3, 2.0):
        got = ua.asarray(b) ** e
        assert got.dtype == (b ** e).dtype
        np.testing.assert_array_equal(ua.asnumpy(got), b ** e)


@pytest.mark.parametrize("name", ["cumsum", "cumulative_sum", "nancumsum", "cumprod",
                                  "cumulative_prod", "nancumprod"])
def test_cumulative_with_dtype_bool_takes_truth_values_first(name):
    for h in (np.array([2, -6, 4, 0, 1]), np.array([0.2, 3.0, 0.0, np.nan, -0.5])):
        want = getattr(np, name)(h, dtype=bool)
        got = getattr(np, name)(ua.asarray(h), dtype=bool)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(ua.asnumpy(got), want)


def test_extra_positional_and_keyword_arguments_reach_the_function():
    h = np.arange(6.0).reshape(2, 3)
    u = ua.asarray(h)
    f = lambda v, k=1: v * k  # noqa: E731
    for args, kw in (((2,), {}), ((), {"k": 3})):
        want = np.apply_along_axis(f, 1, h, *args, **kw)
        np.testing.assert_array_equal(ua.asnumpy(np.apply_along_axis(f, 1, u, *args, **kw)), want)
    c = [np.array([True, False])]
    want = np.piecewise(np.array([1.0, 2.0]), c, [f, 0.5], 3)
    got = np.piecewise(ua.asarray([1.0, 2.0]), [ua.asarray(c[0])], [f, 0.5], 3)
    np.testing.assert_array_equal(ua.asnumpy(got), want)


def test_take_along_axis_none_flattens():
    h = np.arange(6).reshape(2, 3)
    i = np.array([5, 0, 3])
    got = np.take_along_axis(ua.asarray(h), ua.asarray(i), None)
    np.testing.assert_array_equal(ua.asnumpy(got), np.take_along_axis(h, i, None))
    with pytest.raises(ValueError):
        np.take_along_axis(ua.asarray(h), ua.asarray(i.reshape(3, 1)), None)


def test_interp_and_digitize_of_a_number():
    xp, fp = np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, -1.0])
    for x in (0.5, 2, np.float32(1.5)):
        got = np.interp(x, ua.asarray(xp), ua.asarray(fp))
        assert isinstance(got, ua.usm_ndarray) and got.ndim == 0
        assert float(got) == np.interp(x, xp, fp)
        assert int(np.digitize(x, ua.asarray(xp))) == np.digitize(x, xp)


def test_can_cast_of_an_array_and_linalg_errors_are_numpys():
    for dt, to in ((ua.int64, np.int8), (ua.int8, np.int64), (ua.float32, np.float64)):
        x = ua.asarray([1], dtype=dt)
        for casting in ("safe", "same_kind", "unsafe"):
            assert np.can_cast(x, to, casting) == np.can_cast(np.dtype(dt), to, casting)
    with pytest.raises(np.linalg.LinAlgError):
        ua.linalg.inv(ua.zeros((2, 2)))
    assert issubclass(ua.linalg.LinAlgError, ValueError)
    assert ua.tri(-1).shape == np.tri(-1).shape and ua.tri(2, -3).shape == np.tri(2, -3).shape


def test_strict_arguments_as_numpy():
    """Arguments NumPy 2.4 refuses, refused through dispatch too."""
    a, v = ua.asarray([1.0, 2.0, 3.0]), ua.asarray([1.0, 1.0])
    for mode in ("f", "FULL", "Same"):
        with pytest.raises(ValueError):
            np.convolve(a, v, mode=mode)
    np.testing.assert_array_equal(ua.asnumpy(np.convolve(a, v, mode=2)), [1, 3, 5, 3])
    x = ua.ones((2, 3, 4))
    with pytest.raises(ValueError):
        np.einsum("...ij->j", x)            # the ellipsis' dimension is not summed implicitly
    np.testing.assert_array_equal(ua.asnumpy(np.einsum("...cab->b", x)),
                                  np.einsum("...cab->b", np.ones((2, 3, 4))))
    with pytest.raises(TypeError):
        np.interp(ua.asarray([0.5]), ua.asarray([0.0, 1.0]), ua.asarray([0.0, 2.0]), right=1 + 2j)
    h = np.arange(5.0)
    np.testing.assert_allclose(ua.asnumpy(np.polyfit(ua.asarray(h), ua.asarray(h ** 2), 2.0)),
                               np.polyfit(h, h ** 2, 2.0), atol=1e-9)


def test_bool_indices_are_cast_as_numpy():
    assert int(np.choose(ua.asarray(True), [ua.asarray(10), ua.asarray(20)])) == 20
    got = np.unravel_index(ua.asarray([True, False]), (2,))
    np.testing.assert_array_equal(ua.asnumpy(got[0]), [1, 0])
    got = np.ravel_multi_index((ua.asarray([True]), ua.asarray([False])), (2, 2))
    np.testing.assert_array_equal(ua.asnumpy(got), [2])


def test_array_like_takes_ndmin_and_copies():
    x = ua.arange(3)
    for obj, ndmin in (([], 1), ([1, 2], 3), (5, 2)):
        got = np.array(obj, like=x, ndmin=ndmin)
        assert isinstance(got, ua.usm_ndarray)
        assert got.shape == np.array(obj, ndmin=ndmin).shape
    y = np.array(x, like=x)
    y[0] = 7
    assert int(x[0]) == 0


@pytest.mark.parametrize("func", [np.fft.fft, np.fft.rfft, np.fft.ifft, np.fft.fftn, np.fft.ihfft])
@pytest.mark.parametrize("dt", ["bool", "int32", "uint8", "int64"])
def test_numpy_fft_takes_integer_arrays(func, dt):
    """np.fft's transforms compute integer and bool input in the default
    float type, as NumPy does (usmarray.fft itself takes floats only)."""
    h = (np.arange(12).reshape(3, 4) % 5).astype(dt)
    got = func(ua.asarray(h))
    expected = func(h)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ua.asnumpy(np.fft.fftshift(ua.asarray(h))), np.fft.fftshift(h))


def test_round_complex_with_infinite_parts():
    """np.round(z, decimals) rounds the parts on their own: an infinite part
    leaves its partner finite (a complex scaling made it NaN)."""
    h = np.array([complex(np.inf, 1.0), complex(1.25, np.inf), 1.26 + 2.35j,
                  complex(-np.inf, np.nan)], np.complex128)
    for d in (1, -1, 2):
        got = ua.asnumpy(np.round(ua.asarray(h), d))
        expected = np.round(h, d)
        np.testing.assert_array_equal(got.real, expected.real)
        np.testing.assert_array_equal(got.imag, expected.imag)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("ind, v", [([0, 2, 5], [9, 8, 7]), ([1, -1], 5), ([0, 1, 2, 3], [1, 2]),
                                    ([13, -14], [3, 4]), ([], []), (3, [1, 2])])
def test_numpy_put(mode, ind, v):
    """np.put: flat indices into the array in place, NumPy's modes, a short
    v repeated; through a transposed view too."""
    for view in (lambda a: a, lambda a: a.T):
        h = np.arange(12.0).reshape(3, 4)
        x = ua.asarray(h)
        try:
            np.put(view(h), ind, v, mode=mode)
        except IndexError:
            with pytest.raises(IndexError):
                np.put(view(x), ind, v, mode=mode)
            continue
        assert np.put(view(x), ind, v, mode=mode) is None
        np.testing.assert_array_equal(ua.asnumpy(x), h)


@pytest.mark.parametrize("shape, k", [((6, 3), None), ((6, 3), 2), ((3, 6), None), ((4, 4), 1)])
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "int64"])
def test_numpy_lstsq(shape, k, dt):
    """np.linalg.lstsq and ua.linalg.lstsq: NumPy's (x, residuals, rank, s)."""
    if not device_supports(dt):
        pytest.skip(f"{dt} not supported")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    a = (a * 3).astype(dt)
    b = rng.standard_normal(shape[:1] if k is None else (shape[0], k)).astype(
        np.result_type(dt, np.float32))
    expected = np.linalg.lstsq(a, b, rcond=None)
    for got in (np.linalg.lstsq(ua.asarray(a), ua.asarray(b), rcond=None),
                ua.linalg.lstsq(ua.asarray(a), ua.asarray(b))):
        assert got[2] == expected[2]
        for g, e in ((got[0], expected[0]), (got[1], expected[1]), (got[3], expected[3])):
            g = ua.asnumpy(g)
            assert g.shape == e.shape
            tol = 1e-4 if np.finfo(e.dtype).bits <= 32 else 1e-9
            np.testing.assert_allclose(g, e, rtol=tol, atol=tol)


@pytest.mark.parametrize("a, b", [
    (np.array([[1.0, 2, 3], [2, 4, 6]]), np.array([1.0, 1])),            # rank 1
    (np.outer([1.0, 2, 3, 4], [0.3, 0.7, 1.1]), np.arange(4.0)),
    (np.zeros((0, 3)), np.zeros(0)), (np.zeros((3, 0)), np.arange(3.0)),
    (np.zeros((3, 0)), np.ones((3, 2))), (np.zeros((0, 0)), np.zeros(0)),
])
def test_numpy_lstsq_rank_deficient_and_empty(a, b):
    """From a fuzz: rcond=-1 (NumPy's "machine precision") inverted the
    rounding noise of rank-deficient matrices (x of 1e15, rank 2 for 1);
    empty matrices raised IndexError."""
    for rcond in (None, -1):
        expected = np.linalg.lstsq(a, b, rcond=rcond)
        for got in (np.linalg.lstsq(ua.asarray(a), ua.asarray(b), rcond=rcond),
                    ua.linalg.lstsq(ua.asarray(a), ua.asarray(b), rcond=rcond)):
            assert got[2] == expected[2]
            for g, e in zip((got[0], got[1], got[3]), (expected[0], expected[1], expected[3])):
                assert ua.asnumpy(g).shape == e.shape
                np.testing.assert_allclose(ua.asnumpy(g), e, atol=1e-12)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "irfftn", "fftn"])
@pytest.mark.parametrize("dt", ["int32", "bool", "uint8"])
def test_numpy_fft_of_integers_every_transform(name, dt):
    """np.fft.fft2 and friends take integer and bool arrays as np.fft.fft
    does (the adapted ones refused them)."""
    h = (np.arange(12).reshape(3, 4) % 3).astype(dt)
    f = getattr(np.fft, name)
    np.testing.assert_allclose(ua.asnumpy(f(ua.asarray(h))), f(h), atol=1e-9)


def test_linalg_norm_in_the_namespace():
    """ua.linalg.norm is NumPy's (CuPy has it): generic xp.linalg.norm code."""
    h = sample((3, 4, 5), FLOAT, seed=2)
    for kw in ({}, dict(axis=1), dict(axis=(0, 2)), dict(ord=1, axis=(1, 2)),
               dict(ord=np.inf, axis=-1, keepdims=True), dict(axis=(0, 1), keepdims=True)):
        got = ua.linalg.norm(ua.asarray(h), **kw)
        expected = np.linalg.norm(h, **kw)
        assert got.shape == expected.shape
        np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=1e-5)


@pytest.mark.parametrize("shape, strides_of", [
    ((2, 3), lambda b: np.broadcast_to(b[:3], (2, 3))),
    ((3, 3, 2), lambda b: np.broadcast_to(b[:6].reshape(2, 3).T[:, None, :], (3, 3, 2))),
    ((3, 3, 2), lambda b: np.broadcast_to(b[:6].reshape(3, 2)[::-1][:, None, :], (3, 3, 2))),
    ((2, 2, 3), lambda b: np.broadcast_to(b[:3], (2, 2, 3)).transpose(1, 0, 2)),
])
def test_ravel_order_k_of_broadcast_views(shape, strides_of):
    """NumPy's "K" order puts a zero-stride axis where C order has it, not
    innermost (ravel of broadcast_to([[1, 2, 3]], (2, 3)) is 1 2 3 1 2 3)."""
    h = np.arange(12.0)
    hv = strides_of(h)
    x = ua.asarray(h)
    # the same view of the device array: its strides in items
    items = tuple(s // h.itemsize for s in hv.strides)
    off = (hv.__array_interface__["data"][0] - h.__array_interface__["data"][0]) // h.itemsize
    xv = ua.usm_ndarray(hv.shape, dtype=x.dtype, buffer=x, strides=items, offset=off)
    for order in ("K", "A", "C", "F"):
        np.testing.assert_array_equal(ua.asnumpy(np.ravel(xv, order=order)),
                                      np.ravel(hv, order=order))


def test_logical_reduce_dtype_needs_a_loop():
    x = ua.asarray([[0.0, 1.0], [2.0, 0.0]])
    with pytest.raises(TypeError):
        np.logical_or.reduce(ua.asnumpy(x), dtype=np.float64)   # (the oracle agrees)
    with pytest.raises(TypeError):
        np.logical_or.reduce(x, dtype=np.float64)


# ------------------------------------------------------- from a fuzz of ufunc keywords
def test_ufunc_dtype_keyword_as_numpy():
    """dtype= names the output's type: a Python scalar of a higher kind is
    NumPy's TypeError (it was ignored: a float64 result for dtype=int8); the
    call's own output type is accepted (np.equal(..., dtype=bool)); ldexp's
    dtype is the mantissas'."""
    x = ua.asarray(np.array([2], np.int8))
    for call in (lambda m: np.add(m(np.array([2], np.int8)), 2.7, dtype=np.int8),
                 lambda m: np.add(m(np.array([1.5])), 1j, dtype=np.float64),
                 lambda m: np.ldexp(m(np.array([3], np.int16)), m(np.array([3], np.int16)),
                                    dtype=np.int8),
                 lambda m: np.less(m(np.array([2], np.int8)), 1, dtype=np.float64)):
        with pytest.raises(TypeError):
            call(np.asarray)
        with pytest.raises(TypeError):
            call(ua.asarray)
    for call in (lambda m: np.equal(m(np.array([2], np.int8)), m(np.array([2], np.int8)),
                                    dtype=np.bool_),
                 lambda m: np.isnan(m(np.array([1.5, np.nan])), dtype=np.bool_),
                 lambda m: np.absolute(m(np.array([3 + 4j])), dtype=np.float64),
                 lambda m: np.ldexp(m(np.array([1.5], np.float16)), m(np.array([3], np.int16)),
                                    dtype=np.float64),
                 lambda m: np.add(m(np.array([2], np.int8)), 3, dtype=np.int16),
                 lambda m: np.add(m(np.array([2], np.int8)), m(np.array([2], np.int8)),
                                  where=np.True_),
                 lambda m: np.add.reduce(m(np.array([1, 2], np.int32)), dtype=np.uint64)):
        expected, got = call(np.asarray), call(ua.asarray)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(ua.asnumpy(got), expected)
    with pytest.raises(TypeError):   # (the imaginary parts are not dropped silently)
        np.add.reduce(ua.asarray(np.array([1 + 1j])), dtype=np.int64)
    assert x.dtype == ua.int8


@pytest.mark.parametrize("dt", ["uint8", "int8", "uint16", "int16", "int32", "uint32", "int64",
                                "uint64"])
def test_lcm_wraps_as_numpy(dt):
    """lcm is |a| / gcd * |b| modulo the type, as NumPy's: a product past
    the type wraps (negative in a signed type); uint16 operands overflowed
    C's int."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(3)
    a = rng.integers(max(info.min, -10**6) if info.min else 0, min(info.max, 10**6), 500,
                     dtype=dt, endpoint=True)
    b = rng.integers(max(info.min, -10**6) if info.min else 0, min(info.max, 10**6), 500,
                     dtype=dt, endpoint=True)
    a[:3] = [info.max, info.max - 1, info.min]
    b[:3] = [2, info.max, 2]
    np.testing.assert_array_equal(ua.asnumpy(np.lcm(ua.asarray(a), ua.asarray(b))), np.lcm(a, b))


@pytest.mark.parametrize("call", [
    lambda m, e, a, f: np.sum(m(a), axis=1, out=e(1, "uint8")),
    lambda m, e, a, f: np.sum(m(f), axis=1, out=e(1, "int16")),
    lambda m, e, a, f: np.mean(m(f), axis=1, out=e(1, "int16")),
    lambda m, e, a, f: np.var(m(f), axis=1, out=e(1, "int16")),
    lambda m, e, a, f: np.prod(m(a), axis=1, out=e(1, "uint8")),
    lambda m, e, a, f: np.cumsum(m(a), axis=1, out=e((1, 3), "uint8")),
    lambda m, e, a, f: np.max(m(a), axis=1, out=e(1, "uint8")),
    lambda m, e, a, f: np.add.reduce(m(a), axis=1, out=e(1, "uint8")),
    lambda m, e, a, f: np.maximum.reduce(m(a), axis=1, out=e(1, "uint8")),
    lambda m, e, a, f: np.multiply.accumulate(m(a), axis=1, out=e((1, 3), "uint8")),
])
def test_reductions_cast_into_out_as_numpy(call):
    """NumPy's reductions cast into out= as they must (a ufunc reduction
    runs its loop in out's type, the input cast): a DTypeError before."""
    a = np.array([[100, 100, -3]], np.int8)
    f = np.array([[1.5, 2.25]], np.float32)
    expected = call(np.asarray, lambda s, d: np.empty(s, d), a, f)
    got = call(ua.asarray, lambda s, d: ua.empty(s, dtype=d), a, f)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(ua.asnumpy(got), expected)


def test_reduction_out_refuses_complex_into_real():
    with pytest.raises(TypeError):   # (DTypeError: the imaginary parts are not dropped)
        np.sum(ua.asarray(np.array([[1 + 1j, 2]])), axis=1, out=ua.empty(1))
