"""Report generator: one HTML page with interactive plotly figures (plotly.js copied next to it,
never fetched from the network) and the same figures as PNG files and one PDF (matplotlib).

Every figure is first described once as a plain `Figure` (panels of traces); the HTML and the
static files are two renderings of that description, so they always show the same points."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from pathlib import Path

from .component_names import IMB_FAMILIES
from .components import (BEFF_IO_ACCESS, BEFF_IO_TABLE_PATTERNS, BEFF_IO_TYPES, BEFF_METHODS,
                         beff_analysis)
from .heatmap import run_heatmaps, write_png
from .plotfig import Figure, Panel, Trace, plotly_spec, slug, write_static
from .devices import devices_label, memory_label
from .records import IDENTITY_FIELDS, ParsedRun, headline_time, simulation_label
from .report_device import devcopy_figures, devcopy_html, devices_html
from .report_explain import explain_figures
from .report_history import OVERLAY_NOTE, HistorySection, overlay

IMB_LIKE = IMB_FAMILIES
# Trace names: b_eff's methods as its protocol labels them, b_eff_io's types with their number.
BEFF_METHOD_LABELS = {name: label for label, name in BEFF_METHODS.items()}
BEFF_IO_TYPE_LABELS = tuple(f"type {t} {name}" for t, name in enumerate(BEFF_IO_TYPES))
PROCS_AXIS = "processes [count]"


# --- building the figures ----------------------------------------------------------------------

def _by(rows, *keys):
    out = defaultdict(list)
    for r in rows:
        out[tuple(r.get(k) for k in keys)].append(r)
    return out


def _series_name(procs, group, many_groups):
    name = f"{procs} procs"
    if group is not None and many_groups:
        name += f", group {group}"
    return name


def benchmark_figures(label: str, run: ParsedRun) -> list[Figure]:
    """IMB-like and SKaMPI results: time (and bandwidth) over message size per benchmark, one
    trace per process count; suites varied over the process count are plotted over it."""
    figures = []
    rows = [r for r in run.results if r["component"] in IMB_LIKE + ("skampi",)]
    for (comp, bench, mode), brows in _by(rows, "component", "benchmark", "mode").items():
        title = f"{bench}" + (f" ({mode})" if mode else "")
        over_procs = (all(r["bytes"] == brows[0]["bytes"] for r in brows)
                      or all(r.get("variation") == "Nodes" for r in brows))
        groups = {r.get("group") for r in brows}
        if over_procs:
            time_panel = Panel("time", PROCS_AXIS, "time [usec]")
            for (nbytes,), srows in sorted(_by(brows, "bytes").items()):
                srows = sorted(srows, key=lambda r: r["procs"])
                time_panel.traces.append(Trace(f"{nbytes} bytes", [r["procs"] for r in srows],
                                               [headline_time(r) for r in srows]))
            figures.append(Figure("procs", title, label, bench, [time_panel]))
            continue
        zero = [r for r in brows if r["bytes"] == 0]
        sized = [r for r in brows if r["bytes"] > 0]
        time_panel = Panel("time", "message size [bytes]", "time [usec]")
        bw_panel = Panel("bandwidth", "message size [bytes]", "bandwidth [Mbytes/sec]")
        for (procs, group), srows in sorted(_by(sized, "procs", "group").items(),
                                            key=lambda kv: (kv[0][0], kv[0][1] or 0)):
            srows = sorted(srows, key=lambda r: r["bytes"])
            name = _series_name(procs, group, len(groups) > 1)
            time_panel.traces.append(Trace(name, [r["bytes"] for r in srows],
                                           [headline_time(r) for r in srows]))
            refined = [r for r in srows if r.get("refined")]
            if refined:
                time_panel.traces.append(Trace(f"{name}: refinement points",
                                               [r["bytes"] for r in refined],
                                               [headline_time(r) for r in refined],
                                               mode="markers", symbol="x"))
            bw = [r for r in srows if r.get("mbytes_per_s") is not None]
            if bw:
                bw_panel.traces.append(Trace(name, [r["bytes"] for r in bw],
                                             [r["mbytes_per_s"] for r in bw]))
        note = ""
        if zero:
            note = "0 bytes (not on the log axis): " + ", ".join(
                f"{r['procs']} procs {_fmt(headline_time(r))} usec" for r in zero)
        panels = [time_panel] + ([bw_panel] if bw_panel.traces else [])
        if time_panel.traces:
            figures.append(Figure("benchmark", title, label, bench, panels, note))
    return figures


def collective_procs_figures(label: str, run: ParsedRun) -> list[Figure]:
    """Collectives measured at several process counts: time over the process count for a few
    message sizes (smallest, largest and log-spaced ones between)."""
    figures = []
    rows = [r for r in run.results if r["component"] in IMB_LIKE and r.get("group") is None]
    for (bench, mode), brows in _by(rows, "benchmark", "mode").items():
        procs = sorted({r["procs"] for r in brows})
        sizes = sorted({r["bytes"] for r in brows})
        if len(procs) < 2 or len(sizes) < 2:
            continue
        pick = sorted({sizes[round(i * (len(sizes) - 1) / 4)] for i in range(5)})
        panel = Panel("time over processes", PROCS_AXIS, "time [usec]", xlog=False)
        for nbytes in pick:
            srows = sorted((r for r in brows if r["bytes"] == nbytes), key=lambda r: r["procs"])
            panel.traces.append(Trace(f"{nbytes} bytes", [r["procs"] for r in srows],
                                      [headline_time(r) for r in srows]))
        title = f"{bench} over process count" + (f" ({mode})" if mode else "")
        figures.append(Figure("procs", title, label, bench, [panel]))
    return figures


def osu_figures(label: str, run: ParsedRun) -> list[Figure]:
    """OSU programs: latency (t_avg_us) and bandwidth (mb_per_s, 10^6 bytes/s: OSU's MB/s, not
    IMB's Mbytes/sec) over the message size, one trace per process count and naming field
    (datatype, window, synchronisation, window size); rows without a size in a note."""
    figures = []
    rows = [r for r in run.results if r["component"] == "osu"]
    for (bench,), brows in _by(rows, "benchmark").items():
        time_panel = Panel("time", "message size [bytes]", "latency [usec]")
        bw_panel = Panel("bandwidth", "message size [bytes]", "bandwidth [MB/s = 10^6 bytes/s]")
        naming = [k for k in IDENTITY_FIELDS["osu"] if any(r.get(k) is not None for r in brows)]
        sized = [{**r, "memory_label": memory_label(r)} for r in brows if r["bytes"] > 0]
        for key, srows in _by(sized, "procs", *naming, "memory_label").items():
            srows = sorted(srows, key=lambda r: r["bytes"])
            name = " ".join([f"{key[0]} procs"] + [f"{k}={v}" for k, v in zip(naming, key[1:])
                                                   if v is not None] + [key[-1]]).strip()
            for panel, field in ((time_panel, "t_avg_us"), (bw_panel, "mb_per_s")):
                got = [r for r in srows if r.get(field) is not None]
                if got:
                    panel.traces.append(Trace(name, [r["bytes"] for r in got],
                                              [r[field] for r in got]))
        zero = [r for r in brows if r["bytes"] == 0 and r.get("t_avg_us") is not None]
        note = "no message size: " + ", ".join(f"{r['procs']} procs {_fmt(r['t_avg_us'])} usec"
                                               for r in zero) if zero else ""
        panels = [p for p in (time_panel, bw_panel) if p.traces]
        if panels or note:
            figures.append(Figure("benchmark", f"{bench} (OSU)", label, bench,
                                  panels or [time_panel], note))
    return figures


def beff_figures(label: str, run: ParsedRun) -> list[Figure]:
    """b_eff: bandwidth per process over message length on log-log axes, one figure per pattern
    (a trace per method and the best of them, maxima over the repetitions as the original's
    analysis), and one per average over patterns."""
    rows = [r for r in beff_analysis(run.results) if r.get("b_mb_per_s") is not None]
    figures = []
    patterns = _by(rows, "pattern", "benchmark")
    # Patterns in their order, then the averages (no pattern number).
    for pattern, name in sorted(patterns, key=lambda k: (k[0] is None, k[0] or 0, k[1])):
        prows = patterns[(pattern, name)]
        panel = Panel("bandwidth", "message length L [bytes]", "bandwidth per process [MB/s]")
        for (method,), mrows in _by(prows, "method").items():
            mrows = sorted(mrows, key=lambda r: r["bytes"])
            panel.traces.append(Trace(BEFF_METHOD_LABELS.get(method, method),
                                      [r["bytes"] for r in mrows],
                                      [r["b_mb_per_s"] / r["procs"] for r in mrows]))
        title = f"p{pattern:02d} {name}" if pattern is not None else name
        figures.append(Figure("beff_pattern", f"b_eff {title}", label, title, [panel]))
    return figures


def _beff_io_table_rows(rows):
    """The rows of b_eff_io's summary table (the paper's Figure 3): per type the time-driven
    patterns of the table's 7 chunk sizes (not type 0's 1 MB/2 MB pattern 2, the table leaves
    it out too)."""
    return [r for r in rows if r.get("level") == "pattern"
            and r.get("pattern") in BEFF_IO_TABLE_PATTERNS[r["pattern_type"]]]


def _pseudo_log_positions(sizes):
    """b_eff_io's chunk-size axis: powers of two two units apart, each '+8' size next to its
    well-formed neighbour (1k, +8, 32k, +8, 1M, +8, 2M at 1, 2, 4, 5, 7, 8, 10)."""
    pos, labels, x = {}, [], -1
    for s in sorted(sizes):
        x = x + 1 if s % 1024 == 8 else x + 2
        pos[s] = x
        if s % 1024 == 8:
            labels.append("+8")
        elif s >= 1 << 20:
            labels.append(f"{s >> 20}M")
        else:
            labels.append(f"{s >> 10}k" if s >= 1024 else str(s))
    return pos, labels


def beff_io_figures(label: str, run: ParsedRun) -> list[Figure]:
    rows = _beff_io_table_rows([r for r in run.results if r["component"] == "beff_io"
                                and r.get("mb_per_s") is not None])
    figures = []
    for (procs,), prows in sorted(_by(rows, "procs").items()):
        pos, labels = _pseudo_log_positions({r["bytes"] for r in prows})
        ticks = ([pos[s] for s in sorted(pos)], labels)
        panels = []
        for access in BEFF_IO_ACCESS:
            arows = [r for r in prows if r["access"] == access]
            if not arows:
                continue
            panel = Panel(access, "chunk size on disk l [bytes]", "bandwidth [MB/s]",
                          xlog=False, xticks=ticks)
            for (ptype,), trows in sorted(_by(arows, "pattern_type").items()):
                trows = sorted(trows, key=lambda r: r["bytes"])
                panel.traces.append(Trace(BEFF_IO_TYPE_LABELS[ptype],
                                          [pos[r["bytes"]] for r in trows],
                                          [r["mb_per_s"] for r in trows]))
            panels.append(panel)
        figures.append(Figure("beff_io", f"b_eff_io on {procs} processes", label,
                              f"b_eff_io n={procs}", panels))
    return figures


# SKaMPI's report compares an MPI operation with the same operation written by hand.
FIXED_PAIRS = (("Pingpong_Sendrecv", "Pingpong_Send_Recv", "MPI_Sendrecv vs MPI_Send/MPI_Recv"),)


def comparison_figures(label: str, run: ParsedRun) -> list[Figure]:
    by_name = _by(run.results, "benchmark")
    names = {k[0] for k in by_name}
    pairs = [(a, b, t) for a, b, t in FIXED_PAIRS if a in names and b in names]
    for name in sorted(names):
        m = re.match(r"^(\w+?)_using_\w+?(-.*)?$", name)
        if m:
            official = f"MPI_{m.group(1)}{m.group(2) or ''}"
            if official in names:
                pairs.append((official, name, f"{official} vs {name}"))
    figures = []
    for a, b, title in pairs:
        panel = Panel("time", "message size [bytes]", "time [usec]")
        for name in (a, b):
            rows = sorted((r for r in by_name[(name,)] if r["bytes"] > 0
                           and headline_time(r) is not None), key=lambda r: r["bytes"])
            panel.traces.append(Trace(name, [r["bytes"] for r in rows],
                                      [headline_time(r) for r in rows]))
        if all(t.x for t in panel.traces):
            figures.append(Figure("comparison", title, label, f"{a} vs {b}", [panel]))
    return figures


def build_figures(label: str, run: ParsedRun) -> list[Figure]:
    return (benchmark_figures(label, run) + collective_procs_figures(label, run)
            + osu_figures(label, run) + beff_figures(label, run) + beff_io_figures(label, run)
            + comparison_figures(label, run) + explain_figures(label, run.results)
            + devcopy_figures(label, run))


# --- HTML (plotly) -------------------------------------------------------------------------------

def _script_json(obj) -> str:
    return json.dumps(obj, separators=(",", ":")).replace("</", "<\\/")


def _run_header(label: str, run: ParsedRun) -> str:
    r = run.run
    uname = r.get("uname") or {}
    facts = [("tool", f"{r.get('tool')} {r.get('version') or ''}"),
             ("component", r.get("component")),
             ("program", r.get("program") or ", ".join(r.get("programs") or [])),
             ("methodology", r.get("methodology")), ("processes", r.get("procs")),
             ("start", r.get("start")), ("machine", " ".join(
                 str(uname.get(k)) for k in ("sysname", "nodename", "release", "machine")
                 if uname.get(k))),
             ("MPI library", r.get("mpi_library")), ("MPI version", r.get("mpi_version")),
             ("devices", devices_label(r.get("devices"))),
             ("command line", " ".join(r.get("command_line") or [])),
             ("status", (run.end or {}).get("status", "no end record: incomplete run")),
             ("result rows", len(run.results))]
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                   for k, v in facts if v not in (None, ""))
    out = f"<h2>{html.escape(label)}</h2><table class='facts'>{rows}</table>"
    if r.get("check"):
        out += "<p class='warn'>Run with -check: the timings are not for publication.</p>"
    out += devices_html(run) + devcopy_html(run)
    if simulation_label(r):
        out += (f"<p class='warn sim'>{html.escape(simulation_label(r))}: these numbers are a "
                "SimGrid prediction, not a measurement.</p>")
    if run.summaries:
        keys = []
        for s in run.summaries:
            keys += [k for k in s if k not in ("type", "schema", "component") and k not in keys]
        head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
        body = "".join("<tr>" + "".join(
            f"<td>{html.escape(_fmt(s.get(k)))}</td>" for k in keys) + "</tr>"
            for s in run.summaries)
        out += f"<h3>Summary</h3><table class='summary'><tr>{head}</tr>{body}</table>"
    return out


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, list):
        return "; ".join(map(str, v))
    return str(v)


STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:1400px}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 6px;
text-align:left;font-size:90%}.warn{color:#a00;font-weight:bold}.note{color:#555;font-size:85%}
.effbench-plot{width:100%;min-height:420px}"""


def _figure_html(fid: str, fig: Figure) -> list[str]:
    parts = [f"<h3>{html.escape(fig.title)}</h3>",
             f"<div class='effbench-plot' id='{fid}' data-kind='{fig.kind}' "
             f"data-run='{html.escape(fig.run, quote=True)}' "
             f"data-benchmark='{html.escape(fig.benchmark, quote=True)}' "
             f"data-points='{fig.points()}'></div>",
             f"<script type='application/json' id='{fid}-spec'>"
             f"{_script_json(plotly_spec(fig))}</script>"]
    if fig.note:
        parts.append(f"<p class='note'>{html.escape(fig.note)}</p>")
    return parts


def write_html(path: Path, runs: list[tuple[str, ParsedRun]], figures: list[Figure],
               histories: list[HistorySection] = (), preface: str = "") -> None:
    """The page: PREFACE (HTML: an acceptance verdict), each run's facts, then the figures
    (runs overlaid where they measured the same thing), then the history of each stored run's
    series."""
    from plotly.offline import get_plotlyjs

    (path.parent / "plotly.min.js").write_text(get_plotlyjs(), encoding="utf-8")
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>effbench report</title>",
             "<script src='plotly.min.js'></script>", f"<style>{STYLE}</style></head><body>",
             "<h1>effbench report</h1>", preface]
    n = 0
    for label, run in runs:
        parts.append(_run_header(label, run))
        for hm in run_heatmaps(run):
            n += 1
            parts.append(f"<h3>{html.escape(hm.title)} [{html.escape(hm.unit)}]</h3>"
                         f"<div class='effbench-plot' id='fig-{n}' data-kind='heatmap'></div>"
                         f"<script type='application/json' id='fig-{n}-spec'>"
                         f"{_script_json(hm.plotly_spec())}</script>")
            if hm.flagged:
                parts.append(f"<p class='note'>flagged: {html.escape(', '.join(hm.flagged))}</p>")
    if len(runs) > 1:
        parts.append("<h2>Figures</h2><p class='note'>" + html.escape(OVERLAY_NOTE) + "</p>")
    for fig in figures:
        n += 1
        parts += _figure_html(f"fig-{n}", fig)
    for section in histories:
        parts.append(f"<h2>{html.escape(section.title)}</h2>"
                     f"<p class='note'>{html.escape(section.note)}</p>")
        for fig in section.figures:
            n += 1
            parts += _figure_html(f"fig-{n}", fig)
    parts.append("""<script>
for (const div of document.querySelectorAll('.effbench-plot')) {
  const spec = JSON.parse(document.getElementById(div.id + '-spec').textContent);
  Plotly.newPlot(div, spec.data, spec.layout, {responsive: true, displaylogo: false});
}
</script></body></html>""")
    path.write_text("\n".join(parts), encoding="utf-8")


def write_report(runs: list[tuple[str, ParsedRun]], outdir: Path, static: bool = True,
                 histories: list[HistorySection] = (), preface: str = "") -> Path:
    """HISTORIES: the series plots of the runs that are stored (report_history); PREFACE:
    HTML put before the runs (the acceptance verdict, effbench/accept/html.py)."""
    outdir.mkdir(parents=True, exist_ok=True)
    figures = overlay([(label, build_figures(label, run)) for label, run in runs])
    index = outdir / "index.html"
    write_html(index, runs, figures, histories, preface)
    if static:
        write_static(outdir, figures + [f for s in histories for f in s.figures])
        for label, run in runs:
            for hm in run_heatmaps(run):
                (outdir / "png").mkdir(exist_ok=True)
                write_png(hm, outdir / "png" / f"{slug(label)}-{slug(hm.title)}.png")
    return index
