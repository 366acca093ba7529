mpirun -np 4 mpibenchmark --msize-interval=min=2,max=6,step=2 --calls-list=MPI_Barrier,MPI_Scatter,MPI_Exscan,MPI_Reduce_scatter_block,MPI_Reduce_scatter --nrep=2
rc=0
