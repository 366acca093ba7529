"""Imports of job logs (effbench.importers.logtext): real output with real stderr messages
interleaved at random line boundaries, as Slurm's one output file holds them, and real output
cut at random points, as a killed job leaves it.  Nothing readable is lost, nothing is invented,
the skipped lines are counted and a cut run is incomplete."""
import random

import pytest

from effbench.importers import parse_file

# Lines that real runs wrote to stderr next to these tables: Open MPI's, MPICH's and Slurm's
# messages and effbench's own warnings.
FOREIGN = """\
--------------------------------------------------------------------------
WARNING: There was an error initializing an OpenFabrics device.
  Local host:   node17
  Local device: mlx5_0
--------------------------------------------------------------------------
[node17:41234] 3 more processes have sent help message help-mpi-btl-openib.txt / error in device init
[node17:41234] Set MCA parameter "orte_base_help_aggregate" to 0 to see all help / error messages
effbench: warning: Compare_and_swap, aggregate mode: at most 100 repetitions, because Open MPI's osc/pt2pt (OMPI_MCA_osc=pt2pt) hangs with more outstanding compare-and-swaps in one epoch (docs/imb-rma.md)
effbench: warning: 4 ranks share a node with 2 cores: ranks are time-sliced, so timings include waiting for a core and vary from run to run. Run at most 2 ranks per node for numbers to publish.
srun: error: node18: task 3: Exited with exit code 1
srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
slurmstepd: error: *** STEP 4242.0 ON node17 CANCELLED AT 2026-11-24T03:10:02 DUE TO TIME LIMIT ***
[proxy:0:0@node17] HYDU_sock_write (utils/sock/sock.c:254): write error (Broken pipe)
Abort(1) on node 3 (rank 3 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3
  Process name: [[23370,1],0]
  Exit code:    2
""".splitlines()

# (sample, the importer counts every foreign line it skips)
SAMPLES = [("imb/mpi1_np2_p2p.txt", True), ("imb/rma_np2.txt", True),
           ("imb/nbc_np2_iallreduce.txt", True), ("imb/mpi1_np4_coll_run2.txt", True),
           ("skampi/pt2pt_np2.sko", True), ("skampi/coll_np2.sko", True),
           ("beff/b_eff_np4.short", False), ("beff_io/b_eff_io_np2.prot", False),
           # OSU 7.4 text as its printing code writes it (tests/python/data/osu/)
           ("../osu/osu_latency_c_z.out", True), ("../osu/osu_pt2pt_job.out", True),
           ("../osu/osu_mbw_mr_V.out", True), ("../osu/osu_put_bw_z.out", True),
           ("../osu/osu_latency_mp.out", True)]


def interleave(lines, rng):
    """Foreign lines inserted at random line boundaries; returns the new lines and how many."""
    out, inserted = [], 0
    for line in lines:
        if rng.random() < 0.15:
            k = rng.randint(1, 3)
            out += rng.sample(FOREIGN, k)
            inserted += k
        out.append(line)
    return out, inserted


@pytest.mark.parametrize("sample,counts", SAMPLES, ids=[s for s, _ in SAMPLES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_foreign_lines_interleaved(samples, tmp_path, sample, counts, seed):
    src = samples / sample
    clean = parse_file(src)
    lines, inserted = interleave(src.read_text().splitlines(), random.Random(seed))
    assert inserted > 0
    log = tmp_path / src.name
    log.write_text("\n".join(lines) + "\n")
    mixed = parse_file(log)
    assert mixed.results == clean.results  # every row, and only the rows
    assert mixed.summaries == clean.summaries
    assert (mixed.end is None) == (clean.end is None)
    assert clean.skipped_lines == 0
    if counts:
        assert mixed.skipped_lines == inserted
    else:  # the protocol's importers skip unknown lines as prose and count only damaged
        # rows: no foreign line is one
        assert mixed.skipped_lines == 0


@pytest.mark.parametrize("sample,counts", SAMPLES, ids=[s for s, _ in SAMPLES])
def test_cut_at_random_points(samples, tmp_path, sample, counts):
    src = samples / sample
    text = src.read_text()
    clean = parse_file(src)
    rng = random.Random(sample)
    for cut in sorted(rng.sample(range(len(text) // 3, len(text) - 1), 6)):
        log = tmp_path / f"cut{cut}.txt"
        log.write_text(text[:cut])
        try:
            part = parse_file(log, clean.source_format)
        except Exception as exc:  # too early for a run: the message says so, nothing stored
            assert "no " in str(exc), exc
            continue
        n = len(part.results)
        # nothing invented: the rows read are the clean file's first rows, value for value
        # (a figure the protocol gives only further on, like b_eff_io's segment size, is null)
        for got, want in zip(part.results, clean.results[:n]):
            assert {k: v for k, v in got.items() if v is not None} == \
                {k: v for k, v in want.items() if k in got and got[k] is not None}, cut
            assert set(got) <= set(want), cut
        # nothing readable lost: every row whose line ended before the cut is there
        whole_lines = text[:cut].rsplit("\n", 1)[0] + "\n"
        if counts:
            log.write_text(whole_lines)
            assert len(parse_file(log, clean.source_format).results) == n
        if not text[:cut].endswith("\n"):
            assert part.skipped_lines >= 1 or not text[:cut].split("\n")[-1].strip()
        assert part.end is None or cut > text.rfind("\n", 0, len(text) - 1), cut


@pytest.mark.parametrize("sample,line_start", [("skampi/coll_np2.sko", "count= 1 "),
                                               ("imb/mpi1_np2_p2p.txt", "            0 ")])
@pytest.mark.parametrize("bad", ["1e999", "nan", "inf"])
def test_numbers_that_are_not_finite_are_damage(samples, tmp_path, sample, line_start, bad):
    """Found by Hypothesis: "1e999" read as infinity crashed the SKaMPI importer."""
    src = samples / sample
    lines = src.read_text().splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith(line_start))
    tokens = lines[i].split()
    lines[i] = lines[i].replace(tokens[1], bad, 1)
    log = tmp_path / src.name
    log.write_text("\n".join(lines) + "\n")
    clean, damaged = parse_file(src), parse_file(log)
    assert damaged.skipped_lines == 1
    assert len(damaged.results) == len(clean.results) - 1
