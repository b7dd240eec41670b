// api.js — the only door to `tengen serve` (docs/api.md). Every call returns the parsed JSON
// or throws an ApiError carrying the server's {"error", "code"}, so no refusal goes unseen.

import { getSeat } from './prefs.js';

export class ApiError extends Error {
    constructor(status, code, message) {
        super(message);
        this.status = status;
        this.code = code;
    }
}

// The seat token of an online game travels with every request about that game; games
// without a stored seat (spectators, games on one screen) send none.
function seatHeader(path) {
    const m = path.match(/^\/api\/games\/([^/?]+)/);
    const seat = m && m[1] !== 'import' ? getSeat(m[1]) : null;
    return seat && seat.token ? { 'X-Tengen-Seat': seat.token } : {};
}

export async function request(method, path, body) {
    const headers = { Accept: 'application/json', ...seatHeader(path) };
    const init = { method, headers, cache: 'no-store' };
    if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
    }
    let res;
    try {
        res = await fetch(path, init);
    } catch (e) {
        throw new ApiError(0, 'network', e.message || String(e));
    }
    const text = await res.text();
    let data = null;
    if (text) {
        try {
            data = JSON.parse(text);
        } catch {
            data = null;
        }
    }
    if (!res.ok) {
        const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
        throw new ApiError(res.status, (data && data.code) || 'http_' + res.status, msg);
    }
    return data;
}

const enc = encodeURIComponent;
const post = (path, body) => request('POST', path, body);

export const api = {
    info: () => request('GET', '/api/info'),
    openings: () => request('GET', '/api/openings'),
    opening: (id, body) => post(`/api/games/${enc(id)}/opening`, body),
    list: (limit, offset, filter = {}) => {
        const q = Object.entries(filter).filter(([, v]) => v).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
        return request('GET', `/api/games?limit=${limit}&offset=${offset}${q}`);
    },
    remove: (id) => post(`/api/games/${enc(id)}/delete`, {}),
    aids: (id, allow) => post(`/api/games/${enc(id)}/aids`, { allow }),
    get: (id) => request('GET', `/api/games/${enc(id)}`),
    create: (spec) => post('/api/games', spec),
    join: (id) => post(`/api/games/${enc(id)}/join`, {}),
    move: (id, move) => post(`/api/games/${enc(id)}/moves`, { move }),
    undo: (id) => post(`/api/games/${enc(id)}/undo`, {}),
    redo: (id) => post(`/api/games/${enc(id)}/redo`, {}),
    goto: (id, ply) => post(`/api/games/${enc(id)}/goto`, { ply }),
    resign: (id, color) => post(`/api/games/${enc(id)}/resign`, color ? { color } : {}),
    draw: (id, color) => post(`/api/games/${enc(id)}/draw`, color ? { color } : {}),
    decline: (id) => post(`/api/games/${enc(id)}/decline`, {}),
    go: (id) => post(`/api/games/${enc(id)}/go`, {}),
    moveNow: (id) => post(`/api/games/${enc(id)}/move-now`, {}),
    stop: (id) => post(`/api/games/${enc(id)}/stop`, {}),
    solve: (id, kind, timeMs) => post(`/api/games/${enc(id)}/solve`, { kind, time_ms: timeMs }),
    analyze: (id, timeMs, multipv) =>
        post(`/api/games/${enc(id)}/analyze`, { time_ms: timeMs, multipv }),
    import: (data, extra = {}) => post('/api/games/import', { data, ...extra }),
    recordUrl: (id, format) => `/api/games/${enc(id)}/record?format=${format}`,
    eventsUrl: (id) => `/api/games/${enc(id)}/events`,
};

// A live subscription to a game's event stream. EventSource reconnects by itself after a
// dropped connection, but gives up for good when the server answers with an error status
// (e.g. after a restart); then we open a fresh one after a short pause.
export class GameStream {
    constructor(id, handlers) {
        this.id = id;
        this.handlers = handlers;
        this.closed = false;
        this.retry = null;
        this.open();
    }

    open() {
        const es = new EventSource(api.eventsUrl(this.id));
        this.es = es;
        es.addEventListener('game', (e) => this.dispatch('game', e.data));
        es.addEventListener('search', (e) => this.dispatch('search', e.data));
        es.addEventListener('opening', (e) => this.dispatch('opening', e.data));
        es.onopen = () => this.handlers.onState && this.handlers.onState(true);
        es.onerror = () => {
            if (this.closed) return;
            this.handlers.onState && this.handlers.onState(false);
            if (es.readyState === EventSource.CLOSED) {
                es.close();
                this.retry = setTimeout(() => !this.closed && this.open(), 1500);
            }
        };
    }

    dispatch(kind, raw) {
        let data;
        try {
            data = JSON.parse(raw);
        } catch {
            return; // a malformed event is dropped; the next game event brings the state
        }
        const fn = this.handlers[kind];
        if (fn) fn(data);
    }

    get connected() {
        return !this.closed && this.es && this.es.readyState === EventSource.OPEN;
    }

    close() {
        this.closed = true;
        clearTimeout(this.retry);
        if (this.es) this.es.close();
    }
}
