/*
 * record.h — what the record readers and writers (record.c, record_psq.c, record_sgf.c) share
 * (record_common.c): the draft a reader fills before any game exists, the growing output
 * buffer, a bounded text cursor, and one-line error messages.
 */
#ifndef TG_RECORD_H
#define TG_RECORD_H

#include <stddef.h>

#include "game.h"

#if defined(__GNUC__) || defined(__clang__)
#define RECORD_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RECORD_PRINTF(fmt, args)
#endif

enum {
    RECORD_TEXT_MAX = 24, ///< bytes kept of a move as written, for error messages
    RECORD_DEFAULT_SIZE = 15,
};

/* ---- Errors ---- */

/// The caller's message buffer (text may be NULL, size 0).
typedef struct RecordError {
    char *text;
    size_t size;
} RecordError;

/// Messages stay on one line whatever the input held: control bytes become '?'.
void record_error_one_line(RecordError *e);
/// Writes the message; returns false so that a reader can `return record_fail(...)`.
bool record_fail(RecordError *e, const char *fmt, ...) RECORD_PRINTF(2, 3);

/// A printable excerpt of s[0..n) for messages: control bytes become '?', long text ends "...".
void record_excerpt(const char *s, size_t n, char *out, size_t size);

/// Text formats: refuses NUL bytes (a name would be cut short) and skips a UTF-8 byte-order mark.
bool record_text_ok(const char **data, size_t *len, RecordError *e);

/// Is `text` the word `lower` (given in lower case), in any case?
bool record_same_word(const char *text, const char *lower);

/* ---- Draft: what a reader found, before any rule is applied ---- */

typedef enum RecordInfo {
    INFO_BLACK,
    INFO_WHITE,
    INFO_DATE,
    INFO_EVENT,
    INFO_COMMENT,
    INFO_OPENING, ///< the opening phase (tg_opening_text), SGF's private OPENING[]
    INFO_COUNT
} RecordInfo;

/// The game info key of each RecordInfo ("black", "white", "date", "event", "comment",
/// "opening").
extern const char *const RECORD_INFO_KEYS[INFO_COUNT];

typedef struct RecordDraft {
    TgRule rule;
    int width, height;
    const char *where; ///< what at[] counts ("line", "byte"), or NULL when messages need none
    int count;
    TgPoint moves[MAX_PLY];
    int64_t spent_ms[MAX_PLY];
    int at[MAX_PLY];                     ///< where each move was written (line or byte)
    char text[MAX_PLY][RECORD_TEXT_MAX]; ///< each move as written
    char *info[INFO_COUNT];              ///< malloc'd, NULL when absent
} RecordDraft;

/// A zeroed draft on the heap (it is too large for small stacks); NULL with a message.
RecordDraft *record_draft_new(TgRule rule, int width, int height, const char *where,
                              RecordError *e);
void record_draft_free(RecordDraft *d);
/// Appends a move; `text` (n bytes) is how the record wrote it.
bool record_draft_add(RecordDraft *d, TgPoint p, int64_t spent_ms, int at, const char *text,
                      size_t n, RecordError *e);
/// Sets (n > 0) or clears (n == 0) one info field from n bytes.
bool record_draft_info(RecordDraft *d, RecordInfo key, const char *value, size_t n, RecordError *e);
/// Plays the draft by its rule into a new game; NULL with a message naming the bad move.
TgGame *record_build(const RecordDraft *d, RecordError *e);

/* ---- Output ---- */

typedef struct RecordBuf {
    char *data;
    size_t len, cap;
    bool failed; ///< an allocation failed; record_buf_finish reports it
} RecordBuf;

/// Room for `extra` more bytes (and a NUL); false (and `failed` set) when out of memory.
bool record_buf_reserve(RecordBuf *b, size_t extra);
void record_put(RecordBuf *b, const char *s, size_t n);
void record_puts(RecordBuf *b, const char *s);
void record_printf(RecordBuf *b, const char *fmt, ...) RECORD_PRINTF(2, 3);

/* ---- Bounded text cursor (record text is not NUL-terminated) ---- */

typedef struct Cursor {
    const char *p, *end;
} Cursor;

typedef enum NumberScan { NUMBER_NONE, NUMBER_OK, NUMBER_TOO_BIG } NumberScan;

static inline bool cursor_done(const Cursor *c) { return c->p >= c->end; }
void cursor_skip_blanks(Cursor *c); ///< spaces and tabs
bool cursor_take(Cursor *c, char ch);
/// Reads one or more decimal digits. Every digit is consumed; past max the result is
/// NUMBER_TOO_BIG and *value stops growing (it never overflows).
NumberScan cursor_number(Cursor *c, int64_t max, int64_t *value);

#endif
