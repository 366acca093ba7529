"""The bad-input table of every component: each case gets exactly one
message from rank 0 naming the problem (and the file and line where there is
one), exit status 2 from every rank, and ends within 5 seconds: no hang, no
MPI_Abort, nothing measured.

Per-component test files check more of each (their own formats, partial
output); this table is the one place that covers them all the same way."""
import pytest

from effb import run

# Files a case may name by key; written into tmp_path by the test.
FILES = {
    "lengths": "0\n1024\n4k\n",
    "select": "# my selection\nPingPong\nPing Pong\n",
    "info": "striping_factor\n",
    "hints_fields": "all striping_factor\n",
    "hints_types": "9 a b\n",
    "rp_jobs": "MPI_Bcast 8 4\nMPI_Bcst 8 4\n",
    "sk_key": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 1;\n  Stepwidht = 2;\n}\n",
    "sk_type": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 999;\n}\n",
    "sk_basetype": "@MEMORY 64\n@BASETYPE1 MPI_COMPLEX17\n@MEASUREMENTS\nS\n{\n  Type = 1;\n}\n",
    "sk_quantile": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 1;\n  Cut_Quantile = 0.7;\n}\n",
    "sk_notype": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Variation = Length;\n}\n",
    "sk_memory": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 1;\n  End_Argument = 1000000;\n}\n",
    "sk_twice": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 1;\n}\nS\n{\n  Type = 1;\n}\n",
    "sk_semicolon": "@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 1\n}\n",
    "sk_nodes": ("@MEMORY 64\n@MEASUREMENTS\nS\n{\n  Type = 18;\n  Variation = Nodes;\n"
                 "  Start_Argument = 3;\n  End_Argument = 8;\n}\n"),
}

# (program and arguments, the message after "effbench: error: ").  {name}
# stands for the path of FILES[name]; {tmp} for the test's directory.
CASES = [
    # IMB-MPI1
    (["IMB-MPI1", "-npmin", "zero"], "-npmin zero: expected a positive integer"),
    (["IMB-MPI1", "-time", "fast"], "-time fast: expected a positive number of seconds"),
    (["IMB-MPI1", "-iter", "12,x"], "-iter 12,x: expected msgspersample[,overall_vol_MB"
                                    "[,msgs_nonaggr]][,off|dynamic|multiple_np|auto]"),
    (["IMB-MPI1", "-multi", "3"], "-multi 3: expected 0 or 1"),
    (["IMB-MPI1", "-msglog", "9:3"], "-msglog 9:3: minlog 9 is larger than maxlog 3"),
    (["IMB-MPI1", "-map", "2x2"], "-map 2x2: the matrix has 4 places but 2 processes run"),
    (["IMB-MPI1", "-msglen", "{tmp}/none"], "-msglen {tmp}/none: cannot read: No such file or directory"),
    (["IMB-MPI1", "-msglen", "{lengths}"], "{lengths}:3: '4k' is not a non-negative message length in bytes"),
    (["IMB-MPI1", "-input", "{tmp}/none"], "-input {tmp}/none: cannot read: No such file or directory"),
    (["IMB-MPI1", "-input", "{select}"],
     "{select}:3: 'Ping Pong': a line holds exactly one benchmark name or a # comment"),
    (["IMB-MPI1", "-bogus"], "unknown option '-bogus' (see IMB-MPI1 -h)"),
    (["IMB-MPI1", "--json", "{tmp}/no/dir/out.jsonl"],
     "--json {tmp}/no/dir/out.jsonl: cannot write: No such file or directory"),
    (["IMB-MPI1", "-repeat", "0"], "-repeat 0: expected a positive number of timed loops"),
    (["IMB-MPI1", "-sync", "foo"], "-sync foo: expected barrier or window (effbench's "
                                   "-sync_method), or IMB 2021's on or off (1|enable|yes, 0|disable|no)"),
    # IMB 2021.11 options (docs/imb.md)
    (["IMB-MPI1", "-sync_method", "1"], "-sync_method 1: expected barrier or window"),
    (["IMB-MPI1", "-sync", "window", "-clock_sync", "hca"],
     "-clock_sync hca: expected linear|skampi|hca3|hca3_2level|none"),
    (["IMB-MPI1", "-clock_sync", "hca3"], "-clock_sync chooses the clocks of -sync window: give both"),
    (["IMB-MPI1", "-sync", "window", "-sync", "1"],
     "-sync_method window times each repetition in its own window: IMB 2021's -sync 1 does not go with it"),
    (["IMB-MPI1", "-root_shift", "2"], "-root_shift 2: expected on or off (1|enable|yes, 0|disable|no)"),
    (["IMB-MPI1", "-zero_size"], "option -zero_size needs a value"),
    (["IMB-MPI1", "-data_type", "long"], "-data_type long: expected byte, char, int, float or double"),
    (["IMB-MPI1", "-data_type", "float16"], "-data_type float16: this MPI library has no 16-bit "
                                            "floating-point type (IMB 2021 needs MPIX_C_FLOAT16 / MPIX_C_BF16)"),
    (["IMB-MPI1", "-red_data_type", "byte"], "-red_data_type byte: expected char, int, float or double"),
    (["IMB-MPI1", "-contig_type", "foo"], "-contig_type foo: expected base, base_vec, resize or resize_vec"),
    (["IMB-MPI1", "-window_size", "0"], "-window_size 0: expected a positive number of messages"),
    (["IMB-MPI1", "-msgsize", "8,1k"], "-msgsize 8,1k: '1k' is not a message size in bytes "
                                       "(comma-separated non-negative integers)"),
    (["IMB-MPI1", "-msgsize", "8", "-msglog", "3"], "-msglog and -msgsize exclude each other"),
    (["IMB-MPI1", "-aggregate_mode", "aggregate"],
     "-aggregate_mode: IMB-MPI1 has no such option in IMB 2021.11 (IMB-RMA, IMB-EXT and IMB-IO have it)"),
    (["IMB-MPI1", "-mem_alloc_type", "device"],
     "-mem_alloc_type device: IMB-MPI1's buffers are host memory (cpu); GPU buffers are "
     "IMB-MPI1-GPU's"),
    (["IMB-MPI1", "-load", "{tmp}/none.yaml"], "-load {tmp}/none.yaml: cannot read: No such file or directory"),
    (["IMB-MPI1", "-dump", "{tmp}/no/dir/s.yaml"], "-dump {tmp}/no/dir/s.yaml: cannot write: No such file or directory"),
    (["IMB-NBC", "-data_type", "int"], "-data_type: IMB-NBC has no such option in IMB 2021.11 (IMB-MPI1 has it)"),
    (["IMB-MPI4", "-window_size", "8"], "-window_size: IMB-MPI4 has no such option in IMB 2021.11 "
                                        "(IMB-MPI1 has it)"),
    (["IMB-MPI4", "-msglog", "3:2"], "-msglog 3:2: minlog 3 is larger than maxlog 2"),
    (["IMB-EXT", "-sync", "1"], "-sync 0|1: IMB-EXT has no such option in IMB 2021.11 "
                                "(IMB-MPI1, IMB-NBC, IMB-RMA and IMB-MPI4 have it)"),
    (["IMB-RMA", "-aggregate_mode", "both"], "-aggregate_mode both: expected aggregate, non_aggregate or multi"),
    (["IMB-IO", "-warm_up", "maybe"], "-warm_up maybe: expected on or off (1|enable|yes, 0|disable|no)"),
    (["effbench", "mpi2"], "unknown component 'mpi2' (run `effbench --help` for the list)"),
    # IMB-NBC
    (["IMB-NBC", "-time", "x"], "-time x: expected a positive number of seconds"),
    (["IMB-NBC", "-multi", "2"], "-multi 2: expected 0 or 1"),
    (["IMB-NBC", "-bogus"], "unknown option '-bogus' (see IMB-NBC -h)"),
    # IMB-EXT, IMB-RMA
    (["IMB-EXT", "-iter", "0"], "-iter 0: expected msgspersample[,overall_vol_MB"
                                "[,msgs_nonaggr]][,off|dynamic|multiple_np|auto]"),
    (["IMB-EXT", "-bogus"], "unknown option '-bogus' (see IMB-EXT -h)"),
    (["IMB-RMA", "-npmin", "0"], "-npmin 0: expected a positive integer"),
    (["IMB-RMA", "-msglog", "30:2"], "-msglog 30:2: minlog 30 is larger than maxlog 2"),
    # IMB-IO
    (["IMB-IO", "-mem", "foo"], "-mem foo: expected a positive number of GB"),
    (["IMB-IO", "-bogus"], "unknown option '-bogus' (see IMB-IO -h)"),
    (["IMB-IO", "--info", "{info}"], "{info}:1: hint 'striping_factor' has no value (expected 'key value')"),
    (["IMB-IO", "--info", "{tmp}/none"], "--info {tmp}/none: cannot read: No such file or directory"),
    # quick mode
    (["effbench", "quick", "mpi1", "-epsilon", "0"],
     "-epsilon 0: expected a relative error between 0 and 1, e.g. 0.02"),
    (["IMB-MPI1", "PingPong", "-epsilon", "0.01"],
     "-epsilon is quick mode's accuracy target: run `effbench quick mpi1 ... -epsilon E`, "
     "or leave it out"),
    # b_eff
    (["b_eff", "--mem-per-proc", "0"], "--mem-per-proc: '0' is not a whole number of MB >= 1"),
    (["b_eff", "--random-patterns", "-3"], "--random-patterns: '-3' is not a number >= 1"),
    (["b_eff", "--seed", "x"], "--seed: 'x' is not a number in 0..2^63-1"),
    (["b_eff", "--protocol", "{tmp}/no/dir/p"], "--protocol: cannot write '{tmp}/no/dir/p'"),
    (["b_eff", "--rmax", "abc"], "--rmax: 'abc' is not a positive number of GFLOPS"),
    (["b_eff", "--loop-ms", "-1"], "--loop-ms: '-1' is not a positive number"),
    # b_eff_io
    (["b_eff_io", "-T", "0"], "-T: the scheduled time must be positive"),
    (["b_eff_io", "--path", "{tmp}/none"], "--path {tmp}/none: cannot use: No such file or directory"),
    (["b_eff_io", "--partitions", "3"], "--partitions 3: 3 is not between 1 and 2 processes"),
    (["b_eff_io", "--partitions", "1,1"], "--partitions 1,1: 1 appears twice"),
    (["b_eff_io", "--hints", "{tmp}/none"], "--hints {tmp}/none: cannot read: No such file or directory"),
    (["b_eff_io", "--path", "{tmp}", "--hints", "{hints_fields}"],
     "{hints_fields}:1: expected `TYPES KEY VALUE` (TYPES = all or e.g. 0,3), got `all striping_factor`"),
    (["b_eff_io", "--path", "{tmp}", "--hints", "{hints_types}"],
     "{hints_types}:1: `9` is not `all` or a list of pattern types 0..4"),
    (["b_eff_io", "--mem-per-proc", "4", "--mem-per-node", "8"],
     "--mem-per-proc and --mem-per-node exclude each other"),
    # SKaMPI
    (["effbench", "skampi"],
     "no configuration file (effbench skampi FILE; suites/default.skampi is the default set)"),
    (["effbench", "skampi", "{tmp}/none.skampi"], "{tmp}/none.skampi: cannot read the configuration file"),
    (["effbench", "skampi", "{sk_key}"], "{sk_key}:6: suite 'S': unknown key 'Stepwidht'"),
    (["effbench", "skampi", "{sk_type}"],
     "{sk_type}:5: suite 'S': key 'Type': unknown type 999 (see the type table in docs/skampi.md)"),
    (["effbench", "skampi", "{sk_basetype}"],
     "{sk_basetype}:2: @BASETYPE1: 'MPI_COMPLEX17' is not a base type: a built-in type (MPI_CHAR, "
     "MPI_BYTE, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE) or triples (count, offset, type) ..."),
    (["effbench", "skampi", "{sk_quantile}"], "{sk_quantile}:6: suite 'S': key 'Cut_Quantile': 0.7 must be at most 0.5"),
    (["effbench", "skampi", "{sk_notype}"], "{sk_notype}:3: suite 'S': missing key 'Type'"),
    (["effbench", "skampi", "{sk_memory}"],
     "{sk_memory}:6: suite 'S': key 'End_Argument': 1000000 bytes do not fit the buffers of @MEMORY 64 KB "
     "(at most 32768 bytes for type 1 on 2 processes)"),
    (["effbench", "skampi", "{sk_twice}"], "{sk_twice}:7: suite 'S' is defined twice (first on line 3)"),
    (["effbench", "skampi", "{sk_semicolon}"], "{sk_semicolon}:5: suite 'S': key 'Type': missing ';' after the value"),
    # too few processes for what was asked (a benchmark that merely needs more
    # processes than run is skipped with a NOT RUN note, as IMB does)
    (["effbench", "skampi", "{sk_nodes}"],
     "{sk_nodes}:8: suite 'S': key 'End_Argument': 8 processes, but this run has 2"),
    # ReproMPI's mpibenchmark (docs/reprompi.md): ReproMPI ignores unknown options, effbench names them
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--bogus=1"],
     "unknown option '--bogus' (see -h)"),
    (["mpibenchmark", "--calls-list=MPI_Bcst", "--msizes-list=8", "--nrep=2"],
     "--calls-list: unknown MPI call 'MPI_Bcst' (List of MPI calls is incorrect; see -h for the supported calls)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8,x", "--nrep=2"],
     "--msizes-list: 'x' is not a positive integer (Invalid list of message sizes)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msize-interval=min=3,max=1", "--nrep=2"],
     "--msize-interval: min is larger than max (Invalid message sizes interval)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8"],
     "The number of repetitions is not defined (specify the \"--nrep\" command-line argument or provide an input file)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--summary=mean,mode"],
     "--summary: unknown method 'mode' (Invalid list of summary methods: mean, median, min, max, var, stddev)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--root-proc=2"],
     "--root-proc: '2' is not a rank from 0 to 1 (Invalid root process)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--proc-sync=roundtime"],
     "--proc-sync: unknown method 'roundtime' (MPI_Barrier, dissem_barrier, Double_MPI_Barrier, window, None)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--runtime-type=avg"],
     "--runtime-type: unknown method 'avg' (see -h)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--clock-sync=HCA3O"],
     "--clock-sync=HCA3O: not one of effbench's clock synchronisations (Linear, SKaMPI, HCA3, HCA3_2level, None; docs/reprompi.md)"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--window-size=0"],
     "--window-size: '0' is not a positive number of microseconds"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=6", "--nrep=2", "--datatype=MPI_INT"],
     "Message size 6 for MPI_Bcast is not a multiple of the datatype size (4)"),
    (["mpibenchmark", "--calls-list=Sendrecv", "--msizes-list=8", "--nrep=2"],
     "Sendrecv needs --pingpong-ranks=<rank1,rank2> (Invalid ping-pong ranks)"),
    (["mpibenchmark", "--input-file={rp_jobs}"], "{rp_jobs}:2: unknown MPI call 'MPI_Bcst'"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2", "--params=p1"],
     "--params: 'p1' is not key:value"),
    (["mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2",
      "--module=bcast=alg:allreduce_as_reduce_bcast"],
     "--module: 'allreduce_as_reduce_bcast' is not a mock-up of MPI_Bcast (docs/reprompi.md lists them)"),
    # effbench explain (docs/methods.md)
    (["effbench", "explain"], "no operation given (see -h)"),
    (["effbench", "explain", "Bcst"], "unknown operation 'Bcst' (see -h)"),
    (["effbench", "explain", "Bcast", "1024,x"],
     "sizes '1024,x': 'x' is not a size in bytes (0 to 2^30)"),
    (["effbench", "explain", "Bcast", "--rounds", "0"],
     "--rounds 0: expected an integer from 1 to 1000"),
    (["effbench", "explain", "Bcast", "--reference", "imb-5"],
     "--reference imb-5: not a method of Bcast on 2 processes (see -h)"),
    (["effbench", "explain", "Exchange", "--reference", "b_eff"],
     "--reference b_eff: not a method of Exchange on 2 processes (see -h)"),
    (["effbench", "explain", "Barrier", "8"], "Barrier takes no sizes ('8')"),
    (["effbench", "explain", "Bcast", "--window-us", "0"],
     "--window-us 0: expected a positive number"),
    (["effbench", "explain", "Bcast", "8", "16", "--seed", "1"], "unexpected argument '16' (see -h)"),
]


def _expand(text, tmp_path):
    names = {name: tmp_path / name for name in FILES}
    return text.format(tmp=tmp_path, **names)


def test_the_table_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("args,message", CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_input(args, message, tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    argv = [_expand(a, tmp_path) for a in args]
    r = run(2, *argv, cwd=tmp_path, timeout=120)
    assert r.returncode == 2, r
    errors = [l for l in r.stderr.splitlines() if l.startswith("effbench: error:")]
    assert len(errors) == 1, r
    expected = "effbench: error: " + _expand(message, tmp_path)
    assert errors[0] == expected, r
    assert "MPI_ABORT" not in r.stderr and "#bytes" not in r.stdout, r
