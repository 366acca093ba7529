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

/* The input as a command line: argv[0] = prog, then one word a line of
 * text (split in place), at most max words; argv[argc] = NULL.  Returns argc. */
static inline int fuzz_words(char *text, const char *prog, char **argv, int max)
{
    int argc = 0;
    argv[argc++] = (char *)prog;
    for (char *p = text; p && argc <= max;) {
        argv[argc++] = p;
        p = strchr(p, '\n');
        if (p)
            *p++ = '\0';
    }
    argv[argc] = NULL;
    return argc;
}

/* The part of the input after its first NUL byte, as a NUL-terminated text
 * (a file the command line names: -msglen, -input), or NULL when the input
 * has no NUL.  The caller frees it. */
static inline char *fuzz_file_part(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    if (!nul)
        return NULL;
    return fuzz_text(nul + 1, size - (size_t)(nul + 1 - data));
}

/* A clean message: something said, on one line.  (The message may quote the
 * input, so only a newline, which would split the one error line, is banned.) */
static inline void fuzz_clean_message(const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n'))
        abort();
}

#endif
