#include "skampi/datatypes.h"

#include "core/error.h"

#include <string.h>
#include <strings.h>

typedef struct {
    const char *name;
    int size;
    int reducible;
} builtin;

static const builtin builtins[] = {
    {"MPI_CHAR", (int)sizeof(char), 0},
    {"MPI_INT", (int)sizeof(int), 1},
    {"MPI_FLOAT", (int)sizeof(float), 1},
    {"MPI_DOUBLE", (int)sizeof(double), 1},
};

static const builtin *find(const char *text)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (!strcasecmp(text, builtins[i].name))
            return &builtins[i];
    return NULL;
}

int sk_basetype_check(const char *text, char *err, size_t errlen)
{
    if (find(text))
        return 0;
    if (strchr(text, '(') || strchr(text, ','))
        return eb_err(err, errlen, "'%s': simple-structure base types are not supported yet "
                      "(supported: MPI_CHAR, MPI_INT, MPI_FLOAT, MPI_DOUBLE)", text);
    return eb_err(err, errlen, "'%s' is not a supported base type "
                  "(supported: MPI_CHAR, MPI_INT, MPI_FLOAT, MPI_DOUBLE)", text);
}

int sk_basetype_reducible(const char *text, char *err, size_t errlen)
{
    const builtin *b = find(text);
    if (b && b->reducible)
        return 1;
    eb_err(err, errlen, "MPI_SUM is not defined for base type %s", text);
    return 0;
}

int sk_basetype_size(const char *text)
{
    const builtin *b = find(text);
    return b ? b->size : 0;
}

MPI_Datatype sk_basetype_mpi(const char *text)
{
    const builtin *b = find(text);
    if (!b)
        return MPI_DATATYPE_NULL;
    if (b->name[4] == 'C')
        return MPI_CHAR;
    if (b->name[4] == 'I')
        return MPI_INT;
    if (b->name[4] == 'F')
        return MPI_FLOAT;
    return MPI_DOUBLE;
}

int sk_datatype_check(int number, char *err, size_t errlen)
{
    if (number == 0)
        return 0;
    return eb_err(err, errlen, "datatype pattern %d is not supported yet "
                  "(supported: 0, the contiguous base type)", number);
}

int sk_datatype_make(const char *basetype, int number, sk_datatype *d, char *err, size_t errlen)
{
    if (sk_basetype_check(basetype, err, errlen) || sk_datatype_check(number, err, errlen))
        return -1;
    d->type = sk_basetype_mpi(basetype);
    d->size = sk_basetype_size(basetype);
    d->derived = 0;
    return 0;
}

void sk_datatype_free(sk_datatype *d)
{
    if (d->derived)
        MPI_Type_free(&d->type);
    d->derived = 0;
}
