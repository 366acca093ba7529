"""Importer for the b_eff protocol (b_eff 3.x `.sum`, `.short` and full protocol files, and
effbench's `beff` component, which prints the same sections)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from ..records import SCHEMA, FormatError, ParsedRun, new_end, new_result, new_run

REVISION = re.compile(r"^b_eff\.c, Revision (\S+)")
MEMORY = re.compile(r"^MEMORY_PER_PROCESSOR\s*=\s*(\d+)\s*MBytes")
MSGLNG = re.compile(r"^msglng=\s*(.*)$")
FINAL = re.compile(r"^b_eff\s*=\s*([\d.]+)\s*MB/s\s*=\s*([\d.]+)\s*\*\s*(\d+)\s*PEs with\s*"
                   r"(\d+)\s*MB/PE on (.*)$")
SYSFIELD = re.compile(r"^\s*(system name|hostname|OS release|OS version|machine)\s*:\s?(.*)$")
DATE = re.compile(r"^Date of measurement:\s*(.*)$")
ACCUMULATED = re.compile(r"^accumulated\s*\|\s*(.*)$")
PATTERN_ROW = re.compile(r"^\s*p(\d+)\s+(.*?)\s*:\(\s*([\d.]+|-+)\)\s+(.*?)\s*->\s*([\d.]+)\s*->"
                         r"\s*([\d.]+)\s*MByte/s")
METHOD_ROW = re.compile(r"^\s*p(\d+)\s+method\s+(\d+)\s*=\s*(\S+)\s*:\(\s*([\d.]+|-+)\)\s+(.*?)"
                        r"\s*->\s*([\d.]+)\s*->\s*([\d.]+)\s*MByte/s")
PATTERN_NAME = re.compile(r"^\s*p(\d+)\s+(\S.*?)\s*$")
LENGTHS_HEAD = re.compile(r"^\s*pattern\s*(?:&\s*method)?\s*/\s*msg(?:-length)?:\s*(.*?)\s*->")
BEFF_DETAIL = {
    "latency_us": re.compile(r"^Latency:\s*([\d.]+)\s*microsec"),
    "b_eff_at_lmax_mb_s": re.compile(r"^b_eff at Lmax:\s*([\d.]+)\s*MByte/s"),
    "b_eff_at_lmax_rings_mb_s": re.compile(r"^b_eff at Lmax \(ring pattern\):\s*([\d.]+)"),
    "latency_rings_us": re.compile(r"^Latency ring pattern:\s*([\d.]+)"),
    "pingpong_latency_us": re.compile(r"^Ping-pong latency:\s*([\d.]+)"),
    "pingpong_bandwidth_mb_s": re.compile(r"^Ping-pong bandwidth at Lmax:\s*([\d.]+)"),
}
MSGLNG_COLUMNS = ("accumulated", "average", "rings", "random")


def _num(path, lineno, tok):
    try:
        return float(tok)
    except ValueError:
        raise FormatError(path, lineno, f"not a number: {tok!r}") from None


def parse_beff(path: str | Path) -> ParsedRun:
    path = Path(path)
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    version = memory = date = None
    msglng: list[int] = []
    uname: dict[str, str] = {}
    summary: dict = {}
    section = None
    lengths: list[int] = []
    pattern_names: dict[int, str] = {}
    rows = []  # (pattern_index or None, pattern, method, bytes, per-process MB/s)
    method_names: dict[int, str] = {}
    procs = None
    seen_revision = False

    for lineno, line in enumerate(lines, start=1):
        m = REVISION.match(line)
        if m:
            seen_revision = True
            version = m.group(1)
            continue
        m = re.match(r"^SECTION-(\S+)-(BEGIN|END)\s*$", line)
        if m:
            section = m.group(1) if m.group(2) == "BEGIN" else None
            lengths = []
            continue
        if (m := MEMORY.match(line)):
            memory = int(m.group(1))
        elif (m := MSGLNG.match(line)):
            msglng = [int(_num(path, lineno, t)) for t in m.group(1).split()]
        elif (m := SYSFIELD.match(line)):
            uname[m.group(1)] = m.group(2).strip()
        elif (m := DATE.match(line)):
            date = m.group(1).strip()
        elif (m := FINAL.match(line)):
            summary["b_eff_mb_s"] = float(m.group(1))
            summary["b_eff_per_process_mb_s"] = float(m.group(2))
            procs = int(m.group(3))
            summary["memory_per_process_mib"] = int(m.group(4))
        elif (m := ACCUMULATED.match(line)) and section in (None, "BEFF"):
            tok = m.group(1).split()
            # processes, b_eff, Lmax "N MB", at Lmax (rings&random, rings), 3 latencies, pp bw
            if len(tok) != 10:
                raise FormatError(path, lineno, f"summary row: expected 10 fields, found "
                                  f"{len(tok)}")
            procs = int(_num(path, lineno, tok[0]))
            summary.setdefault("b_eff_mb_s", _num(path, lineno, tok[1]))
            summary.setdefault("b_eff_at_lmax_mb_s", _num(path, lineno, tok[4]))
            summary.setdefault("b_eff_at_lmax_rings_mb_s", _num(path, lineno, tok[5]))
            summary.setdefault("latency_us", _num(path, lineno, tok[6]))
            summary.setdefault("latency_rings_us", _num(path, lineno, tok[7]))
            summary.setdefault("pingpong_latency_us", _num(path, lineno, tok[8]))
            summary.setdefault("pingpong_bandwidth_mb_s", _num(path, lineno, tok[9]))
        elif section == "BEFF":
            for key, rx in BEFF_DETAIL.items():
                if (m := rx.match(line.strip())):
                    summary[key] = float(m.group(1))
        elif section in ("BY-PATTERN-MSGLNG", "BY-MTHD-MSGLNG"):
            if (m := LENGTHS_HEAD.match(line)):
                lengths = [int(_num(path, lineno, t)) for t in m.group(1).split()]
                continue
            if "log_avg" in line or line.strip().startswith(("-", "*", "accumulated")):
                continue  # averages over patterns: the BY-MSGLNG section has them at all L
            m = METHOD_ROW.match(line) if section == "BY-MTHD-MSGLNG" else PATTERN_ROW.match(line)
            if m:
                if not lengths:
                    raise FormatError(path, lineno, "pattern row before the message lengths")
                if section == "BY-MTHD-MSGLNG":
                    index, method = int(m.group(1)), m.group(3)
                    method_names[int(m.group(2))] = method
                    values = m.group(5).split()
                else:
                    index, method = int(m.group(1)), "best"
                    pattern_names[index] = m.group(2)
                    values = m.group(4).split()
                if len(values) != len(lengths):
                    raise FormatError(path, lineno, f"expected {len(lengths)} values, "
                                      f"found {len(values)}")
                for nbytes, tok in zip(lengths, values):
                    rows.append((index, method, nbytes, _num(path, lineno, tok)))
            elif section == "BY-MTHD-MSGLNG" and (m := PATTERN_NAME.match(line)):
                pattern_names[int(m.group(1))] = m.group(2)
        elif section == "BY-MSGLNG":
            tok = line.split()
            if tok and tok[0].isdigit():
                if len(tok) != 8:
                    raise FormatError(path, lineno, f"expected 8 columns, found {len(tok)}")
                nbytes = int(tok[0])
                for col, val in zip(("average", "rings", "random"), tok[2:5]):
                    rows.append((None, f"{col}|best", nbytes, _num(path, lineno, val)))
                for mi, val in enumerate(tok[5:8]):
                    rows.append((None, f"average|{mi}", nbytes, _num(path, lineno, val)))

    if not seen_revision:
        raise FormatError(path, 1, "no 'b_eff.c, Revision' line: not a b_eff protocol")
    if procs is None:
        raise FormatError(path, len(lines), "no b_eff result (summary table or 'b_eff =' line)")

    results = []
    for index, method, nbytes, value in rows:
        if index is None:
            pattern, mkey = method.split("|")
            mname = "best" if mkey == "best" else method_names.get(int(mkey), f"method_{mkey}")
            rec = new_result("beff", "b_eff", procs, nbytes, pattern=pattern, method=mname)
        else:
            rec = new_result("beff", "b_eff", procs, nbytes,
                             pattern=pattern_names.get(index, f"p{index:02d}"),
                             pattern_index=index, method=method)
        rec["bandwidth_mb_s"] = value
        results.append(rec)

    summary_rec = {"type": "summary", "schema": SCHEMA, "component": "beff", "procs": procs,
                   "lmax_bytes": msglng[-1] if msglng else None, **summary}
    start = None
    if date:
        try:
            start = datetime.strptime(" ".join(date.split()), "%a %b %d %H:%M:%S %Y") \
                .strftime("%Y-%m-%dT%H:%M:%S")
        except ValueError:
            start = None
    run = new_run("beff", "b_eff", procs, version=version, start=start,
                  uname={"sysname": uname.get("system name"),
                         "nodename": uname.get("hostname"),
                         "release": uname.get("OS release"),
                         "version": uname.get("OS version"),
                         "machine": uname.get("machine")},
                  options={"memory_per_process_mib": memory, "message_lengths": msglng})
    return ParsedRun(run=run, results=results, summaries=[summary_rec], end=new_end("ok"),
                     source=str(path), source_format="beff")
