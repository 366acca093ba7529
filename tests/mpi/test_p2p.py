"""IMB-MPI1 point-to-point benchmarks under 1..4 ranks: exact table format,
zero defects under -check, and JSON rows equal to the printed rows."""
import pytest

from effb import imb_procs, np_params, parse_imb, read_jsonl, run

# the AnySource variants: IMB 2021's names (run by name only, as there)
P2P = ["PingPong", "PingPongSpecificSource", "PingPongAnySource", "PingPing",
       "PingPingSpecificSource", "PingPingAnySource", "Sendrecv", "Exchange"]
SINGLE = {"PingPong", "PingPongSpecificSource", "PingPongAnySource", "PingPing",
          "PingPingSpecificSource", "PingPingAnySource"}
NMSG = {"PingPong": 1, "PingPongSpecificSource": 1, "PingPongAnySource": 1, "PingPing": 1,
        "PingPingSpecificSource": 1, "PingPingAnySource": 1, "Sendrecv": 2, "Exchange": 4}
SIZES = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]

HEAD_SINGLE = "       #bytes #repetitions      t[usec]   Mbytes/sec      defects"
HEAD_PARALLEL = ("       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
                 "   Mbytes/sec      defects")


def assert_rows_match_json(blocks, results):
    """Every printed row equals its JSON record, in order (2-decimal
    rounding): single transfer prints t = t_max, the others (and every
    Multi- form) t_min / t_max / t_avg; -multi 1 rows lead with the group."""
    it = iter(results)
    for b in blocks:
        for row in b["rows"]:
            rec = next(it)
            if b["header"][0] == "#group":
                assert rec["group"] == int(row[0]), (b["name"], row)
                row = row[1:]
            else:
                assert rec["group"] is None
            assert rec["benchmark"] == b["name"] and rec["bytes"] == int(row[0])
            assert rec["procs"] == b["procs"] and rec["repetitions"] == int(row[1])
            assert rec["defects"] == 0 and row[-1] == "0.00", (b["name"], row)
            assert rec["t_min_us"] <= rec["t_avg_us"] <= rec["t_max_us"]
            if b["header"][2] == "t[usec]":
                assert row[2] == f"{rec['t_max_us']:.2f}"
            else:
                assert row[2:5] == [f"{rec['t_min_us']:.2f}", f"{rec['t_max_us']:.2f}",
                                    f"{rec['t_avg_us']:.2f}"]
            mb = NMSG[b["name"].removeprefix("Multi-")] * rec["bytes"] / 1.048576 / rec["t_max_us"]
            assert rec["mbytes_per_s"] == pytest.approx(mb, rel=1e-12)
            assert row[-2] == f"{rec['mbytes_per_s']:.2f}"
    assert next(it, None) is None


@pytest.mark.asan
@pytest.mark.parametrize("np", [1, 2, 3, 4])
def test_p2p_checked(tmp_path, np):
    js = tmp_path / "p2p.jsonl"
    r = run(np, "IMB-MPI1", *P2P, "-msglog", "10", "-iter", "50,off",
            "-check", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[0]["procs"] == np
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    results = [x for x in recs if x["type"] == "result"]
    printed = 0
    for b in blocks:
        name = b["name"]
        if name in SINGLE:
            if np == 1:
                assert b["rows"] == [] and any("NOT RUN" in n for n in b["notes"]), b
                continue
            assert b["procs"] == 2
            assert b["waiting"] == np - 2
            assert b["header_line"] == HEAD_SINGLE
        else:
            assert b["header_line"] == HEAD_PARALLEL
        assert [int(row[0]) for row in b["rows"]] == SIZES, b
        for row in b["rows"]:
            assert float(row[-1]) == 0.0, (name, row)  # defects
            assert int(row[1]) == 50
        printed += len(b["rows"])
    # Q lists: single transfer on 2, parallel on [1,]2,4,...,P
    for name in ("Sendrecv", "Exchange"):
        assert [b["procs"] for b in blocks if b["name"] == name] == imb_procs(np)
    assert len(results) == printed
    assert recs[0]["options"]["planned_rows"] == printed
    assert_rows_match_json(blocks, results)


@pytest.mark.parametrize("outflag", ["0", "1"])
@pytest.mark.parametrize("np", np_params([2, 3, 4]))
def test_multi_checked(tmp_path, np, outflag):
    """Every Multi- form: the groups of the guide (P // Q groups of Q, the
    rest waiting), 0 defects in every row, -multi 1 a row for every group
    and length, each row equal to its JSON record."""
    js = tmp_path / "multi.jsonl"
    names = ["Multi-" + n for n in P2P]
    r = run(np, "IMB-MPI1", *names, "-multi", outflag, "-msglog", "2", "-iter", "20,off",
            "-check", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    qs = {n: [2] if n[6:] in SINGLE else imb_procs(np) for n in names}
    assert [(b["name"], b["procs"]) for b in blocks] == [(n, q) for n in names for q in qs[n]]
    for b in blocks:
        q, ngroups = b["procs"], np // b["procs"]
        assert b["groups"] == [list(range(g * q, (g + 1) * q)) for g in range(ngroups)], b
        assert b["waiting"] == np - ngroups * q
        head = HEAD_PARALLEL if outflag == "0" else "       #group" + HEAD_PARALLEL
        assert b["header_line"] == head, b
        want = [(g, x) for x in (0, 1, 2, 4) for g in range(ngroups)]
        if outflag == "0":
            want = [(x,) for x in (0, 1, 2, 4)]
        assert [tuple(int(v) for v in row[:len(want[0])]) for row in b["rows"]] == want, b
        assert all(int(row[-6]) == 20 for row in b["rows"])  # #repetitions
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert_rows_match_json(blocks, results)


def test_include_specific_source_adds_them_to_the_default_list():
    """The SpecificSource variants are not in the default list; -include adds
    them, each after its wildcard flavour, and the rest stays as it was."""
    args = ["-msglog", "0", "-iter", "5,off"]
    plain = run(2, "IMB-MPI1", *args)
    r = run(2, "IMB-MPI1", *args, "-include", "PingPongSpecificSource", "PingPingSpecificSource")
    assert plain.returncode == 0 and r.returncode == 0, (plain, r)
    without = [b["name"] for b in parse_imb(plain.stdout)]
    names = [b["name"] for b in parse_imb(r.stdout)]
    assert "PingPongSpecificSource" not in without and "PingPingSpecificSource" not in without
    assert "PingPongAnySource" not in without and "PingPingAnySource" not in without
    assert without[:4] == ["PingPong", "PingPing", "Sendrecv", "Exchange"] and len(without) > 4
    assert names == (["PingPong", "PingPongSpecificSource", "PingPing", "PingPingSpecificSource"]
                     + without[2:])
    for out, listed in ((plain.stdout, without), (r.stdout, names)):
        head = out.split("# List of Benchmarks to run:\n\n", 1)[1].split("\n\n", 1)[0]
        assert head.splitlines() == ["# " + n for n in listed]


def test_dynamic_policy_counts_only_fall():
    """-time caps the repetitions per length (dynamic policy): never above
    MSGSPERSAMPLE, never growing with the length."""
    r = run(2, "IMB-MPI1", "PingPong", "Sendrecv", "-msglog", "0:20", "-iter", "200",
            "-time", "0.001")
    assert r.returncode == 0, r
    for b in parse_imb(r.stdout):
        reps = [int(row[1]) for row in b["rows"]]
        assert len(reps) == 22
        assert all(1 <= n <= 200 for n in reps)
        assert reps == sorted(reps, reverse=True), reps
        assert reps[-1] < 200  # 1 MiB cannot fit 200 repetitions in 1 ms


def test_multi_groups_and_map(tmp_path):
    r = run(4, "IMB-MPI1", "PingPong", "Sendrecv", "-multi", "1", "-msglog", "2",
            "-iter", "20", "-time", "0.05", "-check")
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == ["Multi-PingPong", "Multi-Sendrecv", "Multi-Sendrecv"]
    assert all(row[-1] == "0.00" for b in blocks for row in b["rows"])  # defects
    pp = [b for b in blocks if b["name"] == "Multi-PingPong"]
    assert len(pp) == 1 and pp[0]["groups"] == [[0, 1], [2, 3]]
    assert pp[0]["header"][0] == "#group"
    # -multi 1: one row per group and length
    assert [(int(r_[0]), int(r_[1])) for r_ in pp[0]["rows"]] == [
        (g, x) for x in (0, 1, 2, 4) for g in (0, 1)]
    sr = [b for b in blocks if b["name"] == "Multi-Sendrecv"]
    assert [b["groups"] for b in sr] == [[[0, 1], [2, 3]], [[0, 1, 2, 3]]]
    # -map 2x2 numbers ranks down the columns and reads them along the rows
    r = run(4, "IMB-MPI1", "Multi-PingPong", "-map", "2x2", "-msglog", "1",
            "-iter", "10", "-time", "0.05")
    assert r.returncode == 0, r
    b = parse_imb(r.stdout)[0]
    assert b["groups"] == [[0, 2], [1, 3]]
    assert b["header"][:3] == ["#bytes", "#repetitions", "t_min[usec]"]



def test_map_with_a_benchmark_too_big_for_the_run():
    """A benchmark skipped for too few processes under -map: its block shows the run's rank
    order like every other block (it once had no rank list and crashed on printing it)."""
    r = run(1, "IMB-MPI1", "PingPong", "-map", "1x1", "-msglog", "1", "-time", "0.05")
    assert r.returncode == 0, r
    assert ("# Benchmarking PingPong \n# #processes = 1; rank order (rowwise): \n# 0\n"
            in r.stdout), r.stdout
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["rows"]) for b in blocks] == [("PingPong", 1, [])]
    assert blocks[0]["notes"][-1] == "NOT RUN: PingPong needs 2 processes; 1 process is running"

@pytest.mark.asan
def test_off_cache_cycles_buffers_and_data_still_checks(tmp_path):
    js = tmp_path / "oc.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "Exchange", "-off_cache", "0.01,64", "-msglog", "12",
            "-iter", "30,off", "-check", "-thread_level", "multiple", "--json", js)
    assert r.returncode == 0, r
    assert "# Off-cache buffers: cache size 0.01 MB, line size 64 bytes" in r.stdout
    assert "# MPI Thread Environment: MPI_THREAD_MULTIPLE" in r.stdout
    recs = read_jsonl(js)
    assert recs[0]["options"]["off_cache_mb"] == 0.01
    assert recs[0]["thread_level"] == "MPI_THREAD_MULTIPLE"
    rows = [x for x in recs if x["type"] == "result"]
    assert len(rows) == 2 * 14 and all(x["defects"] == 0 for x in rows)
