/* IMB's -load YAML (imb/driver/imb_yaml.c): block and flow maps, lists, comments,
 * IMB's "(default)" comments, extra_args; and the errors, named by file and line. */
#include "core/error.h"
#include "imb/driver/imb_yaml.h"
#include "unit.h"

#include <string.h>

/* The words of TEXT joined by blanks, or "ERR: message". */
static const char *words_of(const char *text)
{
    static char out[2048];
    char err[EB_ERRLEN], **args;
    int n;
    if (eb_imb_yaml_to_args(text, "s.yaml", &args, &n, err, sizeof err) != 0) {
        snprintf(out, sizeof out, "ERR: %s", err);
        return out;
    }
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, sizeof out - used, "%s%s", i ? " " : "", args[i]);
    }
    eb_imb_yaml_free_args(args, n);
    return out;
}

int main(void)
{
    /* what effbench's -dump writes (IMB's layout) */
    CHECK_STR(words_of("---\n# IMB-MPI1\nversion: 0\n# {npmin: 2} (default)\n"
                       "iter: [10, 40, 100]\nmsglog: [2, 3]\nmap: [2, 1]\n"
                       "include: [Reduce_local, Reduce_scatter_block]\nroot_shift: true\n"
                       "data_type: int\n# {exclude: []} (default)\nmsglen: \"\"\n"
                       "extra_args:\n  - PingPong\n  - Bcast\n"),
              "-iter 10,40,100 -msglog 2:3 -map 2x1 -include Reduce_local,Reduce_scatter_block "
              "-root_shift true -data_type int PingPong Bcast");
    /* a flow map, as yaml-cpp's Flow style writes one */
    CHECK_STR(words_of("--- {version: 0, time: 2.5, off_cache: [16, 128], "
                       "extra_args: [Allreduce]}\n"),
              "-time 2.5 -off_cache 16,128 Allreduce");
    CHECK_STR(words_of("---\n{version: 0, time: 2.5, off_cache: [16, 128], sync: false, "
                       "extra_args: [Allreduce, 'Bcast']}  # trailing\n"),
              "-time 2.5 -off_cache 16,128 -sync false Allreduce Bcast");
    CHECK_STR(words_of("iter_policy: off # a comment\nthread_level: \"multiple\"\n"),
              "-iter_policy off -thread_level multiple");
    CHECK_STR(words_of(""), "");
    /* errors name the file and line */
    CHECK_STR(words_of("version: 0\n- PingPong\n"),
              "ERR: -load s.yaml:2: a list item outside extra_args");
    CHECK_STR(words_of("version: 0\njust words\n"),
              "ERR: -load s.yaml:2: expected 'option: value', found 'just words'");
    CHECK_STR(words_of("{iter: [1, 2]\n"), "ERR: -load s.yaml:1: a '{' map without its '}'");
    UNIT_DONE();
}
