"""The IMB-P2P text importer (python/effbench/importers/imb_p2p_text.py) on IMB 2021.11's own
output (tests/python/data/samples/imb2021/p2p, bench/imb-p2p-samples)."""
import json
from pathlib import Path

import pytest

from effbench.importers import detect_format, parse_file
from effbench.records import FormatError

P2P = Path(__file__).parent / "data" / "samples" / "imb2021" / "p2p"


def table_rows(text):
    """(benchmark, procs, [bytes, reps, t, MB/s, msg/s]) of every row, read plainly."""
    out, bench, procs = [], None, None
    for line in text.splitlines():
        if line.startswith("# Benchmarking "):
            bench = line.split()[2]
        elif line.startswith("# #processes = "):
            procs = int(line.split()[-1])
        elif line[:1] == " " and line.split()[0].isdigit():
            out.append((bench, procs, [float(x) for x in line.split()]))
    return out


@pytest.mark.parametrize("name", ["run/openmpi/all_np4.out", "run/mpich/all_np2.out",
                                  "run/openmpi/stencils_np8.out", "run/openmpi/msgsz_np2.out"])
def test_every_row_with_its_values(name):
    path = P2P / name
    assert detect_format(path) == "imb_p2p"
    parsed = parse_file(path)
    text = path.read_text()
    want = table_rows(text)
    assert len(parsed.results) == len(want) > 0
    for rec, (bench, procs, v) in zip(parsed.results, want):
        assert (rec["component"], rec["benchmark"], rec["procs"]) == ("p2p", bench, procs)
        assert [rec["bytes"], rec["repetitions"], rec["t_avg_us"], rec["mb_per_s"],
                rec["messages_per_s"]] == v
        assert rec["methodology"] == "imb-p2p-2021.11" and rec["mbytes_per_s"] is None
        assert rec["defects"] is None and rec["checked"] is False
    run = parsed.run
    assert run["component"] == "p2p" and run["tool"] == "IMB" and run["version"] == "2021.11"
    assert run["methodology"] == "imb-p2p-2021.11"
    assert run["procs"] == max(p for _, p, _ in want)
    assert run["command_line"][1:] == json.loads((P2P / "index.json").read_text())[
        [r["file"] for r in json.loads((P2P / "index.json").read_text())].index(name)]["args"]
    assert run["mpi_version"] in ("3.1", "4.0") and run["start"].startswith("20")
    assert parsed.end is not None and parsed.end["status"] == "ok"


def test_stencil_grids():
    parsed = parse_file(P2P / "run/openmpi/stencils_np8.out")
    grids = {(r["benchmark"], tuple(r["grid"]), r["neighbours"]) for r in parsed.results}
    assert grids == {("Stencil3D", (2, 2, 2), 6), ("Stencil2D", (2, 4), 4)}


def test_a_checked_run_and_a_log_with_messages(tmp_path):
    """effbench's -check table (a defects column), and a job log's stray lines counted."""
    text = (P2P / "run/openmpi/msgsz_np2.out").read_text()
    text = text.replace("#\n\n#---", "#\n# CHECK: -check is on: every received byte ...\n#\n\n#---", 1)
    text = text.replace("Msg/sec\n", "Msg/sec      defects\n")
    lines = []
    for line in text.splitlines():
        if line[:1] == " " and line.split()[0].isdigit():
            line += "            0"
        lines.append(line)
    lines.insert(lines.index(next(ln for ln in lines if ln.startswith("       #bytes"))) + 1,
                 "srun: warning: a message in the job log")
    f = tmp_path / "checked.txt"
    f.write_text("\n".join(lines) + "\n")
    parsed = parse_file(f)
    assert parsed.run["check"] is True and parsed.skipped_lines == 1
    assert [r["defects"] for r in parsed.results] == [0, 0, 0]
    assert all(r["checked"] for r in parsed.results)


def test_not_imb_p2p(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("#------------------------------------------------------------\n"
                 "#    Intel(R) MPI Benchmarks 2021.11, IMB-P2P part\n"
                 "#------------------------------------------------------------\n")
    with pytest.raises(FormatError, match="no benchmark table"):
        parse_file(f)
