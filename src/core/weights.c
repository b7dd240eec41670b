/*
 * weights.c — the weight tables of weights.h: the built-in ones, the seed translation, and the
 * text format (docs/eval.md):
 *
 *   # comments
 *   tengen-weights 1
 *   rule freestyle
 *   scale 250
 *   code free3 free2 free1 dead  260 210 260 210
 *   mask block4+flex3 - 40
 *
 * A `code` line names the four patterns of a code (any order) and gives its values for Black as
 * mover and as waiter, then White's; codes not listed are 0. A `mask` line names the mover's
 * threat classes and the waiter's ('-' for none) and gives the value. An `order` line is like a
 * `code` line with the move ordering's values: Black's attack and defence, then White's. A `near`
 * line gives the ordering's value of a move by where it lies from the opponent's last move
 * (`their`), the side's own (`own`) or the two moves before them (`their-before`, `own-before`):
 * the larger and the smaller of its column and row distances (`2,1`), or `far`; a `pair` line the
 * value of a move by the threat class it makes for the side to move and the one it takes from the
 * opponent (pattern.h's names); a `context` line the value of the side to move's class at the
 * point against the opponent's threat mask (`attack`), or of the opponent's class there against
 * the side to move's mask (`defend`). Values not listed are 0.
 *
 *   near their 1,0 15
 *   near own far -27
 *   pair flex3 block4 45
 *   context attack flex3+block4 flex3 -20
 */
#include "weights.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "eval.h"

enum { FORMAT_VERSION = 1, DEFAULT_SCALE = 250, MAX_TOKENS = 9 };

static const char *const MASK_NAMES[MASK_SIDE_BITS] = {"flex3",        "flex3-2x", "block4",
                                                       "block4-flex3", "flex4",    "five"};

/* ---- The seed weights ---- */

static int seed_threat(const PatternTables *t, const uint8_t pat[4], Color c) {
    uint8_t packed[4];
    for (int d = 0; d < 4; d++) packed[d] = (uint8_t)(pat[d] << (4 * c));
    return pattern_threat_of(t, pattern_kind_word(t, packed), c) & THREAT_CLASS_MASK;
}

/// The seed evaluation's value of a code with the given threat class (eval_point without a
/// board).
static int seed_value(const uint8_t pat[4], int threat, int role) {
    const EvalParams *e = &EVAL_PARAMS;
    if (threat == THREAT_FORBID) return 0;
    const int16_t *line = role == ROLE_MOVER ? e->line_mine : e->line_theirs;
    int v = (role == ROLE_MOVER ? e->threat_mine : e->threat_theirs)[threat];
    for (int d = 0; d < 4; d++) v += line[pat[d]];
    return v;
}

void weights_from_seed(Rule rule, EvalWeights *out) {
    const PatternTables *t = pattern_tables(rule);
    const PcodeTables *pc = pcode_tables();
    memset(out, 0, sizeof *out);
    out->scale = DEFAULT_SCALE;
    for (int code = 0; code < PCODE_COUNT; code++)
        for (int c = BLACK; c <= WHITE; c++)
            for (int role = ROLE_MOVER; role <= ROLE_WAITER; role++) {
                const uint8_t *pat = pc->patterns[code];
                const int threat = seed_threat(t, pat, (Color)c);
                const int value = seed_value(pat, threat, role);
                out->code[c][role][code] = (int16_t)value;
                /* eval_move_order: what the move makes, what it takes. */
                out->order[c][role][code] =
                    (int16_t)(value + (role == ORDER_ATTACK ? EVAL_PARAMS.order_attack
                                                            : EVAL_PARAMS.order_defend)[threat]);
            }
}

/* ---- Parsing ---- */

static bool fail(char *err, size_t size, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail(char *err, size_t size, int line, const char *fmt, ...) {
    char what[120];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, size, "weights line %d: %s", line, what);
    return false;
}

static bool parse_int16(const char *s, int16_t *out) {
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < INT16_MIN || v > INT16_MAX) return false;
    *out = (int16_t)v;
    return true;
}

static int pattern_by_name(const char *name) {
    for (int p = 0; p < PAT_COUNT; p++)
        if (!strcmp(pattern_name((Pattern)p), name)) return p;
    return -1;
}

/// "flex3+block4" -> mask bits; "-" -> 0; -1 on an unknown name.
static int mask_by_names(const char *text) {
    if (!strcmp(text, "-")) return 0;
    int bits = 0;
    for (const char *s = text; *s;) {
        const size_t n = strcspn(s, "+");
        int bit = -1;
        for (int i = 0; i < MASK_SIDE_BITS; i++)
            if (strlen(MASK_NAMES[i]) == n && !strncmp(MASK_NAMES[i], s, n)) bit = i;
        if (bit < 0 || (bits & 1 << bit)) return -1;
        bits |= 1 << bit;
        s += n;
        if (*s == '+' && *++s == '\0') return -1;
    }
    return bits;
}

/// Splits a line (modified in place) into at most MAX_TOKENS words; -1 when there are more.
static int split(char *line, char *tok[MAX_TOKENS]) {
    int n = 0;
    for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
        if (n == MAX_TOKENS) return -1;
        tok[n++] = s;
    }
    return n;
}

typedef struct ParseState {
    EvalWeights *w;
    Rule rule;
    bool seen_header, seen_rule, seen_scale;
    bool seen_code[PCODE_COUNT];
    bool seen_order[PCODE_COUNT];
    bool seen_mask[MASK_COUNT];
    bool seen_near[NEAR_SIDES][NEAR_BUCKETS];
    bool seen_pair[THREAT_COUNT][THREAT_COUNT];
    bool seen_context[2][1 << MASK_SIDE_BITS][THREAT_COUNT];
} ParseState;

static const char *const CONTEXT_ROLES[2] = {"attack", "defend"};

static const char *const NEAR_SIDE_NAMES[NEAR_SIDES] = {"their", "own", "their-before",
                                                        "own-before"};

static int side_by_name(const char *text) {
    for (int side = 0; side < NEAR_SIDES; side++)
        if (!strcmp(text, NEAR_SIDE_NAMES[side])) return side;
    return -1;
}

static int threat_by_name(const char *text) {
    for (int t = 0; t < THREAT_COUNT; t++)
        if (!strcmp(text, threat_name((Threat)t))) return t;
    return -1;
}

/// "2,1" (larger distance first, up to NEAR_REACH) or "far" -> bucket; -1 when neither.
static int near_by_name(const char *text) {
    if (!strcmp(text, "far")) return NEAR_FAR;
    if (strlen(text) != 3 || text[1] != ',') return -1;
    const int far = text[0] - '0', close = text[2] - '0';
    if (far < 1 || far > NEAR_REACH || close < 0 || close > far) return -1;
    return near_bucket(far, close);
}

/// Stores a line's value in *slot, once: a second line for the same slot is refused.
static bool set_once(bool *seen, int16_t *slot, const char *value, const char *keyword, int line,
                     char *err, size_t size) {
    if (*seen) return fail(err, size, line, "the same %s twice", keyword);
    *seen = true;
    if (!parse_int16(value, slot))
        return fail(err, size, line, "'%s' is not a value from -32768 to 32767", value);
    return true;
}

static bool parse_near(ParseState *st, char **tok, int n, int line, char *err, size_t size) {
    if (n != 4) return fail(err, size, line, "a near line has a side, a distance and a value");
    const int side = side_by_name(tok[1]);
    if (side < 0)
        return fail(err, size, line, "near: their, own, their-before or own-before, not '%s'",
                    tok[1]);
    const int bucket = near_by_name(tok[2]);
    if (bucket < 0)
        return fail(err, size, line, "near: a distance like 2,1 or far, not '%s'", tok[2]);
    return set_once(&st->seen_near[side][bucket], &st->w->near[side][bucket], tok[3], "near", line,
                    err, size);
}

static bool parse_pair(ParseState *st, char **tok, int n, int line, char *err, size_t size) {
    if (n != 4) return fail(err, size, line, "a pair line has two threat classes and a value");
    const int mine = threat_by_name(tok[1]), theirs = threat_by_name(tok[2]);
    if (mine < 0 || theirs < 0) return fail(err, size, line, "unknown threat class");
    return set_once(&st->seen_pair[mine][theirs], &st->w->pair[mine][theirs], tok[3], "pair", line,
                    err, size);
}

static bool parse_context(ParseState *st, char **tok, int n, int line, char *err, size_t size) {
    if (n != 5)
        return fail(err, size, line,
                    "a context line has a role, a threat mask, a class and a value");
    const int role = !strcmp(tok[1], CONTEXT_ROLES[0])   ? ORDER_ATTACK
                     : !strcmp(tok[1], CONTEXT_ROLES[1]) ? ORDER_DEFEND
                                                         : -1;
    if (role < 0) return fail(err, size, line, "context: attack or defend, not '%s'", tok[1]);
    const int mask = mask_by_names(tok[2]), threat = threat_by_name(tok[3]);
    if (mask < 0) return fail(err, size, line, "unknown threat mask");
    if (threat < 0) return fail(err, size, line, "unknown threat class");
    return set_once(&st->seen_context[role][mask][threat], &st->w->context[role][mask][threat],
                    tok[4], "context", line, err, size);
}

/// A `code` or `order` line into table[colour][role or side][code].
static bool parse_code(int16_t (*table)[2][PCODE_COUNT], bool *seen, char **tok, int n, int line,
                       char *err, size_t size) {
    if (n != 9) return fail(err, size, line, "%s line: 4 patterns and 4 values", tok[0]);
    uint8_t key[4];
    for (int i = 0; i < 4; i++) {
        const int p = pattern_by_name(tok[1 + i]);
        if (p < 0) return fail(err, size, line, "unknown pattern '%s'", tok[1 + i]);
        key[i] = (uint8_t)p;
    }
    const int code = pcode_of(pcode_tables(), key, BLACK);
    if (seen[code]) return fail(err, size, line, "the same %s twice", tok[0]);
    seen[code] = true;
    for (int i = 0; i < 4; i++)
        if (!parse_int16(tok[5 + i], &table[i / 2][i % 2][code]))
            return fail(err, size, line, "'%s' is not a value from -32768 to 32767", tok[5 + i]);
    return true;
}

static bool parse_mask(ParseState *st, char **tok, int n, int line, char *err, size_t size) {
    if (n != 4) return fail(err, size, line, "a mask line has two sides and a value");
    const int mover = mask_by_names(tok[1]), waiter = mask_by_names(tok[2]);
    if (mover < 0 || waiter < 0) return fail(err, size, line, "unknown threat mask");
    const int index = mover | waiter << MASK_SIDE_BITS;
    return set_once(&st->seen_mask[index], &st->w->mask[index], tok[3], "mask", line, err, size);
}

static bool parse_line(ParseState *st, char *text, int line, char *err, size_t size) {
    char *tok[MAX_TOKENS];
    text[strcspn(text, "#")] = '\0';
    const int n = split(text, tok);
    if (n < 0) return fail(err, size, line, "too many words");
    if (n == 0) return true;
    if (!st->seen_header) {
        if (n != 2 || strcmp(tok[0], "tengen-weights"))
            return fail(err, size, line, "not a tengen weight table");
        if (strcmp(tok[1], "1")) return fail(err, size, line, "unknown version %s", tok[1]);
        st->seen_header = true;
        return true;
    }
    if (!strcmp(tok[0], "rule")) {
        Rule r;
        if (n != 2 || !tg_rule_from_name(tok[1], &r)) return fail(err, size, line, "unknown rule");
        if (r != st->rule)
            return fail(err, size, line, "a %s table, not %s", tok[1], tg_rule_name(st->rule));
        st->seen_rule = true;
        return true;
    }
    if (!strcmp(tok[0], "scale")) {
        int16_t s;
        if (n != 2 || !parse_int16(tok[1], &s) || s <= 0)
            return fail(err, size, line, "the scale is a positive number");
        st->w->scale = s;
        st->seen_scale = true;
        return true;
    }
    if (!strcmp(tok[0], "code"))
        return parse_code(st->w->code, st->seen_code, tok, n, line, err, size);
    if (!strcmp(tok[0], "order"))
        return parse_code(st->w->order, st->seen_order, tok, n, line, err, size);
    if (!strcmp(tok[0], "mask")) return parse_mask(st, tok, n, line, err, size);
    if (!strcmp(tok[0], "near")) return parse_near(st, tok, n, line, err, size);
    if (!strcmp(tok[0], "pair")) return parse_pair(st, tok, n, line, err, size);
    if (!strcmp(tok[0], "context")) return parse_context(st, tok, n, line, err, size);
    return fail(err, size, line, "unknown keyword '%s'", tok[0]);
}

bool weights_parse(const char *text, Rule rule, EvalWeights *out, char *err, size_t err_size) {
    ParseState *st = calloc(1, sizeof *st);
    char *copy = strdup(text);
    bool ok = st && copy;
    if (!ok) snprintf(err, err_size, "out of memory");
    if (ok) {
        memset(out, 0, sizeof *out);
        st->w = out;
        st->rule = rule;
        int line = 1;
        for (char *s = copy; ok && s; line++) {
            char *next = strchr(s, '\n');
            if (next) *next++ = '\0';
            ok = parse_line(st, s, line, err, err_size);
            s = next;
        }
        if (ok && !(st->seen_header && st->seen_rule && st->seen_scale))
            ok = fail(err, err_size, line - 1, "the table needs its header, rule and scale");
    }
    free(copy);
    free(st);
    return ok;
}

/* ---- Writing ---- */

typedef struct Text {
    char *s;
    size_t len, cap;
    bool failed;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *fmt, ...) {
    if (t->failed) return;
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        const int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        char *grown = realloc(t->s, t->cap * 2 + (size_t)n);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown, t->cap = t->cap * 2 + (size_t)n;
    }
}

static void put_mask_names(Text *t, int bits) {
    if (!bits) put(t, " -");
    for (int i = 0, first = 1; i < MASK_SIDE_BITS; i++)
        if (bits & 1 << i) put(t, "%s%s", first ? " " : "+", MASK_NAMES[i]), first = 0;
}

/// One line a code with any non-zero value: "KEYWORD patterns  values".
static void put_codes(Text *t, const char *keyword, const int16_t (*table)[2][PCODE_COUNT]) {
    const PcodeTables *pc = pcode_tables();
    for (int code = 0; code < PCODE_COUNT; code++) {
        const int16_t v[4] = {table[0][0][code], table[0][1][code], table[1][0][code],
                              table[1][1][code]};
        if (!v[0] && !v[1] && !v[2] && !v[3]) continue;
        put(t, "%s", keyword);
        for (int i = 3; i >= 0; i--) put(t, " %s", pattern_name((Pattern)pc->patterns[code][i]));
        put(t, "  %d %d %d %d\n", v[0], v[1], v[2], v[3]);
    }
}

/// The ordering's `near` lines with a value, nearest first, the opponent's last move first.
static void put_near(Text *t, const EvalWeights *w) {
    bool any = false;
    for (int side = 0; side < NEAR_SIDES; side++)
        for (int k = 0; k < NEAR_BUCKETS; k++) any |= w->near[side][k] != 0;
    if (!any) return;
    put(t,
        "# near: from the opponent's last move (their), the side's own (own) or the two moves\n"
        "# before them (their-before, own-before), the larger and the smaller of the column and\n"
        "# row distances (or far), then the value\n");
    for (int side = 0; side < NEAR_SIDES; side++)
        for (int far = 1; far <= NEAR_REACH + 1; far++)
            for (int close = 0; close <= (far > NEAR_REACH ? 0 : far); close++) {
                const int k = far > NEAR_REACH ? NEAR_FAR : near_bucket(far, close);
                if (!w->near[side][k]) continue;
                if (k == NEAR_FAR)
                    put(t, "near %s far %d\n", NEAR_SIDE_NAMES[side], w->near[side][k]);
                else
                    put(t, "near %s %d,%d %d\n", NEAR_SIDE_NAMES[side], far, close,
                        w->near[side][k]);
            }
}

/// The ordering's `pair` lines with a value.
static void put_pairs(Text *t, const EvalWeights *w) {
    bool any = false;
    for (int m = 0; m < THREAT_COUNT; m++)
        for (int o = 0; o < THREAT_COUNT; o++) any |= w->pair[m][o] != 0;
    if (!any) return;
    put(t, "# pair: the side to move's threat class at the point, the opponent's, the value\n");
    for (int m = 0; m < THREAT_COUNT; m++)
        for (int o = 0; o < THREAT_COUNT; o++)
            if (w->pair[m][o])
                put(t, "pair %s %s %d\n", threat_name((Threat)m), threat_name((Threat)o),
                    w->pair[m][o]);
}

/// The ordering's `context` lines with a value.
static void put_contexts(Text *t, const EvalWeights *w) {
    bool any = false;
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < 1 << MASK_SIDE_BITS; m++)
            for (int c = 0; c < THREAT_COUNT; c++) any |= w->context[r][m][c] != 0;
    if (!any) return;
    put(t, "# context: attack (the opponent's threat mask, the side to move's class at the point)\n"
           "# or defend (the side to move's mask, the opponent's class at the point), the value\n");
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < 1 << MASK_SIDE_BITS; m++)
            for (int c = 0; c < THREAT_COUNT; c++) {
                if (!w->context[r][m][c]) continue;
                put(t, "context %s", CONTEXT_ROLES[r]);
                put_mask_names(t, m);
                put(t, " %s %d\n", threat_name((Threat)c), w->context[r][m][c]);
            }
}

char *weights_format(const EvalWeights *w, Rule rule, const char *comment) {
    Text t = {.s = malloc(4096), .cap = 4096};
    if (!t.s) return NULL;
    t.s[0] = '\0';
    for (const char *s = comment; s && *s;) {
        const size_t n = strcspn(s, "\n");
        put(&t, "# %.*s\n", (int)n, s);
        s += n + (s[n] == '\n');
    }
    put(&t, "tengen-weights %d\nrule %s\nscale %d\n", FORMAT_VERSION, tg_rule_name(rule), w->scale);
    put(&t,
        "# code: four line patterns, then Black as mover and waiter, White as mover and waiter\n");
    const PcodeTables *pc = pcode_tables();
    for (int code = 0; code < PCODE_COUNT; code++) {
        const int16_t v[4] = {w->code[0][0][code], w->code[0][1][code], w->code[1][0][code],
                              w->code[1][1][code]};
        if (!v[0] && !v[1] && !v[2] && !v[3]) continue;
        put(&t, "code");
        for (int i = 3; i >= 0; i--) put(&t, " %s", pattern_name((Pattern)pc->patterns[code][i]));
        put(&t, "  %d %d %d %d\n", v[0], v[1], v[2], v[3]);
    }
    put(&t, "# mask: the mover's threat classes, the waiter's, the value\n");
    for (int m = 0; m < MASK_COUNT; m++) {
        if (!w->mask[m]) continue;
        put(&t, "mask");
        put_mask_names(&t, m & ((1 << MASK_SIDE_BITS) - 1));
        put_mask_names(&t, m >> MASK_SIDE_BITS);
        put(&t, " %d\n", w->mask[m]);
    }
    put(&t, "# order: four line patterns, then Black's attack and defence, White's\n");
    put_codes(&t, "order", w->order);
    put_near(&t, w);
    put_pairs(&t, w);
    put_contexts(&t, w);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

bool weights_order_more(const EvalWeights *w) {
    for (int side = NEAR_THEIRS_BEFORE; side < NEAR_SIDES; side++)
        for (int k = 0; k < NEAR_BUCKETS; k++)
            if (w->near[side][k]) return true;
    for (int m = 0; m < THREAT_COUNT; m++)
        for (int t = 0; t < THREAT_COUNT; t++)
            if (w->pair[m][t]) return true;
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < 1 << MASK_SIDE_BITS; m++)
            for (int t = 0; t < THREAT_COUNT; t++)
                if (w->context[r][m][t]) return true;
    return false;
}

/* ---- The built-in tables ---- */

static EvalWeights builtin[TG_RULE_COUNT];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

/// weights/<rule>.txt where it exists and parses; the seed weights otherwise. A table that
/// does not parse is a build defect that tests catch (test_weights), not a user's error.
static void load_builtin(void) {
    for (int r = 0; r < TG_RULE_COUNT; r++) {
        weights_from_seed((Rule)r, &builtin[r]);
        char name[32], err[160];
        snprintf(name, sizeof name, "%s.txt", tg_rule_name((Rule)r));
        for (int i = 0; i < TG_EMBEDDED_WEIGHTS_COUNT; i++) {
            const EmbeddedFile *f = &TG_EMBEDDED_WEIGHTS[i];
            if (strcmp(f->name, name)) continue;
            EvalWeights parsed;
            if (weights_parse((const char *)f->data, (Rule)r, &parsed, err, sizeof err))
                builtin[r] = parsed;
        }
    }
}

const EvalWeights *weights_builtin(Rule rule) {
    pthread_once(&builtin_once, load_builtin);
    return &builtin[rule];
}
