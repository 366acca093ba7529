"""The side-by-side table of bench/osu and bench/imb2021 (issue 38): one row per
program, size and quantity with the ratio effbench / reference, both sides'
spreads over the rounds, and a flag where the two sides differ by more than the
noise.  Only the Python standard library is used.

A value or wall-time row is FLAGGED when its ratio leaves [0.9, 1.1] and the two
sides' ranges over the rounds (min..max) do not overlap: a difference larger
than 10 % that the rounds' scatter cannot explain.  A peak-memory row is
FLAGGED when effbench's peak RSS of the largest rank passes 1.05 x the
reference's (the median over the rounds).
"""
import statistics
import sys

RATIO_LOW, RATIO_HIGH = 0.9, 1.1
MEMORY_HIGH = 1.05


def summary(values):
    """Median, min, max and spread ((max - min) / median) of one side's values."""
    med = statistics.median(values)
    spread = (max(values) - min(values)) / med if med else 0.0
    return {"median": med, "min": min(values), "max": max(values), "spread": spread,
            "values": list(values)}


def row(program, np, size, quantity, eff_values, ref_values, memory=False):
    """A table row comparing effbench's values over the rounds with the reference's."""
    e, r = summary(eff_values), summary(ref_values)
    ratio = e["median"] / r["median"] if r["median"] else None
    flag = ""
    if ratio is not None:
        if memory:
            flag = "memory" if ratio > MEMORY_HIGH else ""
        elif not RATIO_LOW <= ratio <= RATIO_HIGH and (e["max"] < r["min"] or r["max"] < e["min"]):
            flag = "value" if quantity not in ("wall (s)",) else "wall"
    return {"program": program, "np": np, "size": size, "quantity": quantity,
            "effbench": e, "reference": r, "ratio": ratio, "flag": flag}


def process_rows(program, np, eff_runs, ref_runs):
    """The whole-process wall time and the peak RSS of the largest rank (MiB) of a
    program's launches: lists of {"wall_s", "maxrss_kib"}, one per round."""
    return [row(program, np, None, "wall (s)", [x["wall_s"] for x in eff_runs],
                [x["wall_s"] for x in ref_runs]),
            row(program, np, None, "peak RSS (MiB)", [x["maxrss_kib"] / 1024 for x in eff_runs],
                [x["maxrss_kib"] / 1024 for x in ref_runs], memory=True)]


def fmt(v):
    return "%.2f" % v if abs(v) < 1e5 else "%.4g" % v


def print_settings(launcher, settings, extra, notes=(), out=sys.stdout):
    """The settings the harness used: the launcher, the environment variables it set
    (those a user of this machine sets too) and the arguments given to both sides."""
    print("# launcher: %s" % " ".join(launcher), file=out)
    print("# environment set: %s" % (" ".join("%s=%s" % kv for kv in sorted(settings.items()))
                                      or "(none)"), file=out)
    print("# arguments to both sides: %s" % (" ".join(extra) or "(none: the programs' defaults)"),
          file=out)
    for note in notes:
        print("# %s" % note, file=out)


def print_table(rows, ref_name, out=sys.stdout):
    """One table of all rows, then the summary line counting the flags."""
    print("%-26s %3s %9s %-26s %12s %7s %12s %7s %7s  %s" % (
        "program", "np", "size", "quantity", "effbench", "spread", ref_name, "spread",
        "ratio", "flag"), file=out)
    for r in rows:
        size = "-" if r["size"] is None else str(r["size"])
        line = "%-26s %3d %9s %-26s %12s %6.1f%% %12s %6.1f%% %7s  %s" % (
            r["program"][:26], r["np"], size, r["quantity"][:26], fmt(r["effbench"]["median"]),
            100 * r["effbench"]["spread"], fmt(r["reference"]["median"]),
            100 * r["reference"]["spread"],
            "%.3f" % r["ratio"] if r["ratio"] is not None else "-",
            "FLAGGED " + r["flag"] if r["flag"] else "")
        print(line.rstrip(), file=out)
    print_summary(rows, out)


def print_summary(rows, out=sys.stdout):
    counts = {k: sum(1 for r in rows if r["flag"] == k) for k in ("value", "wall", "memory")}
    programs = len({r["program"] for r in rows})
    flagged = len({r["program"] for r in rows if r["flag"]})
    print("# summary: %d rows of %d programs; FLAGGED: %d (values %d, wall times %d, memory %d)"
          " in %d programs" % (len(rows), programs, sum(counts.values()), counts["value"],
                               counts["wall"], counts["memory"], flagged), file=out)
