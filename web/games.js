// games.js — the archive list (#/games) and the replay view (#/replay/ID). A replay steps
// through the record in the page only: the server's game is left as it is until the player
// asks to continue playing.

import { api } from './api.js';
import { Board } from './board.js';
import { drawGraph } from './graph.js';
import { t, getLang, playerName, ruleName } from './i18n.js';
import { resultText } from './game.js';
import { $, clear, make, showError, toast } from './ui.js';

const PAGE = 20;
// A game without a result that nobody touched for this long is shown as abandoned.
const ABANDONED_MS = 24 * 3600 * 1000;

const recordLink = (id, format) => make('a', {
    href: api.recordUrl(id, format), download: `tengen-${id}.${format}`, class: 'button small',
    'data-testid': `row-${format}`, text: format.toUpperCase(), onclick: (e) => e.stopPropagation(),
});

export class GamesView {
    constructor() {
        this.offset = 0;
        this.total = 0;
        $('games-prev').addEventListener('click', () => this.load(Math.max(0, this.offset - PAGE)));
        $('games-next').addEventListener('click', () => this.load(this.offset + PAGE));
        for (const id of ['filter-rule', 'filter-result', 'filter-player']) $(id).addEventListener('change', () => this.load(0));
        // The rules to filter by are the new-game dialog's (one list to keep).
        for (const o of $('ng-rule').options) $('filter-rule').append(o.cloneNode(true));
    }

    filter() {
        return { rule: $('filter-rule').value, result: $('filter-result').value, player: $('filter-player').value };
    }

    async load(offset = this.offset) {
        let data;
        try {
            data = await api.list(PAGE, offset, this.filter());
        } catch (e) {
            return showError(e);
        }
        this.offset = offset;
        this.total = data.total ?? data.games.length;
        this.rows = data.games || [];
        this.render();
    }

    render() {
        const body = clear($('games-body'));
        if (!this.rows || !this.rows.length) {
            body.append(make('tr', {}, [make('td', { colspan: '6', class: 'muted', text: t('games.empty') })]));
        }
        for (const g of this.rows || []) body.append(this.row(g));
        const to = Math.min(this.total, this.offset + (this.rows ? this.rows.length : 0));
        $('games-page').textContent = this.total ? t('games.page', { from: this.offset + 1, to, total: this.total }) : '';
        $('games-prev').disabled = this.offset === 0;
        $('games-next').disabled = this.offset + PAGE >= this.total;
    }

    row(g) {
        const date = new Date(g.updated || g.created);
        const when = isNaN(date) ? '' : date.toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
        const stale = Date.now() - date.getTime() > ABANDONED_MS;
        const result = g.result ? resultText(g.result) : t(stale ? 'games.abandoned' : 'games.ongoing');
        const players = `${playerName(g.black)} – ${playerName(g.white)}${g.online ? ' (' + t('games.online') + ')' : ''}`;
        const open = () => { location.hash = '#/replay/' + g.id; };
        const tr = make('tr', { class: 'game-row', 'data-testid': 'game-row', 'data-id': g.id, onclick: open }, [
            make('td', { text: when }),
            make('td', { text: players }),
            make('td', { text: `${ruleName(g.rule)} ${g.size}×${g.size}` }),
            make('td', { text: result }),
            make('td', { class: 'num', text: String(g.length ?? '') }),
            make('td', { class: 'row-actions' }, [
                make('a', { href: '#/replay/' + g.id, class: 'button small', text: t('games.open') }),
                recordLink(g.id, 'sgf'), recordLink(g.id, 'psq'),
                g.online ? '' : make('button', {
                    type: 'button', class: 'small danger', 'data-testid': 'row-delete', text: t('games.delete'),
                    onclick: (e) => { e.stopPropagation(); this.askDelete(g, tr); },
                }),
            ]),
        ]);
        if (!g.result && stale) tr.classList.add('abandoned');
        return tr;
    }

    // Deleting asks first, in the row itself.
    askDelete(g, tr) {
        const cell = tr.querySelector('.row-actions');
        clear(cell);
        cell.append(make('span', { text: t('games.deleteAsk') }),
            make('button', { type: 'button', class: 'small danger', 'data-testid': 'row-delete-yes', text: t('games.delete'), onclick: (e) => { e.stopPropagation(); this.remove(g); } }),
            make('button', { type: 'button', class: 'small', 'data-testid': 'row-delete-no', text: t('resign.no.keep'), onclick: (e) => { e.stopPropagation(); this.render(); } }));
    }

    async remove(g) {
        try {
            await api.remove(g.id);
            toast(t('games.deleted'));
        } catch (e) {
            showError(e);
        }
        this.load(this.rows && this.rows.length === 1 && this.offset > 0 ? this.offset - PAGE : this.offset);
    }
}

export class ReplayView {
    constructor() {
        this.game = null;
        this.step = 0;
        this.board = new Board($('replay-board'), { onClick: () => this.go(this.step + 1) });
        $('rp-first').addEventListener('click', () => this.go(0));
        $('rp-prev').addEventListener('click', () => this.go(this.step - 1));
        $('rp-next').addEventListener('click', () => this.go(this.step + 1));
        $('rp-last').addEventListener('click', () => this.go(this.line.length));
        $('rp-continue').addEventListener('click', () => this.continuePlaying());
        $('rp-numbers').addEventListener('change', () => this.render());
    }

    get line() {
        return this.game ? this.game.moves.concat(this.game.redo || []) : [];
    }

    async open(id) {
        this.game = null;
        this.render();
        try {
            this.game = await api.get(id);
        } catch (e) {
            return showError(e);
        }
        this.step = this.game.ply;
        this.render();
    }

    go(step) {
        if (!this.game) return;
        this.step = Math.max(0, Math.min(this.line.length, step));
        this.render();
    }

    key(e) {
        const map = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, ArrowUp: this.step - 1, ArrowDown: this.step + 1, Home: 0, End: this.line.length };
        if (!(e.key in map)) return false;
        this.go(map[e.key]);
        return true;
    }

    // Continuing from another move than the game's own point first moves the game there.
    async continuePlaying() {
        const g = this.game;
        if (!g) return;
        try {
            if (!g.online && this.step !== g.ply) await api.goto(g.id, this.step);
        } catch (e) {
            return showError(e);
        }
        location.hash = '#/game/' + g.id;
    }

    render() {
        const g = this.game;
        const moves = this.line.slice(0, this.step);
        const atEnd = g && this.step === g.ply && g.result;
        this.board.render({
            size: g ? g.size : 15,
            moves,
            coords: true,
            numbers: $('rp-numbers').checked,
            win: atEnd && g.result.line ? g.result.line : null,
        });
        $('replay-board').dataset.step = String(this.step);
        $('replay-pos').textContent = g ? t('replay.move', { ply: this.step, total: this.line.length }) : '';
        const info = clear($('replay-info'));
        if (g) {
            info.append(make('span', { class: 'rule', text: `${ruleName(g.rule)} · ${g.size}×${g.size}` }));
            info.append(make('span', { text: `${playerName(g.black)} – ${playerName(g.white)}` }));
            info.append(make('span', { class: 'turn', text: g.result ? resultText(g.result) : t('games.ongoing') }));
        }
        $('rp-continue').hidden = !g || !!g.result;
        for (const f of ['sgf', 'psq']) {
            const a = $('rp-' + f);
            if (g) {
                a.href = api.recordUrl(g.id, f);
                a.setAttribute('download', `tengen-${g.id}.${f}`);
            } else a.removeAttribute('href');
        }
        for (const id of ['rp-first', 'rp-prev']) $(id).disabled = !g || this.step === 0;
        for (const id of ['rp-next', 'rp-last']) $(id).disabled = !g || this.step >= this.line.length;
        drawGraph($('replay-graph'), g ? g.evals || [] : [], this.step, this.line.length, (p) => this.go(p));
    }
}
