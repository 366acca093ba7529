/* b_eff_io reporters: the protocol on stdout in the layout of b_eff_io 2.1's
 * .prot and .sum files, and the JSON Lines records.  Rank 0 only; nothing
 * here measures. */
#include "beffio/beff_io_report.h"

#include "core/component_names.h"
#include "core/error.h"
#include "core/report/jsonl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The names the original prints in its per-type total lines. */
static const char *const total_names[BIO_NTYPES] = {"scatter", "shared", "separated", "segmented",
                                                    "seg_coll"};

static double mb(long long bytes) { return bytes / 1e6; }

/* Global pattern number across the types, as the original counts (0..42). */
static int global_pattern(const bio_run *r, int t, int p)
{
    int g = p;
    for (int u = 0; u < t; u++)
        g += r->tab[u].npat;
    return g;
}

static double t_partition(const bio_run *r) { return r->T / r->nparts; }

void bio_print_header(const bio_run *r)
{
    printf("b_eff_io (effbench %s), after b_eff_io.c, Revision 2.1 from Dec. 12, 2001\n\n",
           EFFBENCH_VERSION);
    printf("MEMORY_PER_PROCESSOR = %4lld MBytes  [1MBytes = 1024*1024 bytes, 1MB = 1e6 bytes]%s\n",
           r->mem_mib, r->mem_detected ? "" : "  (given)");
    printf("Maximum chunk size   = %8.3f MBytes\n\n", r->mpart / (double)BIO_MIB);
    printf("-N ");
    for (int i = 0; i < r->nparts; i++)
        printf("%s%d", i ? "," : " ", r->parts[i]);
    printf(" T=%g, MT=%lld MBytes%s%s\n", r->T, r->mem_total_mib,
           r->rewrite0 ? ", rewrite type 0 only" : "", r->check ? ", --check" : "");
    printf("PATH=%s, PREFIX=%s\n", r->path, r->prefix);
    if (r->hints_path)
        printf("HINTS=%s (%d hints)\n", r->hints_path, r->nhints);
    printf("       system name : %s\n", r->si.sysname);
    printf("       hostname    : %s\n", r->si.nodename);
    printf("       OS release  : %s\n", r->si.release);
    printf("       OS version  : %s\n", r->si.version);
    printf("       machine     : %s\n\n", r->si.machine);
    printf("Date of measurement: %s\n\n", r->si.date);
    fflush(stdout);
}

void bio_print_table_head(void)
{
    static const char *rule =
        "-----+---+------+----+--------+----------+----------+----------------+-------+-------------+-------+-------+------+-----+-----+-------+----------------";
    printf("\n%s\n", rule);
    printf("num. acc-| pat- |pat-|scheduled     chunk|     chunk|filename        | repeat|  transferred|  meas-|=sum of|termi-|barr-|file-|termin.| measured       \n");
    printf("of   |ess| tern |tern|  time  |      size|      size|                | factor|   MB of this|  ured |   I/O |nation|ier  |sync |checks | bandwidth      \n");
    printf("PEs  |   | type |    | [sec]  |   on disk| in memory|                |       |      pattern|  time |       |check |     |     |       | of this pattern\n");
    printf("%s\n", rule);
    fflush(stdout);
}

void bio_print_type(const bio_run *r, const bio_part *pt, int a, int t)
{
    const bio_type_res *tr = &pt->res[a][t];
    for (int p = 0; p < tr->npat; p++) {
        const bio_pat_res *q = &tr->pat[p];
        double barrier = q->t - q->t_io - q->t_check - q->t_sync;
        if (barrier < 0)
            barrier = 0;
        printf("n=%-3d a=%d type=%d p=%2d Tp=%5.2f l=%8lld L=%8lld %-16.16s r=%5lld S=%8.3f MB "
               "t=%5.2f = %5.3f+%6.3f+%5.3f+%5.3f  b=%3d bw=%8.3f MB/s\n",
               pt->n, a, t, global_pattern(r, t, p), q->sched_s, q->l, q->L,
               tr->file + strlen(r->prefix) + 1, q->reps,
               mb(q->bytes), q->t, q->t_io, q->t_check, barrier, q->t_sync, q->batches,
               q->t > 0 ? mb(q->bytes) / q->t : 0.0);
    }
    printf(" total pattern type:  S=%.3f MB  t=%.2f t_op=%.2f t_cl=%.2f b_eff_io_%s_%s=%9.3f MB/s",
           mb(tr->bytes), tr->t, tr->t_open, tr->t_close, bio_access_names[a], total_names[t],
           tr->bw);
    if (t >= 3)
        printf(" Lseg=%lld MBytes", pt->lseg / BIO_MIB);
    if (tr->verified_bytes >= 0)
        printf(" read back=%.3f MB", mb(tr->verified_bytes));
    if (tr->errors)
        printf(" ERRORS=%lld", tr->errors);
    printf("\n");
    /* --hints: each hint of this type with the value MPI_File_get_info
     * reported after the open (rank 0's file) */
    int first = 1;
    for (int h = 0; h < r->nhints; h++) {
        if (!(r->hints[h].types & (1 << t)))
            continue;
        printf("%s %s=%s", first ? "   hints in use:" : ",", r->hints[h].key,
               r->hint_found[h] ? r->hint_used[h] : "(not reported)");
        if (!r->hint_found[h] || strcmp(r->hint_used[h], r->hints[h].value) != 0)
            printf(" (given %s)", r->hints[h].value);
        first = 0;
    }
    if (!first)
        printf("\n");
    fflush(stdout);
}

void bio_print_method(const bio_run *r, const bio_part *pt, int a)
{
    long long bytes = 0;
    double t = 0, bw[BIO_NTYPES];
    for (int ty = 0; ty < BIO_NTYPES; ty++) {
        bytes += pt->res[a][ty].bytes;
        t += pt->res[a][ty].t;
        bw[ty] = pt->res[a][ty].bw;
    }
    double value = (a == BIO_REWRITE && r->rewrite0) ? bw[0] : bio_method_value(bw);
    printf(" total access method: S=%.3f MB  t=%.2f (Tn=%gsec) bw=%9.3f MB/s, b_eff_io_%s=%9.3f MB/s\n",
           mb(bytes), t, t_partition(r), t > 0 ? mb(bytes) / t : 0.0, bio_access_names[a], value);
    fflush(stdout);
}

/* Row r of the summary table: the pattern of type t with that chunk size. */
static const bio_pat_res *row_pattern(const bio_run *r, const bio_type_res *tr, int t, int row)
{
    for (int p = 0; p < tr->npat; p++)
        if (r->tab[t].pat[p].row == row)
            return &tr->pat[p];
    return NULL;
}

int bio_valid(const bio_run *r, char *buf, size_t len)
{
    double minutes = t_partition(r) / 60.0;
    int ok = minutes >= BIO_VALID_MINUTES && r->errors == 0;
    buf[0] = 0;
    if (minutes < BIO_VALID_MINUTES)
        snprintf(buf + strlen(buf), len - strlen(buf), "scheduled time %.2f min < %.0f min",
                 minutes, BIO_VALID_MINUTES);
    if (r->errors)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%lld I/O errors", buf[0] ? "; " : "",
                 r->errors);
    return ok;
}

double bio_measured_seconds(const bio_run *r)
{
    double s = 0;
    for (int i = 0; i < r->nparts; i++)
        for (int a = 0; a < BIO_NACCESS && !r->part[i].kept; a++)
            s += r->part[i].method_time[a];
    return s;
}

static void print_partition(const bio_run *r, const bio_part *pt)
{
    static const char *pos_names[BIO_NROWS] = {"1", "2", "3", "4", "5", "6", "7"};
    printf("\nSummary of file I/O bandwidth accumulated on %3d processes with %4lld MByte/PE\n",
           pt->n, r->mem_mib);
    printf("-----------------------------------------------------------------------------\n\n");
    printf(" number pos chunk-   access   type=0   type=1   type=2   type=3   type=4\n");
    printf(" of PEs     size (l) methode scatter  shared  separate segmened seg-coll\n");
    printf("            [bytes]  methode  [MB/s]   [MB/s]   [MB/s]   [MB/s]   [MB/s]\n");
    printf(" -----------------------------------------------------------------------\n");
    static const int row_of_pos[BIO_NROWS] = {0, 1, 2, 3, 4, 5, 6};
    for (int a = 0; a < BIO_NACCESS; a++) {
        printf("\n");
        for (int i = 0; i < BIO_NROWS; i++) {
            int row = row_of_pos[i];
            long long l = 0;
            const bio_pat_res *q0 = row_pattern(r, &pt->res[a][0], 0, row);
            for (int t = 0; t < BIO_NTYPES && !l; t++) {
                const bio_pat_res *q = row_pattern(r, &pt->res[BIO_WRITE][t], t, row);
                if (q)
                    l = q->l;
            }
            if (q0 && !l)
                l = q0->l;
            printf("%4d PEs %s %8lld %-7s", pt->n, pos_names[i], l, bio_access_names[a]);
            for (int t = 0; t < BIO_NTYPES; t++) {
                const bio_type_res *tr = &pt->res[a][t];
                const bio_pat_res *q = tr->ran ? row_pattern(r, tr, t, row) : NULL;
                if (q && q->t > 0)
                    printf(" %8.3f", mb(q->bytes) / q->t);
                else
                    printf(" %8s", "-");
            }
            printf("\n");
        }
        printf("%4d PEs      total-%-7s", pt->n, bio_access_names[a]);
        for (int t = 0; t < BIO_NTYPES; t++) {
            if (pt->res[a][t].ran)
                printf(" %8.3f", pt->res[a][t].bw);
            else
                printf(" %8s", "-");
        }
        printf("\n");
    }
    const bio_pat_res *p2[BIO_NACCESS];
    for (int a = 0; a < BIO_NACCESS; a++)
        p2[a] = &pt->res[a][0].pat[2];
    printf("\nThis table shows all results, except pattern 2 (scatter, l=1MBytes, L=2MBytes): \n");
    printf("  bw_pat2=%9.3f MB/s write,%9.3f MB/s rewrite,%9.3f MB/s read\n\n",
           mb(p2[0]->bytes) / p2[0]->t, mb(p2[1]->bytes) / p2[1]->t, mb(p2[2]->bytes) / p2[2]->t);
    for (int a = 0; a < BIO_NACCESS; a++)
        printf("weighted average bandwidth for %-8s: %8.3f MB/s on %d processes\n",
               bio_access_names[a], pt->method[a], pt->n);
    printf("(type=0 is weighted double%s)\n\n",
           r->rewrite0 ? "; rewrite: type 0 only, release 2.0 mode" : "");
    long long wb = pt->method_bytes[BIO_WRITE];
    printf("Total amount of data written/read with each access method: %.3f MBytes\n",
           wb / (double)BIO_MIB);
    printf("  = %.1f percent of the total memory (%lld MBytes)\n\n",
           100.0 * wb / (double)BIO_MIB / (double)r->mem_total_mib, r->mem_total_mib);
    if (r->fs_cache_mib > 0) {
        for (int a = 0; a < BIO_NACCESS; a++) {
            double moved = pt->method_bytes[a] / (double)BIO_MIB;
            if (moved < 20 * r->fs_cache_mib) {
                printf("WARNING: %s moved %.1f MBytes < 20 x file-system cache (%.1f MBytes): "
                       "the value may measure the cache, not the disks\n",
                       bio_access_names[a], moved, r->fs_cache_mib);
                eb_warn("b_eff_io: %d processes, %s moved %.1f MiB < 20 x --fs-cache %.1f MiB",
                        pt->n, bio_access_names[a], moved, r->fs_cache_mib);
            }
        }
    }
    printf("b_eff_io of these measurements = %8.3f MB/s on %d processes with %3lld MByte/PE and "
           "scheduled time=%.1f min\n",
           pt->value, pt->n, r->mem_mib, t_partition(r) / 60.0);
    printf("b_eff_io by release 2.1's formula sqrt(W*R) = %8.3f MB/s (for comparison with "
           "published 2.1 numbers)\n\n", pt->rel21);
    double minutes = t_partition(r) / 60.0;
    int ok = minutes >= BIO_VALID_MINUTES && pt->errors == 0;
    printf("%s for comparison of different systems\n", ok ? "VALID" : "NOT VALID");
    printf("  criterion 1: scheduled time %.1f min >= %.0f min -- %s\n", minutes,
           BIO_VALID_MINUTES, minutes >= BIO_VALID_MINUTES ? "reached" : "NOT reached");
    printf("  criterion 2: shared file pointers must be used for pattern type 1 -- reached\n");
    printf("  criterion 3: error count (%lld) == 0 -- %s\n", pt->errors,
           pt->errors == 0 ? "reached" : "NOT reached");
}

void bio_print_summary(const bio_run *r)
{
    printf("\n");
    for (int i = 0; i < r->nparts; i++) {
        const bio_part *pt = &r->part[i];
        long long s = 0;
        double t = 0;
        for (int a = 0; a < BIO_NACCESS; a++) {
            s += pt->method_bytes[a];
            t += pt->method_time[a];
        }
        printf(" total partition: n=%-3d S=%.3f MB  t=%.2f bw=%9.3f MB/s, b_eff_io=%9.3f MB/s\n",
               pt->n, mb(s), t, t > 0 ? mb(s) / t : 0.0, pt->value);
    }
    double measured = bio_measured_seconds(r);
    for (int i = 0; i < r->nparts; i++)
        if (r->part[i].kept)
            printf(" (partition n=%d: read back by --resume from %s, not in the times below)\n",
                   r->part[i].n, r->json_path);
    printf(" total execution time is %7.2f sec (scheduled T=%g sec); %.2f sec from open to close "
           "of the pattern types, %.2f sec (%.1f %%) outside\n",
           r->elapsed, r->T, measured, r->elapsed - measured,
           100.0 * (r->elapsed - measured) / r->elapsed);
    for (int i = 0; i < r->nparts; i++)
        print_partition(r, &r->part[i]);
    char why[256];
    int valid = bio_valid(r, why, sizeof why);
    printf("\nMaximum over all number of PEs\n------------------------------\n\n");
    printf(" b_eff_io (release 2.1 formula sqrt(W*R)) = %8.3f MB/s on %d processes\n",
           r->rel21, r->part[r->best21].n);
    printf(" b_eff_io := maximum over all bw_partition = %8.3f MB/s\n\n", r->b_eff_io);
    printf(" b_eff_io = %8.3f MB/s on %d processes with %3lld MByte/PE, scheduled time=%.1f Min, "
           "on %s %s %s %s %s%s\n",
           r->b_eff_io, r->part[r->best].n, r->mem_mib, t_partition(r) / 60.0, r->si.sysname,
           r->si.nodename, r->si.release, r->si.version, r->si.machine,
           valid ? "" : ", NOT VALID (see above)");
    fflush(stdout);
}

/* The contract's core result fields (docs/json-lines.md) in their usual order.
 * b_eff_io measures one time per pattern (t_us, slowest process, all calls),
 * not a time per repetition: t_min/t_max/t_avg_us are null.  A type's total
 * has no single chunk size and no repetition count: bytes 0, repetitions null. */
static void json_core(eb_json *j, const bio_part *pt, int t, long long bytes, long long reps)
{
    eb_json_str(j, "component", EB_COMPONENT_BEFF_IO);
    eb_json_str(j, "benchmark", bio_type_names[t]);
    eb_json_null(j, "group");
    eb_json_null(j, "mode");
    eb_json_int(j, "procs", pt->n);
    eb_json_int(j, "bytes", bytes);
    if (reps >= 0)
        eb_json_int(j, "repetitions", reps);
    else
        eb_json_null(j, "repetitions");
    eb_json_null(j, "t_min_us");
    eb_json_null(j, "t_max_us");
    eb_json_null(j, "t_avg_us");
    eb_json_null(j, "mbytes_per_s");
    eb_json_null(j, "defects");
}

void bio_json_type(const bio_run *r, const bio_part *pt, int a, int t)
{
    if (!eb_jsonl_active())
        return;
    const bio_type_res *tr = &pt->res[a][t];
    for (int p = 0; p < tr->npat; p++) {
        const bio_pat_res *q = &tr->pat[p];
        eb_json j;
        eb_jsonl_begin(&j, "result");
        json_core(&j, pt, t, q->l, q->reps);
        eb_json_str(&j, "level", "pattern");
        eb_json_str(&j, "access", bio_access_names[a]);
        eb_json_int(&j, "pattern_type", t);
        eb_json_int(&j, "pattern", global_pattern(r, t, p));
        eb_json_int(&j, "chunk_disk_bytes", q->l);
        eb_json_int(&j, "chunk_mem_bytes", q->L);
        eb_json_int(&j, "units", q->U);
        eb_json_bool(&j, "filler", r->tab[t].pat[p].filler);
        eb_json_num(&j, "scheduled_s", q->sched_s);
        eb_json_int(&j, "batches", q->batches);
        eb_json_int(&j, "moved_bytes", q->bytes);
        eb_json_num(&j, "t_us", q->t * 1e6);
        eb_json_num(&j, "t_io_us", q->t_io * 1e6);
        eb_json_num(&j, "t_check_us", q->t_check * 1e6);
        eb_json_num(&j, "t_sync_us", q->t_sync * 1e6);
        eb_json_num(&j, "mb_per_s", q->t > 0 ? q->bytes / q->t / 1e6 : NAN); /* null */
        eb_json_str(&j, "file", tr->file);
        if (t >= 3)
            eb_json_int(&j, "segment_bytes", pt->lseg);
        eb_jsonl_emit(&j);
    }
    eb_json j;
    eb_jsonl_begin(&j, "result");
    json_core(&j, pt, t, 0, -1);
    eb_json_str(&j, "level", "type");
    eb_json_str(&j, "access", bio_access_names[a]);
    eb_json_int(&j, "pattern_type", t);
    eb_json_int(&j, "moved_bytes", tr->bytes);
    eb_json_num(&j, "t_us", tr->t * 1e6);
    eb_json_num(&j, "t_open_us", tr->t_open * 1e6);
    eb_json_num(&j, "t_close_us", tr->t_close * 1e6);
    eb_json_num(&j, "mb_per_s", tr->bw);
    eb_json_int(&j, "errors", tr->errors);
    if (tr->verified_bytes >= 0)
        eb_json_int(&j, "verified_bytes", tr->verified_bytes);
    else
        eb_json_null(&j, "verified_bytes");
    eb_json_array(&j, "hints");
    for (int h = 0; h < r->nhints; h++) {
        if (!(r->hints[h].types & (1 << t)))
            continue;
        eb_json_object(&j, NULL);
        eb_json_str(&j, "key", r->hints[h].key);
        eb_json_str(&j, "given", r->hints[h].value);
        eb_json_str(&j, "used", r->hint_found[h] ? r->hint_used[h] : NULL);
        eb_json_close(&j);
    }
    eb_json_close(&j);
    eb_json_str(&j, "file", tr->file);
    if (t >= 3)
        eb_json_int(&j, "segment_bytes", pt->lseg);
    eb_jsonl_emit(&j);
}

void bio_json_summary(const bio_run *r)
{
    if (!eb_jsonl_active())
        return;
    char why[256];
    int valid = bio_valid(r, why, sizeof why);
    eb_json j;
    eb_jsonl_begin(&j, "summary");
    eb_json_str(&j, "component", EB_COMPONENT_BEFF_IO);
    eb_json_num(&j, "b_eff_io_mb_per_s", r->b_eff_io);
    eb_json_int(&j, "procs", r->part[r->best].n);
    eb_json_num(&j, "b_eff_io_rel21_mb_per_s", r->rel21);
    eb_json_int(&j, "mem_per_proc_mib", r->mem_mib);
    eb_json_int(&j, "mem_total_mib", r->mem_total_mib);
    eb_json_num(&j, "T_s", r->T);
    eb_json_num(&j, "T_partition_s", t_partition(r));
    eb_json_bool(&j, "rewrite_type0_only", r->rewrite0);
    eb_json_int(&j, "errors", r->errors);
    eb_json_bool(&j, "valid", valid);
    eb_json_str(&j, "invalid_reason", valid ? NULL : why);
    eb_json_num(&j, "elapsed_s", r->elapsed);
    eb_json_num(&j, "measured_s", bio_measured_seconds(r));
    eb_json_array(&j, "partitions");
    for (int i = 0; i < r->nparts; i++) {
        const bio_part *pt = &r->part[i];
        eb_json_object(&j, NULL);
        eb_json_int(&j, "procs", pt->n);
        eb_json_num(&j, "write_mb_per_s", pt->method[BIO_WRITE]);
        eb_json_num(&j, "rewrite_mb_per_s", pt->method[BIO_REWRITE]);
        eb_json_num(&j, "read_mb_per_s", pt->method[BIO_READ]);
        eb_json_num(&j, "b_eff_io_mb_per_s", pt->value);
        eb_json_num(&j, "b_eff_io_rel21_mb_per_s", pt->rel21);
        eb_json_int(&j, "write_bytes", pt->method_bytes[BIO_WRITE]);
        eb_json_int(&j, "rewrite_bytes", pt->method_bytes[BIO_REWRITE]);
        eb_json_int(&j, "read_bytes", pt->method_bytes[BIO_READ]);
        eb_json_int(&j, "segment_bytes", pt->lseg);
        eb_json_int(&j, "errors", pt->errors);
        eb_json_close(&j);
    }
    eb_json_close(&j);
    eb_jsonl_emit(&j);
}
