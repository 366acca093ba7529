/* Preloaded by scripts/simulate (docs/simulation.md, "the settings scripts/simulate
 * passes"): SMPI 3.32 reads the thread's CPU clock around every MPI call
 * (smpi_bench_end and smpi_bench_begin, through xbt_os_threadtimer_stop and
 * _start) to inject the time between calls as simulated computation.  That
 * clock is a system call on every kernel (no vDSO for CLOCK_THREAD_CPUTIME_ID):
 * two per MPI call, 7.7 million for b_eff at 64 ranks, most of a large run's
 * system time.  effbench's simulation mode turns the injection off
 * (smpi/simulate-computation:no), so the readings are never used; this library
 * skips them then, and leaves them to SimGrid when EFFBENCH_SIM_MODE=off
 * (SMPI's default: the time between calls is simulated, and needs the clock). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef void (*timer_fn)(void *timer);

static int sim_mode_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *m = getenv("EFFBENCH_SIM_MODE");
        on = !(m && strcmp(m, "off") == 0);
    }
    return on;
}

/* SimGrid's own function `name` (found once, in *real), unless simulation mode is on */
static void pass_on(timer_fn *real, const char *name, void *timer)
{
    if (sim_mode_on())
        return;
    if (!*real)
        *real = (timer_fn)dlsym(RTLD_NEXT, name);
    (*real)(timer);
}

void xbt_os_threadtimer_start(void *timer)
{
    static timer_fn real;
    pass_on(&real, "xbt_os_threadtimer_start", timer);
}

void xbt_os_threadtimer_stop(void *timer)
{
    static timer_fn real;
    pass_on(&real, "xbt_os_threadtimer_stop", timer);
}
