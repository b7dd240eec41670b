/*
 * rules.c — five detection per rule and the renju foul test.
 *
 * Everything about one line is decided on an 11-cell window (the centre and 5 cells each side,
 * unpacked from the board's line keys): a five, a four or a straight four through the centre
 * never needs to look further. Only the recursive double-three rule needs the whole board, to
 * judge whether the eye of a three is itself a legal Black move.
 */
#include "rules.h"

#include <string.h>

static void read_line(const Board *b, Pos p, int d, Color centre, Color line[LINE_LEN]) {
    line_from_key(b->key[p][d], centre, line);
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

bool rules_makes_five(const Board *b, Pos p, Color c) {
    Color line[LINE_LEN];
    for (int d = 0; d < 4; d++) {
        read_line(b, p, d, c, line);
        if (line_is_five(line, b->rule)) return true;
    }
    return false;
}

bool rules_five_at(const Board *b, Pos p, Pos *from, Pos *to, int *length) {
    const Color c = (Color)b->cell[p];
    Color line[LINE_LEN];
    for (int d = 0; d < 4; d++) {
        read_line(b, p, d, c, line);
        if (!line_is_five(line, b->rule)) continue;
        /* Walk the board, not the window: an overline may be longer than the window shows. */
        Pos a = p, z = p;
        while (b->cell[a - DIR[d]] == c) a = (Pos)(a - DIR[d]);
        while (b->cell[z + DIR[d]] == c) z = (Pos)(z + DIR[d]);
        *from = a;
        *to = z;
        *length = (z - a) / DIR[d] + 1;
        return true;
    }
    return false;
}

/* ---- Black's shapes on one line (renju: a five is exactly five) ---- */

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
static bool three_is_real(Board *b, Pos p, int d, const int eyes[], int n) {
    for (int i = 0; i < n; i++) {
        Pos e = (Pos)(p + (eyes[i] - LINE_HALF) * DIR[d]);
        if (!rules_makes_five(b, e, BLACK) && renju_foul(b, e) == TG_FOUL_NONE) return true;
    }
    return false;
}

TgFoul renju_foul(Board *b, Pos p) {
    Color lines[4][LINE_LEN];
    int fours = 0;
    bool overline = false;
    for (int d = 0; d < 4; d++) {
        read_line(b, p, d, BLACK, lines[d]);
        int lo, hi;
        const int len = line_run(lines[d], &lo, &hi);
        if (len == 5) return TG_FOUL_NONE; /* an exact five always wins */
        if (len > 5) overline = true;
    }
    if (overline) return TG_FOUL_OVERLINE;

    int eyes[4][LINE_LEN], eye_count[4] = {0}, three_lines = 0;
    for (int d = 0; d < 4; d++) {
        const int f = line_black_fours(lines[d]);
        fours += f;
        /* A line that holds a four is a four, not also a three. */
        if (f == 0 && (eye_count[d] = line_black_three_eyes(lines[d], eyes[d])) > 0)
            three_lines++;
    }
    if (fours >= 2) return TG_FOUL_DOUBLE_FOUR;
    if (three_lines < 2) return TG_FOUL_NONE;

    board_put(b, p, BLACK);
    int real = 0;
    for (int d = 0; d < 4 && real < 2; d++)
        if (eye_count[d] > 0 && three_is_real(b, p, d, eyes[d], eye_count[d])) real++;
    board_lift(b, p);
    return real >= 2 ? TG_FOUL_DOUBLE_THREE : TG_FOUL_NONE;
}

bool rules_five_on_board(const Board *b) {
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            Pos from, to;
            int len;
            const Pos p = pos_make(x, y);
            if (!board_empty(b, p) && rules_five_at(b, p, &from, &to, &len)) return true;
        }
    return false;
}
