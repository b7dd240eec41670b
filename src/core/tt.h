/*
 * tt.h — the transposition table shared by the search threads. Lock-free: an entry is two
 * words, the key stored xor-ed with the data, so a torn write (two threads storing at once)
 * reads back as a miss instead of as another position's data.
 */
#ifndef TG_TT_H
#define TG_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

typedef enum Bound { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT } Bound;

typedef struct TtEntry {
    _Atomic uint64_t check; ///< key ^ data
    _Atomic uint64_t data;
} TtEntry;

enum {
    TT_WAYS = 4,     ///< entries in one cluster (one 64-byte cache line)
    DEPTH_UNIT = 16, ///< search depths are counted in 1/DEPTH_UNIT plies (fractional depth)
};

typedef struct TtCluster {
    TtEntry entry[TT_WAYS];
} TtCluster;

typedef struct Tt {
    void *raw; ///< the allocation; clusters is its first cache-line boundary
    TtCluster *clusters;
    size_t capacity;    ///< clusters allocated
    size_t mask;        ///< clusters in use - 1: all of them, or fewer for a short search
    uint8_t generation; ///< bumped per search, so old entries are replaced first
    size_t touched;     ///< clusters the searches since the table was made or cleared may have
                        ///< written: the first this many (tt_use keeps a search to a prefix)
} Tt;

/// What a probe found.
typedef struct TtHit {
    Pos move;
    int score; ///< as stored: the caller converts win scores (search.c)
    int depth; ///< in 1/DEPTH_UNIT plies
    Bound bound;
    bool pv; ///< stored by a node that was on the PV, or whose entry already said so
} TtHit;

/// Sets the table to at most `bytes` (a power of two of clusters, at least 1024 of them).
bool tt_resize(Tt *tt, size_t bytes);
void tt_free(Tt *tt);
/// Empties the table: only the part that searches have used since it was made or cleared, so
/// that the rest stays untouched (its pages not yet mapped in).
void tt_clear(Tt *tt);
/// The bytes allocated (what tt_resize was given, rounded down).
size_t tt_bytes(const Tt *tt);
/// Uses at most `bytes` of the allocation from now on (at least 1024 clusters), all of it for
/// 0. Allocates and frees nothing, so it may be called inside a timed turn. Entries outside the
/// part in use are not lost for correctness: a probe checks the whole key, so they only miss.
void tt_use(Tt *tt, size_t bytes);
/// Starts a search: ages the entries and marks the part in use touched. Every store comes after
/// it (single-threaded, before the search's threads start), so no store needs to mark anything.
void tt_new_search(Tt *tt);

bool tt_probe(const Tt *tt, uint64_t key, TtHit *hit);
/// Starts loading key's cluster into the cache, so that a probe made a little later (after
/// the node's scan) does not wait on memory.
void tt_prefetch(const Tt *tt, uint64_t key);
void tt_store(Tt *tt, uint64_t key, Pos move, int score, int depth, Bound bound, bool pv);

#endif
