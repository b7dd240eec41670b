/*
 * winlines.c — the beginner level: the classic win-lines player (see winlines.h).
 */
#include "winlines.h"

#include <stdlib.h>

#include "rules.h"

enum {
    ROW = 5,            ///< cells in a win line
    NOISE_FRACTION = 4, ///< a cell's score may be lifted by up to 1/8 of itself at random
};

/* Points a cell earns from one live line through it, by the stones already in that line. A line
 * with four of the mover's stones is a five to make, with four of the opponent's one to block:
 * either outweighs any sum of lesser lines (at most 20 lines pass through a cell). An empty line
 * still earns a point, so that the open middle of the board is preferred to its edge. The
 * opponent's lesser lines weigh little: a beginner presses its own attack and blocks only a four
 * (with the classic near-equal weights the player is as strong as the easy level; these keep
 * it clearly below, see docs/ladder.md). */
static const int OWN_POINTS[ROW] = {1, 10, 60, 400, 1000000};
static const int THEIR_POINTS[ROW] = {1, 2, 8, 40, 100000};

/// (dx, dy) of the four directions, in DIR's order.
static const int STEP_X[4] = {1, 0, 1, -1};
static const int STEP_Y[4] = {0, 1, 1, 1};

static bool row_fits(int width, int height, int x, int y, int d) {
    const int ex = x + (ROW - 1) * STEP_X[d], ey = y + (ROW - 1) * STEP_Y[d];
    return ex >= 0 && ex < width && ey >= 0 && ey < height;
}

int winlines_count(int width, int height) {
    int n = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            for (int d = 0; d < 4; d++) n += row_fits(width, height, x, y, d);
    return n;
}

/// Must `c`'s five be exactly five under the rule (an overline does not win)?
static bool exact_five(Rule rule, Color c) {
    return rule == TG_STANDARD || rule == TG_CARO9 || (rule == TG_RENJU && c == BLACK);
}

/// Caro: a five with the opponent's stones at both ends does not win (rule 8 allows longer).
static bool blocked_ends_lose(Rule rule) { return rule == TG_CARO8 || rule == TG_CARO9; }

bool winlines_live(const Board *b, Pos start, int d, Color c, int *stones) {
    int n = 0;
    for (int i = 0; i < ROW; i++) {
        const Color cell = (Color)b->cell[start + i * DIR[d]];
        if (cell == WALL || cell == (c ^ 1)) return false;
        n += cell == c;
    }
    *stones = n;
    /* The cells just beyond the row: the padding keeps them inside the array. */
    const Color before = (Color)b->cell[start - DIR[d]],
                after = (Color)b->cell[start + ROW * DIR[d]];
    if (exact_five(b->rule, c) && (before == c || after == c)) return false;
    if (blocked_ends_lose(b->rule) && before == (c ^ 1) && after == (c ^ 1)) return false;
    return true;
}

/// Adds one row's points, for both colours, to its empty cells.
static void score_row(const Board *b, Pos start, int d, Color me, int score[BOARD_CELLS]) {
    for (int c = BLACK; c <= WHITE; c++) {
        int stones;
        /* A full row (a diagram may hold a five) has no empty cell to score. */
        if (!winlines_live(b, start, d, (Color)c, &stones) || stones == ROW) continue;
        const int points = (Color)c == me ? OWN_POINTS[stones] : THEIR_POINTS[stones];
        for (int i = 0; i < ROW; i++) {
            const Pos q = (Pos)(start + i * DIR[d]);
            if (b->cell[q] == EMPTY) score[q] += points;
        }
    }
}

void winlines_score(const Board *b, int score[BOARD_CELLS]) {
    const Color me = board_to_move(b);
    for (int i = 0; i < BOARD_CELLS; i++) score[i] = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
            for (int d = 0; d < 4; d++)
                if (row_fits(b->width, b->height, x, y, d))
                    score_row(b, pos_make(x, y), d, me, score);
}

/* ---- Choosing the move ---- */

typedef struct Choice {
    Pos p;
    int64_t key; ///< the score in 1/NOISE_FRACTION units, plus the noise
} Choice;

static int by_key_descending(const void *a, const void *b) {
    const int64_t ka = ((const Choice *)a)->key, kb = ((const Choice *)b)->key;
    return (ka < kb) - (ka > kb);
}

static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static bool is_excluded(Pos p, const Pos *exclude, int count) {
    for (int i = 0; i < count; i++)
        if (exclude[i] == p) return true;
    return false;
}

Pos winlines_pick(Board *b, uint64_t seed, const Pos *exclude, int exclude_count) {
    int score[BOARD_CELLS];
    Choice choice[BOARD_MAX * BOARD_MAX];
    int n = 0;
    winlines_score(b, score);
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos p = pos_make(x, y);
            if (!board_empty(b, p) || is_excluded(p, exclude, exclude_count)) continue;
            const uint64_t noise = mix(seed ^ b->hash ^ (uint64_t)p * 0x9e3779b97f4a7c15u);
            choice[n++] = (Choice){p, (int64_t)score[p] * NOISE_FRACTION +
                                          (int64_t)(noise % ((uint64_t)score[p] + 1))};
        }
    qsort(choice, (size_t)n, sizeof *choice, by_key_descending);
    const bool fouls = b->rule == TG_RENJU && board_to_move(b) == BLACK;
    for (int i = 0; i < n; i++)
        if (!fouls || renju_foul(b, choice[i].p) == TG_FOUL_NONE) return choice[i].p;
    return POS_NONE;
}
