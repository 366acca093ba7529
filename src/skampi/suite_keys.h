/* A suite's keys (SKaMPI paper, Figure 1, plus effbench's
 * Synchronization): their names, the defaults of a new suite, the value of
 * one key, and the checks that need the whole suite.  Pure; errors name the
 * file, the line and the key. */
#ifndef SK_SUITE_KEYS_H
#define SK_SUITE_KEYS_H

#include "skampi/config.h"

#include <stddef.h>

extern const char *const sk_key_names[SK_NKEYS];

const char *sk_variation_name(enum sk_variation v);
const char *sk_scale_name(enum sk_scale s);

/* "path:LINE: suite 'NAME': key 'KEY': " prefix for messages about a key. */
int sk_suite_err(const sk_config *c, const sk_suite *s, enum sk_key k, char *err, size_t errlen,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A new suite: every key at its Default_Value. */
void sk_suite_defaults(sk_suite *s);
/* Set key k of s from its value text (trimmed, without the ';').
 * 0, or -1 and why. */
int sk_suite_set_key(const sk_config *c, sk_suite *s, enum sk_key k, const char *value, char *err,
                     size_t errlen);
/* At the suite's '}': the checks that need all its keys and the preamble.
 * 0, or -1 and why. */
int sk_suite_check(const sk_config *c, sk_suite *s, char *err, size_t errlen);

#endif
