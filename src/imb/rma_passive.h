/* IMB-RMA Truly_passive_put's pure decision (rma_passive.c), exposed for unit tests. */
#ifndef EB_IMB_RMA_PASSIVE_H
#define EB_IMB_RMA_PASSIVE_H

/* Truly_passive_put: did the put complete while the target computed outside
 * MPI?  Times per repetition: t_pure (target in MPI_Barrier), t_ovrl (target
 * computing first), t_cpu (the target's undisturbed computation).  Without
 * passive progress t_ovrl ~ t_cpu + t_pure; with it t_ovrl - t_cpu stays well
 * below t_pure.  1 if t_ovrl - t_cpu < t_pure / 2. */
int eb_rma_passive_verdict(double t_pure, double t_ovrl, double t_cpu);

#endif
