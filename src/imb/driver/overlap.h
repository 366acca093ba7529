/* IMB's overlap estimate for nonblocking benchmarks (IMB-IO, IMB-NBC):
 * 100 * max(0, min(1, (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU))),
 * in percent; 0 when either time is zero. */
#ifndef EB_OVERLAP_H
#define EB_OVERLAP_H

static inline double eb_overlap_percent(double t_pure, double t_cpu, double t_ovrl)
{
    double lo = t_pure < t_cpu ? t_pure : t_cpu;
    if (!(lo > 0))
        return 0.0;
    double f = (t_pure + t_cpu - t_ovrl) / lo;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return 100.0 * f;
}

#endif
