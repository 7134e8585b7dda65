"""Kernel launches on the OpenCL queue underneath a SYCL queue
(kernels/engine/launch.cpp) and the SYCL path that USMARRAY_NATIVE_LAUNCH=0
selects: both give NumPy's results, order their commands with copies,
oneMKL's host tasks and frees, and the switch does what it says."""

import os
import subprocess
import sys

import dpctl
import numpy as np
import pytest

import usmarray as ua
from usmarray._core import _engine


def _run(code, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                          cwd="/", timeout=600)


# A few operations of each kind of launch (elementwise, reduction, scan,
# sort, gather, oneMKL after a kernel, a result freed while pending), each
# checked against NumPy; prints whether launches went to the OpenCL queue.
_WORKLOAD = """
import numpy as np, usmarray as ua
from usmarray._core import _engine
rng = np.random.default_rng(0)
h = rng.standard_normal(100003).astype(np.float32)
x = ua.asarray(h)
print(_engine.native_launch(x._q.ref))
np.testing.assert_allclose(ua.asnumpy(x * 2 + 1), h * 2 + 1, rtol=1e-6)
np.testing.assert_allclose(float(ua.sum(x)), float(h.astype(np.float64).sum()), rtol=1e-3)
np.testing.assert_allclose(ua.asnumpy(ua.cumulative_sum(x)), np.cumsum(h), rtol=1e-3, atol=1e-2)
np.testing.assert_array_equal(ua.asnumpy(ua.sort(x)), np.sort(h))
np.testing.assert_array_equal(ua.asnumpy(ua.argsort(x)), np.argsort(h, kind="stable"))
i = rng.integers(0, h.size, 1000)
np.testing.assert_array_equal(ua.asnumpy(ua.take(x, ua.asarray(i))), h[i])
a = rng.standard_normal((64, 64))
m = ua.asarray(a) * 2.0 + ua.eye(64)          # a kernel, then oneMKL reads its result
np.testing.assert_allclose(ua.asnumpy(ua.linalg.inv(m)), np.linalg.inv(a * 2.0 + np.eye(64)),
                           rtol=1e-8, atol=1e-8)
for k in range(50):                            # temporaries freed while their kernels run
    y = ua.asarray(h) + float(k)
    z = y * 3.0
    del y
np.testing.assert_allclose(ua.asnumpy(z), (h + 49.0) * 3.0, rtol=1e-6)
print("ok")
"""


def _opencl():
    return ua.asarray([0])._q.device.backend.name == "opencl"


@pytest.mark.parametrize("setting", ["0", "1"])
def test_workload_with_and_without_native_launches(setting):
    r = _run(_WORKLOAD, USMARRAY_NATIVE_LAUNCH=setting)
    assert r.returncode == 0, r.stderr
    native, ok = r.stdout.split()
    assert ok == "ok"
    # only OpenCL queues have an OpenCL queue underneath; 0 turns it off
    assert native == str(setting == "1" and _opencl())


def test_native_launch_state_of_this_process():
    q = ua.asarray([0])._q
    off = os.environ.get("USMARRAY_NATIVE_LAUNCH", "1").startswith("0")
    assert _engine.native_launch(q.ref) == (_opencl() and not off)


def test_out_of_order_queue_orders_native_launches():
    import dpctl
    qi = ua.asarray([0])._q
    q = dpctl.SyclQueue(qi.context, qi.device)   # out of order
    h = np.arange(200000, dtype=np.float64)
    x = ua.asarray(h, sycl_queue=q)
    for _ in range(20):   # each step reads the previous one's result
        x = x + 1.0
    np.testing.assert_array_equal(ua.asnumpy(x), h + 20.0)
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(-x)), np.sort(-(h + 20.0)))


def test_many_queues_come_and_go():
    # the engine remembers a few queues; older ones are looked up again
    # (and freed by their owners meanwhile)
    import dpctl
    qi = ua.asarray([0])._q
    h = np.arange(1000, dtype=np.float32)
    first = ua.asarray(h, sycl_queue=dpctl.SyclQueue(qi.context, qi.device, property="in_order"))
    for k in range(20):
        q = dpctl.SyclQueue(qi.context, qi.device, property="in_order")
        x = ua.asarray(h, sycl_queue=q)
        np.testing.assert_array_equal(ua.asnumpy(x * 2.0 + k), h * 2.0 + k)
        del x, q
    np.testing.assert_array_equal(ua.asnumpy(first + 1.0), h + 1.0)


def test_direct_and_runtime_launches_of_one_kernel(variant):
    # A kernel behind a pending host task (the CPU matmul) goes through the
    # SYCL runtime, which submits it from its own thread when the task ends,
    # while this thread launches the same kernel directly on OpenCL. They
    # once shared one cl_kernel, whose arguments each set for the other: a
    # wrong result about once in a thousand under load (a flaky sklearn
    # LinearDiscriminantAnalysis test). Direct launches now have a cl_kernel
    # of their own. (A race: this passes by chance too, but it failed before.)
    rng = np.random.default_rng(1)
    a_h, b_h = rng.standard_normal((200, 200)), rng.standard_normal((200, 200))
    expected = a_h @ b_h + 1.0
    b = ua.asarray(b_h)
    xs = [ua.asarray(np.full(500, float(i))) for i in range(24)]
    for _ in range(40):
        a = ua.asarray(a_h) * 1.0          # (its last use pending)
        d = (a @ b) + 1.0                  # behind the matmul's host task
        es = [x + 1.0 for x in xs]         # the same kernel, launched directly
        np.testing.assert_allclose(ua.asnumpy(d), expected, rtol=1e-12, atol=1e-12)
        for i, e in enumerate(es):
            assert (ua.asnumpy(e) == i + 1.0).all()


@pytest.mark.parametrize("mode", ["two in-order queues", "one out-of-order queue"])
def test_runtime_launches_on_other_queues(mode):
    # The same with queues of the user's: a launch held back behind a host
    # task on one queue, and a later launch of the same kernel through the
    # runtime on another that completes first. Direct launches must keep to
    # their own cl_kernel until every runtime launch of the kernel completed
    # (keeping only the last one's event: 3-134 wrong of 200-300 under load,
    # and crashes).
    import dpctl
    d0 = ua.asarray([0])._q
    props = {"property": "in_order"} if mode.startswith("two") else {}
    q1 = dpctl.SyclQueue(d0.context, d0.device, **props)
    q2 = dpctl.SyclQueue(d0.context, d0.device, property="in_order") if props else q1
    rng = np.random.default_rng(0)
    a_h, b_h = rng.standard_normal((200, 200)), rng.standard_normal((200, 200))
    a, b = ua.asarray(a_h, sycl_queue=q1), ua.asarray(b_h, sycl_queue=q1)
    big = ua.asarray(np.zeros(500_000), sycl_queue=q2)
    xs = [ua.asarray(np.full(300, float(i)), sycl_queue=q2) for i in range(12)]
    expected = a_h @ b_h + 1.0
    for _ in range(30):
        d = (a * 1.0) @ b + 1.0             # held back behind the matmul
        z = big.copy() + 1.0                # through the runtime, done at once
        ua.asnumpy(z[:1])
        es = [x + 1.0 for x in xs for _ in range(10)]
        np.testing.assert_allclose(ua.asnumpy(d), expected, rtol=1e-10, atol=1e-10)
        for i, e in enumerate(es):
            assert (ua.asnumpy(e) == i // 10 + 1.0).all()
