"""Imported OSU runs in compare, history, the report and the web database: rows meet only rows of
the same methodology (an OSU latency is never an IMB t_avg), runs of two methodologies are
refused by name, and the store's pages, API and report show OSU's programs."""

from __future__ import annotations

import warnings

import pytest

from effbench.cli import main
from effbench.comparable import differences
from effbench.compare import compare_runs
from effbench.importers import parse_file
from effbench.records import ParsedRun, identity_key, methodology
from effbench.report import write_report
from effbench.store.db import Store
from web_helpers import DATA, MPI1, write_run

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from effbench.web import create_app  # noqa: E402

LATENCY = DATA / "osu/osu_latency_c_z.out"
PT2PT = DATA / "osu/osu_pt2pt_job.out"


def scaled(tmp_path, name, factor, title=None):
    """LATENCY with every latency times FACTOR (and another version in the title)."""
    lines = []
    for line in LATENCY.read_text().splitlines():
        tokens = line.split()
        if tokens and tokens[0].isdigit():
            line = "".join(f"{float(t) * factor:20.2f}" if i == 1 else (
                f"{t:<10}" if i == 0 else f"{t:>20}") for i, t in enumerate(tokens))
        lines.append(line.replace("v7.4", f"v{title}") if title else line)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_methodology_is_part_of_a_rows_identity():
    imb = {"component": "mpi1", "benchmark": "PingPong", "procs": 2, "bytes": 8}
    assert methodology(imb) == "imb-4.0"
    assert identity_key(imb) == identity_key({**imb, "methodology": "imb-4.0"})
    assert identity_key(imb) != identity_key({**imb, "methodology": "osu-7.4"})
    assert methodology({"component": "osu"}) == "osu-7.4"


def test_osu_runs_compare_and_flag_a_regression(tmp_path, capsys):
    slow = scaled(tmp_path, "slow.out", 1.5)
    cmp = compare_runs(parse_file(LATENCY), parse_file(slow))
    assert len(cmp.rows) == 13 and cmp.only_a == cmp.only_b == 0
    assert {r.metric for r in cmp.rows} == {"time"}
    assert cmp.rows[0].label == "osu_latency MPI_CHAR"
    assert all(r.ratio == pytest.approx(1.5, abs=0.05) for r in cmp.rows)
    assert main(["compare", str(LATENCY), str(slow)]) == 1
    assert "13 rows compared" in capsys.readouterr().out
    # bandwidths meet as OSU's MB/s, higher is better
    bw = compare_runs(parse_file(PT2PT), parse_file(PT2PT))
    assert {r.metric for r in bw.rows} == {"bandwidth"} and len(bw.rows) == 23 + 11 + 11


def test_different_methodologies_are_refused(tmp_path, capsys):
    imb = write_run(tmp_path / "imb.jsonl")
    for extra in ([], ["--allow-different"]):
        assert main(["compare", *extra, str(imb), str(LATENCY)]) == 2
        err = capsys.readouterr().err
        assert (f"effbench-results: error: {imb} was measured with the imb-4.0 methodology and "
                f"{LATENCY} with osu-7.4: their numbers are different figures (loop, timing, "
                "units), never compared row by row") in err
    older = scaled(tmp_path, "older.out", 1.0, title="7.3")
    assert parse_file(older).run["methodology"] == "osu-7.3"
    assert main(["compare", str(LATENCY), str(older)]) == 2
    assert "with osu-7.3" in capsys.readouterr().err
    # and the rows never meet, whatever the caller does
    assert compare_runs(parse_file(imb), parse_file(LATENCY)).rows == []
    assert [(d.what, d.changes_measurement) for d in differences(
        parse_file(LATENCY), parse_file(older))] == [("methodology", True)]
    # one OSU program is not another
    bw = ParsedRun(run={**parse_file(LATENCY).run, "program": "osu_bw"})
    assert [d.what for d in differences(parse_file(LATENCY), bw)] == ["program"]


def _stored(db_url, tmp_path):
    """Three imports of osu_latency (the third 1.5 times slower) and one of the pt2pt job log,
    each stamped with a machine and a day, and the IMB log beside them."""
    store = Store(db_url)
    for day, factor in ((1, 1.0), (2, 1.0), (3, 1.0), (4, 1.5)):
        parsed = parse_file(scaled(tmp_path, f"lat{day}.out", factor))
        parsed.run.update(start=f"2026-11-0{day}T08:00:00Z", uname={
            "sysname": "Linux", "nodename": "vm", "release": "6.1", "version": "#1",
            "machine": "x86_64"})
        store.import_run(parsed)
    store.import_run(parse_file(PT2PT))
    store.import_run(parse_file(MPI1))
    return store


def test_store_web_history_and_report_show_osu_runs(db_url, tmp_path, capsys):
    store = _stored(db_url, tmp_path)
    client = TestClient(create_app(store=store))
    runs = client.get("/api/runs").json()["runs"]
    assert [(r["id"], r["component"], r["tool"]) for r in runs][-5:] == [
        (5, "osu", "OSU"), (4, "osu", "OSU"), (3, "osu", "OSU"), (2, "osu", "OSU"),
        (1, "osu", "OSU")]
    bench = client.get("/api/benchmarks", params={"run": [4, 5, 6]}).json()["benchmarks"]
    osu_bench = [(b["key"], b["runs"]) for b in bench if b["key"].startswith("osu/")]
    assert osu_bench == [("osu/osu_bibw", {"5": 11}), ("osu/osu_bw", {"5": 23}),
                         ("osu/osu_latency", {"4": 13}), ("osu/osu_mbw_mr", {"5": 11})]
    plot = client.get("/api/plot", params={"sel": ["4:osu/osu_latency"]}).json()
    assert (plot["y"], plot["points"]) == ("t_avg_us", 13)
    assert plot["traces"][0]["y"][0] == pytest.approx(0.23 * 1.5, abs=0.01)
    plot = client.get("/api/plot", params={"sel": ["5:osu/osu_bw"]}).json()
    assert (plot["y"], plot["ytitle"]) == ("mb_per_s", "bandwidth [MB/s = 10^6 bytes/s] "
                                           "(b_eff_io, OSU)")
    assert plot["traces"][0]["y"][-1] == 8995.90
    page = client.get("/runs/4")
    assert page.status_code == 200 and "osu_latency" in page.text and "osu-7.4" in page.text
    # the history: run 4 against runs 1-3 of its series, key figure and rows
    hist = client.get("/api/runs/4/history", params={"band": 3}).json()
    trend = {t["name"]: t for t in hist["trends"]}["osu_latency 8 B"]
    assert [p["run_id"] for p in trend["points"]] == [1, 2, 3, 4]
    assert trend["points"][-1]["verdict"] == "worse"
    dash = client.get("/api/dashboard", params={"machine": "vm", "band": 3}).json()
    assert "osu_latency 8 B" in [f["name"] for f in dash["figures"]]
    store.close()
    assert main(["history", "4", "--db", db_url, "--benchmark", "osu_latency",
                 "--bytes", "8"]) == 0
    out = capsys.readouterr().out
    assert "osu_latency MPI_CHAR 8 B [us]" in out and "(4 runs:" in out
    assert main(["check", "4", "--db", db_url, "--baseline", "last:3"]) == 1
    # the report: OSU's figures, its MB/s axis, the methodology in the run's facts
    assert main(["report", "4", "5", "--db", db_url, "--no-static", "-o",
                 str(tmp_path / "rep")]) == 0
    html = (tmp_path / "rep/index.html").read_text()
    assert "osu_latency (OSU)" in html and "osu_bw (OSU)" in html
    assert "bandwidth [MB/s = 10^6 bytes/s]" in html and "<th>methodology</th><td>osu-7.4" in html
