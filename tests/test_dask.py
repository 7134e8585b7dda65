"""Dask arrays whose chunks are usm_ndarrays: the threaded scheduler and a
distributed LocalCluster with two worker processes (chunks pickled between
them), results checked against NumPy.

Dask calls NumPy functions on the chunks (np.concatenate to assemble a
result, np.sum/np.max in reductions, chunk methods such as .sum/.astype,
ufuncs such as np.divide): those run on the device through usm_ndarray's
__array_function__, __array_ufunc__ and NumPy-style methods (numpy_protocols.py).
"""

import os

import numpy as np
import pytest

import usmarray as ua
from conftest import sample

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
import dask  # noqa: E402
from dask.sizeof import sizeof  # noqa: E402

SHAPE, CHUNKS = (40, 30), (16, 12)   # uneven edge chunks on purpose


@pytest.fixture(scope="module")
def data():
    h = sample(SHAPE, np.float64)
    return h, ua.asarray(h)


def _chunk_kinds(d):
    """Type name and usm_type of every chunk of `d`, computed where `d` runs."""
    def kind(b):
        return np.full((1,) * b.ndim, f"{type(b).__name__}:{getattr(b, 'usm_type', '-')}",
                       dtype=object)
    return set(np.ravel(d.map_blocks(kind, dtype=object, chunks=(1,) * d.ndim,
                                     meta=np.empty((0,) * d.ndim, dtype=object)).compute()))


def _double(b):
    return ua.multiply(b, 2)


def _block_sum(b):
    # keepdims: one value per block, so the blocks still tile a grid
    return ua.sum(b, keepdims=True)


# ------------------------------------------------------------------ threaded
@pytest.fixture(autouse=False)
def threads():
    with dask.config.set(scheduler="threads"):
        yield


def test_from_array_chunks_and_meta(data, threads):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    assert type(d._meta) is ua.usm_ndarray and d._meta.ndim == 2
    assert d.dtype == h.dtype and d.shape == h.shape
    assert _chunk_kinds(d) == {"usm_ndarray:device"}
    np.testing.assert_array_equal(np.asarray(d.compute()), h)
    # each block, computed alone, is the device array's block
    blocks = dask.compute(*d.to_delayed().ravel())
    assert all(type(b) is ua.usm_ndarray for b in blocks)
    np.testing.assert_array_equal(ua.asnumpy(blocks[0]), h[:16, :12])


def test_from_array_of_shared_usm(threads):
    h = sample((10, 10), np.float32)
    d = da.from_array(ua.asarray(h, usm_type="shared"), chunks=5)
    assert _chunk_kinds(d) == {"usm_ndarray:shared"}


def test_sizeof_counts_device_memory():
    # distributed's memory accounting and spilling use dask.sizeof (sys.getsizeof)
    x = ua.zeros((500, 400), dtype=ua.float32, usm_type="shared")
    assert x.nbytes <= sizeof(x) < x.nbytes + 1000
    assert x.nbytes // 2 <= sizeof(x[:, ::2]) < x.nbytes // 2 + 1000
    assert sizeof(ua.broadcast_to(x[0], (10**6, 400))) < 400 * 4 + 1000


def test_map_blocks(data, threads):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    y = d.map_blocks(_double, dtype=d.dtype, meta=d._meta)
    assert type(y._meta) is ua.usm_ndarray
    assert _chunk_kinds(y) == {"usm_ndarray:device"}
    np.testing.assert_array_equal(np.asarray(y.compute()), 2 * h)
    # ua functions straight on the blocks
    z = d.map_blocks(ua.sin, dtype=d.dtype, meta=d._meta)
    np.testing.assert_allclose(np.asarray(z.compute()), np.sin(h), rtol=1e-12)


def test_elementwise_operators(data, threads):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    y = (d + 1) * d - d / 4
    assert _chunk_kinds(y) == {"usm_ndarray:device"}
    np.testing.assert_allclose(np.asarray(y.compute()), (h + 1) * h - h / 4, rtol=1e-12)
    e = d[::2, 3:] + d[1::2, :-3]   # slices across chunk boundaries: rechunked blocks
    assert _chunk_kinds(e) == {"usm_ndarray:device"}
    np.testing.assert_allclose(np.asarray(e.compute()), h[::2, 3:] + h[1::2, :-3])


def test_transpose(data, threads):
    # d.T calls np.transpose on the blocks (now: through the host, NumPy blocks)
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    assert _chunk_kinds(d.T) == {"usm_ndarray:device"}
    np.testing.assert_array_equal(np.asarray((d.T + 1).compute()), h.T + 1)


def test_per_block_reduction(data, threads):
    """Reduce each block on its device, combine the small partial results:
    works without NumPy's protocols."""
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    partial = d.map_blocks(_block_sum, chunks=(1, 1), dtype=d.dtype, meta=d._meta)
    assert _chunk_kinds(partial) == {"usm_ndarray:device"}
    np.testing.assert_allclose(np.asarray(partial.compute()).sum(), h.sum(), rtol=1e-12)


def test_stack_values(data, threads):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    s = da.stack([d, d * 2], axis=1)
    assert s.shape == (40, 2, 30)
    np.testing.assert_array_equal(np.asarray(s.compute()), np.stack([h, 2 * h], axis=1))


def test_compute_result_stays_on_device(data, threads):
    # np.concatenate of the blocks -> ua.concat through __array_function__
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    for r in (d.compute(), (d + 1).compute(), da.stack([d, d]).compute()):
        assert type(r) is ua.usm_ndarray


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("op", ["sum", "mean", "max", "var", "std"])
def test_reductions(data, threads, op, axis):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    r = getattr(d, op)(axis=axis).compute()
    assert type(r) is ua.usm_ndarray
    np.testing.assert_allclose(ua.asnumpy(r), getattr(h, op)(axis=axis), rtol=1e-12)


def test_products_over_chunked_axes(threads):
    # Dask's dot and tensordot pick the chunks' type by __array_priority__
    h = sample((6, 6), np.float64)
    d = da.from_array(ua.asarray(h), chunks=4)   # the contracted axis in two chunks
    for r, e in ((da.dot(d, d), h @ h), (da.tensordot(d, d, axes=([1], [0])), h @ h),
                 (d @ d, h @ h)):
        r = r.compute()
        assert type(r) is ua.usm_ndarray
        np.testing.assert_allclose(ua.asnumpy(r), e, rtol=1e-12)


def test_ufunc_on_dask_array(data, threads):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    r = np.sin(d).compute()
    assert type(r) is ua.usm_ndarray
    np.testing.assert_allclose(ua.asnumpy(r), np.sin(h), rtol=1e-12)


# ------------------------------------------------------------------ distributed
@pytest.fixture(scope="module")
def client():
    """Two worker processes (spawned: each imports usmarray and makes its own
    SYCL queue when the first chunk arrives), one thread each."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def _worker_device():
    return os.getpid(), ua.asarray([1.0]).sycl_device.filter_string


def test_cluster_workers_have_devices(client):
    info = client.run(_worker_device)
    assert len(info) == 2
    pids = {pid for pid, _ in info.values()}
    assert len(pids) == 2 and os.getpid() not in pids
    assert {fs for _, fs in info.values()} == {ua.asarray([1.0]).sycl_device.filter_string}


def test_cluster_map_blocks_and_elementwise(client, data):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    y = d.map_blocks(_double, dtype=d.dtype, meta=d._meta) + d
    assert _chunk_kinds(y) == {"usm_ndarray:device"}
    np.testing.assert_array_equal(np.asarray(y.compute()), 3 * h)
    partial = d.map_blocks(_block_sum, chunks=(1, 1), dtype=d.dtype, meta=d._meta)
    np.testing.assert_allclose(np.asarray(partial.compute()).sum(), h.sum(), rtol=1e-12)


def test_cluster_chunks_move_between_workers(client, data):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    y = d.map_blocks(_double, dtype=d.dtype, meta=d._meta).persist()
    distributed.wait(y)
    held = client.who_has(y)
    assert len(held) == y.npartitions and all(held.values())   # blocks live on the workers
    # pairs blocks that the scheduler usually placed on different workers
    # (test_cluster_worker_to_worker forces a transfer)
    s = da.stack([y, y[::-1]])
    blocks = client.compute(s.to_delayed().ravel().tolist(), sync=True)
    assert all(type(b) is ua.usm_ndarray for b in blocks)
    np.testing.assert_array_equal(np.asarray(s.compute()), np.stack([2 * h, 2 * h[::-1]]))


def test_cluster_worker_to_worker(client):
    # an array pickled to one worker, used by a task pinned to the other
    w0, w1 = sorted(client.scheduler_info()["workers"])
    h = sample((64, 48), np.complex64)
    x = ua.asarray(h, usm_type="host").T   # F-contiguous: stays F through pickling
    fut = client.scatter(x, workers=[w0])
    res = client.submit(_double, fut, workers=[w1], pure=False)
    assert client.who_has(fut)[fut.key] == (w0,)
    y = res.result()
    assert client.who_has(res)[res.key] == (w1,)
    assert type(y) is ua.usm_ndarray and y.usm_type == "host" and y.flags.f_contiguous
    np.testing.assert_array_equal(ua.asnumpy(y), 2 * h.T)


@pytest.mark.parametrize("op", ["sum", "mean", "max", "var", "std"])
def test_cluster_reductions(client, data, op):
    h, x = data
    d = da.from_array(x, chunks=CHUNKS)
    r = getattr(d, op)(axis=0).compute()
    assert type(r) is ua.usm_ndarray
    np.testing.assert_allclose(ua.asnumpy(r), getattr(h, op)(axis=0), rtol=1e-12)


def test_reductions_over_empty_chunks_and_percentile():
    """Dask's empty-chunk max builds np.array([], like=chunk, ndmin=k), and
    its percentile looks up the chunk type: both work on usm chunks."""
    h = np.arange(10.0)
    d = da.from_array(ua.asarray(h), chunks=3)
    for f in ("max", "min"):
        got = getattr(d[d > 7], f)().compute()
        assert float(got) == getattr(h[h > 7], f)()
    got = da.from_array(ua.zeros((4, 0)), chunks=(3, 3)).max(axis=0).compute()
    assert got.shape == (0,)
    h2 = np.arange(12.0)
    got = da.percentile(da.from_array(ua.asarray(h2), chunks=4), [25, 50]).compute()
    want = da.percentile(da.from_array(h2, chunks=4), [25, 50]).compute()   # (Dask's estimate)
    np.testing.assert_allclose(ua.asnumpy(got) if isinstance(got, ua.usm_ndarray) else got, want)
