"""The table of elementwise operations.

One line per operation: its name, its loops (the dtypes it computes in and
the dtype it returns), the C++ expression of one element, and a one-line
description. From this table usmarray/elementwise.py makes the Python
function, its operator(s), the type resolution data and the kernel source.

Loops are written with type sets (see LOOPS below): "numeric" means one loop
T -> T for every numeric T; "float->real" one loop per inexact type returning
its real type; and so on. Inputs of other dtypes are cast to the first loop
they cast to safely (NumPy's rule), after binary operands were promoted to
their common dtype (the array API's rule).

In expressions ``a`` and ``b`` are the operands (already of the loop's input
type), ``usmk::`` helpers (kernels/sycl/math.hpp) hold the special cases the
array API standard prescribes.

An optional sixth field is the operation's vector form: the same result for
vectors ``a`` (and ``b``) of a loop's type, where the scalar form needs no
special cases for that type. It serves the loops whose inputs and output
share one type among VECTOR_TYPES. A form of operators alone works on clang
vectors of any of them; one that calls a function (``sycl::sin(a)``) sees
``sycl::vec`` operands and serves the float32 and float64 loops only. The
contiguous kernels of those loops get vector-block variants
(kernels/sycl/elementwise.hpp).
"""

BOOL = ("b1",)
SIGNED = ("i1", "i2", "i4", "i8")
INTS = ("i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8")
REAL_FLOAT = ("f2", "f4", "f8")
COMPLEX = ("c8", "c16")
FLOAT = REAL_FLOAT + COMPLEX
REAL = INTS + REAL_FLOAT
NUMERIC = INTS + FLOAT
ALL = BOOL + NUMERIC
_REAL_OF = {"c8": "f4", "c16": "f8"}
VECTOR_FLOAT = ("f4", "f8")
# (8- and 16-bit integers keep the scalar kernels: each of their vector
# kernels costs the kernel compiler seconds more)
VECTOR_TYPES = ("i4", "u4", "i8", "u8") + VECTOR_FLOAT

# input type set, output rule: "same", "bool" or "real" (complex -> its real type)
LOOPS = {
    "all": (ALL, "same"),
    "all->bool": (ALL, "bool"),
    "all->real": (ALL, "real"),
    "numeric": (NUMERIC, "same"),
    "numeric+bool": (ALL, "same"),
    "numeric->bool": (NUMERIC, "bool"),
    "real": (REAL, "same"),
    "real+bool": (BOOL + REAL, "same"),
    "float": (FLOAT, "same"),
    "float->real": (FLOAT, "real"),
    "realfloat": (REAL_FLOAT, "same"),
    "realfloat->bool": (REAL_FLOAT, "bool"),
    "complex->real": (COMPLEX, "real"),
    "complex": (COMPLEX, "same"),
    "int": (INTS, "same"),
    "int+bool": (BOOL + INTS, "same"),
    "bool": (BOOL, "same"),
    "double": (("f8", "c16"), "same"),
}


def loops(spec, nin):
    """[(input type names, output type name)] of a LOOPS key."""
    types, out = LOOPS[spec]
    res = []
    for t in types:
        o = t if out == "same" else "b1" if out == "bool" else _REAL_OF.get(t, t)
        res.append(((t,) * nin, o))
    return res


def vector_types(vexpr):
    """The loop types a vector form serves (see the module docstring)."""
    return VECTOR_FLOAT if "(" in vexpr else VECTOR_TYPES


# name, arity, loops, expression, description[, vector form]
OPS = [
    # ---- unary
    ("abs", 1, "all->real", "usmk::abs_(a)", "absolute value", "sycl::fabs(a)"),
    ("acos", 1, "float", "usmk::acos_(a)", "inverse cosine", "sycl::acos(a)"),
    ("acosh", 1, "float", "usmk::acosh_(a)", "inverse hyperbolic cosine", "sycl::acosh(a)"),
    ("asin", 1, "float", "usmk::asin_(a)", "inverse sine", "sycl::asin(a)"),
    ("asinh", 1, "float", "usmk::asinh_(a)", "inverse hyperbolic sine", "sycl::asinh(a)"),
    ("atan", 1, "float", "usmk::atan_(a)", "inverse tangent", "sycl::atan(a)"),
    ("atanh", 1, "float", "usmk::atanh_(a)", "inverse hyperbolic tangent", "sycl::atanh(a)"),
    ("bitwise_invert", 1, "int+bool", "usmk::invert_(a)", "bitwise NOT (logical NOT for bool)",
     "~a"),
    ("ceil", 1, "real+bool", "usmk::ceil_(a)", "smallest integer >= x", "sycl::ceil(a)"),
    ("conj", 1, "numeric", "usmk::conj_(a)", "complex conjugate"),
    ("cos", 1, "float", "usmk::cos_(a)", "cosine", "sycl::cos(a)"),
    ("cosh", 1, "float", "usmk::cosh_(a)", "hyperbolic cosine", "sycl::cosh(a)"),
    ("exp", 1, "float", "usmk::exp_(a)", "exponential", "sycl::exp(a)"),
    ("expm1", 1, "float", "usmk::expm1_(a)", "exp(x) - 1, accurate for small x", "sycl::expm1(a)"),
    ("floor", 1, "real+bool", "usmk::floor_(a)", "largest integer <= x", "sycl::floor(a)"),
    ("imag", 1, "all->real", "usmk::imag_(a)", "imaginary part"),
    ("isfinite", 1, "numeric->bool", "usmk::isfinite_(a)", "test for finite values"),
    ("isinf", 1, "numeric->bool", "usmk::isinf_(a)", "test for infinities"),
    ("isnan", 1, "numeric->bool", "usmk::isnan_(a)", "test for NaN"),
    ("log", 1, "float", "usmk::log_(a)", "natural logarithm", "sycl::log(a)"),
    ("log1p", 1, "float", "usmk::log1p_(a)", "log(1 + x), accurate for small x", "sycl::log1p(a)"),
    ("log2", 1, "float", "usmk::log2_(a)", "base-2 logarithm", "sycl::log2(a)"),
    ("log10", 1, "float", "usmk::log10_(a)", "base-10 logarithm", "sycl::log10(a)"),
    ("logical_not", 1, "bool", "!a", "logical NOT"),
    ("negative", 1, "numeric", "usmk::negative_(a)", "numerical negative", "-a"),
    ("positive", 1, "numeric", "a", "numerical positive (a copy)", "a"),
    ("real", 1, "all->real", "usmk::real_(a)", "real part"),
    ("reciprocal", 1, "float", "usmk::reciprocal_(a)", "1 / x", "1 / a"),
    ("round", 1, "numeric", "usmk::round_(a)", "round to the nearest integer, ties to even",
     "sycl::rint(a)"),
    ("sign", 1, "numeric", "usmk::sign_(a)", "sign (x / abs(x) for complex)"),
    ("signbit", 1, "realfloat->bool", "usmk::signbit_(a)", "test for a set sign bit"),
    ("sin", 1, "float", "usmk::sin_(a)", "sine", "sycl::sin(a)"),
    ("sinh", 1, "float", "usmk::sinh_(a)", "hyperbolic sine", "sycl::sinh(a)"),
    ("sqrt", 1, "float", "usmk::sqrt_(a)", "square root", "sycl::sqrt(a)"),
    ("square", 1, "numeric", "usmk::square_(a)", "x * x", "a * a"),
    ("tan", 1, "float", "usmk::tan_(a)", "tangent", "sycl::tan(a)"),
    ("tanh", 1, "float", "usmk::tanh_(a)", "hyperbolic tangent", "sycl::tanh(a)"),
    ("trunc", 1, "real+bool", "usmk::trunc_(a)", "round towards zero", "sycl::trunc(a)"),
    # dpctl.tensor extras
    ("cbrt", 1, "realfloat", "usmk::cbrt_(a)", "cube root", "sycl::cbrt(a)"),
    ("exp2", 1, "float", "usmk::exp2_(a)", "2 ** x", "sycl::exp2(a)"),
    ("rsqrt", 1, "realfloat", "usmk::rsqrt_(a)", "1 / sqrt(x)", "sycl::rsqrt(a)"),
    ("angle", 1, "complex->real", "usmk::angle_(a)", "argument of a complex number"),
    ("proj", 1, "complex", "usmk::proj_(a)", "projection onto the Riemann sphere"),
    # ---- binary
    ("add", 2, "numeric+bool", "a + b", "sum", "a + b"),
    ("atan2", 2, "realfloat", "usmk::atan2_(a, b)", "inverse tangent of x1 / x2 by quadrant",
     "sycl::atan2(a, b)"),
    ("bitwise_and", 2, "int+bool", "a & b", "bitwise AND", "a & b"),
    ("bitwise_left_shift", 2, "int", "usmk::left_shift_(a, b)", "shift left"),
    ("bitwise_or", 2, "int+bool", "a | b", "bitwise OR", "a | b"),
    ("bitwise_right_shift", 2, "int", "usmk::right_shift_(a, b)", "shift right"),
    ("bitwise_xor", 2, "int+bool", "a ^ b", "bitwise XOR", "a ^ b"),
    ("copysign", 2, "realfloat", "usmk::copysign_(a, b)", "magnitude of x1 with the sign of x2",
     "sycl::copysign(a, b)"),
    ("divide", 2, "float", "usmk::divide_(a, b)", "true division", "a / b"),
    ("equal", 2, "all->bool", "a == b", "x1 == x2"),
    ("floor_divide", 2, "real", "usmk::floor_divide_(a, b)", "floor of x1 / x2"),
    ("greater", 2, "all->bool", "usmk::greater_(a, b)", "x1 > x2"),
    ("greater_equal", 2, "all->bool", "usmk::greater_equal_(a, b)", "x1 >= x2"),
    ("hypot", 2, "realfloat", "usmk::hypot_(a, b)", "sqrt(x1**2 + x2**2) without overflow",
     "sycl::hypot(a, b)"),
    ("less", 2, "all->bool", "usmk::less_(a, b)", "x1 < x2"),
    ("less_equal", 2, "all->bool", "usmk::less_equal_(a, b)", "x1 <= x2"),
    ("logaddexp", 2, "realfloat", "usmk::logaddexp_(a, b)", "log(exp(x1) + exp(x2))"),
    ("logical_and", 2, "bool", "a && b", "logical AND"),
    ("logical_or", 2, "bool", "a || b", "logical OR"),
    ("logical_xor", 2, "bool", "a != b", "logical XOR"),
    ("maximum", 2, "all", "usmk::maximum_(a, b)", "elementwise maximum (NaN propagates)"),
    ("minimum", 2, "all", "usmk::minimum_(a, b)", "elementwise minimum (NaN propagates)"),
    ("multiply", 2, "numeric+bool", "a * b", "product", "a * b"),
    ("nextafter", 2, "realfloat", "usmk::nextafter_(a, b)",
     "next representable value after x1 towards x2"),
    ("not_equal", 2, "all->bool", "a != b", "x1 != x2"),
    ("pow", 2, "numeric", "usmk::pow_(a, b)", "x1 raised to the power x2", "sycl::pow(a, b)"),
    ("remainder", 2, "real", "usmk::remainder_(a, b)", "remainder of floor division (sign of x2)"),
    ("subtract", 2, "numeric", "a - b", "difference", "a - b"),
    # NumPy's ufuncs beyond the array API
    ("degrees", 1, "realfloat", "usmk::degrees_(a)", "radians to degrees (numpy.rad2deg)"),
    ("radians", 1, "realfloat", "usmk::radians_(a)", "degrees to radians (numpy.deg2rad)"),
    ("fabs", 1, "realfloat", "usmk::abs_(a)", "absolute value of real numbers, as a float",
     "sycl::fabs(a)"),
    ("spacing", 1, "realfloat", "usmk::spacing_(a)",
     "distance to the next float away from zero (signed as x)"),
    ("fmax", 2, "all", "usmk::fmax_(a, b)", "elementwise maximum (a NaN loses to a number)"),
    ("fmin", 2, "all", "usmk::fmin_(a, b)", "elementwise minimum (a NaN loses to a number)"),
    ("fmod", 2, "real", "usmk::fmod_(a, b)", "remainder of truncated division (sign of x1)"),
    ("heaviside", 2, "realfloat", "usmk::heaviside_(a, b)",
     "step function: 0 below zero, x2 at zero, 1 above"),
    ("logaddexp2", 2, "realfloat", "usmk::logaddexp2_(a, b)", "log2(2**x1 + 2**x2)"),
    ("float_power", 2, "double", "usmk::pow_(a, b)",
     "x1 ** x2 in float64 (complex128 for complex inputs)"),
    ("gcd", 2, "int", "usmk::gcd_(a, b)", "greatest common divisor (non-negative)"),
    ("lcm", 2, "int", "usmk::lcm_(a, b)",
     "least common multiple: abs(a) / gcd * abs(b), wrapping past the type as NumPy's"),
]

# Operations that reject all-bool inputs (as NumPy does) instead of computing in
# int8; a bool beside a number is promoted, as NumPy's int8 - bool is.
NO_BOOL = {"subtract", "negative", "gcd", "lcm"}

# Python operators: dunder name -> (operation, reflected dunder or None, in-place dunder or None)
OPERATORS = {
    "__add__": ("add", "__radd__", "__iadd__"),
    "__sub__": ("subtract", "__rsub__", "__isub__"),
    "__mul__": ("multiply", "__rmul__", "__imul__"),
    "__truediv__": ("divide", "__rtruediv__", "__itruediv__"),
    "__floordiv__": ("floor_divide", "__rfloordiv__", "__ifloordiv__"),
    "__mod__": ("remainder", "__rmod__", "__imod__"),
    "__pow__": ("pow", "__rpow__", "__ipow__"),
    "__and__": ("bitwise_and", "__rand__", "__iand__"),
    "__or__": ("bitwise_or", "__ror__", "__ior__"),
    "__xor__": ("bitwise_xor", "__rxor__", "__ixor__"),
    "__lshift__": ("bitwise_left_shift", "__rlshift__", "__ilshift__"),
    "__rshift__": ("bitwise_right_shift", "__rrshift__", "__irshift__"),
    "__eq__": ("equal", None, None),
    "__ne__": ("not_equal", None, None),
    "__lt__": ("less", None, None),
    "__le__": ("less_equal", None, None),
    "__gt__": ("greater", None, None),
    "__ge__": ("greater_equal", None, None),
    "__neg__": ("negative", None, None),
    "__pos__": ("positive", None, None),
    "__abs__": ("abs", None, None),
    "__invert__": ("bitwise_invert", None, None),
}
