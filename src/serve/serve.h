/*
 * serve.h — `tengen serve`, the web game's back end: live games (a registry loaded from the
 * SQLite archive on demand), their event feeds, the engine worker pool, the archive and the
 * JSON API of docs/api.md. Only http.c knows about HTTP (libmicrohttpd); everything
 * declared here works without it, so the API can be unit-tested and fuzzed.
 *
 * Locks are always taken in this order: registry, then a game, then the archive, a feed or
 * the worker queue. No lock is held while a search runs.
 */
#ifndef TG_SERVE_H
#define TG_SERVE_H

#include <pthread.h>
#include <stdatomic.h>

#include <jansson.h>

#include "../cli/cli.h"

enum {
    SERVE_BODY_MAX = 64 << 10,   ///< request bodies past this are refused (413)
    SERVE_HEADER_MAX = 16 << 10, ///< and so are headers past this
    SERVE_ID_LEN = 10,           ///< characters of a game id
    SERVE_TOKEN_LEN = 32,        ///< hex characters of a seat token
    SERVE_SOLVES_MAX = 2,        ///< solver runs at once: each holds an HTTP thread and a table
    SERVE_HUMAN = -1,            ///< a player that is not one of the TgLevel values
    SERVE_PLAYER_LEN = 32,       ///< "max@1000000000" and the like, with room
};

typedef struct ServeConfig {
    const char *host;
    int port;
    const char *db_path;
    int workers;
    int rate;             ///< requests a second per client address; 0: no limit
    const TgModel *model; ///< the zero level's network (--model; borrowed); NULL: built-in
} ServeConfig;

int64_t serve_wall_ms(void); ///< Unix time in milliseconds, for created/updated
/// Fills buf with `n` random bytes from the system; false if none could be had.
bool serve_random(void *buf, size_t n);

/* ---- Event feeds (feed.c) ------------------------------------------------------------ */

enum { FEED_SIZE = 64 };

/// One game's recent server-sent events, numbered; readers wait on `cond` for new ones.
typedef struct Feed {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint64_t next_seq;     ///< the number the next event gets
    char *text[FEED_SIZE]; ///< event `seq` lives at [seq % FEED_SIZE]: "event: x\ndata: ...\n\n"
    size_t len[FEED_SIZE];
} Feed;

void feed_init(Feed *f);
void feed_free(Feed *f);
/// Adds `event: name` with `data` (one line of JSON).
void feed_push(Feed *f, const char *name, const char *data);
uint64_t feed_cursor(Feed *f);
/// Waits up to wait_ms for an event numbered *cursor or later; copies it (malloc'd) and moves
/// the cursor past it. A reader that fell behind skips to the oldest event kept. False on
/// timeout (or when out of memory).
bool feed_next(Feed *f, uint64_t *cursor, int wait_ms, char **text, size_t *len);

/* ---- The archive (store.c) ----------------------------------------------------------- */

typedef struct Store Store;

/// The largest node budget a move a player may be given ("max@N").
#define SERVE_MAX_NODES 1000000000ull

/// A game as the archive keeps it: plain values, no live state.
typedef struct SavedGame {
    char id[SERVE_ID_LEN + 1];
    char rule[16];
    int size;
    char player[2][SERVE_PLAYER_LEN]; ///< "human", a level name or "max@250000", by colour now
    bool online;
    char token[2][SERVE_TOKEN_LEN + 1]; ///< by colour now; "" while the seat is open
    char *moves;                        ///< the whole record, the redo branch included, "h8 i9 ..."
    int ply;                            ///< moves played up to the current point
    char reason[16];                    ///< tg_reason_name, "" while the game goes on
    char winner[8];                     ///< "black", "white" or ""
    bool paused;
    char draw_offer[8], undo_offer[8]; ///< a colour or ""
    TgClock clock;
    int64_t left_ms[2]; ///< each side's game time left
    int64_t computer_ms;
    char *evals; ///< JSON array text
    int64_t created_ms, updated_ms;
    char opening[512]; ///< the opening line (tg_opening_text), "" without an opening rule
    bool balancing;    ///< the balanced start position is still to be computed
} SavedGame;

/// Opens (and creates or migrates) the archive; NULL with a message in err.
Store *store_open(const char *path, char *err, size_t size);
void store_close(Store *st);
bool store_put(Store *st, const SavedGame *g);
/// 1 found (moves and evals malloc'd: saved_free), 0 not found, -1 on an error.
int store_get(Store *st, const char *id, SavedGame *g);
/// What the archive list shows; "" lets every game through.
typedef struct StoreFilter {
    const char *rule;   ///< a rule name
    const char *result; ///< "black", "white" (the winner), "draw" or "none" (no result yet)
    const char *player; ///< "human" or a level, on either side
} StoreFilter;

/// {"games": [summary, ...], "total": N} (N: the games the filter lets through), newest
/// first; NULL on an error.
json_t *store_list(Store *st, int limit, int offset, const StoreFilter *filter);
/// Removes the game's row; false (logged) on an error.
bool store_delete(Store *st, const char *id);
void saved_free(SavedGame *g);
/// "2026-11-21T18:02:11Z" from Unix milliseconds.
json_t *serve_json_time(int64_t ms);

/* ---- Live games (game.c) -------------------------------------------------------------- */

typedef struct Job Job;
typedef struct Server Server;

/// What one search said about a ply, from Black's point of view.
typedef struct Eval {
    bool valid;
    int score, depth;
} Eval;

/// A game being played. Everything below `lock` is guarded by it; the registry owns the
/// struct, and `refs` counts the holders: the registry itself while the game is in it, and the
/// requests, jobs and streams that keep it from eviction.
/// Players and seats are kept by player number (0: player 1, who starts as Black), because
/// the swaps of an opening rule trade colours; without an opening rule player 1 is Black.
typedef struct LiveGame {
    char id[SERVE_ID_LEN + 1];
    atomic_int refs;
    struct LiveGame *next; ///< the registry's bucket chain (registry lock)
    int64_t touched_ms;    ///< last use (registry lock), for eviction
    Feed feed;
    pthread_mutex_t lock;
    TgGame *game;
    unsigned version;  ///< bumped by every change; a search applies only to its own version
    int player[2];     ///< SERVE_HUMAN or a TgLevel, by player number
    uint64_t nodes[2]; ///< a node budget a move by player number (0: the level's own)
    bool online;
    char token[2][SERVE_TOKEN_LEN + 1]; ///< by player number
    TgOpening *opening; ///< the opening phase (kept when over); NULL without an opening rule
    bool balancing;     ///< waiting for the worker's balanced start position
    TgColor draw_offer, undo_offer;
    /// Online, by player number: agrees to hints and analysis, which need both (not kept in
    /// the archive: after a restart both agree again)
    bool aids[2];
    bool paused;            ///< the computer waits for go or move-now
    char search_error[128]; ///< why the computer's last move search failed; "" when it did not
    int64_t computer_ms;
    int64_t created_ms, updated_ms;
    Eval *evals; ///< by ply, eval_cap entries
    int eval_cap;
    Job *job; ///< the search of this game, if any (at most one)
    /// Deleted: out of the registry and the archive, never saved again; freed by the last
    /// registry_release.
    atomic_bool deleted;
} LiveGame;

enum { REGISTRY_BUCKETS = 1024, REGISTRY_MAX = 1024 };

typedef struct Registry {
    pthread_mutex_t lock;
    LiveGame *bucket[REGISTRY_BUCKETS];
    int count;
} Registry;

/// An error answer of the API: status, code and message (docs/api.md).
typedef struct ApiError {
    int status;
    const char *code;
    char message[240];
    TgFoul foul; ///< for an illegal renju move
} ApiError;

bool api_fail(ApiError *e, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void registry_init(Registry *r);
void registry_free(Registry *r);
/// The game with this id, from memory or the archive, with a reference held (release it);
/// NULL when there is none. *loaded: it came from the archive just now.
LiveGame *registry_get(Server *s, const char *id, bool *loaded);
/// Adds a new game (id chosen here) with one reference held.
bool registry_add(Server *s, LiveGame *g);
void registry_release(LiveGame *g);
/// Deletes a game (not an online one) from the archive and from memory: its search stops, and
/// whoever still holds it (an event stream) holds a game no longer saved. False with the error.
bool registry_delete(Server *s, const char *id, ApiError *e);
/// Every live game, each with a reference held; free the array, release each.
LiveGame **registry_snapshot(Server *s, int *count);

LiveGame *game_new_live(TgGame *game, const int player[2]);
/// Forgets the game's search, whatever it is (game lock held): the worker drops its result.
void game_cancel_search(LiveGame *g);
void game_free_live(LiveGame *g);
/// The player number (0 or 1) who holds colour c now.
int game_seat(const LiveGame *g, TgColor c);
/// player_label() of the player in `seat` (a player number).
void game_player_label(const LiveGame *g, int seat, char *buf, size_t size);
/// The colour player number `seat` holds now.
TgColor game_seat_color(const LiveGame *g, int seat);
/// The opening phase is still running (its actions, not moves, are asked for).
bool game_in_opening(const LiveGame *g);
/// Against the computer: the human's player number; -1 when both or neither are human.
int game_human_seat(const LiveGame *g);
/// The computer acts next: a move, or a step of the opening phase.
bool game_is_computer(const LiveGame *g, TgColor c);
bool game_computer_to_move(const LiveGame *g);
bool game_thinking(const LiveGame *g);
/// Against the computer: the human's colour; TG_NOBODY when both or neither are human.
TgColor game_human_color(const LiveGame *g);
const char *player_name(int player);
/// A player as the API writes it: "human", a level name, or "max@250000" with a node budget.
void player_label(int player, uint64_t nodes, char *buf, size_t size);
/// "black" or "white" as a colour; TG_NOBODY for anything else.
TgColor color_from_name(const char *name);
/// Reads "human", a level name or "level@nodes" (nodes may be NULL: no budget allowed).
bool player_from_name(const char *name, int *player, uint64_t *nodes);
/// Records what a search of `ply` said (score from the side to move's view).
void game_set_eval(LiveGame *g, int ply, TgColor mover, int score, int depth);
/// Forgets the evaluations of plies after `ply` (a new move cut the branch they were of).
void game_cut_evals(LiveGame *g, int ply);
/// Runs the clocks when they should (not over, the computer not paused, both online seats
/// taken), stops them otherwise.
void game_sync_clock(LiveGame *g);
/// Writes the game's row (game lock held); logs a failure.
bool game_save(Server *s, const LiveGame *g);

double serve_winrate(int score); ///< the chance of winning of the side whose score it is
json_t *json_point(const TgGame *g, TgPoint p);
json_t *json_color(TgColor c); ///< "black", "white" or null

/* ---- The game object (view.c) ------------------------------------------------------- */

/// The game object of docs/api.md at this moment (game lock held).
json_t *game_json(const LiveGame *g);

/* ---- Searches (work.c) ------------------------------------------------------------- */

/// A move, an analysis, a decision of the opening phase, or the balanced start position.
typedef enum JobKind { JOB_MOVE, JOB_ANALYSIS, JOB_OPENING, JOB_BALANCED } JobKind;

struct Job {
    JobKind kind;
    LiveGame *g; ///< with a reference held by the job
    unsigned version;
    TgGame *position;        ///< the search's own copy, taken when it begins
    TgOpening *opening;      ///< JOB_OPENING: its own copy of the opening phase
    TgOpeningLimits olimits; ///< JOB_OPENING and JOB_BALANCED
    bool brief;              ///< a move-now with nothing searched yet: think only briefly
    TgSearchLimits limits;
    atomic_bool stop;      ///< end the search now (and use what it found)
    atomic_bool hurry;     ///< move-now before the search began: think only briefly
    atomic_bool cancelled; ///< the game forgot this job: drop its result and its reports
    int ply;
    TgColor color;
    int last_depth; ///< the depth reported last, so each depth is sent once
};

/// What a finished job brings: a move, an opening decision, a start position, an analysis.
typedef struct JobResult {
    TgError err;
    const TgSearchResult *search;
    TgOpeningDecision decision;
    TgBalanced balanced;
} JobResult;

/// What the pool hands back to the controller (control.c), so the workers need not know it.
typedef struct PoolHooks {
    /// A job finished and its game still wants it (game lock held).
    void (*done)(Server *s, LiveGame *g, const Job *job, const JobResult *res);
    /// The clock timer's tick, ten times a second (no lock held).
    void (*tick)(Server *s);
} PoolHooks;

typedef struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    Job **queue;
    int head, count, cap;
    pthread_t *threads;
    Job **running; ///< by worker
    void *args;    ///< what each worker thread is started with
    int thread_count;
    bool quit;
    pthread_t timer;
    bool timer_started;
    pthread_cond_t timer_cond;
    PoolHooks hooks;
} Pool;

/// Starts `workers` engine threads (0: jobs queue but never run) and, if `timer`, the clock
/// timer; results and ticks go to `hooks`.
bool pool_start(Server *s, int workers, const PoolHooks *hooks, bool timer);
/// Stops every search and thread; queued jobs are dropped.
void pool_stop(Server *s);
bool pool_has_room(Server *s);
/// Starts the computer's move (or opening decision) if it is to act, not paused and not
/// already thinking, or the balanced start position if one is awaited (game lock held);
/// false (and paused) when the queue is full.
bool work_start_move(Server *s, LiveGame *g, bool brief);
/// Starts an analysis of the current position (game lock held).
bool work_start_analysis(Server *s, LiveGame *g, int64_t time_ms, int multipv);

/* ---- What happens after a change (control.c) ----------------------------------------- */

/// After a change of the position or result (game lock held): a new version (searches of
/// the old one are void), then game_publish.
void game_changed(Server *s, LiveGame *g);
/// After any change (game lock held): the updated time, the computer started if it is to
/// move, the clocks run or held, the row saved and a `game` event sent.
void game_publish(Server *s, LiveGame *g);
/// registry_get(), and a game back from the archive carries on: its clock runs and the
/// computer thinks if it is to act.
LiveGame *control_get(Server *s, const char *id);
/// Ends the game on time if its side to move ran out (game lock held); true if it did.
bool control_check_time(Server *s, LiveGame *g);
/// Applies a finished job's result to its game (game lock held; the pool's `done` hook).
void control_job_done(Server *s, LiveGame *g, const Job *job, const JobResult *res);
/// The pool's hooks: control_job_done and the clock timer's check of every live game.
extern const PoolHooks CONTROL_HOOKS;

/* ---- The server and its API (api.c) -------------------------------------------------- */

struct Server {
    ServeConfig cfg;
    Store *store;
    Registry registry;
    Pool pool;
    atomic_int solves; ///< solver runs in progress on HTTP threads (at most SERVE_SOLVES_MAX)
    atomic_bool quit;
};

/// A server without HTTP: archive at cfg->db_path (":memory:" works), workers and timer.
Server *server_new(const ServeConfig *cfg, bool timer, char *err, size_t size);
void server_free(Server *s);

typedef struct ApiRequest {
    const char *method;
    const char *path;  ///< without the query
    const char *query; ///< "k=v&k=v" (values unescaped), or NULL
    const char *body;
    size_t body_len;
    const char *seat; ///< the X-Tengen-Seat header, or NULL
} ApiRequest;

typedef struct ApiResponse {
    int status;
    char *body; ///< malloc'd
    size_t len;
    const char *type;
    char disposition[96]; ///< Content-Disposition, "" for none
} ApiResponse;

void serve_api_handle(Server *s, const ApiRequest *rq, ApiResponse *out);

/* ---- Answers and request bodies (reply.c) -------------------------------------------- */

void api_response_free(ApiResponse *r);
/// Sets the answer's status and body (malloc'd, taken) of the given content type.
void api_set_body(ApiResponse *out, int status, char *body, const char *type);
/// Fills out with the JSON error answer.
void api_error_response(ApiResponse *out, const ApiError *e);
void api_json_response(ApiResponse *out, int status, json_t *body); ///< takes the reference
/// Is this path the event stream of a game? Copies the id.
bool api_events_path(const char *path, char id[SERVE_ID_LEN + 1]);

/* ---- Actions on games (actions.c) ----------------------------------------------------- */

typedef enum FieldType { F_STRING, F_INT, F_BOOL, F_OBJECT, F_ARRAY } FieldType;

/// One field a request body may hold; a list ends with a NULL name.
typedef struct Field {
    const char *name;
    FieldType type;
    bool required;
} Field;

typedef struct ActionCtx ActionCtx;

/// POST /api/games/{id}/{name}: the fields its body may hold and what it does.
typedef struct Action {
    const char *name;
    const Field *fields;
    bool (*run)(ActionCtx *c); ///< game lock held; false with c->err, having changed nothing
} Action;

/// Refuses unknown fields, fields of the wrong type and missing required ones.
bool body_fields(json_t *body, const Field *fields, ApiError *e);
const Action *action_find(const char *name);
/// Runs the action under the game's lock and answers with the game (or the error).
void action_run(Server *s, LiveGame *g, const Action *a, json_t *body, const char *seat,
                ApiResponse *out);
void action_show(LiveGame *g, ApiResponse *out); ///< GET /api/games/{id}
/// Makes a new TgGame for the game's rule, size and clock holding `stones` (0 to 5, black
/// first) as played moves; NULL out of memory.
TgGame *game_with_stones(const TgGame *like, const TgPoint *stones, int n);
/// POST /api/games and /api/games/import: the answer, or NULL with the error.
json_t *action_create(Server *s, json_t *body, ApiError *e);
json_t *action_import(Server *s, json_t *body, ApiError *e);

/* ---- Opening rules (opening.c) ------------------------------------------------------ */

/// The `opening` object of the game (null without an opening rule).
json_t *opening_json(const LiveGame *g);
/// The renju opening the game's first three moves are, as {code, name, chinese}, or null.
json_t *renju_opening_json(const TgGame *game);
/// The game's position after a change of the opening phase: the stones so far (or the whole
/// opening when it is over), the clock setting kept (game lock held).
bool opening_rebuild(LiveGame *g);
/// Places the three start stones (black, white, black) as the opening's first placements,
/// or as moves without an opening rule; false when the rule does not start that way.
bool opening_start_stones(LiveGame *g, const TgPoint stones[3]);
/// POST /api/games/{id}/opening (game lock held); false with the error. The caller publishes
/// the change.
bool opening_action(LiveGame *g, json_t *body, int seat, ApiError *e);
/// Plans an undo: game moves past the opening and opening actions to take back until
/// player `seat`'s last action is undone (seat -1: one move or action). False: nothing.
bool opening_undo_plan(const LiveGame *g, int seat, int *plies, int *actions);
/// Performs such a plan (game lock held).
void opening_undo_apply(LiveGame *g, int plies, int actions);
/// POST /api/games fields "opening", "renju_opening", "balanced": sets up the new game.
bool opening_create(LiveGame *g, json_t *body, ApiError *e);
/// An imported record's opening phase (SGF's OPENING[...]), when it replays and its stones
/// are the record's first moves: the game gets it back, mid-phase too. Players given by
/// colour stay with their colours.
void opening_import(LiveGame *g);
/// GET /api/openings
json_t *openings_json(void);
/// A finished decision of the opening phase (game lock held): applied and announced (or, when
/// it fails, the computer paused); the caller publishes the change.
void opening_decided(LiveGame *g, const TgOpeningDecision *d);

/* ---- Event streams (stream.c) ------------------------------------------------------- */

typedef struct Stream Stream;
/// A reader of a game's events; starts with a `game` event of the whole game.
Stream *stream_open(Server *s, LiveGame *g);
/// Writes up to max bytes; waits for events (sending a keep-alive comment every 15 s).
/// Returns 0 when the stream is over (the server stops).
size_t stream_read(Stream *st, char *buf, size_t max);
void stream_close(Stream *st);

/* ---- HTTP (http.c) -------------------------------------------------------------------- */

typedef struct Http Http;
/// Listens on cfg->host:cfg->port; *port gets the real port. NULL with a message.
Http *http_start(Server *s, int *port, char *err, size_t size);
void http_stop(Http *h);
const char *http_host(const Http *h); ///< the address as written in a URL

#endif
