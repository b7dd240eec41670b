/*
 * test_pattern.c — the pattern tables and the per-cell threat classes: one known answer per
 * Pattern value and per Threat class, under each rule where the rules differ; the incremental
 * board state against a from-scratch recomputation after random play and undo; and the renju
 * FORBID class against renju_foul() on every empty point of the shared forbidden-point data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/board.h"
#include "../../src/core/line.h"
#include "../../src/core/pattern.h"
#include "../../src/core/rules.h"
#include "../../src/core/zobrist.h"
#include "data.h"

/* ---- Helpers ---------------------------------------------------------------------------- */

/// "h8" on a board `height` tall -> Pos (columns from 'a', rows from the bottom).
static Pos sq(int height, const char *text) {
    return pos_make(text[0] - 'a', height - atoi(text + 1));
}

/// Puts stones of colour c at the space-separated squares.
static void put_squares(Board *b, const char *squares, Color c) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", squares);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) board_put(b, sq(b->height, t), c);
}

/*
 * The pattern of a line drawn as text, judged for colour c: `X` the judged cell, `x` stones of
 * c, `o` the opponent's, `.` empty, `|` a wall. Cells past the text are empty.
 */
static Pattern line_pattern(Rule rule, Color c, const char *text) {
    const char *centre = strchr(text, 'X');
    assert_non_null(centre);
    uint32_t key = 0;
    for (int i = 0; i < LINE_LEN; i++) {
        if (i == LINE_HALF) continue;
        const long at = (centre - text) + (i - LINE_HALF);
        const char ch = at >= 0 && at < (long)strlen(text) ? text[at] : '.';
        const Color cell = ch == 'x' ? c : ch == 'o' ? (Color)(c ^ 1) : ch == '|' ? WALL : EMPTY;
        key |= (uint32_t)cell << (2 * (i < LINE_HALF ? i : i - 1));
    }
    return pattern_of(pattern_tables(rule)->line[key], c);
}

/* ---- Line patterns ---------------------------------------------------------------------- */

typedef struct PatternCase {
    const char *line;
    Pattern want[6]; ///< freestyle, standard, renju Black, renju White, caro8, caro9
} PatternCase;

#define SAME(p)                                                                                    \
    { p, p, p, p, p, p }

static const PatternCase PATTERN_CASES[] = {
    /* Five cells between two opponent stones hold a five; four cells do not. */
    {"o.xX.o", SAME(PAT_DEAD)},
    {"|xX..|", SAME(PAT_DEAD)},
    /* ... and for caro that only five is blocked at both ends. */
    {"o.xX..o", {PAT_BLOCKED2, PAT_BLOCKED2, PAT_BLOCKED2, PAT_BLOCKED2, PAT_DEAD, PAT_DEAD}},
    /* A wall or an opponent stone next to a lone stone leaves room on one side only. */
    {"|X....", SAME(PAT_BLOCKED1)},
    {"oX....", SAME(PAT_BLOCKED1)},
    {"....X....", SAME(PAT_FREE1)},
    {"oxX....", SAME(PAT_BLOCKED2)},
    {"...xX...", SAME(PAT_FREE2)},
    {"...x.X...", SAME(PAT_FREE2)},
    {"oxxX...", SAME(PAT_BLOCKED3)},
    {"|.xxX.|", SAME(PAT_BLOCKED3)}, /* no room for .xxxx. */
    {"..xxX..", SAME(PAT_FREE3)},
    {"..x.xX..", SAME(PAT_FREE3)},
    {"oxxxX.", SAME(PAT_BLOCKED4)},
    {"..xx.xX..", SAME(PAT_BLOCKED4)},
    {"..xxxX..", SAME(PAT_FREE4)},
    {".xxXxx.", SAME(PAT_FIVE)},
    /* Six in a row: a five where overlines win. */
    {"xxXxxx", {PAT_FIVE, PAT_OVERLINE, PAT_OVERLINE, PAT_FIVE, PAT_FIVE, PAT_OVERLINE}},
    /* Same-line double four: two fives for everyone; for renju Black a foul. */
    {"x.xXx.x", {PAT_FREE4, PAT_FREE4, PAT_DOUBLE4, PAT_FREE4, PAT_FREE4, PAT_FREE4}},
    {"xx.Xx.xx", {PAT_FREE4, PAT_FREE4, PAT_DOUBLE4, PAT_FREE4, PAT_FREE4, PAT_FREE4}},
    /* .xxxX.x: the right five point makes six. */
    {"..xxxX.x", {PAT_FREE4, PAT_BLOCKED4, PAT_BLOCKED4, PAT_FREE4, PAT_FREE4, PAT_BLOCKED4}},
    /* o.xxX..x (rules.md 2.1): no three for Black, whose eyes make six; a three for White. */
    {"o.xxX..x", {PAT_FREE3, PAT_BLOCKED3, PAT_BLOCKED3, PAT_FREE3, PAT_FREE3, PAT_BLOCKED3}},
    /* Caro: an exact five blocked at both ends by the opponent is no five; walls do not block. */
    {"oxxXxxo", {PAT_FIVE, PAT_FIVE, PAT_FIVE, PAT_FIVE, PAT_DEAD, PAT_DEAD}},
    {"|xxXxx|", SAME(PAT_FIVE)},
    {"oxxxX.o", {PAT_BLOCKED4, PAT_BLOCKED4, PAT_BLOCKED4, PAT_BLOCKED4, PAT_DEAD, PAT_DEAD}},
};

static void test_line_patterns(void **state) {
    (void)state;
    static const Rule rules[6] = {TG_FREESTYLE, TG_STANDARD, TG_RENJU,
                                  TG_RENJU,     TG_CARO8,    TG_CARO9};
    static const Color colors[6] = {BLACK, BLACK, BLACK, WHITE, BLACK, BLACK};
    for (size_t i = 0; i < sizeof PATTERN_CASES / sizeof PATTERN_CASES[0]; i++) {
        for (int r = 0; r < 6; r++) {
            const PatternCase *pc = &PATTERN_CASES[i];
            const Pattern got = line_pattern(rules[r], colors[r], pc->line);
            if (got != pc->want[r])
                fail_msg("%s for %s %s: got %s, want %s", pc->line, tg_rule_name(rules[r]),
                         tg_color_name((TgColor)colors[r]), pattern_name(got),
                         pattern_name(pc->want[r]));
        }
    }
}

/// Every Pattern value is met by some case above (the list stays complete as the enum grows).
static void test_every_pattern_has_a_case(void **state) {
    (void)state;
    bool seen[PAT_COUNT] = {false};
    for (size_t i = 0; i < sizeof PATTERN_CASES / sizeof PATTERN_CASES[0]; i++)
        for (int r = 0; r < 6; r++) seen[PATTERN_CASES[i].want[r]] = true;
    for (int p = 0; p < PAT_COUNT; p++)
        if (!seen[p]) fail_msg("no case for pattern %s", pattern_name((Pattern)p));
}

/// The tables agree with the colour swap where the rule treats both colours alike.
static void test_colour_symmetry(void **state) {
    (void)state;
    static const Rule symmetric[] = {TG_FREESTYLE, TG_STANDARD, TG_CARO8, TG_CARO9};
    for (size_t r = 0; r < sizeof symmetric / sizeof symmetric[0]; r++) {
        const PatternTables *t = pattern_tables(symmetric[r]);
        for (uint32_t key = 0; key < 1u << 20; key += 7) {
            const uint32_t swapped = key ^ (~key >> 1 & 0x55555); /* BLACK <-> WHITE codes */
            assert_int_equal(pattern_of(t->line[key], BLACK), pattern_of(t->line[swapped], WHITE));
        }
    }
}

/* ---- Threat classes --------------------------------------------------------------------- */

typedef struct ThreatCase {
    Rule rule;
    const char *black, *white; ///< stones on a 15x15 board
    const char *at;            ///< the empty cell judged for Black
    Threat want;
} ThreatCase;

static const ThreatCase THREAT_CASES[] = {
    {TG_FREESTYLE, "h8", "", "a1", THREAT_NONE},
    {TG_FREESTYLE, "h8 i8", "", "j8", THREAT_FLEX3},
    {TG_FREESTYLE, "h8 i8 j9 j10", "", "j8", THREAT_FLEX3_2X},
    {TG_FREESTYLE, "h8 i8 j8", "g8", "k8", THREAT_BLOCK4},
    {TG_FREESTYLE, "h8 i8 j8 k9 k10", "g8", "k8", THREAT_BLOCK4_FLEX3},
    {TG_FREESTYLE, "h8 i8 j8 k9 k10 k11", "g8 k12", "k8", THREAT_BLOCK4_2X},
    {TG_FREESTYLE, "h8 i8 j8", "", "k8", THREAT_FLEX4},
    {TG_FREESTYLE, "h8 i8 j8 k8", "", "l8", THREAT_FIVE},
    {TG_FREESTYLE, "f8 g8 h8 j8 k8", "", "i8", THREAT_FIVE}, /* six wins here */
    /* Renju Black: the same shapes are fouls, but an exact five overrides. */
    {TG_RENJU, "f8 g8 h8 j8 k8", "", "i8", THREAT_FORBID},
    {TG_RENJU, "h8 i8 j8 k9 k10 k11", "g8 k12", "k8", THREAT_FORBID},
    {TG_RENJU, "g8 i8 k8 m8", "", "j8", THREAT_FORBID},             /* x.xXx.x on one line */
    {TG_RENJU, "h8 i8 j9 j10", "", "j8", THREAT_FORBID},            /* a real double three */
    {TG_RENJU, "g8 h8 i8 j8 k9 k10 k11", "k12", "k8", THREAT_FIVE}, /* five beats 4-4 */
    {TG_RENJU, "h8 i8 j8 k9 k10", "g8", "k8", THREAT_BLOCK4_FLEX3},
    /* The vertical line is dead (between j6 and j11), so there is one three only. */
    {TG_RENJU, "h8 i8 j9 j10", "j11 j6", "j8", THREAT_FLEX3},
};

static void test_threat_classes(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof THREAT_CASES / sizeof THREAT_CASES[0]; i++) {
        const ThreatCase *tc = &THREAT_CASES[i];
        Board b;
        board_init(&b, tc->rule, 15, 15);
        put_squares(&b, tc->black, BLACK);
        put_squares(&b, tc->white, WHITE);
        const Threat got = rules_threat_at(&b, sq(15, tc->at), BLACK);
        if (got != tc->want)
            fail_msg("case %zu (%s, black %s, white %s) at %s: got %s, want %s", i,
                     tg_rule_name(tc->rule), tc->black, tc->white, tc->at, threat_name(got),
                     threat_name(tc->want));
    }
}

static void test_every_threat_has_a_case(void **state) {
    (void)state;
    bool seen[THREAT_COUNT] = {false};
    for (size_t i = 0; i < sizeof THREAT_CASES / sizeof THREAT_CASES[0]; i++)
        seen[THREAT_CASES[i].want] = true;
    for (int t = 0; t < THREAT_COUNT; t++)
        if (!seen[t]) fail_msg("no case for threat %s", threat_name((Threat)t));
}

/* ---- Incremental state ------------------------------------------------------------------ */

/// Random play and undo under every rule, compared with a recomputation after every step.
static void test_incremental_matches_scratch(void **state) {
    (void)state;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        Board b;
        uint64_t rng = 42 + (uint64_t)rule;
        const int size = rule == TG_FREESTYLE ? 20 : 15;
        board_init(&b, (Rule)rule, size, size);
        for (int step = 0; step < 3000; step++) {
            if (b.ply > 0 && (splitmix64(&rng) % 4 == 0 || b.stone_count > size * size * 2 / 3)) {
                board_undo(&b);
            } else {
                Pos p;
                do {
                    const uint64_t r = splitmix64(&rng);
                    p = pos_make((int)(r % (uint64_t)size), (int)(r / 64 % (uint64_t)size));
                } while (!board_empty(&b, p));
                board_play(&b, p);
            }
            if (!board_is_consistent(&b)) fail_msg("rule %d, step %d", rule, step);
        }
    }
}

/* ---- Renju fouls from the patterns against renju_foul() --------------------------------- */

/// Places the moves of a forbidden-point line ("15 h8 i9 -- ... | answers") as a diagram.
static void setup_line(Board *b, char *line) {
    char *bar = strchr(line, '|');
    if (bar) *bar = '\0';
    char *t = strtok(line, " ");
    const int size = atoi(t);
    board_init(b, TG_RENJU, size, size);
    while ((t = strtok(NULL, " \n")) != NULL)
        board_play(b, strcmp(t, "--") == 0 ? POS_PASS : sq(size, t));
}

static void test_forbid_class_matches_renju_foul(void **state) {
    (void)state;
    FILE *f = test_data_open("renju/forbidden.txt");
    char line[4096];
    int positions = 0, forbidden = 0;
    Board *b = malloc(sizeof *b);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        setup_line(b, line);
        positions++;
        for (int y = 0; y < b->height; y++)
            for (int x = 0; x < b->width; x++) {
                const Pos p = pos_make(x, y);
                if (!board_empty(b, p)) continue;
                const bool foul = renju_foul(b, p) != TG_FOUL_NONE;
                const bool forbid = rules_threat_at(b, p, BLACK) == THREAT_FORBID;
                if (foul != forbid) fail_msg("position %d, point %d,%d", positions, x, y);
                forbidden += foul;
            }
        assert_true(board_is_consistent(b));
    }
    fclose(f);
    free(b);
    assert_int_equal(positions, 800);
    assert_int_equal(forbidden, 1184 + 800 + 214);
}

/* ---- The table-read foul test against the window's own definition ---------------------- */

static TgFoul window_foul(Board *b, Pos p);

/// Can the three on line d through the stone at p be made a straight four by a legal move?
static bool window_three_is_real(Board *b, Pos p, int d, const int eyes[], int n) {
    for (int i = 0; i < n; i++) {
        const Pos e = (Pos)(p + (eyes[i] - LINE_HALF) * DIR[d]);
        if (!rules_makes_five(b, e, BLACK) && window_foul(b, e) == TG_FOUL_NONE) return true;
    }
    return false;
}

/// renju_foul() as line.c's windows define it, unpacked from the keys: the reference.
static TgFoul window_foul(Board *b, Pos p) {
    Color lines[4][LINE_LEN];
    bool overline = false;
    for (int d = 0; d < 4; d++) {
        line_from_key(b->key[p][d], BLACK, lines[d]);
        int lo, hi;
        const int len = line_run(lines[d], &lo, &hi);
        if (len == 5) return TG_FOUL_NONE;
        overline |= len > 5;
    }
    if (overline) return TG_FOUL_OVERLINE;
    int eyes[4][LINE_LEN], eye_count[4] = {0}, fours = 0, three_lines = 0;
    for (int d = 0; d < 4; d++) {
        const int f = line_black_fours(lines[d]);
        fours += f;
        if (f == 0 && (eye_count[d] = line_black_three_eyes(lines[d], eyes[d])) > 0) three_lines++;
    }
    if (fours >= 2) return TG_FOUL_DOUBLE_FOUR;
    if (three_lines < 2) return TG_FOUL_NONE;
    board_put(b, p, BLACK);
    int real = 0;
    for (int d = 0; d < 4 && real < 2; d++)
        if (eye_count[d] > 0 && window_three_is_real(b, p, d, eyes[d], eye_count[d])) real++;
    board_lift(b, p);
    return real >= 2 ? TG_FOUL_DOUBLE_THREE : TG_FOUL_NONE;
}

/// renju_foul() reads the pattern tables; on every empty point of the shared positions, and of
/// every Black-to-move position of random renju games, it gives the window's verdict and kind.
static void test_renju_foul_matches_windows(void **state) {
    (void)state;
    FILE *f = test_data_open("renju/forbidden.txt");
    char line[4096];
    int points = 0, fouls = 0;
    Board *b = malloc(sizeof *b);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        setup_line(b, line);
        for (int y = 0; y < b->height; y++)
            for (int x = 0; x < b->width; x++) {
                const Pos p = pos_make(x, y);
                if (!board_empty(b, p)) continue;
                const TgFoul want = window_foul(b, p), got = renju_foul(b, p);
                if (got != want) fail_msg("%d,%d: foul %d, the windows say %d", x, y, got, want);
                points++, fouls += got != TG_FOUL_NONE;
            }
    }
    fclose(f);
    uint64_t seed = 7;
    for (int game = 0; game < 200; game++) {
        board_init(b, TG_RENJU, 15, 15);
        for (int ply = 0; ply < 60; ply++) {
            /* Stones in the central 9x9 crowd into the shapes a foul needs. */
            Pos empty[9 * 9];
            int n = 0;
            for (int i = 0; i < 9 * 9; i++)
                if (board_empty(b, pos_make(3 + i % 9, 3 + i / 9)))
                    empty[n++] = pos_make(3 + i % 9, 3 + i / 9);
            if (n == 0) break;
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            const Pos p = empty[(seed >> 33) % (uint64_t)n];
            if (rules_makes_five(b, p, board_to_move(b))) continue;
            if (board_to_move(b) == BLACK && ply % 6 == 0)
                for (int i = 0; i < n; i++) {
                    const TgFoul want = window_foul(b, empty[i]), got = renju_foul(b, empty[i]);
                    if (got != want)
                        fail_msg("game %d ply %d: %d, the windows say %d", game, ply, got, want);
                    points++, fouls += got != TG_FOUL_NONE;
                }
            board_play(b, p);
        }
    }
    free(b);
    assert_true(fouls > 3000);
    print_message("%d points, %d fouls\n", points, fouls);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_patterns),
        cmocka_unit_test(test_every_pattern_has_a_case),
        cmocka_unit_test(test_colour_symmetry),
        cmocka_unit_test(test_threat_classes),
        cmocka_unit_test(test_every_threat_has_a_case),
        cmocka_unit_test(test_incremental_matches_scratch),
        cmocka_unit_test(test_forbid_class_matches_renju_foul),
        cmocka_unit_test(test_renju_foul_matches_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
