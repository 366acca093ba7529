/* IMB command line: every option form of the user guide and every error. */
#include "core/clock_model.h"
#include "core/error.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/large_rows.h"
#include "imb/driver/options.h"
#include "imb/driver/plan.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static const eb_imb_family fam = {
    .component = "mpi1", .program = "IMB-MPI1", .part = "MPI-1 part",
    .iter = {1000, 40L * 1048576L, 100, EB_ITER_DYNAMIC, 10.0},
    .minmsglog = 0, .maxmsglog = 22,
};

static const eb_imb_family nbc_fam = {.component = "nbc", .program = "IMB-NBC", .maxmsglog = 22};
static const eb_imb_family rma_fam = {.component = "rma", .program = "IMB-RMA", .maxmsglog = 22};
static const eb_imb_family ext_fam = {.component = "ext", .program = "IMB-EXT", .maxmsglog = 22};
static const eb_imb_family io_fam = {.component = "io", .program = "IMB-IO", .maxmsglog = 22};

/* Parse a space-separated command line for a family's program. */
static int parse_as(const eb_imb_family *f, eb_imb_options *o, const char *line, char *err)
{
    static char buf[1024];
    static char *argv[64];
    snprintf(buf, sizeof buf, "%s %s", f->program, line);
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    eb_imb_options_init(o, f);
    err[0] = '\0';
    return eb_imb_parse(o, argc, argv, err, EB_ERRLEN);
}

static void expect_error_as(const eb_imb_family *f, const char *line, const char *message)
{
    eb_imb_options o;
    char err[EB_ERRLEN];
    CHECK_EQ_LONG(parse_as(f, &o, line, err), -1);
    CHECK_STR(err, message);
}

/* Parse a space-separated command line; returns the parser's result. */
static int parse(eb_imb_options *o, const char *line, char *err)
{
    static char buf[1024];
    static char *argv[64];
    snprintf(buf, sizeof buf, "IMB-MPI1 %s", line);
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    eb_imb_options_init(o, &fam);
    err[0] = '\0';
    return eb_imb_parse(o, argc, argv, err, EB_ERRLEN);
}

static void expect_error(const char *line, const char *message)
{
    eb_imb_options o;
    char err[EB_ERRLEN];
    int r = parse(&o, line, err);
    CHECK_EQ_LONG(r, -1);
    CHECK_STR(err, message);
}

/* IMB 2021.11's options: defaults, every value form, which program has
 * which, and -sync deciding by its value. */
static void imb2021_options(void)
{
    eb_imb_options o;
    char err[EB_ERRLEN];

    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(o.imb21.root_shift, -1); /* the guide's rotating root */
    CHECK_EQ_LONG(o.imb21.sync, -1);       /* the guide's loop timing */
    CHECK_EQ_LONG(o.imb21.warm_up, -1);    /* the guide's N_WARMUP */
    CHECK_EQ_LONG(o.imb21.zero_size, 1);
    CHECK_EQ_LONG(o.imb21.imb_barrier, 0);
    CHECK_EQ_LONG(o.imb21.window_size, 256);
    CHECK(o.imb21.data_type == EB_DT_BYTE && o.imb21.red_data_type == EB_DT_FLOAT);
    CHECK_EQ_LONG(o.sync_window, 0);

    /* -sync: IMB 2021's on/off words, effbench's barrier|window (also -sync_method) */
    CHECK_EQ_LONG(parse(&o, "-sync 1 PingPong", err), 0);
    CHECK_EQ_LONG(o.imb21.sync, 1);
    CHECK_EQ_LONG(o.sync_window, 0);
    CHECK_EQ_LONG(o.nnames, 1);
    CHECK_EQ_LONG(parse(&o, "-sync off", err), 0);
    CHECK_EQ_LONG(o.imb21.sync, 0);
    CHECK_EQ_LONG(parse(&o, "-sync ENABLE", err), 0);
    CHECK_EQ_LONG(o.imb21.sync, 1);
    CHECK_EQ_LONG(parse(&o, "-sync window", err), 0);
    CHECK_EQ_LONG(o.sync_window, 1);
    CHECK_EQ_LONG(o.imb21.sync, -1);
    CHECK_EQ_LONG(parse(&o, "-sync_method window", err), 0);
    CHECK_EQ_LONG(o.sync_window, 1);
    CHECK_EQ_LONG(parse(&o, "-sync window -sync_method barrier", err), 0);
    CHECK_EQ_LONG(o.sync_window, 0);
    CHECK_EQ_LONG(parse_as(&nbc_fam, &o, "-sync no", err), 0);
    CHECK_EQ_LONG(o.imb21.sync, 0);
    CHECK_EQ_LONG(parse_as(&rma_fam, &o, "-sync yes", err), 0);
    CHECK_EQ_LONG(parse_as(&io_fam, &o, "-sync window", err), 0);
    CHECK_EQ_LONG(o.sync_window, 1);
    CHECK_EQ_LONG(o.clock_sync, EB_CLOCK_LINEAR); /* -sync window's clocks: linear by default */
    CHECK_EQ_LONG(parse(&o, "-sync window -clock_sync hca3_2level", err), 0);
    CHECK_EQ_LONG(o.clock_sync, EB_CLOCK_HCA3_2LEVEL);

    /* the on/off options and the valued ones of IMB-MPI1 */
    CHECK_EQ_LONG(parse(&o, "-root_shift on -imb_barrier yes -zero_size off -warm_up 0 "
                            "-msg_pause true -data_type double -red_data_type int "
                            "-contig_type base_vec -window_size 8 -mem_alloc_type cpu", err), 0);
    CHECK_EQ_LONG(o.imb21.root_shift, 1);
    CHECK_EQ_LONG(o.imb21.imb_barrier, 1);
    CHECK_EQ_LONG(o.imb21.zero_size, 0);
    CHECK_EQ_LONG(o.imb21.warm_up, 0);
    CHECK_EQ_LONG(o.imb21.msg_pause, 1);
    CHECK(o.imb21.data_type == EB_DT_DOUBLE && o.imb21.red_data_type == EB_DT_INT);
    CHECK(o.imb21.contig_type == EB_CONTIG_BASE_VEC);
    CHECK_EQ_LONG(o.imb21.window_size, 8);
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK(o.imb21.contig_type == EB_CONTIG_BASE);
    CHECK_EQ_LONG(parse(&o, "-contig_type base", err), 0);
    CHECK(o.imb21.contig_type == EB_CONTIG_BASE);
    CHECK_EQ_LONG(parse(&o, "-contig_type resize", err), 0);
    CHECK(o.imb21.contig_type == EB_CONTIG_RESIZE);
    CHECK_EQ_LONG(parse(&o, "-contig_type resize_vec", err), 0);
    CHECK(o.imb21.contig_type == EB_CONTIG_RESIZE_VEC);
    CHECK_EQ_LONG(parse(&o, "-root_shift disable -data_type char -red_data_type char", err), 0);
    CHECK_EQ_LONG(o.imb21.root_shift, 0);
    CHECK(o.imb21.data_type == EB_DT_CHAR && o.imb21.red_data_type == EB_DT_CHAR);
    CHECK_EQ_LONG(parse(&o, "-msgsize 0,1024,65536", err), 0);
    CHECK_EQ_LONG(o.msglen.n, 3);
    CHECK_EQ_LONG(o.msglen.v[2], 65536);
    CHECK_EQ_LONG(o.imb21.msgsize_given, 1);
    eb_imb_options_free(&o);
    CHECK_EQ_LONG(parse(&o, "-list", err), 0);
    CHECK_EQ_LONG(o.imb21.list, 1);
    CHECK_EQ_LONG(parse_as(&ext_fam, &o, "-aggregate_mode aggregate -warm_up on", err), 0);
    CHECK(o.imb21.aggregate_mode == EB_AGGR_ONLY_AGGREGATE);
    CHECK_EQ_LONG(o.imb21.warm_up, 1);
    CHECK_EQ_LONG(parse_as(&rma_fam, &o, "-aggregate_mode non_aggregate -root_shift 1", err), 0);
    CHECK(o.imb21.aggregate_mode == EB_AGGR_ONLY_NONAGGREGATE);
    CHECK_EQ_LONG(parse_as(&io_fam, &o, "-aggregate_mode multi -imb_barrier 1", err), 0);
    CHECK(o.imb21.aggregate_mode == EB_AGGR_BOTH);
    CHECK_EQ_LONG(parse_as(&nbc_fam, &o, "-zero_size 0 -root_shift 0", err), 0);
}

/* IMB 2021.11's options, errors: bad values, options the program does not
 * have, conflicts. */
static void imb2021_errors(void)
{
    expect_error("-sync maybe", "-sync maybe: expected barrier or window (effbench's -sync_method), "
                                "or IMB 2021's on or off (1|enable|yes, 0|disable|no)");
    expect_error("-sync_method on", "-sync_method on: expected barrier or window");
    expect_error("-sync", "option -sync needs a value");
    expect_error("-sync window -sync 0", "-sync_method window times each repetition in its own "
                                         "window: IMB 2021's -sync 0 does not go with it");
    expect_error("-zero_size 2", "-zero_size 2: expected on or off (1|enable|yes, 0|disable|no)");
    expect_error("-data_type long", "-data_type long: expected byte, char, int, float or double");
    expect_error("-red_data_type byte", "-red_data_type byte: expected char, int, float or double");
    expect_error("-data_type bfloat16", "-data_type bfloat16: this MPI library has no 16-bit "
                 "floating-point type (IMB 2021 needs MPIX_C_FLOAT16 / MPIX_C_BF16)");
    expect_error("-contig_type foo", "-contig_type foo: expected base, base_vec, resize or "
                 "resize_vec");
    expect_error("-contig_type Resize", "-contig_type Resize: expected base, base_vec, resize or "
                 "resize_vec");
    expect_error_as(&nbc_fam, "-contig_type resize", "-contig_type: IMB-NBC has no such option "
                    "in IMB 2021.11 (IMB-MPI1 has it)");
    expect_error("-window_size 0", "-window_size 0: expected a positive number of messages");
    expect_error("-msgsize 4,,x", "-msgsize 4,,x: 'x' is not a message size in bytes "
                                  "(comma-separated non-negative integers)");
    expect_error("-msgsize 4 -msglen f", "-msglen and -msgsize exclude each other");
    expect_error("-msglog 4 -msgsize 4", "-msglog and -msgsize exclude each other");
    expect_error("-mem_alloc_type device", "-mem_alloc_type device: IMB-MPI1's buffers are host "
                 "memory (cpu); GPU buffers are IMB-MPI1-GPU's and IMB-RMA-GPU's");
    expect_error("-dump", "option -dump needs a value (a YAML file)");
    {
        eb_imb_options o3;
        char err3[EB_ERRLEN];
        CHECK_EQ_LONG(parse(&o3, "-dump a.yaml -load b.yaml", err3), 0);
        CHECK_STR(o3.imb21.dump_path, "a.yaml");
        CHECK_STR(o3.imb21.load_path, "b.yaml");
        eb_imb_options_free(&o3);
    }
    expect_error("-aggregate_mode aggregate", "-aggregate_mode: IMB-MPI1 has no such option in "
                 "IMB 2021.11 (IMB-RMA, IMB-EXT and IMB-IO have it)");
    expect_error_as(&nbc_fam, "-window_size 8", "-window_size: IMB-NBC has no such option in "
                    "IMB 2021.11 (IMB-MPI1 has it)");
    expect_error_as(&ext_fam, "-root_shift 1", "-root_shift: IMB-EXT has no such option in "
                    "IMB 2021.11 (IMB-MPI1, IMB-NBC, IMB-RMA and IMB-MPI4 have it)");
    expect_error_as(&io_fam, "-sync 1", "-sync 0|1: IMB-IO has no such option in IMB 2021.11 "
                    "(IMB-MPI1, IMB-NBC, IMB-RMA and IMB-MPI4 have it)");
    expect_error_as(&rma_fam, "-zero_size 0", "-zero_size: IMB-RMA has no such option in "
                    "IMB 2021.11 (IMB-MPI1, IMB-NBC and IMB-MPI4 have it)");
    expect_error_as(&rma_fam, "-aggregate_mode all",
                    "-aggregate_mode all: expected aggregate, non_aggregate or multi");
}

/* What the options change, where it needs no MPI: lengths, units, roots,
 * modes, typed reduction data. */
static void imb2021_effects(void)
{
    eb_imb_options o;
    char err[EB_ERRLEN];
    eb_bench plain = {.name = "PingPong"}, red = {.name = "Allreduce", .flags = EB_F_REDUCTION};

    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_unit(&o, &plain), 1);
    CHECK_EQ_LONG(eb_imb_unit(&o, &red), 4);
    CHECK_EQ_LONG(eb_imb2021_nmodes(&o), 2);
    eb_sizes s = {0};
    eb_sizes_msglog(0, 3, 1, &s);
    eb_imb2021_trim_sizes(&o, &s); /* zero_size on: the 0-byte row stays */
    CHECK_EQ_LONG(s.n, 5);
    eb_ctx c = {.size = 4, .opt = &o};
    CHECK_EQ_LONG(eb_imb_root(&c, 6), 2); /* the guide: root i % np */

    CHECK_EQ_LONG(parse(&o, "-zero_size off -data_type double -red_data_type char -root_shift off",
                        err), 0);
    eb_imb2021_trim_sizes(&o, &s);
    CHECK_EQ_LONG(s.n, 4);
    CHECK_EQ_LONG(s.v[0], 1);
    eb_sizes_free(&s);
    CHECK_EQ_LONG(eb_imb_unit(&o, &plain), 8);
    CHECK_EQ_LONG(eb_imb_unit(&o, &red), 1);
    CHECK_EQ_LONG(eb_imb_root(&c, 6), 0); /* -root_shift off: root 0 */
    CHECK_EQ_LONG(parse(&o, "-root_shift on", err), 0);
    CHECK_EQ_LONG(eb_imb_root(&c, 7), 3);
    CHECK_STR(eb_dtype_mpi_name(EB_DT_INT), "MPI_INT");
    CHECK_STR(eb_dtype_word(EB_DT_DOUBLE), "double");

    CHECK_EQ_LONG(parse_as(&rma_fam, &o, "-aggregate_mode non_aggregate", err), 0);
    CHECK_EQ_LONG(eb_imb2021_nmodes(&o), 1);
    CHECK_STR(eb_imb2021_only_mode(&o), "non-aggregate");

    /* typed reductions: the sum of 3 ranks' data checks clean, a changed
     * element is one defect; chars wrap modulo 256 */
    for (int t = EB_DT_CHAR; t < EB_DT_N; t++) {
        double buf[3][16], sum[16];
        size_t sz = eb_dtype_size((eb_dtype)t);
        for (int r = 0; r < 3; r++)
            eb_fill_reduction(buf[r], 16 * sz, (eb_dtype)t, r);
        for (int i = 0; i < 16; i++) {
            switch (t) {
            case EB_DT_CHAR: ((char *)sum)[i] = (char)(((char *)buf[0])[i] + ((char *)buf[1])[i] +
                                                        ((char *)buf[2])[i]); break;
            case EB_DT_INT: ((int *)sum)[i] = ((int *)buf[0])[i] + ((int *)buf[1])[i] + ((int *)buf[2])[i]; break;
            case EB_DT_FLOAT: ((float *)sum)[i] = ((float *)buf[0])[i] + ((float *)buf[1])[i] + ((float *)buf[2])[i]; break;
            default: sum[i] = buf[0][i] + buf[1][i] + buf[2][i]; break;
            }
        }
        CHECK_EQ_LONG(eb_check_reduction(sum, 16, (eb_dtype)t, 3, 0), 0);
        ((unsigned char *)sum)[5 * sz] ^= 1;
        CHECK_EQ_LONG(eb_check_reduction(sum, 16, (eb_dtype)t, 3, 0), 1);
    }
}

/* Counts past INT_MAX (imb/driver/large_rows.h): elements, not bytes; the
 * v-variants' last displacement; bytes for a benchmark without _c calls. */
static void large_counts(void)
{
    eb_imb_options o;
    char err[EB_ERRLEN], msg[EB_ERRLEN];
    int m;
    const eb_bench *pp = eb_find_bench("mpi1", "PingPong", &m),
                   *ar = eb_find_bench("mpi1", "Allreduce", &m),
                   *agv = eb_find_bench("mpi1", "Allgatherv", &m),
                   *put = eb_find_bench("ext", "Unidir_Put", &m);
    CHECK(pp && ar && agv && put);
    size_t g = (size_t)1 << 31;
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(eb_count_span(&o, pp, g, 2), g);
    CHECK_EQ_LONG(eb_count_span(&o, ar, g, 2), g / 4); /* floats */
    CHECK_EQ_LONG(eb_count_span(&o, agv, g / 2, 4), 3 * (g / 2));
    CHECK_EQ_LONG(eb_count_span(&o, agv, g / 2, 1), g / 2);
    CHECK_EQ_LONG(eb_count_span(&o, put, g, 2), g); /* lengths of floats, puts of bytes */
    CHECK_EQ_LONG(eb_large_count_refusal(&o, ar, g, 2, msg, sizeof msg), 0);
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g - 1, 2, msg, sizeof msg), 0);
    CHECK_EQ_LONG(eb_large_count_refusal(&o, put, g, 2, msg, sizeof msg), -1);
    CHECK(strstr(msg, "effbench's Unidir_Put makes int-count calls only") != NULL);
#ifdef EB_HAVE_MPI_SEND_C
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g, 2, msg, sizeof msg), 0);
#else
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g, 2, msg, sizeof msg), -1);
    CHECK(strstr(msg, "needs MPI_Send_c (MPI-4.0 large counts)") != NULL);
#endif
    CHECK_EQ_LONG(parse(&o, "-data_type int", err), 0);
    CHECK_EQ_LONG(eb_count_span(&o, pp, g, 2), g / 4);
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g, 2, msg, sizeof msg), 0);
    /* -contig_type's datatypes and user-defined sum are IMB's, with int counts */
    CHECK_EQ_LONG(parse(&o, "-contig_type resize", err), 0);
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g - 1, 2, msg, sizeof msg), 0);
    CHECK_EQ_LONG(eb_large_count_refusal(&o, pp, g, 2, msg, sizeof msg), -1);
    CHECK_STR(msg, "PingPong on 2 processes at #bytes = 2147483648: -contig_type resize makes "
                   "IMB's int-count datatypes and calls, and this length needs 2147483648 "
                   "elements, past MPI's int limit of 2147483647 (2^31-1): use lengths up to "
                   "2147483647 elements or -contig_type base");
}

int main(void)
{
    eb_imb_options o;
    char err[EB_ERRLEN];

    large_counts();
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 1000);
    CHECK_EQ_LONG(o.iter.overall_vol, 40L * 1048576L);
    CHECK_EQ_LONG(o.iter.msgs_nonaggr, 100);
    CHECK(o.iter.policy == EB_ITER_DYNAMIC);
    CHECK(o.iter.secs == 10.0);
    CHECK_EQ_LONG(o.multi, -1);
    CHECK_EQ_LONG(o.msglog_min, 0);
    CHECK_EQ_LONG(o.msglog_max, 22);

    /* benchmark names: positional, comma lists, -include/-exclude lists */
    CHECK_EQ_LONG(parse(&o, "PingPong sendrecv,Exchange -include PingPongSpecificSource "
                            "PingPingSpecificSource -exclude Exchange", err), 0);
    CHECK_EQ_LONG(o.nnames, 3);
    CHECK_STR(o.names[1], "sendrecv");
    CHECK_EQ_LONG(o.ninclude, 2);
    CHECK_STR(o.include[1], "PingPingSpecificSource");
    CHECK_EQ_LONG(o.nexclude, 1);

    /* -iter: every form of the guide */
    CHECK_EQ_LONG(parse(&o, "-iter 2000", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 2000);
    CHECK_EQ_LONG(parse(&o, "-iter 2000,100", err), 0);
    CHECK_EQ_LONG(o.iter.overall_vol, 100L * 1048576L);
    CHECK_EQ_LONG(parse(&o, "-iter 1000,40,150", err), 0);
    CHECK_EQ_LONG(o.iter.msgs_nonaggr, 150);
    CHECK_EQ_LONG(parse(&o, "-iter 2000, multiple_np", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 2000);
    CHECK(o.iter.policy == EB_ITER_MULTIPLE_NP);
    CHECK_EQ_LONG(parse(&o, "-iter 1000,40,150,off", err), 0);
    CHECK(o.iter.policy == EB_ITER_OFF);
    CHECK_EQ_LONG(parse(&o, "-iter auto", err), 0);
    CHECK(o.iter.policy == EB_ITER_AUTO);
    CHECK_EQ_LONG(o.iter.msgspersample, 1000);
    CHECK_EQ_LONG(parse(&o, "-iter_policy multiple_np", err), 0);
    CHECK(o.iter.policy == EB_ITER_MULTIPLE_NP);

    /* the other valued options */
    CHECK_EQ_LONG(parse(&o, "-npmin 3 -multi 1 -time 1.5 -mem 2 -map 3x2 -thread_level multiple "
                            "-check --json out.jsonl -msglog 3:7", err), 0);
    CHECK_EQ_LONG(o.npmin, 3);
    CHECK_EQ_LONG(o.multi, 1);
    CHECK(o.iter.secs == 1.5);
    CHECK(o.mem_gb == 2.0);
    CHECK_EQ_LONG(o.map_p, 3);
    CHECK_EQ_LONG(o.map_q, 2);
    CHECK_EQ_LONG(o.thread_level, MPI_THREAD_MULTIPLE);
    CHECK_EQ_LONG(o.check, 1);
    CHECK_STR(o.json_path, "out.jsonl");
    CHECK_EQ_LONG(o.msglog_min, 3);
    CHECK_EQ_LONG(o.msglog_max, 7);
    CHECK_EQ_LONG(parse(&o, "-msglog 5", err), 0);
    CHECK_EQ_LONG(o.msglog_min, 0);
    CHECK_EQ_LONG(o.msglog_max, 5);
    CHECK_EQ_LONG(parse(&o, "-off_cache -1", err), 0);
    CHECK(o.cache.cache_mb == EB_DEFAULT_CACHE_MB && o.cache.line == EB_DEFAULT_CACHE_LINE);
    CHECK_EQ_LONG(parse(&o, "-off_cache 2.5", err), 0);
    CHECK(o.cache.cache_mb == 2.5 && o.cache.line == EB_DEFAULT_CACHE_LINE);
    CHECK_EQ_LONG(parse(&o, "-off_cache 16,128", err), 0);
    CHECK(o.cache.cache_mb == 16.0 && o.cache.line == 128);
    CHECK_EQ_LONG(parse(&o, "-input sel.txt -msglen lens.txt", err), 0);
    CHECK_STR(o.input_file, "sel.txt");
    CHECK_STR(o.msglen_file, "lens.txt");
    CHECK_EQ_LONG(parse(&o, "-h", err), 0);
    CHECK_EQ_LONG(o.help, 1);

    /* errors: one clear message naming the option and the value */
    expect_error("-iter abc", "-iter abc: expected msgspersample[,overall_vol_MB[,msgs_nonaggr]]"
                              "[,off|dynamic|multiple_np|auto]");
    expect_error("-iter 0", "-iter 0: expected msgspersample[,overall_vol_MB[,msgs_nonaggr]]"
                            "[,off|dynamic|multiple_np|auto]");
    expect_error("-iter_policy fast", "-iter_policy fast: expected off, dynamic, multiple_np or auto");
    expect_error("-npmin 0", "-npmin 0: expected a positive integer");
    expect_error("-npmin two", "-npmin two: expected a positive integer");
    expect_error("-multi 2", "-multi 2: expected 0 or 1");
    expect_error("-off_cache big", "-off_cache big: expected cache_size_MB[,cache_line_size] or -1");
    expect_error("-off_cache 16,0", "-off_cache 16,0: cache line size must be a positive integer");
    expect_error("-time -1", "-time -1: expected a positive number of seconds");
    expect_error("-time 1s", "-time 1s: expected a positive number of seconds");
    expect_error("-mem 0", "-mem 0: expected a positive number of GB");
    expect_error("-msglog 9:3", "-msglog 9:3: minlog 9 is larger than maxlog 3");
    expect_error("-msglog x", "-msglog x: expected [minlog:]maxlog with integers 0..40");
    expect_error("-msglog 3:99", "-msglog 3:99: expected [minlog:]maxlog with integers 0..40");
    expect_error("-map 3", "-map 3: expected PxQ with positive integers");
    expect_error("-map 0x2", "-map 0x2: expected PxQ with positive integers");
    expect_error("-thread_level bogus",
                 "-thread_level bogus: expected single, funneled, serialized, multiple or nompiinit");
    {
        eb_imb_options o2;
        char err2[EB_ERRLEN];
        CHECK_EQ_LONG(parse(&o2, "-thread_level nompiinit", err2), 0);
        CHECK_EQ_LONG(o2.thread_level, MPI_THREAD_SINGLE);
        eb_imb_options_free(&o2);
    }
    expect_error("-include", "option -include needs benchmark names");
    expect_error("-exclude -check", "option -exclude needs benchmark names");
    expect_error("-msglen", "option -msglen needs a value");
    expect_error("-frobnicate", "unknown option '-frobnicate' (see IMB-MPI1 -h)");
    expect_error("-msglog 3 -msglen f", "-msglog and -msglen exclude each other");

    /* -input file text */
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_apply_input(&o, "#\n# IMB selection\n#Window\nUnidir_Get\n  Accumulate  \n\n",
                                     "sel", err, EB_ERRLEN), 0);
    CHECK_EQ_LONG(o.nnames, 2);
    CHECK_STR(o.names[0], "Unidir_Get");
    CHECK_STR(o.names[1], "Accumulate");
    CHECK_EQ_LONG(eb_imb_apply_input(&o, "PingPong\nPing Pong\n", "sel", err, EB_ERRLEN), -1);
    CHECK_STR(err, "sel:2: 'Ping Pong': a line holds exactly one benchmark name or a # comment");
    imb2021_options();
    imb2021_errors();
    imb2021_effects();
    UNIT_DONE();
}
