// ui.js — small shared helpers: element lookup, the toast line, number formats.

import { t, tOwn, serverText } from './i18n.js';

export const $ = (id) => document.getElementById(id);

let toastTimer = null;

// A click dismisses the message at once.
document.addEventListener('click', (e) => {
    if (e.target && e.target.id === 'toast') e.target.hidden = true;
});

// One line at the top of the page for messages and errors. Errors stay longer, and the
// element keeps data-kind so tests (and CSS) can tell them apart.
export function toast(message, kind = 'info') {
    const el = $('toast');
    el.textContent = message;
    el.dataset.kind = kind;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, kind === 'error' ? 8000 : 4000);
}

// Every refused request ends here: the server's own words, never swallowed.
export function showError(err) {
    if (err && err.code === 'network') toast(t('msg.network', { detail: err.message }), 'error');
    else {
        // The server writes English; in another language its code is translated and its
        // own words follow in brackets.
        const text = err && err.code ? tOwn('code.' + err.code) : null;
        const detail = (err && err.message) || String(err);
        const own = serverText(err && err.message);
        if (own) toast(t('msg.error', { error: own }), 'error');
        else toast(text ? t('msg.errorCode', { text, error: detail }) : t('msg.error', { error: detail }), 'error');
    }
    if (err && !err.status) console.warn(err); // eslint-disable-line no-console
}

// Runs an async action and shows its failure; returns its value or undefined.
export async function attempt(fn) {
    try {
        return await fn();
    } catch (e) {
        showError(e);
        return undefined;
    }
}

export function formatClock(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = h ? String(m).padStart(2, '0') : String(m);
    return (h ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
}

export function formatCount(n) {
    if (n >= 1e9) return (n / 1e9).toFixed(1) + 'G';
    if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
    if (n >= 1e4) return Math.round(n / 1e3) + 'k';
    return String(n);
}

export function formatWinrate(w) {
    return typeof w === 'number' ? (w * 100).toFixed(1) + '%' : '—';
}

export function formatMs(ms) {
    return ms >= 1000 ? (ms / 1000).toFixed(1) + ' s' : ms + ' ms';
}

export function clear(el) {
    el.textContent = '';
    return el;
}

export function make(tag, props = {}, children = []) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
        if (k === 'dataset') Object.assign(e.dataset, v);
        else if (k === 'text') e.textContent = v;
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
}
