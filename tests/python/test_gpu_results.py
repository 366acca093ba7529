"""GPU runs in the results tools (issue 42; docs/gpu-results.md): the store's device columns
(and migration 0006 filling them from runs stored before), the web filter by device, compare
naming each side's devices and never matching host with device buffers, the report's device
and devcopy tables, and IMB-MPI1-GPU's text.

The runs here are records as docs/gpu-results.md describes them, written by hand: no GPU run
exists on the machines these tests run on."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import select

from effbench.cli import main
from effbench.compare import compare_runs
from effbench.comparable import device_sides, differences
from effbench.importers import parse_file
from effbench.records import ParsedRun, new_end, new_result
from effbench.report import write_report
from effbench.report_device import devcopy_table
from effbench.store.db import Store
from effbench.store.models import Measurement, Run
from effbench.web.query import RunFilter, filter_choices, find_runs
from test_gpu_records import DOUBLE, H100
from test_migrations import upgrade_to

IMB_GPU = Path(__file__).resolve().parent / "data" / "imb_gpu"
SIZES = (8, 1024, 1 << 20)


def osu_run(path: Path, devices=None, memory=None, scale=1.0, staging=None) -> Path:
    """An effbench osu_latency run: on DEVICES with MEMORY (send, recv kinds), or on host."""
    options = {"buffers": "H H", "accelerator": None, "staging": None}
    if memory:
        options = {"buffers": "D D", "accelerator": "cuda", "staging": staging}
    run = {"type": "run", "schema": 1, "tool": "effbench", "version": "0.9.0",
           "component": "osu", "program": "osu_latency", "methodology": "osu-7.4",
           "start": "2026-11-28T03:00:00Z", "procs": 2, "options": options,
           "uname": {"sysname": "Linux", "nodename": "gpu1", "release": "6.8",
                     "version": "#1", "machine": "x86_64"},
           "devices": devices}
    rows = []
    for nbytes in SIZES:
        rec = new_result("osu", "osu_latency", 2, nbytes, t_avg_us=scale * (2 + nbytes / 2e4),
                         methodology="osu-7.4", mb_per_s=None, messages_per_s=None,
                         datatype="MPI_CHAR")
        if memory:
            rec["memory"] = {"send": memory[0], "recv": memory[1]}
            if staging:
                rec["staging"] = staging
        rows.append(rec)
    path.write_text("".join(json.dumps(r) + "\n" for r in [run, *rows, new_end(elapsed_s=1.0)]))
    return path


def devcopy_run(path: Path, devices=(H100,), ranks=(0,)) -> Path:
    run = {"type": "run", "schema": 1, "tool": "effbench", "component": "devcopy",
           "start": "2026-11-28T03:05:00Z", "procs": len(ranks),
           "options": {"accelerator": "cuda"},
           "devices": list(devices)}
    rows = []
    for rank in ranks:  # as effbench devcopy writes them: rank by rank
        for bench, memory, gbs in (("host_to_device", "pinned", 25.0 + rank),
                                   ("host_to_device", "pageable", 12.5),
                                   ("device_to_host", "pinned", 26.0),
                                   ("device_to_device", None, 1250.0)):
            for nbytes in (1 << 20, 1 << 26):
                t = nbytes / (gbs * 1e3)
                rows.append(new_result("devcopy", bench, 1, nbytes, repetitions=20,
                                       t_avg_us=t, t_min_us=t, t_max_us=t, gb_per_s=gbs,
                                       host_memory=memory, rank=rank))
    path.write_text("".join(json.dumps(r) + "\n" for r in [run, *rows, new_end(elapsed_s=2.0)]))
    return path


@pytest.fixture
def runs(tmp_path):
    two = [H100, {**H100, "rank": 1, "ordinal": 1, "pci_bus_id": "0000:3b:00.0"}]
    return {"host": osu_run(tmp_path / "host.jsonl"),
            "device": osu_run(tmp_path / "device.jsonl", two, ("device", "device")),
            "device2": osu_run(tmp_path / "device2.jsonl", two, ("device", "device"), 1.5),
            "staged": osu_run(tmp_path / "staged.jsonl", two, ("device", "device"),
                              staging="through-host"),
            "double": osu_run(tmp_path / "double.jsonl", [{**DOUBLE, "rank": 0}, DOUBLE],
                              ("device", "device")),
            "devcopy": devcopy_run(tmp_path / "devcopy.jsonl")}


def test_store_keeps_the_device_columns(db_url, runs):
    with Store(db_url) as store:
        ids = {name: store.import_run(parse_file(path))[0] for name, path in runs.items()}
        with store.sessions() as session:
            cols = {r.id: (r.device, r.accelerator) for r in session.scalars(select(Run))}
            rows = session.execute(select(Measurement.run_id, Measurement.send_memory,
                                          Measurement.recv_memory, Measurement.staging)).all()
        for name, path in runs.items():  # export gives back what came in
            assert store.load(ids[name]).records() == parse_file(path).records()
        listed = {r["id"]: r["device"] for r in store.list_runs()}
    assert cols[ids["host"]] == (None, None)
    assert cols[ids["device"]] == ("2 x NVIDIA H100 80GB HBM3", "cuda")
    assert cols[ids["double"]] == (
        "2 x effbench CUDA driver double [CUDA driver double, not a GPU]", "cuda")
    assert cols[ids["devcopy"]] == ("NVIDIA H100 80GB HBM3", "cuda")
    memory = {}
    for run_id, *kinds in rows:
        memory.setdefault(run_id, set()).add(tuple(kinds))
    assert memory[ids["host"]] == {(None, None, None)}
    assert memory[ids["device"]] == {("device", "device", None)}
    assert memory[ids["staged"]] == {("device", "device", "through-host")}
    assert memory[ids["devcopy"]] == {(None, None, None)}  # devcopy rows have no "memory"
    assert listed[ids["device"]] == "2 x NVIDIA H100 80GB HBM3" and listed[ids["host"]] is None


def test_migration_0006_fills_the_device_columns(db_url):
    """A store of schema 0005 holding a run with devices, an OSU row imported with -d (its
    letters) and a host row: the upgrade fills the new columns from the stored records."""
    record = json.dumps({"type": "run", "devices": [H100, {**H100, "rank": 1}]})
    upgrade_to(
        db_url, "0005",
        "INSERT INTO run (id, content_hash, tool, component, procs, \"check\", source_format, "
        f"imported_at, run_record) VALUES (4, 'abc', 'OSU', 'osu', 2, false, 'osu', "
        f"'2026-01-01 00:00:00', '{record}')",
        "INSERT INTO benchmark (id, component, name) VALUES (3, 'osu', 'osu_put_bw')",
        "INSERT INTO measurement (run_id, benchmark_id, seq, procs, bytes, extra) VALUES "
        "(4, 3, 0, 2, 8, '{\"accelerator\": \"cuda\", \"buffers\": \"D H\"}'), "
        "(4, 3, 1, 2, 16, '{\"memory\": {\"send\": \"pinned\", \"recv\": \"device\"}, "
        "\"staging\": \"through-host\"}'), (4, 3, 2, 2, 32, '{\"mb_per_s\": 1.5}')")
    with Store(db_url) as store:
        with store.sessions() as session:
            run = session.get(Run, 4)
            rows = session.execute(select(Measurement.seq, Measurement.send_memory,
                                          Measurement.recv_memory, Measurement.staging)
                                   .order_by(Measurement.seq)).all()
        assert (run.device, run.accelerator) == ("2 x NVIDIA H100 80GB HBM3", "cuda")
    assert [tuple(r) for r in rows] == [(0, "device", "host", None),
                                        (1, "pinned", "device", "through-host"),
                                        (2, None, None, None)]


def test_web_filter_by_device(tmp_path, runs):
    with Store(str(tmp_path / "s.sqlite")) as store:
        ids = {name: store.import_run(parse_file(path))[0] for name, path in runs.items()}
        choices = filter_choices(store)["device"]
        h100 = [r["id"] for r in find_runs(store, RunFilter(device=["2 x NVIDIA H100 80GB HBM3"]))]
        host = [r["id"] for r in find_runs(store, RunFilter(device=["host"]))]
        both = find_runs(store, RunFilter(device=["host", "NVIDIA H100 80GB HBM3"]))
    assert choices == ["host", "2 x NVIDIA H100 80GB HBM3",
                       "2 x effbench CUDA driver double [CUDA driver double, not a GPU]",
                       "NVIDIA H100 80GB HBM3"]
    assert sorted(h100) == sorted(ids[n] for n in ("device", "device2", "staged"))
    assert host == [ids["host"]]
    assert sorted(r["id"] for r in both) == sorted([ids["host"], ids["devcopy"]])


def test_compare_names_the_devices_and_refuses_host_against_device(runs, capsys):
    assert main(["compare", str(runs["host"]), str(runs["device"])]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"A = {runs['host']}: devices none (no device opened); buffers host->host",
        f"B = {runs['device']}: devices 2 x NVIDIA H100 80GB HBM3; buffers device->device",
        f"{runs['host']} (A) and {runs['device']} (B) differ in:",
        "  options.accelerator: none (A) vs cuda (B)  [changes what is measured]",
        "  options.buffers: H H (A) vs D D (B)  [changes what is measured]",
        "  buffer memory: host->host (A) vs device->device (B)  [changes what is measured]",
        "  devices: none (A) vs 2 x NVIDIA H100 80GB HBM3 (B)"]
    assert "do not measure the same thing (options.accelerator, options.buffers, buffer " \
        "memory)" in err
    # --allow-different still never matches a host figure with a device one
    assert main(["compare", "--allow-different", str(runs["host"]), str(runs["device"])]) == 2
    assert capsys.readouterr().err.endswith(
        "have no measurement in common (buffers host->host against device->device: figures "
        "of host and device buffers are different quantities, never matched)\n")


def test_compare_of_two_device_runs(runs, capsys):
    assert main(["compare", str(runs["device"]), str(runs["device2"])]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        f"A = {runs['device']}: devices 2 x NVIDIA H100 80GB HBM3; buffers device->device",
        f"B = {runs['device2']}: devices 2 x NVIDIA H100 80GB HBM3; buffers device->device"]
    a, b = parse_file(runs["device"]), parse_file(runs["device2"])
    assert [round(r.ratio, 6) for r in compare_runs(a, b).rows] == [1.5, 1.5, 1.5]
    # staged figures are not the device's own
    staged = parse_file(runs["staged"])
    assert compare_runs(a, staged).rows == []
    assert [(d.what, d.changes_measurement) for d in differences(a, staged)] == [
        ("options.staging", True),
        ("buffer memory", True)]
    # the driver double is no GPU: its figures never stand for one
    double = parse_file(runs["double"])
    assert [(d.what, d.a, d.b, d.changes_measurement) for d in differences(a, double)] == [
        ("devices", "2 x NVIDIA H100 80GB HBM3",
         "2 x effbench CUDA driver double [CUDA driver double, not a GPU]", True)]
    assert device_sides(parse_file(runs["host"]), parse_file(runs["host"]), "a", "b") == []


def test_report_device_and_devcopy_tables(tmp_path, runs):
    devcopy = parse_file(runs["devcopy"])
    assert devcopy_table(devcopy) == (
        ["bytes", "host to device (pinned)", "host to device (pageable)",
         "device to host (pinned)", "device to device"],
        [["1048576", "25.00", "12.50", "26.00", "1250.00"],
         ["67108864", "25.00", "12.50", "26.00", "1250.00"]])
    index = write_report([("copy", devcopy), ("double", parse_file(runs["double"])),
                          ("host", parse_file(runs["host"])),
                          ("device", parse_file(runs["device"]))], tmp_path / "rep",
                         static=False)
    page = index.read_text()
    assert ("<tr><td>0</td><td>gpu1</td><td>NVIDIA H100 80GB HBM3</td><td>0000:19:00.0</td>"
            "<td>79.2 GiB</td><td>CUDA 12.4</td><td>0 of 2</td><td></td><td>libcuda.so.1</td>"
            "</tr>") in page
    assert page.count("<table class='devices'>") == 3  # not for the host run
    assert page.count("The CUDA driver double of effbench's tests ran here, not a GPU") == 1
    assert "<th>devices</th><td>2 x effbench CUDA driver double [CUDA driver double, not a " \
        "GPU]</td>" in page
    assert "<tr><td>1048576</td><td>25.00</td><td>12.50</td><td>26.00</td><td>1250.00</td>" \
        "</tr>" in page
    assert "host-device copy bandwidth (devcopy)" in page
    two = parse_file(devcopy_run(tmp_path / "two.jsonl", [H100, {**H100, "rank": 1}], (0, 1)))
    head, table = devcopy_table(two)
    assert head[:3] == ["rank", "bytes", "host to device (pinned)"]
    assert [row[:3] for row in table] == [["0", "1048576", "25.00"], ["0", "67108864", "25.00"],
                                          ["1", "1048576", "26.00"], ["1", "67108864", "26.00"]]
    # each rank's row is its own measurement
    assert len(compare_runs(two, two).rows) == 16
    # host and device rows of osu_latency: separate traces, the device ones named so
    assert '"name":"host: 2 procs datatype=MPI_CHAR"' in page
    assert '"name":"device: 2 procs datatype=MPI_CHAR device-&gt;device memory"' in page


def test_list_shows_the_device_column(tmp_path, runs, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # rich's table in one line per run
    db = str(tmp_path / "s.sqlite")
    assert main(["import", "--db", db, str(runs["host"])]) == 0
    capsys.readouterr()
    assert main(["list", "--db", db]) == 0
    assert "device" not in capsys.readouterr().out.split("\n")[2]
    assert main(["import", "--db", db, str(runs["devcopy"])]) == 0
    capsys.readouterr()
    assert main(["list", "--db", db]) == 0
    head, first, second = [line for line in capsys.readouterr().out.splitlines()
                           if line.startswith("┃") or line.startswith("│")]
    assert head.split("┃")[10].strip() == "device"
    assert [first.split("│")[10].strip(), second.split("│")[10].strip()] == [
        "", "NVIDIA H100 80GB HBM3"]


@pytest.mark.parametrize("name, alloc, kind", [("host", "host", "pinned"),
                                               ("default", "device", "device")])
def test_imb_mpi1_gpu_text(name, alloc, kind):
    """IMB-MPI1-GPU's banner ("MPI-1 part (GPU)"): the run's mem_alloc_type from the calling
    sequence, else IMB's default since 2021.3 (device); every row's memory is that kind."""
    parsed = parse_file(IMB_GPU / f"IMB-MPI1-GPU_{name}.out")
    assert parsed.run["component"] == "mpi1" and parsed.run["methodology"] == "imb-2021.11"
    assert parsed.run["options"] == {}
    assert (parsed.run["program"], parsed.run["accelerator"], parsed.run["mem_alloc_type"]) \
        == ("IMB-MPI1-GPU", None, alloc)
    assert [(r["benchmark"], r["bytes"], r.get("t_max_us"), r["memory"])
            for r in parsed.results] == [
        ("PingPong", 0, 12.51, {"send": kind, "recv": kind}),
        ("PingPong", 4, 12.62, {"send": kind, "recv": kind}),
        ("Allreduce", 0, 0.06, {"send": kind, "recv": kind}),
        ("Allreduce", 4, 20.30, {"send": kind, "recv": kind})]


def test_imb_gpu_text_of_an_older_imb_and_a_wrong_type(tmp_path):
    text = (IMB_GPU / "IMB-MPI1-GPU_default.out").read_text()
    old = tmp_path / "old.out"
    old.write_text(text.replace("2021.11", "2021.2"))
    parsed = parse_file(old)  # before 2021.3 the default is not known
    assert parsed.run["mem_alloc_type"] is None
    assert {json.dumps(r["memory"]) for r in parsed.results} == {
        '{"send": "unknown", "recv": "unknown"}'}
    bad = tmp_path / "bad.out"
    bad.write_text((IMB_GPU / "IMB-MPI1-GPU_host.out").read_text().replace(
        "-mem_alloc_type host", "-mem_alloc_type pinned"))
    with pytest.raises(Exception) as exc:
        parse_file(bad)
    assert str(exc.value) == (f"{bad}: -mem_alloc_type pinned: not one of IMB's types (cpu, "
                              "device, host, shared)")
    # the plain IMB-MPI1 banner stays a host run: no memory, no options
    plain = tmp_path / "plain.out"
    plain.write_text(text.replace("MPI-1 part (GPU)", "MPI-1 part"))
    parsed = parse_file(plain)
    assert parsed.run["options"] == {} and all("memory" not in r for r in parsed.results)
    assert "mem_alloc_type" not in parsed.run and "program" not in parsed.run
    assert isinstance(parsed, ParsedRun)


def test_web_api_and_pages_by_device(tmp_path, runs):
    """GET /api/runs?device=..., the browse page's Device filter and the run page's devices."""
    from fastapi.testclient import TestClient

    from effbench.web.app import create_app
    store = Store(str(tmp_path / "web.sqlite"))
    ids = {name: store.import_run(parse_file(runs[name]))[0] for name in ("host", "double")}
    client = TestClient(create_app(store=store))
    try:
        def listed(*devices):
            answer = client.get("/api/runs", params=[("device", d) for d in devices])
            return [(r["id"], r["device"]) for r in answer.json()["runs"]]
        double = "2 x effbench CUDA driver double [CUDA driver double, not a GPU]"
        assert listed("host") == [(ids["host"], None)]
        assert listed(double) == [(ids["double"], double)]
        assert listed() == [(ids["double"], double), (ids["host"], None)]
        page = client.get("/").text
        assert '<select name="device" multiple size="4">' in page
        assert f'<option value="{double}" >{double}</option>' in page
        run_page = client.get(f"/runs/{ids['double']}").text
        assert ("<td class=\"devices\">rank 0 on gpu1: effbench CUDA driver double [CUDA "
                "driver double, not a GPU], bus 0000:00:00.0, 1.0 GiB, CUDA driver 12.4, "
                "device 1 of 2<br>rank 1 on gpu1: ") in run_page
    finally:
        client.close()
        store.close()


def test_imported_osu_gpu_text_meets_effbench_device_rows(runs):
    """OSU's own osu_latency -d cuda D D (imported with --buffers "D D") and effbench's device
    run match row by row; without --buffers its rows' memory is unknown and match nothing."""
    osu_gpu = Path(__file__).resolve().parent / "data" / "osu_gpu" / "osu_latency_cuda_c.out"
    effbench = parse_file(runs["device"])
    rows = compare_runs(parse_file(osu_gpu, buffers="D D"), effbench).rows
    assert [(r.key[5], r.a) for r in rows] == [(8, 18.95), (1024, 21.57)]
    assert compare_runs(parse_file(osu_gpu), effbench).rows == []
    assert compare_runs(parse_file(osu_gpu, buffers="D D"), parse_file(runs["host"])).rows == []


def test_devcopy_of_the_c_program_on_the_double(effbench_bin, mpiexec, mpi_env, tmp_path):
    """`effbench devcopy` itself, on the tests' CUDA driver double (no GPU here), through
    validation, the store, list's label and the report: named as the double everywhere."""
    double = effbench_bin.parent / "libeb_cuda_double.so"
    env = {**mpi_env, "EFFBENCH_LIBCUDA": str(double), "EB_CUDA_DOUBLE_DEVICES": "2"}
    jsonl = tmp_path / "devcopy.jsonl"
    proc = subprocess.run([*mpiexec, "-n", "2", str(effbench_bin), "devcopy", "-m", "1024:2048",
                           "-i", "2", "-x", "1", "--json", str(jsonl)], env=env, timeout=600,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    parsed = parse_file(jsonl)
    label = "2 x effbench CUDA driver double [CUDA driver double, not a GPU]"
    with Store(str(tmp_path / "s.sqlite")) as store:
        run_id, _ = store.import_run(parsed)
        assert [r["device"] for r in store.list_runs()] == [label]
        assert store.load(run_id).records() == parsed.records()
    head, table = devcopy_table(parsed)
    assert head == ["rank", "bytes", "host to device (pinned)", "host to device (pageable)",
                    "device to host (pinned)", "device to host (pageable)", "device to device"]
    assert [row[:2] for row in table] == [["0", "1024"], ["0", "2048"], ["1", "1024"],
                                          ["1", "2048"]]
    assert all(float(cell) > 0 for row in table for cell in row[2:])
    page = write_report([("devcopy", parsed)], tmp_path / "rep", static=False).read_text()
    assert "The CUDA driver double of effbench's tests ran here, not a GPU" in page
    assert f"<th>devices</th><td>{label}</td>" in page


def test_key_figures_are_host_figures(runs):
    """A dashboard's key figures (osu_latency 8 B, IMB's ping-pong) never come from device or
    staged rows: IMB-MPI1-GPU's PingPong and effbench's device osu_latency give none."""
    from effbench.keyfigures import key_values
    assert key_values(parse_file(runs["host"]))["osu_latency 8 B"].value == 2 + 8 / 2e4
    for name in ("device", "staged", "double"):
        assert "osu_latency 8 B" not in key_values(parse_file(runs[name]))
    imb_gpu = parse_file(IMB_GPU / "IMB-MPI1-GPU_default.out")
    assert key_values(imb_gpu) == {}
    host = parse_file(IMB_GPU / "IMB-MPI1-GPU_default.out")
    for r in host.results:
        r["memory"] = {"send": "host", "recv": "host"}  # -mem_alloc_type cpu
    assert sorted(key_values(host)) == ["ping-pong bandwidth", "ping-pong latency"]


@pytest.mark.parametrize("name, alloc, kind", [("host", "host", "pinned"),
                                               ("dev", "device", "device")])
def test_effbench_imb_mpi1_gpu_text_and_records_agree(name, alloc, kind):
    """effbench's IMB-MPI1-GPU text (its "# Message buffers" and "# GPU of rank 0" lines)
    imports to the run fields and memory its --json records have, rank 0's device named,
    and compare matches every row."""
    records = parse_file(IMB_GPU / "effbench" / f"IMB-MPI1-GPU_{name}.jsonl")
    text = parse_file(IMB_GPU / "effbench" / f"IMB-MPI1-GPU_{name}.out")
    for run in (records.run, text.run):
        assert (run["program"], run["accelerator"], run["mem_alloc_type"]) == (
            "IMB-MPI1-GPU", "cuda", alloc)
    assert {json.dumps(r["memory"]) for r in records.results + text.results} == {
        json.dumps({"send": kind, "recv": kind})}
    dev = text.run["devices"][0]
    assert (dev["rank"], dev["name"], dev["pci_bus_id"], dev["ordinal"], dev["count"]) == (
        0, "effbench CUDA driver double 0", "0000:10:00.0", 0, 2)
    assert dev["library"].endswith("libeb_cuda_double.so")
    assert len(compare_runs(records, text).rows) == len(records.results) > 0
    assert text.skipped_lines == 0


def test_web_plot_of_devcopy(tmp_path, runs):
    """The web plot offers devcopy's GB/s, one curve per direction and host memory."""
    from effbench.web.query import plot_data
    with Store(str(tmp_path / "p.sqlite")) as store:
        run_id, _ = store.import_run(parse_file(runs["devcopy"]))
        data = plot_data(store, [(run_id, "devcopy", "host_to_device")], "bytes", "gb_per_s")
    assert data["ytitle"] == "bandwidth [GB/s = 10^9 bytes/s] (devcopy)"
    assert [(t["name"], t["x"], t["y"]) for t in data["traces"]] == [
        ("#1 ? np=1 [NVIDIA H100 80GB HBM3] · host_to_device · p=1 · host_memory=pinned · "
         "rank=0", [1 << 20, 1 << 26], [25.0, 25.0]),
        ("#1 ? np=1 [NVIDIA H100 80GB HBM3] · host_to_device · p=1 · host_memory=pageable · "
         "rank=0", [1 << 20, 1 << 26], [12.5, 12.5])]
