/* The settings an IMB command line gives (eb_imb_options), the IMB
 * component they are for (eb_imb_family) and IMB 2021.11's additions
 * (eb_imb2021): the types alone, so that imb/driver/options (the parser) and
 * imb/driver/imb2021_options (IMB 2021's options, which the parser calls) both
 * use them without including each other. */
#ifndef EB_IMB_OPTION_TYPES_H
#define EB_IMB_OPTION_TYPES_H

#include "core/buffers.h"
#include "core/device.h"
#include "imb/driver/repeat.h"
#include "imb/driver/sizes.h"

#include <stddef.h>

struct eb_imb_options;
struct eb_bench;

/* IMB 2021's -data_type / -red_data_type (imb/driver/imb2021_options.c). */
typedef enum { EB_DT_BYTE, EB_DT_CHAR, EB_DT_INT, EB_DT_FLOAT, EB_DT_DOUBLE, EB_DT_N } eb_dtype;
/* IMB 2021's -aggregate_mode: both tables (multi, the guide's), or one. */
/* IMB 2021's -contig_type of IMB-MPI1 (imb/driver/msg_layout.h). */
typedef enum { EB_CONTIG_BASE, EB_CONTIG_BASE_VEC, EB_CONTIG_RESIZE, EB_CONTIG_RESIZE_VEC } eb_contig;
typedef enum { EB_AGGR_BOTH, EB_AGGR_ONLY_AGGREGATE, EB_AGGR_ONLY_NONAGGREGATE } eb_aggr_mode;

/* The options IMB 2021.11 added to the 4.0 guide's.  -1 ("not given")
 * keeps the guide's behaviour, which effbench follows by default. */
typedef struct {
    int root_shift;      /* -1: root i % np (guide); 0: root 0; 1: root shifts by one */
    int sync;            /* -1: the guide's loop timing; 0/1: each repetition timed on its
                            own (collectives), 1 with a barrier after each one */
    int imb_barrier;     /* 1: IMB's dissemination barrier instead of MPI_Barrier */
    int zero_size;       /* 0: no 0-byte row */
    int warm_up;         /* -1: the guide's N_WARMUP; 0: none; 1: IMB 2021's per length */
    int msg_pause;       /* 1: pause after each length (a tenth of its time, >= 0.1 s) */
    eb_dtype data_type, red_data_type;
    eb_contig contig_type; /* the message layout (imb/driver/msg_layout.h) */
    int window_size;     /* -window_size (Uni_band / Bi_band), IMB's default 256 */
    eb_aggr_mode aggregate_mode;
    int list;            /* -list: print the benchmark list and stop */
    int msgsize_given;   /* -msgsize: lengths given on the command line */
    int defaults2021;    /* --imb-defaults 2021 / EFFBENCH_IMB_DEFAULTS=2021: IMB 2021.11's
                            defaults and text (0: the 4.0 guide's) */
    int defaults_given;  /* --imb-defaults on the command line */
    char env_defaults[32]; /* rank 0's EFFBENCH_IMB_DEFAULTS ("" unset), for every rank */
    const char *dump_path; /* -dump FILE: the options as IMB's YAML (imb/driver/imb_yaml.h) */
    const char *load_path; /* -load FILE: read before the command line (the driver) */
    unsigned given;      /* bit per IMB 2021 option given (run record) */
} eb_imb2021;

/* How IMB 2021.11's program of a component prints its header, where the
 * five differ (src_cpp/<X>/<X>_suite.cpp): --imb-defaults 2021 copies it. */
typedef struct {
    int cmd_space;     /* "# CMDLINE \n" (IMB-MPI1, IMB-RMA) or "# CMDLINE\n" */
    int min_zero_size; /* minimum length 2^min under -zero_size off (IMB-MPI1, IMB-NBC);
                          others print 0 */
    int typed;         /* MPI_Datatype lines name -data_type / -red_data_type, with a
                          blank after each (IMB-MPI1); others "MPI_BYTE " and "MPI_FLOAT" */
    int close_space;   /* the two comment lines before the list: "# " (IMB-MPI1,
                          IMB-RMA) or "#" */
    int banner_newline_lost; /* IMB-IO 2021.11 prints "partn" and no newline */
} eb_imb2021_text;

/* IMB 2021.11's GPU build of a program (make IMB-MPI1-GPU / IMB-RMA-GPU:
 * the program built with GPU_ENABLE, src_c/IMB_gpu_common.c), which
 * effbench runs under the GPU program's name (imb/driver/gpu.h). */
typedef struct {
    const char *program;        /* "IMB-MPI1-GPU" */
    const char *part;           /* the banner's part: "MPI-1 part (GPU)" */
    const char *const *without; /* NULL-terminated: benchmarks the GPU build leaves out */
} eb_imb_gpu;

/* An IMB component: its name, banner and IMB_settings defaults. */
typedef struct eb_imb_family {
    const char *component;  /* "mpi1" */
    const char *program;    /* "IMB-MPI1" */
    const char *part;       /* "MPI-1 part" */
    eb_iter_settings iter;  /* MSGSPERSAMPLE, OVERALL_VOL, MSGS_NONAGGR, policy, secs */
    int minmsglog, maxmsglog;
    /* Optional: the family's own options.  Returns 1 if argv[*i] was consumed
     * (advancing *i past its values), 0 if not the family's, -1 on error. */
    int (*parse_option)(struct eb_imb_options *o, int argc, char **argv, int *i,
                        char *err, size_t errlen);
    /* Optional: header lines and JSON options of the family's own settings. */
    void (*print_settings)(const struct eb_imb_options *o);
    /* Optional: lines IMB 2021.11's program prints after the benchmark list
     * (--imb-defaults 2021; IMB-IO: the CPU_Exploit rate for its I-flavours). */
    void (*print_after_list2021)(const struct eb_imb_options *o, const struct eb_bench **list,
                                 int n);
    const char *help_extra; /* help lines for the family's own options, or NULL */
    /* What the header calls a length ("io portion" for IMB-IO, whose header
     * has no MPI_Datatype lines); NULL: "message length". */
    const char *size_label;
    int default_npmin;      /* smallest process count without -npmin; 0: IMB-MPI1's 2 */
    /* eb_mpi_feature bits (core/mpi_features.h) the family's calls need: a
     * library without them refuses the program (IMB-MPI4: MPI_*_init). */
    unsigned needs;
    /* A program of IMB 2021 alone (IMB-MPI4), with no guide behaviour to keep:
     * IMB 2021's -sync on and -warm_up on when they are not given. */
    int imb2021_defaults;
    eb_imb2021_text text2021; /* its header under --imb-defaults 2021 */
    /* IMB 2021.11's -iter and -msglog defaults where they are not the 4.0 ones
     * (IMB-IO: 1000,40,100 and 0:22); zero: the same */
    eb_iter_settings iter2021;
    int maxmsglog2021;
    /* The component eb_register_imb_family makes: its `effbench --help` line
     * and place in that list. */
    const char *summary;
    int order;
    /* Optional: the family's own settings (family_opts), made with their
     * defaults for every parse and freed with the options. */
    void *(*options_new)(void);
    void (*options_free)(void *family_opts);
    /* Optional: IMB 2021.11's GPU build of the program, an alias of the
     * component that puts the buffers on a GPU */
    const eb_imb_gpu *gpu;
} eb_imb_family;

typedef struct eb_imb_options {
    const eb_imb_family *family;
    char **names;  int nnames;     /* benchmark names given (positional, -input) */
    char **include; int ninclude;
    char **exclude; int nexclude;
    int npmin;                     /* 0: default */
    int multi;                     /* -1: not given; 0 or 1: outflag */
    eb_cache cache;                /* -off_cache */
    eb_iter_settings iter;
    double mem_gb;                 /* -mem */
    const char *input_file;
    const char *msglen_file;
    eb_sizes msglen;               /* lengths from -msglen (after loading) */
    int msglog_min, msglog_max;    /* effective min/max log */
    int map_p, map_q;              /* -map, 0 if not given */
    int thread_level;              /* requested MPI_THREAD_*, -1 if not given */
    int check;                     /* -check */
    int repeat;                    /* -repeat N: timed loops per row (1 = IMB) */
    int sync_window;               /* -sync_method window (1) or barrier (0, IMB) */
    int clock_sync;                /* -clock_sync: eb_clock_method of the window's clocks */
    int clock_sync_given;          /* refused without -sync window */
    eb_imb2021 imb21;              /* IMB 2021.11's options */
    int quick;                     /* `effbench quick`: loops until -epsilon is met */
    double epsilon;                /* quick: relative standard error to reach */
    int time_given;                /* -time was on the command line */
    int epsilon_given;             /* -epsilon was: refused outside quick mode */
    const char *json_path;         /* --json */
    int resume;                    /* --resume FILE: json_path is appended to */
    int help;
    void *family_opts;             /* the family's own settings */
    const eb_imb_gpu *gpu;         /* run as the GPU program (IMB-MPI1-GPU), else NULL */
    eb_mem_kind mem;               /* where the message buffers live: -mem_alloc_type of
                                      the GPU program (default device), else host */
    const char *mem_alloc_type;    /* its word: "device", "host", "shared" or "cpu" */
} eb_imb_options;

#endif
