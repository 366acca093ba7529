"""`effbench nodes`, the node-pair matrix, on one machine standing for several nodes
(EFFBENCH_TEST_RANKS_PER_NODE, docs/testing.md): the schedule, the text matrices, the JSON
records and their agreement.  Its accuracy against a shaped network and the flagging of a slowed
node run on the emulated cluster (tests/cluster)."""
import re

import pytest

from effb import read_jsonl, run

NODES = {"EFFBENCH_TEST_RANKS_PER_NODE": "1"}


def matrices(text):
    """{title: {(row, col): value}} of the printed matrices."""
    out, title, cols = {}, None, None
    for line in text.splitlines():
        if line.startswith("# Latency at") or line.startswith("# Bandwidth at"):
            title, cols = line[2:], None
            out[title] = {}
        elif title and line.startswith("node "):
            cols = line.split()[1:]
        elif title and cols and line and not line.startswith("#"):
            name, *vals = line.split()
            assert len(vals) == len(cols)
            for c, v in zip(cols, vals):
                out[title][(name, c)] = None if v == "-" else float(v)
        elif not line:
            cols = None
    return out


@pytest.mark.parametrize("np", [2, 3, 4])
def test_matrix_every_pair_once(np, tmp_path):
    r = run(np, "effbench", "nodes", "--bytes", "65536", "--reps", "10", "--bw-reps", "3",
            "--json", "n.jsonl", cwd=tmp_path, extra_env=NODES)
    assert r.returncode == 0, r
    recs = read_jsonl(tmp_path / "n.jsonl")
    run_rec, results, summary, end = recs[0], recs[1:-2], recs[-2], recs[-1]
    names = [f"{h['name']}" for h in run_rec["hosts"]]
    assert len(names) == np and all(re.fullmatch(r".+-node\d", n) for n in names)
    assert run_rec["component"] == "nodes"
    assert run_rec["options"]["rounds"] == (np - 1 if np % 2 == 0 else np)
    assert run_rec["options"]["planned_rows"] == len(results) == np * (np - 1) // 2 * 3
    assert end["type"] == "end" and end["status"] == "ok"
    pairs = {(x["node_a"], x["node_b"]) for x in results}
    assert pairs == {(a, b) for i, a in enumerate(names) for b in names[i + 1:]}
    for x in results:
        assert x["benchmark"] == "NodePair" and x["procs"] == 2 and x["link"] == "inter"
        assert x["bytes"] in (0, 8, 65536)
        assert x["repetitions"] == (3 if x["bytes"] == 65536 else 10)
        assert 0 < x["t_min_us"] <= x["t_median_us"] <= x["t_max_us"]
        assert x["t_min_us"] <= x["t_avg_us"] <= x["t_max_us"]
        assert (x["mbytes_per_s"] is None) == (x["bytes"] == 0)
        if x["bytes"]:
            assert x["mbytes_per_s"] == pytest.approx(x["bytes"] / 1.048576 / x["t_median_us"])
    # the printed matrices are the summary's, rounded, symmetric, with "-" on the diagonal
    m = matrices(r.stdout)
    keys = {"Latency at 0 bytes [usec]": "latency_0b_us",
            "Latency at 8 bytes [usec]": "latency_8b_us",
            "Bandwidth at 65536 bytes [Mbytes/sec]": "bandwidth_mb_per_s"}
    assert set(m) == set(keys)
    assert summary["nodes"] == names
    for title, key in keys.items():
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                want = summary[key][i][j]
                assert (m[title][(a, b)] is None) == (want is None) == (i == j)
                if want is not None:
                    assert m[title][(a, b)] == pytest.approx(want, abs=0.006)
                    assert summary[key][j][i] == want
    flagged = re.findall(r"^#   node (\S+):", r.stdout, re.M)
    assert sorted(set(flagged)) == sorted(f["node"] for f in summary["flagged_nodes"])
    if np == 2:
        assert "nothing can be flagged with two nodes" in r.stdout
        assert summary["flagged_nodes"] == [] and summary["flagged_links"] == []


def test_one_node_is_a_user_error(tmp_path):
    r = run(2, "effbench", "nodes", cwd=tmp_path)
    assert r.returncode == 2, r
    assert [l for l in r.stderr.splitlines() if l.startswith("effbench: error:")] == [
        "effbench: error: nodes: all ranks run on one node; start at least one rank on each of "
        "two or more nodes (mpirun --map-by node, srun --ntasks-per-node=1)"]


def test_other_ranks_wait(tmp_path):
    """Two ranks per node: only the lowest rank of each node measures."""
    r = run(4, "effbench", "nodes", "--reps", "5", "--bw-reps", "2", "--bytes", "1024",
            "--json", "n.jsonl", cwd=tmp_path, extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "2"})
    assert r.returncode == 0, r
    recs = read_jsonl(tmp_path / "n.jsonl")
    results = [x for x in recs if x["type"] == "result"]
    assert {(x["rank_a"], x["rank_b"]) for x in results} == {(0, 2)}
    assert [h["ranks"] for h in recs[0]["hosts"]] == [[0, 1], [2, 3]]
