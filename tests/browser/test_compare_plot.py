"""In a real Chromium: upload two runs through the form, choose both, choose a suite of each,
draw the comparison plot, zoom with the mouse, reload the plot's URL, and download CSV (its
values must be the database's) and SVG. And a machine named <script>alert(1)</script> runs no
script anywhere."""

from __future__ import annotations

import csv
import io
import json
import math
from urllib.parse import parse_qs, urlparse

import httpx

from web_helpers import wait_for_js, write_run

XSS = "<script>alert(1)</script>"


def upload_with_form(page, site, path, network):
    page.goto(site.url + "/upload")
    page.set_input_files('input[name="file"]', str(path))
    page.fill('input[name="network"]', network)
    page.fill('input[name="token"]', site.tokens["alice"])
    page.click("#upload-button")
    page.wait_for_selector("#done")
    return int(page.get_attribute("#done-link", "href").rsplit("/", 1)[1])


def test_upload_choose_plot_zoom_download(page, site, tmp_path):
    a = write_run(tmp_path / "a.jsonl", machine="alpha", start="2026-11-01T08:00:00Z")
    b = write_run(tmp_path / "b.jsonl", machine="beta", scale=2.5,
                  library="MPICH Version: 4.0.2", start="2026-11-02T08:00:00Z")
    assert upload_with_form(page, site, a, "shared memory") == 1
    assert upload_with_form(page, site, b, "InfiniBand") == 2

    # 1. choose runs, 2. choose suites, 3. plot
    page.goto(site.url + "/")
    assert page.locator("#runs tbody tr").count() == 2
    page.check("#run-1")
    page.check("#run-2")
    page.click("#suites-button")
    page.check('input[name="sel"][value="1:mpi1/PingPong"]')
    page.check('input[name="sel"][value="2:mpi1/PingPong"]')
    page.select_option('select[name="y"]', "t_avg_us")
    page.click("#plot-button")
    page.wait_for_selector('#plot[data-ready="1"]')
    assert page.get_attribute("#plot", "data-traces") == "2"
    assert page.get_attribute("#plot", "data-points") == "16"
    assert page.locator("#plot .scatterlayer .trace").count() == 2
    assert page.evaluate("document.getElementById('plot').layout.xaxis.type") == "log"
    assert page.evaluate("document.getElementById('plot').layout.yaxis.type") == "log"
    legend = page.locator("#plot .legendtext").all_text_contents()
    assert legend[0].startswith("#1 alpha Open MPI v4.1.4 np=2 · PingPong")
    assert legend[1].startswith("#2 beta MPICH Version: 4.0.2 np=2 · PingPong")

    # zoom: drag a box over the middle of the plot area
    box = page.locator("#plot .nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5, steps=8)
    page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.7, steps=8)
    page.mouse.up()
    wait_for_js(page, "new URLSearchParams(location.search).has('x0')")
    zoomed = page.evaluate("[document.getElementById('plot').layout.xaxis.range,"
                           " document.getElementById('plot').layout.yaxis.range]")
    query = parse_qs(urlparse(page.url).query)
    x0, x1 = float(query["x0"][0]), float(query["x1"][0])
    assert math.isclose(math.log10(x0), zoomed[0][0], rel_tol=1e-9, abs_tol=1e-9)
    assert 1 < x0 < x1 < 4096  # inside the full range of sizes
    assert page.get_attribute("#permalink", "href").endswith(urlparse(page.url).query)

    # the plot's URL reproduces it, zoom included
    page.goto(page.url)
    page.wait_for_selector('#plot[data-ready="1"]')
    again = page.evaluate("[document.getElementById('plot').layout.xaxis.range,"
                          " document.getElementById('plot').layout.yaxis.range]")
    for axis in (0, 1):
        for end in (0, 1):
            assert math.isclose(again[axis][end], zoomed[axis][end], rel_tol=1e-9)

    # CSV: every value as the database has it
    with page.expect_download() as info:
        page.click("#download-csv")
    rows = list(csv.DictReader(io.StringIO(open(info.value.path()).read())))
    assert len(rows) == 16
    expected = {}
    for run_id in (1, 2):
        for rec in site.store.load(run_id).results:
            expected[(run_id, rec["benchmark"], rec["bytes"])] = rec
    for row in rows:
        ref = expected[(int(row["run_id"]), row["benchmark"], int(row["bytes"]))]
        assert row["benchmark"] == "PingPong"
        for key in ("t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s"):
            assert float(row[key]) == ref[key], (row, key)
        assert int(row["procs"]) == ref["procs"]
    source = {(1, r["benchmark"], r["bytes"]): r for r in map(json.loads, open(a))
              if r["type"] == "result"}
    assert float(rows[3]["t_avg_us"]) == source[(1, "PingPong", int(rows[3]["bytes"]))]["t_avg_us"]

    # SVG of the figure
    with page.expect_download() as info:
        page.click("#download-svg")
    svg = open(info.value.path()).read()
    assert svg.startswith("<svg") and "PingPong" in svg
    with page.expect_download() as info:
        page.click("#download-png")
    assert open(info.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    # the axis buttons switch to linear axes
    page.locator("#plot .updatemenu-button").nth(2).click()
    wait_for_js(page, "document.getElementById('plot').layout.xaxis.type === 'linear'")
    assert "xlog=0" in page.url and "x0" not in page.url
    assert not [p for p in page.problems if "Content Security Policy" in p or "Refused" in p], \
        page.problems
    assert page.problems == []


def test_script_in_machine_name_runs_nowhere(page, site, tmp_path):
    path = write_run(tmp_path / "x.jsonl", machine=XSS)
    with open(path, "rb") as f:
        resp = httpx.post(site.url + "/api/runs", files={"file": ("x.jsonl", f)},
                          data={"notes": '<img src=x onerror="alert(2)">'},
                          headers={"Authorization": f"Bearer {site.tokens['alice']}"})
    assert resp.status_code == 201, resp.text
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(site.url + "/?run=1&sel=1:mpi1/PingPong")
    page.wait_for_selector('#plot[data-ready="1"]')
    assert page.locator("#runs td.machine").first.text_content() == XSS
    assert page.locator("#runs td.notes").first.text_content() == '<img src=x onerror="alert(2)">'
    assert page.locator("#plot .legendtext").first.text_content().startswith(f"#1 {XSS}")
    page.goto(site.url + "/runs/1")
    assert page.locator("h1 .machine").text_content() == XSS
    assert dialogs == []
