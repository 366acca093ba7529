"""The node-pair matrix of `effbench nodes` as heat maps (docs/cluster.md): one per metric, the
flagged nodes named under it.  Shared by the HTML report, its PNG/PDF figures and the web page."""
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

    def plotly_spec(self) -> dict:
        """A plotly figure (data and layout) with the unit on the colour bar and both axes."""
        scale = "Reds" if self.higher_worse else "Blues_r"
        text = [[("-" if v is None else f"{v:.4g}") for v in row] for row in self.z]
        return {
            "data": [{"type": "heatmap", "x": self.nodes, "y": self.nodes, "z": self.z,
                      "text": text, "texttemplate": "%{text}", "colorscale": scale,
                      "colorbar": {"title": {"text": self.unit}},
                      "hovertemplate": "%{y} - %{x}: %{z:.4g} " + self.unit + "<extra></extra>"}],
            "layout": {"title": {"text": f"{self.title} [{self.unit}]"},
                       "xaxis": {"title": {"text": "node"}, "automargin": True},
                       "yaxis": {"title": {"text": "node"}, "automargin": True,
                                 "autorange": "reversed"},
                       "height": 160 + 40 * len(self.nodes), "margin": {"l": 90, "b": 80}}}


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


def write_png(hm: Heatmap, path) -> None:
    """The heat map as a PNG (matplotlib, Agg), units on the colour bar, every label shown."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure

    n = len(hm.nodes)
    fig = MplFigure(figsize=(2.5 + 0.6 * n, 1.8 + 0.5 * n))
    ax = fig.subplots()
    values = [[float("nan") if v is None else v for v in row] for row in hm.z]
    im = ax.imshow(values, cmap="Reds" if hm.higher_worse else "Blues_r")
    ax.set_xticks(range(n), hm.nodes, rotation=45, ha="right")
    ax.set_yticks(range(n), hm.nodes)
    ax.set_xlabel("node")
    ax.set_ylabel("node")
    ax.set_title(f"{hm.title} [{hm.unit}]", fontsize=10)
    fig.colorbar(im, ax=ax, label=hm.unit)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
