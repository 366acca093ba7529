"""What OSU Micro-Benchmarks 7.4's MPI programs print about themselves: the title line of each
(its BENCHMARK define, "# " before and " v7.4" after, the accelerator slot empty), the column
titles of their tables and the record field each column becomes (docs/json-lines.md, "OSU
records"). Read from OSU 7.4's c/mpi/**/*.c and c/util/osu_util*.c; effbench's OSU programs
print the same text."""

from __future__ import annotations

import re

from ..component_names import OSU

COMPONENT = OSU
# A record without "methodology" is its component's classic one (records.DEFAULT_METHODOLOGY);
# OSU text says its version in the title: "osu-" + version.
METHODOLOGY_PREFIX = "osu-"

_PT2PT = {
    "Latency": "osu_latency", "Bandwidth": "osu_bw", "Bi-Directional Bandwidth": "osu_bibw",
    "Multiple Bandwidth / Message Rate": "osu_mbw_mr", "Multi Latency": "osu_multi_lat",
    "Multi-process Latency": "osu_latency_mp", "Multi-threaded Latency": "osu_latency_mt",
    "Latency Persistent": "osu_latency_persistent", "Bandwidth Persistent": "osu_bw_persistent",
    "Bi-Directional Bandwidth Persistent": "osu_bibw_persistent",
}
# Blocking collectives: title word(s) -> the name after "osu_"; the persistent ones say
# "... Persistent Latency Test", the non-blocking ones "Non-blocking ... Latency Test".
_COLLECTIVES = {
    "All-to-All Personalized Exchange": "alltoall", "All-to-Allv Personalized Exchange":
    "alltoallv", "All-to-Allw Personalized Exchange": "alltoallw", "Allgather": "allgather",
    "Allgatherv": "allgatherv", "Allreduce": "allreduce", "Barrier": "barrier",
    "Broadcast": "bcast", "Gather": "gather", "Gatherv": "gatherv", "Reduce": "reduce",
    "Reduce_scatter": "reduce_scatter", "Reduce_scatter_block": "reduce_scatter_block",
    "Scatter": "scatter", "Scatterv": "scatterv",
}
# OSU 7.4 has no persistent Reduce_scatter_block; its non-blocking All-to-All lacks
# "Personalized Exchange" and its non-blocking Broadcast writes "Non-Blocking".
_NO_PERSISTENT = ("reduce_scatter_block",)
_NEIGHBOURHOOD = {"Allgather": "allgather", "Allgatherv": "allgatherv",
                  "Alltoall": "alltoall", "All-to-Allv": "alltoallv"}
_NEIGHBOURHOOD_NB = {"Allgather": "allgather", "Allgatherv": "allgatherv",
                     "Alltoall": "alltoall", "Alltoallv": "alltoallv", "Alltoallw": "alltoallw"}
_ONE_SIDED = {
    "MPI_Put Latency": "osu_put_latency", "MPI_Put Bandwidth": "osu_put_bw",
    "MPI_Put Bi-directional Bandwidth": "osu_put_bibw", "MPI_Get latency": "osu_get_latency",
    "MPI_Get Bandwidth": "osu_get_bw", "MPI_Accumulate latency": "osu_acc_latency",
    "MPI_Get_accumulate latency": "osu_get_acc_latency",
    "MPI_Fetch_and_op latency": "osu_fop_latency",
    "MPI_Compare_and_swap latency": "osu_cas_latency",
}


def _titles() -> dict[str, str]:
    out = {f"OSU MPI {t} Test": p for t, p in _PT2PT.items()}
    for title, name in _COLLECTIVES.items():
        out[f"OSU MPI {title} Latency Test"] = f"osu_{name}"
        if name not in _NO_PERSISTENT:
            out[f"OSU MPI {title} Persistent Latency Test"] = f"osu_{name}_persistent"
        nb = title.replace("All-to-All Personalized Exchange", "All-to-All")
        nb = f"Non-{'B' if name == 'bcast' else 'b'}locking {nb}"
        out[f"OSU MPI {nb} Latency Test"] = f"osu_i{name}"
    for title, name in _NEIGHBOURHOOD.items():
        out[f"OSU MPI Neighborhood {title} Latency Test"] = f"osu_neighbor_{name}"
    for title, name in _NEIGHBOURHOOD_NB.items():
        out[f"OSU MPI Non-blocking Neighborhood {title} Latency Test"] = f"osu_ineighbor_{name}"
    out.update({f"OSU {t} Test": p for t, p in _ONE_SIDED.items()})
    out["OSU MPI Init Test"] = "osu_init"
    out["OSU MPI Hello World Test"] = "osu_hello"
    return out


# Title without accelerator and version -> program. OSU 7.4 gives two titles to more than one
# program: SAME_TITLE says which, and how the text tells them apart.
PROGRAMS = _titles()
SAME_TITLE = {
    # osu_neighbor_alltoallw prints osu_alltoallw's title, after its topology line
    "osu_alltoallw": ("osu_neighbor_alltoallw",),
    # osu_bw_fan_in and _fan_out print osu_bw's title, and "Avg Latency(us)" over bandwidths
    "osu_bw": ("osu_bw_fan_in", "osu_bw_fan_out"),
}
FAN_PROGRAMS = SAME_TITLE["osu_bw"]
# OSU refuses any other process count for these ("This test requires exactly two processes").
TWO_PROCESSES = frozenset(
    ["osu_latency", "osu_bw", "osu_bibw", "osu_latency_mp", "osu_latency_mt",
     "osu_latency_persistent", "osu_bw_persistent", "osu_bibw_persistent",
     *_ONE_SIDED.values()])
ALL_PROGRAMS = frozenset(PROGRAMS.values()) | {p for v in SAME_TITLE.values() for p in v}
# Point-to-point programs: under -d their text says the accelerator in the title but not where
# the buffers were (OSU 7.4's MPI programs never call print_header, which prints the "# Send
# Buffer on ..." line; only its xccl programs do): the importer's buffers= hint says it.
PT2PT_PROGRAMS = frozenset(_PT2PT.values()) | frozenset(FAN_PROGRAMS)
ONE_SIDED_PROGRAMS = frozenset(_ONE_SIDED.values())

TITLE = re.compile(r"^# (OSU MPI\S* .*? Test)(?: v(\S+))?\s*$")
# printf(benchmark_header, "-CUDA") and the like fill the slot after "MPI" / "MPI_Put"
ACCELERATOR = re.compile(r"-(CUDA MANAGED|CUDA|OPENACC|ROCM|MANAGED)(?= )")


def program_of(title: str) -> tuple[str | None, str | None]:
    """(program, accelerator) of a title such as "OSU MPI-CUDA Latency Test"; program None
    when no OSU 7.4 MPI program prints that title."""
    m = ACCELERATOR.search(title)
    accelerator = m.group(1).lower().replace(" ", "_") if m else None
    return PROGRAMS.get(ACCELERATOR.sub("", title)), accelerator


# Column titles as print_only_header, print_only_header_nbc, print_header_one_sided and
# osu_mbw_mr.c print them -> record field.
COLUMNS = {
    "Size": "bytes", "Avg Latency(us)": "t_avg_us", "Latency (us)": "t_avg_us",
    "Bandwidth (MB/s)": "mb_per_s", "MB/s": "mb_per_s", "Messages/s": "messages_per_s",
    "Min Latency(us)": "t_min_us", "Max Latency(us)": "t_max_us", "Iterations": "repetitions",
    "Validation": "validation", "Overall(us)": "overall_us", "Compute(us)": "compute_us",
    "Coll. Init(us)": "init_us", "MPI_Test(us)": "test_us", "MPI_Wait(us)": "wait_us",
    "Pure Comm.(us)": "pure_comm_us", "Min Comm.(us)": "min_comm_us",
    "Max Comm.(us)": "max_comm_us", "Overlap(%)": "overlap_pct",
    "Transmit Size": "transmit_bytes",
}
INTEGER_FIELDS = ("bytes", "repetitions", "transmit_bytes")
# -z: "P50 Tail Lat(us)" (times) or "P99 Tail BW(MB/s)" (bandwidths) -> percentiles[_mb_per_s]
TAIL = r"P(\d+) Tail (Lat\(us\)|BW\(MB/s\))"
PERCENTILE_FIELDS = {"Lat(us)": "percentiles", "BW(MB/s)": "percentiles_mb_per_s"}
_COLUMN = re.compile("|".join([TAIL] + [re.escape(t) for t in
                                        sorted(COLUMNS, key=len, reverse=True)]))

# -c: OSU prints Pass/Fail; its atomics (osu_cas_latency, ...) passed/failed/skipped
VALIDATION = {"Pass": "Pass", "Fail": "Fail", "passed": "Pass", "failed": "Fail",
              "skipped": "Skipped"}
WINDOWS = {"MPI_Win_create": "create", "MPI_Win_allocate": "allocate",
           "MPI_Win_create_dynamic": "dynamic"}  # OSU's -w names
SYNCS = {"MPI_Win_lock/unlock": "lock", "MPI_Win_post/start/complete/wait": "pscw",
         "MPI_Win_fence": "fence", "MPI_Win_flush": "flush",
         "MPI_Win_flush_local": "flush_local", "MPI_Win_lock_all/unlock_all": "lock_all"}


def column_fields(line: str) -> list[str] | None:
    """The fields of a column header line ("# Size       Avg Latency(us) ..." or, for the
    programs without sizes, "# Avg Latency(us)"), or None if the line is not one; a tail
    percentile is "percentiles:50"."""
    if not line.startswith("#"):
        return None
    text, pos, fields = line.rstrip(), 1, []
    while pos < len(text):
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos == len(text):
            break
        m = _COLUMN.match(text, pos)
        if not m:
            return None
        if m.group(1):
            fields.append(f"{PERCENTILE_FIELDS[m.group(2)]}:{m.group(1)}")
        else:
            fields.append(COLUMNS[m.group(0)])
        pos = m.end()
    return fields if fields and fields != ["bytes"] else None
