"""The verdict of a check from its repetitions (docs/acceptance.md, "Verdict"), and the text.

A repetition passes when its run gave a value that meets the threshold. A check of N
repetitions of which K may fail is judged by its (K+1)-th worst repetition, a repetition that
gave no value (it crashed, hung or missed the row) counting as the worst: the check passes
when that one does, that is when at most K repetitions failed. The measured value and margin
shown are that repetition's. A check that ran out of its time budget fails whatever it
measured."""

from __future__ import annotations

from dataclasses import dataclass, field

from .profile import Check


@dataclass
class CheckVerdict:
    check: Check
    passed: bool
    measured: float | None
    margin: float | None          # in the metric's unit; positive: headroom
    margin_rel: float | None      # margin / threshold
    reason: str
    blame: list[str] = field(default_factory=list)
    reps: list[dict] = field(default_factory=list)
    elapsed_s: float = 0.0
    over_budget: bool = False


def rep_passes(check: Check, rep: dict) -> bool:
    from .metrics import meets
    return rep.get("error") is None and rep.get("value") is not None \
        and meets(check, rep["value"])


def _worst_first(check: Check, reps: list[dict]) -> list[dict]:
    """Repetitions from the worst: those without a value, then by value."""
    def key(rep):
        v = rep.get("value")
        if rep.get("error") is not None or v is None:
            return (0, 0.0)
        return (1, -v if not check.higher_is_better else v)
    return sorted(reps, key=key)


def judge(check: Check, state: dict) -> CheckVerdict:
    """The verdict of CHECK from its state (the runner's record of its repetitions)."""
    reps = list(state.get("reps", []))
    elapsed = float(state.get("elapsed_s", 0.0))
    failed = [r for r in reps if not rep_passes(check, r)]
    ordered = _worst_first(check, reps)
    decisive = ordered[check.allowed_failures] if len(ordered) > check.allowed_failures \
        else (ordered[0] if ordered else None)
    measured = decisive.get("value") if decisive and decisive.get("error") is None else None
    margin = margin_rel = None
    if measured is not None:
        t = check.threshold.value
        margin = measured - t if check.higher_is_better else t - measured
        margin_rel = margin / t if t else None  # a threshold of 0 (a count) has none
    n, k = check.repetitions, check.allowed_failures
    over = bool(state.get("over_budget"))
    if over:
        passed = False
        reason = (f"over its time budget ({check.time_budget:g} s): {len(reps)} of {n} "
                  f"repetitions ran in {elapsed:.1f} s")
    else:
        passed = len(failed) <= k and len(reps) == n
        reason = f"{n - len(failed)} of {n} repetitions passed ({k} may fail)" if passed \
            else f"{len(failed)} of {n} repetitions failed ({k} may fail)"
        if not passed and decisive is not None and decisive.get("error"):
            reason += f": {decisive['error']}"
    blame = []
    if not passed:
        for rep in failed:
            for b in rep.get("blame") or []:
                if b not in blame:
                    blame.append(b)
    return CheckVerdict(check, passed, measured, margin, margin_rel, reason, blame, reps,
                        elapsed, over)


def _num(v: float) -> str:
    return f"{v:.4g}"


def what_is_judged(check: Check) -> str:
    if check.bytes is None:
        return check.metric
    bench = f"{check.benchmark} " if check.benchmark else ""
    return f"{bench}{check.metric} at {check.bytes} B"


def describe(v: CheckVerdict) -> str:
    """One line: PASS/FAIL, the check, the measured value, threshold, margin, the reason and
    whom to blame."""
    c = v.check
    sign = ">=" if c.higher_is_better else "<="
    parts = [f"{'PASS' if v.passed else 'FAIL'}  {c.name}: {what_is_judged(c)}"]
    if v.measured is not None:
        parts[0] += f" {_num(v.measured)} {c.unit}"
    else:
        parts[0] += " not measured"
    parts.append(f"threshold {sign} {c.threshold.describe(c.unit)}")
    if v.margin is not None:
        rel = "" if v.margin_rel is None else f" ({v.margin_rel:+.1%})"
        parts.append(f"margin {v.margin:+.4g} {c.unit}{rel}")
    parts.append(v.reason)
    if v.blame:
        parts.append(f"blame: {', '.join(v.blame)}")
    return "; ".join(parts)


def rep_lines(v: CheckVerdict) -> list[str]:
    out = []
    for rep in v.reps:
        head = f"repetition {rep['rep']}: "
        if rep.get("error"):
            head += f"error: {rep['error']}"
        elif rep.get("value") is not None:
            head += f"{_num(rep['value'])} {v.check.unit}" + \
                ("" if rep_passes(v.check, rep) else " (fails)")
        stored = f"run {rep['run_id']}" if rep.get("run_id") is not None else \
            f"not stored ({rep.get('stored') or 'no records'})"
        out.append(f"{head}; {stored}; {rep.get('json')}; {rep.get('elapsed_s', 0):.1f} s")
    return out


def verdict_text(title: str, verdicts: list[CheckVerdict]) -> str:
    lines = [title]
    for v in verdicts:
        lines.append(describe(v))
        lines += [f"      {line}" for line in rep_lines(v)]
    failed = [v.check.name for v in verdicts if not v.passed]
    if failed:
        lines.append(f"verdict: FAIL ({len(failed)} of {len(verdicts)} checks failed: "
                     f"{', '.join(failed)})")
    else:
        lines.append(f"verdict: PASS ({len(verdicts)} of {len(verdicts)} checks passed)")
    return "\n".join(lines) + "\n"
