"""An acceptance profile: its TOML file read with tomllib and checked against the schema of
docs/acceptance.md. Every mistake is named by file and line (`node-pair.toml:14: check 'pair
bandwidth': threshold: ...`): tomllib gives the line of a syntax error only, so the line of a
key is found in the text (`key_lines`)."""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ..component_names import BEFF, BEFF_IO, COMPONENTS, GUIDELINES, NODES
from ..importers.osu_programs import ALL_PROGRAMS as OSU_PROGRAMS

IMB_PROGRAMS = ("IMB-MPI1", "IMB-EXT", "IMB-IO", "IMB-NBC", "IMB-RMA", "IMB-MPI4", "IMB-MT",
                "IMB-P2P")
PLACEMENTS = ("same-node", "different-nodes", "same-socket", "different-sockets",
              "different-gpus")
# row metrics: unit and whether a higher value is better
ROW_METRICS = {"latency": ("us", False), "bandwidth": ("MB/s", True),
               "message_rate": ("messages/s", True)}
# summary metrics of b_eff and b_eff_io (docs/beff.md, docs/beff-io.md); aliases
SUMMARY_FIELDS = {
    BEFF: ("b_eff_mb_per_s", "b_eff_per_proc_mb_per_s", "b_eff_rings_mb_per_s",
           "b_eff_random_mb_per_s", "b_eff_lmax_mb_per_s", "b_eff_lmax_per_proc_mb_per_s",
           "b_eff_lmax_rings_mb_per_s", "b_eff_lmax_rings_per_proc_mb_per_s", "latency_us",
           "latency_rings_us", "pingpong_latency_us", "pingpong_bw_mb_per_s"),
    BEFF_IO: ("b_eff_io_mb_per_s", "b_eff_io_rel21_mb_per_s"),
}
ALIASES = {"b_eff": "b_eff_mb_per_s", "b_eff_io": "b_eff_io_mb_per_s"}
# effbench guidelines (docs/guidelines.md) is judged by the number of guidelines it finds
# violated: a count, lower is better, and a threshold of 0 allowed
GUIDELINE_METRIC = "violations"
# declared peaks: bandwidths, in MB/s (10^6 bytes/s) after conversion
RATE_UNITS = {"bit/s": 1e-6 / 8, "kbit/s": 1e-3 / 8, "Mbit/s": 1 / 8, "Gbit/s": 1e3 / 8,
              "Tbit/s": 1e6 / 8, "B/s": 1e-6, "kB/s": 1e-3, "MB/s": 1.0, "GB/s": 1e3,
              "TB/s": 1e6, "KiB/s": 1024 / 1e6, "MiB/s": 1048576 / 1e6,
              "GiB/s": 1073741824 / 1e6}

TOP_KEYS = ("profile", "peaks", "defaults", "check")
PROFILE_KEYS = ("name", "description")
CHECK_KEYS = ("name", "command", "ranks", "nodes", "hosts", "ranks_per_node", "expect_placement",
              "metric", "bytes", "benchmark", "procs", "threshold", "repetitions",
              "allowed_failures", "time_budget", "row_timeout")
DEFAULT_KEYS = ("ranks", "nodes", "ranks_per_node", "expect_placement", "repetitions",
                "allowed_failures", "time_budget", "row_timeout")


class ProfileError(ValueError):
    """A mistake in a profile: the message starts with `file:line:`."""


@dataclass
class Threshold:
    value: float                 # in the metric's unit
    fraction: float | None = None
    peak: str | None = None      # the declared peak's name
    peak_value: float | None = None

    def describe(self, unit: str) -> str:
        if self.peak is None:
            return f"{self.value:.6g} {unit}"
        return (f"{self.value:.6g} {unit} ({self.fraction:.6g} x {self.peak} "
                f"{self.peak_value:.6g} {unit})")


@dataclass
class Check:
    name: str
    words: list[str]             # the command as typed: program, arguments
    kind: str                    # rows, nodes, beff, beff_io, guidelines
    ranks: int
    metric: str                  # a ROW_METRICS name or a summary field
    threshold: Threshold
    time_budget: float
    nodes: int | None = None
    hosts: list[str] | None = None
    ranks_per_node: int | None = None
    expect_placement: str | None = None
    bytes: int | None = None
    benchmark: str | None = None
    procs: int | None = None
    repetitions: int = 1
    allowed_failures: int = 0
    row_timeout: float | None = None
    line: int = 0

    @property
    def unit(self) -> str:
        return metric_unit(self.metric)[0]

    @property
    def higher_is_better(self) -> bool:
        return metric_unit(self.metric)[1]


@dataclass
class Profile:
    path: Path
    name: str
    description: str
    peaks: dict[str, float]
    checks: list[Check] = field(default_factory=list)


def metric_unit(metric: str) -> tuple[str, bool]:
    """(unit, higher is better) of a row metric or a summary field."""
    if metric == GUIDELINE_METRIC:
        return ("guidelines violated", False)
    if metric in ROW_METRICS:
        return ROW_METRICS[metric]
    return ("us", False) if metric.endswith("_us") else ("MB/s", True)


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def _key_parts(text: str) -> tuple[str, ...]:
    return tuple(p.strip().strip("\"'") for p in re.findall(
        r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", text))


def key_lines(text: str) -> dict[tuple, int]:
    """The line (1-based) of every table header and key of a TOML text, by its path: ("peaks",
    "link"), ("check", 1, "threshold") for the second [[check]]'s key, ("check", 1) for its
    header. Lines inside multi-line strings are not keys; a key of an inline table or a
    multi-line array is found at the line of the key that holds it."""
    lines: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    table: tuple = ()
    in_string = None
    depth = 0  # open brackets of a multi-line array or inline table
    for n, line in enumerate(text.splitlines(), 1):
        if in_string:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        if depth == 0:
            m = _HEADER.match(line)
            if m and not _KEY.match(line):
                path = _key_parts(m.group(2))
                if m.group(1) == "[[":
                    counts[path] = counts.get(path, -1) + 1
                    table = path + (counts[path],)
                else:
                    table = path
                lines.setdefault(table, n)
                continue
            m = _KEY.match(line)
            if m:
                lines.setdefault(table + _key_parts(m.group(1)), n)
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                in_string = quote
        if in_string is None:
            code = _STRINGS.sub('""', line).split("#")[0]
            depth = max(0, depth + code.count("[") + code.count("{") - code.count("]")
                        - code.count("}"))
    return lines


class _Where:
    """Names the file and line of a key path for error messages."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = path, key_lines(text)

    def line(self, *keys) -> int:
        if keys not in self.lines and len(keys) == 3 and keys[0] == "check" \
                and ("defaults", keys[2]) in self.lines:  # a key taken from [defaults]
            return self.lines[("defaults", keys[2])]
        for n in range(len(keys), 0, -1):
            if keys[:n] in self.lines:
                return self.lines[keys[:n]]
        return 1

    def error(self, keys: tuple, message: str) -> ProfileError:
        return ProfileError(f"{self.path}:{self.line(*keys)}: {message}")


def _unknown(where: _Where, keys: tuple, table: dict, known: tuple, what: str) -> None:
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else \
                f" (known: {', '.join(known)})"
            raise where.error(keys + (key,), f"{what}: unknown key '{key}'{hint}")


def parse_rate(text) -> float | None:
    """'100 Mbit/s' -> 12.5 (MB/s, 10^6 bytes/s); None when it is not a rate."""
    if not isinstance(text, str):
        return None
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z/]+)\s*", text)
    if not m or m.group(2) not in RATE_UNITS or float(m.group(1)) <= 0:
        return None
    return float(m.group(1)) * RATE_UNITS[m.group(2)]


def split_command(value) -> list[str] | None:
    """A command given as a string (split as a shell would) or an array of strings."""
    if isinstance(value, str):
        try:
            return shlex.split(value)
        except ValueError:
            return None
    if isinstance(value, list) and all(isinstance(w, str) for w in value):
        return list(value)
    return None


def program_kind(words: list[str]) -> str | None:
    """rows, nodes, beff, beff_io or guidelines for a known program (by its file name), else
    None."""
    name = Path(words[0]).name
    if name in OSU_PROGRAMS or name in IMB_PROGRAMS:
        return "rows"
    if name == "b_eff":
        return BEFF
    if name == "b_eff_io":
        return BEFF_IO
    if name == "effbench" and len(words) > 1 and words[1] in COMPONENTS:
        return {NODES: "nodes", BEFF: BEFF, BEFF_IO: BEFF_IO,
                GUIDELINES: GUIDELINES}.get(words[1], "rows")
    return None


def known_programs() -> list[str]:
    return sorted(OSU_PROGRAMS) + list(IMB_PROGRAMS) + ["b_eff", "b_eff_io", "effbench nodes",
                                                       "effbench guidelines", "effbench COMPONENT"]
