/*
 * bench.c — make+undo throughput. Seeded random games: at each step a few random moves are made
 * and undone (the probes a search would make), then one is played for real; the game restarts
 * when three quarters of the board is full. The checksum folds in the hash and a line key after
 * every make, so the same seed gives the same checksum on every run and compiler.
 */
#include "board.h"
#include "zobrist.h"

enum { PROBES_PER_STEP = 8 };

typedef struct EmptyList {
    Pos cell[BOARD_CELLS];
    int count;
} EmptyList;

static void empties_init(EmptyList *e, const Board *b) {
    e->count = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) e->cell[e->count++] = pos_make(x, y);
}

TgMoveBench tg_bench_moves(TgRule rule, int size, uint64_t operations, uint64_t seed) {
    TgMoveBench r = {0, 0};
    Board b;
    EmptyList empty;
    uint64_t rng = seed;
    board_init(&b, rule, size, size);
    empties_init(&empty, &b);
    const int fill = size * size * 3 / 4;
    while (r.operations < operations) {
        for (int k = 0; k < PROBES_PER_STEP; k++) {
            Pos p = empty.cell[splitmix64(&rng) % (uint64_t)empty.count];
            board_play(&b, p);
            r.checksum += b.hash ^ b.key[p][k & 3];
            board_undo(&b);
            r.operations++;
        }
        int i = (int)(splitmix64(&rng) % (uint64_t)empty.count);
        board_play(&b, empty.cell[i]);
        empty.cell[i] = empty.cell[--empty.count];
        if (b.stone_count >= fill) {
            board_init(&b, rule, size, size);
            empties_init(&empty, &b);
        }
    }
    return r;
}
