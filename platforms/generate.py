#!/usr/bin/env python3
"""SimGrid platforms for effbench simulations (docs/simulation.md).

A platform is named by a preset (t3e-900, sr8000, ...), by a spec
(`torus:8x8x8,lat=1us,bw=350MBps`) or by an XML file of your own.  This
module turns a spec into a SimGrid platform file and a hostfile that places
P ranks on its hosts, sequentially or round-robin.  Python standard library
only: scripts/simulate runs it without the results tools' environment.

    python3 platforms/generate.py SPEC -np P [--placement sequential|roundrobin]
            [-o STEM] [--hostfile hosts.txt]

writes STEM.xml, or for a torus STEM.torus: the parameters of
platforms/torus.cpp, which scripts/simulate builds into libeffbench-torus.so
(SimGrid's XML torus would charge a node's limiter for the messages that
pass through it).  It prints the path it wrote.
"""
from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

# Presets: the library's named machines.  Each value is a spec; the
# docs/simulation.md table gives the source of every number.
PRESETS = {
    # Cray T3E-900: 3-D torus of single-processor nodes.  bw: the ping-pong
    # bandwidth of Table 1 (330 MB/s); limiter: what one processor moves in
    # and out at once (2 x 210 MB/s, the 2-processor row at L_max); lat: fitted
    # to the 2-processor b_eff of Table 1 (`bench/simulate t3e` fits both).
    "t3e-900": "torus:8x8x8,lat=12.37us,bw=330MBps,limiter=420.5MBps",
    # Hitachi SR 8000: 8-way SMP nodes (shared memory inside), a
    # crossbar-like fat tree between them.  bw: Table 1's round-robin
    # ping-pong (ranks 0 and 1 on two nodes: 741 and 776 MB/s); intra_bw: its
    # sequential ping-pong (both on one node: 954 MB/s); lat: fitted to the
    # round-robin b_eff at 24 processes (`bench/simulate sr8000`); intra_lat:
    # assumed.
    "sr8000": "fattree:16x8,lat=135.7us,bw=760MBps,intra_lat=3us,intra_bw=954MBps",
    # A small two-node cluster with round numbers: the tests' reference.
    "pair": "cluster:2,lat=10us,bw=100MBps",
}

UNITS_BW = {"Bps": 1, "kBps": 1e3, "MBps": 1e6, "GBps": 1e9, "KiBps": 1024.0,
            "MiBps": 1024.0 ** 2, "GiBps": 1024.0 ** 3}
UNITS_LAT = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
UNITS_SPEED = {"f": 1, "kf": 1e3, "Mf": 1e6, "Gf": 1e9, "Tf": 1e12}

# Keys each topology accepts, with defaults (None: required).
COMMON = {"lat": "1us", "bw": "1GBps", "speed": "1Gf", "limiter": None}
TOPOLOGIES = {
    "cluster": {"dims": 1, "keys": {"bb_bw": None, "bb_lat": "0us"}},
    # limiter: on every node a message passes (SimGrid's torus); node_lat, node_bw,
    # node_limiter: a processor's link to its router and its own limit, at the ends of a
    # message only (platforms/torus.cpp)
    "torus": {"dims": 3, "keys": {"node_lat": "0us", "node_bw": None, "node_limiter": None}},
    "fattree": {"dims": 2, "keys": {"intra_lat": "0.5us", "intra_bw": "5GBps", "radix": None}},
    "dragonfly": {"dims": 4, "keys": {"intra_lat": "0.5us", "intra_bw": "5GBps",
                                      "global_bw": None}},
}


class PlatformError(ValueError):
    """A spec that cannot be a platform: the message names the problem."""


def parse_quantity(text: str, units: dict[str, float], what: str) -> float:
    """'350MBps' -> 3.5e8 (SimGrid's units); PlatformError when not a quantity."""
    m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)([A-Za-z]+)", text.strip())
    if not m or m.group(2) not in units:
        raise PlatformError(f"{what}={text}: expected a number with a unit, one of "
                            f"{', '.join(units)}")
    v = float(m.group(1)) * units[m.group(2)]
    if not v >= 0 or math.isinf(v):
        raise PlatformError(f"{what}={text}: not a usable value")
    return v


def parse_spec(spec: str) -> dict:
    """'torus:8x8x8,lat=1us,bw=350MBps' -> a dict of the topology, its
    dimensions, the parameters (as written) and their values in SI units."""
    spec = PRESETS.get(spec, spec)
    kind, _, rest = spec.partition(":")
    if kind not in TOPOLOGIES:
        raise PlatformError(f"platform '{spec}': not a preset ({', '.join(PRESETS)}), an XML "
                            f"file, or a spec starting with {', '.join(TOPOLOGIES)}")
    parts = [p for p in rest.split(",") if p]
    if not parts or "=" in parts[0]:
        raise PlatformError(f"platform '{spec}': {kind} needs its size first, e.g. "
                            f"{example(kind)}")
    want = TOPOLOGIES[kind]["dims"]
    try:
        dims = [int(x) for x in parts[0].split("x")]
    except ValueError:
        dims = []
    if len(dims) != want or min(dims) < 1:
        raise PlatformError(f"platform '{spec}': size '{parts[0]}' should be {want} whole "
                            f"numbers joined by x, e.g. {example(kind)}")
    if kind == "torus" and min(dims) < 2:
        raise PlatformError(f"platform '{spec}': every torus dimension needs 2 nodes or more "
                            f"(SimGrid would link a node to itself)")
    params = dict(COMMON, **TOPOLOGIES[kind]["keys"])
    given = {}
    for p in parts[1:]:
        k, eq, v = p.partition("=")
        if not eq or k not in params:
            raise PlatformError(f"platform '{spec}': unknown parameter '{p}' for {kind} "
                                f"(known: {', '.join(params)})")
        given[k] = v
    params.update(given)
    si = {}
    for k, v in params.items():
        if v is None:
            continue
        if k == "radix":
            si[k] = int(v)
            continue
        units = UNITS_LAT if "lat" in k else UNITS_SPEED if k == "speed" else UNITS_BW
        si[k] = parse_quantity(v, units, k)
    nodes = math.prod(dims[:3]) if kind == "dragonfly" else (
        dims[0] if kind == "fattree" else math.prod(dims))
    if kind == "dragonfly":
        nodes *= dims[3]
    cores = dims[1] if kind == "fattree" else 1
    return {"spec": spec, "topology": kind, "dims": dims, "nodes": nodes, "cores": cores,
            "params": {k: v for k, v in params.items() if v is not None}, "si": si}


def example(kind: str) -> str:
    return {"cluster": "cluster:64,lat=10us,bw=1GBps", "torus": "torus:8x8x8,lat=1us,bw=350MBps",
            "fattree": "fattree:16x8,lat=2us,bw=1GBps,intra_bw=4GBps",
            "dragonfly": "dragonfly:4x2x4x2,lat=1us,bw=2GBps"}[kind]


def fattree_params(nodes: int, radix: int | None) -> str:
    """SimGrid's FAT_TREE description of a 2-level tree with full bisection:
    `radix` nodes per leaf switch, as many top switches as a leaf has nodes."""
    if radix is None:
        radix = max(d for d in range(1, int(math.isqrt(nodes)) + 1) if nodes % d == 0)
        radix = nodes // radix  # the larger factor below the leaves
    if radix < 1 or nodes % radix:
        raise PlatformError(f"fattree: radix {radix} does not divide the {nodes} nodes")
    if radix == nodes:
        return f"1;{nodes};1;1"
    return f"2;{radix},{nodes // radix};1,{radix};1,1"


def properties(p: dict) -> dict[str, str]:
    """The platform's description, as properties of its root zone: the run
    record copies them (src/core/simulate.c)."""
    prm = p["params"]
    props = {"spec": p["spec"], "topology": p["topology"], "dims": "x".join(map(str, p["dims"])),
             "nodes": str(p["nodes"]), "cores_per_node": str(p["cores"]),
             "sources": "docs/simulation.md"}
    for k in ("intra_lat", "intra_bw", "lat", "bw", "node_lat", "node_bw", "speed"):
        if k in prm:
            props[k] = prm[k]
    sharing = "split-duplex links"
    if "limiter" in prm:
        where = " (on every node a message passes)" if p["topology"] == "torus" else ""
        sharing += f", node limiter {prm['limiter']}{where}"
    if "node_limiter" in prm:
        sharing += f", processor limiter {prm['node_limiter']} (at the ends of a message)"
    props["link_sharing"] = sharing
    return props


# SMPI settings of every generated platform: the platform's numbers are the
# model (no SMPI correction factors fitted to some other cluster)
NO_FACTORS = ("smpi/bw-factor:0:1", "smpi/lat-factor:0:1")


def torus_params(p: dict) -> str:
    """The parameter file of platforms/torus.cpp (SI units)."""
    si = p["si"]
    lines = [f"# generated by platforms/generate.py from {p['spec']}",
             "dims " + " ".join(map(str, p["dims"]))]
    lines += [f"{k} {si[k]!r}" for k in ("lat", "bw", "limiter", "node_lat", "node_bw",
                                          "node_limiter", "speed") if k in si]
    lines += [f"config {c}" for c in NO_FACTORS]
    lines += [f"prop {k} {v}" for k, v in properties(p).items()]
    return "\n".join(lines) + "\n"


def write_platform(p: dict, stem: str) -> Path:
    """STEM.xml, or STEM.torus for a torus; the path written."""
    if p["topology"] == "torus":
        path = Path(stem + ".torus")
        path.write_text(torus_params(p))
    else:
        path = Path(stem + ".xml")
        path.write_text(platform_xml(p))
    return path


def platform_xml(p: dict) -> str:
    """The SimGrid platform file of a parsed spec other than a torus."""
    kind, dims, prm = p["topology"], p["dims"], p["params"]
    attrs = {"id": "machine", "prefix": "node-", "suffix": "", "radical": f"0-{p['nodes'] - 1}",
             "speed": prm["speed"], "bw": prm["bw"], "lat": prm["lat"],
             "sharing_policy": "SPLITDUPLEX"}
    if "limiter" in prm:
        attrs["limiter_link"] = prm["limiter"]
    if kind == "cluster":
        if "bb_bw" in prm:
            attrs.update(bb_bw=prm["bb_bw"], bb_lat=prm["bb_lat"])
    elif kind == "fattree":
        attrs.update(topology="FAT_TREE",
                     topo_parameters=fattree_params(dims[0], p["si"].get("radix")))
    else:
        g, c, r, n = dims
        attrs.update(topology="DRAGONFLY", topo_parameters=f"{g},1;{c},1;{r},1;{n}")
    if kind in ("fattree", "dragonfly"):
        attrs.update(core=str(p["cores"]), loopback_bw=prm["intra_bw"],
                     loopback_lat=prm["intra_lat"])
    else:
        attrs.update(loopback_bw="100GBps", loopback_lat="0us")
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             f"<!-- generated by platforms/generate.py from {p['spec']} -->",
             '<platform version="4.1">',
             "  <!-- the platform's numbers are the model: no SMPI correction factors -->",
             "  <config>"]
    lines += [f'    <prop id="{c.split(":", 1)[0]}" value="{c.split(":", 1)[1]}"/>'
              for c in NO_FACTORS]
    lines += ["  </config>", '  <zone id="effbench" routing="Full">']
    lines += [f"    <prop id={quoteattr(k)} value={quoteattr(v)}/>"
              for k, v in properties(p).items()]
    lines.append("    <cluster " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
                 + "/>")
    lines += ["  </zone>", "</platform>", ""]
    return "\n".join(lines)


def hostfile(p: dict, np: int, placement: str = "sequential") -> list[str]:
    """The hosts of ranks 0..np-1: sequential fills a node's cores first,
    roundrobin gives each node one rank before any node gets a second."""
    slots = p["nodes"] * p["cores"]
    if np < 1 or np > slots:
        raise PlatformError(f"-np {np}: the platform {p['spec']} has {p['nodes']} nodes of "
                            f"{p['cores']} cores ({slots} ranks at most)")
    if placement == "sequential":
        return [f"node-{r // p['cores']}" for r in range(np)]
    if placement == "roundrobin":
        used = min(p["nodes"], math.ceil(np / p["cores"]))
        return [f"node-{r % used}" for r in range(np)]
    raise PlatformError(f"--placement {placement}: expected sequential or roundrobin")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="a preset (" + ", ".join(PRESETS) + ") or a spec")
    ap.add_argument("-np", type=int, required=True, help="ranks to place")
    ap.add_argument("--placement", default="sequential", choices=["sequential", "roundrobin"])
    ap.add_argument("-o", "--output", default="platform",
                    help="STEM: writes STEM.xml, or STEM.torus for a torus")
    ap.add_argument("--hostfile", default="hostfile.txt")
    a = ap.parse_args(argv)
    try:
        p = parse_spec(a.spec)
        hosts = hostfile(p, a.np, a.placement)
    except PlatformError as e:
        print(f"generate.py: error: {e}", file=sys.stderr)
        return 2
    print(write_platform(p, a.output))
    Path(a.hostfile).write_text("\n".join(hosts) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
