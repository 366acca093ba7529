"""Text output as job logs hold it: Slurm writes a job's stdout and stderr to one file, so MPI
library banners, Slurm's messages and warnings stand between the lines of a table, and a job
killed at its time limit cuts the last line.  The text importers read through this module."""
from __future__ import annotations

import math
from pathlib import Path

from ..records import FormatError


def read_log(path: str | Path) -> tuple[list[str], bool]:
    """The file's lines and whether its last line is whole.  A last line without its newline
    was cut off by a killed job (every program writes whole lines): it is left out."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    whole = text == "" or text.endswith("\n")
    if not whole:
        lines.pop()
    return lines, whole


def is_number(token: str) -> bool:
    """A finite number ("1e999" and "nan" are damage, not values)."""
    try:
        return math.isfinite(float(token))
    except ValueError:
        return False


def read_each_line(path: Path, reader) -> tuple[list[str], int]:
    """Feed every whole line of the log at PATH to reader.read(lineno, line): the lines and how
    many were skipped (a cut last line, and each line the reader refused with FormatError:
    a message in the log, a cut row)."""
    lines, whole = read_log(path)
    skipped = 0 if whole else 1
    for lineno, line in enumerate(lines, start=1):
        try:
            reader.read(lineno, line)
        except FormatError:
            skipped += 1
    return lines, skipped
