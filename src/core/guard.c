#include "core/guard.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/text.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GUARD_TAG 4711
/* A rank other than 0 ends the job itself only this long after the deadline:
 * rank 0, which knows the most, has had its chance by then. */
#define OTHERS_GRACE_S 30.0

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double timeout_opt = -1;  /* --row-timeout: -1 default rule, 0 off */
static MPI_Comm guard_comm = MPI_COMM_NULL;
static char row_what[256];
static double row_deadline;      /* monotonic seconds; 0: no row armed */
static double row_timeout;       /* the armed row's timeout, for messages */
static int row_in_end;           /* the main thread is in eb_guard_row_end */
static int *row_ranks, row_nranks; /* world ranks of the row's communicator */
static long rows_done, rows_planned = -1;
static int ending;               /* the guard or the main thread is ending the run */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int my_rank; /* world rank, known before the thread starts */

static int world_rank(void) { return my_rank; }

void eb_guard_block_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int eb_guard_take_option(int *argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--row-timeout") != 0)
            continue;
        double v;
        if (i + 1 >= *argc || eb_parse_double(argv[i + 1], &v) || v < 0)
            return eb_err(err, errlen, "--row-timeout %s: expected seconds (0 turns the "
                          "watchdog off)", i + 1 < *argc ? argv[i + 1] : "(missing)");
        timeout_opt = v;
        memmove(&argv[i], &argv[i + 2], (size_t)(*argc - i - 2 + 1) * sizeof *argv);
        *argc -= 2;
        i--;
    }
    return 0;
}

void eb_guard_count_row(void)
{
    pthread_mutex_lock(&lock);
    rows_done++;
    pthread_mutex_unlock(&lock);
}

void eb_guard_plan_rows(long planned)
{
    pthread_mutex_lock(&lock);
    rows_planned = planned;
    pthread_mutex_unlock(&lock);
}

long eb_guard_rows_done(void)
{
    pthread_mutex_lock(&lock);
    long n = rows_done;
    pthread_mutex_unlock(&lock);
    return n;
}

long eb_guard_rows_planned(void)
{
    pthread_mutex_lock(&lock);
    long n = rows_planned;
    pthread_mutex_unlock(&lock);
    return n;
}

/* "after 12 of 40 rows" (or "after 12 rows" when nothing was planned). */
static void how_far(char *out, size_t n)
{
    long done = eb_guard_rows_done(), planned = eb_guard_rows_planned();
    if (planned >= 0)
        snprintf(out, n, "after %ld of %ld rows", done, planned);
    else
        snprintf(out, n, "after %ld rows", done);
}

/* End the run from wherever the guard noticed: the message on stderr, a last
 * line on stdout, the exit hooks (the JSON `end` record, b_eff_io's files),
 * then the whole job.  Only the first caller ends it. */
static _Noreturn void end_run(int status, const char *msg, int abort_job)
{
    pthread_mutex_lock(&lock);
    int first = !ending && !eb_exiting(); /* an exit under way ends the run itself */
    ending = 1;
    pthread_mutex_unlock(&lock);
    if (!first)
        for (;;)
            pause();
    if (world_rank() == 0) {
        eb_stderr_line("error", msg);
        /* held until the job ends: a row that another thread finishes now (MPI_Abort
         * wakes a stopped rank with SIGCONT before it kills) does not follow this line */
        flockfile(stdout);
        printf("# effbench: run ended: %s\n", msg);
        fflush(stdout);
    }
    eb_run_exit_hooks(status, msg);
    if (abort_job)
        MPI_Abort(MPI_COMM_WORLD, status); /* from this thread: the main one is stuck */
    _exit(status);
}

/* "3 (ebn2), 5 (ebn3)": world ranks with their hosts (names on rank 0). */
static void list_ranks(char *out, size_t n, const int *ranks, int k)
{
    const eb_nodemap *m = eb_world_nodes();
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < k && len + 1 < n; i++) {
        const char *host = m->name ? m->name[m->node_of[ranks[i]]] : "?";
        int w = snprintf(out + len, n - len, "%s%d (%s)", i ? ", " : "", ranks[i], host);
        if (w < 0)
            break;
        len += (size_t)w < n - len ? (size_t)w : n - len - 1;
    }
}

static void hang_in_row(void)
{
    char who[1024], far[64], msg[2048];
    pthread_mutex_lock(&lock);
    list_ranks(who, sizeof who, row_ranks, row_nranks);
    double t = row_timeout;
    pthread_mutex_unlock(&lock);
    how_far(far, sizeof far);
    int me = world_rank();
    if (me == 0)
        snprintf(msg, sizeof msg, "watchdog: row '%s' did not finish within %.0f s: rank 0 "
                 "waits inside it for a rank that did not arrive, among the row's ranks %s "
                 "(%s; --row-timeout sets the limit)", row_what, t, who, far);
    else
        snprintf(msg, sizeof msg, "watchdog: rank %d: row '%s' did not finish within %.0f s "
                 "and rank 0 did not end the run (%s)", me, row_what, t, far);
    if (me != 0)
        eb_stderr_line("error", msg);
    end_run(EB_EXIT_TIMEOUT, msg, 1);
}

static void *guard_thread(void *arg)
{
    (void)arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int me = world_rank();
    for (;;) {
        pthread_mutex_lock(&lock);
        double deadline = row_deadline > 0 && !row_in_end ? row_deadline : 0;
        pthread_mutex_unlock(&lock);
        if (deadline > 0 && me != 0)
            deadline += OTHERS_GRACE_S;
        double wait = deadline > 0 ? deadline - now_s() : 1.0;
        if (deadline > 0 && wait <= 0) {
            hang_in_row();
            continue;
        }
        if (wait > 1.0)
            wait = 1.0; /* look again: a new row may have a nearer deadline */
        struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
        siginfo_t info;
        int sig = sigtimedwait(&set, &info, &ts);
        if (sig == SIGTERM || sig == SIGINT) {
            char far[64], msg[256];
            how_far(far, sizeof far);
            snprintf(msg, sizeof msg, "ended by %s %s", sig == SIGTERM ? "SIGTERM" : "SIGINT",
                     far);
            end_run(EB_EXIT_SIGNAL_BASE + sig, msg, 0);
        }
    }
    return NULL;
}

void eb_guard_start(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &guard_comm); /* reports never meet a component's messages */
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, guard_thread, NULL) != 0)
        eb_warn("cannot start the guard thread: no watchdog, and SIGTERM ends the run "
                "without an end record");
    pthread_attr_destroy(&attr);
}

void eb_guard_row(const char *what, double expected_s, MPI_Comm comm)
{
    int n = 0;
    int *ranks = NULL;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_size(comm, &n);
        MPI_Group g, wg;
        MPI_Comm_group(comm, &g);
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        int *local = eb_malloc((size_t)n * sizeof *local);
        ranks = eb_malloc((size_t)n * sizeof *ranks);
        for (int i = 0; i < n; i++)
            local[i] = i;
        MPI_Group_translate_ranks(g, n, local, wg, ranks);
        free(local);
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
    }
    double t = timeout_opt >= 0 ? timeout_opt : EB_GUARD_FACTOR * expected_s;
    if (timeout_opt < 0 && t < EB_GUARD_MIN_TIMEOUT_S)
        t = EB_GUARD_MIN_TIMEOUT_S;
    pthread_mutex_lock(&lock);
    snprintf(row_what, sizeof row_what, "%s", what);
    row_timeout = t;
    row_deadline = t > 0 ? now_s() + t : 0;
    row_in_end = 0;
    free(row_ranks);
    row_ranks = ranks;
    row_nranks = n;
    pthread_mutex_unlock(&lock);
}

/* Rank 0 of comm: wait for every other rank's report until the deadline.
 * Returns the number missing, their world ranks in missing[]. */
static int collect_reports(int n, double deadline, int *missing)
{
    MPI_Request *req = eb_malloc((size_t)n * sizeof *req);
    char *tok = eb_malloc((size_t)n);
    for (int r = 1; r < n; r++)
        MPI_Irecv(&tok[r], 1, MPI_CHAR, row_ranks[r], GUARD_TAG, guard_comm, &req[r]);
    int left = n - 1;
    while (left > 0 && (deadline <= 0 || now_s() < deadline)) {
        int flag;
        MPI_Testall(n - 1, req + 1, &flag, MPI_STATUSES_IGNORE);
        if (flag)
            left = 0;
        else
            sched_yield();
    }
    int k = 0;
    if (left > 0)
        for (int r = 1; r < n; r++) {
            int flag;
            MPI_Test(&req[r], &flag, MPI_STATUS_IGNORE);
            if (!flag) {
                missing[k++] = row_ranks[r];
                MPI_Cancel(&req[r]);
            }
        }
    free(req);
    free(tok);
    return k;
}

void eb_guard_row_end(void)
{
    pthread_mutex_lock(&lock);
    row_in_end = 1;
    double deadline = row_deadline, t = row_timeout;
    int n = row_nranks, root = n > 0 ? row_ranks[0] : -1;
    pthread_mutex_unlock(&lock);
    int me = world_rank();
    if (n > 1 && root == 0 && guard_comm != MPI_COMM_NULL) {
        if (me != 0) {
            char tok = 1;
            MPI_Send(&tok, 1, MPI_CHAR, 0, GUARD_TAG, guard_comm);
        } else {
            int *missing = eb_malloc((size_t)n * sizeof *missing);
            int k = collect_reports(n, deadline, missing);
            if (k > 0) {
                char who[1024], far[64], msg[2048];
                list_ranks(who, sizeof who, missing, k);
                how_far(far, sizeof far);
                snprintf(msg, sizeof msg, "watchdog: row '%s' did not finish within %.0f s: "
                         "%s %s did not arrive (%s; --row-timeout sets the limit)", row_what, t,
                         k == 1 ? "rank" : "ranks", who, far);
                end_run(EB_EXIT_TIMEOUT, msg, 1);
            }
            free(missing);
        }
    }
    pthread_mutex_lock(&lock);
    row_deadline = 0;
    row_in_end = 0;
    pthread_mutex_unlock(&lock);
}
