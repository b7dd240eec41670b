/*
 * embedded.h — the files compiled into libtengen by scripts/embed_data.sh (build/gen/embedded.c):
 * the zero level's networks (models/) and the evaluation's weight tables (weights/). Each
 * file's bytes are followed by a NUL, so a text file can be read as a string.
 */
#ifndef TG_EMBEDDED_H
#define TG_EMBEDDED_H

#include <stddef.h>

typedef struct EmbeddedFile {
    const char *name; ///< the file name, without its folder
    const unsigned char *data;
    size_t len;
} EmbeddedFile;

extern const EmbeddedFile TG_EMBEDDED_MODELS[]; ///< models/*.tgnn, then {NULL, NULL, 0}
extern const int TG_EMBEDDED_MODELS_COUNT;
extern const EmbeddedFile TG_EMBEDDED_WEIGHTS[]; ///< weights/*.txt, then {NULL, NULL, 0}
extern const int TG_EMBEDDED_WEIGHTS_COUNT;

#endif
