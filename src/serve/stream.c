/*
 * stream.c — the readers of a game's feed: an HTTP event stream that starts with the whole game
 * and then passes on each event, with a keep-alive comment when none comes for a while.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

enum {
    KEEP_ALIVE_MS = 15000, ///< a comment this often keeps proxies from closing the stream
    WAIT_SLICE_MS = 500,   ///< how often a waiting reader looks whether the server stops
};

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
