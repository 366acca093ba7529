"""ReFrame configuration: effbench's checks on the emulated Slurm cluster (scripts/cluster,
docs/cluster.md), submitted with sbatch and started with srun: a site's Slurm cluster
written the same way (docs/sites.md).

    scripts/cluster up -N 4
    reframe -C reframe/config/emulated-cluster.py -c reframe/effbench_checks.py \
            --prefix /var/tmp/rfm -r

The prefix (stage and output folders) must be a folder every node sees: here not /tmp,
which is each node's own.  effbench's programs: $EFFBENCH_BIN_DIR, else this checkout's build/.
"""
import os

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NET = '10.213.0.0/24'   # the emulated nodes' links (scripts/cluster)

site_configuration = {
    'systems': [
        {
            'name': 'emulated',
            'descr': 'the emulated cluster: one network namespace per node, Slurm',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'emu',
                    # 'squeue' is ReFrame's Slurm scheduler for a cluster without job
                    # accounting (no slurmdbd: sacct has nothing); 'slurm' where there is
                    'scheduler': 'squeue',
                    'launcher': 'srun',
                    'access': ['--partition=emu'],
                    'environs': ['builtin'],
                    'features': ['effbench', 'multinode'],
                    'max_jobs': 4,
                    'env_vars': [
                        # srun --mpi=pmix for every step (the cluster's MpiDefault already)
                        ['SLURM_MPI_TYPE', 'pmix'],
                        # Open MPI's TCP traffic on the nodes' links only
                        ['OMPI_MCA_btl_tcp_if_include', NET],
                        ['OMPI_MCA_oob_tcp_if_include', NET],
                        # the nodes share this machine's cores: busy-polling ranks would take
                        # turns at the scheduler's tick, measured as latency
                        ['OMPI_MCA_mpi_yield_when_idle', '1'],
                    ],
                    'extras': {
                        'effbench_bin': os.environ.get('EFFBENCH_BIN_DIR',
                                                       os.path.join(CHECKOUT, 'build')),
                        # the emulation sets the links' rate, not their latency (no netem in
                        # this kernel): latency flags are the loaded host's scheduling
                        'effbench_nodes_flag_metrics': ['bandwidth_mb_per_s'],
                        'effbench_references': {},
                    },
                },
            ],
        },
    ],
    'environments': [
        {'name': 'builtin', 'target_systems': ['emulated']},
    ],
}
