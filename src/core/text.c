#include "core/text.h"

#include <ctype.h>
#include <string.h>

char *eb_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int eb_text_line(const char **p, int *lineno, char *buf, size_t cap)
{
    if (**p == '\0')
        return 0;
    ++*lineno;
    const char *eol = strchr(*p, '\n');
    size_t n = eol ? (size_t)(eol - *p) : strlen(*p);
    if (n >= cap)
        return -1;
    memcpy(buf, *p, n);
    buf[n] = '\0';
    *p = eol ? eol + 1 : *p + n;
    char *s = eb_trim(buf);
    memmove(buf, s, strlen(s) + 1);
    return 1;
}
