/* b_eff_io: the pure parts (no MPI) — pattern table, partitions, schedule,
 * segment sizing of types 3/4, averaging rules, hints file.  The rules are
 * those of docs/beff-spec.md (section b_eff_io) and section 5 of the
 * b_eff/b_eff_io paper; docs/beff-io.md says where effbench chose. */
#ifndef EB_BEFF_IO_PLAN_H
#define EB_BEFF_IO_PLAN_H

#include <stddef.h>

#define BIO_NTYPES 5
#define BIO_MAX_PAT 9   /* type 0 has 9 patterns; types 3/4 have 8 + filler */
#define BIO_NROWS 7     /* summary rows: 1k, 1k+8, 32k, 32k+8, 1M, 1M+8, M_PART */
#define BIO_MAX_PARTS 64
#define BIO_MAX_HINTS 64
#define BIO_MIB 1048576LL

enum { BIO_WRITE, BIO_REWRITE, BIO_READ, BIO_NACCESS };

typedef struct {
    long long l;  /* contiguous chunk on disk per process, bytes */
    long long L;  /* bytes per call per process (memory chunk) */
    int U;        /* time units (0: run once) */
    int row;      /* summary-table row 0..6, -1 if not in the table */
    int filler;   /* types 3/4: completes the segment, size known only later */
} bio_pattern;

typedef struct {
    int npat;
    bio_pattern pat[BIO_MAX_PAT];
} bio_type_table;

/* Names as the original prints them in its summary table and JSON. */
extern const char *const bio_type_names[BIO_NTYPES];   /* scatter, shared, ... */
extern const char *const bio_access_names[BIO_NACCESS]; /* write, rewrite, read */

/* M_PART = max(2 MiB, M/128), at most 1 GiB, a multiple of 8 bytes (etype). */
long long bio_mpart(double mem_per_proc_bytes);

/* Table 2 of the paper for the given M_PART. */
void bio_pattern_table(long long mpart, bio_type_table tab[BIO_NTYPES]);

/* Sum of U over a type's patterns (22, 12, 10, 10, 10). */
int bio_type_units(const bio_type_table *t);

/* The default partition set of beff-spec.md for P processes; returns the count. */
int bio_default_partitions(int P, int out[BIO_MAX_PARTS]);

/* "auto" or a comma list of sizes 1..P.  Returns the count or -1 with err. */
int bio_parse_partitions(const char *s, int P, int out[BIO_MAX_PARTS], char *err, size_t errlen);

/* Scheduled time of a pattern: T_partition / 3 * U / 64 (the paper's rule). */
double bio_pattern_seconds(double T_partition, int U);

/* Next batch of the geometric series of repeat factors: `done` calls took
 * `elapsed` seconds of `target`, the last batch of `last` calls `last_s`.
 * Returns 0 to stop, else the batch size: the series doubles the total done
 * so far, capped by half the calls predicted (at the last batch's rate,
 * rounded to nearest) to fit in the remaining time, all of them when fewer
 * than 4, so the pattern ends near the target instead of overshooting by up
 * to a factor 2, and a slow-down costs at most part of the remaining time. */
long long bio_next_batch(long long done, double elapsed, double target, long long last,
                         double last_s);

/* Types 3/4 repeat factors from the write repeats of types 0..2 (rep[t][p]):
 * for each chunk size, min(type-0 repeats * L/l of the type-0 pattern with that
 * l, 10 * type-1 repeats, type-2 repeats); the segment is the bytes of all
 * these patterns rounded up to a multiple of 1 MiB; the filler writes the rest
 * once.  Fills rep34[p] for the patterns of type 3 (filler included: 1 or 0
 * when nothing is left) and returns L_seg; *filler gets the filler's bytes. */
long long bio_segment(const bio_type_table tab[BIO_NTYPES], long long rep[BIO_NTYPES][BIO_MAX_PAT],
                      long long rep34[BIO_MAX_PAT], long long *filler);

/* The result records of a run: per partition and access method, one per
 * pattern and one per pattern type (the rewrite only type 0's with
 * rewrite0).  Time-driven runs still write a fixed number of records. */
long long bio_planned_rows(const bio_type_table tab[BIO_NTYPES], int nparts, int rewrite0);

/* An access method: (2 * type0 + type1 + type2 + type3 + type4) / 6. */
double bio_method_value(const double type_bw[BIO_NTYPES]);
/* A partition: 0.25 write + 0.25 rewrite + 0.5 read. */
double bio_partition_value(double write, double rewrite, double read);
/* Release 2.1: sqrt(W * R), W = (write types 0..4 + rewrite type 0) / 6. */
double bio_rel21_value(const double write_types[BIO_NTYPES], double rewrite_type0, double read_method);

/* --hints FILE: lines `TYPES KEY VALUE`, TYPES = `all` or a comma list of
 * 0..4; `#` starts a comment. */
typedef struct {
    int types;  /* bit t set: applies to pattern type t */
    int line;   /* in the file, for messages */
    char key[256], value[256];
} bio_hint;
/* Returns the number of hints or -1 with err naming fname:line. */
int bio_parse_hints(const char *text, const char *fname, bio_hint out[BIO_MAX_HINTS], char *err,
                    size_t errlen);

/* Content of the benchmark files: the 8-byte word at byte offset `off` of a
 * file of pattern type `type` (for type 2, of rank `rank`'s file) is
 * off/8 + tag, so a file can be verified from its offsets alone. */
unsigned long long bio_word_tag(int type, int rank);

#endif
