"""Importer for effbench's own JSON Lines files (docs/json-lines.md), with the contract checked
line by line so that a malformed file is rejected whole, naming the line and the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..component_names import normalise_record
from ..records import (COMPONENTS, RESULT_OPTIONAL, SCHEMA, FormatError, ParsedRun, is_int,
                       is_number, loads_strict)

RECORD_TYPES = ("run", "result", "summary", "end", "skip", "resume")


def _check_type(path, lineno, rec, key, check, what, required=True, nullable=False):
    if key not in rec:
        if required:
            raise FormatError(path, lineno, f"{rec['type']} record lacks field '{key}'")
        return
    value = rec[key]
    if value is None and nullable:
        return
    if not check(value):
        raise FormatError(path, lineno,
                          f"field '{key}' must be {what}, not {value!r}")


def _is_str(v):
    return isinstance(v, str)


def _is_nonneg_int(v):
    return is_int(v) and v >= 0


def _is_pos_int(v):
    return is_int(v) and v >= 1


def _check_component(path, lineno, rec):
    _check_type(path, lineno, rec, "component", _is_str, "a string")
    if rec["component"] not in COMPONENTS:
        raise FormatError(path, lineno, f"unknown component '{rec['component']}' "
                          f"(one of {', '.join(COMPONENTS)})")


def check_run(path, lineno, rec: dict[str, Any]) -> None:
    _check_component(path, lineno, rec)
    _check_type(path, lineno, rec, "tool", _is_str, "a string")
    _check_type(path, lineno, rec, "procs", _is_pos_int, "a positive integer")
    _check_type(path, lineno, rec, "start", _is_str, "an ISO 8601 string", required=False,
                nullable=True)
    _check_type(path, lineno, rec, "options", lambda v: isinstance(v, dict), "an object",
                required=False, nullable=True)
    _check_type(path, lineno, rec, "command_line",
                lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
                "an array of strings", required=False, nullable=True)
    _check_type(path, lineno, rec, "check", lambda v: isinstance(v, bool), "true or false",
                required=False, nullable=True)
    _check_type(path, lineno, rec, "uname", lambda v: isinstance(v, dict), "an object",
                required=False, nullable=True)
    for key in ("version", "mpi_library", "mpi_version"):
        _check_type(path, lineno, rec, key, _is_str, "a string", required=False, nullable=True)


def check_result(path, lineno, rec: dict[str, Any]) -> None:
    _check_component(path, lineno, rec)
    _check_type(path, lineno, rec, "benchmark", lambda v: isinstance(v, str) and v != "",
                "a non-empty string")
    _check_type(path, lineno, rec, "procs", _is_pos_int, "a positive integer")
    _check_type(path, lineno, rec, "bytes", _is_nonneg_int, "a non-negative integer")
    _check_type(path, lineno, rec, "repetitions", _is_nonneg_int, "a non-negative integer",
                nullable=True)
    for key in ("t_min_us", "t_max_us", "t_avg_us"):
        _check_type(path, lineno, rec, key, is_number, "a number", nullable=True)
    _check_type(path, lineno, rec, "mbytes_per_s", is_number, "a number", required=False,
                nullable=True)
    _check_type(path, lineno, rec, "defects", _is_nonneg_int, "a non-negative integer",
                required=False, nullable=True)
    _check_type(path, lineno, rec, "group", _is_nonneg_int, "a non-negative integer",
                required=False, nullable=True)
    _check_type(path, lineno, rec, "mode", _is_str, "a string", required=False,
                nullable=True)
    for key in RESULT_OPTIONAL:
        rec.setdefault(key, None)


def check_skip(path, lineno, rec: dict[str, Any]) -> None:
    _check_component(path, lineno, rec)
    _check_type(path, lineno, rec, "benchmark", lambda v: isinstance(v, str) and v != "",
                "a non-empty string")
    _check_type(path, lineno, rec, "procs", _is_pos_int, "a positive integer")


def check_resume(path, lineno, rec: dict[str, Any]) -> None:
    _check_type(path, lineno, rec, "rows_kept", _is_nonneg_int, "a non-negative integer",
                required=False)


END_STATUSES = ("ok", "error", "timeout", "terminated")


def check_end(path, lineno, rec: dict[str, Any]) -> None:
    # docs/json-lines.md, `end`: the watchdog writes "timeout", SIGTERM/SIGINT "terminated"
    _check_type(path, lineno, rec, "status", lambda v: v in END_STATUSES,
                ", ".join(f'"{s}"' for s in END_STATUSES))
    _check_type(path, lineno, rec, "message", _is_str, "a string", required=False,
                nullable=True)
    _check_type(path, lineno, rec, "elapsed_s", is_number, "a number", required=False,
                nullable=True)


def parse_jsonl_text(text: str, path: str | Path = "<input>") -> ParsedRun:
    parsed: ParsedRun | None = None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, line in enumerate(lines, start=1):
        if line.strip() == "":
            raise FormatError(path, lineno, "empty line")
        try:
            rec = loads_strict(line)
        except ValueError as exc:
            raise FormatError(path, lineno, f"not JSON: {exc}") from None
        if not isinstance(rec, dict):
            raise FormatError(path, lineno, "a record must be a JSON object")
        normalise_record(rec)  # an old spelling ("imb-p2p") is read, and stored, as the name now
        rtype = rec.get("type")
        if rtype not in RECORD_TYPES:
            raise FormatError(path, lineno, f"unknown record type {rtype!r}")
        if rec.get("schema") != SCHEMA:
            raise FormatError(path, lineno,
                              f"unsupported schema {rec.get('schema')!r} (expected {SCHEMA})")
        if parsed is None and rtype != "run":
            raise FormatError(path, lineno, f"first record must be 'run', not '{rtype}'")
        if parsed is not None and parsed.end is not None:
            raise FormatError(path, lineno, "record after the 'end' record")
        if rtype == "run":
            if parsed is not None:
                raise FormatError(path, lineno, "second 'run' record")
            check_run(path, lineno, rec)
            parsed = ParsedRun(run=rec, source=str(path), source_format="jsonl",
                               summary_at=[], event_at=[])
        elif rtype == "result":
            check_result(path, lineno, rec)
            parsed.results.append(rec)
        elif rtype == "summary":
            _check_component(path, lineno, rec)
            parsed.summaries.append(rec)
            parsed.summary_at.append(lineno - 1)
        elif rtype in ("skip", "resume"):
            # Notes about the run (a benchmark not run, where a resumed run continued): stored
            # with their place, so that export gives the file back.
            (check_skip if rtype == "skip" else check_resume)(path, lineno, rec)
            parsed.events.append(rec)
            parsed.event_at.append(lineno - 1)
        else:
            check_end(path, lineno, rec)
            parsed.end = rec
    if parsed is None:
        raise FormatError(path, 1, "empty file: no 'run' record")
    return parsed


def parse_jsonl(path: str | Path) -> ParsedRun:
    return parse_jsonl_text(Path(path).read_text(encoding="utf-8"), path)
