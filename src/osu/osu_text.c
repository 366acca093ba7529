#include "osu/osu_text.h"

#include "osu/osu_accel.h"
#include "osu/osu_options.h"

#include <string.h>

#define W OSU_FIELD_WIDTH
#define P OSU_FLOAT_PRECISION

void osu_text_title_as(const osu_prog *p, const char *accel, FILE *f)
{
    fputs("# ", f);
    fprintf(f, p->title, accel); /* "%s": OSU's accelerator suffix, "-CUDA" */
    fprintf(f, " v%s\n", OSU_VERSION);
}

void osu_text_title(const osu_prog *p, FILE *f) { osu_text_title_as(p, "", f); }

void osu_text_datatype(const osu_ctx *c, FILE *f)
{
    fprintf(f, "# Datatype: %s.\n", osu_dtype_name(c->dtype));
}

void osu_text_preamble(const osu_ctx *c, FILE *f)
{
    int nbc = c->prog->row == OSU_ROW_NBC;
    fputc('\n', f);
    osu_text_title_as(c->prog, osu_accel_title(c->o, nbc ? OSU_TITLE_NBC : OSU_TITLE_PREAMBLE), f);
    if (nbc)
        fputs("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n", f);
    osu_accel_staging_line(c->o, f);
}

void osu_text_percentile_titles(const osu_options *o, int bw, FILE *f)
{
    const char *unit = bw ? "Tail BW(MB/s)" : "Tail Lat(us)";
    /* OSU pads each to the field width as if the percentile had one digit,
     * less one for two digits */
    int base = (int)strlen("Px ") + (int)strlen(unit);
    for (int k = 0; k < o->npercentiles; k++) {
        int pad = W - base - (o->percentiles[k] > 9);
        fprintf(f, "%*sP%d %s", pad > 0 ? pad : 0, "", o->percentiles[k], unit);
    }
}

void osu_text_percentile_values(const osu_options *o, const osu_row *row, FILE *f)
{
    for (int k = 0; k < o->npercentiles; k++)
        fprintf(f, "%*.*f", W, P, row->percentiles[k]);
}

void osu_text_validation(const osu_row *row, FILE *f)
{
    fprintf(f, "%*s", W, row->defects > 0 ? "Fail" : "Pass");
}

static void header_latency(const osu_ctx *c, FILE *f)
{
    const osu_options *o = c->o;
    int bw = c->prog->row == OSU_ROW_BANDWIDTH;
    const char *col = bw ? "Bandwidth (MB/s)" : "Avg Latency(us)";
    if (!c->prog->no_size)
        fprintf(f, "%-*s%*s", 10, "# Size", W, col);
    else
        fprintf(f, "# %s", col);
    if (o->show_full)
        fprintf(f, "%*s%*s%*s", W, "Min Latency(us)", W, "Max Latency(us)", 12, "Iterations");
    if (o->validate)
        fprintf(f, "%*s", W, "Validation");
    osu_text_percentile_titles(o, bw, f);
    if (o->ddt)
        fprintf(f, "%*s", W, "Transmit Size");
    fputc('\n', f);
}

static void header_nbc(const osu_ctx *c, FILE *f)
{
    const osu_options *o = c->o;
    if (!c->prog->no_size)
        fprintf(f, "%-*s%*s", 10, "# Size", W, "Overall(us)");
    else
        fputs("# Overall(us)", f);
    if (o->show_full)
        fprintf(f, "%*s%*s%*s%*s%*s%*s%*s%*s", W, "Compute(us)", W, "Coll. Init(us)", W,
                "MPI_Test(us)", W, "MPI_Wait(us)", W, "Pure Comm.(us)", W, "Min Comm.(us)", W,
                "Max Comm.(us)", W, "Overlap(%)");
    else
        fprintf(f, "%*s%*s%*s", W, "Compute(us)", W, "Pure Comm.(us)", W, "Overlap(%)");
    if (o->validate)
        fprintf(f, "%*s", W, "Validation");
    osu_text_percentile_titles(o, 0, f);
    if (o->ddt)
        fprintf(f, "%*s", W, "Transmit Size");
    fputc('\n', f);
}

void osu_text_header(const osu_ctx *c, FILE *f)
{
    if (c->prog->row == OSU_ROW_NBC)
        header_nbc(c, f);
    else
        header_latency(c, f);
}

/* The first value: "%-10d%20.2f", or without the size column "%{w}.2f" (OSU:
 * 17 for latency, 13 for the non-blocking barrier's overall time). */
static void first_value(const osu_ctx *c, const osu_row *row, double v, int bare_width, FILE *f)
{
    if (!c->prog->no_size)
        fprintf(f, "%-*zu%*.*f", 10, row->bytes, W, P, v);
    else
        fprintf(f, "%*.*f", bare_width, P, v);
}

static void row_latency(const osu_ctx *c, const osu_row *row, FILE *f)
{
    const osu_options *o = c->o;
    int bw = c->prog->row == OSU_ROW_BANDWIDTH;
    first_value(c, row, bw ? row->mb_per_s : row->avg_us, 17, f);
    if (o->show_full)
        fprintf(f, "%*.*f%*.*f%*ld", W, P, row->min_us, W, P, row->max_us, 12, row->iterations);
    if (o->validate)
        osu_text_validation(row, f);
    osu_text_percentile_values(o, row, f);
    if (o->ddt)
        fprintf(f, "%*zu", W, row->transmit_size);
    fputc('\n', f);
}

static void row_nbc(const osu_ctx *c, const osu_row *row, FILE *f)
{
    const osu_options *o = c->o;
    first_value(c, row, row->overall_us, 13, f);
    if (o->show_full)
        fprintf(f, "%*.*f%*.*f%*.*f%*.*f%*.*f%*.*f%*.*f%*.*f", W, P, row->compute_us, W, P,
                row->init_us, W, P, row->test_us, W, P, row->wait_us, W, P, row->pure_comm_us, W,
                P, row->min_comm_us, W, P, row->max_comm_us, W, P, row->overlap_pct);
    else
        fprintf(f, "%*.*f%*.*f%*.*f", W, P, row->compute_us, W, P, row->pure_comm_us, W, P,
                row->overlap_pct);
    if (o->validate)
        osu_text_validation(row, f);
    osu_text_percentile_values(o, row, f);
    if (o->ddt)
        fprintf(f, "%*zu", W, row->transmit_size);
    fputc('\n', f);
}

void osu_text_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    if (c->prog->row == OSU_ROW_NBC)
        row_nbc(c, row, f);
    else
        row_latency(c, row, f);
}
