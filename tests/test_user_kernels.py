"""ElementwiseKernel, ReductionKernel, RawKernel and RawModule against NumPy:
dtypes, broadcasting, strided, negative-stride and 0-size inputs, scalars,
outputs given or allocated, raw arguments, size=, axes, and the three kinds
of user error (a bad parameter list, C++ that does not compile, a dtype the
device lacks). Each runs with the vector-block and the generic kernels
(the `variant` fixture)."""

import logging
import os

import dpctl
import numpy as np
import pytest

import usmarray as ua
from usmarray.user_kernels import NoVec

from conftest import check, device_supports, sample

# dtypes of the elementwise tests: every kind, a vectorisable and a scalar-only one of each
EW_DTYPES = [d for d in (ua.bool, ua.int8, ua.uint16, ua.int32, ua.int64, ua.uint64,
                         ua.float32, ua.float64, ua.complex64) if device_supports(d)]

_add = ua.ElementwiseKernel("T x, T y", "T z", "z = x + y", "uk_add")
_axpy = ua.ElementwiseKernel("T a, T x, T y", "T z", "z = a * x + y", "uk_axpy")


# --------------------------------------------------------------- elementwise
@pytest.mark.parametrize("dt", EW_DTYPES, ids=lambda d: d.name)
def test_elementwise_types(dt, variant):
    a, b = sample((5, 7), dt, 1), sample((5, 7), dt, 2)
    kern = ua.ElementwiseKernel("T x, T y", "T z", "z = x * y", "uk_mul")
    if dt == ua.bool:
        kern = ua.ElementwiseKernel("T x, T y", "T z", "z = x && y", "uk_and")
        expected = a & b
    else:
        with np.errstate(over="ignore"):
            expected = a * b
    check(kern(ua.asarray(a), ua.asarray(b)), expected)


def test_elementwise_broadcasting_and_strides(variant):
    a = sample((6, 1), ua.float32, 1)
    b = sample((10,), ua.float32, 2)
    check(_add(ua.asarray(a), ua.asarray(b)), a + b)
    m = sample((8, 9), ua.float64, 3)
    n = sample((9, 8), ua.float64, 4)
    x, y = ua.asarray(m), ua.asarray(n)
    check(_add(x[::-2, 1::2], y.T[::-2, 1::2]), m[::-2, 1::2] + n.T[::-2, 1::2])
    check(_add(x.T, y), m.T + n)
    # more dimensions than the strided kernels have: split launches
    big = sample((2, 1, 3, 2, 3, 2, 3, 2, 2, 3), ua.float32, 5)
    bx = ua.asarray(big)[..., ::-1]
    check(_add(bx, bx), big[..., ::-1] * 2)


def test_elementwise_scalars_and_fixed_types(variant):
    x = sample((100,), ua.float32, 1)
    y = sample((100,), ua.float32, 2)
    check(_axpy(2.5, ua.asarray(x), ua.asarray(y)), np.float32(2.5) * x + y)
    # a scalar alone binds the placeholder: Python float -> float64
    k = ua.ElementwiseKernel("float32 x, T s", "float64 z", "z = x * s", "uk_mixed")
    check(k(ua.asarray(x), 3.0), x.astype(np.float64) * 3.0)
    k = ua.ElementwiseKernel("int32 x, int32 s", "int32 z", "z = x + s", "uk_fixed")
    check(k(ua.asarray(np.arange(10, dtype=np.int64)), 7), np.arange(10, dtype=np.int32) + 7)


def test_elementwise_outputs(variant):
    x = sample((4, 6), ua.float32, 1)
    y = sample((4, 6), ua.float32, 2)
    out = ua.empty((4, 6), dtype=ua.float32)
    r = _add(ua.asarray(x), ua.asarray(y), out)
    assert r is out
    check(out, x + y)
    # a strided output (written through a contiguous temporary when the
    # kernel reads `i`), and an output that is also an input
    big = ua.zeros((4, 12), dtype=ua.float32)
    _add(ua.asarray(x), ua.asarray(y), big[:, ::2])
    check(big[:, ::2], x + y)
    check(big[:, 1::2], np.zeros((4, 6), np.float32))
    xa = ua.asarray(x)
    _add(xa, xa, xa)
    check(xa, x + x)
    # an operation that reads its outputs (y += x): CuPy's references to the
    # given arrays (the vector-block kernel's outputs started uninitialised)
    acc = ua.ElementwiseKernel("T x", "T y", "y += x", "uk_acc")
    twice = ua.ElementwiseKernel("T x", "T y", "y = y * 2 + x", "uk_twice")
    for dt in (np.float32, np.int64, np.int8):
        h = np.full(1000, 10, dt)
        yy = ua.asarray(h)
        acc(ua.asarray(np.ones(1000, dt)), yy)
        check(yy, h + 1)
        twice(ua.asarray(np.ones(1000, dt)), yy)
        check(yy, (h + 1) * 2 + 1)
    # inputs are values, also when an output is the same memory (k(a, a))
    zadd = ua.ElementwiseKernel("T x", "T y", "y = 0; y += x", "uk_zadd")
    two = ua.ElementwiseKernel("T x, T w", "T y", "y = x * 2; y = y + x + w", "uk_self")
    a = ua.asarray(np.arange(1, 1001, dtype=np.float32))
    zadd(a, a)
    check(a, np.arange(1, 1001, dtype=np.float32))
    two(a, 1, a)
    check(a, np.arange(1, 1001, dtype=np.float32) * 3 + 1)
    # several outputs
    k = ua.ElementwiseKernel("T x", "T s, T d", "s = x + x; d = x - 1", "uk_two")
    s, d = k(ua.asarray(x))
    check(s, x + x)
    check(d, x - 1)


def test_elementwise_index_raw_and_size(variant):
    rev = ua.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "uk_rev")
    x = sample((50,), ua.int64, 1)
    check(rev(ua.asarray(x), ua.empty(50, dtype=ua.int64)), x[::-1])
    iota = ua.ElementwiseKernel("", "int64 y", "y = i * 3", "uk_iota")
    check(iota(size=17), np.arange(17) * 3)
    ones = ua.ElementwiseKernel("", "int64 y", "y = 1", "uk_ones")
    for _ in range(2):
        check(ones(size=5), np.ones(5, np.int64))
        with pytest.raises(ValueError, match="size="):
            ones()
    # `i` follows C order of the result even for a given F-ordered output
    out = ua.empty((3, 4), dtype=ua.int64, order="F")
    idx = ua.ElementwiseKernel("", "int64 y", "y = i", "uk_index")
    idx(out, size=12)
    check(out, np.arange(12).reshape(3, 4))


def test_elementwise_repeated_calls(variant):
    # from its second call on, a call of argument types seen before takes
    # the types and kernel resolved then (call_key, _call_arrays): each call
    # must still get its own dtypes, shapes, casts, scalars and queue
    k = ua.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1", "uk_again")
    for dt in (ua.float32, ua.int64, ua.float32):
        for sa, sb in (((5, 7), (5, 7)), ((5, 1), (7,)), ((5, 7), (5, 7)), ((0, 7), (7,))):
            a, b = sample(sa, dt, 1), sample(sb, dt, 2)
            check(k(ua.asarray(a), ua.asarray(b)), a * b + 1)
    cast = ua.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x - y", "uk_again_c")
    for _ in range(3):
        a, b = sample((9,), ua.int64, 3), sample((9,), ua.float64, 4)
        check(cast(ua.asarray(a), ua.asarray(b)), a.astype(np.float32) - b.astype(np.float32))
    # scalars are keyed by type, ints by whether they fit int64 (else uint64)
    s = ua.ElementwiseKernel("float64 x, T s", "float64 z", "z = x + s", "uk_again_s")
    x = sample((6,), ua.float64, 5)
    for v in (5, 2**63, 5, 2.5, True, np.int8(-3), 5):
        check(s(ua.asarray(x), v), x + np.float64(v), what=repr(v))
    # outputs given after allocated ones, several and no results
    out = ua.empty((6,), dtype=ua.float64)
    assert s(ua.asarray(x), 1, out) is out
    check(out, x + 1)
    two = ua.ElementwiseKernel("T x", "T s, T d", "s = x + x; d = x - 1", "uk_again_two",
                               return_tuple=True)
    none = ua.ElementwiseKernel("T x", "T y", "y = x", "uk_again_none", no_return=True)
    for _ in range(2):
        r = two(ua.asarray(x))
        assert isinstance(r, tuple) and len(r) == 2
        check(r[0], x + x)
        check(r[1], x - 1)
        assert none(ua.asarray(x)) is None
    # arrays of two queues: an error on every call, not only the first
    y = ua.asarray(x)
    other = ua.asarray(x, sycl_queue=dpctl.SyclQueue(y.sycl_device))
    check(k(y, y), x * x + 1)
    for _ in range(2):
        with pytest.raises(ua.ExecutionPlacementError):
            k(y, other)


def test_elementwise_empty(variant):
    x = ua.empty((0, 5), dtype=ua.float32)
    r = _add(x, x)
    assert r.shape == (0, 5)
    assert r.dtype == ua.float32


def test_elementwise_vector_fallback(variant):
    # an operation vectors do not take (a vector assigned to a float): the
    # vector-block kernel fails to compile and the scalar kernels run
    x = sample((1000,), ua.float32, 1)
    k = ua.ElementwiseKernel("T x", "T y", "float t = x * 2; y = t + 1", "uk_scalar_local")
    check(k(ua.asarray(x)), x * 2 + 1)
    check(k(ua.asarray(x)), x * 2 + 1)


def test_elementwise_source_and_bad_params():
    src = _add.source(ua.ones(3), ua.ones(3))
    assert "z = x + y" in src and "uk_add" in src
    for params in ("T", "T x y", "T x, T x", "T x,", "raw", "T 1x", "T i"):
        with pytest.raises(ValueError):
            ua.ElementwiseKernel(params, "T z", "z = 1", "bad")
    with pytest.raises(ValueError):
        ua.ElementwiseKernel("T x", "T x", "x = 1", "bad")
    with pytest.raises(ValueError):
        ua.ElementwiseKernel("T x", "T y", "y = x", "not a name")
    with pytest.raises(TypeError):
        _add(ua.ones(3), [1, 2, 3])
    with pytest.raises(TypeError):
        _add(ua.ones(3, dtype=ua.float32), ua.ones(3, dtype=ua.int32))   # T bound twice
    with pytest.raises(ValueError):
        _add(ua.ones(3), ua.ones(4))
    with pytest.raises(ValueError):
        _add(ua.ones(3), ua.ones(3), ua.empty(4))


def test_elementwise_compile_error_points_at_the_user_line():
    k = ua.ElementwiseKernel("T x", "T y", "float t = x;\ny = t +* 2;", "uk_broken")
    with pytest.raises(ua.KernelCompileError) as e:
        k(ua.ones(4, dtype=ua.float32))
    msg = str(e.value)
    assert "operation, line 2: y = t +* 2;" in msg
    assert "error" in msg


def test_elementwise_dtype_the_device_lacks(monkeypatch):
    x = ua.ones(4, dtype=ua.float32)
    monkeypatch.setattr(x._q, "fp64", False)
    k = ua.ElementwiseKernel("T x", "float64 y", "y = x", "uk_f64")
    with pytest.raises(TypeError, match="float64"):
        k(x)


def test_novec_marker(tmp_path, monkeypatch):
    monkeypatch.setenv("USMARRAY_CACHE_DIR", str(tmp_path))
    NoVec.add("uk_test_prefix_0")
    NoVec._known.discard("uk_test_prefix_0")
    assert NoVec.known("uk_test_prefix_0")   # (read back from the file)


# --------------------------------------------------------------- reductions
def check_sum(got, terms, axis=None, keepdims=False):
    """A float sum of `terms` (in another order than NumPy's): within the
    rounding of the sum of their magnitudes."""
    dt = terms.dtype
    exact = np.sum(terms.astype(np.float64), axis=axis, keepdims=keepdims)
    assert got.dtype == dt and got.shape == exact.shape
    scale = np.sum(np.abs(terms), axis=axis, dtype=np.float64, keepdims=keepdims)
    np.testing.assert_array_less(np.abs(ua.asnumpy(got) - exact),
                                 4 * np.finfo(dt).eps * scale + 1e-30)


_l2 = ua.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "ur_l2")
_dot = ua.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "ur_dot")


@pytest.mark.parametrize("dt", [d for d in (ua.int32, ua.int64, ua.float32, ua.float64)
                                if device_supports(d)], ids=lambda d: d.name)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
def test_reduction_axes(dt, axis, variant):
    a = sample((7, 300, 5), dt, 1)
    b = sample((7, 300, 5), dt, 2)
    for keepdims in (False, True):
        got = _dot(ua.asarray(a), ua.asarray(b), axis=axis, keepdims=keepdims)
        expected = np.sum(a * b, axis=axis, dtype=dt, keepdims=keepdims)
        if dt.kind != "f":
            check(got, expected)
        else:
            check_sum(got, a * b, axis, keepdims)


def test_reduction_post_map_and_strides(variant):
    x = sample((1000, 40), ua.float32, 3)
    check(_l2(ua.asarray(x)), np.sqrt(np.sum(x.astype(np.float64) ** 2)).astype(np.float32))
    v = ua.asarray(x)[::-3, 1::2]
    check(_l2(v, axis=1), np.sqrt(np.sum(x[::-3, 1::2].astype(np.float64) ** 2, axis=1))
          .astype(np.float32))
    # broadcasting inputs of other strides are walked as C-contiguous copies
    w = sample((40,), ua.float32, 4)
    check_sum(_dot(ua.asarray(x), ua.asarray(w), axis=1), x * w, axis=1)


def test_reduction_scalars_types_and_out(variant):
    x = sample((300,), ua.float32, 5)
    wsum = ua.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "ur_wsum")
    check(wsum(ua.asarray(x), 2.0), (x * np.float32(2)).sum())
    # an int input reduced in float64 (reduce_type) into a float32 output
    mean = ua.ReductionKernel("int32 x", "float32 y", "x", "a + b", "y = a / _n", "0",
                              "ur_mean", reduce_type="double",
                              preamble="constexpr double _n = 300.0;")
    xi = np.arange(300, dtype=np.int32)
    check(mean(ua.asarray(xi)), np.float32(xi.mean()))
    # _type_reduce names the reduce type in the expressions (int32 squares
    # would overflow)
    ssq = ua.ReductionKernel("int32 x", "float64 y", "_type_reduce(x) * x", "a + b", "y = a",
                             "0", "ur_ssq", reduce_type="float64")
    big = np.full(300, 100000, np.int32)
    check(ssq(ua.asarray(big)), (big.astype(np.float64) ** 2).sum())
    out = ua.empty((), dtype=ua.float32)
    assert wsum(ua.asarray(x), 1.0, out=out) is out
    check(out, x.sum())
    out64 = ua.empty((), dtype=ua.float64)
    r = _l2(ua.asarray(x), out=ua.empty((), dtype=ua.float32))
    check(r, np.float32(np.sqrt((x.astype(np.float64) ** 2).sum())))
    with pytest.raises(ValueError):
        _l2(ua.asarray(x), out=ua.empty((2,), dtype=ua.float32))
    with pytest.raises(TypeError):
        wsum(ua.asarray(x), out64)   # T bound to float32 and float64


def test_reduction_without_identity(variant):
    mx = ua.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "ur_max")
    x = sample((50, 60), ua.float32, 6)
    check(mx(ua.asarray(x)), x.max())
    check(mx(ua.asarray(x), axis=0), x.max(axis=0))
    with pytest.raises(ValueError):
        mx(ua.empty((0,), dtype=ua.float32))
    # an empty selection of an empty result is no error
    assert mx(ua.empty((0, 3), dtype=ua.float32), axis=1).shape == (0,)


def test_reduction_repeated_calls(variant):
    # calls after the first with the same argument types (_reduce_all for
    # reductions over every axis): dtypes, shapes, casts and errors per call
    x, w = sample((40, 30), ua.float32, 7), sample((40, 30), ua.float32, 8)
    xi = sample((40, 30), ua.int64, 9)
    for _ in range(2):
        check_sum(_dot(ua.asarray(x), ua.asarray(w)), x * w)
        check(_dot(ua.asarray(xi), ua.asarray(xi)), np.sum(xi * xi))
        check_sum(_dot(ua.asarray(x), ua.asarray(w), axis=1), x * w, axis=1)
        check_sum(_dot(ua.asarray(x), ua.asarray(w[:1])), x * w[:1])   # broadcast
        check_sum(_dot(ua.asarray(x), ua.asarray(w).T.T[::-1]), x * w[::-1])   # strides
        check_sum(_dot(ua.asarray(x), ua.asarray(w), keepdims=True), x * w, keepdims=True)
    cast = ua.ReductionKernel("float32 x", "float32 y", "x", "a + b", "y = a", "0", "ur_cast")
    for _ in range(3):
        check(cast(ua.asarray(xi[:3, :3])), np.float32(xi[:3, :3].sum()))
    mx = ua.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "ur_again_max")
    for _ in range(2):
        check(mx(ua.asarray(x)), x.max())
        with pytest.raises(ValueError):
            mx(ua.empty((0,), dtype=ua.float32))


def test_reduction_first_call_and_vector_fallback(variant, tmp_path, monkeypatch, caplog):
    # a new kernel's first call compiles the first pass's part and the
    # partial states' part at once (one call to the compiler each, side by
    # side); a map the vector-block kernels cannot take (a cast of a
    # vector) runs on the generic kernels, compiled once
    monkeypatch.setenv("USMARRAY_CACHE_DIR", str(tmp_path))
    x = sample((100000,), ua.float32, 11)
    tag = f"{variant}_{os.getpid()}"
    k = ua.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", f"ur_first_{tag}")
    with caplog.at_level(logging.INFO, logger="usmarray.kernels"):
        check_sum(k(ua.asarray(x)), x * x)
    together = [r.getMessage() for r in caplog.records if "together" in r.getMessage()]
    assert together and together[0].startswith(
        f"compiled {2 if variant == 'vector' else 1} kernel parts together"), together
    cast = ua.ReductionKernel("T x", "T y", "(float)x * 2", "a + b", "y = a", "0",
                              f"ur_cast_{tag}")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="usmarray.kernels"):
        for _ in range(2):
            check_sum(cast(ua.asarray(x)), x * 2)
    compiled = [r.getMessage() for r in caplog.records
                if r.getMessage().startswith("compiled kernel bundle")]
    assert len(compiled) == 1, compiled


def test_reduction_empty_with_identity(variant):
    r = _dot(ua.empty((0,), dtype=ua.float32), ua.empty((0,), dtype=ua.float32))
    check(r, np.float32(0))


def test_reduction_errors():
    with pytest.raises(ValueError):
        ua.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "bad")
    with pytest.raises(ValueError):
        ua.ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0", "bad")
    with pytest.raises(ValueError):
        ua.ReductionKernel("T x", "T a", "x", "a + b", "a = a", "0", "bad")
    with pytest.raises(ValueError):
        ua.ReductionKernel("T x,", "T y", "x", "a + b", "y = a", "0", "bad")
    broken = ua.ReductionKernel("T x", "T y", "x", "a +* b", "y = a", "0", "ur_broken")
    with pytest.raises(ua.KernelCompileError, match="reduce_expr, line 1"):
        broken(ua.ones(10, dtype=ua.float32))
    with pytest.raises(ValueError):
        _l2(3.0)


def test_reduction_dtype_the_device_lacks(monkeypatch):
    x = ua.ones(4, dtype=ua.float32)
    monkeypatch.setattr(x._q, "fp64", False)
    k = ua.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "ur_f64",
                           reduce_type="float64")
    with pytest.raises(TypeError, match="float64"):
        k(x)


# --------------------------------------------------------------- raw kernels
_STENCIL = r"""
USM_KERNEL(1) void stencil(const float *x, float *y, long n, float w) {
  const long i = usmk::linear_id();
  if (i > 0 && i < n - 1) y[i] = w * (x[i - 1] + x[i + 1]) + (1 - 2 * w) * x[i];
}
USM_KERNEL(2) void transpose(const double *x, double *y, long rows, long cols) {
  auto it = syclext::this_work_item::get_nd_item<2>();
  const long r = it.get_global_id(0), c = it.get_global_id(1);
  if (r < rows && c < cols) y[c * rows + r] = x[r * cols + c];
}
"""


def test_raw_kernel_and_module():
    x = sample((100,), ua.float32, 1)
    y = ua.zeros(100, dtype=ua.float32)
    k = ua.RawKernel(_STENCIL, "stencil")
    expected = np.zeros(100, np.float32)
    expected[1:-1] = np.float32(0.25) * (x[:-2] + x[2:]) + np.float32(0.5) * x[1:-1]
    k((100,), (25,), (ua.asarray(x), y, 100, np.float32(0.25)))     # SYCL: global, local
    check(y, expected)
    y2 = ua.zeros(100, dtype=ua.float32)
    k(grid=(4,), block=(25,), args=(ua.asarray(x), y2, 100, np.float32(0.25)))   # CuPy
    check(y2, expected)
    mod = ua.RawModule(code=_STENCIL)
    t = mod.get_function("transpose")
    m = sample((6, 10), ua.float64, 2)
    out = ua.empty((10, 6), dtype=ua.float64)
    t((6, 10), (3, 2), (ua.asarray(m), out, 6, 10))
    check(out, m.T)


def test_raw_module_missing_name_and_launch_dimensions():
    code = ("USM_KERNEL(1) void scale(const float *x, float *y, long n, float w) {\n"
            "  const long i = usmk::linear_id();\n  if (i < n) y[i] = w * x[i];\n}\n")
    m = ua.RawModule(code=code)
    f = m.get_function("scale")
    x, y = ua.arange(8, dtype=ua.float32), ua.zeros(8, dtype=ua.float32)
    f((8,), (4,), (x, y, 8, np.float32(2)))
    check(y, np.arange(8, dtype=np.float32) * 2)
    with pytest.raises(ValueError):   # at once, as CuPy (it broke the module's kernels)
        m.get_function("nope")
    f((8,), (4,), (x, y, 8, np.float32(3)))
    check(y, np.arange(8, dtype=np.float32) * 3)
    with pytest.raises(ValueError, match="1-dimensional"):   # USM_KERNEL(1) launched in 2-D
        f((8, 2), (4, 2), (x, y, 8, np.float32(2)))


def test_raw_kernel_errors():
    k = ua.RawKernel(_STENCIL, "stencil")
    x = ua.zeros(8, dtype=ua.float32)
    with pytest.raises(ValueError):
        k((1,), (0,), (x, x, 8, np.float32(0)))
    with pytest.raises(ValueError):
        k((1, 1), (1,), (x, x, 8, np.float32(0)))
    with pytest.raises(ValueError):
        k((10,), (4,), (x, x, 8, np.float32(0)))      # not a multiple of the local size
    with pytest.raises(ValueError):
        k((8,), (8,), (x[::2], x, 8, np.float32(0)))   # not contiguous
    with pytest.raises(TypeError):
        k((8,), (8,), (x, "y", 8, np.float32(0)))
    with pytest.raises(TypeError):
        k((8,), (8,), (x, x, 8, np.float32(0)), grid=(1,))
    # arguments the kernel does not take: never a launch with one left unset
    with pytest.raises(ValueError, match="takes 4 arguments, got 3"):
        k((8,), (8,), (x, x, 8))
    with pytest.raises(ValueError, match="takes 4 arguments, got 5"):
        k((8,), (8,), (x, x, 8, np.float32(0), 1))
    with pytest.raises(ValueError, match="size differs"):
        k((8,), (8,), (x, x, np.int32(8), np.float32(0)))
    bad = ua.RawKernel("USM_KERNEL(1) void f(float *x) {\n  x[0] = nothing;\n}", "f")
    with pytest.raises(ua.KernelCompileError, match="code, line 2"):
        bad((1,), (1,), (x,))


# --------------------------------------------------------------- found by review
def test_reduction_names_the_generated_code_uses(variant):
    # an output named v (the result's member was v: a reference bound to
    # itself, a crash) and scalar inputs named like the generated code's
    # index, pointers and vector width
    x = np.arange(1, 101, dtype=np.float32)
    for out in ("v", "s", "usm_st"):
        k = ua.ReductionKernel("T x", f"T {out}", "x", "a + b", f"{out} = a", "0", f"uk_{out}")
        assert float(k(ua.asarray(x))) == 5050.0
        k = ua.ReductionKernel("T x", f"T {out}", "x", "a + b", f"{out} = a", None, f"uk_n{out}")
        assert float(k(ua.asarray(x))) == 5050.0
    for name in ("k", "p0", "L", "s_", "r"):
        k = ua.ReductionKernel(f"T x, T {name}", "T y", f"x * {name}", "a + b", "y = a", "0",
                               f"uk_s{name}")
        assert float(k(ua.asarray(x), 2.0)) == 10100.0


@pytest.mark.parametrize("dt", [d for d in (ua.complex64, ua.complex128) if device_supports(d)],
                         ids=lambda d: d.name)
def test_reduction_complex_states_with_identity(dt, variant):
    # the final state's imaginary part reaches the result
    c = (np.arange(10) + 1j * np.arange(10, 0, -1)).astype(dt)
    s = ua.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "uk_csum")
    check(s(ua.asarray(c)), c.sum())
    check(s(ua.asarray(c.reshape(2, 5)), axis=1), c.reshape(2, 5).sum(axis=1))
    check(s(ua.asarray(c.reshape(5, 2))[::-1], axis=0), c.reshape(5, 2)[::-1].sum(axis=0))


def test_raw_outputs_strided_or_of_another_type(variant):
    # a raw output is indexed in C order as its declared type: a reversed or
    # stepped view, or an array of another dtype, gets a contiguous copy that
    # is written back (it was written past its end)
    rk = ua.ElementwiseKernel("T x", "raw T r, T z", "z = x; r[i] = 2 * x + i", "uk_rawout")
    x, z = ua.arange(10, dtype=ua.float64), ua.zeros(10, dtype=ua.float64)
    want = 2 * np.arange(10.0) + np.arange(10)
    r = ua.full(12, -1.0)
    rk(x, r[10:0:-1], z)
    check(r, np.concatenate([[-1.0], want[::-1], [-1.0]]))
    r = ua.full(20, -1.0)
    rk(x, r[::2], z)
    exp = np.full(20, -1.0)
    exp[::2] = want
    check(r, exp)
    rk32 = ua.ElementwiseKernel("T x", "raw float32 r, T z", "z = x; r[i] = 2 * x", "uk_raw32")
    r = ua.full(10, -1.0, dtype=ua.float64)
    rk32(x, r, z)
    check(r, 2 * np.arange(10.0))
    # items the kernel does not write keep their values
    half = ua.ElementwiseKernel("T x", "raw T r, T z", "z = x; if (i % 2) r[i] = x", "uk_rawh")
    r = ua.full(20, -1.0)
    half(x, r[::2], z)
    exp = np.full(20, -1.0)
    exp[2::4] = np.arange(1.0, 10.0, 2)
    check(r, exp)


@pytest.mark.parametrize("dt, op, scalar", [
    (ua.int8, "z = x * s / 4", np.int32(300)),     # a scalar of another type than the items
    (ua.int8, "z = (x + x) / 2", None),             # int8 arithmetic is promoted to int
    (ua.int16, "z = (x * x) / 3", None),
    (ua.int32, "z = min(x, x) * 1.5", None),        # a double literal with integers
    (ua.float32, "z = x * 0.1", None),              # a double literal with float32
    (ua.float32, "z = x * 0.1f + 1e-3f", None),     # float literals: vectorised
    (ua.float64, "z = x * 0.1 + 2.5e-3", None),
    (ua.int32, "z = x / 2u", None),                 # an unsigned literal: unsigned division
    (ua.int32, "z = x / 3000000000", None),         # a literal beyond int: long arithmetic
    (ua.int64, "z = x / 2ul", None),
    (ua.float32, "z = x * 0x1.999999999999ap-4", None),   # a hex double literal
    (ua.float32, "z = x * double(0.1f)", None),     # a cast to double
])
def test_vector_kernels_compute_as_the_scalar_code(dt, op, scalar, variant):
    # contiguous (vector-block) and strided (scalar code) inputs agree with
    # the C++ semantics NumPy reproduces here
    params = "T x, int32 s" if scalar is not None else "T x"
    k = ua.ElementwiseKernel(params, "T z", op, f"uk_vs_{dt.name}_{abs(hash(op)) % 1000}")
    h = (np.arange(1003) % 120 + 1).astype(dt)
    if dt.kind == "i" and "/" in op and "u" in op:
        h = h - 60   # (negative items: unsigned division differs)
    args = (scalar,) if scalar is not None else ()
    a = ua.asnumpy(k(ua.asarray(h), *args))
    b = ua.asnumpy(k(ua.asarray(np.repeat(h, 2))[::2], *args))
    np.testing.assert_array_equal(a, b)
    wide = h.astype(np.float64 if dt.kind == "f" else np.int64)
    with np.errstate(over="ignore"):
        if op == "z = x * s / 4":
            want = (wide * int(scalar)) // 4
        elif op == "z = (x + x) / 2":
            want = (wide + wide) // 2
        elif op == "z = (x * x) / 3":
            want = (wide * wide) // 3
        elif op == "z = min(x, x) * 1.5":
            want = np.trunc(wide * 1.5)
        elif op == "z = x * 0.1":
            want = wide * 0.1
        elif op == "z = x * 0.1f + 1e-3f":
            want = h * np.float32(0.1) + np.float32(1e-3)
        elif op == "z = x / 2u":   # C++: x converted to unsigned int
            want = (h.astype(np.uint32) // 2).astype(np.int32)
        elif op == "z = x / 3000000000":
            want = np.trunc(wide / 3000000000).astype(np.int64)
        elif op == "z = x / 2ul":
            want = (h.astype(np.uint64) // 2).astype(np.int64)
        elif op == "z = x * 0x1.999999999999ap-4":
            want = wide * 0.1
        elif op == "z = x * double(0.1f)":
            want = wide * np.float64(np.float32(0.1))
        else:
            want = wide * 0.1 + 2.5e-3
    if "+" in op and dt.kind == "f":   # (the device compiler may fuse a * b + c)
        np.testing.assert_allclose(a, want.astype(dt), rtol=2 * np.finfo(dt).eps)
    else:
        np.testing.assert_array_equal(a, want.astype(dt))


def test_reduction_vector_kernels_compute_as_the_scalar_code(variant):
    k = ua.ReductionKernel("T x", "T y", "min(x, x) * 1.5", "a + b", "y = a", "0", "uk_rv15")
    h = np.full(1000, 3, dtype=np.int32)
    assert int(k(ua.asarray(h))) == 4000
    assert int(k(ua.asarray(np.repeat(h, 2))[::2])) == 4000


def test_complex_scalar_for_a_real_parameter():
    with pytest.raises(TypeError):
        _add(ua.ones(3, dtype=ua.float32), 1 + 2j)


def test_sizes_must_be_integers():
    k = ua.ElementwiseKernel("", "T z", "z = i", "uk_iota_sz")
    with pytest.raises(TypeError):
        k(ua.empty(3), size=2.5)
    r = ua.RawKernel("USM_KERNEL(1) void uk_ones(float *x) { x[usmk::linear_id()] = 1; }",
                     "uk_ones")
    x = ua.zeros(1024, dtype=ua.float32)
    with pytest.raises(TypeError):
        r((1024.0,), (256,), (x,))
    r(np.int64(1024), 256, (x,))
    assert float(ua.sum(x)) == 1024.0


def test_parameter_named_n(variant):
    # (only i, _ind and names the generator uses, _uk..., are reserved, as in CuPy)
    k = ua.ElementwiseKernel("T x, T n", "T y", "y = x * n", "uk_param_n")
    h = np.arange(1000, dtype=np.float32)
    check(k(ua.asarray(h), np.float32(3)), h * np.float32(3))
    check(k(ua.asarray(h)[::-3], np.float32(2)), h[::-3] * np.float32(2))
    r = ua.ReductionKernel("T x, T n", "T y", "x * n", "a + b", "y = a", "0", "ur_param_n")
    check(r(ua.asarray(h.reshape(10, 100)), np.float32(2), axis=1), (h * 2).reshape(10, 100).sum(1))
    with pytest.raises(ValueError):
        ua.ElementwiseKernel("T x, T i", "T y", "y = x", "uk_param_i")


def test_elementwise_outputs_the_body_reads_keep_their_values(variant):
    """y = y + x: an output of another dtype than declared, or not
    C-contiguous with `i` in the body, goes through a temporary holding
    its values (it was uninitialised memory)."""
    k = ua.ElementwiseKernel("T x", "float64 y", "y = y + x", "uk_test_acc_cast")
    o = ua.asarray(np.full(4, 100, np.float32))
    k(ua.asarray(np.arange(4, dtype=np.float32)), o)
    np.testing.assert_array_equal(ua.asnumpy(o), [100, 101, 102, 103])
    k2 = ua.ElementwiseKernel("T x", "T y", "y = y + x + 0 * i", "uk_test_acc_index")
    o2 = ua.asarray(np.full((3, 2), 100.0)).T
    k2(ua.asarray(np.arange(6.0)).reshape(2, 3), o2)
    np.testing.assert_array_equal(ua.asnumpy(o2), 100 + np.arange(6.0).reshape(2, 3))


def test_vector_form_refuses_named_constants_and_sizeof(variant):
    """Macros of another type than the items' (LLONG_MAX) and sizeof (a
    vector's size, not an item's) keep the scalar form's values."""
    h = np.array([701, 273, -5, 9] * 16, np.int32)
    k = ua.ElementwiseKernel("T x", "T z", "z = x / LLONG_MAX", "uk_test_llong")
    np.testing.assert_array_equal(ua.asnumpy(k(ua.asarray(h))), np.zeros_like(h))
    k2 = ua.ElementwiseKernel("T x", "T z", "z = x * sizeof(x)", "uk_test_sizeof")
    np.testing.assert_array_equal(ua.asnumpy(k2(ua.asarray(np.ones(64, np.float32)))), 4.0)
    with pytest.raises(ValueError, match="size"):
        ua.ElementwiseKernel("T x, T y", "T z", "z = x + y", "uk_test_size")(1.0, 2.0, size=-1)
