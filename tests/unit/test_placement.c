/* --expect-placement's verdict (core/expect_placement.c) on hand-made
 * placements: each of the four accepted and refused, the message naming the
 * ranks, hosts and sockets; the option taken out of argv; hwloc's range lists
 * written as JSON integers (core/topology.c). */
#include "core/expect_placement.h"
#include "core/json.h"
#include "core/topology.h"
#include "unit.h"

#include <string.h>

static const char *const hosts[] = {"n1", "n2"};

static int verdict(const char *want, int n, const int *node_of, const char *const *sockets,
                   char *msg)
{
    return eb_placement_verdict(want, n, node_of, hosts, sockets, msg, 512);
}

static void test_nodes(void)
{
    char msg[512];
    int one[] = {0, 0}, two[] = {0, 1}, three[] = {0, 1, 1};
    const char *const s[] = {"0", "1", "0"};
    CHECK(verdict("same-node", 2, one, s, msg) == 0);
    CHECK_STR(msg, "");
    CHECK(verdict("same-node", 2, two, s, msg) == 1);
    CHECK_STR(msg, "--expect-placement same-node: ranks 0 and 1 are on different hosts "
                   "(rank 0: host n1, socket 0; rank 1: host n2, socket 1)");
    CHECK(verdict("different-nodes", 2, two, s, msg) == 0);
    CHECK(verdict("different-nodes", 2, one, s, msg) == 1);
    CHECK_STR(msg, "--expect-placement different-nodes: ranks 0 and 1 are on one host "
                   "(rank 0: host n1, socket 0; rank 1: host n1, socket 1)");
    CHECK(verdict("different-nodes", 3, three, s, msg) == 1); /* ranks 1 and 2 share n2 */
    CHECK(strstr(msg, "ranks 1 and 2 are on one host") != NULL);
    static const char *const four[] = {"n1", "n2", "n3", "n4"};
    int spread[] = {0, 1, 2, 3, 2};
    const char *const s5[] = {"0", "0", "0", "0", "1"};
    CHECK(eb_placement_verdict("different-nodes", 4, spread, four, s5, msg, 512) == 0);
    CHECK(eb_placement_verdict("different-nodes", 5, spread, four, s5, msg, 512) == 1);
    CHECK_STR(msg, "--expect-placement different-nodes: ranks 2 and 4 are on one host "
                   "(rank 2: host n3, socket 0; rank 4: host n3, socket 1)");
    /* the socket checks are within one node */
    CHECK(verdict("different-sockets", 2, two, s, msg) == 1);
    CHECK(strstr(msg, "ranks 0 and 1 are on different hosts") != NULL);
    CHECK(verdict("same-socket", 2, two, (const char *const[]){"0", "0"}, msg) == 1);
}

static void test_sockets(void)
{
    char msg[512];
    int one[] = {0, 0, 0};
    CHECK(verdict("same-socket", 2, one, (const char *const[]){"1", "1"}, msg) == 0);
    CHECK(verdict("different-sockets", 2, one, (const char *const[]){"1", "1"}, msg) == 1);
    CHECK_STR(msg, "--expect-placement different-sockets: ranks 0 and 1 are on one socket "
                   "(rank 0: host n1, socket 1; rank 1: host n1, socket 1)");
    CHECK(verdict("different-sockets", 2, one, (const char *const[]){"0", "1"}, msg) == 0);
    CHECK(verdict("same-socket", 2, one, (const char *const[]){"0", "1"}, msg) == 1);
    CHECK_STR(msg, "--expect-placement same-socket: ranks 0 and 1 are on different sockets "
                   "(rank 0: host n1, socket 0; rank 1: host n1, socket 1)");
    /* three ranks: 1 and 2 share socket 1 */
    CHECK(verdict("different-sockets", 3, one, (const char *const[]){"0", "1", "1"}, msg) == 1);
    CHECK(strstr(msg, "ranks 1 and 2 are on one socket") != NULL);
    CHECK(verdict("same-socket", 3, one, (const char *const[]){"0", "0", "1"}, msg) == 1);
    CHECK(strstr(msg, "ranks 0 and 2 are on different sockets") != NULL);
    /* a rank not bound within one socket, or whose socket is unknown */
    CHECK(verdict("same-socket", 2, one, (const char *const[]){"0-1", "0-1"}, msg) == 1);
    CHECK_STR(msg, "--expect-placement same-socket: rank 0 is not bound within one socket "
                   "(rank 0: host n1, sockets 0-1)");
    CHECK(verdict("different-sockets", 2, one, (const char *const[]){"0", ""}, msg) == 1);
    CHECK_STR(msg, "--expect-placement different-sockets: rank 1 has no known socket (hwloc "
                   "could not read the topology) (rank 1: host n1, socket unknown)");
    CHECK(verdict("same-node", 2, one, (const char *const[]){"0-1", ""}, msg) == 0);
}

static void test_option(void)
{
    char err[512];
    char *argv[] = {"osu_latency", "-m", "8", "--expect-placement", "same-socket", "-i", "3",
                    NULL};
    int argc = 7;
    CHECK(eb_expected_placement() == NULL);
    CHECK(eb_expect_placement_take_option(&argc, argv, err, sizeof err) == 0);
    CHECK_EQ_LONG(argc, 5);
    CHECK_STR(argv[3], "-i");
    CHECK(argv[5] == NULL);
    CHECK_STR(eb_expected_placement(), "same-socket");
    char *bad[] = {"b_eff", "--expect-placement", "same-rack", NULL};
    argc = 3;
    CHECK(eb_expect_placement_take_option(&argc, bad, err, sizeof err) == -1);
    CHECK_STR(err, "--expect-placement same-rack: expected same-node, different-nodes, "
                   "same-socket, different-sockets or different-gpus");
    char *missing[] = {"b_eff", "--expect-placement", NULL};
    argc = 2;
    CHECK(eb_expect_placement_take_option(&argc, missing, err, sizeof err) == -1);
    CHECK(strstr(err, "(missing)") != NULL);
}

static void test_int_list(void)
{
    eb_json j;
    eb_json_init(&j);
    eb_json_int_list(&j, "cores", "0-2,5");
    eb_json_int_list(&j, "sockets", "");
    eb_json_int_list(&j, "numa_nodes", "3");
    eb_json_int_list(&j, "x", "0-1,4-5,9");
    CHECK_STR(eb_json_finish(&j), "{\"cores\": [0, 1, 2, 5], \"sockets\": null, "
                                  "\"numa_nodes\": [3], \"x\": [0, 1, 4, 5, 9]}");
    eb_json_free(&j);
}

int main(void)
{
    test_nodes();
    test_sockets();
    test_option();
    test_int_list();
    UNIT_DONE();
}
