/* IMB-P2P 2021.11's text (p2p_text.c). */
#ifndef EB_IMBP2P_TEXT_H
#define EB_IMBP2P_TEXT_H

#include "imbp2p/p2p.h"

#include <stdio.h>

/* One row of a table, with the figures IMB-P2P derives from the slowest
 * rank's loop time and the sum of all ranks' loop times. */
typedef struct {
    size_t bytes;
    long repetitions;       /* the repetitions of the length (n) */
    long warm_up;
    long long messages;     /* all ranks' counted messages / 2 */
    double time_max_s;      /* the slowest rank's timed loop */
    double time_sum_s;      /* all ranks' timed loops added */
    double t_usec;          /* 10^6 time_sum_s / (messages * latency_factor) */
    double mb_per_s;        /* messages * bytes / (10^6 time_max_s) */
    double messages_per_s;  /* messages / time_max_s */
    long defects;           /* -check: bytes that differ; else -1 */
} p2p_row;

/* effbench's additions, printed after IMB's usage text. */
#define P2P_EFFBENCH_HELP                                                                  \
    "# effbench adds:\n"                                                                   \
    "#                [-check]        verify every received byte (an untimed step)\n"     \
    "#                [--json FILE]   JSON Lines records (docs/json-lines.md)\n"          \
    "#                [--resume FILE] continue the run of a --json FILE\n"                \
    "#                [--row-timeout SECONDS]\n"                                          \
    "#                [--expect-placement WHERE] same-node, different-nodes, same-socket, "  \
    "different-sockets\n"                                                                 \
    "#\n"

void p2p_text_title(FILE *f);
void p2p_text_help(FILE *f, const char *topic);
void p2p_text_list(FILE *f);
void p2p_text_header(FILE *f, const p2p_options *o, int argc, char **argv);
void p2p_text_table(FILE *f, const p2p_bench *b, const p2p_ctx *c, int check);
void p2p_text_invalid(FILE *f, const p2p_bench *b, int nranks);
void p2p_text_row(FILE *f, const p2p_row *r, int check);
void p2p_text_footer(FILE *f);

#endif
