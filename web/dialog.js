// dialog.js — the new-game dialog: rule, size, who plays (two humans, against the computer
// with either colour, computer against computer, an online room) and the time control.
// The last choices are remembered so "New game" is one click for a repeat.

import { api } from './api.js';
import { t } from './i18n.js';
import { getPref, setPref, setSeat } from './prefs.js';
import { $, showError } from './ui.js';

const LEVELS = ['easy', 'medium', 'hard', 'max'];

export class NewGameDialog {
    constructor() {
        this.dlg = $('new-dialog');
        this.form = $('new-form');
        for (const sel of this.form.querySelectorAll('select.level')) {
            for (const lv of LEVELS) {
                const o = document.createElement('option');
                o.value = lv;
                o.dataset.i18n = 'level.' + lv;
                o.textContent = t('level.' + lv);
                sel.append(o);
            }
        }
        this.restore();
        $('ng-mode').addEventListener('change', () => this.sync());
        $('ng-clock').addEventListener('change', () => this.sync());
        $('ng-cancel').addEventListener('click', () => this.dlg.close());
        this.form.addEventListener('submit', (e) => {
            e.preventDefault();
            this.start();
        });
    }

    restore() {
        const p = getPref('newgame', {});
        const set = (id, v) => { if (v !== undefined) $(id).value = v; };
        set('ng-rule', p.rule);
        set('ng-size', p.size);
        set('ng-mode', p.mode);
        set('ng-color', p.color);
        set('ng-level', p.level ?? 'medium');
        set('ng-black-level', p.blackLevel ?? 'medium');
        set('ng-white-level', p.whiteLevel ?? 'medium');
        set('ng-clock', p.clock);
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
        const clockOn = $('ng-clock').value === 'on';
        for (const el of this.form.querySelectorAll('.c-on')) el.hidden = !clockOn;
    }

    open() {
        this.restore();
        if (!this.dlg.open) this.dlg.showModal();
    }

    values() {
        const v = (id) => $(id).value;
        return {
            rule: v('ng-rule'), size: v('ng-size'), mode: v('ng-mode'), color: v('ng-color'),
            level: v('ng-level'), blackLevel: v('ng-black-level'), whiteLevel: v('ng-white-level'),
            clock: v('ng-clock'), minutes: v('ng-minutes'), increment: v('ng-increment'),
        };
    }

    static spec(v) {
        const size = Math.max(5, Math.min(22, Math.round(Number(v.size)) || 15));
        const spec = { rule: v.rule, size, black: 'human', white: 'human' };
        if (v.mode === 'hvc') {
            if (v.color === 'black') spec.white = v.level;
            else spec.black = v.level;
        } else if (v.mode === 'cvc') {
            spec.black = v.blackLevel;
            spec.white = v.whiteLevel;
        } else if (v.mode === 'online') {
            spec.online = true;
            spec.seat = v.color;
        }
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
