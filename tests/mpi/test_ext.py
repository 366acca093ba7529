"""IMB-EXT (one-sided, fence epochs) under 1..4 ranks: the table layout of
the real IMB-EXT output, both modes with their repetition counts, zero
defects under -check (target windows hold exactly the bytes put, gets return
the target's values, accumulate sums are right), JSON rows equal to the
printed ones."""

import pytest

from effb import BUSY, SAMPLES, busy_mpich, imb_layout, imb_procs, parse_imb, read_jsonl, run

# (effb's Open MPI environment selects osc/pt2pt: the default one-sided
# component cannot create windows in these containers)

# IMB's list order: the guide's Sample 4 ("List of Benchmarks to run") and
# IMB_bnames_ext.h
ALL = ["Window", "Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"]
SINGLE = ["Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put"]
SIZES = [0, 4, 8, 16, 32, 64, 128, 256, 512, 1024]  # whole floats, as IMB-EXT
MODES = ["AGGREGATE", "NON-AGGREGATE"]  # IMB-EXT's table order


def load(np):
    """(-msglog, -iter, aggregate and non-aggregate repetitions).  -iter
    A,40,B,off fixes MSGSPERSAMPLE A for aggregate rows and MSGS_NONAGGR B for
    non-aggregate rows and Window.  MPICH (ch4:ucx) busy-polls: with more
    ranks than cores every fence and MPI_Win_create takes a scheduler time
    slice (tens to hundreds of ms), so those runs are kept small."""
    if BUSY and np > 2:
        return "3", "10,40,4,off", 10, 4
    return "10", "20,40,10,off", 20, 10
HEAD_SINGLE = "       #bytes #repetitions      t[usec]   Mbytes/sec      defects"
HEAD_COLL = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects"


def ext(np, *args, **kw):
    return run(np, "IMB-EXT", *args, **kw)


def expected_blocks(names, np):
    """(name, procs, mode) of every block, in run order: single transfer on 2
    processes (NOT RUN on 1) in both modes, Accumulate on the Q list in both
    modes, Window on the Q list in one table."""
    out = []
    for name in names:
        base = name[6:] if name.startswith("Multi-") else name
        if base in SINGLE:
            out += [(name, 1, None)] if np == 1 else [(name, 2, m) for m in MODES]
        elif base == "Accumulate":
            out += [(name, q, m) for q in imb_procs(np) for m in MODES]
        else:
            out += [(name, q, None) for q in imb_procs(np)]
    return out


@pytest.mark.asan
@pytest.mark.parametrize("np", [1, 2, 3, 4])
def test_ext_checked(tmp_path, np):
    js = tmp_path / "ext.jsonl"
    msglog, it, agg, nonagg = load(np)
    sizes = SIZES[:int(msglog)]
    r = ext(np, "-msglog", msglog, "-iter", it, "-check", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"]) for b in blocks] == expected_blocks(ALL, np)
    recs = read_jsonl(js)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    results = iter([x for x in recs if x["type"] == "result"])
    for b in blocks:
        if b["name"] in SINGLE and np == 1:
            assert b["rows"] == [] and any("NOT RUN" in n for n in b["notes"]), b
            continue
        single = b["name"] in SINGLE
        assert b["header_line"] == (HEAD_SINGLE if single else HEAD_COLL), b
        assert b["waiting"] == (np - b["procs"])
        assert [int(row[0]) for row in b["rows"]] == sizes
        reps = agg if b["mode"] == "AGGREGATE" else nonagg
        for row in b["rows"]:
            assert int(row[1]) == reps, (b["name"], b["mode"], row)
            assert row[-1] == "0.00", (b["name"], b["mode"], row)  # defects
            rec = next(results)
            assert rec["component"] == "ext" and rec["benchmark"] == b["name"]
            assert rec["procs"] == b["procs"] and rec["bytes"] == int(row[0])
            assert rec["repetitions"] == reps and rec["defects"] == 0
            assert rec["mode"] == ({"AGGREGATE": "aggregate", "NON-AGGREGATE": "non-aggregate",
                                    None: None}[b["mode"]])
            if single:
                assert row[2] == f"{rec['t_max_us']:.2f}"
                mb = rec["bytes"] / 1.048576 / rec["t_max_us"]
                assert rec["mbytes_per_s"] == pytest.approx(mb, rel=1e-12)
                assert row[3] == f"{mb:.2f}"
            else:
                assert row[2:5] == [f"{rec[k]:.2f}" for k in ("t_min_us", "t_max_us", "t_avg_us")]
                assert rec["mbytes_per_s"] is None
    assert next(results, None) is None


def test_ext_default_list_is_imb_order(tmp_path):
    """Without benchmark names: the header's list and the blocks in IMB's
    order, as the guide's Sample 4 lists them (Window first)."""
    r = ext(2, "-msglog", "2", "-iter", "10", "-time", "0.05", "-check")
    assert r.returncode == 0, r
    head = r.stdout.split("# List of Benchmarks to run:\n\n", 1)[1].split("\n\n", 1)[0]
    assert head.splitlines() == ["# " + n for n in ALL]
    names = [line[len("# Benchmarking "):].strip() for line in r.stdout.splitlines()
             if line.startswith("# Benchmarking ")]
    assert list(dict.fromkeys(names)) == ALL
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"]) for b in blocks] == expected_blocks(ALL, 2)
    assert all(row[-1] == "0.00" for b in blocks for row in b["rows"])


def test_ext_layout_matches_real_imb_ext():
    """Same calling sequence as the real IMB-EXT sample: the same benchmark
    list, blocks, MODE lines and column headers (dashes included), named
    benchmarks in command-line order as IMB runs them."""
    sample = (SAMPLES / "imb" / "ext_np2.txt").read_text()
    r = ext(2, "Unidir_Put", "Bidir_Get", "Accumulate", "Window", "-msglog", "0:3",
            "-iter", "20", "-time", "0.05")
    assert r.returncode == 0, r

    assert imb_layout(r.stdout) == imb_layout(sample)
    # block framing: dashes as wide as the table, MODE lines as IMB prints them
    for line in ("#---------------------------------------------------\n# Benchmarking Unidir_Put \n"
                 "# #processes = 2 \n#---------------------------------------------------\n#\n"
                 "#    MODE: AGGREGATE \n#\n",
                 "# Benchmarking Window \n# #processes = 2 \n"
                 "#----------------------------------------------------------------\n"
                 "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"):
        assert line in sample and line in r.stdout
    rows = {b["name"] + str(b["mode"]): b["rows"] for b in parse_imb(r.stdout)}
    assert [row[0] for row in rows["WindowNone"]] == ["0", "4", "8"]


@busy_mpich(4)
@pytest.mark.parametrize("outflag", ["0", "1"])
def test_ext_multi_every_benchmark_checked(tmp_path, outflag):
    """Every benchmark's Multi- form at 4 ranks: the group lines, and 0
    defects in every row (-multi 1: every group's own row)."""
    js = tmp_path / "m.jsonl"
    names = ["Multi-" + n for n in ALL]
    r = ext(4, *names, "-multi", outflag, "-msglog", "2", "-iter", "10,40,4,off", "-check",
            "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"]) for b in blocks] == expected_blocks(names, 4)
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(results) == sum(len(b["rows"]) for b in blocks)
    it = iter(results)
    for b in blocks:
        groups = [list(range(g * b["procs"], (g + 1) * b["procs"]))
                  for g in range(4 // b["procs"])]
        assert b["groups"] == groups, b
        if outflag == "1":  # one row per group and length (whole floats of -msglog 2)
            assert [(int(x[0]), int(x[1])) for x in b["rows"]] == [
                (g, n) for n in (0, 4) for g in range(len(groups))], b
        else:
            assert [int(x[0]) for x in b["rows"]] == [0, 4], b
        for row in b["rows"]:
            assert row[-1] == "0.00", (b["name"], b["procs"], b["mode"], row)
            rec = next(it)
            assert (rec["benchmark"], rec["procs"], rec["defects"]) == (b["name"], b["procs"], 0)
            assert rec["group"] == (int(row[0]) if outflag == "1" else None)


def test_ext_unknown_benchmark_is_a_user_error():
    r = ext(2, "Unidir_Pot", "-msglog", "2")
    assert r.returncode == 2, r
    assert r.stderr.startswith("effbench: error: unknown benchmark 'Unidir_Pot' for IMB-EXT; "
                               "known: Window Unidir_Get Unidir_Put Bidir_Get Bidir_Put "
                               "Accumulate"), r


@pytest.mark.asan
def test_ext_sync_window_keeps_aggregate_tables_imb_timed(tmp_path):
    """-sync window times one repetition per window: right for the
    non-aggregate table, wrong for M aggregated transfers under one fence, so
    aggregate rows keep IMB's loop (valid column '-', JSON sync "barrier")."""
    js = tmp_path / "w.jsonl"
    r = ext(2, "Accumulate", "-sync", "window", "-msglog", "2", "-iter", "10", "-time", "0.05",
            "-check", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [b["mode"] for b in blocks] == ["AGGREGATE", "NON-AGGREGATE"]
    assert blocks[0]["header"][-2:] == ["defects", "valid"]
    assert [row[-1] for row in blocks[0]["rows"]] == ["-", "-"]  # 0 and 4 bytes
    assert all(0 < float(row[-1]) <= 1 for row in blocks[1]["rows"])
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [x["sync"] for x in rows] == ["barrier"] * 2 + ["window"] * 2
    assert all(x["defects"] == 0 for x in rows)
