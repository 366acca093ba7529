"""Heat maps: the node-pair matrix of `effbench nodes` (docs/cluster.md), one per metric, the
flagged nodes named under it; and the guideline check of `effbench guidelines`
(docs/guidelines.md), collective x size, the violations named under it.  Shared by the HTML
report, its PNG/PDF figures and the web page."""
from __future__ import annotations

from dataclasses import dataclass, field

from .records import ParsedRun

# summary key -> (title, unit, higher is worse)
METRICS = {"latency_0b_us": ("latency at 0 bytes", "usec", True),
           "latency_8b_us": ("latency at 8 bytes", "usec", True),
           "bandwidth_mb_per_s": ("bandwidth", "Mbytes/sec", False)}


@dataclass
class Heatmap:
    title: str
    unit: str
    nodes: list[str]
    z: list[list[float | None]]
    higher_worse: bool
    flagged: list[str] = field(default_factory=list)
    # the other axes than node x node: column and row labels and titles
    x: list[str] | None = None
    y: list[str] | None = None
    x_title: str = "node"
    y_title: str = "node"

    def axes(self) -> tuple[list[str], list[str]]:
        return (self.x or self.nodes, self.y or self.nodes)

    def plotly_spec(self) -> dict:
        """A plotly figure (data and layout) with the unit on the colour bar and both axes."""
        scale = "Reds" if self.higher_worse else "Blues_r"
        text = [[("-" if v is None else f"{v:.4g}") for v in row] for row in self.z]
        xs, ys = self.axes()
        return {
            "data": [{"type": "heatmap", "x": xs, "y": ys, "z": self.z,
                      "text": text, "texttemplate": "%{text}", "colorscale": scale,
                      "colorbar": {"title": {"text": self.unit}},
                      "hovertemplate": "%{y} - %{x}: %{z:.4g} " + self.unit + "<extra></extra>"}],
            "layout": {"title": {"text": f"{self.title} [{self.unit}]"},
                       "xaxis": {"title": {"text": self.x_title}, "type": "category",
                                 "automargin": True},
                       "yaxis": {"title": {"text": self.y_title}, "type": "category",
                                 "automargin": True, "autorange": "reversed"},
                       "height": 160 + 40 * len(ys), "margin": {"l": 90, "b": 80}}}


def node_heatmaps(run: ParsedRun) -> list[Heatmap]:
    """The heat maps of a nodes run (empty for any other run)."""
    if run.run.get("component") != "nodes" or not run.summaries:
        return []
    s = run.summaries[-1]
    nodes = s.get("nodes") or []
    out = []
    for key, (title, unit, worse) in METRICS.items():
        if key not in s:
            continue
        flagged = [f["node"] for f in s.get("flagged_nodes", []) if key in f.get("metrics", [])]
        flagged += [" - ".join(f["nodes"]) for f in s.get("flagged_links", [])
                    if key in f.get("metrics", [])]
        out.append(Heatmap(title, unit, nodes, s[key], worse, flagged))
    return out


def guideline_heatmaps(run: ParsedRun) -> list[Heatmap]:
    """A guidelines run's heat map: per collective and size the largest slowdown factor
    (median(collective) / median(mock-up)) over its mock-ups; the violations named under it."""
    rows = [r for r in run.results if r.get("component") == "guidelines"]
    if run.run.get("component") != "guidelines" or not rows:
        return []
    colls = list(dict.fromkeys(r["benchmark"] for r in rows))
    sizes = sorted({r["bytes"] for r in rows})
    z: list[list[float | None]] = [[None] * len(sizes) for _ in colls]
    for r in rows:
        i, j = colls.index(r["benchmark"]), sizes.index(r["bytes"])
        if r.get("factor") is not None:
            z[i][j] = r["factor"] if z[i][j] is None else max(z[i][j], r["factor"])
    flagged = [f"{r['benchmark']} {r['bytes']} B vs {r['mockup']} ({r['factor']:.3g}x)"
               for r in rows if r.get("violated")]
    return [Heatmap("largest slowdown against a mock-up", "factor", colls, z, True, flagged,
                    x=[str(b) for b in sizes], y=colls, x_title="bytes", y_title="collective")]


def run_heatmaps(run: ParsedRun) -> list[Heatmap]:
    """Every heat map of a run (none for most components)."""
    return node_heatmaps(run) + guideline_heatmaps(run)


def write_png(hm: Heatmap, path) -> None:
    """The heat map as a PNG (matplotlib, Agg), units on the colour bar, every label shown."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure

    xs, ys = hm.axes()
    fig = MplFigure(figsize=(2.5 + 0.6 * len(xs) + 0.08 * max(map(len, ys)), 1.8 + 0.5 * len(ys)))
    ax = fig.subplots()
    values = [[float("nan") if v is None else v for v in row] for row in hm.z]
    im = ax.imshow(values, cmap="Reds" if hm.higher_worse else "Blues_r")
    ax.set_xticks(range(len(xs)), xs, rotation=45, ha="right")
    ax.set_yticks(range(len(ys)), ys)
    ax.set_xlabel(hm.x_title)
    ax.set_ylabel(hm.y_title)
    ax.set_title(f"{hm.title} [{hm.unit}]", fontsize=10)
    fig.colorbar(im, ax=ax, label=hm.unit)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
