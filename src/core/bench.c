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

/* ---- Search bench positions ---- */

/// Openings and middle games under each rule; depths chosen so the whole bench takes a few
/// seconds. Changing this table changes the bench signature (the `Bench:` line of commits).
static const TgBenchPosition BENCH_POSITIONS[] = {
    {"freestyle-opening", TG_FREESTYLE, 15, "h8 i9 i8 g8 j7", 8},
    {"freestyle-middle", TG_FREESTYLE, 15, "h8 i9 j10 i8 i10 h10 j8 g11 j9 j11 k9 g9", 9},
    {"freestyle-attack", TG_FREESTYLE, 15, "h8 h9 i9 g7 j10 k11 i10 i11 j11", 8},
    {"freestyle-20", TG_FREESTYLE, 20, "k10 l11 l10 j10 m9 n8 k9 k11", 9},
    {"freestyle-20-edge", TG_FREESTYLE, 20, "b2 c3 c2 d2 b4 b3 a3 d4 e5", 8},
    {"standard-opening", TG_STANDARD, 15, "h8 i7 h6 g7 i8 g9", 9},
    {"standard-middle", TG_STANDARD, 15, "h8 h9 g9 i7 f10 e11 g8 g10 f8 e8 f9", 9},
    {"renju-sun", TG_RENJU, 15, "h8 h9 j10", 8},
    {"renju-middle", TG_RENJU, 15, "h8 i9 i8 g8 j7 j9 h9 k6 h7 h6 g6 i7", 7},
    {"renju-white", TG_RENJU, 15, "h8 i9 j8 g8 i7 h6 j7", 7},
};

int tg_bench_position_count(void) {
    return (int)(sizeof BENCH_POSITIONS / sizeof BENCH_POSITIONS[0]);
}

const TgBenchPosition *tg_bench_position(int index) {
    return index >= 0 && index < tg_bench_position_count() ? &BENCH_POSITIONS[index] : NULL;
}
