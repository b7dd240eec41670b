/*
 * record_psq.c — Piskvork .psq records (formats.md §3):
 *
 *     Piskvorky WxH, L1:L2, S     header; S = which player (brain 1 or 2) started, 0 or 1
 *     x,y[,t]                     moves, 1-based from the top-left; t = ms the move took
 *     name of brain 1             optional, with the next line
 *     name of brain 2
 *     code                        last line: 0 = normal end, 15 = the player to move timed out
 *
 * The header and every line that starts like a move ("x,y") are read strictly. What follows
 * the moves is read tolerantly, because third-party writers add lines of their own: names are
 * taken only from the exact three-line ending above, and the code from the last line.
 */
#include "record.h"
#include "record_formats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum {
    PSQ_CODE_TIMEOUT = 15,
    PSQ_MAX_COORD = 999999999, ///< larger numbers are refused, not wrapped
};
#define PSQ_MAX_MS INT64_C(999999999999) /* about 31 years */

/* ---- Lines ---- */

typedef struct Line {
    const char *s;
    size_t n; ///< without the line break (a CR before the LF is dropped too)
    int number;
} Line;

typedef struct Lines {
    const char *p, *end;
    int number;
} Lines;

static bool next_line(Lines *ls, Line *line) {
    if (ls->p >= ls->end) return false;
    const char *nl = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
    const char *stop = nl ? nl : ls->end;
    line->s = ls->p;
    line->n = (size_t)(stop - ls->p);
    if (line->n && line->s[line->n - 1] == '\r') line->n--;
    line->number = ++ls->number;
    ls->p = nl ? nl + 1 : ls->end;
    return true;
}

static Cursor line_cursor(const Line *line) { return (Cursor){line->s, line->s + line->n}; }

static bool line_is_blank(const Line *line) {
    Cursor c = line_cursor(line);
    cursor_skip_blanks(&c);
    return cursor_done(&c);
}

/* ---- Header ---- */

typedef struct PsqHeader {
    int width, height;
    int starter; ///< 0: brain 1 started (played Black), 1: brain 2 did
} PsqHeader;

/// Reads "N" with blanks around it.
static NumberScan header_number(Cursor *c, int64_t *value) {
    cursor_skip_blanks(c);
    NumberScan scan = cursor_number(c, PSQ_MAX_COORD, value);
    cursor_skip_blanks(c);
    return scan;
}

static bool read_size(Cursor *c, PsqHeader *h, const Line *line, RecordError *e) {
    int64_t w, hh;
    if (header_number(c, &w) != NUMBER_OK || !cursor_take(c, 'x') ||
        header_number(c, &hh) != NUMBER_OK || !cursor_take(c, ','))
        return record_fail(e, "line %d: bad board size in the PSQ header", line->number);
    if (w < TG_MIN_SIZE || w > TG_MAX_SIZE || hh < TG_MIN_SIZE || hh > TG_MAX_SIZE)
        return record_fail(e, "line %d: board %" PRId64 "x%" PRId64 " is out of range (%d..%d)",
                           line->number, w, hh, TG_MIN_SIZE, TG_MAX_SIZE);
    h->width = (int)w;
    h->height = (int)hh;
    return true;
}

static bool read_levels_and_starter(Cursor *c, PsqHeader *h, const Line *line, RecordError *e) {
    int64_t level1, level2, starter;
    if (header_number(c, &level1) != NUMBER_OK || !cursor_take(c, ':') ||
        header_number(c, &level2) != NUMBER_OK || !cursor_take(c, ','))
        return record_fail(e, "line %d: bad player levels in the PSQ header", line->number);
    if (header_number(c, &starter) != NUMBER_OK || !cursor_done(c))
        return record_fail(e, "line %d: bad starting player in the PSQ header", line->number);
    if (starter > 1)
        return record_fail(e, "line %d: starting player %" PRId64 " is not 0 or 1", line->number,
                           starter);
    h->starter = (int)starter;
    return true;
}

static bool read_header(const Line *line, PsqHeader *h, RecordError *e) {
    static const char MAGIC[] = "Piskvorky ";
    Cursor c = line_cursor(line);
    if (line->n < sizeof MAGIC - 1 || memcmp(line->s, MAGIC, sizeof MAGIC - 1) != 0)
        return record_fail(e, "line %d: not a PSQ header (expected \"Piskvorky WxH, L1:L2, S\")",
                           line->number);
    c.p += sizeof MAGIC - 1;
    return read_size(&c, h, line, e) && read_levels_and_starter(&c, h, line, e);
}

/* ---- Moves ---- */

/// "-12" or "12", blanks around; NUMBER_NONE when there is no number.
static NumberScan signed_number(Cursor *c, int64_t max, int64_t *value) {
    cursor_skip_blanks(c);
    bool negative = cursor_take(c, '-');
    NumberScan scan = cursor_number(c, max, value);
    cursor_skip_blanks(c);
    if (negative && scan != NUMBER_NONE) *value = -*value;
    return scan;
}

/// Does the text start "number,"? Third-party lines such as "1,Freestyle" do; names do not.
static bool starts_with_number_comma(Cursor *c) {
    int64_t v;
    return signed_number(c, INT64_MAX, &v) != NUMBER_NONE && cursor_take(c, ',');
}

/// Does the text start like a move, "x,y"? Such a line must then be a whole, valid move line.
static bool starts_like_move(const char *s, size_t n) {
    Cursor c = {s, s + n};
    int64_t v;
    return starts_with_number_comma(&c) && signed_number(&c, INT64_MAX, &v) != NUMBER_NONE;
}

static bool read_move(const Line *line, RecordDraft *d, RecordError *e) {
    char text[RECORD_TEXT_MAX];
    record_excerpt(line->s, line->n, text, sizeof text);
    Cursor c = line_cursor(line);
    int64_t x, y, t = 0;
    NumberScan sx = signed_number(&c, PSQ_MAX_COORD, &x);
    bool comma = cursor_take(&c, ',');
    NumberScan sy = signed_number(&c, PSQ_MAX_COORD, &y);
    NumberScan st = cursor_take(&c, ',') ? signed_number(&c, PSQ_MAX_MS, &t) : NUMBER_OK;
    if (sx == NUMBER_TOO_BIG || sy == NUMBER_TOO_BIG || st == NUMBER_TOO_BIG)
        return record_fail(e, "line %d: number too large in move '%s'", line->number, text);
    if (sx != NUMBER_OK || !comma || sy != NUMBER_OK || st != NUMBER_OK || !cursor_done(&c))
        return record_fail(e, "line %d: bad move '%s' (expected x,y or x,y,time)", line->number,
                           text);
    if (t < 0) return record_fail(e, "line %d: negative time in move '%s'", line->number, text);
    if (x < 1 || y < 1 || x > d->width || y > d->height) /* 0,0 must not become a pass */
        return record_fail(e, "line %d: move %d '%s' is off the %dx%d board", line->number,
                           d->count + 1, text, d->width, d->height);
    TgPoint p = {(int)x - 1, (int)y - 1};
    return record_draft_add(d, p, t, line->number, line->s, line->n, e);
}

/* ---- What follows the moves ---- */

typedef struct PsqTail {
    Line first[2]; ///< the first two lines (the names, when the ending is exact)
    Line last;     ///< the last non-blank line (the code)
    int count;     ///< lines up to the last non-blank one
} PsqTail;

static void tail_add(PsqTail *t, const Line *line, int index) {
    if (index < 2) t->first[index] = *line;
    if (line_is_blank(line)) return;
    t->last = *line;
    t->count = index + 1;
}

/// A whole line holding one integer (the code); false for anything else.
static bool line_integer(const Line *line, int64_t *value) {
    Cursor c = line_cursor(line);
    return signed_number(&c, PSQ_MAX_COORD, value) == NUMBER_OK && cursor_done(&c);
}

/// Could the line be a player's name? Not if it reads as a code or starts like "1,Freestyle".
static bool could_be_name(const char *s, size_t n) {
    Line line = {s, n, 0};
    Cursor c = {s, s + n};
    int64_t v;
    return !line_integer(&line, &v) && !starts_with_number_comma(&c);
}

/// A name is one line: a stray CR inside it reads as a space, as the writer writes it.
static bool read_name(const Line *line, RecordInfo key, RecordDraft *d, RecordError *e) {
    if (!record_draft_info(d, key, line->s, line->n, e)) return false;
    for (char *c = d->info[key]; c && *c; c++)
        if (*c == '\r') *c = ' ';
    return true;
}

static bool read_names(const PsqTail *t, int starter, RecordDraft *d, RecordError *e) {
    const Line *black = &t->first[starter], *white = &t->first[1 - starter];
    if (!could_be_name(black->s, black->n) || !could_be_name(white->s, white->n)) return true;
    return read_name(black, INFO_BLACK, d, e) && read_name(white, INFO_WHITE, d, e);
}

/// Reads the moves, then the ending; *code is the last line's code (0 when there is none).
static bool read_body(Lines *ls, const PsqHeader *h, RecordDraft *d, int64_t *code,
                      RecordError *e) {
    Line line;
    bool more = next_line(ls, &line);
    for (; more && starts_like_move(line.s, line.n); more = next_line(ls, &line))
        if (!read_move(&line, d, e)) return false;
    PsqTail tail = {0};
    for (int i = 0; more; i++, more = next_line(ls, &line)) tail_add(&tail, &line, i);
    *code = 0;
    if (tail.count == 0 || !line_integer(&tail.last, code)) return true;
    return tail.count != 3 || read_names(&tail, h->starter, d, e);
}

TgGame *record_read_psq(const char *data, size_t len, TgRule rule, RecordError *e) {
    if (!record_text_ok(&data, &len, e)) return NULL;
    Lines ls = {data, data + len, 0};
    Line line;
    PsqHeader h = {0};
    if (!next_line(&ls, &line)) {
        record_fail(e, "empty file: no PSQ header");
        return NULL;
    }
    if (!read_header(&line, &h, e)) return NULL;
    RecordDraft *d = record_draft_new(rule, h.width, h.height, "line", e);
    int64_t code = 0;
    TgGame *g = d && read_body(&ls, &h, d, &code, e) ? record_build(d, e) : NULL;
    record_draft_free(d);
    /* A timeout is the only ending PSQ records beyond the moves: the player to move lost. */
    if (g && code == PSQ_CODE_TIMEOUT && !tg_game_over(g))
        tg_game_set_result(
            g, (TgResult){.reason = TG_REASON_TIME, .winner = (TgColor)(tg_game_to_move(g) ^ 1)});
    return g;
}

/* ---- Writing ---- */

/// The name as one line (line breaks become spaces); NULL for none. malloc'd.
static char *name_line(const TgGame *g, const char *key) {
    const char *name = tg_game_info(g, key);
    if (!name || !*name) return NULL;
    size_t n = strlen(name);
    char *line = malloc(n + 1);
    if (!line) return NULL;
    for (size_t i = 0; i <= n; i++) line[i] = name[i] == '\n' || name[i] == '\r' ? ' ' : name[i];
    return line;
}

static bool write_names(const TgGame *g, RecordBuf *b, RecordError *e) {
    char *black = name_line(g, "black"), *white = name_line(g, "white");
    bool ok = true;
    /* The reader could not tell such a name from a move, a code or a third-party line. */
    if ((black && !could_be_name(black, strlen(black))) ||
        (white && !could_be_name(white, strlen(white))))
        ok = record_fail(e, "a player's name reads as a number or a move; PSQ cannot keep it");
    else if (black || white)
        record_printf(b, "%s\n%s\n", black ? black : "", white ? white : "");
    free(black);
    free(white);
    return ok;
}

static bool write_moves(const TgGame *g, RecordBuf *b, RecordError *e) {
    for (int i = 0; i < tg_game_ply(g); i++) {
        TgPoint p = tg_game_move(g, i);
        if (tg_point_is_pass(p))
            return record_fail(e, "move %d is a pass, which PSQ cannot record", i + 1);
        int64_t ms = g->spent_ms[i] < 0            ? 0
                     : g->spent_ms[i] > PSQ_MAX_MS ? PSQ_MAX_MS
                                                   : g->spent_ms[i];
        record_printf(b, "%d,%d,%" PRId64 "\n", p.x + 1, p.y + 1, ms);
    }
    return true;
}

bool record_write_psq(const TgGame *g, RecordBuf *b, RecordError *e) {
    /* Levels 11:11 ("both computers") as Piskvork's own tournament files; S = 0: brain 1 is
     * Black, so the first name line is Black's. */
    record_printf(b, "Piskvorky %dx%d, 11:11, 0\n", tg_game_width(g), tg_game_height(g));
    if (!write_moves(g, b, e) || !write_names(g, b, e)) return false;
    TgResult r = tg_game_result(g);
    bool timeout = r.reason == TG_REASON_TIME && r.winner == (TgColor)(tg_game_to_move(g) ^ 1);
    record_printf(b, "%d\n", timeout ? PSQ_CODE_TIMEOUT : 0);
    return true;
}
