"""Importer for IMB-P2P's text (IMB 2021.11's `IMB-P2P`, and effbench's, which prints the same;
docs/imb-p2p.md): one `result` per table row, in the records effbench's `--json` writes
(docs/json-lines.md, "IMB-P2P records") as far as the text holds them."""

from __future__ import annotations

import re
from pathlib import Path

from ..component_names import P2P
from ..records import FormatError, ParsedRun, ctime_to_iso, new_end, new_result, new_run
from .logtext import is_number, read_log

COMPONENT = P2P
BANNER = re.compile(r"Intel\(R\) MPI Benchmarks (?P<version>\S+), IMB-P2P part")
HEADER_FIELD = re.compile(r"^# (Date|Machine|System|Release|Version|MPI Version|"
                          r"MPI Thread Environment)\s*:\s?(.*)$")
BENCHMARKING = re.compile(r"^# Benchmarking (\S+)(?: \((\d+(?: x \d+)*)\))?\s*$")
PROCESSES = re.compile(r"^# #processes = (\d+)\s*$")
COLUMNS = ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec"]


class _Output:
    def __init__(self, path: Path):
        self.path = path
        self.version = None
        self.header: dict[str, str] = {}
        self.command_line: list[str] | None = None
        self.in_calling = False
        self.bench = self.grid = self.procs = None
        self.check = False
        self.columns: list[str] | None = None
        self.results: list[dict] = []
        self.result_lines: list[int] = []
        self.skipped = 0
        self.finalized = False

    def read(self, lineno: int, line: str) -> None:
        if self.version is None:
            m = BANNER.search(line)
            if m:
                self.version = m.group("version")
            elif line.strip() and not line.startswith("#"):
                self.skipped += 1  # a message before the header
            return
        if self.bench is None and self._header(line):
            return
        self._table(lineno, line)

    def _header(self, line: str) -> bool:
        if (m := HEADER_FIELD.match(line)):
            self.header[m.group(1)] = m.group(2).strip()
        elif line.startswith("# Calling sequence was:"):
            self.in_calling = True
        elif self.in_calling and re.match(r"^# \S", line):
            self.command_line = line[2:].split()
            self.in_calling = False
        elif line.startswith("# CHECK: -check is on"):
            self.check = True
        else:
            return False
        return True

    def _table(self, lineno: int, line: str) -> None:
        if (m := BENCHMARKING.match(line)):
            self.bench, self.procs, self.columns = m.group(1), None, None
            self.grid = [int(x) for x in m.group(2).split(" x ")] if m.group(2) else None
        elif (m := PROCESSES.match(line)):
            self.procs = int(m.group(1))
        elif line.split() in (COLUMNS, COLUMNS + ["defects"]):
            if self.bench is None or self.procs is None:
                raise FormatError(self.path, lineno, "table heading without '# Benchmarking' "
                                  "and '# #processes' lines")
            self.columns = line.split()
        elif "All processes entering MPI_Finalize" in line:
            self.finalized = True
        elif line.startswith("#") or not line.strip():
            return
        elif self.columns and len(line.split()) == len(self.columns) \
                and all(is_number(t) for t in line.split()):
            self._row(lineno, [float(t) for t in line.split()])
        else:
            self.skipped += 1  # a message in the log, not a row

    def _row(self, lineno: int, values: list[float]) -> None:
        nbytes, reps = values[0], values[1]
        if nbytes != int(nbytes) or reps != int(reps) or nbytes < 0 or reps < 1:
            raise FormatError(self.path, lineno, "#bytes and #repetitions must be whole numbers")
        rec = new_result(COMPONENT, self.bench, self.procs, int(nbytes), repetitions=int(reps),
                         t_avg_us=values[2], methodology=self.methodology(),
                         t_usec=values[2], mb_per_s=values[3], messages_per_s=values[4],
                         checked=len(values) == 6)
        if len(values) == 6:
            rec["defects"] = int(values[5])
        if self.grid:
            rec["grid"] = self.grid
            rec["neighbours"] = 2 * len(self.grid)
        self.results.append(rec)
        self.result_lines.append(lineno)

    def methodology(self) -> str:
        return "imb-p2p-" + self.version

    def parsed(self) -> ParsedRun:
        h = self.header
        uname = {"sysname": h.get("System"), "nodename": None, "release": h.get("Release"),
                 "version": h.get("Version"), "machine": h.get("Machine")}
        run = new_run(COMPONENT, "IMB", max(r["procs"] for r in self.results),
                      version=self.version, start=ctime_to_iso(h.get("Date", "")),
                      uname=uname, mpi_version=h.get("MPI Version") or None,
                      thread_level=h.get("MPI Thread Environment") or None,
                      command_line=self.command_line, check=self.check,
                      options={"program": "IMB-P2P", "methodology": self.methodology()},
                      methodology=self.methodology())
        return ParsedRun(run=run, results=self.results,
                         end=new_end("ok") if self.finalized else None, source=str(self.path),
                         source_format="imb_p2p", skipped_lines=self.skipped,
                         result_lines=self.result_lines)


def parse_imb_p2p_text(path: str | Path) -> ParsedRun:
    path = Path(path)
    lines, whole = read_log(path)
    out = _Output(path)
    out.skipped = 0 if whole else 1
    for lineno, raw in enumerate(lines, start=1):
        out.read(lineno, raw.rstrip())
    if out.version is None:
        raise FormatError(path, 1, "no IMB-P2P banner ('Intel(R) MPI Benchmarks ..., IMB-P2P "
                          "part')")
    if not out.results:
        raise FormatError(path, len(lines), "no benchmark table found")
    return out.parsed()
