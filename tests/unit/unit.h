/* A minimal unit-test harness: CHECK keeps going and counts failures,
 * main returns non-zero if any failed.  Tests here use no MPI launcher
 * (functions that call MPI need MPI_Init, which singleton mode allows). */
#ifndef EB_UNIT_H
#define EB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures, unit_checks;

#define CHECK(cond)                                                              \
    do {                                                                         \
        unit_checks++;                                                           \
        if (!(cond)) {                                                           \
            unit_failures++;                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ_LONG(a, b)                                                      \
    do {                                                                         \
        long long a_ = (long long)(a), b_ = (long long)(b);                      \
        unit_checks++;                                                           \
        if (a_ != b_) {                                                          \
            unit_failures++;                                                     \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
        }                                                                        \
    } while (0)

#define CHECK_STR(a, b)                                                          \
    do {                                                                         \
        const char *a_ = (a), *b_ = (b);                                         \
        unit_checks++;                                                           \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                 \
            unit_failures++;                                                     \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
                    a_ ? a_ : "(null)", b_ ? b_ : "(null)");                     \
        }                                                                        \
    } while (0)

#define UNIT_DONE()                                                              \
    do {                                                                         \
        printf("%d checks, %d failed\n", unit_checks, unit_failures);            \
        return unit_failures != 0;                                               \
    } while (0)

#endif
