/*
 * test_renju_data.c — Black's forbidden points against the shared data sets
 * ($TG_DATA/renju/forbidden.txt and forbidden-public.txt): every listed point with its kind,
 * and no other point, through the public API.
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
#include "data.h"

enum { MAX_LINE = 8192 };

/// "f6:33 f7:6" for the position, in the data's order (column, then row from the bottom).
static void forbidden_list(const TgGame *g, char *out, size_t size) {
    TgForbidden points[TG_MAX_SIZE * TG_MAX_SIZE];
    int n = tg_game_forbidden(g, points, TG_MAX_SIZE * TG_MAX_SIZE);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        char pt[8];
        tg_point_to_text(points[i].point, tg_game_width(g), tg_game_height(g), pt, sizeof pt);
        used += (size_t)snprintf(out + used, size - used, "%s%s:%s", i ? " " : "", pt,
                                 tg_foul_code(points[i].foul));
    }
}

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) s[--n] = '\0';
    size_t lead = strspn(s, " ");
    memmove(s, s + lead, strlen(s + lead) + 1);
}

/// Checks one data line; returns false (after printing why) on a mismatch.
static bool check_line(char *line, int number) {
    char *bar = strchr(line, '|');
    assert_non_null(bar);
    *bar = '\0';
    char *expected = bar + 1;
    trim(expected);
    int size = atoi(line);
    char *moves_text = strchr(line, ' ');
    assert_non_null(moves_text);

    TgPoint moves[TG_MAX_SIZE * TG_MAX_SIZE * 2];
    int n = 0, bad = -1;
    char err[128], got[MAX_LINE];
    assert_int_equal(tg_parse_moves(moves_text, size, size, moves,
                                    (int)(sizeof moves / sizeof moves[0]), &n, err, sizeof err),
                     TG_OK);
    TgGame *g = tg_game_new(TG_RENJU, size, size);
    assert_non_null(g);
    assert_int_equal(tg_game_setup(g, moves, n, &bad), TG_OK);
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    forbidden_list(g, got, sizeof got);
    tg_game_free(g);
    if (strcmp(got, expected) == 0) return true;
    print_error("line %d:\n  expected: %s\n  got:      %s\n", number, expected, got);
    return false;
}

static void check_file(const char *name, int expected_positions) {
    FILE *f = test_data_open(name);
    char line[MAX_LINE];
    int number = 0, positions = 0, wrong = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\r') continue;
        positions++;
        if (!check_line(line, number)) wrong++;
    }
    fclose(f);
    print_message("%s: %d positions, %d wrong\n", name, positions, wrong);
    assert_int_equal(positions, expected_positions);
    assert_int_equal(wrong, 0);
}

static void test_forbidden_shared_set(void **state) {
    (void)state;
    check_file("renju/forbidden.txt", 800);
}

static void test_forbidden_public_boards(void **state) {
    (void)state;
    check_file("renju/forbidden-public.txt", 39);
}

/// A depth-two case traced by hand. In this position Black's j10 makes two threes:
///   j10 . l10 m10 (row 10), eye k10;   j10 k9 l8 (diagonal), eye m7 (i11 would make six with g13).
/// With j10 down, k10 makes a four on row 10 plus k7 . k9 k10 (eye k8) and i8 j9 k10, whose only
/// eye l11 also completes l7-l11, an exact five, so by RIF's definition it is no eye at all. So
/// k10 is a legal 4-3, the row-10 three is real, and j10 is a double-three. (A program that
/// counts l11 as an eye finds k10 a 4-3-3 foul and j10 legal; shared/data's game prefixes were
/// generated that way, while its final-position labels, like tengen, follow RIF.)
static void test_eye_completing_five_two_deep(void **state) {
    (void)state;
    static const char *const position = "j9 e7 k9 e6 l10 g6 i8 g12 g13 o7 h9 g9 d8 h15 c7 d6 l9 "
                                        "n11 l8 d7 m10 o2 k7 n3 g14 f8 l7 f6";
    TgPoint moves[64], p;
    int n = 0;
    char err[128];
    TgGame *g = tg_game_new(TG_RENJU, 15, 15);
    assert_int_equal(tg_parse_moves(position, 15, 15, moves, 64, &n, err, sizeof err), TG_OK);
    assert_int_equal(tg_game_set_moves(g, moves, n, NULL), TG_OK);
    assert_int_equal(tg_point_from_text("j10", 15, 15, &p), TG_OK);
    assert_int_equal(tg_game_foul_at(g, p), TG_FOUL_DOUBLE_THREE);
    /* With j10 on the board (White passing), k10 is legal and l11 completes a five. */
    moves[n++] = p;
    moves[n++] = (TgPoint){-1, -1};
    assert_int_equal(tg_game_setup(g, moves, n, NULL), TG_OK);
    assert_int_equal(tg_point_from_text("k10", 15, 15, &p), TG_OK);
    assert_int_equal(tg_game_foul_at(g, p), TG_FOUL_NONE);
    tg_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forbidden_shared_set),
        cmocka_unit_test(test_forbidden_public_boards),
        cmocka_unit_test(test_eye_completing_five_two_deep),
    };
    return cmocka_run_group_tests_name("renju data", tests, NULL, NULL);
}
