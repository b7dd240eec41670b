/*
 * feed.c — each game's feed of server-sent events (its readers are in stream.c).
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
