/*
 * zobrist.c — the Zobrist table. Keys come from a fixed seed so hashes (and everything keyed on
 * them, like bench signatures) are the same on every run and compiler.
 */
#include "zobrist.h"

#include <pthread.h>

static Zobrist table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    uint64_t state = 0x74656E67656E0001ull; /* "tengen" */
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < BOARD_CELLS; p++) table.stone[c][p] = splitmix64(&state);
    table.side = splitmix64(&state);
}

const Zobrist *zobrist(void) {
    pthread_once(&table_once, build_table);
    return &table;
}
