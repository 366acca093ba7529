/* IMB-IO helpers without MPI (unit-tested): IMB's BUF_VALUE data for file
 * I/O, the split of an I/O portion among processes, file names, the
 * User_Set_Info hints file, and the checks of shared-file-pointer data. */
#ifndef EB_IMB_IO_UTIL_H
#define EB_IMB_IO_UTIL_H

#include <stddef.h>

/* IMB-IO's assign_type is int: data and portions come in 4-byte units. */
#define EB_IO_UNIT 4

/* BUF_VALUE(rank, i) = 10000000*(1+rank) + i%10000000, as a 32-bit int
 * (computed unsigned so large ranks wrap instead of overflowing). */
unsigned eb_io_value(int rank, size_t i);

/* Byte k of the int array BUF_VALUE(rank, 0), BUF_VALUE(rank, 1), ...
 * in native byte order. */
unsigned char eb_io_byte(int rank, size_t k);

/* Fill / check n bytes at p with bytes off..off+n-1 of rank's array;
 * the check returns the number of bytes that differ. */
void eb_io_fill(void *p, size_t n, int rank, size_t off);
long eb_io_check(const void *p, size_t n, int rank, size_t off);

/* Rank's part of an I/O portion of x bytes split among np processes in
 * whole ints (IMB_get_rank_portion): byte offset and length (0 for ranks
 * left without data when x is small). */
void eb_io_portion(size_t x, int np, int rank, size_t *off, size_t *len);

/* IMB-IO's disjoint file sections: where rank's part of repetition block b
 * lies.  A common file holds block b in bytes [b*x, (b+1)*x), rank's part
 * (eb_io_portion) at its offset in it; a file of the rank's own (S_, _priv)
 * holds its parts one after another.  Returns the file offset and the
 * part's length in *len. */
size_t eb_io_section(size_t x, int np, int rank, int own_file, long b, size_t *len);

/* File name of IMB's "File (IMB-IO)" rules: base, then "_g<group>" in
 * multiple mode (group >= 0), then "_<rank>" for per-process files
 * (rank >= 0).  Returns -1 if it does not fit. */
int eb_io_file_name(char *out, size_t outlen, const char *base, int group, int rank);

/* Hints of --info FILE ("key value" per line, '#' comments, blank lines). */
typedef struct {
    int n;
    char **key, **value;
} eb_io_hints;

int eb_io_parse_hints(const char *text, const char *fname, eb_io_hints *h, char *err,
                      size_t errlen);
void eb_io_hints_free(eb_io_hints *h);

/* Shared file pointers leave the order of the ranks' accesses open, not
 * what they cover: a block of x bytes must be the np pieces (piece[r] of
 * len[r] bytes, the lengths summing to x) one after another in some order,
 * each exactly once.  Returns the bytes of the block no such order accounts
 * for (0 = correct). */
long eb_io_check_tiling(const unsigned char *block, size_t x, int np,
                        const unsigned char *const *piece, const size_t *len);

/* A block written with a shared file pointer: the pieces are the ranks'
 * portions (lengths len[r], rank r's data its array from 0). */
long eb_io_check_shuffled(const unsigned char *block, size_t x, int np, const size_t *len);

#endif
