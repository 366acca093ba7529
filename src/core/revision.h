#ifndef EB_REVISION_H
#define EB_REVISION_H

#include <stddef.h> /* NULL: the generated definition's value outside a git checkout */

/* The source revision the program was built from (`git describe`, "-dirty" with uncommitted
 * changes, or what the packager gave as EFFBENCH_SOURCE_REVISION), NULL where not known:
 * the run record's "source_revision". Written at build time by cmake/source_revision.cmake. */
extern const char *const eb_source_revision;

#endif
