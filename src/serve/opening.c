/*
 * opening.c — the opening rules in the web game: a game made with an opening rule
 * keeps a TgOpening beside its TgGame. While the phase runs, the game's position is the
 * opening's stones (rebuilt after every action) and only the actions the step asks for are
 * accepted; once it is over, the game plays on from its stones and the opening is kept for
 * the record and for undo. Players are numbered (1 starts as Black); swaps trade colours.
 *
 * The archive keeps the opening's line (tg_opening_text), which replays it exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

static const char *const STEP_NAMES[] = {"place", "choose", "declare", "offer", "select", "done"};

static TgColor mover_of(int index) { return index % 2 ? TG_WHITE : TG_BLACK; }

static json_t *points_json(const TgOpening *op, const TgPoint *p, int n) {
    json_t *a = json_array();
    const int size = tg_opening_size(op);
    for (int i = 0; i < n; i++) {
        char pt[8];
        if (tg_point_to_text(p[i], size, size, pt, sizeof pt) == TG_OK)
            json_array_append_new(a, json_string(pt));
    }
    return a;
}

static json_t *renju_index_json(int index) {
    const TgRenjuOpening *r = tg_renju_opening(index);
    if (!r) return json_null();
    return json_pack("{s:s, s:s, s:s}", "code", r->code, "name", r->name, "chinese", r->chinese);
}

json_t *renju_opening_json(const TgGame *game) {
    const int size = tg_game_width(game);
    if (tg_game_ply(game) < 3 || size != tg_game_height(game) || size % 2 == 0) return json_null();
    const TgPoint three[3] = {tg_game_move(game, 0), tg_game_move(game, 1), tg_game_move(game, 2)};
    return renju_index_json(tg_renju_opening_index(three, size, NULL));
}

static json_t *choices_json(unsigned choices) {
    json_t *a = json_array();
    for (unsigned c = TG_CHOICE_STAY; c <= TG_CHOICE_OFFER; c <<= 1)
        if (choices & c) json_array_append_new(a, json_string(tg_choice_name((TgChoice)c)));
    return a;
}

/// What the phase asks now (null once it is over). For a placement `color` is the stone's.
static json_t *step_json(const LiveGame *g) {
    const TgOpeningStep st = tg_opening_step(g->opening);
    if (st.kind == TG_STEP_DONE) return json_null();
    char text[256], who[SERVE_PLAYER_LEN];
    tg_opening_step_text(g->opening, text, sizeof text);
    game_player_label(g, (int)st.player, who, sizeof who);
    return json_pack(
        "{s:s, s:i, s:s, s:s, s:i, s:i, s:o, s:i, s:i, s:s}", "kind", STEP_NAMES[st.kind], "player",
        (int)st.player + 1, "color", tg_color_name(st.color), "who", who, "count", st.count, "area",
        st.area, "choices", choices_json(st.choices), "min", st.min, "max", st.max, "text", text);
}

json_t *opening_json(const LiveGame *g) {
    const TgOpening *op = g->opening;
    if (!op) return json_null();
    TgPoint stones[TG_OPENING_MAX_STONES], offers[TG_OPENING_MAX_OFFERS];
    const int ns = tg_opening_stones(op, stones, TG_OPENING_MAX_STONES);
    const int no = tg_opening_offers(op, offers, TG_OPENING_MAX_OFFERS);
    char line[512];
    tg_opening_text(op, line, sizeof line);
    json_t *players = json_pack("{s:s, s:s}", "1", tg_color_name(game_seat_color(g, 0)), "2",
                                tg_color_name(game_seat_color(g, 1)));
    return json_pack("{s:s, s:b, s:o, s:o, s:o, s:i, s:s, s:o, s:o}", "rule",
                     tg_opening_rule_name(tg_opening_rule(op)), "done", tg_opening_done(op), "step",
                     step_json(g), "stones", points_json(op, stones, ns), "offers",
                     points_json(op, offers, no), "declared", tg_opening_declared(op), "line", line,
                     "players", players, "renju_opening",
                     renju_index_json(tg_opening_renju_index(op)));
}

/* ---- The position ---- */

bool opening_rebuild(LiveGame *g) {
    TgGame *next = tg_opening_game(g->opening);
    if (!next || tg_game_set_clock(next, tg_game_clock(g->game)) != TG_OK) {
        tg_game_free(next);
        return false;
    }
    if (tg_game_clock(g->game).game_ms) { /* time used after the opening stays used */
        const int64_t now = tg_now_ms();
        for (int c = 0; c < 2; c++)
            tg_game_set_time_left(next, (TgColor)c, tg_game_time_left(g->game, (TgColor)c, now));
    }
    tg_game_free(g->game);
    g->game = next;
    game_cut_evals(g, -1); /* the stones changed: what searches said is of another position */
    return true;
}

bool opening_start_stones(LiveGame *g, const TgPoint stones[3]) {
    if (!g->opening) {
        TgGame *next = game_with_stones(g->game, stones, 3);
        if (!next) return false;
        tg_game_free(g->game);
        g->game = next;
        return true;
    }
    TgOpening *op = tg_opening_clone(g->opening); /* all three or none */
    bool ok = op != NULL;
    for (int k = 0; ok && k < 3; k++) ok = tg_opening_place(op, stones[k]) == TG_OK;
    if (!ok) return tg_opening_free(op), false;
    tg_opening_free(g->opening);
    g->opening = op;
    return opening_rebuild(g);
}

/* ---- Actions ---- */

static bool point_field(const LiveGame *g, json_t *body, TgPoint *p, ApiError *e) {
    const char *text = json_string_value(json_object_get(body, "point"));
    const int size = tg_opening_size(g->opening);
    if (!text) return api_fail(e, 400, "bad_field", "'point' is missing");
    if (tg_point_from_text(text, size, size, p) != TG_OK)
        return api_fail(e, 400, "bad_move", "'%.20s' is not a point on this %dx%d board", text,
                        size, size);
    return true;
}

static bool choice_field(json_t *body, TgChoice *choice, ApiError *e) {
    const char *text = json_string_value(json_object_get(body, "choice"));
    for (unsigned c = TG_CHOICE_STAY; text && c <= TG_CHOICE_OFFER; c <<= 1)
        if (strcmp(text, tg_choice_name((TgChoice)c)) == 0) return *choice = (TgChoice)c, true;
    return api_fail(e, 400, "bad_field", "choice must be stay, swap, place-two or offer");
}

/// Performs the action of the body on the opening; false with the error, having changed
/// nothing (the core refuses without a change, and says why).
static bool perform(LiveGame *g, json_t *body, ApiError *e) {
    TgOpening *op = g->opening;
    const char *action = json_string_value(json_object_get(body, "action"));
    json_t *n = json_object_get(body, "n");
    TgPoint p;
    TgChoice choice = TG_CHOICE_STAY;
    TgError err;
    if (strcmp(action, "place") == 0 || strcmp(action, "offer") == 0 ||
        strcmp(action, "select") == 0) {
        if (!point_field(g, body, &p, e)) return false;
        err = action[0] == 'p'   ? tg_opening_place(op, p)
              : action[0] == 'o' ? tg_opening_offer(op, p)
                                 : tg_opening_select(op, p);
    } else if (strcmp(action, "choose") == 0) {
        if (!choice_field(body, &choice, e)) return false;
        err = tg_opening_choose(op, choice);
    } else if (strcmp(action, "declare") == 0) {
        if (!n) return api_fail(e, 400, "bad_field", "'n' is missing");
        const json_int_t v = json_integer_value(n);
        err = tg_opening_declare(op, v < -1000 || v > 1000 ? -1 : (int)v);
    } else {
        return api_fail(e, 400, "bad_field",
                        "action must be place, choose, declare, offer or select");
    }
    if (err != TG_OK) return api_fail(e, 409, "illegal", "%s", tg_opening_why(op));
    return true;
}

bool opening_action(LiveGame *g, json_t *body, int seat, ApiError *e) {
    if (!g->opening) return api_fail(e, 409, "illegal", "this game has no opening rule");
    if (tg_game_over(g->game)) return api_fail(e, 409, "game_over", "the game is over");
    if (tg_opening_done(g->opening))
        return api_fail(e, 409, "illegal", "the opening phase is over: play moves");
    const TgOpeningStep st = tg_opening_step(g->opening);
    if (g->player[st.player] != SERVE_HUMAN)
        return api_fail(e, 409, "not_your_turn", "the computer (player %d) is asked",
                        (int)st.player + 1);
    if (g->online && seat != (int)st.player)
        return api_fail(e, 403, "not_your_seat", "player %d is asked, not you", (int)st.player + 1);
    if (!perform(g, body, e)) return false;
    game_cancel_search(g); /* an analysis of the stones before */
    opening_rebuild(g);
    g->draw_offer = g->undo_offer = TG_NOBODY;
    g->paused = false;
    return true;
}

/// An `opening` event: what the computer decided and why, for the page to show.
static void announce(LiveGame *g, int player, const TgOpeningDecision *d) {
    json_t *o =
        json_pack("{s:i, s:s, s:i, s:I, s:s}", "player", player + 1, "kind", STEP_NAMES[d->kind],
                  "score", d->score, "nodes", (json_int_t)d->nodes, "why", d->why);
    if (d->kind == TG_STEP_CHOOSE)
        json_object_set_new(o, "choice", json_string(tg_choice_name(d->choice)));
    else if (d->kind == TG_STEP_DECLARE)
        json_object_set_new(o, "n", json_integer(d->number));
    else
        json_object_set_new(o, "points", points_json(g->opening, d->points, d->count));
    char *data = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (data) feed_push(&g->feed, "opening", data);
    free(data);
    json_decref(o);
}

void opening_decided(LiveGame *g, const TgOpeningDecision *d) {
    const int player = (int)tg_opening_step(g->opening).player;
    TgOpening *op = tg_opening_clone(g->opening); /* all of the decision or nothing */
    const TgError err = op ? tg_opening_apply(op, d) : TG_ERR_MEMORY;
    if (err != TG_OK) {
        fprintf(stderr, "tengen: game %s: the computer's opening decision failed: %s\n", g->id,
                op ? tg_opening_why(op) : "out of memory");
        tg_opening_free(op);
        g->paused = true;
        return;
    }
    tg_opening_free(g->opening);
    g->opening = op;
    announce(g, player, d);
    opening_rebuild(g);
    g->draw_offer = g->undo_offer = TG_NOBODY;
}

/* ---- Undo ---- */

bool opening_undo_plan(const LiveGame *g, int seat, int *plies, int *actions) {
    const int ply = tg_game_ply(g->game);
    const int first = g->opening ? tg_opening_stones(g->opening, NULL, 0) : 0;
    *plies = *actions = 0;
    for (int i = ply - 1; i >= first; i--) {
        ++*plies;
        if (seat < 0 || game_seat(g, mover_of(i)) == seat) return true;
    }
    if (!g->opening) return false;
    /* Into the opening phase: after taking back an action, its maker is the one asked. */
    TgOpening *op = tg_opening_clone(g->opening);
    bool found = false;
    while (op && !found && tg_opening_undo(op) == TG_OK) {
        ++*actions;
        found = seat < 0 || (int)tg_opening_step(op).player == seat;
    }
    tg_opening_free(op);
    return found;
}

void opening_undo_apply(LiveGame *g, int plies, int actions) {
    for (int i = 0; i < plies; i++) tg_game_undo(g->game);
    if (actions == 0) return;
    for (int i = 0; i < actions; i++) tg_opening_undo(g->opening);
    opening_rebuild(g);
}

/* ---- New games ---- */

/// Three stones near the centre that every rule starting with three placements accepts.
static void probe_stones(int size, TgPoint out[3]) {
    const int c = (size - 1) / 2;
    out[0] = (TgPoint){c, c}, out[1] = (TgPoint){c, c + 1}, out[2] = (TgPoint){c + 1, c + 1};
}

/// Does the opening rule begin with three placements by player 1 (so a start position fits)?
static bool starts_with_three(const TgOpening *op) {
    TgOpening *t = tg_opening_clone(op);
    TgPoint p[3];
    probe_stones(tg_opening_size(op), p);
    bool ok = t != NULL;
    for (int k = 0; ok && k < 3; k++) ok = tg_opening_place(t, p[k]) == TG_OK;
    tg_opening_free(t);
    return ok;
}

/// Does the rule need one of the 26 renju openings (an odd board and central squares)?
static bool renju_style(TgOpeningRule orule) {
    TgOpening *even = tg_opening_new(orule, TG_FREESTYLE, 16);
    const bool odd_only = even == NULL;
    tg_opening_free(even);
    return odd_only;
}

static bool renju_stones(const LiveGame *g, const char *name, TgPoint stones[3], ApiError *e) {
    const int size = tg_game_width(g->game);
    const bool random = strcmp(name, "random") == 0 || strcmp(name, "any") == 0;
    unsigned char r[2] = {0, 0};
    int index = random ? 0 : tg_renju_opening_by_name(name), symmetry = 0;
    if (index < 0)
        return api_fail(e, 400, "bad_field", "unknown renju opening '%.20s' (e.g. 2I, Kagetsu)",
                        name);
    if (random && serve_random(r, sizeof r)) /* a random opening, turned a random way */
        index = r[0] % TG_RENJU_OPENINGS, symmetry = r[1] % 8;
    if (tg_renju_opening_stones(index, size, symmetry, stones) != TG_OK)
        return api_fail(e, 400, "bad_field", "the renju openings need an odd board size");
    return true;
}

/// The fields that may not go together, and the rule's fitness for a start position.
static bool start_allowed(const LiveGame *g, json_t *body, TgRule rule, bool start, ApiError *e) {
    const bool balanced = json_is_true(json_object_get(body, "balanced"));
    const int size = tg_game_width(g->game);
    if (json_object_get(body, "moves") && (g->opening || start || balanced))
        return api_fail(e, 400, "bad_field",
                        "moves cannot go with an opening rule, renju_opening or balanced");
    if (start && balanced)
        return api_fail(e, 400, "bad_field", "renju_opening and balanced exclude each other");
    if ((start || balanced) && g->opening && !starts_with_three(g->opening))
        return api_fail(e, 400, "bad_field", "the %s opening does not start from three stones",
                        tg_opening_rule_name(tg_opening_rule(g->opening)));
    if (balanced && g->opening && renju_style(tg_opening_rule(g->opening)) &&
        (rule != TG_RENJU || size < 15))
        return api_fail(e, 400, "bad_field",
                        "a balanced start under %s needs the renju rule on 15x15 or larger",
                        tg_opening_rule_name(tg_opening_rule(g->opening)));
    return true;
}

bool opening_create(LiveGame *g, json_t *body, ApiError *e) {
    const char *name = json_string_value(json_object_get(body, "opening"));
    const char *renju = json_string_value(json_object_get(body, "renju_opening"));
    const TgRule rule = tg_game_rule(g->game);
    const int size = tg_game_width(g->game);
    TgOpeningRule orule = TG_OPENING_NONE;
    if (name && !tg_opening_rule_from_name(name, &orule))
        return api_fail(e, 400, "bad_field",
                        "opening must be none, swap1, swap, swap2, rif, yamaguchi, soosorv8 or "
                        "taraguchi10");
    if (orule != TG_OPENING_NONE && !(g->opening = tg_opening_new(orule, rule, size)))
        return api_fail(e, 400, "bad_field",
                        "the %s opening needs an odd board size with its central squares on it",
                        tg_opening_rule_name(orule));
    if (g->opening) opening_rebuild(g); /* the record names the opening from the start */
    TgPoint stones[3];
    if (!start_allowed(g, body, rule, renju != NULL, e) ||
        (renju && !renju_stones(g, renju, stones, e)))
        return false;
    if (renju && !opening_start_stones(g, stones))
        return api_fail(e, 500, "internal", "the start position cannot be placed");
    g->balancing = json_is_true(json_object_get(body, "balanced"));
    return true;
}

static bool same_points(const TgPoint *a, const TgPoint *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i].x != b[i].x || a[i].y != b[i].y) return false;
    return true;
}

void opening_import(LiveGame *g) {
    const char *line = tg_game_info(g->game, "opening");
    const int size = tg_game_width(g->game);
    TgOpening *op = line ? tg_opening_from_text(line, tg_game_rule(g->game), size, NULL, 0) : NULL;
    TgPoint stones[TG_OPENING_MAX_STONES], moves[TG_OPENING_MAX_STONES];
    const int n = op ? tg_opening_stones(op, stones, TG_OPENING_MAX_STONES) : 0;
    const bool done = op && tg_opening_done(op);
    bool fits = op && tg_game_length(g->game) >= n && (done || tg_game_length(g->game) == n);
    for (int i = 0; fits && i < n; i++) moves[i] = tg_game_move(g->game, i);
    if (!fits || !same_points(stones, moves, n)) {
        tg_opening_free(op);
        return;
    }
    const int by_color[2] = {g->player[0], g->player[1]};
    const uint64_t nodes_by_color[2] = {g->nodes[0], g->nodes[1]};
    for (int k = 0; k < 2; k++) {
        g->player[k] = by_color[tg_opening_color_of(op, (TgPlayer)k)];
        g->nodes[k] = nodes_by_color[tg_opening_color_of(op, (TgPlayer)k)];
    }
    g->opening = op;
    if (!done) opening_rebuild(g);
    if (tg_game_ply(g->game) < n) tg_game_goto(g->game, n);
}

/* ---- GET /api/openings ---- */

static json_t *rule_json(TgOpeningRule r) {
    int min = 0;
    for (int size = TG_MIN_SIZE; size <= TG_MAX_SIZE && !min; size++) {
        TgOpening *op = tg_opening_new(r, TG_FREESTYLE, size);
        if (op) min = size;
        tg_opening_free(op);
    }
    TgOpening *op = tg_opening_new(r, TG_FREESTYLE, 15);
    const bool three = op && starts_with_three(op);
    tg_opening_free(op);
    return json_pack("{s:s, s:b, s:i, s:b}", "name", tg_opening_rule_name(r), "odd_size",
                     renju_style(r), "min_size", min, "three_stones", three);
}

json_t *openings_json(void) {
    json_t *list = json_array(), *rules = json_array();
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        const TgRenjuOpening *r = tg_renju_opening(i);
        json_t *moves = json_array();
        char copy[32];
        snprintf(copy, sizeof copy, "%s", r->moves);
        char *save = NULL;
        for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
            json_array_append_new(moves, json_string(w));
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:b, s:o}", "code", r->code,
                                              "name", r->name, "chinese", r->chinese, "kanji",
                                              r->kanji, "direct", r->direct, "moves", moves));
    }
    for (int r = 0; r < TG_OPENING_RULE_COUNT; r++)
        json_array_append_new(rules, rule_json((TgOpeningRule)r));
    return json_pack("{s:o, s:o}", "openings", list, "rules", rules);
}
