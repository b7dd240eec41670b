// board.js — the Gomoku board as one SVG with a viewBox, so it is crisp at every size and on
// phones. The board knows nothing of rules or the server: it draws what render() is given
// and reports clicks and hovers by point name ("h8").

const NS = 'http://www.w3.org/2000/svg';
const U = 40; // one cell, in viewBox units
const PAD = { left: 46, right: 46, top: 26, bottom: 46 };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
let instances = 0;

function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
}

export function pointName(col, row) {
    return LETTERS[col] + (row + 1);
}

export function parsePoint(p) {
    const m = /^([a-z])(\d{1,2})$/.exec(p || '');
    return m ? [LETTERS.indexOf(m[1]), parseInt(m[2], 10) - 1] : null;
}

// Star points: floor(size/5) lines in from each edge, plus the centre (D4 L4 D12 L12 H8 on
// 15×15). Boards too small for distinct corners get the centre only.
export function starPoints(size) {
    const k = Math.floor(size / 5);
    const c = Math.floor(size / 2);
    const far = size - 1 - k;
    const pts = [];
    if (k >= 1 && far - k >= 2) pts.push([k, k], [far, k], [k, far], [far, far]);
    if (size % 2 === 1) pts.push([c, c]);
    return pts;
}

export class Board {
    constructor(container, { onClick, onHover } = {}) {
        this.container = container;
        this.onClick = onClick || (() => {});
        this.onHover = onHover || (() => {});
        this.prefix = 'b' + ++instances;
        this.size = 0;
        this.spec = null;
        // Keyboard play: the board takes the focus; the arrow keys move a cursor over the
        // points (drawn while the board has the focus) and Enter or Space plays there.
        this.svg = el('svg', { class: 'board', role: 'application', tabindex: '0', 'data-testid': 'board', 'aria-roledescription': 'board' });
        this.cursor = null;
        this.orient = 0;
        this.svg.dataset.orient = '0';
        container.appendChild(this.svg);
        this.svg.addEventListener('pointerleave', () => this.hover(null));
        this.svg.addEventListener('keydown', (e) => { this.keyboard = true; this.key(e); });
        this.svg.addEventListener('pointerdown', () => { this.keyboard = false; this.pointerFocus = true; });
        this.svg.addEventListener('focus', () => {
            this.keyboard = !this.pointerFocus; // Tab, or focus(): the keyboard will follow
            this.pointerFocus = false;
            this.drawCursor();
        });
        this.svg.addEventListener('blur', () => this.drawCursor());
    }

    x(col) {
        return PAD.left + col * U;
    }

    y(row) {
        return PAD.top + (this.size - 1 - row) * U;
    }

    // The view's orientation (0-7): quarter turns clockwise, plus a mirror from 4 on. Only
    // the drawing turns; points keep their names, and the labels follow them.
    toView(c, r) {
        const n = this.size - 1;
        let [x, y] = this.orient & 4 ? [n - c, r] : [c, r];
        for (let k = 0; k < (this.orient & 3); k++) [x, y] = [y, n - x];
        return [x, y];
    }

    fromView(x, y) {
        const n = this.size - 1;
        let [c, r] = [x, y];
        for (let k = 0; k < (this.orient & 3); k++) [c, r] = [n - r, c];
        return this.orient & 4 ? [n - c, r] : [c, r];
    }

    at(p) {
        const c = parsePoint(p);
        if (!c) return null;
        const [x, y] = this.toView(c[0], c[1]);
        return [this.x(x), this.y(y)];
    }

    setOrientation(orient) {
        if (orient === this.orient) return;
        this.orient = orient;
        this.svg.dataset.orient = String(orient);
        if (this.size) this.build(this.size, this.coords);
        if (this.spec) this.render(this.spec);
    }

    // The grid, stars, labels and hit targets change only with the size (or coordinates).
    build(size, coords) {
        this.size = size;
        this.coords = coords;
        const svg = this.svg;
        svg.textContent = '';
        const w = PAD.left + PAD.right + (size - 1) * U;
        const h = PAD.top + PAD.bottom + (size - 1) * U;
        svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
        svg.dataset.size = size;
        this.defs(svg);
        el('rect', { class: 'board-bg', x: 0, y: 0, width: w, height: h, rx: 8 }, svg);
        const grid = el('g', { class: 'grid' }, svg);
        const x0 = this.x(0), x1 = this.x(size - 1), yTop = this.y(size - 1), yBot = this.y(0);
        for (let i = 0; i < size; i++) {
            el('line', { x1: x0, y1: this.y(i), x2: x1, y2: this.y(i) }, grid);
            el('line', { x1: this.x(i), y1: yTop, x2: this.x(i), y2: yBot }, grid);
        }
        el('rect', { class: 'border', x: x0, y: yTop, width: x1 - x0, height: yBot - yTop }, svg);
        const stars = el('g', { class: 'stars' }, svg);
        for (const [c, r] of starPoints(size)) el('circle', { cx: this.x(c), cy: this.y(r), r: 4.5 }, stars);
        if (coords) this.labels(svg, size);
        this.gStones = el('g', { class: 'stones' }, svg);
        this.gMarks = el('g', { class: 'marks' }, svg);
        this.gHover = el('g', { class: 'hover' }, svg);
        this.gCursor = el('g', { class: 'cursor' }, svg);
        this.hits(svg, size);
    }

    defs(svg) {
        const defs = el('defs', {}, svg);
        const grad = (id, stops) => {
            const g = el('radialGradient', { id: this.prefix + id, cx: '35%', cy: '30%', r: '70%' }, defs);
            for (const [off, color] of stops) el('stop', { offset: off, 'stop-color': color }, g);
        };
        grad('black', [['0%', '#6a6a6a'], ['45%', '#1c1c1c'], ['100%', '#000']]);
        grad('white', [['0%', '#ffffff'], ['70%', '#e9e6df'], ['100%', '#bdb8ad']]);
    }

    // Letters along the bottom, numbers down both sides; on a turned board each edge names
    // the coordinate that changes along it.
    labels(svg, size) {
        const g = el('g', { class: 'coords' }, svg);
        const name = (a, b) => (a[0] !== b[0] ? LETTERS[a[0]].toUpperCase() : String(a[1] + 1));
        for (let i = 0; i < size; i++) {
            const along = this.fromView(i, 0), next = this.fromView(i === 0 ? 1 : i - 1, 0);
            const bottom = el('text', { x: this.x(i), y: this.y(0) + 32, 'text-anchor': 'middle', 'data-label': 'bottom' }, g);
            bottom.textContent = name(along, next);
            const side = this.fromView(0, i), sideNext = this.fromView(0, i === 0 ? 1 : i - 1);
            for (const x of [PAD.left - 26, this.x(size - 1) + 26]) {
                const n = el('text', { x, y: this.y(i) + 5, 'text-anchor': 'middle' }, g);
                n.textContent = name(side, sideNext);
            }
        }
    }

    hits(svg, size) {
        const g = el('g', { class: 'hits' }, svg);
        for (let c = 0; c < size; c++) {
            for (let r = 0; r < size; r++) {
                const p = pointName(c, r);
                const [vx, vy] = this.toView(c, r);
                const rect = el('rect', {
                    x: this.x(vx) - U / 2, y: this.y(vy) - U / 2, width: U, height: U,
                    'data-point': p, 'data-testid': 'pt-' + p,
                }, g);
                rect.addEventListener('pointerenter', () => this.hover(p));
                rect.addEventListener('click', () => { this.cursor = p; this.onClick(p); });
            }
        }
    }

    // spec: {size, moves, coords, numbers, numberFrom, win, forbidden, candidates, hint,
    //        preview, solve, pending, hoverColor, area, offers}
    // moves: the record, "pass" included (a pass keeps the colours of the stones after it).
    // area: the side of the central square an opening stone must go in (0: none);
    // offers: the 5th moves offered in the opening phase, drawn as numbered marks.
    render(spec) {
        if (spec.size !== this.size || !!spec.coords !== this.coords) this.build(spec.size, !!spec.coords);
        this.spec = spec;
        this.svg.classList.toggle('numbers', !!spec.numbers);
        this.drawStones(spec);
        this.drawMarks(spec);
        this.hover(this.hovered, false);
        this.drawCursor();
    }

    drawStones(spec) {
        const g = this.gStones;
        g.textContent = '';
        this.occupied = new Set(spec.moves);
        spec.moves.forEach((p, i) => {
            const xy = this.at(p);
            if (!xy) return; // "pass"
            const color = i % 2 ? 'white' : 'black';
            el('circle', {
                class: 'stone ' + color, cx: xy[0], cy: xy[1], r: U * 0.46,
                fill: `url(#${this.prefix}${color})`, 'data-stone': p, 'data-color': color,
            }, g);
            const last = i === spec.moves.length - 1;
            if (spec.numbers) {
                const n = i + 1 - (spec.numberFrom || 0);
                if (n >= 1) this.text(g, xy, String(n), 'num ' + color + (last ? ' last' : ''));
            }
            if (last && !spec.numbers) {
                el('circle', { class: 'last-mark', cx: xy[0], cy: xy[1], r: 6, 'data-testid': 'last-move' }, g);
            }
        });
    }

    text(g, [x, y], s, cls) {
        const size = s.length > 2 ? 15 : 18;
        const t = el('text', { class: cls, x, y: y + size * 0.36, 'text-anchor': 'middle', 'font-size': size }, g);
        t.textContent = s;
        return t;
    }

    drawMarks(spec) {
        const g = this.gMarks;
        g.textContent = '';
        if (spec.area > 0) this.drawArea(g, spec.area);
        (spec.offers || []).forEach((p, i) => {
            const xy = this.at(p);
            if (!xy) return;
            const m = el('g', { class: 'offer', 'data-offer': p }, g);
            el('circle', { cx: xy[0], cy: xy[1], r: U * 0.4 }, m);
            this.text(m, xy, String(i + 1), 'offer-label');
        });
        for (const f of spec.forbidden || []) {
            const xy = this.at(f.point);
            if (!xy) continue;
            const d = 9;
            const m = el('g', { class: 'forbidden', 'data-forbidden': f.point, 'data-foul': f.foul }, g);
            el('path', { d: `M${xy[0] - d} ${xy[1] - d}L${xy[0] + d} ${xy[1] + d}M${xy[0] + d} ${xy[1] - d}L${xy[0] - d} ${xy[1] + d}` }, m);
        }
        for (const c of spec.candidates || []) {
            const xy = this.at(c.point);
            if (!xy || this.occupied.has(c.point)) continue;
            const m = el('g', { class: 'candidate' + (c.best ? ' best' : ''), 'data-candidate': c.point }, g);
            el('circle', { cx: xy[0], cy: xy[1], r: U * 0.42 }, m);
            this.text(m, xy, c.label, 'cand-label');
        }
        if (spec.hint) {
            const xy = this.at(spec.hint);
            if (xy) el('circle', { class: 'hint', cx: xy[0], cy: xy[1], r: U * 0.4, 'data-testid': 'hint-mark' }, g);
        }
        if (spec.pending) {
            const xy = this.at(spec.pending);
            if (xy) el('circle', { class: 'pending', cx: xy[0], cy: xy[1], r: U * 0.44 }, g);
        }
        if (spec.win) this.drawWin(g, spec.win);
        if (spec.preview) this.drawPreview(g, spec.preview);
        if (spec.solve) this.drawSolve(g, spec.solve);
    }

    // The solver's winning line: the attacker's moves, numbered, ending with the five (the
    // defender's forced replies are left out).
    drawSolve(g, { line, color }) {
        const sg = el('g', { class: 'solve', 'data-testid': 'solve-line' }, g);
        line.forEach((p, i) => {
            const xy = this.at(p);
            if (!xy || this.occupied.has(p)) return;
            el('circle', { class: 'stone ghost ' + color, cx: xy[0], cy: xy[1], r: U * 0.44, fill: `url(#${this.prefix}${color})`, 'data-solve': p }, sg);
            el('circle', { class: 'solve-ring', cx: xy[0], cy: xy[1], r: U * 0.47 }, sg);
            this.text(sg, xy, String(i + 1), 'num ' + color);
        });
    }

    // The central square of an opening placement, a frame half a cell outside its points.
    drawArea(g, area) {
        const c = (this.size - 1) / 2, r = Math.floor(area / 2);
        const x0 = this.x(c - r) - U / 2, x1 = this.x(c + r) + U / 2;
        const y0 = this.y(c + r) - U / 2, y1 = this.y(c - r) + U / 2;
        el('rect', { class: 'opening-area', x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 6, 'data-testid': 'opening-area', 'data-area': area }, g);
    }

    drawWin(g, [a, b]) {
        const p = this.at(a), q = this.at(b);
        if (!p || !q) return;
        el('line', { class: 'win-line', x1: p[0], y1: p[1], x2: q[0], y2: q[1], 'data-testid': 'win-line' }, g);
    }

    // A principal variation as numbered translucent stones, the first in `color`.
    drawPreview(g, { moves, color }) {
        const pg = el('g', { class: 'preview', 'data-testid': 'pv-preview' }, g);
        const first = color === 'white' ? 1 : 0;
        moves.forEach((p, i) => {
            const xy = this.at(p);
            if (!xy || this.occupied.has(p)) return;
            const c = (i + first) % 2 ? 'white' : 'black';
            el('circle', { class: 'stone ghost ' + c, cx: xy[0], cy: xy[1], r: U * 0.44, fill: `url(#${this.prefix}${c})` }, pg);
            this.text(pg, xy, String(i + 1), 'num ' + c);
        });
    }

    key(e) {
        const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
        if (!this.size || e.ctrlKey || e.metaKey || e.altKey) return;
        const at = parsePoint(this.cursor) || [Math.floor(this.size / 2), Math.floor(this.size / 2)];
        if (moves[e.key]) {
            // The arrows move on the board as it is shown, turned or not.
            const [dc, dr] = moves[e.key];
            const [vx, vy] = this.toView(at[0], at[1]);
            const x = Math.max(0, Math.min(this.size - 1, vx + dc));
            const y = Math.max(0, Math.min(this.size - 1, vy + dr));
            const [c, r] = this.fromView(x, y);
            this.cursor = pointName(c, r);
            this.drawCursor();
            this.hover(this.cursor);
        } else if (e.key === 'Enter' || e.key === ' ') {
            this.cursor = pointName(at[0], at[1]);
            this.onClick(this.cursor);
        } else {
            return;
        }
        e.preventDefault();
        e.stopPropagation();
    }

    // The keyboard cursor: a square on its point while the board has the focus; the point is
    // also named for screen readers.
    drawCursor() {
        if (!this.gCursor) return;
        this.gCursor.textContent = '';
        if (!this.size) return;
        // Shown for keyboard use only: a click focuses the board too, and needs no cursor.
        const focused = document.activeElement === this.svg && this.keyboard;
        const p = this.cursor || pointName(Math.floor(this.size / 2), Math.floor(this.size / 2));
        this.svg.setAttribute('aria-label', `${p.toUpperCase()}${this.occupied && this.occupied.has(p) ? ' ●' : ''}`);
        if (!focused) return;
        const xy = this.at(p);
        if (xy) el('rect', { class: 'kb-cursor', x: xy[0] - U / 2 + 2, y: xy[1] - U / 2 + 2, width: U - 4, height: U - 4, rx: 5, 'data-testid': 'kb-cursor', 'data-cursor': p }, this.gCursor);
    }

    // notify is false when a render redraws the ghost, so a listener that re-renders on
    // hover cannot loop.
    hover(p, notify = true) {
        if (notify && p === this.hovered && this.gHover && this.gHover.firstChild) return;
        this.hovered = p;
        if (!this.gHover) return;
        this.gHover.textContent = '';
        const spec = this.spec;
        const forbidden = spec && (spec.forbidden || []).some((f) => f.point === p);
        if (p && spec && spec.hoverColor && !this.occupied.has(p) && !forbidden) {
            const xy = this.at(p);
            el('circle', {
                class: 'stone ghost ' + spec.hoverColor, cx: xy[0], cy: xy[1], r: U * 0.46,
                fill: `url(#${this.prefix}${spec.hoverColor})`,
            }, this.gHover);
        }
        if (notify) this.onHover(p);
    }
}
