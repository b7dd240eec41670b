/*
 * test_rules.c — known answers for the rules (docs/rules.md): five detection under
 * every rule in every direction, at edges and on odd board shapes; the one-line classifiers;
 * Black's renju fouls, including same-line double fours, edge and blocked threes, the
 * exact-five precedence and the recursive double-three rule 9.3; White's freedom; and the
 * order of tg_game_forbidden. Every position here was worked out by hand (the reasoning is in
 * the comments), so a change in the rule code that alters a verdict fails a named case.
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
#include "../../src/core/rules.h"

/* ---- Helpers ---------------------------------------------------------------------------- */

/// "h8" on a board `height` tall -> Pos (columns from 'a', rows from the bottom).
static Pos sq(int height, const char *text) {
    return pos_make(text[0] - 'a', height - atoi(text + 1));
}

/// Puts stones of colour c at the space-separated squares (no move stack: a diagram).
static void put_squares(Board *b, const char *squares, Color c) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", squares ? squares : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Pos p = sq(b->height, t);
        if (!board_empty(b, p)) fail_msg("diagram square %s is not empty", t);
        board_put(b, p, c);
    }
}

/// An 11-cell line from a string: B, W, . (empty), | (wall). The centre is index 5.
static void make_line(const char *text, Color line[LINE_LEN]) {
    assert_int_equal(strlen(text), LINE_LEN);
    for (int i = 0; i < LINE_LEN; i++)
        line[i] = text[i] == 'B' ? BLACK : text[i] == 'W' ? WHITE : text[i] == '|' ? WALL : EMPTY;
}

static const int DX[4] = {1, 0, 1, -1};
static const int DY[4] = {0, 1, 1, 1};

/* ---- Five detection --------------------------------------------------------------------- */

/*
 * A five case: a line pattern of the mover (X) and the opponent (O), `_` the point the mover
 * plays, `.` empty, and `|` at either end meaning "flush against the board edge there".
 * `wins` has one letter (Y/N) per column: freestyle, standard, renju Black, renju White,
 * caro8, caro9.
 */
typedef struct FiveCase {
    const char *pattern;
    const char *wins;
} FiveCase;

enum { COL_FREE, COL_STD, COL_RENJU_B, COL_RENJU_W, COL_CARO8, COL_CARO9 };

static const FiveCase FIVE_CASES[] = {
    {"XX_XX", "YYYYYY"}, /* filled in the middle */
    {"_XXXX", "YYYYYY"}, /* completed at an end */
    {"XXXX_", "YYYYYY"},
    {"XXX_XX", "YNNYYN"}, /* overline of 6 */
    {"_XXXXX", "YNNYYN"},
    {"XXXX_XX", "YNNYYN"}, /* overline of 7 */
    {"OXX_XXO", "YYYYNN"}, /* exact five blocked at both ends by the opponent */
    {"OXXXX_O", "YYYYNN"},
    {"OXX_XX.", "YYYYYY"}, /* blocked at one end only */
    {".XX_XXO", "YYYYYY"},
    {"O.XX_XX.O", "YYYYYY"}, /* opponent stones not adjacent do not block */
    {"|XX_XXO", "YYYYYY"},   /* the edge does not block */
    {"OXX_XX|", "YYYYYY"},
    {"|XX_XX", "YYYYYY"},
    {"|_XXXX", "YYYYYY"},
    {"XXXX_|", "YYYYYY"},
    {"OXXX_XXO", "YNNYYN"}, /* blocked overline: caro8 still wins, caro9 does not */
    {"|XXX_XXO", "YNNYYN"},
    {"|XX_XX|", "YYYYYY"}, /* a whole 5-cell line: the edge blocks nothing */
    {"|_XXXX|", "YYYYYY"},
    {"XX_X.X", "NNNNNN"}, /* four stones and a gap: no five */
    {"XX_XOX", "NNNNNN"},
    {"X_XX.X", "NNNNNN"},
    {"XXXXXX_XXXXXX", "YNNYYN"}, /* 13 stones: longer than the 11-cell window */
};

/// Finds the start of `len` cells along direction d satisfying the edge marks, as near the
/// centre of the board as possible. False when the line does not fit.
static bool place_line(const Board *b, int d, int len, bool lead_edge, bool trail_edge, int *sx,
                       int *sy) {
    int best = -1;
    for (int y = 0; y < b->height; y++) {
        for (int x = 0; x < b->width; x++) {
            int ex = x + (len - 1) * DX[d], ey = y + (len - 1) * DY[d];
            if (!board_contains(b, ex, ey)) continue;
            bool before = board_contains(b, x - DX[d], y - DY[d]);
            bool after = board_contains(b, ex + DX[d], ey + DY[d]);
            if ((lead_edge && before) || (trail_edge && after)) continue;
            int mx = 2 * x + (len - 1) * DX[d] - (b->width - 1);
            int my = 2 * y + (len - 1) * DY[d] - (b->height - 1);
            int dist = abs(mx) + abs(my);
            if (best < 0 || dist < best) {
                best = dist;
                *sx = x;
                *sy = y;
            }
        }
    }
    return best >= 0;
}

/// The mover's stones of the pattern and the playing point; returns the row through `_`.
static int lay_pattern(Board *b, const char *cells, int len, int sx, int sy, int d, Color mover,
                       Pos *play, Pos *from, Pos *to) {
    int lo = -1, hi = -1, at = -1;
    for (int i = 0; i < len; i++) {
        Pos p = pos_make(sx + i * DX[d], sy + i * DY[d]);
        if (cells[i] == 'X') board_put(b, p, mover);
        if (cells[i] == 'O') board_put(b, p, (Color)(mover ^ 1));
        if (cells[i] == '_') {
            *play = p;
            at = i;
        }
    }
    for (lo = at; lo > 0 && cells[lo - 1] == 'X'; lo--) continue;
    for (hi = at; hi < len - 1 && cells[hi + 1] == 'X'; hi++) continue;
    *from = pos_make(sx + lo * DX[d], sy + lo * DY[d]);
    *to = pos_make(sx + hi * DX[d], sy + hi * DY[d]);
    return hi - lo + 1;
}

static int wins_column(Rule rule, Color mover) {
    switch (rule) {
    case TG_FREESTYLE: return COL_FREE;
    case TG_STANDARD: return COL_STD;
    case TG_RENJU: return mover == BLACK ? COL_RENJU_B : COL_RENJU_W;
    case TG_CARO8: return COL_CARO8;
    default: return COL_CARO9;
    }
}

/// One case on one board, rule, direction and colour; returns false if it does not fit.
static bool check_five_case(const FiveCase *fc, Rule rule, int w, int h, int d, Color mover) {
    const char *p = fc->pattern;
    bool lead = p[0] == '|';
    char cells[32];
    snprintf(cells, sizeof cells, "%s", p + lead);
    size_t n = strlen(cells);
    bool trail = n && cells[n - 1] == '|';
    if (trail) cells[--n] = '\0';
    Board b;
    board_init(&b, rule, w, h);
    int sx = 0, sy = 0;
    if (!place_line(&b, d, (int)n, lead, trail, &sx, &sy)) return false;
    Pos play = POS_NONE, from, to;
    int run = lay_pattern(&b, cells, (int)n, sx, sy, d, mover, &play, &from, &to);
    const bool want = fc->wins[wins_column(rule, mover)] == 'Y';
    if (rules_makes_five(&b, play, mover) != want)
        fail_msg("%s, %s, %dx%d, dir %d, %s: makes_five should be %d", p, tg_rule_name(rule), w, h,
                 d, mover == BLACK ? "black" : "white", want);
    board_put(&b, play, mover);
    Pos f = POS_NONE, t = POS_NONE;
    int len = 0;
    if (rules_five_at(&b, play, &f, &t, &len) != want)
        fail_msg("%s, %s, %dx%d, dir %d: five_at should be %d", p, tg_rule_name(rule), w, h, d,
                 want);
    if (want) {
        /* The row's two ends, in either order, and its full length. */
        bool same = (f == from && t == to) || (f == to && t == from);
        if (!same || len != run)
            fail_msg("%s, %s, %dx%d, dir %d: win line wrong (length %d, want %d)", p,
                     tg_rule_name(rule), w, h, d, len, run);
    }
    return true;
}

/// Runs every case on a w x h board; returns how many (case, rule, direction, colour) fitted.
static int run_five_cases(int w, int h) {
    int placed = 0;
    for (size_t i = 0; i < sizeof FIVE_CASES / sizeof FIVE_CASES[0]; i++)
        for (int rule = 0; rule < TG_RULE_COUNT; rule++)
            for (int d = 0; d < 4; d++)
                for (int c = BLACK; c <= WHITE; c++)
                    placed += check_five_case(&FIVE_CASES[i], (Rule)rule, w, h, d, (Color)c);
    return placed;
}

/* The counts below make sure the cases were really tried, not skipped for lack of room:
 * 40 = 5 rules x 4 directions x 2 colours per pattern that fits. */

static void test_five_15(void **state) {
    (void)state;
    /* Every pattern but the two whole-line ones fits in every direction on 15 x 15; those two
     * fit on the 5-cell corner diagonals (a5-e1 ...) only: 2 directions, 20 each. */
    assert_int_equal(run_five_cases(15, 15), 22 * 40 + 2 * 20);
}

static void test_five_22(void **state) {
    (void)state;
    assert_int_equal(run_five_cases(22, 22), 22 * 40 + 2 * 20);
}

static void test_five_5(void **state) {
    (void)state;
    /* The 8 patterns of 5 cells fit in every direction (the corner diagonals are whole
     * lines); nothing longer fits. */
    assert_int_equal(run_five_cases(5, 5), 8 * 40);
}

static void test_five_rectangular(void **state) {
    (void)state;
    assert_true(run_five_cases(7, 15) > 8 * 40);
    assert_true(run_five_cases(22, 5) > 8 * 40);
    assert_true(run_five_cases(15, 7) > 8 * 40);
}

/// A whole 5-cell line: the corner diagonals and the edge rows of a 5 x 5 board win under every
/// rule, since walls never block (caro).
static void test_five_whole_lines(void **state) {
    (void)state;
    static const char *const lines[][5] = {
        {"a1", "b2", "c3", "d4", "e5"}, {"a5", "b4", "c3", "d2", "e1"},
        {"a1", "b1", "c1", "d1", "e1"}, {"e1", "e2", "e3", "e4", "e5"},
        {"a5", "b5", "c5", "d5", "e5"},
    };
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        for (size_t l = 0; l < sizeof lines / sizeof lines[0]; l++) {
            for (int c = BLACK; c <= WHITE; c++) {
                for (int gap = 0; gap < 5; gap++) {
                    Board b;
                    board_init(&b, (Rule)rule, 5, 5);
                    for (int i = 0; i < 5; i++)
                        if (i != gap) board_put(&b, sq(5, lines[l][i]), (Color)c);
                    assert_true(rules_makes_five(&b, sq(5, lines[l][gap]), (Color)c));
                    /* The other colour has nothing there. */
                    assert_false(rules_makes_five(&b, sq(5, lines[l][gap]), (Color)(c ^ 1)));
                }
            }
        }
    }
}

/// A five elsewhere on the board, or of the other colour, is not a five through p.
static void test_five_only_through_point(void **state) {
    (void)state;
    Board b;
    board_init(&b, TG_FREESTYLE, 15, 15);
    put_squares(&b, "a1 b1 c1 d1", BLACK);
    put_squares(&b, "h8 h9 h10 h11", WHITE);
    assert_false(rules_makes_five(&b, sq(15, "f1"), BLACK)); /* gap at e1 */
    assert_true(rules_makes_five(&b, sq(15, "e1"), BLACK));
    assert_false(rules_makes_five(&b, sq(15, "e1"), WHITE));
    assert_true(rules_makes_five(&b, sq(15, "h12"), WHITE));
    assert_true(rules_makes_five(&b, sq(15, "h7"), WHITE));
    assert_false(rules_makes_five(&b, sq(15, "h12"), BLACK));
    assert_false(rules_makes_five(&b, sq(15, "h6"), WHITE));
    /* Stones already standing: h8 is part of four only. */
    Pos f, t;
    int len;
    assert_false(rules_five_at(&b, sq(15, "h8"), &f, &t, &len));
}

/// A 15 x 15 game holding a pattern on row 12 (y = 3), `mover` to move; *play is its `_`.
static TgGame *pattern_game(TgRule rule, const char *pat, TgColor mover, TgPoint *play) {
    const int n = (int)strlen(pat), x0 = (15 - n) / 2, y = 3;
    const TgPoint pass = {-1, -1};
    TgPoint mine[16], theirs[16], moves[64];
    int nm = 0, nt = 0, k = 0;
    for (int j = 0; j < n; j++) {
        TgPoint p = {x0 + j, y};
        if (pat[j] == 'X') mine[nm++] = p;
        if (pat[j] == 'O') theirs[nt++] = p;
        if (pat[j] == '_') *play = p;
    }
    /* The mover's and the opponent's stones alternate, passes filling in. */
    if (mover == TG_WHITE) moves[k++] = pass;
    for (int j = 0; j < nm || j < nt; j++) {
        moves[k++] = j < nm ? mine[j] : pass;
        moves[k++] = j < nt ? theirs[j] : pass;
    }
    TgGame *g = tg_game_new(rule, 15, 15);
    assert_int_equal(tg_game_setup(g, moves, k, NULL), TG_OK);
    assert_int_equal(tg_game_to_move(g), mover);
    return g;
}

/// Stones in the mover's row through `_` once it is played.
static int pattern_run(const char *pat) {
    const int at = (int)(strchr(pat, '_') - pat), n = (int)strlen(pat);
    int run = 1;
    for (int j = at - 1; j >= 0 && pat[j] == 'X'; j--) run++;
    for (int j = at + 1; j < n && pat[j] == 'X'; j++) run++;
    return run;
}

/// Fives via the public game: the mover plays `_` and the result is read. Black's overline
/// under renju is refused as a foul; elsewhere a non-winning move just lets play go on.
static void test_five_through_game(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof FIVE_CASES / sizeof FIVE_CASES[0]; i++) {
        const char *pat = FIVE_CASES[i].pattern;
        if (strchr(pat, '|')) continue;
        const int run = pattern_run(pat);
        for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
            for (int mover = TG_BLACK; mover <= TG_WHITE; mover++) {
                TgPoint play = {-1, -1};
                TgGame *g = pattern_game((TgRule)rule, pat, (TgColor)mover, &play);
                const bool want = FIVE_CASES[i].wins[wins_column((Rule)rule, (Color)mover)] == 'Y';
                const bool foul = rule == TG_RENJU && mover == TG_BLACK && run > 5;
                TgError e = tg_game_play(g, play, 0);
                if (foul) {
                    assert_int_equal(e, TG_ERR_FORBIDDEN);
                    assert_int_equal(tg_game_foul_at(g, play), TG_FOUL_OVERLINE);
                } else {
                    assert_int_equal(e, TG_OK);
                    TgResult r = tg_game_result(g);
                    if (r.reason != (want ? TG_REASON_FIVE : TG_REASON_NONE))
                        fail_msg("%s %s mover %d: reason %d", pat, tg_rule_name((TgRule)rule),
                                 mover, r.reason);
                    assert_int_equal(r.winner, want ? mover : TG_NOBODY);
                    if (want) assert_int_equal(r.line.length, run);
                }
                tg_game_free(g);
            }
        }
    }
}

/* ---- One-line classifiers --------------------------------------------------------------- */

static void test_line_run(void **state) {
    (void)state;
    static const struct {
        const char *line;
        int len, lo, hi;
    } cases[] = {
        {"...BBB.....", 3, 3, 5}, {"BBBBBBBBBBB", 11, 0, 10}, {"|||..B..|||", 1, 5, 5},
        {"..WBBBBW...", 4, 3, 6}, {"....WB.....", 1, 5, 5},   {"...WWWWW...", 5, 3, 7},
        {"B.BBBBB.BBB", 5, 2, 6}, {".....BBBBBB", 6, 5, 10},  {"BBBBBB|||||", 6, 0, 5},
        {"WWWWWBWWWWW", 1, 5, 5}, {"..BB.B.BB..", 1, 5, 5},   {"|||||BBBBB.", 5, 5, 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Color line[LINE_LEN];
        int lo = -1, hi = -1;
        make_line(cases[i].line, line);
        int len = line_run(line, &lo, &hi);
        if (len != cases[i].len || lo != cases[i].lo || hi != cases[i].hi)
            fail_msg("%s: run %d [%d, %d]", cases[i].line, len, lo, hi);
    }
}

static void test_line_black_fours(void **state) {
    (void)state;
    static const struct {
        const char *line;
        int fours;
    } cases[] = {
        {"..BBBB.....", 1},                     /* .BBBB. straight four: one four */
        {"...BBB.B...", 1},                     /* BBB.B */
        {"....BB.BB..", 1},                     /* BB.BB */
        {"..B.BBB.B..", 2},                     /* B.BBB.B, the centre among the middle stones */
        {"..BB.BB.BB.", 2},                     /* BB.BB.BB */
        {".BBB.B.BBB.", 2},                     /* BBB.B.BBB */
        {"..B.BBBBW..", 0},                     /* B.BBBB blocked: the gap makes six */
        {"..BBBB.B...", 1},                     /* .BBBB.B: only the left end makes exactly five */
        {".B.BBBB.B..", 0},                     /* both completions are overlines */
        {".WBBBB.....", 1},                     /* WBBBB. */
        {"||.BBBB||||", 1},                     /* against the edge, one completion left */
        {"|||BBBB||||", 0},                     /* no room at all */
        {"...BBB.....", 0},                     /* a three is no four */
        {"B...B.B...B", 0}, {"..WBBBBW...", 0}, /* dead four */
        {"B.BBB.B.BBB", 1}, /* centre at the end of B.BBB.B: only the four to its left */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Color line[LINE_LEN];
        make_line(cases[i].line, line);
        int got = line_black_fours(line);
        if (got != cases[i].fours)
            fail_msg("%s: %d fours, want %d", cases[i].line, got, cases[i].fours);
    }
}

static void test_line_black_three_eyes(void **state) {
    (void)state;
    static const struct {
        const char *line;
        int count;
        int eyes[3];
    } cases[] = {
        {"...BBB.....", 2, {2, 6}}, /* ..BBB..: either side makes .BBBB. */
        {"..BB.B.....", 1, {4}},    /* .BB.B.: only the gap */
        {"...B.BB....", 1, {4}},
        {"|||.BBB.|||", 0, {0}},    /* |.BBB.|: no room for a straight four */
        {"..WBBB.....", 0, {0}},    /* WBBB..: only a plain four */
        {".W.BBB..B..", 0, {0}},    /* W.BBB..B (rules.md 2.1): no three for Black */
        {"...BBB..W..", 2, {2, 6}}, /* ..BBB..W: still two eyes */
        {"...BBB.W...", 1, {2}},    /* ..BBB.W: only the far side */
        {"B..BBB.....", 1, {6}},    /* B..BBB..: the left eye would leave an overline end */
        {"...B.B.B...", 0, {0}},    /* B.B.B: two stones away from a four */
        {"...BB......", 0, {0}},    /* a two */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Color line[LINE_LEN];
        int eyes[LINE_LEN];
        make_line(cases[i].line, line);
        int n = line_black_three_eyes(line, eyes);
        if (n != cases[i].count) fail_msg("%s: %d eyes, want %d", cases[i].line, n, cases[i].count);
        for (int k = 0; k < n; k++) assert_int_equal(eyes[k], cases[i].eyes[k]);
    }
}

/* ---- Renju fouls ------------------------------------------------------------------------ */

typedef struct FoulCase {
    const char *name;
    int size;
    const char *black, *white; ///< stones already on the board
    const char *point;         ///< Black's candidate
    TgFoul want;
} FoulCase;

/// Judges one case through the internal API, and checks the board is left exactly as it was.
static void check_foul(const FoulCase *fc) {
    Board b;
    board_init(&b, TG_RENJU, fc->size, fc->size);
    put_squares(&b, fc->black, BLACK);
    put_squares(&b, fc->white, WHITE);
    Board before = b;
    TgFoul got = renju_foul(&b, sq(fc->size, fc->point));
    if (got != fc->want)
        fail_msg("%s: %s is '%s', want '%s'", fc->name, fc->point, tg_foul_code(got),
                 tg_foul_code(fc->want));
    assert_int_equal(b.hash, before.hash);
    assert_int_equal(b.stone_count, before.stone_count);
    assert_memory_equal(b.cell, before.cell, sizeof b.cell);
    assert_memory_equal(b.key, before.key, sizeof b.key);
}

static void run_fouls(const FoulCase *cases, size_t n) {
    for (size_t i = 0; i < n; i++) check_foul(&cases[i]);
}

static void test_foul_overline(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        {"six", 15, "f8 g8 h8 j8 k8", NULL, "i8", TG_FOUL_OVERLINE},
        {"seven", 15, "e8 f8 g8 i8 j8 k8", NULL, "h8", TG_FOUL_OVERLINE},
        {"six vertical", 15, "c3 c4 c5 c6 c8", NULL, "c7", TG_FOUL_OVERLINE},
        {"six from the corner", 15, "a1 b2 c3 e5 f6", NULL, "d4", TG_FOUL_OVERLINE},
        {"six anti-diagonal", 15, "o1 n2 m3 k5 j6", NULL, "l4", TG_FOUL_OVERLINE},
        {"blocked six still six", 15, "f8 g8 h8 j8 k8", "e8 l8", "i8", TG_FOUL_OVERLINE},
        {"B.BBBB: gap makes six", 15, "c8 e8 f8 g8 h8", "i8", "d8", TG_FOUL_OVERLINE},
        {"not six: white in the way", 15, "f8 g8 h8 k8 l8", "j8", "i8", TG_FOUL_NONE},
        {"five is not six", 15, "f8 g8 h8 j8", NULL, "i8", TG_FOUL_NONE},
        {"overline on 22", 22, "a22 b22 c22 d22 f22 g22 h22", NULL, "e22", TG_FOUL_OVERLINE},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
}

static void test_foul_double_four(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        /* Two lines: h8-k8 across and k8-k11 up, both open. */
        {"two straight fours", 15, "h8 i8 j8 k9 k10 k11", NULL, "k8", TG_FOUL_DOUBLE_FOUR},
        /* f6 g7 h8 . j10 (broken, eye i9) and W e8 f8 g8 h8 . (closed, eye i8). */
        {"two closed fours", 15, "e8 f8 g8 f6 g7 j10", "d8", "h8", TG_FOUL_DOUBLE_FOUR},
        {"four plus four blocked", 15, "h8 i8 j8 k9 k10 k11", "g8 k12", "k8", TG_FOUL_DOUBLE_FOUR},
        /* A dead four (both ends white) is no four. */
        {"one four, one dead", 15, "h8 i8 j8 k9 k10 k11", "g8 l8 k12", "k8", TG_FOUL_NONE},
        {"both fours dead", 15, "h8 i8 j8 k9 k10 k11", "g8 l8 k12 k7", "k8", TG_FOUL_NONE},
        /* Same-line double fours (rules.md 2.2): the new stone among the middle stones. */
        {"B.BBB.B at the middle", 15, "d8 f8 h8 j8", NULL, "g8", TG_FOUL_DOUBLE_FOUR},
        {"B.BBB.B at the left middle", 15, "d8 g8 h8 j8", NULL, "f8", TG_FOUL_DOUBLE_FOUR},
        {"B.BBB.B at the right middle", 15, "d8 f8 g8 j8", NULL, "h8", TG_FOUL_DOUBLE_FOUR},
        {"BB.BB.BB", 15, "c8 d8 f8 i8 j8", NULL, "g8", TG_FOUL_DOUBLE_FOUR},
        {"BB.BB.BB other side", 15, "c8 d8 g8 i8 j8", NULL, "f8", TG_FOUL_DOUBLE_FOUR},
        {"BBB.B.BBB", 15, "b8 c8 d8 h8 i8 j8", NULL, "f8", TG_FOUL_DOUBLE_FOUR},
        {"BBB.B.BBB vertical", 15, "h2 h3 h4 h8 h9 h10", NULL, "h6", TG_FOUL_DOUBLE_FOUR},
        {"B.BBB.B diagonal", 15, "c3 e5 g7 i9", NULL, "f6", TG_FOUL_DOUBLE_FOUR},
        /* Negatives: the new stone at an end of the shape is in one four only. */
        {"B.BBB.B at the end", 15, "f8 g8 h8 j8", NULL, "d8", TG_FOUL_NONE},
        {"BB.BB.BB at the end", 15, "d8 f8 g8 i8 j8", NULL, "c8", TG_FOUL_NONE},
        {"BBB.B.BBB at the end", 15, "b8 c8 f8 h8 i8 j8", NULL, "d8", TG_FOUL_NONE},
        /* .BBBB. is ONE four (a straight four), not a foul. */
        {"straight four", 15, "f8 g8 h8", NULL, "i8", TG_FOUL_NONE},
        /* B.BBBB with the right end blocked holds no four (the gap makes six): with a real
         * four up the column that is one four, not two. Without c8 it is a double four. */
        {"B.BBBB is no four", 15, "c8 e8 f8 g8 h9 h10 h11", "i8", "h8", TG_FOUL_NONE},
        {"BBBB control", 15, "e8 f8 g8 h9 h10 h11", "i8", "h8", TG_FOUL_DOUBLE_FOUR},
        /* B.BBB.B where the far left end would make six: the left four is gone. */
        {"B.BBB.B with overline end", 15, "c8 d8 f8 h8 j8", NULL, "g8", TG_FOUL_NONE},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
}

static void test_foul_double_three(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        {"plain 3-3", 15, "g8 i8 h9 h7", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        {"3-3 at an end", 15, "f8 g8 h9 h10", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        /* f8 g8 h8 across and h8 i9 . k11 (split, eye j10) on the diagonal. */
        {"split three", 15, "f8 g8 i9 k11", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        {"three threes", 15, "g8 i8 h9 h7 g7 i9", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        /* A four and a three: legal. */
        {"4-3", 15, "e8 f8 g8 h9 h10", NULL, "h8", TG_FOUL_NONE},
        {"closed 4-3", 15, "e8 f8 g8 h9 h10", "d8", "h8", TG_FOUL_NONE},
        /* 4-3-3 is still a double three. */
        {"4-3-3", 15, "e8 f8 g8 h9 h10 i9 j10", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        /* WBBB..: no three, so only the column's three counts. */
        {"WBBB.. is no three", 15, "f8 g8 h9 h10", "e8", "h8", TG_FOUL_NONE},
        {"..BBB.W is a three (far eye)", 15, "i8 j8 h9 h10", "l8", "h8", TG_FOUL_DOUBLE_THREE},
        {"BBB..W is still a three", 15, "i8 j8 h9 h10", "m8", "h8", TG_FOUL_DOUBLE_THREE},
        {"W.BBB.W is no three", 15, "i8 j8 h9 h10", "l8 f8", "h8", TG_FOUL_NONE},
        /* W.BBB..B (rules.md 2.1) is no three for Black; without k8 it is one. */
        {"W.BBB..B is no three", 15, "f8 g8 k8 h9 h10", "d8", "h8", TG_FOUL_NONE},
        {"W.BBB.. control", 15, "f8 g8 h9 h10", "d8", "h8", TG_FOUL_DOUBLE_THREE},
        /* |.BBB.|: the anti-diagonal a5-e1 has 5 cells only. Row 3 holds a real three. */
        {"edge three a5-e1", 15, "b4 d2 d3 e3", NULL, "c3", TG_FOUL_NONE},
        {"same shape in the open", 15, "f9 h7 h8 i8", NULL, "g8", TG_FOUL_DOUBLE_THREE},
        /* On 5 x 5 no line has room for a straight four. */
        {"5x5 centre", 5, "b3 d3 c2 c4", NULL, "c3", TG_FOUL_NONE},
        {"5x5 diagonals", 5, "b2 d4 b4 d2", NULL, "c3", TG_FOUL_NONE},
        {"15x15 same shape", 15, "g8 i8 h7 h9", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        /* A three with its near side at the edge: |BBB... has one completion side only. */
        {"three against the edge", 15, "a8 b8 c9 c10", NULL, "c8", TG_FOUL_NONE},
        {"three one off the edge", 15, "b8 c8 d9 d10", NULL, "d8", TG_FOUL_DOUBLE_THREE},
        /* 3-3 whose threes are both closed by white a step away: still two threes. */
        {"threes with far white", 15, "g8 i8 h9 h7", "d8 h12", "h8", TG_FOUL_DOUBLE_THREE},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
}

/// An exact five wins even when the same stone makes an overline, double four or double three.
static void test_foul_five_first(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        {"five + six", 15, "d8 e8 f8 g8 h9 h10 h11 h7 h6", NULL, "h8", TG_FOUL_NONE},
        {"six control", 15, "h9 h10 h11 h7 h6", NULL, "h8", TG_FOUL_OVERLINE},
        {"five + 4-4", 15, "d8 e8 f8 g8 h9 h10 h11 i9 j10 k11", NULL, "h8", TG_FOUL_NONE},
        {"4-4 control", 15, "h9 h10 h11 i9 j10 k11", NULL, "h8", TG_FOUL_DOUBLE_FOUR},
        {"five + 3-3", 15, "d8 e8 f8 g8 h9 h10 i9 j10", NULL, "h8", TG_FOUL_NONE},
        {"3-3 control", 15, "h9 h10 i9 j10", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        {"five + same-line 4-4", 15, "h4 h5 h6 h7 e8 g8 i8 k8", NULL, "h8", TG_FOUL_NONE},
        {"same-line 4-4 control", 15, "e8 g8 i8 k8", NULL, "h8", TG_FOUL_DOUBLE_FOUR},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
    /* The five really is one for Black. */
    Board b;
    board_init(&b, TG_RENJU, 15, 15);
    put_squares(&b, "d8 e8 f8 g8 h9 h10 h11 h7 h6", BLACK);
    assert_true(rules_makes_five(&b, sq(15, "h8"), BLACK));
}

/*
 * Rule 9.3: a double three is a foul only if two of its threes are real, i.e. can become a
 * straight four by a legal Black move. In each position Black's candidate h8 makes the
 * column three h8 h9 h10 (eyes h7 and h11, both plainly legal) and the row three f8 g8 h8
 * (eyes e8 and i8; d8 and j8 are empty, so either eye gives .BBBB. with two exact fives).
 * The row three is killed by making both its eyes illegal, checked with h8 on the board:
 */
static void test_foul_recursive(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        /* (a) Both eyes overlines: columns e and i read BB.BBB around row 8 (e6 e7 . e9 e10
         * e11). h8 i9 and h8 i7 are mere twos. */
        {"eyes are overlines", 15, "f8 g8 h9 h10 e6 e7 e9 e10 e11 i6 i7 i9 i10 i11", NULL, "h8",
         TG_FOUL_NONE},
        /* Control: column i cut to i9 i10, so i8 is the row's straight four plus the three
         * i8 i9 i10, a legal 4-3: the row three is real. */
        {"overline eye control", 15, "f8 g8 h9 h10 e6 e7 e9 e10 e11 i9 i10", NULL, "h8",
         TG_FOUL_DOUBLE_THREE},
        /* (a) Both eyes double fours: e8 adds e8-e11 up and b5 c6 d7 e8 on the diagonal to the
         * row's straight four; i8 adds i8-i11 up and i8 j9 k10 l11. */
        {"eyes are double fours", 15, "f8 g8 h9 h10 e9 e10 e11 b5 c6 d7 i9 i10 i11 j9 k10 l11",
         NULL, "h8", TG_FOUL_NONE},
        /* Control: i11 k10 l11 gone, i8 is a four and a three (i8 i9 i10): legal. */
        {"double-four eye control", 15, "f8 g8 h9 h10 e9 e10 e11 b5 c6 d7 i9 i10 j9", NULL, "h8",
         TG_FOUL_DOUBLE_THREE},
        /* (b) Both eyes double threes, judged recursively: e8 makes the straight four plus the
         * threes e8 e9 e10 (eyes e7, e11: legal) and c6 d7 e8 (eye b5: legal), a 4-3-3; i8
         * makes it plus i8 i9 i10 and i8 j9 k10. */
        {"eyes are double threes", 15, "f8 g8 h9 h10 e9 e10 c6 d7 i9 i10 j9 k10", NULL, "h8",
         TG_FOUL_NONE},
        /* Control: c6 and k10 gone, both eyes are 4-3s: a real double three. */
        {"double-three eye control", 15, "f8 g8 h9 h10 e9 e10 d7 i9 i10 j9", NULL, "h8",
         TG_FOUL_DOUBLE_THREE},
        /* Control: only c6 gone: e8 is legal, and one legal eye is enough. */
        {"one eye legal", 15, "f8 g8 h9 h10 e9 e10 d7 i9 i10 j9 k10", NULL, "h8",
         TG_FOUL_DOUBLE_THREE},
        /* One level deeper: as "eyes are double threes", plus rows 7 and 11 reading
         * BBBB.B (a7-d7 . f7, a11-d11 . f11), so e7 and e11 are overlines. Then e8's column
         * three e8 e9 e10 is fake, e8 is a 4-3 (row four, diagonal three) and legal, and h8
         * is a double three again. f7 only makes a two (e8 f7) through e8. */
        {"nested: the eye's own three is fake", 15,
         "f8 g8 h9 h10 e9 e10 c6 d7 i9 i10 j9 k10 a7 b7 c7 f7 a11 b11 c11 d11 f11", NULL, "h8",
         TG_FOUL_DOUBLE_THREE},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
}

/*
 * The eye that would complete a five is no eye (rules.md 2.4, step 3). Candidate h8 makes the
 * column three h8 h9 h10 and the split row three f8 . h8 i8, whose only eye is g8. The g
 * column g9-g12 turns g8 into an exact five, so the row three cannot become a straight four
 * "without at the same time a five": it is no three, and h8 is legal.
 */
static void test_foul_eye_makes_five(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        {"eye makes five", 15, "f8 i8 h9 h10 g9 g10 g11 g12", NULL, "h8", TG_FOUL_NONE},
        /* Control: without the g column, g8 is a legal eye. */
        {"eye control", 15, "f8 i8 h9 h10", NULL, "h8", TG_FOUL_DOUBLE_THREE},
        /* Both eyes of ..BBB.. make fives (columns e and i): no three. */
        {"both eyes make five", 15, "f8 g8 h9 h10 e4 e5 e6 e7 i9 i10 i11 i12", NULL, "h8",
         TG_FOUL_NONE},
        /* Only one eye makes five, the other is free: a three. */
        {"one eye makes five", 15, "f8 g8 h9 h10 e4 e5 e6 e7", NULL, "h8", TG_FOUL_DOUBLE_THREE},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
    /* The eye itself is a legal point that wins. */
    Board b;
    board_init(&b, TG_RENJU, 15, 15);
    put_squares(&b, "f8 i8 h9 h10 g9 g10 g11 g12 h8", BLACK);
    assert_true(rules_makes_five(&b, sq(15, "g8"), BLACK));
    assert_int_equal(renju_foul(&b, sq(15, "g8")), TG_FOUL_NONE);
}

/// The reported kind: overline before double four before double three.
static void test_foul_kind_order(void **state) {
    (void)state;
    static const FoulCase cases[] = {
        /* i8: six across, and fours up column i and along i8 j9 k10 l11. */
        {"six and 4-4", 15, "f8 g8 h8 j8 k8 i9 i10 i11 j9 k10 l11", NULL, "i8", TG_FOUL_OVERLINE},
        /* h8: six across, threes up column h and along h8 i9 j10. */
        {"six and 3-3", 15, "e8 f8 g8 i8 j8 h9 h10 i9 j10", NULL, "h8", TG_FOUL_OVERLINE},
        /* h8: fours up column h and along the diagonal, threes across and on the
         * anti-diagonal. */
        {"4-4 and 3-3", 15, "h9 h10 h11 i9 j10 k11 g8 i8 g9 i7", NULL, "h8", TG_FOUL_DOUBLE_FOUR},
    };
    run_fouls(cases, sizeof cases / sizeof cases[0]);
}

/* ---- White, and the game's view of fouls ------------------------------------------------- */

static TgPoint pt(const char *text) { return (TgPoint){text[0] - 'a', 15 - atoi(text + 1)}; }

/// A 15 x 15 renju game from a diagram: Black's and White's stones alternate, passes filling in.
static TgGame *diagram(TgRule rule, const char *black, const char *white, TgColor to_move) {
    TgPoint bs[64], ws[64], moves[160];
    int nb = 0, nw = 0, k = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", black ? black : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) bs[nb++] = pt(t);
    snprintf(buf, sizeof buf, "%s", white ? white : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) ws[nw++] = pt(t);
    const TgPoint pass = {-1, -1};
    for (int i = 0; i < nb || i < nw; i++) {
        moves[k++] = i < nb ? bs[i] : pass;
        moves[k++] = i < nw ? ws[i] : pass;
    }
    if (to_move == TG_WHITE) moves[k++] = pass;
    TgGame *g = tg_game_new(rule, 15, 15);
    assert_non_null(g);
    assert_int_equal(tg_game_setup(g, moves, k, NULL), TG_OK);
    assert_int_equal(tg_game_to_move(g), to_move);
    return g;
}

/// White's double three, double four and overline are legal; the overline wins.
static void test_white_has_no_fouls(void **state) {
    (void)state;
    static const struct {
        const char *white, *point;
        TgReason reason;
        int length;
    } cases[] = {
        {"g8 i8 h9 h7", "h8", TG_REASON_NONE, 0},         /* double three */
        {"h8 i8 j8 k9 k10 k11", "k8", TG_REASON_NONE, 0}, /* double four */
        {"d8 f8 h8 j8", "g8", TG_REASON_NONE, 0},         /* same-line double four */
        {"f8 g8 h8 j8 k8", "i8", TG_REASON_FIVE, 6},      /* overline wins */
        {"e8 f8 g8 i8 j8 k8", "h8", TG_REASON_FIVE, 7},
        {"d8 e8 f8 g8 h9 h10 h11 h7 h6", "h8", TG_REASON_FIVE, 0}, /* five and six at once */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TgGame *g = diagram(TG_RENJU, "a1", cases[i].white, TG_WHITE);
        TgFoul foul = TG_FOUL_OVERLINE;
        assert_int_equal(tg_game_check(g, pt(cases[i].point), &foul), TG_OK);
        assert_int_equal(foul, TG_FOUL_NONE);
        assert_int_equal(tg_game_play(g, pt(cases[i].point), 0), TG_OK);
        TgResult r = tg_game_result(g);
        assert_int_equal(r.reason, cases[i].reason);
        if (r.reason == TG_REASON_FIVE) {
            assert_int_equal(r.winner, TG_WHITE);
            if (cases[i].length) assert_int_equal(r.line.length, cases[i].length);
        }
        tg_game_free(g);
    }
}

/// Black's foul via the game: refused by default with its kind; the same shapes for Black
/// under freestyle are plain moves.
static void test_game_refuses_fouls(void **state) {
    (void)state;
    static const struct {
        const char *black, *point;
        TgFoul foul;
    } cases[] = {
        {"g8 i8 h9 h7", "h8", TG_FOUL_DOUBLE_THREE},
        {"h8 i8 j8 k9 k10 k11", "k8", TG_FOUL_DOUBLE_FOUR},
        {"f8 g8 h8 j8 k8", "i8", TG_FOUL_OVERLINE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TgGame *g = diagram(TG_RENJU, cases[i].black, "a1", TG_BLACK);
        TgFoul foul = TG_FOUL_NONE;
        assert_int_equal(tg_game_check(g, pt(cases[i].point), &foul), TG_ERR_FORBIDDEN);
        assert_int_equal(foul, cases[i].foul);
        assert_int_equal(tg_game_foul_at(g, pt(cases[i].point)), cases[i].foul);
        assert_int_equal(tg_game_play(g, pt(cases[i].point), 0), TG_ERR_FORBIDDEN);
        tg_game_free(g);
        g = diagram(TG_FREESTYLE, cases[i].black, "a1", TG_BLACK);
        assert_int_equal(tg_game_check(g, pt(cases[i].point), &foul), TG_OK);
        assert_int_equal(foul, TG_FOUL_NONE);
        assert_int_equal(tg_game_foul_at(g, pt(cases[i].point)), TG_FOUL_NONE);
        tg_game_free(g);
    }
}

/*
 * tg_game_forbidden: e3 (b3 c3 d3 . f3 g3) and e10 (the same on row 10) are overlines, h8 a
 * double three (g8 i8 h9 h7) and m5 a same-line double four (m2 . m4 m5 m6 . m8; m3 and m7
 * make one four each). Sorted by column, then bottom to top: e3, e10, h8, m5.
 */
static void test_forbidden_order(void **state) {
    (void)state;
    const char *black = "b3 c3 d3 f3 g3 b10 c10 d10 f10 g10 g8 i8 h9 h7 m2 m4 m6 m8";
    TgGame *g = diagram(TG_RENJU, black, NULL, TG_BLACK);
    TgForbidden out[16];
    int n = tg_game_forbidden(g, out, 16);
    static const char *const want[] = {"e3", "e10", "h8", "m5"};
    static const TgFoul kinds[] = {TG_FOUL_OVERLINE, TG_FOUL_OVERLINE, TG_FOUL_DOUBLE_THREE,
                                   TG_FOUL_DOUBLE_FOUR};
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++) {
        TgPoint w = pt(want[i]);
        if (out[i].point.x != w.x || out[i].point.y != w.y || out[i].foul != kinds[i])
            fail_msg("entry %d: (%d,%d) '%s', want %s", i, out[i].point.x, out[i].point.y,
                     tg_foul_code(out[i].foul), want[i]);
    }
    /* A short buffer gets the first entries and the full count. */
    TgForbidden two[2];
    assert_int_equal(tg_game_forbidden(g, two, 2), 4);
    assert_int_equal(two[1].point.x, pt("e10").x);
    assert_int_equal(two[1].point.y, pt("e10").y);
    assert_int_equal(tg_game_forbidden(g, NULL, 0), 4);
    /* tg_game_foul_at agrees point by point, and answers NONE for a stone. */
    for (int i = 0; i < n; i++) assert_int_equal(tg_game_foul_at(g, out[i].point), kinds[i]);
    assert_int_equal(tg_game_foul_at(g, pt("g8")), TG_FOUL_NONE);
    tg_game_free(g);

    /* White to move: nothing, though tg_game_foul_at still answers for Black. */
    g = diagram(TG_RENJU, black, NULL, TG_WHITE);
    assert_int_equal(tg_game_forbidden(g, out, 16), 0);
    assert_int_equal(tg_game_foul_at(g, pt("h8")), TG_FOUL_DOUBLE_THREE);
    tg_game_free(g);

    /* Not renju: nothing. */
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        if (rule == TG_RENJU) continue;
        g = diagram((TgRule)rule, black, NULL, TG_BLACK);
        assert_int_equal(tg_game_forbidden(g, out, 16), 0);
        assert_int_equal(tg_game_foul_at(g, pt("h8")), TG_FOUL_NONE);
        tg_game_free(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five_15),
        cmocka_unit_test(test_five_22),
        cmocka_unit_test(test_five_5),
        cmocka_unit_test(test_five_rectangular),
        cmocka_unit_test(test_five_whole_lines),
        cmocka_unit_test(test_five_only_through_point),
        cmocka_unit_test(test_five_through_game),
        cmocka_unit_test(test_line_run),
        cmocka_unit_test(test_line_black_fours),
        cmocka_unit_test(test_line_black_three_eyes),
        cmocka_unit_test(test_foul_overline),
        cmocka_unit_test(test_foul_double_four),
        cmocka_unit_test(test_foul_double_three),
        cmocka_unit_test(test_foul_five_first),
        cmocka_unit_test(test_foul_recursive),
        cmocka_unit_test(test_foul_eye_makes_five),
        cmocka_unit_test(test_foul_kind_order),
        cmocka_unit_test(test_white_has_no_fouls),
        cmocka_unit_test(test_game_refuses_fouls),
        cmocka_unit_test(test_forbidden_order),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
