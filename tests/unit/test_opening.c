/*
 * test_opening.c — the opening rules through the public API: the 26 renju openings against the
 * table of docs/rules.md §5 (in all 8 orientations), every rule of §4 played
 * through by scripted sides along each branch of its choices, the refusals (outside the
 * square, symmetric or repeated offers, numbers out of range, occupied points, wrong steps),
 * undo, the text form and the game it turns into; then the engine's own decisions, seeded and
 * node-limited so that they are the same on every run.
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

/// "h8" on a 15 x 15 board.
static TgPoint p15(const char *text) { return (TgPoint){text[0] - 'a', 15 - atoi(text + 1)}; }

static bool same_point(TgPoint a, TgPoint b) { return a.x == b.x && a.y == b.y; }

static TgOpening *renju_opening(TgOpeningRule rule) {
    TgOpening *op = tg_opening_new(rule, TG_RENJU, 15);
    assert_non_null(op);
    return op;
}

/// Places space-separated stones; each must be accepted.
static void place(TgOpening *op, const char *moves) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        const TgError e = tg_opening_place(op, p15(t));
        if (e != TG_OK) fail_msg("placing %s refused: %s", t, tg_opening_why(op));
    }
}

static void offer(TgOpening *op, const char *moves) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        const TgError e = tg_opening_offer(op, p15(t));
        if (e != TG_OK) fail_msg("offer %s refused: %s", t, tg_opening_why(op));
    }
}

static void choose(TgOpening *op, TgChoice c) {
    const TgError e = tg_opening_choose(op, c);
    if (e != TG_OK) fail_msg("choice %s refused: %s", tg_choice_name(c), tg_opening_why(op));
}

/// The current step must be `kind`, asked of `player`.
static void expect_step(const TgOpening *op, TgStepKind kind, TgPlayer player) {
    const TgOpeningStep st = tg_opening_step(op);
    if (st.kind != kind || st.player != player)
        fail_msg("step %d of player %d, expected step %d of player %d", st.kind, st.player + 1,
                 kind, player + 1);
}

/// A refusal with `err` whose reason contains `words`; the step must not change.
static void expect_refusal(TgOpening *op, TgError got, TgError err, const char *words) {
    assert_int_equal(got, err);
    if (!strstr(tg_opening_why(op), words))
        fail_msg("reason \"%s\" lacks \"%s\"", tg_opening_why(op), words);
}

static void expect_text(const TgOpening *op, const char *text) {
    char buf[512];
    tg_opening_text(op, buf, sizeof buf);
    assert_string_equal(buf, text);
}

/// The opening is over: `stones` were placed and `black` holds Black.
static void expect_done(const TgOpening *op, const char *stones, TgPlayer black) {
    assert_true(tg_opening_done(op));
    expect_step(op, TG_STEP_DONE,
                tg_opening_player_of(op, tg_opening_stones(op, NULL, 0) % 2 ? TG_WHITE : TG_BLACK));
    TgPoint s[TG_OPENING_MAX_STONES];
    const int n = tg_opening_stones(op, s, TG_OPENING_MAX_STONES);
    char want[256], got[256];
    snprintf(want, sizeof want, "%s", stones);
    tg_format_moves(s, n, 15, 15, " ", got, sizeof got);
    assert_string_equal(got, want);
    assert_int_equal(tg_opening_player_of(op, TG_BLACK), black);
    assert_int_equal(tg_opening_color_of(op, black), TG_BLACK);
    assert_int_equal(tg_opening_color_of(op, 1 - black), TG_WHITE);
}

/* ---- The 26 openings ---------------------------------------------------------------------- */

/// rules.md §5, copied independently of the engine's table.
static const struct {
    const char *code, *name, *chinese, *third;
} TABLE[26] = {
    {"1D", "Kansei", "寒星", "h10"},   {"2D", "Keigetsu", "溪月", "i10"},
    {"3D", "Sosei", "疏星", "j10"},    {"4D", "Kagetsu", "花月", "i9"},
    {"5D", "Zangetsu", "残月", "j9"},  {"6D", "Ugetsu", "雨月", "i8"},
    {"7D", "Kinsei", "金星", "j8"},    {"8D", "Shogetsu", "松月", "h7"},
    {"9D", "Kyugetsu", "丘月", "i7"},  {"10D", "Shingetsu", "新月", "j7"},
    {"11D", "Zuisei", "瑞星", "h6"},   {"12D", "Sangetsu", "山月", "i6"},
    {"13D", "Yusei", "游星", "j6"},    {"1I", "Chosei", "长星", "j10"},
    {"2I", "Kyogetsu", "峡月", "j9"},  {"3I", "Kosei", "恒星", "j8"},
    {"4I", "Suigetsu", "水月", "j7"},  {"5I", "Ryusei", "流星", "j6"},
    {"6I", "Ungetsu", "云月", "i8"},   {"7I", "Hogetsu", "浦月", "i7"},
    {"8I", "Rangetsu", "岚月", "i6"},  {"9I", "Gingetsu", "银月", "h7"},
    {"10I", "Myojo", "明星", "h6"},    {"11I", "Shagetsu", "斜月", "g7"},
    {"12I", "Meigetsu", "名月", "g6"}, {"13I", "Suisei", "彗星", "f6"},
};

static void test_table_matches_rules(void **state) {
    (void)state;
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        const TgRenjuOpening *o = tg_renju_opening(i);
        assert_non_null(o);
        assert_string_equal(o->code, TABLE[i].code);
        assert_string_equal(o->name, TABLE[i].name);
        assert_string_equal(o->chinese, TABLE[i].chinese);
        assert_int_equal(o->direct, i < 13);
        TgPoint s[3];
        assert_int_equal(tg_renju_opening_stones(i, 15, 0, s), TG_OK);
        assert_true(same_point(s[0], p15("h8")));
        assert_true(same_point(s[1], p15(i < 13 ? "h9" : "i9")));
        assert_true(same_point(s[2], p15(TABLE[i].third)));
    }
    assert_null(tg_renju_opening(-1));
    assert_null(tg_renju_opening(26));
}

static void test_every_orientation_is_recognised(void **state) {
    (void)state;
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        for (int k = 0; k < 8; k++) {
            TgPoint s[3];
            int sym = -1;
            assert_int_equal(tg_renju_opening_stones(i, 15, k, s), TG_OK);
            assert_int_equal(tg_renju_opening_index(s, 15, &sym), i);
            TgPoint t[3]; /* the reported symmetry really maps the table onto the stones */
            tg_renju_opening_stones(i, 15, sym, t);
            for (int j = 0; j < 3; j++) assert_true(same_point(s[j], t[j]));
        }
    }
    /* Also on other odd sizes, centred. */
    TgPoint s[3];
    assert_int_equal(tg_renju_opening_stones(25, 19, 5, s), TG_OK);
    assert_int_equal(tg_renju_opening_index(s, 19, NULL), 25);
    assert_int_equal(tg_renju_opening_stones(0, 14, 0, s), TG_ERR_ARGUMENT);
}

/// Every legal RIF placement (move 1 at h8, move 2 in the 3x3, move 3 in the 5x5) is exactly
/// one of the 26, and each of the 26 is reached.
static void test_all_placements_are_the_26(void **state) {
    (void)state;
    int hits[TG_RENJU_OPENINGS] = {0}, total = 0;
    const TgPoint c = p15("h8");
    for (int dx2 = -1; dx2 <= 1; dx2++)
        for (int dy2 = -1; dy2 <= 1; dy2++)
            for (int dx3 = -2; dx3 <= 2; dx3++)
                for (int dy3 = -2; dy3 <= 2; dy3++) {
                    const TgPoint s[3] = {c, {c.x + dx2, c.y + dy2}, {c.x + dx3, c.y + dy3}};
                    if (same_point(s[1], s[0]) || same_point(s[2], s[0]) || same_point(s[2], s[1]))
                        continue;
                    const int i = tg_renju_opening_index(s, 15, NULL);
                    assert_true(i >= 0);
                    hits[i]++, total++;
                }
    assert_int_equal(total, 8 * 23);
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) assert_true(hits[i] > 0);
    /* Not openings: move 1 off the centre, move 3 outside the 5x5. */
    const TgPoint off[3] = {p15("h9"), p15("h10"), p15("h11")};
    assert_int_equal(tg_renju_opening_index(off, 15, NULL), -1);
    const TgPoint far[3] = {p15("h8"), p15("h9"), p15("h11")};
    assert_int_equal(tg_renju_opening_index(far, 15, NULL), -1);
}

static void test_names(void **state) {
    (void)state;
    assert_int_equal(tg_renju_opening_by_name("Kansei"), 0);
    assert_int_equal(tg_renju_opening_by_name("kansei"), 0);
    assert_int_equal(tg_renju_opening_by_name("1d"), 0);
    assert_int_equal(tg_renju_opening_by_name("寒星"), 0);
    assert_int_equal(tg_renju_opening_by_name("13I"), 25);
    assert_int_equal(tg_renju_opening_by_name("浦月"), 19);
    assert_int_equal(tg_renju_opening_by_name("長星"), 13); /* the kanji form */
    assert_int_equal(tg_renju_opening_by_name("Myojo"), 22);
    assert_int_equal(tg_renju_opening_by_name("nothing"), -1);
    assert_int_equal(tg_renju_opening_by_name(""), -1);

    TgOpeningRule r;
    for (int i = 0; i < TG_OPENING_RULE_COUNT; i++) {
        assert_true(tg_opening_rule_from_name(tg_opening_rule_name((TgOpeningRule)i), &r));
        assert_int_equal(r, i);
    }
    assert_true(tg_opening_rule_from_name("Soosorv-8", &r));
    assert_int_equal(r, TG_OPENING_SOOSORV8);
    assert_true(tg_opening_rule_from_name("taraguchi-10", &r));
    assert_int_equal(r, TG_OPENING_TARAGUCHI10);
    assert_false(tg_opening_rule_from_name("swap3", &r));
}

static void test_new_checks_the_board(void **state) {
    (void)state;
    assert_null(tg_opening_new(TG_OPENING_RIF, TG_RENJU, 14));        /* no centre point */
    assert_null(tg_opening_new(TG_OPENING_TARAGUCHI10, TG_RENJU, 7)); /* no 9x9 square */
    assert_null(tg_opening_new(TG_OPENING_RULE_COUNT, TG_RENJU, 15));
    assert_null(tg_opening_new(TG_OPENING_SWAP2, TG_STANDARD, 4));
    TgOpening *op = tg_opening_new(TG_OPENING_SWAP2, TG_STANDARD, 20);
    assert_non_null(op);
    assert_int_equal(tg_opening_size(op), 20);
    assert_int_equal(tg_opening_game_rule(op), TG_STANDARD);
    tg_opening_free(op);
    op = tg_opening_new(TG_OPENING_NONE, TG_FREESTYLE, 15);
    assert_true(tg_opening_done(op));
    expect_step(op, TG_STEP_DONE, TG_PLAYER_1);
    tg_opening_free(op);
}

/* ---- swap1 and classic swap ---------------------------------------------------------------- */

static void test_swap1(void **state) {
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        TgOpening *op = tg_opening_new(TG_OPENING_SWAP1, TG_FREESTYLE, 15);
        expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
        assert_int_equal(tg_opening_step(op).count, 1);
        assert_int_equal(tg_opening_step(op).area, 0);
        place(op, "b2"); /* anywhere */
        expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
        assert_int_equal(tg_opening_step(op).choices, TG_CHOICE_STAY | TG_CHOICE_SWAP);
        expect_refusal(op, tg_opening_choose(op, TG_CHOICE_PLACE_TWO), TG_ERR_ARGUMENT,
                       "not one of the choices");
        choose(op, swap ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        expect_done(op, "b2", swap ? TG_PLAYER_2 : TG_PLAYER_1);
        expect_text(op, swap ? "swap1 b2 swap" : "swap1 b2 stay");
        tg_opening_free(op);
    }
}

static void test_classic_swap(void **state) {
    (void)state;
    TgOpening *op = tg_opening_new(TG_OPENING_SWAP, TG_STANDARD, 15);
    assert_int_equal(tg_opening_step(op).count, 3);
    place(op, "h8");
    assert_int_equal(tg_opening_step(op).color, TG_WHITE);
    assert_int_equal(tg_opening_step(op).count, 2);
    place(op, "a1 o15");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    choose(op, TG_CHOICE_SWAP);
    expect_done(op, "h8 a1 o15", TG_PLAYER_2);
    tg_opening_free(op);
}

/* ---- swap2 ------------------------------------------------------------------------------- */

static TgOpening *swap2_three(void) {
    TgOpening *op = tg_opening_new(TG_OPENING_SWAP2, TG_STANDARD, 15);
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
    place(op, "h8 i9 j7");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    assert_int_equal(tg_opening_step(op).color, TG_WHITE);
    assert_int_equal(tg_opening_step(op).choices,
                     TG_CHOICE_STAY | TG_CHOICE_SWAP | TG_CHOICE_PLACE_TWO);
    return op;
}

static void test_swap2_take_white(void **state) {
    (void)state;
    TgOpening *op = swap2_three();
    choose(op, TG_CHOICE_STAY);
    expect_done(op, "h8 i9 j7", TG_PLAYER_1);
    expect_step(op, TG_STEP_DONE, TG_PLAYER_2); /* player 2, White, plays move 4 */
    tg_opening_free(op);
}

static void test_swap2_take_black(void **state) {
    (void)state;
    TgOpening *op = swap2_three();
    choose(op, TG_CHOICE_SWAP);
    expect_done(op, "h8 i9 j7", TG_PLAYER_2);
    expect_step(op, TG_STEP_DONE, TG_PLAYER_1);
    tg_opening_free(op);
}

static void test_swap2_place_two(void **state) {
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        TgOpening *op = swap2_three();
        choose(op, TG_CHOICE_PLACE_TWO);
        expect_step(op, TG_STEP_PLACE, TG_PLAYER_2);
        assert_int_equal(tg_opening_step(op).count, 2);
        assert_int_equal(tg_opening_step(op).color, TG_WHITE);
        expect_refusal(op, tg_opening_place(op, p15("i9")), TG_ERR_OCCUPIED, "already taken");
        place(op, "g9");
        assert_int_equal(tg_opening_step(op).color, TG_BLACK);
        place(op, "k6");
        expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_1);
        assert_int_equal(tg_opening_step(op).choices, TG_CHOICE_STAY | TG_CHOICE_SWAP);
        choose(op, swap ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        expect_done(op, "h8 i9 j7 g9 k6", swap ? TG_PLAYER_2 : TG_PLAYER_1);
        expect_step(op, TG_STEP_DONE, swap ? TG_PLAYER_1 : TG_PLAYER_2);
        expect_text(op, swap ? "swap2 h8 i9 j7 place-two g9 k6 swap"
                             : "swap2 h8 i9 j7 place-two g9 k6 stay");
        tg_opening_free(op);
    }
}

/* ---- RIF --------------------------------------------------------------------------------- */

static void test_rif_squares(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_RIF);
    assert_int_equal(tg_opening_step(op).count, 3);
    assert_int_equal(tg_opening_step(op).area, 1);
    expect_refusal(op, tg_opening_place(op, p15("h9")), TG_ERR_ARGUMENT, "centre");
    place(op, "h8");
    assert_int_equal(tg_opening_step(op).area, 3);
    expect_refusal(op, tg_opening_place(op, p15("h10")), TG_ERR_ARGUMENT,
                   "h10 is outside the central 3x3 square");
    expect_refusal(op, tg_opening_place(op, p15("h8")), TG_ERR_OCCUPIED, "h8 is already taken");
    expect_refusal(op, tg_opening_place(op, (TgPoint){-1, -1}), TG_ERR_PASS, "pass");
    expect_refusal(op, tg_opening_place(op, (TgPoint){15, 3}), TG_ERR_OFF_BOARD, "board");
    place(op, "i9");
    assert_int_equal(tg_opening_step(op).area, 5);
    expect_refusal(op, tg_opening_place(op, p15("k8")), TG_ERR_ARGUMENT, "central 5x5");
    place(op, "f6");
    assert_int_equal(tg_opening_renju_index(op), 25); /* 13I, Suisei */
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    tg_opening_free(op);
}

static void test_rif_stay_and_swap(void **state) {
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        TgOpening *op = renju_opening(TG_OPENING_RIF);
        place(op, "h8 h9 h10"); /* 1D Kansei: symmetric about the h column */
        expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
        choose(op, swap ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        const TgPlayer white = swap ? TG_PLAYER_1 : TG_PLAYER_2, black = 1 - white;
        expect_step(op, TG_STEP_PLACE, white);
        assert_int_equal(tg_opening_step(op).area, 0);
        place(op, "h11"); /* still symmetric */
        expect_step(op, TG_STEP_OFFER, black);
        assert_int_equal(tg_opening_step(op).count, 2);
        offer(op, "g9");
        expect_refusal(op, tg_opening_offer(op, p15("i9")), TG_ERR_ARGUMENT,
                       "i9 is symmetric to the offer g9");
        expect_refusal(op, tg_opening_offer(op, p15("g9")), TG_ERR_ARGUMENT, "already offered");
        expect_refusal(op, tg_opening_offer(op, p15("h10")), TG_ERR_OCCUPIED, "taken");
        assert_int_equal(tg_opening_step(op).count, 1);
        offer(op, "i10");
        expect_step(op, TG_STEP_SELECT, white);
        expect_refusal(op, tg_opening_select(op, p15("a1")), TG_ERR_ARGUMENT, "not one of");
        assert_int_equal(tg_opening_select(op, p15("i10")), TG_OK);
        expect_done(op, "h8 h9 h10 h11 i10", black);
        expect_step(op, TG_STEP_DONE, white);
        TgPoint offers[4];
        assert_int_equal(tg_opening_offers(op, offers, 4), 2);
        assert_true(same_point(offers[0], p15("g9")) && same_point(offers[1], p15("i10")));
        tg_opening_free(op);
    }
}

/// Mirror-image offers are fine when the four stones are not symmetric.
static void test_rif_asymmetric_offers(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_RIF);
    place(op, "h8 h9 h10");
    choose(op, TG_CHOICE_STAY);
    place(op, "i11");
    offer(op, "g9 i9");
    assert_int_equal(tg_opening_step(op).kind, TG_STEP_SELECT);
    tg_opening_free(op);
    /* A fully symmetric position (a diagonal line): transposed offers are refused too. */
    op = renju_opening(TG_OPENING_RIF);
    place(op, "h8 i9 j10");
    choose(op, TG_CHOICE_STAY);
    place(op, "g7");
    offer(op, "h10");
    expect_refusal(op, tg_opening_offer(op, p15("j8")), TG_ERR_ARGUMENT, "symmetric");
    offer(op, "j9");
    tg_opening_free(op);
}

/* ---- Yamaguchi --------------------------------------------------------------------------- */

static void test_yamaguchi(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_YAMAGUCHI);
    place(op, "h8 i9 j8"); /* 3I Kosei */
    expect_step(op, TG_STEP_DECLARE, TG_PLAYER_1);
    const TgOpeningStep st = tg_opening_step(op);
    assert_int_equal(st.min, 1);
    assert_int_equal(st.max, TG_OPENING_MAX_OFFERS);
    expect_refusal(op, tg_opening_declare(op, 0), TG_ERR_ARGUMENT, "must be 1 to 10");
    expect_refusal(op, tg_opening_declare(op, 11), TG_ERR_ARGUMENT, "not 11");
    expect_refusal(op, tg_opening_choose(op, TG_CHOICE_SWAP), TG_ERR_ARGUMENT,
                   "asks for declaring a number");
    assert_int_equal(tg_opening_declare(op, 3), TG_OK);
    assert_int_equal(tg_opening_declared(op), 3);
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    choose(op, TG_CHOICE_SWAP);
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1); /* player 1 is White now */
    place(op, "g9");
    expect_step(op, TG_STEP_OFFER, TG_PLAYER_2);
    assert_int_equal(tg_opening_step(op).count, 3);
    offer(op, "i7 j9 k10");
    expect_step(op, TG_STEP_SELECT, TG_PLAYER_1);
    assert_int_equal(tg_opening_select(op, p15("j9")), TG_OK);
    expect_done(op, "h8 i9 j8 g9 j9", TG_PLAYER_2);
    expect_text(op, "yamaguchi h8 i9 j8 3 swap g9 i7 j9 k10 j9");
    tg_opening_free(op);
}

/* ---- Soosõrv-8 --------------------------------------------------------------------------- */

static void test_soosorv8(void **state) {
    (void)state;
    for (int swaps = 0; swaps < 4; swaps++) {
        TgOpening *op = renju_opening(TG_OPENING_SOOSORV8);
        place(op, "h8 h9 j6"); /* 13D Yusei */
        expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
        choose(op, swaps & 1 ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        const TgPlayer white = swaps & 1 ? TG_PLAYER_1 : TG_PLAYER_2;
        expect_step(op, TG_STEP_PLACE, white);
        place(op, "i9");
        expect_step(op, TG_STEP_DECLARE, white);
        assert_int_equal(tg_opening_step(op).max, 8);
        expect_refusal(op, tg_opening_declare(op, 9), TG_ERR_ARGUMENT, "1 to 8");
        assert_int_equal(tg_opening_declare(op, 2), TG_OK);
        expect_step(op, TG_STEP_CHOOSE, 1 - white); /* Black's swap option */
        choose(op, swaps & 2 ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        const TgPlayer black = swaps & 2 ? white : 1 - white;
        expect_step(op, TG_STEP_OFFER, black);
        assert_int_equal(tg_opening_step(op).count, 2);
        offer(op, "g10 k7");
        expect_step(op, TG_STEP_SELECT, 1 - black);
        assert_int_equal(tg_opening_select(op, p15("k7")), TG_OK);
        expect_done(op, "h8 h9 j6 i9 k7", black);
        tg_opening_free(op);
    }
}

/* ---- Taraguchi-10 ------------------------------------------------------------------------ */

static TgOpening *taraguchi_four(void) {
    TgOpening *op = renju_opening(TG_OPENING_TARAGUCHI10);
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
    assert_int_equal(tg_opening_step(op).count, 1);
    place(op, "h8");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    choose(op, TG_CHOICE_SWAP); /* player 2 Black, player 1 White */
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
    assert_int_equal(tg_opening_step(op).area, 3);
    expect_refusal(op, tg_opening_place(op, p15("h10")), TG_ERR_ARGUMENT, "3x3");
    place(op, "i8");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    choose(op, TG_CHOICE_STAY);
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_2);
    assert_int_equal(tg_opening_step(op).area, 5);
    expect_refusal(op, tg_opening_place(op, p15("h11")), TG_ERR_ARGUMENT, "5x5");
    place(op, "h10");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_1);
    choose(op, TG_CHOICE_SWAP); /* player 1 Black again */
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_2);
    assert_int_equal(tg_opening_step(op).area, 7);
    expect_refusal(op, tg_opening_place(op, p15("l8")), TG_ERR_ARGUMENT, "7x7");
    place(op, "k8");
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_1);
    assert_int_equal(tg_opening_step(op).choices,
                     TG_CHOICE_STAY | TG_CHOICE_SWAP | TG_CHOICE_OFFER);
    return op;
}

static void test_taraguchi_fifth_in_square(void **state) {
    (void)state;
    for (int swaps = 0; swaps < 4; swaps++) {
        TgOpening *op = taraguchi_four();
        choose(op, swaps & 1 ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        const TgPlayer black = swaps & 1 ? TG_PLAYER_2 : TG_PLAYER_1;
        expect_step(op, TG_STEP_PLACE, black);
        assert_int_equal(tg_opening_step(op).area, 9);
        expect_refusal(op, tg_opening_place(op, p15("m8")), TG_ERR_ARGUMENT, "9x9");
        place(op, "l7");
        expect_step(op, TG_STEP_CHOOSE, 1 - black);
        assert_int_equal(tg_opening_step(op).choices, TG_CHOICE_STAY | TG_CHOICE_SWAP);
        choose(op, swaps & 2 ? TG_CHOICE_SWAP : TG_CHOICE_STAY);
        expect_done(op, "h8 i8 h10 k8 l7", swaps & 2 ? 1 - black : black);
        tg_opening_free(op);
    }
}

static void test_taraguchi_ten_offers(void **state) {
    (void)state;
    TgOpening *op = taraguchi_four();
    choose(op, TG_CHOICE_OFFER);
    expect_step(op, TG_STEP_OFFER, TG_PLAYER_1);
    assert_int_equal(tg_opening_step(op).count, 10);
    offer(op, "a1 o15 g9 g8 g7 j9 j7 i10 i6 f8"); /* anywhere on the board */
    expect_step(op, TG_STEP_SELECT, TG_PLAYER_2);
    assert_int_equal(tg_opening_select(op, p15("o15")), TG_OK);
    expect_done(op, "h8 i8 h10 k8 o15", TG_PLAYER_1);
    tg_opening_free(op);
}

/* ---- Wrong steps, undo, text, games ------------------------------------------------------ */

static void test_wrong_steps(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_RIF);
    expect_refusal(op, tg_opening_choose(op, TG_CHOICE_SWAP), TG_ERR_ARGUMENT,
                   "asks for placing a stone");
    expect_refusal(op, tg_opening_offer(op, p15("h8")), TG_ERR_ARGUMENT, "not offering");
    expect_refusal(op, tg_opening_select(op, p15("h8")), TG_ERR_ARGUMENT, "not selecting");
    expect_refusal(op, tg_opening_declare(op, 2), TG_ERR_ARGUMENT, "not declaring");
    place(op, "h8 h9 i10");
    expect_refusal(op, tg_opening_place(op, p15("a1")), TG_ERR_ARGUMENT, "asks for a choice");
    expect_refusal(op, tg_opening_choose(op, TG_CHOICE_OFFER), TG_ERR_ARGUMENT, "not one of");
    expect_refusal(op, tg_opening_choose(op, TG_CHOICE_STAY | TG_CHOICE_SWAP), TG_ERR_ARGUMENT,
                   "not one of");
    choose(op, TG_CHOICE_STAY);
    place(op, "a1");
    offer(op, "j9 i7");
    assert_int_equal(tg_opening_select(op, p15("j9")), TG_OK);
    expect_refusal(op, tg_opening_place(op, p15("b2")), TG_ERR_ARGUMENT, "opening is over");
    assert_string_equal(tg_opening_why(op), "the opening asks for nothing (the opening is over), "
                                            "not placing a stone");
    tg_opening_free(op);
}

static void test_undo(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_SOOSORV8);
    assert_int_equal(tg_opening_undo(op), TG_ERR_NOTHING);
    place(op, "h8 h9 i10");
    choose(op, TG_CHOICE_SWAP);
    place(op, "g9");
    assert_int_equal(tg_opening_declare(op, 3), TG_OK);
    assert_int_equal(tg_opening_undo(op), TG_OK); /* the declaration */
    expect_step(op, TG_STEP_DECLARE, TG_PLAYER_1);
    assert_int_equal(tg_opening_declared(op), 0);
    assert_int_equal(tg_opening_undo(op), TG_OK); /* move 4 */
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
    assert_int_equal(tg_opening_undo(op), TG_OK); /* the swap */
    expect_step(op, TG_STEP_CHOOSE, TG_PLAYER_2);
    assert_int_equal(tg_opening_player_of(op, TG_BLACK), TG_PLAYER_1);
    assert_int_equal(tg_opening_undo(op), TG_OK); /* move 3 */
    expect_step(op, TG_STEP_PLACE, TG_PLAYER_1);
    assert_int_equal(tg_opening_step(op).count, 1);
    assert_int_equal(tg_opening_stones(op, NULL, 0), 2);
    expect_text(op, "soosorv8 h8 h9");
    tg_opening_free(op);
}

static void test_text_round_trip(void **state) {
    (void)state;
    static const char *const lines[] = {
        "swap2 h8 i9 j7 place-two g9 k6 swap",
        "rif h8 h9 h10 stay h11 g9 i10 i10",
        "yamaguchi h8 i9 j8 3 swap g9 i7 j9 k10 j9",
        "soosorv8 h8 h9 j6 stay i9 2 swap g10 k7 k7",
        "taraguchi10 h8 swap i8 stay h10 swap k8 offer a1 o15 g9 g8 g7 j9 j7 i10 i6 f8 o15",
        "taraguchi10 h8 stay i8 stay h10 stay k8 swap l7 stay",
        "swap1 b2",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char err[128] = "";
        TgOpening *op = tg_opening_from_text(lines[i], TG_RENJU, 15, err, sizeof err);
        if (!op) fail_msg("%s: %s", lines[i], err);
        expect_text(op, lines[i]);
        TgOpening *copy = tg_opening_clone(op);
        expect_text(copy, lines[i]);
        tg_opening_free(copy);
        tg_opening_free(op);
    }
    char err[128];
    assert_null(tg_opening_from_text("rif h8 h9 h11", TG_RENJU, 15, err, sizeof err));
    assert_non_null(strstr(err, "outside the central 5x5"));
    assert_null(tg_opening_from_text("rif h8 h9 h10 maybe", TG_RENJU, 15, err, sizeof err));
    assert_non_null(strstr(err, "not a choice"));
    assert_null(tg_opening_from_text("chess e4", TG_RENJU, 15, err, sizeof err));
    assert_null(
        tg_opening_from_text("rif h8 h9 h10 stay h11 g9 i9", TG_RENJU, 15, err, sizeof err));
    assert_non_null(strstr(err, "symmetric"));
}

static void test_game(void **state) {
    (void)state;
    TgOpening *op =
        tg_opening_from_text("swap2 h8 i9 j7 place-two g9 k6 swap", TG_STANDARD, 15, NULL, 0);
    TgGame *g = tg_opening_game(op);
    assert_non_null(g);
    assert_int_equal(tg_game_rule(g), TG_STANDARD);
    assert_int_equal(tg_game_ply(g), 5);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(tg_game_stone(g, p15("k6")), TG_BLACK);
    assert_int_equal(tg_game_stone(g, p15("g9")), TG_WHITE);
    assert_string_equal(tg_game_info(g, "opening"), "swap2 h8 i9 j7 place-two g9 k6 swap");
    tg_game_free(g);
    tg_opening_free(op);
}

/// SGF keeps the opening phase in tengen's OPENING[] property, and reads it back.
static void test_sgf_keeps_the_opening(void **state) {
    (void)state;
    const char *line = "rif h8 h9 h10 swap h11 g9 i10 i10";
    TgOpening *op = tg_opening_from_text(line, TG_RENJU, 15, NULL, 0);
    TgGame *g = tg_opening_game(op);
    char err[128];
    size_t len;
    char *sgf = tg_record_write(g, TG_FORMAT_SGF, &len, err, sizeof err);
    assert_non_null(sgf);
    assert_non_null(strstr(sgf, "OPENING[rif h8 h9 h10 swap h11 g9 i10 i10]"));
    TgGame *back = tg_record_read(TG_FORMAT_SGF, sgf, len, TG_RENJU, 0, err, sizeof err);
    assert_non_null(back);
    assert_string_equal(tg_game_info(back, "opening"), line);
    assert_int_equal(tg_game_ply(back), 5);
    TgOpening *again = tg_opening_from_text(tg_game_info(back, "opening"), tg_game_rule(back),
                                            tg_game_width(back), NULL, 0);
    assert_non_null(again);
    assert_int_equal(tg_opening_player_of(again, TG_BLACK), TG_PLAYER_2);
    tg_opening_free(again);
    tg_game_free(back);
    free(sgf);
    tg_game_free(g);
    tg_opening_free(op);
}

static void test_step_texts(void **state) {
    (void)state;
    TgOpening *op = renju_opening(TG_OPENING_TARAGUCHI10);
    char buf[256];
    tg_opening_step_text(op, buf, sizeof buf);
    assert_string_equal(buf, "Player 1: place a black stone on the centre point");
    place(op, "h8");
    tg_opening_step_text(op, buf, sizeof buf);
    assert_string_equal(buf, "Player 2 (white): stay white or swap to black");
    choose(op, TG_CHOICE_STAY);
    tg_opening_step_text(op, buf, sizeof buf);
    assert_string_equal(buf, "Player 2: place a white stone in the central 3x3 square");
    tg_opening_free(op);
    op = tg_opening_from_text("swap2 h8 i9 j7", TG_STANDARD, 15, NULL, 0);
    tg_opening_step_text(op, buf, sizeof buf);
    assert_non_null(strstr(buf, "or place two more stones"));
    tg_opening_free(op);
}

/* ---- The engine's decisions -------------------------------------------------------------- */

static const TgOpeningLimits FAST = {.nodes = 3000, .seed = 7, .candidates = 4};

/// The engine takes every decision of the opening; returns the text of the result.
static void engine_plays(TgEngine *e, TgOpeningRule rule, TgRule game_rule, uint64_t seed,
                         char *text, size_t size) {
    TgOpening *op = tg_opening_new(rule, game_rule, 15);
    TgOpeningLimits lim = FAST;
    lim.seed = seed;
    for (int guard = 0; !tg_opening_done(op) && guard < 32; guard++) {
        TgOpeningDecision d;
        assert_int_equal(tg_opening_decide(e, op, &lim, &d), TG_OK);
        assert_int_equal(d.kind, tg_opening_step(op).kind);
        assert_true(d.why[0] != '\0');
        const TgError err = tg_opening_apply(op, &d);
        if (err != TG_OK) fail_msg("decision refused: %s", tg_opening_why(op));
    }
    assert_true(tg_opening_done(op));
    TgOpeningDecision d;
    assert_int_equal(tg_opening_decide(e, op, &lim, &d), TG_ERR_GAME_OVER);
    tg_opening_text(op, text, size);
    tg_opening_free(op);
}

static void test_engine_plays_every_rule(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    for (int r = TG_OPENING_SWAP1; r < TG_OPENING_RULE_COUNT; r++) {
        char a[512], b[512];
        const TgRule game_rule = r >= TG_OPENING_RIF ? TG_RENJU : TG_STANDARD;
        engine_plays(e, (TgOpeningRule)r, game_rule, 11, a, sizeof a);
        engine_plays(e, (TgOpeningRule)r, game_rule, 11, b, sizeof b);
        assert_string_equal(a, b); /* the same seed, the same opening */
        TgOpening *check = tg_opening_from_text(a, game_rule, 15, NULL, 0);
        assert_non_null(check);
        assert_true(tg_opening_done(check));
        if (r >= TG_OPENING_RIF && r != TG_OPENING_TARAGUCHI10)
            assert_true(tg_opening_renju_index(check) >= 0);
        tg_opening_free(check);
    }
    tg_engine_free(e);
}

/// The engine takes a clear side: a black open four in swap1/swap2 is taken.
static void test_engine_takes_the_better_side(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgOpening *op = tg_opening_from_text("swap2 h8 a1 i8", TG_STANDARD, 15, NULL, 0);
    TgOpeningDecision d;
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.kind, TG_STEP_CHOOSE);
    assert_int_equal(d.choice, TG_CHOICE_SWAP); /* take Black: two in a row, White far away */
    tg_opening_free(op);
    /* After five stones where Black has an open three, player 1 keeps Black. */
    op = tg_opening_from_text("swap2 h8 a1 i8 place-two a15 j8", TG_STANDARD, 15, NULL, 0);
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.choice, TG_CHOICE_STAY);
    assert_true(d.score > 0);
    tg_opening_free(op);
    /* Choosing among offers: White picks the offer that does not make Black an open four. */
    op = tg_opening_from_text("rif h8 h9 j8 stay a1 i8 a15", TG_RENJU, 15, NULL, 0);
    assert_non_null(op);
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.kind, TG_STEP_SELECT);
    assert_true(same_point(d.points[0], p15("a15")));
    tg_opening_free(op);
    tg_engine_free(e);
}

static void test_engine_offers_and_declares(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgOpening *op = tg_opening_from_text("yamaguchi h8 i9 j8 3 stay g9", TG_RENJU, 15, NULL, 0);
    TgOpeningDecision d;
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.kind, TG_STEP_OFFER);
    assert_int_equal(d.count, 3);
    assert_int_equal(tg_opening_apply(op, &d), TG_OK); /* three offers, none symmetric */
    assert_int_equal(tg_opening_step(op).kind, TG_STEP_SELECT);
    tg_opening_free(op);
    op = tg_opening_from_text("soosorv8 h8 h9 j6 stay i9", TG_RENJU, 15, NULL, 0);
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.kind, TG_STEP_DECLARE);
    assert_true(d.number >= 1 && d.number <= 8);
    tg_opening_free(op);
    tg_engine_free(e);
}

/// The engine completes an opening a person started: the stones placed stay, and under RIF
/// the result is one of the 26.
static void test_engine_completes_an_opening(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgOpening *op = tg_opening_from_text("rif h8 g9", TG_RENJU, 15, NULL, 0);
    TgOpeningDecision d;
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.count, 1);
    assert_int_equal(tg_opening_apply(op, &d), TG_OK);
    assert_true(tg_opening_renju_index(op) >= 13); /* indirect: g9 is diagonal to h8 */
    tg_opening_free(op);
    op = tg_opening_from_text("swap2 h8", TG_STANDARD, 15, NULL, 0);
    assert_int_equal(tg_opening_decide(e, op, &FAST, &d), TG_OK);
    assert_int_equal(d.count, 2);
    assert_int_equal(tg_opening_apply(op, &d), TG_OK);
    assert_int_equal(tg_opening_step(op).kind, TG_STEP_CHOOSE);
    tg_opening_free(op);
    tg_engine_free(e);
}

static void test_balanced(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgBalanced a, b;
    assert_int_equal(tg_opening_balanced(e, TG_RENJU, 15, &FAST, &a), TG_OK);
    assert_true(a.opening >= 0); /* renju: one of the 26 */
    assert_true(a.nodes > 0);
    assert_int_equal(tg_opening_balanced(e, TG_RENJU, 15, &FAST, &b), TG_OK);
    assert_int_equal(a.opening, b.opening);
    assert_int_equal(a.score, b.score);
    assert_int_equal(tg_opening_balanced(e, TG_FREESTYLE, 15, &FAST, &a), TG_OK);
    assert_true(same_point(a.stones[0], p15("h8")));
    assert_false(same_point(a.stones[1], a.stones[2]));
    tg_engine_free(e);
}

/// The opening budgets by level: the stronger level never searches less; every level searches.
static void test_level_nodes(void **state) {
    (void)state;
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_MAX), 1000000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_HARD), 300000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_MEDIUM), 100000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_EASY), 20000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_BEGINNER), 20000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_MCTS), 100000);
    assert_int_equal(tg_opening_level_nodes(TG_LEVEL_ZERO), 100000);
    for (int l = TG_LEVEL_MAX; l < TG_LEVEL_BEGINNER; l++)
        assert_true(tg_opening_level_nodes((TgLevel)l) >= tg_opening_level_nodes((TgLevel)(l + 1)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_rules),
        cmocka_unit_test(test_every_orientation_is_recognised),
        cmocka_unit_test(test_all_placements_are_the_26),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_level_nodes),
        cmocka_unit_test(test_new_checks_the_board),
        cmocka_unit_test(test_swap1),
        cmocka_unit_test(test_classic_swap),
        cmocka_unit_test(test_swap2_take_white),
        cmocka_unit_test(test_swap2_take_black),
        cmocka_unit_test(test_swap2_place_two),
        cmocka_unit_test(test_rif_squares),
        cmocka_unit_test(test_rif_stay_and_swap),
        cmocka_unit_test(test_rif_asymmetric_offers),
        cmocka_unit_test(test_yamaguchi),
        cmocka_unit_test(test_soosorv8),
        cmocka_unit_test(test_taraguchi_fifth_in_square),
        cmocka_unit_test(test_taraguchi_ten_offers),
        cmocka_unit_test(test_wrong_steps),
        cmocka_unit_test(test_undo),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_game),
        cmocka_unit_test(test_sgf_keeps_the_opening),
        cmocka_unit_test(test_step_texts),
        cmocka_unit_test(test_engine_plays_every_rule),
        cmocka_unit_test(test_engine_takes_the_better_side),
        cmocka_unit_test(test_engine_offers_and_declares),
        cmocka_unit_test(test_engine_completes_an_opening),
        cmocka_unit_test(test_balanced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
