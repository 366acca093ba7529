#include "core/resolution.h"

#include <math.h>

double eb_resolved_time(double t, double resolution, int *limited)
{
    if (!(t >= resolution)) { /* also NaN: a time that cannot be trusted is no time at all */
        *limited = 1;
        return resolution;
    }
    return t;
}
