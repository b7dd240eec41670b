/*
 * fuzz_api.c — libFuzzer target for the JSON API of `tengen serve`, without HTTP: a fresh
 * server per input (an in-memory archive, no engine workers, so searches queue but never run)
 * gets up to 16 requests. The input is requests separated by NUL bytes, each:
 *
 *     byte 0          bits 0-1: GET, POST, PUT, DELETE; bit 2: send the last seat token
 *     PATH\n          '@' stands for the id of the last game made; '?' starts the query
 *     BODY            the rest
 *
 * Every answer must be a known status; JSON answers must parse, errors must carry "error" and
 * "code", and nothing may fail inside (500).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../src/serve/serve.h"

enum { MAX_REQUESTS = 16, PATH_MAX_LEN = 300 };

static const char *const METHODS[4] = {"GET", "POST", "PUT", "DELETE"};

typedef struct Session {
    char id[SERVE_ID_LEN + 1];
    char token[SERVE_TOKEN_LEN + 1];
} Session;

static void fail(const char *what, const ApiResponse *r) {
    fprintf(stderr, "fuzz_api: %s: status %d body %.*s\n", what, r->status, (int)r->len,
            r->body ? r->body : "");
    abort();
}

static bool known_status(int s) {
    static const int OK[] = {200, 201, 202, 400, 403, 404, 405, 409, 413, 415, 503};
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++)
        if (OK[i] == s) return true;
    return false;
}

/// Checks the answer and remembers a new game's id and seat token.
static void check(const ApiResponse *r, Session *s) {
    if (!known_status(r->status)) fail("unexpected status", r);
    if (!r->body) fail("no body", r);
    if (strcmp(r->type, "application/json") != 0) return; /* a record download */
    json_t *j = json_loadb(r->body, r->len, 0, NULL);
    if (!json_is_object(j)) fail("not a JSON object", r);
    if (r->status >= 400 && (!json_is_string(json_object_get(j, "error")) ||
                             !json_is_string(json_object_get(j, "code"))))
        fail("an error without error and code", r);
    json_t *game = json_object_get(j, "game") ? json_object_get(j, "game") : j;
    const char *id = json_string_value(json_object_get(game, "id"));
    const char *token = json_string_value(json_object_get(json_object_get(j, "you"), "token"));
    if (id && r->status == 201) snprintf(s->id, sizeof s->id, "%s", id);
    if (token) snprintf(s->token, sizeof s->token, "%s", token);
    json_decref(j);
}

/// Builds the path: '@' becomes the last game's id.
static void make_path(const char *raw, size_t n, const Session *s, char *path, size_t size) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + SERVE_ID_LEN + 1 < size; i++) {
        if (raw[i] == '@') {
            memcpy(path + k, s->id, strlen(s->id));
            k += strlen(s->id);
        } else {
            path[k++] = raw[i];
        }
    }
    path[k] = '\0';
}

static void one_request(Server *srv, const uint8_t *data, size_t size, Session *s) {
    if (size == 0) return;
    const char *text = (const char *)data + 1;
    const size_t rest = size - 1;
    const char *nl = memchr(text, '\n', rest);
    const size_t path_len = nl ? (size_t)(nl - text) : rest;
    if (path_len > PATH_MAX_LEN || memchr(text, '\0', path_len)) return;
    char path[PATH_MAX_LEN + SERVE_ID_LEN * 8 + 1];
    make_path(text, path_len, s, path, sizeof path);
    char *query = strchr(path, '?');
    if (query) *query++ = '\0';
    const char *body = nl ? nl + 1 : "";
    const size_t body_len = nl ? rest - path_len - 1 : 0;
    const ApiRequest rq = {METHODS[data[0] & 3],           path, query, body, body_len,
                           (data[0] & 4) ? s->token : NULL};
    ApiResponse r;
    serve_api_handle(srv, &rq, &r);
    check(&r, s);
    api_response_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const ServeConfig cfg = {.host = "127.0.0.1", .db_path = ":memory:", .workers = 0};
    char err[256];
    Server *srv = server_new(&cfg, false, err, sizeof err);
    if (!srv) {
        fprintf(stderr, "fuzz_api: %s\n", err);
        abort();
    }
    Session s = {"", ""};
    size_t start = 0;
    for (int n = 0; n < MAX_REQUESTS && start < size; n++) {
        const uint8_t *end = memchr(data + start, '\0', size - start);
        const size_t len = end ? (size_t)(end - (data + start)) : size - start;
        one_request(srv, data + start, len, &s);
        start += len + 1;
    }
    server_free(srv);
    return 0;
}
