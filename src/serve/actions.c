/*
 * actions.c — what each API action does to a game: moves, undo and redo (by pairs
 * against the computer, by agreement online), jumps, resignation, draws, the computer's
 * search controls and analysis; and making games (new, or imported from a record).
 *
 * Every action runs under the game's lock and checks everything before it changes anything,
 * so a refused request leaves the game as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

enum {
    DRAW_ACCEPT_MARGIN = 400, ///< the computer accepts a draw when this much worse
    MAX_ANALYSIS_MS = 10 * 60 * 1000,
    MAX_COMPUTER_MS = 10 * 60 * 1000,
    DEFAULT_ANALYSIS_MS = 2000,
    MAX_START_MOVES = TG_MAX_SIZE * TG_MAX_SIZE,
};
#define MAX_CLOCK_MS (INT64_C(24) * 3600 * 1000)

struct ActionCtx {
    Server *s;
    LiveGame *g;
    json_t *body;
    TgColor seat;    ///< online: the colour whose token came (held now); TG_NOBODY otherwise
    int seat_player; ///< online: the player number whose token came; -1 otherwise
    ApiError err;
    int status;     ///< 200 unless set
    json_t *answer; ///< a different answer than the game, if set
    bool declined;  ///< the computer declined a draw
};

static TgColor other(TgColor c) { return c == TG_BLACK ? TG_WHITE : TG_BLACK; }

static const char *str_field(json_t *body, const char *name, const char *fallback) {
    const char *v = json_string_value(json_object_get(body, name));
    return v ? v : fallback;
}

static bool color_field(ActionCtx *c, TgColor *out) {
    const char *name = str_field(c->body, "color", NULL);
    *out = TG_NOBODY;
    if (!name) return true;
    *out = color_from_name(name);
    if (*out == TG_NOBODY)
        return api_fail(&c->err, 400, "bad_field", "color must be black or white");
    return true;
}

static bool game_over(ActionCtx *c) {
    if (!tg_game_over(c->g->game)) return false;
    return !api_fail(&c->err, 409, "game_over", "the game is over");
}

/// A loss on time cannot be taken back: the clock that ran out would end it again.
static bool lost_on_time(ActionCtx *c) {
    if (tg_game_result(c->g->game).reason != TG_REASON_TIME) return false;
    return !api_fail(&c->err, 409, "game_over", "the game was lost on time");
}

static void clear_offers(LiveGame *g) { g->draw_offer = g->undo_offer = TG_NOBODY; }

/* ---- Moves ---- */

static bool refuse_move(ActionCtx *c, const char *text, TgError e, TgFoul foul) {
    switch (e) {
    case TG_ERR_OCCUPIED: return api_fail(&c->err, 409, "illegal", "%s is already taken", text);
    case TG_ERR_FORBIDDEN:
        api_fail(&c->err, 409, "illegal", "%s is forbidden for Black: %s (%s)", text,
                 cli_foul_name(foul), tg_foul_code(foul));
        c->err.foul = foul;
        return false;
    case TG_ERR_GAME_OVER: return api_fail(&c->err, 409, "game_over", "the game is over");
    default:
        return api_fail(&c->err, 409, "illegal", "%s cannot be played: %s", text, tg_error_text(e));
    }
}

static bool act_move(ActionCtx *c) {
    LiveGame *g = c->g;
    TgGame *game = g->game;
    const char *text = str_field(c->body, "move", "");
    const int w = tg_game_width(game), h = tg_game_height(game);
    TgPoint p;
    if (tg_point_from_text(text, w, h, &p) != TG_OK)
        return api_fail(&c->err, 400, "bad_move", "'%.20s' is not a point on this %dx%d board",
                        text, w, h);
    if (game_over(c)) return false;
    if (game_in_opening(g))
        return api_fail(&c->err, 409, "illegal",
                        "the opening phase is not over: send its actions to /opening");
    const TgColor mover = tg_game_to_move(game);
    if (game_is_computer(g, mover))
        return api_fail(&c->err, 409, "not_your_turn", "it is the computer's turn (%s)",
                        tg_color_name(mover));
    if (g->online && c->seat != mover)
        return api_fail(&c->err, 403, "not_your_seat", "it is %s's move, not yours",
                        tg_color_name(mover));
    TgFoul foul;
    TgError e = tg_game_check(game, p, &foul);
    if (e != TG_OK) return refuse_move(c, text, e, foul);
    if (game_is_computer(g, other(mover)) && !pool_has_room(c->s))
        return api_fail(&c->err, 503, "queue_full", "every engine is busy; try again soon");
    game_cancel_search(g); /* an analysis of the position before */
    const int ply = tg_game_ply(game);
    e = tg_game_play(game, p, tg_now_ms());
    clear_offers(g);
    if (e == TG_OK) {
        game_cut_evals(g, ply);
        g->paused = false;
    }
    game_changed(c->s, g);
    if (e != TG_OK) return api_fail(&c->err, 409, "game_over", "your time ran out");
    return true;
}

/* ---- Undo, redo, goto ---- */

/// Takes back `plies` moves and then `actions` actions of the opening phase (a plan of
/// opening_undo_plan: against the computer everything since the human's last move or
/// action, otherwise one).
static void take_back(ActionCtx *c, int plies, int actions) {
    game_cancel_search(c->g);
    opening_undo_apply(c->g, plies, actions);
    clear_offers(c->g);
    c->g->paused = true;
    game_changed(c->s, c->g);
}

/// A result without a move (resignation, agreement) is undone by lifting it.
static bool lift_result(ActionCtx *c) {
    const TgReason r = tg_game_result(c->g->game).reason;
    if (r != TG_REASON_RESIGN && r != TG_REASON_AGREEMENT) return false;
    tg_game_set_result(c->g->game, (TgResult){.winner = TG_NOBODY});
    take_back(c, 0, 0);
    return true;
}

/// Online, an undo is asked for by one seat and granted by the other.
static bool online_undo(ActionCtx *c) {
    LiveGame *g = c->g;
    const TgColor me = c->seat;
    int plies, actions;
    if (g->undo_offer == other(me)) {
        if (!opening_undo_plan(g, 1 - c->seat_player, &plies, &actions))
            return api_fail(&c->err, 409, "nothing", "nothing to undo");
        take_back(c, plies, actions);
        return true;
    }
    if (g->undo_offer == me) return true; /* asked already */
    if (tg_game_over(g->game)) return api_fail(&c->err, 409, "game_over", "the game is over");
    if (!opening_undo_plan(g, c->seat_player, &plies, &actions))
        return api_fail(&c->err, 409, "nothing", "you have no move to take back");
    g->undo_offer = me;
    game_publish(c->s, g);
    return true;
}

static bool act_undo(ActionCtx *c) {
    if (c->g->online) return online_undo(c);
    if (lost_on_time(c)) return false;
    if (lift_result(c)) return true;
    int plies, actions;
    if (!opening_undo_plan(c->g, game_human_seat(c->g), &plies, &actions))
        return api_fail(&c->err, 409, "nothing", "nothing to undo");
    take_back(c, plies, actions);
    return true;
}

static bool act_redo(ActionCtx *c) {
    LiveGame *g = c->g;
    if (g->online) return api_fail(&c->err, 409, "nothing", "an online game has no redo");
    if (lost_on_time(c)) return false;
    if (tg_game_ply(g->game) >= tg_game_length(g->game) || tg_game_over(g->game))
        return api_fail(&c->err, 409, "nothing", "nothing to redo");
    game_cancel_search(g);
    /* Against the computer: the human's move and the reply it had. */
    const bool pairs = game_human_color(g) != TG_NOBODY;
    do {
        if (tg_game_redo(g->game) != TG_OK) break;
    } while (pairs && tg_game_ply(g->game) < tg_game_length(g->game) && game_computer_to_move(g));
    clear_offers(g);
    g->paused = true;
    game_changed(c->s, g);
    return true;
}

static bool act_goto(ActionCtx *c) {
    LiveGame *g = c->g;
    const json_int_t ply = json_integer_value(json_object_get(c->body, "ply"));
    const int length = tg_game_length(g->game);
    /* The opening's stones are taken back by undo only, action by action. */
    const int first = g->opening ? tg_opening_stones(g->opening, NULL, 0) : 0;
    if (g->online) return api_fail(&c->err, 409, "illegal", "an online game cannot jump");
    if (game_in_opening(g))
        return api_fail(&c->err, 409, "illegal", "the opening phase is not over");
    if (ply < first || ply > length)
        return api_fail(&c->err, 400, "bad_field", "ply must be from %d to %d", first, length);
    /* A finished game is kept as played: reviewing it is the client's view, not a jump. */
    if (tg_game_over(g->game))
        return api_fail(&c->err, 409, "game_over",
                        "the game is over and kept as played: review it, or start a variation "
                        "as a new game");
    game_cancel_search(g);
    tg_game_goto(g->game, (int)ply);
    clear_offers(g);
    g->paused = true;
    game_changed(c->s, g);
    return true;
}

/* ---- Resign and draw ---- */

/// Who resigns or offers a draw: `color` if given (online, it must be the seat's), else the
/// seat, the human against the computer, or the side to move.
static bool acting_color(ActionCtx *c, TgColor *who) {
    if (!color_field(c, who)) return false;
    if (c->g->online && *who != TG_NOBODY && *who != c->seat)
        return api_fail(&c->err, 403, "not_your_seat", "you hold the other seat");
    if (*who != TG_NOBODY) return true;
    const TgColor human = game_human_color(c->g);
    *who = c->g->online ? c->seat : human != TG_NOBODY ? human : tg_game_to_move(c->g->game);
    return true;
}

static bool act_resign(ActionCtx *c) {
    TgColor loser;
    if (!acting_color(c, &loser) || game_over(c)) return false;
    game_cancel_search(c->g);
    tg_game_resign(c->g->game, loser);
    clear_offers(c->g);
    game_changed(c->s, c->g);
    return true;
}

static void agree_draw(ActionCtx *c) {
    game_cancel_search(c->g);
    tg_game_agree_draw(c->g->game);
    clear_offers(c->g);
    game_changed(c->s, c->g);
}

/// The computer's answer, from the last evaluation at or before this ply: it accepts when it
/// judges itself clearly worse, or when the board is nearly full and it is not clearly better.
static bool computer_accepts_draw(const LiveGame *g, TgColor computer) {
    const TgGame *game = g->game;
    const int ply = tg_game_ply(game), cells = tg_game_width(game) * tg_game_height(game);
    const bool nearly_full = (cells - ply) * 10 < cells;
    int i = ply < g->eval_cap ? ply : g->eval_cap - 1;
    while (i >= 0 && !g->evals[i].valid) i--;
    if (i < 0) return nearly_full;
    const int mine = computer == TG_BLACK ? g->evals[i].score : -g->evals[i].score;
    return mine <= -DRAW_ACCEPT_MARGIN || (nearly_full && mine < DRAW_ACCEPT_MARGIN);
}

static bool act_draw(ActionCtx *c) {
    LiveGame *g = c->g;
    TgColor me;
    if (!acting_color(c, &me) || game_over(c)) return false;
    if (game_is_computer(g, TG_BLACK) && game_is_computer(g, TG_WHITE))
        return api_fail(&c->err, 409, "not_your_turn", "no human plays this game");
    if (game_is_computer(g, other(me))) {
        if (computer_accepts_draw(g, other(me)))
            agree_draw(c);
        else
            c->declined = true;
        return true;
    }
    if (g->draw_offer == other(me)) {
        agree_draw(c);
    } else if (g->draw_offer != me) {
        g->draw_offer = me;
        game_publish(c->s, g);
    }
    return true;
}

/// Turns down the other side's standing draw or undo offer. Online only the other seat may;
/// on one screen either side may (the players share it).
static bool act_decline(ActionCtx *c) {
    LiveGame *g = c->g;
    const TgColor me = g->online ? c->seat : TG_NOBODY;
    bool declined = false;
    if (g->draw_offer != TG_NOBODY && g->draw_offer != me) {
        g->draw_offer = TG_NOBODY;
        declined = true;
    }
    if (g->undo_offer != TG_NOBODY && g->undo_offer != me) {
        g->undo_offer = TG_NOBODY;
        declined = true;
    }
    if (!declined) return api_fail(&c->err, 409, "nothing", "there is no offer to decline");
    game_publish(c->s, g);
    return true;
}

/* ---- The computer's search ---- */

static bool computer_must_move(ActionCtx *c) {
    if (game_over(c)) return false;
    if (!game_computer_to_move(c->g))
        return api_fail(&c->err, 409, "not_your_turn", "it is not the computer's turn");
    return true;
}

static bool act_go(ActionCtx *c) {
    LiveGame *g = c->g;
    if (!computer_must_move(c)) return false;
    if (game_thinking(g)) return true; /* already */
    if (!pool_has_room(c->s)) return api_fail(&c->err, 503, "queue_full", "every engine is busy");
    game_cancel_search(g); /* an analysis */
    g->paused = false;
    game_publish(c->s, g);
    return true;
}

static bool act_move_now(ActionCtx *c) {
    LiveGame *g = c->g;
    if (!computer_must_move(c)) return false;
    if (game_thinking(g)) {
        atomic_store(&g->job->hurry, true);
        atomic_store(&g->job->stop, true);
        return true;
    }
    if (!pool_has_room(c->s)) return api_fail(&c->err, 503, "queue_full", "every engine is busy");
    game_cancel_search(g);
    g->paused = false;
    work_start_move(c->s, g, true);
    game_publish(c->s, g);
    return true;
}

static bool act_stop(ActionCtx *c) {
    LiveGame *g = c->g;
    if (g->job && g->job->kind == JOB_ANALYSIS) { /* it ends now and reports what it found */
        atomic_store(&g->job->stop, true);
        return true;
    }
    if (!game_computer_to_move(g) || (g->paused && !g->job)) return true;
    game_cancel_search(g);
    g->paused = true;
    game_publish(c->s, g);
    return true;
}

static bool act_analyze(ActionCtx *c) {
    LiveGame *g = c->g;
    json_t *t = json_object_get(c->body, "time_ms"), *m = json_object_get(c->body, "multipv");
    const json_int_t ms = t ? json_integer_value(t) : DEFAULT_ANALYSIS_MS;
    const json_int_t multipv = m ? json_integer_value(m) : 1;
    if (ms < 0 || ms > MAX_ANALYSIS_MS)
        return api_fail(&c->err, 400, "bad_field", "time_ms must be from 0 to %d", MAX_ANALYSIS_MS);
    if (multipv < 1 || multipv > 10)
        return api_fail(&c->err, 400, "bad_field", "multipv must be from 1 to 10");
    if (game_over(c)) return false;
    if (game_in_opening(g))
        return api_fail(&c->err, 409, "illegal", "no analysis during the opening phase");
    if (game_thinking(g) || (game_computer_to_move(g) && !g->paused))
        return api_fail(&c->err, 409, "busy", "the computer is thinking about its move");
    if (g->online && !(g->aids[0] && g->aids[1]))
        return api_fail(&c->err, 409, "illegal",
                        "hints and analysis need both players' agreement (aids)");
    if (!pool_has_room(c->s) ||
        !work_start_analysis(c->s, g, ms ? ms : MAX_ANALYSIS_MS, (int)multipv))
        return api_fail(&c->err, 503, "queue_full", "every engine is busy");
    c->status = 202;
    return true;
}

/// Online: this seat's player agrees (or no longer agrees) to hints and analysis.
static bool act_aids(ActionCtx *c) {
    if (!c->g->online)
        return api_fail(&c->err, 409, "illegal", "only an online game asks for agreement");
    c->g->aids[c->seat_player] = json_is_true(json_object_get(c->body, "allow"));
    if (!(c->g->aids[0] && c->g->aids[1])) game_cancel_search(c->g); /* an analysis running stops */
    game_publish(c->s, c->g);
    return true;
}

/* ---- Seats ---- */

static bool new_token(char token[SERVE_TOKEN_LEN + 1]) {
    unsigned char bytes[SERVE_TOKEN_LEN / 2];
    if (!serve_random(bytes, sizeof bytes)) return false;
    for (int i = 0; i < SERVE_TOKEN_LEN / 2; i++) snprintf(token + 2 * i, 3, "%02x", bytes[i]);
    return true;
}

/// The seat of player number `seat`: the colour it holds now, its number (1 or 2), the token.
static json_t *you_json(const LiveGame *g, int seat) {
    return json_pack("{s:s, s:i, s:s}", "color", tg_color_name(game_seat_color(g, seat)), "player",
                     seat + 1, "token", g->token[seat]);
}

static bool act_join(ActionCtx *c) {
    LiveGame *g = c->g;
    if (!g->online) return api_fail(&c->err, 409, "illegal", "this game is not played online");
    int seat = c->seat_player;
    if (seat < 0) {
        seat = !g->token[0][0] ? 0 : !g->token[1][0] ? 1 : -1;
        if (seat < 0) return api_fail(&c->err, 409, "seat_taken", "both seats are taken");
        if (!new_token(g->token[seat]))
            return api_fail(&c->err, 500, "internal", "no random numbers for a seat token");
        game_publish(c->s, g);
    }
    c->answer = json_pack("{s:o, s:o}", "you", you_json(g, seat), "game", game_json(g));
    return true;
}

/// Compares without stopping at the first difference, so timing tells nothing of a token.
static bool same_token(const char *a, const char *b) {
    if (!a || !*b || strlen(a) != strlen(b)) return false;
    unsigned diff = 0;
    for (size_t i = 0; b[i]; i++) diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

/* ---- Dispatch ---- */

static const Field NO_FIELDS[] = {{NULL, F_STRING, false}};
static const Field MOVE_FIELDS[] = {{"move", F_STRING, true}, {NULL, F_STRING, false}};
static const Field GOTO_FIELDS[] = {{"ply", F_INT, true}, {NULL, F_STRING, false}};
static const Field COLOR_FIELDS[] = {{"color", F_STRING, false}, {NULL, F_STRING, false}};
static const Field AIDS_FIELDS[] = {{"allow", F_BOOL, true}, {NULL, F_STRING, false}};
static const Field ANALYZE_FIELDS[] = {
    {"time_ms", F_INT, false}, {"multipv", F_INT, false}, {NULL, F_STRING, false}};
static const Field OPENING_FIELDS[] = {{"action", F_STRING, true},
                                       {"point", F_STRING, false},
                                       {"choice", F_STRING, false},
                                       {"n", F_INT, false},
                                       {NULL, F_STRING, false}};

static bool act_opening(ActionCtx *c) {
    if (!opening_action(c->g, c->body, c->seat_player, &c->err)) return false;
    game_changed(c->s, c->g);
    return true;
}

static const Action ACTIONS[] = {
    {"join", NO_FIELDS, act_join},    {"moves", MOVE_FIELDS, act_move},
    {"undo", NO_FIELDS, act_undo},    {"redo", NO_FIELDS, act_redo},
    {"goto", GOTO_FIELDS, act_goto},  {"resign", COLOR_FIELDS, act_resign},
    {"draw", COLOR_FIELDS, act_draw}, {"decline", NO_FIELDS, act_decline},
    {"go", NO_FIELDS, act_go},        {"move-now", NO_FIELDS, act_move_now},
    {"stop", NO_FIELDS, act_stop},    {"analyze", ANALYZE_FIELDS, act_analyze},
    {"aids", AIDS_FIELDS, act_aids},  {"opening", OPENING_FIELDS, act_opening},
};

const Action *action_find(const char *name) {
    for (size_t i = 0; i < sizeof ACTIONS / sizeof ACTIONS[0]; i++)
        if (strcmp(ACTIONS[i].name, name) == 0) return &ACTIONS[i];
    return NULL;
}

/// The player number whose token this is, or -1.
static int seat_of(const LiveGame *g, const char *token) {
    for (int k = 0; k < 2; k++)
        if (same_token(token, g->token[k])) return k;
    return -1;
}

void action_run(Server *s, LiveGame *g, const Action *a, json_t *body, const char *seat,
                ApiResponse *out) {
    ActionCtx c = {.s = s, .g = g, .body = body, .status = 200};
    pthread_mutex_lock(&g->lock);
    control_check_time(s, g); /* a clock that ran out ends the game before anything else */
    c.seat_player = g->online ? seat_of(g, seat) : -1;
    c.seat = c.seat_player >= 0 ? game_seat_color(g, c.seat_player) : TG_NOBODY;
    bool ok = !g->online || c.seat != TG_NOBODY || a->run == act_join ||
              api_fail(&c.err, 403, "not_your_seat", "send your seat's token in X-Tengen-Seat");
    /* Nothing may change the game before its balanced start position is there. */
    ok = ok && (!g->balancing || a->run == act_join ||
                api_fail(&c.err, 409, "busy", "the balanced start position is being computed"));
    ok = ok && a->run(&c);
    json_t *answer = NULL;
    if (ok) {
        answer = c.answer ? c.answer : game_json(g);
        if (c.declined) json_object_set_new(answer, "declined", json_true());
    }
    pthread_mutex_unlock(&g->lock);
    if (ok)
        api_json_response(out, c.status, answer);
    else
        api_error_response(out, &c.err);
}

void action_show(LiveGame *g, ApiResponse *out) {
    pthread_mutex_lock(&g->lock);
    json_t *answer = game_json(g);
    pthread_mutex_unlock(&g->lock);
    api_json_response(out, 200, answer);
}

/* ---- New games ---- */

static const Field CLOCK_FIELDS[] = {{"game_ms", F_INT, false},
                                     {"increment_ms", F_INT, false},
                                     {"move_ms", F_INT, false},
                                     {NULL, F_STRING, false}};

static const Field CREATE_FIELDS[] = {{"rule", F_STRING, false},
                                      {"size", F_INT, false},
                                      {"black", F_STRING, false},
                                      {"white", F_STRING, false},
                                      {"black_rating", F_INT, false},
                                      {"white_rating", F_INT, false},
                                      {"clock", F_OBJECT, false},
                                      {"computer_ms", F_INT, false},
                                      {"moves", F_ARRAY, false},
                                      {"online", F_BOOL, false},
                                      {"seat", F_STRING, false},
                                      {"opening", F_STRING, false},
                                      {"renju_opening", F_STRING, false},
                                      {"balanced", F_BOOL, false},
                                      {NULL, F_STRING, false}};

static const Field IMPORT_FIELDS[] = {{"data", F_STRING, true},   {"format", F_STRING, false},
                                      {"rule", F_STRING, false},  {"black", F_STRING, false},
                                      {"white", F_STRING, false}, {"size", F_INT, false},
                                      {NULL, F_STRING, false}};

static bool rule_field(json_t *body, TgRule *rule, ApiError *e) {
    const char *name = str_field(body, "rule", "freestyle");
    if (tg_rule_from_name(name, rule)) return true;
    return api_fail(e, 400, "bad_field", "unknown rule '%.20s'", name);
}

/// "black"/"white": human, a level or level@nodes; or "black_rating"/"white_rating": the
/// computer level nearest a target rating (Elo above beginner), max with fewer nodes between
/// hard and max.
static bool players_field(json_t *body, const char *fallback, int player[2], uint64_t nodes[2],
                          ApiError *e) {
    const char *const keys[2] = {"black", "white"}, *const rating_keys[2] = {"black_rating",
                                                                             "white_rating"};
    for (int c = 0; c < 2; c++) {
        const json_t *rating = json_object_get(body, rating_keys[c]);
        if (rating && json_object_get(body, keys[c]))
            return api_fail(e, 400, "bad_field", "give %s or %s, not both", keys[c],
                            rating_keys[c]);
        if (rating) {
            const json_int_t elo = json_integer_value(rating);
            if (elo < -10000 || elo > 10000)
                return api_fail(e, 400, "bad_field", "%s must be within -10000..10000",
                                rating_keys[c]);
            player[c] = (int)tg_level_for_rating((int)elo, &nodes[c]);
            continue;
        }
        const char *name = str_field(body, keys[c], fallback);
        if (!player_from_name(name, &player[c], &nodes[c]))
            return api_fail(e, 400, "bad_field",
                            "%s must be human, a level (beginner, easy, medium, hard, max) or "
                            "level@nodes",
                            keys[c]);
    }
    return true;
}

static bool int_in(json_t *body, const char *key, int64_t lo, int64_t hi, int64_t *out,
                   ApiError *e) {
    json_t *v = json_object_get(body, key);
    if (!v) return true;
    const json_int_t n = json_integer_value(v);
    if (n < lo || n > hi)
        return api_fail(e, 400, "bad_field", "%s must be from %lld to %lld", key, (long long)lo,
                        (long long)hi);
    *out = n;
    return true;
}

static bool clock_field(json_t *body, TgClock *clock, ApiError *e) {
    json_t *o = json_object_get(body, "clock");
    *clock = (TgClock){0, 0, 0};
    if (!o) return true;
    return body_fields(o, CLOCK_FIELDS, e) &&
           int_in(o, "game_ms", 0, MAX_CLOCK_MS, &clock->game_ms, e) &&
           int_in(o, "increment_ms", 0, MAX_CLOCK_MS, &clock->increment_ms, e) &&
           int_in(o, "move_ms", 0, MAX_CLOCK_MS, &clock->move_ms, e);
}

/// Plays the start position of a new game by the rules.
static bool start_moves(TgGame *game, json_t *list, ApiError *e) {
    const int n = (int)json_array_size(list), w = tg_game_width(game), h = tg_game_height(game);
    if (n > MAX_START_MOVES) return api_fail(e, 400, "bad_field", "too many moves");
    TgPoint *moves = malloc(sizeof *moves * (size_t)(n + 1));
    if (!moves) return api_fail(e, 500, "internal", "out of memory");
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        const char *text = json_string_value(json_array_get(list, (size_t)i));
        if (!text || tg_point_from_text(text, w, h, &moves[i]) != TG_OK)
            ok = api_fail(e, 400, "bad_move", "moves[%d] is not a point on this board", i);
    }
    int bad = 0;
    TgError err = ok ? tg_game_set_moves(game, moves, n, &bad) : TG_OK;
    if (ok && err != TG_OK)
        ok = api_fail(e, 409, "illegal", "moves[%d] cannot be played: %s", bad, tg_error_text(err));
    free(moves);
    return ok;
}

/// Adds the new game to the registry, saves it, starts the computer; the answer is the game
/// (with the creator's seat, player number `creator`, if not -1).
static json_t *open_game(Server *s, LiveGame *g, int creator, ApiError *e) {
    if (!registry_add(s, g)) {
        game_free_live(g);
        return api_fail(e, 500, "internal", "no id could be given to the game"), NULL;
    }
    pthread_mutex_lock(&g->lock);
    game_changed(s, g);
    json_t *answer = game_json(g);
    if (creator >= 0) json_object_set_new(answer, "you", you_json(g, creator));
    pthread_mutex_unlock(&g->lock);
    registry_release(g);
    return answer;
}

/// The creator's seat online: black (or 1) is player 1, white (or 2) player 2; -1 offline.
static bool online_fields(json_t *body, const int player[2], int *seat, ApiError *e) {
    *seat = -1;
    if (!json_is_true(json_object_get(body, "online"))) return true;
    if (player[0] != SERVE_HUMAN || player[1] != SERVE_HUMAN)
        return api_fail(e, 400, "bad_field", "both players of an online game are human");
    const char *name = str_field(body, "seat", "black");
    *seat = strcmp(name, "black") == 0 || strcmp(name, "1") == 0   ? 0
            : strcmp(name, "white") == 0 || strcmp(name, "2") == 0 ? 1
                                                                   : -1;
    if (*seat < 0) return api_fail(e, 400, "bad_field", "seat must be black, white, 1 or 2");
    return true;
}

/// A zero-level player needs a network for the board (the server's --model, or a built-in one):
/// true when it has one or nobody plays zero; false with the error otherwise.
static bool zero_playable(const Server *s, const int player[2], TgRule rule, int size,
                          ApiError *e) {
    if (player[0] != TG_LEVEL_ZERO && player[1] != TG_LEVEL_ZERO) return true;
    if (tg_model_for(s->cfg.model, rule, size, size)) return true;
    const TgModel *m = s->cfg.model;
    if (!m)
        return api_fail(e, 400, "bad_field",
                        "the zero level has no network for this rule and size");
    return api_fail(e, 400, "bad_field",
                    "the zero level's network (--model) is for %s %dx%d, not %s %dx%d",
                    tg_rule_name(tg_model_rule(m)), tg_model_size(m), tg_model_size(m),
                    tg_rule_name(rule), size, size);
}

json_t *action_create(Server *s, json_t *body, ApiError *e) {
    TgRule rule;
    int player[2];
    uint64_t nodes[2] = {0, 0};
    int64_t size = 15, computer_ms = 3000;
    TgClock clock;
    int seat;
    if (!body_fields(body, CREATE_FIELDS, e) || !rule_field(body, &rule, e) ||
        !int_in(body, "size", TG_MIN_SIZE, TG_MAX_SIZE, &size, e) ||
        !players_field(body, "human", player, nodes, e) || !clock_field(body, &clock, e) ||
        !int_in(body, "computer_ms", 1, MAX_COMPUTER_MS, &computer_ms, e) ||
        !online_fields(body, player, &seat, e))
        return NULL;
    /* White defaults to the hard level, except online, where both players are human. */
    if (!json_object_get(body, "white") && !json_object_get(body, "white_rating") && seat < 0)
        player[1] = TG_LEVEL_HARD;
    if (!zero_playable(s, player, rule, (int)size, e)) return NULL;
    TgGame *game = tg_game_new(rule, (int)size, (int)size);
    if (!game) return api_fail(e, 500, "internal", "out of memory"), NULL;
    json_t *moves = json_object_get(body, "moves");
    if (tg_game_set_clock(game, clock) != TG_OK || (moves && !start_moves(game, moves, e))) {
        tg_game_free(game);
        return NULL;
    }
    LiveGame *g = game_new_live(game, player);
    if (!g) return tg_game_free(game), api_fail(e, 500, "internal", "out of memory"), NULL;
    g->nodes[0] = nodes[0];
    g->nodes[1] = nodes[1];
    g->computer_ms = computer_ms;
    g->online = seat >= 0;
    if (!opening_create(g, body, e) || (g->balancing && !pool_has_room(s))) {
        if (g->balancing) api_fail(e, 503, "queue_full", "every engine is busy");
        game_free_live(g);
        return NULL;
    }
    if (g->online && !new_token(g->token[seat])) {
        game_free_live(g);
        return api_fail(e, 500, "internal", "no random numbers for a seat token"), NULL;
    }
    return open_game(s, g, seat, e);
}

/// `auto`: SGF by "(;", PSQ by its header line, anything else as a move list.
static bool import_format(const char *name, const char *data, TgFormat *format, ApiError *e) {
    if (strcmp(name, "auto") == 0) {
        const char *p = data + strspn(data, " \t\r\n");
        *format = p[0] == '(' && p[1 + strspn(p + 1, " \t\r\n")] == ';' ? TG_FORMAT_SGF
                  : strncmp(p, "Piskvorky", 9) == 0                     ? TG_FORMAT_PSQ
                                                                        : TG_FORMAT_MOVES;
        return true;
    }
    if (strcmp(name, "psq") == 0) return *format = TG_FORMAT_PSQ, true;
    if (strcmp(name, "sgf") == 0) return *format = TG_FORMAT_SGF, true;
    if (strcmp(name, "pos") == 0 || strcmp(name, "txt") == 0)
        return *format = TG_FORMAT_MOVES, true;
    return api_fail(e, 400, "bad_field", "format must be auto, psq, sgf, pos or txt");
}

json_t *action_import(Server *s, json_t *body, ApiError *e) {
    TgRule rule;
    TgFormat format = TG_FORMAT_MOVES;
    int player[2];
    uint64_t nodes[2] = {0, 0};
    int64_t size = 0;
    if (!body_fields(body, IMPORT_FIELDS, e) || !rule_field(body, &rule, e) ||
        !players_field(body, "human", player, nodes, e) ||
        !int_in(body, "size", TG_MIN_SIZE, TG_MAX_SIZE, &size, e))
        return NULL;
    json_t *data = json_object_get(body, "data");
    if (!import_format(str_field(body, "format", "auto"), json_string_value(data), &format, e))
        return NULL;
    if (!json_string_value(data)[strspn(json_string_value(data), " \t\r\n")])
        return api_fail(e, 400, "bad_field", "the record is empty"), NULL;
    char err[256];
    TgGame *game = tg_record_read(format, json_string_value(data), json_string_length(data), rule,
                                  (int)size, err, sizeof err);
    if (!game) return api_fail(e, 400, "bad_field", "the record cannot be read: %s", err), NULL;
    if (tg_game_width(game) != tg_game_height(game)) {
        tg_game_free(game);
        return api_fail(e, 400, "bad_field", "the web game plays square boards only"), NULL;
    }
    if (!zero_playable(s, player, tg_game_rule(game), tg_game_width(game), e)) {
        tg_game_free(game);
        return NULL;
    }
    tg_game_goto(game, tg_game_length(game));
    LiveGame *g = game_new_live(game, player);
    if (!g) return tg_game_free(game), api_fail(e, 500, "internal", "out of memory"), NULL;
    g->nodes[0] = nodes[0];
    g->nodes[1] = nodes[1];
    g->paused = true; /* it opens at its last move and waits there */
    opening_import(g);
    return open_game(s, g, -1, e);
}
