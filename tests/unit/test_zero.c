/*
 * test_zero.c — the mcts and zero levels through the public API: immediate fives taken and
 * blocked under every rule (one and two threads), renju fouls never played, the zero level's
 * random playouts beside the network, playout limits and tree reuse; the network: scalar and
 * fast inference agree, model files round-trip, a corrupt, truncated, newer or wrong-size
 * model is refused; self-play records are well formed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"
#include "games.h"

enum { SIZE = 9 };

static bool is(TgPoint p, const char *text, int size) {
    TgPoint q;
    assert_int_equal(tg_point_from_text(text, size, size, &q), TG_OK);
    return p.x == q.x && p.y == q.y;
}

/// Black c5 d5 e5 f5 (White far away), Black to move: five at b5 or g5.
static const char TAKE[] = "c5 a1 d5 a3 e5 a7 f5 i9";
/// White d4 e4 f4 g4 blocked by Black c4, Black to move: h4 stops the five.
static const char BLOCK[] = "c4 d4 a1 e4 a9 f4 i1 g4";

static TgSearchResult search(TgEngine *e, TgGame *g, TgLevel level, uint64_t playouts) {
    TgSearchLimits l = {.level = level, .nodes = playouts, .seed = 7};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_OK);
    return r;
}

/* ---- Fives under every rule ---- */

static void check_fives(TgLevel level, int threads) {
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        TgEngine *e = tg_engine_new(threads, 1 << 20);
        TgModel *m = tg_model_random((TgRule)rule, SIZE, 16, 1, 5);
        tg_engine_set_model(e, m);
        TgGame *g = game_from((TgRule)rule, SIZE, TAKE, false);
        TgSearchResult r = search(e, g, level, 200);
        assert_true(is(r.best, "b5", SIZE) || is(r.best, "g5", SIZE));
        assert_int_equal(r.score, TG_SCORE_WIN - 1);
        tg_game_free(g);
        g = game_from((TgRule)rule, SIZE, BLOCK, false);
        r = search(e, g, level, 200);
        assert_true(is(r.best, "h4", SIZE));
        tg_game_free(g);
        tg_engine_free(e);
        tg_model_free(m);
    }
}

static void test_mcts_fives(void **state) {
    (void)state;
    check_fives(TG_LEVEL_MCTS, 1);
    check_fives(TG_LEVEL_MCTS, 2);
}

static void test_zero_fives(void **state) {
    (void)state;
    check_fives(TG_LEVEL_ZERO, 1);
    check_fives(TG_LEVEL_ZERO, 2);
}

/// Renju: Black a5 b5 c5 . e5 f5 — d5 would make six (a foul, not a win). Every move either
/// level plays in a game from here on is legal, so fouls are never chosen.
static void test_renju_fouls_never_played(void **state) {
    (void)state;
    for (int level = TG_LEVEL_MCTS; level <= TG_LEVEL_ZERO; level++) {
        TgEngine *e = tg_engine_new(1, 1 << 20);
        TgModel *m = tg_model_random(TG_RENJU, SIZE, 16, 1, 9);
        tg_engine_set_model(e, m);
        TgGame *g = game_from(TG_RENJU, SIZE, "a5 i1 b5 i3 c5 i6 e5 h9 f5 a9", false);
        assert_int_equal(tg_game_foul_at(g, (TgPoint){3, 4}), TG_FOUL_OVERLINE);
        for (int moves = 0; moves < 30 && !tg_game_over(g); moves++) {
            TgSearchResult r = search(e, g, (TgLevel)level, 100);
            TgFoul foul;
            assert_int_equal(tg_game_check(g, r.best, &foul), TG_OK);
            assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
        }
        tg_game_free(g);
        tg_engine_free(e);
        tg_model_free(m);
    }
}

/// Playout limits hold; a search after two more moves reuses the tree and stays legal.
static void test_limits_and_reuse(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(2, 1 << 20);
    TgGame *g = game_from(TG_FREESTYLE, 15, "h8 i9", false);
    TgSearchResult r = search(e, g, TG_LEVEL_MCTS, 3000);
    assert_true(r.nodes >= 3000 && r.nodes < 3000 + 4);
    assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
    TgSearchResult r2 = search(e, g, TG_LEVEL_MCTS, 1000);
    assert_int_equal(tg_game_play(g, r2.best, 0), TG_OK);
    r = search(e, g, TG_LEVEL_MCTS, 1000);
    assert_int_equal(tg_game_check(g, r.best, NULL), TG_OK);
    TgSearchLimits timed = {.level = TG_LEVEL_MCTS, .turn_ms = 200};
    assert_int_equal(tg_engine_search(e, g, &timed, NULL, NULL, &r), TG_OK);
    assert_true(r.time_ms <= 200);
    tg_game_free(g);
    tg_engine_free(e);
}

/// A tree memory limit holds, and a full tree still plays: below the root's moves (1 byte: the
/// root alone) the search answers with a legal move, the forced block when there is one; a
/// tree that fills up mid-search searches on to its playout limit; tree reuse under the limit.
static void test_tree_memory_limit(void **state) {
    (void)state;
    const size_t budgets[] = {1, 20000};
    for (int level = TG_LEVEL_MCTS; level <= TG_LEVEL_ZERO; level++)
        for (int i = 0; i < 2; i++) {
            TgEngine *e = tg_engine_new(1, 1 << 20);
            TgModel *m = tg_model_random(TG_FREESTYLE, SIZE, 16, 1, 3);
            tg_engine_set_model(e, m);
            tg_engine_set_tree_memory(e, budgets[i]);
            assert_true(tg_engine_tree_memory(e) <= (budgets[i] > 64 ? budgets[i] : 64));
            TgGame *g = game_from(TG_FREESTYLE, SIZE, BLOCK, false);
            TgSearchResult r = search(e, g, (TgLevel)level, 300);
            assert_true(is(r.best, "h4", SIZE));
            tg_game_free(g);
            g = game_from(TG_FREESTYLE, SIZE, "e5 d4", false);
            for (int moves = 0; moves < 8 && !tg_game_over(g); moves++) {
                r = search(e, g, (TgLevel)level, 300);
                assert_false(tg_point_is_pass(r.best));
                if (i == 1 && r.score != TG_SCORE_WIN - 1) /* full, yet it searched on */
                    assert_true(r.nodes >= 300);
                assert_int_equal(tg_game_play(g, r.best, 0), TG_OK);
            }
            tg_game_free(g);
            tg_engine_free(e);
            tg_model_free(m);
        }
}

/// The zero level's random playouts take effect: with an untrained network, whose value says
/// nothing (0), Black's group in the centre against White's stones in the corners scores
/// clearly better for Black to move with playouts than without, and clearly worse for White to
/// move (after one more black stone). Fives are still taken either way.
static void test_zero_rollouts(void **state) {
    (void)state;
    static const char STRONG[] = "d5 a1 e5 i1 d4 a9 e4"; /* White to move: weak */
    static const char STRONG_B[] = "d5 a1 e5 i1 d4 a9";  /* Black to move: strong */
    TgModel *m = tg_model_random(TG_FREESTYLE, SIZE, 16, 1, 11);
    int score[2][2]; /* [playouts on][black to move] */
    for (int on = 0; on < 2; on++) {
        TgEngine *e = tg_engine_new(1, 1 << 20);
        tg_engine_set_model(e, m);
        tg_engine_set_zero_rollouts(e, on ? 16 : 0);
        for (int black = 0; black < 2; black++) {
            TgGame *g = game_from(TG_FREESTYLE, SIZE, black ? STRONG_B : STRONG, false);
            score[on][black] = search(e, g, TG_LEVEL_ZERO, 400).score;
            tg_game_free(g);
        }
        TgGame *g = game_from(TG_FREESTYLE, SIZE, TAKE, false);
        const TgSearchResult r = search(e, g, TG_LEVEL_ZERO, 200);
        assert_true(is(r.best, "b5", SIZE) || is(r.best, "g5", SIZE));
        tg_game_free(g);
        tg_engine_free(e);
    }
    print_message("zero rollouts: strong side %d -> %d, weak side %d -> %d\n", score[0][1],
                  score[1][1], score[0][0], score[1][0]);
    assert_true(score[1][1] > score[0][1] + 100);
    assert_true(score[1][0] < score[0][0] - 100);
    tg_model_free(m);
}

/* ---- The network ---- */

static void test_scalar_and_fast_agree(void **state) {
    (void)state;
    TgModel *m = tg_model_random(TG_FREESTYLE, 8, 32, 2, 3);
    if (!tg_model_set_fast(m, true)) {
        tg_model_free(m);
        skip();
    }
    TgGame *g[3] = {game_from(TG_FREESTYLE, 8, "d4", false),
                    game_from(TG_FREESTYLE, 8, "d4 e5 c3 a1 h8", false),
                    tg_game_new(TG_FREESTYLE, 8, 8)};
    float pf[3 * 64], ps[3 * 64], vf[3], vs[3], df[3], ds[3];
    assert_int_equal(tg_model_evaluate(m, (const TgGame *const *)g, 3, pf, vf, df), TG_OK);
    tg_model_set_fast(m, false);
    assert_false(tg_model_fast(m));
    assert_int_equal(tg_model_evaluate(m, (const TgGame *const *)g, 3, ps, vs, ds), TG_OK);
    for (int i = 0; i < 3 * 64; i++) assert_true(fabsf(pf[i] - ps[i]) < 1e-5f);
    for (int i = 0; i < 3; i++) {
        assert_true(fabsf(vf[i] - vs[i]) < 1e-5f);
        assert_true(fabsf(df[i] - ds[i]) < 1e-5f);
        /* win - loss and draw from one softmax: the draw leaves that much less to share */
        assert_true(df[i] > 0 && df[i] < 1 && fabsf(vf[i]) <= 1 - df[i] + 1e-6f);
    }
    for (int i = 0; i < 3; i++) tg_game_free(g[i]);
    tg_model_free(m);
}

static void test_model_round_trip_and_refusals(void **state) {
    (void)state;
    TgModel *m = tg_model_random(TG_RENJU, 9, 16, 2, 11);
    size_t len, len2;
    unsigned char *data = tg_model_write(m, &len);
    char err[200];
    TgModel *back = tg_model_read(data, len, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(tg_model_size(back), 9);
    assert_int_equal(tg_model_rule(back), TG_RENJU);
    unsigned char *again = tg_model_write(back, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(data, again, len);

    data[len / 2] ^= 0x40; /* one flipped bit in the weights */
    assert_null(tg_model_read(data, len, err, sizeof err));
    assert_non_null(strstr(err, "checksum"));
    data[len / 2] ^= 0x40;
    assert_null(tg_model_read(data, len - 7, err, sizeof err));
    assert_non_null(strstr(err, "truncated"));
    data[4] = 9; /* a later format version */
    assert_null(tg_model_read(data, len, err, sizeof err));
    assert_non_null(strstr(err, "version"));
    assert_null(tg_model_read("hello", 5, err, sizeof err));
    assert_non_null(strstr(err, "not a tengen model"));

    /* A 9x9 model cannot play on 15x15 (nor a renju model freestyle). */
    TgEngine *e = tg_engine_new(1, 1 << 20);
    tg_engine_set_model(e, back);
    TgGame *g = game_from(TG_RENJU, 15, "h8", false);
    TgSearchLimits l = {.level = TG_LEVEL_ZERO, .nodes = 50};
    TgSearchResult r;
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_ERR_MODEL);
    tg_game_free(g);
    g = game_from(TG_FREESTYLE, 9, "e5", false);
    assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r), TG_ERR_MODEL);
    tg_game_free(g);
    float policy[225], value;
    g = game_from(TG_RENJU, 15, "h8", false);
    assert_int_equal(tg_model_evaluate(back, (const TgGame *const *)&g, 1, policy, &value, NULL),
                     TG_ERR_MODEL);
    tg_game_free(g);
    tg_engine_free(e);
    free(data);
    free(again);
    tg_model_free(back);
    tg_model_free(m);
}

/// Models of format 1 (a one-number value head: the first shipped model, kept in tests/data)
/// are still read and written back unchanged; they tell no draw probability. The built-in
/// model is of format 2.
static void test_format_1_model(void **state) {
    (void)state;
    FILE *f = fopen("tests/data/freestyle-8-format1.tgnn", "rb");
    if (!f)
        fail_msg("cannot open tests/data/freestyle-8-format1.tgnn (run from the repository root)");
    static unsigned char data[1 << 20];
    const size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    assert_true(len > 8 && len < sizeof data && data[4] == 1); /* whole, and of format 1 */
    size_t len2;
    char err[200];
    TgModel *m = tg_model_read(data, len, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(tg_model_format(m), 1);
    assert_int_equal(tg_model_format(tg_model_builtin(TG_FREESTYLE, 8)), 2);
    unsigned char *again = tg_model_write(m, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(data, again, len);
    TgModel *fresh = tg_model_random(TG_FREESTYLE, 8, 32, 2, 1);
    unsigned char *fresh_data = tg_model_write(fresh, &len2);
    assert_int_equal(fresh_data[4], 2); /* what tengen writes now */
    assert_int_equal(tg_model_format(fresh), 2);
    TgGame *g = game_from(TG_FREESTYLE, 8, "d4 e5", false);
    float policy[64], value, draw = -1;
    assert_int_equal(tg_model_evaluate(m, (const TgGame *const *)&g, 1, policy, &value, &draw),
                     TG_OK);
    assert_true(draw == 0);
    draw = -1;
    assert_int_equal(tg_model_evaluate(tg_model_builtin(TG_FREESTYLE, 8), (const TgGame *const *)&g,
                                       1, policy, &value, &draw),
                     TG_OK);
    assert_true(draw > 0 && draw < 1);
    tg_game_free(g);
    free(again);
    free(fresh_data);
    tg_model_free(fresh);
    tg_model_free(m);
}

/// The draw score moves the zero level's judgement by the draws it expects: on a board where
/// every game ends drawn, the score is what a draw is worth; with an untrained network, whose
/// draw probability is about a third everywhere, a better draw scores better.
static void test_zero_draw_score(void **state) {
    (void)state;
    /* 5x5 freestyle, every line holding both colours once Black fills a1, the last point. */
    static const char FULL[] =
        "c1 b1 e1 d1 a2 b2 d2 c2 e2 a3 c3 b3 d3 a4 e3 d4 b4 a5 c4 c5 e4 d5 b5 e5";
    TgModel *m = tg_model_random(TG_FREESTYLE, 5, 8, 1, 4);
    TgEngine *e = tg_engine_new(1, 1 << 20);
    tg_engine_set_model(e, m);
    const float draw_score[3] = {-0.5f, 0, 0.5f};
    int drawn[3], open[3];
    for (int k = 0; k < 3; k++) {
        tg_engine_set_zero_draw_score(e, draw_score[k]);
        TgGame *g = game_from(TG_FREESTYLE, 5, FULL, false);
        drawn[k] = search(e, g, TG_LEVEL_ZERO, 100).score;
        tg_game_free(g);
        g = game_from(TG_FREESTYLE, 5, "c3", false);
        open[k] = search(e, g, TG_LEVEL_ZERO, 300).score;
        tg_game_free(g);
    }
    print_message("zero draw score -0.5, 0, 0.5: drawn board %d %d %d, open board %d %d %d\n",
                  drawn[0], drawn[1], drawn[2], open[0], open[1], open[2]);
    assert_int_equal(drawn[0], -500);
    assert_int_equal(drawn[1], 0);
    assert_int_equal(drawn[2], 500);
    assert_true(open[0] < open[1] - 50 && open[1] < open[2] - 50);
    tg_engine_set_zero_draw_score(e, NAN); /* the default: a draw is a draw */
    TgGame *g = game_from(TG_FREESTYLE, 5, FULL, false);
    assert_int_equal(search(e, g, TG_LEVEL_ZERO, 100).score, 0);
    tg_game_free(g);
    tg_engine_free(e);
    tg_model_free(m);
}

/* ---- Self-play ---- */

static uint32_t crc32_of(const unsigned char *p, size_t n) {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static void test_selfplay_record(void **state) {
    (void)state;
    TgModel *m = tg_model_random(TG_FREESTYLE, 7, 16, 1, 2);
    const TgZeroSettings s = {.playouts = 60, .seed = 4};
    size_t len;
    int moves;
    TgColor winner;
    unsigned char *rec = tg_zero_selfplay(m, &s, &len, &moves, &winner);
    assert_non_null(rec);
    assert_memory_equal(rec, "TGSP", 4);
    assert_int_equal(rec[4], 1);
    assert_int_equal(rec[5], 7);
    assert_int_equal(rec[6], TG_FREESTYLE);
    assert_int_equal(rec[7], winner);
    assert_int_equal(rec[8] | rec[9] << 8, moves);
    assert_true(moves >= 9 && moves <= 49);
    /* Walk the moves: each names a point, its visit list sums to about the playouts. */
    size_t at = 10;
    for (int i = 0; i < moves; i++) {
        const int move = rec[at] | rec[at + 1] << 8, k = rec[at + 2] | rec[at + 3] << 8;
        assert_true(move < 49 && k >= 1 && k <= 49);
        at += 4 + 4 * (size_t)k;
    }
    const uint32_t crc =
        rec[at] | rec[at + 1] << 8 | rec[at + 2] << 16 | (uint32_t)rec[at + 3] << 24;
    assert_int_equal(at + 4, len);
    assert_int_equal(crc, crc32_of(rec, at));
    free(rec);
    tg_model_free(m);
}

/// Moves from stone `from` on that are not the most visited point of their search, in one
/// self-play record.
static int moves_off_most_visited(const unsigned char *rec, int moves, int from) {
    int off = 0;
    size_t at = 10;
    for (int i = 0; i < moves; i++) {
        const int move = rec[at] | rec[at + 1] << 8, k = rec[at + 2] | rec[at + 3] << 8;
        int best = -1, most = -1;
        for (int j = 0; j < k; j++) {
            const unsigned char *pair = rec + at + 4 + 4 * (size_t)j;
            const int point = pair[0] | pair[1] << 8, visits = pair[2] | pair[3] << 8;
            if (visits > most) most = visits, best = point;
        }
        if (i >= from && move != best) off++;
        at += 4 + 4 * (size_t)k;
    }
    return off;
}

/// Self-play draws moves by visit counts for the first temperature_moves stones only: with the
/// whole board drawn, many later moves are not the most visited; with the default (an eighth
/// of the board), nearly none are.
static void test_selfplay_temperature(void **state) {
    (void)state;
    TgModel *m = tg_model_random(TG_FREESTYLE, 7, 16, 1, 2);
    int off_default = 0, off_whole = 0;
    for (int g = 0; g < 3; g++) {
        for (int whole = 0; whole < 2; whole++) {
            const TgZeroSettings s = {
                .playouts = 60, .temperature_moves = whole ? 49 : 0, .seed = 10 + (uint64_t)g};
            size_t len;
            int moves;
            unsigned char *rec = tg_zero_selfplay(m, &s, &len, &moves, NULL);
            assert_non_null(rec);
            *(whole ? &off_whole : &off_default) += moves_off_most_visited(rec, moves, 49 / 8);
            free(rec);
        }
    }
    assert_true(off_whole >= 3);
    assert_true(off_default <= 3 && off_default < off_whole);
    tg_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mcts_fives),
        cmocka_unit_test(test_zero_fives),
        cmocka_unit_test(test_renju_fouls_never_played),
        cmocka_unit_test(test_zero_rollouts),
        cmocka_unit_test(test_limits_and_reuse),
        cmocka_unit_test(test_tree_memory_limit),
        cmocka_unit_test(test_scalar_and_fast_agree),
        cmocka_unit_test(test_model_round_trip_and_refusals),
        cmocka_unit_test(test_format_1_model),
        cmocka_unit_test(test_zero_draw_score),
        cmocka_unit_test(test_selfplay_record),
        cmocka_unit_test(test_selfplay_temperature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
