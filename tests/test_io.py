"""save, savez, savez_compressed and load: NumPy's .npy/.npz files written
from usm_ndarrays (through np.save's dispatch and ua.save) that NumPy reads,
and NumPy's files read onto the device."""

import io

import numpy as np
import pytest

import usmarray as ua
from conftest import SUPPORTED_DTYPES, check, sample


@pytest.mark.parametrize("dt", SUPPORTED_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 0, 3)], ids=str)
def test_save_then_numpy_loads(tmp_path, dt, shape):
    h = sample(shape, dt)
    x = ua.asarray(h)
    np.save(tmp_path / "a.npy", x)          # dispatched to ua.save
    ua.save(tmp_path / "b", ua.permute_dims(x, tuple(range(x.ndim))[::-1]))   # (".npy" added)
    r = np.load(tmp_path / "a.npy")
    assert type(r) is np.ndarray and r.dtype == h.dtype
    np.testing.assert_array_equal(r, h)
    np.testing.assert_array_equal(np.load(tmp_path / "b.npy"), h.T)


@pytest.mark.parametrize("dt", ["int16", "float32", "complex64", "bool"])
def test_load_numpys_file(tmp_path, dt):
    h = sample((4, 3), dt)
    np.save(tmp_path / "h.npy", h)
    np.save(tmp_path / "f.npy", np.asfortranarray(h))
    x = ua.load(tmp_path / "h.npy")
    check(x, h)
    check(ua.load(tmp_path / "f.npy"), h)
    y = ua.load(tmp_path / "h.npy", usm_type="shared")
    assert y.usm_type == "shared"
    m = ua.load(tmp_path / "h.npy", mmap_mode="r")
    check(m, h)


def test_savez_and_load_archive(tmp_path):
    a, b = sample((3, 4), "float32"), sample((5,), "int64", 1)
    xa, xb = ua.asarray(a), ua.asarray(b)
    np.savez(tmp_path / "z.npz", xa, b=xb)                # dispatched
    ua.savez_compressed(tmp_path / "c", xa, b=xb)
    np.savez_compressed(tmp_path / "d.npz", first=xa)     # dispatched
    for name in ("z.npz", "c.npz"):
        with np.load(tmp_path / name) as z:
            np.testing.assert_array_equal(z["arr_0"], a)
            np.testing.assert_array_equal(z["b"], b)
        with ua.load(tmp_path / name) as z:
            assert sorted(z.files) == ["arr_0", "b"] and "b" in z and len(z) == 2
            check(z["arr_0"], a)
            check(z["b"], b)
            assert dict(z.items()).keys() == {"arr_0", "b"}
    with np.load(tmp_path / "d.npz") as z:
        np.testing.assert_array_equal(z["first"], a)


def test_file_objects_and_pickles(tmp_path):
    h = sample((2, 3), "float32")
    buf = io.BytesIO()
    ua.save(buf, ua.asarray(h))
    buf.seek(0)
    check(ua.load(buf), h)
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError):
        ua.load(tmp_path / "o.npy")           # allow_pickle=False, as NumPy
    r = ua.load(tmp_path / "o.npy", allow_pickle=True)
    assert isinstance(r, np.ndarray) and r.dtype == object   # not device data: NumPy's


def test_savez_through_numpy_takes_numpy_arrays_beside_usm_ones():
    b = io.BytesIO()
    np.savez(b, a=ua.arange(3), b=np.arange(2))
    b.seek(0)
    with np.load(b) as z:
        np.testing.assert_array_equal(z["a"], np.arange(3))
        np.testing.assert_array_equal(z["b"], np.arange(2))


def test_npzfile_is_a_mapping_and_keeps_non_numeric_members_on_the_host():
    b = io.BytesIO()
    np.savez(b, s=np.array(["a", "b"]), n=np.arange(3))
    b.seek(0)
    z = ua.load(b)
    assert isinstance(z["n"], ua.usm_ndarray)
    s = z["s"]
    assert isinstance(s, np.ndarray) and s.tolist() == ["a", "b"]
    assert sorted(z) == ["n", "s"] and len(z) == 2 and "s" in z
    assert z.get("missing") is None and z.get("n") is not None
    assert sorted(k for k in z.keys()) == ["n", "s"] and len(list(z.values())) == 2
    assert dict(z.items())["s"].tolist() == ["a", "b"]
    z.close()
