#include "core/large_count.h"

#include "core/error.h"

#include <limits.h>

int eb_large_count_missing(const char *call)
{
    eb_abort("%s: a count past %d elements needs it and this MPI library lacks it", call,
             INT_MAX);
}
