mpirun -np 4 mpibenchmark --calls-list=MPI_Bcast --msizes-list=8,256 --nrep=4 --proc-sync=window --window-size=50000 --summary=mean,median,max,var,stddev --runtime-type=global
rc=0
