"""docs/extending.md's worked example (docs/examples/ssend_pingpong.c): the page shows the file
as it is, and the program built with it (build/effbench-example) runs the new benchmark as the
page says, checked, with IMB's table and JSON rows."""
import re

import pytest

from effb import BUILD, ROOT, parse_imb, read_jsonl, run

EXAMPLE = ROOT / "docs" / "examples" / "ssend_pingpong.c"


def test_page_shows_the_example_file():
    page = (ROOT / "docs" / "extending.md").read_text()
    blocks = re.findall(r"```c\n(.*?)```", page, re.S)
    assert blocks == [EXAMPLE.read_text()]
    code = [line for line in EXAMPLE.read_text().splitlines() if line.strip()]
    assert len(code) <= 40  # "a benchmark in 40 lines"


@pytest.mark.asan
def test_example_benchmark_runs_checked(tmp_path):
    if not (BUILD / "effbench-example").exists():
        pytest.skip(f"{BUILD} has no effbench-example")
    js = tmp_path / "ssend.jsonl"
    r = run(2, "effbench-example", "mpi1", "Ssend_PingPong", "-msglog", "0:4", "-iter", "50,off",
            "-check", "--json", js)
    assert r.returncode == 0, r
    (block,) = parse_imb(r.stdout)
    assert block["name"] == "Ssend_PingPong" and block["procs"] == 2
    assert block["header_line"] == ("       #bytes #repetitions      t[usec]   Mbytes/sec"
                                    "      defects")
    assert [int(row[0]) for row in block["rows"]] == [0, 1, 2, 4, 8, 16]
    assert all(int(row[1]) == 50 and float(row[-1]) == 0 for row in block["rows"])
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"], x["defects"]) for x in rows] == \
        [("Ssend_PingPong", b, 0) for b in (0, 1, 2, 4, 8, 16)]
    for x, printed in zip(rows, block["rows"]):
        assert f"{x['t_max_us']:.2f}" == printed[2]


def test_example_is_not_in_effbench():
    """EB_F_EXPLICIT_ONLY and the example's own program: effbench itself does not know it."""
    r = run(2, "IMB-MPI1", "Ssend_PingPong")
    assert r.returncode == 2
    assert "unknown benchmark 'Ssend_PingPong' for IMB-MPI1" in r.stderr
    r = run(1, "effbench-example", "mpi1", "-h")
    assert r.returncode == 0 and re.search(r"^  Ssend_PingPong", r.stdout, re.M)
