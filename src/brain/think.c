/*
 * think.c — the brain's output and searches: every line goes out through brain_out(); the limits a
 * job gets from the turn and game time left since its command arrived, the engine's progress as
 * MESSAGE lines and Yixin-Board's REALTIME stream, and the answers (a move, NBEST lines,
 * YXSEARCHDEFEND's list).
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void brain_out(Brain *b, const char *fmt, ...) {
    char line[OUT_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    b->cfg.write(b->cfg.user, line);
}
/// Limits for one search: what is left of the turn and game time since the command arrived
/// (counted up to the next millisecond), shared out when the command still needs
/// `searches_left` searches (SWAP2BOARD).
void brain_limits(const Brain *b, TgSearchLimits *l, int searches_left) {
    const Settings *s = &b->job.s;
    const int64_t elapsed = tg_now_ms() - b->job.received_ms + 1;
    memset(l, 0, sizeof *l);
    l->stop = b->job.stop;
    l->multipv = b->job.multipv;
    l->depth = s->max_depth > 0 ? s->max_depth : 0;
    l->level = s->level;
    l->nodes = s->max_node > 0 ? (uint64_t)s->max_node : 0;
    if (b->cfg.node_cap && (!l->nodes || l->nodes > b->cfg.node_cap)) l->nodes = b->cfg.node_cap;
    l->increment_ms = s->increment > 0 ? s->increment : 0;
    int64_t turn = s->timeout_turn >= UNLIMITED_MS ? 0 : s->timeout_turn - elapsed;
    if (s->timeout_turn == 0 || (s->timeout_turn < UNLIMITED_MS && turn <= 0)) l->instant = true;
    if (s->time_left != INT64_MAX && s->time_left < UNLIMITED_MS) {
        const int64_t left = s->time_left - elapsed;
        if (left <= 0)
            l->instant = true;
        else
            l->game_left_ms = left;
    }
    if (searches_left > 1 && !l->instant) {
        /* Several searches for one answer: each gets its share of one move's time. */
        int64_t budget = turn > 0 ? turn : SWAP2_UNLIMITED_MS;
        if (l->game_left_ms) budget = brain_min64(budget, l->game_left_ms / 8);
        l->turn_ms = budget / searches_left;
        l->game_left_ms = 0;
        if (l->turn_ms <= 0) l->instant = true;
    } else if (turn > 0) {
        l->turn_ms = turn;
    }
}

static void point_text(TgPoint p, char *buf, size_t size) {
    snprintf(buf, size, "%d,%d", p.x, p.y);
}

/// "7,7 8,8 9,9" for a line's moves.
static void line_text(const TgPvLine *l, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->length && n + 16 < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%d,%d", i ? " " : "", l->moves[i].x,
                              l->moves[i].y);
}

/// The readable summary of one line: depth, eval, speed, nodes, time, best line.
static void report_line(Brain *b, const TgSearchInfo *info, int index) {
    const TgPvLine *l = &info->lines[index];
    char score[32], pv[TG_MAX_PV * 12], tag[16] = "";
    tg_score_text(l->score, score, sizeof score);
    line_text(l, pv, sizeof pv);
    if (info->line_count > 1) snprintf(tag, sizeof tag, "(%d) ", index + 1);
    brain_out(b,
              "MESSAGE %sdepth %d-%d | eval %s | speed %" PRIu64 " kN/s | nodes %" PRIu64
              " | time %" PRId64 " ms | best %s",
              tag, l->depth, info->seldepth, score, info->nps / 1000, info->nodes, info->time_ms,
              pv);
}

static void report_realtime(Brain *b, const TgSearchInfo *info) {
    char pt[32];
    for (int i = 1; i < info->line_count; i++) {
        point_text(info->lines[i].moves[0], pt, sizeof pt);
        if (info->lines[i].score <= -TG_SCORE_WIN_MIN)
            brain_out(b, "MESSAGE REALTIME LOST %s", pt);
        else
            brain_out(b, "MESSAGE REALTIME DONE %s", pt);
    }
    point_text(info->lines[0].moves[0], pt, sizeof pt);
    brain_out(b, "MESSAGE REALTIME BEST %s", pt);
    brain_out(b, "MESSAGE REALTIME VAL %d", info->lines[0].score);
    char pv[TG_MAX_PV * 12];
    line_text(&info->lines[0], pv, sizeof pv);
    brain_out(b, "MESSAGE REALTIME PV %s", pv);
}

/// The engine's progress callback (search thread): the Yixin stream and per-depth lines.
static void on_search_info(const TgSearchInfo *info, void *user) {
    Brain *b = user;
    if (info->final || info->line_count < 1) return; /* the answer's summary comes after */
    if (b->job.s.detail & 1) report_realtime(b, info);
    if (b->job.s.detail & 2)
        for (int i = 0; i < info->line_count; i++) report_line(b, info, i);
}

bool brain_search(Brain *b, int searches_left, bool use_blocks, TgSearchResult *r) {
    TgSearchLimits l;
    brain_limits(b, &l, searches_left);
    if (use_blocks) {
        l.exclude = b->block;
        l.exclude_count = b->block_count;
    }
    if (b->job.s.detail & 1) brain_out(b, "MESSAGE REALTIME REFRESH");
    const TgError e = tg_engine_search(b->engine, b->game, &l, on_search_info, b, r);
    if (e == TG_OK) return true;
    brain_out(b, "ERROR %s", e == TG_ERR_GAME_OVER ? "the game is over" : tg_error_text(e));
    return false;
}

/// The summary line(s) of a finished search.
static void summary(Brain *b, const TgSearchResult *r) {
    const uint64_t nps = r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : 0;
    const TgSearchInfo info = {r->depth, r->seldepth,   r->nodes, r->time_ms,
                               nps,      r->line_count, r->lines, true};
    for (int i = 0; i < r->line_count; i++) report_line(b, &info, i);
}

/// The first empty point, or a pass on a full board.
static TgPoint first_empty(const TgGame *g) {
    for (int y = 0; y < tg_game_height(g); y++)
        for (int x = 0; x < tg_game_width(g); x++)
            if (tg_game_stone(g, (TgPoint){x, y}) == TG_NOBODY) return (TgPoint){x, y};
    return (TgPoint){-1, -1};
}

void brain_answer_move(Brain *b, const TgSearchResult *r) {
    summary(b, r);
    if (r->line_count > 0) {
        b->last_score = r->score;
        b->have_score = true;
    }
    TgPoint best = r->best;
    char pt[32];
    if (tg_point_is_pass(best)) {
        /* No legal move (renju Black with only forbidden points left, or a YXBLOCK list that
         * covers every empty point): the rules let it pass, the protocol has no pass. It plays
         * the first empty point, a foul that loses as the game would anyway; the manager sees
         * a point on the board, not -1,-1. */
        best = first_empty(b->game);
        point_text(best, pt, sizeof pt);
        brain_out(b, "MESSAGE no legal move is left: %s is played", pt);
        tg_game_set_fouls_playable(b->game, true);
    }
    if (b->job.s.detail & 1) {
        point_text(best, pt, sizeof pt);
        brain_out(b, "MESSAGE REALTIME BEST %s", pt);
    }
    tg_game_play(b->game, best, 0);
    tg_game_set_fouls_playable(b->game, false);
    brain_out(b, "%d,%d", best.x, best.y);
}

/// YXSEARCHDEFEND: the root moves that do not lose by force, as far as the search saw.
void brain_answer_defend(Brain *b, const TgSearchResult *r) {
    char list[TG_MAX_MULTIPV * 12];
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; i < r->line_count; i++)
        if (r->lines[i].score > -TG_SCORE_WIN_MIN)
            n += (size_t)snprintf(list + n, sizeof list - n, " %d,%d", r->lines[i].moves[0].x,
                                  r->lines[i].moves[0].y);
    brain_out(b, "MESSAGE DEFEND%s", n ? list : " none");
}
