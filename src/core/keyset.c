/*
 * keyset.c — the set of keys: linear probing in a table kept at most half full.
 */
#include "keyset.h"

#include <stdlib.h>

static bool keyset_grow(KeySet *s) {
    const size_t cap = s->cap ? 2 * s->cap : 1024;
    uint64_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slot[i]) continue;
        size_t j = s->slot[i] & (cap - 1);
        while (slot[j]) j = (j + 1) & (cap - 1);
        slot[j] = s->slot[i];
    }
    free(s->slot);
    s->slot = slot, s->cap = cap;
    return true;
}

bool keyset_add(KeySet *s, uint64_t key) {
    if (2 * (s->count + 1) > s->cap && !keyset_grow(s)) return true;
    size_t j = key & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == key) return false;
    s->slot[j] = key;
    s->count++;
    return true;
}

void keyset_free(KeySet *s) {
    free(s->slot);
    *s = (KeySet){0};
}
