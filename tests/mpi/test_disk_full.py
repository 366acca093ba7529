"""A full disk (a small tmpfs this test mounts and unmounts) while writing --json, b_eff's
protocol and b_eff_io's files: a clear message and a failure status, nothing already written lost
or cut (every line of the JSON file is a whole record), b_eff_io's files removed."""
import json
import os
import subprocess

import pytest

from effb import run


@pytest.fixture
def full_disk(tmp_path):
    """A directory on a 4 KiB tmpfs."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    d = tmp_path / "small"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(d)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    yield d
    subprocess.run(["umount", str(d)], check=True)


def whole_records(path):
    lines = path.read_text().splitlines(keepends=True)
    assert all(line.endswith("\n") for line in lines)
    return [json.loads(line) for line in lines]


def test_json_file_on_a_full_disk(full_disk, tmp_path):
    js = full_disk / "out.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "Sendrecv", "-msglog", "0:10", "-time", "0.02",
            "--json", js, cwd=tmp_path)
    assert r.returncode != 0
    recs = whole_records(js)
    assert recs[0]["type"] == "run" and recs[-1]["type"] == "result"
    msg = (f"effbench: error: rank 0: --json {js}: cannot write: No space left on device; the "
           f"{len(recs)} records before it are complete")
    assert msg in r.stderr.splitlines(), r.stderr
    # the rows printed before the disk filled are in the file, value for value
    assert len([x for x in recs if x["type"] == "result"]) >= 1


def test_beff_protocol_on_a_full_disk(full_disk, tmp_path):
    prot, js = full_disk / "b.prot", tmp_path / "b.jsonl"
    r = run(2, "b_eff", "--mem-per-proc", "4", "--random-patterns", "2", "--loop-ms", "0.05",
            "--repeat", "1", "--protocol", prot, "--json", js, cwd=tmp_path, timeout=240)
    assert r.returncode == 1, r
    msg = f"--protocol {prot}: cannot write: No space left on device"
    assert f"effbench: error: {msg}" in r.stderr.splitlines()
    recs = whole_records(js)
    assert [x["type"] for x in recs].count("summary") == 1  # the result is kept
    assert recs[-1]["status"] == "error" and recs[-1]["message"] == msg
    assert "b_eff = " in r.stdout


def test_beff_io_files_on_a_full_disk(full_disk, tmp_path):
    js = tmp_path / "io.jsonl"
    r = run(2, "b_eff_io", "-T", "1", "--mem-per-proc", "4", "--path", full_disk,
            "--json", js, cwd=tmp_path, timeout=240)
    assert r.returncode == 1, r
    recs = whole_records(js)
    assert recs[-1]["status"] == "error" and recs[-1]["message"].startswith("I/O errors: ")
    assert os.listdir(full_disk) == []  # its files removed
