"""What the store's columns hold, checked before an import so that every backend refuses the
same values with the same message (PostgreSQL would refuse an over-long string, SQLite would
keep it). Parsing a file knows nothing of this: the limits are the columns' own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..records import FormatError, ParsedRun, is_int, line_of
from .models import Benchmark, Machine, Measurement, MpiLibrary, Run


def _length(column) -> int:
    return column.type.length


# Per record type, the string fields kept in columns of limited length, with the columns'
# lengths (`uname.X`: field X of the run's uname).
STRING_LIMITS = {
    "run": {"tool": _length(Run.tool), "version": _length(Run.tool_version),
            "start": _length(Run.start), "mpi_version": _length(MpiLibrary.mpi_version),
            "uname.sysname": _length(Machine.sysname),
            "uname.nodename": _length(Machine.nodename),
            "uname.release": _length(Machine.release),
            "uname.version": _length(Machine.version),
            "uname.machine": _length(Machine.arch)},
    "result": {"benchmark": _length(Benchmark.name), "mode": _length(Measurement.mode)},
    "end": {"status": _length(Run.status)},
}
# Integer fields by the largest value of their column (INTEGER, BIGINT).
INT32_MAX, INT64_MAX = 2**31 - 1, 2**63 - 1
INT_LIMITS = {
    "run": {"procs": INT32_MAX},
    "result": {"procs": INT32_MAX, "group": INT32_MAX, "bytes": INT64_MAX,
               "repetitions": INT64_MAX, "defects": INT64_MAX},
}


def store_problem(rec: dict[str, Any]) -> tuple[str, str, Any] | None:
    """Why the store could not keep a field of REC as it is: (field, reason, value), or None."""
    rtype = rec.get("type")
    for name, limit in STRING_LIMITS.get(rtype, {}).items():
        value: Any = rec
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            continue
        if not isinstance(value, str):
            return name, f"must be a string, not {value!r}", value
        if len(value) > limit:
            return (name, f"is {len(value)} characters long; the store keeps at most {limit}",
                    value)
    for name, limit in INT_LIMITS.get(rtype, {}).items():
        value = rec.get(name)
        if is_int(value) and value > limit:
            return name, f"is {value}, more than the store keeps ({limit} at most)", value
    return None


def check_store_limits(parsed: ParsedRun, path: str | Path | None) -> None:
    """Every record of PARSED fits the store's columns (lengths of strings, ranges of
    integers), or FormatError names PATH (the file PARSED was read from), the line and the
    field."""
    for index, rec in enumerate(parsed.records()):
        problem = store_problem(rec)
        if problem is None:
            continue
        name, reason, value = problem
        # A JSON Lines file has one record per line, in records() order; in the other formats
        # the value stands on the first line that has it.
        if parsed.source_format == "jsonl":
            line = index + 1
        else:
            line = line_of(path, value) if path is not None else None
        raise FormatError(path if path is not None else parsed.source or "run", line,
                          f"{rec['type']} field '{name}' {reason}")
