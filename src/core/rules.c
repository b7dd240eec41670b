/*
 * rules.c — five detection per rule and the renju foul test.
 *
 * Everything about one line is decided on an 11-cell window (the centre and 5 cells each side,
 * unpacked from the board's line keys): a five, a four or a straight four through the centre
 * never needs to look further. Only the recursive double-three rule needs the whole board, to
 * judge whether the eye of a three is itself a legal Black move.
 */
#include "rules.h"

static void read_line(const Board *b, Pos p, int d, Color centre, Color line[LINE_LEN]) {
    line_from_key(b->key[p][d], centre, line);
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
        if (f == 0 && (eye_count[d] = line_black_three_eyes(lines[d], eyes[d])) > 0) three_lines++;
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

Threat rules_threat_at(Board *b, Pos p, Color c) {
    const uint8_t t = b->threat[p][c];
    if (!(t & THREAT_MAYBE_33)) return (Threat)t;
    return renju_foul(b, p) != TG_FOUL_NONE ? THREAT_FORBID : (Threat)(t & THREAT_CLASS_MASK);
}
