"""`effbench --list-json`, the one listing of the benchmark descriptors (docs/json-lines.md,
"The benchmark listing"): its shape, its agreement with each program's own `-list` and with
what a run does, "not checked" under -check for a benchmark without a data check, and the
docs' benchmark tables against it."""
import json
import re

import pytest

from effb import BUILD, ROOT, listed, listed_names, listing, parse_imb, read_jsonl, run

IMB_PROGRAMS = ["IMB-MPI1", "IMB-EXT", "IMB-IO", "IMB-NBC", "IMB-RMA"]
CLASSES = {"single_transfer", "parallel_transfer", "collective"}
FLAGS = ["EXPLICIT_ONLY", "REDUCTION", "ROOT", "NO_BYTES", "NO_MULTI", "MODES", "NONAGGR_FIRST",
         "NONAGGR_COUNTS", "AGGR_ONLY", "NONAGGR_ONLY", "NO_WARMUP", "REP_SYNC", "EVEN_PROCS",
         "DEFAULT_2021", "AGGR_IN_2021"]
ENTRY_KEYS = ["component", "name", "program", "class", "default", "checked", "reduction", "root",
              "modes", "min_procs", "fixed_procs", "fixed_bytes", "multi", "flags"]
ITER = ["-iter", "10", "-iter_policy", "off", "-time", "0.05"]


def test_listing_shape():
    doc = listing()
    assert list(doc) == ["schema", "version", "components", "benchmarks"]
    version = run(1, "effbench", "--version")
    assert version.stdout == f"effbench {doc['version']}\n", version
    comps = {c["name"]: c for c in doc["components"]}
    assert all(list(c) == ["name", "aliases", "summary"] for c in doc["components"])
    assert comps["mpi1"]["aliases"] == ["IMB-MPI1", "IMB-MPI1-GPU"]  # IMB 2021's GPU build
    assert comps["rma"]["aliases"] == ["IMB-RMA", "IMB-RMA-GPU"] and \
        comps["beff"]["aliases"] == ["b_eff"]
    help_text = run(1, "effbench", "--help").stdout
    for c in doc["components"]:
        assert re.search(rf"^  {re.escape(c['name'])} .*{re.escape(c['summary'])}$", help_text,
                         re.M), c
    seen = set()
    for b in doc["benchmarks"]:
        # every entry, also those a component's list_json hook adds, starts with these
        assert list(b)[:len(ENTRY_KEYS)] == ENTRY_KEYS, b
        assert b["component"] in comps and b["class"] and b["program"], b
        key = (b["component"], b["name"].lower())
        assert key not in seen, b  # the registry refuses a duplicate
        seen.add(key)
    for b in (b for b in doc["benchmarks"] if b["program"] in IMB_PROGRAMS):
        # the IMB families' entries: their eb_bench descriptors
        assert list(b) == ENTRY_KEYS, b
        assert b["class"] in CLASSES, b
        assert b["program"] == comps[b["component"]]["aliases"][0], b
        # the booleans are the flags, said once more for readers of the listing
        assert set(b["flags"]) <= set(FLAGS) and b["flags"] == sorted(b["flags"], key=FLAGS.index)
        assert b["default"] == ("EXPLICIT_ONLY" not in b["flags"])
        assert b["reduction"] == ("REDUCTION" in b["flags"])
        assert b["root"] == ("ROOT" in b["flags"])
        assert b["modes"] == ("MODES" in b["flags"])
        assert b["multi"] == ("NO_MULTI" not in b["flags"])
        assert all(type(b[k]) is int and b[k] >= 0
                   for k in ("min_procs", "fixed_procs", "fixed_bytes")), b
    assert {b["program"] for b in doc["benchmarks"]} >= set(IMB_PROGRAMS)
    # a few facts of the descriptors, to see the fields carry them
    pingpong = listed("IMB-MPI1", name="PingPong")[0]
    assert (pingpong["class"], pingpong["fixed_procs"], pingpong["checked"]) == \
        ("single_transfer", 2, True)
    assert listed("IMB-RMA", name="One_put_all")[0]["min_procs"] == 2
    assert listed("IMB-RMA", name="Compare_and_swap")[0]["fixed_bytes"] == 4
    assert [b["name"] for p in IMB_PROGRAMS for b in listed(p, checked=False)] == \
        ["Barrier", "Ibarrier", "Ibarrier_pure"]


def test_listing_under_mpirun_is_one_document():
    """Rank 0 prints it, once, and exits 0 on every rank."""
    r = run(2, "effbench", "--list-json")
    assert r.returncode == 0 and r.stderr == "", r
    assert json.loads(r.stdout) == listing()


@pytest.mark.parametrize("program", IMB_PROGRAMS)
def test_listing_equals_the_programs_list(program):
    """IMB 2021's -list (alphabetical, "(non-default)" after those run only by name) says
    the same as the listing."""
    r = run(1, program, "-list")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:3] == [program, "List of benchmarks:", f"{program}:"]
    want = sorted((b["name"], b["default"]) for b in listed(program))
    assert lines[3:] == [f"    {n}" + ("" if d else " (non-default)") for n, d in want]


@pytest.mark.parametrize("program", IMB_PROGRAMS)
def test_default_run_is_the_listings_default_benchmarks(program, tmp_path):
    """Without names a program plans the listing's default benchmarks, in its order."""
    js = tmp_path / "plan.jsonl"
    args = ["-msglog", "0", *ITER, "--json", js, "-exclude", "Truly_passive_put"] \
        if program == "IMB-RMA" else ["-msglog", "0", *ITER, "--json", js]
    if program == "IMB-IO":
        args += ["-filename", tmp_path / "f", "--target-cpu-secs", "0.001"]
    r = run(2, program, *args, "--row-timeout", "60")
    assert r.returncode == 0, r
    planned = read_jsonl(js)[0]["options"]["benchmarks"]
    want = [n for n in listed_names(program, default=True) if n != "Truly_passive_put"]
    assert planned == want


@pytest.mark.parametrize("program,bench", [(p, b["name"]) for p in IMB_PROGRAMS
                                           for b in listed(p, checked=False)])
def test_unchecked_benchmark_says_not_checked(tmp_path, program, bench):
    """-check on a benchmark without a data check: "not checked" in the defects column and
    `"defects": null, "checked": false` in JSON, never "0 defects"; a checked one beside it
    says true and 0."""
    other = listed(program, checked=True, default=True)[0]["name"]
    js = tmp_path / "c.jsonl"
    r = run(2, program, bench, other, "-msglog", "1", *ITER, "-check", "-npmin", "2",
            "--json", js)
    assert r.returncode == 0, r
    blocks = {b["name"]: b for b in parse_imb(r.stdout)}
    assert blocks[bench]["header"][-1] == "defects"
    assert [row[-1] for row in blocks[bench]["rows"]] == ["not checked"]
    assert re.search(r"^\s+\d+(\s+\d+\.\d\d){3,}  not checked$", r.stdout, re.M), r.stdout
    assert {row[-1] for row in blocks[other]["rows"]} == {"0.00"}
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["defects"], x["checked"]) for x in results if x["benchmark"] == bench] == \
        [(None, False)]
    assert {(x["defects"], x["checked"]) for x in results if x["benchmark"] == other} == \
        {(0, True)}
    # without -check: no defects column, no `checked` member, IMB's columns as before
    r = run(2, program, bench, "-msglog", "1", *ITER, "--json", js)
    assert r.returncode == 0, r
    assert "defects" not in parse_imb(r.stdout)[0]["header"]
    assert all("checked" not in x and x["defects"] is None
               for x in read_jsonl(js) if x["type"] == "result")


# --- the docs' benchmark pages against the listing ------------------------------------------

DOC_PAGES = {"IMB-MPI1": ["imb.md", "imb-collectives.md"], "IMB-EXT": ["imb-ext.md"],
             "IMB-IO": ["imb-io.md"], "IMB-NBC": ["imb-nbc.md"], "IMB-RMA": ["imb-rma.md"],
             "IMB-MPI4": ["imb-mpi4.md"]}


def doc_text(program):
    return "\n".join((ROOT / "docs" / p).read_text() for p in DOC_PAGES[program])


def expand(cell):
    """Benchmark names in a table cell: backticks and remarks dropped, "S_[I]Write_Indv"
    as both S_Write_Indv and S_IWrite_Indv."""
    words = re.findall(r"[A-Za-z_]*(?:\[I\])?[A-Za-z_]+", cell.replace("`", ""))
    return [w.replace("[I]", i) for w in words for i in ("", "I")] if "[I]" in cell else words


def benchmark_table(program, first_header):
    """The columns of the table whose header row begins with `first_header`, as lists of
    cells (each cell its names)."""
    lines = doc_text(program).splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(f"| {first_header}"))
    rows = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip() for c in ln.strip("|").split("|")])
    return list(zip(*rows))


@pytest.mark.parametrize("program", list(DOC_PAGES))
def test_docs_name_every_benchmark(program):
    words = set(expand(doc_text(program)))
    missing = [n for n in listed_names(program) if n not in words]
    assert not missing, f"docs/{DOC_PAGES[program]} do not name {missing}"


def first_names(column):
    return [expand(cell)[0] for cell in column]


def test_docs_tables_equal_the_listing():
    # IMB-RMA and IMB-EXT: the table is the full list, in run order
    assert first_names(benchmark_table("IMB-RMA", "benchmark")[0]) == listed_names("IMB-RMA")
    assert first_names(benchmark_table("IMB-EXT", "benchmark")[0]) == listed_names("IMB-EXT")
    # IMB-NBC: the overlap flavours run by default, the pure ones only by name
    overlap, pure = benchmark_table("IMB-NBC", "overlap flavour")
    assert list(overlap) == listed_names("IMB-NBC", default=True)
    assert list(pure) == listed_names("IMB-NBC", default=False)
    # IMB-MPI4: the same two flavours of the persistent collectives
    # (IMB 2021.11's program runs Allgather_persist by name only: the table says so)
    overlap, pure = benchmark_table("IMB-MPI4", "overlap flavour")[:2]
    assert first_names(overlap) == [n for n in listed_names("IMB-MPI4") if n.endswith("_persist")]
    assert first_names(pure) == [n for n in listed_names("IMB-MPI4") if n.endswith("_pure")]
    assert [n for n in first_names(overlap) if n not in listed_names("IMB-MPI4", default=True)] \
        == [expand(c)[0] for c in overlap if "by name only" in c] == ["Allgather_persist"]
    # IMB-MPI1's collectives: the guide's in IMB's order, then IMB 2021's (by name only)
    colls = listed("IMB-MPI1", **{"class": "collective", "default": True}) + \
        listed("IMB-MPI1", **{"class": "collective", "default": False})
    names = benchmark_table("IMB-MPI1", "benchmark")[0]
    assert first_names(names) == [b["name"] for b in colls]
    assert [n.endswith(" (IMB 2021)") for n in names] == [not b["default"] for b in colls]
    # IMB-IO: the flavour table names every benchmark, four to a row ("all run by default")
    io = {n for cell in benchmark_table("IMB-IO", "flavour")[0] for n in expand(cell)}
    assert io == set(listed_names("IMB-IO")) == set(listed_names("IMB-IO", default=True))
