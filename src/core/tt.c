/*
 * tt.c — the transposition table. Data word layout (low to high): move 16 bits, score 16 bits
 * (signed), depth 16 bits (signed, in 1/DEPTH_UNIT plies, so qsearch depths fit), bound 2
 * bits, generation 6 bits, the PV flag 1 bit.
 * Replacement: the same position, else an empty way, else the way whose depth minus age is
 * lowest.
 */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

enum { MIN_CLUSTERS = 1024, GENERATION_MASK = 63 };

static uint64_t pack(Pos move, int score, int depth, Bound bound, bool pv, uint8_t generation) {
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 |
           (uint64_t)(uint16_t)(int16_t)depth << 32 | (uint64_t)bound << 48 |
           (uint64_t)(generation & GENERATION_MASK) << 50 | (uint64_t)pv << 56;
}

static TtHit unpack(uint64_t data) {
    return (TtHit){.move = (Pos)(data & 0xffff),
                   .score = (int16_t)(uint16_t)(data >> 16),
                   .depth = (int16_t)(uint16_t)(data >> 32),
                   .bound = (Bound)(data >> 48 & 3),
                   .pv = data >> 56 & 1};
}

static uint8_t generation_of(uint64_t data) { return (uint8_t)(data >> 50 & GENERATION_MASK); }

/// The most clusters, a power of two, that fit in `bytes` (at least MIN_CLUSTERS).
static size_t clusters_in(size_t bytes) {
    size_t clusters = MIN_CLUSTERS;
    while (clusters * 2 * sizeof(TtCluster) <= bytes) clusters *= 2;
    return clusters;
}

bool tt_resize(Tt *tt, size_t bytes) {
    const size_t clusters = clusters_in(bytes);
    /* Aligned by hand (one cache line a cluster): aligned_alloc is missing on some C
     * runtimes the brain is built for. Zeroed by calloc, which for a large table maps fresh
     * zero pages: resizing costs nothing now, and each page is touched by the search that
     * uses it (a memset of gigabytes here once made the brain's first move seconds late). */
    void *raw = calloc(1, clusters * sizeof(TtCluster) + sizeof(TtCluster) - 1);
    if (!raw) return false;
    free(tt->raw);
    tt->raw = raw;
    tt->clusters = (TtCluster *)(((uintptr_t)raw + sizeof(TtCluster) - 1) &
                                 ~(uintptr_t)(sizeof(TtCluster) - 1));
    tt->capacity = clusters;
    tt->mask = clusters - 1;
    tt->generation = 0;
    tt->touched = 0;
    return true;
}

void tt_free(Tt *tt) {
    free(tt->raw);
    tt->raw = NULL;
    tt->clusters = NULL;
    tt->capacity = tt->mask = 0;
}

/* The part no search has used is still calloc's fresh zero pages: clearing it would only map
 * them in (256 MiB at a brain's START under Gomocup's max_memory, where a 0.5 s turn uses 32),
 * and make freeing the table later cost more. */
void tt_clear(Tt *tt) {
    memset(tt->clusters, 0, tt->touched * sizeof(TtCluster));
    tt->touched = 0;
}

size_t tt_bytes(const Tt *tt) { return tt->capacity * sizeof(TtCluster); }

void tt_use(Tt *tt, size_t bytes) {
    const size_t clusters = bytes ? clusters_in(bytes) : tt->capacity;
    tt->mask = (clusters < tt->capacity ? clusters : tt->capacity) - 1;
}

void tt_new_search(Tt *tt) {
    tt->generation = (uint8_t)((tt->generation + 1) & GENERATION_MASK);
    if (tt->touched < tt->mask + 1) tt->touched = tt->mask + 1;
}

static TtCluster *cluster_of(const Tt *tt, uint64_t key) { return &tt->clusters[key & tt->mask]; }

void tt_prefetch(const Tt *tt, uint64_t key) { __builtin_prefetch(cluster_of(tt, key)); }

bool tt_probe(const Tt *tt, uint64_t key, TtHit *hit) {
    TtCluster *c = cluster_of(tt, key);
    for (int i = 0; i < TT_WAYS; i++) {
        const uint64_t data = atomic_load_explicit(&c->entry[i].data, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&c->entry[i].check, memory_order_relaxed);
        if ((check ^ data) == key && data) {
            *hit = unpack(data);
            return true;
        }
    }
    return false;
}

/// Higher is more worth keeping: deep entries of the current search.
static int keep_value(const Tt *tt, uint64_t data) {
    const int age = (tt->generation - generation_of(data)) & GENERATION_MASK;
    return unpack(data).depth - 4 * DEPTH_UNIT * age;
}

void tt_store(Tt *tt, uint64_t key, Pos move, int score, int depth, Bound bound, bool pv) {
    TtCluster *c = cluster_of(tt, key);
    TtEntry *victim = &c->entry[0];
    int victim_value = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        TtEntry *e = &c->entry[i];
        const uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if (!data || (check ^ data) == key) {
            /* Keep the old best move when the new result has none. */
            if (data && move == POS_NONE) move = unpack(data).move;
            victim = e;
            break;
        }
        const int value = keep_value(tt, data);
        if (value < victim_value) victim = e, victim_value = value;
    }
    const uint64_t data = pack(move, score, depth, bound, pv, tt->generation);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}
