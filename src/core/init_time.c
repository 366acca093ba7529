#include "core/init_time.h"

static struct timespec start_ts, end_ts;
static int marks;

void eb_init_time_mark_start(void)
{
    clock_gettime(CLOCK_REALTIME, &start_ts);
    marks = 1;
}

void eb_init_time_mark_end(void)
{
    clock_gettime(CLOCK_REALTIME, &end_ts);
    marks |= 2;
}

int eb_init_time(struct timespec *start, struct timespec *end)
{
    if (marks != 3)
        return -1;
    *start = start_ts;
    *end = end_ts;
    return 0;
}
