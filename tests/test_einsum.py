"""einsum and einsum_path against NumPy: explicit and implicit outputs,
ellipses, diagonals, broadcasting, the interleaved form, 3+ operands along
NumPy's paths, dtypes (bool and integers too), out= and dtype=, through
NumPy's dispatch and directly, in both kernel variants."""

import numpy as np
import pytest

import usmarray as ua
from conftest import device_supports, sample

HAS_F64 = device_supports(ua.float64)
FLOAT = "float64" if HAS_F64 else "float32"
DTYPES = ["bool", "int8", "int32", "int64", "float32", FLOAT, "complex64"] + \
    (["float16"] if device_supports(ua.float16) else [])

# subscripts -> operand shapes
CASES = {
    "ij,jk->ik": [(3, 4), (4, 5)],
    "ij,jk": [(3, 4), (4, 5)],
    "ij,kj->ik": [(3, 4), (5, 4)],
    "i,i->": [(6,), (6,)],
    "i,i": [(6,), (6,)],
    "i,j->ij": [(3,), (4,)],
    "ij->ji": [(3, 4)],
    "ij->": [(3, 4)],
    "ij->j": [(3, 4)],
    "ii->i": [(4, 4)],
    "ii": [(4, 4)],
    "iij->j": [(3, 3, 2)],
    "iji->ij": [(3, 2, 3)],
    "bij,bjk->bik": [(2, 3, 4), (2, 4, 5)],
    "bij,bjk->bki": [(2, 3, 4), (2, 4, 5)],
    "...ij,...jk->...ik": [(2, 3, 4), (4, 5)],
    "...j,j": [(2, 3, 4), (4,)],
    "i...->...": [(3, 2, 2)],
    "ij,ij->i": [(3, 4), (3, 4)],
    "ij,ij,ij->ij": [(3, 4), (3, 4), (3, 4)],
    "ij,jk,kl->il": [(3, 4), (4, 5), (5, 2)],
    "ij,jk,kl,li->": [(3, 4), (4, 5), (5, 2), (2, 3)],
    "abc,bd,cd->ad": [(2, 3, 4), (3, 5), (4, 5)],
    "i,j,k->ijk": [(2,), (3,), (4,)],
    "ea,fb,abcd,gc,hd->efgh": [(2, 3), (2, 3), (3, 3, 3, 3), (2, 3), (2, 3)],
    "ij,j->i": [(3, 1), (4,)],        # a length-1 label broadcasts
    "ij,ij->ij": [(1, 4), (3, 1)],
    "i,->i": [(4,), ()],
    "ij,jk->ik ": [(0, 4), (4, 5)],   # empty operands (and a space)
    "ij, jk": [(3, 0), (0, 5)],       # (a space: a key of its own)
}


def _operands(shapes, dt, seed=0):
    hs = [sample(s, dt, seed + i) for i, s in enumerate(shapes)]
    if dt == "float16":   # (products of five values of ~10 overflow float16)
        hs = [(h / 8).astype(np.float16) for h in hs]
    return hs


def _expected(sub, hs, **kw):
    e = np.einsum(sub, *hs, **kw)
    return np.asarray(e)


def _tol(dt):
    return {"float16": 3e-2, "float32": 2e-5, "complex64": 2e-5}.get(dt, 1e-12)


def _close(got, e, dt, what):
    assert isinstance(got, ua.usm_ndarray), (what, type(got))
    assert got.shape == e.shape and got.dtype == e.dtype, (what, got.shape, got.dtype, e.shape,
                                                           e.dtype)
    g = ua.asnumpy(got)
    if e.dtype.kind in "fc":
        scale = float(np.max(np.abs(e), initial=1.0))
        np.testing.assert_allclose(g, e, rtol=_tol(dt), atol=_tol(dt) * scale, err_msg=what)
    else:
        np.testing.assert_array_equal(g, e, err_msg=what)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("sub", list(CASES), ids=str)
def test_einsum_matches_numpy(variant, dt, sub):
    hs = _operands(CASES[sub], dt)
    if dt == "int8":
        hs = [(h % 3).astype(np.int8) for h in hs]   # (NumPy's int8 sums wrap; small values)
    e = _expected(sub, hs)
    xs = [ua.asarray(h) for h in hs]
    _close(np.einsum(sub, *xs), e, dt, f"dispatched {sub}")
    _close(ua.einsum(sub, *xs, optimize="optimal"), e, dt, f"optimal {sub}")


def test_interleaved_form(variant):
    a, b = sample((3, 4), "float32"), sample((4, 5), "float32", 1)
    xa, xb = ua.asarray(a), ua.asarray(b)
    _close(np.einsum(xa, [0, 1], xb, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]),
           "float32", "explicit")
    _close(np.einsum(xa, [0, 1], xb, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]), "float32",
           "implicit")
    _close(ua.einsum(xa, [Ellipsis, 1], [1, Ellipsis]), np.einsum(a, [Ellipsis, 1],
                                                                 [1, Ellipsis]), "float32",
           "ellipsis")


def test_mixed_dtypes_dtype_and_out(variant):
    a, b = sample((3, 4), "int32"), sample((4, 5), "float32", 1)
    xa, xb = ua.asarray(a), ua.asarray(b)
    _close(np.einsum("ij,jk", xa, xb), np.einsum("ij,jk", a, b), "float32", "promotion")
    _close(np.einsum("ij,jk", xa, xb, dtype=FLOAT), np.einsum("ij,jk", a, b, dtype=FLOAT),
           FLOAT, "dtype=")
    with pytest.raises(TypeError, match="safe"):
        ua.einsum("ij,jk", xa, xb, dtype="int32")
    _close(ua.einsum("ij,jk", xa, xb, dtype="int32", casting="unsafe"),
           np.einsum("ij,jk", a, b, dtype="int32", casting="unsafe"), "int32", "unsafe")
    out = ua.empty((3, 5), dtype=np.float32)
    assert np.einsum("ij,jk", xa, xb, out=out) is out
    _close(out, np.einsum("ij,jk", a, b).astype(np.float32), "float32", "out=")
    f = ua.einsum("ij,jk", xa, xb, order="F")
    assert f.flags.f_contiguous


def test_views_as_numpy():
    h = sample((4, 4), "float32")
    x = ua.asarray(h)
    d = ua.einsum("ii->i", x)    # NumPy returns a writable view here too
    d[...] = 0
    np.testing.assert_array_equal(np.diag(ua.asnumpy(x)), 0)


def test_paths_are_numpys():
    shapes = [(3, 40), (40, 5), (5, 60), (60, 2)]
    hs = _operands(shapes, "float32")
    xs = [ua.asarray(h) for h in hs]
    for opt in ("greedy", "optimal", True):
        got = np.einsum_path("ij,jk,kl,lm->im", *xs, optimize=opt)
        exp = np.einsum_path("ij,jk,kl,lm->im", *hs, optimize=opt)
        assert got == exp
    path = ["einsum_path", (2, 3), (0, 1), (0, 1)]
    _close(ua.einsum("ij,jk,kl,lm->im", *xs, optimize=path), np.einsum("ij,jk,kl,lm->im", *hs),
           "float32", "explicit path")
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        ua.einsum_path("ij,jk", xs[0], hs[1])


def test_errors():
    x = ua.asarray(np.zeros((2, 3)))
    with pytest.raises(ValueError):
        ua.einsum("ij,jk", x)                    # operand count
    with pytest.raises(ValueError):
        ua.einsum("ijk", x)                      # label count
    with pytest.raises(ValueError, match="never appeared"):
        ua.einsum("ij->k", x)
    with pytest.raises(ValueError, match="multiple times"):
        ua.einsum("ij->ii", x)
    with pytest.raises(ValueError, match="don't match"):
        ua.einsum("ii", x)
    with pytest.raises(ValueError, match="broadcast"):
        ua.einsum("ij,ij", x, ua.asarray(np.zeros((2, 4))))
    with pytest.raises(ValueError, match="valid symbol"):
        ua.einsum("i1", x)
    with pytest.raises(TypeError, match=r"ua\.asarray"):
        np.einsum("ij,jk", x, np.zeros((3, 2)))
