// export.js — the board as a picture: a standalone SVG (the page's styles written into each
// element as attributes, so it looks the same anywhere) or a PNG drawn from it.

// What the board's look depends on; copied from the page's computed styles.
const STYLE_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity',
    'stroke-linecap', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight',
    'text-anchor', 'dominant-baseline', 'visibility', 'display'];

// A copy of the board's SVG that stands alone: styles inline, no hover or click layers.
export function boardSvgText(svg) {
    const copy = svg.cloneNode(true);
    const from = svg.querySelectorAll('*');
    const to = copy.querySelectorAll('*');
    // As presentation attributes: a style attribute would break the page's security policy
    // (no inline styles), and attributes are as good in a standalone SVG.
    from.forEach((node, i) => {
        const cs = getComputedStyle(node);
        for (const k of STYLE_PROPS) {
            const v = cs.getPropertyValue(k);
            if (v) to[i].setAttribute(k, v);
        }
    });
    for (const n of copy.querySelectorAll('.hits, .hover, .preview, .candidate, .pending, .hint')) n.remove();
    const box = svg.viewBox.baseVal;
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    copy.setAttribute('width', String(box.width));
    copy.setAttribute('height', String(box.height));
    copy.removeAttribute('class');
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
}

// The PNG of an SVG text, twice the viewBox size for sharp prints.
export function svgToPng(text, width, height, scale = 2) {
    return new Promise((resolve, reject) => {
        const img = new Image();
        img.onload = () => {
            const canvas = document.createElement('canvas');
            canvas.width = width * scale;
            canvas.height = height * scale;
            canvas.getContext('2d').drawImage(img, 0, 0, canvas.width, canvas.height);
            canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png');
        };
        img.onerror = () => reject(new Error('the board could not be drawn'));
        // A data: URL: the page's security policy allows images from data:, not blob:.
        img.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(text)));
    });
}

export function download(blob, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
