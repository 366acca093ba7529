"""The machine dashboard and a run's history on the web (effbench.web.dashboard): real runs (an
IMB 2021 text log, effbench's b_eff and b_eff_io JSON) stored as a machine's series over several
days, their key figures, each value's noise band (check's median/MAD rule, recomputed here), the
order of series and figures, and the page that shows them."""

from __future__ import annotations

import json
import re
import statistics
from html import unescape

import pytest
from fastapi.testclient import TestClient

from effbench.cli import main
from effbench.importers import parse_file
from effbench.keyfigures import KEY_FIGURES, OSU_FIGURES
from effbench.store.db import Store
from effbench.web import create_app
from web_helpers import BEFF, BEFF_IO, BEFF_SCALES, MPI1, MPI1_SCALES, store_machine_history

MPI1_LABEL = "unknown MPI library · mpi1 · np=2"  # IMB's text names no library
BEFF_LABEL = "Open MPI v4.1.4 · beff · np=4"
BEFF_IO_LABEL = "Open MPI v4.1.4 · beff_io · np=2"


def expected_band(baseline):
    """check's rule written out: median +- max(4 x 1.4826 x MAD, 5 % of the median)."""
    med = statistics.median(baseline)
    mad = statistics.median(abs(v - med) for v in baseline)
    return med, max(4 * 1.4826 * mad, 0.05 * med)


@pytest.fixture
def machine_store(db_url):
    with Store(db_url) as store:
        store_machine_history(store)
    return db_url


def row_value(path, benchmark, nbytes, field="t_max_us"):
    """PingPong's table has one time column (t_max_us), Allreduce's the average over the
    processes (t_avg_us), which the key figures take."""
    row = next(r for r in parse_file(path).results
               if r["benchmark"] == benchmark and r["bytes"] == nbytes)
    return row[field]


def test_dashboard_api_values_bands_order(machine_store):
    client = TestClient(create_app(machine_store))
    data = client.get("/api/dashboard", params={"machine": "vm", "band": 10}).json()
    assert [(s["label"], s["runs"]) for s in data["series"]] == [
        (MPI1_LABEL, [1, 2, 3, 4, 5]), (BEFF_LABEL, [6, 7, 8, 9]), (BEFF_IO_LABEL, [10])]
    figures = {f["name"]: f for f in data["figures"]}
    # OSU's figures only where measured (this machine ran no OSU program)
    assert [f["name"] for f in data["figures"]] == [k.name for k in KEY_FIGURES
                                                     if k not in OSU_FIGURES]
    assert [(f["name"], f["unit"]) for f in data["figures"]] == [
        ("b_eff", "MB/s"), ("b_eff_io", "MB/s"), ("ping-pong latency", "usec"),
        ("ping-pong bandwidth", "MB/s"), ("Allreduce 8 B", "usec"), ("Allreduce 1 MiB", "usec")]

    beff_summary = parse_file(BEFF).summaries[0]
    (beff,) = figures["b_eff"]["series"]
    values = [beff_summary["b_eff_mb_per_s"] * s for s in BEFF_SCALES]
    assert beff["label"] == BEFF_LABEL
    assert [p["run_id"] for p in beff["points"]] == [6, 7, 8, 9]
    assert [p["start"][:10] for p in beff["points"]] == [f"2026-11-0{d}" for d in (2, 3, 4, 5)]
    assert [p["value"] for p in beff["points"]] == pytest.approx(values, rel=1e-12)
    # fewer than 3 runs before: no band; the fourth against the three before it
    assert [p["median"] for p in beff["points"][:3]] == [None, None, None]
    med, half = expected_band(values[:3])
    assert (beff["latest"]["median"], beff["latest"]["half"]) == pytest.approx((med, half))
    assert beff["latest"]["verdict"] == "worse"
    assert beff["change"] == pytest.approx(values[3] / med - 1)

    # ping-pong latency: the IMB rows (0 bytes) and b_eff's summary, two series
    latency = figures["ping-pong latency"]["series"]
    assert [s["label"] for s in latency] == [MPI1_LABEL, BEFF_LABEL]
    t0 = row_value(MPI1, "PingPong", 0)
    mpi1_values = [t0 * s for s in MPI1_SCALES]
    assert [p["value"] for p in latency[0]["points"]] == pytest.approx(mpi1_values)
    med, half = expected_band(mpi1_values[:4])
    last = latency[0]["points"][-1]
    assert (last["median"], last["half"], last["verdict"]) == (
        pytest.approx(med), pytest.approx(half), "worse")
    # the fourth run, as fast as the first, is inside the band of the three before it
    assert latency[0]["points"][3]["median"] is not None
    assert latency[0]["points"][3]["verdict"] is None
    assert [p["value"] for p in latency[1]["points"]] == \
        pytest.approx([beff_summary["pingpong_latency_us"]] * 4)

    # ping-pong bandwidth: bytes / t at the largest size, in 10^6 bytes/s
    t4m = row_value(MPI1, "PingPong", 4194304)
    bandwidth = figures["ping-pong bandwidth"]["series"][0]["points"]
    assert [p["value"] for p in bandwidth] == \
        pytest.approx([4194304 / (t4m * s) for s in MPI1_SCALES])
    assert bandwidth[-1]["verdict"] == "worse"  # lower bandwidth is worse
    for name, nbytes in (("Allreduce 8 B", 8), ("Allreduce 1 MiB", 1048576)):
        (series,) = figures[name]["series"]
        t = row_value(MPI1, "Allreduce", nbytes, "t_avg_us")
        assert [p["value"] for p in series["points"]] == \
            pytest.approx([t * s for s in MPI1_SCALES])
    (bio,) = figures["b_eff_io"]["series"]
    assert [p["value"] for p in bio["points"]] == \
        [parse_file(BEFF_IO).summaries[0]["b_eff_io_mb_per_s"]]
    assert bio["latest"]["median"] is None and bio["change"] is None

    # the plot of b_eff: its band's edges are the points' median -/+ half
    plot = figures["b_eff"]["plot"]
    names = [t["name"] for t in plot["data"]]
    assert names == ["noise band (low edge)", "noise band", "median of the runs before", "value",
                     "worse than its band"]
    # the band of the fourth run, from the third run's time to its own
    assert plot["data"][0]["x"] == plot["data"][1]["x"] == [p["start"] for p in beff["points"][2:]]
    low, high = plot["data"][0]["y"], plot["data"][1]["y"]
    assert (low[-1], high[-1]) == pytest.approx((beff["latest"]["median"] - beff["latest"]["half"],
                                                 beff["latest"]["median"] + beff["latest"]["half"]))
    assert plot["data"][3]["y"] == pytest.approx(values)
    assert plot["layout"]["yaxis"]["title"]["text"] == "b_eff [MB/s]"
    assert plot["layout"]["xaxis"]["title"]["text"] == "run start [date, UTC]"
    assert plot["layout"]["xaxis"]["type"] == "date"
    # two series in one figure: every trace's name starts with its series' label
    names = [t["name"] for t in figures["ping-pong latency"]["plot"]["data"]]
    assert names[:5] == [f"{MPI1_LABEL}: noise band (low edge)", f"{MPI1_LABEL}: noise band",
                         f"{MPI1_LABEL}: median of the runs before", MPI1_LABEL,
                         f"{MPI1_LABEL}: worse than its band"]
    assert BEFF_LABEL in names

    # the same verdicts as `check` itself
    assert main(["check", "--db", machine_store, "5", "--baseline", "last:10"]) == 1
    assert main(["check", "--db", machine_store, "9", "--baseline", "last:10"]) == 1
    assert main(["check", "--db", machine_store, "8", "--baseline", "last:10"]) == 0


def key_figure_rows(html: str) -> list[list[str]]:
    body = html.split('id="key-figures"', 1)[1].split("</table>", 1)[0]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(
        r"<td[^>]*>(.*?)</td>", row, re.S)] for row in re.findall(r"<tr data-figure.*?</tr>",
                                                                 body, re.S)]


def test_dashboard_page(machine_store):
    client = TestClient(create_app(machine_store))
    index = client.get("/dashboard").text
    assert re.findall(r'class="machine" href="/dashboard\?machine=(\w+)">', index) == \
        ["other", "vm"]
    page = client.get("/dashboard", params={"machine": "vm", "band": 10})
    assert page.status_code == 200
    rows = key_figure_rows(page.text)
    beff = parse_file(BEFF).summaries[0]["b_eff_mb_per_s"]
    t0 = row_value(MPI1, "PingPong", 0)
    assert [r[:2] for r in rows] == [
        ["b_eff [MB/s]", BEFF_LABEL], ["b_eff_io [MB/s]", BEFF_IO_LABEL],
        ["ping-pong latency [usec]", MPI1_LABEL], ["ping-pong latency [usec]", BEFF_LABEL],
        ["ping-pong bandwidth [MB/s]", MPI1_LABEL], ["ping-pong bandwidth [MB/s]", BEFF_LABEL],
        ["Allreduce 8 B [usec]", MPI1_LABEL], ["Allreduce 1 MiB [usec]", MPI1_LABEL]]
    assert rows[0][2:4] == ["#9 2026-11-05", f"{beff * 0.7:.4g}"]
    assert rows[0][-1] == "worse than its band"
    assert rows[1][-1] == "no band yet"
    assert rows[2][3] == f"{t0 * 1.5:.4g}" and rows[2][-1] == "worse than its band"
    assert rows[3][-1] == "inside its band"
    # one plot per key figure, its spec beside it; none is "not measured"
    assert page.text.count('class="trend-plot"') == 6 and "not-measured" not in page.text
    spec = json.loads(re.search(r'id="trend-1-spec">(.*?)</script>', page.text, re.S).group(1))
    assert spec["data"][3]["y"] == pytest.approx([beff * s for s in BEFF_SCALES])
    assert "<script>" not in page.text.split("</head>", 1)[1].replace(
        '<script type="application/json"', "")  # no inline script
    # a band of 2 runs is too short for the rule (3): no value has a band
    rows = key_figure_rows(client.get("/dashboard", params={"machine": "vm", "band": 2}).text)
    assert {r[-1] for r in rows} == {"no band yet"}
    # unknown machine, bad band
    assert client.get("/dashboard", params={"machine": "nowhere"}).status_code == 404
    assert client.get("/api/dashboard", params={"machine": "nowhere"}).json() == \
        {"error": "no runs of machine 'nowhere'"}
    assert client.get("/api/dashboard", params={"machine": "vm", "band": 0}).status_code == 400


def test_run_history_api_and_page(machine_store):
    client = TestClient(create_app(machine_store))
    data = client.get("/api/runs/9/history", params={"band": 3}).json()
    assert data["runs"] == [6, 7, 8, 9] and data["series"] == BEFF_LABEL
    names = [t["name"] for t in data["trends"]]
    # the key figures first, then the summary's other headline values
    assert names[:4] == ["b_eff", "ping-pong latency", "ping-pong bandwidth",
                         "b_eff per process"]
    assert "b_eff latency" in names and "b_eff" not in names[1:]
    beff = data["trends"][0]
    med, half = expected_band([p["value"] for p in beff["points"][:3]])
    assert (beff["latest"]["median"], beff["latest"]["half"], beff["latest"]["verdict"]) == (
        pytest.approx(med), pytest.approx(half), "worse")
    # the series as it was at run 7: two runs, no band
    early = client.get("/api/runs/7/history").json()
    assert early["runs"] == [6, 7] and all(
        p["median"] is None for t in early["trends"] for p in t["points"])
    page = client.get("/runs/9/history").text
    assert page.count('class="trend-plot"') == len(names)
    assert 'href="/dashboard?machine=vm"' in page
    assert 'id="history-link"' in client.get("/runs/9").text
    assert client.get("/api/runs/999/history").status_code == 404
    assert client.get("/runs/999/history").status_code == 404


def test_dashboard_shows_names_as_text(db_url, tmp_path):
    """A machine and a library named with HTML: text on the page and in the plot's legend."""
    from web_helpers import write_run
    machine, library = "<script>alert(1)</script>", "<b>MPI</b> & co"
    for day, lib in ((1, library), (2, library), (3, "MPICH")):  # two series
        path = write_run(tmp_path / f"x{day}.jsonl", machine=machine, library=lib,
                         start=f"2026-11-0{day}T08:00:00Z", benchmarks=("PingPong",))
        assert main(["import", "--db", db_url, str(path)]) == 0
    client = TestClient(create_app(db_url))
    page = client.get("/dashboard", params={"machine": machine}).text
    assert "<script>alert(1)</script>" not in page and "<b>MPI</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    data = client.get("/api/dashboard", params={"machine": machine}).json()
    assert data["series"][0]["label"] == "<b>MPI</b> & co · mpi1 · np=2"  # JSON: as stored
    latency = data["figures"][2]
    assert latency["name"] == "ping-pong latency"
    assert [t["name"] for t in latency["plot"]["data"]] == [
        "&lt;b&gt;MPI&lt;/b&gt; &amp; co · mpi1 · np=2", "MPICH · mpi1 · np=2"]
    assert data["figures"][2]["plot"]["layout"]["title"]["text"] == \
        "ping-pong latency on &lt;script&gt;alert(1)&lt;/script&gt;"
    assert "<script>" not in client.get("/dashboard").text.split("</head>", 1)[1]
