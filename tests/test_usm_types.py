"""The USM type of results: a function of host or shared arrays returns that
type (helper arrays it makes, such as indices and constants, do not pull the
result to device memory), and a function of several arrays returns their
coerced type, device > shared > host, as dpctl.tensor's functions do."""

import itertools

import numpy as np
import pytest

import usmarray as ua

RANK = {"host": 0, "shared": 1, "device": 2}


def _arrays(t):
    """A few arrays of USM type t: a matrix, a vector, int indices, a mask and
    a well-conditioned square matrix."""
    return dict(
        m=ua.asarray(np.arange(1.0, 13.0).reshape(3, 4) % 5 + 1, usm_type=t),
        v=ua.asarray(np.array([3.0, 1, 2, 5, 4, 2]), usm_type=t),
        i=ua.asarray(np.array([3, 1, 2, 0, 1, 2]), usm_type=t),
        b=ua.asarray(np.array([True, False, True, True, False, False]), usm_type=t),
        s=ua.asarray(np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]]), usm_type=t))


# One-array calls (the rest of their arguments host data or scalars).
ONE = {
    "np.median": lambda a: np.median(a["m"], axis=0),
    "np.median-all": lambda a: np.median(a["m"]),
    "np.percentile": lambda a: np.percentile(a["m"], [10, 50], axis=1),
    "np.nanquantile": lambda a: np.nanquantile(a["m"], 0.5, axis=0),
    "np.ediff1d": lambda a: np.ediff1d(a["v"], to_begin=0),
    "np.histogram": lambda a: np.histogram(a["v"], bins=3)[0],
    "np.histogram-edges": lambda a: np.histogram(a["v"], bins=3)[1],
    "np.histogram2d": lambda a: np.histogram2d(a["v"], a["v"], bins=2)[0],
    "np.packbits": lambda a: np.packbits(a["b"]),
    "np.unpackbits": lambda a: np.unpackbits(ua.astype(a["i"], ua.uint8)),
    "np.repeat": lambda a: np.repeat(a["v"], [1, 2, 0, 1, 1, 1]),
    "np.pad-reflect": lambda a: np.pad(a["v"], 2, mode="reflect"),
    "np.pad-edge": lambda a: np.pad(a["m"], 1, mode="edge"),
    "np.take-list": lambda a: np.take(a["v"], [0, 1]),
    "np.compress": lambda a: np.compress([True, False, True], a["m"], axis=0),
    "np.delete": lambda a: np.delete(a["v"], [1, 2]),
    "np.append": lambda a: np.append(a["v"], 1.0),
    "np.insert": lambda a: np.insert(a["v"], [1, 2], 9.0),
    "np.unique-axis": lambda a: np.unique(a["m"], axis=0, return_inverse=True)[1],
    "np.cov-empty": lambda a: np.cov(a["m"][:0]),
    "np.corrcoef": lambda a: np.corrcoef(a["m"]),
    "np.gradient": lambda a: np.gradient(a["v"], [0.0, 1, 3, 4, 6, 9]),
    "isin-scalar": lambda a: ua.isin(a["v"], 2.0),
    "isin-out-of-range": lambda a: ua.isin(a["i"], 2 ** 70),
    "linalg.slogdet": lambda a: ua.linalg.slogdet(a["s"]).sign,
    "linalg.matrix_power-0": lambda a: ua.linalg.matrix_power(a["s"], 0),
    "linalg.det": lambda a: ua.linalg.det(a["s"]),
    "random.permutation": lambda a: ua.random.default_rng(0).permutation(a["v"]),
    "random.permuted": lambda a: ua.random.default_rng(0).permuted(a["m"], axis=1),
    "random.choice": lambda a: ua.random.default_rng(0).choice(a["v"], 3),
    "random.choice-no-replace": lambda a: ua.random.default_rng(0).choice(a["v"], 3, replace=False),
    # Python numbers and host sequences beside an array take its USM type
    "digitize-list": lambda a: ua.digitize(a["v"], [1.0, 2.0]),
    "digitize-number": lambda a: ua.digitize(0.7, ua.sort(a["v"])),
    "searchsorted-number": lambda a: ua.searchsorted(ua.sort(a["v"]), 1.0),
    "interp-number": lambda a: ua.interp(0.7, ua.sort(a["v"]), a["v"]),
    "np.multiply.outer": lambda a: np.multiply.outer(a["v"], 2.0),
    "kron-number": lambda a: ua.kron(2.0, a["v"]),
    "block": lambda a: ua.block([a["v"], 1.0]),
    "ldexp-number": lambda a: ua.ldexp(2.0, a["i"]),
    "union1d-list": lambda a: ua.union1d(a["v"], [1.0]),
    "convolve-list": lambda a: ua.convolve(a["v"], [1.0, 2.0]),
    "trapezoid-list": lambda a: ua.trapezoid(a["v"][:3], x=[0.0, 1, 2]),
    "ix_-list": lambda a: ua.ix_(a["i"], [0, 1])[1],
    "apply_along_axis": lambda a: ua.apply_along_axis(lambda r: float(ua.sum(r)), 0, a["m"]),
    "polyadd": lambda a: ua.polyadd(a["v"][:2], a["v"][:3]),
    "polydiv": lambda a: ua.polydiv(a["v"][:3], a["v"][:2])[1],
    "polyder": lambda a: ua.polyder(a["v"]),
    "polyint": lambda a: ua.polyint(a["v"], k=2.0),
    "poly": lambda a: ua.poly(a["v"][:2]),
    "roots": lambda a: ua.roots(a["v"][:3]),
    "polyval-number": lambda a: ua.polyval(a["v"], 2.0),
    "polyfit": lambda a: ua.polyfit(a["v"], a["v"], 1),
    "mask-numpy": lambda a: a["v"][np.array([True, False] * 3)],
    "mask-list": lambda a: a["v"][[True, False] * 3],
    # random draws follow array parameters
    "random.normal": lambda a: ua.random.default_rng(0).normal(a["v"]),
    "random.uniform": lambda a: ua.random.default_rng(0).uniform(a["v"], 9.0),
    "random.integers": lambda a: ua.random.default_rng(0).integers(0, a["i"] + 1),
    "random.binomial": lambda a: ua.random.default_rng(0).binomial(a["i"], 0.5),
    "random.choice-p": lambda a: ua.random.default_rng(0).choice(6, p=a["v"] / 17.0),
}


@pytest.fixture(scope="module")
def queue():
    """A queue of its own (not the default one), to see results follow it."""
    dpctl = pytest.importorskip("dpctl")
    return dpctl.SyclQueue()


@pytest.mark.parametrize("usm_type", ["host", "shared"])
@pytest.mark.parametrize("name", sorted(ONE))
def test_results_keep_the_usm_type_and_queue(name, usm_type, queue):
    arrays = {k: ua.asarray(v, sycl_queue=queue) for k, v in _arrays(usm_type).items()}
    r = ONE[name](arrays)
    assert isinstance(r, ua.usm_ndarray)
    assert r.usm_type == usm_type
    assert r.sycl_queue == queue


def test_random_placement_keywords_win_over_parameters():
    g = ua.random.default_rng(0)
    x = ua.asarray([1.0, 2.0], usm_type="host")
    assert g.normal(x, usm_type="device").usm_type == "device"
    assert g.normal(x, ua.asarray([1.0, 1.0], usm_type="shared")).usm_type == "shared"
    assert g.normal(size=2).usm_type == "device"   # (no array: the default)


# Two-array calls: the coerced type of both.
TWO = {
    "vecdot": lambda a, b: ua.vecdot(a["v"], b["v"]),
    "matmul-1d": lambda a, b: ua.matmul(a["v"], b["v"]),
    "matmul": lambda a, b: ua.matmul(a["m"], ua.matrix_transpose(b["m"])),
    "isin": lambda a, b: ua.isin(a["v"], b["v"]),
    "isin-int64-uint64": lambda a, b: ua.isin(a["i"], ua.astype(b["i"], ua.uint64)),
    "np.isclose": lambda a, b: np.isclose(a["v"], b["v"]),
    "np.convolve": lambda a, b: np.convolve(a["v"], b["v"]),
    "np.correlate": lambda a, b: np.correlate(a["v"], b["v"], "full"),
    "np.gradient": lambda a, b: np.gradient(a["v"], b["v"]),
    "np.bincount": lambda a, b: np.bincount(a["i"], weights=b["v"]),
    "np.select": lambda a, b: np.select([a["b"]], [b["v"]]),
    "np.choose": lambda a, b: np.choose(a["i"] % 2, [a["v"], b["v"]]),
    "np.setxor1d": lambda a, b: np.setxor1d(a["v"], b["v"][:2]),
    "np.histogram-bins": lambda a, b: np.histogram(a["v"], bins=ua.asarray(
        [0.0, 2, 6], usm_type=b["v"].usm_type))[0],
    "linalg.solve": lambda a, b: ua.linalg.solve(a["s"], b["v"][:3]),
    "ElementwiseKernel": lambda a, b: _ADD(a["v"], b["v"]),
    "interp-complex": lambda a, b: ua.interp(a["v"], b["v"], ua.astype(b["v"], ua.complex128)),
    "np.add.reduceat": lambda a, b: np.add.reduceat(a["v"], b["i"][:2] - 1),
    "repeat": lambda a, b: ua.repeat(a["v"], b["i"]),
    "random.choice-p": lambda a, b: ua.random.default_rng(0).choice(a["v"], 2, p=b["v"] / 17.0),
    "random.normal": lambda a, b: ua.random.default_rng(0).normal(a["v"], b["v"]),
}

_ADD = ua.ElementwiseKernel("T x, T y", "T z", "z = x + y", "usm_types_add")


@pytest.mark.parametrize("t1, t2", [p for p in itertools.product(RANK, RANK) if p[0] != p[1]])
@pytest.mark.parametrize("name", sorted(TWO))
def test_results_take_the_coerced_usm_type(name, t1, t2):
    r = TWO[name](_arrays(t1), _arrays(t2))
    assert r.usm_type == max(t1, t2, key=RANK.get)


def test_scatter_with_indices_aliasing_the_array():
    """Indices in x's own memory through a second import (DLPack, SUAI,
    buffer=) are read before x changes, as indices that are views of x."""
    h = np.array([3, 0, 2, 1])
    expected = h.copy()
    expected[h] = [10, 11, 12, 13]
    for alias in (lambda x: ua.from_dlpack(x.__dlpack__()),
                  lambda x: ua.usm_ndarray(x.shape, dtype=x.dtype, buffer=x.usm_data)):
        x = ua.asarray(h)
        x[alias(x)] = ua.asarray(np.array([10, 11, 12, 13]))
        np.testing.assert_array_equal(ua.asnumpy(x), expected)
        x = ua.asarray(h)
        ua.put_along_axis(x, alias(x), ua.asarray(np.array([10, 11, 12, 13])), axis=0)
        np.testing.assert_array_equal(ua.asnumpy(x), expected)
