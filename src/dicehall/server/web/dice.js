// Dice drawn in SVG: pip dice, hidden dice, twelve-sided dice and Tepiiku's rune dice.
// Every die carries a text label (aria-label and <title>) so it reads aloud and in tests.

import { s } from "./dom.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

function svg(label, cls, size, ...children) {
  return s(
    "svg",
    { viewBox: "0 0 100 100", width: size, height: size, class: `die ${cls}`, role: "img", "aria-label": label },
    s("title", {}, label),
    ...children,
  );
}

/** A six-sided die showing `face` (1–6) with pips; `tone` colours it ("ivory", "red", ...). */
export function d6(face, { size = 44, tone = "ivory", label } = {}) {
  const pips = PIPS[face];
  if (!pips) return textDie(String(face), { size, tone, label });
  return svg(
    label || `die showing ${face}`,
    `d6 tone-${tone}`,
    size,
    s("rect", { x: 5, y: 5, width: 90, height: 90, rx: 18, class: "die-body" }),
    ...pips.map(([cx, cy]) => s("circle", { cx, cy, r: 9, class: face === 1 ? "pip pip-one" : "pip" })),
  );
}

/** A die whose face is hidden from this viewer. */
export function hiddenDie({ size = 44, label = "hidden die" } = {}) {
  return svg(
    label,
    "d6 hidden",
    size,
    s("rect", { x: 5, y: 5, width: 90, height: 90, rx: 18, class: "die-body" }),
    s("text", { x: 50, y: 66, "text-anchor": "middle", class: "die-text" }, "?"),
  );
}

/** A die showing a word or number that has no pips (fallback). */
export function textDie(text, { size = 44, tone = "ivory", label } = {}) {
  return svg(
    label || `die showing ${text}`,
    `d6 tone-${tone}`,
    size,
    s("rect", { x: 5, y: 5, width: 90, height: 90, rx: 18, class: "die-body" }),
    s("text", { x: 50, y: 64, "text-anchor": "middle", class: "die-text small" }, String(text)),
  );
}

/** A twelve-sided die seen from above: a pentagon face with its number. */
export function d12(face, { size = 54, tone = "gold", label } = {}) {
  const hidden = face === null || face === undefined;
  const points = [];
  for (let i = 0; i < 5; i++) {
    const a = (-90 + i * 72) * (Math.PI / 180);
    points.push(`${50 + 45 * Math.cos(a)},${54 + 45 * Math.sin(a)}`);
  }
  return svg(
    label || (hidden ? "twelve-sided die, not thrown" : `twelve-sided die showing ${face}`),
    `d12 tone-${tone}${hidden ? " hidden" : ""}`,
    size,
    s("polygon", { points: points.join(" "), class: "die-body" }),
    s("text", { x: 50, y: 68, "text-anchor": "middle", class: "die-text" }, hidden ? "?" : String(face)),
  );
}

/** Tepiiku's runes: a glyph and a colour each, with their worth in words for the label. */
export const RUNES = {
  ingot: { glyph: "▬", colour: "#b8860b", worth: "1 point" },
  gem: { glyph: "◆", colour: "#1f7a4d", worth: "2 points" },
  fire: { glyph: "▲", colour: "#c0392b", worth: "3 points, 0 with water" },
  water: { glyph: "≈", colour: "#1f5fa8", worth: "4 points, 0 with fire" },
  skull: { glyph: "☠", colour: "#3b3b3b", worth: "−2 points" },
  person: { glyph: "☺", colour: "#7b3fa0", worth: "1 point per person showing" },
};

/** A rune die: the rune's glyph on its colour, the rune named underneath for the eye. */
export function runeDie(rune, { size = 52 } = {}) {
  const info = RUNES[rune];
  if (!info) return hiddenDie({ size, label: "hidden rune die" });
  return svg(
    `${rune} rune (${info.worth})`,
    `rune rune-${rune}`,
    size,
    s("rect", { x: 5, y: 5, width: 90, height: 90, rx: 16, class: "die-body", style: `fill:${info.colour}` }),
    s("text", { x: 50, y: 58, "text-anchor": "middle", class: "rune-glyph" }, info.glyph),
    s("text", { x: 50, y: 86, "text-anchor": "middle", class: "rune-name" }, rune),
  );
}

/** Any die face from a chance step: numbers get pips (or a d12), names get runes. */
export function anyDie(face, opts = {}) {
  if (typeof face === "number") return face >= 1 && face <= 6 ? d6(face, opts) : d12(face, opts);
  if (typeof face === "string" && RUNES[face]) return runeDie(face, opts);
  if (face === null || face === undefined) return hiddenDie(opts);
  return textDie(String(face), opts);
}

/** Kariki's mug, upside down on the table; `lifted` shows it tipped up. */
export function mug({ size = 120, lifted = false, label = "the mug" } = {}) {
  return s(
    "svg",
    { viewBox: "0 0 120 110", width: size, height: size * 0.92, class: `mug${lifted ? " lifted" : ""}`, role: "img", "aria-label": label },
    s("title", {}, label),
    s("ellipse", { cx: 60, cy: 100, rx: 52, ry: 8, class: "mug-shadow" }),
    s("g", { transform: lifted ? "rotate(-28 20 100)" : "" },
      s("path", { d: "M22 98 L32 18 Q60 8 88 18 L98 98 Z", class: "mug-body" }),
      s("path", { d: "M32 18 Q60 8 88 18 Q60 28 32 18 Z", class: "mug-top" }),
      s("path", { d: "M97 40 q22 6 14 30 q-4 10 -12 10", class: "mug-handle" }),
      s("rect", { x: 26, y: 84, width: 68, height: 8, rx: 3, class: "mug-band" })),
  );
}

/** The faces an event shows, if any: a throw's dice, a roll-off's die, a d12.
 * (A "reroll" event's dice are the indices of the dice picked up, not faces.) */
export function eventDice(event) {
  if (!event || event.type === "reroll") return null;
  const flat = (list) => list.every((f) => typeof f === "number" || typeof f === "string");
  if (Array.isArray(event.dice) && event.dice.length && flat(event.dice)) return event.dice;
  if (typeof event.face === "number") return [event.face];
  if (typeof event.d12 === "number") return [event.d12];
  return null;
}
