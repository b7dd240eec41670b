/*
 * record_common.c — what every record reader and writer shares (record.h): one-line errors, a
 * bounded text cursor, the growing output buffer, and the draft a reader fills and
 * record_build() plays by the rules into a fresh game.
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

void record_error_one_line(RecordError *e) {
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

bool record_buf_reserve(RecordBuf *b, size_t extra) {
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
    if (!record_buf_reserve(b, n)) return;
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
    } else if (record_buf_reserve(b, (size_t)n)) { /* rare: format straight into the buffer */
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
