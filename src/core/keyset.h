/*
 * keyset.h — a set of 64-bit keys (open addressing), for the data tools that must meet a
 * position or an opening only once.
 */
#ifndef TENGEN_KEYSET_H
#define TENGEN_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// 0 marks an empty slot, so a key of 0 must be mapped to another value by the caller.
typedef struct KeySet {
    uint64_t *slot;
    size_t cap, count; ///< cap: a power of two, or 0
} KeySet;

/// Adds a key (not 0); false when it was there already. Out of memory, every key counts as new.
bool keyset_add(KeySet *s, uint64_t key);
void keyset_free(KeySet *s);

#endif
