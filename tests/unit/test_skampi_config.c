/* The .skampi parser: every key, every value form, every error message. */
#include "skampi/config.h"
#include "skampi/datatypes.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static char err[1024];
static sk_config cfg;

/* Parse `pre` + @MEASUREMENTS + one suite "S" with the given body. */
static int parse_suite(const char *body)
{
    char text[8192];
    snprintf(text, sizeof text,
             "@MACHINE m\n@MEASUREMENTS\nS\n{\n  Type = 1;\n%s}\n", body);
    err[0] = '\0';
    return sk_config_parse(text, "t.skampi", &cfg, err, sizeof err);
}

#define ERR_IS(body, msg)                                                       \
    do {                                                                        \
        CHECK_EQ_LONG(parse_suite(body), -1);                                   \
        CHECK_STR(err, msg);                                                    \
    } while (0)

#define ERR_TEXT(text, msg)                                                     \
    do {                                                                        \
        err[0] = '\0';                                                          \
        CHECK_EQ_LONG(sk_config_parse(text, "t.skampi", &cfg, err, sizeof err), -1); \
        CHECK_STR(err, msg);                                                    \
    } while (0)

static const char figure1[] =
    "@MACHINE IBM SP\n"
    "@NODE thin\n"
    "@NETWORK hpf-switch3\n"
    "@MPIVERSION aix-mpi library\n"
    "@USER R. Reussner\n"
    "@MEMORY 8192\n"
    "@OUTFILE skampi.out\n"
    "@LOGFILE skampi.log\n"
    "@POSTPROC no\n"
    "@CACHEWARMUP 5\n"
    "@Basetype1 MPI_INT\n"
    "@MEASUREMENTS\n"
    "MPI_Send-MPI_Recv-dynamicVector1\n"
    "{\n"
    "  Type = 1;\n"
    "  Basetype_Number = 1;\n"
    "  Send_Datatype_Number = 50;\n"
    "  Receive_Datatype_Number = 50;\n"
    "  Variation = Length;\n"
    "  Scale = Dynamic_log;\n"
    "  Max_Repetition = Default_Value;\n"
    "  Min_Repetition = Default_Value;\n"
    "  Multiple_of = Default_Value;\n"
    "  Time_Measurement = Invalid_Value;\n"
    "  Time_Suite = Invalid_Value;\n"
    "  Node_Times = yes;\n"
    "  Cut_Quantile = Default_Value;\n"
    "  Default_Chunks = 0;\n"
    "  Default_Message_length = 256;\n"
    "  Start_Argument = 0;\n"
    "  End_Argument = Max_Value;\n"
    "  Stepwidth = 1.414213562;\n"
    "  Max_Steps = Default_Value;\n"
    "  Min_Distance = 2;\n"
    "  Max_Distance = 512;\n"
    "  Standard_error = Default_Value;\n"
    "}\n";

int main(void)
{
    /* Figure 1 as printed: the dynamic vector 50 on both sides */
    CHECK_EQ_LONG(sk_config_parse(figure1, "fig1.skampi", &cfg, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_STR(cfg.machine, "IBM SP");
    CHECK_STR(cfg.node, "thin");
    CHECK_STR(cfg.network, "hpf-switch3");
    CHECK_STR(cfg.mpiversion, "aix-mpi library");
    CHECK_STR(cfg.user, "R. Reussner");
    CHECK_EQ_LONG(cfg.memory_kb, 8192);
    CHECK_STR(cfg.outfile, "skampi.out");
    CHECK_STR(cfg.logfile, "skampi.log");
    CHECK_EQ_LONG(cfg.postproc, 0);
    CHECK_EQ_LONG(cfg.cachewarmup, 5);
    CHECK_STR(cfg.basetype[1], "MPI_INT");
    CHECK_EQ_LONG(cfg.nsuites, 1);
    sk_suite *s = &cfg.suites[0];
    CHECK_STR(s->name, "MPI_Send-MPI_Recv-dynamicVector1");
    CHECK_EQ_LONG(s->line, 13);
    CHECK_EQ_LONG(s->type, 1);
    CHECK_EQ_LONG(s->basetype, 1);
    CHECK_EQ_LONG(s->send_datatype, 50);
    CHECK_EQ_LONG(s->recv_datatype, 50);
    CHECK_EQ_LONG(s->variation, SK_VAR_LENGTH);
    CHECK_EQ_LONG(s->scale, SK_DYNAMIC_LOG);
    CHECK_EQ_LONG(s->max_rep, SK_DEF_MAX_REPETITION);
    CHECK_EQ_LONG(s->min_rep, SK_DEF_MIN_REPETITION);
    CHECK_EQ_LONG(s->multiple_of, 0);
    CHECK(s->time_measurement == 0 && s->time_suite == 0);
    CHECK_EQ_LONG(s->node_times, 1);
    CHECK(s->cut_quantile == SK_DEF_CUT_QUANTILE);
    CHECK_EQ_LONG(s->default_chunks, 0);
    CHECK_EQ_LONG(s->default_length, 256);
    CHECK(s->start == 0);
    CHECK_EQ_LONG(s->end_is_max, 1);
    CHECK(fabs(s->stepwidth - 1.414213562) < 1e-12);
    CHECK_EQ_LONG(s->max_steps, SK_DEF_MAX_STEPS);
    CHECK(s->min_distance == 2 && s->max_distance == 512);
    CHECK(s->standard_error == SK_DEF_STANDARD_ERROR);
    CHECK_EQ_LONG(s->sync, SK_SYNC_BARRIER);
    CHECK_EQ_LONG(s->key_line[SK_STEPWIDTH], 32);
    sk_config_free(&cfg);

    /* every key with an explicit value, keys case-insensitive, comments */
    CHECK_EQ_LONG(parse_suite("  basetype_number = 2;\n  Variation = Length; # comment\n"
                              "  Scale = Fixed_linear;\n  Max_Repetition = 50;\n  Min_Repetition = 3;\n"
                              "  Multiple_of = 8;\n  Time_Measurement = 1.5;\n  Time_Suite = 60;\n"
                              "  Node_Times = no;\n  Cut_Quantile = 0.25;\n  Default_Chunks = 7;\n"
                              "  Default_Message_length = 1024;\n  Start_Argument = 16;\n"
                              "  End_Argument = 4096;\n  Stepwidth = 64;\n  Max_Steps = 9;\n"
                              "  Min_Distance = Invalid_Value;\n  Max_Distance = Invalid_Value;\n"
                              "  Standard_error = 0.05;\n  Synchronization = Barrier;\n"),
                  -1); /* @BASETYPE2 undefined */
    CHECK_STR(err, "t.skampi:6: suite 'S': key 'Basetype_Number': @BASETYPE2 is not defined in the preamble");
    char text[4096];
    snprintf(text, sizeof text,
             "@BASETYPE2 MPI_DOUBLE\n@POSTPROC yes\n@MEASUREMENTS\nS\n{\n Type = 1;\n basetype_number = 2;\n"
             " Scale = Fixed_linear;\n Max_Repetition = 50;\n Min_Repetition = 3;\n Multiple_of = 8;\n"
             " Time_Measurement = 1.5;\n Time_Suite = 60;\n Node_Times = no;\n Cut_Quantile = 0.25;\n"
             " Default_Chunks = 7;\n Default_Message_length = 1024;\n Start_Argument = 16;\n"
             " End_Argument = 4096;\n Stepwidth = 64;\n Max_Steps = 9;\n Min_Distance = Invalid_Value;\n"
             " Max_Distance = Max_Value;\n Standard_error = 0.05;\n Synchronization = Window;\n"
             " Variation = Default_Value;\n}\n"
             "T\n{\n Type = 18;\n Variation = Nodes;\n Scale = Dynamic_linear;\n}\n"
             "U { \n");
    CHECK_EQ_LONG(sk_config_parse(text, "t.skampi", &cfg, err, sizeof err), -1);
    CHECK_STR(err, "t.skampi:34: expected a suite name or '{', got 'U {'");
    text[strlen(text) - 5] = '\0';
    CHECK_EQ_LONG(sk_config_parse(text, "t.skampi", &cfg, err, sizeof err), 0);
    CHECK_EQ_LONG(cfg.nsuites, 2);
    CHECK_EQ_LONG(cfg.postproc, 1);
    CHECK_STR(cfg.basetype[1], "MPI_INT"); /* the default when @BASETYPE1 is not given */
    CHECK_STR(cfg.basetype[2], "MPI_DOUBLE");
    CHECK_STR(cfg.outfile, "skampi.out");
    CHECK_EQ_LONG(cfg.memory_kb, SK_DEF_MEMORY_KB);
    s = &cfg.suites[0];
    CHECK_EQ_LONG(s->basetype, 2);
    CHECK_EQ_LONG(s->scale, SK_FIXED_LINEAR);
    CHECK_EQ_LONG(s->max_rep, 50);
    CHECK_EQ_LONG(s->min_rep, 3);
    CHECK_EQ_LONG(s->multiple_of, 8);
    CHECK(s->time_measurement == 1.5 && s->time_suite == 60);
    CHECK_EQ_LONG(s->node_times, 0);
    CHECK(s->cut_quantile == 0.25);
    CHECK_EQ_LONG(s->default_chunks, 7);
    CHECK_EQ_LONG(s->default_length, 1024);
    CHECK(s->start == 16 && s->end == 4096 && !s->end_is_max);
    CHECK(s->stepwidth == 64);
    CHECK_EQ_LONG(s->max_steps, 9);
    CHECK(s->min_distance == 0 && s->max_distance == 0);
    CHECK(s->standard_error == 0.05);
    CHECK_EQ_LONG(s->sync, SK_SYNC_WINDOW);
    CHECK_EQ_LONG(s->variation, SK_VAR_LENGTH);
    CHECK_EQ_LONG(cfg.suites[1].variation, SK_VAR_NODES);
    CHECK_EQ_LONG(cfg.suites[1].scale, SK_DYNAMIC_LINEAR);
    sk_config_free(&cfg);

    /* simple pattern: no variation */
    snprintf(text, sizeof text, "@MEASUREMENTS\nW\n{\n Type = 24;\n}\n");
    CHECK_EQ_LONG(sk_config_parse(text, "t.skampi", &cfg, err, sizeof err), 0);
    CHECK_EQ_LONG(cfg.suites[0].variation, SK_VAR_NONE);
    sk_config_free(&cfg);
    /* Variation = Chunks: every master-worker type takes it, no other pattern */
    for (int t = 10; t <= 16; t++) {
        snprintf(text, sizeof text,
                 "@MEASUREMENTS\nM\n{\n Type = %d;\n Variation = Chunks;\n End_Argument = 8;\n}\n", t);
        CHECK_EQ_LONG(sk_config_parse(text, "t.skampi", &cfg, err, sizeof err), 0);
        CHECK_EQ_LONG(cfg.suites[0].variation, SK_VAR_CHUNKS);
        CHECK(cfg.suites[0].end == 8 && !cfg.suites[0].end_is_max);
        sk_config_free(&cfg);
    }
    ERR_IS("  Variation = Chunks;\n",
           "t.skampi:6: suite 'S': key 'Variation': Chunks is not a variation of the ping-pong pattern (type 1)");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 34;\n Variation = Chunks;\n}\n",
             "t.skampi:5: suite 'S': key 'Variation': Chunks is not a variation of the ping-pong pattern (type 34)");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 45;\n Variation = Chunks;\n}\n",
             "t.skampi:5: suite 'S': key 'Variation': Chunks is not a variation of the collective pattern (type 45)");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 28;\n Variation = Chunks;\n}\n",
             "t.skampi:5: suite 'S': key 'Variation': type 28 (MPI_Buffer_attach) is a simple-pattern "
             "instance: no variation is possible");

    /* ---- every error names file, line and key ---- */
    ERR_IS("  Stepwidht = 2;\n", "t.skampi:6: suite 'S': unknown key 'Stepwidht'");
    ERR_IS("  Type = 1;\n", "t.skampi:6: suite 'S': key 'Type': given twice (first on line 5)");
    ERR_IS("  Stepwidth = 2\n", "t.skampi:6: suite 'S': key 'Stepwidth': missing ';' after the value");
    ERR_IS("  Stepwidth = ;\n", "t.skampi:6: suite 'S': key 'Stepwidth': missing value");
    ERR_IS("  Stepwidth 2;\n", "t.skampi:6: suite 'S': expected 'Key = value;', got 'Stepwidth 2;'");
    ERR_IS("  Max_Repetition = 2.5;\n", "t.skampi:6: suite 'S': key 'Max_Repetition': '2.5' is not an integer");
    ERR_IS("  Max_Repetition = 0;\n", "t.skampi:6: suite 'S': key 'Max_Repetition': 0 is below the minimum 1");
    ERR_IS("  Min_Repetition = many;\n", "t.skampi:6: suite 'S': key 'Min_Repetition': 'many' is not an integer");
    ERR_IS("  Min_Repetition = 50;\n", "t.skampi:6: suite 'S': key 'Min_Repetition': 50 is above Max_Repetition 40");
    ERR_IS("  Max_Repetition = 4;\n  Min_Repetition = 5;\n",
           "t.skampi:7: suite 'S': key 'Min_Repetition': 5 is above Max_Repetition 4");
    CHECK_EQ_LONG(parse_suite("  Max_Repetition = 4;\n"), 0); /* the default minimum follows */
    CHECK_EQ_LONG(cfg.suites[0].min_rep, 4);
    sk_config_free(&cfg);
    ERR_IS("  Multiple_of = Max_Value;\n", "t.skampi:6: suite 'S': key 'Multiple_of': 'Max_Value' is not an integer");
    ERR_IS("  Time_Measurement = -1;\n",
           "t.skampi:6: suite 'S': key 'Time_Measurement': '-1' is not a positive number of seconds or Invalid_Value");
    ERR_IS("  Time_Suite = soon;\n",
           "t.skampi:6: suite 'S': key 'Time_Suite': 'soon' is not a positive number of seconds or Invalid_Value");
    ERR_IS("  Node_Times = maybe;\n", "t.skampi:6: suite 'S': key 'Node_Times': 'maybe' is not yes or no");
    ERR_IS("  Cut_Quantile = 0.5;\n", "t.skampi:6: suite 'S': key 'Cut_Quantile': 0.5 must be below 0.5");
    ERR_IS("  Cut_Quantile = -0.1;\n", "t.skampi:6: suite 'S': key 'Cut_Quantile': -0.1 must be at least 0");
    ERR_IS("  Default_Chunks = -1;\n", "t.skampi:6: suite 'S': key 'Default_Chunks': -1 is below the minimum 0");
    ERR_IS("  Default_Message_length = x;\n",
           "t.skampi:6: suite 'S': key 'Default_Message_length': 'x' is not an integer");
    ERR_IS("  Start_Argument = -4;\n", "t.skampi:6: suite 'S': key 'Start_Argument': -4 must be at least 0");
    ERR_IS("  Start_Argument = 64;\n  End_Argument = 32;\n",
           "t.skampi:7: suite 'S': key 'End_Argument': 32 is below Start_Argument 64");
    ERR_IS("  End_Argument = big;\n", "t.skampi:6: suite 'S': key 'End_Argument': 'big' is not a number");
    ERR_IS("  Stepwidth = 0;\n", "t.skampi:6: suite 'S': key 'Stepwidth': 0 must be greater than 0");
    ERR_IS("  Stepwidth = 1;\n",
           "t.skampi:6: suite 'S': key 'Stepwidth': 1: a logarithmic scale needs a factor above 1");
    ERR_IS("  Max_Steps = 0;\n", "t.skampi:6: suite 'S': key 'Max_Steps': 0 is below the minimum 1");
    /* the refinement's points are an int count allocated up front */
    ERR_IS("  Max_Steps = 1e15;\n",
           "t.skampi:6: suite 'S': key 'Max_Steps': 1e15 is above the limit of 1000000 measurements");
    ERR_IS("  Min_Distance = 100;\n  Max_Distance = 10;\n",
           "t.skampi:6: suite 'S': key 'Min_Distance': 100 is above Max_Distance 10");
    ERR_IS("  Max_Distance = 0;\n", "t.skampi:6: suite 'S': key 'Max_Distance': 0 must be greater than 0");
    ERR_IS("  Standard_error = 0;\n", "t.skampi:6: suite 'S': key 'Standard_error': 0 must be greater than 0");
    ERR_IS("  Standard_error = 2;\n", "t.skampi:6: suite 'S': key 'Standard_error': 2 must be at most 1");
    ERR_IS("  Synchronization = Clock;\n",
           "t.skampi:6: suite 'S': key 'Synchronization': 'Clock' is not Barrier or Window");
    ERR_IS("  Variation = Size;\n",
           "t.skampi:6: suite 'S': key 'Variation': 'Size' is not Length, Nodes, Chunks or None");
    ERR_IS("  Variation = Nodes;\n",
           "t.skampi:6: suite 'S': key 'Variation': Nodes is not a variation of the ping-pong pattern (type 1)");
    ERR_IS("  Scale = Log;\n",
           "t.skampi:6: suite 'S': key 'Scale': 'Log' is not Fixed_linear, Fixed_log, Dynamic_linear or Dynamic_log");
    ERR_IS("  Send_Datatype_Number = 51;\n",
           "t.skampi:6: suite 'S': key 'Send_Datatype_Number': unknown datatype pattern 51 "
           "(0-13 and 50; see docs/skampi-datatypes.md)");
    ERR_IS("  Receive_Datatype_Number = 14;\n",
           "t.skampi:6: suite 'S': key 'Receive_Datatype_Number': unknown datatype pattern 14 "
           "(0-13 and 50; see docs/skampi-datatypes.md)");
    ERR_IS("  Send_Datatype_Number = -1;\n",
           "t.skampi:6: suite 'S': key 'Send_Datatype_Number': -1 is below the minimum 0");
    /* send and receive patterns: any pair, lengths whole elements of both */
    CHECK_EQ_LONG(parse_suite("  Send_Datatype_Number = 9;\n  Receive_Datatype_Number = 13;\n"
                              "  Multiple_of = 96;\n"), 0);
    CHECK_EQ_LONG(cfg.suites[0].send_datatype, 9);
    CHECK_EQ_LONG(cfg.suites[0].recv_datatype, 13);
    CHECK_EQ_LONG(parse_suite("  Send_Datatype_Number = 0;\n  Receive_Datatype_Number = 0;\n"
                              "  Multiple_of = 4;\n"), 0);
    ERR_IS("  Send_Datatype_Number = 0;\n  Receive_Datatype_Number = 5;\n  Multiple_of = 24;\n",
           "t.skampi:8: suite 'S': key 'Multiple_of': 24 is not a multiple of 48 bytes, one element of "
           "datatype pattern 5 over @BASETYPE1: send and receive types would not match");
    ERR_IS("  Basetype_Number = 17;\n",
           "t.skampi:6: suite 'S': key 'Basetype_Number': 17 is above the largest @BASETYPE number 16");

    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 9;\n}\n",
             "t.skampi:4: suite 'S': key 'Type': unknown type 9 (see the type table in docs/skampi.md)");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = Bcast;\n}\n",
             "t.skampi:4: suite 'S': key 'Type': 'Bcast' is not a type number");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Scale = Fixed_log;\n}\n", "t.skampi:2: suite 'S': missing key 'Type'");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 24;\n Variation = Length;\n}\n",
             "t.skampi:5: suite 'S': key 'Variation': type 24 (MPI_Wtime) is a simple-pattern instance: "
             "no variation is possible");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 19;\n}\n",
             "t.skampi:2: suite 'S': key 'Variation': type 19 (MPI_Barrier) sends no message: vary Nodes instead");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 18;\n Variation = Chunks;\n}\n",
             "t.skampi:5: suite 'S': key 'Variation': Chunks is not a variation of the collective pattern (type 18)");
    ERR_TEXT("@BASETYPE1 MPI_CHAR\n@MEASUREMENTS\nS\n{\n Type = 20;\n}\n",
             "t.skampi:3: suite 'S': key 'Basetype_Number': type 20 (MPI_Reduce) reduces with MPI_SUM: "
             "MPI_SUM is not defined for base type MPI_CHAR");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 34;\n Send_Datatype_Number = 2;\n Receive_Datatype_Number = 3;\n}\n",
             "t.skampi:6: suite 'S': key 'Receive_Datatype_Number': type 34 (MPI_Sendrecv_replace) has one "
             "datatype for both directions: 3 differs from Send_Datatype_Number 2");
    CHECK_EQ_LONG(sk_config_parse("@MEASUREMENTS\nS\n{\n Type = 34;\n Send_Datatype_Number = 2;\n"
                                  " Receive_Datatype_Number = 2;\n}\n", "t.skampi", &cfg, err, sizeof err), 0);
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 36;\n Receive_Datatype_Number = 1;\n}\n",
             "t.skampi:5: suite 'S': key 'Receive_Datatype_Number': type 36 (MPI_Allreduce) reduces with "
             "MPI_SUM, which MPI defines on built-in datatypes only: datatype pattern 0");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 19;\n Variation = Nodes;\n Send_Datatype_Number = 2;\n}\n",
             "t.skampi:6: suite 'S': key 'Send_Datatype_Number': type 19 (MPI_Barrier) sends no data: "
             "datatype patterns do not apply (0 only)");
    ERR_TEXT("@BASETYPE1 (1,0,MPI_INT)\n@MEASUREMENTS\nS\n{\n Type = 20;\n}\n",
             "t.skampi:3: suite 'S': key 'Basetype_Number': type 20 (MPI_Reduce) reduces with MPI_SUM: "
             "MPI_SUM is not defined for base type (1,0,MPI_INT)");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 1;\n", "t.skampi:2: suite 'S': missing '}' at the end of the file");
    ERR_TEXT("@MEASUREMENTS\nS\nT\n", "t.skampi:2: suite 'S' has no '{' block");
    ERR_TEXT("@MEASUREMENTS\nS\n", "t.skampi:2: suite 'S' has no '{' block");
    ERR_TEXT("@MEASUREMENTS\n{\n", "t.skampi:2: '{' without a suite name before it");
    ERR_TEXT("@MEASUREMENTS\nS\n{\n Type = 1;\n}\nS\n{\n Type = 1;\n}\n",
             "t.skampi:6: suite 'S' is defined twice (first on line 2)");
    ERR_TEXT("@MEASUREMENTS\n", "t.skampi:1: @MEASUREMENTS lists no suites");
    ERR_TEXT("@MACHINE x\n", "t.skampi:1: no @MEASUREMENTS section");
    ERR_TEXT("MACHINE x\n", "t.skampi:1: expected an @KEY line in the preamble, got 'MACHINE x'");
    ERR_TEXT("@MACHIN x\n", "t.skampi:1: unknown preamble key '@MACHIN'");
    ERR_TEXT("@MEMORY lots\n", "t.skampi:1: @MEMORY: 'lots' is not a positive number of KB");
    ERR_TEXT("@MEMORY 0\n", "t.skampi:1: @MEMORY: '0' is not a positive number of KB");
    ERR_TEXT("@CACHEWARMUP -1\n", "t.skampi:1: @CACHEWARMUP: '-1' is not a non-negative count");
    /* numbers whose arithmetic would overflow: a limit, named with the line */
    ERR_TEXT("@MEMORY 1073741825\n", "t.skampi:1: @MEMORY: 1073741825 is above the limit of 1073741824");
    ERR_TEXT("@CACHEWARMUP 4294967297\n",
             "t.skampi:1: @CACHEWARMUP: 4294967297 is above the limit of 2147483647");
    ERR_TEXT("@MEMORY 99999999999999999999999\n",
             "t.skampi:1: @MEMORY: '99999999999999999999999' is not a positive number of KB");
    ERR_TEXT("@POSTPROC perhaps\n", "t.skampi:1: @POSTPROC: 'perhaps' is not yes or no");
    ERR_TEXT("@OUTFILE\n", "t.skampi:1: @OUTFILE: missing value");
    ERR_TEXT("@LOGFILE   \n", "t.skampi:1: @LOGFILE: missing value");
    ERR_TEXT("@BASETYPE0 MPI_INT\n", "t.skampi:1: @BASETYPE0: base type numbers are 1..16");
    ERR_TEXT("@BASETYPE1 MPI_LONG_DOUBLE\n",
             "t.skampi:1: @BASETYPE1: 'MPI_LONG_DOUBLE' is not a base type: a built-in type (MPI_CHAR, "
             "MPI_BYTE, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE) or triples (count, offset, type) ...");
    ERR_TEXT("@BASETYPE2 (2,2,MPI_INT)\n",
             "t.skampi:1: @BASETYPE2: '(2,2,MPI_INT)': triple 1: offset 2 is not a non-negative multiple of "
             "the 4 bytes of MPI_INT");
    ERR_TEXT("@BASETYPE2 (2,0,MPI_INT) (1,4,MPI_FLOAT)\n",
             "t.skampi:1: @BASETYPE2: '(2,0,MPI_INT) (1,4,MPI_FLOAT)': triples 1 and 2 overlap");
    ERR_TEXT("@BASETYPE2 (2,0,MPI_INT) (1,8)\n",
             "t.skampi:1: @BASETYPE2: '(2,0,MPI_INT) (1,8)': expected a triple (count, offset, type) at '(1,8)'");
    ERR_TEXT("@BASETYPE2 (0,0,MPI_INT)\n",
             "t.skampi:1: @BASETYPE2: '(0,0,MPI_INT)': triple 1: count 0 is not in 1..1024");
    ERR_TEXT("@BASETYPE2 (1,0,MPI_INTEGER)\n",
             "t.skampi:1: @BASETYPE2: '(1,0,MPI_INTEGER)': 'MPI_INTEGER' is not a built-in type (MPI_CHAR, "
             "MPI_BYTE, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE)");
    /* an offset of 84 digits (strtol: LONG_MAX) plus its count once overflowed
     * (fuzz_skampi_config); offsets stop at 1 MiB */
    ERR_TEXT("@BASETYPE4 (5,666666666666666666666666666666666666666666666666666666666666666666666666"
             "666666666666,MPI_BYTE)\n",
             "t.skampi:1: @BASETYPE4: '(5,666666666666666666666666666666666666666666666666666666666666666"
             "666666666666666666666,MPI_BYTE)': triple 1: offset above 1048576 bytes");
    ERR_TEXT("@BASETYPE2 (1,0,MPI_INT) (2,1048580,MPI_INT)\n",
             "t.skampi:1: @BASETYPE2: '(1,0,MPI_INT) (2,1048580,MPI_INT)': triple 2: offset above "
             "1048576 bytes");
    CHECK_EQ_LONG(sk_config_parse("@BASETYPE2 (1,1048576,MPI_DOUBLE)\n@MEASUREMENTS\nS\n{\n Type = 1;\n"
                                  " Basetype_Number = 2;\n}\n", "t.skampi", &cfg, err, sizeof err), 0);
    CHECK_EQ_LONG(sk_config_parse("@BASETYPE2 (2,0,MPI_INT),(1,8,MPI_DOUBLE)\n@MEASUREMENTS\nS\n{\n Type = 1;\n"
                                  " Basetype_Number = 2;\n Send_Datatype_Number = 7;\n}\n",
                                  "t.skampi", &cfg, err, sizeof err), 0);
    CHECK_STR(cfg.basetype[2], "(2,0,MPI_INT),(1,8,MPI_DOUBLE)");

    UNIT_DONE();
}
