mpirun -np 4 mpibenchmark --input-file=jobs.txt
rc=0
