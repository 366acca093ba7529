"""One version, the source revision in the run record, and what `cmake --install` puts
where (issue 33; docs/spack.md): the C program and the Python tools print the version of
python/effbench/VERSION, a run record carries it and the revision of the source, and an
installed prefix holds effbench and every program name the listing knows in bin/, nothing
of the tests."""
import json
import os
import subprocess
import sys

import effb

VERSION = (effb.ROOT / "python" / "effbench" / "VERSION").read_text().strip()


def test_version_file_is_one_line_of_dotted_numbers():
    text = (effb.ROOT / "python" / "effbench" / "VERSION").read_text()
    assert text.count("\n") == 1 and text.endswith("\n"), repr(text)
    assert all(part.isdigit() for part in VERSION.split(".")) and VERSION.count(".") == 2, VERSION


def test_effbench_and_effbench_results_print_the_same_version():
    c = subprocess.run([str(effb.BUILD / "effbench"), "--version"], capture_output=True,
                       text=True, timeout=60, env=effb.env())
    py = subprocess.run([sys.executable, "-c", "from effbench.cli import main; main()",
                         "--version"], capture_output=True, text=True, timeout=60,
                        env={**os.environ, "PYTHONPATH": str(effb.ROOT / "python")})
    assert (c.returncode, c.stdout, c.stderr) == (0, f"effbench {VERSION}\n", "")
    assert (py.returncode, py.stdout) == (0, f"effbench-results {VERSION}\n"), py.stderr
    assert effb.listing()["version"] == VERSION


def expected_revision():
    """What cmake/source_revision.cmake finds for this checkout: `git describe`, or None
    outside a git work tree."""
    top = subprocess.run(["git", "-C", str(effb.ROOT), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != str(effb.ROOT):
        return None
    return subprocess.run(["git", "-C", str(effb.ROOT), "describe", "--tags", "--always",
                           "--dirty", "--abbrev=12"], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_run_record_carries_version_and_source_revision(tmp_path):
    out = tmp_path / "r.jsonl"
    r = effb.run(2, "IMB-MPI1", "PingPong", "-msglog", "0:1", "-iter", "10", "--json", out)
    assert r.returncode == 0, r.stderr
    run = effb.read_jsonl(out)[0]
    assert run["type"] == "run" and run["version"] == VERSION
    keys = list(run)
    assert keys.index("source_revision") == keys.index("version") + 1, keys
    # the build's revision is `git describe` of the checkout at build time: HEAD's then, so
    # HEAD or an ancestor of it now (a commit since the build is no failure); "-dirty" says
    # whether tracked files had changed at build time
    expected, got = expected_revision(), run["source_revision"]
    if expected is None:
        assert got is None, got
        return
    commit = got.removesuffix("-dirty")
    assert len(commit) >= 12 and len(commit.split("-")) == len(expected.removesuffix("-dirty")
                                                             .split("-")), (got, expected)
    git = ["git", "-C", str(effb.ROOT)]
    full = subprocess.run(git + ["rev-parse", "--verify", "--quiet", commit + "^{commit}"],
                          capture_output=True, text=True)
    assert full.returncode == 0, f"{got!r} is no commit of this checkout"
    assert subprocess.run(git + ["merge-base", "--is-ancestor", full.stdout.strip(), "HEAD"]
                          ).returncode == 0, f"{got!r} is not HEAD nor an ancestor of it"


def test_a_given_revision_wins_over_git_and_none_is_null(tmp_path):
    """EFFBENCH_SOURCE_REVISION (a packager's tarball build) is taken as given; a source that
    is no git work tree of its own has no revision: NULL, the record's null."""
    script = effb.ROOT / "cmake" / "source_revision.cmake"
    given, none = tmp_path / "given.c", tmp_path / "none.c"
    for out, extra in ((given, ["-DEFFBENCH_SOURCE_REVISION=v9.8.7"]), (none, [])):
        subprocess.run(["cmake", f"-DSRC={tmp_path}", f"-DOUT={out}", *extra, "-P", str(script)],
                       check=True, capture_output=True, timeout=60)
    assert 'const char *const eb_source_revision = "v9.8.7";' in given.read_text()
    assert "const char *const eb_source_revision = NULL;" in none.read_text()


def program_names():
    """Every program name effbench answers to, from its own listing."""
    doc = effb.listing()
    names = {a for c in doc["components"] for a in c["aliases"]}
    return names | {b["program"] for b in doc["benchmarks"]} | {"effbench"}


def test_install_puts_every_program_in_bin_and_nothing_of_the_tests(tmp_path):
    prefix = tmp_path / "prefix"
    proc = subprocess.run(["cmake", "--install", str(effb.BUILD), "--prefix", str(prefix)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    installed = sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*") if not p.is_dir())
    assert installed == sorted(f"bin/{n}" for n in program_names())
    assert {"bin/IMB-MPI1", "bin/osu_latency", "bin/b_eff", "bin/b_eff_io"} <= set(installed)
    for name in program_names() - {"effbench"}:
        assert os.readlink(prefix / "bin" / name) == "effbench", name
    r = subprocess.run(effb.mpiexec(1) + [str(prefix / "bin" / "osu_hello")], capture_output=True,
                       text=True, timeout=120, env=effb.env())
    assert r.returncode == 0 and "# OSU MPI Hello World Test" in r.stdout, (r.stdout, r.stderr)
    listing = json.loads(subprocess.run([str(prefix / "bin" / "effbench"), "--list-json"],
                                        capture_output=True, text=True, timeout=60,
                                        env=effb.env()).stdout)
    assert listing == effb.listing()
