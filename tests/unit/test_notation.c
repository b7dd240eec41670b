/*
 * test_notation.c — h8 notation against protocol x,y (formats.md §1, §2, §13): known-answer
 * corners and centres on 15x15 and 20x20, position strings, separated lists, passes, errors,
 * and tg_format_moves round trips with an asymmetric position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/tengen.h"

typedef struct Vector {
    const char *text;
    int x, y;
} Vector;

/// formats.md §1: the corners and the centre, both ways.
static void check_vectors(const Vector *v, int count, int size) {
    for (int i = 0; i < count; i++) {
        TgPoint p = {-5, -5};
        assert_int_equal(tg_point_from_text(v[i].text, size, size, &p), TG_OK);
        assert_int_equal(p.x, v[i].x);
        assert_int_equal(p.y, v[i].y);
        char buf[8];
        assert_int_equal(tg_point_to_text((TgPoint){v[i].x, v[i].y}, size, size, buf, sizeof buf),
                         TG_OK);
        assert_string_equal(buf, v[i].text);
    }
}

static void test_corners_and_centre_15(void **state) {
    (void)state;
    static const Vector v[] = {{"h8", 7, 7},   {"a1", 0, 14},  {"a15", 0, 0},
                               {"o1", 14, 14}, {"o15", 14, 0}, {"k10", 10, 5}};
    check_vectors(v, 6, 15);
}

static void test_corners_and_centre_20(void **state) {
    (void)state;
    static const Vector v[] = {{"h8", 7, 12},  {"k10", 10, 10}, {"a1", 0, 19},  {"a15", 0, 5},
                               {"o1", 14, 19}, {"a20", 0, 0},   {"t1", 19, 19}, {"t20", 19, 0}};
    check_vectors(v, 8, 20);
}

static void test_rectangular_board_counts_rows_from_the_bottom(void **state) {
    (void)state;
    TgPoint p;
    assert_int_equal(tg_point_from_text("a1", 15, 20, &p), TG_OK);
    assert_int_equal(p.x, 0);
    assert_int_equal(p.y, 19);
    assert_int_equal(tg_point_from_text("o20", 15, 20, &p), TG_OK);
    assert_int_equal(p.x, 14);
    assert_int_equal(p.y, 0);
    assert_int_equal(tg_point_from_text("p1", 15, 20, &p), TG_ERR_OFF_BOARD);
}

static void test_upper_case_is_read(void **state) {
    (void)state;
    TgPoint p;
    assert_int_equal(tg_point_from_text("H8", 15, 15, &p), TG_OK);
    assert_int_equal(p.x, 7);
    assert_int_equal(p.y, 7);
}

static void test_passes(void **state) {
    (void)state;
    TgPoint p = {0, 0};
    assert_int_equal(tg_point_from_text("pass", 15, 15, &p), TG_OK);
    assert_true(tg_point_is_pass(p));
    p = (TgPoint){0, 0};
    assert_int_equal(tg_point_from_text("--", 15, 15, &p), TG_OK);
    assert_true(tg_point_is_pass(p));
    p = (TgPoint){0, 0};
    assert_int_equal(tg_point_from_text("a0", 15, 15, &p), TG_OK); /* the lfz084 filler */
    assert_true(tg_point_is_pass(p));
    char buf[8];
    assert_int_equal(tg_point_to_text((TgPoint){-1, -1}, 15, 15, buf, sizeof buf), TG_OK);
    assert_string_equal(buf, "pass");
}

static void test_bad_points(void **state) {
    (void)state;
    static const char *const bad[] = {"z99", "h",   "h8x", "",     "8h", "hh",
                                      "a00", "h 8", "h-8", "h100", "pas"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TgPoint p = {3, 3};
        assert_int_not_equal(tg_point_from_text(bad[i], 15, 15, &p), TG_OK);
        assert_int_equal(p.x, 3); /* untouched on error */
    }
    TgPoint p;
    assert_int_equal(tg_point_from_text("p8", 15, 15, &p), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_point_from_text("h16", 15, 15, &p), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_point_from_text("t20", 19, 19, &p), TG_ERR_OFF_BOARD);
}

static void test_point_to_text_refuses_off_board(void **state) {
    (void)state;
    char buf[8];
    assert_int_equal(tg_point_to_text((TgPoint){15, 0}, 15, 15, buf, sizeof buf), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_point_to_text((TgPoint){0, -2}, 15, 15, buf, sizeof buf), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_point_to_text((TgPoint){21, 21}, 22, 22, buf, sizeof buf), TG_OK);
    assert_string_equal(buf, "v1");
}

/// Parses text on a size x size board and checks the points.
static void check_parse(const char *text, int size, const TgPoint *want, int count) {
    TgPoint moves[16];
    int n = -1;
    char err[128] = "";
    assert_int_equal(tg_parse_moves(text, size, size, moves, 16, &n, err, sizeof err), TG_OK);
    assert_int_equal(n, count);
    for (int i = 0; i < count; i++) {
        assert_int_equal(moves[i].x, want[i].x);
        assert_int_equal(moves[i].y, want[i].y);
    }
}

static void test_position_string(void **state) {
    (void)state;
    static const TgPoint want[] = {{7, 7}, {8, 6}, {9, 5}};
    check_parse("h8i9j10", 15, want, 3);
    check_parse("H8I9J10", 15, want, 3);
}

static void test_separated_list(void **state) {
    (void)state;
    static const TgPoint want[] = {{7, 7}, {8, 6}, {9, 5}};
    check_parse("h8 i9, j10", 15, want, 3);
    check_parse("  h8\ti9\r\nj10\n", 15, want, 3);
    check_parse("h8i9 j10", 15, want, 3); /* glued and separated mix */
}

static void test_passes_in_lists(void **state) {
    (void)state;
    static const TgPoint want[] = {{7, 7}, {-1, -1}, {8, 6}, {-1, -1}, {9, 5}, {-1, -1}};
    check_parse("h8 -- i9 pass j10 a0", 15, want, 6);
    static const TgPoint glued[] = {{7, 7}, {-1, -1}, {8, 6}};
    check_parse("h8a0i9", 15, glued, 3);
}

static void test_empty_list(void **state) {
    (void)state;
    check_parse("", 15, NULL, 0);
    check_parse(" \n\t ", 15, NULL, 0);
}

static void check_parse_error(const char *text, int size, int max, const char *needle);

static void test_empty_tokens_between_commas(void **state) {
    (void)state;
    /* A comma must follow a move: a trailing one is fine, an empty move is an error. */
    static const TgPoint want[] = {{7, 7}, {8, 6}};
    check_parse("h8, i9,", 15, want, 2);
    check_parse("h8 ,i9", 15, want, 2);
    check_parse_error("h8,,i9", 15, 16, ",i9");
    check_parse_error("h8, ,i9", 15, 16, ",i9");
    check_parse_error(",h8", 15, 16, ",h8");
}

/// The list must be refused with a message that quotes `needle`.
static void check_parse_error(const char *text, int size, int max, const char *needle) {
    TgPoint moves[16];
    int n;
    char err[128] = "";
    assert_int_not_equal(tg_parse_moves(text, size, size, moves, max, &n, err, sizeof err), TG_OK);
    assert_true(err[0] != '\0');
    assert_non_null(strstr(err, needle));
}

static void test_list_errors(void **state) {
    (void)state;
    check_parse_error("h8 z99", 15, 16, "z99");
    check_parse_error("h8 h", 15, 16, "h");
    check_parse_error("h8x", 15, 16, "h8x");
    check_parse_error("h8 p1", 15, 16, "p1");
    check_parse_error("h8 h16", 15, 16, "h16");
    check_parse_error("h8 u20", 20, 16, "u20");
    check_parse_error("h8 --x", 15, 16, "--x");
    check_parse_error("h8 pas", 15, 16, "pas");
    check_parse_error("h8 i9 j10", 15, 2, "more than 2");
    check_parse_error("h8i9j10", 15, 2, "more than 2");
}

static void test_long_token_is_refused(void **state) {
    (void)state;
    char text[600];
    memset(text, 'h', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    TgPoint moves[4];
    int n;
    char err[128] = "";
    assert_int_not_equal(tg_parse_moves(text, 15, 15, moves, 4, &n, err, sizeof err), TG_OK);
    assert_true(err[0] != '\0');
}

/// A position string of a whole board (540 characters, one token) reads point by point.
static void test_whole_board_position_string(void **state) {
    (void)state;
    char text[4 * 225 + 1] = "";
    for (int x = 0; x < 15; x++)
        for (int row = 1; row <= 15; row++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%c%d", 'a' + x, row);
    assert_int_equal(strlen(text), 540);
    TgPoint moves[225];
    int n;
    char err[128] = "";
    assert_int_equal(tg_parse_moves(text, 15, 15, moves, 225, &n, err, sizeof err), TG_OK);
    assert_int_equal(n, 225);
    assert_int_equal(moves[224].x, 14);
    assert_int_equal(moves[224].y, 0); /* o15: the top row */
}

static void test_asymmetric_position(void **state) {
    (void)state;
    static const TgPoint want[] = {{7, 7}, {7, 6}, {8, 5}, {10, 12}};
    check_parse("h8 h9 i10 k3", 15, want, 4);
    char buf[64];
    assert_int_equal(tg_format_moves(want, 4, 15, 15, " ", buf, sizeof buf), 12);
    assert_string_equal(buf, "h8 h9 i10 k3");
    assert_int_equal(tg_format_moves(want, 4, 15, 15, "", buf, sizeof buf), 9);
    assert_string_equal(buf, "h8h9i10k3");
    check_parse(buf, 15, want, 4);
    /* On 20x20 the same squares have other protocol rows. */
    static const TgPoint want20[] = {{7, 12}, {7, 11}, {8, 10}, {10, 17}};
    check_parse("h8 h9 i10 k3", 20, want20, 4);
}

static void test_format_round_trip_with_passes(void **state) {
    (void)state;
    static const TgPoint moves[] = {{0, 0}, {-1, -1}, {19, 19}, {10, 10}, {0, 19}};
    char buf[64];
    tg_format_moves(moves, 5, 20, 20, ", ", buf, sizeof buf);
    assert_string_equal(buf, "a20, pass, t1, k10, a1");
    check_parse(buf, 20, moves, 5);
}

static void test_format_reports_needed_size(void **state) {
    (void)state;
    static const TgPoint moves[] = {{7, 7}, {8, 6}, {9, 5}};
    char small[6];
    size_t need = tg_format_moves(moves, 3, 15, 15, " ", small, sizeof small);
    assert_int_equal(need, strlen("h8 i9 j10"));
    assert_int_equal(strlen(small), sizeof small - 1); /* truncated, still terminated */
    assert_int_equal(tg_format_moves(moves, 3, 15, 15, " ", NULL, 0), need);
    char empty[4] = "xyz";
    assert_int_equal(tg_format_moves(moves, 0, 15, 15, " ", empty, sizeof empty), 0);
    assert_string_equal(empty, "");
}

/// Every point of every size survives text and back.
static void test_every_point_round_trips(void **state) {
    (void)state;
    for (int size = TG_MIN_SIZE; size <= TG_MAX_SIZE; size++) {
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                char buf[8];
                TgPoint p;
                assert_int_equal(tg_point_to_text((TgPoint){x, y}, size, size, buf, sizeof buf),
                                 TG_OK);
                assert_int_equal(tg_point_from_text(buf, size, size, &p), TG_OK);
                assert_int_equal(p.x, x);
                assert_int_equal(p.y, y);
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corners_and_centre_15),
        cmocka_unit_test(test_corners_and_centre_20),
        cmocka_unit_test(test_rectangular_board_counts_rows_from_the_bottom),
        cmocka_unit_test(test_upper_case_is_read),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_bad_points),
        cmocka_unit_test(test_point_to_text_refuses_off_board),
        cmocka_unit_test(test_position_string),
        cmocka_unit_test(test_separated_list),
        cmocka_unit_test(test_passes_in_lists),
        cmocka_unit_test(test_empty_list),
        cmocka_unit_test(test_empty_tokens_between_commas),
        cmocka_unit_test(test_list_errors),
        cmocka_unit_test(test_long_token_is_refused),
        cmocka_unit_test(test_whole_board_position_string),
        cmocka_unit_test(test_asymmetric_position),
        cmocka_unit_test(test_format_round_trip_with_passes),
        cmocka_unit_test(test_format_reports_needed_size),
        cmocka_unit_test(test_every_point_round_trips),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
