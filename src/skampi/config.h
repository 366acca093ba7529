/* The .skampi configuration file (SKaMPI paper, section 3 and Figure 1):
 * a preamble of @KEY lines, then @MEASUREMENTS and named suites, each a
 * block { Key = value; ... }.  Pure: parsing and validation that needs no
 * MPI; errors name the file, the line and the key. */
#ifndef SK_CONFIG_H
#define SK_CONFIG_H

#include "skampi/config_types.h"

#include <stddef.h>

/* Parse the text of a configuration file named `path` (for messages).
 * Returns 0, or -1 with "path:line: ..." in err. */
int sk_config_parse(const char *text, const char *path, sk_config *c, char *err, size_t errlen);
void sk_config_free(sk_config *c);

#endif
