/*
 * store.c — the game archive: one SQLite database in WAL mode, one row per game, the
 * schema's version in PRAGMA user_version. One connection serves every thread, behind a
 * mutex; every statement is prepared once and bound, never built from text.
 *
 * Durability: each change is one UPSERT, its own transaction, committed before the answer is
 * sent. With WAL and synchronous=NORMAL a commit survives the process being killed (kill -9,
 * a crash); only a power cut may lose the last commits, never corrupt the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "serve.h"

enum { SCHEMA_VERSION = 2, BUSY_MS = 5000 };

/* Version 1: the games table. */
static const char SCHEMA_V1[] =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, rule TEXT NOT NULL, size INTEGER NOT NULL,"
    " black TEXT NOT NULL, white TEXT NOT NULL, online INTEGER NOT NULL,"
    " token_black TEXT NOT NULL, token_white TEXT NOT NULL,"
    " moves TEXT NOT NULL, ply INTEGER NOT NULL, length INTEGER NOT NULL,"
    " reason TEXT NOT NULL, winner TEXT NOT NULL, paused INTEGER NOT NULL,"
    " draw_offer TEXT NOT NULL, undo_offer TEXT NOT NULL,"
    " game_ms INTEGER NOT NULL, increment_ms INTEGER NOT NULL, move_ms INTEGER NOT NULL,"
    " black_ms INTEGER NOT NULL, white_ms INTEGER NOT NULL, computer_ms INTEGER NOT NULL,"
    " evals TEXT NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_updated ON games(updated DESC);";

/* Version 2: the opening phase (its line, "" for games without one, as every older game) and
 * whether the balanced start position is still awaited. Adding columns with defaults keeps
 * every older row readable as it was. */
static const char SCHEMA_V2[] =
    "ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN balancing INTEGER NOT NULL DEFAULT 0;";

static const char SQL_PUT[] =
    "INSERT INTO games (id, rule, size, black, white, online, token_black, token_white, moves,"
    " ply, length, reason, winner, paused, draw_offer, undo_offer, game_ms, increment_ms,"
    " move_ms, black_ms, white_ms, computer_ms, evals, created, updated, opening, balancing)"
    " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,"
    "?19,?20,?21,?22,?23,?24,?25,?26,?27) ON CONFLICT(id) DO UPDATE SET rule=?2, size=?3, black=?4,"
    " white=?5, online=?6, token_black=?7, token_white=?8, moves=?9, ply=?10, length=?11,"
    " reason=?12, winner=?13, paused=?14, draw_offer=?15, undo_offer=?16, game_ms=?17,"
    " increment_ms=?18, move_ms=?19, black_ms=?20, white_ms=?21, computer_ms=?22, evals=?23,"
    " updated=?25, opening=?26, balancing=?27";

static const char SQL_GET[] =
    "SELECT id, rule, size, black, white, online, token_black, token_white, moves, ply,"
    " reason, winner, paused, draw_offer, undo_offer, game_ms, increment_ms, move_ms,"
    " black_ms, white_ms, computer_ms, evals, created, updated, opening, balancing"
    " FROM games WHERE id = ?1";

/* The list's filters: ?3 rule, ?4 result ("black", "white", "draw", "none"), ?5 a player on
 * either side; an empty one lets every game through. */
#define SQL_FILTER                                                                                 \
    " WHERE (?3 = '' OR rule = ?3)"                                                                \
    " AND (?4 = '' OR (?4 = 'none' AND reason = '') OR (?4 = 'draw' AND reason <> ''"              \
    " AND winner = '') OR (?4 IN ('black', 'white') AND winner = ?4))"                             \
    " AND (?5 = '' OR black = ?5 OR white = ?5)"

static const char SQL_LIST[] =
    "SELECT id, rule, size, black, white, online, created, updated, ply, reason, winner"
    " FROM games" SQL_FILTER " ORDER BY updated DESC, id LIMIT ?1 OFFSET ?2";

static const char SQL_COUNT[] =
    "SELECT count(*) FROM games" SQL_FILTER " AND ?1 IS NOT NULL AND ?2 IS NOT NULL";

static const char SQL_DELETE[] = "DELETE FROM games WHERE id = ?1";

struct Store {
    pthread_mutex_t lock;
    sqlite3 *db;
    sqlite3_stmt *put, *get, *list, *count, *del;
};

static bool fail(Store *st, const char *what, char *err, size_t size) {
    snprintf(err, size, "%s: %s", what, st->db ? sqlite3_errmsg(st->db) : "out of memory");
    return false;
}

static bool exec(Store *st, const char *sql, char *err, size_t size) {
    return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK || fail(st, sql, err, size);
}

static int user_version(Store *st) {
    sqlite3_stmt *q;
    int v = -1;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK) return -1;
    if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return v;
}

/// Brings the schema to SCHEMA_VERSION; refuses an archive from a newer tengen.
static bool migrate(Store *st, char *err, size_t size) {
    const int v = user_version(st);
    if (v < 0) return fail(st, "reading the schema version", err, size);
    if (v > SCHEMA_VERSION) {
        snprintf(err, size, "the archive has schema %d, newer than this tengen (%d)", v,
                 SCHEMA_VERSION);
        return false;
    }
    if (v == SCHEMA_VERSION) return true;
    char bump[64];
    snprintf(bump, sizeof bump, "PRAGMA user_version = %d", SCHEMA_VERSION);
    /* Each step brings one version to the next, all in one transaction. */
    const bool ok = exec(st, "BEGIN IMMEDIATE", err, size) &&
                    (v >= 1 || exec(st, SCHEMA_V1, err, size)) &&
                    (v >= 2 || exec(st, SCHEMA_V2, err, size)) && exec(st, bump, err, size) &&
                    exec(st, "COMMIT", err, size);
    if (!ok) sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return ok;
}

static bool prepare(Store *st, char *err, size_t size) {
    const struct {
        const char *sql;
        sqlite3_stmt **stmt;
    } all[] = {{SQL_PUT, &st->put},
               {SQL_GET, &st->get},
               {SQL_LIST, &st->list},
               {SQL_COUNT, &st->count},
               {SQL_DELETE, &st->del}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (sqlite3_prepare_v3(st->db, all[i].sql, -1, SQLITE_PREPARE_PERSISTENT, all[i].stmt,
                               NULL) != SQLITE_OK)
            return fail(st, "preparing a statement", err, size);
    return true;
}

Store *store_open(const char *path, char *err, size_t size) {
    Store *st = calloc(1, sizeof *st);
    if (!st) return snprintf(err, size, "out of memory"), NULL;
    pthread_mutex_init(&st->lock, NULL);
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    bool ok = sqlite3_open_v2(path, &st->db, flags, NULL) == SQLITE_OK || fail(st, path, err, size);
    ok = ok && sqlite3_busy_timeout(st->db, BUSY_MS) == SQLITE_OK;
    ok = ok && exec(st, "PRAGMA journal_mode=WAL", err, size) &&
         exec(st, "PRAGMA synchronous=NORMAL", err, size) && migrate(st, err, size) &&
         prepare(st, err, size);
    if (!ok) {
        store_close(st);
        return NULL;
    }
    return st;
}

void store_close(Store *st) {
    if (!st) return;
    sqlite3_finalize(st->put);
    sqlite3_finalize(st->get);
    sqlite3_finalize(st->list);
    sqlite3_finalize(st->count);
    sqlite3_finalize(st->del);
    sqlite3_close(st->db);
    pthread_mutex_destroy(&st->lock);
    free(st);
}

static void bind_text(sqlite3_stmt *q, int i, const char *s) {
    sqlite3_bind_text(q, i, s ? s : "", -1, SQLITE_STATIC);
}

static int move_count(const char *moves) {
    int n = 0;
    for (const char *p = moves; *p; p++)
        if (*p != ' ' && (p == moves || p[-1] == ' ')) n++;
    return n;
}

static void bind_game(sqlite3_stmt *q, const SavedGame *g) {
    bind_text(q, 1, g->id);
    bind_text(q, 2, g->rule);
    sqlite3_bind_int(q, 3, g->size);
    bind_text(q, 4, g->player[0]);
    bind_text(q, 5, g->player[1]);
    sqlite3_bind_int(q, 6, g->online);
    bind_text(q, 7, g->token[0]);
    bind_text(q, 8, g->token[1]);
    bind_text(q, 9, g->moves);
    sqlite3_bind_int(q, 10, g->ply);
    sqlite3_bind_int(q, 11, move_count(g->moves ? g->moves : ""));
    bind_text(q, 12, g->reason);
    bind_text(q, 13, g->winner);
    sqlite3_bind_int(q, 14, g->paused);
    bind_text(q, 15, g->draw_offer);
    bind_text(q, 16, g->undo_offer);
    sqlite3_bind_int64(q, 17, g->clock.game_ms);
    sqlite3_bind_int64(q, 18, g->clock.increment_ms);
    sqlite3_bind_int64(q, 19, g->clock.move_ms);
    sqlite3_bind_int64(q, 20, g->left_ms[0]);
    sqlite3_bind_int64(q, 21, g->left_ms[1]);
    sqlite3_bind_int64(q, 22, g->computer_ms);
    bind_text(q, 23, g->evals ? g->evals : "[]");
    sqlite3_bind_int64(q, 24, g->created_ms);
    sqlite3_bind_int64(q, 25, g->updated_ms);
    bind_text(q, 26, g->opening);
    sqlite3_bind_int(q, 27, g->balancing);
}

bool store_put(Store *st, const SavedGame *g) {
    pthread_mutex_lock(&st->lock);
    bind_game(st->put, g);
    const bool ok = sqlite3_step(st->put) == SQLITE_DONE;
    if (!ok) fprintf(stderr, "tengen: saving game %s: %s\n", g->id, sqlite3_errmsg(st->db));
    sqlite3_reset(st->put);
    sqlite3_clear_bindings(st->put);
    pthread_mutex_unlock(&st->lock);
    return ok;
}

static void column_copy(sqlite3_stmt *q, int i, char *buf, size_t size) {
    const unsigned char *s = sqlite3_column_text(q, i);
    snprintf(buf, size, "%s", s ? (const char *)s : "");
}

static char *column_dup(sqlite3_stmt *q, int i) {
    const unsigned char *s = sqlite3_column_text(q, i);
    return strdup(s ? (const char *)s : "");
}

static void read_game(sqlite3_stmt *q, SavedGame *g) {
    memset(g, 0, sizeof *g);
    column_copy(q, 0, g->id, sizeof g->id);
    column_copy(q, 1, g->rule, sizeof g->rule);
    g->size = sqlite3_column_int(q, 2);
    column_copy(q, 3, g->player[0], sizeof g->player[0]);
    column_copy(q, 4, g->player[1], sizeof g->player[1]);
    g->online = sqlite3_column_int(q, 5) != 0;
    column_copy(q, 6, g->token[0], sizeof g->token[0]);
    column_copy(q, 7, g->token[1], sizeof g->token[1]);
    g->moves = column_dup(q, 8);
    g->ply = sqlite3_column_int(q, 9);
    column_copy(q, 10, g->reason, sizeof g->reason);
    column_copy(q, 11, g->winner, sizeof g->winner);
    g->paused = sqlite3_column_int(q, 12) != 0;
    column_copy(q, 13, g->draw_offer, sizeof g->draw_offer);
    column_copy(q, 14, g->undo_offer, sizeof g->undo_offer);
    g->clock.game_ms = sqlite3_column_int64(q, 15);
    g->clock.increment_ms = sqlite3_column_int64(q, 16);
    g->clock.move_ms = sqlite3_column_int64(q, 17);
    g->left_ms[0] = sqlite3_column_int64(q, 18);
    g->left_ms[1] = sqlite3_column_int64(q, 19);
    g->computer_ms = sqlite3_column_int64(q, 20);
    g->evals = column_dup(q, 21);
    g->created_ms = sqlite3_column_int64(q, 22);
    g->updated_ms = sqlite3_column_int64(q, 23);
    column_copy(q, 24, g->opening, sizeof g->opening);
    g->balancing = sqlite3_column_int(q, 25) != 0;
}

int store_get(Store *st, const char *id, SavedGame *g) {
    pthread_mutex_lock(&st->lock);
    bind_text(st->get, 1, id);
    const int rc = sqlite3_step(st->get);
    int found = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (found == 1) read_game(st->get, g);
    if (found == 1 && (!g->moves || !g->evals)) saved_free(g), found = -1;
    if (found < 0) fprintf(stderr, "tengen: loading game %s: %s\n", id, sqlite3_errmsg(st->db));
    sqlite3_reset(st->get);
    sqlite3_clear_bindings(st->get);
    pthread_mutex_unlock(&st->lock);
    return found;
}

void saved_free(SavedGame *g) {
    free(g->moves);
    free(g->evals);
    g->moves = g->evals = NULL;
}

/// "2026-11-21T18:02:11Z" from Unix milliseconds.
json_t *serve_json_time(int64_t ms) {
    const time_t t = (time_t)(ms / 1000);
    struct tm tm;
    char buf[32];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

static json_t *summary_result(sqlite3_stmt *q) {
    const char *reason = (const char *)sqlite3_column_text(q, 9);
    const char *winner = (const char *)sqlite3_column_text(q, 10);
    if (!reason || !*reason) return json_null();
    return json_pack("{s:o, s:s}", "winner", winner && *winner ? json_string(winner) : json_null(),
                     "reason", reason);
}

static const char *column_text(sqlite3_stmt *q, int i) {
    const unsigned char *s = sqlite3_column_text(q, i);
    return s ? (const char *)s : "";
}

/// One row of SQL_LIST as an archive summary.
static json_t *summary(sqlite3_stmt *q) {
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:b, s:o, s:o, s:i, s:o}", "id", column_text(q, 0),
                     "rule", column_text(q, 1), "size", sqlite3_column_int(q, 2), "black",
                     column_text(q, 3), "white", column_text(q, 4), "online",
                     sqlite3_column_int(q, 5) != 0, "created",
                     serve_json_time(sqlite3_column_int64(q, 6)), "updated",
                     serve_json_time(sqlite3_column_int64(q, 7)), "length",
                     sqlite3_column_int(q, 8), "result", summary_result(q));
}

json_t *store_list(Store *st, int limit, int offset, const StoreFilter *f) {
    json_t *games = json_array();
    int64_t total = -1;
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *both[2] = {st->list, st->count};
    for (int k = 0; k < 2; k++) {
        sqlite3_bind_int(both[k], 1, limit);
        sqlite3_bind_int(both[k], 2, offset);
        bind_text(both[k], 3, f->rule);
        bind_text(both[k], 4, f->result);
        bind_text(both[k], 5, f->player);
    }
    int rc;
    while ((rc = sqlite3_step(st->list)) == SQLITE_ROW)
        json_array_append_new(games, summary(st->list));
    if (rc == SQLITE_DONE && sqlite3_step(st->count) == SQLITE_ROW)
        total = sqlite3_column_int64(st->count, 0);
    if (total < 0) fprintf(stderr, "tengen: listing games: %s\n", sqlite3_errmsg(st->db));
    sqlite3_reset(st->list);
    sqlite3_reset(st->count);
    pthread_mutex_unlock(&st->lock);
    if (total < 0) {
        json_decref(games);
        return NULL;
    }
    return json_pack("{s:o, s:I}", "games", games, "total", (json_int_t)total);
}

bool store_delete(Store *st, const char *id) {
    pthread_mutex_lock(&st->lock);
    bind_text(st->del, 1, id);
    const bool ok = sqlite3_step(st->del) == SQLITE_DONE;
    if (!ok) fprintf(stderr, "tengen: deleting game %s: %s\n", id, sqlite3_errmsg(st->db));
    sqlite3_reset(st->del);
    pthread_mutex_unlock(&st->lock);
    return ok;
}
