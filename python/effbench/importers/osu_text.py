"""Importer for the text output of OSU Micro-Benchmarks 7.4's MPI programs, as OSU prints it and
as effbench's OSU programs print it (the same text, docs/osu.md), also from a job log: lines of
Slurm, mpirun and the MPI library before, between and after the tables are skipped and counted,
a cut last line is left out (effbench.importers.logtext).

The records are those effbench's OSU programs write (docs/json-lines.md, "OSU records"). OSU's
MB/s are 10^6 bytes/s: they become `mb_per_s`, never IMB's `mbytes_per_s` (2^20 bytes/s).
One file may hold several programs' output (a job script that runs osu_latency, then osu_bw):
one run, each row named by its program."""

from __future__ import annotations

import re
from pathlib import Path

from ..devices import OSU_LETTERS, UNKNOWN
from ..records import FormatError, ParsedRun, new_result, new_run
from .logtext import is_number, read_log
from .osu_programs import (COMPONENT, FAN_PROGRAMS, INTEGER_FIELDS, METHODOLOGY_PREFIX,
                           ONE_SIDED_PROGRAMS, PT2PT_PROGRAMS, SYNCS, TITLE, TWO_PROCESSES,
                           VALIDATION, WINDOWS, column_fields, program_of)

DATATYPE = re.compile(r"^# Datatype: (\S+?)\.?\s*$")
WINDOW = re.compile(r"^# Window creation: (\S+)\s*$")
SYNC = re.compile(r"^# Synchronization: (\S+)\s*$")
PAIRS = re.compile(r"^# \[ pairs: (\d+) \] \[ window size: (\d+|varied) \]\s*$")
FORKED = re.compile(r"^# Number of forked processes in (sender|receiver): (\d+)\s*$")
BUFFERS = re.compile(r"^# (?:Send Buffer|Rank 0 Memory) on .*\((\w+)\) and "
                     r"(?:Receive Buffer|Rank 1 Memory) on .*\((\w+)\)\s*$")
# effbench's OSU programs under --stage-through-host say so after the title (docs/gpu.md)
STAGED = re.compile(r"^# Staged through host memory \(effbench --stage-through-host\)")
INIT = re.compile(r"^nprocs: (\d+), min: (\d+) ms, max: (\d+) ms, avg: (\d+) ms\s*$")
HELLO = re.compile(r"^This is a test with (\d+) processes\s*$")
TOPOLOGY = re.compile(r"^Time took to create topology graph:\s*\S+ us\.\s*$")
# osu_mbw_mr -V: a matrix of sizes by window sizes, bandwidths, then message rates
MATRIX = {"# Uni-directional Bandwidth (MB/sec)": "mb_per_s",
          "# Message Rate Profile": "messages_per_s"}
WINDOW_SIZES = re.compile(r"^#\s+\d+(?:\s+\d+)+\s*$")
# Lines OSU itself prints beside its tables: its non-blocking preamble, the atomics'
# validation summaries, the validation failure's last words.
OWN_PROSE = re.compile(r"^(# Overall = Coll\. Init \+ Compute \+ MPI_Test \+ MPI_Wait|-{43}"
                       r"|Atomic Data Validation results for Rank=\d+:"
                       r"|(PASSED|FAILED|SKIPPED): .*|\s+First failure at trial .*"
                       r"|DATA VALIDATION ERROR: .*)\s*$")


class _Table:
    """What the lines since the last title said: the program and the row naming fields."""

    def __init__(self, program: str, version: str | None, accelerator: str | None):
        self.program, self.version = program, version
        self.methodology = METHODOLOGY_PREFIX + version if version else "osu"
        self.naming: dict = {"accelerator": accelerator} if accelerator else {}
        self.columns: list[str] | None = None
        self.matrix: str | None = None  # osu_mbw_mr -V: which matrix the rows fill
        self.windows: list[int] = []


class _Output:
    def __init__(self, path: Path, skipped: int, procs: int | None, program: str | None,
                 buffers: str | None = None):
        self.path, self.skipped = path, skipped
        self.hint_procs, self.hint_program, self.hint_used = procs, program, False
        self.hint_buffers, self.buffers_used = buffers, False
        self.table: _Table | None = None
        self.results: list[dict] = []
        self.result_lines: list[int] = []
        self.programs: list[str] = []
        self.versions: list[str] = []
        self.before: dict = {}  # lines some programs print before their title
        self.hello = False  # osu_hello's line: a start-up check without a number

    def read(self, lineno: int, line: str) -> None:
        if not line.strip() or OWN_PROSE.match(line):
            return
        m = TITLE.match(line)
        if m:
            self._title(lineno, m.group(1), m.group(2))
        elif TOPOLOGY.match(line):
            self.before["topology"] = True
        elif (m := FORKED.match(line)):
            self.before[f"{m.group(1)}_processes"] = int(m.group(2))
        elif self.table is None:
            self.skipped += 1  # a message before the first table
        elif not self._header(lineno, line):
            self._row(lineno, line)

    def _title(self, lineno: int, title: str, version: str | None) -> None:
        program, accelerator = program_of(title)
        if program is None:
            raise FormatError(self.path, lineno, f"'{title}' is not the title of an OSU 7.4 "
                              "MPI program")
        if program == "osu_alltoallw" and self.before.pop("topology", False):
            program = "osu_neighbor_alltoallw"
        self.table = _Table(program, version, accelerator)
        for side in ("sender", "receiver"):
            if f"{side}_processes" in self.before:
                self.table.naming[f"{side}_processes"] = self.before.pop(f"{side}_processes")
        self.before.clear()
        if version and version not in self.versions:
            self.versions.append(version)

    def _header(self, lineno: int, line: str) -> bool:
        """A line of the table's head (True), or not (False: a row, or a foreign line)."""
        t, naming = self.table, self.table.naming
        if (m := DATATYPE.match(line)):
            naming["datatype"] = m.group(1)
        elif (m := WINDOW.match(line)) and m.group(1) in WINDOWS:
            naming["window"] = WINDOWS[m.group(1)]
        elif (m := SYNC.match(line)) and m.group(1) in SYNCS:
            naming["sync"] = SYNCS[m.group(1)]
        elif (m := PAIRS.match(line)):
            naming["pairs"] = int(m.group(1))
            if m.group(2) != "varied":
                naming["window_size"] = int(m.group(2))
        elif (m := BUFFERS.match(line)):
            naming["buffers"] = f"{m.group(1)} {m.group(2)}"
        elif STAGED.match(line):
            naming["staging"] = "through-host"
        elif line.rstrip() in MATRIX:
            t.matrix, t.columns = MATRIX[line.rstrip()], None
        elif t.matrix and WINDOW_SIZES.match(line):
            t.windows = [int(w) for w in line.lstrip("#").split()]
        elif (fields := column_fields(line)) is not None:
            t.columns, t.matrix = fields, None
            self._fan_in_out(lineno)
        else:
            return False
        return True

    def _fan_in_out(self, lineno: int) -> None:
        """osu_bw_fan_in/_fan_out print osu_bw's title over "Avg Latency(us)" (their bandwidths,
        OSU's header's mistake): only --program tells which of the two it was."""
        t = self.table
        if t.program not in ("osu_bw", *FAN_PROGRAMS) or "t_avg_us" not in t.columns:
            return
        if self.hint_program not in FAN_PROGRAMS:
            raise FormatError(self.path, lineno, "osu_bw_fan_in and osu_bw_fan_out print the "
                              "same title and columns: say which with --program")
        t.program, self.hint_used = self.hint_program, True
        t.columns = ["mb_per_s" if c == "t_avg_us" else c.replace("percentiles:",
                                                                   "percentiles_mb_per_s:")
                     for c in t.columns]

    def _procs(self, lineno: int) -> int:
        program, naming = self.table.program, self.table.naming
        if program in TWO_PROCESSES:
            return 2
        if program == "osu_mbw_mr" and "pairs" in naming:
            return 2 * naming["pairs"]  # the processes that take part
        if self.hint_procs is None:
            raise FormatError(self.path, lineno, f"{program}'s output does not say how many "
                              "processes ran it: give --procs N")
        return self.hint_procs

    def _row(self, lineno: int, line: str) -> None:
        t = self.table
        if (m := INIT.match(line)):
            ms = [int(g) * 1000.0 for g in m.group(2, 3, 4)]
            self._add(lineno, new_result(COMPONENT, t.program, int(m.group(1)), 0,
                                         t_min_us=ms[0], t_max_us=ms[1], t_avg_us=ms[2]))
        elif HELLO.match(line):
            self.hello = True
        elif t.matrix and t.windows:
            self._matrix_row(lineno, line.split())
        elif t.columns and (values := self._values(line.split(), t.columns)) is not None:
            self._add(lineno, self._record(lineno, values))
        else:
            self.skipped += 1  # not a row of this table: a message that landed in it

    def _values(self, tokens: list[str], columns: list[str]) -> dict | None:
        if len(tokens) != len(columns):
            return None
        values = {}
        for name, tok in zip(columns, tokens):
            if name == "validation":
                if tok not in VALIDATION:
                    return None
                values[name] = VALIDATION[tok]
            elif not is_number(tok) or (name in INTEGER_FIELDS and not tok.isdigit()):
                return None
            else:
                values[name] = int(tok) if name in INTEGER_FIELDS else float(tok)
        return values

    def _record(self, lineno: int, values: dict) -> dict:
        t = self.table
        rec = new_result(COMPONENT, t.program, self._procs(lineno), values.pop("bytes", 0),
                         methodology=t.methodology, mb_per_s=None, messages_per_s=None)
        for name, value in values.items():
            if ":" in name:  # a tail percentile
                field, pct = name.split(":")
                rec.setdefault(field, {})[pct] = value
            else:
                rec[name] = value
        if "pure_comm_us" in rec:
            # Non-blocking collectives: the latency is the pure communication time, averaged
            # over the processes as a blocking collective's; -f adds its minimum and maximum.
            rec["t_avg_us"] = rec["pure_comm_us"]
            rec["t_min_us"], rec["t_max_us"] = rec.get("min_comm_us"), rec.get("max_comm_us")
        rec.update(t.naming)
        return rec

    def _matrix_row(self, lineno: int, tokens: list[str]) -> None:
        t = self.table
        if len(tokens) != len(t.windows) + 1 or not tokens[0].isdigit() or not all(
                is_number(tok) for tok in tokens[1:]):
            self.skipped += 1
            return
        nbytes = int(tokens[0])
        for window, tok in zip(t.windows, tokens[1:]):
            if t.matrix == "mb_per_s":
                rec = new_result(COMPONENT, t.program, self._procs(lineno), nbytes,
                                 methodology=t.methodology, mb_per_s=float(tok),
                                 messages_per_s=None, **{**t.naming, "window_size": window})
                self._add(lineno, rec)
                continue
            rec = next((r for r in reversed(self.results) if r["benchmark"] == t.program
                        and r["bytes"] == nbytes and r.get("window_size") == window), None)
            if rec is not None:  # the rate profile repeats the bandwidth matrix's rows
                rec["messages_per_s"] = float(tok)

    def _memory(self) -> dict | None:
        """Where an accelerated table's buffers were (docs/gpu-results.md): the one-sided
        programs' "# Rank 0 Memory on ..." line (send: rank 0's, recv: rank 1's); a
        collective's -d puts every buffer on the device (OSU's allocate_memory_coll; -d
        managed: managed memory); a point-to-point title says only the accelerator: the
        buffers= hint, else unknown. None for a host table."""
        t = self.table
        naming = t.naming
        if "buffers" not in naming and "accelerator" in naming \
                and t.program in PT2PT_PROGRAMS and self.hint_buffers:
            naming["buffers"], self.buffers_used = self.hint_buffers, True
        if "buffers" in naming:
            send, recv = naming["buffers"].split()
            return {"send": OSU_LETTERS[send], "recv": OSU_LETTERS[recv]}
        accelerator = naming.get("accelerator")
        if accelerator is None:
            return None
        if t.program in PT2PT_PROGRAMS or t.program in ONE_SIDED_PROGRAMS:
            return {"send": UNKNOWN, "recv": UNKNOWN}
        kind = "managed" if "managed" in accelerator else "device"
        return {"send": kind, "recv": kind}

    def _add(self, lineno: int, rec: dict) -> None:
        for key, value in (("methodology", self.table.methodology), ("mb_per_s", None),
                           ("messages_per_s", None)):
            rec.setdefault(key, value)
        memory = self._memory()
        if memory is not None:
            if "buffers" in self.table.naming:  # (the hint's, set after the row was made)
                rec["buffers"] = self.table.naming["buffers"]
            rec["memory"] = memory
        self.results.append(rec)
        self.result_lines.append(lineno)
        if self.table.program not in self.programs:
            self.programs.append(self.table.program)

    def parsed(self) -> ParsedRun:
        version = self.versions[0] if self.versions else None
        programs = self.programs
        run = new_run(COMPONENT, "OSU", max(r["procs"] for r in self.results),
                      version=version, program=programs[0] if len(programs) == 1 else None,
                      methodology=METHODOLOGY_PREFIX + version if version else "osu")
        if len(programs) > 1:
            run["programs"] = programs
        # OSU prints nothing when it finishes: the text cannot say the run was complete.
        return ParsedRun(run=run, results=self.results, end=None, source=str(self.path),
                         source_format="osu", skipped_lines=self.skipped,
                         result_lines=self.result_lines)


def parse_osu_text(path: str | Path, procs: int | None = None,
                   program: str | None = None, buffers: str | None = None) -> ParsedRun:
    """PROCS: the process count where the text does not say it (collectives, osu_multi_lat,
    fan-in/out); PROGRAM: which of the programs that share a title ran (osu_bw_fan_in or
    osu_bw_fan_out); BUFFERS: OSU's buffer letters of a point-to-point run under -d ("D D",
    "H D", "MH MD"), which its text does not say."""
    path = Path(path)
    if buffers is not None:
        words = buffers.split()
        if len(words) != 2 or not all(w in OSU_LETTERS for w in words):
            raise FormatError(path, None, f"--buffers {buffers!r}: expected two of OSU's buffer"
                              f" letters ({', '.join(OSU_LETTERS)}), e.g. \"D D\"")
        buffers = " ".join(words)
    lines, whole = read_log(path)
    output = _Output(path, 0 if whole else 1, procs, program, buffers)
    for lineno, raw in enumerate(lines, start=1):
        output.read(lineno, raw.rstrip())
    if output.table is None:
        raise FormatError(path, 1, "no OSU title line ('# OSU MPI Latency Test v7.4')")
    if program is not None and not output.hint_used:
        raise FormatError(path, None, f"--program {program}: only for a table of "
                          f"{' or '.join(FAN_PROGRAMS)} (they print osu_bw's title), and "
                          "there is none")
    if not output.results:
        raise FormatError(path, len(lines), "osu_hello prints no measurement: nothing to store"
                          if output.hello else "no OSU table row found")
    if buffers is not None and not output.buffers_used:
        raise FormatError(path, None, f"--buffers {buffers}: only for a point-to-point table "
                          "under -d (a title such as 'OSU MPI-CUDA Latency Test'), and there is "
                          "none")
    return output.parsed()
