mpirun -np 4 mpibenchmark --calls-list=MPI_Bcast --msizes-list=32 --nrep=3 --proc-sync=Double_MPI_Barrier
rc=0
