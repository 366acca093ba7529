/* OSU 7.4's option letter sets: the getopt strings of its builds without
 * accelerators, grouped as c/util/osu_util_options.h groups them (one per
 * benchmark type and subtype).  A program's .optstring names one, plus the
 * letters of its own (the rooted collectives' -k, the one-sided pieces).
 * The order is OSU's and matters: -h lists the options in it, and the
 * leading "+:" stops getopt at the first non-option and reports a missing
 * value as ':'.  Each letter's meaning is the table in osu_options.c;
 * tests/unit/test_osu_options.c holds every program's string as OSU has it. */
#ifndef EB_OSU_OPTSETS_H
#define EB_OSU_OPTSETS_H

/* point-to-point */
#define OSU_OPTS_PT2PT_LAT "+:hvm:x:i:b:c::u:G:D:P:T:Iz::"
#define OSU_OPTS_PT2PT_BW "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"
#define OSU_OPTS_PT2PT_LAT_MT "+:hvm:x:i:t:c::u:G:D:T:Iz::"
#define OSU_OPTS_PT2PT_LAT_MP "+:hvm:x:i:t:c::u:G:D:P:T:Iz::"
#define OSU_OPTS_PT2PT_CONG_BW "+:hvm:x:i:W:b:G:D:P:T:Iz::" /* osu_bw_fan_in/out */
#define OSU_OPTS_MBW_MR "p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::"

/* blocking and persistent collectives */
#define OSU_OPTS_COLL_ALLTOALL "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"
#define OSU_OPTS_COLL_BCAST "+:hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"
#define OSU_OPTS_COLL_BARRIER "+:hvfm:i:x:M:a:u:G:P:Iz::"
#define OSU_OPTS_COLL_ALLREDUCE "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"
#define OSU_OPTS_COLL_NHBR "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"

/* non-blocking collectives: the same with -t (MPI_Test calls) */
#define OSU_OPTS_NBC_ALLTOALL "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"
#define OSU_OPTS_NBC_BCAST "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Iz::"
#define OSU_OPTS_NBC_BARRIER "+:hvfm:i:x:M:t:a:G:P:Iz::"
#define OSU_OPTS_NBC_ALLREDUCE "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"
#define OSU_OPTS_NBC_NHBR "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"

/* added by the rooted collectives that have OSU's -k (gather, scatter, reduce) */
#define OSU_OPT_ROOT "k:"

/* one-sided: OSU assembles the string from a base, -W for the bandwidth
 * programs, -P, and "cT:" for those that show validation (the atomics) */
#define OSU_OPTS_ONE_SIDED "+:w:s:hvm:x:i:G:Iz::"
#define OSU_OPT_WINDOW "W:"
#define OSU_OPT_PAPI "P:"
#define OSU_OPT_VALIDATION "cT:"

/* start-up: osu_init takes -I only, osu_hello nothing */
#define OSU_OPTS_STARTUP_INIT "I"
#define OSU_OPTS_NONE ""

#endif
