// Toplshteyner: the roller's throws this turn, the point, each consequence as it happens,
// everyone's lives and the pot.

import { d6 } from "../dice.js";
import { coins, h, seatName, seatPanel, stat } from "./common.js";

/** The doubles and what each does (P4–P9). */
const CONSEQUENCES = {
  1: "Snake Eyes",
  2: "Saving Grace",
  3: "Threes",
  4: "Crazy Eight",
  5: "High Fives",
  6: "Trick Sixes",
};

const ENDS = {
  point: "made the point: safe",
  saving_grace: "Saving Grace: safe",
  second_snake_eyes: "second Snake Eyes: a life saved",
  seven: "threw a seven: a life lost",
  trick_sixes: "Trick Sixes end the turn",
  out: "lost the last life: out",
  over: "ended the game",
};

export function throwName([a, b]) {
  if (a === b) return CONSEQUENCES[a];
  if (a + b === 7) return "Seven";
  return `${a + b}`;
}

export function drawToplshteyner(view, ctx) {
  const name = (seat) => seatName(ctx.names, seat);
  const throws = view.throws || [];
  const latest = throws[throws.length - 1];
  const flags = [
    view.snake_eyes && "Snake Eyes thrown",
    view.threes && "Threes thrown",
    view.high_fives && "High Fives thrown",
  ].filter(Boolean);
  return h("div", { class: "toplshteyner" },
    h("div", { class: "centre-row" },
      stat("Pot", coins(view.pot ?? 0, "stakes in the pot"), "big"),
      view.phase === "over" ? null // the last turn's point means nothing once the game is won
        : stat("Point", view.point ? h("span", { class: "point" }, String(view.point)) : "none", "big"),
      stat("Roller", view.roller !== null && view.roller !== undefined ? name(view.roller) : "—"),
      view.last_turn ? stat("Last turn", `${name(view.last_turn.seat)} ${ENDS[view.last_turn.end] || view.last_turn.end}`) : null),
    view.rolloff ? h("div", { class: "roll-off" }, h("p", {}, "Roll-off: the highest throw goes first"),
      h("ul", { class: "inline-list" }, (view.rolloff.contenders || []).map((seat) => {
        const faces = view.rolloff.faces && view.rolloff.faces[seat];
        return h("li", {}, name(seat), " ", faces ? [].concat(faces).map((f) => d6(f, { size: 28 })) : h("span", { class: "muted" }, "…"));
      }))) : null,
    latest ? h("div", { class: `throw-now${latest[0] === latest[1] ? " consequence" : ""}` },
      h("div", { class: "dice-row" }, latest.map((f) => d6(f, { size: 64, tone: latest[0] === latest[1] ? "red" : "ivory" }))),
      h("span", { class: "throw-name" }, throwName(latest))) : null,
    flags.length ? h("p", { class: "flags" }, flags.map((f) => h("span", { class: "badge warn" }, f))) : null,
    throws.length > 1 ? h("ol", { class: "throws", "aria-label": "This turn's throws" }, throws.map((t) => h("li", {},
      t.map((f) => d6(f, { size: 24 })), h("small", {}, throwName(t))))) : null,
    h("div", { class: "seats" }, (view.lives || []).map((lives, seat) => seatPanel(ctx, seat, {
      out: lives === 0,
      badges: [seat === view.roller ? h("span", { class: "badge role" }, "rolling") : null],
    },
    h("div", { class: "lives", role: "img", "aria-label": `${lives} li${lives === 1 ? "fe" : "ves"}` },
      Array.from({ length: Math.max(lives, 3) }, (_, i) => h("span", { class: i < lives ? "heart" : "heart lost", "aria-hidden": "true" }, "♥"))),
    h("small", { class: "muted" }, `paid ${view.paid ? view.paid[seat] : 0} · back ${view.reclaimed ? view.reclaimed[seat] : 0}`)))));
}

/** A Toplshteyner action in words, for the replay. */
export function describeToplshteyner(action, name) {
  switch (action.type) {
    case "elect": return `elects ${name(action.seat)} to lose a life`;
    case "buy": return "buys a fourth life";
    case "decline": return "keeps three lives";
    default: return null;
  }
}
