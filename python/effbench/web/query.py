"""The queries of the web application: runs by filter, the benchmarks of chosen runs, and the
measurements of a selection as plot traces and as CSV. Everything goes through SQLAlchemy
expressions (bound parameters), never through SQL built from strings."""

from __future__ import annotations

import csv
import html
import io
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Text, cast, func, or_, select, tuple_

from ..devices import memory_label
from ..records import IDENTITY_DEFAULTS, IDENTITY_FIELDS, simulation_label
from ..store.db import Store
from ..store.models import Benchmark, Machine, Measurement, MpiLibrary, Run

# Axes offered, by the field names of the C components' records (docs/json-lines.md and each
# component's doc); importers of other formats write the same names.
X_FIELDS = {"bytes": "message size [bytes]", "procs": "processes",
            "count": "message length [elements] (SKaMPI)",
            "chunks": "chunks (SKaMPI master-worker)"}
Y_FIELDS = {"t_avg_us": "t_avg [usec]", "t_min_us": "t_min [usec]", "t_max_us": "t_max [usec]",
            "mbytes_per_s": "Mbytes/sec", "b_mb_per_s": "b_eff bandwidth [MB/s, accumulated]",
            "mb_per_s": "bandwidth [MB/s = 10^6 bytes/s] (b_eff_io, OSU)",
            "messages_per_s": "messages/s (OSU osu_mbw_mr)",
            "overall_us": "overall [usec] (OSU non-blocking)",
            "gb_per_s": "bandwidth [GB/s = 10^9 bytes/s] (devcopy)"}
# The headline number of a selection when the URL does not name one: a time if there is one
# (t_max_us: IMB text tables with one time column print only the maximum).
Y_DEFAULT_ORDER = ("t_avg_us", "t_max_us", "b_mb_per_s", "mb_per_s", "mbytes_per_s")
CORE_COLUMNS = ("group_index", "mode", "procs", "bytes", "repetitions", "t_min_us",
                "t_max_us", "t_avg_us", "mbytes_per_s", "defects")
MAX_LISTED_RUNS = 500
# The device filter's word for the runs that used none.
HOST_RUNS = "host"


@dataclass
class RunFilter:
    machine: list[str] = field(default_factory=list)
    network: list[str] = field(default_factory=list)
    mpi_library: list[str] = field(default_factory=list)
    procs: list[int] = field(default_factory=list)
    date_from: str | None = None  # YYYY-MM-DD, compared with the run's ISO 8601 start
    date_to: str | None = None
    # the run's device column (docs/gpu-results.md); HOST_RUNS: the runs without a device
    device: list[str] = field(default_factory=list)

    def clauses(self):
        out = []
        if self.device:
            named = [d for d in self.device if d != HOST_RUNS]
            either = [Run.device.in_(named)] if named else []
            if HOST_RUNS in self.device:
                either.append(Run.device.is_(None))
            out.append(or_(*either))
        if self.machine:
            out.append(Machine.nodename.in_(self.machine))
        if self.network:
            out.append(Run.network.in_(self.network))
        if self.mpi_library:
            out.append(MpiLibrary.name.in_(self.mpi_library))
        if self.procs:
            out.append(Run.procs.in_(self.procs))
        if self.date_from:
            out.append(Run.start >= self.date_from)
        if self.date_to:
            # ISO strings sort by time: everything on DATE_TO sorts before DATE_TO + "~".
            out.append(Run.start < self.date_to + "~")
        return out


def short_library(name: str | None) -> str:
    """`Open MPI v4.1.4, package: ...` -> `Open MPI v4.1.4`."""
    if not name:
        return ""
    return name.split(",")[0].strip()[:60]


def run_label(run: dict) -> str:
    parts = [f"#{run['id']}", run.get("machine") or "?"]
    if run.get("mpi_library"):
        parts.append(short_library(run["mpi_library"]))
    parts.append(f"np={run['procs']}")
    if run.get("device"):
        parts.append(f"[{run['device']}]")
    if run.get("simulation"):
        parts.append("(simulated)")
    return " ".join(parts)


def _run_dict(run: Run) -> dict[str, Any]:
    return {
        "id": run.id, "hash": run.content_hash, "tool": run.tool, "version": run.tool_version,
        "component": run.component, "start": run.start, "procs": run.procs,
        "check": run.check, "status": run.status, "source": run.source,
        "source_format": run.source_format,
        "imported_at": run.imported_at.isoformat() + "Z" if run.imported_at else None,
        "machine": run.machine.nodename if run.machine else None,
        "uname": ({"sysname": run.machine.sysname, "nodename": run.machine.nodename,
                   "release": run.machine.release, "version": run.machine.version,
                   "machine": run.machine.arch} if run.machine else None),
        "mpi_library": run.mpi_library.name if run.mpi_library else None,
        "mpi_version": run.mpi_library.mpi_version if run.mpi_library else None,
        "network": run.network, "notes": run.notes,
        "uploader": run.uploader.name if run.uploader else None,
        "uploader_id": run.uploader_id,
        "simulation": simulation_label(run.run_record or {}),
        "device": run.device, "accelerator": run.accelerator,
    }


def _runs_select():
    return (select(Run).outerjoin(Machine, Run.machine_id == Machine.id)
            .outerjoin(MpiLibrary, Run.mpi_library_id == MpiLibrary.id))


def find_runs(store: Store, flt: RunFilter, limit: int = MAX_LISTED_RUNS) -> list[dict]:
    from sqlalchemy.orm import selectinload
    stmt = (_runs_select().where(*flt.clauses())
            .options(selectinload(Run.machine), selectinload(Run.mpi_library),
                     selectinload(Run.uploader))
            .order_by(Run.id.desc()).limit(limit))
    with store.sessions() as session:
        return [_run_dict(r) for r in session.scalars(stmt)]


def get_runs(store: Store, ids: list[int]) -> dict[int, dict]:
    from sqlalchemy.orm import selectinload
    if not ids:
        return {}
    stmt = (select(Run).where(Run.id.in_(ids))
            .options(selectinload(Run.machine), selectinload(Run.mpi_library),
                     selectinload(Run.uploader)))
    with store.sessions() as session:
        return {r.id: _run_dict(r) for r in session.scalars(stmt)}


def filter_choices(store: Store) -> dict[str, list]:
    """The values the filter form offers: what the stored runs have."""
    with store.sessions() as session:
        def distinct(col, *joins):
            stmt = select(col).distinct()
            return sorted(v for v in session.scalars(stmt) if v not in (None, ""))
        return {
            "machine": distinct(Machine.nodename),
            "network": distinct(Run.network),
            "mpi_library": distinct(MpiLibrary.name),
            "procs": distinct(Run.procs),
            "device": ([HOST_RUNS] if session.scalar(select(func.count()).select_from(Run)
                                                      .where(Run.device.is_(None))) else [])
            + distinct(Run.device),
        }


def benchmarks_of(store: Store, run_ids: list[int]) -> list[dict]:
    """Per benchmark (component, name): the chosen runs that measured it and their row counts."""
    if not run_ids:
        return []
    stmt = (select(Measurement.run_id, Benchmark.component, Benchmark.name, func.count())
            .join(Benchmark, Measurement.benchmark_id == Benchmark.id)
            .where(Measurement.run_id.in_(run_ids))
            .group_by(Measurement.run_id, Benchmark.component, Benchmark.name))
    table: dict[tuple[str, str], dict[int, int]] = defaultdict(dict)
    with store.sessions() as session:
        for run_id, component, name, count in session.execute(stmt):
            table[(component, name)][run_id] = count
    return [{"component": c, "name": n, "key": f"{c}/{n}", "runs": table[(c, n)]}
            for c, n in sorted(table)]


def parse_selection(values: list[str]) -> list[tuple[int, str, str]]:
    """`RUN:COMPONENT/NAME` -> (run, component, name); anything else is a ValueError."""
    out = []
    for value in values:
        run, sep, bench = value.partition(":")
        component, sep2, name = bench.partition("/")
        if not (sep and sep2 and run.isdigit() and component and name):
            raise ValueError(f"selection '{value}' is not RUN:COMPONENT/BENCHMARK")
        out.append((int(run), component, name))
    return out


def measurements(store: Store, selection: list[tuple[int, str, str]]) -> list[dict]:
    """Every measurement of the selected (run, benchmark) pairs, in run and file order, with the
    values exactly as stored."""
    if not selection:
        return []
    with store.sessions() as session:
        bench_ids = {(c, n): i for i, c, n in session.execute(
            select(Benchmark.id, Benchmark.component, Benchmark.name).where(
                tuple_(Benchmark.component, Benchmark.name).in_(
                    sorted({(c, n) for _, c, n in selection}))))}
        pairs = sorted({(r, bench_ids[(c, n)]) for r, c, n in selection if (c, n) in bench_ids})
        if not pairs:
            return []
        names = {i: k for k, i in bench_ids.items()}
        wanted = set(pairs)
        # extra as text: most rows have none ("{}"), and skipping their JSON decoding halves
        # the time of a 10,000-row selection.
        cols = [Measurement.run_id, Measurement.benchmark_id, Measurement.seq,
                *(getattr(Measurement, c) for c in CORE_COLUMNS),
                cast(Measurement.extra, Text)]
        stmt = (select(*cols).where(Measurement.run_id.in_(sorted({r for r, _ in pairs})),
                                    Measurement.benchmark_id.in_(sorted({b for _, b in pairs})))
                .order_by(Measurement.run_id, Measurement.benchmark_id, Measurement.seq))
        keys = ("run_id", "benchmark_id", "seq", *CORE_COLUMNS, "extra")
        rows = []
        # Core rows on the session's connection: no ORM row processing for 10^4 rows.
        for row in session.connection().execute(stmt):
            if (row[0], row[1]) not in wanted:
                continue  # IN x IN is wider than the chosen pairs when they are not a grid
            rec = dict(zip(keys, row))
            extra = rec["extra"]
            rec["extra"] = json.loads(extra) if extra and extra != "{}" else {}
            rec["component"], rec["benchmark"] = names[rec.pop("benchmark_id")]
            rows.append(rec)
        return rows


def value_of(row: dict, name: str):
    return row[name] if name in row and name != "extra" else row["extra"].get(name)


def choose_axes(rows: list[dict], x: str | None, y: str | None) -> tuple[str, str]:
    if y not in Y_FIELDS:
        y = next((f for f in Y_DEFAULT_ORDER
                  if any(value_of(r, f) is not None for r in rows)), "t_avg_us")
    if x not in X_FIELDS:
        x = "bytes"
        if rows and len({r["bytes"] for r in rows}) == 1 and len({r["procs"] for r in rows}) > 1:
            x = "procs"
    return x, y


def _trace_key(row: dict, x: str) -> tuple:
    """Rows of one curve: same run and benchmark, and the same value of every coordinate that
    is not the x axis (process count, mode, group, b_eff pattern and method, ...)."""
    naming = ((k, row["extra"].get(k, IDENTITY_DEFAULTS.get(k)))
              for k in IDENTITY_FIELDS.get(row["component"], ()) if k != x)
    extras = tuple((k, v) for k, v in naming if v is not None)
    memory = memory_label(row["extra"])  # host and device buffers: never one curve
    if memory:
        extras += (("memory", memory),)
    return (row["run_id"], row["component"], row["benchmark"],
            None if x == "procs" else row["procs"], row["mode"], row["group_index"], extras)


def plot_data(store: Store, selection, x: str | None, y: str | None) -> dict[str, Any]:
    rows = measurements(store, selection)
    x, y = choose_axes(rows, x, y)
    runs = get_runs(store, sorted({r for r, _, _ in selection}))
    traces: dict[tuple, dict] = {}
    skipped = 0
    for row in rows:
        xv, yv = value_of(row, x), value_of(row, y)
        if xv is None or yv is None:
            skipped += 1
            continue
        key = _trace_key(row, x)
        if key not in traces:
            run = runs.get(row["run_id"], {"id": row["run_id"], "procs": row["procs"]})
            name = [run_label(run), row["benchmark"]]
            if x != "procs":
                name.append(f"p={row['procs']}")
            if row["mode"]:
                name.append(row["mode"])
            if row["group_index"] is not None:
                name.append(f"group {row['group_index']}")
            name += [f"{k}={v}" for k, v in key[-1] if IDENTITY_DEFAULTS.get(k) != v]
            # plotly reads a little HTML in trace names: machine names are shown as text.
            traces[key] = {"name": html.escape(" · ".join(str(p) for p in name), quote=False),
                           "x": [], "y": [], "type": "scatter", "mode": "lines+markers",
                           "run": row["run_id"], "benchmark": f"{row['component']}/{row['benchmark']}"}
        traces[key]["x"].append(xv)
        traces[key]["y"].append(yv)
    for tr in traces.values():
        order = sorted(range(len(tr["x"])), key=lambda i: tr["x"][i])
        tr["x"] = [tr["x"][i] for i in order]
        tr["y"] = [tr["y"][i] for i in order]
    nonpositive = sum(1 for tr in traces.values() for v in tr["x"] if v <= 0)
    return {"x": x, "y": y, "xtitle": X_FIELDS[x], "ytitle": Y_FIELDS[y],
            "traces": list(traces.values()), "rows": len(rows), "skipped": skipped,
            "nonpositive_x": nonpositive,
            "points": sum(len(t["x"]) for t in traces.values())}


def _csv_value(value) -> str:
    kind = type(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else ""  # repr: shortest exact form
    if value is None:
        return ""
    if kind is bool:
        return "true" if value else "false"
    if kind is dict or kind is list:
        return json.dumps(value, sort_keys=True)
    return str(value)


def measurements_csv(store: Store, selection) -> str:
    """Every measurement of the selection, one row each, with the database's values in full
    precision: the run's facts, the core columns and every extra field (sorted by name)."""
    rows = measurements(store, selection)
    runs = get_runs(store, sorted({r["run_id"] for r in rows}))
    extra_keys = sorted({k for r in rows for k in r["extra"]})
    head = ["run_id", "machine", "mpi_library", "network", "device", "component", "benchmark",
            "seq",
            "group", "mode", "procs", "bytes", "repetitions", "t_min_us", "t_max_us",
            "t_avg_us", "mbytes_per_s", "defects", *extra_keys]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for r in rows:
        run = runs.get(r["run_id"], {})
        writer.writerow([_csv_value(v) for v in (
            r["run_id"], run.get("machine"), run.get("mpi_library"), run.get("network"),
            run.get("device"), r["component"], r["benchmark"], r["seq"], r["group_index"], r["mode"],
            r["procs"], r["bytes"], r["repetitions"], r["t_min_us"], r["t_max_us"],
            r["t_avg_us"], r["mbytes_per_s"], r["defects"],
            *(r["extra"].get(k) for k in extra_keys))])
    return out.getvalue()


def run_tables(store: Store, run_id: int) -> list[dict]:
    """A run's measurements as the tables the tool printed: one per benchmark, process count,
    mode and group, columns in the order the core fields come, then the extra fields."""
    parsed = store.load(run_id)
    tables: dict[tuple, dict] = {}
    for rec in parsed.results:
        key = (rec["component"], rec["benchmark"], rec["procs"], rec.get("mode"),
               rec.get("group"))
        if key not in tables:
            tables[key] = {"component": key[0], "benchmark": key[1], "procs": key[2],
                           "mode": key[3], "group": key[4], "rows": []}
        tables[key]["rows"].append(rec)
    out = []
    skip = {"type", "schema", "component", "benchmark", "procs", "mode", "group"}
    for t in tables.values():
        cols = []
        for rec in t["rows"]:
            for k, v in rec.items():
                if k not in skip and k not in cols:
                    cols.append(k)
        cols = [c for c in cols if any(r.get(c) is not None for r in t["rows"])]
        t["columns"] = cols
        t["cells"] = [[_csv_value(r.get(c)) for c in cols] for r in t["rows"]]
        del t["rows"]
        out.append(t)
    return out, parsed


def run_owner(store: Store, run_id: int) -> tuple[bool, int | None]:
    """(exists, uploader token id)."""
    with store.sessions() as session:
        row = session.execute(select(Run.id, Run.uploader_id).where(Run.id == run_id)).first()
        return (row is not None, row[1] if row else None)


def delete_run(store: Store, run_id: int) -> None:
    from sqlalchemy import delete
    # The database's ON DELETE CASCADE removes measurements and summaries in the same
    # statement, without loading a million rows into the session first.
    with store.sessions.begin() as session:
        session.execute(delete(Run).where(Run.id == run_id))


__all__ = ["RunFilter", "find_runs", "get_runs", "filter_choices", "benchmarks_of",
           "parse_selection", "measurements", "plot_data", "measurements_csv", "run_tables",
           "run_owner", "delete_run"]
