// dialog.js — the new-game dialog: rule, size, the opening rule and start position, who plays
// (two humans, against the computer with either colour, computer against computer, an online
// room) and the time control. The last choices are remembered so "New game" is one click for
// a repeat.

import { api } from './api.js';
import { t } from './i18n.js';
import { getPref, setPref, setSeat } from './prefs.js';
import { $, showError } from './ui.js';

// The levels weakest first, until GET /api/info names them with their measured ratings.
let LEVELS = ['beginner', 'easy', 'medium', 'hard', 'max', 'mcts', 'zero'];
let RATINGS = {};

// What each opening rule allows (GET /api/openings says the same; this copy lets the dialog
// work before that answer comes): an odd board only, the smallest board, three first stones.
const RULES = {
    none: { odd_size: false, min_size: 5, three_stones: true },
    swap1: { odd_size: false, min_size: 5, three_stones: false },
    swap: { odd_size: false, min_size: 5, three_stones: true },
    swap2: { odd_size: false, min_size: 5, three_stones: true },
    rif: { odd_size: true, min_size: 5, three_stones: true },
    yamaguchi: { odd_size: true, min_size: 5, three_stones: true },
    soosorv8: { odd_size: true, min_size: 5, three_stones: true },
    taraguchi10: { odd_size: true, min_size: 9, three_stones: false },
};

export class NewGameDialog {
    constructor() {
        this.dlg = $('new-dialog');
        this.form = $('new-form');
        this.fillLevels();
        this.loadLevels();
        this.zeroBoards = [];
        this.loadOpenings();
        api.info().then((i) => {
            this.zeroBoards = i.zero_boards || [];
            this.sync();
        }).catch(() => {});
        this.restore();
        for (const id of ['ng-mode', 'ng-clock', 'ng-rule', 'ng-opening', 'ng-startpos', 'ng-level']) {
            $(id).addEventListener('change', () => this.sync());
        }
        $('ng-size').addEventListener('input', () => this.sync());
        $('ng-cancel').addEventListener('click', () => this.dlg.close());
        this.form.addEventListener('submit', (e) => {
            e.preventDefault();
            this.start();
        });
    }

    // Each level with its measured rating ("Medium — about 800 points above beginner"); the
    // single computer opponent may also be picked by a target rating instead.
    fillLevels() {
        for (const sel of this.form.querySelectorAll('select.level')) {
            const keep = sel.value;
            sel.replaceChildren();
            const names = sel.id === 'ng-level' ? [...LEVELS, 'rating'] : LEVELS;
            for (const lv of names) {
                const o = document.createElement('option');
                o.value = lv;
                o.textContent = this.levelText(lv);
                sel.append(o);
            }
            if (keep) sel.value = keep;
        }
    }

    levelText(level) {
        const r = RATINGS[level];
        if (!r || r.elo === 0) return t('level.' + level);
        return t(r.elo > 0 ? 'level.rated' : 'level.ratedBelow', { level: t('level.' + level), n: Math.abs(r.elo) });
    }

    loadLevels() {
        api.info().then((info) => {
            LEVELS = info.levels;
            RATINGS = Object.fromEntries((info.ratings || []).map((r) => [r.level, r]));
            this.fillLevels();
            this.restore();
        }, () => {}); // the names alone still work
    }

    // The 26 renju openings by code, romanised and Chinese name ("2I Kyogetsu 峡月"): the same
    // words in every language, as players know them.
    loadOpenings() {
        api.openings().then((o) => {
            const sel = $('ng-startpos');
            for (const r of o.openings) {
                const opt = document.createElement('option');
                opt.value = r.code;
                opt.textContent = `${r.code} ${r.name} ${r.chinese}`;
                opt.className = 'renju-opening';
                sel.append(opt);
            }
            for (const r of o.rules) RULES[r.name] = r;
            const p = getPref('newgame', {});
            if (p.startpos) sel.value = p.startpos;
            this.sync();
        }, () => {}); // without the list the other starts still work
    }

    restore() {
        const p = getPref('newgame', {});
        const set = (id, v) => { if (v !== undefined && v !== null) $(id).value = v; };
        set('ng-rule', p.rule);
        set('ng-size', p.size);
        set('ng-opening', p.opening ?? 'none');
        set('ng-startpos', p.startpos ?? 'empty');
        set('ng-mode', p.mode);
        set('ng-color', p.color);
        set('ng-level', p.level ?? 'medium');
        set('ng-rating', p.rating);
        set('ng-black-level', p.blackLevel ?? 'medium');
        set('ng-white-level', p.whiteLevel ?? 'medium');
        set('ng-clock', p.clock);
        set('ng-think', p.think ?? '3000');
        set('ng-minutes', p.minutes);
        set('ng-increment', p.increment);
        this.sync();
    }

    // Shows only the fields of the chosen mode and time control.
    sync() {
        const mode = $('ng-mode').value;
        for (const el of this.form.querySelectorAll('[class*="m-"]')) {
            el.hidden = !el.classList.contains('m-' + mode);
        }
        $('ng-rating').hidden = $('ng-rating-label').hidden =
            mode !== 'hvc' || $('ng-level').value !== 'rating';
        const clockOn = $('ng-clock').value === 'on';
        for (const el of this.form.querySelectorAll('.c-on')) el.hidden = !clockOn;
        this.syncOpening();
    }

    // Offers only the opening rules and start positions the board and rule allow, and names
    // the players by number once an opening rule can swap their colours.
    syncOpening() {
        const size = Math.round(Number($('ng-size').value)) || 15;
        const odd = size % 2 === 1;
        const opening = $('ng-opening');
        for (const o of opening.options) {
            const r = RULES[o.value];
            o.disabled = !!r && ((r.odd_size && !odd) || size < r.min_size);
        }
        if (opening.selectedOptions[0]?.disabled) opening.value = 'none';
        const rule = RULES[opening.value] || RULES.none;
        const start = $('ng-startpos');
        const renjuStyle = rule.odd_size;
        for (const o of start.options) {
            if (o.value === 'empty') continue;
            const balancedOk = !renjuStyle || ($('ng-rule').value === 'renju' && size >= 15);
            o.disabled = !rule.three_stones || (o.value === 'balanced' ? !balancedOk : !odd);
        }
        if (start.selectedOptions[0]?.disabled) start.value = 'empty';
        // The zero level plays only where tengen has a network for the rule and size.
        const zeroOk = this.zeroBoards.some((z) => z.rule === $('ng-rule').value && z.size === size);
        for (const sel of this.form.querySelectorAll('select.level')) {
            const zero = [...sel.options].find((o) => o.value === 'zero');
            if (zero) zero.disabled = !zeroOk;
            if (sel.value === 'zero' && !zeroOk) sel.value = 'medium';
        }
        const numbered = opening.value !== 'none';
        const label = (id, key) => { $(id).dataset.i18n = key; $(id).textContent = t(key); };
        label('ng-color-label', numbered ? 'dlg.youAre' : 'dlg.yourColor');
        label('ng-black-level-label', numbered ? 'dlg.level1' : 'dlg.blackLevel');
        label('ng-white-level-label', numbered ? 'dlg.level2' : 'dlg.whiteLevel');
        const [b, w] = $('ng-color').options;
        b.dataset.i18n = numbered ? 'dlg.player1' : 'color.black';
        w.dataset.i18n = numbered ? 'dlg.player2' : 'color.white';
        b.textContent = t(b.dataset.i18n);
        w.textContent = t(w.dataset.i18n);
    }

    open() {
        this.restore();
        if (!this.dlg.open) this.dlg.showModal();
    }

    values() {
        const v = (id) => $(id).value;
        return {
            rule: v('ng-rule'), size: v('ng-size'), mode: v('ng-mode'), color: v('ng-color'),
            level: v('ng-level'), rating: v('ng-rating'), blackLevel: v('ng-black-level'), whiteLevel: v('ng-white-level'),
            clock: v('ng-clock'), minutes: v('ng-minutes'), increment: v('ng-increment'),
            opening: v('ng-opening'), startpos: v('ng-startpos'), think: v('ng-think'),
        };
    }

    static spec(v) {
        const size = Math.max(5, Math.min(22, Math.round(Number(v.size)) || 15));
        const spec = { rule: v.rule, size, black: 'human', white: 'human' };
        if (v.mode === 'hvc') {
            const other = v.color === 'black' ? 'white' : 'black';
            if (v.level === 'rating') {
                delete spec[other];
                spec[other + '_rating'] = Math.max(-10000, Math.min(10000, Math.round(Number(v.rating)) || 0));
            } else {
                spec[other] = v.level;
            }
        } else if (v.mode === 'cvc') {
            spec.black = v.blackLevel;
            spec.white = v.whiteLevel;
        } else if (v.mode === 'online') {
            spec.online = true;
            spec.seat = v.color;
        }
        // With an opening rule "black" and "white" name player 1 and player 2.
        if (v.opening && v.opening !== 'none') spec.opening = v.opening;
        // The max level's time a move without a clock (the other levels have their own).
        if ((v.mode === 'hvc' || v.mode === 'cvc') && Number(v.think) > 0) spec.computer_ms = Math.round(Number(v.think));
        if (v.startpos === 'balanced') spec.balanced = true;
        else if (v.startpos && v.startpos !== 'empty') spec.renju_opening = v.startpos;
        if (v.clock === 'on') {
            spec.clock = {
                game_ms: Math.round(Math.max(0.5, Number(v.minutes) || 5) * 60000),
                increment_ms: Math.round(Math.max(0, Number(v.increment) || 0) * 1000),
                move_ms: 0,
            };
        }
        return spec;
    }

    async start() {
        const v = this.values();
        setPref('newgame', v);
        let game;
        try {
            game = await api.create(NewGameDialog.spec(v));
        } catch (e) {
            return showError(e);
        }
        if (game.you) setSeat(game.id, game.you);
        this.dlg.close();
        location.hash = '#/game/' + game.id;
    }
}
