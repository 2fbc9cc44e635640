// Pieces every table shares: seat panels, counters, stones, and the generic view panel.

import { h, mount, s, seatName, valueText, words } from "../dom.js";

/** One colour per seat, for tubes, d12s and markers (all readable on the felt). */
export const SEAT_COLOURS = ["#c0392b", "#1f5fa8", "#1f7a4d", "#8e44ad", "#b9770e", "#16707a"];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** A panel for one seat: name (marked "you" and "to act"), then whatever the game puts in. */
export function seatPanel(ctx, seat, { badges = [], out = false } = {}, ...body) {
  const me = seat === ctx.seat;
  const acting = ctx.actors.includes(seat);
  return h("article", {
    class: `seat${me ? " me" : ""}${acting ? " acting" : ""}${out ? " out" : ""}`,
    style: `--seat-colour:${seatColour(seat)}`,
    "aria-label": `${seatName(ctx.names, seat)}${me ? " (you)" : ""}${acting ? ", to act" : ""}`,
    dataset: { seat },
  },
  h("header", { class: "seat-head" },
    h("span", { class: "seat-name" }, seatName(ctx.names, seat)),
    me ? h("span", { class: "badge you" }, "you") : null,
    acting ? h("span", { class: "badge acting" }, "to act") : null,
    out ? h("span", { class: "badge out" }, "out") : null,
    ...badges),
  ...body);
}

/** A labelled figure: "Pot 12". */
export function stat(label, value, cls = "") {
  return h("div", { class: `stat ${cls}` }, h("span", { class: "stat-label" }, label), h("span", { class: "stat-value" }, value));
}

/** A row of round stones, black or white, capped with a count when there are many. */
export function stones(count, colour, { max = 10 } = {}) {
  const shown = Math.min(count, max);
  return h("span", { class: `stones stones-${colour}`, "aria-label": `${count} ${colour} stone${count === 1 ? "" : "s"}`, role: "img" },
    Array.from({ length: shown }, () => s("svg", { viewBox: "0 0 20 20", width: 16, height: 16, class: `stone stone-${colour}`, "aria-hidden": "true" },
      s("circle", { cx: 10, cy: 10, r: 8 }))),
    count > max || count === 0 ? h("span", { class: "stone-count", "aria-hidden": "true" }, count > max ? `+${count - max}` : `no ${colour}`) : null);
}

/** A coin with a number, for Tepiiku's purses and pots. */
export function coins(count, label = "coins") {
  return h("span", { class: "coins", role: "img", "aria-label": `${count} ${label}` },
    s("svg", { viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true" },
      s("circle", { cx: 10, cy: 10, r: 8.5, class: "coin" }), s("circle", { cx: 10, cy: 10, r: 5.5, class: "coin-inner" })),
    h("span", { "aria-hidden": "true" }, String(count)));
}

/** The view as a readable key/value panel: the table for a game without its own drawing. */
export function genericPanel(view, ctx, skip = []) {
  const rows = Object.entries(view || {}).filter(([k]) => !skip.includes(k));
  return h("dl", { class: "kv generic" }, rows.flatMap(([key, value]) => [
    h("dt", {}, words(key)),
    h("dd", {}, seatValue(key, value, ctx)),
  ]));
}

function seatValue(key, value, ctx) {
  if ((key === "seat" || key === "winner") && typeof value === "number") return seatName(ctx.names, value);
  if (key === "actors" && Array.isArray(value)) return value.map((x) => seatName(ctx.names, x)).join(", ") || "—";
  return valueText(value);
}

/** Everything in the view, folded away under the drawing, so nothing the server sent is lost. */
export function allFields(view, ctx) {
  return h("details", { class: "all-fields" }, h("summary", {}, "All table facts"), genericPanel(view, ctx));
}

export { h, mount, s, seatName };
