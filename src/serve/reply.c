/*
 * reply.c — the API's answers and the checks of request bodies, below both the routes (api.c)
 * and the actions (actions.c): an error as status, code and message, a JSON or text body, and
 * the fields a body may hold.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

bool api_fail(ApiError *e, int status, const char *code, const char *fmt, ...) {
    e->status = status;
    e->code = code;
    e->foul = TG_FOUL_NONE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- Responses ---- */

void api_response_free(ApiResponse *r) {
    free(r->body);
    r->body = NULL;
}

void api_set_body(ApiResponse *out, int status, char *body, const char *type) {
    free(out->body);
    out->status = status;
    out->body = body;
    out->len = body ? strlen(body) : 0;
    out->type = type;
}

void api_json_response(ApiResponse *out, int status, json_t *body) {
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!text) {
        ApiError e;
        api_fail(&e, 500, "internal", "out of memory");
        api_error_response(out, &e);
        return;
    }
    api_set_body(out, status, text, "application/json");
}

void api_error_response(ApiResponse *out, const ApiError *e) {
    json_t *o = json_pack("{s:s, s:s}", "error", e->message, "code", e->code);
    if (o && e->foul != TG_FOUL_NONE)
        json_object_set_new(o, "foul", json_string(tg_foul_code(e->foul)));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    api_set_body(out, e->status,
                 text ? text : strdup("{\"error\":\"out of memory\",\"code\":\"internal\"}"),
                 "application/json");
}

/* ---- Bodies ---- */

bool body_fields(json_t *body, const Field *fields, ApiError *e) {
    const char *key;
    json_t *value;
    json_object_foreach(body, key, value) {
        const Field *f = fields;
        while (f->name && strcmp(f->name, key) != 0) f++;
        if (!f->name) return api_fail(e, 400, "bad_field", "unknown field '%s'", key);
        const bool ok = f->type == F_STRING   ? json_is_string(value)
                        : f->type == F_INT    ? json_is_integer(value)
                        : f->type == F_BOOL   ? json_is_boolean(value)
                        : f->type == F_OBJECT ? json_is_object(value)
                                              : json_is_array(value);
        static const char *const TYPES[] = {"a string", "a whole number", "true or false",
                                            "an object", "an array"};
        if (!ok) return api_fail(e, 400, "bad_field", "'%s' must be %s", key, TYPES[f->type]);
    }
    for (const Field *f = fields; f->name; f++)
        if (f->required && !json_object_get(body, f->name))
            return api_fail(e, 400, "bad_field", "'%s' is missing", f->name);
    return true;
}
