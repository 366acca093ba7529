"""The records of GPU runs (issue 42; docs/gpu-results.md): the run record's devices, the device
options, a row's memory and staging, devcopy's rows, each checked by the one validator, which
names the field of a wrong one; and OSU's text under -d imported into memory and buffers.

No real OSU GPU output exists on the machines these tests run on (no GPU): the samples in
data/osu_gpu/ are written from OSU 7.4's printing code (c/util/osu_util_mpi.c:
print_preamble, print_preamble_nbc, print_header_one_sided, print_only_header*), numbers
invented. Their README says which options each stands for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from effbench.cli import main
from effbench.devices import (device_identity, device_lines, devices_label, driver_version,
                              memory_label)
from effbench.importers import FormatError, parse_file
from effbench.records import identity_key, new_result
from effbench.validate import record_problems

DATA = Path(__file__).resolve().parent / "data" / "osu_gpu"

H100 = {"rank": 0, "host": "gpu1", "accel": "cuda", "ordinal": 0, "count": 2,
        "name": "NVIDIA H100 80GB HBM3", "pci_bus_id": "0000:19:00.0",
        "memory_bytes": 85045183488, "driver_version": 12040, "library": "libcuda.so.1",
        "visible_devices": ""}
DOUBLE = {**H100, "rank": 1, "ordinal": 1, "name": "effbench CUDA driver double",
          "pci_bus_id": "0000:00:00.0", "memory_bytes": 1 << 30,
          "library": "/repo/build/tests/libeb_cuda_double.so"}


def run_record(**fields) -> dict:
    rec = {"type": "run", "schema": 1, "tool": "effbench", "component": "osu", "procs": 2,
           "options": {"buffers": "D D", "accelerator": "cuda", "staging": None},
           "devices": [H100, {**H100, "rank": 1, "ordinal": 1, "pci_bus_id": "0000:3b:00.0"}]}
    rec.update(fields)
    return rec


def devcopy(benchmark="host_to_device", host_memory="pinned", nbytes=1 << 20, **fields):
    t = nbytes / 25e3  # 25 GB/s
    rec = new_result("devcopy", benchmark, 1, nbytes, repetitions=20, t_avg_us=t,
                     t_min_us=t * 0.98, t_max_us=t * 1.05, gb_per_s=nbytes / (t * 1e3),
                     host_memory=host_memory)
    rec.update(fields)
    return rec


def test_a_device_run_record_passes():
    assert record_problems(run_record()) == []
    assert record_problems(run_record(devices=None)) == []
    opts = {"mem_alloc_type": "shared", "accelerator": "cuda"}
    assert record_problems(run_record(component="mpi1", options=opts)) == []
    imb_gpu = run_record(component="mpi1", options={}, program="IMB-MPI1-GPU",
                         accelerator="cuda", mem_alloc_type="host")
    assert record_problems(imb_gpu) == []
    assert record_problems({**imb_gpu, "mem_alloc_type": "pinned"}) == [
        'mem_alloc_type: "pinned" is none of cpu, device, host, shared']
    assert record_problems({**imb_gpu, "accelerator": "nvidia"}) == [
        'accelerator: "nvidia" is none of cuda, rocm, level_zero, openacc']


@pytest.mark.parametrize("change, problem", [
    ({"accel": "gpu"}, 'devices[0].accel: "gpu" is none of cuda, rocm, level_zero, openacc'),
    ({"name": None}, "devices[0].name: null where a value is required"),
    ({"memory_bytes": 8.5e10}, "devices[0].memory_bytes: expected int, found 85000000000.0"),
    ({"driver_version": "12.4"}, 'devices[0].driver_version: expected int, found "12.4"'),
    ({"ordinal": 2}, "devices[0].ordinal: 2 is not below count 2"),
    ({"rank": 2}, "devices[0].rank: 2 is not below procs 2"),
    ({"rank": 1}, "devices[1].rank: rank 1 is listed twice"),
    ({"memory_bytes": -1}, "devices[0].memory_bytes: negative (-1)"),
])
def test_a_wrong_device_field_is_named(change, problem):
    assert record_problems(run_record(devices=[{**H100, **change},
                                               {**H100, "rank": 1}])) == [problem]


@pytest.mark.parametrize("options, problem", [
    ({"buffers": "D X"}, "options.buffers: \"D X\" is not two of OSU's buffer letters (H, D, "
     "M, MH, MD) separated by a blank, e.g. \"D D\""),
    ({"accelerator": "CUDA"}, 'options.accelerator: "CUDA" is none of cuda, rocm, '
     "level_zero, openacc"),
    ({"staging": "host"}, 'options.staging: "host" is none of through-host'),
    ({"mem_alloc_type": "pinned"}, 'options.mem_alloc_type: "pinned" is none of cpu, device, '
     "host, shared"),
])
def test_a_wrong_device_option_is_named(options, problem):
    assert record_problems(run_record(options=options)) == [problem]


def test_memory_and_staging_of_a_row():
    row = new_result("osu", "osu_latency", 2, 8, t_avg_us=20.0,
                     memory={"send": "device", "recv": "pinned"}, staging="through-host")
    assert record_problems(row) == []
    assert record_problems({**row, "memory": {"send": "gpu", "recv": "host"}}) == [
        'memory.send: "gpu" is none of host, device, managed, pinned, unknown']
    assert record_problems({**row, "memory": {"send": "device"}}) == [
        'memory: expected {"send": KIND, "recv": KIND}, found {"send": "device"}']
    assert record_problems({**row, "staging": None}) == [
        "staging: null is none of through-host"]


def test_devcopy_rows():
    for rec in (devcopy(), devcopy("device_to_host", "pageable"),
                devcopy("device_to_device", None)):
        assert record_problems(rec) == []
    assert record_problems(devcopy("device_to_device", "pinned")) == [
        'host_memory: "pinned" in a device_to_device row (it has no host memory: null)']
    assert record_problems(devcopy("host_to_device", None)) == [
        "host_memory: null is none of pinned, pageable"]
    assert record_problems(devcopy("to_device")) == [
        'benchmark: "to_device" is none of host_to_device, device_to_host, device_to_device']
    assert record_problems(devcopy(gb_per_s=-1.0)) == ["gb_per_s: negative (-1.0)"]
    no_rate = devcopy()
    del no_rate["gb_per_s"]
    assert record_problems(no_rate) == ["gb_per_s: missing"]
    assert record_problems({**devcopy(), "bytes": 0}) == [
        "bytes: 0 < 1 (a copy moves at least one byte)"]


@pytest.mark.invalid_records
def test_a_wrong_record_in_a_file_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "gpu.jsonl"
    bad = devcopy("device_to_device", "pinned")
    path.write_text("".join(json.dumps(r) + "\n" for r in (
        run_record(component="devcopy", options={}), devcopy(), bad)))
    with pytest.raises(FormatError) as exc:
        parse_file(path)
    assert str(exc.value) == (f"{path}:3: result record: host_memory: \"pinned\" in a "
                              "device_to_device row (it has no host memory: null)")


def test_the_double_is_named_plainly():
    assert devices_label([H100, {**H100, "rank": 1}]) == "2 x NVIDIA H100 80GB HBM3"
    assert devices_label([H100, DOUBLE]) == ("NVIDIA H100 80GB HBM3 + effbench CUDA driver "
                                             "double [CUDA driver double, not a GPU]")
    # a double that reported a GPU's name is still shown as the double, with its file
    fake = {**DOUBLE, "name": "NVIDIA H100 80GB HBM3"}
    assert devices_label([fake]) == ("NVIDIA H100 80GB HBM3 [CUDA driver double, not a GPU: "
                                     "/repo/build/tests/libeb_cuda_double.so]")
    assert devices_label(None) is None and devices_label([]) is None
    assert driver_version(12040) == "12.4" and driver_version(13000) == "13.0"
    assert device_lines([{**H100, "visible_devices": "2,3"}]) == [
        "rank 0 on gpu1: NVIDIA H100 80GB HBM3, bus 0000:19:00.0, 79.2 GiB, CUDA driver "
        "12.4, device 0 of 2, CUDA_VISIBLE_DEVICES=2,3"]


def test_host_and_device_rows_are_different_measurements():
    host = new_result("osu", "osu_latency", 2, 8, t_avg_us=0.3, methodology="osu-7.4")
    device = {**host, "memory": {"send": "device", "recv": "device"}}
    staged = {**device, "staging": "through-host"}
    keys = {identity_key(r) for r in (host, device, staged)}
    assert len(keys) == 3
    # a row of a host run written before "memory" existed is host memory
    assert identity_key(host) == identity_key({**host, "memory": {"send": "host",
                                                                  "recv": "host"}})
    # OSU rows imported before: their letters or accelerator say it
    assert device_identity({**host, "buffers": "D H", "accelerator": "cuda"}) == (
        "device", "host", None, None)
    assert device_identity({**host, "accelerator": "cuda"}) == ("device", "device", None, None)
    # managed memory: OSU's MH and MD advise different places
    mh = {**host, "buffers": "MH MH", "memory": {"send": "managed", "recv": "managed"}}
    assert identity_key(mh) != identity_key({**mh, "buffers": "MD MD"})
    assert [memory_label(r) for r in (host, device, staged, mh)] == [
        "", "device->device memory", "device->device memory, staged through the host",
        "MH->MH memory"]


# file, hints -> rows, program, accelerator, buffers (absent: None), memory, first value
IMPORTS = {
    "osu_latency_cuda_c.out": ({"buffers": "D D"}, 11, "osu_latency", "cuda", "D D",
                               ("device", "device"), ("t_avg_us", 18.91)),
    "osu_bw_cuda.out": ({"buffers": "H D"}, 11, "osu_bw", "cuda", "H D", ("host", "device"),
                        ("mb_per_s", 2021.55)),
    "osu_put_bw_cuda_DH.out": ({}, 6, "osu_put_bw", "cuda", "D H", ("device", "host"),
                               ("mb_per_s", 0.61)),
    "osu_get_latency_cuda_MM.out": ({}, 3, "osu_get_latency", "cuda", "M M",
                                    ("managed", "managed"), ("t_avg_us", 25.10)),
    "osu_allreduce_cuda.out": ({"procs": 4}, 5, "osu_allreduce", "cuda", None,
                               ("device", "device"), ("t_avg_us", 30.12)),
    "osu_iallreduce_managed.out": ({"procs": 4}, 2, "osu_iallreduce", "managed", None,
                                   ("managed", "managed"), ("t_avg_us", 30.05)),
}


@pytest.mark.parametrize("name", sorted(IMPORTS))
def test_osu_gpu_text(name):
    hints, rows, program, accel, buffers, memory, (field, value) = IMPORTS[name]
    parsed = parse_file(DATA / name, **hints)
    assert len(parsed.results) == rows and parsed.skipped_lines == 0
    for rec in parsed.results:
        assert (rec["benchmark"], rec["accelerator"], rec.get("buffers")) == (program, accel,
                                                                             buffers)
        assert rec["memory"] == {"send": memory[0], "recv": memory[1]}
        assert "staging" not in rec and record_problems(rec) == []
    assert parsed.results[0][field] == value


def test_osu_point_to_point_text_does_not_say_the_buffers():
    """OSU 7.4's MPI point-to-point programs print the accelerator in the title and no buffer
    line: without --buffers the memory is unknown, which matches no other row."""
    parsed = parse_file(DATA / "osu_latency_cuda_c.out")
    assert {json.dumps(r["memory"]) for r in parsed.results} == {
        '{"send": "unknown", "recv": "unknown"}'}
    assert all("buffers" not in r for r in parsed.results)
    assert [r["validation"] for r in parsed.results] == ["Pass"] * 11


def test_buffers_hint_is_checked(capsys, tmp_path):
    db = str(tmp_path / "s.sqlite")
    assert main(["import", "--db", db, "--procs", "4", "--buffers", "D D",
                 str(DATA / "osu_allreduce_cuda.out")]) == 2
    assert capsys.readouterr().err == (
        f"effbench-results: error: {DATA / 'osu_allreduce_cuda.out'}: --buffers D D: only for "
        "a point-to-point table under -d (a title such as 'OSU MPI-CUDA Latency Test'), and "
        "there is none\n")
    assert main(["import", "--db", db, "--buffers", "D G",
                 str(DATA / "osu_bw_cuda.out")]) == 2
    assert "--buffers 'D G': expected two of OSU's buffer letters (H, D, M, MH, MD)" in \
        capsys.readouterr().err
    assert main(["import", "--db", db, "--buffers", "D D",
                 str(DATA / "osu_bw_cuda.out")]) == 0


def test_effbench_staged_text():
    """effbench's OSU text under --stage-through-host says so below the title: every row
    `staging` "through-host", never the same measurement as the device's own."""
    parsed = parse_file(DATA / "osu_latency_cuda_staged.out", buffers="D D")
    assert [(r["bytes"], r["t_avg_us"], r["staging"], r["memory"]) for r in parsed.results] == [
        (1, 41.20, "through-host", {"send": "device", "recv": "device"}),
        (2, 41.31, "through-host", {"send": "device", "recv": "device"})]
    assert parsed.skipped_lines == 0
    own = parse_file(DATA / "osu_latency_cuda_c.out", buffers="D D").results[0]
    assert identity_key(own)[:-4] == identity_key(parsed.results[0])[:-4]
    assert identity_key(own) != identity_key(parsed.results[0])


# effbench's own OSU programs under -d on the driver double: (files, import hints)
EFFBENCH_OSU = {"osu_latency_staged_DD": {"buffers": "D D"}, "osu_put_bw_DH": {},
                "osu_iallreduce_managed": {"procs": 2}}


@pytest.mark.parametrize("name", sorted(EFFBENCH_OSU))
def test_effbench_osu_text_and_records_agree(name):
    """effbench's text of a -d run, imported, gives every row the memory and staging its
    --json records say, and compare matches every row of the two (data/osu_gpu/README.md)."""
    from effbench.compare import compare_runs
    records = parse_file(DATA / "effbench" / f"{name}.jsonl")
    text = parse_file(DATA / "effbench" / f"{name}.out", **EFFBENCH_OSU[name])
    assert records.run["devices"][0]["name"] == "effbench CUDA driver double 0"
    assert [(r["bytes"], r["memory"], r.get("staging")) for r in records.results] == [
        (r["bytes"], r["memory"], r.get("staging")) for r in text.results]
    rows = compare_runs(records, text).rows
    assert len(rows) == len(records.results) and text.skipped_lines == 0
