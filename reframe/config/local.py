"""ReFrame configuration: effbench's checks on this machine, under mpirun (docs/sites.md).

    reframe -C reframe/config/local.py -c reframe/effbench_checks.py -r

effbench's programs: $EFFBENCH_BIN_DIR, else this checkout's build/ (an installed effbench:
its bin/ folder, or '' with the programs on PATH, e.g. after `spack load effbench`).
"""
import os

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'this machine: MPI ranks started by mpirun',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'mpirun',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'environs': ['builtin'],
                    # one machine: no node-pair matrix (it needs 3 nodes)
                    'features': ['effbench'],
                    'extras': {
                        'effbench_bin': os.environ.get('EFFBENCH_BIN_DIR',
                                                       os.path.join(CHECKOUT, 'build')),
                        # a site's own values; None: measure and log, judge nothing
                        'effbench_references': {
                            'EffbenchPingPong': {'latency': (None, None, None, 'us'),
                                                 'bandwidth': (None, None, None, 'MiB/s')},
                        },
                    },
                },
            ],
        },
    ],
    'environments': [
        {'name': 'builtin', 'target_systems': ['local']},
    ],
}
