// Tao Dice: your tube with your hidden dice, every d12, stones by colour for each player and
// in the pot, the bets of the stage, the token (silver or gold) and the match score.

import { d12, d6, hiddenDie } from "../dice.js";
import { h, s, seatColour, seatName, seatPanel, stat, stones } from "./common.js";

const PHASES = {
  opener: "Throwing for the first player",
  ante: "Ante",
  throw: "Throwing the two dice, hidden",
  bet: "Betting",
  reroll: "Rerolls for white stones",
  d12: "Throwing the twelve-sided dice",
  over: "Game over",
};

const STATUS = { in: "in", folded: "folded", "sitting out": "sitting out", out: "out of the match" };

export function drawTao(view, ctx) {
  const name = (seat) => seatName(ctx.names, seat);
  const pot = view.pot || { black: 0, white: 0 };
  // the round's showdown, while the board still shows that round (the end of the game):
  // the tubes of those who showed their dice are open (D8)
  const sd = view.showdown;
  const shown = sd && sd.match === view.match && sd.round === view.round
    ? Object.fromEntries((sd.players || []).map((p) => [p.seat, p.dice])) : {};
  return h("div", { class: "tao" },
    h("div", { class: "centre-row" },
      stat("Pot", h("span", {}, stones(pot.black, "black"), stones(pot.white, "white")), "big"),
      stat("Stage", `${PHASES[view.phase] || view.phase}${view.stage && view.phase !== "over" ? ` · stage ${view.stage}` : ""}`),
      stat("Match · round", `${view.match ?? "—"} · ${view.round ?? "—"}${view.tiebreak ? ` (tie-break ${view.tiebreak})` : ""}`),
      stat("Bid unit", String(view.m ?? 1)),
      stat("Token", token(view.token, name))),
    h("div", { class: "seats" }, (view.players || []).map((p) => seatPanel(ctx, p.seat, {
      out: p.status === "out",
      badges: [
        p.seat === view.opener ? h("span", { class: "badge role" }, "opens") : null,
        p.seat === view.raiser ? h("span", { class: "badge warn" }, "raised") : null,
        p.status !== "in" ? h("span", { class: "badge" }, STATUS[p.status] || p.status) : null,
      ],
    },
    h("div", { class: "tao-dice" },
      tube(p, p.seat === ctx.seat, shown[p.seat]),
      d12(p.d12, { tone: "seat", label: p.d12 ? `${name(p.seat)}'s twelve-sided die shows ${p.d12}` : `${name(p.seat)}'s twelve-sided die, not thrown` })),
    h("div", { class: "seat-facts" },
      stones(p.black, "black"), stones(p.white, "white")),
    h("div", { class: "seat-facts" },
      p.status === "out" ? null
        : p.bet ? h("span", { class: `bet bet-${p.bet}` }, p.bet) : h("span", { class: "muted" }, view.phase === "over" ? "" : "no bet yet"),
      p.must_reroll ? h("span", { class: "badge warn" }, "must reroll") : null,
      h("small", { class: "muted" }, `matches won ${view.matches_won ? view.matches_won[p.seat] : 0}`))))),
    showdown(view.showdown, name));
}

/** A player's tube: their own 2d6 seen from above, a tube lifted at the showdown, or a
 * closed tube. */
function tube(p, mine, shownDice) {
  const colour = seatColour(p.seat);
  const faces = p.dice || shownDice;
  const dice = faces
    ? faces.map((f) => d6(f, { size: 34 }))
    : [hiddenDie({ size: 34, label: "hidden die in the tube" }), hiddenDie({ size: 34, label: "hidden die in the tube" })];
  return h("div", { class: `tube${mine ? " mine" : ""}`, style: `--tube:${colour}`, "aria-label": mine ? "your tube" : shownDice ? "a tube lifted at the showdown" : "a closed tube" },
    h("span", { class: "tube-label" }, mine ? "your tube" : shownDice ? "shown" : p.status === "folded" ? "scooped" : "tube"),
    h("div", { class: "dice-row" }, dice));
}

function token(tok, name) {
  if (!tok || tok.holder === null || tok.holder === undefined) return "not in play";
  const side = tok.side || "held";
  return h("span", { class: "token-wrap" },
    s("svg", { viewBox: "0 0 20 20", width: 20, height: 20, class: `token token-${side}`, "aria-hidden": "true" }, s("circle", { cx: 10, cy: 10, r: 8.5 })),
    ` ${name(tok.holder)}${tok.side ? ` (${tok.side})` : ""}`);
}

function showdown(sd, name) {
  if (!sd || !sd.players) return null;
  return h("section", { class: "showdown" },
    h("h3", {}, `Last showdown · match ${sd.match}, round ${sd.round}`),
    h("ul", { class: "inline-list" }, sd.players.map((p) => h("li", { class: (sd.top || []).includes(p.seat) ? "top" : "" },
      h("strong", {}, name(p.seat)), " ", (p.dice || []).map((f) => d6(f, { size: 24 })), " + ", d12(p.d12, { size: 28 }), ` = ${p.total}`))));
}

/** A Tao Dice action in words, for the replay. */
export function describeTao(action) {
  const white = action.white ? ` with ${action.white} white` : "";
  switch (action.type) {
    case "ante": return `antes${white}`;
    case "raise": return `raises${white}`;
    case "call": return `calls${white}`;
    case "pass": return "passes";
    case "fold": return "folds";
    default: return null;
  }
}
