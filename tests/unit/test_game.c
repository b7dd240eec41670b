/*
 * test_game.c — the game model through the public API only: legal-move checks and their
 * errors, renju fouls refused or played, undo/redo/goto and the redo branch, whole-record
 * replacement (all or nothing), diagrams, every way a game ends and the winning line, clocks
 * driven by fake millisecond readings, clones, record fields and the text board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

/* ---- Helpers ---------------------------------------------------------------------------- */

static const TgPoint PASS = {-1, -1};

/// "h8" on a board `height` tall; "pass" or "--" is a pass.
static TgPoint at(int height, const char *text) {
    if (strcmp(text, "pass") == 0 || strcmp(text, "--") == 0) return PASS;
    return (TgPoint){text[0] - 'a', height - atoi(text + 1)};
}

/// A 15 x 15 point.
static TgPoint p15(const char *text) { return at(15, text); }

static bool same_point(TgPoint a, TgPoint b) { return a.x == b.x && a.y == b.y; }

/// Plays space-separated moves; each must be accepted.
static void play_all(TgGame *g, const char *moves) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        TgError e = tg_game_play(g, at(tg_game_height(g), t), 0);
        if (e != TG_OK) fail_msg("move %s refused: %s", t, tg_error_text(e));
    }
}

/// Parses moves into `out`; returns the count.
static int parse(int height, const char *moves, TgPoint *out) {
    char buf[1024];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) out[n++] = at(height, t);
    return n;
}

static TgGame *new_game(TgRule rule, int w, int h) {
    TgGame *g = tg_game_new(rule, w, h);
    assert_non_null(g);
    return g;
}

/// The win line's ends are `a` and `b` in either order, with `length` stones.
static void assert_line(TgResult r, const char *a, const char *b, int length) {
    TgPoint pa = p15(a), pb = p15(b);
    assert_int_equal(r.reason, TG_REASON_FIVE);
    bool ok = (same_point(r.line.from, pa) && same_point(r.line.to, pb)) ||
              (same_point(r.line.from, pb) && same_point(r.line.to, pa));
    if (!ok)
        fail_msg("line (%d,%d)-(%d,%d), want %s-%s", r.line.from.x, r.line.from.y, r.line.to.x,
                 r.line.to.y, a, b);
    assert_int_equal(r.line.length, length);
}

/* ---- Creation and plain moves ------------------------------------------------------------ */

static void test_new_and_sizes(void **state) {
    (void)state;
    assert_null(tg_game_new(TG_FREESTYLE, 4, 15));
    assert_null(tg_game_new(TG_FREESTYLE, 15, 4));
    assert_null(tg_game_new(TG_FREESTYLE, 23, 15));
    assert_null(tg_game_new(TG_FREESTYLE, 15, 23));
    assert_null(tg_game_new(TG_RULE_COUNT, 15, 15));
    assert_null(tg_game_new((TgRule)-1, 15, 15));
    TgGame *g = new_game(TG_CARO9, 22, 5);
    assert_int_equal(tg_game_rule(g), TG_CARO9);
    assert_int_equal(tg_game_width(g), 22);
    assert_int_equal(tg_game_height(g), 5);
    assert_int_equal(tg_game_ply(g), 0);
    assert_int_equal(tg_game_length(g), 0);
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    assert_false(tg_game_over(g));
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_NONE);
    assert_int_equal(r.winner, TG_NOBODY);
    tg_game_free(g);
    tg_game_free(NULL);
}

static void test_play_and_errors(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    TgFoul foul = TG_FOUL_OVERLINE;
    assert_int_equal(tg_game_check(g, (TgPoint){-1, 0}, &foul), TG_ERR_OFF_BOARD);
    assert_int_equal(foul, TG_FOUL_NONE);
    assert_int_equal(tg_game_check(g, (TgPoint){15, 0}, NULL), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_game_check(g, (TgPoint){0, 15}, NULL), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_game_check(g, (TgPoint){3, -2}, NULL), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_game_play(g, (TgPoint){15, 15}, 0), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_game_check(g, (TgPoint){14, 14}, NULL), TG_OK);
    assert_int_equal(tg_game_ply(g), 0);

    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_OK);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_BLACK);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(tg_game_check(g, p15("h8"), NULL), TG_ERR_OCCUPIED);
    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_ERR_OCCUPIED);
    assert_int_equal(tg_game_ply(g), 1);
    assert_int_equal(tg_game_play(g, p15("a1"), 0), TG_OK);
    assert_int_equal(tg_game_stone(g, p15("a1")), TG_WHITE);
    assert_int_equal(tg_game_stone(g, (TgPoint){0, 14}), TG_WHITE);
    assert_int_equal(tg_game_stone(g, p15("o15")), TG_NOBODY);
    assert_int_equal(tg_game_stone(g, (TgPoint){-1, -1}), TG_NOBODY);
    assert_int_equal(tg_game_stone(g, (TgPoint){20, 3}), TG_NOBODY);
    assert_int_equal(tg_game_length(g), 2);
    assert_true(same_point(tg_game_move(g, 0), p15("h8")));
    assert_true(same_point(tg_game_move(g, 1), p15("a1")));
    assert_true(tg_point_is_pass(tg_game_move(g, 2)));
    assert_true(tg_point_is_pass(tg_game_move(g, -1)));
    tg_game_free(g);
}

/* ---- Renju fouls through the game --------------------------------------------------------- */

/// Black: g8 i8 h9 h7 around h8 (a double three); White elsewhere.
static TgGame *renju_33(void) {
    TgGame *g = new_game(TG_RENJU, 15, 15);
    play_all(g, "g8 a1 i8 a3 h9 a5 h7 a7");
    return g;
}

static void test_foul_refused(void **state) {
    (void)state;
    TgGame *g = renju_33();
    TgFoul foul = TG_FOUL_NONE;
    assert_int_equal(tg_game_check(g, p15("h8"), &foul), TG_ERR_FORBIDDEN);
    assert_int_equal(foul, TG_FOUL_DOUBLE_THREE);
    foul = TG_FOUL_NONE;
    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_ERR_FORBIDDEN);
    assert_int_equal(tg_game_ply(g), 8);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_NOBODY);
    assert_false(tg_game_over(g));
    /* Other points are fine, and White may play h8. */
    assert_int_equal(tg_game_check(g, p15("h10"), &foul), TG_OK);
    assert_int_equal(foul, TG_FOUL_NONE);
    play_all(g, "o15");
    assert_int_equal(tg_game_check(g, p15("h8"), &foul), TG_OK);
    assert_int_equal(foul, TG_FOUL_NONE);
    tg_game_free(g);

    /* Overline and double four report their kinds. */
    g = new_game(TG_RENJU, 15, 15);
    play_all(g, "f8 a1 g8 a3 h8 a5 j8 a7 k8 a9");
    assert_int_equal(tg_game_check(g, p15("i8"), &foul), TG_ERR_FORBIDDEN);
    assert_int_equal(foul, TG_FOUL_OVERLINE);
    tg_game_free(g);
    g = new_game(TG_RENJU, 15, 15);
    play_all(g, "h8 a1 i8 a3 j8 a5 k9 a7 k10 a9 k11 a11");
    assert_int_equal(tg_game_check(g, p15("k8"), &foul), TG_ERR_FORBIDDEN);
    assert_int_equal(foul, TG_FOUL_DOUBLE_FOUR);
    tg_game_free(g);
}

static void test_foul_played(void **state) {
    (void)state;
    TgGame *g = renju_33();
    tg_game_set_fouls_playable(g, true);
    TgFoul foul = TG_FOUL_NONE;
    /* check says OK but still names the foul. */
    assert_int_equal(tg_game_check(g, p15("h8"), &foul), TG_OK);
    assert_int_equal(foul, TG_FOUL_DOUBLE_THREE);
    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_OK);
    TgResult r = tg_game_result(g);
    assert_true(tg_game_over(g));
    assert_int_equal(r.reason, TG_REASON_FOUL);
    assert_int_equal(r.winner, TG_WHITE);
    assert_int_equal(r.foul, TG_FOUL_DOUBLE_THREE);
    assert_true(same_point(r.foul_point, p15("h8")));
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_BLACK);
    assert_int_equal(tg_game_play(g, p15("o1"), 0), TG_ERR_GAME_OVER);
    /* Undo clears it, redo finds the foul again even with fouls no longer playable. */
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_false(tg_game_over(g));
    tg_game_set_fouls_playable(g, false);
    assert_int_equal(tg_game_redo(g), TG_OK);
    r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_FOUL);
    assert_int_equal(r.winner, TG_WHITE);
    assert_int_equal(r.foul, TG_FOUL_DOUBLE_THREE);
    assert_true(same_point(r.foul_point, p15("h8")));
    tg_game_free(g);

    /* An exact five that is also a double four is no foul: Black wins. */
    g = new_game(TG_RENJU, 15, 15);
    tg_game_set_fouls_playable(g, true);
    play_all(g, "d8 a1 e8 a3 f8 a5 g8 a7 h9 a9 h10 a11 h11 a13 i9 o1 j10 o3 k11 o5");
    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_OK);
    assert_line(tg_game_result(g), "d8", "h8", 5);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);
}

/* ---- Undo, redo, goto --------------------------------------------------------------------- */

static void test_undo_redo(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_undo(g), TG_ERR_NOTHING);
    assert_int_equal(tg_game_redo(g), TG_ERR_NOTHING);
    const char *moves = "h8 i9 j10 g7 h9 pass i8";
    play_all(g, moves);
    TgPoint m[8];
    int n = parse(15, moves, m);
    assert_int_equal(tg_game_length(g), n);
    /* Undo all the way, checking the stones at every ply. */
    for (int ply = n; ply > 0; ply--) {
        assert_int_equal(tg_game_ply(g), ply);
        if (!tg_point_is_pass(m[ply - 1]))
            assert_int_equal(tg_game_stone(g, m[ply - 1]), (ply - 1) % 2 ? TG_WHITE : TG_BLACK);
        assert_int_equal(tg_game_undo(g), TG_OK);
        if (!tg_point_is_pass(m[ply - 1]))
            assert_int_equal(tg_game_stone(g, m[ply - 1]), TG_NOBODY);
        assert_int_equal(tg_game_length(g), n);
    }
    assert_int_equal(tg_game_undo(g), TG_ERR_NOTHING);
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    /* Redo all the way. */
    for (int ply = 0; ply < n; ply++) {
        assert_int_equal(tg_game_redo(g), TG_OK);
        assert_int_equal(tg_game_ply(g), ply + 1);
        assert_int_equal(tg_game_to_move(g), (ply + 1) % 2 ? TG_WHITE : TG_BLACK);
    }
    assert_int_equal(tg_game_redo(g), TG_ERR_NOTHING);
    for (int i = 0; i < n; i++) assert_true(same_point(tg_game_move(g, i), m[i]));
    tg_game_free(g);
}

static void test_new_move_cuts_branch(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    play_all(g, "h8 i9 j10 g7 h9 h10");
    for (int i = 0; i < 3; i++) assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_length(g), 6);
    /* A refused move leaves the branch alone. */
    assert_int_equal(tg_game_play(g, p15("h8"), 0), TG_ERR_OCCUPIED);
    assert_int_equal(tg_game_length(g), 6);
    /* The same move as the record also cuts: the record ends where the new move is. */
    assert_int_equal(tg_game_play(g, p15("a1"), 0), TG_OK);
    assert_int_equal(tg_game_ply(g), 4);
    assert_int_equal(tg_game_length(g), 4);
    assert_true(same_point(tg_game_move(g, 3), p15("a1")));
    assert_true(tg_point_is_pass(tg_game_move(g, 4)));
    assert_int_equal(tg_game_redo(g), TG_ERR_NOTHING);
    assert_int_equal(tg_game_stone(g, p15("g7")), TG_NOBODY);
    assert_int_equal(tg_game_stone(g, p15("a1")), TG_WHITE);
    /* A pass cuts as well. */
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_play(g, PASS, 0), TG_OK);
    assert_int_equal(tg_game_length(g), 3);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    tg_game_free(g);
}

static void test_goto(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    const char *moves = "h8 i9 j10 g7 h9 h10 a1";
    TgPoint m[8];
    int n = parse(15, moves, m);
    play_all(g, moves);
    static const int order[] = {0, 7, 3, 5, 1, 6, 6, 0, 2};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int ply = order[k];
        assert_int_equal(tg_game_goto(g, ply), TG_OK);
        assert_int_equal(tg_game_ply(g), ply);
        assert_int_equal(tg_game_length(g), n);
        for (int i = 0; i < n; i++)
            assert_int_equal(tg_game_stone(g, m[i]),
                             i < ply ? (i % 2 ? TG_WHITE : TG_BLACK) : TG_NOBODY);
    }
    assert_int_equal(tg_game_goto(g, -1), TG_ERR_ARGUMENT);
    assert_int_equal(tg_game_goto(g, n + 1), TG_ERR_ARGUMENT);
    assert_int_equal(tg_game_ply(g), 2);
    tg_game_free(g);
}

/// A five's result is cleared by undo and found again by redo and goto.
static void test_result_undo_redo(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    play_all(g, "d4 a1 e5 a3 f6 a5 g7 a7 h8");
    assert_line(tg_game_result(g), "d4", "h8", 5);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    assert_int_equal(tg_game_play(g, p15("o1"), 0), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_check(g, p15("o1"), NULL), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_result(g).winner, TG_NOBODY);
    assert_int_equal(tg_game_redo(g), TG_OK);
    assert_line(tg_game_result(g), "d4", "h8", 5);
    assert_int_equal(tg_game_goto(g, 0), TG_OK);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_goto(g, 9), TG_OK);
    assert_line(tg_game_result(g), "d4", "h8", 5);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);
}

/* ---- Replacing the record ----------------------------------------------------------------- */

static void test_set_moves(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    tg_game_set_info(g, "black", "Ann");
    play_all(g, "h8 i9 j10 k11");
    tg_game_undo(g);
    TgPoint m[16];
    int bad = -1;

    /* Occupied at index 2: nothing changes, the index is reported. */
    int n = parse(15, "a1 b2 a1 c3", m);
    assert_int_equal(tg_game_set_moves(g, m, n, &bad), TG_ERR_OCCUPIED);
    assert_int_equal(bad, 2);
    assert_int_equal(tg_game_ply(g), 3);
    assert_int_equal(tg_game_length(g), 4);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_BLACK);
    assert_int_equal(tg_game_stone(g, p15("a1")), TG_NOBODY);
    /* Off the board at index 1. */
    m[1] = (TgPoint){15, 3};
    assert_int_equal(tg_game_set_moves(g, m, 2, &bad), TG_ERR_OFF_BOARD);
    assert_int_equal(bad, 1);
    assert_int_equal(tg_game_ply(g), 3);
    /* A move after a five: the game is over at index 9. */
    n = parse(15, "a1 o15 b1 o14 c1 o13 d1 o12 e1 o11", m);
    assert_int_equal(tg_game_set_moves(g, m, n, &bad), TG_ERR_GAME_OVER);
    assert_int_equal(bad, 9);
    assert_int_equal(tg_game_ply(g), 3);
    assert_int_equal(tg_game_stone(g, p15("a1")), TG_NOBODY);

    /* Success: the record is replaced, the redo branch gone, the result judged. */
    assert_int_equal(tg_game_set_moves(g, m, 9, &bad), TG_OK);
    assert_int_equal(tg_game_ply(g), 9);
    assert_int_equal(tg_game_length(g), 9);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_NOBODY);
    assert_int_equal(tg_game_stone(g, p15("o15")), TG_WHITE);
    assert_line(tg_game_result(g), "a1", "e1", 5);
    assert_string_equal(tg_game_info(g, "black"), "Ann");
    /* An empty list empties the game; passes are moves too. */
    assert_int_equal(tg_game_set_moves(g, NULL, 0, NULL), TG_OK);
    assert_int_equal(tg_game_ply(g), 0);
    assert_int_equal(tg_game_length(g), 0);
    assert_false(tg_game_over(g));
    n = parse(15, "h8 pass pass", m);
    assert_int_equal(tg_game_set_moves(g, m, n, NULL), TG_OK);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_PASSES);
    tg_game_free(g);

    /* Renju: a foul in the list is refused by default, at its index. */
    g = new_game(TG_RENJU, 15, 15);
    n = parse(15, "g8 a1 i8 a3 h9 a5 h7 a7 h8 a9", m);
    assert_int_equal(tg_game_set_moves(g, m, n, &bad), TG_ERR_FORBIDDEN);
    assert_int_equal(bad, 8);
    assert_int_equal(tg_game_ply(g), 0);
    /* With fouls playable it is played and loses; a later move is refused. */
    tg_game_set_fouls_playable(g, true);
    assert_int_equal(tg_game_set_moves(g, m, n, &bad), TG_ERR_GAME_OVER);
    assert_int_equal(bad, 9);
    assert_int_equal(tg_game_set_moves(g, m, n - 1, &bad), TG_OK);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FOUL);
    assert_int_equal(tg_game_result(g).winner, TG_WHITE);
    tg_game_free(g);
}

static void test_setup(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    TgPoint m[32];
    int bad = -1;
    /* Black's five on the board and passes: no result, White to move. */
    int n = parse(15, "a1 pass b1 pass c1 pass d1 pass e1 h8 pass", m);
    assert_int_equal(tg_game_setup(g, m, n, &bad), TG_OK);
    assert_int_equal(tg_game_ply(g), n);
    assert_int_equal(tg_game_length(g), n);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_stone(g, p15("e1")), TG_BLACK);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_WHITE);
    assert_int_equal(tg_game_play(g, p15("h9"), 0), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK); /* the trailing pass */
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    /* Refused diagrams leave the game as it was. */
    TgPoint bad_moves[3] = {p15("c3"), p15("d4"), p15("c3")};
    assert_int_equal(tg_game_setup(g, bad_moves, 3, &bad), TG_ERR_OCCUPIED);
    assert_int_equal(bad, 2);
    bad_moves[2] = (TgPoint){0, 15};
    assert_int_equal(tg_game_setup(g, bad_moves, 3, &bad), TG_ERR_OFF_BOARD);
    assert_int_equal(bad, 2);
    assert_int_equal(tg_game_ply(g), n - 1);
    assert_int_equal(tg_game_stone(g, p15("c3")), TG_NOBODY);
    /* Renju fouls are not judged in a diagram, and a result is cleared. */
    tg_game_free(g);
    g = new_game(TG_RENJU, 15, 15);
    tg_game_resign(g, TG_BLACK);
    n = parse(15, "g8 pass i8 pass h9 pass h7 pass h8", m);
    assert_int_equal(tg_game_setup(g, m, n, NULL), TG_OK);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_BLACK);
    tg_game_free(g);
}

/* ---- Game ends ---------------------------------------------------------------------------- */

static void test_resign_and_agreement(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    play_all(g, "h8 i9");
    assert_int_equal(tg_game_resign(g, TG_NOBODY), TG_ERR_ARGUMENT);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_resign(g, TG_BLACK), TG_OK);
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_RESIGN);
    assert_int_equal(r.winner, TG_WHITE);
    assert_int_equal(tg_game_play(g, p15("a1"), 0), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_resign(g, TG_WHITE), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_agree_draw(g), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_ply(g), 2);
    tg_game_free(g);

    g = new_game(TG_FREESTYLE, 15, 15);
    play_all(g, "h8");
    assert_int_equal(tg_game_resign(g, TG_WHITE), TG_OK);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);

    g = new_game(TG_RENJU, 15, 15);
    play_all(g, "h8 i9 j10");
    assert_int_equal(tg_game_agree_draw(g), TG_OK);
    r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_AGREEMENT);
    assert_int_equal(r.winner, TG_NOBODY);
    assert_true(tg_game_over(g));
    assert_int_equal(tg_game_play(g, p15("a1"), 0), TG_ERR_GAME_OVER);
    /* tg_game_set_result sets anything, including "no result". */
    tg_game_set_result(g, (TgResult){.reason = TG_REASON_TIME, .winner = TG_WHITE});
    assert_int_equal(tg_game_result(g).reason, TG_REASON_TIME);
    tg_game_set_result(g, (TgResult){.reason = TG_REASON_NONE, .winner = TG_NOBODY});
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_play(g, p15("a1"), 0), TG_OK);
    tg_game_free(g);
}

static void test_passes(void **state) {
    (void)state;
    TgGame *g = new_game(TG_STANDARD, 15, 15);
    /* Pass, move, pass is no draw; two passes in a row are. */
    play_all(g, "h8 pass i9 pass");
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    assert_int_equal(tg_game_check(g, PASS, NULL), TG_OK);
    assert_int_equal(tg_game_play(g, PASS, 0), TG_OK);
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_PASSES);
    assert_int_equal(r.winner, TG_NOBODY);
    assert_int_equal(tg_game_play(g, PASS, 0), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_stone(g, p15("h8")), TG_BLACK);
    assert_true(tg_point_is_pass(tg_game_move(g, 4)));
    /* Undo clears the draw; redo restores it. */
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_redo(g), TG_OK);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_PASSES);
    tg_game_free(g);
}

/// A 5 x 5 board filled with no five anywhere: a draw. Rows from the top.
static const char *const NO_FIVE[5] = {"BBWWB", "WWBBW", "BBWWB", "WWBBW", "BBWWB"};
/// The same count of stones, with Black's top row the only five, completed last (at c5).
static const char *const LAST_FIVE[5] = {"BBBBB", "WWBWB", "BWWBW", "WBWWB", "BWBWW"};

/// Plays the grid alternately, Black's stones in reading order but `last` (if on the board)
/// kept for the very end; checks the game goes on until the last move.
static TgGame *fill_board(TgRule rule, const char *const grid[5], TgPoint last) {
    TgPoint black[13], white[12];
    int nb = 0, nw = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            TgPoint p = {x, y};
            if (grid[y][x] == 'W')
                white[nw++] = p;
            else if (!same_point(p, last))
                black[nb++] = p;
        }
    if (last.x >= 0) black[nb++] = last;
    assert_int_equal(nb, 13);
    assert_int_equal(nw, 12);
    TgGame *g = new_game(rule, 5, 5);
    for (int i = 0; i < 25; i++) {
        assert_false(tg_game_over(g));
        assert_int_equal(tg_game_play(g, i % 2 ? white[i / 2] : black[i / 2], 0), TG_OK);
    }
    return g;
}

static void test_full_board(void **state) {
    (void)state;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        if (rule == TG_RENJU) continue; /* Black's moves might be fouls there */
        TgGame *g = fill_board((TgRule)rule, NO_FIVE, PASS);
        TgResult r = tg_game_result(g);
        assert_int_equal(r.reason, TG_REASON_FULL_BOARD);
        assert_int_equal(r.winner, TG_NOBODY);
        assert_int_equal(tg_game_check(g, PASS, NULL), TG_ERR_GAME_OVER);
        assert_int_equal(tg_game_undo(g), TG_OK);
        assert_false(tg_game_over(g));
        tg_game_free(g);
    }
    /* The last stone makes five on a full board: a win, not a draw. */
    TgGame *g = fill_board(TG_FREESTYLE, LAST_FIVE, (TgPoint){2, 0});
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_FIVE);
    assert_int_equal(r.winner, TG_BLACK);
    bool ends =
        (same_point(r.line.from, (TgPoint){0, 0}) && same_point(r.line.to, (TgPoint){4, 0})) ||
        (same_point(r.line.from, (TgPoint){4, 0}) && same_point(r.line.to, (TgPoint){0, 0}));
    assert_true(ends);
    assert_int_equal(r.line.length, 5);
    tg_game_free(g);
}

static void test_win_lines(void **state) {
    (void)state;
    static const struct {
        TgRule rule;
        const char *moves, *from, *to;
        int length;
        TgColor winner;
    } cases[] = {
        {TG_FREESTYLE, "h8 a1 i8 a3 j8 a5 l8 a7 k8", "h8", "l8", 5, TG_BLACK},
        {TG_FREESTYLE, "c2 a1 c3 a3 c4 a5 c6 a7 c5", "c2", "c6", 5, TG_BLACK},
        {TG_FREESTYLE, "o1 d4 a15 e5 b15 g7 c15 h8 d15 f6", "d4", "h8", 5, TG_WHITE},
        {TG_STANDARD, "h8 a1 g9 a3 e11 a5 d12 a7 f10", "d12", "h8", 5, TG_BLACK},
        {TG_RENJU, "a1 o15 b1 o14 c1 o13 d1 o12 e1", "a1", "e1", 5, TG_BLACK},
        /* A 7-stone overline under freestyle: the whole row. */
        {TG_FREESTYLE, "d8 a1 e8 a3 f8 a5 h8 a7 i8 a9 j8 a11 g8", "d8", "j8", 7, TG_BLACK},
        /* White's overline under renju wins, with its length. */
        {TG_RENJU, "a1 d8 a3 e8 a5 f8 a7 h8 a9 i8 a12 g8", "d8", "i8", 6, TG_WHITE},
        /* Caro8: a blocked overline wins. */
        {TG_CARO8, "d8 c8 e8 a1 f8 a3 g8 j8 i8 a5 h8", "d8", "i8", 6, TG_BLACK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TgGame *g = new_game(cases[i].rule, 15, 15);
        play_all(g, cases[i].moves);
        TgResult r = tg_game_result(g);
        assert_line(r, cases[i].from, cases[i].to, cases[i].length);
        assert_int_equal(r.winner, cases[i].winner);
        tg_game_free(g);
    }
}

/// Standard: an overline is played and the game goes on; caro9: a blocked five does not win.
static void test_no_win(void **state) {
    (void)state;
    TgGame *g = new_game(TG_STANDARD, 15, 15);
    play_all(g, "d8 a1 e8 a3 f8 a5 h8 a7 i8 a9 g8");
    assert_false(tg_game_over(g));
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    play_all(g, "o15");
    tg_game_free(g);
    g = new_game(TG_CARO9, 15, 15);
    play_all(g, "d8 c8 e8 a3 f8 a5 g8 i8 h8");
    assert_false(tg_game_over(g));
    tg_game_free(g);
    /* Caro9 along the edge: the wall does not block. */
    g = new_game(TG_CARO9, 15, 15);
    play_all(g, "a1 f1 b1 a3 c1 a5 d1 a7 e1");
    assert_line(tg_game_result(g), "a1", "e1", 5);
    tg_game_free(g);
}

/* ---- Clocks (fake readings in ms) -------------------------------------------------------- */

static TgGame *clocked(int64_t game_ms, int64_t increment_ms, int64_t move_ms) {
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_set_clock(g, (TgClock){game_ms, increment_ms, move_ms}), TG_OK);
    return g;
}

static void test_clock_settings(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_set_clock(g, (TgClock){-1, 0, 0}), TG_ERR_ARGUMENT);
    assert_int_equal(tg_game_set_clock(g, (TgClock){0, -1, 0}), TG_ERR_ARGUMENT);
    assert_int_equal(tg_game_set_clock(g, (TgClock){0, 0, -1}), TG_ERR_ARGUMENT);
    /* No clock: no limits, and time is never up. */
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 0), INT64_MAX);
    assert_int_equal(tg_game_move_time_left(g, 0), INT64_MAX);
    tg_game_clock_start(g, 0);
    assert_false(tg_game_check_time(g, 1000000000));
    assert_int_equal(tg_game_set_clock(g, (TgClock){60000, 1000, 30000}), TG_OK);
    TgClock c = tg_game_clock(g);
    assert_int_equal(c.game_ms, 60000);
    assert_int_equal(c.increment_ms, 1000);
    assert_int_equal(c.move_ms, 30000);
    assert_false(tg_game_clock_running(g));
    assert_int_equal(tg_game_time_left(g, TG_NOBODY, 0), INT64_MAX);
    tg_game_free(g);
}

static void test_clock_game_time(void **state) {
    (void)state;
    TgGame *g = clocked(10000, 0, 0);
    /* Before the start nothing runs. */
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 5000), 10000);
    tg_game_clock_start(g, 1000);
    assert_true(tg_game_clock_running(g));
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 4000), 7000);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 4000), 10000);
    assert_int_equal(tg_game_move_time_left(g, 4000), 7000);
    assert_int_equal(tg_game_play(g, p15("h8"), 4000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 9000), 7000);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 9000), 5000);
    assert_int_equal(tg_game_play(g, p15("i9"), 9000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 9000), 5000);
    /* Black has 7000 left from 9000: exactly used up at 16000 is still in time. */
    assert_false(tg_game_check_time(g, 16000));
    assert_false(tg_game_over(g));
    assert_true(tg_game_check_time(g, 16001));
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_TIME);
    assert_int_equal(r.winner, TG_WHITE);
    assert_false(tg_game_clock_running(g));
    assert_int_equal(tg_game_play(g, p15("j10"), 16001), TG_ERR_GAME_OVER);
    assert_false(tg_game_check_time(g, 20000)); /* already over */
    tg_game_free(g);
}

static void test_clock_increment(void **state) {
    (void)state;
    TgGame *g = clocked(10000, 2000, 0);
    tg_game_clock_start(g, 0);
    assert_int_equal(tg_game_play(g, p15("h8"), 3000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 3000), 9000);
    assert_int_equal(tg_game_play(g, p15("i9"), 4000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 4000), 11000);
    /* A pass is a move: it is charged and earns the increment. */
    assert_int_equal(tg_game_play(g, PASS, 12000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 12000), 3000);
    tg_game_free(g);
}

static void test_clock_move_limit(void **state) {
    (void)state;
    TgGame *g = clocked(0, 0, 5000);
    tg_game_clock_start(g, 0);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 2000), INT64_MAX);
    assert_int_equal(tg_game_move_time_left(g, 2000), 3000);
    assert_int_equal(tg_game_play(g, p15("h8"), 4000), TG_OK);
    assert_int_equal(tg_game_move_time_left(g, 4000), 5000);
    assert_false(tg_game_check_time(g, 9000));
    assert_true(tg_game_check_time(g, 9001));
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_TIME);
    assert_int_equal(r.winner, TG_BLACK); /* White ran out */
    tg_game_free(g);

    /* Both limits: the smaller one counts. */
    g = clocked(6000, 0, 5000);
    tg_game_clock_start(g, 0);
    assert_int_equal(tg_game_play(g, p15("h8"), 4000), TG_OK);
    assert_int_equal(tg_game_play(g, p15("i9"), 4500), TG_OK);
    assert_int_equal(tg_game_move_time_left(g, 5000), 1500);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 5000), 1500);
    assert_int_equal(tg_game_move_time_left(g, 4500), 2000);
    assert_true(tg_game_check_time(g, 6501));
    assert_int_equal(tg_game_result(g).winner, TG_WHITE);
    tg_game_free(g);
}

static void test_clock_pause(void **state) {
    (void)state;
    TgGame *g = clocked(10000, 0, 0);
    tg_game_clock_start(g, 0);
    tg_game_clock_pause(g, 2000);
    assert_false(tg_game_clock_running(g));
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 50000), 8000);
    assert_int_equal(tg_game_move_time_left(g, 50000), 8000);
    assert_false(tg_game_check_time(g, 50000));
    tg_game_clock_pause(g, 55000); /* already paused: no change */
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 58000), 8000);
    tg_game_clock_start(g, 60000);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 61000), 7000);
    tg_game_clock_start(g, 61000); /* already running: no change */
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 62000), 6000);
    assert_true(tg_game_check_time(g, 68001));
    assert_int_equal(tg_game_result(g).winner, TG_WHITE);
    /* A finished game's clock does not start again. */
    tg_game_clock_start(g, 70000);
    assert_false(tg_game_clock_running(g));
    tg_game_free(g);
}

/// Restoring a saved game's clocks: each side's time left is set as of the move's start.
static void test_clock_set_time_left(void **state) {
    (void)state;
    TgGame *g = clocked(10000, 0, 0);
    assert_int_equal(tg_game_set_time_left(g, TG_NOBODY, 100), TG_ERR_ARGUMENT);
    assert_int_equal(tg_game_set_time_left(g, TG_BLACK, 4000), TG_OK);
    assert_int_equal(tg_game_set_time_left(g, TG_WHITE, 2500), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 0), 4000);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 0), 2500);
    tg_game_clock_start(g, 1000);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 1500), 3500);
    assert_int_equal(tg_game_play(g, p15("h8"), 2000), TG_OK);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 2000), 3000);
    assert_true(tg_game_check_time(g, 4501));
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);
    /* Without a game time there is nothing to set. */
    g = clocked(0, 0, 5000);
    assert_int_equal(tg_game_set_time_left(g, TG_BLACK, 100), TG_ERR_ARGUMENT);
    tg_game_free(g);
}

/// A move made while the clock is paused: the mover's time so far is its own, and the next
/// side starts its move afresh.
static void test_clock_move_while_paused(void **state) {
    (void)state;
    TgGame *g = clocked(10000, 0, 5000);
    tg_game_clock_start(g, 0);
    tg_game_clock_pause(g, 4000);
    assert_int_equal(tg_game_play(g, p15("h8"), 4000), TG_OK);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(tg_game_move_time_left(g, 9000), 5000);
    assert_int_equal(tg_game_time_left(g, TG_WHITE, 9000), 10000);
    assert_int_equal(tg_game_time_left(g, TG_BLACK, 9000), 6000);
    tg_game_clock_start(g, 10000);
    assert_int_equal(tg_game_move_time_left(g, 11000), 4000);
    assert_false(tg_game_check_time(g, 15000));
    assert_true(tg_game_check_time(g, 15001));
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);
}

/// A move made after the flag fell is refused, and the game ends on time then.
static void test_clock_late_move(void **state) {
    (void)state;
    TgGame *g = clocked(3000, 0, 0);
    tg_game_clock_start(g, 0);
    assert_int_equal(tg_game_play(g, p15("h8"), 3000), TG_OK); /* just in time */
    assert_int_equal(tg_game_play(g, p15("i9"), 6001), TG_ERR_GAME_OVER);
    assert_int_equal(tg_game_ply(g), 1);
    assert_int_equal(tg_game_stone(g, p15("i9")), TG_NOBODY);
    TgResult r = tg_game_result(g);
    assert_int_equal(r.reason, TG_REASON_TIME);
    assert_int_equal(r.winner, TG_BLACK);
    tg_game_free(g);
}

/* ---- Clone, record fields, limits ---------------------------------------------------------- */

/// The clocks stop when the game ends, by a five or by resignation.
static void test_clock_stops_at_game_end(void **state) {
    (void)state;
    TgGame *g = clocked(60000, 0, 0);
    tg_game_clock_start(g, 0);
    /* Black h8..l8 in a row while White answers on row 9. */
    for (int i = 0; i < 9; i++) {
        TgPoint p = {7 + i / 2, (i % 2) ? 6 : 7};
        assert_int_equal(tg_game_play(g, p, 100 * (i + 1)), TG_OK);
    }
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FIVE);
    assert_false(tg_game_clock_running(g));
    assert_true(tg_game_time_left(g, TG_WHITE, 1000000) > 0);
    tg_game_free(g);

    g = clocked(60000, 0, 0);
    tg_game_clock_start(g, 0);
    assert_int_equal(tg_game_resign(g, TG_BLACK), TG_OK);
    assert_false(tg_game_clock_running(g));
    tg_game_free(g);
}

static void test_clone(void **state) {
    (void)state;
    TgGame *g = new_game(TG_RENJU, 15, 15);
    tg_game_set_info(g, "black", "Ann");
    play_all(g, "h8 i9 j10");
    tg_game_undo(g);
    TgGame *c = tg_game_clone(g);
    assert_non_null(c);
    assert_int_equal(tg_game_rule(c), TG_RENJU);
    assert_int_equal(tg_game_ply(c), 2);
    assert_int_equal(tg_game_length(c), 3);
    assert_string_equal(tg_game_info(c, "black"), "Ann");
    /* Changes to the clone stay there. */
    play_all(c, "a1");
    tg_game_set_info(c, "black", "Bob");
    tg_game_set_info(c, "white", "Cy");
    tg_game_resign(c, TG_WHITE);
    assert_int_equal(tg_game_ply(g), 2);
    assert_int_equal(tg_game_length(g), 3);
    assert_int_equal(tg_game_stone(g, p15("a1")), TG_NOBODY);
    assert_false(tg_game_over(g));
    assert_string_equal(tg_game_info(g, "black"), "Ann");
    assert_null(tg_game_info(g, "white"));
    /* And the other way round; the clone survives the original. */
    assert_int_equal(tg_game_redo(g), TG_OK);
    tg_game_free(g);
    assert_int_equal(tg_game_stone(c, p15("j10")), TG_NOBODY);
    assert_string_equal(tg_game_info(c, "black"), "Bob");
    tg_game_free(c);
}

static void test_info(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 15, 15);
    assert_null(tg_game_info(g, "black"));
    tg_game_set_info(g, "black", "Ann");
    assert_string_equal(tg_game_info(g, "black"), "Ann");
    tg_game_set_info(g, "black", "Bob Brown");
    assert_string_equal(tg_game_info(g, "black"), "Bob Brown");
    /* Setting a field to its own current value keeps it. */
    tg_game_set_info(g, "black", tg_game_info(g, "black"));
    assert_string_equal(tg_game_info(g, "black"), "Bob Brown");
    /* The value is copied. */
    char value[8] = "Cy";
    tg_game_set_info(g, "white", value);
    value[0] = 'X';
    assert_string_equal(tg_game_info(g, "white"), "Cy");
    tg_game_set_info(g, "comment", "");
    assert_string_equal(tg_game_info(g, "comment"), "");
    tg_game_set_info(g, "black", NULL);
    assert_null(tg_game_info(g, "black"));
    assert_string_equal(tg_game_info(g, "white"), "Cy");
    tg_game_set_info(g, "nothing", NULL); /* clearing an unset key is harmless */
    assert_null(tg_game_info(g, "nothing"));
    /* Many keys: with "white" and "comment", 16 fields in all. */
    char key[32], val[32];
    for (int i = 0; i < 14; i++) {
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "value %d", i);
        tg_game_set_info(g, key, val);
    }
    for (int i = 0; i < 14; i++) {
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "value %d", i);
        assert_string_equal(tg_game_info(g, key), val);
    }
    assert_string_equal(tg_game_info(g, "white"), "Cy");
    assert_string_equal(tg_game_info(g, "comment"), "");
    for (int i = 0; i < 14; i += 2) {
        snprintf(key, sizeof key, "key%d", i);
        tg_game_set_info(g, key, NULL);
    }
    for (int i = 0; i < 14; i++) {
        snprintf(key, sizeof key, "key%d", i);
        if (i % 2)
            assert_non_null(tg_game_info(g, key));
        else
            assert_null(tg_game_info(g, key));
    }
    tg_game_set_info(g, "date", "2024-05-01");
    tg_game_set_info(g, "event", "club");
    assert_string_equal(tg_game_info(g, "date"), "2024-05-01");
    assert_string_equal(tg_game_info(g, "event"), "club");
    tg_game_free(g);
}

/// The record holds at most 1024 plies: past that, moves are refused instead of overrunning.
static void test_record_limit(void **state) {
    (void)state;
    enum { N = 1023 };
    TgPoint *passes = malloc(sizeof *passes * (N + 1));
    assert_non_null(passes);
    for (int i = 0; i <= N; i++) passes[i] = PASS;
    TgGame *g = new_game(TG_FREESTYLE, 22, 22);
    int bad = -1;
    assert_int_equal(tg_game_setup(g, passes, N + 1, &bad), TG_ERR_ARGUMENT);
    assert_int_equal(bad, N);
    assert_int_equal(tg_game_setup(g, passes, N, NULL), TG_OK);
    assert_int_equal(tg_game_ply(g), N);
    assert_int_equal(tg_game_play(g, PASS, 0), TG_ERR_PASS);
    assert_int_equal(tg_game_play(g, (TgPoint){0, 0}, 0), TG_OK);
    assert_int_equal(tg_game_ply(g), N + 1);
    assert_int_not_equal(tg_game_check(g, (TgPoint){1, 0}, NULL), TG_OK);
    assert_int_not_equal(tg_game_play(g, (TgPoint){1, 0}, 0), TG_OK);
    assert_int_equal(tg_game_ply(g), N + 1);
    assert_int_equal(tg_game_stone(g, (TgPoint){1, 0}), TG_NOBODY);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_redo(g), TG_OK);
    free(passes);
    tg_game_free(g);
}

/* ---- Rendering ----------------------------------------------------------------------------- */

static void test_render(void **state) {
    (void)state;
    TgGame *g = new_game(TG_FREESTYLE, 7, 7);
    play_all(g, "d4 e5 c3");
    char *s = tg_game_render(g, false);
    assert_non_null(s);
    assert_string_equal(s, " 7 . . . . . . . \n"
                           " 6 . . . . . . . \n"
                           " 5 . . + . O . . \n"
                           " 4 . . . X . . . \n"
                           " 3 . .(X). + . . \n"
                           " 2 . . . . . . . \n"
                           " 1 . . . . . . . \n"
                           "   a b c d e f g\n");
    free(s);
    /* The last move at the right edge closes its parentheses after the last column. */
    play_all(g, "g1");
    s = tg_game_render(g, true);
    assert_string_equal(s, " 7 . . . . . . . \n"
                           " 6 . . . . . . . \n"
                           " 5 . . + . O . . \n"
                           " 4 . . . X . . . \n"
                           " 3 . . X . + . . \n"
                           " 2 . . . . . . . \n"
                           " 1 . . . . . .(O)\n"
                           "   a b c d e f g\n");
    free(s);
    tg_game_free(g);

    /* Renju on a 7 x 7 board: d4 is a double three, marked only when asked. The diagram ends
     * with a pass, so no stone is the last move. */
    g = new_game(TG_RENJU, 7, 7);
    TgPoint m[8];
    int n = parse(7, "c4 -- e4 -- d5 -- d3 --", m);
    assert_int_equal(tg_game_setup(g, m, n, NULL), TG_OK);
    s = tg_game_render(g, true);
    assert_string_equal(s, " 7 . . . . . . . \n"
                           " 6 . . . . . . . \n"
                           " 5 . . + X + . . \n"
                           " 4 . . X ! X . . \n"
                           " 3 . . + X + . . \n"
                           " 2 . . . . . . . \n"
                           " 1 . . . . . . . \n"
                           "   a b c d e f g\n");
    free(s);
    s = tg_game_render(g, false);
    assert_non_null(strstr(s, " 4 . . X + X . . \n"));
    free(s);
    tg_game_free(g);

    /* A 15 x 15 board: two-digit row numbers, star points 4 in from the corners. */
    g = new_game(TG_FREESTYLE, 15, 15);
    s = tg_game_render(g, false);
    assert_non_null(strstr(s, "15 . . . . . . . . . . . . . . . \n"));
    assert_non_null(strstr(s, " 8 . . . . . . . + . . . . . . . \n"));
    assert_non_null(strstr(s, " 4 . . . + . . . . . . . + . . . \n"));
    assert_non_null(strstr(s, "   a b c d e f g h i j k l m n o\n"));
    assert_int_equal(strlen(s), 15 * 34 + 33);
    free(s);
    tg_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_and_sizes),
        cmocka_unit_test(test_play_and_errors),
        cmocka_unit_test(test_foul_refused),
        cmocka_unit_test(test_foul_played),
        cmocka_unit_test(test_undo_redo),
        cmocka_unit_test(test_new_move_cuts_branch),
        cmocka_unit_test(test_goto),
        cmocka_unit_test(test_result_undo_redo),
        cmocka_unit_test(test_set_moves),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_resign_and_agreement),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_full_board),
        cmocka_unit_test(test_win_lines),
        cmocka_unit_test(test_no_win),
        cmocka_unit_test(test_clock_settings),
        cmocka_unit_test(test_clock_game_time),
        cmocka_unit_test(test_clock_increment),
        cmocka_unit_test(test_clock_move_limit),
        cmocka_unit_test(test_clock_pause),
        cmocka_unit_test(test_clock_move_while_paused),
        cmocka_unit_test(test_clock_late_move),
        cmocka_unit_test(test_clock_stops_at_game_end),
        cmocka_unit_test(test_clock_set_time_left),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_record_limit),
        cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests_name("game", tests, NULL, NULL);
}
