"""OSU 7.4 text (effbench.importers.osu_text): every program's table shape as OSU's printing code
writes it (tests/python/data/osu/, made from c/util/osu_util_mpi.c and the programs' own
printf calls, numbers invented), the real OSU 7.4 samples in data/samples/osu/ when they are
there, the records docs/json-lines.md ("OSU records") describes, and what the text cannot say
(the process count of a collective, fan-in or fan-out) asked for by name."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from effbench.cli import main
from effbench.importers import FormatError, detect_format, parse_file
from effbench.importers.osu_programs import ALL_PROGRAMS, PROGRAMS, program_of
from effbench.records import identity_key
from effbench.validate import record_problems

DATA = Path(__file__).resolve().parent / "data"
OSU = DATA / "osu"
REAL = DATA / "samples" / "osu"
# OSU 7.4's source tree (not in this repository): $OSU_SRC, else where the issue's work put it
OSU_SOURCE = Path(os.environ.get("OSU_SRC", "/work/osu-src")) / "c" / "mpi"

# file -> (program(s), --procs needed, rows)
FILES = {
    "osu_latency_c_z.out": ("osu_latency", None, 13),
    "osu_pt2pt_job.out": (["osu_bw", "osu_bibw", "osu_mbw_mr"], None, 23 + 11 + 11),
    "osu_mbw_mr_V.out": ("osu_mbw_mr", None, 7 * 8),
    "osu_allreduce_f_T.out": ("osu_allreduce", 4, 2 * 19),
    "osu_barrier.out": ("osu_barrier", 4, 1),
    "osu_iallreduce_f.out": ("osu_iallreduce", 4, 11),
    "osu_ibarrier.out": ("osu_ibarrier", 4, 1),
    "osu_put_latency.out": ("osu_put_latency", None, 23),
    "osu_put_bw_z.out": ("osu_put_bw", None, 11),
    "osu_cas_latency_c.out": ("osu_cas_latency", None, 1),
    "osu_init.out": ("osu_init", None, 1),
    "osu_latency_mp.out": ("osu_latency_mp", None, 8),
    "osu_neighbor_alltoallw.out": ("osu_neighbor_alltoallw", 4, 7),
}
NO_SIZE = ("osu_barrier", "osu_ibarrier", "osu_init")
ROW = re.compile(r"^(\s*\d+(\.\d+)?(\s+\S+)*|nprocs: .*)\s*$")  # a table row, osu_init's line


def parse(name, **hints):
    procs = FILES[name][1]
    return parse_file(OSU / name, procs=hints.pop("procs", procs), **hints)


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_shape(name):
    programs, _, rows = FILES[name]
    p = parse(name)
    assert detect_format(OSU / name) == "osu" and p.source_format == "osu"
    assert len(p.results) == rows and p.skipped_lines == 0
    names = programs if isinstance(programs, list) else [programs]
    assert [r["benchmark"] for r in p.results if r["benchmark"] not in names] == []
    assert p.run["program"] == (None if isinstance(programs, list) else programs)
    assert p.run.get("programs", names) == names
    assert (p.run["component"], p.run["tool"], p.run["version"], p.run["methodology"]) == \
        ("osu", "OSU", "7.4", "osu-7.4")
    assert p.end is None  # OSU prints nothing when it is done
    for r in p.results:
        assert record_problems(r) == []
        assert (r["component"], r["methodology"], r["mbytes_per_s"]) == ("osu", "osu-7.4", None)
        assert r["bytes"] == 0 or r["benchmark"] not in NO_SIZE
        # each row has its headline: a latency or OSU's MB/s
        assert (r["t_avg_us"] is None) != (r["mb_per_s"] is None)
    text_rows = [line for line in (OSU / name).read_text().splitlines()
                 if ROW.match(line)]
    if "Message Rate Profile" not in (OSU / name).read_text():
        assert len(p.result_lines) == len(text_rows)


def test_latency_validation_percentiles_exact():
    p = parse("osu_latency_c_z.out")
    assert p.results[0] == {
        "type": "result", "schema": 1, "component": "osu", "benchmark": "osu_latency",
        "group": None, "mode": None, "procs": 2, "bytes": 1, "repetitions": None,
        "t_min_us": None, "t_max_us": None, "t_avg_us": 0.23, "mbytes_per_s": None,
        "defects": None, "methodology": "osu-7.4", "mb_per_s": None, "messages_per_s": None,
        "validation": "Pass", "percentiles": {"50": 0.22, "90": 0.25, "99": 0.36},
        "datatype": "MPI_CHAR"}
    assert [r["bytes"] for r in p.results] == [2 ** k for k in range(13)]


def test_bandwidths_are_osu_mb_per_s_never_imb_mbytes():
    p = parse("osu_pt2pt_job.out")
    bw = [r for r in p.results if r["benchmark"] == "osu_bw"]
    assert bw[-1]["bytes"] == 4194304 and bw[-1]["mb_per_s"] == 8995.90
    mr = [r for r in p.results if r["benchmark"] == "osu_mbw_mr"]
    assert (mr[0]["pairs"], mr[0]["window_size"], mr[0]["procs"]) == (1, 64, 2)
    for r in mr:  # OSU's rate: 10^6 * MB/s / bytes, printed to 2 decimals
        assert r["messages_per_s"] == pytest.approx(1e6 * r["mb_per_s"] / r["bytes"], rel=2e-3)
    put = parse("osu_put_bw_z.out").results[0]
    assert (put["mb_per_s"], put["percentiles_mb_per_s"]) == (4.49, {"50": 4.54, "99": 3.14})
    assert (put["window"], put["sync"]) == ("create", "lock_all")


def test_mbw_mr_window_matrix():
    p = parse("osu_mbw_mr_V.out")
    assert [(r["bytes"], r["window_size"]) for r in p.results[:9]] == \
        [(1, w) for w in (1, 2, 4, 8, 16, 32, 64, 128)] + [(2, 1)]
    assert {r["procs"] for r in p.results} == {4}  # 2 pairs
    assert p.results[0]["mb_per_s"] == 4.28 and p.results[0]["messages_per_s"] == 4280000.0
    assert p.results[-1]["messages_per_s"] == 6692343.75


def test_collectives_full_statistics_and_datatypes():
    p = parse("osu_allreduce_f_T.out")
    assert [r["datatype"] for r in p.results] == ["MPI_CHAR"] * 19 + ["MPI_INT"] * 19
    first = p.results[0]
    assert (first["bytes"], first["t_avg_us"], first["t_min_us"], first["t_max_us"],
            first["repetitions"]) == (4, 0.48, 0.43, 0.57, 1000)
    assert p.results[-1]["repetitions"] == 100
    # -T: the same size twice, told apart by the datatype
    assert len({identity_key(r) for r in p.results}) == 38
    barrier = parse("osu_barrier.out").results[0]
    assert (barrier["bytes"], barrier["t_avg_us"], barrier["procs"]) == (0, 1.37, 4)


def test_non_blocking_collectives():
    r = parse("osu_iallreduce_f.out").results[0]
    assert {k: r[k] for k in ("overall_us", "compute_us", "init_us", "test_us", "wait_us",
                              "pure_comm_us", "min_comm_us", "max_comm_us", "overlap_pct")} \
        == {"overall_us": 1.01, "compute_us": 0.73, "init_us": 0.30, "test_us": 0.10,
            "wait_us": 0.21, "pure_comm_us": 0.70, "min_comm_us": 0.63, "max_comm_us": 0.80,
            "overlap_pct": 60.00}
    # the latency: the pure communication time, its minimum and maximum over the processes
    assert (r["t_avg_us"], r["t_min_us"], r["t_max_us"]) == (0.70, 0.63, 0.80)
    ib = parse("osu_ibarrier.out").results[0]
    assert (ib["bytes"], ib["overall_us"], ib["compute_us"], ib["pure_comm_us"],
            ib["overlap_pct"], ib["t_avg_us"], ib["t_min_us"]) == \
        (0, 5.12, 3.90, 3.71, 67.12, 3.71, None)


def test_one_sided_startup_and_programs_that_share_a_title():
    cas = parse("osu_cas_latency_c.out").results[0]
    assert (cas["validation"], cas["window"], cas["sync"], cas["datatype"]) == \
        ("Pass", "allocate", "flush", "MPI_INT")
    init = parse("osu_init.out").results[0]
    assert (init["procs"], init["t_min_us"], init["t_max_us"], init["t_avg_us"]) == \
        (4, 31000.0, 35000.0, 33000.0)
    mp = parse("osu_latency_mp.out").results[0]
    assert (mp["sender_processes"], mp["receiver_processes"], mp["bytes"]) == (2, 2, 0)
    assert parse("osu_neighbor_alltoallw.out").run["program"] == "osu_neighbor_alltoallw"
    # without the topology line the same title is osu_alltoallw
    plain = (OSU / "osu_neighbor_alltoallw.out").read_text().split("\n", 1)[1]
    assert program_of("OSU MPI All-to-Allw Personalized Exchange Latency Test") == \
        ("osu_alltoallw", None)
    assert "Time took" not in plain
    assert program_of("OSU MPI_Put-CUDA Latency Test") == ("osu_put_latency", "cuda")
    assert program_of("OSU MPI-ROCM Allreduce Latency Test") == ("osu_allreduce", "rocm")


def test_fan_in_out_and_procs_are_asked_for(tmp_path, capsys):
    fan = OSU / "osu_bw_fan_in.out"
    with pytest.raises(FormatError) as exc:
        parse_file(fan, procs=8)
    assert (exc.value.line, exc.value.reason) == (
        4, "osu_bw_fan_in and osu_bw_fan_out print the same title and columns: say which with "
        "--program")
    p = parse_file(fan, procs=8, program="osu_bw_fan_in")
    assert p.run["program"] == "osu_bw_fan_in" and p.results[0]["t_avg_us"] is None
    assert p.results[0]["mb_per_s"] == 9.82
    with pytest.raises(FormatError) as exc:
        parse_file(OSU / "osu_allreduce_f_T.out")
    assert (exc.value.line, exc.value.reason) == (
        5, "osu_allreduce's output does not say how many processes ran it: give --procs N")
    with pytest.raises(FormatError, match="--program osu_bw_fan_out: only for a table of"):
        parse_file(OSU / "osu_latency_c_z.out", program="osu_bw_fan_out")
    with pytest.raises(FormatError, match="--procs is for OSU text only, and this file is imb"):
        parse_file(DATA / "samples/imb/mpi1_np2_p2p.txt", procs=2)
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    assert main(["import", "--db", db, str(OSU / "osu_barrier.out")]) == 2
    assert "osu_barrier's output does not say how many processes" in capsys.readouterr().err
    assert main(["import", "--db", db, "--procs", "0", str(OSU / "osu_barrier.out")]) == 2
    assert main(["import", "--db", db, "--procs", "4", str(OSU / "osu_barrier.out")]) == 0
    out = capsys.readouterr().out
    assert "imported as run 1 (osu, 1 rows, osu, OSU text does not say whether" in out


def test_title_table_matches_osu_source():
    """PROGRAMS was written from the BENCHMARK defines of OSU 7.4's c/mpi/**/*.c; where the
    source is on this machine, every define maps back to its file's program."""
    if not OSU_SOURCE.is_dir():
        pytest.skip(f"OSU 7.4 source not at {OSU_SOURCE}")
    seen = set()
    for path in OSU_SOURCE.rglob("*.c"):
        m = re.search(r'#define BENCHMARK\s*(?:\\\s*)?"([^"]*)"', path.read_text())
        if not m or path.stem in ("osu_get_mbw", "osu_get_multi_lat"):  # the mirror's own
            continue
        program, _ = program_of(m.group(1).replace("%s", ""))
        seen.add(path.stem)
        assert program == path.stem or path.stem in (
            "osu_neighbor_alltoallw", "osu_bw_fan_in", "osu_bw_fan_out"), path
    assert seen == set(ALL_PROGRAMS) and len(PROGRAMS) == 74


# --- the real OSU 7.4 output, once it is in the tree ---------------------------------------------

def _real_samples():
    return sorted(REAL.glob("*.out")) if REAL.is_dir() else []


def _index_procs(name: str) -> int | None:
    """The process count the samples' index.json gives for NAME, under whatever key."""
    index = REAL / "index.json"
    if not index.is_file():
        return None
    data = json.loads(index.read_text())
    entries = data if isinstance(data, list) else (
        [{"file": k, **v} if isinstance(v, dict) else {"file": k} for k, v in data.items()]
        if "samples" not in data else data["samples"])
    for entry in entries:
        if isinstance(entry, dict) and name in map(str, entry.values()):
            for key in ("np", "procs", "ranks", "processes", "nprocs"):
                if isinstance(entry.get(key), int):
                    return entry[key]
    return None


@pytest.mark.parametrize("path", _real_samples(), ids=lambda p: p.name)
def test_real_osu_samples(path):
    procs = _index_procs(path.name)
    try:
        p = parse_file(path, procs=procs)
    except FormatError as exc:
        if "osu_hello prints no measurement" in exc.reason:
            return
        assert procs is None and "give --procs N" in exc.reason, exc
        return
    assert p.source_format == "osu" and p.results and p.skipped_lines == 0
    assert p.run["methodology"] == "osu-7.4" and p.run["version"] == "7.4"
    text = path.read_text()
    for r in p.results:
        assert record_problems(r) == [] and r["mbytes_per_s"] is None
        assert r["benchmark"] in ALL_PROGRAMS
    # every printed row became a record (osu_mbw_mr -V's rate profile fills its matrix's rows)
    rows = [i for i, line in enumerate(text.splitlines(), 1)
            if ROW.match(line)]
    if "Message Rate Profile" not in text:
        assert sorted(set(p.result_lines)) == rows
