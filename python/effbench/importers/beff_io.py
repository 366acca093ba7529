"""Importer for b_eff_io output: the protocol (`.prot`, one line per pattern) and the summary
(`.sum`, one table per partition), as b_eff_io 2.1 and effbench's `beff_io` component print
them, into the records effbench's `beff_io` component writes (docs/beff-io.md): `level`
"pattern" rows per pattern, `level` "type" rows per pattern type, one `summary`."""

from __future__ import annotations

import re
from pathlib import Path

from ..components import (BEFF_IO_ACCESS, BEFF_IO_PATTERN2, BEFF_IO_TABLE_PATTERNS,
                          BEFF_IO_TYPE_LABELS, BEFF_IO_TYPES)
from .logtext import read_each_line
from ..records import (SCHEMA, FormatError, ParsedRun, ctime_to_iso, new_end, new_result,
                       new_run)

MIB = 1 << 20
REVISION = re.compile(r"b_eff_io\.c, Revision (\S+)")
EFFBENCH = re.compile(r"^b_eff_io \(effbench (\S+)\)")
MEMORY = re.compile(r"^MEMORY_PER_PROCESSOR\s*=\s*(\d+)\s*MBytes")
M_PART = re.compile(r"^Maximum chunk size\s*=\s*([\d.]+)\s*MBytes")
PARTITIONS = re.compile(r"^-N\s+([\d,\s]+?)\s+T=(\d+(?:\.\d+)?)")
PATH = re.compile(r"^PATH=([^,]*),")
SYSFIELD = re.compile(r"^\s*(system name|hostname|OS release|OS version|machine)\s*:\s?(.*)$")
DATE = re.compile(r"^Date of measurement:\s*(.*)$")
# The pattern time t is the sum of four parts: I/O calls, then b_eff_io 2.1's barrier and
# broadcast after every call (its termination check) or effbench's termination checks and
# barriers, then the file sync; 2.1 adds two times of the last call, effbench the checks b=.
PROT_ROW = re.compile(
    r"^n=\s*(?P<n>\d+)\s+a=\s*(?P<a>\d+)\s+type=\s*(?P<type>\d+)\s+p=\s*(?P<p>\d+)\s+"
    r"Tp=\s*(?P<Tp>[\d.]+)\s+l=\s*(?P<l>\d+)\s+L=\s*(?P<L>\d+)\s+(?P<file>\S+)\s+"
    r"r=\s*(?P<r>\d+)\s+S=\s*(?P<S>[\d.]+)\s*MB\s+t=\s*(?P<t>[\d.]+)\s*=\s*(?P<c0>[\d.]+)\+"
    r"\s*(?P<c1>[\d.]+)\+\s*(?P<c2>[\d.]+)\+\s*(?P<c3>[\d.]+)(?:\s+[\d.]+\s+[\d.]+)?"
    r"(?:\s+b=\s*(?P<b>\d+))?\s+bw=\s*(?P<bw>[\d.]+)\s*MB/s\s*$")
TOTAL_TYPE = re.compile(
    r"^\s*total pattern type:\s*S=\s*(?P<S>[\d.]+)\s*MB\s+t=\s*(?P<t>[\d.]+)\s+"
    r"t_op=\s*(?P<op>[\d.]+)\s+t_cl=\s*(?P<cl>[\d.]+).*b_eff_io_(?P<access>write|rewrite|read)_"
    r"(?P<label>\w+)=\s*(?P<bw>[\d.]+)\s*MB/s(?:\s+Lseg=\s*(?P<lseg>\d+)\s*MBytes)?")
TOTAL_ACCESS = re.compile(r"^\s*total access method:.*b_eff_io_(write|rewrite|read)=\s*([\d.]+)")
WEIGHTED = re.compile(r"^weighted average bandwidth for (write|rewrite|read)\s*:\s*([\d.]+)"
                      r"\s*MB/s on (\d+) processes")
TOTAL_PARTITION = re.compile(r"^\s*total partition:\s*n=\s*(\d+).*b_eff_io=\s*([\d.]+)")
PARTITION_BEFF = re.compile(r"^b_eff_io of these measurements =\s*([\d.]+)\s*MB/s on (\d+)")
PARTITION_REL21 = re.compile(r"^b_eff_io by release 2\.1's formula sqrt\(W\*R\) =\s*([\d.]+)")
FINAL_REL21 = re.compile(r"^\s*b_eff_io \(release 2\.1 formula sqrt\(W\*R\)\) =\s*([\d.]+)")
EXECUTION = re.compile(r"^\s*total execution time is\s*([\d.]+)\s*sec")
SUM_HEAD = re.compile(r"^Summary of file I/O bandwidth accumulated on\s+(\d+) processes")
SUM_ROW = re.compile(r"^\s*(\d+)\s+PEs\s+(\d+)\s+(\d+)\s+(write|rewrite|read)\s+(.*)$")
SUM_TOTAL = re.compile(r"^\s*(\d+)\s+PEs\s+total-(write|rewrite|read)\s+(.*)$")
PAT2_HEAD = re.compile(r"except pattern 2 \(scatter, l=(\d+)MBytes, L=(\d+)MBytes\)")
PAT2 = re.compile(r"^\s*bw_pat2=\s*([\d.]+)\s*MB/s write,\s*([\d.]+)\s*MB/s rewrite,"
                  r"\s*([\d.]+)\s*MB/s read")
CRITERION = re.compile(r"^\s*criterion \d+:\s*(.*?)\s*--\s*(NOT reached|reached)")
ERRORS = re.compile(r"error count \((\d+)\)")
FINAL = re.compile(r"^\s*b_eff_io =\s*([\d.]+)\s*MB/s on (\d+) processes with\s*(\d+)\s*MByte/PE,"
                   r"\s*scheduled time=([\d.]+)\s*Min(.*)$")


def _access(path, lineno, index: int) -> str:
    if not 0 <= index < len(BEFF_IO_ACCESS):
        raise FormatError(path, lineno, f"access method a={index} (0..2 expected)")
    return BEFF_IO_ACCESS[index]


def _pattern(n, access, ptype, pattern, chunk, **fields):
    """A `level: "pattern"` row; bytes = the chunk size on disk, as effbench writes it."""
    return new_result("beff_io", BEFF_IO_TYPES[ptype], n, chunk, level="pattern",
                      access=access, pattern_type=ptype, pattern=pattern,
                      chunk_disk_bytes=chunk, **fields)


def _type_total(n, access, ptype, **fields):
    """A `level: "type"` row: a type's total has no chunk size (bytes 0) and no repetitions."""
    return new_result("beff_io", BEFF_IO_TYPES[ptype], n, 0, level="type", access=access,
                      pattern_type=ptype, **fields)


class _Output:
    """What b_eff_io's output has said so far, read line by line: the setup, the protocol's
    pattern lines and totals, the summary tables and the final figures."""

    def __init__(self, path: Path):
        self.path = path
        self.tool = self.version = self.memory = self.m_part = self.date = None
        self.elapsed = self.final = None
        self.options: dict = {}
        self.uname: dict[str, str] = {}
        self.protocol, self.table = [], []  # rows from protocol lines / from the summary tables
        self.type_rows: list[dict] = []  # the protocol's rows of the type being read
        self.partitions: dict[int, dict] = {}
        self.invalid: list[str] = []
        self.errors: dict[int, int] = {}
        self.table_n = self.rel21_n = None
        self.pat2 = (MIB, 2 * MIB)

    def partition(self, n: int) -> dict:
        return self.partitions.setdefault(n, {"procs": n})

    def read(self, lineno: int, line: str) -> None:
        """One line; FormatError for a line that looks like output but does not hold."""
        (self._setup(line) or self._protocol_line(lineno, line) or self._totals(line)
         or self._summary_table(lineno, line) or self._final_lines(line))

    def _setup(self, line: str) -> bool:
        if self.tool is None and (m := REVISION.search(line)):
            self.tool, self.version = "b_eff_io", m.group(1)
            if (m := EFFBENCH.match(line)):
                self.tool, self.version = "effbench", m.group(1)
        elif (m := MEMORY.match(line)):
            self.memory = int(m.group(1))
        elif (m := M_PART.match(line)):
            self.m_part = round(float(m.group(1)) * MIB)
        elif (m := PARTITIONS.match(line)):
            self.options["partitions"] = [int(t) for t in
                                          m.group(1).replace(",", " ").split()]
            self.options["T_s"] = float(m.group(2))
        elif (m := PATH.match(line)):
            self.options["path"] = m.group(1)
        elif (m := SYSFIELD.match(line)):
            self.uname[m.group(1)] = m.group(2).strip()
        elif (m := DATE.match(line)):
            self.date = m.group(1).strip()
        else:
            return False
        return True

    def _protocol_line(self, lineno: int, line: str) -> bool:
        """A pattern line (n= ...) or a pattern type's total of the protocol."""
        path = self.path
        if line.startswith("n="):
            m = PROT_ROW.match(line)
            if not m:
                raise FormatError(path, lineno, "pattern line does not have the protocol's "
                                  "fields (n= a= type= p= Tp= l= L= r= S= t= bw=)")
            n, ptype, reps, call = int(m["n"]), int(m["type"]), int(m["r"]), int(m["L"])
            if not 0 <= ptype < len(BEFF_IO_TYPES):
                raise FormatError(path, lineno, f"pattern type {ptype} (0..4 expected)")
            # S is r x L x n printed in 10^6 bytes: the exact count where it agrees.
            moved = reps * call * n
            if abs(moved / 1e6 - float(m["S"])) > 0.0005 + 1e-9:
                moved = round(float(m["S"]) * 1e6)
            check = float(m["c1"]) if m["b"] is not None else float(m["c1"]) + float(m["c2"])
            rec = _pattern(n, _access(path, lineno, int(m["a"])), ptype, int(m["p"]),
                           int(m["l"]), repetitions=reps, chunk_mem_bytes=call,
                           scheduled_s=float(m["Tp"]), moved_bytes=moved,
                           t_us=float(m["t"]) * 1e6, t_io_us=float(m["c0"]) * 1e6,
                           t_check_us=check * 1e6, t_sync_us=float(m["c3"]) * 1e6,
                           mb_per_s=float(m["bw"]), file=m["file"])
            if m["b"] is not None:
                rec["batches"] = int(m["b"])
            self.protocol.append(rec)
            self.type_rows.append(rec)
        elif (m := TOTAL_TYPE.match(line)):
            type_rows = self.type_rows
            if not type_rows:
                raise FormatError(path, lineno, "pattern-type total before any pattern line")
            if m["label"] not in BEFF_IO_TYPE_LABELS:
                raise FormatError(path, lineno, f"unknown pattern type '{m['label']}'")
            first = type_rows[0]
            rec = _type_total(first["procs"], m["access"], BEFF_IO_TYPE_LABELS[m["label"]],
                              moved_bytes=sum(r["moved_bytes"] for r in type_rows),
                              t_us=float(m["t"]) * 1e6, t_open_us=float(m["op"]) * 1e6,
                              t_close_us=float(m["cl"]) * 1e6, mb_per_s=float(m["bw"]),
                              file=first["file"])
            if m["lseg"] is not None:  # types 3 and 4: the segment of each process, MiB
                for r in (*type_rows, rec):
                    r["segment_bytes"] = int(m["lseg"]) * MIB
                self.partition(first["procs"])["segment_bytes"] = int(m["lseg"]) * MIB
            self.protocol.append(rec)
            self.type_rows = []
        else:
            return False
        return True

    def _totals(self, line: str) -> bool:
        """A partition's figures: per access method, b_eff_io, the 2.1 formula, the time."""
        if (m := TOTAL_ACCESS.match(line)) and self.protocol:
            self.partition(self.protocol[-1]["procs"])[f"{m.group(1)}_mb_per_s"] = \
                float(m.group(2))
        elif (m := WEIGHTED.match(line)):
            self.partition(int(m.group(3)))[f"{m.group(1)}_mb_per_s"] = float(m.group(2))
        elif (m := TOTAL_PARTITION.match(line)) or (m := PARTITION_BEFF.match(line)):
            n, value = ((int(m.group(1)), float(m.group(2))) if m.re is TOTAL_PARTITION
                        else (int(m.group(2)), float(m.group(1))))
            # b_eff_io 2.1's partition value is the sqrt(W*R) formula; effbench's is the
            # paper's weighting and prints the 2.1 formula on its own line.
            self.partition(n)["b_eff_io_rel21_mb_per_s" if self.tool == "b_eff_io"
                              else "b_eff_io_mb_per_s"] = value
            self.rel21_n = n
        elif (m := PARTITION_REL21.match(line)) and self.rel21_n is not None:
            self.partition(self.rel21_n)["b_eff_io_rel21_mb_per_s"] = float(m.group(1))
        elif (m := EXECUTION.match(line)):
            self.elapsed = float(m.group(1))
        else:
            return False
        return True

    def _summary_table(self, lineno: int, line: str) -> bool:
        """The summary file's tables: one per partition, rows by chunk and access method."""
        path, table = self.path, self.table
        if (m := SUM_HEAD.match(line)):
            self.table_n = int(m.group(1))
        elif (m := PAT2_HEAD.search(line)):
            self.pat2 = (int(m.group(1)) * MIB, int(m.group(2)) * MIB)
        elif (m := SUM_ROW.match(line)):
            n, pos, chunk, access = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
            cells = m.group(5).split()
            if len(cells) != len(BEFF_IO_TYPES):
                raise FormatError(path, lineno, f"expected 5 type columns, found {len(cells)}")
            if not 1 <= pos <= 7:
                raise FormatError(path, lineno, f"table row {pos} (1..7 expected)")
            for ptype, cell in enumerate(cells):
                if cell != "-":
                    table.append(_pattern(n, access, ptype,
                                          BEFF_IO_TABLE_PATTERNS[ptype][pos - 1], chunk,
                                          mb_per_s=_float(path, lineno, cell)))
        elif (m := SUM_TOTAL.match(line)):
            for ptype, cell in enumerate(m.group(3).split()):
                if cell != "-":
                    table.append(_type_total(int(m.group(1)), m.group(2), ptype,
                                             mb_per_s=_float(path, lineno, cell)))
        elif (m := PAT2.match(line)) and self.table_n is not None:
            for access, cell in zip(BEFF_IO_ACCESS, m.groups()):
                table.append(_pattern(self.table_n, access, 0, BEFF_IO_PATTERN2, self.pat2[0],
                                      chunk_mem_bytes=self.pat2[1], mb_per_s=float(cell)))
        else:
            return False
        return True

    def _final_lines(self, line: str) -> bool:
        """The validity criteria and the final b_eff_io figures."""
        if (m := CRITERION.match(line)):
            if m.group(2) == "NOT reached" and m.group(1) not in self.invalid:
                self.invalid.append(m.group(1))
            if (e := ERRORS.search(m.group(1))) and self.table_n is not None:
                self.errors[self.table_n] = int(e.group(1))
        elif (m := FINAL_REL21.match(line)):
            self.final = self.final or {}
            self.final["b_eff_io_rel21_mb_per_s"] = float(m.group(1))
        elif (m := FINAL.match(line)):
            final = self.final = self.final or {}
            final.update({"b_eff_io_mb_per_s": float(m.group(1)), "procs": int(m.group(2)),
                          "mem_per_proc_mib": int(m.group(3)),
                          "T_partition_s": float(m.group(4)) * 60,
                          "valid": "NOT VALID" not in m.group(5)})
            if self.tool == "b_eff_io":  # 2.1's b_eff_io is its sqrt(W*R) formula
                final["b_eff_io_rel21_mb_per_s"] = final.pop("b_eff_io_mb_per_s")
        else:
            return False
        return True

    def parsed(self, results: list[dict], skipped: int) -> ParsedRun:
        """The run of RESULTS with what the output said around them."""
        rewrite_types = {r["pattern_type"] for r in results if r["access"] == "rewrite"}
        rewrite_type0_only = rewrite_types == {0} if rewrite_types else None
        summaries = []
        final, errors, options, uname = self.final, self.errors, self.options, self.uname
        if final is not None or self.partitions:
            for n, e in errors.items():
                self.partition(n)["errors"] = e
            summary = {"type": "summary", "schema": SCHEMA, "component": "beff_io",
                       "b_eff_io_mb_per_s": None, "b_eff_io_rel21_mb_per_s": None,
                       "mem_per_proc_mib": self.memory, "T_s": options.get("T_s"),
                       "rewrite_type0_only": rewrite_type0_only,
                       "errors": sum(errors.values()) if errors else None,
                       "invalid_reason": "; ".join(self.invalid) or None,
                       "elapsed_s": self.elapsed, **(final or {}),
                       "partitions": [self.partitions[n] for n in sorted(self.partitions)]}
            summaries.append(summary)
        run = new_run("beff_io", self.tool, max(r["procs"] for r in results),
                      version=self.version, start=ctime_to_iso(self.date),
                      uname={"sysname": uname.get("system name"),
                             "nodename": uname.get("hostname"),
                             "release": uname.get("OS release"),
                             "version": uname.get("OS version"),
                             "machine": uname.get("machine")},
                      options={**options, "mem_per_proc_mib": self.memory,
                               "m_part_bytes": self.m_part,
                               "rewrite_type0_only": rewrite_type0_only})
        return ParsedRun(run=run, results=results, summaries=summaries,
                         end=new_end("ok", elapsed_s=self.elapsed) if final is not None
                         else None,
                         source=str(self.path), source_format="beff_io", skipped_lines=skipped)


def parse_beff_io(path: str | Path) -> ParsedRun:
    path = Path(path)
    output = _Output(path)
    lines, skipped = read_each_line(path, output)
    if output.tool is None:
        raise FormatError(path, 1, "no 'b_eff_io.c, Revision' line: not b_eff_io output")
    # effbench prints the protocol and the tables in one file: the protocol has more digits.
    results = output.protocol or output.table
    if not results:
        raise FormatError(path, len(lines), "no pattern lines and no summary table")
    return output.parsed(results, skipped)


def _float(path, lineno, cell: str) -> float:
    try:
        return float(cell)
    except ValueError:
        raise FormatError(path, lineno, f"not a number: {cell!r}") from None
