/*
 * match.c — engine-against-engine games: opening files and one game played out (match.h).
 */
#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- Openings ---- */

void match_openings_free(MatchOpenings *o) {
    for (int i = 0; i < o->count; i++) {
        free(o->list[i].text);
        free(o->list[i].moves);
    }
    free(o->list);
    o->list = NULL;
    o->count = 0;
}

/// Checks one opening under the rule and size; false with *why written if unusable.
static bool opening_check(TgRule rule, int width, int height, const char *text, MatchOpening *op,
                          char *why, size_t size) {
    const int max = width * height;
    op->moves = malloc(sizeof *op->moves * (size_t)max);
    if (!op->moves) return snprintf(why, size, "out of memory"), false;
    if (tg_parse_moves(text, width, height, op->moves, max, &op->count, why, size) != TG_OK)
        return false;
    TgGame *g = tg_game_new(rule, width, height);
    int bad = -1;
    TgError e = g ? tg_game_set_moves(g, op->moves, op->count, &bad) : TG_ERR_MEMORY;
    if (e != TG_OK && bad >= 0)
        snprintf(why, size, "move %d: %s", bad + 1, tg_error_text(e));
    else if (e != TG_OK)
        snprintf(why, size, "%s", tg_error_text(e));
    else if (tg_game_over(g))
        snprintf(why, size, "the game is already over"), e = TG_ERR_GAME_OVER;
    tg_game_free(g);
    return e == TG_OK;
}

/// Adds the opening on one line (trimmed); false only when out of memory.
static bool opening_add(MatchOpenings *o, TgRule rule, int width, int height, const char *path,
                        char *line, int line_no) {
    char why[256];
    MatchOpening op = {0};
    if (!opening_check(rule, width, height, line, &op, why, sizeof why)) {
        cli_error("%s:%d: opening '%s' skipped: %s", path, line_no, line, why);
        free(op.moves);
        return true;
    }
    MatchOpening *grown = realloc(o->list, sizeof *grown * (size_t)(o->count + 1));
    op.text = strdup(line);
    if (!grown || !op.text) {
        free(op.moves);
        free(op.text);
        if (grown) o->list = grown;
        return false;
    }
    o->list = grown;
    o->list[o->count++] = op;
    return true;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) *--end = '\0';
    return s;
}

int match_openings_load(const char *path, TgRule rule, int width, int height, const char *command,
                        MatchOpenings *out) {
    size_t len;
    char *data = cli_read_file(path, &len);
    if (!data) return 1;
    int line_no = 0;
    bool ok = true;
    for (char *line = data, *next; ok && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *text = trim(line);
        line_no++;
        if (*text && *text != '#') ok = opening_add(out, rule, width, height, path, text, line_no);
    }
    free(data);
    if (!ok) return cli_error("%s: out of memory reading the openings", command);
    if (out->count == 0)
        return cli_error("%s: %s holds no usable opening for %s %dx%d", command, path,
                         tg_rule_name(rule), width, height);
    return 0;
}

/* ---- One game ---- */

uint64_t match_game_seed(uint64_t seed, long game) {
    uint64_t z = seed + (uint64_t)(game + 1) * 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void forfeit(MatchOutcome *out, TgColor side, const char *what, TgError e) {
    out->winner = side == TG_BLACK ? TG_WHITE : TG_BLACK;
    out->engine_bug = true;
    snprintf(out->how, sizeof out->how, "%s wins: engine bug, %s's %s: %s",
             tg_color_name(out->winner), tg_color_name(side), what, tg_error_text(e));
}

static void describe_result(const TgGame *g, MatchOutcome *out) {
    const TgResult res = tg_game_result(g);
    out->winner = res.winner;
    if (res.reason == TG_REASON_NONE)
        snprintf(out->how, sizeof out->how, "draw by move limit");
    else if (res.winner == TG_NOBODY)
        snprintf(out->how, sizeof out->how, "draw by %s", tg_reason_name(res.reason));
    else
        snprintf(out->how, sizeof out->how, "%s wins by %s", tg_color_name(res.winner),
                 tg_reason_name(res.reason));
}

/// Plays the game on until it ends, the move limit passes or an engine fails.
static void play_out(TgGame *g, const MatchSide side[2], uint64_t seed, MatchOutcome *out) {
    const int move_limit = tg_game_width(g) * tg_game_height(g) + 2; /* passes could go on */
    TgSearchResult *r = malloc(sizeof *r);
    if (!r) {
        forfeit(out, tg_game_to_move(g), "search", TG_ERR_MEMORY);
        return;
    }
    while (!tg_game_over(g) && tg_game_ply(g) < move_limit) {
        const TgColor c = tg_game_to_move(g);
        TgSearchLimits limits = side[c].limits;
        limits.seed = seed;
        TgError e = tg_engine_search(side[c].engine, g, &limits, NULL, NULL, r);
        if (e != TG_OK) {
            forfeit(out, c, "search failed", e);
            break;
        }
        if ((e = tg_game_play(g, r->best, 0)) != TG_OK) {
            char pt[8], what[32];
            tg_point_to_text(r->best, tg_game_width(g), tg_game_height(g), pt, sizeof pt);
            snprintf(what, sizeof what, "move %s was refused", pt);
            forfeit(out, c, what, e);
            break;
        }
    }
    free(r);
    if (!out->engine_bug) describe_result(g, out);
    out->moves = tg_game_ply(g);
}

TgGame *match_play(TgRule rule, int width, int height, const MatchOpening *opening,
                   const MatchSide side[2], uint64_t seed, MatchOutcome *out) {
    TgGame *g = tg_game_new(rule, width, height);
    if (!g || (opening && tg_game_set_moves(g, opening->moves, opening->count, NULL) != TG_OK)) {
        tg_game_free(g);
        return NULL;
    }
    tg_engine_clear(side[TG_BLACK].engine);
    tg_engine_clear(side[TG_WHITE].engine);
    memset(out, 0, sizeof *out);
    play_out(g, side, seed, out);
    return g;
}
