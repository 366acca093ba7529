"""The one validator of JSON Lines records (docs/json-lines.md): types, ranges and orderings
per record type.  Every record effbench writes, every record a test writes and every record an
importer builds must pass it; a record it refuses is never stored.

The rules that make a number impossible (docs/json-lines.md, "Impossible numbers"): a time or a
rate that is negative, NaN or infinite; `t_min_us > t_avg_us` or `t_avg_us > t_max_us`; an
overlap outside 0-100 %.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterable

from .component_names import COMPONENTS, DEVCOPY, current_name
from .devices import (ACCELERATORS, DEVCOPY_BENCHMARKS, DEVCOPY_HOST_MEMORY, IMPORTED_KINDS,
                      MEM_ALLOC_TYPES, OSU_LETTERS, STAGING)

RECORD_TYPES = ("run", "result", "summary", "skip", "resume", "end")

# Relative slack for the orderings: an average of equal doubles may round one ulp above them.
ORDER_SLACK = 1e-9

# Field-name endings of quantities that can never be negative.
NON_NEGATIVE_SUFFIXES = ("_us", "_s", "_ms", "mb_per_s", "mbytes_per_s", "_bytes", "_pct",
                         "_mb", "_gb", "gb_per_s")
# Differences of times, which may be negative (effbench explain's records: docs/json-lines.md).
SIGNED_FIELDS = ("difference_us", "unexplained_us", "share_us")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_num(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


class Problems:
    """Collects messages for one record: 'FIELD: what is wrong'."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, message: str) -> None:
        self.items.append(message)

    def need(self, rec: dict, key: str, kind: str, nullable: bool = False) -> None:
        if key not in rec:
            if not nullable:
                self.add(f"{key}: missing")
            return
        value = rec[key]
        if value is None:
            if not nullable:
                self.add(f"{key}: null where a value is required")
            return
        ok = {"str": isinstance(value, str), "int": _is_int(value), "num": _is_num(value),
              "bool": isinstance(value, bool), "list": isinstance(value, list),
              "dict": isinstance(value, dict)}[kind]
        if not ok:
            self.add(f"{key}: expected {kind}, found {json.dumps(value)[:40]}")


def _non_negative(rec: dict, probs: Problems, prefix: str = "") -> None:
    """Every number whose name says it is a time, a rate, a size or a percentage is finite and
    >= 0 (nested objects too: b_eff_io's summaries, a run's options)."""
    for key, value in rec.items():
        name = prefix + key
        if key in SIGNED_FIELDS:
            continue
        if isinstance(value, dict):
            _non_negative(value, probs, name + ".")
            continue
        if isinstance(value, float) and not math.isfinite(value):
            probs.add(f"{name}: {value} is not a finite number")
            continue
        if isinstance(value, list) and key.endswith(NON_NEGATIVE_SUFFIXES):
            for i, item in enumerate(value):
                if _is_num(item) and item < 0:
                    probs.add(f"{name}[{i}]: negative ({item})")
            continue
        if (isinstance(value, (int, float)) and not isinstance(value, bool)
                and key.endswith(NON_NEGATIVE_SUFFIXES) and value < 0):
            probs.add(f"{name}: negative ({value})")


def _ordered(rec: dict, probs: Problems) -> None:
    lo, avg, hi = rec.get("t_min_us"), rec.get("t_avg_us"), rec.get("t_max_us")

    def above(a, b) -> bool:
        return _is_num(a) and _is_num(b) and a > b * (1 + ORDER_SLACK) + 1e-12

    if above(lo, avg):
        probs.add(f"t_min_us {lo} > t_avg_us {avg}")
    if above(avg, hi):
        probs.add(f"t_avg_us {avg} > t_max_us {hi}")
    if above(lo, hi):
        probs.add(f"t_min_us {lo} > t_max_us {hi}")


def _check_result(rec: dict, probs: Problems) -> None:
    probs.need(rec, "component", "str")
    probs.need(rec, "benchmark", "str")
    probs.need(rec, "procs", "int")
    probs.need(rec, "bytes", "int")
    probs.need(rec, "repetitions", "int", nullable=True)
    for key in ("t_min_us", "t_max_us", "t_avg_us"):
        probs.need(rec, key, "num", nullable=True)
    for key in ("mbytes_per_s",):
        probs.need(rec, key, "num", nullable=True)
    probs.need(rec, "defects", "int", nullable=True)
    probs.need(rec, "group", "int", nullable=True)
    probs.need(rec, "mode", "str", nullable=True)
    if _is_int(rec.get("procs")) and rec["procs"] < 1:
        probs.add(f"procs: {rec['procs']} < 1")
    if _is_int(rec.get("bytes")) and rec["bytes"] < 0:
        probs.add(f"bytes: negative ({rec['bytes']})")
    if _is_int(rec.get("repetitions")) and rec["repetitions"] < 0:
        probs.add(f"repetitions: negative ({rec['repetitions']})")
    if _is_int(rec.get("defects")) and rec["defects"] < 0:
        probs.add(f"defects: negative ({rec['defects']})")
    pct = rec.get("overlap_pct")
    if _is_num(pct) and not 0 <= pct <= 100:
        probs.add(f"overlap_pct: {pct} outside 0-100")
    probs.need(rec, "resolution_limited", "bool", nullable=True)
    _ordered(rec, probs)
    _check_memory(rec, probs)
    if current_name(rec.get("component")) == DEVCOPY:
        _check_devcopy(rec, probs)


def _check_run(rec: dict, probs: Problems) -> None:
    probs.need(rec, "tool", "str")
    probs.need(rec, "component", "str")
    probs.need(rec, "procs", "int", nullable=True)
    probs.need(rec, "hosts", "list", nullable=True)
    probs.need(rec, "command_line", "list", nullable=True)
    probs.need(rec, "options", "dict", nullable=True)
    probs.need(rec, "check", "bool", nullable=True)
    probs.need(rec, "simulated", "bool", nullable=True)  # docs/simulation.md
    probs.need(rec, "simulation", "dict", nullable=True)
    if _is_int(rec.get("procs")) and rec["procs"] < 1:
        probs.add(f"procs: {rec['procs']} < 1")
    for i, host in enumerate(rec.get("hosts") or []):
        if not isinstance(host, dict) or not isinstance(host.get("name"), str):
            probs.add(f"hosts[{i}]: expected {{\"name\": ..., \"ranks\": [...]}}")
    if isinstance(rec.get("command_line"), list) and not all(
            isinstance(a, str) for a in rec["command_line"]):
        probs.add("command_line: every word must be a string")
    _check_placement(rec, probs)
    _check_devices(rec, probs)
    _check_device_options(rec.get("options"), probs)
    # IMB-MPI1-GPU and IMB-RMA-GPU say these in the run record itself
    probs.need(rec, "program", "str", nullable=True)
    _one_of(probs, "accelerator", rec.get("accelerator"), ACCELERATORS)
    _one_of(probs, "mem_alloc_type", rec.get("mem_alloc_type"), MEM_ALLOC_TYPES)


EXPECT_PLACEMENT = ("same-node", "different-nodes", "same-socket", "different-sockets",
                    "different-gpus")


def _check_placement(rec: dict, probs: Problems) -> None:
    """Where the ranks ran (docs/placement.md): each rank's cores, sockets and NUMA nodes
    are null or lists of integers >= 0; expect_placement one of EXPECT_PLACEMENT or null."""
    probs.need(rec, "placement", "list", nullable=True)
    probs.need(rec, "topology", "dict", nullable=True)
    probs.need(rec, "network", "dict", nullable=True)
    probs.need(rec, "expect_placement", "str", nullable=True)
    want = rec.get("expect_placement")
    if isinstance(want, str) and want not in EXPECT_PLACEMENT:
        probs.add(f"expect_placement: {want!r} is none of {', '.join(EXPECT_PLACEMENT)}")
    for i, rank in enumerate(rec.get("placement") or []):
        if not isinstance(rank, dict):
            probs.add(f"placement[{i}]: expected an object")
            continue
        for key in ("cores", "sockets", "numa_nodes"):
            value = rank.get(key)
            if value is not None and not (isinstance(value, list) and all(
                    _is_int(v) and v >= 0 for v in value)):
                probs.add(f"placement[{i}].{key}: expected null or a list of integers >= 0")


def _one_of(probs: Problems, name: str, value: Any, allowed, nullable: bool = True) -> None:
    if value is None and nullable:
        return
    if value not in allowed:
        probs.add(f"{name}: {json.dumps(value)[:40]} is none of "
                  f"{', '.join(str(a) for a in allowed)}")


# devices[] of a run record (src/core/device.h, eb_device_json): field -> type
DEVICE_FIELDS = {"rank": "int", "host": "str", "accel": "str", "ordinal": "int", "count": "int",
                 "name": "str", "pci_bus_id": "str", "memory_bytes": "int",
                 "driver_version": "int", "library": "str", "visible_devices": "str"}
DEVICE_REQUIRED = ("rank", "accel", "name")


def _check_devices(rec: dict, probs: Problems) -> None:
    """The run's devices (docs/gpu-results.md): null, or one object per rank that opened one,
    each rank once and below procs, the accelerator one of ACCELERATORS."""
    probs.need(rec, "devices", "list", nullable=True)
    devices = rec.get("devices")
    if not isinstance(devices, list):
        return
    ranks = set()
    for i, dev in enumerate(devices):
        where = f"devices[{i}]"
        if not isinstance(dev, dict):
            probs.add(f"{where}: expected an object")
            continue
        sub = Problems()
        for key, kind in DEVICE_FIELDS.items():
            sub.need(dev, key, kind, nullable=key not in DEVICE_REQUIRED)
        probs.items += [f"{where}.{p}" for p in sub.items]
        _one_of(probs, f"{where}.accel", dev.get("accel"), ACCELERATORS)
        for key in ("rank", "ordinal", "memory_bytes", "driver_version"):
            if _is_int(dev.get(key)) and dev[key] < 0:
                probs.add(f"{where}.{key}: negative ({dev[key]})")
        if _is_int(dev.get("count")) and dev["count"] < 1:
            probs.add(f"{where}.count: {dev['count']} < 1 (a rank with a device sees one)")
        if _is_int(dev.get("ordinal")) and _is_int(dev.get("count")) \
                and dev["ordinal"] >= dev["count"]:
            probs.add(f"{where}.ordinal: {dev['ordinal']} is not below count {dev['count']}")
        rank = dev.get("rank")
        if _is_int(rank):
            if rank in ranks:
                probs.add(f"{where}.rank: rank {rank} is listed twice")
            ranks.add(rank)
            if _is_int(rec.get("procs")) and rank >= rec["procs"]:
                probs.add(f"{where}.rank: {rank} is not below procs {rec['procs']}")


def _check_device_options(options: Any, probs: Problems) -> None:
    """The device options of a run (OSU's buffers, accelerator, staging; IMB-MPI1-GPU's
    mem_alloc_type): the words their programs take."""
    if not isinstance(options, dict):
        return
    buffers = options.get("buffers")
    if buffers is not None and not (isinstance(buffers, str) and len(buffers.split(" ")) == 2
                                    and all(b in OSU_LETTERS for b in buffers.split(" "))):
        probs.add(f"options.buffers: {json.dumps(buffers)[:40]} is not two of OSU's buffer "
                  f"letters ({', '.join(OSU_LETTERS)}) separated by a blank, e.g. \"D D\"")
    _one_of(probs, "options.accelerator", options.get("accelerator"), ACCELERATORS)
    _one_of(probs, "options.staging", options.get("staging"), STAGING)
    _one_of(probs, "options.mem_alloc_type", options.get("mem_alloc_type"), MEM_ALLOC_TYPES)


def _check_memory(rec: dict, probs: Problems) -> None:
    """A row's buffers: "memory" {"send": KIND, "recv": KIND} and "staging", where present."""
    if "memory" in rec:
        memory = rec["memory"]
        if not isinstance(memory, dict) or set(memory) != {"send", "recv"}:
            probs.add(f"memory: expected {{\"send\": KIND, \"recv\": KIND}}, found "
                      f"{json.dumps(memory)[:40]}")
        else:
            for side in ("send", "recv"):
                _one_of(probs, f"memory.{side}", memory[side], IMPORTED_KINDS, nullable=False)
    if "staging" in rec:
        _one_of(probs, "staging", rec["staging"], STAGING, nullable=False)


def _check_devcopy(rec: dict, probs: Problems) -> None:
    """devcopy's rows (docs/gpu-results.md): a direction, the host memory of the copies that
    have one, a size of at least one byte, the times and the GB/s of the mean time."""
    _one_of(probs, "benchmark", rec.get("benchmark"), DEVCOPY_BENCHMARKS, nullable=False)
    if rec.get("benchmark") == "device_to_device":
        if rec.get("host_memory") is not None:
            probs.add(f"host_memory: {json.dumps(rec['host_memory'])} in a device_to_device "
                      "row (it has no host memory: null)")
    elif rec.get("benchmark") in DEVCOPY_BENCHMARKS:
        _one_of(probs, "host_memory", rec.get("host_memory"), DEVCOPY_HOST_MEMORY,
                nullable=False)
    for key in ("t_avg_us", "t_min_us", "t_max_us", "gb_per_s"):
        probs.need(rec, key, "num", nullable=True)
    probs.need(rec, "rank", "int", nullable=True)
    if _is_int(rec.get("rank")) and rec["rank"] < 0:
        probs.add(f"rank: negative ({rec['rank']})")
    if "gb_per_s" not in rec:
        probs.add("gb_per_s: missing")
    if _is_int(rec.get("bytes")) and rec["bytes"] < 1:
        probs.add(f"bytes: {rec['bytes']} < 1 (a copy moves at least one byte)")


def _check_end(rec: dict, probs: Problems) -> None:
    probs.need(rec, "status", "str")
    probs.need(rec, "message", "str", nullable=True)
    probs.need(rec, "elapsed_s", "num", nullable=True)


def _check_skip(rec: dict, probs: Problems) -> None:
    for key in ("component", "benchmark", "reason"):
        probs.need(rec, key, "str")
    probs.need(rec, "procs", "int")


def _check_resume(rec: dict, probs: Problems) -> None:
    probs.need(rec, "start", "str")
    probs.need(rec, "rows_kept", "int")
    probs.need(rec, "rows_dropped", "int", nullable=True)


def _check_summary(rec: dict, probs: Problems) -> None:
    probs.need(rec, "component", "str")


CHECKS = {"run": _check_run, "result": _check_result, "summary": _check_summary,
          "skip": _check_skip, "resume": _check_resume, "end": _check_end}


def record_problems(rec: Any) -> list[str]:
    """What is wrong with one record (an empty list: nothing)."""
    if not isinstance(rec, dict):
        return ["a record must be a JSON object"]
    probs = Problems()
    kind = rec.get("type")
    if kind not in CHECKS:
        return [f"type: {json.dumps(kind)} is not one of {', '.join(RECORD_TYPES)}"]
    if rec.get("schema") != 1:
        probs.add(f"schema: expected 1, found {json.dumps(rec.get('schema'))}")
    component = rec.get("component")
    if kind in ("run", "result", "summary", "skip") and isinstance(component, str) \
            and current_name(component) not in COMPONENTS:
        probs.add(f"component: {component!r} is not one of {', '.join(COMPONENTS)}")
    CHECKS[kind](rec, probs)
    _non_negative(rec, probs)
    return probs.items


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def validate_lines(lines: Iterable[str], allow_cut_last: bool = True) -> list[tuple[int, str]]:
    """(line number, problem) for every problem of a JSON Lines text.  The last line may be
    cut off (a crashed run) when allow_cut_last; every other line must parse."""
    lines = list(lines)
    found: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line, parse_constant=_reject_constant)
        except ValueError as exc:
            if not (allow_cut_last and number == len(lines) and not line.endswith("\n")):
                found.append((number, f"not JSON: {exc}"))
            continue
        found.extend((number, p) for p in record_problems(rec))
    return found


def validate_file(path: str | Path, allow_cut_last: bool = True) -> list[str]:
    """'FILE:LINE: problem' for every problem of a JSON Lines file."""
    text = Path(path).read_text(errors="replace")
    return [f"{path}:{n}: {p}"
            for n, p in validate_lines(text.splitlines(keepends=True), allow_cut_last)]
