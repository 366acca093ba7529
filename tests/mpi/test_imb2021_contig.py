"""IMB 2021.11's -contig_type base|base_vec|resize|resize_vec (imb/driver/msg_layout.h): every
value runs point-to-point, collective and local-reduction benchmarks with -check, the rows
name the message length (not the doubled buffers), nothing is corrupted, the calls carry the
layout's datatype (a derived type, not MPI_FLOAT, for all but base), -mem counts the doubled
buffers of resize, and the run record and -dump say the value.  That -check catches a
message in another layout: tests/unit/test_msg_layout.c (a real message to self) and
tests/mpi/test_corruption.py (a byte written into a gap); the text against IMB 2021.11's own
is the `contig` sample of tests/mpi/test_imb2021_defaults.py.  Also the other message shape
IMB 2021.11 changed: Reduce_scatter's receive counts, counted in the calls."""
import re

import pytest

from effb import BUILD, parse_imb, read_jsonl, run

CALLS = BUILD / "libeb_calls.so"
BENCHES = ["PingPong", "Exchange", "Allreduce", "Alltoall", "Gatherv", "Reduce_scatter",
           "Reduce_local"]
VALUES = ["base", "base_vec", "resize", "resize_vec"]
HEADER = {"base_vec": "one vector of the elements per length",
          "resize": "elements resized to twice their extent, buffers twice as long",
          "resize_vec": "one vector of elements resized to twice their extent, buffers twice as "
                        "long"}


def counted_run(tmp_path, tag, *args):
    calls, js = tmp_path / f"{tag}.calls", tmp_path / f"{tag}.jsonl"
    r = run(2, "IMB-MPI1", *args, "--json", js, timeout=180,
            extra_env={"LD_PRELOAD": str(CALLS), "EFFBENCH_CALLS_FILE": str(calls)})
    assert r.returncode == 0, r
    counts = dict(line.rsplit(" ", 1) for line in calls.read_text().splitlines())
    return r, {k: int(v) for k, v in counts.items()}, read_jsonl(js)


@pytest.mark.parametrize("ct", VALUES)
def test_every_layout_checked(tmp_path, ct):
    # doubles for the reductions: the user-defined sum of another type than the default's
    red = ["-red_data_type", "double"] if ct == "resize_vec" else []
    r, calls, recs = counted_run(tmp_path, ct, *BENCHES, "-contig_type", ct, "-check",
                                 "-msglog", "3:5", "-iter", "10,off", "-time", "1", *red)
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == BENCHES
    for b in blocks:
        assert [int(row[0]) for row in b["rows"]] == [0, 8, 16, 32], (b["name"], r.stdout)
        assert b["header"][-1] == "defects"
        assert all(row[-1] == "0.00" for row in b["rows"]), (b["name"], r.stdout)
    # the 4.0 mode's header line for the option (IMB 2021's text, compared in the samples,
    # has none)
    said = [line for line in r.stdout.splitlines() if line.startswith("# -contig_type")]
    assert said == ([] if ct == "base" else [f"# -contig_type {ct}: {HEADER[ct]}; reductions "
                                             "with a user-defined sum"])
    results = [x for x in recs if x["type"] == "result"]
    assert len(results) == 4 * len(BENCHES)
    assert all(x["defects"] == 0 for x in results)
    assert recs[0]["options"]["contig_type"] == ct
    # rank 0's Allreduce and Send: the base type (the driver's own reductions use predefined
    # types too), or a derived one (named "", or "Dup MPI_FLOAT" by Open MPI) in every row of
    # 8 bytes and more (10 timed + 10 checked); PingPong's 0-byte row of a vector: the base
    derived = {what: sum(n for k, n in calls.items() if k.split(":")[0] == what
                         and not re.fullmatch(r"MPI_\w+", k.split(":", 1)[1]))
               for what in ("Allreduce", "Send")}
    if ct == "base":
        assert derived == {"Allreduce": 0, "Send": 0}
        assert calls["Send:MPI_BYTE"] >= 4 * 20
    else:
        assert derived["Allreduce"] >= 3 * 20 and derived["Send"] >= 3 * 20
        assert calls.get("Send:MPI_BYTE", 0) <= (20 if ct.endswith("_vec") else 0)

def test_mem_counts_the_doubled_buffers(tmp_path):
    """PingPong's buffers at 2048 bytes: 4096 bytes, or 8192 with resize; -mem 6000 bytes
    keeps the 2048-byte row for base and skips it, with the note, for resize."""
    mem = str(6000 / 2**30)
    rows = {}
    for ct in ("base", "resize"):
        r = run(2, "IMB-MPI1", "PingPong", "-contig_type", ct, "-msglog", "10:11",
                "-iter", "10,off", "-mem", mem)
        assert r.returncode == 0, r
        (b,) = parse_imb(r.stdout)
        rows[ct] = [int(row[0]) for row in b["rows"]]
        skipped = re.search(r"#bytes = 2048 and longer skipped: buffers need 0\.000 GB per "
                            r"process, -mem allows 5\.58794e-06 GB", r.stdout)
        assert (skipped is not None) == (ct == "resize"), r.stdout
    assert rows == {"base": [0, 1024, 2048], "resize": [0, 1024]}


def test_dump_says_the_value(tmp_path):
    y = tmp_path / "o.yaml"
    r = run(2, "IMB-MPI1", "PingPong", "-contig_type", "base_vec", "-msglog", "2",
            "-iter", "5", "-dump", y)
    assert r.returncode == 0, r
    lines = y.read_text().splitlines()
    assert "contig_type: base_vec" in lines
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "2", "-iter", "5", "-dump", y)
    assert "# {contig_type: base} (default)" in y.read_text().splitlines()


@pytest.mark.parametrize("mode,counts", [("4.0", "2,1"), ("2021", "3,3")])
def test_reduce_scatter_counts_per_method(tmp_path, mode, counts):
    """Reduce_scatter of X = 12 bytes (3 floats) on 2 ranks: the guide splits X among the ranks
    (2 and 1 floats); IMB 2021.11 gives every rank X of a 2X vector (3 and 3), checked."""
    r, calls, recs = counted_run(tmp_path, mode, "Reduce_scatter", "--imb-defaults", mode,
                                 "-msglen", str(msglen_12(tmp_path)), "-iter", "10,off",
                                 "-check")
    rows = [x for x in recs if x["type"] == "result"]
    assert [(x["bytes"], x["defects"]) for x in rows] == [(12, 0)]
    other = "3,3" if counts == "2,1" else "2,1"
    assert calls.get(f"Reduce_scatter:counts:{counts}", 0) >= 10, calls
    assert f"Reduce_scatter:counts:{other}" not in calls, calls


def msglen_12(tmp_path):
    path = tmp_path / "lengths"
    path.write_text("12\n")
    return path


def test_lengths_past_the_address_space_are_skipped_by_mem(tmp_path):
    """A -msglen length of 2^63-1 bytes: its buffers (doubled by resize, np times for
    Alltoall) cannot be counted in a size_t; they must not wrap to a small number that
    passes -mem, so the row is skipped with -mem's note and nothing is sent."""
    lens = tmp_path / "lens"
    lens.write_text("4\n9223372036854775807\n")
    for bench, ct in (("PingPong", "resize"), ("Alltoall", "base")):
        r = run(2, "IMB-MPI1", bench, "-contig_type", ct, "-msglen", lens, "-iter", "5,off")
        assert r.returncode == 0, r
        (b,) = parse_imb(r.stdout)
        assert [int(row[0]) for row in b["rows"]] == [4], r.stdout
        assert re.search(r"#bytes = 9223372036854775807 and longer skipped: buffers need "
                         r"\S+ GB per process, -mem allows", r.stdout), r.stdout
