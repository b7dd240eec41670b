/*
 * record.c — game records (formats.md): the format dispatch, the draft -> game step every reader
 * ends with, and the two small formats, .pos bytes and h8 move lists. PSQ and SGF live in
 * record_psq.c and record_sgf.c.
 *
 * Invariant: a reader only fills a RecordDraft (size, rule, moves as written, info) and never
 * touches a game; record_build() then plays the draft by the rules into a fresh TgGame. Any
 * error frees everything, so a record never half-loads.
 */
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const RECORD_INFO_KEYS[INFO_COUNT] = {"black", "white",   "date",
                                                  "event", "comment", "opening"};

/* ---- Errors ---- */

bool record_fail(RecordError *e, const char *fmt, ...) {
    if (!e->text || e->size == 0) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, e->size, fmt, ap);
    va_end(ap);
    return false;
}

void record_excerpt(const char *s, size_t n, char *out, size_t size) {
    if (size == 0) return;
    size_t room = size - 1;
    bool cut = n > room && room >= 3;
    size_t copy = n <= room ? n : cut ? room - 3 : room;
    for (size_t i = 0; i < copy; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    if (cut) memcpy(out + copy, "...", 3);
    out[copy + (cut ? 3 : 0)] = '\0';
}

/// Messages stay on one line whatever the input held: control bytes become '?'.
static void error_to_one_line(RecordError *e) {
    if (!e->text || e->size == 0) return;
    for (char *s = e->text; *s; s++)
        if ((unsigned char)*s < 0x20) *s = '?';
}

bool record_text_ok(const char **data, size_t *len, RecordError *e) {
    const char *nul = memchr(*data, '\0', *len);
    if (nul) {
        int line = 1;
        for (const char *s = *data; s < nul; s++) line += *s == '\n';
        return record_fail(e, "line %d: NUL byte (offset %zu) in a text record", line,
                           (size_t)(nul - *data));
    }
    if (*len >= 3 && memcmp(*data, "\xEF\xBB\xBF", 3) == 0) {
        *data += 3;
        *len -= 3;
    }
    return true;
}

bool record_same_word(const char *text, const char *lower) {
    for (; *text && *lower; text++, lower++) {
        char c = *text >= 'A' && *text <= 'Z' ? (char)(*text - 'A' + 'a') : *text;
        if (c != *lower) return false;
    }
    return *text == *lower;
}

/* ---- Cursor ---- */

void cursor_skip_blanks(Cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) c->p++;
}

bool cursor_take(Cursor *c, char ch) {
    if (c->p >= c->end || *c->p != ch) return false;
    c->p++;
    return true;
}

NumberScan cursor_number(Cursor *c, int64_t max, int64_t *value) {
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return NUMBER_NONE;
    int64_t v = 0;
    bool big = false;
    for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
        int digit = *c->p - '0';
        big = big || v > (max - digit) / 10; /* checked before it could pass max or overflow */
        if (!big) v = v * 10 + digit;
    }
    *value = v;
    return big ? NUMBER_TOO_BIG : NUMBER_OK;
}

/* ---- Output buffer ---- */

static bool buf_reserve(RecordBuf *b, size_t extra) {
    if (b->failed) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        b->failed = true;
        return false;
    }
    b->data = data;
    b->cap = cap;
    return true;
}

void record_put(RecordBuf *b, const char *s, size_t n) {
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void record_puts(RecordBuf *b, const char *s) { record_put(b, s, strlen(s)); }

void record_printf(RecordBuf *b, const char *fmt, ...) {
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
    } else if ((size_t)n < sizeof small) {
        record_put(b, small, (size_t)n);
    } else if (buf_reserve(b, (size_t)n)) { /* rare: format straight into the buffer */
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        b->len += (size_t)n;
    }
}

/* ---- Draft ---- */

RecordDraft *record_draft_new(TgRule rule, int width, int height, const char *where,
                              RecordError *e) {
    RecordDraft *d = calloc(1, sizeof *d);
    if (!d) {
        record_fail(e, "out of memory");
        return NULL;
    }
    d->rule = rule;
    d->width = width;
    d->height = height;
    d->where = where;
    return d;
}

void record_draft_free(RecordDraft *d) {
    if (!d) return;
    for (int i = 0; i < INFO_COUNT; i++) free(d->info[i]);
    free(d);
}

bool record_draft_add(RecordDraft *d, TgPoint p, int64_t spent_ms, int at, const char *text,
                      size_t n, RecordError *e) {
    if (d->count >= MAX_PLY) {
        if (d->where) return record_fail(e, "%s %d: more than %d moves", d->where, at, MAX_PLY);
        return record_fail(e, "more than %d moves", MAX_PLY);
    }
    d->moves[d->count] = p;
    d->spent_ms[d->count] = spent_ms;
    d->at[d->count] = at;
    record_excerpt(text, n, d->text[d->count], RECORD_TEXT_MAX);
    d->count++;
    return true;
}

bool record_draft_info(RecordDraft *d, RecordInfo key, const char *value, size_t n,
                       RecordError *e) {
    free(d->info[key]);
    d->info[key] = NULL;
    if (n == 0) return true;
    d->info[key] = malloc(n + 1);
    if (!d->info[key]) return record_fail(e, "out of memory");
    memcpy(d->info[key], value, n);
    d->info[key][n] = '\0';
    return true;
}

/// Says why move i of the draft could not be played on g (the position before it).
static bool move_error(const TgGame *g, const RecordDraft *d, int i, TgError err, RecordError *e) {
    char why[96];
    TgFoul foul = TG_FOUL_NONE;
    switch (err) {
    case TG_ERR_OFF_BOARD:
        snprintf(why, sizeof why, "is off the %dx%d board", d->width, d->height);
        break;
    case TG_ERR_OCCUPIED: snprintf(why, sizeof why, "lands on a stone already there"); break;
    case TG_ERR_FORBIDDEN:
        tg_game_check(g, d->moves[i], &foul);
        snprintf(why, sizeof why, "is a renju foul for Black (%s)", tg_foul_code(foul));
        break;
    case TG_ERR_GAME_OVER:
        snprintf(why, sizeof why, "comes after the game ended (%s)",
                 tg_reason_name(tg_game_result(g).reason));
        break;
    default: snprintf(why, sizeof why, "cannot be played: %s", tg_error_text(err)); break;
    }
    if (!d->where) return record_fail(e, "move %d '%s' %s", i + 1, d->text[i], why);
    return record_fail(e, "%s %d: move %d '%s' %s", d->where, d->at[i], i + 1, d->text[i], why);
}

/// Plays every move by the rules. A foul loses in renju, so one may end a record (as a five
/// does) but never stand inside one: fouls are playable for the last move only.
static bool play_draft(TgGame *g, const RecordDraft *d, RecordError *e) {
    for (int i = 0; i < d->count; i++) {
        tg_game_set_fouls_playable(g, i == d->count - 1);
        TgError err = tg_game_play(g, d->moves[i], 0);
        if (err != TG_OK) return move_error(g, d, i, err, e);
        g->spent_ms[i] = d->spent_ms[i];
    }
    tg_game_set_fouls_playable(g, false);
    return true;
}

TgGame *record_build(const RecordDraft *d, RecordError *e) {
    TgGame *g = tg_game_new(d->rule, d->width, d->height);
    if (!g) {
        record_fail(e, "cannot make a %dx%d %s game", d->width, d->height, tg_rule_name(d->rule));
        return NULL;
    }
    if (!play_draft(g, d, e)) {
        tg_game_free(g);
        return NULL;
    }
    for (int k = 0; k < INFO_COUNT; k++) {
        if (!d->info[k]) continue;
        tg_game_set_info(g, RECORD_INFO_KEYS[k], d->info[k]);
        if (!tg_game_info(g, RECORD_INFO_KEYS[k])) {
            tg_game_free(g);
            record_fail(e, "out of memory");
            return NULL;
        }
    }
    return g;
}

/* ---- .pos: byte 0 = N, then N bytes row_from_top * 15 + col (formats.md §7) ---- */

enum { POS_SIZE = 15, POS_MAX_MOVES = POS_SIZE * POS_SIZE };

static TgGame *read_pos(const unsigned char *data, size_t len, TgRule rule, int size,
                        RecordError *e) {
    if (size != 0 && size != POS_SIZE) {
        record_fail(e, ".pos records are 15x15 only (size %d was asked for)", size);
        return NULL;
    }
    if (len == 0) {
        record_fail(e, "empty .pos file (byte 0 should count the moves)");
        return NULL;
    }
    size_t n = data[0];
    if (n == 0 || n > POS_MAX_MOVES) {
        record_fail(e, "byte 0: move count %zu is out of range (1..%d)", n, POS_MAX_MOVES);
        return NULL;
    }
    if (len != n + 1) {
        record_fail(e, "byte 0 announces %zu moves but %zu byte%s follow", n, len - 1,
                    len == 2 ? "" : "s");
        return NULL;
    }
    RecordDraft *d = record_draft_new(rule, POS_SIZE, POS_SIZE, "byte", e);
    bool ok = d != NULL;
    for (size_t i = 1; ok && i <= n; i++) {
        char text[8];
        int t = snprintf(text, sizeof text, "%d", data[i]);
        TgPoint p = {data[i] % POS_SIZE, data[i] / POS_SIZE}; /* >= 225 lands off the board */
        ok = record_draft_add(d, p, 0, (int)i, text, (size_t)t, e);
    }
    TgGame *g = ok ? record_build(d, e) : NULL;
    record_draft_free(d);
    return g;
}

static bool write_pos(const TgGame *g, RecordBuf *b, RecordError *e) {
    int w = tg_game_width(g), h = tg_game_height(g), n = tg_game_ply(g);
    if (w != POS_SIZE || h != POS_SIZE)
        return record_fail(e, ".pos records are 15x15 only; this board is %dx%d", w, h);
    if (n == 0) return record_fail(e, "a .pos record needs at least one move; this game has none");
    if (n > POS_MAX_MOVES) return record_fail(e, ".pos holds at most %d moves", POS_MAX_MOVES);
    char count = (char)(unsigned char)n;
    record_put(b, &count, 1);
    for (int i = 0; i < n; i++) {
        TgPoint p = tg_game_move(g, i);
        if (tg_point_is_pass(p))
            return record_fail(e, "move %d is a pass, which .pos cannot record", i + 1);
        char byte = (char)(unsigned char)(p.y * POS_SIZE + p.x);
        record_put(b, &byte, 1);
    }
    return true;
}

/* ---- Move lists: "h8 i9 j10", square boards of `size` (formats.md §1, §2) ---- */

static TgGame *read_moves(const char *data, size_t len, TgRule rule, int size, RecordError *e) {
    if (!record_text_ok(&data, &len, e)) return NULL;
    int n = size ? size : RECORD_DEFAULT_SIZE;
    char *text = malloc(len + 1);
    RecordDraft *d = text ? record_draft_new(rule, n, n, NULL, e) : NULL;
    TgGame *g = NULL;
    if (!text) record_fail(e, "out of memory");
    if (d) {
        memcpy(text, data, len);
        text[len] = '\0';
        if (tg_parse_moves(text, n, n, d->moves, MAX_PLY, &d->count, e->text, e->size) == TG_OK) {
            for (int i = 0; i < d->count; i++)
                tg_point_to_text(d->moves[i], n, n, d->text[i], RECORD_TEXT_MAX);
            g = record_build(d, e);
        }
    }
    free(text);
    record_draft_free(d);
    return g;
}

static bool write_moves(const TgGame *g, RecordBuf *b, RecordError *e) {
    int w = tg_game_width(g), h = tg_game_height(g), n = tg_game_ply(g);
    /* The reader knows one size only, so a rectangle could not be read back. */
    if (w != h) return record_fail(e, "a move list needs a square board; this one is %dx%d", w, h);
    TgPoint moves[MAX_PLY];
    char text[MAX_PLY * 5 + 1]; /* "pass" or up to "v22", plus a space each */
    for (int i = 0; i < n; i++) moves[i] = tg_game_move(g, i);
    record_put(b, text, tg_format_moves(moves, n, w, h, " ", text, sizeof text));
    record_put(b, "\n", 1);
    return true;
}

/* ---- Dispatch ---- */

static const struct {
    TgFormat format;
    const char *extension;
} FORMATS[] = {
    {TG_FORMAT_PSQ, "psq"},
    {TG_FORMAT_SGF, "sgf"},
    {TG_FORMAT_POS, "pos"},
    {TG_FORMAT_MOVES, "txt"},
};

enum { FORMAT_COUNT = sizeof FORMATS / sizeof FORMATS[0] };

TgFormat tg_format_from_path(const char *path) {
    if (!path) return TG_FORMAT_UNKNOWN;
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && slash > dot)) return TG_FORMAT_UNKNOWN;
    for (int i = 0; i < FORMAT_COUNT; i++)
        if (record_same_word(dot + 1, FORMATS[i].extension)) return FORMATS[i].format;
    return TG_FORMAT_UNKNOWN;
}

const char *tg_format_name(TgFormat format) {
    for (int i = 0; i < FORMAT_COUNT; i++)
        if (FORMATS[i].format == format) return FORMATS[i].extension;
    return "unknown";
}

static TgGame *read_format(TgFormat format, const char *data, size_t len, TgRule rule, int size,
                           RecordError *e) {
    switch (format) {
    case TG_FORMAT_PSQ: return record_read_psq(data, len, rule, e);
    case TG_FORMAT_SGF: return record_read_sgf(data, len, rule, size, e);
    case TG_FORMAT_POS: return read_pos((const unsigned char *)data, len, rule, size, e);
    case TG_FORMAT_MOVES: return read_moves(data, len, rule, size, e);
    default: record_fail(e, "unknown record format"); return NULL;
    }
}

TgGame *tg_record_read(TgFormat format, const char *data, size_t len, TgRule rule, int size,
                       char *err, size_t err_size) {
    RecordError e = {err, err_size};
    if (err && err_size) err[0] = '\0';
    TgGame *g = NULL;
    if (!data && len) {
        record_fail(&e, "no data");
    } else if ((unsigned)rule >= TG_RULE_COUNT) {
        record_fail(&e, "unknown rule %d", (int)rule);
    } else if (size != 0 && (size < TG_MIN_SIZE || size > TG_MAX_SIZE)) {
        record_fail(&e, "board size %d is out of range (%d..%d)", size, TG_MIN_SIZE, TG_MAX_SIZE);
    } else {
        g = read_format(format, data ? data : "", len, rule, size, &e);
    }
    if (!g) error_to_one_line(&e);
    return g;
}

char *tg_record_write(const TgGame *game, TgFormat format, size_t *len, char *err,
                      size_t err_size) {
    RecordError e = {err, err_size};
    RecordBuf b = {0};
    bool ok;
    if (err && err_size) err[0] = '\0';
    switch (format) {
    case TG_FORMAT_PSQ: ok = record_write_psq(game, &b, &e); break;
    case TG_FORMAT_SGF: ok = record_write_sgf(game, &b, &e); break;
    case TG_FORMAT_POS: ok = write_pos(game, &b, &e); break;
    case TG_FORMAT_MOVES: ok = write_moves(game, &b, &e); break;
    default: ok = record_fail(&e, "unknown record format"); break;
    }
    if (ok && (b.failed || !buf_reserve(&b, 0))) ok = record_fail(&e, "out of memory");
    if (!ok) {
        free(b.data);
        error_to_one_line(&e);
        return NULL;
    }
    if (len) *len = b.len;
    return b.data; /* NUL-terminated too (not counted), for the text formats */
}
