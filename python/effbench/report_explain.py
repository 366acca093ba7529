"""`effbench explain`'s table as a figure (docs/methods.md): per operation and size, each
method's value with its spread over rounds, and beside it a stacked bar per method from the
reference's value to the method's: one segment per factor in the chain's order, of its measured
share (signed: a negative share goes down), then the unexplained remainder. The values are the
records' own; nothing is computed here that the run did not measure, except where each
segment starts (the reference plus the shares before it)."""

from __future__ import annotations

from .component_names import EXPLAIN
from .plotfig import Figure, Panel, Trace

FACTORS = ("sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
           "in-flight", "calls")
UNEXPLAINED = "unexplained"
UNEXPLAINED_COLOR = "#888888"


def _by_size(rows: list[dict]) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for r in rows:
        out.setdefault((r["benchmark"], r["bytes"], r["procs"]), []).append(r)
    return out


def stack_segments(row: dict) -> list[tuple[str, float, float, str]]:
    """The stacked bar of one method's record: (name, base, height, label) per segment, from
    the reference's value, each factor's share in the chain's order, then the unexplained
    remainder. A share that the run could not measure (null: a row without a valid round)
    ends the stack there: what follows it is unknown."""
    base = row.get("reference_us")
    if base is None:
        return []
    out = []
    for f in row.get("factors", []):
        if f.get("share_us") is None:
            return out
        out.append((f["factor"], base, f["share_us"], f"{f['factor']} {f['from']}->{f['to']}"))
        base = base + f["share_us"]
    rest = row.get("unexplained_us")
    if rest is not None:
        out.append((UNEXPLAINED, base, rest, "unexplained (the run's noise)"))
    return out


def _stack_panel(rows: list[dict], xs: list, ticks: tuple) -> Panel:
    ref = rows[0].get("reference", "")
    panel = Panel(f"from {ref} to each method", "method", "time [usec]", xlog=False,
                  ylog=False, xticks=ticks)
    segments = [{name: (b, h, label) for name, b, h, label in stack_segments(r)} for r in rows]
    for name in FACTORS + (UNEXPLAINED,):
        if not any(name in s for s in segments):
            continue
        cells = [s.get(name, (None, None, None)) for s in segments]
        panel.traces.append(Trace(
            name, xs, [c[1] for c in cells], mode="bar", base=[c[0] for c in cells],
            text=[c[2] or "" for c in cells],
            color=UNEXPLAINED_COLOR if name == UNEXPLAINED else None))
    panel.traces.append(Trace("method's value", xs, [r.get("value_us") for r in rows],
                              mode="markers", symbol="x", color="#000000"))
    return panel


def explain_figures(label: str, results: list[dict]) -> list[Figure]:
    """One figure per operation and size of an explain run: the values (with min and max over
    the rounds), and the stacked bars of the factors' shares and the unexplained remainder."""
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
        invalid = ", ".join(f"{r['method']} {r['invalid']}/{r['regions']}" for r in rows
                            if r.get("invalid"))
        note = f"missed windows (invalid regions): {invalid}" if invalid else ""
        figures.append(Figure("explain", f"explain {bench}, {nbytes} bytes, {procs} procs",
                              label, bench, [values, _stack_panel(rows, xs, ticks)], note))
    return figures
