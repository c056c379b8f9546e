/* Tuning rules: one rule a line,
 *     KIND LOCALITY [pes=LO-HI] [bytes=LO-HI] ALGORITHM     # comment
 * (docs/TUNING.md).  The first rule that matches a call names its
 * algorithm when SHMEM_<COLL>_ALGORITHM is auto; no rule, the cost model.
 * The table's hash covers the rules as parsed, not the text, so files that
 * differ only in comments, spacing or a name's alias (rd, recdbl) agree. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "coll_internal.h"
#include "tuning.h"

#ifndef SHOAL_TUNING_DEFAULT
#define SHOAL_TUNING_DEFAULT ""
#endif

enum { LOC_ANY = -1, LOC_NET = 0, LOC_SHM = 1 };

struct rule {
    enum coll_kind kind;
    int loc;
    long pes_lo, pes_hi;
    size_t bytes_lo, bytes_hi;
    enum coll_alg alg;
};

static struct rule *rules;
static int n_rules;
static char path[4096];   /* the file read, for messages */
static char bad[1536];     /* the first bad line's complaint, reported at agreement */

static const struct {
    const char *name;
    enum coll_kind kind;
} kind_names[] = {{"barrier", K_BARRIER}, {"bcast", K_BCAST},       {"broadcast", K_BCAST},
                  {"reduce", K_REDUCE},   {"collect", K_COLLECT},   {"fcollect", K_FCOLLECT},
                  {"alltoall", K_ALLTOALL}};

#define RULE_FORM "a rule reads KIND LOCALITY [pes=LO-HI] [bytes=LO-HI] ALGORITHM, e.g. \"reduce shm pes=2 bytes=0-255 recdbl\""

static void bad_line(int line, const char *what)
{
    if (!*bad)
        snprintf(bad, sizeof bad, "SHOAL_TUNING_FILE %.512s:%d: %.500s; %s", path, line, what, RULE_FORM);
}

/* ---- one rule: each parser complains through bad_line and says false ---- */

static bool kind_of(const char *word, enum coll_kind *k, int line)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (strcasecmp(word, kind_names[i].name) == 0) {
            *k = kind_names[i].kind;
            return true;
        }
    char what[160];
    snprintf(what, sizeof what, "\"%.40s\" is not a collective (barrier, bcast, reduce, collect, fcollect, "
             "alltoall)", word);
    bad_line(line, what);
    return false;
}

static bool locality_of(const char *word, int *loc, int line)
{
    static const char *names[] = {[LOC_NET + 1] = "net", [LOC_SHM + 1] = "shm", [LOC_ANY + 1] = "any"};
    for (int i = 0; i < 3; i++)
        if (strcasecmp(word, names[i]) == 0) {
            *loc = i - 1;
            return true;
        }
    char what[160];
    snprintf(what, sizeof what, "\"%.40s\" is not a locality (shm: the team shares memory, net, any)", word);
    bad_line(line, what);
    return false;
}

static int parse_count(const char *text, size_t *out, bool sizes)
{
    if (sizes)
        return shoal_parse_size(text, out);
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (!*text || *text == '-' || *end || errno)
        return -1;
    *out = v;
    return 0;
}

/* N, N-M or N- (no upper end); sizes take the k/m/g suffixes of SHMEM_SYMMETRIC_SIZE. */
static bool range_of(const char *field, const char *text, size_t *lo, size_t *hi, bool sizes, int line)
{
    char first[64], what[200];
    const char *dash = strchr(text, '-');
    size_t n = dash ? (size_t)(dash - text) : strlen(text);
    snprintf(first, sizeof first, "%.*s", (int)(n < sizeof first ? n : sizeof first - 1), text);
    bool ok = n < sizeof first && parse_count(first, lo, sizes) == 0;
    *hi = *lo;
    if (ok && dash)
        ok = dash[1] ? parse_count(dash + 1, hi, sizes) == 0 : (*hi = SIZE_MAX, true);
    if (ok && *lo <= *hi)
        return true;
    snprintf(what, sizeof what, "%s=%.40s is not a range (N, LO-HI with LO <= HI, or LO- for no upper end%s)",
             field, text, sizes ? "; sizes may end in k, m, g" : "");
    bad_line(line, what);
    return false;
}

static bool alg_of(enum coll_kind k, const char *kind_word, const char *word, enum coll_alg *a, int line)
{
    char what[400], valid[256];
    if (coll_alg_lookup(k, word, a) && *a != A_HIER)
        return true;
    coll_alg_list(k, valid, sizeof valid);
    snprintf(what, sizeof what, "\"%.40s\" is not a %s algorithm a rule may name (valid: %s; hier follows the "
             "team's hosts, not rules)", word, kind_word, valid);
    bad_line(line, what);
    return false;
}

static bool field_of(const char *word, struct rule *r, int line)
{
    size_t lo, hi;
    if (strncasecmp(word, "bytes=", 6) == 0)
        return range_of("bytes", word + 6, &r->bytes_lo, &r->bytes_hi, true, line);
    if (strncasecmp(word, "pes=", 4) != 0) {
        char what[160];
        snprintf(what, sizeof what, "\"%.40s\" is neither pes=LO-HI nor bytes=LO-HI", word);
        bad_line(line, what);
        return false;
    }
    if (!range_of("pes", word + 4, &lo, &hi, false, line))
        return false;
    r->pes_lo = lo > LONG_MAX ? LONG_MAX : (long)lo;
    r->pes_hi = hi > LONG_MAX ? LONG_MAX : (long)hi;
    return true;
}

/* words[0..n): the line's words, comment removed. */
static bool rule_of(char **words, int n, struct rule *r, int line)
{
    *r = (struct rule){.pes_lo = 0, .pes_hi = LONG_MAX, .bytes_lo = 0, .bytes_hi = SIZE_MAX};
    if (n < 3) {
        bad_line(line, "too few words");
        return false;
    }
    if (!kind_of(words[0], &r->kind, line) || !locality_of(words[1], &r->loc, line))
        return false;
    for (int i = 2; i < n - 1; i++)
        if (!field_of(words[i], r, line))
            return false;
    return alg_of(r->kind, words[0], words[n - 1], &r->alg, line);
}

/* ---- the file ---- */

static void add_line(char *text, int line)
{
    char *hash = strchr(text, '#'), *words[8], *save;
    int n = 0;
    if (hash)
        *hash = 0;
    for (char *w = strtok_r(text, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == 8) {
            bad_line(line, "too many words");
            return;
        }
        words[n++] = w;
    }
    struct rule r;
    if (!n || !rule_of(words, n, &r, line))
        return;
    struct rule *more = realloc(rules, (size_t)(n_rules + 1) * sizeof *rules);
    if (!more)
        shoal_fatal("shmem_init", "out of memory reading SHOAL_TUNING_FILE %s", path);
    rules = more;
    rules[n_rules++] = r;
}

/* Unset or empty: the install prefix's file when there is one; "none": no file. */
static bool pick_path(void)
{
    const char *v = shoal_cfg.tuning_file;
    if (v && strcasecmp(v, "none") == 0)
        return false;
    if (v && *v) {
        snprintf(path, sizeof path, "%s", v);
        return true;
    }
    snprintf(path, sizeof path, "%s", SHOAL_TUNING_DEFAULT);
    return *path && access(path, R_OK) == 0;
}

static void fnv1a(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8) {
        *h ^= v & 0xff;
        *h *= 0x100000001b3ull;
    }
}

static uint64_t table_hash(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n_rules; i++) {
        const struct rule *r = &rules[i];
        uint64_t fields[] = {r->kind, (uint64_t)r->loc, (uint64_t)r->pes_lo, (uint64_t)r->pes_hi,
                             r->bytes_lo, r->bytes_hi, r->alg};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            fnv1a(&h, fields[f]);
    }
    return h;
}

struct shoal_vote shoal_tuning_load(void)
{
    free(rules);
    rules = NULL;
    n_rules = 0;
    *bad = 0;
    if (pick_path()) {
        FILE *f = fopen(path, "r");
        if (!f)
            shoal_fatal("shmem_init", "SHOAL_TUNING_FILE %s cannot be read: %s (unset it, or set none, for the "
                        "built-in model)", path, strerror(errno));
        char *text = NULL;
        size_t cap = 0;
        for (int line = 1; getline(&text, &cap, f) >= 0; line++)
            add_line(text, line);
        free(text);
        if (ferror(f))   /* a directory, an I/O error: not an empty table */
            shoal_fatal("shmem_init", "SHOAL_TUNING_FILE %s cannot be read: %s", path, strerror(errno));
        fclose(f);
    }
    return (struct shoal_vote){table_hash(), *bad != 0};
}

static void report_bad(const struct shoal_vote *votes, int n_pes)
{
    int first = 0;
    while (first < n_pes && !votes[first].bad)
        first++;
    if (first == shoal.my_pe)
        shoal_fatal("shmem_init", "%s", bad);
}

/* PE 0 speaks for the job: one line naming every PE whose table differs. */
static void report_differences(const struct shoal_vote *votes, int n_pes)
{
    char list[256] = "";
    int differ = 0;
    for (int pe = 1; pe < n_pes; pe++)
        if (votes[pe].hash != votes[0].hash && ++differ <= 16)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", differ > 1 ? ", " : "", pe);
    if (!differ || shoal.my_pe != 0)
        return;
    shoal_fatal("shmem_init", "the tuning rules differ between PEs: PE%s %s%s read%s other rules than PE 0 "
                "(%s); members of a team would choose different algorithms and wait forever: give every PE "
                "the same SHOAL_TUNING_FILE", differ > 1 ? "s" : "", list, differ > 16 ? " and more" : "",
                differ > 1 ? "" : "s", n_rules ? path : "no rules");
}

/* The PEs not reporting wait for the launcher to end them with the job:
 * going on, they would fail on the reporter's vanished memory and say
 * so, burying the one line that matters. */
static _Noreturn void await_end(void)
{
    for (int i = 0; i < 3000; i++)
        usleep(10000);
    shoal_core_abort(1);
}

void shoal_tuning_agree(const struct shoal_vote *votes, int n_pes)
{
    bool any_bad = false, differ = false;
    for (int pe = 0; pe < n_pes; pe++) {
        any_bad |= votes[pe].bad;
        differ |= votes[pe].hash != votes[0].hash;
    }
    if (any_bad)
        report_bad(votes, n_pes);
    else if (differ)
        report_differences(votes, n_pes);
    if (any_bad || differ)
        await_end();
}

void shoal_tuning_print(void *file)
{
    if (n_rules)
        fprintf(file, "tuning rules: %s (%d rules; auto follows them where one matches)\n", path, n_rules);
    else
        fprintf(file, "tuning rules: none (auto follows the built-in model)\n");
}

/* ---- the choice ---- */

enum coll_alg coll_tuned(enum coll_kind k, const struct coll_shape *s)
{
    for (int i = 0; i < n_rules; i++) {
        const struct rule *r = &rules[i];
        if (r->kind == k && (r->loc == LOC_ANY || r->loc == (int)s->shm) && s->n >= r->pes_lo &&
            s->n <= r->pes_hi && s->bytes >= r->bytes_lo && s->bytes <= r->bytes_hi)
            return r->alg;
    }
    return A_AUTO;
}
