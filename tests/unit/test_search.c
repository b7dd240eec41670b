/*
 * test_search.c — the engine through the public API: forced wins and defences under every
 * rule, renju fouls on both sides, the limits (depth, nodes, time, stop flag), multi-PV, the
 * excluded moves, determinism, the levels, the score texts, and the VCF puzzles of
 * $TG_DATA/tactics/ (every `win:` position must be scored as a win).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/tengen.h"
#include "data.h"
#include "games.h"
#include "tactics.h"

static TgPoint pt(const char *text, int size) {
    TgPoint p;
    assert_int_equal(tg_point_from_text(text, size, size, &p), TG_OK);
    return p;
}

static bool same(TgPoint a, TgPoint b) { return a.x == b.x && a.y == b.y; }

/// Searches to `depth` with one thread and a small table.
static TgSearchResult search_depth(TgGame *g, int depth) {
    TgEngine *e = tg_engine_new(1, 4 << 20);
    TgSearchLimits l = {.depth = depth};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    tg_engine_free(e);
    return r;
}

/* ---- Forced play ---- */

static void test_takes_the_five(void **state) {
    (void)state;
    /* Black h8..k8 with White stones elsewhere: Black to move makes five at g8 or l8. */
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5 k8 a7", false);
    TgSearchResult r = search_depth(g, 3);
    assert_true(same(r.best, pt("g8", 15)) || same(r.best, pt("l8", 15)));
    assert_int_equal(r.score, TG_SCORE_WIN - 1);
    tg_game_free(g);
}

static void test_blocks_the_four(void **state) {
    (void)state;
    /* White has h9 i9 j9 k9 blocked at g9 by Black: Black must play l9. */
    TgGame *g = game_from(TG_FREESTYLE, 15, "g9 h9 h7 i9 o1 j9 a1 k9", false);
    TgSearchResult r = search_depth(g, 4);
    assert_true(same(r.best, pt("l9", 15)));
    tg_game_free(g);
}

static void test_open_four_is_a_win_in_two(void **state) {
    (void)state;
    /* Black's open three h8 i8 j8: g8 or k8 makes a straight four. */
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5", false);
    TgSearchResult r = search_depth(g, 4);
    assert_int_equal(tg_score_moves_to_five(r.score), 2);
    assert_true(r.score > 0);
    tg_game_free(g);
}

static void test_defends_an_open_three(void **state) {
    (void)state;
    /* White's open three h9 i9 j9; Black must answer on that line (g9, k9, f9 or l9). */
    TgGame *g = game_from(TG_FREESTYLE, 15, "h7 h9 c3 i9 m13 j9", false);
    TgSearchResult r = search_depth(g, 4);
    const char *defences[] = {"g9", "k9", "f9", "l9"};
    bool ok = false;
    for (int i = 0; i < 4; i++) ok |= same(r.best, pt(defences[i], 15));
    assert_true(ok);
    tg_game_free(g);
}

/* Two positions of games against another engine where the search once announced a false
 * win: it answered a four-three only on the lines of the threat, but a four-three is no sure
 * win when the point that blocks its four can be made a four of the defender's, because that
 * block then gains a tempo. */
static void test_four_three_answered_with_tempo(void **state) {
    (void)state;
    /* White's j11 made two four-threes (m8, n13). Black's m7 blocks the one's four and makes
     * an open three; the other's four is blocked at n12, which is a Black four. */
    TgGame *g = game_from(TG_FREESTYLE, 15,
                          "i14 m13 k11 m11 l10 m10 m14 m9 m12 k8 l8 l9 j7 n9 k9 n11 o12 n10 n8 "
                          "k13 l12 j11",
                          false);
    TgSearchResult r = search_depth(g, 10);
    assert_true(r.score > -TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

static void test_four_three_unsettled_by_a_new_four(void **state) {
    (void)state;
    /* Black's e9 is a four-three; White's g8 makes e8, where the four is blocked, a White four,
     * and White wins by threats (the VCT solver agrees). */
    TgGame *g = game_from(TG_FREESTYLE, 15,
                          "d6 d7 c8 c7 f9 f5 b5 d8 c9 f7 e7 f8 d10 e6 e11 f12 e10", false);
    TgSearchResult r = search_depth(g, 10);
    assert_true(r.score > -TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

static void test_standard_overline_is_no_five(void **state) {
    (void)state;
    /* Standard: Black f8 g8 i8 j8 k8; h8 would make six, which does not win. */
    TgGame *g = game_from(TG_STANDARD, 15, "f8 a1 g8 a3 i8 a5 j8 a7 k8 a9", false);
    TgSearchResult r = search_depth(g, 2);
    assert_false(same(r.best, pt("h8", 15)));
    assert_true(r.score < TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

/* ---- Renju ---- */

static void test_renju_black_never_plays_a_foul(void **state) {
    (void)state;
    /* The double three at h8 (g8 i8 along the row, h7 h9 along the column... set up as a
     * diagram): Black's best-looking point is forbidden and must not be chosen. */
    TgGame *g = game_from(TG_RENJU, 15, "g8 a1 i8 a3 h7 a5 h9 a7", true);
    TgFoul foul = TG_FOUL_NONE;
    assert_int_equal(tg_game_check(g, pt("h8", 15), &foul), TG_ERR_FORBIDDEN);
    for (int depth = 1; depth <= 5; depth++) {
        TgSearchResult r = search_depth(g, depth);
        assert_int_equal(tg_game_check(g, r.best, &foul), TG_OK);
    }
    tg_game_free(g);
}

static void test_renju_white_wins_through_a_foul(void **state) {
    (void)state;
    /* White's four e8-h8 is blocked at d8; its five point i8 would be a double three for
     * Black (i8 i9 i10 up the column, i8 j9 k10 up the diagonal). Black cannot block. */
    TgGame *g = game_from(TG_RENJU, 15, "d8 e8 i9 f8 i10 g8 j9 h8 k10 --", true);
    TgFoul foul = TG_FOUL_NONE;
    assert_int_equal(tg_game_check(g, pt("i8", 15), &foul), TG_ERR_FORBIDDEN);
    assert_int_equal(foul, TG_FOUL_DOUBLE_THREE);
    TgSearchResult r = search_depth(g, 3);
    assert_int_equal(r.score, -(TG_SCORE_WIN - 2));
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    /* In freestyle the same block is fine. */
    tg_game_free(g);
    g = game_from(TG_FREESTYLE, 15, "d8 e8 i9 f8 i10 g8 j9 h8 k10 --", true);
    r = search_depth(g, 3);
    assert_true(same(r.best, pt("i8", 15)));
    assert_true(r.score > -TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

static void test_renju_foul_four_three_is_no_threat(void **state) {
    (void)state;
    /* From a game: Black's n9 would make a four (k9 l9 m9 n9) and two open threes, a double
     * three and so a foul. Taken for a four-three, it limited White to its defences and the
     * search scored the position lost; White wins with i12 (a three with tempo). The search
     * proves it at depth 13 (57,000 nodes); before the move count of one below a ply, at 8. */
    TgGame *g = game_from(TG_RENJU, 15,
                          "l12 k11 k15 m12 n11 n14 n12 l13 k9 l10 m9 j11 i10 j9 l11 m14 k13 i11 "
                          "g11 h12 h10 j10 j12 g13 f14 f12 e11 h13 l9 n15 k12 f13 e13",
                          false);
    TgSearchResult r = search_depth(g, 13);
    assert_true(same(r.best, pt("i12", 15)));
    assert_true(r.score >= TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

static void test_renju_three_stopped_at_a_double_four_point(void **state) {
    (void)state;
    /* From a game: Black's i2 makes f2 . h2 i2 an open three (g2 makes the straight four).
     * Its five point j2 would be a double four for Black (h2 i2 j2 . l2 on the same line), a
     * foul, so the defences to the three (the points where Black makes a four) left j2 out;
     * White's node kept only losing moves and Black's search claimed a win in 9. j2 stops it. */
    const char *moves = "m1 k1 m4 m2 l2 k6 k5 j4 j5 i5 h6 h7 i7 j6 k7 h4 g5 f4 g4 g3 f2 e5 h2 "
                        "e6 i2";
    TgGame *g = game_from(TG_RENJU, 15, moves, false);
    TgSearchResult r = search_depth(g, 8);
    assert_true(r.score > -TG_SCORE_WIN_MIN);
    assert_true(same(r.best, pt("j2", 15)) || same(r.best, pt("d6", 15)));
    tg_game_free(g);
}

static void test_renju_four_on_a_foul_is_seen_at_the_leaves(void **state) {
    (void)state;
    /* White's l4 makes i7 j6 k5 l4 a four whose only five point, h8, is Black's double three
     * (f8 g8 and h6 h7): Black cannot block it. Far from both last moves, that four was left out
     * of White's answers to Black's open three b12 c12 d12 as a distracting four, so a 2-ply
     * search played b12 and lost. The scan now finds such a four a win, and Black defends. */
    const char *moves = "f8 i7 g8 j6 h6 k5 h7 a1 m3 o1 g9 a15 c12 o15 d12 a8";
    TgGame *g = game_from(TG_RENJU, 15, moves, false);
    const TgSearchResult r = search_depth(g, 2);
    assert_true(r.score > -TG_SCORE_WIN_MIN);
    assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
    const TgSearchResult reply = search_depth(g, 3); /* White: no win by the four at l4 */
    assert_true(reply.score < TG_SCORE_WIN_MIN);
    tg_game_free(g);
}

/* ---- Limits, lines and determinism ---- */

static void test_deterministic(void **state) {
    (void)state;
    TgGame *g = game_from(TG_RENJU, 15, "h8 i9 j8 g8 i7 h6 j7", false);
    TgSearchResult a = search_depth(g, 6), b = search_depth(g, 6);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.score, b.score);
    assert_true(same(a.best, b.best));
    tg_game_free(g);
}

static void test_node_limit_is_exact_with_one_thread(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9 i8 g8 j7", false);
    TgEngine *e = tg_engine_new(1, 4 << 20);
    TgSearchLimits l = {.nodes = 5000};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    // The budget is spent to the node: no early stop, no overrun past the one node in flight.
    assert_true(r.nodes >= 5000);
    assert_true(r.nodes <= 5000 + 1);
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    tg_engine_free(e);
    tg_game_free(g);
}

/// The tree's shape adds up row by row, is the same on every run of the same search, and is
/// empty for the tree-search levels.
static void test_tree_stats(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9 h9", false);
    TgEngine *e = tg_engine_new(1, 4 << 20);
    TgSearchLimits l = {.depth = 8};
    TgSearchResult *r = malloc(2 * sizeof *r);
    assert_non_null(r);
    for (int k = 0; k < 2; k++) {
        tg_engine_clear(e);
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r[k]), TG_OK);
    }
    assert_memory_equal(&r[0].tree, &r[1].tree, sizeof r[0].tree);
    const TgTreeStats *t = &r[0].tree;
    uint64_t evaluated = 0, futile = 0, looped = 0;
    for (int d = 0; d < TG_TREE_DEPTHS; d++) {
        assert_true(t->futile[d] + t->razored[d] + t->looped[d] <= t->evaluated[d]);
        assert_true(t->searched[d] <= t->generated[d]);
        assert_true(t->first_cut[d] <= t->cut[d] && t->cut[d] <= t->looped[d]);
        assert_true(t->answering[d] <= t->looped[d] && t->spared[d] <= t->searched[d]);
        evaluated += t->evaluated[d], futile += t->futile[d], looped += t->looped[d];
    }
    assert_true(evaluated > 0 && futile > 0 && looped > 0 && evaluated < r[0].nodes);
    assert_true(t->looped[6] > 0); /* a depth-8 search has interior nodes 6 plies from the leaves */
    TgSearchLimits mcts = {.level = TG_LEVEL_MCTS, .nodes = 200, .seed = 1};
    assert_int_equal(tg_engine_search(e, g, &mcts, NULL, NULL, &r[1]), TG_OK);
    for (int d = 0; d < TG_TREE_DEPTHS; d++) assert_int_equal(r[1].tree.evaluated[d], 0);
    free(r);
    tg_engine_free(e);
    tg_game_free(g);
}

static void test_turn_time_is_kept(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9 i8 g8 j7", false);
    TgEngine *e = tg_engine_new(2, 16 << 20);
    const int64_t limits_ms[] = {0, 1, 20, 150};
    for (int i = 0; i < 4; i++) {
        TgSearchLimits l = {.turn_ms = limits_ms[i], .instant = limits_ms[i] == 0};
        TgSearchResult r;
        const int64_t t0 = tg_now_ms();
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
        /* Below 20 ms the answer is "at once": depth 1, whatever the scheduler adds. */
        const int64_t spent = tg_now_ms() - t0;
        if (spent > (limits_ms[i] > 20 ? limits_ms[i] : 60))
            fail_msg("turn %d ms: spent %d ms", (int)limits_ms[i], (int)spent);
        assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    }
    tg_engine_free(e);
    tg_game_free(g);
}

typedef struct StopAfter {
    atomic_bool *flag;
    int ms;
} StopAfter;

static void *stop_later(void *arg) {
    StopAfter *s = arg;
    struct timespec ts = {0, s->ms * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store(s->flag, true);
    return NULL;
}

static void test_stop_flag_ends_an_unlimited_search(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9 i8 g8 j7", false);
    TgEngine *e = tg_engine_new(2, 16 << 20);
    atomic_bool stop = false;
    StopAfter s = {&stop, 100};
    pthread_t t;
    pthread_create(&t, NULL, stop_later, &s);
    TgSearchLimits l = {.stop = &stop};
    TgSearchResult r;
    const int64_t t0 = tg_now_ms();
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    const int64_t spent = tg_now_ms() - t0;
    if (spent >= 100 + 80) fail_msg("stopped after 100 ms, returned after %d ms", (int)spent);
    pthread_join(t, NULL);
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    assert_true(r.depth >= 1);
    tg_engine_free(e);
    tg_game_free(g);
}

typedef struct Reports {
    int count, last_depth;
    bool increasing, saw_final;
} Reports;

static void on_report(const TgSearchInfo *info, void *user) {
    Reports *r = user;
    if (!info->final && info->depth <= r->last_depth) r->increasing = false;
    r->last_depth = info->depth;
    r->saw_final |= info->final;
    r->count++;
    assert_true(info->line_count >= 1);
    assert_true(info->lines[0].length >= 1);
}

static void test_multipv_and_callbacks(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9 i8 g8 j7", false);
    TgEngine *e = tg_engine_new(1, 4 << 20);
    TgSearchLimits l = {.depth = 5, .multipv = 4};
    TgSearchResult r;
    Reports rep = {0, 0, true, false};
    assert_int_equal(tg_engine_search(e, g, &l, on_report, &rep, &r), TG_OK);
    assert_int_equal(r.line_count, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(tg_game_check(g, r.lines[i].moves[0], NULL), TG_OK);
        for (int j = 0; j < i; j++) assert_false(same(r.lines[i].moves[0], r.lines[j].moves[0]));
        if (i) assert_true(r.lines[i].score <= r.lines[i - 1].score);
    }
    assert_true(rep.increasing);
    assert_true(rep.saw_final);
    assert_int_equal(rep.last_depth, 5);
    tg_engine_free(e);
    tg_game_free(g);
}

static void test_excluded_moves_are_not_played(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5 k8 a7", false);
    TgEngine *e = tg_engine_new(1, 4 << 20);
    const TgPoint block[2] = {pt("g8", 15), pt("l8", 15)};
    TgSearchLimits l = {.depth = 3, .exclude = block, .exclude_count = 2};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    assert_false(same(r.best, block[0]));
    assert_false(same(r.best, block[1]));
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    tg_game_free(g);
    /* Black must block White's four at l9; with l9 excluded, some legal move still comes. */
    g = game_from(TG_FREESTYLE, 15, "g9 h9 h7 i9 o1 j9 a1 k9", false);
    const TgPoint forced = pt("l9", 15);
    TgSearchLimits only = {.depth = 3, .exclude = &forced, .exclude_count = 1};
    assert_int_equal(tg_engine_search(e, g, &only, NULL, NULL, &r), TG_OK);
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    assert_true(r.score <= -TG_SCORE_WIN_MIN);
    tg_engine_free(e);
    tg_game_free(g);
}

static void test_fives_score_as_wins_in_every_mode(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5 k8 a7", false);
    TgEngine *e = tg_engine_new(1, 4 << 20);
    TgSearchLimits multi = {.depth = 3, .multipv = 3}, instant = {.instant = true};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &multi, NULL, NULL, &r), TG_OK);
    assert_int_equal(r.lines[0].score, TG_SCORE_WIN - 1);
    assert_true(r.line_count >= 1); /* a five to make leaves nothing else to show */
    assert_int_equal(tg_engine_search(e, g, &instant, NULL, NULL, &r), TG_OK);
    assert_int_equal(r.score, TG_SCORE_WIN - 1);
    tg_engine_free(e);
    tg_game_free(g);
}

static void test_game_over_is_refused(void **state) {
    (void)state;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5 k8 a7 l8", false);
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgSearchLimits l = {.depth = 2};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_ERR_GAME_OVER);
    l.level = TG_LEVEL_COUNT;
    tg_game_undo(g);
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_ERR_ARGUMENT);
    tg_engine_free(e);
    tg_game_free(g);
}

static void test_empty_board_and_small_board(void **state) {
    (void)state;
    TgGame *g = tg_game_new(TG_FREESTYLE, 15, 15);
    TgSearchResult r = search_depth(g, 3);
    assert_true(same(r.best, pt("h8", 15)));
    tg_game_free(g);
    /* A 5x5 board played out by the engine ends legally (a five or a full-board draw). */
    g = tg_game_new(TG_FREESTYLE, 5, 5);
    while (!tg_game_over(g)) {
        r = search_depth(g, 3);
        assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
    }
    tg_game_free(g);
}

/* ---- Levels ---- */

static void test_levels_play_legal_moves(void **state) {
    (void)state;
    for (int level = TG_LEVEL_MAX; level < TG_LEVEL_COUNT; level++) {
        TgGame *g = game_from(TG_RENJU, 15, "h8 i9 j8 g8 i7 h6", false);
        TgEngine *e = tg_engine_new(1, 4 << 20);
        /* No network is built in for 15x15 renju: the zero level gets a random one. */
        TgModel *m = tg_model_random(TG_RENJU, 15, 8, 0, 1);
        tg_engine_set_model(e, m);
        for (int ply = 0; ply < 12 && !tg_game_over(g); ply++) {
            TgSearchLimits l = {.level = (TgLevel)level, .turn_ms = 50, .seed = 7};
            TgSearchResult r;
            assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
            assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
        }
        tg_engine_free(e);
        tg_model_free(m);
        tg_game_free(g);
    }
    TgLevel lv;
    assert_true(tg_level_from_name("medium", &lv));
    assert_int_equal(lv, TG_LEVEL_MEDIUM);
    assert_string_equal(tg_level_name(TG_LEVEL_EASY), "easy");
    assert_false(tg_level_from_name("grandmaster", &lv));
}

static void test_easy_takes_and_blocks_fives(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgSearchLimits l = {.level = TG_LEVEL_EASY, .seed = 3};
    TgSearchResult r;
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 a1 i8 a3 j8 a5 k8 a7", false);
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    assert_true(same(r.best, pt("g8", 15)) || same(r.best, pt("l8", 15)));
    tg_game_free(g);
    g = game_from(TG_FREESTYLE, 15, "g9 h9 h7 i9 o1 j9 a1 k9", false);
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    assert_true(same(r.best, pt("l9", 15)));
    tg_game_free(g);
    tg_engine_free(e);
}

/* ---- Scores ---- */

static void test_score_text(void **state) {
    (void)state;
    char buf[32];
    tg_score_text(35, buf, sizeof buf);
    assert_string_equal(buf, "+35");
    tg_score_text(-120, buf, sizeof buf);
    assert_string_equal(buf, "-120");
    tg_score_text(TG_SCORE_WIN - 1, buf, sizeof buf);
    assert_string_equal(buf, "win in 1");
    tg_score_text(TG_SCORE_WIN - 5, buf, sizeof buf);
    assert_string_equal(buf, "win in 3");
    tg_score_text(-(TG_SCORE_WIN - 4), buf, sizeof buf);
    assert_string_equal(buf, "loss in 2");
}

/* ---- Tactics data ---- */

/// Every `win:` puzzle of one file is scored as a win within a small node budget.
static void check_tactics_file(const char *name) {
    char path[512], line[8192];
    snprintf(path, sizeof path, "tactics/%s", name);
    FILE *f = test_data_open(path);
    TgEngine *e = tg_engine_new(1, 8 << 20);
    int wins = 0, solved = 0;
    while (fgets(line, sizeof line, f)) {
        char *moves = NULL, *answer = NULL;
        int size;
        TgRule rule;
        if (!tactics_parse(line, &rule, &size, &moves, &answer) || !strstr(answer, "win:") ||
            strstr(answer, "nowin"))
            continue;
        TgGame *g = game_from(rule, size, moves, true);
        TgSearchLimits l = {.nodes = 300000};
        TgSearchResult r;
        tg_engine_clear(e);
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
        wins++;
        if (r.score >= TG_SCORE_WIN_MIN && tg_game_check(g, r.best, NULL) == TG_OK)
            solved++;
        else
            print_message("%s: not solved: %s\n", name, moves);
        tg_game_free(g);
    }
    fclose(f);
    tg_engine_free(e);
    print_message("%s: %d of %d wins found\n", name, solved, wins);
    if (wins == 0) fail_msg("%s has no `win:` puzzle", name);
    assert_int_equal(solved, wins);
}

static void test_tactics_freestyle(void **state) {
    (void)state;
    check_tactics_file("vcf-freestyle.txt");
}

static void test_tactics_standard(void **state) {
    (void)state;
    check_tactics_file("vcf-standard.txt");
}

static void test_tactics_renju(void **state) {
    (void)state;
    check_tactics_file("vcf-renju.txt");
    check_tactics_file("vcf-renju-quintet.txt");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_takes_the_five),
        cmocka_unit_test(test_blocks_the_four),
        cmocka_unit_test(test_open_four_is_a_win_in_two),
        cmocka_unit_test(test_defends_an_open_three),
        cmocka_unit_test(test_four_three_answered_with_tempo),
        cmocka_unit_test(test_four_three_unsettled_by_a_new_four),
        cmocka_unit_test(test_standard_overline_is_no_five),
        cmocka_unit_test(test_renju_black_never_plays_a_foul),
        cmocka_unit_test(test_renju_white_wins_through_a_foul),
        cmocka_unit_test(test_renju_foul_four_three_is_no_threat),
        cmocka_unit_test(test_renju_three_stopped_at_a_double_four_point),
        cmocka_unit_test(test_renju_four_on_a_foul_is_seen_at_the_leaves),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_node_limit_is_exact_with_one_thread),
        cmocka_unit_test(test_turn_time_is_kept),
        cmocka_unit_test(test_stop_flag_ends_an_unlimited_search),
        cmocka_unit_test(test_multipv_and_callbacks),
        cmocka_unit_test(test_tree_stats),
        cmocka_unit_test(test_excluded_moves_are_not_played),
        cmocka_unit_test(test_fives_score_as_wins_in_every_mode),
        cmocka_unit_test(test_game_over_is_refused),
        cmocka_unit_test(test_empty_board_and_small_board),
        cmocka_unit_test(test_levels_play_legal_moves),
        cmocka_unit_test(test_easy_takes_and_blocks_fives),
        cmocka_unit_test(test_score_text),
        cmocka_unit_test(test_tactics_freestyle),
        cmocka_unit_test(test_tactics_standard),
        cmocka_unit_test(test_tactics_renju),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
