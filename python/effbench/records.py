"""The JSON Lines record model (docs/json-lines.md) shared by every importer, the store and the
report: a parsed run is a `run` record, its `result` rows, its `summary` records and its `end`
record, exactly as the C program writes them."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .component_names import (BEFF, BEFF_IO, COMPONENTS, DEVCOPY, EXPLAIN, IMB_FAMILIES, MT,
                              NODES, OSU, P2P, REPROMPI, SKAMPI, current_name, hash_spelling)
from .devices import device_identity

SCHEMA = 1
# Whose methodology produced a record's numbers (the loop, the timing, the reduction over the
# processes, the units): the record's "methodology" where it says (OSU's records: "osu-7.4"),
# else its component's classic one. Rows of different methodologies never measure the same
# thing: an OSU latency is not an IMB t_avg (docs/json-lines.md, "OSU records").
DEFAULT_METHODOLOGY = {**{c: "imb-4.0" for c in IMB_FAMILIES},
                       BEFF: "beff-3.6", BEFF_IO: "beff_io-2.1", SKAMPI: "skampi-5",
                       NODES: "effbench-nodes", OSU: "osu-7.4",
                       P2P: "imb-p2p-2021.11", MT: "imb-mt-2021.11", REPROMPI: "reprompi",
                       EXPLAIN: "explain", DEVCOPY: "effbench-devcopy"}

# Core `result` fields, in the order the C program writes them; the store keeps each in a column.
RESULT_CORE = (
    "component", "benchmark", "group", "mode", "procs", "bytes", "repetitions",
    "t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s", "defects",
)
# Fields that may be absent from a `result` line and then mean null.
RESULT_OPTIONAL = ("group", "mode", "mbytes_per_s", "defects")
# A row's headline time, first found: the average over the processes, else the maximum (IMB's
# single-time tables print only that; their rows have no t_avg_us).
TIME_FIELDS = ("t_avg_us", "t_max_us")


def methodology(rec: dict[str, Any]) -> str | None:
    """The methodology of a `run` or `result` record (DEFAULT_METHODOLOGY)."""
    return rec.get("methodology") or DEFAULT_METHODOLOGY.get(current_name(rec.get("component")))


def headline_time(rec: dict[str, Any]) -> float | None:
    return next((rec[k] for k in TIME_FIELDS if rec.get(k) is not None), None)


class FormatError(Exception):
    """A malformed input file: names the file, the line (1-based, or None) and the reason."""

    def __init__(self, path: str | Path, line: int | None, reason: str):
        self.path = str(path)
        self.line = line
        self.reason = reason
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


def line_of(path: str | Path, value: Any) -> int | None:
    """The first line of the file PATH on which VALUE (its first 60 characters) stands, for
    messages about a text format; None when there is none or the file cannot be read."""
    needle = str(value)[:60]
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, start=1):
                if needle in line:
                    return lineno
    except OSError:
        return None
    return None


@dataclass
class ParsedRun:
    """One run converted to the JSON Lines records, ready for the store."""

    run: dict[str, Any]
    results: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    source: str | None = None
    source_format: str = "jsonl"
    # `skip` and `resume` records: notes about the run, kept so that export gives them back.
    events: list[dict[str, Any]] = field(default_factory=list)
    # Where each summary and event stood among the file's records (0-based), so that records()
    # gives back the file's order (IMB-RMA writes a summary between tables, skip records
    # come between tables); None: after the results (importers of other formats).
    summary_at: list[int] | None = None
    event_at: list[int] | None = None
    # Lines of a job log that belong to no table (MPI library and Slurm messages, warnings) or
    # were cut off by a killed job: skipped by the text importers, counted here.
    skipped_lines: int = 0
    # The line of each result in a text file (for messages), where the importer knows it.
    result_lines: list[int] | None = None

    def records(self) -> list[dict[str, Any]]:
        out = [self.run, *self.results]
        placed = []
        for recs, at in ((self.summaries, self.summary_at), (self.events, self.event_at)):
            if at is None:
                out.extend(recs)
            else:
                placed.extend(zip(at, recs))
        # Inserted in increasing position, each lands where it stood in the file.
        for position, rec in sorted(placed, key=lambda p: p[0]):
            out.insert(position, rec)
        if self.end is not None:
            out.append(self.end)
        return out

    def content_hash(self) -> str:
        """Identity of a run for idempotent import: the same records give the same hash. A
        component is hashed under its spelling of before the naming rule (hash_spelling), so a
        run stored then keeps its hash, and its file imported again is found stored."""
        records = [{**r, "component": hash_spelling(r["component"])}
                   if isinstance(r.get("component"), str) else r for r in self.records()]
        canonical = json.dumps(records, sort_keys=True, separators=(",", ":"),
                               allow_nan=False)
        return hashlib.sha256(canonical.encode()).hexdigest()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (numbers that do not exist must be null)")


def loads_strict(text: str) -> Any:
    """json.loads that refuses NaN and Infinity, which the contract forbids."""
    return json.loads(text, parse_constant=_reject_constant)


def dumps_record(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(", ", ": "), allow_nan=False)


def write_jsonl(records: list[dict[str, Any]], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for rec in records:
            out.write(dumps_record(rec) + "\n")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def ctime_to_iso(text: str | None) -> str | None:
    """A date as the original tools print it (C ctime(), e.g. `Sun Nov 22 08:20:25 2026`,
    blanks in any number) as ISO 8601; None when there is none or it does not parse."""
    if not text:
        return None
    try:
        return datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y") \
            .strftime("%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None


def new_run(component: str, tool: str, procs: int | None, **fields: Any) -> dict[str, Any]:
    """A `run` record for an importer; fields the source does not have are null."""
    run: dict[str, Any] = {
        "type": "run", "schema": SCHEMA, "tool": tool, "version": None,
        "component": component, "start": None, "procs": procs, "hosts": None, "uname": None,
        "mpi_library": None, "mpi_version": None, "thread_level": None,
        "command_line": None, "options": {}, "check": False,
    }
    run.update(fields)
    return run


def simulation_label(run_record: dict[str, Any]) -> str | None:
    """'simulated: torus:8x8x8,... (sequential placement)' for a simulated run, else None:
    the one place that says whether and where a run was simulated (docs/simulation.md), for
    list, report, compare and the web pages."""
    if not run_record.get("simulated"):
        return None
    sim = run_record.get("simulation") or {}
    params = sim.get("parameters") or {}
    where = params.get("spec") or sim.get("platform") or "an unnamed platform"
    if sim.get("platform") and sim["platform"] != where:
        where = f"{sim['platform']} = {where}"
    placement = f" ({sim['placement']} placement)" if sim.get("placement") else ""
    return f"simulated: {where}{placement}"


def new_result(component: str, benchmark: str, procs: int, nbytes: int, **fields: Any
               ) -> dict[str, Any]:
    """A `result` record with every core field present (null where the source has none)."""
    rec: dict[str, Any] = {"type": "result", "schema": SCHEMA}
    for key in RESULT_CORE:
        rec[key] = None
    rec.update(component=component, benchmark=benchmark, procs=procs, bytes=nbytes)
    rec.update(fields)
    return rec


def new_end(status: str = "ok", message: str | None = None,
            elapsed_s: float | None = None) -> dict[str, Any]:
    return {"type": "end", "schema": SCHEMA, "status": status, "message": message,
            "elapsed_s": elapsed_s}


# Fields beyond the core coordinates that tell a component's rows apart: two runs' rows with
# the same core coordinates and the same values of these measure the same thing (compare
# matches them, the web plots one curve per combination). Named as the C components write them.
IDENTITY_FIELDS = {
    **{c: ("sync",) for c in IMB_FAMILIES},  # barrier / window
    BEFF: ("pattern", "method", "rep"),  # rep null: the maximum over the repetitions
    BEFF_IO: ("level", "access", "pattern_type", "pattern"),
    SKAMPI: ("chunks",),
    NODES: ("node_a", "node_b"),  # the pair of nodes
    # OSU: what the title and the lines above a table say (docs/json-lines.md, "OSU records");
    # its -d and buffer letters are in every component's device part (devices.device_identity)
    OSU: ("datatype", "window", "sync", "pairs", "window_size", "sender_processes",
            "receiver_processes", "sender_threads", "receiver_threads"),
    MT: ("threads", "window_size"),  # IMB-MT: threads per process, UniBand/BiBand's window
    # ReproMPI: how processes were synchronised and times formed, the data (docs/reprompi.md)
    REPROMPI: ("proc_sync", "clock_sync", "runtime_type", "datatype", "operation", "root",
               "mockup"),
    # effbench explain: one row per method of the run and its reference (docs/methods.md)
    EXPLAIN: ("method", "reference"),
    # devcopy: the direction is the benchmark; pinned or pageable host memory (null: d2d), and
    # the rank whose GPU copied (each rank measures its own, one after another)
    DEVCOPY: ("host_memory", "rank"),
}
IDENTITY_CORE = ("component", "benchmark", "group", "mode", "procs", "bytes")
# What an absent naming field means (IMB's own timing), and goes without saying in labels.
IDENTITY_DEFAULTS = {"sync": "barrier"}


def identity_key(rec: dict[str, Any]) -> tuple:
    """What makes two result rows "the same measurement" in two runs (for compare/report):
    the core coordinates, the component's naming fields, the methodology and where the
    buffers were (host, device, managed or pinned memory, staged or not: a host-buffer figure
    is never the same quantity as a device-buffer one)."""
    return (tuple(rec.get(k) for k in IDENTITY_CORE)
            + tuple(rec.get(k, IDENTITY_DEFAULTS.get(k))
                    for k in IDENTITY_FIELDS.get(rec["component"], ()))
            + (methodology(rec),) + device_identity(rec))
