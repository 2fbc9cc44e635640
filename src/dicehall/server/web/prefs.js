// This browser's table preferences: dice that roll on the table (on unless the system asks
// for less motion, which always wins) and the sound of dice (off until turned on). Kept in
// localStorage; the sound is made on the spot (Web Audio), so no file is fetched.

import { h } from "./dom.js";

const KEY = "dicehall.prefs";

export function loadPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { rolling: saved.rolling !== false, diceSound: saved.diceSound === true };
  } catch {
    return { rolling: true, diceSound: false };
  }
}

function savePrefs(prefs) {
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    /* this page only */
  }
}

/** Dice rolling or still: a class on the page's root the stylesheet reads. */
export function applyPrefs(prefs = loadPrefs()) {
  document.documentElement.classList.toggle("still-dice", !prefs.rolling);
}

let audio = null;

/** A short rattle: a few clicks of filtered noise, like dice landing in a cup. */
export function diceSound() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  audio = audio || new Context();
  const start = audio.currentTime;
  const length = Math.floor(audio.sampleRate * 0.03);
  const buffer = audio.createBuffer(1, length, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length);
  [0, 0.07, 0.12, 0.2].forEach((at, i) => {
    const click = audio.createBufferSource();
    const filter = audio.createBiquadFilter();
    const gain = audio.createGain();
    click.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = 1800 + i * 400;
    gain.gain.value = 0.25 / (i + 1);
    click.connect(filter).connect(gain).connect(audio.destination);
    click.start(start + at);
  });
  return true;
}

/** The preferences card: two switches, saved as they change. */
export function prefsCard() {
  const prefs = loadPrefs();
  const rolling = h("input", { type: "checkbox", id: "pref-rolling", checked: prefs.rolling });
  const sound = h("input", { type: "checkbox", id: "pref-dice-sound", checked: prefs.diceSound });
  const save = () => {
    const next = { rolling: rolling.checked, diceSound: sound.checked };
    savePrefs(next);
    applyPrefs(next);
  };
  rolling.addEventListener("change", save);
  sound.addEventListener("change", save);
  return h("details", { class: "card prefs" }, h("summary", {}, "Preferences"),
    h("div", { class: "field check" }, rolling, h("label", { for: "pref-rolling" }, "Dice roll when thrown (not when the system asks for less motion)")),
    h("div", { class: "field check" }, sound, h("label", { for: "pref-dice-sound" }, "Sound of dice")));
}
