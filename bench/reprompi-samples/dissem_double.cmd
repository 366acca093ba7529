mpirun -np 4 mpibenchmark --calls-list=MPI_Bcast --msizes-list=32 --nrep=3 --proc-sync=dissem_barrier --summary=min,max
rc=0
