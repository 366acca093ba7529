/* The @LOGFILE of a run (rank 0): time-stamped lines that say which suites
 * began and ended, so that a rerun after a crash knows where to resume
 * (sk_read_log in skampi/output.h reads them back). */
#ifndef SK_LOGFILE_H
#define SK_LOGFILE_H

/* Open path for writing, or for appending when a crashed run is resumed.
 * 0, or -1 if it cannot be written. */
int sk_log_open(const char *path, int append);
/* One line "TIMESTAMP text\n", flushed; nothing when no log is open (the
 * ranks but 0). */
void sk_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sk_log_close(void);

#endif
