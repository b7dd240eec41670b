/*
 * pattern.c — builds the pattern tables of pattern.h, once per rule, on first use.
 *
 * The classifier works on the 11-cell window of a line key (the judged stone at the centre)
 * and is defined by recursion on "one more stone":
 *   FIVE       the centre's row is a five under the rule (line.c: line_is_five)
 *   OVERLINE   the centre's row is 6+ long and is no five; a blocked exact five is DEAD
 *   FREE4      two cells each complete a five through the centre (renju Black: only the
 *              straight four .XXXX.; any other pair is DOUBLE4, a foul)
 *   BLOCKED4   one such cell
 *   otherwise  the best shape one more stone can make, one step down:
 *              FREE4 -> FREE3, BLOCKED4 -> BLOCKED3, FREE3 -> FREE2, BLOCKED3 -> BLOCKED2,
 *              FREE2 -> FREE1, BLOCKED2 -> BLOCKED1, anything else -> DEAD.
 * The table itself is the memo (an unknown nibble reads 15), and a key plus one stone is just
 * another key. Fives that pass through the centre always lie inside the window, and every cell
 * they touch or end on is seen, so the window decides the pattern exactly.
 *
 * Only canonical keys are classified: cells beyond the first opponent stone or wall on a side
 * can never join a row through the centre, so they are overwritten with that blocker. That
 * leaves 94 shapes a side (8836 keys a colour), and the other keys copy their canonical key's
 * pattern; a rule's tables build in a few milliseconds.
 */
#include "pattern.h"

#include <pthread.h>
#include <string.h>

#include "line.h"

enum { UNKNOWN = 15, KEY_COUNT = 1 << 20 };

_Static_assert(TG_RULE_COUNT == 5, "one table builder per rule (pattern_tables)");

static PatternTables tables[TG_RULE_COUNT];
static pthread_once_t tables_once[TG_RULE_COUNT] = {
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

/* ---- Line patterns ---- */

/// Bit offset of window index i (0..10, centre excluded) in a line key (board.h).
static int key_shift(int i) { return 2 * (i < LINE_HALF ? i : i - 1); }

static void store(PatternTables *t, uint32_t key, Color c, Pattern p) {
    const int s = 4 * c;
    t->line[key] = (uint8_t)((t->line[key] & ~(15 << s)) | (unsigned)p << s);
}

/// One step down the ladder: the pattern of a shape whose best extension is `better`.
static Pattern one_stone_less(Pattern better) {
    switch (better) {
    case PAT_FREE4: return PAT_FREE3;
    case PAT_BLOCKED4: return PAT_BLOCKED3;
    case PAT_FREE3: return PAT_FREE2;
    case PAT_BLOCKED3: return PAT_BLOCKED2;
    case PAT_FREE2: return PAT_FREE1;
    case PAT_BLOCKED2: return PAT_BLOCKED1;
    default: return PAT_DEAD;
    }
}

static Pattern classify(PatternTables *t, Rule rule, Color c, uint32_t key);

/// Classifies a key whose centre row is not yet a five or a dead end, from its extensions.
static Pattern classify_by_extensions(PatternTables *t, Rule rule, Color c, uint32_t key,
                                      const Color line[LINE_LEN]) {
    int fives = 0, five_at[LINE_LEN];
    Pattern best = PAT_DEAD;
    for (int i = 0; i < LINE_LEN; i++) {
        if (i == LINE_HALF || line[i] != EMPTY) continue;
        const uint32_t more = key ^ ((uint32_t)(EMPTY ^ c) << key_shift(i));
        const Pattern p = classify(t, rule, c, more);
        if (p == PAT_FIVE)
            five_at[fives++] = i;
        else if (p > best)
            best = p;
    }
    if (fives >= 2) {
        const bool straight = fives == 2 && five_at[1] - five_at[0] == 5;
        return rule == TG_RENJU && c == BLACK && !straight ? PAT_DOUBLE4 : PAT_FREE4;
    }
    return fives == 1 ? PAT_BLOCKED4 : one_stone_less(best);
}

static Pattern classify(PatternTables *t, Rule rule, Color c, uint32_t key) {
    const int known = (t->line[key] >> (4 * c)) & 15;
    if (known != UNKNOWN) return (Pattern)known;
    Color line[LINE_LEN];
    int lo, hi;
    line_from_key(key, c, line);
    const int run = line_run(line, &lo, &hi);
    Pattern p = run < 5                    ? classify_by_extensions(t, rule, c, key, line)
                : line_is_five(line, rule) ? PAT_FIVE
                : run >= 6                 ? PAT_OVERLINE
                                           : PAT_DEAD; /* caro: an exact five blocked both ends */
    store(t, key, c, p);
    return p;
}

/* ---- Threat classes ---- */

static LineKind kind_of(Pattern p) {
    switch (p) {
    case PAT_OVERLINE:
    case PAT_DOUBLE4: return KIND_FOUL;
    case PAT_FREE3: return KIND_THREE;
    case PAT_BLOCKED4: return KIND_FOUR;
    case PAT_FREE4: return KIND_STRAIGHT;
    case PAT_FIVE: return KIND_FIVE;
    default: return KIND_OTHER;
    }
}

/// Combines four line kinds into a threat class (and the renju Black double-three hint).
static uint8_t combine(const LineKind k[4], bool renju_black) {
    int fives = 0, free4 = 0, block4 = 0, free3 = 0, foul_lines = 0;
    for (int d = 0; d < 4; d++) {
        fives += k[d] == KIND_FIVE;
        free4 += k[d] == KIND_STRAIGHT;
        block4 += k[d] == KIND_FOUR;
        free3 += k[d] == KIND_THREE;
        foul_lines += k[d] == KIND_FOUL;
    }
    /* An exact five wins even where it would also be a foul. */
    if (fives) return THREAT_FIVE;
    if (renju_black && (foul_lines || free4 + block4 >= 2)) return THREAT_FORBID;
    const Threat t = free4             ? THREAT_FLEX4
                     : block4 >= 2     ? THREAT_BLOCK4_2X
                     : block4 && free3 ? THREAT_BLOCK4_FLEX3
                     : block4          ? THREAT_BLOCK4
                     : free3 >= 2      ? THREAT_FLEX3_2X
                     : free3           ? THREAT_FLEX3
                                       : THREAT_NONE;
    return (uint8_t)(t | (renju_black && free3 >= 2 ? THREAT_MAYBE_33 : 0));
}

static void build_threats(PatternTables *t, Color c, bool renju_black) {
    for (unsigned w = 0; w < 1u << 12; w++) {
        LineKind k[4];
        for (int d = 0; d < 4; d++) k[d] = (LineKind)(w >> (KIND_BITS * d) & 7);
        t->threat[c][w] = combine(k, renju_black);
    }
}

static void build_kinds(PatternTables *t) {
    for (unsigned packed = 0; packed < 256; packed++)
        t->kinds[packed] = (uint32_t)kind_of(pattern_of((uint8_t)packed, BLACK)) |
                           (uint32_t)kind_of(pattern_of((uint8_t)packed, WHITE))
                               << KIND_WHITE_SHIFT;
}

/// One side of a key (5 cells, 10 bits) with every cell beyond the first opponent stone or
/// wall, walking outward from `nearest` by `step`, replaced by that blocker.
static uint32_t canonical_side(uint32_t side, Color c, int nearest, int step) {
    uint32_t blocker = EMPTY; /* none yet */
    for (int n = 0, i = nearest; n < LINE_HALF; n++, i += step) {
        const uint32_t cell = side >> (2 * i) & 3;
        if (blocker != EMPTY)
            side = (side & ~(3u << (2 * i))) | blocker << (2 * i);
        else if (cell == (uint32_t)(c ^ 1) || cell == WALL)
            blocker = cell;
    }
    return side;
}

/// Classifies every canonical key of colour c, then copies the result to all other keys.
static void build_colour(PatternTables *t, Rule rule, Color c) {
    uint32_t before[1 << 10], after[1 << 10]; /* the low side's nearest cell is its last */
    for (uint32_t side = 0; side < 1 << 10; side++) {
        before[side] = canonical_side(side, c, LINE_HALF - 1, -1);
        after[side] = canonical_side(side, c, 0, 1);
    }
    for (uint32_t key = 0; key < KEY_COUNT; key++) {
        const uint32_t canon = before[key & 1023] | after[key >> 10] << 10;
        if (canon == key) classify(t, rule, c, key);
    }
    for (uint32_t key = 0; key < KEY_COUNT; key++) {
        const uint32_t canon = before[key & 1023] | after[key >> 10] << 10;
        store(t, key, c, pattern_of(t->line[canon], c));
    }
}

const PcodeTables *pcode_tables(void);

static void build_rule(Rule rule) {
    PatternTables *t = &tables[rule];
    memset(t->line, 0xff, sizeof t->line);
    build_colour(t, rule, BLACK);
    build_colour(t, rule, WHITE);
    build_kinds(t);
    build_threats(t, BLACK, rule == TG_RENJU);
    build_threats(t, WHITE, false);
    t->pcodes = pcode_tables();
}

/* pthread_once takes no argument, hence one tiny builder per rule. */
static void build_freestyle(void) { build_rule(TG_FREESTYLE); }
static void build_standard(void) { build_rule(TG_STANDARD); }
static void build_renju(void) { build_rule(TG_RENJU); }
static void build_caro8(void) { build_rule(TG_CARO8); }
static void build_caro9(void) { build_rule(TG_CARO9); }

const PatternTables *pattern_tables(Rule rule) {
    static void (*const builders[TG_RULE_COUNT])(void) = {build_freestyle, build_standard,
                                                          build_renju, build_caro8, build_caro9};
    pthread_once(&tables_once[rule], builders[rule]);
    return &tables[rule];
}

/* ---- Pattern codes ---- */

static PcodeTables pcodes;
static pthread_once_t pcodes_once = PTHREAD_ONCE_INIT;

static int choose(int n, int k) {
    int r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return n < k ? 0 : r;
}

/// Numbers the unordered pairs a <= b as b(b+1)/2 + a, then gives each pair of pairs the rank
/// of its sorted quadruple a <= b <= c <= d: the strictly increasing a < b+1 < c+2 < d+3
/// ranked in colexicographic order, a bijection onto 0..PCODE_COUNT-1 (the combinatorial
/// number system).
static void build_pcodes(void) {
    int first[PCODE_PAIRS], second[PCODE_PAIRS];
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) {
            const int lo = a < b ? a : b, hi = a < b ? b : a;
            const bool valid = hi < PAT_COUNT; /* other nibbles never occur */
            const int pair = valid ? hi * (hi + 1) / 2 + lo : 0;
            pcodes.pair[a | b << 4] = (uint8_t)pair;
            if (valid) first[pair] = lo, second[pair] = hi;
        }
    for (int i = 0; i < PCODE_PAIRS; i++)
        for (int j = 0; j < PCODE_PAIRS; j++) {
            int p[4] = {first[i], second[i], first[j], second[j]};
            for (int k = 1; k < 4; k++) /* insertion sort of four */
                for (int m = k; m > 0 && p[m - 1] > p[m]; m--) {
                    const int t = p[m];
                    p[m] = p[m - 1], p[m - 1] = t;
                }
            const int code =
                choose(p[0], 1) + choose(p[1] + 1, 2) + choose(p[2] + 2, 3) + choose(p[3] + 3, 4);
            pcodes.code[i][j] = (uint16_t)code;
            for (int k = 0; k < 4; k++) pcodes.patterns[code][k] = (uint8_t)p[k];
        }
}

const PcodeTables *pcode_tables(void) {
    pthread_once(&pcodes_once, build_pcodes);
    return &pcodes;
}

const char *pattern_name(Pattern p) {
    static const char *const names[PAT_COUNT] = {"dead",  "overline", "double4", "blocked1",
                                                 "free1", "blocked2", "free2",   "blocked3",
                                                 "free3", "blocked4", "free4",   "five"};
    return (unsigned)p < PAT_COUNT ? names[p] : "?";
}

const char *threat_name(Threat t) {
    static const char *const names[THREAT_COUNT] = {"none",      "forbid", "flex3",
                                                    "flex3-2x",  "block4", "block4-flex3",
                                                    "block4-2x", "flex4",  "five"};
    return (unsigned)t < THREAT_COUNT ? names[t] : "?";
}
