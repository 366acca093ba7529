"""The report's device parts (issue 42; docs/gpu-results.md): the table of a run's devices
(one row per rank, the tests' CUDA driver double marked as no GPU), and devcopy's host-device
copy bandwidths as a table (GB/s per size, one column per direction and host memory) and a
figure (GB/s over the size)."""

from __future__ import annotations

import html
from collections import defaultdict

from .component_names import DEVCOPY
from .devices import (DEVCOPY_BENCHMARKS, DEVCOPY_HOST_MEMORY, device_name, driver_version,
                      is_double)
from .plotfig import Figure, Panel, Trace
from .records import ParsedRun

DEVICE_COLUMNS = ("rank", "host", "device", "PCI bus id", "memory", "driver", "device number",
                  "CUDA_VISIBLE_DEVICES", "library")
GB_AXIS = "bandwidth [GB/s = 10^9 bytes/s]"


def _cells(dev: dict) -> list[str]:
    memory = dev.get("memory_bytes")
    version = driver_version(dev.get("driver_version"))
    return [str(dev.get("rank", "")), str(dev.get("host") or ""), device_name(dev),
            str(dev.get("pci_bus_id") or ""),
            f"{memory / 2**30:.1f} GiB" if isinstance(memory, int) and memory > 0 else "",
            f"{str(dev.get('accel') or '').upper()} {version}".strip() if version else "",
            (f"{dev['ordinal']} of {dev.get('count')}" if dev.get("ordinal") is not None
             else ""), str(dev.get("visible_devices") or ""), str(dev.get("library") or "")]


def devices_html(run: ParsedRun) -> str:
    """The run's devices as an HTML table, one row per rank; "" for a run without devices."""
    devices = [d for d in run.run.get("devices") or [] if isinstance(d, dict)]
    if not devices:
        return ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in DEVICE_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _cells(d)) + "</tr>"
                   for d in devices)
    out = f"<h3>Devices</h3><table class='devices'><tr>{head}</tr>{body}</table>"
    if any(map(is_double, devices)):
        out += ("<p class='warn double'>The CUDA driver double of effbench's tests ran here, "
                "not a GPU: its device memory is host memory, and no figure of this run is a "
                "GPU's.</p>")
    return out


def devcopy_columns(rows: list[dict]) -> list[tuple[str, str | None]]:
    """The (direction, host memory) pairs the rows have, in devcopy's order."""
    present = {(r["benchmark"], r.get("host_memory")) for r in rows}
    order = [(b, m) for b in DEVCOPY_BENCHMARKS
             for m in ((None,) if b == "device_to_device" else DEVCOPY_HOST_MEMORY)]
    return [c for c in order if c in present] + sorted(
        (c for c in present if c not in order), key=lambda c: (c[0], c[1] or ""))


def column_title(column: tuple[str, str | None]) -> str:
    direction, memory = column
    return direction.replace("_", " ") + (f" ({memory})" if memory else "")


def devcopy_table(run: ParsedRun) -> tuple[list[str], list[list[str]]]:
    """devcopy's rows as a table: the rank whose GPU copied (where several did), the size in
    bytes, then GB/s per column (devcopy_columns); "" where a column has no row."""
    rows = [r for r in run.results if r["component"] == DEVCOPY]
    columns = devcopy_columns(rows)
    cells: dict[tuple[int, int], dict] = defaultdict(dict)
    for r in rows:
        cells[(r.get("rank") or 0, r["bytes"])][(r["benchmark"], r.get("host_memory"))] = \
            r.get("gb_per_s")
    many = len({rank for rank, _ in cells}) > 1
    head = (["rank"] if many else []) + ["bytes"] + [column_title(c) for c in columns]
    table = []
    for (rank, nbytes), by_column in sorted(cells.items()):
        values = [by_column.get(c) for c in columns]
        table.append(([str(rank)] if many else []) + [str(nbytes)]
                     + ["" if v is None else f"{v:.2f}" for v in values])
    return head, table


def devcopy_html(run: ParsedRun) -> str:
    head, table = devcopy_table(run)
    if not table:
        return ""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in table)
    return ("<h3>Host-device copy bandwidth (devcopy), GB/s = 10^9 bytes/s of the mean "
            f"time</h3><table class='devcopy'><tr>{th}</tr>{body}</table>")


def devcopy_figures(label: str, run: ParsedRun) -> list[Figure]:
    """GB/s over the copy size, one trace per direction and host memory (and rank, where
    several ranks' GPUs copied)."""
    rows = [r for r in run.results if r["component"] == DEVCOPY
            and r.get("gb_per_s") is not None]
    if not rows:
        return []
    panel = Panel("bandwidth", "copy size [bytes]", GB_AXIS)
    ranks = sorted({r.get("rank") or 0 for r in rows})
    for rank in ranks:
        for column in devcopy_columns(rows):
            got = sorted((r for r in rows if (r["benchmark"], r.get("host_memory")) == column
                          and (r.get("rank") or 0) == rank), key=lambda r: r["bytes"])
            if got:
                name = (f"rank {rank}: " if len(ranks) > 1 else "") + column_title(column)
                panel.traces.append(Trace(name, [r["bytes"] for r in got],
                                          [r["gb_per_s"] for r in got]))
    return [Figure("benchmark", "host-device copy bandwidth (devcopy)", label, DEVCOPY,
                   [panel])]
