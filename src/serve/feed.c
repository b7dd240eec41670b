/*
 * feed.c — each game's feed of server-sent events, and the readers of it.
 *
 * A feed is a ring of the last FEED_SIZE events, numbered from 0. A reader keeps the number
 * of the next event it wants; one that falls more than a ring behind skips ahead, which loses
 * nothing that matters because every `game` event holds the whole game.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve.h"

enum {
    KEEP_ALIVE_MS = 15000, ///< a comment this often keeps proxies from closing the stream
    WAIT_SLICE_MS = 500,   ///< how often a waiting reader looks whether the server stops
};

void feed_init(Feed *f) {
    memset(f, 0, sizeof *f);
    pthread_mutex_init(&f->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&f->cond, &attr);
    pthread_condattr_destroy(&attr);
}

void feed_free(Feed *f) {
    for (int i = 0; i < FEED_SIZE; i++) free(f->text[i]);
    pthread_cond_destroy(&f->cond);
    pthread_mutex_destroy(&f->lock);
}

void feed_push(Feed *f, const char *name, const char *data) {
    const size_t n = strlen(name) + strlen(data) + 32;
    char *text = malloc(n);
    if (!text) return;
    const int len = snprintf(text, n, "event: %s\ndata: %s\n\n", name, data);
    pthread_mutex_lock(&f->lock);
    const int slot = (int)(f->next_seq % FEED_SIZE);
    free(f->text[slot]);
    f->text[slot] = text;
    f->len[slot] = (size_t)len;
    f->next_seq++;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
}

uint64_t feed_cursor(Feed *f) {
    pthread_mutex_lock(&f->lock);
    const uint64_t c = f->next_seq;
    pthread_mutex_unlock(&f->lock);
    return c;
}

static struct timespec deadline_after(int ms) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    return ts;
}

bool feed_next(Feed *f, uint64_t *cursor, int wait_ms, char **text, size_t *len) {
    const struct timespec until = deadline_after(wait_ms);
    pthread_mutex_lock(&f->lock);
    int rc = 0;
    while (*cursor >= f->next_seq && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&f->cond, &f->lock, &until);
    bool got = false;
    if (*cursor < f->next_seq) {
        if (f->next_seq - *cursor > FEED_SIZE) *cursor = f->next_seq - FEED_SIZE;
        const int slot = (int)(*cursor % FEED_SIZE);
        *text = malloc(f->len[slot] + 1);
        if (*text) {
            memcpy(*text, f->text[slot], f->len[slot] + 1);
            *len = f->len[slot];
            got = true;
        }
        (*cursor)++;
    }
    pthread_mutex_unlock(&f->lock);
    return got;
}

/* ---- Readers ---- */

struct Stream {
    Server *server;
    LiveGame *g; ///< a reference held
    uint64_t cursor;
    char *pending; ///< an event (or comment) not yet written out in full
    size_t len, off;
};

Stream *stream_open(Server *s, LiveGame *g) {
    Stream *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->server = s;
    st->g = g;
    atomic_fetch_add(&g->refs, 1);
    /* The first event is the game as it is; the cursor is taken under the same lock, so no
     * change falls between the two. */
    pthread_mutex_lock(&g->lock);
    json_t *j = game_json(g);
    char *data = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    st->cursor = feed_cursor(&g->feed);
    pthread_mutex_unlock(&g->lock);
    if (data) {
        const size_t n = strlen(data) + 32;
        st->pending = malloc(n);
        if (st->pending)
            st->len = (size_t)snprintf(st->pending, n, "event: game\ndata: %s\n\n", data);
        free(data);
    }
    return st;
}

static bool stopping(const Stream *st) { return atomic_load(&st->server->quit); }

/// Waits for the next event, or a keep-alive comment when none comes in time.
static bool next_chunk(Stream *st) {
    int waited = 0;
    while (!stopping(st)) {
        char *text;
        size_t len;
        if (feed_next(&st->g->feed, &st->cursor, WAIT_SLICE_MS, &text, &len)) {
            st->pending = text, st->len = len, st->off = 0;
            return true;
        }
        waited += WAIT_SLICE_MS;
        if (waited >= KEEP_ALIVE_MS) {
            st->pending = strdup(": keep-alive\n\n");
            st->len = st->pending ? strlen(st->pending) : 0, st->off = 0;
            return st->pending != NULL;
        }
    }
    return false;
}

size_t stream_read(Stream *st, char *buf, size_t max) {
    if (!st->pending && !next_chunk(st)) return 0;
    size_t n = st->len - st->off;
    if (n > max) n = max;
    memcpy(buf, st->pending + st->off, n);
    st->off += n;
    if (st->off == st->len) {
        free(st->pending);
        st->pending = NULL;
        st->len = st->off = 0;
    }
    return n;
}

void stream_close(Stream *st) {
    if (!st) return;
    free(st->pending);
    registry_release(st->g);
    free(st);
}
