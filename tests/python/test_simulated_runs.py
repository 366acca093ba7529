"""Simulated runs (docs/simulation.md) keep their marker and platform through the store, and
list, compare, the report and the web pages say they are simulated."""
import json

import pytest

from effbench.cli import main
from effbench.comparable import differences
from effbench.importers import parse_file
from effbench.records import simulation_label
from effbench.store.db import Store
from web_helpers import run_records

SIMULATION = {"simulator": "SimGrid version 3.32 (SMPI)", "mode": "on", "platform": "t3e-900",
              "placement": "sequential", "shared_buffers": True, "simulate_computation": False,
              "max_repetitions": 10,
              "parameters": {"spec": "torus:8x8x8,lat=11.12us,bw=330MBps,limiter=441.6MBps",
                             "topology": "torus", "dims": "8x8x8", "lat": "11.12us"}}


def write(path, simulated: bool):
    recs = run_records(machine="node-0")
    if simulated:
        recs[0]["simulated"] = True
        recs[0]["simulation"] = SIMULATION
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def test_label():
    assert simulation_label({"simulated": True, "simulation": SIMULATION}) == (
        "simulated: t3e-900 = torus:8x8x8,lat=11.12us,bw=330MBps,limiter=441.6MBps "
        "(sequential placement)")
    assert simulation_label({"check": False}) is None
    assert simulation_label({"simulated": False, "simulation": SIMULATION}) is None


def test_store_list_compare_report(tmp_path, capsys):
    sim, real = write(tmp_path / "sim.jsonl", True), write(tmp_path / "real.jsonl", False)
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    assert main(["import", "--db", db, str(sim), str(real)]) == 0
    with Store(db) as store:
        runs = store.list_runs()
        assert [r["machine"] for r in runs] == ["simulated", "node-0"]
        back = store.load(runs[0]["id"])
    assert back.run["simulated"] is True and back.run["simulation"] == SIMULATION
    exported = tmp_path / "back.jsonl"
    assert main(["export", "--db", db, str(runs[0]["id"]), "-o", str(exported)]) == 0
    assert json.loads(exported.read_text().split("\n")[0])["simulation"] == SIMULATION
    # side by side: said, never refused
    (d,) = [d for d in differences(parse_file(real), parse_file(sim)) if d.what == "simulation"]
    assert d.a == "measured" and d.b.startswith("simulated: t3e-900") and not d.changes_measurement
    capsys.readouterr()
    assert main(["compare", str(real), str(sim)]) in (0, 1)
    assert "simulation: measured (A) vs simulated: t3e-900" in capsys.readouterr().out
    assert main(["report", str(sim), "-o", str(tmp_path / "rep"), "--no-static"]) == 0
    html = "".join(p.read_text() for p in (tmp_path / "rep").glob("*.html"))
    assert "simulated: t3e-900" in html and "a SimGrid prediction" in html


def test_web_pages_mark_simulated_runs(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from effbench.web import create_app
    db = f"sqlite:///{tmp_path / 'w.sqlite'}"
    assert main(["import", "--db", db, str(write(tmp_path / "s.jsonl", True))]) == 0
    with Store(db) as store:
        client = TestClient(create_app(store=store))
        page = client.get("/").text
        assert 'class="sim"' in page and ">simulated</span>" in page
        run_id = store.list_runs()[0]["id"]
        page = client.get(f"/runs/{run_id}").text
        assert "simulated: t3e-900" in page and "a SimGrid prediction" in page
