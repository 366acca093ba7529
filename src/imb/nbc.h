/* IMB-NBC's overlap figure (the user guide, "Measuring Communication and
 * Computation Overlap"), a pure function so it can be unit-tested. */
#ifndef EB_IMB_NBC_H
#define EB_IMB_NBC_H

/* overlap[%] = 100 * max(0, min(1, (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU))).
 * 100 means perfect overlap (t_ovrl = max(t_pure, t_CPU)), 0 none
 * (t_ovrl >= t_pure + t_CPU).  If t_pure or t_CPU is not positive there is
 * nothing to overlap and the result is 0. */
double eb_nbc_overlap_pct(double t_pure, double t_cpu, double t_ovrl);

/* IMB_settings.h: the CPU-exploit target of the header's Mflop/s line. */
#define EB_NBC_TARGET_CPU_SECS 0.01

#endif
