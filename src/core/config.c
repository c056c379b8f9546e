/* Environment variables: read once per init from the table in env.def. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "shoal.h"

struct shoal_config shoal_cfg;

struct env_row {
    const char *name, *kind, *def, *help;
};
static const struct env_row env_rows[] = {
#define SHOAL_ENV(var, kind, field, def, help) {#var, #kind, def, help},
#include "env.def"
#undef SHOAL_ENV
};

int shoal_parse_size(const char *text, size_t *out)
{
    char *end;
    while (isspace((unsigned char)*text))
        text++;
    if (*text == '-' || *text == '\0')
        return -1;
    double v = strtod(text, &end);
    if (end == text || !(v >= 0))
        return -1;
    double scale = 1;
    switch (*end) {   /* one multiplier; anything after it is ignored, as the spec says */
    case 'k': case 'K': scale = 0x1p10; break;
    case 'm': case 'M': scale = 0x1p20; break;
    case 'g': case 'G': scale = 0x1p30; break;
    case 't': case 'T': scale = 0x1p40; break;
    default: break;
    }
    *out = (size_t)ceil(v * scale);
    return 0;
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

static bool parse_bool(const char *v)
{
    return !(strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
             strcasecmp(v, "off") == 0);
}

static void load_bool(bool *field, const char *name, const char *def)
{
    const char *v = env_value(name);
    *field = v ? parse_bool(v) : strcmp(def, "on") == 0;
}

static void load_int(long *field, const char *name, const char *def)
{
    const char *v = env_value(name);
    char *end;
    *field = strtol(v ? v : def, &end, 0);
    if (v && (*end || end == v))
        shoal_fatal("shmem_init", "%s=\"%s\" is not an integer (default %s)", name, v, def);
}

static void load_size(size_t *field, const char *name, const char *def)
{
    const char *v = env_value(name);
    if (shoal_parse_size(v ? v : def, field) != 0)
        shoal_fatal("shmem_init", "%s=\"%s\" is not a size; write e.g. 512M, 1.5G or 1048576", name, v);
}

static __attribute__((unused)) void load_str(const char **field, const char *name, const char *def)
{
    const char *v = env_value(name);
    *field = v ? v : def;
}

#define load_shoal_env_bool load_bool
#define load_shoal_env_int load_int
#define load_shoal_env_size load_size
#define load_shoal_env_str load_str

void shoal_config_load(void)
{
#define SHOAL_ENV(var, kind, field, def, help) load_##kind(&shoal_cfg.field, #var, def);
#include "env.def"
#undef SHOAL_ENV
}

SHOAL_EXPORT void shoal_config_print(void *file)
{
    FILE *f = file;
    fprintf(f, "%-28s %-10s %s\n", "variable", "default", "meaning [current value]");
    for (size_t i = 0; i < sizeof env_rows / sizeof env_rows[0]; i++) {
        const char *v = env_value(env_rows[i].name);
        fprintf(f, "%-28s %-10s %s%s%s%s\n", env_rows[i].name, env_rows[i].def, env_rows[i].help,
                v ? " [set: " : "", v ? v : "", v ? "]" : "");
    }
}
