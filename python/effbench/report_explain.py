"""`effbench explain`'s table as a figure (docs/methods.md): per operation and size, each
method's value with its spread over rounds, and each factor's measured share of the difference
from the reference with the unexplained remainder, one marker per method. The values are the
records' own; nothing is computed here that the run did not measure."""

from __future__ import annotations

from .component_names import EXPLAIN
from .plotfig import Figure, Panel, Trace

FACTORS = ("sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
           "in-flight")


def _by_size(rows: list[dict]) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for r in rows:
        out.setdefault((r["benchmark"], r["bytes"], r["procs"]), []).append(r)
    return out


def explain_figures(label: str, results: list[dict]) -> list[Figure]:
    """One figure per operation and size of an explain run: the values (with min and max over
    the rounds) and the shares (one trace per factor, and the unexplained remainder)."""
    figures = []
    for (bench, nbytes, procs), rows in _by_size(
            [r for r in results if r["component"] == EXPLAIN]).items():
        xs = list(range(1, len(rows) + 1))
        ticks = (xs, [r["method"] for r in rows])
        values = Panel("value", "method", "time [usec]", xlog=False, ylog=False, xticks=ticks)
        for name, field, symbol in (("value (median of rounds)", "value_us", "circle"),
                                    ("min over rounds", "t_min_us", "triangle-down"),
                                    ("max over rounds", "t_max_us", "triangle-up")):
            values.traces.append(Trace(name, xs, [r.get(field) for r in rows], mode="markers",
                                       symbol=symbol))
        ref = rows[0].get("reference", "")
        shares = Panel(f"difference from {ref}", "method", "share [usec]", xlog=False,
                       ylog=False, xticks=ticks)
        for factor in FACTORS:
            ys = [next((f["share_us"] for f in r.get("factors", []) if f["factor"] == factor),
                       None) for r in rows]
            if any(y is not None for y in ys):
                shares.traces.append(Trace(factor, xs, ys, mode="markers"))
        shares.traces.append(Trace("unexplained", xs, [r.get("unexplained_us") for r in rows],
                                   mode="markers", symbol="x"))
        shares.traces.append(Trace("difference", xs, [r.get("difference_us") for r in rows],
                                   mode="markers", symbol="diamond"))
        invalid = ", ".join(f"{r['method']} {r['invalid']}/{r['regions']}" for r in rows
                            if r.get("invalid"))
        note = f"missed windows (invalid regions): {invalid}" if invalid else ""
        figures.append(Figure("explain", f"explain {bench}, {nbytes} bytes, {procs} procs",
                              label, bench, [values, shares], note))
    return figures
