mpirun -np 2 mpibenchmark --input-file=jobs.txt --nrep=7 --summary=mean
rc=0
