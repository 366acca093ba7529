"""IMB 2021.11's defaults as a methodology of their own (docs/imb.md, "IMB 2021's defaults"):
effbench's text under --imb-defaults 2021 and Intel's IMB 2021 output import as imb-2021.11,
effbench's 4.0-mode text as imb-4.0, and compare refuses to put the two side by side."""
from __future__ import annotations

import json
from pathlib import Path

from effbench.cli import main
from effbench.compare import compare_runs
from effbench.importers import parse_file
from effbench.records import identity_key, methodology

DATA = Path(__file__).parent / "data"
INTEL = DATA / "samples" / "imb2021" / "classic" / "openmpi" / "IMB-MPI1_p2p_np2.out"
INTEL_BANNER = "#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part"


def as_effbench(tmp_path, methodology_words: str) -> Path:
    """INTEL with effbench's banner (the one line its 2021-mode text has of its own)."""
    text = INTEL.read_text()
    assert INTEL_BANNER in text
    out = tmp_path / f"effbench_{methodology_words.split()[0]}.txt"
    out.write_text(text.replace(
        INTEL_BANNER, f"#    effbench 0.1.0 (Intel(R) MPI Benchmarks {methodology_words}), MPI-1 part"))
    return out


def test_imports_say_which_defaults(tmp_path):
    intel = parse_file(INTEL)
    mine = parse_file(as_effbench(tmp_path, "2021.11 methodology"))
    old = parse_file(as_effbench(tmp_path, "4.0 methodology"))
    assert (intel.run["tool"], mine.run["tool"]) == ("IMB", "effbench")
    assert methodology(intel.run) == methodology(mine.run) == "imb-2021.11"
    assert {methodology(r) for r in mine.results} == {"imb-2021.11"}
    assert methodology(old.run) == "imb-4.0" and "methodology" not in old.run
    assert {methodology(r) for r in old.results} == {"imb-4.0"}
    # the same row under the two methodologies is not the same measurement
    assert identity_key(mine.results[0]) != identity_key(old.results[0])
    assert identity_key(mine.results[0]) == identity_key(intel.results[0])


def test_compare_refuses_the_two_defaults(tmp_path, capsys):
    mine = as_effbench(tmp_path, "2021.11 methodology")
    old = as_effbench(tmp_path, "4.0 methodology")
    for extra in ([], ["--allow-different"]):
        assert main(["compare", *extra, str(mine), str(old)]) == 2
        err = capsys.readouterr().err
        assert (f"{mine} was measured with the imb-2021.11 methodology and {old} with imb-4.0"
                in err), err
    assert compare_runs(parse_file(mine), parse_file(old)).rows == []
    # effbench in 2021 mode and Intel's IMB 2021.11 do compare, row by row
    cmp = compare_runs(parse_file(mine), parse_file(INTEL))
    assert len(cmp.rows) == 4 * 5 and cmp.only_a == cmp.only_b == 0


def test_jsonl_run_record_methodology_is_read(tmp_path):
    """A run record written by effbench --imb-defaults 2021 (its fields as the C program
    writes them) is imb-2021.11 for the tools."""
    run = {"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0",
           "component": "mpi1", "procs": 2, "imb_defaults": "2021",
           "methodology": "imb-2021.11", "options": {}}
    row = {"type": "result", "schema": 1, "component": "mpi1", "benchmark": "PingPong",
           "group": None, "mode": None, "procs": 2, "bytes": 8, "repetitions": 10,
           "t_min_us": 1.0, "t_max_us": 1.0, "t_avg_us": 1.0, "mbytes_per_s": 8.0,
           "defects": None, "sync": "barrier", "methodology": "imb-2021.11"}
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (run, row)) + "\n")
    parsed = parse_file(path)
    assert methodology(parsed.run) == "imb-2021.11"
    assert methodology(parsed.results[0]) == "imb-2021.11"
