"""What every OSU program gets from effbench (docs/osu.md): -check as -c, --json records that
match the text, --resume, --row-timeout, the listing, `effbench osu NAME`, and refusals of
what is not built (accelerators, graphs) or not in the library (MPI-4)."""
import pytest

from effb import MPI, listing, read_jsonl, run
from osu_helpers import parse_osu, rows_as_dicts

SMALL = ["-m", "1:64", "-i", "20", "-x", "2"]


def osu_programs(**match):
    return [b for b in listing()["benchmarks"] if b["component"] == "osu"
            and all(b.get(k) == v for k, v in match.items())]


@pytest.mark.asan
def test_check_is_dash_c_and_the_records_match_the_text(tmp_path):
    out = tmp_path / "lat.jsonl"
    r = run(2, "osu_latency", *SMALL, "-check", "--json", out)
    assert r.returncode == 0, r
    table = parse_osu(r.stdout)["tables"][0]
    assert table["columns"] == ["# Size", "Avg Latency(us)", "Validation"]
    rows = rows_as_dicts(table)
    recs = [x for x in read_jsonl(out) if x["type"] == "result"]
    assert [int(x["# Size"]) for x in rows] == [x["bytes"] for x in recs] == [1, 2, 4, 8, 16, 32, 64]
    for text, rec in zip(rows, recs):
        assert text["Validation"] == rec["validation"] == "Pass"
        assert rec["defects"] == 0 and rec["checked"] is True
        assert float(text["Avg Latency(us)"]) == pytest.approx(rec["t_avg_us"], abs=0.005)
        assert rec["methodology"] == "osu-7.4" and rec["mbytes_per_s"] is None
        assert rec["repetitions"] == 20 and rec["procs"] == 2
    end = read_jsonl(out)[-1]
    assert end["type"] == "end" and end["status"] == "ok"
    assert end["rows"] == end["planned_rows"] == 7


def test_resume_measures_only_the_missing_rows(tmp_path):
    out = tmp_path / "ar.jsonl"
    r = run(2, "osu_allreduce", "-m", "4:16", "-i", "10", "-x", "1", "--json", out)
    assert r.returncode == 0, r
    r = run(2, "osu_allreduce", "-m", "4:64", "-i", "10", "-x", "1", "--resume", out)
    assert r.returncode == 0, r
    # the text shows the rows measured now; the file holds all of them once
    assert [row[0] for row in parse_osu(r.stdout)["tables"][0]["rows"]] == ["32", "64"]
    recs = read_jsonl(out)
    assert [x["bytes"] for x in recs if x["type"] == "result"] == [4, 8, 16, 32, 64]
    assert [x["type"] for x in recs].count("resume") == 1
    # a resume with other iterations would mix two methods in one file
    r = run(2, "osu_allreduce", "-m", "4:64", "-i", "20", "--resume", out)
    assert r.returncode == 2 and "'iterations' is 10 in the file but 20" in r.stderr, r


def test_row_timeout_and_the_component_form(tmp_path):
    r = run(2, "effbench", "osu", "osu_bw", "-m", "1024:4096", "-i", "5", "-x", "1", "-W", "4",
            "--row-timeout", "60")
    assert r.returncode == 0, r
    osu = parse_osu(r.stdout)
    assert osu["title"] == "# OSU MPI Bandwidth Test v7.4"
    for size, bw in osu["tables"][0]["rows"]:
        assert float(bw) > 0
    r = run(2, "effbench", "osu", "osu_nothing")
    assert r.returncode == 2 and "no program osu_nothing" in r.stderr, r


@pytest.mark.parametrize("args,words", [
    (["-d", "gpu"], "Invalid Accel Type Specified [-d gpu]"),
    (["D", "X"], "unknown buffer type 'X' (H host, D device, M managed)"),
    (["D"], "buffer types come as a pair (e.g. H H), not 'D' alone"),
    (["-G", "tty"], "graphs (-G tty) are not drawn by effbench"),
    (["-i", "10k"], "Invalid Number of Iterations [-i 10k]"),
    (["-z", "50,99"], "unexpected argument '50,99'"),
    (["--bogus"], "Invalid option [--bogus]"),
])
def test_refusals_name_the_problem(args, words):
    r = run(2, "osu_latency", *args)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1 and words in r.stderr, r.stderr


# ReFrame's hpctestlib OSU check (osu_run) on a CPU partition: its command lines as it writes
# them, and its sanity pattern ^8.*Pass (osu_latency) / ^4194304.*Pass (osu_bw).  OSU 7.4
# built without accelerators runs the "D D" on host buffers; so must effbench.
@pytest.mark.parametrize("prog,args,size", [
    ("osu_latency", ["-m", "8", "-x", "10", "-i", "1000", "-c", "D", "D"], 8),
    ("osu_bw", ["-m", "4194304", "-x", "10", "-i", "1000", "-c", "D", "D"], 4194304),
])
def test_reframe_cpu_check_command_lines(prog, args, size, tmp_path):
    import re
    if prog == "osu_bw":  # the check's command with fewer rounds: its -x 10 -i 1000 windows of
        # 64 messages up to 4 MiB take minutes here (9 min 20 s); the pattern is the test
        args = ["-m", "4194304", "-x", "1", "-i", "2", "-c", "D", "D"]
    out = tmp_path / "rf.jsonl"
    r = run(2, prog, *args, "--json", out)
    assert r.returncode == 0, r
    rows = [ln for ln in r.stdout.splitlines() if re.match(rf"^{size}\b", ln)]
    assert len(rows) == 1 and re.match(rf"^{size}.*Pass", rows[0]), r.stdout
    assert r.stderr.count(f"{prog}: buffer types 'D D' without -d: host buffers") == 1, r.stderr
    opts = read_jsonl(out)[0]["options"]
    assert opts["buffers"] == "H H" and opts["buffers_asked"] == "D D"
    res = [x for x in read_jsonl(out) if x["type"] == "result"]
    assert res[-1]["validation"] == "Pass" and "buffers" not in res[-1]


def test_listing_has_every_program_with_its_needs():
    progs = {b["name"]: b for b in osu_programs()}
    assert len(progs) == 77  # OSU 7.4's 77 MPI C programs
    assert progs["osu_latency"]["fixed_procs"] == 2 and progs["osu_latency"]["checked"]
    persistent = [n for n in progs if n.endswith("_persistent") and "latency" not in n
                  and "bw" not in n]
    assert len(persistent) == 14
    for n in persistent:
        assert progs[n]["needs"] == ["MPI_Allreduce_init (MPI-4.0 persistent collectives)"]
        assert progs[n]["runs_here"] is (MPI == "mpich")


@pytest.mark.skipif(MPI != "openmpi", reason="Open MPI 4.1 lacks MPI-4's sessions")
def test_sessions_refused_naming_the_call_and_library():
    r = run(2, "osu_latency", "-I")
    assert r.returncode == 2, r
    assert "osu_latency -I needs MPI_Session_init" in r.stderr and "Open MPI" in r.stderr


@pytest.mark.skipif(MPI != "mpich", reason="MPICH 4.0 has MPI-4's sessions")
def test_sessions_run_under_mpich():
    r = run(2, "osu_latency", "-I", *SMALL)
    assert r.returncode == 0, r
    assert len(parse_osu(r.stdout)["tables"][0]["rows"]) == 7


def test_docs_table_is_the_listing():
    """docs/osu.md's table of programs says what the descriptors say."""
    from effb import ROOT
    text = (ROOT / "docs" / "osu.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`osu_"):
            rows[cells[0].strip("`")] = cells[1:5]
    want = {}
    for b in osu_programs():
        procs = str(b["fixed_procs"]) if b["fixed_procs"] else \
            (f">= {b['min_procs']}" if b["min_procs"] else "any") + (", even" if b["even_procs"] else "")
        needs = ", ".join(n.split(" (")[0] for n in b["needs"]) or "—"
        want[b["name"]] = [b["class"], procs, "yes" if b["checked"] else "no", needs]
    assert rows == want
