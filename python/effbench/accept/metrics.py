"""The value one run gives a check, in the metric's unit, and the node or link to blame when
it falls short (docs/acceptance.md, "Metrics").

Units: latencies in microseconds; bandwidths in MB/s of 10^6 bytes/s: a record's `mb_per_s`
(OSU, IMB-P2P, IMB-MT: 10^6 already), else its `mbytes_per_s` (effbench's IMB and `effbench
nodes`: 2^20 bytes/s) times 1.048576."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..component_names import GUIDELINES
from .profile import Check

MIB_IN_MB = 1.048576
NODE_METRICS = {("latency", 0): "latency_0b_us", ("latency", 8): "latency_8b_us",
                "bandwidth": "bandwidth_mb_per_s"}


@dataclass
class Measured:
    """What one run gave: a value (None when it gave none, with the reason), the nodes or
    links to blame when the value fails the threshold, and the runs' hosts."""

    value: float | None
    error: str | None = None
    blame_if_failed: list[str] = field(default_factory=list)
    failing_links: list[str] = field(default_factory=list)


def meets(check: Check, value: float) -> bool:
    t = check.threshold.value
    return value >= t if check.higher_is_better else value <= t


def row_value(check: Check, rec: dict) -> float | None:
    if check.metric == "latency":
        for key in ("t_median_us", "t_avg_us", "t_max_us"):
            if isinstance(rec.get(key), (int, float)):
                return float(rec[key])
        return None
    if check.metric == "message_rate":
        v = rec.get("messages_per_s")
        return float(v) if isinstance(v, (int, float)) else None
    if isinstance(rec.get("mb_per_s"), (int, float)):
        return float(rec["mb_per_s"])
    if isinstance(rec.get("mbytes_per_s"), (int, float)):
        return float(rec["mbytes_per_s"]) * MIB_IN_MB
    return None


def _hosts_of_pair(run: dict) -> list[str]:
    """Where ranks 0 and 1 ran: ["node H"] or ["link A - B"]; [] when the record does not say."""
    hosts = {p.get("rank"): p.get("host") for p in run.get("placement") or []
             if isinstance(p, dict)}
    a, b = hosts.get(0), hosts.get(1)
    if not a or not b:
        return []
    return [f"node {a}"] if a == b else [f"link {a} - {b}"]


def measure(check: Check, records: list[dict]) -> Measured:
    """The value of CHECK's metric in a run's records."""
    run = next((r for r in records if r.get("type") == "run"), None)
    if run is None:
        return Measured(None, "the run wrote no run record")
    if check.kind in ("beff", "beff_io"):
        summary = next((r for r in records if r.get("type") == "summary"), None)
        if summary is None:
            return Measured(None, "the run wrote no summary")
        value = summary.get(check.metric)
        if not isinstance(value, (int, float)):
            return Measured(None, f"the summary has no value of {check.metric}")
        return Measured(float(value))
    if check.kind == "nodes":
        return _measure_nodes(check, records)
    if check.kind == GUIDELINES:
        rows = [r for r in records if r.get("type") == "result"]
        if not rows:
            return Measured(None, "the run wrote no comparison")
        bad = [r for r in rows if r.get("violated") is True]
        return Measured(float(len(bad)), blame_if_failed=[
            f"{r.get('benchmark')} {r.get('bytes')} B slower than {r.get('mockup')} "
            f"(factor {r.get('factor', float('nan')):.3g}, "
            f"p_holm {r.get('p_holm', float('nan')):.3g})"
            for r in bad])
    return _measure_rows(check, run, records)


def _measure_rows(check: Check, run: dict, records: list[dict]) -> Measured:
    rows = [r for r in records if r.get("type") == "result"]
    benches = sorted({r.get("benchmark") for r in rows if r.get("benchmark")})
    bench = check.benchmark
    if bench is None:
        if len(benches) > 1:
            return Measured(None, f"the run measured several benchmarks ({', '.join(benches)}):"
                            " name one with benchmark = ...")
        bench = benches[0] if benches else None
    chosen = [r for r in rows if r.get("benchmark") == bench and r.get("bytes") == check.bytes
              and (check.procs is None or r.get("procs") == check.procs)]
    if not chosen:
        sizes = sorted({r.get("bytes") for r in rows if r.get("benchmark") == bench})
        return Measured(None, f"no row of {bench or 'any benchmark'} at {check.bytes} bytes"
                        + (f" with {check.procs} processes" if check.procs else "")
                        + (f" (measured sizes: {', '.join(map(str, sizes))})" if sizes else ""))
    most = max(r.get("procs") or 0 for r in chosen)
    row = [r for r in chosen if (r.get("procs") or 0) == most][-1]
    value = row_value(check, row)
    if value is None:
        return Measured(None, f"the row of {bench} at {check.bytes} bytes has no "
                        f"{check.metric}")
    # a row of two processes measures ranks 0 and 1 (OSU's and IMB's pairs)
    blame = _hosts_of_pair(run) if row.get("procs") == 2 else []
    return Measured(value, blame_if_failed=blame)


def _measure_nodes(check: Check, records: list[dict]) -> Measured:
    """Every pair of the node matrix is judged; the value is the worst pair's. Blame: the
    matrix's flagged nodes for this metric, else its flagged links, else the failing links."""
    pairs = [r for r in records if r.get("type") == "result" and r.get("benchmark") ==
             "NodePair" and r.get("bytes") == check.bytes]
    if not pairs:
        return Measured(None, f"no NodePair row at {check.bytes} bytes (effbench nodes "
                        "measures 0, 8 and --bytes)")
    values = [(row_value(check, r), f"link {r.get('node_a')} - {r.get('node_b')}")
              for r in pairs]
    values = [(v, link) for v, link in values if v is not None]
    if not values:
        return Measured(None, f"the NodePair rows have no {check.metric}")
    pick = max if not check.higher_is_better else min
    worst = pick(v for v, _ in values)
    failing = [link for v, link in values if not meets(check, v)]
    summary = next((r for r in records if r.get("type") == "summary"), {})
    name = NODE_METRICS.get((check.metric, check.bytes)) or NODE_METRICS.get(check.metric)
    blame = [f"node {f['node']}" for f in summary.get("flagged_nodes") or []
             if name in (f.get("metrics") or [])]
    blame += [f"link {' - '.join(f['nodes'])}" for f in summary.get("flagged_links") or []
              if name in (f.get("metrics") or [])]
    return Measured(worst, blame_if_failed=blame or failing, failing_links=failing)


def _gpu_problem(run: dict) -> str | None:
    """different-gpus from the run record's `devices` (docs/gpu.md): every rank on a GPU, no
    two ranks of one host on the same one (PCI bus id)."""
    devices = [d for d in run.get("devices") or [] if isinstance(d, dict)]
    if not devices:
        return "ranks not where asked (different-gpus): the run has no device buffers"
    seen: dict[tuple, object] = {}
    for d in devices:
        key = (d.get("host"), d.get("pci_bus_id"))
        if not d.get("pci_bus_id") or key in seen:
            said = ", ".join(f"rank {x.get('rank')} on {x.get('host')} GPU {x.get('pci_bus_id')}"
                             for x in devices[:8])
            return f"ranks not where asked (different-gpus): {said}"
        seen[key] = d.get("rank")
    return None


def placement_problem(check: Check, run: dict) -> str | None:
    """When the run record shows ranks elsewhere than expect_placement asks: what it shows
    (the check's own test of the placement, whether or not the program took the option)."""
    where = check.expect_placement
    if where == "different-gpus":
        return _gpu_problem(run)
    places = [p for p in run.get("placement") or [] if isinstance(p, dict)]
    if where is None or len(places) < 2:
        return None
    if where in ("same-node", "different-nodes"):
        hosts = {p.get("host") for p in places}
        ok = len(hosts) == 1 if where == "same-node" else len(hosts) > 1
        if not ok:
            said = ", ".join(f"rank {p.get('rank')} on {p.get('host')}" for p in places[:8])
            return f"ranks not where asked ({where}): {said}"
        return None
    # the run record's per-rank `sockets` lists (docs/placement.md): a rank is on one socket
    # only when its list has one element; the socket checks ask for one host as well
    lists = [p.get("sockets") for p in places]
    if any(not isinstance(x, list) or not x for x in lists):
        return None  # the record does not say the sockets
    hosts = {p.get("host") for p in places}
    single = [x[0] if len(x) == 1 else None for x in lists]
    keys = [(p.get("host"), s) for p, s in zip(places, single)]
    if where == "same-socket":
        ok = len(hosts) == 1 and None not in single and len(set(keys)) == 1
    else:
        ok = len(hosts) == 1 and None not in single and len(set(keys)) == len(keys)
    if not ok:
        said = ", ".join(f"rank {p.get('rank')} on {p.get('host')} sockets {p.get('sockets')}"
                         for p in places[:8])
        return f"ranks not where asked ({where}): {said}"
    return None
