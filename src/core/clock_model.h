/* The clock model of core/clock.h: a rank's MPI_Wtime against the
 * reference's (offset and drift), the methods that estimate it, and the
 * conversions between local and global time. */
#ifndef EB_CLOCK_MODEL_H
#define EB_CLOCK_MODEL_H

typedef enum {
    EB_CLOCK_LINEAR = 0, /* the zero value: a zero-initialised model uses it */
    EB_CLOCK_SKAMPI,
    EB_CLOCK_HCA3,
    EB_CLOCK_HCA3_2LEVEL,
    EB_CLOCK_NONE, /* no synchronisation: every local clock taken as the global one */
    EB_CLOCK_NMETHODS
} eb_clock_method;

/* HCA3's fit points per pair when the model's fitpoints is 0. */
#define EB_CLOCK_FITPOINTS 20

typedef struct {
    double offset;  /* global - local at local time t_ref, seconds */
    double drift;   /* d(offset)/d(local time) */
    double t_ref;   /* local time of the last estimate; 0 before any */
    double error;   /* the estimate's uncertainty (max over ranks), seconds */
    /* set by the caller before eb_clock_sync (zero: linear, defaults) */
    int method;     /* eb_clock_method */
    int fitpoints;  /* hca3: fit points per pair (0: EB_CLOCK_FITPOINTS) */
    /* what the last eb_clock_sync achieved, the same on every rank */
    double sync_s;      /* seconds the synchronisation took (max over ranks), without the check */
    double check_max;   /* measured after it: the largest |offset| of a rank's global clock
                         * from the reference's, each at the moment of its rank's check
                         * exchange, seconds */
    double check_error; /* the largest bound of those measurements' error (half the round
                         * trip of the exchange each came from), seconds */
    double drift_max;   /* the largest |drift| estimate over the ranks */
    double check_self;  /* this rank's measured offset (0 on the reference), seconds */
    double check_self_error; /* its error bound (0 on the reference), seconds */
    double check_at;    /* this rank's local time when it was measured */
} eb_clock_model;

double eb_clock_to_global(const eb_clock_model *m, double local);
double eb_clock_to_local(const eb_clock_model *m, double global);

/* "linear", "skampi", "hca3", "hca3_2level", "none"; parse returns -1 for another. */
const char *eb_clock_method_name(int method);
int eb_clock_method_parse(const char *name);
/* "linear|skampi|hca3|hca3_2level|none", for usage texts and messages */
#define EB_CLOCK_METHODS "linear|skampi|hca3|hca3_2level|none"

#endif
