"""The verdict in the HTML report: a table of the checks before the report of each check's
last stored run (effbench/report.py)."""

from __future__ import annotations

import html
from pathlib import Path

from .verdict import CheckVerdict, what_is_judged


def verdict_table(title: str, verdicts: list[CheckVerdict]) -> str:
    rows = []
    for v in verdicts:
        c = v.check
        sign = ">=" if c.higher_is_better else "<="
        cells = ["PASS" if v.passed else "FAIL", c.name, what_is_judged(c),
                 "" if v.measured is None else f"{v.measured:.4g} {c.unit}",
                 f"{sign} {c.threshold.describe(c.unit)}",
                 "" if v.margin is None else f"{v.margin:+.4g} {c.unit}" + (
                     "" if v.margin_rel is None else f" ({v.margin_rel:+.1%})"),
                 v.reason, ", ".join(v.blame)]
        color = "#060" if v.passed else "#a00"
        rows.append(f"<tr style='color:{color}'>" + "".join(
            f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("verdict", "check", "judged", "measured",
                                             "threshold", "margin", "repetitions", "blame"))
    failed = sum(1 for v in verdicts if not v.passed)
    overall = "PASS" if not failed else f"FAIL ({failed} of {len(verdicts)} checks failed)"
    return (f"<h2>Acceptance: {html.escape(overall)}</h2><p class='note'>{html.escape(title)}"
            f"</p><table class='verdict'><tr>{head}</tr>{''.join(rows)}</table>")


def write_verdict_report(outdir: Path, title: str, verdicts: list[CheckVerdict]) -> Path:
    from ..importers import parse_file
    from ..records import FormatError
    from ..report import write_report
    runs = []
    for v in verdicts:
        for rep in reversed(v.reps):
            path = rep.get("json")
            if path and Path(path).is_file():
                try:
                    runs.append((f"{v.check.name}, repetition {rep['rep']}", parse_file(path)))
                    break
                except (FormatError, OSError):
                    continue
    return write_report(runs, outdir, static=False, preface=verdict_table(title, verdicts))
