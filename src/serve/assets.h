/*
 * assets.h — the web page's files, compiled into the program from web/ by
 * scripts/embed_assets.sh (the table lives in the generated BUILD/gen/web_assets.c).
 */
#ifndef TG_SERVE_ASSETS_H
#define TG_SERVE_ASSETS_H

#include <stddef.h>

typedef struct ServeAsset {
    const char *path; ///< "/index.html", "/app.js", ...
    const char *type; ///< its Content-Type
    const unsigned char *data;
    size_t size;
    const char *etag;        ///< "\"<hex>\"", from the bytes: a revisit gets 304 Not Modified
    const unsigned char *gz; ///< the bytes gzip-compressed (text only), or NULL
    size_t gz_size;
} ServeAsset;

extern const ServeAsset SERVE_ASSETS[];
extern const int SERVE_ASSET_COUNT;

#endif
