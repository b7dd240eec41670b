/*
 * render.c — a plain-text board for terminals and logs: rows numbered from the bottom, letters
 * along the bottom, X = Black, O = White, + = star point, ! = Black foul point (when asked),
 * and the last move between parentheses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "rules.h"

/// Star points: the centre and the points on the 3rd line (4th on boards of 13+) at each corner.
static bool is_star(int x, int y, int w, int h) {
    int in = (w >= 13 && h >= 13) ? 3 : 2;
    bool xs = x == in || x == w - 1 - in || (w % 2 && x == w / 2);
    bool ys = y == in || y == h - 1 - in || (h % 2 && y == h / 2);
    bool centre = (w % 2 && x == w / 2) && (h % 2 && y == h / 2);
    bool corner = (x == in || x == w - 1 - in) && (y == in || y == h - 1 - in);
    return xs && ys && (centre || corner);
}

static char cell_char(const TgGame *g, int x, int y, bool mark_forbidden) {
    TgPoint p = {x, y};
    switch (tg_game_stone(g, p)) {
    case TG_BLACK: return 'X';
    case TG_WHITE: return 'O';
    default: break;
    }
    if (mark_forbidden && tg_game_to_move(g) == TG_BLACK && tg_game_foul_at(g, p) != TG_FOUL_NONE)
        return '!';
    return is_star(x, y, g->board.width, g->board.height) ? '+' : '.';
}

char *tg_game_render(const TgGame *g, bool mark_forbidden) {
    const int w = g->board.width, h = g->board.height;
    size_t cap = (size_t)(h + 1) * (size_t)(2 * w + 8) + 1;
    char *out = malloc(cap), *s = out;
    if (!out) return NULL;
    Pos last = board_last_move(&g->board);
    for (int y = 0; y < h; y++) {
        s += sprintf(s, "%2d", h - y);
        for (int x = 0; x < w; x++) {
            Pos p = pos_make(x, y);
            char sep = p == last ? '(' : (x > 0 && pos_make(x - 1, y) == last) ? ')' : ' ';
            s += sprintf(s, "%c%c", sep, cell_char(g, x, y, mark_forbidden));
        }
        s += sprintf(s, "%c\n", pos_make(w - 1, y) == last ? ')' : ' ');
    }
    s += sprintf(s, "  ");
    for (int x = 0; x < w; x++) s += sprintf(s, " %c", x < 26 ? 'a' + x : '?');
    sprintf(s, "\n");
    return out;
}
