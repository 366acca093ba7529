"""Importer for SKaMPI output files (`.sko`, SKaMPI 5/6 and effbench's `skampi` component):

    # begin result "NAME"
    <param>= <value> <bytes> <time> <std. error> <measurements> <extra per-process values...>
    # end result "NAME"

Times are microseconds. The varied parameter is `count` (message length in elements), `procs`
(process count) or `chunks`; every measured point is kept, so refinement points stay visible.
Rows get the names effbench's `skampi` component writes (docs/skampi.md)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from .logtext import is_number, read_log
from ..records import FormatError, ParsedRun, ctime_to_iso, new_end, new_result, new_run

VERSION = re.compile(r"^#\s*SKaMPI Version\s+(\S+)")
STARTED = re.compile(r"^#\s*Started at\s+(.*)$")
FINISHED = re.compile(r"^#\s*Finished at\s+(.*)$")
BEGIN = re.compile(r'^#\s*begin result\s+"(.*)"\s*$')
END = re.compile(r'^#\s*end result\s+"(.*)"\s*$')
ROW = re.compile(r"^(\w+)=\s*(\S+)\s+(.*)$")
# The varied parameter of a row -> the suite's Variation, as effbench's JSON names it (SKaMPI
# also prints `procs= 1` for the simple pattern, whose variation is None: it reads as Nodes;
# a parameter not listed keeps its own name).
VARIATIONS = {"count": "Length", "procs": "Nodes", "chunks": "Chunks"}
# effbench's files say before each block what the suite is (docs/skampi.md); the original's do
# not. Its words become the fields effbench's JSON records have.
SUITE = re.compile(r'^#\s*suite\s+"(.*)":\s*type\s+(\d+)\s+(.+?)\s+\(([\w-]+)\),\s*'
                   r'variation\s+(\w+),\s*scale\s+(\w+)(?:,\s*sync\s+(\w+))?\s*$')
DURATION = re.compile(r"^#\s*duration\s*=\s*([\d.]+)\s*sec")
RUNTIME = re.compile(r"^#\s*Total runtime\s+([\d.]+)\s*seconds")


def _null_nan(value: float) -> float | None:
    """A point without valid runs prints `nan`: JSON has null for it."""
    return None if math.isnan(value) else value


def parse_skampi(path: str | Path, procs: int | None = None) -> ParsedRun:
    path = Path(path)
    lines, whole = read_log(path)
    skipped = 0 if whole else 1
    version = start = None
    finished = False
    runtime = None
    suite = None
    described: dict[str, dict] = {}  # suite name -> the fields its `# suite` line gives
    results, result_lines = [], []
    for lineno, line in enumerate(lines, start=1):
        if (m := SUITE.match(line)):
            described[m.group(1)] = {
                "type_number": int(m.group(2)), "instance": m.group(3), "pattern": m.group(4),
                "variation": m.group(5), "scale": m.group(6),
                **({"sync": m.group(7)} if m.group(7) else {})}
        elif (m := VERSION.match(line)):
            version = m.group(1)
        elif (m := STARTED.match(line)):
            start = ctime_to_iso(m.group(1))
        elif (m := FINISHED.match(line)):
            finished = True
        elif (m := RUNTIME.match(line)):
            runtime = float(m.group(1))
        elif (m := BEGIN.match(line)):
            if suite is not None:
                raise FormatError(path, lineno, f'"{m.group(1)}" begins inside "{suite}"')
            suite = m.group(1)
        elif (m := END.match(line)):
            if m.group(1) != suite:
                raise FormatError(path, lineno, f'end of "{m.group(1)}" but "{suite}" is open')
            suite = None
        elif line.startswith("#") or not line.strip():
            continue
        else:
            m = ROW.match(line) if suite is not None else None
            tokens = [m.group(2), *m.group(3).split()] if m else []
            if not m or len(tokens) < 5 or not all(is_number(t) for t in tokens):
                skipped += 1  # a message in the log, not a measurement of a block
                continue
            values = [float(t) for t in tokens]
            param, value, nbytes, t, err, count, extra = (m.group(1), values[0], values[1],
                                                          values[2], values[3], values[4],
                                                          values[5:])
            for name, v in (("value", value), ("bytes", nbytes), ("measurements", count)):
                if v != int(v) or v < 0:
                    raise FormatError(path, lineno, f"{name}: not a non-negative integer: {v}")
            t, err, extra = _null_nan(t), _null_nan(err), [_null_nan(x) for x in extra]
            # The node columns are the participating processes' own times, one per process.
            row_procs = int(value) if param == "procs" else (procs or max(len(extra), 1))
            rec = new_result("skampi", suite, row_procs, int(nbytes), repetitions=int(count),
                             t_avg_us=t, std_error_us=err,
                             variation=VARIATIONS.get(param, param),
                             count=int(value) if param == "count" else None, nodes=row_procs,
                             chunks=int(value) if param == "chunks" else None,
                             node_times_us=extra)
            rec.update(described.get(suite, {}))
            results.append(rec)
            result_lines.append(lineno)
    if version is None:
        raise FormatError(path, 1, "no '# SKaMPI Version' line: not a SKaMPI output file")
    if not results:
        raise FormatError(path, len(lines), "no measurements")
    # effbench's skampi component writes "# SKaMPI Version effbench-<version>".
    tool, version = (("effbench", version[len("effbench-"):]) if version.startswith("effbench-")
                     else ("SKaMPI", version))
    run = new_run("skampi", tool, max(r["procs"] for r in results), version=version,
                  start=start)
    return ParsedRun(run=run, results=results,
                     end=new_end("ok", elapsed_s=runtime) if finished and suite is None else None,
                     source=str(path), source_format="skampi", skipped_lines=skipped,
                     result_lines=result_lines)
