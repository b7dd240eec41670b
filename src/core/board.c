/*
 * board.c — play, undo and the incremental state. Invariant after every call: cell[] holds the
 * stones of moves[0..ply), hash is the xor of their Zobrist keys (plus the side key per ply),
 * and key[][] matches cell[] for every on-board cell (see board.h), as do pattern[][] (the
 * rule's line table at key[][]) and threat[][] (its threat table at the four patterns).
 */
#include "board.h"

#include <string.h>

#include "line.h"
#include "pattern.h"
#include "weights.h"
#include "zobrist.h"

bool board_contains(const Board *b, int x, int y) {
    return x >= 0 && y >= 0 && x < b->width && y < b->height;
}

/// Recomputes key[q][d] from cell[] (used at init and by the self-check).
static uint32_t key_from_cells(const Board *b, Pos q, int d) {
    uint32_t key = 0;
    for (int k = -LINE_HALF; k <= LINE_HALF; k++) {
        if (k == 0) continue;
        int n = q + k * DIR[d];
        Color c = (n >= 0 && n < BOARD_CELLS) ? (Color)b->cell[n] : WALL;
        key |= (uint32_t)c << (2 * key_slot(k));
    }
    return key;
}

/// Re-derives the pattern of q along d from its key, then q's kinds and threats (empty cells
/// only: a stone's patterns are stale until it is lifted). Only the line table is large; the
/// rest stays in L1.
static inline void refresh_cell(Board *b, Pos q, int d) {
    if (b->cell[q] != EMPTY) return;
    const PatternTables *t = b->tables;
    const uint8_t packed = t->line[b->key[q][d]];
    const int shift = KIND_BITS * d;
    const uint32_t kinds = (b->kinds[q] & ~((uint32_t)KIND_MASK << shift)) | t->kinds[packed]
                                                                                 << shift;
    b->pattern[q][d] = packed;
    b->kinds[q] = kinds;
    b->threat[q][BLACK] = pattern_threat_of(t, kinds, BLACK);
    b->threat[q][WHITE] = pattern_threat_of(t, kinds, WHITE);
}

void board_init(Board *b, Rule rule, int width, int height) {
    b->width = width;
    b->height = height;
    b->rule = rule;
    b->ply = 0;
    b->stone_count = 0;
    b->hash = 0;
    memset(b->cell, WALL, sizeof b->cell);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) b->cell[pos_make(x, y)] = EMPTY;
    memset(b->key, 0, sizeof b->key);
    b->tables = pattern_tables(rule);
    b->weights = weights_builtin(rule);
    memset(b->pattern, 0, sizeof b->pattern);
    memset(b->kinds, 0, sizeof b->kinds);
    memset(b->threat, 0, sizeof b->threat);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            for (int d = 0; d < 4; d++) {
                b->key[pos_make(x, y)][d] = key_from_cells(b, pos_make(x, y), d);
                refresh_cell(b, pos_make(x, y), d);
            }
        }
    }
}

/// Flips the 2-bit code of p in the keys of its neighbours: EMPTY <-> c is an xor by EMPTY ^ c.
/// Each neighbour lies on one line through p, so one of its patterns changes.
static void update_keys(Board *b, Pos p, Color c) {
    const uint32_t flip = (uint32_t)(EMPTY ^ c);
    for (int d = 0; d < 4; d++) {
        for (int k = 1; k <= LINE_HALF; k++) {
            /* p is at offset -k from p + k*DIR and at offset +k from p - k*DIR. */
            const Pos after = (Pos)(p + k * DIR[d]), before = (Pos)(p - k * DIR[d]);
            b->key[after][d] ^= flip << (2 * key_slot(-k));
            b->key[before][d] ^= flip << (2 * key_slot(k));
            refresh_cell(b, after, d);
            refresh_cell(b, before, d);
        }
    }
}

void board_put(Board *b, Pos p, Color c) {
    b->cell[p] = (uint8_t)c;
    b->hash ^= zobrist()->stone[c][p];
    b->stone_count++;
    update_keys(b, p, c);
}

void board_lift(Board *b, Pos p) {
    Color c = (Color)b->cell[p];
    update_keys(b, p, c);
    b->stone_count--;
    b->hash ^= zobrist()->stone[c][p];
    b->cell[p] = EMPTY;
    for (int d = 0; d < 4; d++) refresh_cell(b, p, d); /* its keys were kept; now its patterns */
}

void board_play(Board *b, Pos p) {
    if (p != POS_PASS) board_put(b, p, board_to_move(b));
    b->hash ^= zobrist()->side;
    b->moves[b->ply++] = p;
}

void board_undo(Board *b) {
    Pos p = b->moves[--b->ply];
    b->hash ^= zobrist()->side;
    if (p != POS_PASS) board_lift(b, p);
}

bool board_is_consistent(const Board *b) {
    const Zobrist *z = zobrist();
    uint64_t hash = (b->ply & 1) ? z->side : 0;
    int stones = 0;
    for (int y = 0; y < b->height; y++) {
        for (int x = 0; x < b->width; x++) {
            Pos p = pos_make(x, y);
            if (b->cell[p] == BLACK || b->cell[p] == WHITE) {
                hash ^= z->stone[b->cell[p]][p];
                stones++;
            }
            for (int d = 0; d < 4; d++) {
                if (b->key[p][d] != key_from_cells(b, p, d)) return false;
                if (b->cell[p] == EMPTY && b->pattern[p][d] != b->tables->line[b->key[p][d]])
                    return false;
            }
            if (b->cell[p] != EMPTY) continue; /* a stone's patterns are not kept */
            const uint32_t kinds = pattern_kind_word(b->tables, b->pattern[p]);
            if (b->kinds[p] != kinds) return false;
            for (int c = BLACK; c <= WHITE; c++)
                if (b->threat[p][c] != pattern_threat_of(b->tables, kinds, (Color)c)) return false;
        }
    }
    /* Stones must be exactly those of the move stack, each the colour of its ply. */
    int placed = 0;
    for (int i = 0; i < b->ply; i++) {
        Pos m = b->moves[i];
        if (m == POS_PASS) continue;
        if (b->cell[m] != (uint8_t)(i & 1)) return false;
        placed++;
    }
    return hash == b->hash && stones == b->stone_count && stones == placed;
}
