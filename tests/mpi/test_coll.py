"""IMB-MPI1 collectives under 1..4 ranks: IMB's default order, exact
columns, sizes in units of sizeof(float) for reductions, zero defects under
-check (blocks at their offsets, exact float sums), one JSON record per row,
Multi- forms, and the guide's memory rules under -mem."""

import pytest

from effb import busy_mpich, imb_procs, listed, np_params, parse_imb, read_jsonl, run

# MPICH (ch4:ucx) busy-polls: with more ranks than cores every collective
# takes tens of milliseconds, so those sweeps are left to Open MPI there.


# Names, order and kinds from the listing (`effbench --list-json`), not from a list here.
MPI1 = listed("IMB-MPI1")
COLL = [b["name"] for b in MPI1 if b["class"] == "collective" and b["default"]]
REDUCTIONS = {b["name"] for b in MPI1 if b["reduction"]}
NO_BYTES = {b["name"] for b in MPI1 if "NO_BYTES" in b["flags"]}  # Barrier
UNCHECKED = {b["name"] for b in MPI1 if not b["checked"]}      # no data: "not checked"
P2P_DEFAULT = [b["name"] for b in MPI1 if b["class"] != "collective" and b["default"]]
# IMB 2021's collectives (not in the 4.0 guide): run by name or -include only
IMB2021_COLL = [b["name"] for b in MPI1 if b["class"] == "collective" and not b["default"]]

BYTE_SIZES = [0] + [1 << k for k in range(0, 11)]
FLOAT_SIZES = [0] + [1 << k for k in range(2, 11)]

HEAD = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
HEAD_BARRIER = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
CHECK = "      defects"
ITER = ["-iter", "20", "-iter_policy", "off", "-time", "0.05"]


def sizes_of(name):
    if name in NO_BYTES:
        return None
    return FLOAT_SIZES if name in REDUCTIONS else BYTE_SIZES


def assert_rows_match_json(blocks, results, name_prefix=""):
    it = iter(results)
    for b in blocks:
        for row in b["rows"]:
            rec = next(it)
            assert rec["component"] == "mpi1"
            assert rec["benchmark"] == b["name"], (rec, b["name"])
            assert rec["procs"] == b["procs"]
            assert rec["mbytes_per_s"] is None
            ts = row[-4:-1] if "checked" in rec else row[-3:]  # -check: a defects column
            assert ts == [f"{rec['t_min_us']:.2f}", f"{rec['t_max_us']:.2f}",
                          f"{rec['t_avg_us']:.2f}"], (row, rec)
            assert rec["t_min_us"] <= rec["t_avg_us"] <= rec["t_max_us"]
            if b["name"].removeprefix("Multi-") in NO_BYTES:
                assert rec["bytes"] == 0 and len(row) == 5
            else:
                assert rec["bytes"] == int(row[0])
            assert rec["repetitions"] == int(row[-5])
    assert next(it, None) is None


@pytest.mark.asan
@pytest.mark.parametrize("np", np_params([1, 2, 3, 4]))
def test_collectives_checked(tmp_path, np):
    js = tmp_path / "coll.jsonl"
    r = run(np, "IMB-MPI1", *COLL, "-msglog", "10", *ITER, "-check", "--json", js)
    assert r.returncode == 0, r
    # nothing on stderr but the core's warning about time-sliced ranks
    assert all("ranks share a node with" in ln for ln in r.stderr.splitlines()), r
    blocks = parse_imb(r.stdout)
    qs = imb_procs(np)
    assert [b["name"] for b in blocks] == [n for n in COLL for _ in qs]
    assert [b["procs"] for b in blocks] == qs * len(COLL)
    for b in blocks:
        sizes = sizes_of(b["name"])
        if sizes is None:
            assert b["header_line"] == HEAD_BARRIER + CHECK
            assert len(b["rows"]) == 1
        else:
            assert b["header_line"] == HEAD + CHECK
            assert [int(row[0]) for row in b["rows"]] == sizes, b["name"]
        for row in b["rows"]:
            want = "not checked" if b["name"] in UNCHECKED else "0.00"
            assert row[-1] == want, (b["name"], b["procs"], row)  # defects
            assert int(row[-5]) == 20
            assert len(row) == len(b["header"])
    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[-1]["type"] == "end"
    assert recs[-1]["status"] == "ok"
    results = [x for x in recs if x["type"] == "result"]
    assert all((x["defects"], x["checked"]) == ((None, False) if x["benchmark"] in UNCHECKED
                                                else (0, True)) for x in results), results
    assert_rows_match_json(blocks, results)


def test_listing_knows_the_guides_collectives():
    """The listing the names above come from: the guide's list, reductions and rooted ones."""
    assert COLL == ["Allreduce", "Reduce", "Reduce_scatter", "Allgather", "Allgatherv",
                    "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv",
                    "Bcast", "Barrier"]
    assert {b["name"] for b in MPI1 if b["root"]} == {"Reduce", "Gather", "Gatherv", "Scatter",
                                                       "Scatterv", "Bcast"}
    assert REDUCTIONS == {"Allreduce", "Reduce", "Reduce_scatter", "Reduce_local",
                          "Reduce_scatter_block"}
    assert (NO_BYTES, UNCHECKED) == ({"Barrier"}, {"Barrier"})


def test_default_list_and_format():
    """Without names: point-to-point then the collectives in IMB's order;
    without -check the table has exactly the IMB columns."""
    r = run(2, "IMB-MPI1", "-msglog", "2", *ITER)
    assert r.returncode == 0, r
    text = r.stdout
    head = text.split("# List of Benchmarks to run:\n\n", 1)[1].split("\n\n", 1)[0]
    assert head.splitlines() == ["# " + n for n in P2P_DEFAULT + COLL]
    blocks = parse_imb(text)
    assert [b["name"] for b in blocks] == P2P_DEFAULT + COLL
    for b in blocks:
        if b["name"] in COLL:
            want = HEAD_BARRIER if b["name"] in NO_BYTES else HEAD
            assert b["header_line"] == want
        if b["name"] == "Allreduce":
            assert [int(row[0]) for row in b["rows"]] == [0, 4]
        if b["name"] == "Bcast":
            assert [int(row[0]) for row in b["rows"]] == [0, 1, 2, 4]
    # Barrier's block is framed for its four columns (IMB: 4 * 13 dashes)
    i = text.index("# Benchmarking Barrier")
    assert text[:i].rstrip("\n").splitlines()[-1] == "#" + "-" * 51


@pytest.mark.asan
@busy_mpich(4)
@pytest.mark.parametrize("outflag", ["0", "1"])
def test_multi_checked(tmp_path, outflag):
    js = tmp_path / "multi.jsonl"
    names = ["Multi-" + n for n in COLL]
    r = run(4, "IMB-MPI1", *names, "-multi", outflag, "-msglog", "2", *ITER, "-check",
            "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == [n for n in names for _ in (2, 4)]
    for b in blocks:
        ngroups = 4 // b["procs"]
        assert len(b["groups"]) == ngroups
        want = HEAD_BARRIER if b["name"][6:] in NO_BYTES else HEAD
        if outflag == "1":
            assert b["header_line"] == "       #group" + want + CHECK
            nsizes = 1 if b["name"][6:] in NO_BYTES else 2 if b["name"][6:] in REDUCTIONS else 4
            assert len(b["rows"]) == ngroups * nsizes
        else:
            assert b["header_line"] == want + CHECK
        for row in b["rows"]:
            assert row[-1] == ("not checked" if b["name"][6:] in UNCHECKED else "0.00"), \
                (b["name"], row)
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(results) == sum(len(b["rows"]) for b in blocks)
    assert all(x["defects"] == (None if x["benchmark"][6:] in UNCHECKED else 0)
               for x in results)
    if outflag == "1":
        assert {x["group"] for x in results} == {0, 1}


def test_memory_rules():
    """-mem 0.003 GB (3221225 bytes) at 2 processes: Alltoall needs Q*2X
    (4 MiB at X = 1 MiB: skipped), Allgather (Q+1)*X (3 MiB: runs), Bcast 2X."""
    r = run(2, "IMB-MPI1", "Alltoall", "Allgather", "Bcast", "-npmin", "2",
            "-msglog", "19:20", "-iter", "4", "-iter_policy", "off", "-mem", "0.003")
    assert r.returncode == 0, r
    blocks = {b["name"]: b for b in parse_imb(r.stdout)}
    big = [0, 1 << 19, 1 << 20]
    assert [int(x[0]) for x in blocks["Alltoall"]["rows"]] == [0, 1 << 19]
    assert r.stdout.count("# #bytes = 1048576 and longer skipped: buffers need 0.004 GB") == 1
    assert [int(x[0]) for x in blocks["Allgather"]["rows"]] == big
    assert [int(x[0]) for x in blocks["Bcast"]["rows"]] == big


@pytest.mark.asan
@pytest.mark.parametrize("np", np_params([2, 3, 4]))
@pytest.mark.parametrize("rtype", ["float", "char", "int", "double"])
def test_imb2021_reductions_checked(tmp_path, np, rtype):
    """Reduce_local (every rank's own MPI_Reduce_local, result 2x its data) and
    Reduce_scatter_block (X per rank, the exact sum of Q blocks at rank*X):
    IMB's columns, lengths in units of the -red_data_type, 0 defects, the
    collectives' process sets, each row equal to its JSON record."""
    js = tmp_path / "red.jsonl"
    r = run(np, "IMB-MPI1", *IMB2021_COLL, "-msglog", "6", *ITER, "-check",
            "-red_data_type", rtype, "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    qs = imb_procs(np)
    assert [(b["name"], b["procs"]) for b in blocks] == [(n, q) for n in IMB2021_COLL
                                                         for q in qs]
    unit = {"float": 4, "char": 1, "int": 4, "double": 8}[rtype]
    sizes = [0] + [1 << k for k in range(unit.bit_length() - 1, 7)]
    for b in blocks:
        assert b["header_line"] == HEAD + CHECK
        assert [int(row[0]) for row in b["rows"]] == sizes, b
        for row in b["rows"]:
            assert row[-1] == "0.00" and int(row[-5]) == 20, (b["name"], b["procs"], row)
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert all(x["defects"] == 0 for x in results)
    assert_rows_match_json(blocks, results)


def test_imb2021_reductions_with_root_shift_off():
    """-root_shift off changes nothing for them (no root), as in IMB: 0 defects."""
    r = run(3, "IMB-MPI1", *IMB2021_COLL, "-msglog", "3", *ITER, "-check",
            "-root_shift", "off")
    assert r.returncode == 0, r
    assert "# -root_shift off: rooted collectives use root 0 in every repetition" in r.stdout
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"]) for b in blocks] == [(n, q) for n in IMB2021_COLL
                                                         for q in (2, 3)]
    for b in blocks:
        assert [int(row[0]) for row in b["rows"]] == [0, 4, 8]
        assert all(row[-1] == "0.00" for row in b["rows"]), b


def test_imb2021_reductions_are_not_in_the_default_list():
    """Without names the guide's list; -include adds them after Reduce and
    Reduce_scatter (IMB 2021's order)."""
    r = run(2, "IMB-MPI1", "-msglog", "2", *ITER, "-include", "Reduce_scatter_block",
            "Reduce_local")
    assert r.returncode == 0, r
    names = [b["name"] for b in parse_imb(r.stdout)]
    want = list(COLL)
    want.insert(want.index("Reduce") + 1, "Reduce_local")
    want.insert(want.index("Reduce_scatter") + 1, "Reduce_scatter_block")
    assert names == P2P_DEFAULT + want
