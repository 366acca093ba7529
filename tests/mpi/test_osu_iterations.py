"""OSU 7.4's iteration counts, warm-up and large-message switch, program by program
(docs/osu.md, "OSU's methodology").  RULES below is written from OSU 7.4's source
(c/util/osu_util.c's defaults per benchmark type, -i/-x setting both counts, and each
program's own loop), not from effbench's descriptors: every program runs briefly at OSU's
default counts (the slower ones at their default warm-up with -i 50) on sizes on both sides of
8192 bytes and with every -T type, and its JSON records' `repetitions` and `skip`, size by
size, and the run record's counts must be the rule's; -i/-x on a program of each family."""
import pytest

from effb import MPI, listed, matrix_beyond_first, read_jsonl, run

LARGE = 8192  # OSU's LARGE_MESSAGE_SIZE: the large counts above it

# (iterations, skip) up to 8192 bytes, then (iterations, skip) above: OSU's defaults
LAT = (10000, 100, 1000, 10)   # latency programs (point-to-point, one-sided)
BW = (100, 10, 20, 2)          # bandwidth programs (point-to-point, fan, one-sided)
COLL = (1000, 100, 100, 10)    # every collective (blocking, non-blocking, persistent, neighbour)

BLOCKING = ["allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw",
            "barrier", "bcast", "gather", "gatherv", "reduce", "reduce_scatter",
            "reduce_scatter_block", "scatter", "scatterv"]
PERSISTENT = [n for n in BLOCKING if n != "reduce_scatter_block"]
NEIGHBOUR = ["allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"]

RULES = {
    **{f"osu_{n}": LAT for n in ["latency", "latency_persistent", "multi_lat", "latency_mp",
                                  "latency_mt", "put_latency", "get_latency", "acc_latency",
                                  "get_acc_latency", "fop_latency", "cas_latency"]},
    **{f"osu_{n}": BW for n in ["bw", "bibw", "bw_persistent", "bibw_persistent",
                                 "bw_fan_in", "bw_fan_out", "put_bw", "get_bw", "put_bibw"]},
    # calc_bw runs options.iterations + options.skip at every size: it never switches
    "osu_mbw_mr": (100, 10, 100, 10),
    **{f"osu_{n}": COLL for n in BLOCKING},
    **{f"osu_{n}_persistent": COLL for n in PERSISTENT},
    **{f"osu_i{n}": COLL for n in BLOCKING},
    # assigns skip = skip_large, iterations = iterations_large before its one loop
    "osu_ibarrier": (100, 10, 100, 10),
    # "else options.skip = options.skip_large": the large warm-up at every size
    "osu_igatherv": (1000, 10, 100, 10),
    "osu_iscatterv": (1000, 10, 100, 10),
    **{f"osu_{b}neighbor_{n}": COLL for b in ("", "i") for n in NEIGHBOUR},
}
# The switch assigns options.iterations and options.skip, and nothing assigns them back: once
# a size above 8192 has run, later -T datatypes' small sizes run the large counts too.  And
# osu_acc_latency's lock loop assigns skip = iterations_large there (not skip_large).

# no loop over sizes: one row of no size (the barriers) or of one element (fetch-and-op,
# compare-and-swap), whatever -m says
ONE_ROW = {"osu_barrier", "osu_barrier_persistent", "osu_ibarrier", "osu_fop_latency",
           "osu_cas_latency"}

GRAPH2 = "0, 1\n1, 0\n"  # -N graph: two ranks, each the other's neighbour


def programs():
    """The listing's OSU programs that have counts (osu_init and osu_hello have none)."""
    return [b for b in listed(component="osu") if b["class"] != "startup"]


def test_every_program_has_a_rule():
    assert sorted(b["name"] for b in programs()) == sorted(RULES)


def counts_after(base, args):
    """OSU's -i sets iterations and iterations_large, -x skip and skip_large."""
    it, sk, it_l, sk_l = base
    if "-i" in args:
        it = it_l = int(args[args.index("-i") + 1])
    if "-x" in args:
        sk = sk_l = int(args[args.index("-x") + 1])
    return it, sk, it_l, sk_l


def expected(counts, sizes, acc_lock=False):
    """(repetitions, skip) of each row, in run order, as OSU's loops assign them."""
    it, sk, it_l, sk_l = counts
    cur, out = (it, sk), []
    for size in sizes:
        if size > LARGE:
            cur = (it_l, it_l if acc_lock else sk_l)
        out.append(cur)
    return out


def run_counts(tmp_path, bench, args):
    """Run the program on 2 ranks; its result records' (bytes, repetitions, skip) and the run
    record's counts."""
    name = bench["name"]
    if not bench["runs_here"]:
        pytest.skip(f"{name} needs {bench['refused_because']}, which {MPI} lacks")
    args = list(args)
    if "N:" in bench["optstring"]:
        graph = tmp_path / "g.adj"
        graph.write_text(GRAPH2)
        args += ["-N", f"graph:{graph}"]
    out = tmp_path / "r.jsonl"
    # the fan programs' nodes: one rank per node (as test_osu_p2p.py runs them)
    r = run(2, name, *args, "--json", out, timeout=120,
            extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "1"})
    assert r.returncode == 0, r
    recs = read_jsonl(out)
    opts = recs[0]["options"]
    results = [x for x in recs if x["type"] == "result"]
    assert results and recs[-1]["rows"] == len(results), recs[-1]
    got = [(x["repetitions"], x["skip"]) for x in results]
    return got, [x["bytes"] for x in results], tuple(
        opts[k] for k in ("iterations", "skip", "iterations_large", "skip_large"))


# The slower programs run OSU's default warm-up (its switch at 8192 bytes and -T included)
# with -i 50: their default iteration counts are those of their family's program that runs
# them (10000 threaded round trips at 8192 bytes alone take tens of seconds here)
SHORTENED = {"osu_latency_mt", "osu_latency_mp", "osu_multi_lat", "osu_latency_persistent",
             "osu_get_latency", "osu_get_acc_latency", "osu_fop_latency", "osu_acc_latency",
             *(f"osu_i{n}" for n in BLOCKING if n not in ("allgather", "bcast", "barrier")),
             *(f"osu_ineighbor_{n}" for n in NEIGHBOUR if n != "allgather")}


def default_args(bench):
    """Sizes 8192 (small counts) and 16384 (large), every -T type (the switch stays on)."""
    args = []
    if "m:" in bench["optstring"]:
        args += ["-m", f"{LARGE}:{2 * LARGE}"]
    if "T:" in bench["optstring"] and bench["name"] != "osu_cas_latency":  # integers only
        args += ["-T", "all"]
    if bench["name"] in SHORTENED:
        args += ["-i", "50"]
    return args


# every program in CI's matrix stage; the first of each class (pt2pt, collective, ...) here,
# with test_dash_i_and_x_set_both_counts's programs of their own rules
@pytest.mark.parametrize("bench", matrix_beyond_first(programs(), lambda b: b["class"]),
                         ids=lambda b: b["name"])
def test_default_counts(tmp_path, bench):
    args = default_args(bench)
    counts = counts_after(RULES[bench["name"]], args)
    got, sizes, recorded = run_counts(tmp_path, bench, args)
    ntypes = 3 if "-T" in args else 1
    if bench["name"] in ONE_ROW:
        assert len(sizes) == ntypes and max(sizes) <= 4, sizes
    else:
        assert sizes == [LARGE, 2 * LARGE] * ntypes, sizes
    assert got == expected(counts, sizes), list(zip(sizes, got))
    assert recorded == counts


# -i / -x on sizes on both sides of 8192: one program per family, and those with rules of
# their own
DASH_I_X = ["osu_latency", "osu_bw", "osu_mbw_mr", "osu_multi_lat", "osu_latency_mt",
            "osu_bw_fan_in", "osu_allreduce", "osu_barrier", "osu_ialltoall", "osu_ibarrier",
            "osu_igatherv", "osu_iscatterv", "osu_neighbor_alltoall", "osu_ineighbor_allgather",
            "osu_put_bw", "osu_get_latency", "osu_fop_latency", "osu_bcast_persistent"]


@pytest.mark.parametrize("name", DASH_I_X)
def test_dash_i_and_x_set_both_counts(tmp_path, name):
    bench = listed(name)[0]
    args = ["-i", "3", "-x", "1"]
    if "m:" in bench["optstring"]:
        args += ["-m", f"{LARGE // 2}:{2 * LARGE}"]
    got, sizes, recorded = run_counts(tmp_path, bench, args)
    assert recorded == (3, 1, 3, 1)
    assert got == [(3, 1)] * len(sizes), list(zip(sizes, got))


def test_acc_latency_lock_warms_up_iterations_large_times(tmp_path):
    """OSU 7.4's run_acc_with_lock: skip = iterations_large above 8192 bytes, and it stays
    for the next datatype's small sizes."""
    bench = listed("osu_acc_latency")[0]
    args = ["-s", "lock", "-i", "20", "-m", f"{LARGE}:{2 * LARGE}", "-T", "all"]
    counts = counts_after(RULES["osu_acc_latency"], args)
    got, sizes, recorded = run_counts(tmp_path, bench, args)
    assert recorded == counts == (20, 100, 20, 10)
    assert got == expected(counts, sizes, acc_lock=True), list(zip(sizes, got))
    assert got == [(20, 100), (20, 20)] + [(20, 20)] * 4
