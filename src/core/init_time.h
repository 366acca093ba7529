/* When this process's MPI initialisation ran: main() marks the moments just
 * before and just after MPI_Init_thread (CLOCK_REALTIME, the clock OSU's
 * osu_init reads around MPI_Init), so a component, which starts after
 * MPI_Init, can still report how long the call took. */
#ifndef EB_INIT_TIME_H
#define EB_INIT_TIME_H

#include <time.h>

void eb_init_time_mark_start(void);
void eb_init_time_mark_end(void);

/* The two moments; returns 0, or -1 if main did not mark both. */
int eb_init_time(struct timespec *start, struct timespec *end);

#endif
