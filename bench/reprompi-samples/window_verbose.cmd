mpirun -np 2 mpibenchmark --calls-list=MPI_Allreduce --msizes-list=8 --nrep=3 --proc-sync=window --window-size=2000 -v
rc=0
