"""Process set-up: the CPU device becomes visible on import, user settings are
kept, and a machine without devices gets a clear error on first use."""

import os
import subprocess
import sys

import pytest


def _run(code, **env):
    e = dict(os.environ)
    e.pop("OCL_ICD_FILENAMES", None)
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                          cwd="/", timeout=300)


def test_import_points_the_icd_loader_at_the_cpu_runtime():
    r = _run("import os, dpctl, usmarray as ua\n"
             "print(os.environ['OCL_ICD_FILENAMES'])\n"
             "print([d.filter_string for d in dpctl.get_devices()])")
    assert r.returncode == 0, r.stderr
    icd, devices = r.stdout.splitlines()
    assert icd.endswith("libintelocl.so") and os.path.exists(icd)
    assert "opencl:cpu:0" in devices


def test_user_setting_is_kept():
    r = _run("import os, usmarray\nprint(os.environ['OCL_ICD_FILENAMES'])",
             OCL_ICD_FILENAMES="/nonexistent/libfoo.so")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "/nonexistent/libfoo.so"


def test_no_device_gives_a_clear_error_on_first_use():
    code = ("import usmarray as ua\n"
            "print('imported')\n"
            "try:\n"
            "    ua.zeros(3)\n"
            "except ua.NoDeviceError as e:\n"
            "    print('NoDeviceError', isinstance(e, RuntimeError), e)\n")
    r = _run(code, OCL_ICD_FILENAMES="/nonexistent/libintelocl.so")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "imported"
    assert lines[1].startswith("NoDeviceError True")
    assert "intel-opencl-rt" in lines[1] and "OCL_ICD_FILENAMES" in lines[1]


def test_import_compiles_and_allocates_nothing(tmp_path):
    r = _run("import usmarray as ua, usmarray._core._kernels as k\n"
             "print(len(k.compile_log), ua.memory_pool_stats()['in_use_blocks'])",
             USMARRAY_CACHE_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "0"]
    assert not os.path.exists(tmp_path / "kernels")


def test_source_tree_import_explains_itself():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(repo, "usmarray")):
        pytest.skip("not run from a source checkout")
    e = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", "import usmarray"], capture_output=True, text=True,
                       env=e, cwd=repo, timeout=300)
    assert r.returncode != 0
    assert "source tree" in r.stderr
