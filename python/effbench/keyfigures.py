"""A machine's key figures (docs/results.md, "History"): the few numbers a dashboard follows
over time — b_eff, b_eff_io, ping-pong latency and bandwidth, Allreduce at 8 B and 1 MiB, and
OSU's own osu_latency, osu_bw and osu_allreduce — each taken from a run's summary or from its
rows, whichever the run has.

Bandwidths are in MB/s = 10^6 bytes/s, as b_eff and b_eff_io write them; the ping-pong
bandwidth of an IMB PingPong row is bytes / t (t: half the round trip, IMB's time), so that an
IMB text table (2^20 in the 2014 guide, 10^6 in IMB 2021) and b_eff's ping-pong meet in one
unit."""

from __future__ import annotations

from dataclasses import dataclass

from .compare import headline_values
from .component_names import MPI1
from .devices import device_identity
from .records import ParsedRun, headline_time


@dataclass(frozen=True)
class KeyFigure:
    name: str
    unit: str
    metric: str  # "time" (lower is better) or "bandwidth" (higher is better)


@dataclass(frozen=True)
class KeyValue:
    figure: KeyFigure
    value: float
    source: str  # where the value comes from, e.g. "mpi1 PingPong, 0 bytes"
    summary_field: str | None = None  # the summary field it was read from, if any


B_EFF = KeyFigure("b_eff", "MB/s", "bandwidth")
B_EFF_IO = KeyFigure("b_eff_io", "MB/s", "bandwidth")
PINGPONG_LATENCY = KeyFigure("ping-pong latency", "usec", "time")
PINGPONG_BANDWIDTH = KeyFigure("ping-pong bandwidth", "MB/s", "bandwidth")
ALLREDUCE_8 = KeyFigure("Allreduce 8 B", "usec", "time")
ALLREDUCE_1M = KeyFigure("Allreduce 1 MiB", "usec", "time")
# OSU's figures are its own (methodology osu-*): never the ping-pong's or IMB's Allreduce's.
OSU_LATENCY_8 = KeyFigure("osu_latency 8 B", "usec", "time")
OSU_BW_4M = KeyFigure("osu_bw 4 MiB", "MB/s", "bandwidth")
OSU_ALLREDUCE_8 = KeyFigure("osu_allreduce 8 B", "usec", "time")
OSU_ALLREDUCE_1M = KeyFigure("osu_allreduce 1 MiB", "usec", "time")
# Shown only where measured: a machine that never ran OSU is not told it lacks OSU's figures.
OSU_FIGURES = (OSU_LATENCY_8, OSU_BW_4M, OSU_ALLREDUCE_8, OSU_ALLREDUCE_1M)
KEY_FIGURES = (B_EFF, B_EFF_IO, PINGPONG_LATENCY, PINGPONG_BANDWIDTH, ALLREDUCE_8, ALLREDUCE_1M,
               *OSU_FIGURES)
# (figure, program, bytes, field) of the OSU rows: OSU's defaults (MPI_CHAR, host buffers)
OSU_ROWS = ((OSU_LATENCY_8, "osu_latency", 8, "t_avg_us"),
            (OSU_BW_4M, "osu_bw", 4 << 20, "mb_per_s"),
            (OSU_ALLREDUCE_8, "osu_allreduce", 8, "t_avg_us"),
            (OSU_ALLREDUCE_1M, "osu_allreduce", 1 << 20, "t_avg_us"))
# IMB's rows for the figures: the plain mpi1 tables (no -multi groups, no mode)
ROW_COMPONENT = MPI1


def host_buffers(rec: dict) -> bool:
    """Whether a row's buffers were host memory, not staged: the key figures are host
    figures, never a device-buffer row's (docs/gpu-results.md)."""
    return device_identity(rec)[:3] == ("host", "host", None)


def _plain_rows(run: ParsedRun, benchmark: str) -> list[dict]:
    return [r for r in run.results if r["component"] == ROW_COMPONENT
            and r["benchmark"] == benchmark and r.get("group") is None and host_buffers(r)
            and headline_time(r) is not None and headline_time(r) > 0]


def _summary(run: ParsedRun, figure: KeyFigure, fields: tuple[str, ...]) -> KeyValue | None:
    values = headline_values(run)
    for field in fields:
        for (_, f, part), (_, _, value, _) in values.items():
            if f == field and part is None:
                return KeyValue(figure, value, f"summary {field}", field)
    return None


def _pingpong(run: ParsedRun) -> tuple[KeyValue | None, KeyValue | None]:
    rows = _plain_rows(run, "PingPong")
    zero = [r for r in rows if r["bytes"] == 0]
    sized = [r for r in rows if r["bytes"] > 0]
    latency = bandwidth = None
    if zero:
        latency = KeyValue(PINGPONG_LATENCY, headline_time(zero[0]), "mpi1 PingPong, 0 bytes")
    if sized:
        big = max(sized, key=lambda r: r["bytes"])
        bandwidth = KeyValue(PINGPONG_BANDWIDTH, big["bytes"] / headline_time(big),
                             f"mpi1 PingPong, {big['bytes']} bytes (bytes / t)")
    return latency, bandwidth


def _allreduce(run: ParsedRun, figure: KeyFigure, nbytes: int) -> KeyValue | None:
    rows = [r for r in _plain_rows(run, "Allreduce") if r["bytes"] == nbytes]
    if not rows:
        return None
    widest = max(rows, key=lambda r: r["procs"])  # the run's largest process set
    return KeyValue(figure, headline_time(widest),
                    f"mpi1 Allreduce, {nbytes} bytes, {widest['procs']} processes")


def _osu(run: ParsedRun, figure: KeyFigure, program: str, nbytes: int, field: str
         ) -> KeyValue | None:
    for r in run.results:
        if (r["component"] == "osu" and r["benchmark"] == program and r["bytes"] == nbytes
                and r.get("datatype") in (None, "MPI_CHAR") and not r.get("accelerator")
                and host_buffers(r)
                and r.get(field) is not None and r[field] > 0):
            return KeyValue(figure, r[field], f"{program}, {nbytes} bytes")
    return None


def key_values(run: ParsedRun) -> dict[str, KeyValue]:
    """The key figures RUN has, by name in the order of KEY_FIGURES. A run's own rows come
    first (an IMB run), else its summary (b_eff writes ping-pong figures too)."""
    latency, bandwidth = _pingpong(run)
    found = [
        _summary(run, B_EFF, ("b_eff_mb_per_s",)),
        # b_eff_io 2.1 prints only its sqrt(W*R) formula: the paper's value when there is one
        _summary(run, B_EFF_IO, ("b_eff_io_mb_per_s", "b_eff_io_rel21_mb_per_s")),
        latency or _summary(run, PINGPONG_LATENCY, ("pingpong_latency_us",)),
        bandwidth or _summary(run, PINGPONG_BANDWIDTH, ("pingpong_bw_mb_per_s",)),
        _allreduce(run, ALLREDUCE_8, 8),
        _allreduce(run, ALLREDUCE_1M, 1 << 20),
        *(_osu(run, *row) for row in OSU_ROWS),
    ]
    return {kv.figure.name: kv for kv in found if kv is not None}
