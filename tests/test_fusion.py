"""``ua.fuse`` against the same functions unfused: random expression trees
of the elementwise table, where, astype and scalars, trailing reductions,
broadcasting and strides, kernel reuse, and what falls back unfused. Both
kernel variants run (the `variant` fixture)."""

import random
import warnings

import numpy as np
import pytest

import usmarray as ua
from usmarray.fusion import FusionWarning

# (name, arity) of the table's operations the trees draw from; the inputs
# stay in [0.5, 2] and the operations keep values finite (sqrt and log of
# abs, exp of tanh)
UNARY = ["negative", "abs", "square", "sin", "cos", "tanh", "floor", "ceil", "sqrt_abs",
         "exp_tanh", "log1p_abs", "astype_f64_f32"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "where_greater",
          "scalar_mul", "scalar_add", "pow2"]
EXACT = {"negative", "abs", "square", "floor", "ceil", "add", "subtract", "multiply", "maximum",
         "minimum", "where_greater", "scalar_mul", "scalar_add", "pow2", "astype_f64_f32"}


def _unary(name, x):
    if name == "sqrt_abs":
        return ua.sqrt(ua.abs(x))
    if name == "exp_tanh":
        return ua.exp(ua.tanh(x))
    if name == "log1p_abs":
        return ua.log1p(abs(x))
    if name == "astype_f64_f32":
        return ua.astype(ua.astype(x, ua.float64) * 3, ua.float32)
    return getattr(ua, name)(x)


def _binary(name, x, y, s):
    if name == "where_greater":
        return ua.where(x > y, x, y - 1.0)
    if name == "scalar_mul":
        return x * s
    if name == "scalar_add":
        return 2.5 + x
    if name == "pow2":
        return x ** 2
    if name == "divide":
        return x / (abs(y) + 1)
    return getattr(ua, name)(x, y)


def random_tree(rng, depth):
    """A random expression: ("in", k), ("u", name, sub) or ("b", name, sub, sub)."""
    if depth == 0 or rng.random() < 0.2:
        return ("in", rng.randrange(3))
    if rng.random() < 0.4:
        return ("u", rng.choice(UNARY), random_tree(rng, depth - 1))
    return ("b", rng.choice(BINARY), random_tree(rng, depth - 1), random_tree(rng, depth - 1))


def evaluate(tree, xs, s):
    if tree[0] == "in":
        return xs[tree[1]]
    if tree[0] == "u":
        return _unary(tree[1], evaluate(tree[2], xs, s))
    return _binary(tree[1], evaluate(tree[2], xs, s), evaluate(tree[3], xs, s), s)


def names_in(tree):
    if tree[0] == "in":
        return set()
    return {tree[1]}.union(*(names_in(t) for t in tree[2:]))


def _inputs(shape=(300, 7), seed=0):
    rng = np.random.default_rng(seed)
    return [ua.asarray((rng.random(shape) * 1.5 + 0.5).astype(np.float32)) for _ in range(3)]


def _same(fused, unfused, exact, what):
    a, b = ua.asnumpy(fused), ua.asnumpy(unfused)
    assert a.dtype == b.dtype and a.shape == b.shape, what
    if exact:
        np.testing.assert_array_equal(a, b, err_msg=what)
    else:
        # (an operation with a vector form computes it unfused, its scalar
        # form fused, or the other way round: an ulp apart, then propagated)
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5 * max(1.0, np.abs(b).max()),
                                   err_msg=what)


@pytest.mark.parametrize("seed", range(8))
def test_random_trees(seed, variant):
    rng = random.Random(seed)
    tree = random_tree(rng, 4)
    while tree[0] == "in":
        tree = random_tree(rng, 4)
    xs = _inputs(seed=seed)
    f = ua.fuse(lambda a, b, c, s: evaluate(tree, (a, b, c), s))
    with warnings.catch_warnings():
        warnings.simplefilter("error", FusionWarning)
        got = f(*xs, 1.75)
    expected = evaluate(tree, xs, 1.75)
    plan = next(iter(f._plans.values()))
    # the generic kernels compute every operation's scalar form, as the
    # unfused strided and generic ones do: bit for bit; so do trees whose
    # operations are exact, and fused vector-block kernels (the same vector
    # forms as the unfused ones)
    exact = variant == "generic" or names_in(tree) <= EXACT or plan.vec
    _same(got, expected, exact, repr(tree))
    # strided, broadcast inputs: the strided kernels
    ys = [xs[0][::2, ::-1], xs[1][0], xs[2][::2, ::-1]]
    _same(f(*ys, -0.5), evaluate(tree, ys, -0.5), variant == "generic" or
          names_in(tree) <= EXACT, repr(tree) + " strided")


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_trailing_reductions(name, axis, variant):
    xs = _inputs((40, 30, 5), seed=3)

    def body(a, b):
        t = (a - b) * (a + 0.25)
        if name in ("any", "all"):
            t = t > 0.1
        if name == "prod":
            t = 1 + t * 0.01
        return getattr(ua, name)(t, axis=axis)

    f = ua.fuse(body)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FusionWarning)
        got = f(*xs[:2])
    expected = body(*xs[:2])
    _same(got, expected, name in ("max", "min", "any", "all"), f"{name} axis={axis}")


def test_reduction_keepdims_dtype_and_methods(variant):
    x, y, _ = _inputs((20, 50), seed=4)

    @ua.fuse
    def f(x, y):
        return ((x - y) ** 2).sum(axis=0, keepdims=True, dtype=ua.float64)

    got = f(x, y)
    assert got.shape == (1, 50) and got.dtype == ua.float64
    _same(got, ua.sum((x - y) ** 2, axis=0, keepdims=True, dtype=ua.float64), False, "sum f8")

    @ua.fuse
    def g(x, y):
        return ua.max(ua.where(x > y, x, y), axis=1)

    _same(g(x, y), ua.max(ua.where(x > y, x, y), axis=1), True, "max of where")
    # a reduction over a broadcast input: the inputs are walked as copies
    _same(g(x, y[0]), ua.max(ua.where(x > y[0], x, y[0]), axis=1), True, "broadcast")
    e = ua.empty((0, 3), dtype=ua.float32)
    assert ua.fuse(lambda a: ua.sum(a + 1))(e).shape == ()


def test_types_follow_the_unfused_rules(variant):
    i = ua.asarray(np.arange(-5, 15, dtype=np.int32))
    f32 = ua.asarray(np.linspace(-2, 2, 20, dtype=np.float32))
    b = ua.asarray(np.arange(20) % 3 == 0)
    cases = [
        lambda i, f, b: i + f,                     # int32 + float32 -> float64
        lambda i, f, b: i * 3 + 2,                 # weak Python ints
        lambda i, f, b: f * 2.5 - i.astype(ua.float32),
        lambda i, f, b: ua.where(b, i, -1),        # int32
        lambda i, f, b: i // 4 + i % 3,            # floor division and remainder of ints
        lambda i, f, b: (i > 2) & b,               # bool
        lambda i, f, b: i / 2,                     # int / int -> default float
        lambda i, f, b: -f ** 2,
        lambda i, f, b: ua.astype(f, ua.int16) << 2,
    ]
    for k, case in enumerate(cases):
        fused = ua.fuse(case)
        with warnings.catch_warnings():
            warnings.simplefilter("error", FusionWarning)
            got = fused(i, f32, b)
        expected = case(i, f32, b)
        assert got.dtype == expected.dtype, k
        _same(got, expected, True, f"case {k}")


def test_several_results_and_returned_inputs():
    x, y, _ = _inputs(seed=5)

    @ua.fuse
    def f(x, y):
        return x + y, x * y, x

    s, p, same = f(x, y)
    _same(s, x + y, True, "sum")
    _same(p, x * y, True, "product")
    assert same is x


def test_kernel_reuse_and_scalar_parameters():
    x, y, _ = _inputs(seed=6)
    f = ua.fuse(lambda x, s: x * s + 1)
    r1 = f(x, 2.0)
    r2 = f(x, -3.0)
    _same(r1, x * 2.0 + 1, True, "s=2")
    _same(r2, x * -3.0 + 1, True, "s=-3")
    assert len(f._plans) == 1
    f(y, 2.0)
    assert len(f._plans) == 1           # same shape and dtype
    f(x[:10], 2.0)
    assert len(f._plans) == 2           # another shape
    src = f.source(x, 2.0)
    assert "op_multiply::apply" in src and "op_add::apply" in src
    # the same expression in another fused function: the same kernel source
    g = ua.fuse(lambda x, s: x * s + 1)
    g(x, 2.0)
    assert g.source(x, 2.0) == src
    with pytest.raises(OverflowError), pytest.warns(FusionWarning):   # (the unfused error)
        ua.fuse(lambda x, s: x + s)(ua.ones(3, dtype=ua.int8), 1000)


def test_repeated_calls_keep_their_scalars_and_layouts(variant):
    # the parameter bytes of a function's own constants are kept with its
    # plan; a scalar argument's are packed on every call
    x, y, _ = _inputs(seed=7)
    f = ua.fuse(lambda x: x * 1.5 - 2)
    g = ua.fuse(lambda x, y, s: ua.sum((x - y) * s))
    for s in (2.0, -1.0, 2.0):
        _same(f(x), x * 1.5 - 2, True, "constants")
        got = g(x, y, s)
        want = ua.sum((x - y) * s)
        assert abs(float(got) - float(want)) <= 1e-5 * abs(float(want)) + 1e-6, (s, got, want)
    # a plan run on arrays of another layout or memory kind
    xt = ua.asarray(ua.asnumpy(x).T.copy()).T
    _same(f(xt), xt * 1.5 - 2, True, "F order")
    xs = ua.asarray(ua.asnumpy(x), usm_type="shared")
    r = f(xs)
    _same(r, xs * 1.5 - 2, True, "shared")
    assert r.usm_type == "shared"


@pytest.mark.parametrize("case", [
    lambda x, y: x[0] + y,                       # indexing
    lambda x, y: x + ua.ones(x.shape),           # an array that is not an argument
    lambda x, y: ua.sum(x) + y,                  # an operation after the reduction
    lambda x, y: (x + y) if ua.all(x > 0) else x,  # control flow on a traced value
    lambda x, y: ua.matmul(x, y.T),              # not elementwise
    lambda x, y: ua.cumulative_sum(x, axis=1),   # not a fusable reduction
], ids=["index", "captured", "after-reduction", "control-flow", "matmul", "scan"])
def test_unfusable_runs_unfused(case):
    x, y, _ = _inputs(seed=7)
    f = ua.fuse(case)
    with pytest.warns(FusionWarning):
        got = f(x, y)
    expected = case(x, y)
    np.testing.assert_array_equal(ua.asnumpy(got), ua.asnumpy(expected))
    with warnings.catch_warnings():   # warned once per argument signature
        warnings.simplefilter("error", FusionWarning)
        f(x, y)


def test_signed_beside_uint64_comparison_runs_unfused():
    # (exact unfused; the fused kernel would compare in float64)
    a = ua.asarray(np.array([2 ** 63 - 1, -1, 5], np.int64))
    b = ua.asarray(np.array([2 ** 63, 2 ** 64 - 1, 5], np.uint64))
    f = ua.fuse(lambda a, b: a == b)
    with pytest.warns(FusionWarning, match="uint64"):
        got = f(a, b)
    assert ua.asnumpy(got).tolist() == [False, False, True]


def test_errors_of_the_unfused_function_surface():
    # the user's errors are the unfused function's, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", FusionWarning)
        with pytest.raises(TypeError):
            ua.fuse(lambda x: x << 1)(ua.asarray([1.5, 2.5]))
        with pytest.raises(ValueError):
            ua.fuse(lambda x: x ** -1)(ua.asarray([1, 2]))
        with pytest.raises(ValueError):
            ua.fuse(lambda a: ua.max(a + 1))(ua.empty((0, 3), dtype=ua.float32))
    with pytest.raises(TypeError):
        ua.fuse(1, 2)


def test_in_place_operators_do_not_fuse():
    x, _, _ = _inputs(seed=8)

    def f(a):
        a += 1
        return a

    expected = ua.asnumpy(x) + 1
    with pytest.warns(FusionWarning):
        r = ua.fuse(f)(x)
    np.testing.assert_array_equal(ua.asnumpy(r), expected)
    np.testing.assert_array_equal(ua.asnumpy(x), expected)   # as unfused: x changed


def test_plans_keyed_by_the_values_of_other_arguments():
    # a list's items are constants of the trace: another list (which may
    # reuse a freed one's id) of other values is another plan
    @ua.fuse()
    def f(x, c):
        return x * c[0] + c[1]

    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ua.asarray(h)
    for k in range(6):
        np.testing.assert_array_equal(ua.asnumpy(f(x, [float(k), 10.0 * k])), h * k + 10 * k)
    assert len(f._plans) == 6
    f(x, [1.0, 10.0])
    assert len(f._plans) == 6               # equal values: the same plan
    n = len(f._plans)
    np.testing.assert_array_equal(ua.asnumpy(f(x, [float("nan"), 1.0])), h * np.nan + 1)
    assert len(f._plans) == n               # a NaN is no key: not kept


def test_numpy_scalars_fuse():
    # NumPy's float64 and complex128 scalars are Python float and complex
    import warnings
    x = ua.asarray(np.arange(6, dtype=np.float32))
    g = ua.fuse(lambda x, s: x * s + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(ua.asnumpy(g(x, np.float64(2.0))),
                                      ua.asnumpy(x * 2.0 + 1))
        np.testing.assert_array_equal(ua.asnumpy(g(x, np.int64(3))), ua.asnumpy(x * 3 + 1))


@pytest.mark.parametrize("dt, s", [("int32", 2**40), ("uint8", -1), ("uint8", 300),
                                   ("int64", 2**63), ("uint64", -1)])
def test_comparisons_with_out_of_range_python_ints(dt, s):
    """A Python int beyond the array's type compares exactly unfused (NumPy
    2's rule): the fused function runs unfused for it, with a FusionWarning,
    as an argument and as a constant, and fuses again for ints in range."""
    h = np.array([0, 1, 2, 100], dtype=dt)
    a = ua.asarray(h)
    cmp = ua.fuse(lambda x, v: (x < v, x == v, x >= v))
    with pytest.warns(FusionWarning, match="out of bounds"):
        got = cmp(a, s)
    for g, e in zip(got, (h < s, h == s, h >= s)):
        np.testing.assert_array_equal(ua.asnumpy(g), e)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FusionWarning)
        np.testing.assert_array_equal(ua.asnumpy(cmp(a, 1)[0]), h < 1)
    const = ua.fuse(lambda x: x > s)
    with pytest.warns(FusionWarning):
        np.testing.assert_array_equal(ua.asnumpy(const(a)), h > s)


def test_fusion_warnings_name_the_callers_line():
    f = ua.fuse(lambda x: x[0])
    with pytest.warns(FusionWarning) as rec:
        f(ua.ones(3))
    assert rec[0].filename == __file__
    g = ua.fuse(lambda x, v: x < v)
    with pytest.warns(FusionWarning) as rec:
        g(ua.ones(3, dtype=ua.int32), 2**40)
    assert rec[0].filename == __file__


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64"])
def test_signed_overflow_wraps_as_unfused(dt, variant):
    """Fused signed arithmetic wraps as the unfused kernels (and NumPy) do:
    one C++ expression may not assume that it does not overflow ((x + 1) > x
    was folded to true, x * x taken as non-negative)."""
    info = np.iinfo(dt)
    h = np.random.default_rng(1).integers(info.min, info.max, 4097, dtype=dt)
    h[:3] = [info.max, info.min, -1]
    x = ua.asarray(h)
    for f in (lambda a: (a + 1) > a, lambda a: ((a * a - a) + (-a)) > a,
              lambda a: ua.square(a) - a * 3, lambda a: (a * a).astype(ua.float64)):
        np.testing.assert_array_equal(ua.asnumpy(ua.fuse()(f)(x)), ua.asnumpy(f(x)))


def test_signed_zero_constants_stay_apart():
    """0.0 and -0.0 are two constants (and two cached values of a list
    argument), not one slot by ==."""
    x = ua.asarray(np.arange(3, dtype=np.float32))
    a, b = ua.fuse()(lambda v: (v * 0.0, v * -0.0))(x)
    assert not np.signbit(ua.asnumpy(a)).any() and np.signbit(ua.asnumpy(b)).all()
    g = ua.fuse()(lambda v, c: v * c[0])
    assert not np.signbit(ua.asnumpy(g(x, [0.0]))).any()
    assert np.signbit(ua.asnumpy(g(x, [-0.0]))).all()
