mpirun -np 4 mpibenchmark --calls-list=MPI_Reduce,MPI_Scan --msizes-list=16 --nrep=5 --summary=mean,median,min --datatype=MPI_INT --operation=MPI_SUM --root-proc=1
rc=0
