/*
 * data.h — where the unit tests find their data sets: $TG_DATA, by default the repository's
 * data/ folder (the tests run from the repository root). A missing file fails the test that
 * needs it: a suite that skips its data proves nothing.
 */
#ifndef TG_TEST_DATA_H
#define TG_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

/// The data folder: $TG_DATA when set and not empty, else "data".
static inline const char *test_data_dir(void) {
    const char *dir = getenv("TG_DATA");
    return dir && *dir ? dir : "data";
}

/// Writes the path of the data file `name` to `path`.
static inline const char *test_data_path(const char *name, char *path, size_t size) {
    snprintf(path, size, "%s/%s", test_data_dir(), name);
    return path;
}

/// Opens the data file `name` for reading; fails the calling cmocka test when it is missing.
static inline FILE *test_data_open(const char *name) {
    char path[1024];
    FILE *f = fopen(test_data_path(name, path, sizeof path), "r");
    if (!f) fail_msg("cannot open %s (the data/ folder, or set TG_DATA)", path);
    return f;
}

#endif
