/*
 * test_vcf.c — the threat-space solver against the shared tactics data ($TG_DATA/tactics/):
 * every `win:` position must be solved with a line that checks out move by move, and no win
 * may be claimed on a `nowin` position. The checker replays the line with the rule code alone
 * (rules_makes_five, renju_foul), not with the pattern tables the solver uses. A few hand-made
 * renju cases pin down fouls on both sides of the board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/board.h"
#include "../../src/core/rules.h"
#include "../../src/core/vcf.h"
#include "../../src/tengen.h"
#include "data.h"
#include "tactics.h"

enum { MAX_MOVES = 1024 };

/* ---- The line checker ------------------------------------------------------------------- */

static bool legal_for(Board *b, Pos p, Color c) {
    return board_empty(b, p) && !(b->rule == TG_RENJU && c == BLACK && renju_foul(b, p));
}

/// Empty cells where c makes five; returns the count, the first two in out.
static int five_points(Board *b, Color c, Pos out[2]) {
    int n = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos p = pos_make(x, y);
            if (board_empty(b, p) && rules_makes_five(b, p, c) && n++ < 2) out[n - 1] = p;
        }
    return n;
}

/*
 * Replays the attacker's line on b (the attacker to move). Every move must be legal; every
 * move but the last must make a four (a five point) while the defender has no five to play;
 * the defender blocks a single five point (or cannot, when it is a renju foul for Black: then
 * it passes), and against two five points blocks one the attacker does not play next; the
 * last move must make five. Returns NULL, or what went wrong.
 */
static const char *check_line(Board *b, const Pos *line, int n) {
    const Color a = board_to_move(b), d = (Color)(a ^ 1);
    if (n < 1) return "empty line";
    for (int i = 0; i < n; i++) {
        const Pos m = line[i];
        if (!legal_for(b, m, a)) return "an attacker move is occupied or a foul";
        if (i == n - 1) return rules_makes_five(b, m, a) ? NULL : "the last move makes no five";
        if (rules_makes_five(b, m, a)) return "a five before the end of the line";
        board_play(b, m);
        Pos fives[2], theirs[2];
        const int nf = five_points(b, a, fives);
        if (nf == 0) return "an attacker move is not a four";
        if (five_points(b, d, theirs) > 0) return "the defender has a five to play";
        Pos block = fives[0];
        if (nf >= 2 && block == line[i + 1]) block = fives[1];
        board_play(b, legal_for(b, block, d) ? block : POS_PASS);
    }
    return NULL;
}

/* ---- The data files --------------------------------------------------------------------- */

typedef struct Tally {
    int wins, solved, shortest, nowins, held;
} Tally;

/// Builds the position of a tactics line as a diagram, on a TgGame and on a Board.
static TgGame *setup(TgRule rule, int size, const char *moves, Board *b) {
    TgPoint *pts = malloc(sizeof *pts * MAX_MOVES);
    int n = 0, bad = -1;
    char err[128];
    assert_int_equal(tg_parse_moves(moves, size, size, pts, MAX_MOVES, &n, err, sizeof err), TG_OK);
    TgGame *g = tg_game_new(rule, size, size);
    assert_non_null(g);
    assert_int_equal(tg_game_setup(g, pts, n, &bad), TG_OK);
    board_init(b, rule, size, size);
    for (int i = 0; i < n; i++)
        board_play(b, tg_point_is_pass(pts[i]) ? POS_PASS : pos_make(pts[i].x, pts[i].y));
    free(pts);
    return g;
}

/// Attacker moves in the label's line ("win: a b c").
static int label_length(const char *label) {
    int n = 0;
    for (const char *p = strstr(label, "win:") + 4; *p; p++)
        n += (*p >= 'a' && *p <= 'z') && (p[-1] == ' ');
    return n;
}

/// A solver's win must check out on a copy of the position.
static void check_win(const Board *b, const TgSolveResult *r, const char *where) {
    if (r->status != TG_SOLVE_WIN) fail_msg("%s: no win found (status %d)", where, r->status);
    Board *copy = malloc(sizeof *copy);
    *copy = *b;
    Pos line[TG_SOLVE_MAX_LINE];
    for (int i = 0; i < r->length; i++) line[i] = pos_make(r->line[i].x, r->line[i].y);
    const char *why = check_line(copy, line, r->length);
    if (why) fail_msg("%s: the solver's line fails: %s", where, why);
    free(copy);
}

/// Solves one line of a tactics file, first fast and then for a shortest line, and checks
/// both answers against the label (a shortest line is as long as the label's).
static void run_case(char *text, const char *where, Tally *t) {
    char *moves = NULL, *answer = NULL;
    int size;
    TgRule rule;
    assert_true(tactics_parse(text, &rule, &size, &moves, &answer));
    const bool want_win = strstr(answer, "win:") != NULL;
    Board *b = malloc(sizeof *b);
    TgGame *g = setup(rule, size, moves, b);
    TgSolveResult *r = malloc(sizeof *r);
    TgSolveLimits limits = {.nodes = 20000000}; /* a node budget: the same verdict at any speed */
    assert_int_equal(tg_solve(g, &limits, r), TG_OK);
    if (want_win) {
        t->wins++;
        check_win(b, r, where);
        t->solved++;
        limits.shortest = true;
        assert_int_equal(tg_solve(g, &limits, r), TG_OK);
        check_win(b, r, where);
        if (r->length != label_length(answer))
            fail_msg("%s: a shortest line of %d moves, the label has %d", where, r->length,
                     label_length(answer));
        t->shortest++;
    } else {
        t->nowins++;
        if (r->status == TG_SOLVE_WIN) fail_msg("%s: a win claimed on a nowin position", where);
        t->held += r->status == TG_SOLVE_NONE;
    }
    free(r);
    free(b);
    tg_game_free(g);
}

static void run_file(const char *path, Tally *t) {
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char *text = malloc(1 << 16);
    char where[1100];
    for (int lineno = 1; fgets(text, 1 << 16, f); lineno++) {
        if (text[0] == '#' || text[0] == '\n') continue;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        run_case(text, where, t);
    }
    free(text);
    fclose(f);
}

static void test_tactics_data(void **state) {
    (void)state;
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/tactics/*.txt", test_data_dir());
    glob_t found;
    if (glob(pattern, 0, NULL, &found) != 0) fail_msg("no files match %s (set TG_DATA)", pattern);
    Tally t = {0};
    const int files = (int)found.gl_pathc;
    for (size_t i = 0; i < found.gl_pathc; i++) run_file(found.gl_pathv[i], &t);
    globfree(&found);
    print_message("tactics: %d files, %d/%d wins solved (%d shortest), %d/%d nowins proven\n",
                  files, t.solved, t.wins, t.shortest, t.held, t.nowins);
    assert_true(files >= 4);
    assert_int_equal(t.solved, t.wins);
    assert_int_equal(t.shortest, t.wins);
    assert_int_equal(t.held, t.nowins);
}

/* ---- VCT ------------------------------------------------------------------------------- */

/*
 * VCT is checked for self-consistency on the `nowin` positions (no VCF, but often a VCT):
 * after the attacker's first move every legal defender reply, not only the ones the solver
 * tries, must still leave the attacker a VCT win. A reply the solver overlooked and that
 * holds would show up as a proven "none".
 */
typedef struct VctTally {
    int cases, replies, unknown;
} VctTally;

static void check_vct_replies(TgGame *g, const char *where, VctTally *t) {
    TgSolveResult *r = malloc(sizeof *r);
    const TgSolveLimits quick = {.vct = true, .nodes = 5000}, deep = {.vct = true, .nodes = 50000};
    assert_int_equal(tg_solve(g, &quick, r), TG_OK);
    const int size = tg_game_width(g);
    if (r->status == TG_SOLVE_WIN && r->length >= 2) {
        assert_int_equal(tg_game_play(g, r->line[0], 0), TG_OK);
        t->cases++;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                const TgPoint e = {x, y};
                if (tg_game_check(g, e, NULL) != TG_OK) continue;
                assert_int_equal(tg_game_play(g, e, 0), TG_OK);
                assert_false(tg_game_over(g));
                assert_int_equal(tg_solve(g, &deep, r), TG_OK);
                if (r->status == TG_SOLVE_NONE) fail_msg("%s: reply %d,%d holds", where, x, y);
                t->unknown += r->status == TG_SOLVE_UNKNOWN;
                t->replies++;
                tg_game_undo(g);
            }
    }
    free(r);
}

static void test_vct_replies(void **state) {
    (void)state;
    static const char *const files[] = {"vcf-freestyle.txt", "vcf-renju.txt"};
    VctTally t = {0};
    char path[1024], text[1 << 14], where[1100];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/tactics/%s", test_data_dir(), files[i]);
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("cannot open %s", path);
        for (int lineno = 1, cases = t.cases; fgets(text, sizeof text, f) && t.cases < cases + 3;
             lineno++) {
            char *moves = NULL, *answer = NULL;
            int size;
            TgRule rule;
            if (!tactics_parse(text, &rule, &size, &moves, &answer) || !strstr(answer, "nowin"))
                continue;
            Board *b = malloc(sizeof *b);
            TgGame *g = setup(rule, size, moves, b);
            snprintf(where, sizeof where, "%s:%d", path, lineno);
            check_vct_replies(g, where, &t);
            tg_game_free(g);
            free(b);
        }
        fclose(f);
    }
    print_message("vct: %d wins, %d defender replies checked (%d undecided)\n", t.cases, t.replies,
                  t.unknown);
    assert_int_equal(t.cases, 6);
}

/*
 * One table kept over many calls (the search asks the solver about the reply to every root
 * move): a warm table must answer as a cold one does. The position is a renju game's, Black to
 * move, where White wins by threats after nearly every move. The solver once stored a node as
 * lost at any depth when a child's table entry held only to a depth; a later, deeper call then
 * took the stored node as proven, and the win after e4 was missed.
 */
static bool near_a_stone(const Board *b, int x, int y) {
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            if (x + dx >= 0 && x + dx < b->width && y + dy >= 0 && y + dy < b->height &&
                !board_empty(b, pos_make(x + dx, y + dy)))
                return true;
    return false;
}

static void test_warm_table_answers_as_cold(void **state) {
    (void)state;
    Board *b = malloc(sizeof *b);
    TgGame *g = setup(TG_RENJU, 15, "g2 c5 e1 c2 e5 d6 e7 c4 c6 d4", b);
    Vcf warm, cold;
    assert_true(vcf_init(&warm, 1 << 20));
    assert_true(vcf_init(&cold, 1 << 20));
    const VcfLimits limits = {.max_nodes = 1000, .vct = true};
    int asked = 0, wins = 0;
    for (int pass = 0; pass < 2; pass++) /* the second pass meets every position warm */
        for (int y = 0; y < 15; y++)
            for (int x = 0; x < 15; x++) {
                const Pos p = pos_make(x, y);
                if (!legal_for(b, p, BLACK) || !near_a_stone(b, x, y)) continue;
                board_play(b, p);
                vcf_clear(&cold);
                const VcfStatus c = vcf_search(&cold, b, &limits);
                const VcfStatus w = vcf_search(&warm, b, &limits);
                if (c == VCF_WIN && w == VCF_NONE)
                    fail_msg("after %d,%d: a warm table misses the win", x, y);
                if (c == VCF_NONE && w == VCF_WIN)
                    fail_msg("after %d,%d: a cold table misses the win", x, y);
                asked++;
                wins += c == VCF_WIN;
                board_undo(b);
            }
    print_message("warm table: %d calls, %d wins\n", asked, wins);
    assert_true(wins > asked / 2);
    vcf_free(&warm);
    vcf_free(&cold);
    tg_game_free(g);
    free(b);
}

/* ---- Hand-made cases -------------------------------------------------------------------- */

/// Solves `moves` (placed as a diagram) and compares the first line of `tengen solve`-style
/// output: "none" or "win ..." (only the word when `line` is NULL, else the whole line).
static void expect(TgRule rule, const char *moves, const char *want) {
    Board *b = malloc(sizeof *b);
    TgGame *g = setup(rule, 15, moves, b);
    TgSolveResult *r = malloc(sizeof *r);
    const TgSolveLimits limits = {0};
    assert_int_equal(tg_solve(g, &limits, r), TG_OK);
    char got[4096] = "none";
    if (r->status == TG_SOLVE_WIN) {
        snprintf(got, sizeof got, "win");
        for (int i = 0; i < r->length; i++) {
            char pt[8];
            tg_point_to_text(r->line[i], 15, 15, pt, sizeof pt);
            strcat(got, " ");
            strcat(got, pt);
        }
        Pos line[TG_SOLVE_MAX_LINE];
        for (int i = 0; i < r->length; i++) line[i] = pos_make(r->line[i].x, r->line[i].y);
        const char *why = check_line(b, line, r->length);
        if (why) fail_msg("%s: %s", got, why);
    }
    if (strncmp(got, want, strlen(want)) != 0)
        fail_msg("%s %s: got '%s', want '%s'", tg_rule_name(rule), moves, got, want);
    free(r);
    free(b);
    tg_game_free(g);
}

/*
 * White: i5 i6 i7 below Black's i4; Black: f8 g8 h8 j8 k8, so i8 would make Black six.
 * White's i9 makes a four whose only five point is i8: in renju Black cannot block there.
 * Under freestyle Black blocks, and its block is a five (six wins), so White has nothing.
 */
static const char *const FOUL_BLOCK = "f8 i5 g8 i6 h8 i7 j8 a1 k8 a3 i4 a5 --";

static void test_defender_blocked_by_a_foul(void **state) {
    (void)state;
    expect(TG_RENJU, FOUL_BLOCK, "win i9 i8");
    expect(TG_FREESTYLE, FOUL_BLOCK, "none");
}

/*
 * Black: h8 i8 j8 (g8 White) and k9 k10 k11 (k12 White). k8 is a double four: it wins under
 * freestyle, and is a foul in renju, where Black has no other way.
 */
static const char *const DOUBLE_FOUR = "h8 g8 i8 k12 j8 a1 k9 a3 k10 a5 k11 a7";

static void test_attacker_never_plays_a_foul(void **state) {
    (void)state;
    expect(TG_FREESTYLE, DOUBLE_FOUR, "win k8");
    expect(TG_RENJU, DOUBLE_FOUR, "none");
}

/*
 * Black: h8 i8 j8 between White's g8 and m8 (room for exactly one five), and k9 k10 k11 under
 * White's k12. k8 is a double four, except under caro, where the five h8-l8 would be blocked
 * at both ends: there k8 is a single four and White blocks k7.
 */
static const char *const CARO_BLOCKED = "h8 g8 i8 m8 j8 k12 k9 a1 k10 a3 k11 a5";

static void test_caro_blocked_five_is_no_four(void **state) {
    (void)state;
    expect(TG_FREESTYLE, CARO_BLOCKED, "win k8");
    expect(TG_STANDARD, CARO_BLOCKED, "win k8");
    expect(TG_CARO8, CARO_BLOCKED, "none");
    expect(TG_CARO9, CARO_BLOCKED, "none");
}

/* A five on the board already: the solver refuses; a four of our own: a one-move line. */
static void test_edges(void **state) {
    (void)state;
    Board *b = malloc(sizeof *b);
    TgGame *g = setup(TG_FREESTYLE, 15, "h8 a1 i8 a2 j8 a3 k8 a4 l8", b);
    TgSolveResult *r = malloc(sizeof *r);
    const TgSolveLimits limits = {0};
    assert_int_equal(tg_solve(g, &limits, r), TG_ERR_GAME_OVER);
    tg_game_free(g);
    free(r);
    free(b);
    expect(TG_FREESTYLE, "h8 a1 i8 a2 j8 a3 k8 a5", "win ");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defender_blocked_by_a_foul),
        cmocka_unit_test(test_attacker_never_plays_a_foul),
        cmocka_unit_test(test_caro_blocked_five_is_no_four),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_tactics_data),
        cmocka_unit_test(test_vct_replies),
        cmocka_unit_test(test_warm_table_answers_as_cold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
