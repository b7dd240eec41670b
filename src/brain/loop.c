/*
 * loop.c — the brain process: a reader thread and a search thread.
 *
 * The calling thread reads stdin. END, STOP and YXSTOP stop a search at once (the stop flag); END
 * while thinking quits at once, otherwise after the lines before it are answered; INFO during
 * a search is applied at once when nothing is queued ahead of it; every other line is queued for
 * the search thread, which runs brain_command() and, for a move, brain_think() with the lock
 * released. A STOP that arrives after a move command but before its search starts still stops
 * that search: each line has a sequence number, and a search whose command came before the last
 * STOP starts stopped. End of input: the queued commands are finished, then the process ends.
 */
#include "brain.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

enum { QUEUE_MAX = 1 << 16, SEARCH_STACK = 64 << 20 };

typedef struct Queued {
    char *text;
    int64_t ms;
    uint64_t seq;
} Queued;

typedef struct Loop {
    pthread_mutex_t lock; ///< the queue, the flags below, and the brain between commands
    pthread_cond_t wake;
    pthread_mutex_t out_lock;
    FILE *out;
    Brain *brain;
    Queued *queue;
    int head, count;
    bool eof;
    bool thinking;
    uint64_t stop_seq; ///< the last STOP's line number
    bool ending;       ///< END was read: read no more
    atomic_bool stop, quit;
} Loop;

static void loop_write(void *user, const char *line) {
    Loop *l = user;
    pthread_mutex_lock(&l->out_lock);
    if (!atomic_load(&l->quit)) { /* after END nothing more is printed */
        fputs(line, l->out);
        fputc('\n', l->out);
        fflush(l->out);
    }
    pthread_mutex_unlock(&l->out_lock);
}

/// Reads one line ending in LF, CR or CR LF; keeps at most size - 1 characters (the rest is
/// dropped, so an overlong line arrives cut to BRAIN_MAX_LINE + 1 characters). False at EOF.
static bool read_line(FILE *in, char *buf, size_t size) {
    size_t n = 0;
    int c;
    bool any = false;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n' || c == '\r') break;
        if (n + 1 < size) buf[n++] = c ? (char)c : '?';
    }
    buf[n] = '\0';
    return c != EOF || any;
}

static bool push(Loop *l, const char *text, int64_t ms, uint64_t seq) {
    if (l->count >= QUEUE_MAX) return false;
    char *copy = malloc(strlen(text) + 1);
    if (!copy) return false;
    strcpy(copy, text);
    l->queue[(l->head + l->count++) % QUEUE_MAX] = (Queued){copy, ms, seq};
    pthread_cond_signal(&l->wake);
    return true;
}

static void *search_main(void *arg) {
    Loop *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (l->count == 0 && !l->eof && !atomic_load(&l->quit))
            pthread_cond_wait(&l->wake, &l->lock);
        if (atomic_load(&l->quit)) break;
        if (l->count == 0) { /* end of input and nothing left to do */
            brain_eof(l->brain);
            break;
        }
        Queued q = l->queue[l->head];
        l->head = (l->head + 1) % QUEUE_MAX;
        l->count--;
        /* The lock is let go while the command runs (a new table, a rule's first tables), so
         * that the reader stamps the lines behind it when they arrive: a turn's time counts
         * from then, as the manager's clock does. */
        pthread_mutex_unlock(&l->lock);
        const BrainStatus st = brain_command(l->brain, q.text, q.ms);
        pthread_mutex_lock(&l->lock);
        free(q.text);
        if (st == BRAIN_QUIT) {
            atomic_store(&l->quit, true);
            break;
        }
        if (st != BRAIN_THINK) continue;
        l->thinking = true;
        atomic_store(&l->stop, l->stop_seq > q.seq);
        pthread_mutex_unlock(&l->lock);
        brain_think(l->brain, &l->stop);
        pthread_mutex_lock(&l->lock);
        l->thinking = false;
        brain_settle(l->brain);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/// Hands one input line to the search thread, or acts on it at once.
static void reader_line(Loop *l, const char *line, uint64_t seq) {
    const int64_t ms = tg_now_ms();
    char word[16];
    brain_keyword(line, word, sizeof word);
    if (!word[0]) return;
    pthread_mutex_lock(&l->lock);
    if (!strcmp(word, "END")) {
        /* While thinking: stop and quit at once. Otherwise answer what came before END
         * first (scripts pipe whole sessions in), then quit. */
        l->ending = true;
        if (l->thinking || !push(l, line, ms, seq)) { /* mid-game: quit now, silently */
            atomic_store(&l->stop, true);
            atomic_store(&l->quit, true);
            pthread_cond_signal(&l->wake);
        }
    } else if (!strcmp(word, "STOP") || !strcmp(word, "YXSTOP")) {
        l->stop_seq = seq;
        if (l->thinking) atomic_store(&l->stop, true);
    } else if (l->thinking && l->count == 0 && !strcmp(word, "INFO")) {
        brain_command(l->brain, line, ms);
    } else if (!push(l, line, ms, seq)) {
        pthread_mutex_unlock(&l->lock);
        loop_write(l, "ERROR too many commands waiting; line dropped");
        return;
    }
    pthread_mutex_unlock(&l->lock);
}

int brain_run(FILE *in, FILE *out) {
    Loop *l = calloc(1, sizeof *l);
    char *line = malloc(BRAIN_MAX_LINE + 2);
    if (l) l->queue = malloc(sizeof(Queued) * QUEUE_MAX);
    if (!l || !line || !l->queue) {
        fputs("ERROR out of memory\n", out);
        return 1;
    }
#ifdef _WIN32
    /* Text mode would hold a lone CR back until the next character comes: read raw bytes. */
    _setmode(_fileno(in), _O_BINARY);
#endif
    pthread_mutex_init(&l->lock, NULL);
    pthread_mutex_init(&l->out_lock, NULL);
    pthread_cond_init(&l->wake, NULL);
    l->out = out;
    const BrainConfig config = {.write = loop_write, .user = l};
    l->brain = brain_new(&config);
    pthread_t searcher;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SEARCH_STACK);
    if (!l->brain || pthread_create(&searcher, &attr, search_main, l) != 0) {
        fputs("ERROR cannot start the brain\n", out);
        return 1;
    }
    pthread_attr_destroy(&attr);
    uint64_t seq = 0;
    while (!l->ending && !atomic_load(&l->quit) && read_line(in, line, BRAIN_MAX_LINE + 2))
        reader_line(l, line, ++seq);
    pthread_mutex_lock(&l->lock);
    l->eof = true;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    pthread_join(searcher, NULL);
    while (l->count > 0) {
        free(l->queue[l->head].text);
        l->head = (l->head + 1) % QUEUE_MAX;
        l->count--;
    }
    brain_free(l->brain);
    pthread_mutex_destroy(&l->lock);
    pthread_mutex_destroy(&l->out_lock);
    pthread_cond_destroy(&l->wake);
    free(l->queue);
    free(l);
    free(line);
    return 0;
}
