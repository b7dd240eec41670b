/*
 * game.c — live games: the registry that holds them (loaded from the archive on
 * demand, evicted when idle and too many), their conversion to and from archive rows, and the
 * game object of docs/api.md.
 *
 * Invariant: a live game's row in the archive is rewritten by every change before the change
 * is answered or announced, so dropping a game from memory (or the process dying) loses
 * nothing; a game read back plays on from the same point.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "serve.h"

static const char ID_ALPHABET[] = "abcdefghijkmnpqrstuvwxyz23456789"; /* 32: no l, o, 0, 1 */

/* ---- Small helpers ---- */

int64_t serve_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool serve_random(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n > 0) {
        const ssize_t got = getrandom(p, n, 0);
        if (got <= 0) return false;
        p += got, n -= (size_t)got;
    }
    return true;
}

const char *player_name(int player) {
    return player == SERVE_HUMAN ? "human" : tg_level_name((TgLevel)player);
}

void player_label(int player, uint64_t nodes, char *buf, size_t size) {
    if (player != SERVE_HUMAN && nodes)
        snprintf(buf, size, "%s@%" PRIu64, player_name(player), nodes);
    else
        snprintf(buf, size, "%s", player_name(player));
}

void game_player_label(const LiveGame *g, int seat, char *buf, size_t size) {
    player_label(g->player[seat], g->nodes[seat], buf, size);
}

bool player_from_name(const char *name, int *player, uint64_t *nodes) {
    char level_name[SERVE_PLAYER_LEN];
    const char *at = strchr(name, '@');
    const size_t len = at ? (size_t)(at - name) : strlen(name);
    if (nodes) *nodes = 0;
    if (len >= sizeof level_name || (at && !nodes)) return false;
    memcpy(level_name, name, len);
    level_name[len] = '\0';
    TgLevel level;
    if (strcmp(level_name, "human") == 0 && !at) return *player = SERVE_HUMAN, true;
    if (!tg_level_from_name(level_name, &level)) return false;
    if (at) {
        char *end;
        errno = 0;
        const unsigned long long n = strtoull(at + 1, &end, 10);
        if (errno || end == at + 1 || *end || n == 0 || n > SERVE_MAX_NODES || at[1] == '-')
            return false;
        *nodes = n;
    }
    *player = (int)level;
    return true;
}

double serve_winrate(int score) {
    if (score >= TG_SCORE_WIN_MIN) return 1.0;
    if (score <= -TG_SCORE_WIN_MIN) return 0.0;
    return 1.0 / (1.0 + exp(-score / 250.0));
}

json_t *json_point(const TgGame *g, TgPoint p) {
    char pt[8];
    if (tg_point_to_text(p, tg_game_width(g), tg_game_height(g), pt, sizeof pt) != TG_OK)
        return json_string("?");
    return json_string(pt);
}

json_t *json_color(TgColor c) {
    return c == TG_BLACK || c == TG_WHITE ? json_string(tg_color_name(c)) : json_null();
}

TgColor color_from_name(const char *name) {
    return strcmp(name, "black") == 0   ? TG_BLACK
           : strcmp(name, "white") == 0 ? TG_WHITE
                                        : TG_NOBODY;
}

static const char *color_name_or_empty(TgColor c) {
    return c == TG_BLACK || c == TG_WHITE ? tg_color_name(c) : "";
}

/* ---- Live games ---- */

LiveGame *game_new_live(TgGame *game, const int player[2]) {
    LiveGame *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    feed_init(&g->feed);
    pthread_mutex_init(&g->lock, NULL);
    atomic_init(&g->refs, 0);
    g->game = game;
    g->player[0] = player[0];
    g->player[1] = player[1];
    g->draw_offer = g->undo_offer = TG_NOBODY;
    g->computer_ms = 3000;
    g->created_ms = g->updated_ms = serve_wall_ms();
    return g;
}

void game_free_live(LiveGame *g) {
    if (!g) return;
    tg_game_free(g->game);
    tg_opening_free(g->opening);
    free(g->evals);
    feed_free(&g->feed);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void game_cancel_search(LiveGame *g) {
    if (!g->job) return;
    atomic_store(&g->job->cancelled, true);
    atomic_store(&g->job->stop, true);
    g->job = NULL;
}

int game_seat(const LiveGame *g, TgColor c) {
    return g->opening ? (int)tg_opening_player_of(g->opening, c) : (int)c;
}

TgColor game_seat_color(const LiveGame *g, int seat) {
    return g->opening ? tg_opening_color_of(g->opening, (TgPlayer)seat) : (TgColor)seat;
}

bool game_in_opening(const LiveGame *g) { return g->opening && !tg_opening_done(g->opening); }

bool game_is_computer(const LiveGame *g, TgColor c) {
    return (c == TG_BLACK || c == TG_WHITE) && g->player[game_seat(g, c)] != SERVE_HUMAN;
}

/// During the opening phase the one asked acts next; afterwards the side to move.
bool game_computer_to_move(const LiveGame *g) {
    if (tg_game_over(g->game) || g->balancing) return false;
    if (game_in_opening(g)) return g->player[tg_opening_step(g->opening).player] != SERVE_HUMAN;
    return game_is_computer(g, tg_game_to_move(g->game));
}

bool game_thinking(const LiveGame *g) { return g->job && g->job->kind != JOB_ANALYSIS; }

TgColor game_human_color(const LiveGame *g) {
    const bool b = game_is_computer(g, TG_BLACK), w = game_is_computer(g, TG_WHITE);
    return b == w ? TG_NOBODY : b ? TG_WHITE : TG_BLACK;
}

int game_human_seat(const LiveGame *g) {
    const bool one = g->player[0] == SERVE_HUMAN, two = g->player[1] == SERVE_HUMAN;
    return one == two ? -1 : one ? 0 : 1;
}

TgGame *game_with_stones(const TgGame *like, const TgPoint *stones, int n) {
    TgGame *g = tg_game_new(tg_game_rule(like), tg_game_width(like), tg_game_height(like));
    if (!g) return NULL;
    if (tg_game_set_clock(g, tg_game_clock(like)) != TG_OK ||
        (n > 0 && tg_game_set_moves(g, stones, n, NULL) != TG_OK)) {
        tg_game_free(g);
        return NULL;
    }
    return g;
}

/// A score from the mover's view as Black sees it. A forced result counts plies from the side
/// to move (odd for its own five, even for the opponent's), so negating one would be a ply
/// off ("loss in 1" for a loss in 2, and a raw -29999 for a loss in 1): keep the moves to the
/// five and change only who makes it.
static int score_for_black(TgColor mover, int score) {
    if (mover != TG_WHITE) return score;
    if (score >= TG_SCORE_WIN_MIN || score <= -TG_SCORE_WIN_MIN) return 1 - score;
    return -score;
}

void game_set_eval(LiveGame *g, int ply, TgColor mover, int score, int depth) {
    if (ply < 0) return;
    if (ply >= g->eval_cap) {
        const int cap = ply + 64;
        Eval *e = realloc(g->evals, sizeof *e * (size_t)cap);
        if (!e) return;
        memset(e + g->eval_cap, 0, sizeof *e * (size_t)(cap - g->eval_cap));
        g->evals = e, g->eval_cap = cap;
    }
    g->evals[ply] = (Eval){true, score_for_black(mover, score), depth};
}

void game_cut_evals(LiveGame *g, int ply) {
    for (int i = ply + 1; i < g->eval_cap; i++) g->evals[i].valid = false;
}

void game_sync_clock(LiveGame *g) {
    const TgClock c = tg_game_clock(g->game);
    if (!c.game_ms && !c.move_ms) return;
    /* Held while the game is over, the computer waits, or an online seat is still open. */
    const bool waiting = g->online && (!g->token[0][0] || !g->token[1][0]);
    /* The opening phase is not timed: the clocks start with the first move after it. */
    const bool hold = tg_game_over(g->game) || (g->paused && game_computer_to_move(g)) || waiting ||
                      game_in_opening(g) || g->balancing;
    if (hold)
        tg_game_clock_pause(g->game, tg_now_ms());
    else
        tg_game_clock_start(g->game, tg_now_ms());
}

/* ---- Archive rows ---- */

static char *record_text(const TgGame *game) {
    const int n = tg_game_length(game);
    TgPoint *moves = malloc(sizeof *moves * (size_t)(n + 1));
    const size_t size = (size_t)n * 6 + 1;
    char *text = malloc(size);
    if (!moves || !text) {
        free(moves);
        free(text);
        return NULL;
    }
    for (int i = 0; i < n; i++) moves[i] = tg_game_move(game, i);
    tg_format_moves(moves, n, tg_game_width(game), tg_game_height(game), " ", text, size);
    free(moves);
    return text;
}

static char *evals_text(const LiveGame *g) {
    json_t *a = json_array();
    for (int ply = 0; ply < g->eval_cap; ply++)
        if (g->evals[ply].valid)
            json_array_append_new(
                a, json_pack("[i, i, i]", ply, g->evals[ply].score, g->evals[ply].depth));
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return text;
}

static void saved_from_live(const LiveGame *g, SavedGame *s) {
    const TgGame *game = g->game;
    const TgResult r = tg_game_result(game);
    const int64_t now = tg_now_ms();
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", g->id);
    snprintf(s->rule, sizeof s->rule, "%s", tg_rule_name(tg_game_rule(game)));
    s->size = tg_game_width(game);
    for (int c = 0; c < 2; c++) { /* by colour, so that the archive's list reads right */
        const int seat = game_seat(g, (TgColor)c);
        game_player_label(g, seat, s->player[c], sizeof s->player[c]);
        snprintf(s->token[c], sizeof s->token[c], "%s", g->token[seat]);
        const int64_t left = tg_game_time_left(game, (TgColor)c, now);
        s->left_ms[c] = tg_game_clock(game).game_ms ? left : 0;
    }
    s->online = g->online;
    s->ply = tg_game_ply(game);
    if (r.reason != TG_REASON_NONE) {
        snprintf(s->reason, sizeof s->reason, "%s", tg_reason_name(r.reason));
        snprintf(s->winner, sizeof s->winner, "%s", color_name_or_empty(r.winner));
    }
    s->paused = g->paused;
    snprintf(s->draw_offer, sizeof s->draw_offer, "%s", color_name_or_empty(g->draw_offer));
    snprintf(s->undo_offer, sizeof s->undo_offer, "%s", color_name_or_empty(g->undo_offer));
    s->clock = tg_game_clock(game);
    s->computer_ms = g->computer_ms;
    s->created_ms = g->created_ms;
    s->updated_ms = g->updated_ms;
    if (g->opening) tg_opening_text(g->opening, s->opening, sizeof s->opening);
    s->balancing = g->balancing;
}

bool game_save(Server *s, const LiveGame *g) {
    if (atomic_load(&g->deleted)) return true; /* its row is gone and must stay gone */
    SavedGame row;
    saved_from_live(g, &row);
    row.moves = record_text(g->game);
    row.evals = evals_text(g);
    const bool ok = row.moves && row.evals && store_put(s->store, &row);
    saved_free(&row);
    return ok;
}

/// Plays the whole record back (a foul may only end it, as in a record file), then goes to
/// the saved ply.
static bool replay(TgGame *game, const char *text, int ply) {
    const int w = tg_game_width(game), h = tg_game_height(game);
    const int max = (int)strlen(text) / 2 + 2;
    TgPoint *moves = malloc(sizeof *moves * (size_t)max);
    int n = 0;
    bool ok = moves && tg_parse_moves(text, w, h, moves, max, &n, NULL, 0) == TG_OK;
    for (int i = 0; ok && i < n; i++) {
        tg_game_set_fouls_playable(game, i == n - 1);
        ok = tg_game_play(game, moves[i], 0) == TG_OK;
    }
    tg_game_set_fouls_playable(game, false);
    free(moves);
    return ok && ply >= 0 && ply <= n && tg_game_goto(game, ply) == TG_OK;
}

/// A result that no move made (resignation, agreement, time) is restored by hand.
static void restore_result(TgGame *game, const SavedGame *s) {
    TgResult r = {.winner = color_from_name(s->winner)};
    const char *const kept[] = {"resign", "agreement", "time"};
    const TgReason reasons[] = {TG_REASON_RESIGN, TG_REASON_AGREEMENT, TG_REASON_TIME};
    if (tg_game_over(game)) return;
    for (int i = 0; i < 3; i++)
        if (strcmp(s->reason, kept[i]) == 0) r.reason = reasons[i];
    if (r.reason != TG_REASON_NONE) tg_game_set_result(game, r);
}

static void restore_evals(LiveGame *g, const char *text) {
    json_t *a = json_loads(text, 0, NULL);
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        json_int_t ply, score, depth;
        if (json_unpack(e, "[I, I, I]", &ply, &score, &depth) == 0 && ply >= 0 && ply < 100000)
            game_set_eval(g, (int)ply, TG_BLACK, (int)score, (int)depth);
    }
    json_decref(a);
}

/// The game's moves: replayed from the record, or (in the opening phase) the opening's stones.
static TgGame *game_from_saved(const SavedGame *s, const TgOpening *op) {
    TgRule rule;
    if (!tg_rule_from_name(s->rule, &rule)) return NULL;
    TgGame *game =
        op && !tg_opening_done(op) ? tg_opening_game(op) : tg_game_new(rule, s->size, s->size);
    const bool moves = !op || tg_opening_done(op);
    if (!game || tg_game_set_clock(game, s->clock) != TG_OK ||
        (moves && !replay(game, s->moves, s->ply))) {
        tg_game_free(game);
        return NULL;
    }
    if (op && moves) tg_game_set_info(game, "opening", s->opening);
    restore_result(game, s);
    if (s->clock.game_ms) {
        tg_game_set_time_left(game, TG_BLACK, s->left_ms[0]);
        tg_game_set_time_left(game, TG_WHITE, s->left_ms[1]);
    }
    return game;
}

/// The opening phase exactly as it was, replayed from its line; NULL without one.
static bool opening_from_saved(const SavedGame *s, TgOpening **op) {
    TgRule rule;
    *op = NULL;
    if (!s->opening[0]) return true;
    char err[200];
    if (tg_rule_from_name(s->rule, &rule))
        *op = tg_opening_from_text(s->opening, rule, s->size, err, sizeof err);
    if (!*op) fprintf(stderr, "tengen: game %s: the opening cannot be read back\n", s->id);
    return *op != NULL;
}

static LiveGame *live_from_saved(const SavedGame *s) {
    int by_color[2], player[2];
    uint64_t nodes_by_color[2];
    TgOpening *op;
    if (!player_from_name(s->player[0], &by_color[0], &nodes_by_color[0]) ||
        !player_from_name(s->player[1], &by_color[1], &nodes_by_color[1]) ||
        !opening_from_saved(s, &op))
        return NULL;
    int color_of[2];
    for (int k = 0; k < 2; k++) { /* the archive keeps players by colour; live games by number */
        color_of[k] = op ? (int)tg_opening_color_of(op, (TgPlayer)k) : k;
        player[k] = by_color[color_of[k]];
    }
    TgGame *game = game_from_saved(s, op);
    LiveGame *g = game ? game_new_live(game, player) : NULL;
    if (!g) {
        tg_game_free(game);
        tg_opening_free(op);
        return NULL;
    }
    for (int k = 0; k < 2; k++) g->nodes[k] = nodes_by_color[color_of[k]];
    g->opening = op;
    g->balancing = s->balancing;
    snprintf(g->id, sizeof g->id, "%s", s->id);
    g->online = s->online;
    for (int k = 0; k < 2; k++)
        snprintf(g->token[k], sizeof g->token[k], "%s", s->token[game_seat_color(g, k)]);
    g->draw_offer = color_from_name(s->draw_offer);
    g->undo_offer = color_from_name(s->undo_offer);
    g->paused = s->paused;
    g->computer_ms = s->computer_ms;
    g->created_ms = s->created_ms;
    g->updated_ms = s->updated_ms;
    restore_evals(g, s->evals);
    return g;
}

/* ---- The registry ---- */

void registry_init(Registry *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
}

void registry_free(Registry *r) {
    for (int b = 0; b < REGISTRY_BUCKETS; b++) {
        while (r->bucket[b]) {
            LiveGame *g = r->bucket[b];
            r->bucket[b] = g->next;
            game_free_live(g);
        }
    }
    pthread_mutex_destroy(&r->lock);
}

static unsigned bucket_of(const char *id) {
    unsigned h = 2166136261u;
    for (const char *p = id; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    return h % REGISTRY_BUCKETS;
}

static LiveGame *find(Registry *r, const char *id) {
    for (LiveGame *g = r->bucket[bucket_of(id)]; g; g = g->next)
        if (strcmp(g->id, id) == 0) return g;
    return NULL;
}

/// Drops the least recently used game nobody holds (its row is already saved).
static void evict_one(Registry *r) {
    LiveGame **victim = NULL;
    for (int b = 0; b < REGISTRY_BUCKETS; b++)
        for (LiveGame **p = &r->bucket[b]; *p; p = &(*p)->next)
            if (atomic_load(&(*p)->refs) == 1 && /* the registry's own: nobody else holds it */
                (!victim || (*p)->touched_ms < (*victim)->touched_ms))
                victim = p;
    if (!victim) return;
    LiveGame *g = *victim;
    *victim = g->next;
    r->count--;
    registry_release(g); /* the last reference: freed */
}

static void insert(Registry *r, LiveGame *g) {
    if (r->count >= REGISTRY_MAX) evict_one(r);
    const unsigned b = bucket_of(g->id);
    g->next = r->bucket[b];
    r->bucket[b] = g;
    r->count++;
    atomic_store(&g->refs, 2); /* the registry's and the caller's */
    g->touched_ms = tg_now_ms();
}

static LiveGame *load(Server *s, const char *id) {
    SavedGame row;
    if (store_get(s->store, id, &row) != 1) return NULL;
    LiveGame *g = live_from_saved(&row);
    if (!g) fprintf(stderr, "tengen: game %s in the archive cannot be read back\n", id);
    saved_free(&row);
    return g;
}

static bool valid_id(const char *id) {
    const size_t n = strlen(id);
    return n == SERVE_ID_LEN && strspn(id, ID_ALPHABET) == n;
}

LiveGame *registry_get(Server *s, const char *id, bool *loaded) {
    *loaded = false;
    if (!valid_id(id)) return NULL;
    Registry *r = &s->registry;
    pthread_mutex_lock(&r->lock);
    LiveGame *g = find(r, id);
    if (g) atomic_fetch_add(&g->refs, 1), g->touched_ms = tg_now_ms();
    if (!g && (g = load(s, id))) insert(r, g), *loaded = true;
    pthread_mutex_unlock(&r->lock);
    return g;
}

static void new_id(char id[SERVE_ID_LEN + 1]) {
    unsigned char bytes[SERVE_ID_LEN];
    if (!serve_random(bytes, sizeof bytes)) { /* no entropy source: still unique enough */
        uint64_t x = (uint64_t)serve_wall_ms() ^ ((uint64_t)tg_now_ms() << 20);
        for (int i = 0; i < SERVE_ID_LEN; i++) bytes[i] = (unsigned char)(x >> (i * 5 % 60));
    }
    for (int i = 0; i < SERVE_ID_LEN; i++) id[i] = ID_ALPHABET[bytes[i] & 31];
    id[SERVE_ID_LEN] = '\0';
}

bool registry_add(Server *s, LiveGame *g) {
    Registry *r = &s->registry;
    pthread_mutex_lock(&r->lock);
    SavedGame row;
    int tries = 0, found;
    do {
        new_id(g->id);
        found = find(r, g->id) ? 1 : store_get(s->store, g->id, &row);
        if (found == 1) saved_free(&row);
    } while (found != 0 && ++tries < 8);
    if (found == 0) insert(r, g);
    pthread_mutex_unlock(&r->lock);
    return found == 0;
}

void registry_release(LiveGame *g) {
    /* The registry holds a reference of its own while the game is in it, so the count reaches
       0 only once the game is out of the registry (evicted or deleted): whoever drops the
       last reference frees it. */
    if (g && atomic_fetch_sub(&g->refs, 1) == 1) game_free_live(g);
}

bool registry_delete(Server *s, const char *id, ApiError *e) {
    if (!valid_id(id)) return api_fail(e, 404, "no_game", "no game has this id");
    Registry *r = &s->registry;
    pthread_mutex_lock(&r->lock);
    LiveGame **link = &r->bucket[bucket_of(id)];
    while (*link && strcmp((*link)->id, id) != 0) link = &(*link)->next;
    LiveGame *g = *link;
    SavedGame row;
    const int stored = g ? 1 : store_get(s->store, id, &row);
    const bool online = g ? g->online : stored == 1 && row.online;
    if (!g && stored == 1) saved_free(&row);
    bool ok = false;
    if (stored != 1)
        api_fail(e, stored == 0 ? 404 : 500, stored == 0 ? "no_game" : "internal",
                 stored == 0 ? "no game has this id" : "the archive cannot be read");
    else if (online)
        api_fail(e, 409, "illegal", "an online game belongs to both players: it is kept");
    else if (!store_delete(s->store, id))
        api_fail(e, 500, "internal", "the archive cannot be written");
    else
        ok = true;
    if (ok && g) {
        *link = g->next;
        r->count--;
        pthread_mutex_lock(&g->lock);
        atomic_store(&g->deleted, true);
        game_cancel_search(g);
        pthread_mutex_unlock(&g->lock);
    }
    pthread_mutex_unlock(&r->lock);
    if (ok && g) registry_release(g); /* the registry's reference: freed unless still held */
    return ok;
}

LiveGame **registry_snapshot(Server *s, int *count) {
    Registry *r = &s->registry;
    pthread_mutex_lock(&r->lock);
    LiveGame **all = malloc(sizeof *all * (size_t)(r->count + 1));
    int n = 0;
    for (int b = 0; all && b < REGISTRY_BUCKETS; b++)
        for (LiveGame *g = r->bucket[b]; g; g = g->next) {
            atomic_fetch_add(&g->refs, 1);
            all[n++] = g;
        }
    pthread_mutex_unlock(&r->lock);
    *count = n;
    return all;
}
