/*
 * api.c — the JSON API of docs/api.md, without HTTP: a request (method, path, query,
 * body, seat token) in, a status and a JSON body out. Routing, the archive list, records and
 * the server's lifetime live here; the actions on one game are in actions.c, the answers and
 * the body checks below both in reply.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

#ifndef TG_BUILD_VERSION
#define TG_BUILD_VERSION "unknown"
#endif

enum { LIST_DEFAULT = 50, LIST_MAX = 500 };

/* ---- Errors ---- */

static void reply_error(ApiResponse *out, int status, const char *code, const char *message) {
    ApiError e;
    api_fail(&e, status, code, "%s", message);
    api_error_response(out, &e);
}

/// The request body as a JSON object (an empty body is {}); NULL with the error.
static json_t *parse_body(const ApiRequest *rq, ApiError *e) {
    if (rq->body_len == 0) return json_object();
    json_error_t je;
    json_t *j = json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        api_fail(e, 400, "bad_json", "malformed JSON at line %d, column %d: %s", je.line, je.column,
                 je.text);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        api_fail(e, 400, "bad_json", "the body must be a JSON object");
        return NULL;
    }
    return j;
}

/// A query parameter's value, copied; false when absent.
static bool query_value(const char *query, const char *key, char *buf, size_t size) {
    const size_t klen = strlen(key);
    for (const char *p = query; p && *p;) {
        const char *end = strchr(p, '&');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            snprintf(buf, size, "%.*s", (int)(n - klen - 1), p + klen + 1);
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

static bool query_int(const char *query, const char *key, long lo, long hi, long *out,
                      ApiError *e) {
    char text[32];
    if (!query_value(query, key, text, sizeof text)) return true;
    char *end;
    const long v = strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi)
        return api_fail(e, 400, "bad_field", "%s must be a whole number from %ld to %ld", key, lo,
                        hi);
    *out = v;
    return true;
}

/* ---- Endpoints without a game ---- */

static json_t *names(const char *(*name)(int), int count) {
    json_t *a = json_array();
    for (int i = 0; i < count; i++) json_array_append_new(a, json_string(name(i)));
    return a;
}

static const char *rule_at(int i) { return tg_rule_name((TgRule)i); }
/// The i-th level, weakest first.
static const char *level_at(int i) {
    TgLevel order[TG_LEVEL_COUNT];
    tg_levels_weakest_first(order);
    return tg_level_name(order[i]);
}

/// The measured ratings of the levels (Elo above beginner, with half the 95% interval, and
/// the nodes a move the level had in the ladder: 0 for its own limits).
static json_t *ratings_json(void) {
    json_t *a = json_array();
    TgLevel order[TG_LEVEL_COUNT];
    tg_levels_weakest_first(order);
    for (int i = 0; i < TG_LEVEL_COUNT; i++) {
        int elo, error;
        const TgLevel level = order[i];
        if (!tg_level_rating(level, &elo, &error)) continue;
        json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:I}", "level", tg_level_name(level),
                                           "elo", elo, "error", error, "nodes",
                                           (json_int_t)tg_level_rating_nodes(level)));
    }
    return a;
}

/// The boards the zero level has a network for (the server's --model, or the built-in ones):
/// [{"rule": "freestyle", "size": 8}].
static json_t *zero_boards(const TgModel *model) {
    json_t *a = json_array();
    for (int r = 0; r < TG_RULE_COUNT; r++)
        for (int n = TG_MIN_SIZE; n <= TG_MAX_SIZE; n++)
            if (tg_model_for(model, (TgRule)r, n, n))
                json_array_append_new(
                    a, json_pack("{s:s, s:i}", "rule", tg_rule_name((TgRule)r), "size", n));
    return a;
}

static void get_info(const Server *s, ApiResponse *out) {
    char version[96];
    snprintf(version, sizeof version, "%s (%s)", TG_VERSION, TG_BUILD_VERSION);
    api_json_response(out, 200,
                      json_pack("{s:s, s:o, s:o, s:o, s:i, s:i, s:i, s:o}", "version", version,
                                "rules", names(rule_at, TG_RULE_COUNT), "levels",
                                names(level_at, TG_LEVEL_COUNT), "ratings", ratings_json(),
                                "min_size", TG_MIN_SIZE, "max_size", TG_MAX_SIZE, "default_size",
                                15, "zero_boards", zero_boards(s->cfg.model)));
}

static void list_games(Server *s, const ApiRequest *rq, ApiResponse *out) {
    ApiError e;
    long limit = LIST_DEFAULT, offset = 0;
    if (!query_int(rq->query, "limit", 1, LIST_MAX, &limit, &e) ||
        !query_int(rq->query, "offset", 0, 1000000000L, &offset, &e)) {
        api_error_response(out, &e);
        return;
    }
    /* The filters: a known rule, result or player; anything else is refused, not ignored. */
    char rule[16] = "", result[8] = "", player[16] = "";
    query_value(rq->query, "rule", rule, sizeof rule);
    query_value(rq->query, "result", result, sizeof result);
    query_value(rq->query, "player", player, sizeof player);
    TgRule r;
    int p;
    if (rule[0] && !tg_rule_from_name(rule, &r)) {
        reply_error(out, 400, "bad_field", "rule: a rule name (freestyle, standard, renju, ...)");
        return;
    }
    if (rule[0]) snprintf(rule, sizeof rule, "%s", tg_rule_name(r)); /* caro reads as caro9 */
    if (result[0] && strcmp(result, "black") && strcmp(result, "white") && strcmp(result, "draw") &&
        strcmp(result, "none")) {
        reply_error(out, 400, "bad_field", "result must be black, white, draw or none");
        return;
    }
    if (player[0] && !player_from_name(player, &p, NULL)) {
        reply_error(out, 400, "bad_field", "player: human or a level");
        return;
    }
    const StoreFilter filter = {rule, result, player};
    json_t *list = store_list(s->store, (int)limit, (int)offset, &filter);
    if (!list) {
        reply_error(out, 500, "internal", "the archive cannot be read");
        return;
    }
    api_json_response(out, 200, list);
}

/* ---- Records ---- */

static const struct {
    const char *name;
    TgFormat format;
    const char *type;
} RECORD_FORMATS[] = {
    {"psq", TG_FORMAT_PSQ, "text/plain; charset=utf-8"},
    {"sgf", TG_FORMAT_SGF, "application/x-go-sgf"},
    {"pos", TG_FORMAT_MOVES, "text/plain; charset=utf-8"},
    {"txt", TG_FORMAT_MOVES, "text/plain; charset=utf-8"},
};

/// The moves up to the current ply as h8 points joined by `sep`, with a line break.
static char *moves_text(const TgGame *game, const char *sep) {
    const int n = tg_game_ply(game);
    TgPoint *moves = malloc(sizeof *moves * (size_t)(n + 1));
    const size_t size = (size_t)n * 6 + 2;
    char *text = malloc(size);
    if (moves && text) {
        for (int i = 0; i < n; i++) moves[i] = tg_game_move(game, i);
        const size_t len = tg_format_moves(moves, n, tg_game_width(game), tg_game_height(game), sep,
                                           text, size - 1);
        strcat(text + (len < size - 1 ? len : size - 2), "\n");
    }
    free(moves);
    return text;
}

static char *record_of(const LiveGame *g, int k, ApiError *e) {
    if (strcmp(RECORD_FORMATS[k].name, "pos") == 0) return moves_text(g->game, "");
    if (strcmp(RECORD_FORMATS[k].name, "txt") == 0) return moves_text(g->game, " ");
    TgGame *copy = tg_game_clone(g->game);
    if (!copy) return api_fail(e, 500, "internal", "out of memory"), NULL;
    for (int c = 0; c < 2; c++) {
        char name[SERVE_PLAYER_LEN + 8];
        const int seat = game_seat(g, (TgColor)c);
        char label[SERVE_PLAYER_LEN];
        game_player_label(g, seat, label, sizeof label);
        snprintf(name, sizeof name, "%s%s", g->player[seat] == SERVE_HUMAN ? "" : "tengen ", label);
        tg_game_set_info(copy, c == TG_BLACK ? "black" : "white", name);
    }
    char err[256];
    size_t len;
    char *data = tg_record_write(copy, RECORD_FORMATS[k].format, &len, err, sizeof err);
    tg_game_free(copy);
    if (!data)
        api_fail(e, 409, "illegal", "this game cannot be written as %s: %s", RECORD_FORMATS[k].name,
                 err);
    return data;
}

static void get_record(LiveGame *g, const ApiRequest *rq, ApiResponse *out) {
    char format[16] = "";
    int k = 0;
    query_value(rq->query, "format", format, sizeof format);
    while (k < 4 && strcmp(RECORD_FORMATS[k].name, format) != 0) k++;
    if (k == 4) {
        reply_error(out, 400, "bad_field", "format must be psq, sgf, pos or txt");
        return;
    }
    ApiError e;
    pthread_mutex_lock(&g->lock);
    char *data = record_of(g, k, &e);
    pthread_mutex_unlock(&g->lock);
    if (!data) {
        api_error_response(out, &e);
        return;
    }
    api_set_body(out, 200, data, RECORD_FORMATS[k].type);
    snprintf(out->disposition, sizeof out->disposition, "attachment; filename=\"tengen-%s.%s\"",
             g->id, RECORD_FORMATS[k].name);
}

/* ---- The solver ---- */

enum {
    SOLVE_DEFAULT_MS = 3000, ///< a solve's time when the request does not say
    SOLVE_MAX_MS = 10000,    ///< and the most it may ask for (the request waits for it)
};

static const Field SOLVE_FIELDS[] = {
    {"kind", F_STRING, false}, {"time_ms", F_INT, false}, {NULL, F_STRING, false}};

/// The solver's answer: what it proved, and the attacker's line.
static json_t *solve_json(const TgGame *game, TgColor color, bool vct, const TgSolveResult *r) {
    static const char *const STATUS[] = {"none", "win", "unknown"};
    json_t *line = json_array();
    for (int i = 0; i < r->length; i++) json_array_append_new(line, json_point(game, r->line[i]));
    return json_pack("{s:s, s:s, s:s, s:o, s:I, s:I}", "status", STATUS[r->status], "kind",
                     vct ? "vct" : "vcf", "color", tg_color_name(color), "line", line, "nodes",
                     (json_int_t)r->nodes, "time_ms", (json_int_t)r->time_ms);
}

/// POST /api/games/{id}/solve: a forced win (VCF or VCT) of the side to move, searched on a
/// copy of the position with the game unlocked; the request waits for the answer.
static void post_solve(Server *s, LiveGame *g, const ApiRequest *rq, ApiResponse *out) {
    ApiError e = {0};
    json_t *body = parse_body(rq, &e);
    if (!body || !body_fields(body, SOLVE_FIELDS, &e)) {
        json_decref(body);
        api_error_response(out, &e);
        return;
    }
    const char *kind = json_string_value(json_object_get(body, "kind"));
    json_t *t = json_object_get(body, "time_ms");
    const json_int_t ms = t ? json_integer_value(t) : SOLVE_DEFAULT_MS;
    const bool vct = kind && strcmp(kind, "vct") == 0;
    if (kind && !vct && strcmp(kind, "vcf") != 0)
        api_fail(&e, 400, "bad_field", "kind must be vcf or vct");
    else if (ms < 1 || ms > SOLVE_MAX_MS)
        api_fail(&e, 400, "bad_field", "time_ms must be from 1 to %d", SOLVE_MAX_MS);
    json_decref(body);
    TgGame *copy = NULL;
    if (!e.status) {
        pthread_mutex_lock(&g->lock);
        if (game_in_opening(g))
            api_fail(&e, 409, "illegal", "no solver during the opening phase");
        else if (tg_game_over(g->game))
            api_fail(&e, 409, "game_over", "the game is over");
        else if (g->online)
            api_fail(&e, 409, "illegal", "no solver in an online game");
        else if (!(copy = tg_game_clone(g->game)))
            api_fail(&e, 503, "queue_full", "out of memory");
        pthread_mutex_unlock(&g->lock);
    }
    if (!copy) {
        api_error_response(out, &e);
        return;
    }
    /* A solve runs on this HTTP thread, so only a few at once: the rest are told to retry. */
    if (atomic_fetch_add(&s->solves, 1) >= SERVE_SOLVES_MAX) {
        atomic_fetch_sub(&s->solves, 1);
        tg_game_free(copy);
        reply_error(out, 503, "queue_full", "the solver is busy: try again in a moment");
        return;
    }
    const TgSolveLimits limits = {.vct = vct, .time_ms = ms, .stop = &s->quit};
    TgSolveResult r;
    if (tg_solve(copy, &limits, &r) == TG_OK)
        api_json_response(out, 200, solve_json(copy, tg_game_to_move(copy), vct, &r));
    else
        reply_error(out, 503, "queue_full", "the solver could not run");
    atomic_fetch_sub(&s->solves, 1);
    tg_game_free(copy);
}

/* ---- Routing ---- */

/// Splits "/api/a/b/c" into at most 3 parts: their count, or -1 when the path is not under
/// /api/, has an empty part (a trailing slash too) or is too deep.
static int split_path(const char *path, char parts[3][24]) {
    if (strncmp(path, "/api/", 5) != 0) return -1;
    int n = 0;
    const char *p = path + 5;
    while (*p) {
        const char *slash = strchr(p, '/');
        const size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 3 || len == 0 || len >= 24) return -1;
        snprintf(parts[n++], 24, "%.*s", (int)len, p);
        if (!slash) break;
        p = slash + 1;
        if (!*p) return -1; /* a trailing slash */
    }
    return n;
}

bool api_events_path(const char *path, char id[SERVE_ID_LEN + 1]) {
    char parts[3][24];
    if (split_path(path, parts) != 3 || strcmp(parts[0], "games") != 0 ||
        strcmp(parts[2], "events") != 0 || strlen(parts[1]) > SERVE_ID_LEN)
        return false;
    memcpy(id, parts[1], strlen(parts[1]) + 1); /* checked to fit above */
    return true;
}

static bool is(const ApiRequest *rq, const char *method) { return strcmp(rq->method, method) == 0; }

static void wrong_method(ApiResponse *out, const char *allowed) {
    char message[64];
    snprintf(message, sizeof message, "use %s here", allowed);
    reply_error(out, 405, "bad_method", message);
}

/// POST /api/games and /api/games/import, which make a game.
static void post_new_game(Server *s, const ApiRequest *rq, ApiResponse *out, bool import) {
    ApiError e;
    json_t *body = parse_body(rq, &e);
    if (!body) {
        api_error_response(out, &e);
        return;
    }
    json_t *answer = import ? action_import(s, body, &e) : action_create(s, body, &e);
    json_decref(body);
    if (!answer) {
        api_error_response(out, &e);
        return;
    }
    api_json_response(out, 201, answer);
}

/// Checks the route and method of /api/games/{id}[/{what}]; false with the error answered.
static bool route_ok(const ApiRequest *rq, const char *what, const Action *action,
                     ApiResponse *out) {
    const bool get = !what || strcmp(what, "record") == 0 || strcmp(what, "events") == 0;
    const bool solve = what && (strcmp(what, "solve") == 0 || strcmp(what, "delete") == 0);
    if (!get && !action && !solve)
        reply_error(out, 404, "no_route", "no such action");
    else if (!is(rq, get ? "GET" : "POST"))
        wrong_method(out, get ? "GET" : "POST");
    else
        return true;
    return false;
}

/// Parses and checks an action's body; NULL with the error answered.
static json_t *action_body(const ApiRequest *rq, const Action *action, ApiResponse *out) {
    ApiError e;
    json_t *body = parse_body(rq, &e);
    if (body && body_fields(body, action->fields, &e)) return body;
    json_decref(body);
    api_error_response(out, &e);
    return NULL;
}

/// /api/games/{id}[/{what}]
static void game_route(Server *s, const ApiRequest *rq, const char *id, const char *what,
                       ApiResponse *out) {
    const Action *action = what ? action_find(what) : NULL;
    if (!route_ok(rq, what, action, out)) return;
    if (what && strcmp(what, "delete") == 0) { /* no live game is loaded to be deleted */
        ApiError e;
        if (registry_delete(s, id, &e))
            api_json_response(out, 200, json_pack("{s:s, s:b}", "id", id, "deleted", 1));
        else
            api_error_response(out, &e);
        return;
    }
    LiveGame *g = control_get(s, id);
    json_t *body = NULL;
    if (!g)
        reply_error(out, 404, "no_game", "no game has this id");
    else if (what && strcmp(what, "events") == 0)
        reply_error(out, 404, "no_route", "the event stream is served over HTTP only");
    else if (what && strcmp(what, "record") == 0)
        get_record(g, rq, out);
    else if (what && strcmp(what, "solve") == 0)
        post_solve(s, g, rq, out);
    else if (!action)
        action_show(g, out);
    else if ((body = action_body(rq, action, out)))
        action_run(s, g, action, body, rq->seat, out);
    json_decref(body);
    registry_release(g);
}

void serve_api_handle(Server *s, const ApiRequest *rq, ApiResponse *out) {
    memset(out, 0, sizeof *out);
    char parts[3][24];
    const int n = split_path(rq->path, parts);
    const bool games = n >= 1 && strcmp(parts[0], "games") == 0;
    if (n == 1 && strcmp(parts[0], "info") == 0)
        is(rq, "GET") ? get_info(s, out) : wrong_method(out, "GET");
    else if (n == 1 && strcmp(parts[0], "openings") == 0)
        is(rq, "GET") ? api_json_response(out, 200, openings_json()) : wrong_method(out, "GET");
    else if (games && n == 1 && is(rq, "GET"))
        list_games(s, rq, out);
    else if (games && n == 1)
        is(rq, "POST") ? post_new_game(s, rq, out, false) : wrong_method(out, "GET or POST");
    else if (games && n == 2 && strcmp(parts[1], "import") == 0)
        is(rq, "POST") ? post_new_game(s, rq, out, true) : wrong_method(out, "POST");
    else if (games && n >= 2)
        game_route(s, rq, parts[1], n == 3 ? parts[2] : NULL, out);
    else
        reply_error(out, 404, "no_route", "no such path in the API");
}

/* ---- The server ---- */

Server *server_new(const ServeConfig *cfg, bool timer, char *err, size_t size) {
    Server *s = calloc(1, sizeof *s);
    if (!s) return snprintf(err, size, "out of memory"), NULL;
    s->cfg = *cfg;
    atomic_init(&s->quit, false);
    atomic_init(&s->solves, 0);
    registry_init(&s->registry);
    s->store = store_open(cfg->db_path, err, size);
    if (!s->store) {
        registry_free(&s->registry);
        free(s);
        return NULL;
    }
    if (!pool_start(s, cfg->workers, &CONTROL_HOOKS, timer)) {
        snprintf(err, size, "cannot start the worker threads");
        server_free(s);
        return NULL;
    }
    return s;
}

void server_free(Server *s) {
    if (!s) return;
    atomic_store(&s->quit, true);
    pool_stop(s);
    registry_free(&s->registry);
    store_close(s->store);
    free(s);
}
