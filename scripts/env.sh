# Sourced by the scripts: lets Open MPI run as root in a container and
# beyond the core count (tests and demos use 4 ranks on small machines).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
# Open MPI 4.1's default one-sided component (osc/rdma over btl/vader) fails
# MPI_Win_create in containers; pt2pt is its portable implementation.
export OMPI_MCA_osc=pt2pt
