mpirun -np 4 mpibenchmark --calls-list=MPI_Bcast,MPI_Allreduce --msizes-list=8,1024,65536 --nrep=5
rc=0
