/*
 * http.c — the HTTP side of `tengen serve`, the only file that knows libmicrohttpd.
 * One thread per connection (so an event stream may simply block while it waits), with caps
 * on connections, header and body sizes; the Host, Origin and Content-Type checks; a token
 * bucket per client address; the security headers; the embedded page; and the event streams.
 * Everything under /api/ goes on to serve_api_handle.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "serve.h"
#include "assets.h"

enum {
    CONNECTION_LIMIT = 256,
    PER_IP_LIMIT = 64,
    CONNECTION_TIMEOUT_S = 60,
    RATE_SLOTS = 1024,
    RATE_PROBE = 8,
    SSE_BLOCK = 16 << 10,
};

static const char CSP[] = "default-src 'self'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                          "form-action 'self'; frame-ancestors 'none'";

/* ---- Rate limits: a token bucket per client address ---- */

typedef struct RateSlot {
    char ip[INET6_ADDRSTRLEN];
    double tokens;
    int64_t last_ms;
} RateSlot;

typedef struct RateLimiter {
    pthread_mutex_t lock;
    double rate, burst;
    RateSlot slot[RATE_SLOTS];
} RateLimiter;

static unsigned hash_text(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/// The slot of this address; a full neighbourhood gives up its longest-idle slot.
static RateSlot *rate_slot(RateLimiter *r, const char *ip, int64_t now) {
    const unsigned h = hash_text(ip);
    RateSlot *oldest = NULL;
    for (int k = 0; k < RATE_PROBE; k++) {
        RateSlot *s = &r->slot[(h + (unsigned)k) % RATE_SLOTS];
        if (strcmp(s->ip, ip) == 0) return s;
        if (!oldest || !s->ip[0] || (oldest->ip[0] && s->last_ms < oldest->last_ms)) oldest = s;
    }
    snprintf(oldest->ip, sizeof oldest->ip, "%s", ip);
    oldest->tokens = r->burst;
    oldest->last_ms = now;
    return oldest;
}

static bool rate_allow(RateLimiter *r, const char *ip) {
    if (r->rate <= 0) return true;
    const int64_t now = tg_now_ms();
    pthread_mutex_lock(&r->lock);
    RateSlot *s = rate_slot(r, ip, now);
    s->tokens += (double)(now - s->last_ms) * r->rate / 1000.0;
    if (s->tokens > r->burst) s->tokens = r->burst;
    s->last_ms = now;
    const bool ok = s->tokens >= 1.0;
    if (ok) s->tokens -= 1.0;
    pthread_mutex_unlock(&r->lock);
    return ok;
}

/* ---- The server ---- */

struct Http {
    Server *server;
    struct MHD_Daemon *daemon;
    atomic_int port; ///< known only once listening (--port 0), while requests may come
    char host[64];   ///< as written in URLs (IPv6 in brackets)
    bool any_host;   ///< bound to every interface: any Host is accepted
    bool loopback;
    RateLimiter rate;
};

/// What one request gathers across the calls of the access handler.
typedef struct Request {
    char *body;
    size_t len;
    bool too_large;
} Request;

static void add_common_headers(struct MHD_Response *r, bool api) {
    MHD_add_response_header(r, "Content-Security-Policy", CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cache-Control", api ? "no-store" : "no-cache");
}

static enum MHD_Result send_api(struct MHD_Connection *c, ApiResponse *a, int retry_after) {
    struct MHD_Response *r =
        MHD_create_response_from_buffer(a->len, a->body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        api_response_free(a);
        return MHD_NO;
    }
    a->body = NULL; /* the response owns it now */
    add_common_headers(r, true);
    MHD_add_response_header(r, "Content-Type", a->type ? a->type : "application/json");
    if (a->disposition[0]) MHD_add_response_header(r, "Content-Disposition", a->disposition);
    if (retry_after > 0) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", retry_after);
        MHD_add_response_header(r, "Retry-After", secs);
    }
    const enum MHD_Result ok = MHD_queue_response(c, (unsigned)a->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *code,
                                  const char *message, int retry_after) {
    ApiError e;
    ApiResponse a = {0};
    api_fail(&e, status, code, "%s", message);
    api_error_response(&a, &e);
    return send_api(c, &a, retry_after);
}

/* ---- Checks ---- */

static const char *header(struct MHD_Connection *c, const char *name) {
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/// The Host header must name the address listened on (DNS rebinding defence).
static bool host_ok(const Http *h, const char *host) {
    if (h->any_host) return true;
    if (!host) return false;
    char want[96];
    if (h->loopback) {
        const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
        for (int i = 0; i < 3; i++) {
            snprintf(want, sizeof want, "%s:%d", names[i], atomic_load(&h->port));
            if (strcasecmp(host, want) == 0) return true;
        }
        return false;
    }
    snprintf(want, sizeof want, "%s:%d", h->host, atomic_load(&h->port));
    return strcasecmp(host, want) == 0;
}

/// A browser's POST must come from the page itself: Origin, when sent, is http://Host.
static bool origin_ok(struct MHD_Connection *c) {
    const char *origin = header(c, "Origin"), *host = header(c, "Host");
    if (!origin) return true;
    return host && strncmp(origin, "http://", 7) == 0 && strcasecmp(origin + 7, host) == 0;
}

static bool is_json_type(const char *type) {
    if (!type || strncasecmp(type, "application/json", 16) != 0) return false;
    return type[16] == '\0' || type[16] == ';' || type[16] == ' ';
}

static bool has_body(struct MHD_Connection *c) {
    const char *length = header(c, "Content-Length"), *te = header(c, "Transfer-Encoding");
    return (length && strtoull(length, NULL, 10) > 0) || te;
}

static void client_ip(struct MHD_Connection *c, char *buf, size_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(buf, size, "?");
    if (!info || !info->client_addr) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, buf,
                  (socklen_t)size);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, buf,
                  (socklen_t)size);
}

/* ---- The page's files ---- */

/// Does the request's header `name` hold `token` (If-None-Match, Accept-Encoding lists)?
static bool header_has(struct MHD_Connection *c, const char *name, const char *token) {
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
    return v && (strstr(v, token) != NULL || strcmp(v, "*") == 0);
}

/// A file of the page: 304 when the browser has it already (its ETag), gzip-compressed when
/// the browser takes that, else as it is. `no-cache` makes every visit ask, and cheaply.
static enum MHD_Result send_asset(struct MHD_Connection *c, const char *url, const char *method) {
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, 405, "bad_method", "use GET here", 0);
    const char *path = strcmp(url, "/") == 0 ? "/index.html" : url;
    for (int i = 0; i < SERVE_ASSET_COUNT; i++) {
        const ServeAsset *a = &SERVE_ASSETS[i];
        if (strcmp(a->path, path) != 0) continue;
        const bool fresh = header_has(c, "If-None-Match", a->etag);
        const bool gz = !fresh && a->gz && header_has(c, "Accept-Encoding", "gzip");
        const unsigned char *bytes = fresh ? NULL : gz ? a->gz : a->data;
        const size_t len = fresh ? 0 : gz ? a->gz_size : a->size;
        struct MHD_Response *r =
            MHD_create_response_from_buffer(len, (void *)(uintptr_t)bytes, MHD_RESPMEM_PERSISTENT);
        if (!r) return MHD_NO;
        add_common_headers(r, false);
        MHD_add_response_header(r, "Content-Type", a->type);
        MHD_add_response_header(r, "ETag", a->etag);
        if (a->gz) MHD_add_response_header(r, "Vary", "Accept-Encoding");
        if (gz) MHD_add_response_header(r, "Content-Encoding", "gzip");
        const enum MHD_Result ok =
            MHD_queue_response(c, fresh ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, r);
        MHD_destroy_response(r);
        return ok;
    }
    return send_error(c, 404, "no_route", "no such file", 0);
}

/* ---- Event streams ---- */

static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    const size_t n = stream_read(cls, buf, max);
    return n ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
}

static void close_events(void *cls) { stream_close(cls); }

static enum MHD_Result send_events(Http *h, struct MHD_Connection *c, const char *id,
                                   const char *method) {
    if (strcmp(method, "GET") != 0) return send_error(c, 405, "bad_method", "use GET here", 0);
    LiveGame *g = control_get(h->server, id);
    if (!g) return send_error(c, 404, "no_game", "no game has this id", 0);
    Stream *st = stream_open(h->server, g);
    registry_release(g); /* the stream holds its own reference */
    if (!st) return send_error(c, 500, "internal", "out of memory", 0);
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SSE_BLOCK,
                                                               read_events, st, close_events);
    if (!r) {
        stream_close(st);
        return MHD_NO;
    }
    add_common_headers(r, true);
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    const enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- The API ---- */

typedef struct QueryBuf {
    char text[1024];
    size_t len;
} QueryBuf;

static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value) {
    (void)kind;
    QueryBuf *q = cls;
    const int n = snprintf(q->text + q->len, sizeof q->text - q->len, "%s%s=%s", q->len ? "&" : "",
                           key, value ? value : "");
    if (n > 0 && (size_t)n < sizeof q->text - q->len) q->len += (size_t)n;
    return MHD_YES;
}

static enum MHD_Result send_to_api(Http *h, struct MHD_Connection *c, const char *url,
                                   const char *method, const Request *rq) {
    if (rq->too_large) return send_error(c, 413, "too_large", "the body is over 64 KiB", 0);
    QueryBuf q = {.len = 0};
    q.text[0] = '\0';
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_query, &q);
    const ApiRequest req = {method, url, q.text, rq->body, rq->len, header(c, "X-Tengen-Seat")};
    ApiResponse a;
    serve_api_handle(h->server, &req, &a);
    if (a.status >= 500)
        fprintf(stderr, "tengen: %s %s: %d %.*s\n", method, url, a.status, (int)a.len, a.body);
    return send_api(c, &a, 0);
}

/// The checks made on the headers alone, before any body is read: true when the request is
/// refused (its answer queued, *answer the result to return), false to go on.
static bool refused_early(Http *h, struct MHD_Connection *c, const char *url, const char *method,
                          enum MHD_Result *answer) {
    char ip[INET6_ADDRSTRLEN];
    const bool api = strncmp(url, "/api/", 5) == 0;
    const bool post = strcmp(method, "POST") == 0;
    const char *length = header(c, "Content-Length");
    char id[SERVE_ID_LEN + 1];
    if (!host_ok(h, header(c, "Host")))
        *answer = send_error(c, 403, "bad_host", "this Host is not served here", 0);
    else if (length && strtoull(length, NULL, 10) > SERVE_BODY_MAX)
        *answer = send_error(c, 413, "too_large", "the body is over 64 KiB", 0);
    else if (!api)
        *answer = send_asset(c, url, method);
    else if (api_events_path(url, id))
        *answer = send_events(h, c, id, method);
    else if (client_ip(c, ip, sizeof ip), !rate_allow(&h->rate, ip))
        *answer = send_error(c, 429, "rate_limited", "too many requests; slow down", 1);
    else if (post && !origin_ok(c))
        *answer = send_error(c, 403, "bad_origin", "this Origin may not post here", 0);
    else if (has_body(c) && !is_json_type(header(c, "Content-Type")))
        *answer = send_error(c, 415, "bad_type", "send the body as application/json", 0);
    else
        return false;
    return true;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **state) {
    (void)version;
    Http *h = cls;
    Request *rq = *state;
    if (!rq) { /* the first call: headers only */
        if (!(rq = calloc(1, sizeof *rq))) return MHD_NO;
        *state = rq;
        enum MHD_Result answer;
        if (refused_early(h, c, url, method, &answer)) return answer;
        if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0)
            return send_to_api(h, c, url, method, rq);
        return MHD_YES; /* the body follows */
    }
    if (*upload_size) {
        if (!rq->too_large && rq->len + *upload_size <= SERVE_BODY_MAX) {
            char *grown = realloc(rq->body, rq->len + *upload_size + 1);
            if (!grown) return MHD_NO;
            memcpy(grown + rq->len, upload, *upload_size);
            rq->body = grown;
            rq->len += *upload_size;
        } else {
            rq->too_large = true; /* the rest is read and dropped */
        }
        *upload_size = 0;
        return MHD_YES;
    }
    return send_to_api(h, c, url, method, rq);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode code) {
    (void)cls, (void)c, (void)code;
    Request *rq = *state;
    if (rq) free(rq->body);
    free(rq);
    *state = NULL;
}

/* ---- Start and stop ---- */

static bool is_loopback(const char *host) {
    return strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0 ||
           strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0;
}

/// Resolves --host; IPv6 addresses are written in brackets in URLs.
static bool resolve(Http *h, const char *host, struct sockaddr_storage *addr, char *err,
                    size_t size) {
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res)
        return snprintf(err, size, "cannot resolve --host %s", host), false;
    const struct addrinfo *pick = res; /* IPv4 when a name has both, as the printed URL says */
    for (const struct addrinfo *a = res; a; a = a->ai_next)
        if (a->ai_family == AF_INET && pick->ai_family != AF_INET) pick = a;
    memcpy(addr, pick->ai_addr, pick->ai_addrlen);
    const bool v6 = pick->ai_family == AF_INET6;
    freeaddrinfo(res);
    snprintf(h->host, sizeof h->host, v6 ? "[%s]" : "%s", host);
    h->any_host = strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0;
    h->loopback = is_loopback(host);
    if (strcmp(host, "localhost") == 0) snprintf(h->host, sizeof h->host, "127.0.0.1");
    return true;
}

Http *http_start(Server *s, int *port, char *err, size_t size) {
    Http *h = calloc(1, sizeof *h);
    struct sockaddr_storage addr = {0};
    if (!h) return snprintf(err, size, "out of memory"), NULL;
    h->server = s;
    pthread_mutex_init(&h->rate.lock, NULL);
    h->rate.rate = s->cfg.rate;
    h->rate.burst = 2.0 * s->cfg.rate;
    if (!resolve(h, s->cfg.host, &addr, err, size)) return http_stop(h), NULL;
    const bool v6 = addr.ss_family == AF_INET6;
    if (v6)
        ((struct sockaddr_in6 *)(void *)&addr)->sin6_port = htons((uint16_t)s->cfg.port);
    else
        ((struct sockaddr_in *)(void *)&addr)->sin_port = htons((uint16_t)s->cfg.port);
    const unsigned flags =
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | (v6 ? MHD_USE_IPv6 : 0);
    h->daemon = MHD_start_daemon(
        flags, (uint16_t)s->cfg.port, NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR, &addr,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTION_LIMIT, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        (unsigned)PER_IP_LIMIT, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_HEADER_MAX,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_TIMEOUT_S, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, h, MHD_OPTION_END);
    if (!h->daemon) {
        snprintf(err, size, "cannot listen on %s port %d (in use, or not allowed)", s->cfg.host,
                 s->cfg.port);
        http_stop(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    *port = info && info->port ? info->port : s->cfg.port;
    atomic_store(&h->port, *port);
    return h;
}

const char *http_host(const Http *h) { return h->host; }

void http_stop(Http *h) {
    if (!h) return;
    if (h->daemon) MHD_stop_daemon(h->daemon);
    pthread_mutex_destroy(&h->rate.lock);
    free(h);
}
