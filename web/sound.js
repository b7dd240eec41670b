// sound.js — a stone's click and the end-of-game chime, synthesised with WebAudio so the page
// ships no audio files. Browsers only start audio after a user gesture, so the context is
// created lazily on the first sound and resumed if it was suspended.

import { getPref, setPref } from './prefs.js';

let ctx = null;
let muted = getPref('muted', false);

export function isMuted() {
    return muted;
}

export function setMuted(value) {
    muted = !!value;
    setPref('muted', muted);
}

function audio() {
    if (muted) return null;
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try {
        if (!ctx) ctx = new AC();
        if (ctx.state === 'suspended') ctx.resume().catch(() => {});
        return ctx;
    } catch {
        return null;
    }
}

// A wooden "tock": a short noise burst through a band-pass filter plus a quick sine thump.
export function playStone() {
    const ac = audio();
    if (!ac) return;
    const t = ac.currentTime;
    const len = Math.floor(ac.sampleRate * 0.06);
    const buf = ac.createBuffer(1, len, ac.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 4);
    const noise = ac.createBufferSource();
    noise.buffer = buf;
    const band = ac.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = 1800;
    band.Q.value = 1.2;
    const gain = ac.createGain();
    gain.gain.value = 0.6;
    noise.connect(band).connect(gain).connect(ac.destination);
    noise.start(t);
    tone(ac, t, 180, 0.08, 0.35, 'sine');
}

// Three rising notes for the end of a game.
export function playEnd() {
    const ac = audio();
    if (!ac) return;
    const t = ac.currentTime;
    [523.25, 659.25, 783.99].forEach((f, i) => tone(ac, t + i * 0.14, f, 0.35, 0.18, 'triangle'));
}

function tone(ac, start, freq, dur, vol, type) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(vol, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + dur);
    osc.connect(gain).connect(ac.destination);
    osc.start(start);
    osc.stop(start + dur + 0.02);
}
