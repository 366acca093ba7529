"""In a real Chromium: a machine's dashboard (real runs stored as its history) draws each key
figure's values and noise band; a run's history page draws its series; and the static report
(two runs overlaid, the history of a stored run) draws every figure with no tick label outside
its plot."""

from __future__ import annotations

import statistics

import pytest

from effbench.cli import main
from effbench.importers import parse_file
from web_helpers import (BEFF, BEFF_SCALES, MPI1, MPI1_SCALES, store_machine_history,
                         wait_for_js)

# The bounding boxes of a plot's tick labels and axis titles that leave its SVG.
CLIPPED = """div => {
  const svg = div.querySelector('.main-svg').getBoundingClientRect();
  const out = [];
  const labels = '.xtick text, .ytick text, .g-xtitle text, .g-ytitle text';
  for (const t of div.querySelectorAll(labels)) {
    const b = t.getBoundingClientRect();
    if (b.width === 0) continue;
    if (b.left < svg.left - 0.5 || b.right > svg.right + 0.5 || b.top < svg.top - 0.5 ||
        b.bottom > svg.bottom + 0.5) out.push(t.textContent);
  }
  return out;
}"""


def plot_data(page, selector):
    return page.eval_on_selector(selector, "div => div.data.map(t => ({name: t.name, "
                                 "y: Array.from(t.y), fill: t.fill || null}))")


def test_dashboard_draws_values_and_bands(page, site):
    store_machine_history(site.store)
    page.goto(site.url + "/")
    page.click("header >> text=Dashboard")
    page.click("#machines >> text=vm")
    wait_for_js(page, "document.querySelectorAll('.trend-plot[data-ready=\"1\"]').length"
                      " === 6")
    beff = plot_data(page, '.trend-plot[data-figure="b_eff"]')
    b_eff = parse_file(BEFF).summaries[0]["b_eff_mb_per_s"]
    values = [b_eff * s for s in BEFF_SCALES]
    traces = {t["name"]: t for t in beff}
    assert traces["value"]["y"] == pytest.approx(values)
    med = statistics.median(values[:3])
    half = max(4 * 1.4826 * statistics.median(abs(v - med) for v in values[:3]), 0.05 * med)
    # the fourth run's band spans the time from the third run to it
    assert traces["noise band (low edge)"]["y"] == pytest.approx([med - half] * 2)
    assert traces["noise band"]["y"] == pytest.approx([med + half] * 2)
    assert traces["noise band"]["fill"] == "tonexty"
    assert traces["worse than its band"]["y"] == pytest.approx([values[3]])
    # drawn: four markers on the value's line, the band as a filled area, a legend
    plot = page.locator('.trend-plot[data-figure="b_eff"]')
    assert plot.locator(".scatterlayer .trace").nth(3).locator(".points path").count() == 4
    assert plot.locator(".scatterlayer .trace .js-fill").count() >= 1
    assert plot.locator(".legendtext").all_text_contents() == [
        "noise band", "median of the runs before", "value", "worse than its band"]
    assert plot.locator(".g-ytitle").text_content() == "b_eff [MB/s]"
    # the IMB series of ping-pong latency, 50 % slower in the fifth run
    latency = plot_data(page, '.trend-plot[data-figure="ping-pong latency"]')
    t0 = next(r["t_max_us"] for r in parse_file(MPI1).results
              if r["benchmark"] == "PingPong" and r["bytes"] == 0)
    mpi1 = next(t for t in latency if t["name"] == "unknown MPI library · mpi1 · np=2")
    assert mpi1["y"] == pytest.approx([t0 * s for s in MPI1_SCALES])
    # the table says the same
    row = page.locator('#key-figures tr[data-figure="b_eff"]')
    assert row.locator(".value").text_content() == f"{values[3]:.4g}"
    assert row.locator(".verdict").text_content() == "worse than its band"
    for div in page.query_selector_all(".trend-plot"):
        assert page.evaluate(CLIPPED, div) == []
    assert page.problems == []

    # the history of run 9's series, reached from its page
    page.goto(site.url + "/runs/9")
    page.click("#history-link")
    count = page.locator(".trend-plot").count()
    assert count >= 4
    wait_for_js(page, f"document.querySelectorAll('.trend-plot[data-ready=\"1\"]').length"
                      f" === {count}")
    first = plot_data(page, "#trend-1")
    assert next(t for t in first if t["name"] == "value")["y"] == pytest.approx(values)
    assert page.problems == []


def test_static_report_in_chromium(page, site, tmp_path):
    store_machine_history(site.store)
    out = tmp_path / "rep"
    assert main(["report", "--db", site.db_url, "1", "5", "-o", str(out), "--no-static"]) == 0
    page.goto((out / "index.html").as_uri())
    plots = page.locator(".effbench-plot")
    count = plots.count()
    wait_for_js(page, f"document.querySelectorAll('.effbench-plot .main-svg').length"
                      f" >= {count}")
    # runs 1 and 5 overlaid: PingPong's time panel has two traces, named after their runs
    pingpong = page.locator('.effbench-plot[data-benchmark="PingPong"]')
    assert pingpong.get_attribute("data-run") == "run 1 + run 5"
    names = pingpong.evaluate("div => div.data.filter(t => (t.xaxis || 'x') === 'x')"
                              ".map(t => t.name)")
    assert names == ["run 1: 2 procs", "run 5: 2 procs"]
    history = page.locator('.effbench-plot[data-kind="history"][data-run="run 5"]')
    assert history.count() == 4
    for div in page.query_selector_all(".effbench-plot"):
        assert page.evaluate(CLIPPED, div) == [], div.get_attribute("data-benchmark")
    assert page.problems == []
