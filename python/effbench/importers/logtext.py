"""Text output as job logs hold it: Slurm writes a job's stdout and stderr to one file, so MPI
library banners, Slurm's messages and warnings stand between the lines of a table, and a job
killed at its time limit cuts the last line.  The text importers read through this module."""
from __future__ import annotations

import math
from pathlib import Path


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
