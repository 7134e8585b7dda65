"""NumPy's functions beyond the array API that a NumPy or CuPy user reaches
for first (issue 32): diagonals and triangles, kron, logarithmic sequences,
index helpers, insert/delete, type checks, nan_to_num, the conj methods and
get_array_module, against NumPy over dtypes, shapes and axes, called through
NumPy's dispatch (``np.diag(usm_ndarray)``) and directly; and the error
messages that say how to move host data."""

import numpy as np
import pytest

import usmarray as ua
from conftest import check, device_supports, sample

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HAS_F64 = device_supports(ua.float64)
FLOAT = np.float64 if HAS_F64 else np.float32
COMPLEX = np.complex128 if HAS_F64 else np.complex64
FLOATS = ["float32"] + (["float64"] if HAS_F64 else []) + \
    (["float16"] if device_supports(ua.float16) else [])
REAL = ["bool", "int8", "uint16", "int32", "int64"] + FLOATS
ALL = REAL + ["complex64"] + (["complex128"] if HAS_F64 else [])


def _same(got, expected, what=""):
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), (what, got)
        for g, e in zip(got, expected):
            _same(g, e, what)
        return
    if isinstance(expected, (bool, np.bool_)):
        assert got is bool(expected) or got == expected, (what, got, expected)
        return
    check(got, expected, True, what)


# ----------------------------------------------------------------- section 3: messages
def test_concatenate_with_a_list_says_asarray():
    x = ua.asarray(np.arange(3.0))
    with pytest.raises(TypeError, match=r"numpy\.concatenate: operand of type builtins\.list"
                                         r".*ua\.asarray"):
        np.concatenate([x, [1.0]])
    with pytest.raises(TypeError, match=r"concat: operand of type builtins\.list.*ua\.asarray"):
        ua.concat([x, [1.0]])
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.stack((x, (1.0, 2.0, 3.0)))


def test_operator_with_a_list_says_what_np_add_says():
    x = ua.asarray(np.arange(4.0))
    with pytest.raises(TypeError) as e1:
        x + [1, 2, 3, 4]
    with pytest.raises(TypeError) as e2:
        np.add(x, [1, 2, 3, 4])
    tail = "usmarray does not move data between host and device implicitly"
    assert tail in str(e1.value) and tail in str(e2.value)
    assert "ua.asarray(...)" in str(e1.value)


def test_foreign_ufunc_named_by_its_own_module():
    special = pytest.importorskip("scipy.special")
    x = ua.asarray(np.arange(4.0))
    with pytest.raises(TypeError, match=r"^scipy\.special\.erf has no usmarray counterpart"):
        special.erf(x)
    with pytest.raises(TypeError, match=r"^numpy\.frexp"):
        np.frexp(x)   # (a NumPy ufunc usmarray lacks keeps NumPy's name)
