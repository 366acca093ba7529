"""Whether two runs may be compared row by row: what differs between them (options, process
count, hosts, MPI library, environment), and which differences change what is measured, so
that `compare` says so before any ratio and refuses by default (docs/results.md)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .devices import devices_label, is_double, run_memory
from .records import ParsedRun, methodology, simulation_label

# Options that say how a run was written or followed, not what it measures.
NOT_MEASURED = {"planned_rows", "json", "json_path", "resume", "protocol", "path", "keep",
                "benchmarks", "msglog_min", "msglog_max", "msglen", "npmin", "patterns"}
# Options added after runs were stored: what a run recorded before them had.
DEFAULT_WHEN_ABSENT = {("beff", "repeat"): 3}


@dataclass
class Difference:
    what: str
    a: Any
    b: Any
    changes_measurement: bool  # the runs then do not measure the same thing


def _short(value: Any) -> str:
    text = "none" if value is None else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _with_defaults(component: Any, options: dict) -> dict:
    extra = {key: v for (comp, key), v in DEFAULT_WHEN_ABSENT.items()
             if comp == component and key not in options}
    return {**options, **extra} if extra else options


def differences(a: ParsedRun, b: ParsedRun) -> list[Difference]:
    ra, rb = a.run, b.run
    out = []
    if ra.get("component") != rb.get("component"):
        out.append(Difference("component", ra.get("component"), rb.get("component"), True))
    if methodology(ra) != methodology(rb):
        out.append(Difference("methodology", methodology(ra), methodology(rb), True))
    if ra.get("program") != rb.get("program"):  # OSU: osu_latency is not osu_bw
        out.append(Difference("program", ra.get("program"), rb.get("program"), True))
    oa, ob = ra.get("options") or {}, rb.get("options") or {}
    # options only an importer of another format lacks are not a difference
    if oa and ob:
        oa, ob = _with_defaults(ra.get("component"), oa), _with_defaults(rb.get("component"), ob)
        for key in sorted(set(oa) | set(ob)):
            if key in NOT_MEASURED or oa.get(key) == ob.get(key):
                continue
            out.append(Difference(f"options.{key}", oa.get(key), ob.get(key), True))
    if ra.get("check") != rb.get("check") and None not in (ra.get("check"), rb.get("check")):
        out.append(Difference("check", ra.get("check"), rb.get("check"), True))
    sa, sb = simulation_label(ra), simulation_label(rb)
    if sa != sb:  # simulated beside measured is what a prediction is for: no refusal
        out.append(Difference("simulation", sa or "measured", sb or "measured", False))
    out += device_differences(a, b)
    if ra.get("procs") != rb.get("procs"):
        out.append(Difference("procs", ra.get("procs"), rb.get("procs"), False))
    hosts = [sorted(h.get("name") for h in (r.get("hosts") or [])) for r in (ra, rb)]
    if all(hosts) and hosts[0] != hosts[1]:
        out.append(Difference("hosts", ", ".join(hosts[0]), ", ".join(hosts[1]), False))
    for key in ("mpi_library", "mpi_version", "thread_level"):
        if ra.get(key) and rb.get(key) and ra[key] != rb[key]:
            out.append(Difference(key, ra[key], rb[key], False))
    ea, eb = ra.get("environment") or {}, rb.get("environment") or {}
    for key in sorted(set(ea) | set(eb)):
        if key.startswith("SLURM_") or ea.get(key) == eb.get(key):
            continue  # a Slurm job's facts differ from job to job
        out.append(Difference(f"environment {key}", ea.get(key), eb.get(key), False))
    return out


def device_differences(a: ParsedRun, b: ParsedRun) -> list[Difference]:
    """Where the buffers were and on which devices (docs/gpu-results.md). Host-buffer and
    device-buffer figures are different quantities (their rows never match, records.
    identity_key); the CUDA driver double is no GPU, so its figures never stand for a GPU's.
    Another GPU model is what a comparison may be for, as another host is."""
    out = []
    for key in ("accelerator", "mem_alloc_type"):  # IMB-MPI1-GPU's, in the run record
        va, vb = a.run.get(key), b.run.get(key)
        if va != vb and (key in a.run or key in b.run):
            out.append(Difference(key, va, vb, True))
    ma, mb = run_memory(a.results), run_memory(b.results)
    if ma != mb and a.results and b.results:
        out.append(Difference("buffer memory", ma, mb, True))
    da, db = a.run.get("devices") or [], b.run.get("devices") or []
    la, lb = devices_label(da) or "none", devices_label(db) or "none"
    if la != lb:
        double = any(map(is_double, da)) != any(map(is_double, db))
        out.append(Difference("devices", la, lb, double))
    return out


def device_sides(a: ParsedRun, b: ParsedRun, label_a: str, label_b: str) -> list[str]:
    """compare's lines naming each side's devices and buffer memory, where either run used a
    device or device memory; none for two host runs."""
    memory = [run_memory(r.results) for r in (a, b)]
    labels = [devices_label(r.run.get("devices")) for r in (a, b)]
    if not any(labels) and all(m in ("host->host", "no rows") for m in memory):
        return []
    return [f"{side} = {label}: devices {name or 'none (no device opened)'}"
            + (f"; buffers {mem}" if mem != "no rows" else "")
            for side, label, name, mem in zip("AB", (label_a, label_b), labels, memory)]


def methodology_refusal(a: ParsedRun, b: ParsedRun, label_a: str, label_b: str) -> str | None:
    """Why runs of two methodologies are never compared, not even with --allow-different (an
    OSU latency and an IMB t_avg are different figures), or None when they share one."""
    ma, mb = methodology(a.run), methodology(b.run)
    if ma == mb:
        return None
    return (f"{label_a} was measured with the {ma} methodology and {label_b} with {mb}: their "
            "numbers are different figures (loop, timing, units), never compared row by row")


def describe(diffs: list[Difference]) -> list[str]:
    return [f"{d.what}: {_short(d.a)} (A) vs {_short(d.b)} (B)"
            + ("  [changes what is measured]" if d.changes_measurement else "")
            for d in diffs]
