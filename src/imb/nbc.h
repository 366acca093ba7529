/* IMB-NBC constants; the overlap figure itself is core/overlap.h (shared
 * with IMB-IO). */
#ifndef EB_IMB_NBC_H
#define EB_IMB_NBC_H

/* IMB_settings.h: the CPU-exploit target of the header's Mflop/s line. */
#define EB_NBC_TARGET_CPU_SECS 0.01

#endif
