"""The OSU 7.4 reference samples stay consistent with their index.json, which the
OSU format tests loop over (made by bench/osu-samples)."""
import json
import re

import pytest

from conftest import SAMPLES

OSU = SAMPLES / "osu"
INDEX = json.loads((OSU / "index.json").read_text())


def test_index_names_every_sample_file_and_nothing_else():
    indexed = {r["file"] for r in INDEX} | {r["stderr_file"] for r in INDEX if r["stderr_file"]}
    on_disk = {str(p.relative_to(OSU)) for p in OSU.rglob("*") if p.suffix in (".out", ".err")}
    assert indexed == on_disk
    assert len(INDEX) == len({r["file"] for r in INDEX})


def test_records_have_the_documented_fields():
    for r in INDEX:
        assert set(r) == {"file", "stderr_file", "program", "args", "np", "mpi",
                          "library_version", "exit", "timed_out"}, r["file"]
        assert r["mpi"] in ("openmpi", "mpich")
        assert r["library_version"] in ("Open MPI 4.1.4", "MPICH 4.0.2")
        assert (r["exit"] is None) == r["timed_out"]
        assert r["file"].split("/")[1] == r["mpi"]
        assert re.fullmatch(r"(run|help|bad)/\w+/%s(_\w+)?_np%d\.out" % (r["program"], r["np"]),
                            r["file"]), r["file"]


@pytest.mark.parametrize("rec", [r for r in INDEX if r["file"].startswith("run/") and r["exit"] == 0
                                 and r["program"] not in ("osu_init", "osu_hello")],
                         ids=lambda r: r["file"])
def test_successful_runs_carry_the_osu_74_banner_and_a_size_table(rec):
    text = (OSU / rec["file"]).read_text()
    assert re.search(r"^# OSU MPI.* Test v7\.4$", text, re.M)
    # osu_mbw_mr -V prints a size x window matrix under "#  1  2  4 ..." instead.
    assert re.search(r"^# (Size|Avg Latency|Overall|\s+1\s+2\s+4)", text, re.M)
    if rec["program"] not in ("osu_barrier", "osu_ibarrier", "osu_barrier_persistent"):
        assert re.search(r"^\d+\s+\d+\.\d\d", text, re.M)


# OSU 7.4's own slips in its usage lines, kept as they are.
HELP_NAME = {"osu_ireduce": "osu_reduce", "osu_ireduce_scatter": "osu_Ireduce_scatter",
             "osu_ireduce_scatter_block": "osu_Ireduce_scatter_block"}
# These run the benchmark instead (osu_init, osu_hello) or check the rank or node
# count before reading options, so -h on one rank prints no usage.
NO_HELP = {"osu_init", "osu_hello", "osu_bw_fan_in", "osu_bw_fan_out", "osu_get_acc_latency"}


def test_help_is_on_stdout_with_the_program_name():
    seen = set()
    for r in INDEX:
        if r["file"].startswith("help/") and r["args"] == ["-h"]:
            seen.add(r["program"])
            text = (OSU / r["file"]).read_text()
            if r["program"] in NO_HELP:
                assert "Usage:" not in text, r["file"]
                continue
            assert r["exit"] == 0, r["file"]
            first = text.splitlines()[0]
            name = HELP_NAME.get(r["program"], r["program"])
            assert first.startswith("Usage: %s [options]" % name), r["file"]
    assert len(seen) == 77
