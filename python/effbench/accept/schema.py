"""A profile read (load_profile) and each [[check]] of it checked against the schema (docs/acceptance.md), every mistake
named by file and line."""

from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path

from ..component_names import BEFF, BEFF_IO, GUIDELINES
from .profile import (ALIASES, CHECK_KEYS, DEFAULT_KEYS, GUIDELINE_METRIC, PLACEMENTS,
                      PROFILE_KEYS, RATE_UNITS, ROW_METRICS, SUMMARY_FIELDS, TOP_KEYS, Check, Profile, ProfileError,
                      Threshold, _unknown, _Where, known_programs, metric_unit, parse_rate,
                      program_kind, split_command)


def _int(where, keys, label, value, least):
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise where.error(keys, f"{label}: expected a whole number of at least {least}, "
                          f"not {value!r}")
    return value


def _seconds(where, keys, label, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise where.error(keys, f"{label}: expected seconds (a number above 0), not {value!r}")
    return float(value)


def parse_check(where, i: int, table: dict, peaks: dict[str, float]) -> Check:
    """The i-th [[check]] (0-based; its defaults merged in) as a Check."""
    keys = ("check", i)
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise where.error(keys + ("name",), f"check {i + 1}: expected name = \"...\" "
                          "(a non-empty string)")
    label = f"check '{name}'"
    _unknown(where, keys, table, CHECK_KEYS, label)
    for key in ("command", "ranks", "metric", "threshold", "time_budget"):
        if key not in table:
            raise where.error(keys, f"{label}: {key} is missing (required: command, ranks, "
                              "metric, threshold, time_budget)")
    words = split_command(table["command"])
    if not words:
        raise where.error(keys + ("command",), f"{label}: command: expected the program and "
                          "its arguments, a string or an array of strings")
    kind = program_kind(words)
    if kind is None:
        close = difflib.get_close_matches(Path(words[0]).name, known_programs(), n=1)
        raise where.error(keys + ("command",), f"{label}: command: unknown program "
                          f"'{' '.join(words[:2])}'"
                          + (f" (did you mean '{close[0]}'?)" if close else
                             " (an OSU program osu_*, IMB-*, b_eff, b_eff_io or effbench "
                             "COMPONENT)"))
    if "--json" in words:
        raise where.error(keys + ("command",), f"{label}: command: --json is effbench's to "
                          "set (each repetition writes its own file)")
    check = Check(name=name, words=words, kind=kind,
                  ranks=_int(where, keys + ("ranks",), f"{label}: ranks", table["ranks"], 1),
                  metric="", threshold=Threshold(0.0),
                  time_budget=_seconds(where, keys + ("time_budget",), f"{label}: time_budget",
                                       table["time_budget"]),
                  line=where.line(*keys))
    _placement(where, keys, label, table, check)
    _metric(where, keys, label, table, check)
    check.threshold = _threshold(where, keys + ("threshold",), label, table["threshold"],
                                 check, peaks)
    check.repetitions = _int(where, keys + ("repetitions",), f"{label}: repetitions",
                             table.get("repetitions", 1), 1)
    check.allowed_failures = _int(where, keys + ("allowed_failures",),
                                  f"{label}: allowed_failures", table.get("allowed_failures", 0),
                                  0)
    if check.allowed_failures >= check.repetitions:
        raise where.error(keys + ("allowed_failures",), f"{label}: allowed_failures "
                          f"{check.allowed_failures} must be below repetitions "
                          f"{check.repetitions} (else the check cannot fail)")
    if "row_timeout" in table:
        check.row_timeout = _seconds(where, keys + ("row_timeout",), f"{label}: row_timeout",
                                     table["row_timeout"])
    return check


def _placement(where, keys, label, table, check: Check) -> None:
    if "hosts" in table:
        hosts = table["hosts"]
        if not isinstance(hosts, list) or not hosts or not all(
                isinstance(h, str) and h and "," not in h and ":" not in h for h in hosts):
            raise where.error(keys + ("hosts",), f"{label}: hosts: expected an array of host "
                              "names, e.g. [\"node1\", \"node2\"]")
        if len(set(hosts)) != len(hosts):
            raise where.error(keys + ("hosts",), f"{label}: hosts: a host is named twice")
        check.hosts = list(hosts)
    if "nodes" in table:
        check.nodes = _int(where, keys + ("nodes",), f"{label}: nodes", table["nodes"], 1)
        if check.hosts and check.nodes != len(check.hosts):
            raise where.error(keys + ("nodes",), f"{label}: nodes {check.nodes} but "
                              f"{len(check.hosts)} hosts")
    elif check.hosts:
        check.nodes = len(check.hosts)
    if check.nodes and check.nodes > check.ranks:
        raise where.error(keys + ("nodes",), f"{label}: {check.nodes} nodes for "
                          f"{check.ranks} ranks: a node without a rank")
    if "ranks_per_node" in table:
        check.ranks_per_node = _int(where, keys + ("ranks_per_node",),
                                    f"{label}: ranks_per_node", table["ranks_per_node"], 1)
        if check.nodes is None:
            if check.ranks % check.ranks_per_node:
                raise where.error(keys + ("ranks_per_node",), f"{label}: {check.ranks} ranks "
                                  f"do not fill nodes of {check.ranks_per_node}")
            check.nodes = check.ranks // check.ranks_per_node
        elif check.nodes * check.ranks_per_node != check.ranks:
            raise where.error(keys + ("ranks_per_node",), f"{label}: {check.nodes} nodes x "
                              f"{check.ranks_per_node} ranks per node is not ranks "
                              f"{check.ranks}")
    elif check.nodes:
        if check.ranks % check.nodes:
            raise where.error(keys + ("ranks",), f"{label}: {check.ranks} ranks do not divide "
                              f"evenly over {check.nodes} nodes (give ranks_per_node)")
        check.ranks_per_node = check.ranks // check.nodes
    if "expect_placement" in table:
        value = table["expect_placement"]
        if value not in PLACEMENTS:
            raise where.error(keys + ("expect_placement",), f"{label}: expect_placement: "
                              f"expected one of {', '.join(PLACEMENTS)}, not {value!r}")
        check.expect_placement = value


def _metric(where, keys, label, table, check: Check) -> None:
    metric = table["metric"]
    metric = ALIASES.get(metric, metric) if isinstance(metric, str) else metric
    if check.kind == GUIDELINES:
        if metric != GUIDELINE_METRIC:
            raise where.error(keys + ("metric",), f"{label}: metric: effbench guidelines is "
                              f"judged by the guidelines it finds violated: "
                              f"\"{GUIDELINE_METRIC}\", not {table['metric']!r}")
        for key in ("bytes", "benchmark", "procs"):
            if key in table:
                raise where.error(keys + (key,), f"{label}: {key}: the violations are counted "
                                  "over the whole table")
        check.metric = metric
        return
    if check.kind in (BEFF, BEFF_IO):
        fields = SUMMARY_FIELDS[check.kind]
        if metric not in fields:
            raise where.error(keys + ("metric",), f"{label}: metric: {check.words[0]} is "
                              f"judged by its summary: one of {', '.join(fields)} (or "
                              f"{'b_eff' if check.kind == BEFF else 'b_eff_io'}), not "
                              f"{table['metric']!r}")
        for key in ("bytes", "benchmark", "procs"):
            if key in table:
                raise where.error(keys + (key,), f"{label}: {key}: a summary metric has no "
                                  "rows to choose")
        check.metric = metric
        return
    allowed = ("latency", "bandwidth") if check.kind == "nodes" else tuple(ROW_METRICS)
    if metric not in allowed:
        raise where.error(keys + ("metric",), f"{label}: metric: expected one of "
                          f"{', '.join(allowed)}, not {table['metric']!r}")
    check.metric = metric
    if "bytes" not in table:
        raise where.error(keys, f"{label}: bytes is missing: the message size whose row is "
                          "judged")
    check.bytes = _int(where, keys + ("bytes",), f"{label}: bytes", table["bytes"], 0)
    if check.kind == "nodes" and metric == "latency" and check.bytes not in (0, 8):
        raise where.error(keys + ("bytes",), f"{label}: bytes: effbench nodes measures "
                          "latency at 0 and 8 bytes")
    if "benchmark" in table:
        if not isinstance(table["benchmark"], str) or not table["benchmark"]:
            raise where.error(keys + ("benchmark",), f"{label}: benchmark: expected a "
                              "benchmark's name, e.g. \"PingPong\"")
        check.benchmark = table["benchmark"]
    if "procs" in table:
        check.procs = _int(where, keys + ("procs",), f"{label}: procs", table["procs"], 1)


def _threshold(where, keys, label, value, check: Check, peaks) -> Threshold:
    unit, _ = metric_unit(check.metric)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if check.metric == GUIDELINE_METRIC:
            if value < 0 or value != int(value):
                raise where.error(keys, f"{label}: threshold: expected a whole number >= 0 of "
                                  "guidelines that may be violated")
            return Threshold(float(value))
        if not value > 0:
            raise where.error(keys, f"{label}: threshold: expected a value above 0 {unit}")
        return Threshold(float(value))
    if not isinstance(value, dict) or set(value) != {"fraction", "of"}:
        raise where.error(keys, f"{label}: threshold: expected a number in {unit} or "
                          "{ fraction = 0.85, of = \"PEAK\" } (a peak of [peaks])")
    fraction, peak = value["fraction"], value["of"]
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not fraction > 0:
        raise where.error(keys, f"{label}: threshold: fraction: expected a number above 0")
    if unit != "MB/s":
        raise where.error(keys, f"{label}: threshold: a fraction of a peak judges a bandwidth; "
                          f"{check.metric} is in {unit}: give an absolute threshold")
    if peak not in peaks:
        raise where.error(keys, f"{label}: threshold: no peak '{peak}' in [peaks]"
                          + (f" (declared: {', '.join(peaks)})" if peaks else
                             " (the profile declares none)"))
    return Threshold(fraction * peaks[peak], float(fraction), peak, peaks[peak])


def load_profile(path: str | Path) -> Profile:
    """The profile in PATH, checked; ProfileError names the first mistake's file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{path}:1: not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        where = f"{m.group(1)}" if m else "1"
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        col = f" (column {m.group(2)})" if m else ""
        raise ProfileError(f"{path}:{where}: TOML syntax: {msg}{col}") from None
    where = _Where(path, text)
    _unknown(where, (), data, TOP_KEYS, "profile")
    head = _table(where, data, "profile")
    _unknown(where, ("profile",), head, PROFILE_KEYS, "[profile]")
    for key in PROFILE_KEYS:
        if key in head and not isinstance(head[key], str):
            raise where.error(("profile", key), f"[profile] {key}: expected a string")
    peaks = {}
    for name, value in _table(where, data, "peaks").items():
        rate = parse_rate(value)
        if rate is None:
            raise where.error(("peaks", name), f"[peaks] {name}: expected a rate such as "
                              f"\"100 Gbit/s\" or \"12.5 GB/s\" (units: "
                              f"{', '.join(RATE_UNITS)}), not {value!r}")
        peaks[name] = rate
    defaults = _table(where, data, "defaults")
    _unknown(where, ("defaults",), defaults, DEFAULT_KEYS, "[defaults]")
    checks = data.get("check")
    if not isinstance(checks, list) or not checks:
        raise where.error(("check",), "no [[check]]: a profile lists at least one check")
    profile = Profile(path, head.get("name") or path.stem, head.get("description", ""), peaks)
    seen: dict[str, int] = {}
    for i, table in enumerate(checks):
        check = parse_check(where, i, {**defaults, **table}, peaks)
        if check.name in seen:
            raise where.error(("check", i, "name"), f"check '{check.name}': the name of "
                              f"check {seen[check.name] + 1} too (names must differ)")
        seen[check.name] = i
        profile.checks.append(check)
    return profile


def _table(where: _Where, data: dict, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise where.error((key,), f"{key}: expected a table [{key}]")
    return value
