"""Importer for IMB's text output, as printed by the original IMB (2014 user guide and current
releases) and by `effbench mpi1|ext|io|nbc|rma` / `IMB-*`."""

from __future__ import annotations

import re
from pathlib import Path

from ..devices import MEM_ALLOC_TYPES, UNKNOWN
from ..records import FormatError, ParsedRun, ctime_to_iso, new_end, new_result, new_run
from .logtext import is_number, read_log

BANNER = re.compile(r"(?P<tool>effbench|MPI\s+Benchmark(?:s|\s+Suite)?)\s+V?(?P<version>[^\s,]+)"
                    r".*?(?P<part>MPI-?1|MPI-2|MPI-4|MPI-IO|MPI-NBC|MPI-RMA|EXT|IO|NBC|RMA)\s+part",
                    re.I)
PART_COMPONENT = {"mpi1": "mpi1", "mpi-1": "mpi1", "mpi-2": "ext", "ext": "ext",
                  "mpi-io": "io", "io": "io", "mpi-nbc": "nbc", "nbc": "nbc",
                  "mpi-rma": "rma", "rma": "rma", "mpi-4": "mpi4"}
HEADER_FIELD = re.compile(r"^#\s*(Date|Machine|System|Release|Version|MPI Version|"
                          r"MPI Thread Environment|MPI Library)\s*:\s?(.*)$")
# effbench's header names the hosts and their ranks: "# Host : node1 (ranks 0-3,8)"
HOST = re.compile(r"^#\s*Host\s*:\s*(\S+)\s+\(ranks\s+([\d,\-]+)\)\s*$")
BENCHMARKING = re.compile(r"^#\s*Benchmarking\s+(\S+)\s*$")
PROCESSES = re.compile(r"^#?\s*\(?\s*#?\s*processes\s*=\s*(\d+)")
GROUPS = re.compile(r"^#\s*\(\s*(\d+)\s+groups?\s+of\s+(\d+)\s+processes")
# The defects cell of a -check row whose benchmark has no data check (a barrier).
NOT_CHECKED = "not checked"
MODE = re.compile(r"^#\s*MODE:\s*(AGGREGATE|NON-AGGREGATE)\s*$", re.I)
# Whose defaults made the numbers (docs/imb.md, "IMB 2021's defaults"): effbench under
# --imb-defaults 2021 says so in its banner, and Intel's IMB 2021.x is that methodology itself;
# everything else keeps its component's classic one (records.DEFAULT_METHODOLOGY, imb-4.0).
METHODOLOGY_2021 = "imb-2021.11"
EFFBENCH_2021 = re.compile(r"Intel\(R\) MPI Benchmarks 2021\.11 methodology")
# IMB-MPI1-GPU and IMB-RMA-GPU (IMB 2021.11 IMB_g_info.c): "MPI-1 part (GPU)", "RMA part (GPU),
# Technical preview". Their buffers are -mem_alloc_type's (devices.MEM_ALLOC_TYPES), device
# by default since IMB 2021.3; the text says which only on the calling sequence.
GPU_PART = re.compile(r"\bpart\s+\(GPU\)")
MEM_ALLOC_DEFAULT_SINCE = (2021, 3)
# effbench's IMB-MPI1-GPU says both in its header (src/imb/driver/gpu.c)
MESSAGE_BUFFERS = re.compile(r"^#\s*Message buffers\s*:\s*-mem_alloc_type\s+(\S+)")
GPU_OF_RANK0 = re.compile(r"^#\s*GPU of rank 0\s*:\s*(?P<name>.+), PCI bus (?P<bus>\S+), "
                          r"device (?P<ordinal>\d+) of (?P<count>\d+) \((?P<library>.*)\)\s*$")

# Column heading (unit stripped, lower case) -> JSON field, as effbench's JSON names it
# (effbench's own columns of -sync window, -repeat and quick mode included).
COLUMNS = {
    "#bytes": "bytes", "bytes": "bytes", "#repetitions": "repetitions", "#rep.s": "repetitions",
    "t": "t", "t_min": "t_min_us", "t_max": "t_max_us", "t_avg": "t_avg_us",
    "mbytes/sec": "mbytes_per_s", "defects": "defects", "t_ovrl": "t_ovrl_us",
    "t_pure": "t_pure_us", "t_cpu": "t_cpu_us", "overlap": "overlap_pct",
    "group": "group", "#group": "group", "valid": "valid_fraction", "loops": "loops",
    "loop_min": "loop_t_max_min_us", "loop_max": "loop_t_max_max_us", "spread": "spread",
    "rel_err": "rel_std_error", "msg/sec": "msg_per_sec",
}
EXTRA_COLUMNS = ("t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_pct", "valid_fraction",
                 "loop_t_max_min_us", "loop_t_max_max_us", "spread", "msg_per_sec")


def _column_names(line: str) -> list[str] | None:
    """The fields of a table heading line, or None if the line is not one."""
    text = line.strip()
    # The guide's samples write "t min[usec]" and "# bytes"; join those back.
    text = re.sub(r"\bt (min|max|avg)\[", r"t_\1[", text)
    text = re.sub(r"^#\s+bytes", "#bytes", text)
    tokens = text.split()
    if not tokens or tokens[0].lower() not in ("#bytes", "#repetitions", "group", "#group"):
        return None
    names = []
    for tok in tokens:
        key = re.sub(r"\[.*\]$", "", tok).lower()
        if key not in COLUMNS:
            return None
        names.append(COLUMNS[key])
    return names


class _Output:
    """What IMB's output has said so far, read line by line: the banner, the header (before
    the first table) and the tables, one per `# Benchmarking` line."""

    def __init__(self, path: Path, skipped: int):
        self.path = path
        self.skipped = skipped
        self.component = self.version = self.tool = self.methodology = None
        self.gpu = False
        self.gpu_header: dict[str, str] = {}  # effbench's Message buffers and GPU lines
        self.header: dict[str, str] = {}
        self.command_line: list[str] | None = None
        self.results, self.result_lines = [], []
        self.hosts: list[dict] = []
        self.bench = self.procs = self.mode = None
        self.groups = 0
        self.columns: list[str] | None = None
        self.in_calling = False
        self.finalized = False
        self.max_procs = 0

    def read(self, lineno: int, line: str) -> None:
        if self.component is None:
            self._banner(line)
        elif not (line.startswith("#") and self.columns is None and self.bench is None
                  and self._header(line)):
            self._table(lineno, line)

    def _banner(self, line: str) -> None:
        m = BANNER.search(line)
        if m:
            self.component = PART_COMPONENT[m.group("part").lower()]
            self.version = m.group("version")
            self.tool = "effbench" if m.group("tool").lower() == "effbench" else "IMB"
            self.gpu = bool(GPU_PART.search(line))
            if (EFFBENCH_2021.search(line) if self.tool == "effbench"
                    else self.version.startswith("2021.")):
                self.methodology = METHODOLOGY_2021
        elif line.strip() and not line.startswith("#"):
            self.skipped += 1  # a message before IMB's header

    def _header(self, line: str) -> bool:
        """A line of the header: the hosts, the system, the calling sequence."""
        if (m := HOST.match(line)):
            self.hosts.append({"name": m.group(1), "ranks": _ranks(m.group(2))})
        elif (m := MESSAGE_BUFFERS.match(line)):
            self.gpu_header["mem_alloc_type"] = m.group(1)
        elif (m := GPU_OF_RANK0.match(line)):
            self.gpu_header.update(m.groupdict())
        elif (m := HEADER_FIELD.match(line)):
            self.header[m.group(1)] = m.group(2).strip()
        elif re.match(r"^#\s*Calling sequence was:", line):
            self.in_calling = True
        elif self.in_calling and re.match(r"^#\s*\S", line):
            self.command_line = line.lstrip("#").split()
            self.in_calling = False
        else:
            return False
        return True

    def _table(self, lineno: int, line: str) -> None:
        """A line from the first `# Benchmarking` on: a table's heading lines and rows."""
        m = BENCHMARKING.match(line)
        if m:
            self.bench, self.procs, self.mode, self.columns, self.groups = \
                m.group(1), None, None, None, 0
            return
        if self.bench is None:
            if "All processes entering MPI_Finalize" in line:
                self.finalized = True
            elif line.strip() and not line.startswith("#"):
                self.skipped += 1  # a message between tables
            return
        m = GROUPS.match(line)
        if m:
            self.groups, self.procs = int(m.group(1)), int(m.group(2))
            self.max_procs = max(self.max_procs, self.groups * self.procs)
            return
        m = PROCESSES.match(line)
        if m and self.columns is None:
            self.procs = int(m.group(1))
            return
        m = MODE.match(line)
        if m:
            self.mode = m.group(1).lower()
            return
        names = _column_names(line)
        if names is not None:
            if self.procs is None:
                raise FormatError(self.path, lineno,
                                  f"table of {self.bench} without '#processes' line")
            self.columns = names
            return
        if "All processes entering MPI_Finalize" in line:
            self.finalized = True
            self.bench = None
            return
        if line.startswith("#") or line.strip() == "":
            if line.startswith("#-") and self.columns is not None:
                self.bench, self.columns = None, None
            return
        self._data_row(lineno, line)

    def _data_row(self, lineno: int, line: str) -> None:
        # -check's "not checked" (a benchmark without a data check) is one cell
        tokens, columns = re.findall(NOT_CHECKED + r"|\S+", line), self.columns
        if columns is None or len(tokens) != len(columns) or not all(
                tok in ("-", NOT_CHECKED) or is_number(tok) for tok in tokens):
            self.skipped += 1  # not a row of this table: a message that landed in it
            return
        # effbench prints what does not exist as "-"
        values = {name: None if tok in ("-", NOT_CHECKED) else float(tok)
                  for name, tok in zip(columns, tokens)}
        if "defects" in values:
            values["checked"] = NOT_CHECKED not in tokens
        self.results.append(_row(self.path, lineno, self.component, self.bench, self.procs,
                                 self.mode, self.groups, values))
        self.result_lines.append(lineno)
        self.max_procs = max(self.max_procs, self.procs)

    def parsed(self) -> ParsedRun:
        header, results = self.header, self.results
        uname = {"sysname": header.get("System"), "nodename": None,
                 "release": header.get("Release"), "version": header.get("Version"),
                 "machine": header.get("Machine")}
        run = new_run(self.component, self.tool, self.max_procs, version=self.version,
                      mpi_library=header.get("MPI Library") or None,
                      start=ctime_to_iso(header.get("Date", "")), uname=uname,
                      mpi_version=header.get("MPI Version") or None,
                      thread_level=header.get("MPI Thread Environment") or None,
                      command_line=self.command_line, hosts=self.hosts or None,
                      check=any(r["defects"] is not None for r in results))
        if self.methodology:
            run["methodology"] = self.methodology
            for r in results:
                r["methodology"] = self.methodology
        if self.gpu:
            self._gpu_memory(run)
        end = new_end("ok") if self.finalized else None
        return ParsedRun(run=run, results=results, end=end, source=str(self.path),
                         source_format="imb", skipped_lines=self.skipped,
                         result_lines=self.result_lines)


    def _gpu_memory(self, run: dict) -> None:
        """IMB-MPI1-GPU / IMB-RMA-GPU (docs/gpu-results.md), in the run record's fields as
        effbench's IMB-MPI1-GPU writes them: program, mem_alloc_type (the calling sequence's
        -mem_alloc_type, else IMB's default for the version: device since 2021.3, not known
        before), accelerator null (the text does not say CUDA or Level Zero); and every row's
        memory (unknown where the type is)."""
        words = self.command_line or []
        given = self.gpu_header.get("mem_alloc_type") or next(
            (words[i + 1] for i, w in enumerate(words[:-1]) if w == "-mem_alloc_type"), None)
        if given is not None and given not in MEM_ALLOC_TYPES:
            raise FormatError(self.path, None, f"-mem_alloc_type {given}: not one of IMB's "
                              f"types ({', '.join(MEM_ALLOC_TYPES)})")
        version = tuple(int(v) for v in re.findall(r"\d+", self.version or "")[:2])
        # effbench's default is IMB 2021.11's
        alloc = given or ("device" if self.tool == "effbench" or version >= MEM_ALLOC_DEFAULT_SINCE
                          else None)
        gpu = self.gpu_header
        run.update(program=f"IMB-{'RMA' if self.component == 'rma' else 'MPI1'}-GPU",
                   accelerator="cuda" if "name" in gpu else None, mem_alloc_type=alloc)
        if "name" in gpu:  # effbench's text names rank 0's device (CUDA: its only one yet)
            run["devices"] = [{
                "rank": 0, "host": None, "accel": "cuda", "ordinal": int(gpu["ordinal"]),
                "count": int(gpu["count"]), "name": gpu["name"], "pci_bus_id": gpu["bus"],
                "memory_bytes": None, "driver_version": None, "library": gpu["library"],
                "visible_devices": None}]
        kind = MEM_ALLOC_TYPES.get(alloc, UNKNOWN)
        for rec in self.results:
            rec["memory"] = {"send": kind, "recv": kind}


def parse_imb_text(path: str | Path) -> ParsedRun:
    path = Path(path)
    lines, whole = read_log(path)
    output = _Output(path, skipped=0 if whole else 1)
    for lineno, raw in enumerate(lines, start=1):
        output.read(lineno, raw.rstrip())
    if output.component is None:
        raise FormatError(path, 1, "no IMB banner ('Intel(R) MPI Benchmarks ..., MPI-1 part')")
    if not output.results:
        raise FormatError(path, len(lines), "no benchmark table found")
    return output.parsed()


def _ranks(text: str) -> list[int]:
    """"0-3,8" -> [0, 1, 2, 3, 8]."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def _row(path, lineno, component, bench, procs, mode, groups, values):
    def integer(name):
        v = values.get(name)
        if v is None:
            return None
        if v != int(v) or v < 0:
            raise FormatError(path, lineno, f"{name}: not a non-negative integer: {v}")
        return int(v)

    rec = new_result(component, bench, procs, integer("bytes") or 0,
                     repetitions=integer("repetitions"), mode=mode)
    if "group" in values:
        rec["group"] = integer("group")
    if "t" in values:
        # Single-transfer tables print one time, IMB's maximum over the processes (effbench's
        # t_max_us); the minimum and the average are not printed.
        rec["t_max_us"] = values["t"]
    for key in ("t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s"):
        if key in values:
            rec[key] = values[key]
    if "defects" in values:
        rec["defects"] = integer("defects")
        rec["checked"] = values["checked"]
    for key in EXTRA_COLUMNS:
        if key in values:
            rec[key] = values[key]
    if "loops" in values:
        rec["loops"] = integer("loops")
    # effbench's -sync window rows have a `valid` fraction; tables that keep IMB's timing
    # (single transfers, aggregate mode) have none or print "-".
    rec["sync"] = "window" if values.get("valid_fraction") is not None else "barrier"
    if values.get("rel_std_error") is not None:
        rec["rel_std_error"] = values["rel_std_error"] / 100  # printed in percent
    if "t" not in values and "t_avg_us" not in values and "msg_per_sec" not in values:
        # (Uniband and Biband print rates only: their rows have no time.)
        # NBC and Truly_passive_put tables have no t column: the first time column IMB prints
        # (t_ovrl for NBC, t_pure for Truly_passive_put) is the maximum over the processes,
        # effbench's t_max_us, as for a single-transfer table.
        first = next((k for k in values if k in ("t_ovrl_us", "t_pure_us")), None)  # in order
        if first is None:
            raise FormatError(path, lineno, "table has no time column")
        rec["t_max_us"] = values[first]
    if "t_avg_us" not in values and "t_min_us" in values and "t_max_us" in values \
            and "t" not in values:
        raise FormatError(path, lineno, "table has t_min and t_max but no t_avg")
    if groups and rec["group"] is None:
        rec["groups"] = groups
    return rec
