// graph.js — the evaluation graph over the game: Black's win rate per ply from the game's
// `evals`, 100% at the top, with the current ply marked. Win rate rather than score because
// it is bounded, so a "win in 3" does not flatten the rest of the curve.

const NS = 'http://www.w3.org/2000/svg';
const W = 300, H = 90, PX = 4, PY = 6;

function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
}

// Win rates come from the server; a missing one is derived from the score with the usual
// logistic curve so older entries still draw.
function winrate(e) {
    if (typeof e.winrate === 'number') return Math.min(1, Math.max(0, e.winrate));
    return 1 / (1 + Math.exp(-(e.score || 0) / 200));
}

export function drawGraph(svg, evals, ply, total, onPick) {
    svg.textContent = '';
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    const n = Math.max(total, ply, 1, ...evals.map((e) => e.ply));
    const x = (p) => PX + (p / n) * (W - 2 * PX);
    const y = (w) => PY + (1 - w) * (H - 2 * PY);
    el('rect', { class: 'graph-bg', x: 0, y: 0, width: W, height: H }, svg);
    el('line', { class: 'graph-mid', x1: 0, y1: y(0.5), x2: W, y2: y(0.5) }, svg);
    if (evals.length) {
        const pts = evals.map((e) => `${x(e.ply).toFixed(1)},${y(winrate(e)).toFixed(1)}`);
        const area = `M${x(evals[0].ply).toFixed(1)},${y(0.5)}L${pts.join('L')}L${x(evals[evals.length - 1].ply).toFixed(1)},${y(0.5)}Z`;
        el('path', { class: 'graph-area', d: area }, svg);
        el('polyline', { class: 'graph-line', points: pts.join(' ') }, svg);
        for (const e of evals) {
            const c = el('circle', { class: 'graph-dot', cx: x(e.ply), cy: y(winrate(e)), r: 2.2, 'data-ply': e.ply }, svg);
            const tip = el('title', {}, c);
            tip.textContent = `${e.ply}: ${e.text ?? e.score}`;
        }
    }
    el('line', { class: 'graph-now', x1: x(ply), y1: 0, x2: x(ply), y2: H }, svg);
    if (onPick) {
        svg.onclick = (ev) => {
            const r = svg.getBoundingClientRect();
            const p = Math.round(((ev.clientX - r.left) / r.width * W - PX) / (W - 2 * PX) * n);
            onPick(Math.max(0, Math.min(total, p)));
        };
    }
}
