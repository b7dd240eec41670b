/*
 * line.c — what an 11-cell window decides on its own: a five, a four or a straight four through
 * the centre never needs to look further (see line.h).
 */
#include "line.h"

#include <string.h>

void line_from_key(uint32_t key, Color centre, Color line[LINE_LEN]) {
    for (int k = -LINE_HALF; k <= LINE_HALF; k++)
        line[k + LINE_HALF] = k == 0 ? centre : (Color)((key >> (2 * key_slot(k))) & 3);
}

int line_run(const Color line[LINE_LEN], int *lo, int *hi) {
    const Color c = line[LINE_HALF];
    int l = LINE_HALF, h = LINE_HALF;
    while (l > 0 && line[l - 1] == c) l--;
    while (h < LINE_LEN - 1 && line[h + 1] == c) h++;
    *lo = l;
    *hi = h;
    return h - l + 1;
}

static bool blocked_both_ends(const Color line[LINE_LEN], int lo, int hi) {
    const Color opp = (Color)(line[LINE_HALF] ^ 1);
    return lo > 0 && hi < LINE_LEN - 1 && line[lo - 1] == opp && line[hi + 1] == opp;
}

/// Is the centre's row a winning five under `rule` for its colour?
bool line_is_five(const Color line[LINE_LEN], Rule rule) {
    int lo, hi;
    const int len = line_run(line, &lo, &hi);
    const bool black = line[LINE_HALF] == BLACK;
    switch (rule) {
    case TG_FREESTYLE: return len >= 5;
    case TG_STANDARD: return len == 5;
    case TG_RENJU: return black ? len == 5 : len >= 5;
    case TG_CARO8: return len > 5 || (len == 5 && !blocked_both_ends(line, lo, hi));
    case TG_CARO9: return len == 5 && !blocked_both_ends(line, lo, hi);
    default: return false;
    }
}

/// Empty cells that turn the centre's row into an exact five. At most one on each side.
static int exact_five_points(const Color line[LINE_LEN], int points[2]) {
    Color probe[LINE_LEN];
    int n = 0;
    memcpy(probe, line, sizeof probe);
    for (int i = 1; i < LINE_LEN - 1; i++) {
        if (probe[i] != EMPTY) continue;
        probe[i] = BLACK;
        int lo, hi;
        if (line_run(probe, &lo, &hi) == 5 && n < 2) points[n++] = i;
        probe[i] = EMPTY;
    }
    return n;
}

/// A straight four: two exact-five points at both ends of one unbroken four (.BBBB.).
static bool is_straight_four(int n, const int points[2]) {
    return n == 2 && points[1] - points[0] == 5;
}

int line_black_fours(const Color line[LINE_LEN]) {
    int points[2];
    const int n = exact_five_points(line, points);
    return is_straight_four(n, points) ? 1 : n;
}

int line_black_three_eyes(const Color line[LINE_LEN], int eyes[LINE_LEN]) {
    Color probe[LINE_LEN];
    int n = 0;
    memcpy(probe, line, sizeof probe);
    for (int i = 1; i < LINE_LEN - 1; i++) {
        if (probe[i] != EMPTY) continue;
        probe[i] = BLACK;
        int points[2];
        if (is_straight_four(exact_five_points(probe, points), points)) eyes[n++] = i;
        probe[i] = EMPTY;
    }
    return n;
}

/* ---- The foul test ---- */

/// With the candidate already on the board: can the three on line d be made a straight four by
/// some legal Black move? An eye that would also make a five is no eye (RIF's "without at the
/// same time a five"), and an eye that is itself a foul does not count (rule 9.3, recursive).
