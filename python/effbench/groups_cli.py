"""`effbench-results` commands on groups of runs (docs/statistics.md): `groups` (list),
`group RUN...` (tie stored runs into a group), `summary GROUP`, and what `compare` and `check`
do when they are given groups (`group:N`)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

from .groupstats import fewest_pair
from .store.db import Store, StoreError

GROUP_PREFIX = "group:"


def is_group(ref: str) -> bool:
    return ref.startswith(GROUP_PREFIX)


def confidence_of(pct: float | None) -> Fraction:
    """--confidence PCT as a fraction; 95 % unless given."""
    if pct is None:
        return Fraction(95, 100)
    if not 0 < pct < 100:
        raise StoreError(f"--confidence {pct:g}: expected a percentage between 0 and 100")
    return Fraction(str(pct)) / 100


def pct(value: Fraction | float) -> str:
    """A confidence or coverage in percent: 95 %, 97.85 %."""
    return f"{float(value) * 100:.4g} %"


def num(value: float | None) -> str:
    return "-" if value is None else f"{value:.6g}"


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first LEFT left-aligned, the rest right."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    return ["  ".join((c.ljust(w) if i < left else c.rjust(w)) for i, (c, w) in
                      enumerate(zip(map(str, r), widths))).rstrip() for r in [headers, *rows]]


def value_name(v) -> str:
    return f"{v.field} [{v.unit}]"


def cmd_groups(args) -> int:
    from .store.groups import describe_members, list_groups
    with Store(args.db) as store:
        groups = list_groups(store)
    rows = [[str(g.id), g.created_at.strftime("%Y-%m-%d %H:%M"), (g.batch or "")[:12],
             describe_members(g, why=False), g.label] for g in groups]
    for line in table(["id", "created", "batch", "launches", "command or label"], rows, 5):
        print(line)
    return 0


def cmd_group(args) -> int:
    from .groups import load_group_data
    from .store.groups import existing_runs, make_group
    with Store(args.db) as store:
        ids = [store.resolve(ref) for ref in args.runs]
        missing = set(ids) - existing_runs(store, ids)
        if missing:
            raise StoreError(f"no run {min(missing)}")
        gid = make_group(store, ids, args.label or "runs " + ", ".join(map(str, ids)))
        try:
            load_group_data(store, gid)  # refuses runs that do not measure the same thing
        except StoreError:
            from .store.groups import delete_group
            delete_group(store, gid)
            raise
    print(f"group {gid}: runs {', '.join(map(str, ids))}")
    return 0


def cmd_summary(args) -> int:
    from .groups import load_group_data, summarise
    from .store.groups import describe_members, group_record, resolve_group
    confidence = confidence_of(args.confidence)
    with Store(args.db) as store:
        data = load_group_data(store, resolve_group(store, args.group))
    rows = summarise(data, confidence)
    if args.json:
        print(json.dumps(group_record(data.group)))
        for r in rows:
            iv = r.interval
            print(json.dumps({
                "type": "group_summary", "group": data.group.id, "label": r.first.label,
                "procs": r.first.procs, "bytes": r.first.nbytes, "metric": r.first.metric,
                "field": r.first.field, "unit": r.first.unit, "runs": iv.n, "values": r.values,
                "median": iv.median, "low": iv.low, "high": iv.high, "rank": iv.rank,
                "coverage": None if iv.coverage is None else float(iv.coverage),
                "confidence": float(confidence), "needed": iv.needed}))
        return 0
    g = data.group
    print(f"group {g.id}: {g.label}")
    print(f"{describe_members(g)}; runs {', '.join(str(rid) for rid, _ in data.runs)}")
    print(f"per row, the median of the runs' values and its {pct(confidence)} confidence "
          "interval from order statistics (binomial, distribution-free)")
    body = []
    for r in rows:
        iv = r.interval
        where = (f"[{num(iv.low)}, {num(iv.high)}]" if iv.low is not None
                 else f"too few runs ({iv.needed} needed)")
        body.append([r.first.label, num(r.first.procs), "-" if r.first.nbytes is None
                     else str(r.first.nbytes), value_name(r.first), str(iv.n), num(iv.median),
                     where, "-" if iv.coverage is None else pct(iv.coverage)])
    for line in table(["benchmark", "procs", "bytes", "value", "runs", "median",
                       f"{pct(confidence)} interval", "coverage"], body, 1):
        print(line)
    return 0


def cmd_compare_groups(args) -> int:
    """compare group:A group:B: exit 1 on a regression, 2 on bad input."""
    from .comparable import describe, differences, methodology_refusal
    from .groups import compare_groups, load_group_data
    from .store.groups import resolve_group
    if not (is_group(args.run_a) and is_group(args.run_b)):
        raise StoreError("compare takes two runs or two groups (group:N), not one of each")
    confidence = confidence_of(args.confidence)
    with Store(args.db) as store:
        ga = load_group_data(store, resolve_group(store, args.run_a))
        gb = load_group_data(store, resolve_group(store, args.run_b))
    first_a, first_b = ga.runs[0][1], gb.runs[0][1]
    refusal = methodology_refusal(first_a, first_b, ga.name, gb.name)
    if refusal:
        raise StoreError(refusal)
    diffs = differences(first_a, first_b)
    decisive = [d for d in diffs if d.changes_measurement]
    if decisive and not args.allow_different:
        raise StoreError(f"{ga.name} and {gb.name} do not measure the same thing "
                         f"({', '.join(d.what for d in decisive)}); --allow-different "
                         "compares them anyway")
    rows, only_a, only_b = compare_groups(ga, gb, confidence, args.threshold / 100,
                                          args.min_bytes)
    if not rows:
        raise StoreError(f"{ga.name} and {gb.name} have no measurement in common")
    if args.json:
        for r in rows:
            print(json.dumps(compare_record(ga, gb, r, confidence)))
    else:
        if diffs:
            print(f"{ga.name} (A) and {gb.name} (B) differ in:")
            for line in describe(diffs):
                print(f"  {line}")
        print_group_comparison(ga, gb, rows, confidence, args.threshold, only_a, only_b,
                               args.only_changes)
    return 1 if any(r.verdict == "REGRESSION" for r in rows) else 0


def compare_record(ga, gb, r, confidence: Fraction) -> dict:
    iv = r.interval
    return {"type": "group_compare", "a": ga.group.id, "b": gb.group.id, "label": r.first.label,
            "procs": r.first.procs, "bytes": r.first.nbytes, "metric": r.first.metric,
            "field": r.first.field, "unit": r.first.unit, "values_a": r.a, "values_b": r.b,
            "median_a": _median(r.a), "median_b": _median(r.b),
            "ratio": iv.ratio, "low": iv.low, "high": iv.high, "rank": iv.rank,
            "coverage": iv.coverage, "exact": iv.exact, "confidence": float(confidence),
            "u": r.test.u, "p": r.test.p, "test": r.test.method, "verdict": r.verdict}


def _median(values):
    from .groupstats import median
    return median(values)


def print_group_comparison(ga, gb, rows, confidence, threshold, only_a, only_b,
                           only_changes: bool = False) -> None:
    print(f"B = {gb.name} ({len(gb.runs)} runs: {gb.group.label})")
    print(f"A = {ga.name} ({len(ga.runs)} runs: {ga.group.label})")
    print(f"per row: the ratio of the medians B/A, its {pct(confidence)} confidence interval "
          "(Hodges-Lehmann/Moses on the log values) and the two-sided Mann-Whitney U test")
    body = []
    for r in rows:
        if only_changes and r.verdict in ("no difference shown", "too few runs"):
            continue
        iv = r.interval
        where = (f"[{num(iv.low)}, {num(iv.high)}]" if iv.low is not None else
                 f"too few runs ({fewest_pair(confidence)} + {fewest_pair(confidence)} "
                 "or more needed)")
        body.append([r.first.label, num(r.first.procs), "-" if r.first.nbytes is None
                     else str(r.first.nbytes), value_name(r.first), str(len(r.a)),
                     str(len(r.b)), num(_median(r.a)), num(_median(r.b)), f"{iv.ratio:.4f}",
                     where, "-" if iv.coverage is None else pct(iv.coverage),
                     f"{r.test.u:g}", f"{r.test.p:.4g} ({r.test.method})", r.verdict])
    for line in table(["benchmark", "procs", "bytes", "value", "runs A", "runs B", "median A",
                       "median B", "B/A", f"{pct(confidence)} interval", "coverage", "U", "p",
                       "verdict"], body, 1):
        print(line)
    count = {v: sum(1 for r in rows if r.verdict == v) for v in
             ("B slower", "REGRESSION", "B faster", "no difference shown", "too few runs")}
    print(f"{len(rows)} values compared: {count['B slower'] + count['REGRESSION']} B slower "
          f"({count['REGRESSION']} regressions beyond {threshold:g} %), {count['B faster']} "
          f"B faster, {count['no difference shown']} no difference shown, "
          f"{count['too few runs']} with too few runs for an interval"
          + (f"; {only_a} only in A" if only_a else "") + (f"; {only_b} only in B" if only_b
                                                          else "")
          + "; p-values are per value, not corrected for the number of values")


def cmd_check_group(args, baseline_runs: int) -> int:
    from .groups import group_check, load_group_data
    from .history import MIN_BAND, MIN_BASELINE, ROBUST_Z
    from .store.groups import resolve_group
    with Store(args.db) as store:
        data = load_group_data(store, resolve_group(store, args.run))
        size, alerts = group_check(store, data, baseline_runs)
    if size < MIN_BASELINE:
        print(f"{data.name}: {size} earlier runs of its series, fewer than {MIN_BASELINE}: "
              "nothing to hold it against")
        return 0
    for a in alerts:
        unit = "us" if a.metric == "time" else "MB/s"
        where = "" if a.nbytes in (None, 0) else f" at {a.nbytes} bytes"
        print(f"{'REGRESSION' if a.worse else 'better'}: {a.label}{where}: median of "
              f"{len(data.runs)} runs {a.value:.4g} {unit}, baseline median {a.median:.4g} "
              f"{unit} +- {a.band:.3g}")
    worse = [a for a in alerts if a.worse]
    print(f"{data.name} ({len(data.runs)} runs) against the {size} runs before it: "
          f"{len(worse)} values worse than their band (robust z {ROBUST_Z:g} x 1.4826 MAD, at "
          f"least {MIN_BAND:.0%})")
    return 1 if worse else 0


def add_parsers(sub, db_help: str) -> None:
    s = sub.add_parser("groups", help="list the groups of runs (run --repeat, group)")
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_groups)

    s = sub.add_parser("group", help="tie stored runs into a group, as independent launches")
    s.add_argument("runs", nargs="+", metavar="RUN", help="run id or hash prefix")
    s.add_argument("--label", default=None, help="what the group is (default: its runs)")
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_group)

    s = sub.add_parser("summary", help="a group's median per row with its confidence interval "
                       "(order statistics)")
    s.add_argument("group", metavar="GROUP", help="group:N or N")
    s.add_argument("--confidence", type=float, default=None, metavar="PCT",
                   help="confidence level in percent (default 95)")
    s.add_argument("--json", action="store_true", help="JSON, one object a line")
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_summary)
