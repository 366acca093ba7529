"""Importer for the b_eff protocol (b_eff 3.x `.sum`, `.short` and full protocol files, and
effbench's `beff` component, which prints the same sections), into the records effbench's
`beff` component writes (docs/beff.md): `benchmark` = pattern name, `pattern` = its number,
`method` as in JSON, `b_mb_per_s` accumulated over all processes.

The original's tables hold the maxima over the repetitions (`rep` null) per process; they are
multiplied by the process count. effbench's protocol also lists every measurement
(SECTION-MEASUREMENTS): then those become the rows, exactly as the JSON file has them."""

from __future__ import annotations

import re
from pathlib import Path

from ..components import (BEFF_BEST, BEFF_LOGAVG, BEFF_LOGAVG_RANDOM, BEFF_LOGAVG_RINGS,
                          BEFF_METHODS, beff_row)
from .logtext import read_each_line
from ..records import (SCHEMA, FormatError, ParsedRun, ctime_to_iso, new_end, new_result,
                       new_run)

REVISION = re.compile(r"^b_eff\.c, Revision (\S+)")
EFFBENCH = re.compile(r"^effbench (\S+) b_eff\b")
MEMORY = re.compile(r"^MEMORY_PER_PROCESSOR\s*=\s*(\d+)\s*MBytes")
MSGLNG = re.compile(r"^msglng=\s*(.*)$")
METHODS = re.compile(r"^Used methods:\s*(.*)$")
KIND_RANGE = re.compile(r"^\s*(\d+)(?:-(\d+))?\s+used for (ring|random) pattern average")
FINAL = re.compile(r"^b_eff\s*=\s*([\d.]+)\s*MB/s\s*=\s*([\d.]+)\s*\*\s*(\d+)\s*PEs with\s*"
                   r"(\d+)\s*MB/PE on (.*)$")
SYSFIELD = re.compile(r"^\s*(system name|hostname|OS release|OS version|machine)\s*:\s?(.*)$")
DATE = re.compile(r"^Date of measurement:\s*(.*)$")
WALL = re.compile(r"^Total execution wall clock time\s*=\s*([\d.]+)\s*seconds")
ELAPSED = {"elapsed_s": re.compile(r"^measur\w* loop: elapsed time\s*=\s*([\d.]+)\s*sec"),
           "timed_loops_s": re.compile(r"^\s*sum of max elapsed time per entries above\s*=\s*"
                                       r"([\d.]+)\s*sec")}
ACCUMULATED = re.compile(r"^accumulated\s*\|\s*(.*)$")
MEASUREMENT = re.compile(r"^\s*p(\d+)\s+(\S.*?)\s+(\d+)=(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(.*)$")
PATTERN_ROW = re.compile(r"^\s*p(\d+)\s+(.*?)\s*:\(\s*([\d.]+|-+)\)\s+(.*?)\s*->\s*([\d.]+)\s*->"
                         r"\s*([\d.]+)\s*MByte/s")
METHOD_ROW = re.compile(r"^\s*p(\d+)\s+method\s+(\d+)\s*=\s*(\S+)\s*:\(\s*([\d.]+|-+)\)\s+(.*?)"
                        r"\s*->\s*([\d.]+)\s*->\s*([\d.]+)\s*MByte/s")
PATTERN_NAME = re.compile(r"^\s*p(\d+)\s+(\S.*?)\s*$")
LENGTHS_HEAD = re.compile(r"^\s*pattern\s*(?:&\s*method)?\s*/\s*msg(?:-length)?:\s*(.*?)\s*->")
GROUP_AVERAGE = re.compile(r"^\s*log_avg of all (rings|random)\s*:.*->\s*([\d.]+)\s*MByte/s")
# SECTION-BEFF lines with more digits than the summary table (accumulated values). The 3.6
# line "Latency ring pattern" is the table's value divided by the process count, so the
# table's "rings only" latency (1 / per-process bandwidth at 1 byte, as effbench) is used.
BEFF_DETAIL = {
    "latency_us": re.compile(r"^Latency:\s*([\d.]+)\s*microsec"),
    "b_eff_lmax_mb_per_s": re.compile(r"^b_eff at Lmax:\s*([\d.]+)\s*MByte/s"),
    "b_eff_lmax_rings_mb_per_s": re.compile(r"^b_eff at Lmax \(ring pattern\):\s*([\d.]+)"),
    "pingpong_latency_us": re.compile(r"^Ping-pong latency:\s*([\d.]+)"),
    "pingpong_bw_mb_per_s": re.compile(r"^Ping-pong bandwidth at Lmax:\s*([\d.]+)"),
}
PER_PROC_DETAIL = re.compile(r"^\(\s*:\s*([\d.]+)\s*MByte/s")  # the line after "at Lmax"
PER_PROC_OF = {"b_eff_lmax_mb_per_s": "b_eff_lmax_per_proc_mb_per_s",
               "b_eff_lmax_rings_mb_per_s": "b_eff_lmax_rings_per_proc_mb_per_s"}
# The summary table's accumulated row: processes, b_eff, "Lmax MB" (2 tokens), then these.
TABLE_FIELDS = ("b_eff_lmax_mb_per_s", "b_eff_lmax_rings_mb_per_s", "latency_us",
                "latency_rings_us", "pingpong_latency_us", "pingpong_bw_mb_per_s")
# SECTION-BY-MSGLNG columns 3-5 (per process, best method) and 6.. (per method).
MSGLNG_AVERAGES = (BEFF_LOGAVG, BEFF_LOGAVG_RINGS, BEFF_LOGAVG_RANDOM)


def _num(path, lineno, tok):
    """A printed number; `-` (effbench prints it for what does not exist) is None."""
    if tok.strip("-") == "":
        return None
    try:
        return float(tok)
    except ValueError:
        raise FormatError(path, lineno, f"not a number: {tok!r}") from None


SECTION = re.compile(r"^SECTION-(\S+)-(BEGIN|END)\s*$")


class _Protocol:
    """What a b_eff protocol has said so far, read line by line: the header lines (anywhere)
    and the sections (SECTION-X-BEGIN ... SECTION-X-END) with their tables."""

    def __init__(self, path: Path):
        self.path = path
        self.tool = self.version = self.memory = self.date = self.wall = None
        self.msglng: list[int] = []
        self.methods: list[str] = []  # JSON names by method number
        self.kinds: dict[int, str] = {}  # pattern number -> "ring" / "random" (else "analysis")
        self.uname: dict[str, str] = {}
        self.summary: dict = {}
        self.section = None
        self.lengths: list[int] = []
        self.names: dict[int, str] = {}
        self.table_rows = []  # (pattern or None, name or None, method, bytes, per-process MB/s)
        self.measured = []  # SECTION-MEASUREMENTS rows (effbench), complete records
        self.per_proc_key = None
        self.procs = None

    def method_name(self, lineno: int, label: str) -> str:
        if label not in BEFF_METHODS:
            raise FormatError(self.path, lineno, f"unknown method '{label}'")
        return BEFF_METHODS[label]

    def num(self, lineno: int, tok: str) -> float | None:
        return _num(self.path, lineno, tok)

    def read(self, lineno: int, line: str) -> None:
        """One line; FormatError for a line that looks like protocol but does not hold."""
        if (m := REVISION.match(line)) or (m := EFFBENCH.match(line)):
            self.tool, self.version = ("b_eff" if m.re is REVISION else "effbench"), m.group(1)
            return
        if (m := SECTION.match(line)):
            self.section = m.group(1) if m.group(2) == "BEGIN" else None
            self.lengths = []
            return
        if self._header(lineno, line):
            return
        section = self.section
        if section == "ELAPSED":
            for key, rx in ELAPSED.items():
                if (m := rx.match(line)):
                    self.summary[key] = float(m.group(1))
        elif section == "BEFF":
            self._beff_detail(line)
        elif section == "MEASUREMENTS":
            self._measurement(lineno, line)
        elif section in ("BY-PATTERN-MSGLNG", "BY-MTHD-MSGLNG"):
            self._by_pattern(lineno, line)
        elif section == "BY-MSGLNG":
            self._by_length(lineno, line)

    def _header(self, lineno: int, line: str) -> bool:
        """The lines that say the same wherever they stand: parameters, system, results."""
        summary = self.summary
        if (m := MEMORY.match(line)):
            self.memory = int(m.group(1))
        elif (m := MSGLNG.match(line)):
            self.msglng = [int(self.num(lineno, t)) for t in m.group(1).split()]
        elif (m := METHODS.match(line)):
            self.methods = [self.method_name(lineno, label.split("=", 1)[1])
                            for label in m.group(1).split()]
        elif (m := KIND_RANGE.match(line)):
            first = int(m.group(1))
            for p in range(first, int(m.group(2) or first) + 1):
                self.kinds[p] = m.group(3)
        elif (m := SYSFIELD.match(line)):
            self.uname[m.group(1)] = m.group(2).strip()
        elif (m := DATE.match(line)):
            self.date = m.group(1).strip()
        elif (m := WALL.match(line)):
            self.wall = float(m.group(1))
        elif (m := FINAL.match(line)):
            summary["b_eff_mb_per_s"] = float(m.group(1))
            summary["b_eff_per_proc_mb_per_s"] = float(m.group(2))
            self.procs = int(m.group(3))
            summary["mem_per_proc_mb"] = int(m.group(4))
            summary["line"] = line.strip()
        elif (m := ACCUMULATED.match(line)) and self.section in (None, "BEFF"):
            tok = m.group(1).split()
            if len(tok) != 4 + len(TABLE_FIELDS):
                raise FormatError(self.path, lineno, f"summary row: expected "
                                  f"{4 + len(TABLE_FIELDS)} fields, found {len(tok)}")
            self.procs = int(self.num(lineno, tok[0]))
            summary.setdefault("b_eff_mb_per_s", self.num(lineno, tok[1]))
            for key, tok_ in zip(TABLE_FIELDS, tok[4:]):
                summary.setdefault(key, self.num(lineno, tok_))
        else:
            return False
        return True

    def _beff_detail(self, line: str) -> None:
        text = line.strip()
        # the per-process figure is on the protocol's next line (messages may stand
        # between them in a job log)
        if self.per_proc_key and (m := PER_PROC_DETAIL.match(text)):
            self.summary[self.per_proc_key] = float(m.group(1))
            self.per_proc_key = None
        for key, rx in BEFF_DETAIL.items():
            if (m := rx.match(text)):
                self.summary[key] = float(m.group(1))
                self.per_proc_key = PER_PROC_OF.get(key)

    def _measurement(self, lineno: int, line: str) -> None:
        if not (m := MEASUREMENT.match(line)):
            return
        cols = m.group(8).split()
        if len(cols) != 4:
            raise FormatError(self.path, lineno, f"expected t_min t_avg t_max b, found {cols}")
        t_min, t_avg, t_max, b = (self.num(lineno, t) for t in cols)
        pattern, nbytes = int(m.group(1)), int(m.group(6))
        self.measured.append(new_result(
            "beff", m.group(2), 0, nbytes, repetitions=int(m.group(7)), t_min_us=t_min,
            t_max_us=t_max, t_avg_us=t_avg, pattern=pattern,
            pattern_kind=self.kinds.get(pattern, "analysis"),
            method=self.method_name(lineno, m.group(4)), rep=int(m.group(5)),
            length_index=self.msglng.index(nbytes) if nbytes in self.msglng else None,
            b_mb_per_s=b))

    def _by_pattern(self, lineno: int, line: str) -> None:
        """A row of the tables by pattern (best method) or by pattern and method."""
        section = self.section
        if (m := LENGTHS_HEAD.match(line)):
            self.lengths = [int(self.num(lineno, t)) for t in m.group(1).split()]
            return
        if (m := GROUP_AVERAGE.match(line)):
            self.summary[f"b_eff_{m.group(1)}_mb_per_s"] = float(m.group(2))
            return
        if "log_avg" in line or line.strip().startswith(("-", "*", "accumulated")):
            return  # averages over patterns: the BY-MSGLNG section has them at all L
        m = METHOD_ROW.match(line) if section == "BY-MTHD-MSGLNG" else PATTERN_ROW.match(line)
        if m:
            if not self.lengths:
                raise FormatError(self.path, lineno, "pattern row before the message lengths")
            pattern = int(m.group(1))
            if section == "BY-MTHD-MSGLNG":
                method, values = self.method_name(lineno, m.group(3)), m.group(5).split()
            else:
                self.names[pattern] = m.group(2)
                method, values = BEFF_BEST, m.group(4).split()
            if len(values) != len(self.lengths):
                raise FormatError(self.path, lineno, f"expected {len(self.lengths)} values, "
                                  f"found {len(values)}")
            for nbytes, tok in zip(self.lengths, values):
                self.table_rows.append((pattern, method, nbytes, self.num(lineno, tok)))
        elif section == "BY-MTHD-MSGLNG" and (m := PATTERN_NAME.match(line)):
            self.names[int(m.group(1))] = m.group(2)

    def _by_length(self, lineno: int, line: str) -> None:
        """A row of the table by message length: the averages, then one column per method."""
        tok = line.split()
        if tok and tok[0].isdigit():
            if len(tok) != 5 + len(self.methods):
                raise FormatError(self.path, lineno, f"expected {5 + len(self.methods)} "
                                  f"columns, found {len(tok)}")
            nbytes = int(tok[0])
            for name, val in zip(MSGLNG_AVERAGES, tok[2:5]):
                self.table_rows.append((name, BEFF_BEST, nbytes, self.num(lineno, val)))
            for method, val in zip(self.methods, tok[5:]):
                self.table_rows.append((BEFF_LOGAVG, method, nbytes, self.num(lineno, val)))

    def results(self) -> list[dict]:
        """Every measurement if the protocol lists them, else the tables' rows."""
        procs = self.procs
        if self.measured:
            for rec in self.measured:
                rec["procs"] = procs
            return self.measured
        results = []
        for pattern, method, nbytes, value in self.table_rows:
            if value is None:
                continue
            accumulated = value * procs  # the tables print accumulated / processes
            if isinstance(pattern, str):  # an average over patterns
                results.append(beff_row(pattern, "average", None, method, procs, nbytes,
                                        accumulated))
            else:
                results.append(beff_row(self.names.get(pattern, f"p{pattern:02d}"),
                                        self.kinds.get(pattern, "analysis"), pattern, method,
                                        procs, nbytes, accumulated))
        return results

    def parsed(self, skipped: int) -> ParsedRun:
        msglng, uname, procs = self.msglng, self.uname, self.procs
        results = self.results()
        summary_rec = {"type": "summary", "schema": SCHEMA, "component": "beff",
                       "procs": procs, "l_max_bytes": msglng[-1] if msglng else None,
                       **self.summary}
        run = new_run("beff", self.tool, procs, version=self.version,
                      start=ctime_to_iso(self.date),
                      uname={"sysname": uname.get("system name"),
                             "nodename": uname.get("hostname"),
                             "release": uname.get("OS release"),
                             "version": uname.get("OS version"),
                             "machine": uname.get("machine")},
                      options={"mem_per_proc_mb": self.memory, "lengths": msglng,
                               "l_max_bytes": msglng[-1] if msglng else None,
                               "methods": self.methods,
                               "random_patterns": sum(k == "random"
                                                      for k in self.kinds.values())})
        end = new_end("ok", elapsed_s=self.wall) if "line" in self.summary else None
        return ParsedRun(run=run, results=results, summaries=[summary_rec], end=end,
                         source=str(self.path), source_format="beff", skipped_lines=skipped)


def parse_beff(path: str | Path) -> ParsedRun:
    path = Path(path)
    protocol = _Protocol(path)
    lines, skipped = read_each_line(path, protocol)
    if protocol.tool is None:
        raise FormatError(path, 1, "no 'b_eff.c, Revision' line: not a b_eff protocol")
    if protocol.procs is None:
        raise FormatError(path, len(lines), "no b_eff result (summary table or 'b_eff =' line)")
    return protocol.parsed(skipped)
