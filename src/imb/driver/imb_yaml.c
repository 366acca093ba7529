#include "imb/driver/imb_yaml.h"

#include "core/error.h"
#include "core/sysinfo.h"
#include "core/text.h"
#include "imb/driver/imb2021_options.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading ------------------------------------------------------------------- */

typedef struct {
    char **v;
    int n;
} words;

static void push(words *w, const char *s, size_t len)
{
    w->v = eb_realloc(w->v, (size_t)(w->n + 1) * sizeof *w->v);
    char *c = eb_malloc(len + 1);
    memcpy(c, s, len);
    c[len] = '\0';
    w->v[w->n++] = c;
}

/* A scalar without its quotes and blanks, in place. */
static char *scalar(char *s)
{
    s = eb_trim(s);
    size_t n = strlen(s);
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        s[n - 1] = '\0';
        s++;
    }
    return s;
}

/* IMB's separator when a list option is written on the command line. */
static char separator(const char *key)
{
    return !strcmp(key, "msglog") ? ':' : !strcmp(key, "map") ? 'x' : ',';
}

/* "[a, b]" or a scalar, as the command line's value; NULL: empty. */
static char *value_word(const char *key, char *val, char *buf, size_t cap)
{
    val = eb_trim(val);
    size_t n = strlen(val);
    if (n >= 2 && val[0] == '[' && val[n - 1] == ']') {
        val[n - 1] = '\0';
        buf[0] = '\0';
        char *save = NULL;
        for (char *t = strtok_r(val + 1, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            size_t used = strlen(buf);
            snprintf(buf + used, cap - used, "%s%s", used ? (char[]){separator(key), 0} : "",
                     scalar(t));
        }
    } else {
        snprintf(buf, cap, "%s", scalar(val));
    }
    return buf[0] ? buf : NULL;
}

/* One "key: value" of the map (value empty: a block list follows). */
static int entry(words *opts, words *names, char *item, int *list_for_names, const char *fname,
                 int line, char *err, size_t errlen)
{
    char *colon = strchr(item, ':');
    if (!colon)
        return eb_err(err, errlen, "-load %s:%d: expected 'option: value', found '%s'", fname,
                      line, item);
    *colon = '\0';
    char *key = scalar(item), *val = eb_trim(colon + 1), buf[1024];
    *list_for_names = 0;
    if (!strcmp(key, "version"))
        return 0;
    if (!strcmp(key, "extra_args")) {
        if (*val == '\0') {
            *list_for_names = 1; /* "- name" lines follow */
            return 0;
        }
        size_t n = strlen(val);
        if (val[0] == '[' && val[n - 1] == ']') {
            val[n - 1] = '\0';
            char *save = NULL;
            for (char *t = strtok_r(val + 1, ",", &save); t; t = strtok_r(NULL, ",", &save))
                if (*(t = scalar(t)))
                    push(names, t, strlen(t));
            return 0;
        }
        push(names, scalar(val), strlen(scalar(val)));
        return 0;
    }
    const char *word = value_word(key, val, buf, sizeof buf);
    if (!word)
        return 0; /* an empty value is IMB's "not given" (msglen: "") */
    char opt[128];
    snprintf(opt, sizeof opt, "-%s", key);
    push(opts, opt, strlen(opt));
    push(opts, word, strlen(word));
    return 0;
}

/* A flow map "{a: 1, b: [2, 3]}": its items split at the commas outside []. */
static int flow_map(words *opts, words *names, char *s, const char *fname, int line, char *err,
                    size_t errlen)
{
    size_t n = strlen(s);
    if (n < 2 || s[n - 1] != '}')
        return eb_err(err, errlen, "-load %s:%d: a '{' map without its '}'", fname, line);
    s[n - 1] = '\0';
    int depth = 0, unused;
    char *start = s + 1;
    for (char *p = start;; p++) {
        if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if ((*p == ',' && depth == 0) || *p == '\0') {
            int end = *p == '\0';
            *p = '\0';
            if (*eb_trim(start) && entry(opts, names, start, &unused, fname, line, err, errlen))
                return -1;
            if (end)
                return 0;
            start = p + 1;
        }
    }
}

static char *strip_comment(char *s)
{
    int quote = 0;
    for (char *p = s; *p; p++) {
        if (*p == '"' || *p == '\'')
            quote = !quote;
        else if (*p == '#' && !quote && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            break;
        }
    }
    return eb_trim(s);
}

int eb_imb_yaml_to_args(const char *text, const char *fname, char ***args, int *nargs,
                        char *err, size_t errlen)
{
    words opts = {0}, names = {0};
    const char *p = text;
    char buf[4096];
    int line = 0, got, names_follow = 0, rc = 0;
    while (rc == 0 && (got = eb_text_line(&p, &line, buf, sizeof buf)) != 0) {
        if (got < 0) {
            rc = eb_err(err, errlen, "-load %s:%d: line too long", fname, line);
            break;
        }
        char *s = strip_comment(buf);
        if (strncmp(s, "--- ", 4) == 0) /* a document starting on its marker's line */
            s = eb_trim(s + 4);
        if (*s == '\0' || !strcmp(s, "---") || !strcmp(s, "..."))
            continue;
        if (s[0] == '-' && (s[1] == ' ' || s[1] == '\0')) {
            if (!names_follow)
                rc = eb_err(err, errlen, "-load %s:%d: a list item outside extra_args", fname,
                            line);
            else if (*(s = scalar(s + 1)))
                push(&names, s, strlen(s));
        } else if (s[0] == '{') {
            rc = flow_map(&opts, &names, s, fname, line, err, errlen);
        } else {
            rc = entry(&opts, &names, s, &names_follow, fname, line, err, errlen);
        }
    }
    for (int i = 0; i < names.n; i++)
        push(&opts, names.v[i], strlen(names.v[i]));
    eb_imb_yaml_free_args(names.v, names.n);
    if (rc) {
        eb_imb_yaml_free_args(opts.v, opts.n);
        return -1;
    }
    *args = opts.v;
    *nargs = opts.n;
    return 0;
}

void eb_imb_yaml_free_args(char **args, int nargs)
{
    for (int i = 0; i < nargs; i++)
        free(args[i]);
    free(args);
}

/* ---- writing ------------------------------------------------------------------- */

/* "key: value", or IMB's comment for an option left at its default. */
static void item(FILE *f, int defaulted, const char *key, const char *value)
{
    if (defaulted)
        fprintf(f, "# {%s: %s} (default)\n", key, value);
    else
        fprintf(f, "%s: %s\n", key, value);
}

static void list_item(FILE *f, const char *key, char **v, int n)
{
    char buf[2048] = "[";
    for (int i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", v[i]);
    }
    size_t used = strlen(buf);
    snprintf(buf + used, sizeof buf - used, "]");
    item(f, n == 0, key, buf);
}

static const char *yes_no(int v) { return v ? "true" : "false"; }

/* An IMB 2021 on/off option: -1 (not given: the guide's behaviour) and IMB
 * 2021.11's default are written as its default. */
static void bool_item(FILE *f, const eb_imb_options *o, const char *key, int v, int imb_default)
{
    if (eb_imb2021_family_has(o->family, key))
        item(f, v < 0 || v == imb_default, key, yes_no(v < 0 ? imb_default : v));
}

static void dump_imb2021(FILE *f, const eb_imb_options *o)
{
    const eb_imb2021 *t = &o->imb21;
    char buf[64];
    bool_item(f, o, "root_shift", t->root_shift, 0);
    bool_item(f, o, "sync", t->sync, 1);
    bool_item(f, o, "imb_barrier", t->imb_barrier, 0);
    bool_item(f, o, "zero_size", t->zero_size, 1);
    bool_item(f, o, "warm_up", t->warm_up, 1);
    bool_item(f, o, "msg_pause", t->msg_pause, 0);
    if (eb_imb2021_family_has(o->family, "data_type")) {
        item(f, t->data_type == EB_DT_BYTE, "data_type", eb_dtype_word(t->data_type));
        item(f, t->red_data_type == EB_DT_FLOAT, "red_data_type", eb_dtype_word(t->red_data_type));
        item(f, t->contig_type == EB_CONTIG_BASE, "contig_type", eb_contig_word(t->contig_type));
        snprintf(buf, sizeof buf, "%d", t->window_size);
        item(f, t->window_size == 256, "window_size", buf);
    }
    if (eb_imb2021_family_has(o->family, "aggregate_mode")) {
        static const char *const words[] = {"multi", "aggregate", "non_aggregate"};
        item(f, t->aggregate_mode == EB_AGGR_BOTH, "aggregate_mode", words[t->aggregate_mode]);
    }
    if (o->gpu) /* IMB-MPI1-GPU's and IMB-RMA-GPU's last option */
        item(f, strcmp(o->mem_alloc_type, "device") == 0, "mem_alloc_type", o->mem_alloc_type);
}

void eb_imb_yaml_dump(FILE *f, const eb_imb_options *o)
{
    const eb_imb_family *fam = o->family;
    const eb_iter_settings *dit = o->imb21.defaults2021 && fam->iter2021.msgspersample > 0
                                      ? &fam->iter2021 : &fam->iter;
    int dmax = o->imb21.defaults2021 && fam->maxmsglog2021 > 0 ? fam->maxmsglog2021
                                                               : fam->maxmsglog;
    char buf[256];
    fprintf(f, "---\n# %s\nversion: 0\n", fam->program);
    snprintf(buf, sizeof buf, "%d", o->npmin > 0 ? o->npmin : 2);
    item(f, o->npmin == fam->default_npmin, "npmin", buf);
    snprintf(buf, sizeof buf, "%d", o->multi);
    item(f, o->multi < 0, "multi", buf);
    if (o->cache.cache_mb > 0)
        snprintf(buf, sizeof buf, "[%g, %zu]", o->cache.cache_mb, o->cache.line);
    item(f, o->cache.cache_mb <= 0, "off_cache", o->cache.cache_mb > 0 ? buf : "[-1, 0]");
    snprintf(buf, sizeof buf, "[%ld, %ld, %ld]", o->iter.msgspersample,
             o->iter.overall_vol / 1048576L, o->iter.msgs_nonaggr);
    item(f, o->iter.msgspersample == dit->msgspersample && o->iter.overall_vol == dit->overall_vol
         && o->iter.msgs_nonaggr == dit->msgs_nonaggr, "iter", buf);
    item(f, o->iter.policy == dit->policy, "iter_policy", eb_iter_policy_name(o->iter.policy));
    snprintf(buf, sizeof buf, "%g", o->iter.secs);
    item(f, o->iter.secs == dit->secs, "time", buf);
    snprintf(buf, sizeof buf, "%g", o->mem_gb);
    item(f, o->mem_gb == 1.0, "mem", buf);
    item(f, !o->msglen_file, "msglen", o->msglen_file ? o->msglen_file : "\"\"");
    snprintf(buf, sizeof buf, "[%d, %d]", o->map_p, o->map_q);
    item(f, o->map_p == 0, "map", o->map_p ? buf : "[1, 1]");
    snprintf(buf, sizeof buf, "[%d, %d]", o->msglog_min, o->msglog_max);
    item(f, o->msglog_min == fam->minmsglog && o->msglog_max == dmax, "msglog", buf);
    item(f, !o->input_file, "input", o->input_file ? o->input_file : "\"\"");
    list_item(f, "include", o->include, o->ninclude);
    list_item(f, "exclude", o->exclude, o->nexclude);
    if (o->thread_level >= 0) {
        snprintf(buf, sizeof buf, "%s", eb_thread_level_name(o->thread_level) + strlen("MPI_THREAD_"));
        for (char *c = buf; *c; c++)
            *c = (char)(*c - 'A' + 'a');
    }
    item(f, o->thread_level < 0, "thread_level", o->thread_level >= 0 ? buf : "single");
    dump_imb2021(f, o);
    fprintf(f, "extra_args:\n");
    for (int i = 0; i < o->nnames; i++)
        fprintf(f, "  - %s\n", o->names[i]);
}

/* ---- the run's -load and -dump (collective) ----------------------------------------- */

char **eb_imb_yaml_load_argv(int argc, char **argv, int *nargc)
{
    const char *path = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-load"))
            path = argv[i + 1];
    *nargc = argc;
    if (!path)
        return argv;
    char err[EB_ERRLEN];
    char *text = eb_read_file_bcast(path, "-load", MPI_COMM_WORLD, err, sizeof err);
    char **args;
    int nargs;
    if (!text || eb_imb_yaml_to_args(text, path, &args, &nargs, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    free(text);
    /* the file's options first: the command line's, parsed after them, win */
    char **out = eb_calloc((size_t)(argc + nargs + 1), sizeof *out);
    out[0] = argv[0];
    memcpy(out + 1, args, (size_t)nargs * sizeof *out);
    memcpy(out + 1 + nargs, argv + 1, (size_t)(argc - 1) * sizeof *out);
    free(args); /* the words themselves live on in out, for the whole run */
    *nargc = argc + nargs;
    return out;
}

void eb_imb_yaml_dump_file(const eb_imb_options *o)
{
    if (!o->imb21.dump_path)
        return;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char msg[EB_ERRLEN] = "", out[EB_ERRLEN];
    if (rank == 0) {
        FILE *f = fopen(o->imb21.dump_path, "w");
        if (f)
            eb_imb_yaml_dump(f, o);
        if (!f || fclose(f) != 0)
            snprintf(msg, sizeof msg, "-dump %s: cannot write: %s", o->imb21.dump_path,
                     strerror(errno));
    }
    if (eb_any_error(msg[0] ? msg : NULL, out, sizeof out))
        eb_exit_all(EB_EXIT_USAGE, out);
}
