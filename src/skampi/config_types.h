/* The types of a parsed .skampi configuration file: the preamble
 * (sk_config) and its suites (sk_suite) with their keys and defaults.
 * Apart from the parser (skampi/config) so that skampi/suite_keys, which
 * the parser calls for each key, uses them without including config.h. */
#ifndef SK_CONFIG_TYPES_H
#define SK_CONFIG_TYPES_H

enum sk_variation { SK_VAR_NONE, SK_VAR_LENGTH, SK_VAR_NODES, SK_VAR_CHUNKS };
enum sk_scale { SK_FIXED_LINEAR, SK_FIXED_LOG, SK_DYNAMIC_LINEAR, SK_DYNAMIC_LOG };
enum sk_sync { SK_SYNC_BARRIER, SK_SYNC_WINDOW };

/* The suite keys, in Figure 1's order, plus effbench's Synchronization
 * (their names and values: skampi/suite_keys.h). */
enum sk_key {
    SK_TYPE, SK_BASETYPE_NUMBER, SK_SEND_DATATYPE_NUMBER, SK_RECEIVE_DATATYPE_NUMBER,
    SK_VARIATION, SK_SCALE, SK_MAX_REPETITION, SK_MIN_REPETITION, SK_MULTIPLE_OF,
    SK_TIME_MEASUREMENT, SK_TIME_SUITE, SK_NODE_TIMES, SK_CUT_QUANTILE, SK_DEFAULT_CHUNKS,
    SK_DEFAULT_MESSAGE_LENGTH, SK_START_ARGUMENT, SK_END_ARGUMENT, SK_STEPWIDTH,
    SK_MAX_STEPS, SK_MIN_DISTANCE, SK_MAX_DISTANCE, SK_STANDARD_ERROR, SK_SYNCHRONIZATION,
    SK_NKEYS
};

/* Suite defaults (Default_Value). */
#define SK_DEF_MIN_REPETITION 8
#define SK_DEF_MAX_REPETITION 40
#define SK_DEF_CUT_QUANTILE 0.1
#define SK_DEF_STANDARD_ERROR 0.03
#define SK_DEF_MAX_STEPS 64
#define SK_DEF_STEPWIDTH 2.0
#define SK_DEF_MESSAGE_LENGTH 256
#define SK_DEF_CACHEWARMUP 5
#define SK_DEF_MEMORY_KB 4096
/* Upper bounds that keep the arithmetic on the values inside its types:
 * @MEMORY in bytes (a size_t, halved into two buffers), the refinement's
 * point array of Max_Steps (an int count, allocated up front). */
#define SK_MAX_MEMORY_KB (1L << 30)
#define SK_MAX_STEPS_LIMIT 1000000L

typedef struct {
    char name[128];
    int line;               /* line of the suite's name */
    int key_line[SK_NKEYS]; /* 0: key not given */
    int type;
    int basetype;           /* 1-based @BASETYPEn */
    int send_datatype, recv_datatype;
    enum sk_variation variation;
    enum sk_scale scale;
    long max_rep, min_rep;
    long multiple_of;       /* bytes; 0: the base type's size */
    double time_measurement; /* seconds per measurement, <= 0: no limit */
    double time_suite;       /* seconds per suite, <= 0: no limit */
    int node_times;
    double cut_quantile;
    long default_chunks;     /* 0: one chunk per worker */
    long default_length;     /* bytes */
    double start;            /* bytes / processes / chunks */
    double end;
    int end_is_max;          /* End_Argument = Max_Value (or not given) */
    double stepwidth;
    long max_steps;
    double min_distance;     /* 0: none */
    double max_distance;     /* <= 0: none (Invalid_Value) */
    double standard_error;
    enum sk_sync sync;
} sk_suite;

#define SK_MAX_BASETYPES 16

typedef struct {
    char path[512];
    char machine[256], node[256], network[256], mpiversion[256], user[256];
    long memory_kb;
    char outfile[512], logfile[512];
    int postproc;
    int cachewarmup;
    char basetype[SK_MAX_BASETYPES + 1][64]; /* [1..]: text after @BASETYPEn, "" if unset */
    int basetype_line[SK_MAX_BASETYPES + 1];
    int nsuites;
    sk_suite *suites;
} sk_config;

#endif
