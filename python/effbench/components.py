"""What the importers, the report and compare share about the b_eff and b_eff_io records: the
names the C components write (docs/beff.md, docs/beff-io.md), the original tools' labels for
them, and b_eff's analysis view (the maxima and averages its protocol prints), so that a run
measured by effbench and an imported run of the original tool meet in the same rows."""

from __future__ import annotations

import math
from collections import defaultdict

from .records import new_result

# --- b_eff ---------------------------------------------------------------------------------------

# Method numbers of the protocol (0=Sndrcv ...): label in the original's tables -> JSON name.
BEFF_METHODS = {"Sndrcv": "sendrecv", "Alltoal": "alltoallv", "non-blk": "nonblocking",
                "Irc+Snd": "irecv_send", "Isd+Rcv": "isend_recv"}
# `method` of a row that is the maximum over the methods (the original's "best method").
BEFF_BEST = "best"
# The averages over patterns, named as the original's rows; their `pattern_kind` is "average".
BEFF_LOGAVG_RINGS = "log_avg of all rings"
BEFF_LOGAVG_RANDOM = "log_avg of all random"
BEFF_LOGAVG = "log_avg(ring,random)"


def _logavg(values: list[float | None]) -> float | None:
    """Geometric mean ("logavg") of the values that exist."""
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def beff_row(benchmark: str, pattern_kind: str, pattern: int | None, method: str, procs: int,
             nbytes: int, b_mb_per_s: float) -> dict:
    """A row of the analysis view: no repetition (`rep` null) and no times."""
    return new_result("beff", benchmark, procs, nbytes, pattern=pattern,
                      pattern_kind=pattern_kind, method=method, rep=None, b_mb_per_s=b_mb_per_s)


def beff_analysis(results: list[dict]) -> list[dict]:
    """b_eff rows as the original's analysis sections give them: per pattern, method and length
    the maximum over the 3 repetitions (`rep` null), the maximum over the methods (method
    "best"), and the log averages over the ring and random patterns. Rows that already have no
    `rep` (imported from the original's tables) are that view already and pass unchanged."""
    rows = [r for r in results if r["component"] == "beff"]
    if not any(r.get("rep") is not None for r in rows):
        return rows
    top: dict[tuple, dict] = {}  # (pattern, method or BEST, bytes) -> row with the maximum
    for r in rows:
        if r.get("b_mb_per_s") is None:
            continue
        for method in (r["method"], BEFF_BEST):
            key = (r["pattern"], method, r["bytes"])
            if key not in top or r["b_mb_per_s"] > top[key]["b_mb_per_s"]:
                top[key] = r
    out = [beff_row(r["benchmark"], r["pattern_kind"], p, m, r["procs"], n, r["b_mb_per_s"])
           for (p, m, n), r in top.items()]
    # Per length and method: the log averages over the ring and over the random patterns.
    groups: dict[tuple, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in out:
        if r["pattern_kind"] in ("ring", "random"):
            groups[(r["bytes"], r["method"], r["procs"])][r["pattern_kind"]].append(
                r["b_mb_per_s"])
    for (nbytes, method, procs), kinds in sorted(groups.items()):
        rings, random = _logavg(kinds["ring"]), _logavg(kinds["random"])
        # both: the log average of the two groups (beff_logavg_groups, src/beff/beff_analysis.c)
        averages = [(BEFF_LOGAVG, _logavg([rings, random]))]
        if method == BEFF_BEST:  # the original prints rings and random alone for best only
            averages += [(BEFF_LOGAVG_RINGS, rings), (BEFF_LOGAVG_RANDOM, random)]
        out += [beff_row(name, "average", None, method, procs, nbytes, value)
                for name, value in averages if value is not None]
    return out


# --- b_eff_io ------------------------------------------------------------------------------------

BEFF_IO_ACCESS = ("write", "rewrite", "read")  # the protocol's a=0, 1, 2
BEFF_IO_TYPES = ("scatter", "shared", "separate", "segmented", "seg-coll")  # type=0..4
# The original's labels of the types in "b_eff_io_<access>_<label>=" and the summary table.
BEFF_IO_TYPE_LABELS = {"scatter": 0, "shared": 1, "separated": 2, "separate": 2,
                       "segmented": 3, "segmened": 3, "seg_coll": 4, "seg-coll": 4}
# Rows 1..7 of the summary table (chunk sizes 1k, 1k+8, 32k, 32k+8, 1M, 1M+8, M_PART) are
# these pattern numbers of each type (the time-driven ones; not type 0's 1 MB / 2 MB pattern 2,
# which the table prints apart as bw_pat2).
BEFF_IO_TABLE_PATTERNS = {
    0: (5, 7, 4, 6, 3, 8, 1),
    **{t: tuple(base + k for k in (4, 6, 3, 5, 2, 7, 1))
       for t, base in ((1, 9), (2, 17), (3, 25), (4, 34))},
}
BEFF_IO_PATTERN2 = 2
