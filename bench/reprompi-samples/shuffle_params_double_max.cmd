mpirun -np 4 mpibenchmark --calls-list=MPI_Allreduce --msizes-list=64 --nrep=2 --shuffle-jobs --params=p1:1,p2:aaa --datatype=MPI_DOUBLE --operation=MPI_MAX
rc=0
