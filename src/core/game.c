/*
 * game.c — the game model. Invariant: board holds exactly record[0..board.ply), and result is
 * the result of that position (set by the last move, or by resign/agreement/time at this ply).
 * Undo and redo move board.ply along record[]; a new move cuts record[] at board.ply.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static const TgPoint PASS = {-1, -1};

Pos game_pos(const TgGame *g, TgPoint p) {
    if (tg_point_is_pass(p)) return POS_PASS;
    return board_contains(&g->board, p.x, p.y) ? pos_make(p.x, p.y) : POS_NONE;
}

TgPoint game_point(Pos p) {
    if (p == POS_PASS || p == POS_NONE) return PASS;
    return (TgPoint){pos_x(p), pos_y(p)};
}

TgGame *tg_game_new(TgRule rule, int width, int height) {
    if ((unsigned)rule >= TG_RULE_COUNT || width < TG_MIN_SIZE || height < TG_MIN_SIZE ||
        width > TG_MAX_SIZE || height > TG_MAX_SIZE)
        return NULL;
    TgGame *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    board_init(&g->board, rule, width, height);
    g->result.winner = TG_NOBODY;
    return g;
}

void tg_game_free(TgGame *g) {
    if (!g) return;
    for (int i = 0; i < GAME_INFO_MAX; i++) {
        free(g->info[i].key);
        free(g->info[i].value);
    }
    free(g);
}

TgGame *tg_game_clone(const TgGame *g) {
    TgGame *c = malloc(sizeof *c);
    if (!c) return NULL;
    memcpy(c, g, sizeof *c);
    memset(c->info, 0, sizeof c->info);
    for (int i = 0; i < GAME_INFO_MAX; i++)
        if (g->info[i].key) tg_game_set_info(c, g->info[i].key, g->info[i].value);
    return c;
}

TgRule tg_game_rule(const TgGame *g) { return g->board.rule; }
int tg_game_width(const TgGame *g) { return g->board.width; }
int tg_game_height(const TgGame *g) { return g->board.height; }
void tg_game_set_fouls_playable(TgGame *g, bool playable) { g->fouls_playable = playable; }

TgColor tg_game_stone(const TgGame *g, TgPoint p) {
    Pos q = game_pos(g, p);
    if (q == POS_NONE || q == POS_PASS) return TG_NOBODY;
    Color c = (Color)g->board.cell[q];
    return c == BLACK ? TG_BLACK : c == WHITE ? TG_WHITE : TG_NOBODY;
}

TgColor tg_game_to_move(const TgGame *g) { return (TgColor)board_to_move(&g->board); }
int tg_game_ply(const TgGame *g) { return g->board.ply; }
int tg_game_length(const TgGame *g) { return g->length; }
TgResult tg_game_result(const TgGame *g) { return g->result; }
bool tg_game_over(const TgGame *g) { return g->result.reason != TG_REASON_NONE; }

TgPoint tg_game_move(const TgGame *g, int index) {
    return index >= 0 && index < g->length ? game_point(g->record[index]) : PASS;
}

TgFoul tg_game_foul_at(const TgGame *g, TgPoint p) {
    Pos q = game_pos(g, p);
    if (g->board.rule != TG_RENJU || q == POS_NONE || q == POS_PASS || !board_empty(&g->board, q))
        return TG_FOUL_NONE;
    /* The probe puts stones down and lifts them again; the game is unchanged afterwards. */
    return renju_foul((Board *)&g->board, q);
}

TgError tg_game_check(const TgGame *g, TgPoint p, TgFoul *foul) {
    if (foul) *foul = TG_FOUL_NONE;
    if (tg_game_over(g)) return TG_ERR_GAME_OVER;
    Pos q = game_pos(g, p);
    if (q == POS_PASS) return g->board.ply < MAX_PLY - 1 ? TG_OK : TG_ERR_PASS;
    if (q == POS_NONE) return TG_ERR_OFF_BOARD;
    if (!board_empty(&g->board, q)) return TG_ERR_OCCUPIED;
    if (g->board.ply >= MAX_PLY) return TG_ERR_ARGUMENT; /* the record is full */
    if (g->board.rule == TG_RENJU && board_to_move(&g->board) == BLACK) {
        TgFoul f = tg_game_foul_at(g, p);
        if (foul) *foul = f;
        if (f != TG_FOUL_NONE && !g->fouls_playable) return TG_ERR_FORBIDDEN;
    }
    return TG_OK;
}

static TgResult no_result(void) { return (TgResult){.winner = TG_NOBODY}; }

/// The result the move just played at q (by `mover`) gives, given a foul found beforehand.
static TgResult result_after_move(const TgGame *g, Pos q, Color mover, TgFoul foul) {
    const Board *b = &g->board;
    TgResult r = no_result();
    if (q == POS_PASS) {
        if (b->ply >= 2 && b->moves[b->ply - 2] == POS_PASS) r.reason = TG_REASON_PASSES;
        return r;
    }
    Pos from, to;
    int len;
    if (foul != TG_FOUL_NONE) {
        r.reason = TG_REASON_FOUL;
        r.winner = TG_WHITE;
        r.foul = foul;
        r.foul_point = game_point(q);
    } else if (rules_five_at(b, q, &from, &to, &len)) {
        r.reason = TG_REASON_FIVE;
        r.winner = (TgColor)mover;
        r.line = (TgWinLine){game_point(from), game_point(to), len};
    } else if (b->stone_count == b->width * b->height) {
        r.reason = TG_REASON_FULL_BOARD;
    }
    return r;
}

/// Plays q for the side to move, with its result; the foul was judged by the caller.
static void apply_move(TgGame *g, Pos q, TgFoul foul) {
    Color mover = board_to_move(&g->board);
    board_play(&g->board, q);
    g->result = result_after_move(g, q, mover, foul);
}

/// Charges the mover's clock for the move just made; false if the mover had run out.
static bool charge_clock(TgGame *g, int64_t now_ms) {
    Color mover = board_to_move(&g->board);
    if (!g->clock_running) {
        /* Played while paused: what the mover spent before the pause is its own, and the next
         * side's move starts from nothing. */
        if (g->clock.game_ms) g->left_ms[mover] -= g->turn_spent_ms;
        g->spent_ms[g->board.ply] = g->turn_spent_ms;
        g->turn_spent_ms = 0;
        return true;
    }
    int64_t spent = g->turn_spent_ms + (now_ms - g->turn_mark_ms);
    if (tg_game_check_time(g, now_ms)) return false;
    if (g->clock.game_ms) g->left_ms[mover] += g->clock.increment_ms - spent;
    g->spent_ms[g->board.ply] = spent;
    g->turn_spent_ms = 0;
    g->turn_mark_ms = now_ms;
    return true;
}

TgError tg_game_play(TgGame *g, TgPoint p, int64_t now_ms) {
    TgFoul foul;
    TgError e = tg_game_check(g, p, &foul);
    if (e != TG_OK) return e;
    if (!charge_clock(g, now_ms)) return TG_ERR_GAME_OVER;
    Pos q = game_pos(g, p);
    g->record[g->board.ply] = q;
    g->length = g->board.ply + 1;
    apply_move(g, q, foul);
    if (tg_game_over(g)) g->clock_running = false; /* the clocks stop with the game */
    return TG_OK;
}

TgError tg_game_undo(TgGame *g) {
    if (g->board.ply == 0) return TG_ERR_NOTHING;
    board_undo(&g->board);
    g->result = no_result();
    return TG_OK;
}

TgError tg_game_redo(TgGame *g) {
    if (g->board.ply >= g->length) return TG_ERR_NOTHING;
    Pos q = g->record[g->board.ply];
    TgFoul foul = TG_FOUL_NONE;
    if (q != POS_PASS && g->board.rule == TG_RENJU && board_to_move(&g->board) == BLACK)
        foul = renju_foul(&g->board, q);
    apply_move(g, q, foul);
    return TG_OK;
}

TgError tg_game_goto(TgGame *g, int ply) {
    if (ply < 0 || ply > g->length) return TG_ERR_ARGUMENT;
    while (g->board.ply > ply) tg_game_undo(g);
    while (g->board.ply < ply) tg_game_redo(g);
    return TG_OK;
}

TgError tg_game_set_moves(TgGame *g, const TgPoint *moves, int count, int *bad_index) {
    TgGame *trial = tg_game_clone(g);
    if (!trial) return TG_ERR_MEMORY;
    trial->clock_running = false;
    trial->turn_spent_ms = 0;
    while (trial->board.ply > 0) board_undo(&trial->board);
    trial->length = 0;
    trial->result = no_result();
    for (int i = 0; i < count; i++) {
        TgError e = tg_game_play(trial, moves[i], 0);
        if (e != TG_OK) {
            if (bad_index) *bad_index = i;
            tg_game_free(trial);
            return e;
        }
    }
    /* Commit: the board and record move over; info, clock settings and options stay. */
    g->board = trial->board;
    memcpy(g->record, trial->record, sizeof g->record);
    memcpy(g->spent_ms, trial->spent_ms, sizeof g->spent_ms);
    g->length = trial->length;
    g->result = trial->result;
    tg_game_free(trial);
    return TG_OK;
}

TgError tg_game_resign(TgGame *g, TgColor loser) {
    if (tg_game_over(g)) return TG_ERR_GAME_OVER;
    if (loser != TG_BLACK && loser != TG_WHITE) return TG_ERR_ARGUMENT;
    g->result = no_result();
    g->result.reason = TG_REASON_RESIGN;
    g->clock_running = false;
    g->result.winner = (TgColor)(loser ^ 1);
    return TG_OK;
}

TgError tg_game_agree_draw(TgGame *g) {
    if (tg_game_over(g)) return TG_ERR_GAME_OVER;
    g->result = no_result();
    g->result.reason = TG_REASON_AGREEMENT;
    g->clock_running = false;
    return TG_OK;
}

void tg_game_set_result(TgGame *g, TgResult result) { g->result = result; }

int tg_game_forbidden(const TgGame *g, TgForbidden *out, int max_out) {
    const Board *b = &g->board;
    if (b->rule != TG_RENJU || board_to_move(b) != BLACK) return 0;
    int n = 0;
    for (int x = 0; x < b->width; x++) {
        for (int y = b->height - 1; y >= 0; y--) { /* bottom to top */
            TgPoint p = {x, y};
            TgFoul f = tg_game_foul_at(g, p);
            if (f == TG_FOUL_NONE) continue;
            if (n < max_out) out[n] = (TgForbidden){p, f};
            n++;
        }
    }
    return n;
}

/* ---- Clocks ---- */

TgError tg_game_set_clock(TgGame *g, TgClock clock) {
    if (clock.game_ms < 0 || clock.increment_ms < 0 || clock.move_ms < 0) return TG_ERR_ARGUMENT;
    g->clock = clock;
    g->left_ms[0] = g->left_ms[1] = clock.game_ms;
    g->turn_spent_ms = 0;
    g->clock_running = false;
    return TG_OK;
}

TgClock tg_game_clock(const TgGame *g) { return g->clock; }
bool tg_game_clock_running(const TgGame *g) { return g->clock_running; }

void tg_game_clock_start(TgGame *g, int64_t now_ms) {
    if (g->clock_running || tg_game_over(g)) return;
    g->clock_running = true;
    g->turn_mark_ms = now_ms;
}

void tg_game_clock_pause(TgGame *g, int64_t now_ms) {
    if (!g->clock_running) return;
    g->turn_spent_ms += now_ms - g->turn_mark_ms;
    g->clock_running = false;
}

/// Time the side to move has spent on this move so far.
static int64_t turn_spent(const TgGame *g, int64_t now_ms) {
    return g->turn_spent_ms + (g->clock_running ? now_ms - g->turn_mark_ms : 0);
}

int64_t tg_game_time_left(const TgGame *g, TgColor color, int64_t now_ms) {
    if (!g->clock.game_ms || (color != TG_BLACK && color != TG_WHITE)) return INT64_MAX;
    int64_t left = g->left_ms[color];
    if (color == tg_game_to_move(g)) left -= turn_spent(g, now_ms);
    return left;
}

int64_t tg_game_move_time_left(const TgGame *g, int64_t now_ms) {
    int64_t left = tg_game_time_left(g, tg_game_to_move(g), now_ms);
    if (g->clock.move_ms) {
        int64_t move_left = g->clock.move_ms - turn_spent(g, now_ms);
        if (move_left < left) left = move_left;
    }
    return left;
}

TgError tg_game_set_time_left(TgGame *g, TgColor color, int64_t ms) {
    if (!g->clock.game_ms || (color != TG_BLACK && color != TG_WHITE)) return TG_ERR_ARGUMENT;
    /* The side to move's share of its current move is charged from left_ms when it moves. */
    g->left_ms[color] = ms + (color == tg_game_to_move(g) ? g->turn_spent_ms : 0);
    return TG_OK;
}

bool tg_game_check_time(TgGame *g, int64_t now_ms) {
    if (tg_game_over(g) || !g->clock_running) return false;
    if (tg_game_move_time_left(g, now_ms) >= 0) return false;
    tg_game_clock_pause(g, now_ms);
    g->result = no_result();
    g->result.reason = TG_REASON_TIME;
    g->result.winner = (TgColor)(tg_game_to_move(g) ^ 1);
    return true;
}

/* ---- Record fields ---- */

static GameInfo *find_info(TgGame *g, const char *key) {
    for (int i = 0; i < GAME_INFO_MAX; i++)
        if (g->info[i].key && strcmp(g->info[i].key, key) == 0) return &g->info[i];
    return NULL;
}

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

void tg_game_set_info(TgGame *g, const char *key, const char *value) {
    GameInfo *slot = find_info(g, key);
    if (!slot && !value) return;
    for (int i = 0; !slot && i < GAME_INFO_MAX; i++)
        if (!g->info[i].key) slot = &g->info[i];
    if (!slot) return; /* full: the extra field is dropped */
    /* Copy before the free: value may be the very string being replaced. */
    char *copy = value ? copy_string(value) : NULL;
    free(slot->value);
    slot->value = copy;
    if (!slot->key) slot->key = copy_string(key);
    if (!slot->value || !slot->key) {
        free(slot->key);
        free(slot->value);
        slot->key = slot->value = NULL;
    }
}

const char *tg_game_info(const TgGame *g, const char *key) {
    GameInfo *slot = find_info((TgGame *)g, key);
    return slot ? slot->value : NULL;
}

TgError tg_game_setup(TgGame *g, const TgPoint *moves, int count, int *bad_index) {
    Board trial;
    board_init(&trial, g->board.rule, g->board.width, g->board.height);
    for (int i = 0; i < count; i++) {
        Pos q = game_pos(g, moves[i]);
        TgError e = q == POS_NONE                              ? TG_ERR_OFF_BOARD
                    : q != POS_PASS && !board_empty(&trial, q) ? TG_ERR_OCCUPIED
                    : trial.ply >= MAX_PLY - 1                 ? TG_ERR_ARGUMENT
                                                               : TG_OK;
        if (e != TG_OK) {
            if (bad_index) *bad_index = i;
            return e;
        }
        board_play(&trial, q);
    }
    g->board = trial;
    memcpy(g->record, trial.moves, sizeof(Pos) * (size_t)count);
    memset(g->spent_ms, 0, sizeof g->spent_ms);
    g->length = count;
    g->result = no_result();
    return TG_OK;
}
