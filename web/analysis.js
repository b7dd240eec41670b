// analysis.js — the analysis panel: the latest search's numbers, its lines as a table whose
// rows preview their PV on the board, and the candidate marks for the board overlay.
// `search` events carry scores from the searching side's point of view (docs/api.md).

import { t, colorName } from './i18n.js';
import { $, clear, make, formatCount, formatMs, formatWinrate } from './ui.js';

// "win in 3" does not fit on a stone: W3 / L3; plain scores stay as they are.
export function shortScore(text) {
    const m = /^(win|loss) in (\d+)$/.exec(text || '');
    if (m) return (m[1] === 'win' ? 'W' : 'L') + m[2];
    return text || '';
}

function lineLabel(line, winrate) {
    return winrate && typeof line.winrate === 'number' ? Math.round(line.winrate * 100) + '%' : shortScore(line.text);
}

export function candidatesOf(search, winrate) {
    if (!search || !search.lines) return [];
    return search.lines
        .filter((l) => l.moves && l.moves.length)
        .map((l, i) => ({ point: l.moves[0], label: lineLabel(l, winrate), best: i === 0, line: l }));
}

export function clearAnalysis() {
    $('ana-kind').textContent = t('ana.idle');
    for (const id of ['ana-eval', 'ana-winrate', 'ana-depth', 'ana-nodes', 'ana-nps', 'ana-time']) $(id).textContent = '—';
    clear($('ana-lines'));
}

// onPreview(line | null) is called as the pointer enters or leaves a row.
export function renderAnalysis(search, onPreview) {
    if (!search) return clearAnalysis();
    const best = (search.lines && search.lines[0]) || null;
    const who = colorName(search.color);
    const kind = search.kind === 'move' ? (search.done ? 'ana.kind.moveDone' : 'ana.kind.move') : 'ana.kind.analysis';
    $('ana-kind').textContent = t(kind, { color: who });
    $('ana-eval').textContent = best ? `${best.text} (${who})` : '—';
    $('ana-winrate').textContent = best ? formatWinrate(best.winrate) : '—';
    $('ana-depth').textContent = `${search.depth}-${search.seldepth ?? search.depth}`;
    $('ana-nodes').textContent = formatCount(search.nodes || 0);
    $('ana-nps').textContent = formatCount(search.nps || 0) + '/s';
    $('ana-time').textContent = formatMs(search.time_ms || 0);
    const body = clear($('ana-lines'));
    (search.lines || []).forEach((line, i) => {
        const row = make('tr', {
            dataset: { testid: 'ana-line', idx: String(i + 1) },
            onmouseenter: () => onPreview(line),
            onmouseleave: () => onPreview(null),
        }, [
            make('td', { text: String(i + 1) }),
            make('td', { text: line.text ?? String(line.score) }),
            make('td', { text: String(line.depth ?? search.depth) }),
            make('td', { class: 'pv', text: (line.moves || []).join(' ') }),
        ]);
        row.setAttribute('data-testid', 'ana-line');
        body.append(row);
    });
}
