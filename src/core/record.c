/*
 * record.c — game records (formats.md): the format dispatch and the two small formats, .pos
 * bytes and h8 move lists. PSQ and SGF live in record_psq.c and record_sgf.c (record_formats.h);
 * every reader fills a draft and ends with record_build() (record_common.c).
 */
#include "record.h"
#include "record_formats.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (!g) record_error_one_line(&e);
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
    if (ok && (b.failed || !record_buf_reserve(&b, 0))) ok = record_fail(&e, "out of memory");
    if (!ok) {
        free(b.data);
        record_error_one_line(&e);
        return NULL;
    }
    if (len) *len = b.len;
    return b.data; /* NUL-terminated too (not counted), for the text formats */
}
