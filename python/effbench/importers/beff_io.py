"""Importer for b_eff_io output: the protocol (`.prot`, one line per pattern) and the summary
(`.sum`, one table per partition), as b_eff_io 2.x and effbench's `beff_io` component print
them."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from ..records import SCHEMA, FormatError, ParsedRun, new_end, new_result, new_run

ACCESS = ("write", "rewrite", "read")
TYPES = ("scatter", "shared", "separated", "segmented", "seg_coll")
REVISION = re.compile(r"^b_eff_io\.c, Revision (\S+)")
MEMORY = re.compile(r"^MEMORY_PER_PROCESSOR\s*=\s*(\d+)\s*MBytes")
SYSFIELD = re.compile(r"^\s*(system name|hostname|OS release|OS version|machine)\s*:\s?(.*)$")
DATE = re.compile(r"^Date of measurement:\s*(.*)$")
PROT_ROW = re.compile(
    r"^n=\s*(?P<n>\d+)\s+a=\s*(?P<a>\d+)\s+type=\s*(?P<type>\d+)\s+p=\s*(?P<p>\d+)\s+"
    r"Tp=\s*(?P<Tp>[\d.]+)\s+l=\s*(?P<l>\d+)\s+L=\s*(?P<L>\d+)\s+(?P<file>\S+)\s+"
    r"r=\s*(?P<r>\d+)\s+S=\s*(?P<S>[\d.]+)\s*MB\s+t=\s*(?P<t>[\d.]+)\s.*"
    r"bw=\s*(?P<bw>[\d.]+)\s*MB/s\s*$")
TOTAL_TYPE = re.compile(r"^\s*total pattern type:.*b_eff_io_(write|rewrite|read)_(\w+)=\s*([\d.]+)")
TOTAL_ACCESS = re.compile(r"^\s*total access method:.*b_eff_io_(write|rewrite|read)=\s*([\d.]+)")
TOTAL_PARTITION = re.compile(r"^\s*total partition:\s*n=\s*(\d+).*b_eff_io=\s*([\d.]+)")
SUM_ROW = re.compile(r"^\s*(\d+)\s+PEs\s+(\d+)\s+(\d+)\s+(write|rewrite|read)\s+(.*)$")
SUM_TOTAL = re.compile(r"^\s*(\d+)\s+PEs\s+total-(write|rewrite|read)\s+(.*)$")
WEIGHTED = re.compile(r"^weighted average bandwidth for (write|rewrite|read)\s*:\s*([\d.]+)"
                      r"\s*MB/s on (\d+) processes")
PARTITION_BEFF = re.compile(r"^b_eff_io of these measurements =\s*([\d.]+)\s*MB/s on (\d+)")
FINAL = re.compile(r"^\s*b_eff_io =\s*([\d.]+)\s*MB/s on (\d+) processes with\s*(\d+)\s*MByte/PE,"
                   r"\s*scheduled time=([\d.]+)\s*Min(.*)$")


def _access(path, lineno, index: int) -> str:
    if not 0 <= index < len(ACCESS):
        raise FormatError(path, lineno, f"access method a={index} (0..2 expected)")
    return ACCESS[index]


def parse_beff_io(path: str | Path) -> ParsedRun:
    path = Path(path)
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    version = memory = date = None
    uname: dict[str, str] = {}
    results = []
    summaries = []
    final: dict | None = None
    last_n = None
    invalid_reasons: list[str] = []

    def summary(**fields):
        summaries.append({"type": "summary", "schema": SCHEMA, "component": "beff_io",
                          **fields})

    for lineno, line in enumerate(lines, start=1):
        if (m := REVISION.match(line)):
            version = m.group(1)
        elif (m := MEMORY.match(line)):
            memory = int(m.group(1))
        elif (m := SYSFIELD.match(line)):
            uname[m.group(1)] = m.group(2).strip()
        elif (m := DATE.match(line)):
            date = m.group(1).strip()
        elif line.startswith("n="):
            m = PROT_ROW.match(line)
            if not m:
                raise FormatError(path, lineno, "pattern line does not have the protocol's "
                                  "fields (n= a= type= p= Tp= l= L= r= S= t= bw=)")
            last_n = int(m["n"])
            ptype = int(m["type"])
            if not 0 <= ptype < len(TYPES):
                raise FormatError(path, lineno, f"pattern type {ptype} (0..4 expected)")
            rec = new_result("beff_io", "b_eff_io", last_n, int(m["l"]),
                             repetitions=int(m["r"]),
                             access=_access(path, lineno, int(m["a"])), pattern_type=ptype,
                             pattern_index=int(m["p"]), call_bytes=int(m["L"]),
                             scheduled_time_s=float(m["Tp"]), transferred_mb=float(m["S"]),
                             time_s=float(m["t"]))
            rec["bandwidth_mb_s"] = float(m["bw"])
            results.append(rec)
        elif (m := TOTAL_TYPE.match(line)):
            if last_n is None:
                raise FormatError(path, lineno, "pattern-type total before any pattern line")
            if m.group(2) not in TYPES:
                raise FormatError(path, lineno, f"unknown pattern type '{m.group(2)}'")
            summary(procs=last_n, access=m.group(1), pattern_type=TYPES.index(m.group(2)),
                    type_name=m.group(2), bandwidth_mb_s=float(m.group(3)))
        elif (m := TOTAL_ACCESS.match(line)):
            summary(procs=last_n, access=m.group(1), bandwidth_mb_s=float(m.group(2)))
        elif (m := TOTAL_PARTITION.match(line)):
            summary(procs=int(m.group(1)), b_eff_io_mb_s=float(m.group(2)))
        elif (m := SUM_ROW.match(line)):
            n, pos, chunk, access = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
            cells = m.group(5).split()
            if len(cells) != 5:
                raise FormatError(path, lineno, f"expected 5 type columns, found {len(cells)}")
            for ptype, cell in enumerate(cells):
                if cell == "-":
                    continue
                try:
                    bw = float(cell)
                except ValueError:
                    raise FormatError(path, lineno, f"not a number: {cell!r}") from None
                rec = new_result("beff_io", "b_eff_io", n, chunk, access=access,
                                 pattern_type=ptype, chunk_pos=pos)
                rec["bandwidth_mb_s"] = bw
                results.append(rec)
        elif (m := SUM_TOTAL.match(line)):
            cells = m.group(3).split()
            for ptype, cell in enumerate(cells):
                if cell != "-":
                    summary(procs=int(m.group(1)), access=m.group(2), pattern_type=ptype,
                            type_name=TYPES[ptype], bandwidth_mb_s=float(cell))
        elif (m := WEIGHTED.match(line)):
            summary(procs=int(m.group(3)), access=m.group(1),
                    weighted_bandwidth_mb_s=float(m.group(2)))
        elif (m := PARTITION_BEFF.match(line)):
            summary(procs=int(m.group(2)), b_eff_io_mb_s=float(m.group(1)))
        elif line.strip().startswith("criterion") and "NOT reached" in line:
            invalid_reasons.append(line.strip())
        elif (m := FINAL.match(line)):
            final = {"b_eff_io_mb_s": float(m.group(1)), "procs": int(m.group(2)),
                     "memory_per_process_mib": int(m.group(3)),
                     "scheduled_time_min": float(m.group(4)),
                     "valid": "NOT VALID" not in m.group(5)}

    if version is None:
        raise FormatError(path, 1, "no 'b_eff_io.c, Revision' line: not b_eff_io output")
    if not results:
        raise FormatError(path, len(lines), "no pattern lines and no summary table")
    if final is not None:
        final["invalid_reasons"] = sorted(set(invalid_reasons))
        summary(**final)
    procs = max(r["procs"] for r in results)
    start = None
    if date:
        try:
            start = datetime.strptime(" ".join(date.split()), "%a %b %d %H:%M:%S %Y") \
                .strftime("%Y-%m-%dT%H:%M:%S")
        except ValueError:
            pass
    run = new_run("beff_io", "b_eff_io", procs, version=version, start=start,
                  uname={"sysname": uname.get("system name"), "nodename": uname.get("hostname"),
                         "release": uname.get("OS release"), "version": uname.get("OS version"),
                         "machine": uname.get("machine")},
                  options={"memory_per_process_mib": memory})
    return ParsedRun(run=run, results=results, summaries=summaries,
                     end=new_end("ok") if final is not None else None, source=str(path),
                     source_format="beff_io")
