/* Shared by the libFuzzer targets (bench/fuzz, docs/testing.md): the input
 * as a NUL-terminated text, and a parser's rejection message held to the
 * rule every user error follows (non-empty, one line, printable). */
#ifndef EB_FUZZ_H
#define EB_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A clean message: something said, on one line.  (The message may quote the
 * input, so only a newline, which would split the one error line, is banned.) */
static inline void fuzz_clean_message(const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n'))
        abort();
}

#endif
