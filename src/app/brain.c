/*
 * brain.c — the Gomocup brain protocol: piskvork's commands plus the Yixin-Board extensions
 * (shared/reference/protocol.md). One line in, zero or more lines out through the write
 * callback. Searches are prepared by brain_command() and run by brain_think(), so a caller with
 * threads can keep reading input (END, YXSTOP, INFO) while the engine thinks.
 *
 * Coordinates are the protocol's x,y (zero-based, y from the top), the same as TgPoint; they go
 * back out in the order they came in, so Yixin-Board's transposed row,col works unchanged.
 * Time counts from the moment the command line arrived: a search gets what is left of
 * timeout_turn and time_left after the brain's own handling, and the engine's time plan keeps a
 * reserve below both, so no tolerance of the manager is needed.
 */
#include "brain.h"
#include "commands.h"

#include <ctype.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

enum {
    DEFAULT_TURN_MS = 5000,
    UNLIMITED_MS = 2147483647, ///< the protocol's "no limit" for time_left and timeout_turn
    MAX_BODY = 2 * TG_MAX_SIZE * TG_MAX_SIZE + 4, ///< lines of a BOARD body (passes included)
    MAX_BLOCK = TG_MAX_SIZE * TG_MAX_SIZE,
    MAX_THREADS = 64,
    MAX_HASH_EXPONENT = 22,    ///< YXSHOWINFO: hash_size up to 2^22 KiB (4 GiB)
    OUT_SIZE = 8192,           ///< longest output line
    DRAW_ACCEPT = -400,        ///< YXDRAW: accept when the last eval is this bad or worse
    SWAP2_UNLIMITED_MS = 2000, ///< a SWAP2BOARD search's budget when no time limit is set
};

/// Memory (bytes) kept outside the hash: program, pattern tables, the search's scratch tables
/// (the root solver's 8 MiB table), stacks, plus each search thread's state and stack.
enum {
    MEMORY_BASE = 28 << 20,
    MEMORY_PER_THREAD = 3 << 20,
    MIN_HASH = 1 << 20,
    DEFAULT_HASH = 64 << 20,
    MEMORY_MIN = MEMORY_BASE + MEMORY_PER_THREAD + MIN_HASH, ///< the least max_memory honoured
};

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/// Everything INFO can set. A search works from a copy taken when it was asked for.
typedef struct Settings {
    int64_t timeout_turn;  ///< ms; 0: move at once; UNLIMITED_MS: none
    int64_t timeout_match; ///< ms; 0: none
    int64_t time_left;     ///< ms, may be negative; INT64_MAX: none
    int64_t increment;     ///< ms added after each move
    int64_t max_memory;    ///< bytes; 0: none
    int64_t max_node;      ///< <= 0: none
    int max_depth;         ///< <= 0: none
    int game_type;
    int rule_value; ///< as sent
    bool rule_ok;   ///< false: rule_value cannot be played (ERROR on the next command)
    TgRule rule;
    int threads;
    int64_t hash_kb; ///< Yixin's hash_size; 0: sized from max_memory
    int caution_factor, pondering, nbestsym;
    int detail;      ///< bit 0: REALTIME stream, bit 1: a MESSAGE line per depth
    TgLevel level;   ///< INFO level (a tengen key): max unless set
    bool detail_set; ///< show_detail was sent (YXSHOWINFO does not override it)
    char folder[256];
} Settings;

typedef enum Body {
    BODY_NONE,
    BODY_BOARD,
    BODY_YXBOARD,
    BODY_SWAP2,
    BODY_BLOCK,
    BODY_UNBLOCK
} Body;

static const char *const BODY_NAMES[] = {"",           "BOARD",   "YXBOARD",
                                         "SWAP2BOARD", "YXBLOCK", "YXBLOCKUNDO"};

typedef enum Task { TASK_MOVE, TASK_NBEST, TASK_DEFEND, TASK_SWAP2 } Task;

/// A search asked for, with the settings of that moment.
typedef struct Job {
    Task task;
    int64_t received_ms;
    int multipv;
    int stones; ///< SWAP2BOARD: stones in the body (0, 3 or 5)
    bool yixin; ///< swap2 asked by YXSWAP2STEPn: answers are MESSAGE SWAP2 lines
    Settings s;
    int time_serial;  ///< time_left's version when the job began
    int64_t spent_ms; ///< filled by brain_think
    const atomic_bool *stop;
} Job;

struct Brain {
    BrainConfig cfg;
    Settings s;
    int time_serial; ///< bumped whenever time_left is set from outside
    TgGame *game;    ///< NULL before START
    TgEngine *engine;
    size_t hash_applied; ///< the table size last asked for (the engine may hold less)
    int threads_applied;

    Body body;
    int64_t body_ms;
    int body_count;
    char body_error[128];
    TgPoint body_point[MAX_BODY];
    signed char body_field[MAX_BODY];

    TgPoint block[MAX_BLOCK];
    int block_count;

    bool thinking;
    Job job;
    int last_score; ///< the last search's eval for the side that moved
    bool have_score;
};

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

int64_t brain_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static void out(Brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(Brain *b, const char *fmt, ...) {
    char line[OUT_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    b->cfg.write(b->cfg.user, line);
}

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

/// piskvork's rule bitmask (0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro with exactly
/// five) plus Yixin's 2 = renju (and 3, as Yixin-Board may add the exactly-five bit).
static bool rule_decode(int64_t v, TgRule *rule) {
    switch (v) {
    case 0: *rule = TG_FREESTYLE; return true;
    case 1: *rule = TG_STANDARD; return true;
    case 2:
    case 3:
    case 4: *rule = TG_RENJU; return true;
    case 8: *rule = TG_CARO8; return true;
    case 9: *rule = TG_CARO9; return true;
    default: return false;
    }
}

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
    int t = b->s.threads < 1 ? 1 : b->s.threads > MAX_THREADS ? MAX_THREADS : b->s.threads;
    if (b->cfg.thread_cap > 0 && t > b->cfg.thread_cap) t = b->cfg.thread_cap;
    return t;
}

static int64_t floor_pow2(int64_t v) {
    int64_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

/// The table size the settings ask for: hash_size if given, else what max_memory leaves after
/// the rest of the process, else DEFAULT_HASH; never more than max_memory leaves.
static size_t wanted_hash(const Brain *b, int threads) {
    int64_t bytes = b->s.hash_kb > 0 ? b->s.hash_kb * 1024 : DEFAULT_HASH;
    if (b->s.max_memory > 0) {
        const int64_t room = b->s.max_memory - MEMORY_BASE - MEMORY_PER_THREAD * threads;
        bytes = b->s.hash_kb > 0 ? min64(bytes, room) : room;
    }
    if (b->cfg.hash_cap > 0) bytes = min64(bytes, (int64_t)b->cfg.hash_cap);
    if (bytes > ((int64_t)1 << 42)) bytes = (int64_t)1 << 42;
    return (size_t)floor_pow2(bytes < MIN_HASH ? MIN_HASH : bytes);
}

/// Brings the engine to the settings (threads, then table). Never while a search runs.
static void apply_engine(Brain *b) {
    const int threads = wanted_threads(b);
    if (threads != b->threads_applied && tg_engine_set_threads(b->engine, threads) == TG_OK)
        b->threads_applied = threads;
    size_t bytes = wanted_hash(b, b->threads_applied);
    if (bytes == b->hash_applied) return;
    b->hash_applied = bytes;
    /* Down to the smallest table first, so the old and new tables never coexist. */
    tg_engine_set_hash(b->engine, 0);
    while (bytes > (size_t)MIN_HASH && tg_engine_set_hash(b->engine, bytes) != TG_OK) bytes /= 2;
    if (bytes <= (size_t)MIN_HASH) tg_engine_set_hash(b->engine, (size_t)MIN_HASH);
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
        out(b, "ERROR %s", why);
        return true;
    }
    if (!b->game) {
        out(b, "ERROR no board yet: send START first");
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Searching                                                                                   */
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

/// Limits for one search: what is left of the turn and game time since the command arrived
/// (counted up to the next millisecond), shared out when the command still needs
/// `searches_left` searches (SWAP2BOARD).
static void limits_for(const Brain *b, TgSearchLimits *l, int searches_left) {
    const Settings *s = &b->job.s;
    const int64_t elapsed = brain_now_ms() - b->job.received_ms + 1;
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
        if (l->game_left_ms) budget = min64(budget, l->game_left_ms / 8);
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
    out(b,
        "MESSAGE %sdepth %d-%d | eval %s | speed %" PRIu64 " kN/s | nodes %" PRIu64
        " | time %" PRId64 " ms | best %s",
        tag, l->depth, info->seldepth, score, info->nps / 1000, info->nodes, info->time_ms, pv);
}

static void report_realtime(Brain *b, const TgSearchInfo *info) {
    char pt[32];
    for (int i = 1; i < info->line_count; i++) {
        point_text(info->lines[i].moves[0], pt, sizeof pt);
        if (info->lines[i].score <= -TG_SCORE_WIN_MIN)
            out(b, "MESSAGE REALTIME LOST %s", pt);
        else
            out(b, "MESSAGE REALTIME DONE %s", pt);
    }
    point_text(info->lines[0].moves[0], pt, sizeof pt);
    out(b, "MESSAGE REALTIME BEST %s", pt);
    out(b, "MESSAGE REALTIME VAL %d", info->lines[0].score);
    char pv[TG_MAX_PV * 12];
    line_text(&info->lines[0], pv, sizeof pv);
    out(b, "MESSAGE REALTIME PV %s", pv);
}

/// The engine's progress callback (search thread): the Yixin stream and per-depth lines.
static void on_search_info(const TgSearchInfo *info, void *user) {
    Brain *b = user;
    if (info->final || info->line_count < 1) return; /* the answer's summary comes after */
    if (b->job.s.detail & 1) report_realtime(b, info);
    if (b->job.s.detail & 2)
        for (int i = 0; i < info->line_count; i++) report_line(b, info, i);
}

/// Runs one search of the game's position; false (with ERROR written) when it cannot.
static bool search(Brain *b, int searches_left, bool use_blocks, TgSearchResult *r) {
    TgSearchLimits l;
    limits_for(b, &l, searches_left);
    if (use_blocks) {
        l.exclude = b->block;
        l.exclude_count = b->block_count;
    }
    if (b->job.s.detail & 1) out(b, "MESSAGE REALTIME REFRESH");
    const TgError e = tg_engine_search(b->engine, b->game, &l, on_search_info, b, r);
    if (e == TG_OK) return true;
    out(b, "ERROR %s", e == TG_ERR_GAME_OVER ? "the game is over" : tg_error_text(e));
    return false;
}

/// The summary line(s) of a finished search.
static void summary(Brain *b, const TgSearchResult *r) {
    const uint64_t nps = r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : 0;
    const TgSearchInfo info = {r->depth, r->seldepth,   r->nodes, r->time_ms,
                               nps,      r->line_count, r->lines, true};
    for (int i = 0; i < r->line_count; i++) report_line(b, &info, i);
}

/// Plays the engine's move on our game and writes it.
static void answer_move(Brain *b, const TgSearchResult *r) {
    summary(b, r);
    if (r->line_count > 0) {
        b->last_score = r->score;
        b->have_score = true;
    }
    if (b->job.s.detail & 1) {
        char pt[32];
        point_text(r->best, pt, sizeof pt);
        out(b, "MESSAGE REALTIME BEST %s", pt);
    }
    tg_game_play(b->game, r->best, 0);
    out(b, "%d,%d", r->best.x, r->best.y);
}

/// YXSEARCHDEFEND: the root moves that do not lose by force, as far as the search saw.
static void answer_defend(Brain *b, const TgSearchResult *r) {
    char list[TG_MAX_MULTIPV * 12];
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; i < r->line_count; i++)
        if (r->lines[i].score > -TG_SCORE_WIN_MIN)
            n += (size_t)snprintf(list + n, sizeof list - n, " %d,%d", r->lines[i].moves[0].x,
                                  r->lines[i].moves[0].y);
    out(b, "MESSAGE DEFEND%s", n ? list : " none");
}

/* ---- SWAP2BOARD and Yixin-Board's YXSWAP2STEP1..3 (opening rule swap2; protocol.md §3, §8)
 * The decisions come from the core's opening engine (tg_opening_decide), which searches and
 * picks among near-equal choices with a fixed seed:
 *   0 stones: three stones whose score is nearest even;
 *   3 stones: take Black (SWAP), take White and play move 4, or place moves 4 and 5 near even;
 *   5 stones: take Black (SWAP), or take White and play move 6.
 * Yixin-Board asks the same three questions after YXBOARD and wants MESSAGE lines: SWAP2
 * MOVEn with the point as "a b" in the order its boards use, SWAP2 SWAP1 YES/NO (take Black
 * after three stones), SWAP2 SWAP2 YES/NO (take Black after five); it then asks for a move.
 */

enum {
    SWAP2_SEED = 0x5eed,
    SWAP2_INSTANT_NODES = 3000, ///< per search when there is no time at all
    SWAP2_OPEN_SEARCHES = 9,    ///< the 8 candidate openings and a reserve
    SWAP2_CHOOSE_SEARCHES = 3,  ///< the choice takes a third of the turn
    SWAP2_TWO_SEARCHES = 5,     ///< then the 4 searches for two stones share the rest
};

/// Per-search limits of an opening decision that shares out the turn over `searches`.
static TgOpeningLimits opening_limits(const Brain *b, int searches) {
    TgSearchLimits l;
    limits_for(b, &l, searches);
    TgOpeningLimits o = {
        .nodes = l.nodes, .time_ms = l.turn_ms, .depth = l.depth, .seed = SWAP2_SEED};
    o.stop = b->job.stop;
    if (l.instant) {
        o.time_ms = 0;
        if (!o.nodes || o.nodes > SWAP2_INSTANT_NODES) o.nodes = SWAP2_INSTANT_NODES;
    }
    return o;
}

/// The swap2 phase up to the stones on the board (black, white, black, ...): 3 stones wait
/// for player 2's choice, 5 (after "place two") for player 1's. NULL (ERROR written) if the
/// board cannot be such a phase.
static TgOpening *swap2_phase(Brain *b, int stones) {
    const int size = tg_game_width(b->game);
    TgOpening *op = size == tg_game_height(b->game)
                        ? tg_opening_new(TG_OPENING_SWAP2, tg_game_rule(b->game), size)
                        : NULL;
    if (!op) {
        out(b, "ERROR swap2 needs a square board");
        return NULL;
    }
    TgError e = TG_OK;
    for (int i = 0; i < stones && e == TG_OK; i++) {
        if (i == 3) e = tg_opening_choose(op, TG_CHOICE_PLACE_TWO);
        if (e == TG_OK) e = tg_opening_place(op, tg_game_move(b->game, i));
    }
    if (e != TG_OK || tg_game_ply(b->game) != stones) {
        out(b, "ERROR swap2: %s", e != TG_OK ? tg_opening_why(op) : "wrong number of stones");
        tg_opening_free(op);
        return NULL;
    }
    return op;
}

/// The engine's decision on the phase; false (ERROR written) when it failed.
static bool swap2_decide(Brain *b, const TgOpening *op, int searches, TgOpeningDecision *d) {
    const TgOpeningLimits lim = opening_limits(b, searches);
    const TgError e = tg_opening_decide(b->engine, op, &lim, d);
    if (e != TG_OK) {
        out(b, "ERROR swap2: %s", tg_error_text(e));
        return false;
    }
    out(b, "MESSAGE swap2: %s, %" PRIu64 " nodes", d->why, d->nodes);
    return true;
}

/// Writes points: "x1,y1 x2,y2" for SWAP2BOARD, or MESSAGE SWAP2 MOVEn lines for Yixin.
static void swap2_points(Brain *b, const TgPoint *p, int n, int first_index) {
    char line[64] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (b->job.yixin)
            out(b, "MESSAGE SWAP2 MOVE%d %d %d", first_index + i, p[i].x, p[i].y);
        else
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%d,%d", i ? " " : "", p[i].x,
                                    p[i].y);
    }
    if (!b->job.yixin) out(b, "%s", line);
}

static void swap2_open(Brain *b) {
    TgOpening *op = swap2_phase(b, 0);
    TgOpeningDecision d;
    if (op && swap2_decide(b, op, SWAP2_OPEN_SEARCHES, &d)) {
        tg_game_setup(b->game, d.points, d.count, NULL);
        swap2_points(b, d.points, d.count, 1);
    }
    tg_opening_free(op);
}

/// Player 2 after three stones.
static void swap2_three(Brain *b) {
    TgOpening *op = swap2_phase(b, 3);
    TgOpeningDecision d;
    if (!op || !swap2_decide(b, op, SWAP2_CHOOSE_SEARCHES, &d)) {
        tg_opening_free(op);
        return;
    }
    if (d.choice == TG_CHOICE_PLACE_TWO) {
        tg_opening_apply(op, &d);
        if (swap2_decide(b, op, SWAP2_TWO_SEARCHES, &d)) {
            for (int i = 0; i < d.count; i++) tg_game_play(b->game, d.points[i], 0);
            swap2_points(b, d.points, d.count, 4);
        }
    } else if (b->job.yixin) {
        out(b, "MESSAGE SWAP2 SWAP1 %s", d.choice == TG_CHOICE_SWAP ? "YES" : "NO");
    } else if (d.choice == TG_CHOICE_SWAP) {
        out(b, "SWAP");
    } else {
        TgSearchResult r;
        if (search(b, 1, false, &r)) answer_move(b, &r); /* move 4 as White */
    }
    tg_opening_free(op);
}

/// Player 1 after five stones: STAY keeps Black (the protocol's SWAP), SWAP takes White.
static void swap2_five(Brain *b) {
    TgOpening *op = swap2_phase(b, 5);
    TgOpeningDecision d;
    if (op && swap2_decide(b, op, 2, &d)) {
        const bool black = d.choice == TG_CHOICE_STAY;
        if (b->job.yixin) {
            out(b, "MESSAGE SWAP2 SWAP2 %s", black ? "YES" : "NO");
        } else if (black) {
            out(b, "SWAP");
        } else {
            TgSearchResult r;
            if (search(b, 1, false, &r)) answer_move(b, &r); /* move 6 as White */
        }
    }
    tg_opening_free(op);
}

void brain_think(Brain *b, const atomic_bool *stop) {
    static const atomic_bool never = false;
    b->job.stop = stop ? stop : &never;
    TgSearchResult *r = malloc(sizeof *r);
    if (!r) {
        out(b, "ERROR out of memory");
    } else if (b->job.task == TASK_SWAP2) {
        if (b->job.stones == 0)
            swap2_open(b);
        else if (b->job.stones == 3)
            swap2_three(b);
        else
            swap2_five(b);
    } else if (search(b, 1, true, r)) {
        if (b->job.task == TASK_DEFEND) answer_defend(b, r);
        answer_move(b, r);
    }
    free(r);
    b->job.spent_ms = brain_now_ms() - b->job.received_ms;
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
        out(b, "ERROR %s", why);
    else if (w < TG_MIN_SIZE || h < TG_MIN_SIZE || w > TG_MAX_SIZE || h > TG_MAX_SIZE)
        out(b, "ERROR unsupported size %" PRId64 "x%" PRId64 " (tengen plays %d to %d)", w, h,
            TG_MIN_SIZE, TG_MAX_SIZE);
    else if (!new_game(b, (int)w, (int)h))
        out(b, "ERROR cannot start a %" PRId64 " board", w);
    else
        out(b, "OK");
    return BRAIN_IDLE;
}

/// START N, or START W H (Yixin-Board), or START W,H.
static BrainStatus cmd_start(Brain *b, const char *args, int64_t t) {
    (void)t;
    const char *p = args;
    int64_t w, h;
    if (!read_int(&p, -999999, 999999, &w)) {
        out(b, "ERROR START needs a board size");
        return BRAIN_IDLE;
    }
    p = skip_spaces(p);
    if (*p == ',') p++;
    if (!read_int(&p, -999999, 999999, &h)) h = w;
    if (*skip_spaces(p)) {
        out(b, "ERROR START: unexpected text after the size");
        return BRAIN_IDLE;
    }
    return start_board(b, w, h);
}

static BrainStatus cmd_rectstart(Brain *b, const char *args, int64_t t) {
    (void)t;
    TgPoint size;
    if (!parse_point(args, &size, NULL)) {
        out(b, "ERROR RECTSTART needs width,height");
        return BRAIN_IDLE;
    }
    return start_board(b, size.x, size.y);
}

static BrainStatus cmd_restart(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    if (!b->game) {
        out(b, "ERROR no board yet: send START first");
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
        out(b, "ERROR %s: malformed coordinates '%s' (expected X,Y)", cmd, shown);
        return false;
    }
    const char *why = point_problem(b, p);
    if (why) {
        out(b, "ERROR %s: %d,%d %s", cmd, p.x, p.y, why);
        return false;
    }
    if (tg_game_over(b->game)) {
        out(b, "ERROR %s: the game is over", cmd);
        return false;
    }
    const TgError e = tg_game_play(b->game, p, 0);
    if (e == TG_ERR_FORBIDDEN)
        out(b, "ERROR %s: %d,%d is forbidden for Black", cmd, p.x, p.y);
    else if (e != TG_OK)
        out(b, "ERROR %s: %d,%d: %s", cmd, p.x, p.y, tg_error_text(e));
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
    if (play_text(b, "PLAY", args) && parse_point(args, &p, NULL)) out(b, "%d,%d", p.x, p.y);
    return BRAIN_IDLE;
}

static BrainStatus cmd_takeback(Brain *b, const char *args, int64_t t) {
    (void)t;
    TgPoint p;
    if (!b->game) {
        out(b, "ERROR no board yet: send START first");
    } else if (!parse_point(args, &p, NULL)) {
        out(b, "ERROR TAKEBACK needs X,Y");
    } else if (tg_game_ply(b->game) == 0) {
        out(b, "ERROR TAKEBACK: no move to take back");
    } else {
        const TgPoint last = tg_game_move(b->game, tg_game_ply(b->game) - 1);
        if (last.x != p.x || last.y != p.y) {
            out(b, "ERROR TAKEBACK: the last move is %d,%d, not %d,%d", last.x, last.y, p.x, p.y);
        } else {
            tg_game_undo(b->game);
            out(b, "OK");
        }
    }
    return BRAIN_IDLE;
}

static BrainStatus cmd_about(Brain *b, const char *args, int64_t t) {
    (void)args, (void)t;
    out(b,
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
        s->rule_ok = rule_decode(v, &s->rule);
    } else if (!strcmp(key, "thread_num")) {
        s->threads = v < 1 ? 1 : v > MAX_THREADS ? MAX_THREADS : (int)v;
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
    if (!strcmp(key, "level")) { /* tengen's own key: max, hard, medium, easy, mcts, zero */
        char name[16];
        size_t k = 0;
        while (p[k] && !isspace((unsigned char)p[k]) && k + 1 < sizeof name) name[k] = p[k], k++;
        name[k] = '\0';
        tg_level_from_name(name, &b->s.level);
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
        out(b, "ERROR %s: two stones at %d,%d", name, moves[bad].x, moves[bad].y);
    else
        out(b, "ERROR %s: %s", name, tg_error_text(e));
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
        out(b, "ERROR %s: %s", name, b->body_error);
        return BRAIN_IDLE;
    }
    if (body == BODY_BLOCK || body == BODY_UNBLOCK) {
        block_edit(b, body == BODY_BLOCK);
        return BRAIN_IDLE;
    }
    if (body != BODY_YXBOARD && cannot_play(b)) return BRAIN_IDLE;
    if (body == BODY_SWAP2 && b->body_count != 0 && b->body_count != 3 && b->body_count != 5) {
        out(b, "ERROR SWAP2BOARD: %d stones (0, 3 or 5 expected)", b->body_count);
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
    out(b, "MESSAGE INFO MAX_THREAD_NUM %d",
        b->cfg.thread_cap > 0 ? b->cfg.thread_cap : MAX_THREADS);
    out(b, "MESSAGE INFO MAX_HASH_SIZE %d", MAX_HASH_EXPONENT);
    out(b, "MESSAGE tengen %s: Gomoku/Renju engine", TG_VERSION);
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
        out(b, "ERROR no board yet: send START first");
        return BRAIN_IDLE;
    }
    TgForbidden *list = malloc(sizeof(TgForbidden) * TG_MAX_SIZE * TG_MAX_SIZE);
    if (!list) {
        out(b, "ERROR out of memory");
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
    out(b, "%s", line);
    return BRAIN_IDLE;
}

static BrainStatus cmd_yxnbest(Brain *b, const char *args, int64_t t) {
    const char *p = args;
    int64_t n;
    if (!read_int(&p, 1, 1000000, &n) || *skip_spaces(p)) {
        out(b, "ERROR YXNBEST needs a number of moves");
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
    out(b, "MESSAGE DRAW %s", accept ? "ACCEPT" : "REJECT");
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
        out(b, "ERROR %s: body ended by a command without DONE", BODY_NAMES[b->body]);
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
        out(b, "ERROR line too long (more than %d characters)", BRAIN_MAX_LINE);
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
    out(b, "UNKNOWN command '%s'", shown);
    return BRAIN_IDLE;
}

BrainStatus brain_feed(Brain *b, const char *line, const atomic_bool *stop) {
    BrainStatus st = brain_command(b, line, brain_now_ms());
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
    out(b, "ERROR %s: the input ended before DONE", BODY_NAMES[b->body]);
    b->body = BODY_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* The process: a reader thread and a search thread                                            */
/* ------------------------------------------------------------------------------------------ */
/*
 * The calling thread reads stdin. END, STOP and YXSTOP stop a search at once (the stop flag); END
 * while thinking quits at once, otherwise after the lines before it are answered; INFO during
 * a search is applied at once when nothing is queued ahead of it; every other line is queued for
 * the search thread, which runs brain_command() and, for a move, brain_think() with the lock
 * released. A STOP that arrives after a move command but before its search starts still stops
 * that search: each line has a sequence number, and a search whose command came before the last
 * STOP starts stopped. End of input: the queued commands are finished, then the process ends.
 */

enum { QUEUE_MAX = 1 << 16, SEARCH_STACK = 64 << 20 };

typedef struct Queued {
    char *text;
    int64_t ms;
    uint64_t seq;
} Queued;

typedef struct Loop {
    pthread_mutex_t lock; ///< the brain, the queue and the flags below
    pthread_cond_t wake;
    pthread_mutex_t out_lock;
    FILE *out;
    Brain *brain;
    Queued *queue;
    int head, count;
    bool eof;
    bool thinking;
    uint64_t stop_seq; ///< the last STOP's line number
    bool ending;       ///< END was read: read no more
    atomic_bool stop, quit;
} Loop;

static void loop_write(void *user, const char *line) {
    Loop *l = user;
    pthread_mutex_lock(&l->out_lock);
    if (!atomic_load(&l->quit)) { /* after END nothing more is printed */
        fputs(line, l->out);
        fputc('\n', l->out);
        fflush(l->out);
    }
    pthread_mutex_unlock(&l->out_lock);
}

/// Reads one line ending in LF, CR or CR LF; keeps at most size - 1 characters (the rest is
/// dropped, so an overlong line arrives cut to BRAIN_MAX_LINE + 1 characters). False at EOF.
static bool read_line(FILE *in, char *buf, size_t size) {
    size_t n = 0;
    int c;
    bool any = false;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n' || c == '\r') break;
        if (n + 1 < size) buf[n++] = c ? (char)c : '?';
    }
    buf[n] = '\0';
    return c != EOF || any;
}

static bool push(Loop *l, const char *text, int64_t ms, uint64_t seq) {
    if (l->count >= QUEUE_MAX) return false;
    char *copy = malloc(strlen(text) + 1);
    if (!copy) return false;
    strcpy(copy, text);
    l->queue[(l->head + l->count++) % QUEUE_MAX] = (Queued){copy, ms, seq};
    pthread_cond_signal(&l->wake);
    return true;
}

static void *search_main(void *arg) {
    Loop *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (l->count == 0 && !l->eof && !atomic_load(&l->quit))
            pthread_cond_wait(&l->wake, &l->lock);
        if (atomic_load(&l->quit)) break;
        if (l->count == 0) { /* end of input and nothing left to do */
            brain_eof(l->brain);
            break;
        }
        Queued q = l->queue[l->head];
        l->head = (l->head + 1) % QUEUE_MAX;
        l->count--;
        const BrainStatus st = brain_command(l->brain, q.text, q.ms);
        free(q.text);
        if (st == BRAIN_QUIT) {
            atomic_store(&l->quit, true);
            break;
        }
        if (st != BRAIN_THINK) continue;
        l->thinking = true;
        atomic_store(&l->stop, l->stop_seq > q.seq);
        pthread_mutex_unlock(&l->lock);
        brain_think(l->brain, &l->stop);
        pthread_mutex_lock(&l->lock);
        l->thinking = false;
        brain_settle(l->brain);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/// Hands one input line to the search thread, or acts on it at once.
static void reader_line(Loop *l, const char *line, uint64_t seq) {
    const int64_t ms = brain_now_ms();
    char word[16];
    brain_keyword(line, word, sizeof word);
    if (!word[0]) return;
    pthread_mutex_lock(&l->lock);
    if (!strcmp(word, "END")) {
        /* While thinking: stop and quit at once. Otherwise answer what came before END
         * first (scripts pipe whole sessions in), then quit. */
        l->ending = true;
        if (l->thinking || !push(l, line, ms, seq)) { /* mid-game: quit now, silently */
            atomic_store(&l->stop, true);
            atomic_store(&l->quit, true);
            pthread_cond_signal(&l->wake);
        }
    } else if (!strcmp(word, "STOP") || !strcmp(word, "YXSTOP")) {
        l->stop_seq = seq;
        if (l->thinking) atomic_store(&l->stop, true);
    } else if (l->thinking && l->count == 0 && !strcmp(word, "INFO")) {
        brain_command(l->brain, line, ms);
    } else if (!push(l, line, ms, seq)) {
        pthread_mutex_unlock(&l->lock);
        loop_write(l, "ERROR too many commands waiting; line dropped");
        return;
    }
    pthread_mutex_unlock(&l->lock);
}

int brain_run(FILE *in, FILE *out) {
    Loop *l = calloc(1, sizeof *l);
    char *line = malloc(BRAIN_MAX_LINE + 2);
    if (l) l->queue = malloc(sizeof(Queued) * QUEUE_MAX);
    if (!l || !line || !l->queue) {
        fputs("ERROR out of memory\n", out);
        return 1;
    }
#ifdef _WIN32
    /* Text mode would hold a lone CR back until the next character comes: read raw bytes. */
    _setmode(_fileno(in), _O_BINARY);
#endif
    pthread_mutex_init(&l->lock, NULL);
    pthread_mutex_init(&l->out_lock, NULL);
    pthread_cond_init(&l->wake, NULL);
    l->out = out;
    const BrainConfig config = {.write = loop_write, .user = l};
    l->brain = brain_new(&config);
    pthread_t searcher;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SEARCH_STACK);
    if (!l->brain || pthread_create(&searcher, &attr, search_main, l) != 0) {
        fputs("ERROR cannot start the brain\n", out);
        return 1;
    }
    pthread_attr_destroy(&attr);
    uint64_t seq = 0;
    while (!l->ending && !atomic_load(&l->quit) && read_line(in, line, BRAIN_MAX_LINE + 2))
        reader_line(l, line, ++seq);
    pthread_mutex_lock(&l->lock);
    l->eof = true;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    pthread_join(searcher, NULL);
    while (l->count > 0) {
        free(l->queue[l->head].text);
        l->head = (l->head + 1) % QUEUE_MAX;
        l->count--;
    }
    brain_free(l->brain);
    pthread_mutex_destroy(&l->lock);
    pthread_mutex_destroy(&l->out_lock);
    pthread_cond_destroy(&l->wake);
    free(l->queue);
    free(l);
    free(line);
    return 0;
}

/* ---- tengen brain ---- */

const char USAGE_BRAIN[] =
    "usage: tengen brain\n"
    "\n"
    "Runs the Gomocup brain on stdin/stdout, the same as build/pbrain-tengen: the piskvork\n"
    "protocol (START, TURN, BEGIN, BOARD, INFO, END, ABOUT, RESTART, RECTSTART, TAKEBACK, PLAY,\n"
    "SWAP2BOARD) and the Yixin-Board extensions (YXBOARD, YXNBEST, YXSHOWFORBID, YXBLOCK, ...).\n"
    "Coordinates are x,y from 0, y counted from the top. See shared/reference/protocol.md.\n"
    "`INFO level NAME` (max, hard, medium, easy, mcts, zero) picks a level; max by default.\n";

int cmd_brain(int argc, char **argv) {
    (void)argc, (void)argv;
    return brain_run(stdin, stdout);
}
