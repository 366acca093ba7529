"""A group's runs as statistics (docs/statistics.md): per row and metric the median of the
run values with its order-statistics interval (`summary`), two groups' ratio of medians with
its interval and the Mann-Whitney U test (`compare group:A group:B`), and a group held
against the runs of its series before it (`check group:G`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .comparable import differences, methodology_refusal
from .compare import BANDWIDTH_FIELDS, comparable_rows, describe, headline_values
from .groupstats import (MannWhitney, MedianInterval, RatioInterval, mann_whitney,
                         median, median_interval, ratio_interval, verdict)
from .records import TIME_FIELDS, ParsedRun, identity_key
from .store.db import StoreError
from .store.groups import Group, describe_members, load_group


@dataclass
class Value:
    """One run's value of one row (or summary headline) and metric."""

    label: str
    procs: int | None
    nbytes: int | None  # None: a summary's headline value
    metric: str  # "time" (lower is better) or "bandwidth"
    field: str  # the record's field: t_avg_us, mbytes_per_s, b_eff_mb_per_s, ...
    value: float

    @property
    def unit(self) -> str:
        return "us" if self.metric == "time" else "MB/s"


def run_values(run: ParsedRun) -> dict[tuple, Value]:
    """Every value of RUN that a group statistic is taken of, by (row identity, field): each
    row's time (t_avg_us, else t_max_us where a text table printed only that) and bandwidth
    (the first of b_mb_per_s, mb_per_s, mbytes_per_s), and the summaries' headline values;
    only positive values (a ratio and a log need them; 0-byte rows have no bandwidth)."""
    out = {}
    for rec in comparable_rows(run):
        for metric, fields in (("time", TIME_FIELDS), ("bandwidth", BANDWIDTH_FIELDS)):
            fld = next((f for f in fields if isinstance(rec.get(f), (int, float))
                        and not isinstance(rec.get(f), bool)), None)
            if fld is not None and rec[fld] > 0:
                out[(identity_key(rec), fld)] = Value(describe(rec), rec["procs"],
                                                      rec["bytes"], metric, fld, rec[fld])
    for key, (label, metric, value, procs) in headline_values(run).items():
        out[("summary", *key)] = Value(label, procs, None, metric, key[1], value)
    return out


@dataclass
class GroupData:
    group: Group
    runs: list[tuple[int, ParsedRun]]  # the launches that ended well: (run id, run)
    values: dict[tuple, list[Value]]  # key -> one value per run that has it, in run order

    @property
    def name(self) -> str:
        return f"group {self.group.id}"


def load_group_data(store, ref: int) -> GroupData:
    """The group's runs that ended well, refused when they do not measure the same thing."""
    group = load_group(store, ref)
    runs = [(rid, store.load(rid)) for rid in group.ok_runs]
    if not runs:
        raise StoreError(f"group {group.id} has no run that ended well "
                         f"({describe_members(group)})")
    first_id, first = runs[0]
    for rid, run in runs[1:]:
        decisive = [d.what for d in differences(first, run) if d.changes_measurement]
        if decisive or methodology_refusal(first, run, "", ""):
            raise StoreError(f"group {group.id}: run {first_id} and run {rid} do not measure "
                             f"the same thing ({', '.join(decisive) or 'methodology'})")
    values: dict[tuple, list[Value]] = {}
    for _, run in runs:
        for key, v in run_values(run).items():
            values.setdefault(key, []).append(v)
    return GroupData(group, runs, values)


def order(values: dict[tuple, list[Value]]) -> list[tuple]:
    """Headline values first, then rows as the first run wrote them, time before bandwidth."""
    place = {k: i for i, k in enumerate(values)}
    return sorted(values, key=lambda k: (k[0] != "summary", place[k]))


@dataclass
class SummaryRow:
    first: Value  # label, procs, bytes, metric, field of the row
    values: list[float]
    interval: MedianInterval


def summarise(data: GroupData, confidence: Fraction) -> list[SummaryRow]:
    return [SummaryRow(data.values[k][0], [v.value for v in data.values[k]],
                       median_interval([v.value for v in data.values[k]], confidence))
            for k in order(data.values)]


@dataclass
class CompareRow:
    first: Value
    a: list[float]
    b: list[float]
    interval: RatioInterval
    test: MannWhitney
    verdict: str


def compare_groups(ga: GroupData, gb: GroupData, confidence: Fraction, threshold: float,
                   min_bytes: int = 0) -> tuple[list[CompareRow], int, int]:
    """The rows both groups have (none below MIN_BYTES; headline values always), and how
    many only A and only B have."""
    rows = []
    for key in order(ga.values):
        nbytes = ga.values[key][0].nbytes
        if key not in gb.values or (nbytes is not None and nbytes < min_bytes):
            continue
        a = [v.value for v in ga.values[key]]
        b = [v.value for v in gb.values[key]]
        first = ga.values[key][0]
        interval = ratio_interval(a, b, confidence)
        rows.append(CompareRow(first, a, b, interval, mann_whitney(a, b),
                               verdict(interval, first.metric, threshold)))
    only_a = sum(1 for k in ga.values if k not in gb.values)
    only_b = sum(1 for k in gb.values if k not in ga.values)
    return rows, only_a, only_b


def group_check(store, data: GroupData, last: int):
    """The group held against the LAST runs of its series before its first run, by check's
    band rule, each value the median over the group's runs: (baseline size, alerts)."""
    from .history import alerts_for, series_before, values_of

    metas = {m["id"]: m for m in store.list_runs()}
    first_id = min((rid for rid, _ in data.runs),
                   key=lambda rid: (metas[rid]["start"] or "", rid))
    members = {rid for rid, _ in data.runs}
    baseline = [p for meta, p in series_before(store, first_id, last + len(members))
                if meta["id"] not in members][-last:]
    reference = dict(data.runs)[first_id]
    per_run = [values_of(reference, run) for _, run in data.runs]
    mine = {}
    for key, (label, procs, nbytes, metric, _) in per_run[0].items():
        vals = [p[key][4] for p in per_run if key in p]
        mine[key] = (label, procs, nbytes, metric, median(vals))
    return len(baseline), alerts_for(mine, [values_of(reference, b) for b in baseline])
