/* SKaMPI-style output rows, the post-processor's medians (checked against
 * values computed by hand), cutting a crashed block, and the run log. */
#include "skampi/output.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_skampi_outputXXXXXX";

static const char *path(const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return strdup(buf); /* a few bytes per call: the test is short */
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path(name), "w");
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#define HEAD "# SKaMPI Version 6.0.0\n\n# Started at Sun Nov 22 03:09:18 2026\n\n\n"
#define FOOT "\n\n# Finished at Sun Nov 22 03:09:25 2026\n# Total runtime 7 seconds\n"

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    /* the row format of SKaMPI's output files */
    sk_row r = {"count", 1, 4, {0.8, 0.04, 16, 0.8, 0.7}, 5};
    char line[1024];
    sk_format_row(line, sizeof line, &r);
    CHECK_STR(line, "count= 1        4       0.8       0.0       16       0.8       0.7");
    sk_row q = {"procs", 2, 1024, {0.5, 0.0, 32, 0.5, 0.4}, 5};
    sk_format_row(line, sizeof line, &q);
    CHECK_STR(line, "procs= 2     1024       0.5       0.0       32       0.5       0.4");
    sk_row p;
    CHECK_EQ_LONG(sk_parse_row("count= 131072   524288    1158.2     291.6       35     571.7     946.6", &p), 0);
    CHECK_STR(p.var, "count");
    CHECK_EQ_LONG(p.arg, 131072);
    CHECK_EQ_LONG(p.bytes, 524288);
    CHECK_EQ_LONG(p.nv, 5);
    CHECK(p.v[0] == 1158.2 && p.v[1] == 291.6 && p.v[2] == 35 && p.v[3] == 571.7 && p.v[4] == 946.6);
    CHECK_EQ_LONG(sk_parse_row("chunks= 4 16 1.0 0.1 8", &p), 0);
    CHECK_EQ_LONG(sk_parse_row("count= 4 16 1.0 0.1", &p), -1);   /* too few columns */
    CHECK_EQ_LONG(sk_parse_row("count= 4 16 1.0 0.1 8 x", &p), -1);
    CHECK_EQ_LONG(sk_parse_row("Count= 4 16 1.0 0.1 8", &p), -1);

    /* postprocess: medians per result and row */
    write_file("A", HEAD "# begin result \"R\"\n"
                         "count= 1        4       1.0       0.1       10       1.0       0.9\n"
                         "count= 2        8       2.0       0.2       12       2.0       1.9\n"
                         "# end result \"R\"\n# duration = 1.00 sec\n\n" FOOT);
    write_file("B", HEAD "# suite \"R\": comment lines are ignored\n# begin result \"R\"\n"
                         "count= 2        8       1.0       0.4       14       1.0       0.9\n"
                         "count= 1        4       3.0       0.3       20       3.0       2.9\n"
                         "# end result \"R\"\n# duration = 3.00 sec\n\n"
                         "# begin result \"Q\"\nprocs= 2     1024       7.0       0.7        9\n"
                         "# end result \"Q\"\n# duration = 3.00 sec\n" FOOT);
    write_file("C", HEAD "# begin result \"R\"\n"
                         "count= 1        4       2.5       0.2       16       2.4       2.0\n"
                         "count= 4       16       5.0       0.5        8       5.0       4.0\n"
                         "# end result \"R\"\n# duration = 2.00 sec\n\n" FOOT);
    char *files[3] = {(char *)path("A"), (char *)path("B"), (char *)path("C")};
    char err[1024] = "";
    FILE *out = fopen(path("median"), "w");
    CHECK_EQ_LONG(sk_postprocess(files, 3, out, err, sizeof err), 0);
    fclose(out);
    char expect[4096];
    snprintf(expect, sizeof expect,
             "# SKaMPI Version effbench-%s (effbench skampi)\n\n"
             "# Postprocessed: medians of 3 output files: %s %s %s\n\n\n"
             "# begin result \"R\"\n"
             "count= 1        4       2.5       0.2       16       2.4       2.0\n"
             "count= 2        8       1.5       0.3       13       1.5       1.4\n"
             "count= 4       16       5.0       0.5        8       5.0       4.0\n"
             "# end result \"R\"\n# duration = 2.00 sec\n\n"
             "# begin result \"Q\"\n"
             "procs= 2     1024       7.0       0.7        9\n"
             "# end result \"Q\"\n# duration = 3.00 sec\n\n"
             "\n\n# Finished at ",
             EFFBENCH_VERSION, files[0], files[1], files[2]);
    char *got = slurp(path("median"));
    CHECK(got && strncmp(got, expect, strlen(expect)) == 0);
    if (got && strncmp(got, expect, strlen(expect)))
        fprintf(stderr, "got:\n%s\nexpected:\n%s\n", got, expect);
    /* the merged file is itself a complete output file */
    sk_outfile o;
    CHECK_EQ_LONG(sk_read_outfile(path("median"), &o, err, sizeof err), 0);
    CHECK_EQ_LONG(o.complete, 1);
    CHECK_EQ_LONG(o.nres, 2);
    CHECK_EQ_LONG(o.res[0].nrows, 3);
    sk_outfile_free(&o);

    /* only complete files are merged; errors name file and line */
    write_file("D", HEAD "# begin result \"R\"\ncount= 1 4 1.0 0.1 10\n");
    files[1] = (char *)path("D");
    out = fopen(path("x"), "w");
    CHECK_EQ_LONG(sk_postprocess(files, 2, out, err, sizeof err), -1);
    fclose(out);
    snprintf(expect, sizeof expect, "%s: result \"R\" has no end (a crashed run?)", path("D"));
    CHECK_STR(err, expect);
    write_file("E", HEAD "# begin result \"R\"\ncount= 1 4 1.0 0.1 10\n# end result \"R\"\n");
    files[1] = (char *)path("E");
    out = fopen(path("x"), "w");
    CHECK_EQ_LONG(sk_postprocess(files, 2, out, err, sizeof err), -1);
    fclose(out);
    snprintf(expect, sizeof expect, "%s: not a complete output file (no \"# Finished at\" line)", path("E"));
    CHECK_STR(err, expect);
    write_file("F", HEAD "# begin result \"R\"\ncount= one 4 1.0 0.1 10\n# end result \"R\"\n" FOOT);
    files[1] = (char *)path("F");
    out = fopen(path("x"), "w");
    CHECK_EQ_LONG(sk_postprocess(files, 2, out, err, sizeof err), -1);
    fclose(out);
    snprintf(expect, sizeof expect, "%s:7: not a result row: 'count= one 4 1.0 0.1 10'", path("F"));
    CHECK_STR(err, expect);

    /* a crashed suite's open block is cut off, with its "# suite" line */
    const char *done = HEAD "# suite \"R\": x\n# begin result \"R\"\ncount= 1 4 1.0 0.1 10\n"
                            "# end result \"R\"\n# duration = 1.00 sec\n\n";
    char text[4096];
    snprintf(text, sizeof text, "%s# suite \"S\": y\n# begin result \"S\"\ncount= 1 4 1.0 0.1 10\n"
                                "count= 2 8 1.0 0.1 10\n", done);
    write_file("G", text);
    char name[256] = "";
    CHECK_EQ_LONG(sk_truncate_open_block(path("G"), name, sizeof name), 2);
    CHECK_STR(name, "S");
    CHECK_STR(slurp(path("G")), done);
    name[0] = '\0';
    CHECK_EQ_LONG(sk_truncate_open_block(path("G"), name, sizeof name), 0);
    CHECK_STR(slurp(path("G")), done);
    CHECK_STR(name, "");

    /* the log: finished suites, and the crashed ones in crash order */
    write_file("log", "t run begin outfile=out.sko\nt suite begin A\nt suite end A\n"
                      "t suite begin B\n"
                      "t run begin outfile=run2.sko\nt suite begin A\nt suite end A\n"
                      "t suite skipped C: needs 2 processes\nt suite begin B\n"
                      "t note: resuming\nt suite begin D\nt suite end D\nt suite begin B\n");
    sk_logstate st;
    CHECK_EQ_LONG(sk_read_log(path("log"), &st), 0);
    CHECK_EQ_LONG(st.resume, 1);
    CHECK_STR(st.outfile, "run2.sko");
    CHECK_EQ_LONG(st.ndone, 3);
    CHECK(sk_logstate_has(st.done, st.ndone, "A") && sk_logstate_has(st.done, st.ndone, "C") &&
          sk_logstate_has(st.done, st.ndone, "D"));
    CHECK_EQ_LONG(st.ncrashed, 1);
    CHECK_STR(st.crashed[0], "B");
    sk_logstate_free(&st);
    write_file("log", "t run begin outfile=o\nt suite begin A\nt suite end A\nt run end\n");
    CHECK_EQ_LONG(sk_read_log(path("log"), &st), 0);
    CHECK_EQ_LONG(st.resume, 0);
    CHECK_EQ_LONG(st.ndone, 0);
    sk_logstate_free(&st);
    CHECK_EQ_LONG(sk_read_log(path("nolog"), &st), 0);
    CHECK_EQ_LONG(st.resume, 0);

    const char *names[] = {"A", "B", "C", "D", "E", "F", "G", "log", "median", "x"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(path(names[i]));
    rmdir(dir);
    UNIT_DONE();
}
