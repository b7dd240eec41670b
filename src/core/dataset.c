/*
 * dataset.c — reading and writing training data files (dataset.h, docs/formats.md).
 * Every field is checked on reading, so that any bytes give a game or a message, never a fault.
 */
#include "dataset.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char DATA_MAGIC[4] = {'T', 'G', 'D', '1'};

enum { DATA_MAX_MOVES = BOARD_MAX * BOARD_MAX }; ///< a record never holds more than the board

struct DataReader {
    FILE *f;
    char name[256];
    long long offset; ///< bytes consumed so far
    long long games;  ///< records read so far
    long long last;   ///< where the last record read starts
};

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned get16(const unsigned char *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

static void put32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void put16(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void say(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t err_size, const char *fmt, ...) {
    if (!err || !err_size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

/// Checks a file header's bytes; NULL when sound, else what is wrong.
static const char *header_fault(const unsigned char *h, size_t got) {
    if (got < 4 || memcmp(h, DATA_MAGIC, 4) != 0) return "not a tengen training data file";
    if (got < DATA_HEADER_BYTES) return "truncated file header";
    if (get32(h + 4) != DATA_VERSION) return "unknown data file version";
    return NULL;
}

/* ---- Reading ---- */

static DataReader *reader_over(FILE *f, const char *name, char *err, size_t err_size) {
    unsigned char h[DATA_HEADER_BYTES];
    const size_t got = fread(h, 1, sizeof h, f);
    const char *fault = header_fault(h, got);
    if (fault) {
        if (fault[0] == 'u')
            say(err, err_size, "%s: data file version %u, this tengen reads version %d", name,
                (unsigned)get32(h + 4), DATA_VERSION);
        else
            say(err, err_size, "%s: %s", name, fault);
        fclose(f);
        return NULL;
    }
    DataReader *r = calloc(1, sizeof *r);
    if (!r) {
        say(err, err_size, "%s: out of memory", name);
        fclose(f);
        return NULL;
    }
    r->f = f;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->offset = DATA_HEADER_BYTES;
    return r;
}

DataReader *dataset_open(const char *path, char *err, size_t err_size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        say(err, err_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    return reader_over(f, path, err, err_size);
}

DataReader *dataset_open_stream(FILE *f, const char *name, char *err, size_t err_size) {
    return reader_over(f, name, err, err_size);
}

void dataset_close(DataReader *r) {
    if (!r) return;
    fclose(r->f);
    free(r);
}

/// The fault of a record's head fields, or NULL.
static const char *head_fault(unsigned rule, int width, int height, int result, int count) {
    if (rule >= TG_RULE_COUNT) return "unknown rule";
    if (width < TG_MIN_SIZE || width > TG_MAX_SIZE || height < TG_MIN_SIZE || height > TG_MAX_SIZE)
        return "board size out of range";
    if (result < 0 || result > 2) return "unknown result";
    if (count < 0 || count > width * height || count > MAX_PLY)
        return "more moves than the board has points";
    return NULL;
}

long long dataset_game_offset(const DataReader *r) { return r->last; }

const char *dataset_check(const DataGame *g, int *bad_move) {
    if (bad_move) *bad_move = -1;
    const char *fault = head_fault((unsigned)g->rule, g->width, g->height, g->result, g->count);
    if (fault) return fault;
    bool taken[DATA_MAX_MOVES] = {false};
    for (int i = 0; i < g->count; i++) {
        if (bad_move) *bad_move = i;
        const int x = pos_x(g->moves[i]), y = pos_y(g->moves[i]);
        if (x < 0 || y < 0 || x >= g->width || y >= g->height) return "move off the board";
        if (taken[y * g->width + x]) return "a stone on an occupied point";
        taken[y * g->width + x] = true;
        const int s = g->score[i];
        if (s != DATA_NO_SCORE && (s < -TG_SCORE_WIN || s > TG_SCORE_WIN))
            return "score out of range";
    }
    if (bad_move) *bad_move = -1;
    return NULL;
}

/// Reads n bytes; false when the file ends first (or a read fails).
static bool read_exactly(DataReader *r, unsigned char *buf, size_t n, size_t *got) {
    *got = fread(buf, 1, n, r->f);
    return *got == n;
}

/// Reads a record's head, skipping file headers repeated where files were concatenated.
/// 1: a head (maybe short: *got bytes); 0: clean end; -1: a bad header (message written).
static int read_head(DataReader *r, unsigned char head[DATA_RECORD_BYTES], size_t *got, char *err,
                     size_t err_size) {
    for (;;) {
        read_exactly(r, head, DATA_RECORD_BYTES, got);
        if (*got == 0) return 0;
        /* No record starts with the magic: its first byte would be rule 84. */
        if (*got < 4 || memcmp(head, DATA_MAGIC, 4) != 0) return 1;
        unsigned char h[DATA_HEADER_BYTES];
        memcpy(h, head, *got);
        const size_t more = fread(h + *got, 1, DATA_HEADER_BYTES - *got, r->f);
        const char *fault = header_fault(h, *got + more);
        if (fault) {
            say(err, err_size, "%s: offset %lld: repeated file header: %s", r->name, r->offset,
                fault);
            return -1;
        }
        r->offset += DATA_HEADER_BYTES;
    }
}

int dataset_next(DataReader *r, DataGame *g, char *err, size_t err_size) {
    unsigned char head[DATA_RECORD_BYTES];
    size_t got;
    const int at = read_head(r, head, &got, err, err_size);
    if (at == 0 && ferror(r->f)) {
        say(err, err_size, "%s: offset %lld: read error", r->name, r->offset);
        return -1;
    }
    if (at <= 0) return at;
    const long long start = r->offset;
    if (got < DATA_RECORD_BYTES) {
        say(err, err_size, "%s: offset %lld: truncated record (%zu of %d head bytes)", r->name,
            start, got, DATA_RECORD_BYTES);
        return -1;
    }
    const char *fault = head_fault(head[0], head[1], head[2], head[3], (int)get16(head + 4));
    if (fault) {
        say(err, err_size,
            "%s: offset %lld: game %lld: %s (rule %u, size %ux%u, result %u, %u moves)", r->name,
            start, r->games + 1, fault, head[0], head[1], head[2], head[3], get16(head + 4));
        return -1;
    }
    g->rule = (Rule)head[0];
    g->width = head[1];
    g->height = head[2];
    g->result = head[3];
    g->count = (int)get16(head + 4);
    unsigned char body[DATA_MAX_MOVES * DATA_MOVE_BYTES];
    const size_t need = (size_t)g->count * DATA_MOVE_BYTES;
    if (!read_exactly(r, body, need, &got)) {
        say(err, err_size, "%s: offset %lld: game %lld: truncated record (%zu of %zu move bytes)",
            r->name, start, r->games + 1, got, need);
        return -1;
    }
    for (int i = 0; i < g->count; i++) {
        const unsigned char *m = body + (size_t)i * DATA_MOVE_BYTES;
        /* Off-board values stay recognisable: pos_make keeps x, y < 32 apart, and larger ones
         * are mapped to a point that is off every board. */
        const int x = m[0] < BOARD_MAX ? m[0] : BOARD_MAX, y = m[1] < BOARD_MAX ? m[1] : BOARD_MAX;
        g->moves[i] = pos_make(x, y);
        g->score[i] = (int16_t)(uint16_t)get16(m + 2);
    }
    int bad;
    fault = dataset_check(g, &bad);
    if (fault) {
        const unsigned char *m = body + (size_t)bad * DATA_MOVE_BYTES;
        say(err, err_size, "%s: offset %lld: game %lld, move %d (x %u, y %u, score %d): %s",
            r->name, start + DATA_RECORD_BYTES + (long long)bad * DATA_MOVE_BYTES, r->games + 1,
            bad + 1, m[0], m[1], g->score[bad], fault);
        return -1;
    }
    r->last = start;
    r->offset = start + DATA_RECORD_BYTES + (long long)need;
    r->games++;
    return 1;
}

/* ---- Writing ---- */

bool dataset_write(FILE *f, const DataGame *g) {
    if (dataset_check(g, NULL)) return false;
    unsigned char buf[DATA_HEADER_BYTES + DATA_RECORD_BYTES + DATA_MAX_MOVES * DATA_MOVE_BYTES];
    size_t n = 0;
    /* The header goes first in an empty file; where the position is unknown (a pipe) it goes
     * anyway, since readers skip a repeated one. */
    const long at = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (at <= 0) {
        memcpy(buf, DATA_MAGIC, 4);
        put32(buf + 4, DATA_VERSION);
        n = DATA_HEADER_BYTES;
    }
    buf[n++] = (unsigned char)g->rule;
    buf[n++] = (unsigned char)g->width;
    buf[n++] = (unsigned char)g->height;
    buf[n++] = (unsigned char)g->result;
    put16(buf + n, (unsigned)g->count);
    n += 2;
    for (int i = 0; i < g->count; i++) {
        buf[n++] = (unsigned char)pos_x(g->moves[i]);
        buf[n++] = (unsigned char)pos_y(g->moves[i]);
        put16(buf + n, (uint16_t)g->score[i]);
        n += 2;
    }
    return fwrite(buf, 1, n, f) == n && fflush(f) == 0;
}
