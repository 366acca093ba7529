/* OSU 7.4's accelerator buffers (docs/gpu.md, "OSU programs"): -d cuda and -d managed, the
 * buffer letters (D, H, M, MH) and where each rank's buffers live, on the
 * device-memory seam (core/device.h), so that no OSU program calls a device
 * API itself.
 *
 *   options    which programs take -d (those whose OSU 7.4 build with
 *              accelerators does), the letters in force (osu_accel_letters)
 *   where      each side's memory kind: point-to-point and one-sided programs
 *              by rank (rank 0 OSU's SRC letter, rank 1 its DST; osu_mbw_mr and
 *              osu_multi_lat: the first half SRC, the other DST; osu_bw_fan_*:
 *              the parent node's ranks SRC, the others DST, as their setup
 *              says in c->side), collectives by -d (every rank device, or
 *              managed memory under -d managed)
 *   before     the devices opened on every rank (eb_device_open_all) and the
 *              MPI library asked whether it takes device pointers: refused
 *              (exit 2, on every rank) unless it does, or the run stages its
 *              buffers through host memory (--stage-through-host)
 *   buffers    allocation, OSU's set_buffer bytes, the checked pass's pattern
 *              and poison written through a host copy (eb_mem_from_host) and
 *              verified on one (eb_mem_to_host), outside the timed loop
 *   text/JSON  OSU's title suffix ("-CUDA"), effbench's staging line, the run
 *              record's "buffers", "accelerator", "staging", the results'
 *              "memory" */
#ifndef EB_OSU_ACCEL_H
#define EB_OSU_ACCEL_H

#include "core/component_run.h"
#include "osu/osu.h"

#include <stdio.h>

/* The program takes -d in OSU 7.4 (its accelerator build's getopt string has
 * d): point-to-point but osu_latency_mt and osu_latency_mp, osu_mbw_mr, the
 * blocking, persistent and non-blocking collectives but the neighbourhood
 * ones, one-sided. */
int osu_takes_accel(const osu_prog *p);

/* -d's value into o (OSU's words, any case): 0, or -1 with OSU's message. */
int osu_accel_take(const osu_prog *p, osu_options *o, const char *arg, char *err, size_t n);

/* After the options (parse time, no MPI): the letters a, b (NULL: none, "H H")
 * into o->src, o->dst as OSU 7.4 takes them with -d, OSU's consequences (an M
 * letter: -b multiple; a D or M letter of a point-to-point program turns -d
 * managed into -d cuda) and effbench's refusals (MD: OSU's CUDA kernels;
 * --stage-through-host without device buffers, or for a program it is not
 * built for).  0, or -1 with err. */
int osu_accel_letters(const osu_prog *p, osu_options *o, const char *a, const char *b,
                      char *err, size_t n);

/* Memory of side 0 (rank 0, OSU's SRC, "send" in the records) and side 1
 * (rank 1, DST, "recv"); every side EB_MEM_HOST without -d. */
eb_mem_kind osu_side_kind(const osu_prog *p, const osu_options *o, int side);
/* This rank's buffers. */
eb_mem_kind osu_rank_kind(const osu_ctx *c);
/* Some side's buffers are not host memory. */
int osu_on_device(const osu_prog *p, const osu_options *o);
/* This rank stages its buffers through host memory in the timed loop. */
int osu_staged(const osu_ctx *c);

/* OSU's "%s" of a title: "-CUDA", or for -d managed what OSU prints where
 * (its preamble: nothing; the non-blocking collectives' "-MANAGED"; -v's
 * "-CUDA MANAGED"); "" without -d. */
typedef enum { OSU_TITLE_PREAMBLE, OSU_TITLE_NBC, OSU_TITLE_VERSION } osu_title_at;
const char *osu_accel_title(const osu_options *o, osu_title_at at);
/* "DEVICE (D)", "HOST (H)", "MANAGED (M)" of a one-sided header's line. */
const char *osu_side_text(const osu_options *o, int side);
/* effbench's "# " line of a staged run (after OSU's title), nothing otherwise. */
void osu_accel_staging_line(const osu_options *o, FILE *f);

/* Collective, before the run record: -d's devices opened on every rank, and
 * the MPI library asked for device pointers when a side is on the device and
 * the run does not stage; a refusal exits 2 on every rank. */
void osu_accel_prepare(const osu_prog *p, const osu_options *o);
void osu_accel_release(void);
/* The run record's "buffers", "accelerator", "staging" (options). */
void osu_accel_record(const osu_prog *p, const osu_options *o, eb_run *run);
/* A result record's "memory" and "staging" (device runs only). */
void osu_accel_row_json(const osu_ctx *c, eb_json *j);

/* ---- buffers of a kind: host ones as osu_alloc's, the others on the seam ---- */
/* NULL with the seam's message (the kind, the size, the device, the driver's error) when
 * device memory runs out; _alloc aborts then (for allocations after the setup). */
void *osu_buf_try(eb_mem_kind k, size_t n, char *err, size_t errlen);
void *osu_buf_alloc(eb_mem_kind k, size_t n);
void osu_buf_free(eb_mem_kind k, void *p);
/* The checked pass's pattern (osu_fill) and its defects (the poison: core's eb_mem_poison,
 * bytes set: eb_mem_set). */
void osu_buf_fill(eb_mem_kind k, void *p, size_t n, int sender, long i);
long osu_buf_verify(eb_mem_kind k, const void *p, size_t n, int sender, long i);

#endif
