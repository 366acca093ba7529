"""Comparison of two runs row by row: ratio B/A per benchmark and size, changes beyond the
measured noise flagged, regressions beyond a threshold counted (for the exit status)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .components import beff_analysis
from .records import IDENTITY_DEFAULTS, IDENTITY_FIELDS, TIME_FIELDS, ParsedRun, identity_key

# Print resolution of the text formats: a value printed with 2 decimals is only known to 0.005.
TEXT_RESOLUTION_US = {"imb": 0.005, "skampi": 0.05, "osu": 0.005, "imb_p2p": 0.005}
TEXT_RESOLUTION_MB_S = {"imb": 0.005, "beff": 0.0005, "beff_io": 0.0005, "osu": 0.005,
                        "imb_p2p": 0.005}
# Bandwidths of rows without a time, per component's own name (b_eff, b_eff_io and OSU, IMB).
BANDWIDTH_FIELDS = ("b_mb_per_s", "mb_per_s", "mbytes_per_s")
# Row labels: b_eff/b_eff_io pattern numbers as their protocols print them; b_eff_io's
# pattern type is its benchmark name already.
LABEL_FORMAT = {"pattern": "p{:02d}", "chunks": "{} chunks"}
LABEL_SKIP = ("pattern_type",)


@dataclass
class Row:
    key: tuple
    label: str
    metric: str  # "time" (lower is better) or "bandwidth" (higher is better)
    a: float
    b: float
    ratio: float  # b / a
    noise: float  # relative noise of the comparison (both runs)
    change: float  # relative change, positive = worse
    flag: str  # "", "faster", "slower", "REGRESSION"


@dataclass
class Comparison:
    rows: list[Row]
    only_a: int
    only_b: int
    threshold: float
    headlines: list[Row] = field(default_factory=list)  # the summaries' one-number results

    @property
    def regressions(self) -> list[Row]:
        return [r for r in self.rows + self.headlines if r.flag == "REGRESSION"]

    @property
    def improvements(self) -> list[Row]:
        return [r for r in self.rows + self.headlines if r.flag == "faster"]


def common_metric(ra: dict, rb: dict) -> tuple[str, str] | None:
    """The headline number both rows have, as (metric, field): the time (t_avg_us, or IMB's
    maximum t_max_us where a table printed only that), or for rows without a time the
    bandwidth."""
    for metric, keys in (("time", TIME_FIELDS), ("bandwidth", BANDWIDTH_FIELDS)):
        for key in keys:
            if all(r.get(key) is not None and r[key] > 0 for r in (ra, rb)):
                return metric, key
    return None


def relative_noise(rec: dict, metric: str, value: float, source_format: str,
                   floor: float) -> float:
    """What the run itself says about the uncertainty of VALUE, relative to it: the standard
    error (2 sigma) where measured, else the spread between t_min and t_max (the fastest and
    slowest process; SKaMPI's are single runs, which its standard error summarises), and the
    printed resolution of a text file; never below FLOOR."""
    noise = floor
    if metric == "time":
        if rec.get("std_error_us") is not None:
            noise = max(noise, 2 * rec["std_error_us"] / value)
        elif rec.get("t_min_us") is not None and rec.get("t_max_us") is not None:
            noise = max(noise, (rec["t_max_us"] - rec["t_min_us"]) / value)
        noise = max(noise, TEXT_RESOLUTION_US.get(source_format, 0.0) / value)
    else:
        resolution = TEXT_RESOLUTION_MB_S.get(source_format, 0.0)
        if rec["component"] == "beff":
            resolution *= rec["procs"]  # b_eff prints per process, b_mb_per_s is accumulated
        noise = max(noise, resolution / value)
    return noise


def describe(rec: dict) -> str:
    """The benchmark and the fields that tell its rows apart."""
    parts = [rec["benchmark"]]
    if rec.get("mode"):
        parts.append(rec["mode"])
    if rec.get("group") is not None:
        parts.append(f"group {rec['group']}")
    for key in IDENTITY_FIELDS.get(rec["component"], ()):
        value = rec.get(key)
        if value is None or IDENTITY_DEFAULTS.get(key) == value or key in LABEL_SKIP:
            continue
        parts.append(value if isinstance(value, str) else LABEL_FORMAT.get(key, key + " {}")
                     .format(value))
    return " ".join(parts)


def comparable_rows(run: ParsedRun) -> list[dict]:
    """The rows compare matches: b_eff runs as the original's analysis (maxima over the
    repetitions, the best method, averages), so that effbench's per-repetition records meet an
    imported protocol; every other component's rows as they are."""
    if run.run.get("component") == "beff":
        return beff_analysis(run.results)
    return run.results


def compare_runs(a: ParsedRun, b: ParsedRun, threshold: float = 0.10,
                 noise_floor: float = 0.02, min_bytes: int = 0) -> Comparison:
    rows_a = {identity_key(r): r for r in comparable_rows(a) if r["bytes"] >= min_bytes}
    rows_b = {identity_key(r): r for r in comparable_rows(b) if r["bytes"] >= min_bytes}
    rows = []
    for key, ra in rows_a.items():
        rb = rows_b.get(key)
        if rb is None:
            continue
        common = common_metric(ra, rb)
        if common is None:
            continue
        metric, field = common
        va, vb = ra[field], rb[field]
        ratio = vb / va
        # Positive change = worse: slower time or lower bandwidth.
        change = ratio - 1 if metric == "time" else 1 / ratio - 1
        noise_a = relative_noise(ra, metric, va, a.source_format, noise_floor)
        noise_b = relative_noise(rb, metric, vb, b.source_format, noise_floor)
        noise = noise_a + noise_b
        # A change counts when B/A stays on one side of 1 for every A and B within their noise
        # (each relative to its own value: a measured 0.0156 us against a printed 0.02, known to
        # 0.005, is no change).
        low = ratio * (1 - noise_b) / (1 + noise_a)
        high = ratio * (1 + noise_b) / (1 - noise_a) if noise_a < 1 else math.inf
        flag = ""
        if low > 1 or high < 1:
            flag = "slower" if change > 0 else "faster"
            if change > 0 and change > threshold:
                flag = "REGRESSION"
        rows.append(Row(key, describe(ra), metric, va, vb, ratio, noise, change, flag))
    only_a = sum(1 for k in rows_a if k not in rows_b)
    only_b = sum(1 for k in rows_b if k not in rows_a)
    return Comparison(rows, only_a, only_b, threshold,
                      headline_rows(a, b, threshold, noise_floor))


# Headline numbers of the summaries (b_eff, b_eff_io): field -> (label, metric).
HEADLINES = {
    "b_eff_mb_per_s": ("b_eff", "bandwidth"),
    "b_eff_per_proc_mb_per_s": ("b_eff per process", "bandwidth"),
    "b_eff_rings_mb_per_s": ("b_eff ring patterns", "bandwidth"),
    "b_eff_random_mb_per_s": ("b_eff random patterns", "bandwidth"),
    "b_eff_lmax_mb_per_s": ("b_eff at L_max", "bandwidth"),
    "b_eff_lmax_rings_mb_per_s": ("b_eff at L_max, rings", "bandwidth"),
    "latency_us": ("b_eff latency", "time"),
    "latency_rings_us": ("b_eff latency, rings", "time"),
    "pingpong_latency_us": ("ping-pong latency", "time"),
    "pingpong_bw_mb_per_s": ("ping-pong bandwidth at L_max", "bandwidth"),
    "b_eff_io_mb_per_s": ("b_eff_io", "bandwidth"),
    "b_eff_io_rel21_mb_per_s": ("b_eff_io, release 2.1 formula", "bandwidth"),
}


def headline_values(run: ParsedRun) -> dict[tuple, tuple]:
    """The summaries' one-number results: (component, field, partition) -> (label, metric,
    value, procs); b_eff_io's per-partition figures as "b_eff_io on N processes"."""
    out = {}
    for s in run.summaries:
        for field, (label, metric) in HEADLINES.items():
            if isinstance(s.get(field), (int, float)) and s[field] > 0:
                out[(s.get("component"), field, None)] = (label, metric, s[field],
                                                          s.get("procs"))
        for part in s.get("partitions") or []:
            v = part.get("b_eff_io_mb_per_s")
            if isinstance(v, (int, float)) and v > 0:
                out[(s.get("component"), "partition", part.get("procs"))] = (
                    f"b_eff_io on {part.get('procs')} processes", "bandwidth", v,
                    part.get("procs"))
    return out


def headline_rows(a: ParsedRun, b: ParsedRun, threshold: float, noise_floor: float) -> list[Row]:
    """The summaries' one-number results, compared as rows (noise: the floor, as a summary
    carries no spread of its own)."""
    va, vb = headline_values(a), headline_values(b)
    rows = []
    for key, (label, metric, x, procs) in va.items():
        if key not in vb:
            continue
        y = vb[key][2]
        ratio = y / x
        change = ratio - 1 if metric == "time" else 1 / ratio - 1
        noise = 2 * noise_floor
        flag = ""
        if abs(change) > noise:
            flag = "slower" if change > 0 else "faster"
            if change > threshold:
                flag = "REGRESSION"
        # (kind, component, field, partition, procs, bytes): procs and bytes where rows have them
        rows.append(Row(("summary", *key, procs, 0), label, metric, x, y, ratio, noise, change,
                         flag))
    return rows


def geometric_mean(values: list[float]) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def print_comparison(cmp: Comparison, console, label_a: str, label_b: str,
                     only_changes: bool = False) -> None:
    from rich.table import Table

    table = Table(title=f"B = {label_b}  vs  A = {label_a}", show_lines=False)
    for col, just in (("benchmark", "left"), ("procs", "right"), ("bytes", "right"),
                      ("A", "right"), ("B", "right"), ("B/A", "right"), ("noise", "right"),
                      ("", "left")):
        table.add_column(col, justify=just)
    styles = {"REGRESSION": "bold red", "slower": "yellow", "faster": "green"}
    for r in cmp.headlines + cmp.rows:
        if only_changes and not r.flag:
            continue
        unit = "us" if r.metric == "time" else "MB/s"
        table.add_row(r.label, str(r.key[4]), str(r.key[5]), f"{r.a:.4g} {unit}",
                      f"{r.b:.4g} {unit}", f"{r.ratio:.3f}", f"±{r.noise * 100:.1f}%", r.flag,
                      style=styles.get(r.flag))
    console.print(table)
    slower = sum(1 for r in cmp.rows + cmp.headlines if r.flag in ("slower", "REGRESSION"))
    times = [r.ratio for r in cmp.rows if r.metric == "time"]
    console.print(
        f"{len(cmp.rows)} rows" + (f" and {len(cmp.headlines)} headline values"
                                    if cmp.headlines else "") + " compared"
        + (f" (geometric mean B/A of times {geometric_mean(times):.3f})" if times else "")
        + f"; {len(cmp.improvements)} better and {slower} worse beyond the noise; "
          f"{len(cmp.regressions)} regressions beyond {cmp.threshold * 100:g}%"
        + (f"; {cmp.only_a} rows only in A" if cmp.only_a else "")
        + (f"; {cmp.only_b} rows only in B" if cmp.only_b else ""), soft_wrap=True)
