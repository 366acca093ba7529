/* The registries: no cap on components or benchmarks, and a duplicate name
 * refused (the first refusal kept for main to report). */
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int noop_main(const eb_component *self, int argc, char **argv)
{
    (void)self, (void)argc, (void)argv;
    return 0;
}

static void test_the_build_has_no_duplicate(void)
{
    CHECK(eb_registry_error() == NULL);
    CHECK(eb_find_component("IMB-MPI1") != NULL);
    CHECK(eb_bench_count("mpi1") > 0);
}

/* Far more than the old fixed tables held (32 components, 512 benchmarks). */
static void test_registries_grow(void)
{
    enum { NC = 100, NB = 1000 };
    int c0 = eb_component_count();
    eb_component *cs = calloc(NC, sizeof *cs);
    char (*cnames)[32] = calloc(NC, sizeof *cnames);
    for (int i = 0; i < NC; i++) {
        snprintf(cnames[i], sizeof cnames[i], "unit-%d", i);
        cs[i] = (eb_component){.name = cnames[i], .summary = "test", .order = 1000 + i,
                               .main = noop_main};
        eb_register_component(&cs[i]);
    }
    CHECK_EQ_LONG(eb_component_count(), c0 + NC);
    CHECK(eb_find_component("unit-99") == &cs[99]);
    CHECK(eb_component_at(eb_component_count() - 1) == &cs[NC - 1]); /* sorted by order */

    eb_bench *bs = calloc(NB, sizeof *bs);
    char (*bnames)[32] = calloc(NB, sizeof *bnames);
    for (int i = 0; i < NB; i++) {
        snprintf(bnames[i], sizeof bnames[i], "Bench_%d", i);
        /* registered in reverse order: the registry sorts them */
        bs[i] = (eb_bench){.component = "unit-0", .name = bnames[i], .order = NB - i};
        eb_register_bench(&bs[i]);
    }
    CHECK_EQ_LONG(eb_bench_count("unit-0"), NB);
    CHECK(eb_bench_at("unit-0", 0) == &bs[NB - 1]);
    CHECK(eb_bench_at("unit-0", NB - 1) == &bs[0]);
    CHECK(eb_registry_error() == NULL);
}

static void test_duplicate_benchmark_refused(void)
{
    int n = eb_bench_count("mpi1");
    const eb_bench *first = eb_bench_at("mpi1", 0);
    /* the command line matches names ignoring case, so case does not make a new name */
    static const eb_bench dup = {.component = "mpi1", .name = "pingpong", .order = 1};
    eb_register_bench(&dup);
    CHECK_EQ_LONG(eb_bench_count("mpi1"), n);
    CHECK(eb_bench_at("mpi1", 0) == first);
    CHECK_STR(eb_registry_error(),
              "component 'mpi1' has two benchmarks called 'pingpong' (the second one is refused)");
    /* the same name in another component is no duplicate */
    static const eb_bench other = {.component = "unit-1", .name = "PingPong", .order = 1};
    eb_register_bench(&other);
    CHECK_EQ_LONG(eb_bench_count("unit-1"), 1);
}

/* In a child process, so that its refusal is the first one there. */
static void test_duplicate_component_refused(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int n = eb_component_count();
        const eb_component *mpi1 = eb_find_component("mpi1");
        /* a new name, but an alias another component answers to */
        static const eb_component by_alias = {.name = "unit-new", .aliases = {"IMB-MPI1"},
                                              .main = noop_main};
        eb_register_component(&by_alias);
        CHECK_STR(eb_registry_error(), "two components answer to the name 'IMB-MPI1' (the "
                                       "second one, of 'unit-new', is refused)");
        static const eb_component by_name = {.name = "IMB-NBC", .main = noop_main};
        eb_register_component(&by_name);
        CHECK_EQ_LONG(eb_component_count(), n);
        CHECK(eb_find_component("IMB-MPI1") == mpi1);
        CHECK(eb_find_component("unit-new") == NULL);
        CHECK(eb_find_component("IMB-NBC") == eb_find_component("nbc"));
        fflush(stderr);
        _exit(unit_failures != 0);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    test_the_build_has_no_duplicate();
    test_duplicate_component_refused();
    test_registries_grow();
    test_duplicate_benchmark_refused();
    UNIT_DONE();
}
