/*
 * zobrist.h — fixed-seed Zobrist keys, built once per process and never changed.
 */
#ifndef TG_ZOBRIST_H
#define TG_ZOBRIST_H

#include "types.h"

typedef struct Zobrist {
    uint64_t stone[2][BOARD_CELLS]; ///< [colour][pos]
    uint64_t side;                  ///< xor-ed in at every ply, so the side to move is hashed
} Zobrist;

/// The shared immutable table (built on first use, thread-safe).
const Zobrist *zobrist(void);

/// splitmix64: the project's one small deterministic generator (tables, benches, tests).
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
