mpirun -np 4 mpibenchmark --calls-list=MPI_Gather --msizes-list=64 --nrep=3 -v
rc=0
