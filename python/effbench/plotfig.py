"""A figure described once (panels of traces) and its two renderings: a plotly figure for the
HTML report and the web pages, and a matplotlib figure for PNG and PDF files. Both give every
axis its title with its unit and keep every tick label inside the figure (plotly's automargin,
matplotlib's constrained layout)."""

from __future__ import annotations

import html
import json
import re
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

# plotly's default colours, so that both renderings colour a series alike
PALETTE = ("#636efa", "#ef553b", "#00cc96", "#ab63fa", "#ffa15a", "#19d3f3", "#ff6692",
           "#b6e880", "#ff97ff", "#fecb52")
BAND_ALPHA = 0.18
MPL_DASHES = {"solid": "-", "dash": "--", "dot": ":", "dashdot": "-."}
MPL_MARKERS = {"circle": "o", "x": "x", "triangle-up": "^", "triangle-down": "v"}
MAX_LEGEND = 24  # more legend entries than this in a PNG would hide the plot: none


@dataclass
class Trace:
    name: str
    x: list
    y: list
    mode: str = "lines+markers"  # or "bar": a bar of height y from base (a stacked segment)
    symbol: str = "circle"
    dash: str = "solid"  # solid, dash, dot, dashdot: one per run where runs are overlaid
    color: str | None = None  # "#rrggbb"; None: the plotting library's next colour
    role: str = "data"  # data, band_low, band_high (filled down to band_low), median
    group: str | None = None  # legend group (default: the name)
    text: list | None = None  # hover text per point
    base: list | None = None  # bars: where each bar starts (None: at 0)


@dataclass
class Panel:
    title: str
    xtitle: str
    ytitle: str
    traces: list[Trace] = field(default_factory=list)
    xlog: bool = True
    ylog: bool = True
    xticks: tuple[list, list] | None = None
    xdate: bool = False  # x holds ISO 8601 times


@dataclass
class Figure:
    kind: str  # benchmark, procs, beff_pattern, beff_summary, beff_io, comparison, history
    title: str
    run: str
    benchmark: str
    panels: list[Panel]
    note: str = ""

    def points(self) -> int:
        return sum(len(t.x) for t in self.panels[0].traces if t.role == "data")


def trace_colors(fig: Figure) -> dict[str, str]:
    """One colour per legend entry across the panels (a trace without a colour of its own)."""
    colors: dict[str, str] = {}
    for panel in fig.panels:
        for t in panel.traces:
            key = t.group or t.name
            if t.color is None and key not in colors:
                colors[key] = PALETTE[len(colors) % len(PALETTE)]
    return colors


def _color(trace: Trace, colors: dict[str, str]) -> str | None:
    return trace.color or colors.get(trace.group or trace.name)


def rgba(color: str, alpha: float) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


# --- plotly --------------------------------------------------------------------------------------

def _plotly_trace(trace: Trace, first_panel: bool, color: str | None) -> dict:
    # plotly reads a little HTML in names: a library's or file's name is shown as text
    kw = {"x": trace.x, "y": trace.y, "name": html.escape(trace.name, quote=False),
          "mode": trace.mode,
          "legendgroup": trace.group or trace.name, "showlegend": first_panel,
          "marker": {"symbol": trace.symbol}, "line": {"dash": trace.dash}}
    if color:
        kw["marker"]["color"] = kw["line"]["color"] = color
    if trace.text is not None:
        kw["text"] = trace.text
    label = html.escape(trace.name)
    kw["hovertemplate"] = ("%{text}<br>" if trace.text is not None else "") + \
        "%{x}: %{y:.4g}<extra>" + label + "</extra>"
    if trace.role in ("band_low", "band_high"):
        kw.update(mode="lines", hoverinfo="skip", line={"width": 0})
        kw.pop("hovertemplate")
        if trace.role == "band_low":
            kw["showlegend"] = False
        else:
            kw.update(fill="tonexty", fillcolor=rgba(color or "#888888", BAND_ALPHA))
    return kw


def _plotly_bar(trace: Trace, first_panel: bool, color: str | None) -> dict:
    """A bar trace: one bar per x from its base, the panels' bars overlaid (each segment of a
    stack has its own base), hover text per segment."""
    kw = {"x": trace.x, "y": trace.y, "name": html.escape(trace.name, quote=False),
          "legendgroup": trace.group or trace.name, "showlegend": first_panel,
          "marker": {"color": color} if color else {}}
    if trace.base is not None:
        kw["base"] = trace.base
    if trace.text is not None:
        kw["text"] = trace.text
        kw["textposition"] = "none"
    kw["hovertemplate"] = ("%{text}<br>" if trace.text is not None else "") + \
        "%{x}: %{y:.4g}<extra>" + html.escape(trace.name) + "</extra>"
    return kw


def _xtype(panel: Panel, log: bool) -> str:
    if panel.xdate:
        return "date"
    return "log" if log and panel.xlog else "linear"


def plotly_spec(fig: Figure) -> dict:
    from plotly.subplots import make_subplots

    pfig = make_subplots(rows=1, cols=len(fig.panels),
                         subplot_titles=[p.title for p in fig.panels])
    colors = trace_colors(fig)
    for col, panel in enumerate(fig.panels, start=1):
        for trace in panel.traces:
            if trace.mode == "bar":
                pfig.add_bar(**_plotly_bar(trace, col == 1, _color(trace, colors)),
                             row=1, col=col)
                continue
            pfig.add_scatter(**_plotly_trace(trace, col == 1, _color(trace, colors)),
                             row=1, col=col)
        pfig.update_xaxes(title_text=panel.xtitle, type=_xtype(panel, True), automargin=True,
                          row=1, col=col)
        pfig.update_yaxes(title_text=panel.ytitle, type="log" if panel.ylog else "linear",
                          automargin=True, row=1, col=col)
        if panel.xticks:
            pfig.update_xaxes(tickmode="array", tickvals=panel.xticks[0],
                              ticktext=panel.xticks[1], row=1, col=col)
    n = len(fig.panels)
    xnames = ["xaxis" if i == 0 else f"xaxis{i + 1}" for i in range(n)]
    ynames = ["yaxis" if i == 0 else f"yaxis{i + 1}" for i in range(n)]
    lin = {**{f"{a}.type": _xtype(p, False) for a, p in zip(xnames, fig.panels)},
           **{f"{a}.type": "linear" for a in ynames}}
    log = {**{f"{a}.type": _xtype(p, True) for a, p in zip(xnames, fig.panels)},
           **{f"{a}.type": "log" for a in ynames}}
    pfig.update_layout(
        title={"text": html.escape(fig.title), "x": 0.01, "xanchor": "left"}, height=420,
        hovermode="closest", template="plotly_white", margin={"t": 90},
        legend={"traceorder": "grouped"},  # in the traces' order (a filled band reverses it)
        updatemenus=[{"type": "buttons", "direction": "right", "x": 1.0, "xanchor": "right",
                      "y": 1.02, "yanchor": "bottom", "pad": {"b": 18},
                      "buttons": [{"label": "log axes", "method": "relayout", "args": [log]},
                                  {"label": "linear axes", "method": "relayout",
                                   "args": [lin]}]}])
    if any(t.mode == "bar" for p in fig.panels for t in p.traces):
        pfig.update_layout(barmode="overlay")  # each segment of a stack has its own base
    return json.loads(pfig.to_json())


# --- matplotlib ----------------------------------------------------------------------------------

def _when(text: str) -> datetime:
    """An ISO 8601 time; one without a zone (IMB text's Date) is taken as UTC, as plotly
    does, so that both kinds share an axis."""
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _mpl_bars(ax, trace: Trace, color: dict) -> None:
    base = trace.base or [0] * len(trace.x)
    pts = [(x, y, b) for x, y, b in zip(trace.x, trace.y, base)
           if x is not None and y is not None and b is not None]
    if pts:
        xs, ys, bs = zip(*pts)
        ax.bar(xs, ys, bottom=bs, width=0.6, label=trace.name, edgecolor="white",
               linewidth=0.5, **color)


def _mpl_panel(ax, panel: Panel, colors: dict[str, str]) -> None:
    low = None
    for trace in panel.traces:
        if trace.mode == "bar":
            _mpl_bars(ax, trace, {"color": _color(trace, colors)} if _color(trace, colors)
                      else {})
            continue
        pts = [(x, y) for x, y in zip(trace.x, trace.y) if x is not None and y is not None
               and (not panel.xlog or panel.xdate or x > 0) and (not panel.ylog or y > 0)]
        if not pts:
            continue
        xs, ys = zip(*pts)
        if panel.xdate:
            xs = [_when(x) for x in xs]
        color = {"color": _color(trace, colors)} if _color(trace, colors) else {}
        if trace.role == "band_low":
            low = (xs, ys)
        elif trace.role == "band_high" and low is not None:
            ax.fill_between(low[0], low[1], ys, alpha=BAND_ALPHA, linewidth=0,
                            label=trace.name, **color)
        else:
            style = MPL_DASHES.get(trace.dash, "-") if "lines" in trace.mode else "none"
            marker = MPL_MARKERS.get(trace.symbol, "o") if "markers" in trace.mode else None
            ax.plot(xs, ys, linestyle=style, marker=marker, markersize=3, label=trace.name,
                    **color)


def _legend_entries(fig: Figure) -> int:
    return len({t.name for p in fig.panels for t in p.traces if t.role != "band_low"})


def mpl_figure(fig: Figure):
    """The figure for PNG and PDF: its panels side by side, one legend below them for all
    (none beyond MAX_LEGEND entries), laid out so that nothing leaves the figure."""
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
    from matplotlib.figure import Figure as MplFigure

    entries = _legend_entries(fig)
    ncol = max(1, min(entries, 2 * len(fig.panels)))
    rows = -(-entries // ncol) if entries <= MAX_LEGEND else 0
    mfig = MplFigure(figsize=(5.5 * len(fig.panels), 4.2 + 0.2 * rows), layout="constrained")
    axes = mfig.subplots(1, len(fig.panels), squeeze=False)[0]
    colors = trace_colors(fig)
    for ax, panel in zip(axes, fig.panels):
        _mpl_panel(ax, panel, colors)
        if panel.xdate:
            locator = AutoDateLocator(minticks=3, maxticks=7)
            ax.xaxis.set_major_locator(locator)
            ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))
        elif panel.xlog:
            ax.set_xscale("log", base=2)
        if panel.ylog:
            ax.set_yscale("log")
        if panel.xticks:
            ax.set_xticks(panel.xticks[0], panel.xticks[1])
            if max(len(str(t)) for t in panel.xticks[1]) > 8:  # names: slanted, not overlapping
                ax.tick_params(axis="x", labelrotation=30)
        ax.set_xlabel(panel.xtitle)
        ax.set_ylabel(panel.ytitle)
        ax.set_title(panel.title)
        ax.grid(True, which="both", alpha=0.3)
    handles: dict[str, object] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    if handles and rows:
        mfig.legend(list(handles.values()), list(handles), loc="outside lower center",
                    ncol=ncol, fontsize=7, frameon=False)
    # long run names (paths) wrap rather than run beyond the figure's edges: at 10 points, 11
    # characters an inch leaves room for the widest (underscores, m, w)
    mfig.suptitle(textwrap.fill(f"{fig.title} — {fig.run}", int(11 * 5.5 * len(fig.panels))),
                  fontsize=10)
    return mfig


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:80]


def write_static(outdir: Path, figures: list[Figure]) -> list[Path]:
    """One PNG per figure in OUTDIR/png and all of them in OUTDIR/report.pdf."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.backends.backend_pdf import PdfPages

    png_dir = outdir / "png"
    png_dir.mkdir(exist_ok=True)
    written = []
    with PdfPages(outdir / "report.pdf") as pdf:
        for i, fig in enumerate(figures, start=1):
            mfig = mpl_figure(fig)
            png = png_dir / f"{i:03d}-{slug(fig.benchmark)}.png"
            mfig.savefig(png, dpi=90)
            pdf.savefig(mfig)
            written.append(png)
    return written
