/* The run skeleton (core/component_run.c): the order of the steps, the
 * JSON file it writes, the options --resume compares; and the progress
 * line's text (core/progress.c). */
#include "core/component_run.h"
#include "core/progress.h"
#include "unit.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

static void test_progress_format(void)
{
    char b[256];
    eb_progress_format(b, sizeof b, "b_eff", 37, 100, 12.0, "repetition 2/3");
    CHECK_STR(b, "b_eff:  37% done, 12 s elapsed, about 20 s left (repetition 2/3)");
    eb_progress_format(b, sizeof b, "b_eff_io", 1, 4, 125.0, "x");
    CHECK_STR(b, "b_eff_io:  25% done, 2 min 05 s elapsed, about 6 min 15 s left (x)");
    eb_progress_format(b, sizeof b, "b_eff", 1, 2, 3700.0, "y");
    CHECK_STR(b, "b_eff:  50% done, 1 h 01 min elapsed, about 1 h 01 min left (y)");
    eb_progress_format(b, sizeof b, "b_eff", 7, 7, 3.0, "z");
    CHECK_STR(b, "b_eff: 100% done, 3 s elapsed, about 0 s left (z)");
}

static void test_options(void)
{
    eb_run run;
    memset(&run, 0, sizeof run);
    eb_json_init(&run.record);
    eb_run_opt_int(&run, "a", 1, EB_DECIDES);
    eb_run_opt_str(&run, "b", NULL, EB_INFO);
    eb_json *arr = eb_run_opt_array(&run, "c", EB_DECIDES);
    eb_json_int(arr, NULL, 1);
    eb_json_int(arr, NULL, 2);
    eb_json_close(arr);
    eb_run_opt_num(&run, "d", NAN, EB_INFO);
    eb_run_opt_bool(&run, "e", 1, EB_DECIDES);
    eb_run_opt_null(&run, "f", EB_INFO);
    CHECK_STR(eb_json_finish(&run.record),
              "{\"a\": 1, \"b\": null, \"c\": [1, 2], \"d\": null, \"e\": true, \"f\": null}");
    eb_json_free(&run.record);
    /* what --resume compares: the options marked EB_DECIDES, in record order */
    CHECK_EQ_LONG(run.ndeciding, 3);
    CHECK_STR(run.deciding[0], "options.a");
    CHECK_STR(run.deciding[1], "options.c");
    CHECK_STR(run.deciding[2], "options.e");
}

/* A component whose steps note their order. */
static char trace[256];
static char json_path[64];

static void note(const char *step) { strcat(trace, step), strcat(trace, " "); }
static int t_options(void *s, eb_run *run, int argc, char **argv)
{
    (void)s, (void)argc, (void)argv;
    note("options");
    run->json_path = json_path;
    run->check = 1;
    return 0;
}
static void t_prepare(void *s, eb_run *run) { (void)s, (void)run, note("prepare"); }
static void t_plan(void *s, eb_run *run)
{
    (void)s;
    note(run->si.sysname[0] ? "plan(si)" : "plan");
}
static void t_record(void *s, eb_run *run)
{
    (void)s;
    note("record");
    eb_run_opt_int(run, "n", 42, EB_DECIDES);
}
static void t_ready(void *s, eb_run *run) { (void)s, (void)run, note("ready"); }
static int t_measure(void *s, eb_run *run, char *msg, size_t n)
{
    (void)s, (void)run;
    note("measure");
    snprintf(msg, n, "it failed");
    return EB_EXIT_FAILURE;
}
static void t_release(void *s) { (void)s, note("release"); }

static void test_skeleton(void)
{
    static const eb_component_steps steps = {
        .component = "unit", .options = t_options, .prepare = t_prepare, .plan = t_plan,
        .record = t_record, .ready = t_ready, .measure = t_measure, .release = t_release};
    snprintf(json_path, sizeof json_path, "/tmp/eb_unit_run_%d.jsonl", (int)getpid());
    char name[] = "unit";
    char *argv[] = {name, NULL};
    CHECK_EQ_LONG(eb_component_run(&steps, NULL, 1, argv), EB_EXIT_FAILURE);
    CHECK_STR(trace, "options prepare plan(si) record ready measure release ");
    /* the file: the run record with the options, the end record with the message */
    FILE *f = fopen(json_path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[65536], last[65536];
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(strstr(line, "{\"type\": \"run\", \"schema\": 1,") == line);
    CHECK(strstr(line, "\"component\": \"unit\"") != NULL);
    CHECK(strstr(line, "\"check\": true, \"options\": {\"n\": 42}}\n") != NULL);
    while (fgets(line, sizeof line, f))
        snprintf(last, sizeof last, "%s", line);
    fclose(f);
    unlink(json_path);
    CHECK(strstr(last, "{\"type\": \"end\", \"schema\": 1, \"status\": \"error\", "
                       "\"message\": \"it failed\",") == last);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_progress_format();
    test_options();
    test_skeleton();
    MPI_Finalize();
    UNIT_DONE();
}
