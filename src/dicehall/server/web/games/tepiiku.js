// Tepiiku: three players' rune dice (a glyph and a colour per rune), their thumbs, the pot,
// the roles (Fish, middle, Hook) and each purse of coins.

import { RUNES, hiddenDie, runeDie } from "../dice.js";
import { coins, h, seatName, seatPanel, stat } from "./common.js";

const PHASES = {
  throw: "Everyone throws in secret",
  bet: "Thumbs up or down: everyone at once",
  ties: "Tied players reroll",
  fish: "The Fish pays or rerolls",
  forced: "Tied by the Fish: must reroll",
  over: "Game over",
};

const ROLE_NAMES = { fish: "Fish", middle: "Middle", hook: "Hook" };

export function drawTepiiku(view, ctx) {
  const name = (seat) => seatName(ctx.names, seat);
  const roleOf = {};
  for (const [role, seat] of Object.entries(view.roles || {})) roleOf[seat] = role;
  return h("div", { class: "tepiiku" },
    h("div", { class: "centre-row" },
      stat("Pot", coins(view.pot ?? 0, "in the pot"), "big"),
      stat("Round", String(view.round ?? "—")),
      stat("Phase", PHASES[view.phase] || view.phase),
      view.last ? stat("Last", lastText(view.last, name)) : null),
    h("div", { class: "seats" }, (view.coins || []).map((purse, seat) => {
      const role = roleOf[seat];
      const dice = view.dice && view.dice[seat];
      return seatPanel(ctx, seat, {
        out: purse <= 0 && view.over,
        badges: [
          role ? h("span", { class: `badge role-${role}` }, ROLE_NAMES[role]) : null,
          view.forced === seat ? h("span", { class: "badge warn" }, "must reroll") : null,
          (view.tied || []).includes(seat) ? h("span", { class: "badge warn" }, "tied") : null,
        ],
      },
      h("div", { class: "dice-row" }, dice
        ? dice.map((rune, i) => seat === ctx.seat && ctx.pick
          ? pickDie(rune, i, ctx.pick)
          : h("span", { class: (view.choices && view.choices[seat] || []).includes(i) ? "chosen" : "" }, runeDie(rune)))
        : [0, 1, 2].map(() => hiddenDie({ size: 52, label: "hidden rune die" }))),
      h("div", { class: "seat-facts" },
        coins(purse),
        h("span", { class: "score" }, view.scores && view.scores[seat] !== null && view.scores[seat] !== undefined ? `score ${view.scores[seat]}` : "score ?"),
        thumb(view.thumbs && view.thumbs[seat], view.committed && view.committed[seat])));
    })),
    h("details", { class: "legend" }, h("summary", {}, "Runes"),
      h("ul", { class: "rune-legend" }, Object.entries(RUNES).map(([rune, info]) => h("li", {}, runeDie(rune, { size: 30 }), ` ${rune}: ${info.worth}`)))));
}

/** One of your own dice while you choose which to reroll: a toggle, marked when picked. */
function pickDie(rune, i, pick) {
  const on = pick.picked.has(i);
  return h("button", {
    type: "button",
    class: `die-pick action${on ? " chosen" : ""}`,
    "aria-pressed": on ? "true" : "false",
    "aria-label": `die ${i + 1}: ${rune}${on ? ", to reroll" : ""}`,
    "aria-keyshortcuts": String(i + 1),
    onclick: () => pick.toggle(i),
  }, runeDie(rune), h("kbd", { "aria-hidden": "true" }, String(i + 1)));
}

/** Tepiiku's reroll choices are sets of your dice: picked on the board, not from a list. */
export function picksDice(view, legal) {
  return view && view.game === "tepiiku" && legal.filter((e) => e.action.type === "reroll").length > 1;
}

/** The runes picked, in words: "water and person". */
export function pickedWords(view, picked) {
  const hand = (view.dice && view.dice[view.seat]) || [];
  const runes = [...picked].sort().map((i) => hand[i]);
  if (runes.length === hand.length && runes.length) return "all dice";
  return runes.length <= 1 ? runes.join("") : `${runes.slice(0, -1).join(", ")} and ${runes[runes.length - 1]}`;
}

function thumb(up, committed) {
  if (up === true) return h("span", { class: "thumb up" }, "▲ thumbs up");
  if (up === false) return h("span", { class: "thumb down" }, "▼ thumbs down");
  return h("span", { class: "thumb" }, committed ? "✓ chosen" : "");
}

function lastText(last, name) {
  if (last.kind === "pay") return `${name(last.seat)} paid ${last.amount} to ${name(last.to ?? last.hook)}`;
  const kinds = { bust: "bust!", still: "still the Fish", tie: "a tie: stakes double", beat: "beat a player: stakes double", settled: "ties nobody" };
  const before = last.before ?? last.from;
  const after = last.after ?? last.to;
  return `${name(last.seat)} rerolled ${before} → ${after}: ${kinds[last.kind] || last.kind}`;
}

/** A Tepiiku action in words, for the replay. */
export function describeTepiiku(action) {
  switch (action.type) {
    case "thumbs": return action.up ? "thumbs up" : "thumbs down";
    case "pay": return "pays the pot";
    case "reroll": return `rerolls die ${(action.dice || []).map((i) => i + 1).join(" and ")}`;
    default: return null;
  }
}
