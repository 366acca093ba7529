mpirun -np 4 mpibenchmark --calls-list=Send_Recv,Sendrecv,Isend_Recv,Isend_Irecv,Send_Irecv --msizes-list=8 --pingpong-ranks=0,3 --nrep=3 --summary=mean
rc=0
