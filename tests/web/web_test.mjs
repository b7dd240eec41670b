// web_test.mjs — the tengen serve page driven in headless Chromium, as players would use it.
// usage: node tests/web/web_test.mjs http://127.0.0.1:PORT/   (run.sh starts the server)
// Plain node + playwright-core: each test() prints ok/FAIL; a page error or an unexpected
// console error fails the test that caused it. Exit status 1 when anything failed.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BASE = (process.argv[2] || '').replace(/\/?$/, '/');
if (!/^http:\/\//.test(BASE)) {
    console.error('usage: node web_test.mjs http://HOST:PORT/');
    process.exit(2);
}
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ARTIFACTS = path.join(ROOT, 'build/artifacts');
// How long a step may take: longer under the sanitizers, where the engine is several times slower.
const WAIT = Number(process.env.WEB_WAIT_MS) || 10000;
fs.mkdirSync(ARTIFACTS, { recursive: true });

let passed = 0;
let failed = 0;
const pageErrors = [];

// ---- harness ----------------------------------------------------------------------------------

// WEB_ONLY=regex runs only the tests whose names match (the first visit always runs).
const ONLY = process.env.WEB_ONLY ? new RegExp(process.env.WEB_ONLY) : null;

async function test(name, fn) {
    if (ONLY && !ONLY.test(name) && passed + failed > 0) return;
    pageErrors.length = 0;
    const t0 = Date.now();
    try {
        await fn();
        if (pageErrors.length) throw new Error('page errors:\n    ' + pageErrors.join('\n    '));
        passed++;
        console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
        failed++;
        // The first frame in this file says which step of the test gave up.
        const at = (e.stack || '').split('\n').find((l) => l.includes('web_test.mjs')) || '';
        const line = (at.match(/web_test\.mjs:(\d+)/) || [])[1];
        console.log(`FAIL ${name}${line ? ` (line ${line})` : ''}: ${e.message.split('\n').slice(0, 6).join('\n    ')}`);
    }
}

function assert(cond, msg) {
    if (!cond) throw new Error(msg);
}

const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// A fresh browser profile (its own localStorage), with console errors and page errors
// collected. page.allow(re) lets a test expect a refused request (Chrome logs every 4xx
// answer as a console error).
async function newPage(viewport = { width: 1280, height: 900 }) {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    page.allowed = [];
    page.allow = (re) => page.allowed.push(re);
    page.on('pageerror', (e) => pageErrors.push('pageerror: ' + e.message));
    page.on('console', (m) => {
        if (m.type() !== 'error') return;
        const text = m.text();
        if (!page.allowed.some((re) => re.test(text))) pageErrors.push('console: ' + text);
    });
    page.setDefaultTimeout(WAIT);
    return page;
}

const stones = (page, sel = '#board') => page.locator(`${sel} [data-stone]`).count();

async function waitStones(page, n, sel = '#board') {
    await page.waitForFunction(([s, k]) => document.querySelectorAll(`${s} [data-stone]`).length === k, [sel, n]);
}

// For a stone the computer may answer at once: the count can pass n between two polls.
async function waitStonesAtLeast(page, n, sel = '#board') {
    await page.waitForFunction(([s, k]) => document.querySelectorAll(`${s} [data-stone]`).length >= k, [sel, n]);
}

async function statusText(page) {
    return (await page.textContent('[data-testid=status-text]')) || '';
}

async function waitStatus(page, re) {
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=status-text]')?.textContent || ''), re.source);
}

async function waitToast(page, re) {
    await page.waitForFunction((src) => {
        const el = document.getElementById('toast');
        return el && !el.hidden && new RegExp(src, 'i').test(el.textContent);
    }, re.source);
}

// Opens the dialog and starts a game; returns its id.
async function newGame(page, { mode = 'hvh', rule = 'freestyle', size = 15, color = 'black', level = 'easy', clock = false, opening = 'none', start = 'empty' } = {}) {
    if (!(await page.locator('#new-dialog[open]').count())) await page.click('#btn-new');
    await page.selectOption('#ng-rule', rule);
    await page.fill('#ng-size', String(size));
    await page.selectOption('#ng-opening', opening);
    // The 26 openings join the list when GET /api/openings has answered.
    if (!['empty', 'balanced', 'random'].includes(start)) await page.waitForSelector(`#ng-startpos option[value="${start}"]`, { state: 'attached' });
    await page.selectOption('#ng-startpos', start);
    await page.selectOption('#ng-mode', mode);
    if (mode === 'hvc' || mode === 'online') await page.selectOption('#ng-color', color);
    if (mode === 'hvc') await page.selectOption('#ng-level', level);
    if (mode === 'cvc') {
        await page.selectOption('#ng-black-level', level);
        await page.selectOption('#ng-white-level', level);
    }
    await page.selectOption('#ng-clock', clock ? 'on' : 'none');
    if (clock) {
        await page.fill('#ng-minutes', String(clock.minutes));
        await page.fill('#ng-increment', String(clock.increment));
    }
    const before = page.url();
    await page.click('#ng-start');
    await page.waitForFunction((u) => location.href !== u && /#\/game\//.test(location.hash), before);
    const id = page.url().split('#/game/')[1];
    // The board shows the new game (a computer playing Black may already have moved).
    await page.waitForFunction((gid) => document.getElementById('board').dataset.game === gid, id);
    return id;
}

// Plays a list of points by clicking, waiting for each stone to appear.
async function play(page, points) {
    for (const p of points) {
        const n = await stones(page);
        await page.click(`#board [data-point=${p}]`);
        await waitStones(page, n + 1);
    }
}

// ---- tests ------------------------------------------------------------------------------------

const main = await newPage();
let pastedId = null;

await test('first visit opens the new-game dialog', async () => {
    await main.goto(BASE);
    await main.waitForSelector('#new-dialog[open]');
    assert((await main.locator('#board svg.board').count()) === 1, 'no board drawn');
    assert(await main.locator('#board [data-point=a1]').count() === 1, 'no a1 on the empty board');
});

await test('two humans play to a five; result, winning line and rule are shown', async () => {
    await newGame(main, { mode: 'hvh' });
    assert(/Freestyle/.test(await main.textContent('[data-testid=status-rule]')), 'rule not visible');
    assert(/Black to move/.test(await statusText(main)), 'status: ' + (await statusText(main)));
    await main.hover('#board [data-point=c3]');
    await main.waitForSelector('#board .hover circle.black', { state: 'attached' });
    await play(main, ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9']);
    await waitStatus(main, /Black to move/);
    await main.click('#board [data-point=l8]');
    await waitStatus(main, /Black wins/);
    assert(/five/.test(await statusText(main)), 'reason missing: ' + (await statusText(main)));
    await main.waitForSelector('[data-testid=win-line]', { state: 'attached' });
    assert(await main.locator('#board [data-stone=l8][data-color=black]').count() === 1, 'l8 not black');
    assert(await main.isDisabled('#btn-resign'), 'resign still enabled after the end');
    await main.click('#board [data-point=a1]');
    await waitToast(main, /over/);
    await main.check('#opt-numbers');
    assert(await main.locator('#board text.num').count() === 9, 'move numbers not drawn');
    await main.uncheck('#opt-numbers');
    assert(await main.locator('[data-testid=last-move]').count() === 1, 'no last-move marker');
});

await test('review of a finished game is a view; a move tried there is a variation', async () => {
    const id = await newGame(main, { mode: 'hvh' });
    const line = ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9', 'l8'];
    await play(main, line);
    await waitStatus(main, /Black wins/);
    const server = () => main.evaluate((gid) => fetch(`/api/games/${gid}`).then((r) => r.json()), id);
    // Back, the graph and First only move the view: the game keeps its result and moves.
    await main.click('#btn-undo');
    await waitStones(main, 8);
    assert(/Black wins/.test(await statusText(main)), 'result gone after Back: ' + (await statusText(main)));
    assert(/move 8 of 9/i.test(await statusText(main)), 'no review position shown: ' + (await statusText(main)));
    assert(await main.isDisabled('#btn-resign') && await main.isDisabled('#btn-go'), 'game controls came back');
    await main.keyboard.press('u');
    await waitStones(main, 7);
    const box = await main.locator('#graph').boundingBox();
    await main.mouse.click(box.x + box.width * 0.35, box.y + box.height / 2);
    await main.waitForFunction(() => Number(document.getElementById('board').dataset.ply) < 7);
    await main.click('#btn-first');
    await waitStones(main, 0);
    await main.click('#btn-last');
    await waitStones(main, 9);
    await main.waitForSelector('[data-testid=win-line]', { state: 'attached' });
    let g = await server();
    assert(g.result && g.result.winner === 'black' && g.ply === 9 && g.moves.join() === line.join(), 'the game changed: ' + JSON.stringify(g).slice(0, 200));
    // A move at move 4 of the review starts a variation; the game stays as it was.
    for (let i = 0; i < 5; i++) await main.click('#btn-undo');
    await waitStones(main, 4);
    await main.click('#board [data-point=g7]');
    await main.waitForFunction((gid) => !location.hash.endsWith(gid), id);
    await waitStones(main, 5);
    const vid = main.url().split('#/game/')[1];
    assert(/White to move/.test(await statusText(main)), 'variation status: ' + (await statusText(main)));
    await main.waitForSelector('[data-testid=variation-of]');
    assert(/move 4/.test(await main.textContent('[data-testid=variation-of]')), 'variation origin not named');
    g = await server();
    assert(g.result && g.ply === 9 && g.moves.join() === line.join(), 'the game lost moves: ' + g.moves.join());
    // The variation plays on, and the link goes back to the game, shown at its end.
    await play(main, ['g8']);
    await main.click('[data-testid=variation-of] a');
    await main.waitForFunction((gid) => location.hash.endsWith(gid), id);
    await waitStones(main, 9);
    await waitStatus(main, /Black wins/);
    const v = await main.evaluate((gid) => fetch(`/api/games/${gid}`).then((r) => r.json()), vid);
    assert(v.moves.join() === 'h8,h9,i8,i9,g7,g8', 'variation moves: ' + v.moves.join());
    // The API refuses to jump in a finished game: it is kept as played.
    main.allow(/status of 409/);
    const st = await main.evaluate((gid) => fetch(`/api/games/${gid}/goto`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"ply": 3}' }).then((r) => r.status), id);
    assert(st === 409, 'goto in a finished game: ' + st);
});

await test('move list: jump to a move; a new move there keeps the old line as a variation', async () => {
    const id = await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9', 'i10', 'h10']);
    assert(await main.locator('[data-testid=move-list] button.current').textContent() === '5. h10', 'current move');
    await main.click('[data-testid=move-2]');
    await waitStones(main, 2);
    assert(await main.locator('[data-testid=move-list] button.ahead').count() === 3, 'redo moves not shown as ahead');
    await main.click('#board [data-point=j9]');
    await waitStones(main, 3);
    await main.waitForSelector('[data-testid=variation]');
    assert(/from move 2: h9 i10 h10/.test(await main.textContent('[data-testid=variation]')), 'variation text: ' + (await main.textContent('[data-testid=variation]')));
    const g = await (await main.request.get(`${BASE}api/games/${id}`)).json();
    assert(g.moves.join() === 'h8,i9,j9' && g.redo.length === 0, 'main line: ' + g.moves.join());
    // The old line opens as its own game, with the way back.
    await main.click('[data-testid=variation-open]');
    await main.waitForFunction((gid) => !location.hash.endsWith(gid), id);
    await waitStones(main, 5);
    await main.click('[data-testid=variation-of] a');
    await main.waitForFunction((gid) => location.hash.endsWith(gid), id);
    await waitStones(main, 3);
    await main.locator('[data-testid=moves-box]').screenshot({ path: path.join(ARTIFACTS, 'moves.png') });
    // Promoting the branch makes it the game's line; the line it replaces becomes the branch.
    await main.click('[data-testid=variation-promote]');
    await waitStones(main, 5);
    await main.waitForFunction(() => /from move 2: j9$/.test(document.querySelector('[data-testid=variation] span').textContent));
    const promoted = await (await main.request.get(`${BASE}api/games/${id}`)).json();
    assert(promoted.moves.join() === 'h8,i9,h9,i10,h10', 'after the promotion: ' + promoted.moves.join());
    assert(await main.locator('[data-testid=variation]').count() === 1, 'variations after the promotion');
    // Deleting the branch removes it here and on the server.
    const vid = await main.getAttribute('[data-testid=variation]', 'data-id');
    await main.click('[data-testid=variation-delete]');
    await main.waitForSelector('[data-testid=variation]', { state: 'detached' });
    assert((await main.request.get(`${BASE}api/games/${vid}`)).status() === 404, 'variation game not deleted');
});

await test('undo, redo, first and last (buttons and keys)', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'g7', 'j10']);
    await main.click('#btn-undo');
    await waitStones(main, 3);
    assert(/White to move/.test(await statusText(main)), 'after undo: ' + (await statusText(main)));
    await main.click('#btn-redo');
    await waitStones(main, 4);
    await main.click('#btn-first');
    await waitStones(main, 0);
    assert(await main.isEnabled('#btn-last'), 'last disabled');
    await main.click('#btn-last');
    await waitStones(main, 4);
    await main.keyboard.press('u');
    await waitStones(main, 3);
    await main.keyboard.press('r');
    await waitStones(main, 4);
    // A refused request shows the server's error instead of vanishing.
    main.allow(/status of 409/);
    await main.keyboard.press('r');
    await waitToast(main, /redo|nothing/);
    assert((await main.getAttribute('#toast', 'data-kind')) === 'error', 'refusal not shown as an error');
});

await test('human vs easy computer: the replies arrive', async () => {
    await newGame(main, { mode: 'hvc', level: 'easy', color: 'black' });
    assert(/Computer \(easy\)/.test(await main.textContent('#name-white')), 'white not the computer');
    const mine = ['h8', 'g7', 'j9', 'f6', 'k10', 'e5', 'l11', 'm12', 'd4', 'c3'];
    let played = 0;
    for (const p of mine) {
        if (played === 3) break;
        if (await main.locator(`#board [data-stone=${p}]`).count()) continue;
        const n = await stones(main);
        await main.click(`#board [data-point=${p}]`);
        await waitStones(main, n + 2); // the move and the computer's reply
        await waitStatus(main, /Black to move|wins/);
        played++;
    }
    assert(played === 3, 'could not play three moves');
    // Against the computer, undo takes back the reply and the move.
    await main.click('#btn-undo');
    await waitStones(main, 4);
});

await test('levels with their ratings; a computer picked by target rating', async () => {
    await main.click('#btn-new');
    await main.selectOption('#ng-mode', 'hvc');
    await main.waitForFunction(() => /about \d+ points above beginner/.test(
        document.querySelector('#ng-level option[value=medium]').textContent));
    const names = await main.$$eval('#ng-level option', (os) => os.map((o) => o.value));
    assert(names.join() === 'mcts,beginner,easy,medium,hard,max,zero,rating', `levels: ${names}`);
    assert(await main.locator('#ng-rating').isHidden(), 'rating field shown for a level');
    await main.selectOption('#ng-level', 'rating');
    assert(await main.locator('#ng-rating').isVisible(), 'rating field hidden');
    await main.fill('#ng-rating', '-50');
    await main.selectOption('#ng-color', 'black');
    await main.click('#ng-start');
    await main.waitForFunction(() => /Computer \(beginner\)/.test(document.getElementById('name-white').textContent));
    await main.click('#board [data-point=h8]');
    await waitStones(main, 2);
});

await test('the computer thinks live: search info and the evaluation graph', async () => {
    await newGame(main, { mode: 'hvc', level: 'hard', color: 'black' });
    // Record whether the panel ever showed the computer's own search while it thought.
    await main.evaluate(() => {
        window.sawSearch = false;
        const el = document.getElementById('ana-kind');
        new MutationObserver(() => {
            if (/thinks/.test(el.textContent) && /\d+-\d+/.test(document.getElementById('ana-depth').textContent)) window.sawSearch = true;
        }).observe(el, { childList: true, characterData: true, subtree: true });
    });
    await main.click('#board [data-point=h8]');
    await waitStones(main, 2);
    await waitStatus(main, /Black to move/);
    assert(await main.evaluate(() => window.sawSearch), 'no live search info while the computer thought');
    await main.waitForSelector('#graph .graph-dot', { state: 'attached' });
});

await test('computer vs computer: stop, move now, go on', async () => {
    // hard searches 100 000 nodes a move: slow enough to stop mid-game (easy plays a whole
    // game in a second).
    await newGame(main, { mode: 'cvc', level: 'hard' });
    await main.waitForFunction(() => document.querySelectorAll('#board [data-stone]').length >= 2);
    await main.click('#btn-stop');
    await waitStatus(main, /waits/);
    const n = await stones(main);
    await main.waitForTimeout(600);
    assert(await stones(main) === n, 'the computer moved while stopped');
    await main.click('#btn-move-now');
    await main.waitForFunction((k) => document.querySelectorAll('#board [data-stone]').length > k, n);
    await main.click('#btn-stop');
    await waitStatus(main, /waits/);
    const m = await stones(main);
    await main.click('#btn-go');
    await main.waitForFunction((k) => document.querySelectorAll('#board [data-stone]').length > k, m);
    await main.click('#btn-stop');
    await waitStatus(main, /waits|wins|Draw/);
});

await test('draw by agreement and resignation between humans', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'h9']);
    await main.click('#btn-draw');
    await main.waitForSelector('[data-testid=accept-draw]');
    assert(/Black offers a draw/.test(await main.textContent('#offers')), 'offer text');
    await main.click('[data-testid=decline-draw]');
    await main.waitForSelector('[data-testid=accept-draw]', { state: 'detached' });
    await main.click('#btn-draw');
    await main.waitForSelector('[data-testid=accept-draw]');
    await main.click('[data-testid=accept-draw]');
    await waitStatus(main, /Draw/);
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8']);
    await main.click('#btn-resign');
    // Resigning asks first: Keep playing changes nothing, Resign resigns.
    await main.waitForSelector('[data-testid=resign-ask]');
    assert(/Resign for White\?/.test(await main.textContent('[data-testid=resign-ask]')), 'resign question');
    await main.click('[data-testid=resign-no]');
    await main.waitForSelector('[data-testid=resign-ask]', { state: 'detached' });
    assert(/White to move/.test(await statusText(main)), 'a declined resignation resigned');
    await main.click('#btn-resign');
    await main.click('[data-testid=resign-yes]');
    await waitStatus(main, /Black wins.*resign/);
});

await test('analysis panel: depth, lines, candidates, PV preview; hint', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9']);
    await main.check('#opt-analyze');
    await main.waitForFunction(() => /^\d+-\d+$/.test(document.getElementById('ana-depth').textContent));
    await main.waitForSelector('[data-testid=ana-line]');
    await main.waitForSelector('#board [data-candidate]');
    assert(/[a-o]\d+/.test(await main.textContent('[data-testid=ana-line] .pv')), 'no best line');
    assert(/%/.test(await main.textContent('#ana-winrate')), 'no win rate');
    await main.hover('[data-testid=ana-line] >> nth=0');
    await main.waitForSelector('[data-testid=pv-preview]');
    await main.uncheck('#opt-analyze');
    await main.click('#btn-hint');
    await main.waitForSelector('[data-testid=hint-mark]', { timeout: WAIT * 1.5 });
    await waitToast(main, /Hint/);
});

await test('Stop is enabled while an analysis or a hint runs, and stops it', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9']);
    await main.check('#opt-analyze');
    await main.waitForFunction(() => /^\d+-\d+$/.test(document.getElementById('ana-depth').textContent));
    await main.waitForFunction(() => !document.getElementById('btn-stop').disabled, null, { timeout: 3000 });
    await main.click('#btn-stop');
    await main.waitForFunction(() => document.getElementById('btn-stop').disabled);
    await main.uncheck('#opt-analyze');
    await main.click('#btn-hint');
    assert(!(await main.isDisabled('#btn-stop')), 'Stop disabled while the hint is asked for');
    await main.waitForSelector('[data-testid=hint-mark]', { timeout: WAIT * 1.5 });
    await main.waitForFunction(() => document.getElementById('btn-stop').disabled);
});

await test('analysis runs until stopped; browsing keeps each position\'s evaluation in the graph', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9', 'i10']);
    await main.check('#opt-analyze');
    const depth = () => main.waitForFunction(() => /^([3-9]|\d\d+)-\d+$/.test(document.getElementById('ana-depth').textContent));
    await depth();
    await main.click('#btn-undo');
    await waitStones(main, 3);
    await depth();
    await main.click('#btn-undo');
    await waitStones(main, 2);
    await main.waitForFunction(() => document.querySelectorAll('#graph .graph-dot').length >= 2);
    // Still searching after the 1.5 s a hint takes: only Stop ends it.
    await main.waitForTimeout(1600);
    assert(!(await main.isDisabled('#btn-stop')), 'the analysis ended by itself');
    await main.uncheck('#opt-analyze');
});

await test('set up a position: stones of either colour, erase, clear, side to move; play from it', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9']);
    await main.click('#btn-setup');
    await main.waitForSelector('[data-testid=setup-tools]:not([hidden])');
    assert(await stones(main) === 2, 'the setup does not start from the position');
    // Three black stones in a row and one white, then a white one erased; White to move.
    await main.check('[data-testid=setup-black]');
    for (const p of ['g8', 'j8']) await main.click(`#board [data-point=${p}]`);
    await main.check('[data-testid=setup-white]');
    for (const p of ['a1', 'b2']) await main.click(`#board [data-point=${p}]`);
    await main.check('[data-testid=setup-erase]');
    await main.click('#board [data-point=b2]');
    await waitStones(main, 5);
    await main.selectOption('#setup-to-move', 'white');
    await main.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'setup.png') });
    await main.click('#setup-play');
    await main.waitForFunction(() => document.getElementById('board').dataset.setup === 'false');
    await waitStatus(main, /White to move/);
    const colors = await main.$$eval('#board [data-stone]', (els) => Object.fromEntries(els.map((e) => [e.dataset.stone, e.dataset.color])));
    assert(JSON.stringify(colors) === JSON.stringify({ h8: 'black', i9: 'white', g8: 'black', a1: 'white', j8: 'black' })
        || (Object.keys(colors).length === 5 && colors.g8 === 'black' && colors.j8 === 'black' && colors.h8 === 'black' && colors.i9 === 'white' && colors.a1 === 'white'), 'stones: ' + JSON.stringify(colors));
    // White must block the open three: the game goes on from the position.
    await main.click('#board [data-point=k8]');
    await waitStatus(main, /Black to move/);
    // Clear empties the board; Black to move by default.
    await main.click('#btn-setup');
    await main.click('#setup-clear');
    await waitStones(main, 0);
    await main.click('#setup-cancel');
    await main.waitForFunction(() => document.getElementById('board').dataset.setup === 'false');
    await waitStones(main, 6);
});

await test('export the board as PNG and SVG, with or without move numbers', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9']);
    const save = async (button, name) => {
        const [dl] = await Promise.all([main.waitForEvent('download'), main.click(button)]);
        assert(/^tengen-\w+-3\.(png|svg)$/.test(dl.suggestedFilename()), 'file name: ' + dl.suggestedFilename());
        const file = path.join(ARTIFACTS, name);
        await dl.saveAs(file);
        return file;
    };
    const svg = fs.readFileSync(await save('#btn-svg', 'export.svg'), 'utf8');
    assert(/^<\?xml/.test(svg) && /<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/.test(svg), 'not an SVG file');
    assert((svg.match(/data-stone=/g) || []).length === 3, 'stones in the SVG');
    assert(!/class="num /.test(svg) && !/data-point=/.test(svg), 'numbers or click layer in the plain SVG');
    await main.check('#export-numbers');
    const numbered = fs.readFileSync(await save('#btn-svg', 'export-numbers.svg'), 'utf8');
    assert((numbered.match(/class="num /g) || []).length === 3, 'no move numbers in the numbered SVG');
    const png = fs.readFileSync(await save('#btn-png', 'export-numbers.png'));
    assert(png.slice(1, 4).toString() === 'PNG' && png.length > 10000, 'not a PNG: ' + png.length);
    assert(await main.locator('#board text.num').count() === 0, 'the board kept the export\'s numbers');
});

await test('keyboard play: the board takes the focus, arrows move a cursor, Enter plays; focus rings', async () => {
    await newGame(main, { mode: 'hvh' });
    await main.focus('#board svg');
    await main.keyboard.press('ArrowUp');
    await main.keyboard.press('ArrowDown');
    await main.waitForSelector('[data-testid=kb-cursor][data-cursor=h8]', { state: 'attached' });
    await main.keyboard.press('Enter');
    await waitStones(main, 1);
    await main.keyboard.press('ArrowRight');
    await main.keyboard.press('ArrowUp');
    await main.waitForSelector('[data-testid=kb-cursor][data-cursor=i9]', { state: 'attached' });
    // A click shows no cursor: it is for the keyboard.
    await main.click('#board [data-point=a15]');
    await waitStones(main, 2);
    assert(await main.locator('[data-testid=kb-cursor]').count() === 0, 'a cursor after a click');
    await main.keyboard.press('ArrowDown');
    await main.waitForSelector('[data-testid=kb-cursor][data-cursor=a14]', { state: 'attached' });
    await main.keyboard.press('ArrowUp');
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown']) await main.keyboard.press(k);
    await main.waitForSelector('[data-testid=kb-cursor][data-cursor=i9]', { state: 'attached' });
    await main.keyboard.press(' ');
    await waitStones(main, 3);
    assert(await main.locator('#board [data-stone=i9][data-color=black]').count() === 1, 'i9 not played by keyboard');
    // The board and the buttons show where the focus is.
    const ring = (sel) => main.evaluate((q) => { const cs = getComputedStyle(document.querySelector(q)); return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2; }, sel);
    assert(await ring('#board svg'), 'no focus ring on the board');
    await main.keyboard.press('Tab');
    const focused = await main.evaluate(() => document.activeElement.tagName);
    assert(focused !== 'svg', 'Tab does not leave the board');
    await main.focus('#btn-undo');
    await main.keyboard.press('Shift+Tab');
    await main.keyboard.press('Tab');
    assert(await ring('#btn-undo'), 'no focus ring on a button');
    await main.screenshot({ path: path.join(ARTIFACTS, 'keyboard.png') });
});

await test('rotate and flip the board: a view, the game unchanged, clicks still right', async () => {
    const id = await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9']);
    const xy = (p) => main.evaluate((q) => { const c = document.querySelector(`#board [data-stone=${q}]`); return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]; }, p);
    let [h, i] = [await xy('h8'), await xy('i9')];
    assert(i[0] > h[0] && i[1] < h[1], 'i9 not up-right of h8');
    await main.click('#btn-rotate'); // a quarter clockwise: up-right becomes down-right
    [h, i] = [await xy('h8'), await xy('i9')];
    assert(i[0] > h[0] && i[1] > h[1], 'rotation: i9 not down-right of h8');
    const bottom = await main.$$eval('#board [data-label=bottom]', (els) => els.map((e) => e.textContent));
    assert(bottom[0] === '1' && bottom[14] === '15', 'bottom labels after a rotation: ' + bottom.join(' '));
    await main.click('#btn-flip');
    [h, i] = [await xy('h8'), await xy('i9')];
    assert(i[0] < h[0] && i[1] > h[1], 'flip: i9 not down-left of h8');
    // A click on a turned board plays the point under it.
    await main.click('#board [data-point=j10]');
    await waitStones(main, 3);
    const g = await (await main.request.get(`${BASE}api/games/${id}`)).json();
    assert(g.moves.join() === 'h8,i9,j10', 'moves: ' + g.moves.join());
    await main.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'rotated.png') });
    await main.click('#btn-flip');
    for (let k = 0; k < 3; k++) await main.click('#btn-rotate');
    assert(await main.getAttribute('#board svg', 'data-orient') === '0', 'not back to the start');
});

await test('engine settings: the strongest level\'s time a move, the analysis time', async () => {
    const bodies = [];
    const seen = (r) => { if (r.method() === 'POST' && /\/api\/games$/.test(r.url())) bodies.push(JSON.parse(r.postData())); };
    main.on('request', seen);
    if (!(await main.locator('#new-dialog[open]').count())) await main.click('#btn-new');
    await main.selectOption('#ng-mode', 'hvc');
    await main.selectOption('#ng-think', '10000');
    await newGame(main, { mode: 'hvc', level: 'max', color: 'black' });
    main.off('request', seen);
    assert(bodies.length === 1 && bodies[0].computer_ms === 10000 && bodies[0].white === 'max', 'create body: ' + JSON.stringify(bodies));
    await main.click('#btn-new');
    assert(await main.inputValue('#ng-think') === '10000', 'the setting is not remembered');
    await main.selectOption('#ng-think', '3000');
    await main.click('#ng-cancel');
    // An analysis of 5 s ends by itself; until Stop it does not.
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9']);
    await main.selectOption('#opt-ana-time', '5000');
    await main.check('#opt-analyze');
    await main.waitForFunction(() => !document.getElementById('btn-stop').disabled);
    await main.waitForFunction(() => document.getElementById('btn-stop').disabled, null, { timeout: WAIT });
    await main.uncheck('#opt-analyze');
    await main.selectOption('#opt-ana-time', '0');
});

await test('on a phone the candidate labels stay readable (11 px or more)', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'i9', 'h9']);
    await main.setViewportSize({ width: 390, height: 844 });
    await main.check('#opt-analyze');
    // Measured on a drawing that stands (the labels are redrawn at each depth).
    const ok = await main.waitForFunction(() => {
        const h = [...document.querySelectorAll('#board [data-candidate] text')].map((e) => e.getBoundingClientRect().height);
        return h.length > 0 && h.every((x) => x >= 11);
    }, null, { timeout: WAIT }).then(() => true, () => false);
    const seen = await main.$$eval('#board [data-candidate] text', (els) => els.map((e) => e.getBoundingClientRect().height));
    await main.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'phone-analysis.png') });
    await main.uncheck('#opt-analyze');
    await main.setViewportSize({ width: 1280, height: 900 });
    assert(ok, 'label heights: ' + seen.map((h) => h.toFixed(1)).join(' '));
});

await test('the solver draws a forced win, or says there is none', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'a1', 'i8', 'a2', 'j8', 'a3']);
    await main.selectOption('#solve-kind', 'vcf');
    await main.click('#btn-solve');
    await main.waitForSelector('[data-testid=solve-line] [data-solve]', { state: 'attached' });
    const line = await main.$$eval('[data-testid=solve-line] [data-solve]', (els) => els.map((e) => e.dataset.solve));
    assert(line.length === 2 && line.every((p) => ['f8', 'g8', 'k8', 'l8'].includes(p)), 'solver line: ' + line);
    assert(/Black wins by VCF/.test(await main.textContent('#solve-result')), 'solver text: ' + (await main.textContent('#solve-result')));
    await main.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'solver.png') });
    // A move clears the line; with no threat on the board there is no win.
    await play(main, ['k8']);
    assert(await main.locator('[data-testid=solve-line] [data-solve]').count() === 0, 'stale solver line');
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8', 'a1']);
    await main.click('#btn-solve');
    await main.waitForFunction(() => /no VCF win/.test(document.getElementById('solve-result').textContent));
});

// The contrast ratio of two CSS colours (WCAG 2 relative luminance).
async function contrastOf(page, selector) {
    return page.evaluate((sel) => {
        const el = document.querySelector(sel);
        const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 4).map(Number);
        const lum = ([r, g, b]) => {
            const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        // The background is the first ancestor with an opaque one.
        let node = el, bg = null;
        while (node && node.nodeType === 1) {
            const c = rgb(getComputedStyle(node).backgroundColor);
            if (c.length === 3 || c[3] === 1) { bg = c; break; }
            node = node.parentElement;
        }
        const fg = rgb(getComputedStyle(el).color);
        const [a, b] = [lum(fg), lum(bg || [255, 255, 255])].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
    }, selector);
}

await test('text contrast is at least 4.5:1 in both themes, the error toast included', async () => {
    await newGame(main, { mode: 'hvh' });
    await play(main, ['h8']);
    main.allow(/status of 409/);
    const selectors = ['[data-testid=status-text]', '[data-testid=status-rule]', '#btn-undo', '#btn-new',
        '#name-black', '.box h2', '.analysis h3', '#ana-depth', '#toast'];
    for (const theme of ['wood', 'dark']) {
        await main.evaluate((th) => { document.documentElement.dataset.theme = th; }, theme);
        await main.click('#board [data-point=h8]'); // refused: an error toast
        await waitToast(main, /taken|occupied/);
        for (const sel of selectors) {
            const ratio = await contrastOf(main, sel);
            assert(ratio >= 4.5, `${theme}: ${sel} has contrast ${ratio.toFixed(2)}`);
        }
    }
    await main.evaluate(() => { document.documentElement.dataset.theme = localStorage.getItem('tengen.theme') ? JSON.parse(localStorage.getItem('tengen.theme')) : 'wood'; });
});

await test('renju: forbidden point marked and a click on it refused', async () => {
    await newGame(main, { mode: 'hvh', rule: 'renju' });
    assert(/Renju/.test(await main.textContent('[data-testid=status-rule]')), 'rule not visible');
    await play(main, ['i8', 'a1', 'j8', 'a3', 'h9', 'a5', 'h10', 'a7']);
    await main.waitForSelector('#board [data-forbidden=h8]');
    assert((await main.getAttribute('#board [data-forbidden=h8]', 'data-foul')) === '33', 'foul kind');
    await main.click('#board [data-point=h8]');
    await waitToast(main, /forbidden.*double three/);
    assert(await stones(main) === 8, 'the forbidden move was played');
});

await test('tap twice to place; the computer opens when the human plays White', async () => {
    await newGame(main, { mode: 'hvh' });
    await main.check('#opt-confirm');
    await main.click('#board [data-point=h8]');
    await waitToast(main, /again/);
    assert(await stones(main) === 0, 'one tap placed a stone');
    await main.click('#board [data-point=h8]');
    await waitStones(main, 1);
    await main.uncheck('#opt-confirm');
    await newGame(main, { mode: 'hvc', level: 'easy', color: 'white' });
    await waitStones(main, 1);
    await waitStatus(main, /White to move/);
    assert(/Computer \(easy\)/.test(await main.textContent('#name-black')), 'black not the computer');
});

await test('sound toggle is remembered', async () => {
    const label = async () => main.textContent('#btn-sound');
    const before = await label();
    await main.click('#btn-sound');
    assert((await label()) !== before, 'sound button did not change');
    await main.reload();
    await main.waitForSelector('[data-testid=status-rule]');
    assert((await label()) !== before, 'sound setting forgotten');
    await main.click('#btn-sound');
    assert((await label()) === before, 'sound button did not switch back');
});

await test('clock counts down for the side to move', async () => {
    await newGame(main, { mode: 'hvh', clock: { minutes: 1, increment: 2 } });
    await play(main, ['h8']);
    const read = async (c) => main.textContent(`#clock-${c}`);
    assert(/^\d+:\d\d$/.test(await read('white')), 'clock: ' + (await read('white')));
    const t0 = await read('white');
    await main.waitForTimeout(1300);
    assert((await read('white')) !== t0, 'white clock does not run');
    assert(await main.locator('#clock-white.running').count() === 1, 'running clock not marked');
});

await test('language and theme switch, and are remembered', async () => {
    await main.click('#btn-lang');
    assert((await main.textContent('#nav-games')) === '棋谱', 'nav not Chinese');
    assert((await main.textContent('#btn-new')) === '新对局', 'button not Chinese');
    assert(/轮到|胜|和棋/.test(await statusText(main)), 'status not Chinese: ' + (await statusText(main)));
    await main.click('#btn-theme');
    assert((await main.getAttribute('html', 'data-theme')) === 'dark', 'theme not dark');
    await main.reload();
    await main.waitForSelector('[data-testid=status-rule]');
    assert((await main.textContent('#btn-undo')).includes('悔棋'), 'language forgotten');
    assert((await main.getAttribute('html', 'data-theme')) === 'dark', 'theme forgotten');
    await main.screenshot({ path: path.join(ARTIFACTS, 'page-dark-zh.png') });
    await main.click('#btn-lang');
    await main.click('#btn-theme');
    assert((await main.textContent('#nav-games')) === 'Games', 'back to English');
    assert((await main.getAttribute('html', 'data-theme')) === 'wood', 'back to wood');
});

await test('load a game by paste; download links', async () => {
    await main.fill('#paste', 'h8i9h9i8h10');
    await main.click('#btn-load-paste');
    await main.waitForFunction(() => document.querySelectorAll('#board [data-stone]').length === 5);
    pastedId = main.url().split('#/game/')[1];
    assert(await main.locator('#board [data-stone=h10][data-color=black]').count() === 1, 'h10 not black');
    const href = await main.getAttribute('#dl-sgf', 'href');
    assert(/\/api\/games\/[^/]+\/record\?format=sgf$/.test(href), 'sgf link: ' + href);
    const res = await main.request.get(new URL(await main.getAttribute('#dl-pos', 'href'), BASE).href);
    assert(res.ok() && /h8i9h9i8h10/.test(await res.text()), 'position download');
    // A file upload goes the same way (here a plain move list).
    await main.setInputFiles('#load-file', { name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from('h8 h9 i8 i9\n') });
    await main.waitForFunction(() => document.querySelectorAll('#board [data-stone]').length === 4);
    assert(await main.locator('#board [data-stone=i9][data-color=white]').count() === 1, 'i9 not white');
});

await test('games page lists games; replay steps without changing the game', async () => {
    await main.goto(BASE + '#/games');
    await main.waitForSelector('[data-testid=game-row]');
    assert(await main.locator('[data-testid=game-row]').count() >= 5, 'too few games listed');
    assert(/\d/.test(await main.textContent('[data-testid=games-page]')), 'no paging line');
    // The pasted game (5 moves) is among the newest, on the first page.
    await main.click(`[data-testid=game-row][data-id="${pastedId}"]`);
    await main.waitForFunction(() => /#\/replay\//.test(location.hash));
    await waitStones(main, 5, '#replay-board');
    assert(/5 of 5/.test(await main.textContent('[data-testid=replay-pos]')), 'replay position');
    await main.keyboard.press('ArrowLeft');
    await waitStones(main, 4, '#replay-board');
    await main.keyboard.press('Home');
    await waitStones(main, 0, '#replay-board');
    await main.click('#rp-next');
    await main.click('#rp-next');
    await waitStones(main, 2, '#replay-board');
    await main.keyboard.press('End');
    await waitStones(main, 5, '#replay-board');
    const id = main.url().split('#/replay/')[1];
    const g = await (await main.request.get(`${BASE}api/games/${id}`)).json();
    assert(g.ply === 5, 'the replay changed the game');
    await main.click('#rp-continue');
    await main.waitForFunction(() => /#\/game\//.test(location.hash));
    await waitStones(main, 5);
});

await test('archive: filter, download from the list and the replay, delete; fits a phone', async () => {
    // A finished game to find: Black wins with five.
    const id = await newGame(main, { mode: 'hvh', rule: 'standard' });
    await play(main, ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8']);
    await waitStatus(main, /Black wins/);
    await main.goto(BASE + '#/games');
    await main.waitForSelector('[data-testid=game-row]');
    await main.selectOption('#filter-rule', 'standard');
    await main.selectOption('#filter-result', 'black');
    await main.waitForFunction(() => [...document.querySelectorAll('[data-testid=game-row]')].every((r) => /Black wins/.test(r.textContent)));
    const row = main.locator(`[data-testid=game-row][data-id="${id}"]`);
    await row.waitFor();
    assert(/\/api\/games\/\w+\/record\?format=sgf$/.test(await row.locator('[data-testid=row-sgf]').getAttribute('href')), 'no SGF link in the row');
    const [dl] = await Promise.all([main.waitForEvent('download'), row.locator('[data-testid=row-psq]').click()]);
    assert(dl.suggestedFilename() === `tengen-${id}.psq`, 'psq download: ' + dl.suggestedFilename());
    await main.selectOption('#filter-result', 'white');
    await main.waitForFunction((gid) => !document.querySelector(`[data-testid=game-row][data-id="${gid}"]`), id);
    await main.selectOption('#filter-result', 'black');
    await row.waitFor();
    // The phone: the list fits without sideways scrolling.
    await main.setViewportSize({ width: 390, height: 844 });
    const wide = await main.evaluate(() => document.documentElement.scrollWidth);
    await main.screenshot({ path: path.join(ARTIFACTS, 'games-phone.png'), fullPage: true });
    await main.setViewportSize({ width: 1280, height: 900 });
    assert(wide <= 390, 'the list is wider than the phone: ' + wide);
    await main.screenshot({ path: path.join(ARTIFACTS, 'games.png') });
    // The replay offers the records too.
    await row.click();
    await main.waitForFunction(() => /#\/replay\//.test(location.hash));
    await main.waitForSelector('#rp-sgf[href]');
    await main.goto(BASE + '#/games');
    // Delete asks in the row, then the game is gone from the list and the server.
    await row.waitFor();
    await row.locator('[data-testid=row-delete]').click();
    await row.locator('[data-testid=row-delete-no]').click();
    await row.locator('[data-testid=row-delete]').click();
    await row.locator('[data-testid=row-delete-yes]').click();
    await main.waitForFunction((gid) => !document.querySelector(`[data-testid=game-row][data-id="${gid}"]`), id);
    const st = (await main.request.get(`${BASE}api/games/${id}`)).status();
    assert(st === 404, 'deleted game still served: ' + st);
    await main.selectOption('#filter-rule', '');
    await main.selectOption('#filter-result', '');
});

await test('online: create a room, join by link, moves in both, spectator, reload keeps seat', async () => {
    const a = main;
    const id = await newGame(a, { mode: 'online', color: 'black' });
    const link = await a.inputValue('[data-testid=share-link]');
    assert(link.endsWith('#/game/' + id), 'share link: ' + link);
    const b = await newPage({ width: 1100, height: 850 });
    await b.goto(link);
    await b.waitForSelector('[data-testid=btn-join]');
    assert(/Join as White/.test(await b.textContent('[data-testid=btn-join]')), 'join label');
    await b.click('[data-testid=btn-join]');
    await b.waitForFunction(() => /You play White/.test(document.getElementById('online-seat').textContent));
    await a.click('#board [data-point=h8]');
    await waitStones(a, 1);
    await waitStones(b, 1);
    // A cannot move for White.
    await a.click('#board [data-point=j10]');
    await waitToast(a, /not your turn/);
    await b.click('#board [data-point=i9]');
    await waitStones(a, 2);
    await waitStones(b, 2);
    const c = await newPage({ width: 900, height: 800 });
    await c.goto(link);
    await waitStones(c, 2);
    assert(/watching/.test(await c.textContent('#online-seat')), 'spectator label');
    assert(await c.locator('[data-testid=btn-join]').count() === 0, 'a full game offers a join');
    await c.click('#board [data-point=a1]');
    await waitToast(c, /watching/);
    await b.reload();
    await waitStones(b, 2);
    await b.waitForFunction(() => /You play White/.test(document.getElementById('online-seat').textContent));
    await a.click('#board [data-point=h9]');
    await waitStones(b, 3);
    await b.click('#board [data-point=i10]');
    await waitStones(a, 4);
    await waitStones(c, 4);
    // Hints and analysis: off for the seated players until both agree.
    assert(await a.isDisabled('#btn-hint') && await a.isDisabled('#opt-analyze'), 'hint open without agreement');
    await a.check('#opt-aids');
    await a.waitForFunction(() => /wait for White to agree/.test(document.getElementById('aids-state').textContent));
    assert(await b.isDisabled('#btn-hint'), 'one agreement opened the hint');
    await b.check('#opt-aids');
    await a.waitForFunction(() => !document.getElementById('btn-hint').disabled);
    await b.waitForFunction(() => /Both players agreed/.test(document.getElementById('aids-state').textContent));
    await a.uncheck('#opt-aids');
    await b.waitForFunction(() => document.getElementById('btn-hint').disabled);
    // An undo online is an offer the other side accepts or declines.
    await b.click('#btn-undo');
    await a.waitForSelector('[data-testid=accept-undo]');
    await a.click('[data-testid=decline-undo]');
    await b.waitForFunction(() => !document.querySelector('#offers:not([hidden]) .offer'));
    await waitStones(b, 4);
    await b.click('#btn-undo');
    await a.waitForSelector('[data-testid=accept-undo]');
    await a.click('[data-testid=accept-undo]');
    await waitStones(a, 3);
    await waitStones(b, 3);
    await c.close();
    await b.close();
});

// ---- opening rules ------------------------------------------------------------------------------

const stepText = (page) => page.textContent('[data-testid=opening-step]');

async function waitStep(page, re) {
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=opening-step]')?.textContent || ''), re.source);
}

await test('swap2 against the computer: it places, the page asks, it answers', async () => {
    // You are player 2: the computer (player 1) places the first three stones.
    await newGame(main, { mode: 'hvc', rule: 'standard', color: 'white', level: 'easy', opening: 'swap2' });
    await waitStones(main, 3);
    await waitStep(main, /Player 2 \(White\): choose/);
    assert(/Swap2 opening/.test(await main.textContent('[data-testid=opening-rule]')), 'no rule shown');
    assert(/Player 2 \(White\): choose/.test(await statusText(main)), 'status: ' + (await statusText(main)));
    for (const c of ['stay', 'swap', 'place-two']) await main.waitForSelector(`[data-testid=choice-${c}]`);
    assert(/Take Black/.test(await main.textContent('[data-testid=choice-swap]')), 'swap button label');
    await main.click('[data-testid=choice-place-two]');
    await waitStep(main, /Player 2: place a white stone \(2 stones/);
    const free = ['e5', 'k11', 'l4', 'd12', 'm13'];
    let placed = 0;
    for (const p of free) {
        if (placed === 2) break;
        if (await main.locator(`#board [data-stone=${p}]`).count()) continue;
        await main.click(`#board [data-point=${p}]`);
        // After our second stone the computer may choose White and move before the next poll.
        await waitStonesAtLeast(main, 4 + placed);
        placed++;
    }
    // The computer (player 1) picks its colour; then the game goes on by moves.
    await main.waitForFunction(() => /opening: over/.test(document.querySelector('[data-testid=opening-rule]')?.textContent || ''));
    const names = (await main.textContent('#name-black')) + (await main.textContent('#name-white'));
    assert(/Player 1/.test(names) && /Player 2/.test(names), 'players not numbered: ' + names);
    await main.waitForFunction(() => !document.querySelector('[data-testid=opening-actions] button'));
});

// Clicks the free point nearest the centre (not one of Black's forbidden points) until the game
// has a result; the computer must answer each move (whatever colour it holds after the opening).
async function playToResult(page, limit = 60) {
    for (let i = 0; i < limit; i++) {
        // The computer may still be answering the last move (or opening the game): a click
        // then is refused, and forbidden points are shown only once it has moved.
        await page.waitForSelector('[data-testid=status]:not([data-state=thinking])', { state: 'attached' });
        if (await page.locator('[data-testid=status][data-state=over]').count()) return true;
        const n = await stones(page);
        const free = await page.evaluate(() => {
            const board = document.getElementById('board');
            // Free points, not Black's forbidden ones (renju): the page refuses those.
            const pts = [...board.querySelectorAll('[data-point]')].map((e) => e.dataset.point)
                .filter((p) => !board.querySelector(`[data-stone=${p}]`) && !board.querySelector(`[data-forbidden=${p}]`));
            const d = (p) => Math.abs(p.charCodeAt(0) - 104) + Math.abs(parseInt(p.slice(1), 10) - 8);
            return pts.sort((a, b) => d(a) - d(b))[0];
        });
        await page.click(`#board [data-point=${free}]`);
        // Our stone, then the computer's reply (or the end of the game).
        await page.waitForFunction((k) => document.querySelectorAll('#board [data-stone]').length >= k + 2
            || document.querySelector('[data-testid=status][data-state=over]'), n).catch(async (e) => {
            throw new Error(`after ${free} (${n} stones): ${await statusText(page)}: ${e.message}`);
        });
    }
    return !!(await page.locator('[data-testid=status][data-state=over]').count());
}

await test('swap against the computer: after the colours trade it keeps moving, to a result', async () => {
    for (const color of ['white', 'black']) {
        await newGame(main, { mode: 'hvc', rule: 'renju', color, level: 'easy', opening: 'swap' });
        if (color === 'black') {
            // You are player 1: three stones, then the computer chooses its colour.
            // If it keeps White it answers at once, so the third stone is waited for as "at least".
            for (const p of ['h8', 'h9', 'j10']) await main.click(`#board [data-point=${p}]`).then(() => waitStonesAtLeast(main, ['h8', 'h9', 'j10'].indexOf(p) + 1));
        } else {
            // You are player 2: the computer places three stones; you take Black.
            await waitStones(main, 3);
            await main.click('[data-testid=choice-swap]');
            await waitToast(main, /you now play Black/);
            await main.waitForFunction(() => /you play Black/.test(document.querySelector('[data-testid=opening-rule]').textContent));
        }
        await main.waitForFunction(() => /opening: over/.test(document.querySelector('[data-testid=opening-rule]')?.textContent || ''));
        if (color === 'white') {
            // The computer, now White, makes move 4 by itself: no Go needed.
            await waitStones(main, 4);
            await waitStatus(main, /Black to move|you/i);
        }
        assert(await playToResult(main), 'no result: ' + (await statusText(main)));
    }
});

await test('RIF between two humans: square, refusal, offers and selection; a named opening', async () => {
    await newGame(main, { mode: 'hvh', rule: 'renju', opening: 'rif' });
    const named = await main.textContent('#ng-startpos');
    assert(/2I Kyogetsu 峡月/.test(named), 'the 26 openings are not listed: ' + named.slice(0, 80));
    await main.waitForSelector('[data-testid=opening-area][data-area="1"]', { state: 'attached' });
    await waitStep(main, /centre point/);
    main.allow(/409/);
    await main.click('#board [data-point=a1]');
    await waitToast(main, /centre/);
    await main.click('#board [data-point=h8]');
    await waitStones(main, 1);
    await main.waitForSelector('[data-testid=opening-area][data-area="3"]', { state: 'attached' });
    // Start again from a named opening picked in the list.
    await newGame(main, { mode: 'hvh', rule: 'renju', opening: 'rif', start: '2I' });
    await waitStones(main, 3);
    assert(/2I Kyogetsu 峡月/.test(await main.textContent('[data-testid=opening-rule]')), 'opening name not shown');
    await main.click('[data-testid=choice-swap]');
    await waitStep(main, /Player 1: place a white stone/);
    await main.click('#board [data-point=k11]');
    await waitStep(main, /Player 2 \(Black\): offer a 5th move \(2 more\)/);
    await main.click('#board [data-point=g9]');
    await main.waitForSelector('#board [data-offer=g9]', { state: 'attached' });
    await main.click('#board [data-point=f6]');
    await waitStep(main, /Player 1 \(White\): pick one/);
    assert(await main.locator('#board [data-offer]').count() === 2, 'offers not drawn');
    await main.screenshot({ path: path.join(ARTIFACTS, 'opening.png') });
    await main.click('#board [data-point=a15]');
    await waitToast(main, /not one of the offered/);
    await main.click('#board [data-point=f6]');
    await waitStones(main, 5);
    await waitStatus(main, /White to move/);
    assert(await main.locator('#board [data-offer]').count() === 0, 'offers still drawn after the selection');
    // The step is built in the page's language.
    await main.click('#btn-undo');
    await waitStones(main, 4);
    await main.click('#btn-lang');
    await waitStep(main, /玩家1（白方）/);
    await main.click('#btn-lang');
    await waitStep(main, /Player 1 \(White\)/);
    // The server's refusals read in Chinese on the Chinese page.
    await newGame(main, { mode: 'hvh', rule: 'renju', opening: 'rif' });
    await main.click('#btn-lang');
    await main.click('#board [data-point=a1]');
    await waitToast(main, /第1手须下在天元/);
    await main.click('#board [data-point=h8]');
    await waitStones(main, 1);
    await main.click('#board [data-point=a1]');
    await waitToast(main, /a1 不在中央 3×3 范围内/);
    assert(!/outside/.test(await main.textContent('#toast')), 'English left in the toast');
    await main.click('#btn-lang');
    // Yamaguchi: the number of 5th moves is declared in a number field.
    await newGame(main, { mode: 'hvh', rule: 'renju', opening: 'yamaguchi', start: '4D' });
    await main.fill('[data-testid=opening-n]', '3');
    await main.click('[data-testid=opening-declare]');
    await waitStep(main, /Player 2 \(White\): choose/);
});

await test('board screenshots: desktop and a 390×844 phone', async () => {
    await newGame(main, { mode: 'hvh', rule: 'renju' });
    await play(main, ['h8', 'h9', 'i7', 'g9', 'j6', 'k5', 'i9', 'j9', 'g7', 'i8']);
    await main.check('#opt-numbers');
    await main.evaluate(() => { document.getElementById('toast').hidden = true; });
    await main.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'board.png') });
    await main.uncheck('#opt-numbers');
    await main.setViewportSize({ width: 390, height: 844 });
    const box = await main.locator('#board svg').boundingBox();
    assert(box.width <= 390 && box.width > 300, 'board does not fit the phone: ' + box.width);
    await main.screenshot({ path: path.join(ARTIFACTS, 'phone.png') });
    await main.setViewportSize({ width: 1280, height: 900 });
    assert(fs.statSync(path.join(ARTIFACTS, 'board.png')).size > 10000, 'board.png too small');
});

await browser.close();
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
