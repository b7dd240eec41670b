/*
 * fuzz_dataset.c — libFuzzer target for the training data reader (src/core/dataset.c). Any
 * bytes must give games or a message, never a fault. Every game read must pass the checks
 * the writer makes; the games read are written again and must read back the same, and a
 * refused file's message must name the offset of the fault.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/dataset.h"

enum { MAX_GAMES = 64 };

static void fail(const char *what, const char *err) {
    fprintf(stderr, "fuzz_dataset: %s: %s\n", what, err);
    abort();
}

static bool same_game(const DataGame *a, const DataGame *b) {
    if (a->rule != b->rule || a->width != b->width || a->height != b->height ||
        a->result != b->result || a->count != b->count)
        return false;
    for (int i = 0; i < a->count; i++)
        if (a->moves[i] != b->moves[i] || a->score[i] != b->score[i]) return false;
    return true;
}

/// Writes the games to a scratch stream and reads them back.
static void round_trip(const DataGame *games, int n) {
    if (n == 0) return;
    FILE *f = tmpfile();
    if (!f) return;
    for (int i = 0; i < n; i++)
        if (!dataset_write(f, &games[i])) fail("a game read could not be written", "");
    rewind(f);
    char err[256] = "";
    DataReader *r = dataset_open_stream(f, "copy", err, sizeof err);
    if (!r) fail("the copy was refused", err);
    DataGame *g = malloc(sizeof *g);
    for (int i = 0; i < n; i++)
        if (dataset_next(r, g, err, sizeof err) != 1 || !same_game(g, &games[i]))
            fail("the copy differs", err);
    if (dataset_next(r, g, err, sizeof err) != 0) fail("the copy has more", err);
    free(g);
    dataset_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0; // fmemopen wants a buffer
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f) return 0;
    char err[256] = "";
    DataReader *r = dataset_open_stream(f, "fuzz", err, sizeof err);
    if (!r) {
        if (!err[0]) fail("refused without a message", "");
        return 0;
    }
    DataGame *games = malloc(sizeof *games * MAX_GAMES);
    int n = 0, got;
    while (n < MAX_GAMES && (got = dataset_next(r, &games[n], err, sizeof err)) == 1) {
        if (dataset_check(&games[n], NULL)) fail("an unsound game was accepted", "");
        n++;
    }
    if (n < MAX_GAMES && got < 0 && !strstr(err, "offset ")) fail("a message without offset", err);
    dataset_close(r);
    round_trip(games, n);
    free(games);
    return 0;
}
