/* b_eff_io --resume (docs/beff-io.md "--resume FILE"): which partitions of
 * an interrupted run are complete in its JSON file. */
#include "beffio/beff_io_resume.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* seen[partition][access][type][pattern, or BIO_MAX_PAT for the type's total] */
typedef char bio_seen[BIO_MAX_PARTS][BIO_NACCESS][BIO_NTYPES][BIO_MAX_PAT + 1];

static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* One result record into r; returns its partition, or -1 with msg. */
static int read_row(bio_run *r, const char *row, long line, const char *path, bio_seen *seen,
                    char *old_prefix, size_t plen, char *msg, size_t msglen)
{
    char acc[16] = "", level[16] = "", file[80] = "";
    eb_jsonl_str(row, "access", acc, sizeof acc);
    eb_jsonl_str(row, "level", level, sizeof level);
    eb_jsonl_str(row, "file", file, sizeof file);
    long long n = eb_jsonl_int(row, "procs", -1), t = eb_jsonl_int(row, "pattern_type", -1);
    long long g = eb_jsonl_int(row, "pattern", -1);
    int i = -1, a = name_index(bio_access_names, BIO_NACCESS, acc);
    int pattern_level = strcmp(level, "pattern") == 0;
    for (int x = 0; x < r->nparts; x++)
        if (r->parts[x] == n)
            i = x;
    long long p = g;
    for (int u = 0; u < t && u < BIO_NTYPES; u++)
        p -= r->tab[u].npat;
    if (i < 0) {
        snprintf(msg, msglen, "--resume %s:%ld: a partition of %lld processes is not in "
                 "this run's --partitions", path, line, n);
        return -1;
    }
    if (a < 0 || t < 0 || t >= BIO_NTYPES || (!pattern_level && strcmp(level, "type")) ||
        (pattern_level && (p < 0 || p >= r->tab[t].npat)) ||
        (a == BIO_REWRITE && r->rewrite0 && t > 0)) {
        snprintf(msg, msglen, "--resume %s:%ld: not a measurement of this run (access "
                 "'%s', pattern type %lld, level '%s')", path, line, acc, t, level);
        return -1;
    }
    char *s = &(*seen)[i][a][t][pattern_level ? p : BIO_MAX_PAT];
    if (*s) {
        if (pattern_level)
            snprintf(msg, msglen, "--resume %s:%ld: pattern %lld of %s on %lld processes "
                     "is in the file twice", path, line, g, acc, n);
        else
            snprintf(msg, msglen, "--resume %s:%ld: the total of %s pattern type %lld on "
                     "%lld processes is in the file twice", path, line, acc, t, n);
        return -1;
    }
    *s = 1;
    bio_part *pt = &r->part[i];
    bio_type_res *tr = &pt->res[a][t];
    if (pattern_level) {
        bio_pat_res *q = &tr->pat[p];
        q->l = eb_jsonl_int(row, "chunk_disk_bytes", 0);
        q->L = eb_jsonl_int(row, "chunk_mem_bytes", 0);
        q->U = (int)eb_jsonl_int(row, "units", 0);
        q->sched_s = eb_jsonl_num(row, "scheduled_s");
        q->reps = eb_jsonl_int(row, "repetitions", 0);
        q->batches = (int)eb_jsonl_int(row, "batches", 0);
        q->bytes = eb_jsonl_int(row, "moved_bytes", 0);
        q->t = eb_jsonl_num(row, "t_us") * 1e-6;
        q->t_io = eb_jsonl_num(row, "t_io_us") * 1e-6;
        q->t_check = eb_jsonl_num(row, "t_check_us") * 1e-6;
        q->t_sync = eb_jsonl_num(row, "t_sync_us") * 1e-6;
    } else {
        tr->ran = 1;
        tr->npat = r->tab[t].npat;
        tr->bytes = eb_jsonl_int(row, "moved_bytes", 0);
        tr->t = eb_jsonl_num(row, "t_us") * 1e-6;
        tr->t_open = eb_jsonl_num(row, "t_open_us") * 1e-6;
        tr->t_close = eb_jsonl_num(row, "t_close_us") * 1e-6;
        tr->bw = eb_jsonl_num(row, "mb_per_s");
        tr->errors = eb_jsonl_int(row, "errors", 0);
        tr->verified_bytes = eb_jsonl_int(row, "verified_bytes", -1);
        snprintf(tr->file, sizeof tr->file, "%s", file);
        if (t == 3 && a == BIO_WRITE)
            pt->lseg = eb_jsonl_int(row, "segment_bytes", 0);
        char *cut = strstr(file, "_n");
        if (cut && !old_prefix[0] && (size_t)(cut - file) < plen)
            snprintf(old_prefix, plen, "%.*s", (int)(cut - file), file);
    }
    return i;
}

/* A partition is kept when all its pattern types of all access methods are
 * in the file with all their patterns; the rows of the others are dropped. */
static void keep_complete(bio_run *r, eb_resume *rs, bio_seen *seen, const int *part_of)
{
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        int complete = 1;
        for (int a = 0; a < BIO_NACCESS; a++)
            for (int t = 0; t < BIO_NTYPES; t++) {
                if (a == BIO_REWRITE && r->rewrite0 && t > 0)
                    continue;
                for (int p = 0; p < r->tab[t].npat; p++)
                    complete &= (*seen)[i][a][t][p];
                complete &= (*seen)[i][a][t][BIO_MAX_PAT];
            }
        pt->kept = complete;
        if (!complete) {
            memset(pt->res, 0, sizeof pt->res);
            pt->lseg = 0;
            for (int k = 0; k < rs->nrows; k++)
                if (part_of[k] == i)
                    rs->drop[k] = 1;
            continue;
        }
        pt->errors = 0;
        for (int a = 0; a < BIO_NACCESS; a++)
            for (int t = 0; t < BIO_NTYPES; t++)
                pt->errors += pt->res[a][t].errors;
    }
}

/* Rows of an unfinished partition are dropped and it is measured again from
 * its initial write: its files may hold anything the crash left.  The same
 * on every rank (all parse the same rows). */
void bio_load_resumed(bio_run *r, eb_resume *rs, const char *path, char *old_prefix, size_t plen)
{
    static bio_seen seen;
    memset(seen, 0, sizeof seen);
    int *part_of = eb_malloc(((size_t)rs->nrows + 1) * sizeof *part_of);
    char msg[EB_ERRLEN] = "";
    old_prefix[0] = 0;
    for (int k = 0; k < rs->nrows; k++) {
        part_of[k] = read_row(r, rs->rows[k], rs->line[k], path, &seen, old_prefix, plen, msg,
                              sizeof msg);
        if (part_of[k] < 0)
            eb_exit_all(EB_EXIT_USAGE, msg);
    }
    keep_complete(r, rs, &seen, part_of);
    free(part_of);
}
