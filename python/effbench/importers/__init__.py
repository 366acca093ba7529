"""Importers: every input format becomes a ParsedRun of JSON Lines records."""

from __future__ import annotations

import re
from pathlib import Path

from ..validate import record_problems
from ..records import FormatError, ParsedRun, line_of
from .beff import parse_beff
from .beff_io import parse_beff_io
from .imb_p2p_text import parse_imb_p2p_text
from .imb_text import parse_imb_text
from .jsonl import parse_jsonl
from .osu_text import parse_osu_text
from .skampi import parse_skampi

FORMATS = {
    "jsonl": parse_jsonl,
    "imb": parse_imb_text,
    "imb_p2p": parse_imb_p2p_text,
    "beff": parse_beff,
    "beff_io": parse_beff_io,
    "skampi": parse_skampi,
    "osu": parse_osu_text,
}
# What an importer cannot read from its format, given on the command line (`import --procs`).
HINTS = {"osu": ("procs", "program", "buffers")}


def detect_format(path: str | Path) -> str:
    """Which importer reads PATH, from its first lines (never from its name alone)."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(8192)
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror}") from None
    stripped = head.lstrip()
    if stripped.startswith("{"):
        return "jsonl"
    if "b_eff_io.c, Revision" in head:
        return "beff_io"
    if "b_eff.c, Revision" in head or "SECTION-HEAD-BEGIN" in head:
        return "beff"
    if "SKaMPI Version" in head:
        return "skampi"
    if re.search(r"^# OSU MPI", head, re.M):
        return "osu"
    if "IMB-P2P part" in head:
        return "imb_p2p"
    if ("MPI Benchmark" in head or "effbench" in head) and " part" in head:
        return "imb"
    raise FormatError(path, 1, "unknown format (not effbench JSON Lines, IMB or IMB-P2P text, "
                      "b_eff, b_eff_io, SKaMPI or OSU 7.4 output)")


def parse_file(path: str | Path, fmt: str | None = None, **hints) -> ParsedRun:
    """HINTS (procs=, program=, buffers=): what OSU text does not say; None means not given."""
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise FormatError(path, None, f"unknown format '{fmt}' (one of {', '.join(FORMATS)})")
    hints = {k: v for k, v in hints.items() if v is not None}
    foreign = sorted(set(hints) - set(HINTS.get(fmt, ())))
    if foreign:
        raise FormatError(path, None, f"--{foreign[0]} is for OSU text only, and this file is "
                          f"{fmt}")
    try:
        parsed = FORMATS[fmt](path, **hints)
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise FormatError(path, None, f"not UTF-8 text: {exc.reason}") from None
    check_records(parsed, path)
    return parsed


def check_records(parsed: ParsedRun, path: str | Path) -> None:
    """Every record an importer built passes the one record validator (effbench.validate):
    a file whose numbers are impossible (a negative time, t_min above t_avg) is refused
    whole, naming the record's line in a JSON Lines file."""
    text_lines = dict(zip(map(id, parsed.results), parsed.result_lines or []))
    for index, rec in enumerate(parsed.records()):
        problems = record_problems(rec)
        if not problems:
            continue
        field = problems[0].split(":")[0].split(" ")[0]
        if parsed.source_format == "jsonl":
            line = index + 1
        elif id(rec) in text_lines:
            line = text_lines[id(rec)]
        else:
            line = line_of(path, rec[field]) if rec.get(field) is not None else None
        raise FormatError(path, line, f"{rec['type']} record: {problems[0]}")


__all__ = ["FORMATS", "HINTS", "FormatError", "ParsedRun", "detect_format", "parse_file"]
