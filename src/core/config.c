/* Environment variables: read once per init from the table in env.def and
 * checked here, in one place, against each row's valid values, so a typo
 * or an overflow stops the job with one line instead of running on with a
 * value nobody chose. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "shoal.h"

struct shoal_config shoal_cfg;

struct env_row {
    const char *name, *kind, *def, *valid, *help;
};
static const struct env_row env_rows[] = {
#define SHOAL_ENV(var, kind, field, def, valid, help) {#var, #kind, def, valid, help},
#include "env.def"
#undef SHOAL_ENV
};
enum { N_ROWS = sizeof env_rows / sizeof env_rows[0], CHOICE_MAX = 32 };
static char chosen[N_ROWS][CHOICE_MAX];   /* the listed spelling of each choice made */

/* The spec's syntax: digits with an optional fraction, then at most one of
 * k/m/g/t; characters after that multiplier are ignored ("20kk" is 20k).
 * Values beyond size_t become SIZE_MAX, so a range check rejects them. */
int shoal_parse_size(const char *text, size_t *out)
{
    const char *p = text;
    int digits = 0;
    for (; isdigit((unsigned char)*p); p++)
        digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return -1;
    double v = strtod(text, NULL), scale = 1;
    switch (*p) {
    case 'k': case 'K': scale = 0x1p10; break;
    case 'm': case 'M': scale = 0x1p20; break;
    case 'g': case 'G': scale = 0x1p30; break;
    case 't': case 'T': scale = 0x1p40; break;
    case '\0': break;
    default: return -1;   /* "1e3", "5 m", "0x10": not the documented syntax */
    }
    double bytes = ceil(v * scale);
    *out = bytes >= 0x1p64 ? SIZE_MAX : (size_t)bytes;
    return 0;
}

/* A whole decimal number: 0; not one: -1; beyond a long: -2.  Base 10
 * only: a leading 0 is not octal. */
static int parse_long(const char *text, long *out)
{
    char *end;
    if (!*text || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    *out = strtol(text, &end, 10);
    return *end ? -1 : errno ? -2 : 0;
}

/* SHMEM_X wins over the deprecated SMA_X spelling. */
static const char *env_value(const char *name)
{
    const char *v = getenv(name);
    if (!v && strncmp(name, "SHMEM_", 6) == 0) {
        char sma[128];
        snprintf(sma, sizeof sma, "SMA_%s", name + 6);
        v = getenv(sma);
    }
    return v;
}

/* "lo..hi" of a row, parsed with the row's own parser. */
static void range_of(const struct env_row *r, int (*parse)(const char *, void *), void *lo, void *hi)
{
    const char *dots = strstr(r->valid, "..");
    char first[32];
    snprintf(first, sizeof first, "%.*s", (int)(dots - r->valid), r->valid);
    parse(first, lo);
    parse(dots + 2, hi);
}

static _Noreturn void reject(const struct env_row *r, const char *v, const char *what)
{
    shoal_fatal("shmem_init", "%s=\"%s\" %s (default %s)", r->name, v, what, *r->def ? r->def : "empty");
}

/* The listed spelling of v in r->valid ("a|b|c", any case), or NULL. */
static const char *choice_of(size_t i, const char *v)
{
    const char *list = env_rows[i].valid;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, "|");
        if (strlen(v) == n && n < CHOICE_MAX && strncasecmp(p, v, n) == 0) {
            snprintf(chosen[i], CHOICE_MAX, "%.*s", (int)n, p);
            return chosen[i];
        }
        p += n + (p[n] == '|');
    }
    return NULL;
}

static const char *checked_choice(size_t i, const char *v)
{
    const char *c = choice_of(i, v);
    if (!c) {
        char what[256];
        char *o = what + snprintf(what, sizeof what, "is not one of ");
        for (const char *p = env_rows[i].valid; *p && o < what + sizeof what - 3; p++)
            o += *p == '|' ? sprintf(o, ", ") : sprintf(o, "%c", *p);
        reject(&env_rows[i], v, what);
    }
    return c;
}

static bool any_value(size_t i) { return strcmp(env_rows[i].valid, "any") == 0; }

static void load_bool(bool *field, size_t i)
{
    const char *v = env_value(env_rows[i].name);
    if (!v || (!*v && !any_value(i))) {   /* VAR= counts as unset */
        *field = strcmp(env_rows[i].def, "on") == 0;
        return;
    }
    if (!any_value(i))
        checked_choice(i, v);
    *field = !(strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
               strcasecmp(v, "off") == 0);
}

static int parse_long_any(const char *t, void *out) { return parse_long(t, out); }
static int parse_size_any(const char *t, void *out) { return shoal_parse_size(t, out); }

static void load_int(long *field, size_t i)
{
    const struct env_row *r = &env_rows[i];
    const char *v = env_value(r->name);
    if (v && !*v)   /* VAR= counts as unset */
        v = NULL;
    long lo, hi, x;
    range_of(r, parse_long_any, &lo, &hi);
    if (parse_long(v ? v : r->def, field) == 0 && *field >= lo && *field <= hi)
        return;
    char what[160];
    snprintf(what, sizeof what, "is %s: give a whole number from %ld to %ld",
             parse_long(v, &x) == -1 ? "not an integer" : "out of range", lo, hi);
    reject(r, v, what);
}

static void load_size(size_t *field, size_t i)
{
    const struct env_row *r = &env_rows[i];
    const char *v = env_value(r->name);
    if (v && !*v)
        v = NULL;
    size_t lo, hi, x;
    range_of(r, parse_size_any, &lo, &hi);
    if (shoal_parse_size(v ? v : r->def, field) == 0 && *field >= lo && *field <= hi)
        return;
    const char *dots = strstr(r->valid, "..");
    char what[256];
    snprintf(what, sizeof what, "is %s: give %.*s to %s bytes as digits, an optional fraction and one "
             "of k, m, g, t (512m, 1.5g)", shoal_parse_size(v, &x) != 0 ? "not a size" : "out of range",
             (int)(dots - r->valid), r->valid, dots + 2);
    reject(r, v, what);
}

static void load_str(const char **field, size_t i)
{
    const char *v = env_value(env_rows[i].name);
    if (!v || (!*v && !any_value(i)))   /* VAR= counts as unset */
        v = env_rows[i].def;
    *field = any_value(i) ? v : checked_choice(i, v);
}

#define load_shoal_env_bool load_bool
#define load_shoal_env_int load_int
#define load_shoal_env_size load_size
#define load_shoal_env_str load_str

void shoal_config_load(void)
{
    size_t i = 0;
#define SHOAL_ENV(var, kind, field, def, valid, help) load_##kind(&shoal_cfg.field, i++);
#include "env.def"
#undef SHOAL_ENV
}

SHOAL_EXPORT void shoal_config_print(void *file)
{
    FILE *f = file;
    fprintf(f, "%-28s %-10s %-18s %s\n", "variable", "default", "valid", "meaning [current value]");
    for (size_t i = 0; i < N_ROWS; i++) {
        const char *v = env_value(env_rows[i].name);
        fprintf(f, "%-28s %-10s %-18s %s%s%s%s\n", env_rows[i].name, env_rows[i].def, env_rows[i].valid,
                env_rows[i].help, v ? " [set: " : "", v ? v : "", v ? "]" : "");
    }
}
