"""The node-pair matrix's heat maps (effbench.heatmap): in the HTML report (plotly), as PNG
figures, and on the web page of a nodes run."""
import json
import re
import warnings
from pathlib import Path

from effbench.heatmap import guideline_heatmaps, node_heatmaps, run_heatmaps
from effbench.importers import parse_file
from effbench.report import write_report
from effbench.store.db import Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient  # noqa: E402

from effbench.web import create_app  # noqa: E402

NODES = Path(__file__).resolve().parent / "data" / "effbench" / "nodes_np4.jsonl"


def test_heatmaps_of_a_nodes_run():
    run = parse_file(NODES)
    maps = node_heatmaps(run)
    assert [(m.title, m.unit) for m in maps] == [("latency at 0 bytes", "usec"),
                                                  ("latency at 8 bytes", "usec"),
                                                  ("bandwidth", "Mbytes/sec")]
    summary = run.summaries[0]
    for m, key in zip(maps, ("latency_0b_us", "latency_8b_us", "bandwidth_mb_per_s")):
        assert m.nodes == summary["nodes"] and m.z == summary[key]
        spec = m.plotly_spec()
        trace = spec["data"][0]
        assert trace["type"] == "heatmap" and trace["z"] == summary[key]
        assert trace["colorbar"]["title"]["text"] == m.unit
        assert spec["layout"]["xaxis"]["title"]["text"] == "node"
        assert spec["layout"]["title"]["text"] == f"{m.title} [{m.unit}]"
        assert [row[i] for i, row in enumerate(trace["text"])] == ["-"] * len(m.nodes)
    assert node_heatmaps(parse_file(NODES.with_name("beff_np4.jsonl"))) == []


def test_report_and_web_page_show_them(tmp_path):
    run = parse_file(NODES)
    index = write_report([("nodes", run)], tmp_path / "rep")
    html = index.read_text()
    assert html.count("data-kind='heatmap'") == 3
    specs = re.findall(r"<script type='application/json' id='fig-\d+-spec'>(.*?)</script>", html)
    assert json.loads(specs[2])["data"][0]["z"] == run.summaries[0]["bandwidth_mb_per_s"]
    pngs = sorted(p.name for p in (tmp_path / "rep" / "png").glob("nodes-*.png"))
    assert pngs == ["nodes-bandwidth.png", "nodes-latency_at_0_bytes.png",
                    "nodes-latency_at_8_bytes.png"]
    url = f"sqlite:///{tmp_path / 'w.sqlite'}"
    with Store(url) as store:
        run_id, _ = store.import_run(run)
        client = TestClient(create_app(store=store))
        page = client.get(f"/runs/{run_id}").text
        client.close()
    assert page.count('class="heatmap"') == 3 and "/static/heatmap.js" in page
    assert '"type": "heatmap"' in page or '"type":"heatmap"' in page


GUIDELINES = NODES.with_name("guidelines_np2.jsonl")


def test_heatmap_of_a_guidelines_run(tmp_path):
    """collective x size, the largest factor over the mock-ups, the violations named."""
    run = parse_file(GUIDELINES)
    [m] = run_heatmaps(run)
    assert (m.title, m.unit, m.x_title, m.y_title) == (
        "largest slowdown against a mock-up", "factor", "bytes", "collective")
    assert m.axes() == (["8", "1048576"], ["MPI_Bcast", "MPI_Scan"])
    for i, coll in enumerate(m.y):
        for j, size in enumerate(m.x):
            factors = [r["factor"] for r in run.results
                       if r["benchmark"] == coll and r["bytes"] == int(size)]
            assert m.z[i][j] == max(factors)
    violated = [r for r in run.results if r["violated"]]
    assert len(violated) == 3 and len(m.flagged) == 3
    assert m.flagged[0] == (f"MPI_Bcast 1048576 B vs {violated[0]['mockup']} "
                            f"({violated[0]['factor']:.3g}x)")
    spec = m.plotly_spec()
    assert spec["data"][0]["x"] == m.x and spec["data"][0]["y"] == m.y
    assert spec["layout"]["xaxis"]["title"]["text"] == "bytes"
    assert guideline_heatmaps(parse_file(NODES)) == [] and node_heatmaps(run) == []
    index = write_report([("gl", run)], tmp_path / "rep")
    assert index.read_text().count("data-kind='heatmap'") == 1
    assert [p.name for p in (tmp_path / "rep" / "png").glob("*.png")] == [
        "gl-largest_slowdown_against_a_mock-up.png"]
