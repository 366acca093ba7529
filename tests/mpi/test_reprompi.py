"""effbench's mpibenchmark against real ReproMPI's (bench/reprompi-samples, made from ReproMPI
d40429c, docs/reprompi.md): the same command line prints the same text, numbers masked; its
JSON records and -check."""
import shlex

import pytest

from effb import ROOT, matrix_beyond_first, read_jsonl, run
from osu_helpers import mask_numbers

SAMPLES = ROOT / "bench" / "reprompi-samples"


def samples():
    out = []
    for cmd in sorted(SAMPLES.glob("*.cmd")):
        words = shlex.split(cmd.read_text().splitlines()[0])
        np = int(words[2])
        rest = words[3:]
        args = []
        if rest[0] == "env":  # MPI-time-sync's clock sync came from the environment
            assert rest[1] == "MPITS_PARAMS=--clock-sync=None", rest
            args.append("--clock-sync=None")
            rest = rest[2:]
        assert rest[0] == "mpibenchmark", rest
        out.append((cmd.stem, np, rest[1:] + args))
    return out


def normalised(text):
    """What may differ besides numbers: the program's path, the date, the commit line (ReproMPI
    built from an archive says unknown) and the clock synchronisation's name (MPI-time-sync's
    HCA3O there, core's Linear here; docs/reprompi.md)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("#Command-Line Arguments:"):
            args = [a for a in line.split()[3:] if a != "--clock-sync=None"]  # MPITS_PARAMS
            line = "#Command-Line Arguments: " + " ".join(args)
        elif line.startswith(("# Benchmark started at", "#@reproMPIcommitSHA1=")):
            line = line.split("=")[0].split(" at")[0]
        elif line == "#@clocksync=HCA3O":
            line = "#@clocksync=Linear"
        lines.append(line)
    return mask_numbers("\n".join(lines))


SAMPLE_LIST = samples()


def test_every_sample_is_used():
    assert len(SAMPLE_LIST) >= 12
    assert {s[0] for s in SAMPLE_LIST} >= {"bcast_allreduce", "verbose", "window_global",
                                           "input_file", "summary_all", "pingpong"}


# The test command runs these and one more; CI's matrix stage the others.
QUICK = {"bcast_allreduce", "summary_all", "window_global", "verbose"}


@pytest.mark.parametrize("name,np,args", matrix_beyond_first(
    SAMPLE_LIST, lambda name, np, args: name if name in QUICK else "other"))
def test_same_text_as_reprompi(name, np, args):
    r = run(np, "mpibenchmark", *args, cwd=SAMPLES, timeout=240)
    assert r.returncode == 0, r
    want = (SAMPLES / f"{name}.out").read_text()
    assert normalised(r.stdout) == normalised(want), (r.stdout, want)


def test_json_and_check(tmp_path):
    """One result record per job with the summary of its valid repetitions, methodology
    reprompi, and -check's zero defects over moves, reductions, scans and ping-pongs."""
    out = tmp_path / "rp.jsonl"
    calls = "MPI_Allreduce,MPI_Alltoall,MPI_Scan,MPI_Exscan,MPI_Reduce_scatter,Sendrecv"
    r = run(3, "mpibenchmark", f"--calls-list={calls}", "--msizes-list=8,64", "--nrep=3",
            "--datatype=MPI_INT", "--operation=MPI_SUM", "--pingpong-ranks=0,2", "--root-proc=1",
            "--summary=mean,min", "-check", "--json", out, timeout=120)
    assert r.returncode == 0, r
    recs = read_jsonl(out)
    run_rec, results = recs[0], [x for x in recs if x["type"] == "result"]
    assert run_rec["component"] == "reprompi" and run_rec["methodology"] == "reprompi"
    assert run_rec["options"]["proc_sync"] == "MPI_Barrier" and run_rec["check"] is True
    assert [(x["benchmark"], x["bytes"], x["count"]) for x in results] == [
        (c, b, b // 4) for b in (8, 64) for c in calls.split(",")]
    rows = [l.split() for l in r.stdout.splitlines() if l and not l.startswith("#")][1:]
    for x, row in zip(results, rows):
        assert x["defects"] == 0 and x["repetitions"] == 3 and x["valid_repetitions"] == 3
        assert x["methodology"] == "reprompi" and x["missed_windows"] == 0
        assert row[:4] == [x["benchmark"], str(x["count"]), "3", "3"]
        assert float(row[4]) == pytest.approx(x["t_avg_us"] * 1e-6, abs=1e-10)
        assert float(row[5]) == pytest.approx(x["t_min_us"] * 1e-6, abs=1e-10)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"


def test_window_codes_are_never_timed(tmp_path):
    """A window far shorter than a call: repetitions with an error code count in total_nrep
    but never in the summary, and the record counts them."""
    out = tmp_path / "w.jsonl"
    r = run(4, "mpibenchmark", "--calls-list=MPI_Allgather", "--msizes-list=8", "--nrep=6",
            "--proc-sync=window", "--window-size=1", "--summary=mean", "--runtime-type=global",
            "--json", out, timeout=120)
    assert r.returncode == 0, r
    (x,) = [x for x in read_jsonl(out) if x["type"] == "result"]
    row = [l.split() for l in r.stdout.splitlines() if l.strip().startswith("MPI_Allgather")][0]
    assert int(row[2]) == 6 and int(row[3]) == x["valid_repetitions"]
    assert x["missed_windows"] == 6 - x["valid_repetitions"] > 0
    assert sum(x["error_codes"].values()) == x["missed_windows"]
