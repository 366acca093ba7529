mpirun -np 4 mpibenchmark --calls-list=MPI_Bcast,MPI_Allgather --msizes-list=8 --nrep=5 --proc-sync=window --window-size=2000 --runtime-type=global
rc=0
