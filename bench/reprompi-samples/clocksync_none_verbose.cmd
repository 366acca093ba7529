mpirun -np 2 env MPITS_PARAMS=--clock-sync=None mpibenchmark --calls-list=MPI_Bcast --msizes-list=8 --nrep=2 -v
rc=0
