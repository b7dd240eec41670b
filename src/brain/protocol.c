/*
 * protocol.c — the Gomocup brain protocol: piskvork's commands plus the Yixin-Board extensions
 * (docs/protocol.md). One line in, zero or more lines out through the write
 * callback. Searches are prepared by brain_command() and run by brain_think(), so a caller with
 * threads can keep reading input (END, YXSTOP, INFO) while the engine thinks.
 *
 * Coordinates are the protocol's x,y (zero-based, y from the top), the same as TgPoint; they go
 * back out in the order they came in, so Yixin-Board's transposed row,col works unchanged.
 * Time counts from the moment the command line arrived: a search gets what is left of
 * timeout_turn and time_left after the brain's own handling, and the engine's time plan keeps a
 * reserve below both, so no tolerance of the manager is needed.
 */
#include "internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

/// Copies `text` for echoing in one output line: printable ASCII only, at most 60 characters.
static void printable(const char *text, char *buf, size_t size) {
    size_t n = 0;
    for (; *text && n + 4 < size && n < 60; text++)
        buf[n++] = isprint((unsigned char)*text) ? *text : '?';
    if (*text) buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = '\0';
}

static const char *skip_spaces(const char *p) {
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

void brain_keyword(const char *line, char *word, size_t size) {
    const char *p = skip_spaces(line);
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p) && n + 1 < size)
        word[n++] = (char)toupper((unsigned char)*p++);
    word[n] = '\0';
}

/// Reads an integer in [lo, hi] at *p (spaces allowed before it); advances *p past it.
static bool read_int(const char **p, int64_t lo, int64_t hi, int64_t *v) {
    const char *s = skip_spaces(*p);
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    if (!isdigit((unsigned char)*s)) return false;
    int64_t n = 0;
    for (; isdigit((unsigned char)*s); s++) {
        if (n > (INT64_MAX - 9) / 10) return false;
        n = n * 10 + (*s - '0');
    }
    n = neg ? -n : n;
    if (n < lo || n > hi) return false;
    *v = n;
    *p = s;
    return true;
}

/// Reads "X,Y" or, with `field`, "X,Y,F"; the whole text must be used (spaces aside).
static bool parse_point(const char *text, TgPoint *pt, int *field) {
    const char *p = text;
    int64_t x, y, f = 0;
    if (!read_int(&p, -9999, 9999, &x)) return false;
    p = skip_spaces(p);
    if (*p++ != ',' || !read_int(&p, -9999, 9999, &y)) return false;
    p = skip_spaces(p);
    if (field && *p == ',') {
        p++;
        if (!read_int(&p, -99, 99, &f)) return false;
        p = skip_spaces(p);
    }
    if (*p && *p != '\r' && *p != '\n') return false;
    if (field) *field = (int)f;
    *pt = (TgPoint){(int)x, (int)y};
    return true;
}

static bool on_board(const Brain *b, TgPoint p) {
    return p.x >= 0 && p.y >= 0 && p.x < tg_game_width(b->game) && p.y < tg_game_height(b->game);
}

/// Why a point cannot be played now, or NULL. Passes (-1,-1) are allowed.
static const char *point_problem(const Brain *b, TgPoint p) {
    if (tg_point_is_pass(p)) return NULL;
    if (!on_board(b, p)) return "is off the board";
    if (tg_game_stone(b->game, p) != TG_NOBODY) return "is occupied";
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Settings, engine and game                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void settings_default(Settings *s, int64_t turn_ms) {
    memset(s, 0, sizeof *s);
    s->timeout_turn = turn_ms;
    s->time_left = INT64_MAX;
    s->rule_ok = true;
    s->rule = TG_FREESTYLE;
    s->threads = 1;
}

/// Why the settings cannot be honoured, or NULL; told as the answer to the next command.
static const char *settings_problem(const Brain *b, char *buf, size_t size) {
    if (!b->s.rule_ok) {
        snprintf(buf, size, "unsupported rule %d (tengen plays 0, 1, 2, 4, 8 and 9)",
                 b->s.rule_value);
        return buf;
    }
    if (b->s.max_memory > 0 && b->s.max_memory < MEMORY_MIN) {
        snprintf(buf, size, "max_memory %" PRId64 " is too small (tengen needs %d)",
                 b->s.max_memory, MEMORY_MIN);
        return buf;
    }
    return NULL;
}

static int wanted_threads(const Brain *b) {
    int t = b->s.threads < 1 ? 1 : b->s.threads > TG_MAX_THREADS ? TG_MAX_THREADS : b->s.threads;
    if (b->cfg.thread_cap > 0 && t > b->cfg.thread_cap) t = b->cfg.thread_cap;
    return t;
}

static int64_t floor_pow2(int64_t v) {
    int64_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

/// The mcts and zero levels search a tree of their own, not the table.
static bool tree_level(const Brain *b) {
    return b->s.level == TG_LEVEL_MCTS || b->s.level == TG_LEVEL_ZERO;
}

/// What max_memory leaves for the table and the tree after the rest of the process.
static int64_t memory_room(const Brain *b, int threads) {
    return b->s.max_memory - MEMORY_BASE - MEMORY_PER_THREAD * threads;
}

/// The table size the settings ask for: hash_size if given, else what max_memory leaves after
/// the rest of the process (the smallest table at the tree levels: the tree gets the room),
/// else DEFAULT_HASH; never more than max_memory leaves.
static size_t wanted_hash(const Brain *b, int threads) {
    int64_t bytes = b->s.hash_kb > 0 ? b->s.hash_kb * 1024 : DEFAULT_HASH;
    if (b->s.max_memory > 0) {
        const int64_t room = tree_level(b) ? MIN_HASH : memory_room(b, threads);
        bytes = b->s.hash_kb > 0 ? brain_min64(bytes, memory_room(b, threads)) : room;
    }
    if (b->cfg.hash_cap > 0) bytes = brain_min64(bytes, (int64_t)b->cfg.hash_cap);
    if (bytes > ((int64_t)1 << 42)) bytes = (int64_t)1 << 42;
    return (size_t)floor_pow2(bytes < MIN_HASH ? MIN_HASH : bytes);
}

/// The tree of the mcts and zero levels: with max_memory, what the table leaves of the room
/// (a tree smaller than the root's moves still answers); with none, the tree's own limit.
static void apply_tree(Brain *b) {
    if (b->s.max_memory <= 0) return tg_engine_set_tree_memory(b->engine, 0);
    const int64_t left =
        memory_room(b, b->threads_applied) - (int64_t)tg_engine_hash_bytes(b->engine);
    tg_engine_set_tree_memory(b->engine, left > 1 ? (size_t)left : 1);
}

/// Brings the engine to the settings (threads, table, tree). Never while a search runs.
static void apply_engine(Brain *b) {
    const int threads = wanted_threads(b);
    if (threads != b->threads_applied && tg_engine_set_threads(b->engine, threads) == TG_OK)
        b->threads_applied = threads;
    size_t bytes = wanted_hash(b, b->threads_applied);
    if (bytes != b->hash_applied) {
        b->hash_applied = bytes;
        /* Down to the smallest table first, so the old and new tables never coexist. */
        tg_engine_set_hash(b->engine, 0);
        while (bytes > (size_t)MIN_HASH && tg_engine_set_hash(b->engine, bytes) != TG_OK)
            bytes /= 2;
        if (bytes <= (size_t)MIN_HASH) tg_engine_set_hash(b->engine, (size_t)MIN_HASH);
    }
    apply_tree(b);
}

/// A new empty game of the settings' rule. False when the size cannot be played.
static bool new_game(Brain *b, int width, int height) {
    TgGame *g = tg_game_new(b->s.rule, width, height);
    if (!g) return false;
    tg_game_free(b->game);
    b->game = g;
    b->block_count = 0;
    b->have_score = false;
    apply_engine(b);
    tg_engine_clear(b->engine);
    return true;
}

/// The rule changed: the same stones, in the same order, under the new rule.
static void regame_rule(Brain *b) {
    if (!b->game || tg_game_rule(b->game) == b->s.rule) return;
    TgPoint moves[1024];
    const int n = tg_game_ply(b->game);
    for (int i = 0; i < n && i < 1024; i++) moves[i] = tg_game_move(b->game, i);
    TgGame *g = tg_game_new(b->s.rule, tg_game_width(b->game), tg_game_height(b->game));
    if (!g) return;
    tg_game_setup(g, moves, n < 1024 ? n : 1024, NULL);
    tg_game_free(b->game);
    b->game = g;
}

/// Writes "ERROR ..." and returns true when no game can be played now.
static bool cannot_play(Brain *b) {
    char buf[160];
    const char *why = settings_problem(b, buf, sizeof buf);
    if (why) {
        brain_out(b, "ERROR %s", why);
        return true;
    }
    if (!b->game) {
        brain_out(b, "ERROR no board yet: send START first");
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Searching: commands prepare a job, think.c runs it                                          */
/* ------------------------------------------------------------------------------------------ */

/// Prepares a search of the given kind; the caller returns BRAIN_THINK.
static BrainStatus ask(Brain *b, Task task, int multipv, int64_t received_ms) {
    memset(&b->job, 0, sizeof b->job);
    b->job.task = task;
    b->job.multipv = multipv;
    b->job.received_ms = received_ms;
    b->job.s = b->s;
    b->job.time_serial = b->time_serial;
    b->thinking = true;
    return BRAIN_THINK;
}

void brain_think(Brain *b, const atomic_bool *stop) {
    static const atomic_bool never = false;
    b->job.stop = stop ? stop : &never;
    TgSearchResult *r = malloc(sizeof *r);
    if (!r) {
        brain_out(b, "ERROR out of memory");
    } else if (b->job.task == TASK_SWAP2) {
        brain_swap2(b);
    } else if (brain_search(b, 1, true, r)) {
        if (b->job.task == TASK_DEFEND) brain_answer_defend(b, r);
        brain_answer_move(b, r);
    }
    free(r);
    b->job.spent_ms = tg_now_ms() - b->job.received_ms;
}

void brain_settle(Brain *b) {
    if (!b->thinking) return;
    b->thinking = false;
    /* Our own clock, until the manager tells time_left again. */
    if (b->s.time_left != INT64_MAX && b->time_serial == b->job.time_serial)
        b->s.time_left -= b->job.spent_ms - (b->s.increment > 0 ? b->s.increment : 0);
    regame_rule(b);
    apply_engine(b);
}

bool brain_thinking(const Brain *b) { return b->thinking; }

/* ------------------------------------------------------------------------------------------ */
/* Commands                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef BrainStatus (*Handler)(Brain *b, const char *args, int64_t received_ms);

static BrainStatus start_board(Brain *b, int64_t w, int64_t h) {
    char buf[160];
    const char *why = settings_problem(b, buf, sizeof buf);
    if (why)
        brain_out(b, "ERROR %s", why);
    else if (w < TG_MIN_SIZE || h < TG_MIN_SIZE || w > TG_MAX_SIZE || h > TG_MAX_SIZE)
        brain_out(b, "ERROR unsupported size %" PRId64 "x%" PRId64 " (tengen plays %d to %d)", w, h,
                  TG_MIN_SIZE, TG_MAX_SIZE);
    else if (!new_game(b, (int)w, (int)h))
        brain_out(b, "ERROR cannot start a %" PRId64 " board", w);
    else
        brain_out(b, "OK");
    return BRAIN_IDLE;
}

/// START N, or START W H (Yixin-Board), or START W,H.
static BrainStatus cmd_start(Brain *b, const char *args, int64_t t) {
    (void)t;
    const char *p = args;
    int64_t w, h;
    if (!read_int(&p, -999999, 999999, &w)) {
        brain_out(b, "ERROR START needs a board size");
        return BRAIN_IDLE;
    }
    p = skip_spaces(p);
    if (*p == ',') p++;
    if (!read_int(&p, -999999, 999999, &h)) h = w;
    if (*skip_spaces(p)) {
        brain_out(b, "ERROR START: unexpected text after the size");
        return BRAIN_IDLE;
    }
    return start_board(b, w, h);
}

static BrainStatus cmd_rectstart(Brain *b, const char *args, int64_t t) {
    (void)t;
    TgPoint size;
    if (!parse_point(args, &size, NULL)) {
        brain_out(b, "ERROR RECTSTART needs width,height");
        return BRAIN_IDLE;
    }
    return start_board(b, size.x, size.y);
}

static BrainStatus cmd_restart(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    if (!b->game) {
        brain_out(b, "ERROR no board yet: send START first");
        return BRAIN_IDLE;
    }
    b->s.time_left = b->s.timeout_match > 0 ? b->s.timeout_match : INT64_MAX;
    b->time_serial++;
    return start_board(b, tg_game_width(b->game), tg_game_height(b->game));
}

static BrainStatus cmd_begin(Brain *b, const char *args, int64_t t) {
    (void)args;
    if (cannot_play(b)) return BRAIN_IDLE;
    return ask(b, TASK_MOVE, 1, t);
}

/// Plays a point given as "X,Y" for the side to move; false (ERROR written) when it cannot.
static bool play_text(Brain *b, const char *cmd, const char *args) {
    TgPoint p;
    char shown[80];
    if (!parse_point(args, &p, NULL)) {
        printable(skip_spaces(args), shown, sizeof shown);
        brain_out(b, "ERROR %s: malformed coordinates '%s' (expected X,Y)", cmd, shown);
        return false;
    }
    const char *why = point_problem(b, p);
    if (why) {
        brain_out(b, "ERROR %s: %d,%d %s", cmd, p.x, p.y, why);
        return false;
    }
    if (tg_game_over(b->game)) {
        brain_out(b, "ERROR %s: the game is over", cmd);
        return false;
    }
    const TgError e = tg_game_play(b->game, p, 0);
    if (e == TG_ERR_FORBIDDEN)
        brain_out(b, "ERROR %s: %d,%d is forbidden for Black", cmd, p.x, p.y);
    else if (e != TG_OK)
        brain_out(b, "ERROR %s: %d,%d: %s", cmd, p.x, p.y, tg_error_text(e));
    return e == TG_OK;
}

static BrainStatus cmd_turn(Brain *b, const char *args, int64_t t) {
    if (cannot_play(b) || !play_text(b, "TURN", args)) return BRAIN_IDLE;
    return ask(b, TASK_MOVE, 1, t);
}

/// PLAY X,Y: our own move, imposed by the manager (after SUGGEST).
static BrainStatus cmd_play(Brain *b, const char *args, int64_t t) {
    (void)t;
    if (cannot_play(b)) return BRAIN_IDLE;
    TgPoint p;
    if (play_text(b, "PLAY", args) && parse_point(args, &p, NULL)) brain_out(b, "%d,%d", p.x, p.y);
    return BRAIN_IDLE;
}

static BrainStatus cmd_takeback(Brain *b, const char *args, int64_t t) {
    (void)t;
    TgPoint p;
    if (!b->game) {
        brain_out(b, "ERROR no board yet: send START first");
    } else if (!parse_point(args, &p, NULL)) {
        brain_out(b, "ERROR TAKEBACK needs X,Y");
    } else if (tg_game_ply(b->game) == 0) {
        brain_out(b, "ERROR TAKEBACK: no move to take back");
    } else {
        const TgPoint last = tg_game_move(b->game, tg_game_ply(b->game) - 1);
        if (last.x != p.x || last.y != p.y) {
            brain_out(b, "ERROR TAKEBACK: the last move is %d,%d, not %d,%d", last.x, last.y, p.x,
                      p.y);
        } else {
            tg_game_undo(b->game);
            brain_out(b, "OK");
        }
    }
    return BRAIN_IDLE;
}

static BrainStatus cmd_about(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    brain_out(b,
              "name=\"tengen\", version=\"%s\", author=\"tengen developers\", country=\"\", "
              "www=\"\"",
              TG_VERSION);
    return BRAIN_IDLE;
}

static BrainStatus cmd_end(Brain *b, const char *args, int64_t t) {
    (void)b, (void)args, (void)t;
    return BRAIN_QUIT;
}

/* ---- INFO ---- */

static void info_number(Brain *b, const char *key, int64_t v) {
    Settings *s = &b->s;
    if (!strcmp(key, "timeout_turn")) {
        if (v >= 0) s->timeout_turn = v;
    } else if (!strcmp(key, "timeout_match")) {
        if (v < 0) return;
        s->timeout_match = v;
        if (b->time_serial == 0) s->time_left = v > 0 ? v : INT64_MAX; /* until time_left comes */
    } else if (!strcmp(key, "time_left")) {
        s->time_left = v >= UNLIMITED_MS ? INT64_MAX : v;
        b->time_serial++;
    } else if (!strcmp(key, "time_increment")) {
        s->increment = v > 0 ? v : 0;
    } else if (!strcmp(key, "max_memory")) {
        s->max_memory = v > 0 ? v : 0;
    } else if (!strcmp(key, "game_type")) {
        s->game_type = (int)v;
    } else if (!strcmp(key, "rule")) {
        s->rule_value = (int)v;
        s->rule_ok = tg_rule_from_code(v, &s->rule);
    } else if (!strcmp(key, "thread_num")) {
        s->threads = v < 1 ? 1 : v > TG_MAX_THREADS ? TG_MAX_THREADS : (int)v;
    } else if (!strcmp(key, "hash_size")) {
        s->hash_kb = v > 0 ? (v < ((int64_t)1 << 32) ? v : (int64_t)1 << 32) : 0;
    } else if (!strcmp(key, "max_node")) {
        s->max_node = v;
    } else if (!strcmp(key, "max_depth")) {
        s->max_depth = v > 0 && v < 1000 ? (int)v : 0;
    } else if (!strcmp(key, "caution_factor")) {
        s->caution_factor = (int)v;
    } else if (!strcmp(key, "pondering")) {
        s->pondering = (int)v; /* accepted; tengen does not ponder */
    } else if (!strcmp(key, "show_detail")) {
        s->detail = (int)(v & 3);
        s->detail_set = true;
    } else if (!strcmp(key, "nbestsym")) {
        s->nbestsym = (int)v;
    }
}

/// INFO key value. Unknown keys and unreadable values are ignored (the manager reads no
/// answer); a value that cannot be honoured is told on the next command.
static BrainStatus cmd_info(Brain *b, const char *args, int64_t t) {
    (void)t;
    const char *p = skip_spaces(args);
    char key[32];
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p) && n + 1 < sizeof key)
        key[n++] = (char)tolower((unsigned char)*p++);
    key[n] = '\0';
    if (*p && !isspace((unsigned char)*p)) return BRAIN_IDLE; /* a key too long to be ours */
    p = skip_spaces(p);
    if (!strcmp(key, "folder")) {
        snprintf(b->s.folder, sizeof b->s.folder, "%s", p);
        return BRAIN_IDLE;
    }
    if (!strcmp(key, "level")) { /* tengen's own key: a level name (tg_level_from_name) */
        char name[16];
        size_t k = 0;
        while (p[k] && !isspace((unsigned char)p[k]) && k + 1 < sizeof name) name[k] = p[k], k++;
        name[k] = '\0';
        tg_level_from_name(name, &b->s.level);
        if (!b->thinking) apply_engine(b); /* the table and the tree share the room by level */
        return BRAIN_IDLE;
    }
    int64_t v;
    if (!read_int(&p, INT64_MIN / 2, INT64_MAX / 2, &v)) return BRAIN_IDLE;
    info_number(b, key, v);
    if (!b->thinking) {
        regame_rule(b);
        apply_engine(b);
    }
    return BRAIN_IDLE;
}

/* ---- Multi-line bodies: BOARD, YXBOARD, SWAP2BOARD, YXBLOCK, YXBLOCKUNDO ---- */

static void body_fail(Brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void body_fail(Brain *b, const char *fmt, ...) {
    if (b->body_error[0]) return; /* the first problem is the one told */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->body_error, sizeof b->body_error, fmt, ap);
    va_end(ap);
}

/// One body item ("X,Y,F" or "X,Y").
static void body_item(Brain *b, const char *item) {
    TgPoint p;
    int field = 0;
    const bool with_field = b->body == BODY_BOARD || b->body == BODY_YXBOARD;
    char shown[80];
    if (!parse_point(item, &p, with_field ? &field : NULL)) {
        printable(item, shown, sizeof shown);
        body_fail(b, "malformed line '%s'", shown);
        return;
    }
    if (with_field && (field < 1 || field > 3)) {
        body_fail(b, "%d,%d,%d: the field must be 1, 2 or 3", p.x, p.y, field);
        return;
    }
    if (field == 3) return; /* continuous-game marker */
    if (b->body_count >= MAX_BODY) {
        body_fail(b, "too many lines");
        return;
    }
    if (b->game && !tg_point_is_pass(p) && !on_board(b, p))
        body_fail(b, "%d,%d is off the board", p.x, p.y);
    b->body_point[b->body_count] = p;
    b->body_field[b->body_count++] = (signed char)field;
}

/// Orders a BOARD body into moves: our stones (field 1) and theirs (2) interleaved in the
/// order listed, the receiver being the side to move (equal counts: it plays Black). A side
/// with too few entries is padded with passes. Returns the count.
static int body_moves(const Brain *b, TgPoint *moves) {
    TgPoint mine[MAX_BODY], theirs[MAX_BODY];
    int n1 = 0, n2 = 0;
    for (int i = 0; i < b->body_count; i++) {
        if (b->body_field[i] == 1)
            mine[n1++] = b->body_point[i];
        else
            theirs[n2++] = b->body_point[i];
    }
    const bool we_black = n1 >= n2;
    const TgPoint *black = we_black ? mine : theirs, *white = we_black ? theirs : mine;
    const int nb = we_black ? n1 : n2, nw = we_black ? n2 : n1;
    /* Black to move: blacks == whites; White to move: blacks == whites + 1. */
    const int blacks = we_black ? (nb > nw ? nb : nw) : (nb > nw + 1 ? nb : nw + 1);
    const int whites = we_black ? blacks : blacks - 1;
    int n = 0;
    for (int i = 0; i < blacks || i < whites; i++) {
        if (i < blacks) moves[n++] = i < nb ? black[i] : (TgPoint){-1, -1};
        if (i < whites) moves[n++] = i < nw ? white[i] : (TgPoint){-1, -1};
    }
    return n;
}

/// Sets up the body's position. False (ERROR written) when it is not a position.
static bool body_position(Brain *b, Body body, const char *name) {
    TgPoint moves[2 * MAX_BODY + 2];
    const int n = body == BODY_SWAP2 ? b->body_count : body_moves(b, moves);
    if (body == BODY_SWAP2) memcpy(moves, b->body_point, sizeof(TgPoint) * (size_t)n);
    int bad = -1;
    const TgError e = tg_game_setup(b->game, moves, n, &bad);
    if (e == TG_OK) return true;
    if (e == TG_ERR_OCCUPIED)
        brain_out(b, "ERROR %s: two stones at %d,%d", name, moves[bad].x, moves[bad].y);
    else
        brain_out(b, "ERROR %s: %s", name, tg_error_text(e));
    return false;
}

static void block_edit(Brain *b, bool add) {
    for (int i = 0; i < b->body_count; i++) {
        const TgPoint p = b->body_point[i];
        int at = -1;
        for (int k = 0; k < b->block_count; k++)
            if (b->block[k].x == p.x && b->block[k].y == p.y) at = k;
        if (add && at < 0 && b->block_count < MAX_BLOCK) b->block[b->block_count++] = p;
        if (!add && at >= 0) b->block[at] = b->block[--b->block_count];
    }
}

/// DONE: acts on the body collected.
static BrainStatus body_done(Brain *b) {
    const Body body = b->body;
    const char *name = BODY_NAMES[body];
    b->body = BODY_NONE;
    if (b->body_error[0]) {
        brain_out(b, "ERROR %s: %s", name, b->body_error);
        return BRAIN_IDLE;
    }
    if (body == BODY_BLOCK || body == BODY_UNBLOCK) {
        block_edit(b, body == BODY_BLOCK);
        return BRAIN_IDLE;
    }
    if (body != BODY_YXBOARD && cannot_play(b)) return BRAIN_IDLE;
    if (body == BODY_SWAP2 && b->body_count != 0 && b->body_count != 3 && b->body_count != 5) {
        brain_out(b, "ERROR SWAP2BOARD: %d stones (0, 3 or 5 expected)", b->body_count);
        return BRAIN_IDLE;
    }
    if (!body_position(b, body, name)) return BRAIN_IDLE;
    if (body == BODY_YXBOARD) return BRAIN_IDLE;
    const BrainStatus st = ask(b, body == BODY_SWAP2 ? TASK_SWAP2 : TASK_MOVE, 1, b->body_ms);
    b->job.stones = b->body_count;
    return st;
}

/// Starts a body; items may follow on the same line ("YXBOARD 7,7,1 8,8,2 DONE").
static BrainStatus body_start(Brain *b, Body body, const char *args, int64_t t) {
    if (!b->game && body != BODY_BLOCK && body != BODY_UNBLOCK) {
        /* Still read the body, so its lines are not taken for commands. */
        b->body_error[0] = '\0';
        body_fail(b, "no board yet: send START first");
    } else {
        b->body_error[0] = '\0';
    }
    b->body = body;
    b->body_ms = t;
    b->body_count = 0;
    char item[BRAIN_MAX_LINE + 2];
    const char *p = skip_spaces(args);
    while (*p) {
        size_t n = strcspn(p, " \t");
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        char word[8];
        brain_keyword(item, word, sizeof word);
        if (!strcmp(word, "DONE")) return body_done(b);
        body_item(b, item);
        p = skip_spaces(p + n);
    }
    return BRAIN_IDLE;
}

static BrainStatus cmd_board(Brain *b, const char *a, int64_t t) {
    return body_start(b, BODY_BOARD, a, t);
}
static BrainStatus cmd_yxboard(Brain *b, const char *a, int64_t t) {
    return body_start(b, BODY_YXBOARD, a, t);
}
static BrainStatus cmd_swap2board(Brain *b, const char *a, int64_t t) {
    return body_start(b, BODY_SWAP2, a, t);
}
static BrainStatus cmd_yxblock(Brain *b, const char *a, int64_t t) {
    return body_start(b, BODY_BLOCK, a, t);
}
static BrainStatus cmd_yxblockundo(Brain *b, const char *a, int64_t t) {
    return body_start(b, BODY_UNBLOCK, a, t);
}

static BrainStatus cmd_yxblockreset(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    b->block_count = 0;
    return BRAIN_IDLE;
}

/* ---- Yixin-Board ---- */

static BrainStatus cmd_yxshowinfo(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    if (!b->s.detail_set) b->s.detail = 3;
    brain_out(b, "MESSAGE INFO MAX_THREAD_NUM %d",
              b->cfg.thread_cap > 0 ? b->cfg.thread_cap : TG_MAX_THREADS);
    brain_out(b, "MESSAGE INFO MAX_HASH_SIZE %d", MAX_HASH_EXPONENT);
    brain_out(b, "MESSAGE tengen %s: Gomoku/Renju engine", TG_VERSION);
    return BRAIN_IDLE;
}

static BrainStatus cmd_stop(Brain *b, const char *args, int64_t t) {
    (void)b, (void)args, (void)t; /* nothing is thinking: nothing to stop */
    return BRAIN_IDLE;
}

/// FORBID XXYYXXYY...: Black's forbidden points (renju, Black to move), then '.'.
static BrainStatus cmd_yxshowforbid(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    if (!b->game) {
        brain_out(b, "ERROR no board yet: send START first");
        return BRAIN_IDLE;
    }
    TgForbidden *list = malloc(sizeof(TgForbidden) * TG_MAX_SIZE * TG_MAX_SIZE);
    if (!list) {
        brain_out(b, "ERROR out of memory");
        return BRAIN_IDLE;
    }
    const int n = tg_game_forbidden(b->game, list, TG_MAX_SIZE * TG_MAX_SIZE);
    char line[16 + 4 * TG_MAX_SIZE * TG_MAX_SIZE];
    size_t used = (size_t)snprintf(line, sizeof line, "FORBID ");
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%02d%02d", list[i].point.x,
                                 list[i].point.y);
    snprintf(line + used, sizeof line - used, ".");
    free(list);
    brain_out(b, "%s", line);
    return BRAIN_IDLE;
}

static BrainStatus cmd_yxnbest(Brain *b, const char *args, int64_t t) {
    const char *p = args;
    int64_t n;
    if (!read_int(&p, 1, 1000000, &n) || *skip_spaces(p)) {
        brain_out(b, "ERROR YXNBEST needs a number of moves");
        return BRAIN_IDLE;
    }
    if (cannot_play(b)) return BRAIN_IDLE;
    return ask(b, TASK_NBEST, n > TG_MAX_MULTIPV ? TG_MAX_MULTIPV : (int)n, t);
}

static BrainStatus cmd_yxsearchdefend(Brain *b, const char *args, int64_t t) {
    (void)args;
    if (cannot_play(b)) return BRAIN_IDLE;
    return ask(b, TASK_DEFEND, TG_MAX_MULTIPV, t);
}

static BrainStatus cmd_yxhashclear(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    tg_engine_clear(b->engine);
    return BRAIN_IDLE;
}

/// YXDRAW: a draw offer, accepted when the last search found us clearly worse.
static BrainStatus cmd_yxdraw(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    const bool accept = b->have_score && b->last_score <= DRAW_ACCEPT;
    brain_out(b, "MESSAGE DRAW %s", accept ? "ACCEPT" : "REJECT");
    return BRAIN_IDLE;
}

static BrainStatus cmd_yxresign(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    if (b->game && !tg_game_over(b->game)) tg_game_resign(b->game, tg_game_to_move(b->game));
    return BRAIN_IDLE;
}

/// YXSWAP2STEP1..3: Yixin-Board's swap2 questions about the board YXBOARD set (step 1 starts
/// from an empty board).
static BrainStatus yxswap2_step(Brain *b, int stones, int64_t t) {
    if (cannot_play(b)) return BRAIN_IDLE;
    if (stones == 0) tg_game_setup(b->game, NULL, 0, NULL);
    const BrainStatus st = ask(b, TASK_SWAP2, 1, t);
    b->job.stones = stones;
    b->job.yixin = true;
    return st;
}

static BrainStatus cmd_yxswap2step1(Brain *b, const char *args, int64_t t) {
    (void)args;
    return yxswap2_step(b, 0, t);
}
static BrainStatus cmd_yxswap2step2(Brain *b, const char *args, int64_t t) {
    (void)args;
    return yxswap2_step(b, 3, t);
}
static BrainStatus cmd_yxswap2step3(Brain *b, const char *args, int64_t t) {
    (void)args;
    return yxswap2_step(b, 5, t);
}

static const struct {
    const char *name;
    Handler run;
} COMMANDS[] = {
    {"START", cmd_start},
    {"RECTSTART", cmd_rectstart},
    {"RESTART", cmd_restart},
    {"BEGIN", cmd_begin},
    {"TURN", cmd_turn},
    {"BOARD", cmd_board},
    {"INFO", cmd_info},
    {"END", cmd_end},
    {"ABOUT", cmd_about},
    {"TAKEBACK", cmd_takeback},
    {"PLAY", cmd_play},
    {"SWAP2BOARD", cmd_swap2board},
    {"YXSHOWINFO", cmd_yxshowinfo},
    {"YXBOARD", cmd_yxboard},
    {"YXSTOP", cmd_stop},
    {"STOP", cmd_stop},
    {"YXSHOWFORBID", cmd_yxshowforbid},
    {"YXNBEST", cmd_yxnbest},
    {"YXSEARCHDEFEND", cmd_yxsearchdefend},
    {"YXHASHCLEAR", cmd_yxhashclear},
    {"YXBLOCK", cmd_yxblock},
    {"YXBLOCKUNDO", cmd_yxblockundo},
    {"YXBLOCKRESET", cmd_yxblockreset},
    {"YXDRAW", cmd_yxdraw},
    {"YXRESIGN", cmd_yxresign},
    {"YXSWAP2STEP1", cmd_yxswap2step1},
    {"YXSWAP2STEP2", cmd_yxswap2step2},
    {"YXSWAP2STEP3", cmd_yxswap2step3},
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static bool is_command(const char *word) {
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(word, COMMANDS[i].name)) return true;
    return false;
}

/// A line inside a body: an item, DONE, or (a word) a command that ends the body unfinished.
static bool body_line(Brain *b, const char *line, const char *word, BrainStatus *st) {
    if (!strcmp(word, "DONE")) {
        *st = body_done(b);
        return true;
    }
    if (is_command(word)) {
        brain_out(b, "ERROR %s: body ended by a command without DONE", BODY_NAMES[b->body]);
        b->body = BODY_NONE;
        return false;
    }
    body_item(b, line);
    *st = BRAIN_IDLE;
    return true;
}

BrainStatus brain_command(Brain *b, const char *line, int64_t received_ms) {
    char word[24];
    if (strlen(line) > BRAIN_MAX_LINE) {
        brain_out(b, "ERROR line too long (more than %d characters)", BRAIN_MAX_LINE);
        if (b->body) body_fail(b, "a line was too long");
        return BRAIN_IDLE;
    }
    brain_keyword(line, word, sizeof word);
    if (!word[0]) return BRAIN_IDLE; /* blank line */
    if (!strcmp(word, "END")) return BRAIN_QUIT;
    const char *args = skip_spaces(line);
    args += strcspn(args, " \t");
    if (b->thinking) { /* only INFO may come in while a search runs */
        if (!strcmp(word, "INFO")) cmd_info(b, args, received_ms);
        return BRAIN_IDLE;
    }
    BrainStatus st;
    if (b->body && body_line(b, line, word, &st)) return st;
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(word, COMMANDS[i].name)) return COMMANDS[i].run(b, args, received_ms);
    char shown[80];
    printable(skip_spaces(line), shown, sizeof shown);
    brain_out(b, "UNKNOWN command '%s'", shown);
    return BRAIN_IDLE;
}

BrainStatus brain_feed(Brain *b, const char *line, const atomic_bool *stop) {
    BrainStatus st = brain_command(b, line, tg_now_ms());
    if (st != BRAIN_THINK) return st;
    brain_think(b, stop);
    brain_settle(b);
    return BRAIN_IDLE;
}

/* ------------------------------------------------------------------------------------------ */
/* Life cycle                                                                                  */
/* ------------------------------------------------------------------------------------------ */

Brain *brain_new(const BrainConfig *config) {
    Brain *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->cfg = *config;
    settings_default(&b->s,
                     config->default_turn_ms > 0 ? config->default_turn_ms : DEFAULT_TURN_MS);
    b->engine = tg_engine_new(1, (size_t)MIN_HASH);
    if (!b->engine) {
        free(b);
        return NULL;
    }
    b->threads_applied = 1;
    b->hash_applied = tg_engine_hash_bytes(b->engine);
    return b;
}

void brain_free(Brain *b) {
    if (!b) return;
    tg_game_free(b->game);
    tg_engine_free(b->engine);
    free(b);
}

void brain_eof(Brain *b) {
    if (!b->body) return;
    brain_out(b, "ERROR %s: the input ended before DONE", BODY_NAMES[b->body]);
    b->body = BODY_NONE;
}
