/*
 * fuzz_protocol.c — libFuzzer target for the brain protocol (src/brain/protocol.c). The input is a
 * session: lines split at LF or CR, each fed to brain_feed() as pbrain-tengen's search thread
 * would (searches capped at a thousand nodes and a 1 ms turn, a 1 MiB table and two threads, so any
 * command sequence runs quickly). Every output line must be one non-empty line of printable
 * ASCII; nothing may crash, leak or hang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/brain/brain.h"

enum { MAX_SEARCHES = 6 };

static void check_line(void *user, const char *line) {
    (void)user;
    size_t n = strlen(line);
    if (n == 0 || n >= 8192) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] > 0x7e) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const BrainConfig config = {.write = check_line,
                                .node_cap = 1000,
                                .hash_cap = 1 << 20,
                                .thread_cap = 2,
                                .default_turn_ms = 1};
    Brain *b = brain_new(&config);
    if (!b) return 0;
    char *line = malloc(size + 1);
    if (!line) {
        brain_free(b);
        return 0;
    }
    size_t at = 0;
    int searches = 0;
    while (at < size) {
        size_t n = 0;
        while (at < size && data[at] != '\n' && data[at] != '\r') {
            line[n++] = data[at] ? (char)data[at] : '?';
            at++;
        }
        at++; /* the line end */
        line[n] = '\0';
        /* Bound the work: after MAX_SEARCHES searches, only non-search lines go on. */
        if (brain_command(b, line, tg_now_ms()) == BRAIN_THINK) {
            if (++searches > MAX_SEARCHES) {
                atomic_bool stop = true;
                brain_think(b, &stop);
            } else {
                brain_think(b, NULL);
            }
            brain_settle(b);
        }
    }
    brain_eof(b);
    free(line);
    brain_free(b);
    return 0;
}
