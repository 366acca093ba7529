"""effbench-results run: which launcher, and the command words it builds (issue 19)."""
import pytest

from effbench.launcher import LaunchError, choose_launcher, launch_prefix


def test_srun_inside_an_allocation_mpirun_outside():
    assert choose_launcher(None, {"SLURM_JOB_ID": "42"}) == "srun"
    assert choose_launcher(None, {}) == "mpirun"
    assert choose_launcher("mpirun", {"SLURM_JOB_ID": "42"}) == "mpirun"
    with pytest.raises(LaunchError, match="--launcher aprun: expected one of srun, mpirun"):
        choose_launcher("aprun", {})


def test_command_words(monkeypatch):
    monkeypatch.delenv("EFFBENCH_MPIEXEC", raising=False)
    assert launch_prefix("srun", 4, 2, None) == ["srun", "-n", "4", "-N", "2", "--mpi=pmix"]
    assert launch_prefix("srun", 4, None, None) == ["srun", "-n", "4", "--mpi=pmix"]
    assert launch_prefix("mpirun", 4, 2, None) == ["mpiexec", "-n", "4", "--map-by",
                                                   "ppr:2:node"]
    assert launch_prefix("mpirun", 3, None, "mpiexec.openmpi --oversubscribe") == [
        "mpiexec.openmpi", "--oversubscribe", "-n", "3"]
    monkeypatch.setenv("EFFBENCH_MPIEXEC", "mpiexec.mpich")
    assert launch_prefix("mpirun", 2, None, None) == ["mpiexec.mpich", "-n", "2"]


@pytest.mark.parametrize("np,nodes,message", [
    (3, 2, "--nodes 2: mpirun places the same number of ranks on every node, and 3 processes "
           "do not divide by 2"),
    (2, 3, r"--nodes 3: expected 1 to --np \(2\) nodes"),
    (0, None, "--np 0: expected at least 1 process"),
])
def test_impossible_placements_are_refused(np, nodes, message):
    with pytest.raises(LaunchError, match=message):
        launch_prefix("mpirun", np, nodes, None)
