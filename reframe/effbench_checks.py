"""ReFrame checks for effbench (docs/sites.md).

Every check runs one effbench program with `--json effbench.jsonl` and judges that file, never
the text on stdout: the sanity functions and performance variables read effbench's JSON Lines
records (docs/json-lines.md).  The file is kept in ReFrame's output folder, so that
`effbench-results import` can store it (docs/sites.md).

What describes a system goes into the site's ReFrame configuration, in a partition's `extras`:

    'extras': {
        'effbench_bin': '/opt/effbench/bin',     # where effbench's programs are; '' = on PATH
        'effbench_references': {                 # reference values, per check and variable
            'EffbenchPingPong': {'latency': (1.8, None, 0.25, 'us')},
        },
        'effbench_nodes_flag_metrics': [...],    # which flags fail EffbenchNodeMatrix
    }

How much to run is a check variable, set on ReFrame's command line (`-S NAME=VALUE`).
A reference is ReFrame's (value, lower, upper, unit) tuple; without one a variable is only
measured and logged.
"""
import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import (deferrable, performance_function, run_after, run_before,
                                   sanity_function, variable)

RECORDS = 'effbench.jsonl'
NODE_METRICS = ('latency_0b_us', 'latency_8b_us', 'bandwidth_mb_per_s')


@deferrable
def read_records(path, stderr):
    """The JSON Lines records of one effbench run, in file order."""
    if not os.path.exists(path):
        with open(stderr) as f:
            said = [line.strip() for line in f if line.startswith('effbench: ')]
        raise sn.SanityError(f'{RECORDS} was not written: '
                             + (said[-1] if said else f'the program failed (see {stderr})'))
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


@deferrable
def the_record(records, rtype, **match):
    """The one record of type `rtype` whose fields have the values in `match`."""
    found = [r for r in records if r.get('type') == rtype and
             all(r.get(k) == v for k, v in match.items())]
    if len(found) != 1:
        raise sn.SanityError(f'{len(found)} {rtype} records with {match} in {RECORDS}, '
                             f'expected one')
    return found[0]


@deferrable
def run_problems(records):
    """What is wrong with a run's records as a whole: '' when nothing."""
    if not records or records[0].get('type') != 'run':
        return f'{RECORDS} does not begin with a run record'
    end = records[-1]
    if end.get('type') != 'end':
        return f'{RECORDS} has no end record: the run did not finish'
    if end.get('status') != 'ok':
        return f"the run ended with status {end.get('status')}: {end.get('message')}"
    planned = end.get('planned_rows')
    if planned is not None and end.get('rows') != planned:
        return f"{end.get('rows')} of {planned} planned rows were measured"
    return ''


class EffbenchCheck(rfm.RunOnlyRegressionTest):
    """One effbench program, its records in effbench.jsonl."""

    valid_systems = ['+effbench']
    valid_prog_environs = ['*']
    maintainers = ['effbench']
    tags = {'effbench'}
    keep_files = [RECORDS]
    # a benchmark measures the nodes: it shares them with no other job
    exclusive_access = True

    #: folder of effbench's programs; empty: the partition's `effbench_bin` extra, else PATH
    effbench_bin = variable(str, value='')
    #: options added to the program's own (e.g. `-S EffbenchPingPong.options=-time,0.5`)
    options = variable(typ.List[str], value=[])
    program = variable(str)

    def extra(self, key, default):
        return self.current_partition.extras.get(key, default)

    @run_after('setup')
    def set_executable(self):
        folder = self.effbench_bin or self.extra('effbench_bin', '')
        self.executable = os.path.join(folder, self.program) if folder else self.program
        self.executable_opts = self.arguments() + list(self.options) + ['--json', RECORDS]

    @run_after('setup')
    def set_references(self):
        refs = self.extra('effbench_references', {}).get(type(self).__name__, {})
        self.reference = {self.current_partition.fullname: dict(refs)}

    def arguments(self):
        return []

    @property
    def records(self):
        return read_records(os.path.join(self.stagedir, RECORDS),
                            os.path.join(self.stagedir, self.stderr.evaluate()))

    def result(self, field, **match):
        return the_record(self.records, 'result', **match)[field]

    def summary(self, field):
        return the_record(self.records, 'summary')[field]

    def run_ok(self):
        return sn.assert_eq(run_problems(self.records), '', msg='{0}')


@rfm.simple_test
class EffbenchPingPong(EffbenchCheck):
    """IMB PingPong between two ranks on two nodes (one node where the partition has one)."""

    descr = 'IMB PingPong latency and bandwidth between two nodes (effbench)'
    program = 'IMB-MPI1'
    num_tasks = 2
    num_tasks_per_node = 1
    #: the largest message, log2 of its bytes: the bandwidth is measured there
    max_log2_bytes = variable(int, value=22)

    def arguments(self):
        return ['PingPong', '-msglog', f'0:{self.max_log2_bytes}']

    @sanity_function
    def validate(self):
        return self.run_ok()

    @performance_function('us')
    def latency(self):
        """IMB's t[usec] at 0 bytes (half the round trip)."""
        return self.result('t_max_us', benchmark='PingPong', bytes=0)

    @performance_function('MiB/s')
    def bandwidth(self):
        """IMB's Mbytes/sec (2^20 bytes/s) at the largest message."""
        return self.result('mbytes_per_s', benchmark='PingPong',
                           bytes=2 ** self.max_log2_bytes)


@rfm.simple_test
class EffbenchAllreduce(EffbenchCheck):
    """IMB Allreduce on every rank of the job, at a small and a large message."""

    descr = 'IMB Allreduce time at a small and a large message (effbench)'
    program = 'IMB-MPI1'
    num_tasks = 4
    #: the small and the large message, log2 of their bytes (defaults 8 bytes and 1 MiB)
    small_log2_bytes = variable(int, value=3)
    large_log2_bytes = variable(int, value=20)

    def arguments(self):
        return ['Allreduce', '-npmin', str(self.num_tasks),
                '-msglog', f'{self.small_log2_bytes}:{self.large_log2_bytes}']

    @sanity_function
    def validate(self):
        return self.run_ok()

    @performance_function('us')
    def t_avg_small(self):
        return self.result('t_avg_us', benchmark='Allreduce', procs=self.num_tasks,
                           bytes=2 ** self.small_log2_bytes)

    @performance_function('us')
    def t_avg_large(self):
        return self.result('t_avg_us', benchmark='Allreduce', procs=self.num_tasks,
                           bytes=2 ** self.large_log2_bytes)


@rfm.simple_test
class EffbenchBeff(EffbenchCheck):
    """b_eff, the effective communication bandwidth, on every rank of the job."""

    descr = 'b_eff effective bandwidth (effbench)'
    program = 'b_eff'
    num_tasks = 4

    @sanity_function
    def validate(self):
        return sn.all([self.run_ok(), sn.assert_gt(self.summary('b_eff_mb_per_s'), 0)])

    @performance_function('MB/s')
    def b_eff(self):
        """b_eff in 10^6 bytes/s, accumulated over the processes (docs/beff.md)."""
        return self.summary('b_eff_mb_per_s')

    @performance_function('MB/s')
    def b_eff_per_proc(self):
        return self.summary('b_eff_per_proc_mb_per_s')

    @performance_function('us')
    def latency(self):
        return self.summary('latency_us')

    @performance_function('MB/s')
    def pingpong_bandwidth(self):
        return self.summary('pingpong_bw_mb_per_s')


@rfm.simple_test
class EffbenchBeffIO(EffbenchCheck):
    """b_eff_io, the effective I/O bandwidth, into `path` (default: the stage folder)."""

    descr = 'b_eff_io effective I/O bandwidth (effbench)'
    program = 'b_eff_io'
    num_tasks = 4
    #: scheduled time in minutes (b_eff_io's -T; 15 or more for a valid b_eff_io)
    minutes = variable(float, value=15.0)
    #: the folder of the benchmark's files: a parallel file system's; '' = the stage folder
    path = variable(str, value='')

    def arguments(self):
        return ['-T', f'{self.minutes:g}', '--path', self.path or self.stagedir]

    @sanity_function
    def validate(self):
        return sn.all([self.run_ok(),
                       sn.assert_eq(self.summary('errors'), 0, msg='{0} I/O errors')])

    @performance_function('MB/s')
    def b_eff_io(self):
        """b_eff_io in 10^6 bytes/s (docs/beff-io.md)."""
        return self.summary('b_eff_io_mb_per_s')


@deferrable
def flagged(summary, metrics):
    """The summary's flagged nodes and links for `metrics`, one line: '' when none."""
    said = []
    for f in summary['flagged_nodes']:
        bad = [m for m in f['metrics'] if m in metrics]
        if bad:
            said.append(f"node {f['node']} ({', '.join(bad)})")
    for f in summary['flagged_links']:
        bad = [m for m in f['metrics'] if m in metrics]
        if bad:
            said.append(f"link {' - '.join(f['nodes'])} ({', '.join(bad)})")
    return '; '.join(said)


@deferrable
def over_links(summary, metric, how):
    """min or median of a node-pair matrix over its links (the diagonal is null)."""
    values = sorted(v for row in summary[metric] for v in row if v is not None)
    if how == 'min':
        return values[0]
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


@rfm.simple_test
class EffbenchNodeMatrix(EffbenchCheck):
    """`effbench nodes` with one rank per node: fails when a node or a link is flagged slow,
    naming it.  By default on every idle node of the partition (ReFrame's flexible
    allocation); `-S EffbenchNodeMatrix.num_tasks=N` for N nodes."""

    descr = 'node-pair matrix: no slow node or link (effbench nodes)'
    valid_systems = ['+effbench +multinode']
    program = 'effbench'
    num_tasks = 0
    num_tasks_per_node = 1

    def arguments(self):
        return ['nodes']

    @sanity_function
    def validate(self):
        metrics = self.extra('effbench_nodes_flag_metrics', list(NODE_METRICS))
        summary = the_record(self.records, 'summary')
        return sn.all([self.run_ok(),
                       sn.assert_eq(flagged(summary, metrics), '', msg='flagged slow: {0}')])

    @performance_function('us')
    def latency_median(self):
        """The median over the links of the ping-pong latency at 0 bytes."""
        return over_links(the_record(self.records, 'summary'), 'latency_0b_us', 'median')

    @performance_function('MiB/s')
    def bandwidth_median(self):
        return over_links(the_record(self.records, 'summary'), 'bandwidth_mb_per_s', 'median')

    @performance_function('MiB/s')
    def bandwidth_min(self):
        """The slowest link's bandwidth."""
        return over_links(the_record(self.records, 'summary'), 'bandwidth_mb_per_s', 'min')
