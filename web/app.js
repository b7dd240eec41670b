// app.js — starts the page: the top bar (new game, language, theme, sound), the hash
// router (#/game/ID, #/games, #/replay/ID; the server only ever serves "/"), loading records,
// and keyboard shortcuts.

import { api } from './api.js';
import { GameView } from './game.js';
import { GamesView, ReplayView } from './games.js';
import { NewGameDialog } from './dialog.js';
import { t, getLang, setLang, translatePage } from './i18n.js';
import { getPref, setPref } from './prefs.js';
import { isMuted, setMuted } from './sound.js';
import { $, toast, showError } from './ui.js';

const views = ['view-game', 'view-games', 'view-replay'];
let gameView, gamesView, replayView, dialog;

function show(viewId) {
    for (const v of views) $(v).hidden = v !== viewId;
    $('nav-play').classList.toggle('active', viewId === 'view-game');
    $('nav-games').classList.toggle('active', viewId !== 'view-game');
    document.body.dataset.view = viewId;
}

function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    const [page, id] = hash.split('/');
    if (page === 'game' && id) {
        show('view-game');
        setPref('lastGame', id);
        gameView.open(id);
    } else if (page === 'games') {
        gameView.close();
        show('view-games');
        gamesView.load(0);
    } else if (page === 'replay' && id) {
        gameView.close();
        show('view-replay');
        replayView.open(id);
    } else {
        // Home: back to the last game of this browser, or a fresh start.
        const last = getPref('lastGame', null);
        if (last) {
            location.replace('#/game/' + last);
            return;
        }
        show('view-game');
        dialog.open();
    }
}

// ---- top bar ---------------------------------------------------------------------------------

function applyTheme(theme) {
    document.documentElement.dataset.theme = theme;
    // The button names the theme it switches to.
    $('btn-theme').textContent = t(theme === 'dark' ? 'btn.theme.wood' : 'btn.theme.dark');
    setPref('theme', theme);
}

function renderSoundButton() {
    const b = $('btn-sound');
    b.textContent = t(isMuted() ? 'btn.unmute' : 'btn.mute');
    b.setAttribute('aria-pressed', String(!isMuted()));
}

function relabel() {
    translatePage();
    dialog.fillLevels();
    applyTheme(document.documentElement.dataset.theme);
    renderSoundButton();
    gameView.render();
    if (!$('view-games').hidden) gamesView.render();
    if (!$('view-replay').hidden) replayView.render();
}

function bindTopBar() {
    $('btn-new').addEventListener('click', () => dialog.open());
    $('btn-lang').addEventListener('click', () => {
        setLang(getLang() === 'zh' ? 'en' : 'zh');
        relabel();
    });
    $('btn-theme').addEventListener('click', () => {
        applyTheme(document.documentElement.dataset.theme === 'dark' ? 'wood' : 'dark');
    });
    $('btn-sound').addEventListener('click', () => {
        setMuted(!isMuted());
        renderSoundButton();
    });
}

// ---- loading records -------------------------------------------------------------------------

async function importRecord(data) {
    if (!data.trim()) return toast(t('msg.emptyPaste'), 'error');
    try {
        const g = await api.import(data);
        toast(t('msg.loaded'));
        location.hash = '#/game/' + g.id;
        return g;
    } catch (e) {
        return showError(e);
    }
}

function bindLoading() {
    $('btn-load-paste').addEventListener('click', async () => {
        const g = await importRecord($('paste').value);
        if (g) $('paste').value = '';
    });
    $('load-file').addEventListener('change', async (e) => {
        const file = e.target.files && e.target.files[0];
        if (!file) return;
        try {
            await importRecord(await file.text());
        } finally {
            e.target.value = '';
        }
    });
}

// ---- keyboard --------------------------------------------------------------------------------

function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || '';
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || $('new-dialog').open) return;
    if (!$('view-replay').hidden) {
        if (replayView.key(e)) e.preventDefault();
        return;
    }
    if (e.key === 'n') return dialog.open();
    if ($('view-game').hidden) return;
    const actions = { u: () => gameView.undo(), r: () => gameView.redo(), Home: () => gameView.first(), End: () => gameView.last() };
    if (actions[e.key]) {
        e.preventDefault();
        actions[e.key]();
    }
}

// ---- start -----------------------------------------------------------------------------------

function start() {
    translatePage();
    applyTheme(getPref('theme', 'wood'));
    renderSoundButton();
    gameView = new GameView();
    gamesView = new GamesView();
    replayView = new ReplayView();
    dialog = new NewGameDialog();
    bindTopBar();
    bindLoading();
    document.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', route);
    // Unexpected failures reach the player too, not only the console.
    window.addEventListener('unhandledrejection', (e) => showError(e.reason));
    route();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
