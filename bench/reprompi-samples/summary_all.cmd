mpirun -np 4 mpibenchmark --calls-list=MPI_Allgather,MPI_Alltoall --msizes-list=8,1024 --nrep=5 --summary
rc=0
