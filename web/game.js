// game.js — the game view: one server game on the board, kept live by its event stream.
// The server owns the game; this view only draws the latest game object and turns clicks
// into API calls. Nothing about rules is decided here except what the server already said
// (e.g. the `forbidden` list), so a refused action always shows the server's reason.

import { api, GameStream } from './api.js';
import { Board } from './board.js';
import { drawGraph } from './graph.js';
import { t, colorName, playerName, ruleName, foulName } from './i18n.js';
import { getPref, setPref, getSeat, setSeat } from './prefs.js';
import { playStone, playEnd } from './sound.js';
import { candidatesOf, renderAnalysis, clearAnalysis } from './analysis.js';
import { $, toast, showError, formatClock, clear, make } from './ui.js';
import { boardSvgText, svgToPng, download } from './export.js';

const ANALYSIS_MS = 0; // until stopped (the server ends it after 10 minutes at most)
const HINT_MS = 1500;
const SOLVE_MS = 5000; // the solver's time; the answer says "unknown" when it runs out
const other = (c) => (c === 'black' ? 'white' : 'black');
// The opening phase is running: its step, not a move, is asked for.
const inPhase = (g) => !!(g && g.opening && !g.opening.done && !g.result);

export class GameView {
    constructor() {
        this.game = null;
        this.stream = null;
        this.search = null;
        this.hintPoint = null;
        this.hintPending = false;
        this.pending = null;
        this.preview = null;
        this.events = 0;
        this.analyzeKey = null;
        this.view = null; // reviewing a finished game: the ply on show (null: its end)
        this.solved = null; // the solver's answer for the position on show: {key, line, color, ...}
        this.setup = null; // editing a position: {black: Set, white: Set}
        this.clockBase = null;
        this.board = new Board($('board'), {
            onClick: (p) => this.clickPoint(p),
            onHover: (p) => this.hoverPoint(p),
        });
        this.opts = {
            numbers: getPref('numbers', false),
            coords: getPref('coords', true),
            forbidden: getPref('forbidden', true),
            confirm: getPref('confirm', false),
            analyze: false,
            multipv: getPref('multipv', 3),
            anaTime: getPref('anaTime', ANALYSIS_MS), // 0: until Stop
            winrate: getPref('winrate', false), // candidates labelled by win rate, not score
        };
        this.bindControls();
        setInterval(() => this.tickClocks(), 250);
        this.render();
    }

    // ---- opening a game and following it -------------------------------------------------

    async open(id) {
        if (this.game && this.game.id === id && this.stream) return;
        this.close();
        this.id = id;
        this.game = null;
        this.resetTransient();
        this.render();
        this.stream = new GameStream(id, {
            game: (g) => this.onEvent(g),
            search: (s) => this.onSearch(s),
            opening: (d) => this.onOpening(d),
            onState: (up) => { if (!up) toast(t('msg.reconnecting'), 'warn'); },
        });
        try {
            const g = await api.get(id);
            if (this.id === id && !this.game) this.apply(g);
        } catch (e) {
            showError(e);
            // No such game: stop the stream's reconnect attempts and forget it as the home game.
            if (e.code === 'no_game' && this.id === id) {
                this.close();
                if (getPref('lastGame', null) === id) setPref('lastGame', null);
            }
        }
    }

    close() {
        if (this.stream) this.stream.close();
        this.stream = null;
        this.id = null;
    }

    resetTransient() {
        this.search = null;
        this.hintPoint = null;
        this.hintPending = false;
        this.pending = null;
        this.preview = null;
        this.analyzeKey = null;
        this.view = null;
        this.solved = null;
        this.setup = null;
        this.resignAsked = false;
        if (this.board) this.board.cursor = null; // the keyboard starts from the centre
    }

    onEvent(g) {
        if (!g || g.id !== this.id) return;
        this.events++;
        this.apply(g);
    }

    onSearch(s) {
        if (!this.game || s.ply !== this.game.ply) return; // a search of an older position
        this.search = s;
        if (this.hintPending && s.kind === 'analysis' && s.final) this.showHint(s);
        this.renderAnalysisPanel();
        this.renderBoard();
        this.renderButtons(); // Stop follows the search: on while it runs, off once final
    }

    // What the computer decided in the opening phase, in the player's language.
    onOpening(d) {
        if (!d || !this.game) return;
        const what = d.choice ? (d.choice === 'stay' ? t('opening.stay') : d.choice === 'swap' ? t('opening.swapped')
            : d.choice === 'place-two' ? t('opening.placeTwo') : t('opening.offerTen'))
            : d.n !== undefined ? String(d.n) : (d.points || []).join(' ');
        toast(t('opening.computer', { n: d.player, what }));
    }

    // Takes a new game state: sounds for what changed, then a full redraw.
    apply(g) {
        const prev = this.game;
        this.game = g;
        const seat = g.online ? getSeat(g.id) : null;
        // A seat belongs to a player; after a swap of the opening it holds the other colour.
        this.seat = seat && seat.player && g.opening ? { ...seat, color: g.opening.players[String(seat.player)] } : seat;
        this.clockBase = g.clock ? { ...g.clock, at: performance.now() } : null;
        this.timeoutAsked = false;
        if (!g.result || (this.view !== null && this.view > g.ply)) this.view = null;
        if (prev && prev.id === g.id) {
            const was = this.myColor(prev), now = this.myColor(g);
            if (was && now && was !== now) toast(t('opening.youNow', { color: colorName(now) }));
            if (g.ply > prev.ply) playStone();
            if (!prev.result && g.result) playEnd();
            const line = (x) => (x.opening ? x.opening.line : '');
            if (g.ply !== prev.ply || g.moves.join() !== prev.moves.join() || line(g) !== line(prev)) {
                // The computer's own search stays on show after its move, marked as done.
                const s = this.search;
                this.search = s && s.kind === 'move' && g.ply === s.ply + 1 ? { ...s, done: true } : null;
                this.hintPoint = null;
                this.pending = null;
                this.preview = null;
            }
        }
        if (g.thinking && this.search && this.search.kind === 'analysis') this.search = null;
        this.render();
        this.maybeAnalyze();
    }

    // Runs an action whose answer is the game. The event stream also reports the change, and
    // may already have brought a newer state (e.g. the computer's reply): the answer is used
    // only when no event arrived meanwhile or the stream is down.
    async act(fn) {
        const before = this.events;
        try {
            const g = await fn();
            if (g && g.id === this.id && (this.events === before || !(this.stream && this.stream.connected))) this.apply(g);
            return g;
        } catch (e) {
            showError(e);
            return undefined;
        }
    }

    // ---- who may do what -------------------------------------------------------------------

    isComputer(color) {
        return !!this.game && !!color && this.game[color] !== 'human';
    }

    // The computer acts next: its move, or its step of the opening phase.
    computerActs() {
        const g = this.game;
        if (!g || g.result || g.balancing) return false;
        if (inPhase(g)) return g.opening.step.who !== 'human';
        return this.isComputer(g.to_move);
    }

    // This screen is asked for the opening's step: a human is asked, and online it is us.
    myStep() {
        const g = this.game;
        if (!inPhase(g) || g.balancing) return false;
        const step = g.opening.step;
        if (step.who !== 'human') return false;
        return !g.online || (!!this.seat && this.seat.player === step.player);
    }

    // The colour this screen plays for: the seat online, else whoever is to move if human.
    myTurn() {
        const g = this.game;
        if (inPhase(g)) return this.myStep();
        if (!g || g.result || !g.to_move) return false;
        if (g.online) return !!this.seat && this.seat.color === g.to_move;
        return !this.isComputer(g.to_move);
    }

    // The colour this screen's player holds in game g: the seat online, the human's against
    // the computer; null between humans on one screen or when watching.
    myColor(g) {
        if (!g) return null;
        if (g.online) {
            const seat = this.seat;
            if (!seat) return null;
            return seat.player && g.opening ? g.opening.players[String(seat.player)] : seat.color;
        }
        const human = ['black', 'white'].filter((c) => g[c] === 'human');
        return human.length === 1 ? human[0] : null;
    }

    isSpectator() {
        return !!this.game && this.game.online && !this.seat;
    }

    // ---- board input -----------------------------------------------------------------------

    clickPoint(p) {
        const g = this.game;
        if (!g) return;
        if (this.setup) return this.setupClick(p);
        if (inPhase(g) || g.balancing) return this.openingClick(p);
        if (this.reviewing() && this.shownPly() < g.ply) return this.variation(p);
        const refuse = this.refusal(p);
        if (refuse) return toast(refuse, 'error');
        if (this.opts.confirm && this.pending !== p) {
            this.pending = p;
            this.renderBoard();
            return toast(t('msg.confirm', { point: p }));
        }
        this.pending = null;
        if (g.redo.length && !g.online) {
            this.keepRedoLine().then(() => this.act(() => api.move(g.id, p)));
            return;
        }
        this.act(() => api.move(g.id, p));
    }

    // Why a click cannot be a move, or null. The server would refuse these too; saying it
    // here names the reason in the player's language and spares a round trip.
    refusal(p) {
        const g = this.game;
        if (g.result) return t('msg.gameOverReview');
        if (g.moves.includes(p)) return t('msg.occupied', { point: p });
        if (this.isSpectator()) return t('msg.spectator');
        if (g.online && this.seat.color !== g.to_move) return t('msg.notYourTurn');
        if (!g.online && this.isComputer(g.to_move)) return t('msg.computerTurn');
        const f = (g.forbidden || []).find((x) => x.point === p);
        if (f && g.to_move === 'black') return t('msg.forbidden', { point: p, foul: foulName(f.foul) });
        return null;
    }

    // A click during the opening phase places, offers or selects, as the step asks.
    openingClick(p) {
        const g = this.game;
        const step = g.opening && g.opening.step;
        if (g.balancing) return toast(t('opening.balancing'), 'error');
        if (this.isSpectator()) return toast(t('msg.spectator'), 'error');
        if (step.who !== 'human') return toast(t('msg.computerTurn'), 'error');
        if (!this.myStep()) return toast(t('opening.notYours', { n: step.player }), 'error');
        if (step.kind === 'choose' || step.kind === 'declare') return toast(this.stepText(), 'error');
        if (step.kind === 'select' && !g.opening.offers.includes(p)) return toast(t('opening.notAnOffer', { point: p }), 'error');
        if (step.kind !== 'select' && g.moves.includes(p)) return toast(t('msg.occupied', { point: p }), 'error');
        this.act(() => api.opening(g.id, { action: step.kind, point: p }));
    }

    choose(choice) {
        const g = this.game;
        if (g) this.act(() => api.opening(g.id, { action: 'choose', choice }));
    }

    declare(n) {
        const g = this.game;
        if (g) this.act(() => api.opening(g.id, { action: 'declare', n }));
    }

    hoverPoint(p) {
        const c = this.opts.analyze && candidatesOf(this.search).find((x) => x.point === p);
        const next = c ? { moves: c.line.moves, color: this.search.color } : null;
        if ((next && next.moves) !== (this.preview && this.preview.moves)) {
            this.preview = next;
            this.renderBoard();
        }
    }

    // ---- reviewing a finished game ---------------------------------------------------------
    // A finished game is kept as played: First, Back, Forward, Last, the keys and the graph
    // move only the view, and a move tried at an earlier point starts a variation (a new
    // game from that position), never a change of the game.

    reviewing() {
        return !!(this.game && this.game.result);
    }

    // The ply on show: the review position, or the game's own.
    shownPly() {
        const g = this.game;
        return g && this.view !== null ? this.view : g ? g.ply : 0;
    }

    setView(ply) {
        const g = this.game;
        const n = Math.max(0, Math.min(g.ply, ply));
        this.view = n === g.ply ? null : n;
        this.preview = null;
        this.hintPoint = null;
        this.pending = null;
        this.render();
    }

    // A move tried while reviewing: a new game between humans from the position on show.
    async variation(p) {
        const g = this.game;
        const ply = this.shownPly();
        const moves = g.moves.slice(0, ply);
        if (moves.includes(p)) return toast(t('msg.occupied', { point: p }), 'error');
        try {
            const v = await api.create({ rule: g.rule, size: g.size, black: 'human', white: 'human', moves: [...moves, p] });
            this.linkVariation(v.id, { game: g.id, ply, line: [p] });
            toast(t('msg.variation', { n: ply }));
            location.hash = '#/game/' + v.id;
        } catch (e) {
            showError(e);
        }
    }

    // ---- setting up a position ---------------------------------------------------------------
    // Stones of either colour go anywhere; the position becomes a new game between humans,
    // its stones played in turn with passes where one colour has more (the server plays them
    // by the rule, so a renju foul or a finished five is refused with its reason).

    startSetup() {
        const g = this.game;
        const black = new Set(), white = new Set();
        if (g) {
            g.moves.slice(0, this.shownPly()).forEach((m, i) => {
                if (m !== 'pass') (i % 2 ? white : black).add(m);
            });
        }
        this.setup = { black, white };
        $('setup-to-move').value = g && g.to_move ? g.to_move : 'black';
        this.render();
    }

    endSetup() {
        this.setup = null;
        this.render();
    }

    setupTool() {
        return document.querySelector('input[name=setup-tool]:checked').value;
    }

    setupClick(p) {
        const { black, white } = this.setup;
        const tool = this.setupTool();
        const had = black.has(p) ? 'black' : white.has(p) ? 'white' : null;
        black.delete(p);
        white.delete(p);
        if (tool !== 'erase' && had !== tool) (tool === 'black' ? black : white).add(p);
        this.renderBoard();
    }

    // The set-up stones as a move list: colours in turn, a pass where one has run out, and a
    // last pass when the other side is to move.
    setupMoves() {
        const b = [...this.setup.black], w = [...this.setup.white];
        const moves = [];
        for (let turn = 0; b.length || w.length; turn ^= 1) {
            const side = turn ? w : b;
            moves.push(side.length ? side.shift() : 'pass');
        }
        const toMove = moves.length % 2 ? 'white' : 'black';
        if (toMove !== $('setup-to-move').value) moves.push('pass');
        return moves;
    }

    async playSetup() {
        const g = this.game;
        try {
            const v = await api.create({ rule: g ? g.rule : 'freestyle', size: g ? g.size : 15, black: 'human', white: 'human', moves: this.setupMoves() });
            this.setup = null;
            toast(t('setup.done'));
            location.hash = '#/game/' + v.id;
        } catch (e) {
            showError(e);
        }
    }

    renderSetup() {
        const editing = !!this.setup;
        $('setup-tools').hidden = !editing;
        $('btn-setup').hidden = editing;
    }

    // ---- pictures --------------------------------------------------------------------------

    async exportImage(kind) {
        const g = this.game;
        const numbers = $('export-numbers').checked;
        const keep = this.opts.numbers;
        this.opts.numbers = numbers;
        this.renderBoard();
        const svg = $('board').querySelector('svg');
        const text = boardSvgText(svg);
        this.opts.numbers = keep;
        this.renderBoard();
        const name = `tengen-${g ? g.id : 'board'}-${this.shownPly()}.${kind}`;
        if (kind === 'svg') return download(new Blob([text], { type: 'image/svg+xml' }), name);
        const box = svg.viewBox.baseVal;
        try {
            download(await svgToPng(text, box.width, box.height), name);
        } catch (e) {
            showError(e);
        }
    }

    // ---- the solver ------------------------------------------------------------------------

    positionKey() {
        const g = this.game;
        return g ? `${g.id}:${g.moves.join(' ')}` : '';
    }

    solvedHere() {
        return !!(this.solved && this.solved.key === this.positionKey() && this.view === null);
    }

    // Looks for a forced win of the side to move; the line is drawn on the board.
    async solve() {
        const g = this.game;
        if (!g) return;
        const kind = $('solve-kind').value;
        const key = this.positionKey();
        this.solving = true;
        this.renderSolve();
        try {
            const r = await api.solve(g.id, kind, SOLVE_MS);
            if (this.positionKey() === key) this.solved = { ...r, key };
        } catch (e) {
            showError(e);
        } finally {
            this.solving = false;
            this.render();
        }
    }

    renderSolve() {
        const el = $('solve-result');
        const g = this.game;
        $('btn-solve').disabled = !g || !!g.result || inPhase(g) || !!g.online || !!this.solving || this.view !== null;
        if (this.solving) {
            el.textContent = t('solve.searching');
            return;
        }
        if (!this.solvedHere()) {
            el.textContent = '';
            return;
        }
        const r = this.solved;
        const kind = r.kind.toUpperCase();
        el.textContent = r.status === 'win' ? t('solve.win', { color: colorName(r.color), kind, line: r.line.join(' ') })
            : r.status === 'none' ? t('solve.none', { color: colorName(r.color), kind })
                : t('solve.unknown', { kind, s: SOLVE_MS / 1000 });
        el.dataset.status = r.status;
    }

    // ---- the move list and the variations ---------------------------------------------------
    // The game's line: the moves played (the current one marked) and those a redo would play
    // (dashed). A click goes there: a view in a finished game, a jump otherwise. Variations
    // are games of their own, made from this one (a move tried in a review, or a line left
    // by a new move after an undo), linked to it in this browser.

    variationsOf(id) {
        return Object.entries(getPref('variations', {})).filter(([, v]) => v.game === id)
            .map(([vid, v]) => ({ id: vid, ...v })).sort((a, b) => a.ply - b.ply);
    }

    linkVariation(id, from) {
        const links = getPref('variations', {});
        links[id] = from;
        setPref('variations', links);
    }

    goPly(ply) {
        const g = this.game;
        if (!g || ply === this.shownPly()) return;
        if (this.reviewing()) return this.setView(ply);
        this.act(() => api.goto(g.id, ply));
    }

    renderMoves() {
        const list = clear($('move-list'));
        const g = this.game;
        if (!g || (!g.moves.length && !g.redo.length)) {
            list.append(make('li', { class: 'muted', text: t('moves.none') }));
        } else {
            const shown = this.shownPly();
            const canJump = this.reviewing() || (!g.online && !inPhase(g));
            const first = g.opening ? g.opening.stones.length : 0;
            g.moves.concat(g.result ? [] : g.redo).forEach((m, i) => {
                const ply = i + 1;
                const cls = ply === shown ? 'current' : ply > g.ply ? 'ahead' : '';
                const b = make('button', {
                    type: 'button', class: cls, 'data-testid': 'move-' + ply, 'data-ply': ply,
                    text: `${ply}. ${m}`, onclick: () => this.goPly(ply),
                });
                b.disabled = !canJump || ply < first; // the opening's stones go back by undo only
                list.append(make('li', {}, [b]));
            });
        }
        const box = clear($('variation-list'));
        const vars = g ? this.variationsOf(g.id) : [];
        if (!vars.length) return;
        box.append(make('h3', { text: t('moves.variations') }));
        for (const v of vars) {
            box.append(make('div', { class: 'variation', 'data-testid': 'variation', 'data-id': v.id }, [
                make('span', { text: t('moves.variation', { n: v.ply, line: (v.line || []).slice(0, 4).join(' ') + ((v.line || []).length > 4 ? ' …' : '') }) }),
                make('a', { class: 'button small', href: '#/game/' + v.id, 'data-testid': 'variation-open', text: t('moves.open') }),
                this.canPromote() ? make('button', { type: 'button', class: 'small', 'data-testid': 'variation-promote', text: t('moves.promote'), onclick: () => this.promote(v) }) : '',
                make('button', { type: 'button', class: 'small danger', 'data-testid': 'variation-delete', text: t('moves.delete'), onclick: () => this.deleteVariation(v.id) }),
            ]));
        }
    }

    // Between humans on one screen, in a game going on, a variation can become the game's
    // line: the line it replaces is kept as a variation in its place.
    canPromote() {
        const g = this.game;
        return !!g && !g.result && !g.online && !inPhase(g) && !this.isComputer('black') && !this.isComputer('white');
    }

    async promote(v) {
        const g = this.game;
        try {
            const line = (await api.get(v.id)).moves.slice(v.ply);
            const old = g.moves.concat(g.redo);
            if (old.length > v.ply) {
                const kept = await api.create({ rule: g.rule, size: g.size, black: 'human', white: 'human', moves: old });
                this.linkVariation(kept.id, { game: g.id, ply: v.ply, line: old.slice(v.ply) });
            }
            let now = await api.goto(g.id, v.ply);
            for (const m of line) now = await api.move(g.id, m);
            await this.deleteVariation(v.id);
            this.apply(now);
            toast(t('moves.promoted', { n: v.ply }));
        } catch (e) {
            showError(e);
        }
    }

    async deleteVariation(id) {
        try {
            await api.remove(id);
        } catch (e) {
            if (e.code !== 'no_game') return showError(e);
        }
        const links = getPref('variations', {});
        delete links[id];
        setPref('variations', links);
        this.renderMoves();
    }

    // A new move where a redo line stands would cut it: the line is kept as a variation.
    async keepRedoLine() {
        const g = this.game;
        if (!g || g.online || !g.redo.length || inPhase(g)) return;
        try {
            const v = await api.create({ rule: g.rule, size: g.size, black: 'human', white: 'human', moves: g.moves.concat(g.redo) });
            this.linkVariation(v.id, { game: g.id, ply: g.ply, line: g.redo });
            toast(t('moves.kept', { n: g.ply }));
        } catch (e) {
            // The line cannot be a game of its own (an opening's stones, a foul): it is cut as before.
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    undo() {
        const g = this.game;
        if (!g) return;
        if (this.reviewing()) return this.setView(this.shownPly() - 1);
        this.act(async () => {
            const r = await api.undo(g.id);
            if (g.online && r && r.undo_offer) toast(t('msg.undoAsked'));
            return r;
        });
    }

    redo() {
        if (this.reviewing()) return this.setView(this.shownPly() + 1);
        if (this.game) this.act(() => api.redo(this.game.id));
    }

    first() {
        if (this.reviewing()) return this.setView(0);
        if (this.game) this.act(() => api.goto(this.game.id, 0));
    }

    last() {
        const g = this.game;
        if (this.reviewing()) return this.setView(g.ply);
        if (g) this.act(() => api.goto(g.id, g.ply + g.redo.length));
    }

    // Resigning asks first: the question stands in the offers box until answered.
    resign() {
        if (!this.game) return;
        this.resignAsked = true;
        this.renderOffers();
        const yes = document.querySelector('[data-testid=resign-yes]');
        if (yes) yes.focus();
    }

    confirmResign(yes) {
        this.resignAsked = false;
        this.renderOffers();
        if (yes && this.game) this.act(() => api.resign(this.game.id, this.actingColor()));
    }

    offerDraw(color) {
        const g = this.game;
        if (!g) return;
        this.act(async () => {
            const r = await api.draw(g.id, color || this.actingColor());
            if (r && r.declined) toast(t('msg.drawDeclined'));
            else if (r && r.draw_offer) toast(t('msg.drawOffered'));
            return r;
        });
    }

    declineOffer() { if (this.game) this.act(() => api.decline(this.game.id)); }

    // On one screen between humans, resign and draw act for the side to move; otherwise the
    // server's default (the seat, or the human against the computer) is right.
    actingColor() {
        const g = this.game;
        if (g.online || g.result) return undefined;
        if (!this.isComputer('black') && !this.isComputer('white')) return g.to_move || undefined;
        return undefined;
    }

    // A paused computer (after an undo, a jump or stop) thinks again with its full time.
    go() { if (this.game) this.act(() => api.go(this.game.id)); }

    moveNow() { if (this.game) this.act(() => api.moveNow(this.game.id)); }

    stop() {
        if (!this.game) return;
        this.hintPending = false;
        this.renderButtons();
        this.act(() => api.stop(this.game.id));
    }

    hint() {
        const g = this.game;
        if (!g) return;
        if (g.result) return toast(t('msg.hintNone'));
        if (this.opts.analyze && this.search && this.search.kind === 'analysis' && this.search.lines.length) {
            return this.showHint(this.search);
        }
        this.hintPending = true;
        this.renderButtons();
        this.afterStop(() => api.analyze(g.id, HINT_MS, 1)).catch((e) => {
            this.hintPending = false;
            this.renderButtons();
            showError(e);
        });
    }

    showHint(s) {
        this.hintPending = false;
        const best = s.lines && s.lines[0];
        if (!best || !best.moves.length) return;
        this.hintPoint = best.moves[0];
        toast(t('msg.hint', { point: this.hintPoint, score: best.text }));
        this.renderBoard();
    }

    join() {
        const g = this.game;
        if (!g) return;
        api.join(g.id).then((r) => {
            setSeat(g.id, r.you);
            toast(t('msg.joined', { color: colorName(r.you.color) }));
            this.apply(r.game);
        }, showError);
    }

    // Analysis follows the position: a new search whenever the position changes while the
    // toggle is on (any change stops the previous one on the server).
    maybeAnalyze() {
        const g = this.game;
        if (!this.opts.analyze || !g || g.result || g.thinking || this.isSpectator() || inPhase(g) || g.balancing) return;
        const key = `${g.id}:${g.moves.join('')}:${this.opts.multipv}:${this.opts.anaTime}`;
        if (key === this.analyzeKey) return;
        this.analyzeKey = key;
        this.afterStop(() => api.analyze(g.id, this.opts.anaTime, this.opts.multipv)).catch(showError);
    }

    // A stop still in flight would cancel a search asked for after it, so searches wait for it.
    async afterStop(fn) {
        if (this.stopping) await this.stopping.catch(() => {});
        return fn();
    }

    sendStop() {
        const g = this.game;
        const p = api.stop(g.id);
        this.stopping = p;
        p.then(() => { if (this.stopping === p) this.stopping = null; }, (e) => { this.stopping = null; showError(e); });
        return p;
    }

    setAnalyze(on) {
        this.opts.analyze = on;
        this.analyzeKey = null;
        const g = this.game;
        if (on) this.maybeAnalyze();
        else {
            if (g && !g.thinking && !g.result && !this.isSpectator()) this.sendStop();
            if (this.search && this.search.kind === 'analysis') this.search = null;
        }
        this.render();
    }

    copyPosition() {
        if (!this.game) return;
        const pos = this.game.moves.join('');
        const ok = () => toast(t('msg.copied', { pos }));
        const fail = () => toast(t('msg.copyFailed', { pos }));
        if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(pos).then(ok, fail);
        else fail();
    }

    // ---- drawing ---------------------------------------------------------------------------

    render() {
        this.renderBoard();
        this.renderStatus();
        this.renderPlayers();
        this.renderOpening();
        this.renderOffers();
        this.renderOnline();
        this.renderButtons();
        this.renderAnalysisPanel();
        this.renderGraph();
        this.renderRecords();
        this.renderSolve();
        this.renderSetup();
        this.renderMoves();
    }

    renderBoard() {
        if (this.setup) return this.renderSetupBoard();
        const g = this.game;
        const o = this.opts;
        const showForbidden = g && o.forbidden && g.to_move === 'black' && !g.thinking;
        const shown = this.shownPly();
        const atEnd = !g || shown === g.ply;
        const analysis = o.analyze && this.search && this.search.kind === 'analysis';
        const step = inPhase(g) ? g.opening.step : null;
        const mine = this.myTurn();
        // During the phase: the square a stone must go in, the offered 5th moves, the colour
        // of the stone the step places.
        const hover = !mine ? null : step ? (step.kind === 'place' ? step.color : step.kind === 'offer' ? 'black' : null) : g.to_move;
        this.board.render({
            size: g ? g.size : 15,
            moves: g ? g.moves.slice(0, shown) : [],
            coords: o.coords,
            numbers: o.numbers,
            win: g && g.result && g.result.line && atEnd ? g.result.line : null,
            forbidden: showForbidden ? g.forbidden || [] : [],
            candidates: analysis && !this.preview ? candidatesOf(this.search, o.winrate) : [], // a preview replaces them
            hint: this.hintPoint,
            pending: this.pending,
            preview: this.preview,
            solve: this.solvedHere() && this.solved.status === 'win' ? this.solved : null,
            hoverColor: hover,
            area: step && step.kind === 'place' ? step.area : 0,
            offers: step && (step.kind === 'offer' || step.kind === 'select') ? g.opening.offers : [],
        });
        $('board').dataset.setup = 'false';
        $('board').dataset.ply = shown;
        $('board').dataset.review = g && !atEnd ? 'true' : 'false';
        $('board').dataset.game = g ? g.id : '';
    }

    // The position being set up: its stones, the tool's colour under the pointer.
    renderSetupBoard() {
        const g = this.game;
        const tool = this.setupTool();
        this.board.render({
            size: g ? g.size : 15,
            moves: this.setupMoves(),
            coords: this.opts.coords,
            numbers: false,
            hoverColor: tool === 'erase' ? null : tool,
        });
        $('board').dataset.setup = 'true';
    }

    statusText() {
        const g = this.game;
        if (!g) return t('status.noGame');
        if (g.result && this.view !== null) return `${resultText(g.result)} · ${t('status.review', { n: this.view, total: g.ply })}`;
        if (g.result) return resultText(g.result);
        if (g.balancing || inPhase(g)) return this.stepText();
        const c = colorName(g.to_move);
        if (g.thinking) return t('status.thinking', { color: c });
        if (this.isComputer(g.to_move) && g.search_error) return t('status.searchError', { color: c, error: g.search_error });
        if (this.isComputer(g.to_move)) return t('status.paused', { color: c });
        if (g.online && this.seat && this.seat.color === g.to_move) return t('status.yourMove', { color: c });
        return t('status.toMove', { color: c });
    }

    renderStatus() {
        const g = this.game;
        const el = clear($('status'));
        if (g) el.append(make('span', { class: 'rule', 'data-testid': 'status-rule', text: `${ruleName(g.rule)} · ${g.size}×${g.size}` }));
        el.append(make('span', { class: 'turn', 'data-testid': 'status-text', text: this.statusText() }));
        const from = g && getPref('variations', {})[g.id];
        if (from) {
            el.append(make('span', { class: 'variation-of', 'data-testid': 'variation-of' }, [
                make('a', { href: '#/game/' + from.game, text: t('status.variationOf', { n: from.ply }) }),
            ]));
        }
        el.dataset.state = !g ? 'none' : g.result ? 'over' : g.thinking ? 'thinking' : 'play';
    }

    // The opening step as a sentence in the page's language, built from its fields.
    stepText() {
        const g = this.game;
        if (g.balancing) return t('opening.balancing');
        const st = g.opening && g.opening.step;
        if (!st) return '';
        const who = st.kind === 'place' ? t('opening.player', { n: st.player })
            : t('opening.who', { n: st.player, color: colorName(st.color) });
        if (st.who !== 'human') return t(g.thinking ? 'opening.thinking' : 'opening.paused', { who });
        const stone = t('stone.' + st.color);
        switch (st.kind) {
        case 'place':
            if (st.area === 1) return t('opening.placeCentre', { who, color: stone });
            if (st.area > 1) return t('opening.placeArea', { who, color: stone, n: st.area });
            return t(st.count > 1 ? 'opening.placeMore' : 'opening.place', { who, color: stone, count: st.count });
        case 'choose': return t('opening.choose', { who });
        case 'declare': return t('opening.declare', { who, min: st.min, max: st.max });
        case 'offer': return t('opening.offer', { who, count: st.count });
        default: return t('opening.select', { who });
        }
    }

    // The opening box: the rule (and which renju opening the stones are), the step, and the
    // buttons of a choice or the number of a declaration when this screen is asked.
    renderOpening() {
        const g = this.game;
        const box = $('opening-box');
        box.hidden = !g || !g.opening;
        if (box.hidden) return;
        const op = g.opening;
        const r = op.renju_opening;
        const rule = t(op.done ? 'opening.done' : 'opening.phase', { rule: t('opening.' + op.rule) });
        const mine = this.myColor(g);
        const you = mine ? ` · ${t('opening.youPlay', { color: colorName(mine) })}` : '';
        $('opening-rule').textContent = (r ? `${rule} · ${r.code} ${r.name} ${r.chinese}` : rule) + you;
        $('opening-step').textContent = inPhase(g) || g.balancing ? this.stepText() : '';
        // The status line above says the step already: it is shown once.
        $('opening-step').hidden = true;
        const actions = clear($('opening-actions'));
        const st = op.step;
        if (!this.myStep() || !st) return;
        if (st.kind === 'choose') {
            for (const c of st.choices) {
                const text = c === 'stay' ? t('opening.take.' + st.color) : c === 'swap' ? t('opening.take.' + other(st.color))
                    : c === 'place-two' ? t('opening.placeTwo') : t('opening.offerTen');
                actions.append(make('button', { type: 'button', class: 'primary', 'data-testid': 'choice-' + c, text, onclick: () => this.choose(c) }));
            }
        } else if (st.kind === 'declare') {
            const input = make('input', { type: 'number', id: 'opening-n', 'data-testid': 'opening-n', min: st.min, max: st.max, value: st.min });
            actions.append(input, make('button', {
                type: 'button', class: 'primary', 'data-testid': 'opening-declare', text: t('opening.declareBtn'),
                onclick: () => this.declare(Math.round(Number(input.value))),
            }));
        }
    }

    renderPlayers() {
        const g = this.game;
        for (const c of ['black', 'white']) {
            let name = g ? playerName(g[c]) : '';
            // Under an opening rule players are numbered: colours trade on swaps.
            const n = g && g.opening ? Object.keys(g.opening.players).find((k) => g.opening.players[k] === c) : null;
            if (n) name = `${t('opening.player', { n })} · ${name}`;
            if (g && this.seat && this.seat.color === c) name += ' ★';
            $('name-' + c).textContent = name;
            $('player-' + c).classList.toggle('to-move', !!g && g.to_move === c);
        }
        this.tickClocks();
    }

    // The clock values are exact at the moment of the answer; the running side's counts
    // down from there locally. At zero the server decides (a loss on time), so ask it once.
    tickClocks() {
        const b = this.clockBase;
        for (const c of ['black', 'white']) {
            const el = $('clock-' + c);
            if (!b) { el.textContent = t('clock.none'); el.classList.remove('running', 'low'); continue; }
            let ms = b[c + '_ms'];
            if (b.running === c) ms -= performance.now() - b.at;
            el.textContent = formatClock(ms);
            el.classList.toggle('running', b.running === c);
            el.classList.toggle('low', ms < 10000);
            if (ms <= 0 && b.running === c && !this.timeoutAsked && this.game) {
                this.timeoutAsked = true;
                const id = this.game.id;
                setTimeout(() => api.get(id).then((g) => this.id === id && this.apply(g), showError), 600);
            }
        }
    }

    renderOffers() {
        const g = this.game;
        const box = clear($('offers'));
        box.hidden = true;
        if (!g || g.result) {
            this.resignAsked = false;
            return;
        }
        if (this.resignAsked) {
            const who = this.actingColor() || (g.online && this.seat ? this.seat.color : null);
            box.append(make('div', { class: 'offer', 'data-testid': 'resign-ask' }, [
                make('span', { text: who ? t('resign.askColor', { color: colorName(who) }) : t('resign.ask') }),
                make('button', { type: 'button', class: 'danger', 'data-testid': 'resign-yes', text: t('resign.yes'), onclick: () => this.confirmResign(true) }),
                make('button', { type: 'button', 'data-testid': 'resign-no', text: t('resign.no'), onclick: () => this.confirmResign(false) }),
            ]));
            box.hidden = false;
        }
        const add = (text, label, fn, testid) => {
            const row = make('div', { class: 'offer' }, [make('span', { text })]);
            if (fn) {
                row.append(make('button', { type: 'button', 'data-testid': testid, class: 'primary', text: label, onclick: fn }));
                row.append(make('button', { type: 'button', 'data-testid': `decline-${testid.replace('accept-', '')}`, text: t('offer.decline'), onclick: () => this.declineOffer() }));
            }
            box.append(row);
            box.hidden = false;
        };
        if (g.draw_offer) {
            const by = colorName(g.draw_offer);
            if (g.online) {
                const mine = this.seat && this.seat.color === g.draw_offer;
                add(t('offer.draw', { color: by }), t('online.accept'), this.seat && !mine ? () => this.offerDraw() : null, 'accept-draw');
            } else {
                const taker = other(g.draw_offer);
                add(t('offer.draw', { color: by }), t('offer.acceptFor', { color: colorName(taker) }), () => this.offerDraw(taker), 'accept-draw');
            }
        }
        if (g.undo_offer && g.online) {
            const mine = this.seat && this.seat.color === g.undo_offer;
            add(t('online.offerUndo', { color: colorName(g.undo_offer) }), t('online.accept'), this.seat && !mine ? () => this.undo() : null, 'accept-undo');
        }
    }

    renderOnline() {
        const g = this.game;
        const box = $('online-box');
        box.hidden = !g || !g.online;
        if (box.hidden) return;
        const seats = g.seats || {};
        $('online-seat').textContent = this.seat ? t('online.you', { color: colorName(this.seat.color) }) : t('online.spectator');
        $('online-share').hidden = !this.seat;
        $('share-link').value = `${location.origin}/#/game/${g.id}`;
        const join = clear($('online-join'));
        if (!this.seat) {
            const open = ['black', 'white'].find((c) => seats[c] === 'open');
            if (open) {
                join.append(make('button', {
                    type: 'button', class: 'primary', id: 'btn-join', 'data-testid': 'btn-join',
                    text: t('online.join', { color: colorName(open) }), onclick: () => this.join(),
                }));
            } else join.append(make('span', { text: t('online.full') }));
        } else {
            const open = ['black', 'white'].find((c) => seats[c] === 'open');
            if (open) join.append(make('span', { class: 'muted', text: t('status.waitOpponent', { color: colorName(open) }) }));
        }
    }

    // Online, hints and analysis are for both players or neither.
    aidsAllowed() {
        const g = this.game;
        return !g || !g.online || !!(g.aids && g.aids.black && g.aids.white);
    }

    renderAids() {
        const g = this.game;
        const box = $('online-aids');
        box.hidden = !g || !g.online || !this.seat || !!g.result;
        if (box.hidden) return;
        const mine = this.seat.color;
        $('opt-aids').checked = !!g.aids[mine];
        const other = mine === 'black' ? 'white' : 'black';
        $('aids-state').textContent = this.aidsAllowed() ? t('online.aidsOn')
            : g.aids[mine] ? t('online.aidsWait', { color: colorName(other) }) : t('online.aidsOff');
    }

    renderButtons() {
        const g = this.game;
        const over = !g || !!g.result;
        const spectator = this.isSpectator();
        const online = g && g.online;
        const computerToMove = g && !over && this.computerActs();
        const phase = inPhase(g) || (g && g.balancing);
        const acted = g && g.opening && g.opening.line.includes(' ');
        const set = (id, enabled) => { $(id).disabled = !enabled; };
        if (over && g) {
            // Reviewing: the view moves, for anyone watching too.
            const shown = this.shownPly();
            set('btn-first', shown > 0);
            set('btn-undo', shown > 0);
            set('btn-redo', shown < g.ply);
            set('btn-last', shown < g.ply);
        } else {
            set('btn-first', g && !online && g.ply > 0);
            set('btn-undo', g && !spectator && (g.ply > 0 || acted));
            set('btn-redo', g && !online && g.redo.length > 0);
            set('btn-last', g && !online && g.redo.length > 0);
        }
        set('btn-hint', g && !over && !g.thinking && !spectator && !phase && this.aidsAllowed());
        set('btn-move-now', computerToMove);
        set('btn-go', computerToMove && !g.thinking);
        set('btn-stop', g && !spectator && (g.thinking || !!(this.search && this.search.kind === 'analysis' && !this.search.final) || this.hintPending));
        set('btn-draw', g && !over && !spectator);
        set('btn-resign', g && !over && !spectator);
        set('opt-analyze', g && !spectator && !phase && this.aidsAllowed());
        if (!this.aidsAllowed() && this.opts.analyze) {
            this.opts.analyze = false;
            $('opt-analyze').checked = false;
        }
        this.renderAids();
        for (const f of ['psq', 'sgf', 'pos']) $('dl-' + f).classList.toggle('disabled', !g);
        set('btn-copy-pos', !!g);
    }

    renderAnalysisPanel() {
        const s = this.search;
        const show = s && (s.kind === 'move' || this.opts.analyze);
        if (!show) return clearAnalysis();
        renderAnalysis(s, (line) => {
            this.preview = line ? { moves: line.moves, color: s.color } : null;
            this.renderBoard();
        });
    }

    renderGraph() {
        const g = this.game;
        const over = g && g.result;
        const canJump = g && (over || !g.online);
        const pick = over ? (ply) => this.setView(ply) : (ply) => ply !== g.ply && this.act(() => api.goto(g.id, ply));
        drawGraph($('graph'), g ? g.evals || [] : [], this.shownPly(), g ? g.ply + (over ? 0 : g.redo.length) : 0,
            canJump ? pick : null);
    }

    renderRecords() {
        const g = this.game;
        for (const f of ['psq', 'sgf', 'pos']) {
            const a = $('dl-' + f);
            if (g) {
                a.href = api.recordUrl(g.id, f);
                a.setAttribute('download', `tengen-${g.id}.${f}`);
            } else a.removeAttribute('href');
        }
    }

    // ---- wiring ----------------------------------------------------------------------------

    bindControls() {
        const on = (id, fn) => $(id).addEventListener('click', fn);
        on('btn-first', () => this.first());
        on('btn-undo', () => this.undo());
        on('btn-redo', () => this.redo());
        on('btn-last', () => this.last());
        on('btn-hint', () => this.hint());
        on('btn-go', () => this.go());
        on('btn-move-now', () => this.moveNow());
        on('btn-stop', () => this.stop());
        on('btn-draw', () => this.offerDraw());
        on('btn-resign', () => this.resign());
        on('btn-copy-pos', () => this.copyPosition());
        on('btn-solve', () => this.solve());
        $('opt-aids').addEventListener('change', (e) => {
            const g = this.game;
            if (g) this.act(() => api.aids(g.id, e.target.checked));
        });
        // Turning the board is a view: the game and its coordinates stay as they are.
        on('btn-rotate', () => this.board.setOrientation((this.board.orient & 4) | ((this.board.orient + 1) & 3)));
        // A mirror of the view as shown: its quarter turns then run the other way.
        on('btn-flip', () => this.board.setOrientation(((4 - (this.board.orient & 3)) & 3) | ((this.board.orient & 4) ^ 4)));
        on('btn-setup', () => this.startSetup());
        on('setup-cancel', () => this.endSetup());
        on('setup-clear', () => { this.setup = { black: new Set(), white: new Set() }; this.renderBoard(); });
        on('setup-play', () => this.playSetup());
        on('btn-png', () => this.exportImage('png'));
        on('btn-svg', () => this.exportImage('svg'));
        for (const r of document.querySelectorAll('input[name=setup-tool]')) r.addEventListener('change', () => this.renderBoard());
        on('btn-copy-link', () => {
            const link = $('share-link').value;
            if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast(t('msg.linkCopied')), () => $('share-link').select());
            else $('share-link').select();
        });
        const toggle = (id, key, after) => {
            const box = $(id);
            box.checked = this.opts[key];
            box.addEventListener('change', () => {
                this.opts[key] = box.checked;
                setPref(key, box.checked);
                if (after) after();
                this.renderBoard();
            });
        };
        toggle('opt-numbers', 'numbers');
        toggle('opt-coords', 'coords');
        toggle('opt-forbidden', 'forbidden');
        toggle('opt-confirm', 'confirm', () => { this.pending = null; });
        toggle('opt-winrate', 'winrate');
        $('opt-analyze').addEventListener('change', (e) => this.setAnalyze(e.target.checked));
        const anaTime = $('opt-ana-time');
        anaTime.value = String(this.opts.anaTime);
        anaTime.addEventListener('change', () => {
            this.opts.anaTime = Number(anaTime.value);
            setPref('anaTime', this.opts.anaTime);
            this.maybeAnalyze();
        });
        const mpv = $('opt-multipv');
        mpv.value = String(this.opts.multipv);
        mpv.addEventListener('change', () => {
            this.opts.multipv = Number(mpv.value);
            setPref('multipv', this.opts.multipv);
            this.maybeAnalyze();
        });
        // Right click on the board: the computer plays now (Gomocalc's habit).
        $('board').addEventListener('contextmenu', (e) => {
            if (this.game && !this.game.result && this.computerActs()) {
                e.preventDefault();
                this.moveNow();
            }
        });
    }
}

export function resultText(r) {
    const reason = t('reason.' + r.reason, { foul: r.foul ? foulName(r.foul) : '', point: r.foul_point || '' });
    const head = r.winner ? t('result.win', { color: colorName(r.winner) }) : t('result.draw');
    return `${head} (${reason})`;
}
