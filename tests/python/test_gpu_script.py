"""scripts/test-gpu (docs/gpu.md) on a machine without a GPU: it says skipped, exit 77, and
never passed. Its rehearsal on the driver double runs under Intel MPI in CI's library stage
(tests/mpi/test_libraries.py)."""
import ctypes
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def has_cuda_driver():
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


def test_no_gpu_is_skipped_not_passed(tmp_path):
    if has_cuda_driver():
        pytest.skip("skipped: this machine has libcuda.so.1, so scripts/test-gpu would run the "
                    "GPU check itself; the no-GPU path cannot be seen here")
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "test-gpu"), "--out",
                        str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 77, p
    assert p.stdout.startswith("scripts/test-gpu: SKIPPED: no GPU: no NVIDIA driver library "
                               "here (libcuda.so.1: cannot open shared object file"), p.stdout
    assert "PASSED" not in p.stdout and "REHEARSED" not in p.stdout
    assert list(tmp_path.iterdir()) == []  # nothing ran
