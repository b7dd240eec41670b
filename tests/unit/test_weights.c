/*
 * test_weights.c — pattern codes, the evaluation's weight tables and their text format: codes
 * are a bijection onto the unordered pattern quadruples; the seed weights as codes evaluate
 * exactly as the seed evaluation in every rule; tables round-trip through text; malformed
 * tables are refused with the line named; the built-in tables parse; the ordering's near
 * buckets and their values read from the last two moves.
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
#include "../../src/core/embedded.h"
#include "../../src/core/eval.h"
#include "../../src/core/weights.h"
#include "../../src/core/zobrist.h"

static void test_codes_are_a_bijection(void **state) {
    (void)state;
    const PcodeTables *t = pcode_tables();
    static bool seen[PCODE_COUNT];
    memset(seen, 0, sizeof seen);
    for (int a = 0; a < PAT_COUNT; a++)
        for (int b = 0; b < PAT_COUNT; b++)
            for (int c = 0; c < PAT_COUNT; c++)
                for (int d = 0; d < PAT_COUNT; d++) {
                    const uint8_t p[4] = {(uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d};
                    const uint16_t code = pcode_of(t, p, BLACK);
                    assert_true(code < PCODE_COUNT);
                    seen[code] = true;
                    /* The code's patterns are this quadruple, sorted. */
                    int sorted[4] = {a, b, c, d};
                    for (int i = 1; i < 4; i++)
                        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                            const int x = sorted[j];
                            sorted[j] = sorted[j - 1], sorted[j - 1] = x;
                        }
                    for (int i = 0; i < 4; i++) assert_int_equal(t->patterns[code][i], sorted[i]);
                    /* White's nibbles give the same code. */
                    const uint8_t w[4] = {(uint8_t)(a << 4), (uint8_t)(b << 4), (uint8_t)(c << 4),
                                          (uint8_t)(d << 4)};
                    assert_int_equal(pcode_of(t, w, WHITE), code);
                }
    for (int i = 0; i < PCODE_COUNT; i++) assert_true(seen[i]);
    const uint8_t dead[4] = {0};
    assert_int_equal(pcode_of(t, dead, BLACK), 0);
}

/// The empty points within two cells of a stone, as the search's candidates.
static int candidates(const Board *b, Pos *out) {
    int n = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos p = pos_make(x, y);
            if (!board_empty(b, p)) continue;
            bool near = false;
            for (int dy = -2; dy <= 2 && !near; dy++)
                for (int dx = -2; dx <= 2 && !near; dx++) {
                    const Pos q = (Pos)(p + dy * BOARD_STRIDE + dx);
                    near = b->cell[q] == BLACK || b->cell[q] == WHITE;
                }
            if (near) out[n++] = p;
        }
    return n;
}

/// A random empty point of the square [lo, lo + span) on both axes.
static Pos random_empty_point(const Board *b, uint64_t *rng, int lo, int span) {
    Pos p;
    do {
        const uint64_t r = splitmix64(rng);
        p = pos_make(lo + (int)(r % (uint64_t)span), lo + (int)((r >> 32) % (uint64_t)span));
    } while (!board_empty(b, p));
    return p;
}

/// Generation 0 is the seed evaluation and move ordering exactly: random positions of every
/// rule.
static void test_seed_codes_evaluate_as_the_seed(void **state) {
    (void)state;
    uint64_t rng = 7;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        EvalWeights *seed = malloc(sizeof *seed);
        assert_non_null(seed);
        weights_from_seed((Rule)rule, seed);
        for (int game = 0; game < 40; game++) {
            Board b;
            board_init(&b, (Rule)rule, 15, 15);
            b.weights = seed;
            const int stones = 1 + (int)(splitmix64(&rng) % 60);
            for (int i = 0; i < stones; i++) {
                board_play(&b, random_empty_point(&b, &rng, 3, 9));
                Pos cand[BOARD_CELLS];
                const int n = candidates(&b, cand);
                assert_int_equal(eval_trained(&b, cand, n, 0, NULL, 0), eval_position(&b, cand, n));
                const Color me = board_to_move(&b);
                for (int k = 0; k < n; k++)
                    assert_int_equal(eval_order_trained(&b, cand[k], me),
                                     eval_move_order(&b, cand[k], me));
            }
        }
        free(seed);
    }
}

/// The features after random play/undo sequences in every rule are those of a board set up
/// from scratch with the same stones: the evaluation and the ordering of every candidate agree.
static void test_features_after_play_and_undo(void **state) {
    (void)state;
    uint64_t rng = 11;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        Board b, fresh;
        board_init(&b, (Rule)rule, 15, 15);
        for (int step = 0; step < 3000; step++) {
            const uint64_t r = splitmix64(&rng);
            if (b.ply && (r % 3 == 0 || b.stone_count > 120)) {
                board_undo(&b);
            } else {
                board_play(&b, random_empty_point(&b, &rng, 2, 11));
            }
            if (step % 7) continue;
            board_init(&fresh, (Rule)rule, 15, 15);
            for (int i = 0; i < b.ply; i++) board_play(&fresh, b.moves[i]);
            Pos cand[BOARD_CELLS];
            const int n = candidates(&b, cand);
            const Color me = board_to_move(&b);
            assert_int_equal(eval_trained(&b, cand, n, 5, NULL, 0),
                             eval_trained(&fresh, cand, n, 5, NULL, 0));
            for (int k = 0; k < n; k++)
                assert_int_equal(eval_order_trained(&b, cand[k], me),
                                 eval_order_trained(&fresh, cand[k], me));
        }
    }
}

static void test_text_round_trip(void **state) {
    (void)state;
    EvalWeights *w = malloc(sizeof *w), *back = malloc(sizeof *back);
    assert_non_null(w);
    assert_non_null(back);
    char err[160];
    uint64_t rng = 3;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        weights_from_seed((Rule)rule, w);
        w->scale = 187;
        for (int i = 0; i < 50; i++)
            w->mask[splitmix64(&rng) % MASK_COUNT] = (int16_t)(splitmix64(&rng) % 2001 - 1000);
        w->code[WHITE][ROLE_WAITER][1364] = -32768;
        for (int side = 0; side < NEAR_SIDES; side++)
            for (int k = 0; k < NEAR_BUCKETS; k++)
                w->near[side][k] = (int16_t)((k * 7 - 40) * side + k % 3);
        for (int m = 0; m < THREAT_COUNT; m++)
            for (int o = 0; o < THREAT_COUNT; o++) w->pair[m][o] = (int16_t)(m * 11 - o * o);
        for (int i = 0; i < 100; i++)
            w->context[i % 2][splitmix64(&rng) % 64][splitmix64(&rng) % THREAT_COUNT] =
                (int16_t)(splitmix64(&rng) % 2001 - 1000);
        char *text = weights_format(w, (Rule)rule, "a test table\nsecond line");
        assert_non_null(text);
        assert_true(weights_parse(text, (Rule)rule, back, err, sizeof err));
        assert_memory_equal(w, back, sizeof *w);
        free(text);
    }
    free(w);
    free(back);
}

static void assert_refused(const char *text, const char *message) {
    EvalWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    char err[160] = "";
    assert_false(weights_parse(text, TG_FREESTYLE, w, err, sizeof err));
    if (!strstr(err, message)) fail_msg("'%s' does not say '%s'", err, message);
    free(w);
}

static void test_malformed_tables_are_refused(void **state) {
    (void)state;
    assert_refused("", "needs its header");
    assert_refused("rule freestyle\n", "line 1: not a tengen weight table");
    assert_refused("tengen-weights 2\n", "unknown version");
    assert_refused("tengen-weights 1\nrule renju\n", "line 2: a renju table, not freestyle");
    assert_refused("tengen-weights 1\nrule chess\n", "unknown rule");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 0\n", "positive");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncode free3 dead dead\n",
                   "line: 4 patterns and 4 values");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncode free3 dead dead six 1 1 1 1\n",
                   "unknown pattern 'six'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncode free3 dead dead dead 1 1 x 1\n",
                   "'x' is not a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\n"
                   "code free3 dead dead dead 1 1 40000 1\n",
                   "'40000' is not a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\n"
                   "code free3 dead free2 dead 1 1 1 1\ncode dead free2 dead free3 2 2 2 2\n",
                   "line 5: the same code twice");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nmask flex3+ - 5\n",
                   "unknown threat mask");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nmask flex3+flex3 - 5\n",
                   "unknown threat mask");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nmask - - 5\nmask - - 6\n",
                   "the same mask twice");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nfoo 1\n", "unknown keyword 'foo'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\norder free3 dead 1 1 1 1\n",
                   "order line: 4 patterns and 4 values");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\n"
                   "order free3 dead free2 dead 1 1 1 1\norder dead free2 dead free3 2 2 2 2\n",
                   "the same order twice");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nmask a b c d e f g h i j\n",
                   "too many words");
    assert_refused("tengen-weights 1\nrule freestyle\n# no scale\n", "needs its header");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear their 1,0\n",
                   "a near line has a side, a distance and a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear mine 1,0 5\n",
                   "their, own, their-before or own-before, not 'mine'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear own 1,2 5\n",
                   "a distance like 2,1 or far, not '1,2'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear own 5,0 5\n", "not '5,0'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear own 0,0 5\n", "not '0,0'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear own far x\n",
                   "'x' is not a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\nnear own 2,1 5\nnear own 2,1 6\n",
                   "line 5: the same near twice");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\npair flex3 5\n",
                   "a pair line has two threat classes and a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\npair flex3 four 5\n",
                   "unknown threat class");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\npair none five 99999\n",
                   "'99999' is not a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\n"
                   "pair flex3 block4 5\npair flex3 block4 6\n",
                   "line 5: the same pair twice");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncontext attack - flex3\n",
                   "a context line has a role, a threat mask, a class and a value");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncontext own - flex3 1\n",
                   "attack or defend, not 'own'");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncontext attack four flex3 1\n",
                   "unknown threat mask");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\ncontext defend - four 1\n",
                   "unknown threat class");
    assert_refused("tengen-weights 1\nrule freestyle\nscale 9\n"
                   "context defend flex3+five none 1\ncontext defend five+flex3 none 2\n",
                   "line 5: the same context twice");
}

/// A freestyle table of the given value lines (malloc'd), parsed or the test fails.
static EvalWeights *freestyle_table(const char *lines) {
    char text[512], err[160];
    snprintf(text, sizeof text, "tengen-weights 1\nrule freestyle\nscale 9\n%s", lines);
    EvalWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    if (!weights_parse(text, TG_FREESTYLE, w, err, sizeof err)) fail_msg("%s", err);
    return w;
}

/// An empty 15x15 freestyle board (malloc'd) that orders with `w`.
static Board *board_with(const EvalWeights *w) {
    Board *b = malloc(sizeof *b);
    assert_non_null(b);
    board_init(b, TG_FREESTYLE, 15, 15);
    b->weights = w;
    return b;
}

/// All the trained ordering's terms beyond the codes, as the search adds them for a table that
/// has them.
static int order_terms(const Board *b, Pos p, Color me, int mask) {
    return eval_order_near(b, p) + eval_order_more(b, p, me, mask);
}

/// The near buckets: nearest first by the larger distance, then the smaller; beyond 4, far.
static void test_near_buckets(void **state) {
    (void)state;
    static const struct {
        int dx, dy, bucket;
    } CASES[] = {{1, 0, 0}, {0, -1, 0},  {1, 1, 1},        {-1, -1, 1},      {2, 0, 2},
                 {1, 2, 3}, {-2, 2, 4},  {3, 0, 5},        {0, 3, 5},        {3, 3, 8},
                 {4, 0, 9}, {4, -4, 13}, {5, 0, NEAR_FAR}, {0, 0, NEAR_FAR}, {2, 7, NEAR_FAR}};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
        assert_int_equal(near_bucket(CASES[i].dx, CASES[i].dy), CASES[i].bucket);
    /* The ordering adds the value of p's bucket from each of the last four moves; before any
     * move all are far. */
    EvalWeights *w = freestyle_table("near their 1,1 30\nnear their far -5\nnear own 2,2 7\n"
                                     "near own far -1\nnear their-before 1,0 100\n"
                                     "near own-before far 1000\n");
    Board *b = board_with(w);
    assert_int_equal(order_terms(b, pos_make(7, 7), BLACK, 0), 994);
    board_play(b, pos_make(7, 7)); /* h8 */
    board_play(b, pos_make(8, 8)); /* i9 */
    assert_int_equal(eval_near_bucket(b, pos_make(9, 9), NEAR_THEIRS), 1);
    assert_int_equal(eval_near_bucket(b, pos_make(9, 9), NEAR_OWN), 4);
    assert_int_equal(eval_near_bucket(b, pos_make(9, 9), NEAR_THEIRS_BEFORE), NEAR_FAR);
    assert_int_equal(order_terms(b, pos_make(9, 9), BLACK, 0), 1037);  /* j10: 1,1 and 2,2 */
    assert_int_equal(order_terms(b, pos_make(14, 14), BLACK, 0), 994); /* o15: far */
    assert_int_equal(order_terms(b, pos_make(7, 9), BLACK, 0), 1030);  /* h10: 1,1, 2,0 */
    board_play(b, pos_make(6, 6));                                     /* g7 */
    board_play(b, pos_make(5, 9));                                     /* f10 */
    /* Their last is f10, own g7, theirs before i9, own before h8. */
    assert_int_equal(eval_near_bucket(b, pos_make(9, 8), NEAR_THEIRS_BEFORE), 0);
    assert_int_equal(eval_near_bucket(b, pos_make(9, 8), NEAR_OWN_BEFORE), 3);
    assert_int_equal(order_terms(b, pos_make(9, 8), BLACK, 0), 100); /* j9: 1,0 from i9 */
    free(b);
    free(w);
}

/// The pair table: a point's value by the threat class it makes for the side to move and the
/// one it takes from the opponent.
static void test_pair_of_threats(void **state) {
    (void)state;
    EvalWeights *w = freestyle_table("pair flex3 none 40\npair none flex3 7\npair flex3 flex3 500\n"
                                     "pair none none -3\n");
    Board *b = board_with(w);
    /* Black h8 i8, White h9 i9, Black to move: g8 and j8 make Black an open three, g9 and j9
     * White's. A point that does both does not exist here; far points make nothing. */
    board_play(b, pos_make(7, 7));
    board_play(b, pos_make(7, 8));
    board_play(b, pos_make(8, 7));
    board_play(b, pos_make(8, 8));
    assert_int_equal(order_terms(b, pos_make(6, 7), BLACK, 0), 40);  /* g8 */
    assert_int_equal(order_terms(b, pos_make(6, 8), BLACK, 0), 7);   /* g9 */
    assert_int_equal(order_terms(b, pos_make(0, 14), BLACK, 0), -3); /* a15 */
    /* The search adds these terms only for tables that have them: the shipped freestyle and
     * renju tables do (learnt from relabelled tree samples, docs/eval.md), standard's not. */
    assert_true(weights_order_more(w));
    assert_true(weights_order_more(weights_builtin(TG_FREESTYLE)));
    assert_true(weights_order_more(weights_builtin(TG_RENJU)));
    assert_false(weights_order_more(weights_builtin(TG_STANDARD)));
    static const struct {
        const char *lines;
        bool more;
    } MORE[] = {{"near their 1,0 5\nnear own far -2\n", false},
                {"near own-before far -2\n", true},
                {"context defend five none 1\n", true}};
    for (size_t i = 0; i < sizeof MORE / sizeof *MORE; i++) {
        EvalWeights *n = freestyle_table(MORE[i].lines);
        assert_int_equal(weights_order_more(n), MORE[i].more);
        free(n);
    }
    /* The context: Black's class at the point against White's threat mask (attack), White's
     * class against Black's mask (defend). Here each side can make an open three. */
    EvalWeights *c =
        freestyle_table("context attack flex3 flex3 100\ncontext attack - flex3 1\n"
                        "context defend flex3 flex3 20\ncontext defend flex3 none 3\n");
    b->weights = c;
    const int both = MASK_FLEX3 | MASK_FLEX3 << MASK_SIDE_BITS;
    assert_int_equal(order_terms(b, pos_make(6, 7), BLACK, both), 103); /* g8 */
    assert_int_equal(order_terms(b, pos_make(6, 8), BLACK, both), 20);  /* g9 */
    assert_int_equal(order_terms(b, pos_make(6, 7), BLACK, MASK_FLEX3), 1 + 3);
    free(c);
    free(b);
    free(w);
}

/// Every table compiled in parses for the rule it is named after.
static void test_builtin_tables_parse(void **state) {
    (void)state;
    EvalWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    for (int i = 0; i < TG_EMBEDDED_WEIGHTS_COUNT; i++) {
        const EmbeddedFile *f = &TG_EMBEDDED_WEIGHTS[i];
        char name[32], err[160];
        snprintf(name, sizeof name, "%s", f->name);
        *strrchr(name, '.') = '\0';
        Rule rule;
        if (!tg_rule_from_name(name, &rule)) fail_msg("weights/%s names no rule", f->name);
        if (!weights_parse((const char *)f->data, rule, w, err, sizeof err))
            fail_msg("weights/%s: %s", f->name, err);
        assert_memory_equal(w, weights_builtin(rule), sizeof *w);
    }
    free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes_are_a_bijection),
        cmocka_unit_test(test_seed_codes_evaluate_as_the_seed),
        cmocka_unit_test(test_features_after_play_and_undo),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_malformed_tables_are_refused),
        cmocka_unit_test(test_near_buckets),
        cmocka_unit_test(test_pair_of_threats),
        cmocka_unit_test(test_builtin_tables_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
