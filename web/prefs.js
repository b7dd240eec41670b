// prefs.js — the player's settings, kept in localStorage so that they survive a reload.
// Storage can be unavailable (private mode, a sandboxed frame): then settings last for the
// visit only, which is better than a page that fails to start.

const PREFIX = 'tengen.';
const memory = new Map();

export function getPref(name, fallback) {
    try {
        const v = localStorage.getItem(PREFIX + name);
        return v === null ? fallback : JSON.parse(v);
    } catch {
        return memory.has(name) ? memory.get(name) : fallback;
    }
}

export function setPref(name, value) {
    memory.set(name, value);
    try {
        localStorage.setItem(PREFIX + name, JSON.stringify(value));
    } catch {
        /* kept in memory only */
    }
}

// Seats of online games: {color, token} per game id. The token is the only proof of a seat,
// so a reload or a second tab of the same browser sits down again without a join.
export function getSeat(gameId) {
    return getPref('seat.' + gameId, null);
}

export function setSeat(gameId, seat) {
    setPref('seat.' + gameId, seat);
}
