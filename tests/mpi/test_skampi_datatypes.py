"""effbench skampi with datatype patterns (docs/skampi-datatypes.md): the
comparison suite suites/datatypes.skampi at 2 processes, every pattern
instance with different send and receive patterns over a built-in and a
structured base type at 2 and 3 processes under --check (every byte where
it belongs, no byte outside the layouts touched), --check finding a byte
that a PMPI library corrupts, and the configurations that are refused.
(That MPI moves exactly the layout's bytes for every pair of patterns is
also tests/unit/test_skampi_datatypes.c.)"""
import re

import pytest

from effb import BUILD, ROOT, read_jsonl, run
from test_skampi import parse_sko

DATATYPES = ROOT / "suites" / "datatypes.skampi"
LAYOUTS = ["contiguous", "vector", "hvector", "indexed", "hindexed", "indexed_block", "struct",
           "subarray", "darray", "resized", "vector_of_vectors", "struct_of_vectors",
           "indexed_of_structs", "dynamic_vector"]
NUMBERS = list(range(1, 14)) + [50]


@pytest.mark.asan
def test_comparison_suite(tmp_path):
    text = DATATYPES.read_text()
    # fewer repetitions than shipped: the test checks the structure, not the numbers
    text = re.sub(r"Max_Repetition = [^;]*;", "Max_Repetition = 4;", text)
    text = re.sub(r"Min_Repetition = [^;]*;", "Min_Repetition = 2;", text)
    (tmp_path / "dt.skampi").write_text(text.replace("@CACHEWARMUP 5", "@CACHEWARMUP 1"))
    r = run(2, "effbench", "skampi", "--json", "dt.jsonl", "dt.skampi", cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r
    sko = (tmp_path / "datatypes.out").read_text()
    res, order = parse_sko(sko)
    want = ["Contiguous-basetype"] + [f"{p}-{n}" for n in LAYOUTS
                                      for p in ("Datatype", "Pack", "CopyLoop")]
    assert order == want
    lengths = [0, 48, 192, 768, 3072, 12288, 49152]
    for name in order:
        # the same lengths everywhere, so the rows compare one to one
        assert [int(row[2]) for row in res[name]] == lengths, name
        assert [int(row[1]) for row in res[name]] == [m // 4 for m in lengths]
    for n, name in zip(NUMBERS, LAYOUTS):
        title = name if n in (6,) else name.replace("_", " ")
        assert (f"# datatypes: send pattern {n} ({title}), receive pattern {n} ({title}) "
                "over @BASETYPE1 MPI_INT\n") in sko, name
    assert "# datatypes" not in sko.split('# begin result "Contiguous-basetype"')[0]
    recs = [x for x in read_jsonl(tmp_path / "dt.jsonl") if x["type"] == "result"]
    assert len(recs) == len(want) * len(lengths)
    by = {(x["benchmark"], x["bytes"]): x for x in recs}
    assert by[("Pack-darray", 3072)]["type_number"] == 47
    assert by[("Pack-darray", 3072)]["instance"] == "MPI_Pack-MPI_Send-MPI_Recv-MPI_Unpack"
    assert by[("CopyLoop-darray", 3072)]["type_number"] == 48
    assert by[("Datatype-dynamic_vector", 768)]["send_datatype"] == 50
    assert by[("Datatype-dynamic_vector", 768)]["recv_datatype"] == 50
    assert by[("Contiguous-basetype", 768)]["send_datatype"] == 0
    assert by[("Contiguous-basetype", 768)]["basetype"] == "MPI_INT"


# every pattern instance that carries data, with two different patterns
# (the reductions: MPI_SUM on the base type itself, pattern 0)
PAIRS = [(1, 2, 7), (2, 50, 4), (3, 9, 13), (4, 11, 12), (5, 5, 8), (6, 8, 10), (7, 3, 6),
         (8, 13, 50), (34, 12, 12), (47, 2, 9), (48, 11, 5), (10, 7, 3), (11, 4, 50),
         (12, 2, 1), (13, 9, 6), (14, 1, 13), (15, 6, 8), (16, 50, 11), (17, 2, 3), (18, 7, 50),
         (21, 9, 4), (32, 5, 11), (33, 1, 2), (35, 3, 8), (39, 10, 12), (40, 13, 6), (41, 4, 9),
         (42, 11, 7), (43, 50, 2), (45, 12, 1), (46, 8, 3)]
REDUCTIONS = [20, 22, 36, 37, 38, 44]
# master-worker with more and fewer chunks than workers (types 12-16 keep
# only the last result at the master: the check sees that one)
CHUNKS = [(10, 7, 50), (11, 13, 2), (12, 50, 9), (13, 3, 12), (14, 8, 1), (15, 11, 4),
          (16, 2, 5)]


def suite(name, t, bt, a, b, extra):
    return (f"{name}\n{{\n Type = {t};\n Basetype_Number = {bt};\n"
            f" Send_Datatype_Number = {a};\n Receive_Datatype_Number = {b};\n{extra}}}\n")


@pytest.mark.parametrize("np", [2, 3])
@pytest.mark.parametrize("base", [1, 2])
def test_every_instance_with_mixed_patterns(tmp_path, base, np):
    length = (" Scale = Fixed_log;\n Start_Argument = 0;\n End_Argument = 2500;\n"
              " Stepwidth = 4;\n Max_Repetition = 3;\n Min_Repetition = 2;\n")
    suites = [suite(f"T{t}_{a}_{b}", t, base, a, b, length) for t, a, b in PAIRS]
    # MPI_SUM: built-in base types only
    suites += [suite(f"T{t}_0_0", t, 1, 0, 0, length) for t in REDUCTIONS]
    unit = 48 if base == 1 else 204
    suites += [suite(f"C{t}_{a}_{b}", t, base, a, b,
                     f" Variation = Chunks;\n Scale = Fixed_linear;\n Start_Argument = 1;\n"
                     f" End_Argument = 5;\n Stepwidth = 1;\n Default_Message_length = {2 * unit};\n"
                     " Max_Repetition = 3;\n Min_Repetition = 2;\n") for t, a, b in CHUNKS]
    # moving no data: nothing to check
    suites.append("B\n{\n Type = 19;\n Variation = Nodes;\n Max_Repetition = 3;\n}\n"
                  "W\n{\n Type = 24;\n Max_Repetition = 3;\n}\n")
    # base type 2: a structure of 17 bytes in 24 (elements of 204 bytes)
    (tmp_path / "mix.skampi").write_text(
        "@MEMORY 256\n@CACHEWARMUP 1\n@BASETYPE1 MPI_INT\n"
        "@BASETYPE2 (1,0,MPI_CHAR) (2,4,MPI_INT) (1,16,MPI_DOUBLE)\n@MEASUREMENTS\n"
        + "".join(suites))
    r = run(np, "effbench", "skampi", "--check", "--json", "mix.jsonl", "mix.skampi",
            cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r
    res, order = parse_sko((tmp_path / "skampi.out").read_text())
    names = ([f"T{t}_{a}_{b}" for t, a, b in PAIRS] + [f"T{t}_0_0" for t in REDUCTIONS]
             + [f"C{t}_{a}_{b}" for t, a, b in CHUNKS] + ["B", "W"])
    assert order == names
    for name in names[:len(PAIRS) + len(REDUCTIONS)]:
        u = 4 if name.endswith("_0_0") else unit
        lengths = [0] + [u * 4 ** k for k in range(6) if u * 4 ** k < 2500]
        lengths.append(2500 // u * u)
        assert [int(row[2]) for row in res[name]] == sorted(set(lengths)), name
    recs = read_jsonl(tmp_path / "mix.jsonl")
    assert recs[0]["check"] is True
    recs = [x for x in recs if x["type"] == "result"]
    assert {x["basetype"] for x in recs if x["type_number"] not in REDUCTIONS + [19, 24]} == {
        "MPI_INT" if base == 1 else "(1,0,MPI_CHAR) (2,4,MPI_INT) (1,16,MPI_DOUBLE)"}
    for name in names[len(PAIRS) + len(REDUCTIONS):-2]:
        assert [(x["chunks"], x["bytes"]) for x in recs if x["benchmark"] == name] == \
            [(c, 2 * unit) for c in range(1, 6)], name
    # every point of every instance that moves data was checked, and clean
    checked = [x for x in recs if x["benchmark"] not in ("B", "W")]
    assert len({x["benchmark"] for x in checked}) == len(names) - 2
    bad = [(x["benchmark"], x["bytes"], x["chunks"], x["defects"]) for x in checked
           if x["defects"] != 0]
    assert not bad, bad
    assert all(x["defects"] is None for x in recs if x["benchmark"] in ("B", "W"))
    assert "check:" not in (tmp_path / "skampi.log").read_text()


LIB = BUILD / "libeb_corrupt.so"


# (processes, type, base type, send and receive pattern, first length): the
# library flips byte 0 of the first MPI_FLOAT or MPI_BYTE buffer rank 0
# receives, the checked run of the first point (type 48 sends the layout's
# bytes as MPI_BYTE and scatters them along the receive pattern)
CORRUPT = [(2, 1, "MPI_FLOAT", 0, 0, 4), (2, 48, "MPI_INT", 2, 9, 48),
           (3, 33, "MPI_FLOAT", 0, 0, 4), (3, 12, "MPI_FLOAT", 0, 0, 4)]


@pytest.mark.skipif(not LIB.exists(), reason="no PMPI corruption library in this build")
@pytest.mark.parametrize("np,t,base,a,b,first", CORRUPT)
def test_corrupted_byte_found(tmp_path, np, t, base, a, b, first):
    chunks = " Default_Chunks = 1;\n" if t == 12 else ""
    (tmp_path / "c.skampi").write_text(
        f"@CACHEWARMUP 1\n@BASETYPE1 {base}\n@MEASUREMENTS\n"
        + suite("S", t, 1, a, b, f" Scale = Fixed_log;\n Start_Argument = {first};\n"
                f" End_Argument = {16 * first};\n Stepwidth = 4;\n Max_Repetition = 3;\n"
                f" Min_Repetition = 2;\n{chunks}"))
    r = run(np, "effbench", "skampi", "--check", "--json", "c.jsonl", "c.skampi", cwd=tmp_path,
            extra_env={"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_AT": "1"}, timeout=60)
    assert r.returncode == 0, r
    recs = [x for x in read_jsonl(tmp_path / "c.jsonl") if x["type"] == "result"]
    assert [(x["bytes"], x["defects"]) for x in recs] == \
        [(first, 1), (4 * first, 0), (16 * first, 0)]
    # both base types have 4-byte elements
    assert f"check: S: 1 wrong bytes at count= {first // 4} ({first} bytes)\n" in \
        (tmp_path / "skampi.log").read_text()


ERRORS = [
    ("@MEASUREMENTS\nS\n{\n Type = 34;\n Send_Datatype_Number = 2;\n"
     " Receive_Datatype_Number = 50;\n}\n",
     "bad.skampi:6: suite 'S': key 'Receive_Datatype_Number': type 34 (MPI_Sendrecv_replace) "
     "has one datatype for both directions: 50 differs from Send_Datatype_Number 2"),
    ("@MEASUREMENTS\nOK\n{\n Type = 1;\n}\nR\n{\n Type = 20;\n Send_Datatype_Number = 4;\n}\n",
     "bad.skampi:9: suite 'R': key 'Send_Datatype_Number': type 20 (MPI_Reduce) reduces with "
     "MPI_SUM, which MPI defines on built-in datatypes only: datatype pattern 0"),
    ("@MEASUREMENTS\nS\n{\n Type = 1;\n Receive_Datatype_Number = 7;\n Multiple_of = 16;\n}\n",
     "bad.skampi:6: suite 'S': key 'Multiple_of': 16 is not a multiple of 48 bytes, one element "
     "of datatype pattern 7 over @BASETYPE1: send and receive types would not match"),
    ("@BASETYPE3 (1,0,MPI_INT) (2,2,MPI_SHORT)\n@MEASUREMENTS\nS\n{\n Type = 1;\n}\n",
     "bad.skampi:1: @BASETYPE3: '(1,0,MPI_INT) (2,2,MPI_SHORT)': triples 1 and 2 overlap"),
    # the vector of vectors spreads 12 ints over 28: 32 KB hold 14016 bytes of it
    ("@MEMORY 64\n@MEASUREMENTS\nS\n{\n Type = 1;\n Send_Datatype_Number = 11;\n"
     " End_Argument = 20000;\n}\n",
     "bad.skampi:7: suite 'S': key 'End_Argument': 20000 bytes do not fit the buffers of "
     "@MEMORY 64 KB (at most 14016 bytes for type 1 on 2 processes)"),
]


@pytest.mark.parametrize("text,msg", ERRORS)
def test_refused(tmp_path, text, msg):
    (tmp_path / "bad.skampi").write_text(text)
    r = run(2, "effbench", "skampi", "bad.skampi", cwd=tmp_path, timeout=120)
    assert r.returncode == 2, r
    assert f"effbench: error: {msg}\n" in r.stderr
    assert r.stderr.count("effbench: error:") == 1
    assert not (tmp_path / "skampi.out").exists()
