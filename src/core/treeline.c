/*
 * treeline.c — reading one tree sample line.
 */
#include "treeline.h"

#include <stdlib.h>
#include <string.h>

/// Reads a sample's points ("h8i9j10"); false on a fault or a pass.
static bool parse_points(const char *text, int size, TgPoint *out, int *count) {
    char err[80];
    if (tg_parse_moves(text, size, size, out, BOARD_CELLS, count, err, sizeof err) != TG_OK)
        return false;
    for (int i = 0; i < *count; i++)
        if (tg_point_is_pass(out[i])) return false;
    return true;
}

bool tree_line_parse(char *text, TreeLine *t) {
    char *tok[6], *save = NULL;
    int n = 0;
    for (char *w = strtok_r(text, " \t\r\n", &save); w && n < 6;
         w = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = w;
    if (n != 6 || !tg_rule_from_name(tok[0], &t->rule)) return false;
    char *end;
    t->size = (int)strtol(tok[1], &end, 10);
    if (*end || t->size < TG_MIN_SIZE || t->size > TG_MAX_SIZE) return false;
    t->plies = (int)strtol(tok[2], &end, 10);
    if (*end || t->plies < 1) return false;
    t->stones = 0;
    if (strcmp(tok[3], "-") && !parse_points(tok[3], t->size, t->stone, &t->stones)) return false;
    return tg_point_from_text(tok[4], t->size, t->size, &t->best) == TG_OK &&
           !tg_point_is_pass(t->best) && parse_points(tok[5], t->size, t->move, &t->moves) &&
           t->moves >= 2;
}
