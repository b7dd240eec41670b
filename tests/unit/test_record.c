/*
 * test_record.c — game records (formats.md §3, §5, §7): known-answer bytes in every format,
 * round trips of an asymmetric position and of long games, 20x20 and rectangular boards,
 * results and names, the good files in tests/data/records and the bad ones in
 * tests/data/malformed (each must be refused with a message).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

static const TgFormat ALL_FORMATS[] = {TG_FORMAT_PSQ, TG_FORMAT_SGF, TG_FORMAT_POS,
                                       TG_FORMAT_MOVES};

/* ---- Helpers ---- */

/// A game from an h8 move list, every move played by the rules (a foul may end it).
static TgGame *game_from(const char *moves, TgRule rule, int width, int height) {
    TgGame *g = tg_game_new(rule, width, height);
    assert_non_null(g);
    tg_game_set_fouls_playable(g, true);
    TgPoint points[512];
    int n = 0;
    char err[128];
    assert_int_equal(tg_parse_moves(moves, width, height, points, 512, &n, err, sizeof err), TG_OK);
    assert_int_equal(tg_game_set_moves(g, points, n, NULL), TG_OK);
    tg_game_set_fouls_playable(g, false);
    return g;
}

static TgGame *read_ok(TgFormat format, const char *data, size_t len, TgRule rule, int size) {
    char err[256] = "";
    TgGame *g = tg_record_read(format, data, len, rule, size, err, sizeof err);
    if (!g) print_error("unexpected read error: %s\n", err);
    assert_non_null(g);
    assert_string_equal(err, "");
    return g;
}

static TgGame *read_text_ok(TgFormat format, const char *text, TgRule rule, int size) {
    return read_ok(format, text, strlen(text), rule, size);
}

static char *write_ok(const TgGame *g, TgFormat format, size_t *len) {
    char err[256] = "";
    char *out = tg_record_write(g, format, len, err, sizeof err);
    if (!out) print_error("unexpected write error: %s\n", err);
    assert_non_null(out);
    return out;
}

/// The record must be refused with a message containing `needle`.
static void expect_read_error(TgFormat format, const char *data, size_t len, TgRule rule, int size,
                              const char *needle) {
    char err[256] = "";
    TgGame *g = tg_record_read(format, data, len, rule, size, err, sizeof err);
    if (g) print_error("accepted a bad record; wanted an error with \"%s\"\n", needle);
    assert_null(g);
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
    if (!strstr(err, needle)) print_error("error \"%s\" lacks \"%s\"\n", err, needle);
    assert_non_null(strstr(err, needle));
}

static void expect_text_error(TgFormat format, const char *text, TgRule rule, const char *needle) {
    expect_read_error(format, text, strlen(text), rule, 0, needle);
}

static void expect_write_error(const TgGame *g, TgFormat format, const char *needle) {
    char err[256] = "";
    size_t len = 77;
    char *out = tg_record_write(g, format, &len, err, sizeof err);
    assert_null(out);
    assert_non_null(strstr(err, needle));
}

static void assert_same_game(const TgGame *a, const TgGame *b) {
    assert_int_equal(tg_game_width(a), tg_game_width(b));
    assert_int_equal(tg_game_height(a), tg_game_height(b));
    assert_int_equal(tg_game_ply(a), tg_game_ply(b));
    for (int i = 0; i < tg_game_ply(a); i++) {
        TgPoint p = tg_game_move(a, i), q = tg_game_move(b, i);
        assert_int_equal(p.x, q.x);
        assert_int_equal(p.y, q.y);
    }
}

static void assert_same_result(const TgGame *a, const TgGame *b) {
    TgResult ra = tg_game_result(a), rb = tg_game_result(b);
    assert_int_equal(ra.reason, rb.reason);
    assert_int_equal(ra.winner, rb.winner);
}

/// Size argument a reader needs for this game's record in `format`.
static int size_for(const TgGame *g, TgFormat format) {
    return format == TG_FORMAT_MOVES || format == TG_FORMAT_POS ? tg_game_width(g) : 0;
}

/// write then read in one format: the same moves, size, and (SGF) rule and result.
static void check_round_trip(const TgGame *g, TgFormat format) {
    size_t len;
    char *out = write_ok(g, format, &len);
    TgGame *back = read_ok(format, out, len, tg_game_rule(g), size_for(g, format));
    assert_same_game(g, back);
    if (format == TG_FORMAT_SGF) {
        assert_int_equal(tg_game_rule(back), tg_game_rule(g));
        assert_same_result(g, back);
    }
    /* Writing the read game again gives the same bytes. */
    size_t len2;
    char *again = write_ok(back, format, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(out, again, len);
    free(again);
    free(out);
    tg_game_free(back);
}

static void check_written(const TgGame *g, TgFormat format, const char *want, size_t want_len) {
    size_t len = 0;
    char *out = write_ok(g, format, &len);
    assert_int_equal(len, want_len);
    assert_memory_equal(out, want, want_len);
    free(out);
}

static void check_written_text(const TgGame *g, TgFormat format, const char *want) {
    check_written(g, format, want, strlen(want));
}

/* ---- Formats by name ---- */

static void test_format_from_path(void **state) {
    (void)state;
    assert_int_equal(tg_format_from_path("game.psq"), TG_FORMAT_PSQ);
    assert_int_equal(tg_format_from_path("dir/GAME.SGF"), TG_FORMAT_SGF);
    assert_int_equal(tg_format_from_path("a.b/c.Pos"), TG_FORMAT_POS);
    assert_int_equal(tg_format_from_path("moves.txt"), TG_FORMAT_MOVES);
    assert_int_equal(tg_format_from_path("x.psq.bak"), TG_FORMAT_UNKNOWN);
    assert_int_equal(tg_format_from_path("dir.sgf/file"), TG_FORMAT_UNKNOWN);
    assert_int_equal(tg_format_from_path("noextension"), TG_FORMAT_UNKNOWN);
    assert_int_equal(tg_format_from_path("x.psqq"), TG_FORMAT_UNKNOWN);
    assert_int_equal(tg_format_from_path("x."), TG_FORMAT_UNKNOWN);
    assert_int_equal(tg_format_from_path(NULL), TG_FORMAT_UNKNOWN);
}

static void test_format_names(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof ALL_FORMATS / sizeof ALL_FORMATS[0]; i++) {
        char path[32];
        snprintf(path, sizeof path, "x.%s", tg_format_name(ALL_FORMATS[i]));
        assert_int_equal(tg_format_from_path(path), ALL_FORMATS[i]);
    }
    assert_string_equal(tg_format_name(TG_FORMAT_UNKNOWN), "unknown");
}

/* ---- Known-answer bytes (hand-derived from formats.md) ---- */

static void test_psq_known_answer(void **state) {
    (void)state;
    TgGame *g = game_from("h8 i9", TG_FREESTYLE, 15, 15);
    /* formats.md §3's example: 1-based, column then row from the top. */
    check_written_text(g, TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n0\n");
    tg_game_free(g);
    g = game_from("h8 h9 i10 k3", TG_FREESTYLE, 15, 15);
    check_written_text(g, TG_FORMAT_PSQ,
                       "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,7,0\n9,6,0\n11,13,0\n0\n");
    tg_game_free(g);
}

static void test_sgf_known_answer(void **state) {
    (void)state;
    TgGame *g = game_from("h8 h9", TG_FREESTYLE, 15, 15);
    check_written_text(g, TG_FORMAT_SGF, "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh];W[hg])\n");
    tg_game_free(g);
    g = game_from("h8 h9 i10 k3 a1 a15 o1", TG_RENJU, 15, 15);
    check_written_text(g, TG_FORMAT_SGF,
                       "(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[hg];B[if];W[km];B[ao];W[aa];B[oo])\n");
    tg_game_free(g);
}

static void test_pos_known_answer(void **state) {
    (void)state;
    TgGame *g = game_from("h8 h9 i10 k3", TG_FREESTYLE, 15, 15);
    /* row_from_top * 15 + col: h8 = 112, h9 = 97, i10 = 83, k3 = 190. */
    static const char want[] = {4, 112, 97, 83, (char)190};
    check_written(g, TG_FORMAT_POS, want, sizeof want);
    tg_game_free(g);
    g = game_from("a15 o1", TG_FREESTYLE, 15, 15);
    static const char corners[] = {2, 0, (char)224};
    check_written(g, TG_FORMAT_POS, corners, sizeof corners);
    tg_game_free(g);
}

static void test_moves_known_answer(void **state) {
    (void)state;
    TgGame *g = game_from("h8h9i10k3", TG_FREESTYLE, 15, 15);
    check_written_text(g, TG_FORMAT_MOVES, "h8 h9 i10 k3\n");
    tg_game_free(g);
    g = tg_game_new(TG_FREESTYLE, 15, 15);
    check_written_text(g, TG_FORMAT_MOVES, "\n");
    tg_game_free(g);
}

static void test_asymmetric_reads_back_in_every_format(void **state) {
    (void)state;
    static const char pos[] = {4, 112, 97, 83, (char)190};
    struct {
        TgFormat format;
        const char *data;
        size_t len;
    } files[] = {
        {TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,7,0\n9,6,0\n11,13,0\n0\n", 0},
        {TG_FORMAT_SGF, "(;FF[4]GM[4]SZ[15];B[hh];W[hg];B[if];W[km])", 0},
        {TG_FORMAT_POS, pos, sizeof pos},
        {TG_FORMAT_MOVES, "h8 h9 i10 k3", 0},
    };
    TgGame *want = game_from("h8 h9 i10 k3", TG_FREESTYLE, 15, 15);
    for (size_t i = 0; i < 4; i++) {
        size_t len = files[i].len ? files[i].len : strlen(files[i].data);
        TgGame *g = read_ok(files[i].format, files[i].data, len, TG_FREESTYLE, 0);
        assert_same_game(want, g);
        assert_int_equal(tg_game_stone(g, (TgPoint){10, 12}), TG_WHITE); /* k3 */
        tg_game_free(g);
    }
    tg_game_free(want);
}

/* ---- Round trips ---- */

static void test_asymmetric_round_trips(void **state) {
    (void)state;
    for (int rule = 0; rule < TG_RULE_COUNT; rule++) {
        TgGame *g = game_from("h8 h9 i10 k3", (TgRule)rule, 15, 15);
        for (size_t f = 0; f < 4; f++) check_round_trip(g, ALL_FORMATS[f]);
        tg_game_free(g);
    }
}

/// A long legal game: seeded pseudo-random moves, skipping any that would end the game.
static TgGame *long_game(TgRule rule, int width, int height, int plies, uint32_t seed) {
    TgGame *g = tg_game_new(rule, width, height);
    assert_non_null(g);
    for (int tries = 0; tg_game_ply(g) < plies && tries < 100000; tries++) {
        seed = seed * 1103515245u + 12345u;
        TgPoint p = {(int)((seed >> 8) % (uint32_t)width), (int)((seed >> 20) % (uint32_t)height)};
        if (tg_game_play(g, p, 0) != TG_OK) continue;
        if (tg_game_over(g)) tg_game_undo(g);
    }
    assert_int_equal(tg_game_ply(g), plies);
    return g;
}

static void test_long_games_round_trip(void **state) {
    (void)state;
    TgGame *g = long_game(TG_FREESTYLE, 15, 15, 150, 1);
    for (size_t f = 0; f < 4; f++) check_round_trip(g, ALL_FORMATS[f]);
    tg_game_free(g);
    g = long_game(TG_RENJU, 15, 15, 120, 7);
    for (size_t f = 0; f < 4; f++) check_round_trip(g, ALL_FORMATS[f]);
    tg_game_free(g);
    g = long_game(TG_STANDARD, 20, 20, 300, 3);
    check_round_trip(g, TG_FORMAT_PSQ);
    check_round_trip(g, TG_FORMAT_SGF);
    check_round_trip(g, TG_FORMAT_MOVES);
    expect_write_error(g, TG_FORMAT_POS, "15x15");
    tg_game_free(g);
    g = long_game(TG_CARO9, 22, 22, 400, 5);
    check_round_trip(g, TG_FORMAT_PSQ);
    check_round_trip(g, TG_FORMAT_SGF);
    check_round_trip(g, TG_FORMAT_MOVES);
    tg_game_free(g);
}

static void test_board_20(void **state) {
    (void)state;
    /* k10 is the centre of 20x20: protocol 10,10, PSQ 11,11, SGF "kk". */
    TgGame *g = game_from("k10 a1 t20 a20 t1", TG_FREESTYLE, 20, 20);
    check_written_text(g, TG_FORMAT_PSQ,
                       "Piskvorky 20x20, 11:11, 0\n11,11,0\n1,20,0\n20,1,0\n1,1,0\n20,20,0\n0\n");
    check_written_text(g, TG_FORMAT_SGF,
                       "(;FF[4]GM[4]SZ[20]RU[freestyle];B[kk];W[at];B[ta];W[aa];B[tt])\n");
    check_written_text(g, TG_FORMAT_MOVES, "k10 a1 t20 a20 t1\n");
    for (size_t f = 0; f < 4; f++)
        if (ALL_FORMATS[f] != TG_FORMAT_POS) check_round_trip(g, ALL_FORMATS[f]);
    tg_game_free(g);
}

static void test_rectangular_board(void **state) {
    (void)state;
    TgGame *g = game_from("a1 o20 h8", TG_STANDARD, 15, 20);
    check_written_text(g, TG_FORMAT_PSQ, "Piskvorky 15x20, 11:11, 0\n1,20,0\n15,1,0\n8,13,0\n0\n");
    check_written_text(g, TG_FORMAT_SGF, "(;FF[4]GM[4]SZ[15:20]RU[standard];B[at];W[oa];B[hm])\n");
    check_round_trip(g, TG_FORMAT_PSQ);
    check_round_trip(g, TG_FORMAT_SGF);
    expect_write_error(g, TG_FORMAT_MOVES, "square");
    expect_write_error(g, TG_FORMAT_POS, "15x15");
    tg_game_free(g);
    g = read_text_ok(TG_FORMAT_SGF, "(;GM[4]SZ[20:7];B[ta];W[ag])", TG_FREESTYLE, 0);
    assert_int_equal(tg_game_width(g), 20);
    assert_int_equal(tg_game_height(g), 7);
    assert_int_equal(tg_game_stone(g, (TgPoint){0, 6}), TG_WHITE);
    tg_game_free(g);
}

static void test_write_stops_at_the_current_ply(void **state) {
    (void)state;
    TgGame *g = game_from("h8 h9 i10 k3", TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    check_written_text(g, TG_FORMAT_MOVES, "h8 h9\n");
    check_written_text(g, TG_FORMAT_SGF, "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh];W[hg])\n");
    tg_game_free(g);
}

/* ---- Results ---- */

/// SGF with RE[want] for this game, and the result must read back the same.
static void check_sgf_result(TgGame *g, const char *want) {
    size_t len;
    char *out = write_ok(g, TG_FORMAT_SGF, &len);
    char re[32];
    snprintf(re, sizeof re, "RE[%s]", want);
    assert_non_null(strstr(out, re));
    TgGame *back = read_ok(TG_FORMAT_SGF, out, len, TG_FREESTYLE, 0);
    assert_same_game(g, back);
    assert_same_result(g, back);
    free(out);
    tg_game_free(back);
}

static void test_results_survive_sgf(void **state) {
    (void)state;
    TgGame *g = game_from("a1 a2 b1 b2 c1 c2 d1 d2 e1", TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FIVE);
    check_sgf_result(g, "B+");
    tg_game_free(g);
    g = game_from("h8 i9 h9", TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_resign(g, TG_WHITE), TG_OK);
    check_sgf_result(g, "B+R");
    tg_game_free(g);
    g = game_from("h8 i9 h9 a1", TG_STANDARD, 15, 15);
    tg_game_set_result(g, (TgResult){.reason = TG_REASON_TIME, .winner = TG_WHITE});
    check_sgf_result(g, "W+T");
    tg_game_free(g);
    g = game_from("h8 i9", TG_RENJU, 15, 15);
    assert_int_equal(tg_game_agree_draw(g), TG_OK);
    check_sgf_result(g, "0");
    tg_game_free(g);
    g = game_from("h8 pass i9 pass pass", TG_FREESTYLE, 15, 15);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_PASSES);
    check_sgf_result(g, "0");
    tg_game_free(g);
}

/// Black h8 makes two open threes (h6-h7-h8 and h8-i8-j8): a 3-3 foul in renju.
static const char FOUL_GAME[] = "h6 a1 h7 a3 i8 a5 j8 a7 h8";

static void test_foul_ends_a_record(void **state) {
    (void)state;
    TgGame *g = game_from("h6 a1 h7 a3 i8 a5 j8 a7", TG_RENJU, 15, 15);
    assert_int_equal(tg_game_foul_at(g, (TgPoint){7, 7}), TG_FOUL_DOUBLE_THREE);
    tg_game_set_fouls_playable(g, true);
    assert_int_equal(tg_game_play(g, (TgPoint){7, 7}, 0), TG_OK);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FOUL);
    check_sgf_result(g, "W+F");
    for (size_t f = 0; f < 4; f++) check_round_trip(g, ALL_FORMATS[f]);
    tg_game_free(g);
    /* A move list that ends with the foul is the game White won by it. */
    g = read_text_ok(TG_FORMAT_MOVES, FOUL_GAME, TG_RENJU, 15);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FOUL);
    assert_int_equal(tg_game_result(g).winner, TG_WHITE);
    tg_game_free(g);
}

static void test_foul_inside_a_record_is_refused(void **state) {
    (void)state;
    char text[64];
    snprintf(text, sizeof text, "%s a9", FOUL_GAME);
    expect_text_error(TG_FORMAT_MOVES, text, TG_RENJU,
                      "move 9 'h8' is a renju foul for Black (33)");
    /* Freestyle has no fouls: the same list is fine. */
    TgGame *g = read_text_ok(TG_FORMAT_MOVES, text, TG_FREESTYLE, 0);
    assert_int_equal(tg_game_ply(g), 10);
    tg_game_free(g);
    expect_text_error(
        TG_FORMAT_SGF,
        "(;GM[4]RU[renju];B[hj];W[aa];B[hi];W[ac];B[ih];W[ae];B[jh];W[ag];B[hh]RE[B+])",
        TG_FREESTYLE, "RE[B+] contradicts the board (white won: foul)");
}

static void test_sgf_result_values(void **state) {
    (void)state;
    static const struct {
        const char *re;
        TgReason reason;
        TgColor winner;
    } cases[] = {
        {"B+", TG_REASON_RESIGN, TG_BLACK},        {"W+R", TG_REASON_RESIGN, TG_WHITE},
        {"B+Resign", TG_REASON_RESIGN, TG_BLACK},  {"W+T", TG_REASON_TIME, TG_WHITE},
        {"B+Time", TG_REASON_TIME, TG_BLACK},      {"W+F", TG_REASON_RESIGN, TG_WHITE},
        {"B+Forfeit", TG_REASON_RESIGN, TG_BLACK}, {"W+3.5", TG_REASON_RESIGN, TG_WHITE},
        {"0", TG_REASON_AGREEMENT, TG_NOBODY},     {"Draw", TG_REASON_AGREEMENT, TG_NOBODY},
        {"Void", TG_REASON_NONE, TG_NOBODY},       {"?", TG_REASON_NONE, TG_NOBODY},
        {"", TG_REASON_NONE, TG_NOBODY},           {" W+R\n", TG_REASON_RESIGN, TG_WHITE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[96];
        snprintf(text, sizeof text, "(;FF[4]GM[4]SZ[15]RE[%s];B[hh];W[ii])", cases[i].re);
        TgGame *g = read_text_ok(TG_FORMAT_SGF, text, TG_FREESTYLE, 0);
        assert_int_equal(tg_game_result(g).reason, cases[i].reason);
        assert_int_equal(tg_game_result(g).winner, cases[i].winner);
        tg_game_free(g);
    }
    /* RE agreeing with a five keeps the board's own account of it. */
    TgGame *g = read_text_ok(
        TG_FORMAT_SGF, "(;GM[4]RE[B+R];B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[da];W[db];B[ea])",
        TG_FREESTYLE, 0);
    assert_int_equal(tg_game_result(g).reason, TG_REASON_FIVE);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    tg_game_free(g);
}

static void test_psq_timeout(void **state) {
    (void)state;
    TgGame *g = read_text_ok(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n15\n",
                             TG_FREESTYLE, 0);
    /* Three moves: White was to move and ran out of time. */
    assert_int_equal(tg_game_result(g).reason, TG_REASON_TIME);
    assert_int_equal(tg_game_result(g).winner, TG_BLACK);
    check_written_text(g, TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n15\n");
    check_sgf_result(g, "B+T");
    tg_game_free(g);
}

/* ---- Names and info ---- */

static void set_names(TgGame *g, const char *black, const char *white) {
    tg_game_set_info(g, "black", black);
    tg_game_set_info(g, "white", white);
}

static void check_names(const TgGame *g, const char *black, const char *white) {
    const char *b = tg_game_info(g, "black"), *w = tg_game_info(g, "white");
    if (black)
        assert_string_equal(b, black);
    else
        assert_null(b);
    if (white)
        assert_string_equal(w, white);
    else
        assert_null(w);
}

/// Names through a format and back.
static void check_names_survive(TgFormat format, const char *black, const char *white) {
    TgGame *g = game_from("h8 h9 i10 k3", TG_FREESTYLE, 15, 15);
    set_names(g, black, white);
    size_t len;
    char *out = write_ok(g, format, &len);
    TgGame *back = read_ok(format, out, len, TG_FREESTYLE, 0);
    check_names(back, black, white);
    free(out);
    tg_game_free(back);
    tg_game_free(g);
}

static void test_names_survive_psq_and_sgf(void **state) {
    (void)state;
    TgFormat formats[] = {TG_FORMAT_PSQ, TG_FORMAT_SGF};
    for (int f = 0; f < 2; f++) {
        check_names_survive(formats[f], "Alice", "Bob");
        check_names_survive(formats[f], "Alice", NULL);
        check_names_survive(formats[f], NULL, "Bob");
        check_names_survive(formats[f], "Ann [x] \\ y: z", "tengen 0.1 (renju) ;)");
        check_names_survive(formats[f], "Zoë 名人", "x,y");
    }
    TgGame *g = game_from("h8 i9", TG_FREESTYLE, 15, 15);
    set_names(g, "A]\\B", "W");
    check_written_text(g, TG_FORMAT_SGF,
                       "(;FF[4]GM[4]SZ[15]RU[freestyle]PB[A\\]\\\\B]PW[W];B[hh];W[ig])\n");
    check_written_text(g, TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\nA]\\B\nW\n0\n");
    tg_game_free(g);
}

static void test_psq_refuses_names_it_could_not_read_back(void **state) {
    (void)state;
    TgGame *g = game_from("h8", TG_FREESTYLE, 15, 15);
    static const char *const bad[] = {"3,4", "12", "-1", "1,Freestyle"};
    for (int i = 0; i < 4; i++) {
        set_names(g, bad[i], "Bob");
        expect_write_error(g, TG_FORMAT_PSQ, "name");
        set_names(g, "Bob", bad[i]);
        expect_write_error(g, TG_FORMAT_PSQ, "name");
    }
    tg_game_free(g);
}

static void test_sgf_info_fields(void **state) {
    (void)state;
    TgGame *g = game_from("h8 i9", TG_RENJU, 15, 15);
    tg_game_set_info(g, "date", "2024-05-01");
    tg_game_set_info(g, "event", "Club [night]");
    tg_game_set_info(g, "comment", "two\nlines \\ and ]");
    check_written_text(g, TG_FORMAT_SGF,
                       "(;FF[4]GM[4]SZ[15]RU[renju]DT[2024-05-01]EV[Club [night\\]]"
                       "C[two\nlines \\\\ and \\]];B[hh];W[ig])\n");
    size_t len;
    char *out = write_ok(g, TG_FORMAT_SGF, &len);
    TgGame *back = read_ok(TG_FORMAT_SGF, out, len, TG_FREESTYLE, 0);
    assert_string_equal(tg_game_info(back, "date"), "2024-05-01");
    assert_string_equal(tg_game_info(back, "event"), "Club [night]");
    assert_string_equal(tg_game_info(back, "comment"), "two\nlines \\ and ]");
    assert_int_equal(tg_game_rule(back), TG_RENJU);
    free(out);
    tg_game_free(back);
    tg_game_free(g);
}

static void test_psq_times_and_start_player(void **state) {
    (void)state;
    const char *text = "Piskvorky 15x15, 11:11, 1\r\n8,8,1200\r\n9,9,350\r\n7,9\r\n"
                       "Alice\r\nBob\r\n0\r\n";
    TgGame *g = read_text_ok(TG_FORMAT_PSQ, text, TG_FREESTYLE, 0);
    check_names(g, "Bob", "Alice"); /* S = 1: brain 2 started, so it played Black */
    assert_int_equal(tg_game_ply(g), 3);
    /* Move times are kept; names are written Black first with S = 0. */
    check_written_text(g, TG_FORMAT_PSQ,
                       "Piskvorky 15x15, 11:11, 0\n8,8,1200\n9,9,350\n7,9,0\nBob\nAlice\n0\n");
    tg_game_free(g);
}

static void test_psq_tolerates_third_party_endings(void **state) {
    (void)state;
    static const char *const endings[] = {
        "",       "0\n", "-1\n", "1,Freestyle\n-1\n0\n", "x\n", "A\nB\n", "A\nB\nC\nD\n0\n",
        "\n\n\n", "0"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "Piskvorky 15x15, 0:0, 0\n8,8\n9,9,5\n%s", endings[i]);
        TgGame *g = read_text_ok(TG_FORMAT_PSQ, text, TG_FREESTYLE, 0);
        assert_int_equal(tg_game_ply(g), 2);
        check_names(g, NULL, NULL);
        assert_false(tg_game_over(g));
        tg_game_free(g);
    }
}

/* ---- SGF specifics ---- */

static void test_sgf_follows_the_first_variation(void **state) {
    (void)state;
    const char *text = "(;GM[4]FF[4]SZ[15]\n;B[hh]\n(;W[ii](;B[jj];W[kk])(;B[aa]))\n"
                       "(;W[gg];B[ff]))\n(;GM[4];B[aa])";
    TgGame *g = read_text_ok(TG_FORMAT_SGF, text, TG_FREESTYLE, 0);
    TgGame *want = game_from("h8 i7 j6 k5", TG_FREESTYLE, 15, 15);
    assert_same_game(want, g);
    tg_game_free(want);
    tg_game_free(g);
}

static void test_sgf_passes(void **state) {
    (void)state;
    TgGame *g =
        read_text_ok(TG_FORMAT_SGF, "(;GM[4]SZ[15];B[hh];W[];B[ii];W[tt];B[jj])", TG_FREESTYLE, 0);
    assert_int_equal(tg_game_ply(g), 5);
    assert_true(tg_point_is_pass(tg_game_move(g, 1)));
    assert_true(tg_point_is_pass(tg_game_move(g, 3)));
    check_written_text(g, TG_FORMAT_SGF,
                       "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh];W[];B[ii];W[];B[jj])\n");
    check_written_text(g, TG_FORMAT_MOVES, "h8 pass i7 pass j6\n");
    check_round_trip(g, TG_FORMAT_MOVES);
    expect_write_error(g, TG_FORMAT_PSQ, "pass");
    expect_write_error(g, TG_FORMAT_POS, "pass");
    tg_game_free(g);
    /* On 20x20, tt is the point t1; on 20x19 it cannot be a point, so it is a pass. */
    g = read_text_ok(TG_FORMAT_SGF, "(;GM[4]SZ[20];B[tt])", TG_FREESTYLE, 0);
    assert_int_equal(tg_game_stone(g, (TgPoint){19, 19}), TG_BLACK);
    tg_game_free(g);
    g = read_text_ok(TG_FORMAT_SGF, "(;GM[4]SZ[20:19];B[tt])", TG_FREESTYLE, 0);
    assert_true(tg_point_is_pass(tg_game_move(g, 0)));
    tg_game_free(g);
}

static void test_sgf_size_and_rule_defaults(void **state) {
    (void)state;
    TgGame *g = read_text_ok(TG_FORMAT_SGF, "(;B[hh])", TG_STANDARD, 0);
    assert_int_equal(tg_game_width(g), 15);
    assert_int_equal(tg_game_rule(g), TG_STANDARD);
    tg_game_free(g);
    g = read_text_ok(TG_FORMAT_SGF, "(;B[hh])", TG_STANDARD, 19);
    assert_int_equal(tg_game_width(g), 19);
    tg_game_free(g);
    static const struct {
        const char *ru;
        TgRule rule;
    } rules[] = {{"renju", TG_RENJU},
                 {"RIF", TG_RENJU},
                 {"Gomoku", TG_FREESTYLE},
                 {"freestyle", TG_FREESTYLE},
                 {"standard", TG_STANDARD},
                 {"caro", TG_CARO9},
                 {"caro8", TG_CARO8},
                 {"0", TG_FREESTYLE},
                 {"1", TG_STANDARD},
                 {"4", TG_RENJU},
                 {"8", TG_CARO8},
                 {"9", TG_CARO9},
                 {"2", TG_RENJU}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "(;GM[4]RU[%s];B[hh])", rules[i].ru);
        g = read_text_ok(TG_FORMAT_SGF, text, TG_FREESTYLE, 0);
        assert_int_equal(tg_game_rule(g), rules[i].rule);
        tg_game_free(g);
    }
    expect_text_error(TG_FORMAT_SGF, "(;GM[4]RU[5];B[hh])", TG_FREESTYLE, "unknown rule RU[5]");
    expect_text_error(TG_FORMAT_SGF, "(;GM[4]RU[14];B[hh])", TG_FREESTYLE, "unknown rule RU[14]");
}

static void test_sgf_escapes_and_soft_breaks(void **state) {
    (void)state;
    const char *text = "(;GM[4]PB[a\\]b\\\\c\\:d]PW[two\nlines]EV[soft\\\nbreak]C[x\\\r\ny]"
                       "XX[ignored][values]5A[hh];B[hh]C[move comment])";
    TgGame *g = read_text_ok(TG_FORMAT_SGF, text, TG_FREESTYLE, 0);
    check_names(g, "a]b\\c:d", "two lines");
    assert_string_equal(tg_game_info(g, "event"), "softbreak");
    assert_string_equal(tg_game_info(g, "comment"), "xy");
    tg_game_free(g);
}

/* ---- Errors ---- */

static void test_error_messages_name_the_place(void **state) {
    (void)state;
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,2,0\n0\n", TG_FREESTYLE,
                      "line 3: move 2 '16,2,0' is off the 15x15 board");
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9\n8,8,0\n0\n",
                      TG_FREESTYLE, "line 4: move 3 '8,8,0' lands on a stone already there");
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,x\n", TG_FREESTYLE,
                      "line 2: bad move '8,8,x'");
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 25x25, 11:11, 0\n", TG_FREESTYLE,
                      "line 1: board 25x25 is out of range");
    /* Numbers at and past the int64 limit are refused, not wrapped. */
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n9223372036854775809,1\n",
                      TG_FREESTYLE, "line 2: number too large");
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n1,1,9223372036854775807\n",
                      TG_FREESTYLE, "line 2: number too large");
    expect_text_error(TG_FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n1,1\n-9223372036854775809,5\n",
                      TG_FREESTYLE, "line 3: number too large");
    expect_text_error(TG_FORMAT_SGF, "(;GM[4]SZ[15]\n;B[hh]\n;W[ii]\n;B[hh])", TG_FREESTYLE,
                      "line 4: move 3 'B[hh]' lands on a stone already there");
    expect_text_error(TG_FORMAT_SGF, "(;GM[4]\n\nPB[x];B[hh];W[ii", TG_FREESTYLE,
                      "line 3: the value of W never ends");
    expect_text_error(TG_FORMAT_MOVES, "a1 a2 b1 b2 c1 c2 d1 d2 e1 e2", TG_FREESTYLE,
                      "move 10 'e2' comes after the game ended (five)");
    static const char pos[] = {2, 112, (char)231};
    expect_read_error(TG_FORMAT_POS, pos, sizeof pos, TG_FREESTYLE, 0,
                      "byte 2: move 2 '231' is off the 15x15 board");
}

static void test_bad_arguments(void **state) {
    (void)state;
    char err[64] = "";
    assert_null(tg_record_read(TG_FORMAT_UNKNOWN, "h8", 2, TG_FREESTYLE, 0, err, sizeof err));
    assert_non_null(strstr(err, "format"));
    assert_null(tg_record_read(TG_FORMAT_MOVES, "h8", 2, (TgRule)99, 0, err, sizeof err));
    assert_non_null(strstr(err, "rule"));
    assert_null(tg_record_read(TG_FORMAT_MOVES, "h8", 2, TG_FREESTYLE, 4, err, sizeof err));
    assert_non_null(strstr(err, "size"));
    assert_null(tg_record_read(TG_FORMAT_MOVES, NULL, 3, TG_FREESTYLE, 0, err, sizeof err));
    assert_null(tg_record_read(TG_FORMAT_POS, "\x01\x70", 2, TG_FREESTYLE, 19, err, sizeof err));
    assert_non_null(strstr(err, "15x15"));
    /* No message buffer at all, or a tiny one, is fine. */
    assert_null(tg_record_read(TG_FORMAT_SGF, "(", 1, TG_FREESTYLE, 0, NULL, 0));
    char tiny[4];
    assert_null(tg_record_read(TG_FORMAT_SGF, "(", 1, TG_FREESTYLE, 0, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), 3);
    /* An empty move list is an empty game; an empty text in the other formats is an error. */
    TgGame *g = read_ok(TG_FORMAT_MOVES, NULL, 0, TG_FREESTYLE, 0);
    assert_int_equal(tg_game_ply(g), 0);
    expect_write_error(g, TG_FORMAT_POS, "at least one move");
    assert_null(tg_record_write(g, TG_FORMAT_UNKNOWN, NULL, err, sizeof err));
    tg_game_free(g);
}

static void test_lengths_and_terminator(void **state) {
    (void)state;
    TgGame *g = game_from("h8", TG_FREESTYLE, 15, 15);
    size_t len = 0;
    char *out = tg_record_write(g, TG_FORMAT_SGF, &len, NULL, 0);
    assert_non_null(out);
    assert_int_equal(len, strlen(out)); /* text output is NUL-terminated too */
    free(out);
    out = tg_record_write(g, TG_FORMAT_PSQ, NULL, NULL, 0);
    assert_non_null(out);
    free(out);
    tg_game_free(g);
}

/* ---- The sample files ---- */

static char *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap);
    assert_non_null(data);
    for (size_t got; (got = fread(data + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            cap *= 2;
            data = realloc(data, cap);
            assert_non_null(data);
        }
    }
    fclose(f);
    *len = n;
    return data;
}

static TgRule rule_for_file(const char *name) {
    return strstr(name, "renju") ? TG_RENJU : TG_FREESTYLE;
}

static void test_malformed_files_are_refused(void **state) {
    (void)state;
    const char *dir = "tests/data/malformed";
    DIR *d = opendir(dir);
    assert_non_null(d);
    int checked = 0;
    for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
        TgFormat format = tg_format_from_path(ent->d_name);
        if (format == TG_FORMAT_UNKNOWN) continue;
        char path[512], err[256] = "";
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        size_t len;
        char *data = load(path, &len);
        assert_non_null(data);
        TgGame *g =
            tg_record_read(format, data, len, rule_for_file(ent->d_name), 0, err, sizeof err);
        if (g) print_error("%s was accepted\n", path);
        assert_null(g);
        if (!err[0]) print_error("%s: no message\n", path);
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
        free(data);
        checked++;
    }
    closedir(d);
    assert_true(checked >= 25);
}

typedef struct Sample {
    const char *file;
    TgRule rule;
    const char *moves; ///< h8 list on the file's board
    TgReason reason;
    TgColor winner;
    const char *black, *white;
} Sample;

static const Sample SAMPLES[] = {
    {"h8-i9.psq", TG_FREESTYLE, "h8 i9", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"asym.psq", TG_FREESTYLE, "h8 h9 i10 k3", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"asym.sgf", TG_FREESTYLE, "h8 h9 i10 k3", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"asym.pos", TG_FREESTYLE, "h8 h9 i10 k3", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"asym.txt", TG_FREESTYLE, "h8 h9 i10 k3", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"names-crlf.psq", TG_FREESTYLE, "h8 i7 g7", TG_REASON_NONE, TG_NOBODY, "Bob brain",
     "Alice brain"},
    {"thirdparty.psq", TG_FREESTYLE, "h8 i7", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"timeout.psq", TG_FREESTYLE, "h8 i7 h7", TG_REASON_TIME, TG_BLACK, "brainA", "brainB"},
    {"board20.psq", TG_FREESTYLE, "k10 a1 t20 a20 t1", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"rect.sgf", TG_STANDARD, "h10 a6 o1", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"renju-five.sgf", TG_RENJU, "h8 i9 h9 i10 h10 i11 h11 i12 h7", TG_REASON_FIVE, TG_BLACK,
     "Black ] player", "White \\ player"},
    {"passes.sgf", TG_FREESTYLE, "h8 pass i7 pass j6", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"renju-foul-end.sgf", TG_RENJU, "h6 a15 h7 a13 i8 a11 j8 a9 h8", TG_REASON_FOUL, TG_WHITE,
     NULL, NULL},
    {"resign.sgf", TG_STANDARD, "h8 i7 j6", TG_REASON_RESIGN, TG_WHITE, "x", "y"},
    {"board20-tt.sgf", TG_FREESTYLE, "k10 t1 a20", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
    {"collection.sgf", TG_FREESTYLE, "h8 i7", TG_REASON_NONE, TG_NOBODY, NULL, NULL},
};

static void check_sample(const Sample *s) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/records/%s", s->file);
    size_t len;
    char *data = load(path, &len);
    if (!data) print_error("cannot open %s\n", path);
    assert_non_null(data);
    TgGame *g = read_ok(tg_format_from_path(s->file), data, len, TG_FREESTYLE, 0);
    assert_int_equal(tg_game_rule(g), s->rule);
    TgGame *want = game_from(s->moves, s->rule, tg_game_width(g), tg_game_height(g));
    assert_same_game(want, g);
    assert_int_equal(tg_game_result(g).reason, s->reason);
    assert_int_equal(tg_game_result(g).winner, s->winner);
    check_names(g, s->black, s->white);
    for (size_t f = 0; f < 4; f++) {
        char err[256];
        size_t out_len;
        char *out = tg_record_write(g, ALL_FORMATS[f], &out_len, err, sizeof err);
        if (!out) continue; /* e.g. passes in PSQ: checked elsewhere */
        TgGame *back = read_ok(ALL_FORMATS[f], out, out_len, s->rule, size_for(g, ALL_FORMATS[f]));
        assert_same_game(g, back);
        tg_game_free(back);
        free(out);
    }
    tg_game_free(want);
    tg_game_free(g);
    free(data);
}

static void test_sample_files(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof SAMPLES / sizeof SAMPLES[0]; i++) check_sample(&SAMPLES[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_from_path),
        cmocka_unit_test(test_format_names),
        cmocka_unit_test(test_psq_known_answer),
        cmocka_unit_test(test_sgf_known_answer),
        cmocka_unit_test(test_pos_known_answer),
        cmocka_unit_test(test_moves_known_answer),
        cmocka_unit_test(test_asymmetric_reads_back_in_every_format),
        cmocka_unit_test(test_asymmetric_round_trips),
        cmocka_unit_test(test_long_games_round_trip),
        cmocka_unit_test(test_board_20),
        cmocka_unit_test(test_rectangular_board),
        cmocka_unit_test(test_write_stops_at_the_current_ply),
        cmocka_unit_test(test_results_survive_sgf),
        cmocka_unit_test(test_foul_ends_a_record),
        cmocka_unit_test(test_foul_inside_a_record_is_refused),
        cmocka_unit_test(test_sgf_result_values),
        cmocka_unit_test(test_psq_timeout),
        cmocka_unit_test(test_names_survive_psq_and_sgf),
        cmocka_unit_test(test_psq_refuses_names_it_could_not_read_back),
        cmocka_unit_test(test_sgf_info_fields),
        cmocka_unit_test(test_psq_times_and_start_player),
        cmocka_unit_test(test_psq_tolerates_third_party_endings),
        cmocka_unit_test(test_sgf_follows_the_first_variation),
        cmocka_unit_test(test_sgf_passes),
        cmocka_unit_test(test_sgf_size_and_rule_defaults),
        cmocka_unit_test(test_sgf_escapes_and_soft_breaks),
        cmocka_unit_test(test_error_messages_name_the_place),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_lengths_and_terminator),
        cmocka_unit_test(test_malformed_files_are_refused),
        cmocka_unit_test(test_sample_files),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
