/* The one rule for times below what the timer resolves (docs/json-lines.md,
 * "Impossible numbers").  A time corrected by subtracting a measured
 * overhead (SKaMPI's timer overhead, an overlap formula's parts) can fall
 * below the timer's resolution, even below zero, although the operation took
 * time.  Such a time is reported as the resolution itself, and its row says
 * `resolution_limited`: the true value is somewhere between 0 and it. */
#ifndef EB_RESOLUTION_H
#define EB_RESOLUTION_H

/* The corrected time `t` (any unit) held to at least `resolution` (same
 * unit); *limited is set to 1 when it was raised (never cleared, so one flag
 * can collect a row's times). */
double eb_resolved_time(double t, double resolution, int *limited);

#endif
