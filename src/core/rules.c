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

/* ---- The foul test ----
 * It reads the board's pattern tables, which hold what line.c decides on a window (renju
 * Black's FREE4 is only the straight four, two five points on one line are DOUBLE4); only the
 * recursive double-three rule puts stones down. */

/// Does a Black stone at empty p make an exact five (the board's patterns are renju's)?
static bool black_makes_five(const Board *b, Pos p) {
    for (int d = 0; d < 4; d++)
        if (board_pattern(b, p, d, BLACK) == PAT_FIVE) return true;
    return false;
}

/// The eyes of Black's three through empty p on line d: the empty cells where one more stone
/// makes a straight four through p (the window's answer, line_black_three_eyes, by table).
static int three_eyes(const Board *b, Pos p, int d, Pos eyes[LINE_LEN]) {
    const uint32_t key = b->key[p][d];
    int n = 0;
    for (int k = -3; k <= 3; k++) { /* an eye four cells away would make five, not four */
        if (k == 0) continue;
        const int shift = 2 * key_slot(k);
        if (((key >> shift) & 3) != EMPTY) continue;
        const uint32_t more = key ^ ((uint32_t)(EMPTY ^ BLACK) << shift);
        if (pattern_of(b->tables->line[more], BLACK) == PAT_FREE4)
            eyes[n++] = (Pos)(p + k * DIR[d]);
    }
    return n;
}

/// With the candidate already on the board: can the three be made a straight four by some
/// legal Black move? An eye that would also make a five is no eye (RIF's "without at the
/// same time a five"), and an eye that is itself a foul does not count (rule 9.3, recursive).
static bool three_is_real(Board *b, const Pos eyes[], int n) {
    for (int i = 0; i < n; i++)
        if (!black_makes_five(b, eyes[i]) && renju_foul(b, eyes[i]) == TG_FOUL_NONE) return true;
    return false;
}

TgFoul renju_foul(Board *b, Pos p) {
    int fours = 0, three_lines = 0;
    bool overline = false, three[4] = {false};
    for (int d = 0; d < 4; d++) switch (board_pattern(b, p, d, BLACK)) {
        case PAT_FIVE: return TG_FOUL_NONE; /* an exact five always wins */
        case PAT_OVERLINE: overline = true; break;
        case PAT_DOUBLE4: fours += 2; break;
        case PAT_BLOCKED4:
        case PAT_FREE4: fours++; break;
        case PAT_FREE3: three[d] = true, three_lines++; break;
        default: break;
        }
    if (overline) return TG_FOUL_OVERLINE;
    if (fours >= 2) return TG_FOUL_DOUBLE_FOUR;
    if (three_lines < 2) return TG_FOUL_NONE;

    Pos eyes[4][LINE_LEN];
    int eye_count[4] = {0};
    for (int d = 0; d < 4; d++)
        if (three[d]) eye_count[d] = three_eyes(b, p, d, eyes[d]);
    board_put(b, p, BLACK);
    int real = 0;
    for (int d = 0; d < 4 && real < 2; d++)
        if (eye_count[d] > 0 && three_is_real(b, eyes[d], eye_count[d])) real++;
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

bool rules_black_false_threat(Board *b, Pos p) {
    return (b->threat[p][BLACK] & THREAT_MAYBE_33) && renju_foul(b, p) != TG_FOUL_NONE;
}

Threat rules_threat_at(Board *b, Pos p, Color c) {
    const uint8_t t = b->threat[p][c];
    if (!(t & THREAT_MAYBE_33)) return (Threat)t;
    return renju_foul(b, p) != TG_FOUL_NONE ? THREAT_FORBID : (Threat)(t & THREAT_CLASS_MASK);
}
