/*
 * view.c — the game object of docs/api.md: what every answer, `game` event and stream start
 * shows of a live game (its moves, result, clocks, evaluations, seats and opening phase). Above
 * both the live games (game.c) and their opening phases (opening.c), so neither needs the other.
 */
#include <stdlib.h>

#include "serve.h"

static json_t *moves_json(const TgGame *game, int from, int to) {
    json_t *a = json_array();
    for (int i = from; i < to; i++)
        json_array_append_new(a, json_point(game, tg_game_move(game, i)));
    return a;
}

static json_t *result_json(const TgGame *game) {
    const TgResult r = tg_game_result(game);
    if (r.reason == TG_REASON_NONE) return json_null();
    json_t *o =
        json_pack("{s:o, s:s}", "winner", json_color(r.winner), "reason", tg_reason_name(r.reason));
    if (r.reason == TG_REASON_FIVE)
        json_object_set_new(
            o, "line",
            json_pack("[o, o]", json_point(game, r.line.from), json_point(game, r.line.to)));
    if (r.reason == TG_REASON_FOUL) {
        json_object_set_new(o, "foul", json_string(tg_foul_code(r.foul)));
        json_object_set_new(o, "foul_point", json_point(game, r.foul_point));
    }
    return o;
}

static json_t *forbidden_json(const TgGame *game) {
    TgForbidden f[TG_MAX_SIZE * TG_MAX_SIZE];
    const int n = tg_game_over(game) ? 0 : tg_game_forbidden(game, f, TG_MAX_SIZE * TG_MAX_SIZE);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:o, s:s}", "point", json_point(game, f[i].point),
                                           "foul", tg_foul_code(f[i].foul)));
    return a;
}

static json_int_t clamp_ms(int64_t ms) { return ms < 0 ? 0 : (json_int_t)ms; }

static json_t *clock_json(const TgGame *game) {
    const TgClock c = tg_game_clock(game);
    if (!c.game_ms && !c.move_ms) return json_null();
    const int64_t now = tg_now_ms();
    const TgColor running = tg_game_clock_running(game) ? tg_game_to_move(game) : TG_NOBODY;
    int64_t left[2];
    for (int k = 0; k < 2; k++) {
        left[k] = c.game_ms ? tg_game_time_left(game, (TgColor)k, now) : c.move_ms;
        if (k == (int)tg_game_to_move(game) && !tg_game_over(game))
            left[k] = c.game_ms ? left[k] : tg_game_move_time_left(game, now);
    }
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}", "game_ms", (json_int_t)c.game_ms,
                     "increment_ms", (json_int_t)c.increment_ms, "move_ms", (json_int_t)c.move_ms,
                     "black_ms", clamp_ms(left[0]), "white_ms", clamp_ms(left[1]), "running",
                     json_color(running));
}

static json_t *evals_json(const LiveGame *g) {
    json_t *a = json_array();
    for (int ply = 0; ply < g->eval_cap; ply++) {
        const Eval *e = &g->evals[ply];
        if (!e->valid) continue;
        char text[24];
        tg_score_text(e->score, text, sizeof text);
        json_array_append_new(a, json_pack("{s:i, s:i, s:s, s:f, s:i}", "ply", ply, "score",
                                           e->score, "text", text, "winrate",
                                           serve_winrate(e->score), "depth", e->depth));
    }
    return a;
}

static json_t *aids_json(const LiveGame *g) {
    if (!g->online) return json_null();
    return json_pack("{s:b, s:b}", "black", g->aids[game_seat(g, TG_BLACK)], "white",
                     g->aids[game_seat(g, TG_WHITE)]);
}

static json_t *seats_json(const LiveGame *g) {
    if (!g->online) return json_null();
    const char *b = g->token[game_seat(g, TG_BLACK)], *w = g->token[game_seat(g, TG_WHITE)];
    return json_pack("{s:s, s:s}", "black", b[0] ? "taken" : "open", "white",
                     w[0] ? "taken" : "open");
}

json_t *game_json(const LiveGame *g) {
    const TgGame *game = g->game;
    const int ply = tg_game_ply(game);
    /* No one is "to move" while the opening phase asks for its actions. */
    const bool over = tg_game_over(game) || game_in_opening(g) || g->balancing;
    char black[SERVE_PLAYER_LEN], white[SERVE_PLAYER_LEN];
    game_player_label(g, game_seat(g, TG_BLACK), black, sizeof black);
    game_player_label(g, game_seat(g, TG_WHITE), white, sizeof white);
    json_t *o =
        json_pack("{s:s, s:s, s:i, s:s, s:s, s:b, s:o, s:o}", "id", g->id, "rule",
                  tg_rule_name(tg_game_rule(game)), "size", tg_game_width(game), "black", black,
                  "white", white, "online", g->online, "created", serve_json_time(g->created_ms),
                  "updated", serve_json_time(g->updated_ms));
    json_object_set_new(o, "moves", moves_json(game, 0, ply));
    json_object_set_new(o, "redo", moves_json(game, ply, tg_game_length(game)));
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "to_move", over ? json_null() : json_color(tg_game_to_move(game)));
    json_object_set_new(o, "result", result_json(game));
    json_object_set_new(o, "forbidden", over ? json_array() : forbidden_json(game));
    json_object_set_new(o, "clock", clock_json(game));
    json_object_set_new(o, "thinking", json_boolean(game_thinking(g)));
    json_object_set_new(o, "paused",
                        json_boolean(g->paused && game_computer_to_move(g) && !game_thinking(g)));
    json_object_set_new(o, "search_error",
                        g->search_error[0] ? json_string(g->search_error) : json_null());
    json_object_set_new(o, "draw_offer", json_color(g->draw_offer));
    json_object_set_new(o, "undo_offer", json_color(g->undo_offer));
    json_object_set_new(o, "evals", evals_json(g));
    json_object_set_new(o, "seats", seats_json(g));
    json_object_set_new(o, "aids", aids_json(g));
    json_object_set_new(o, "opening", opening_json(g));
    json_object_set_new(o, "renju_opening", renju_opening_json(game));
    json_object_set_new(o, "balancing", json_boolean(g->balancing));
    return o;
}
