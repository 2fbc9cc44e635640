// Kariki: the mug, the claim on the table and its owner, the pass chain, your own throw
// (only while the server shows it to you), and the score sheet: each player's cross of five
// berries, crowns, slashes, and the stinker for a player in the poo.

import { d6, mug } from "../dice.js";
import { coins, h, s, seatName, seatPanel, stat } from "./common.js";

const PHASES = {
  "roll-off": "Roll-off for the first roller",
  direction: "The first roller picks the direction",
  throw: "The roller throws under the mug",
  claim: "The roller claims a roll",
  respond: "Roll higher, pull, or pass?",
  emergency: "Emergency berry?",
  over: "Game over",
};

export function drawKariki(view, ctx) {
  const rank = (id) => (id === null || id === undefined ? "—" : (view.rank_names && view.rank_names[id]) || id);
  const name = (seat) => seatName(ctx.names, seat);
  return h("div", { class: "kariki" },
    h("div", { class: "kariki-centre" },
      h("div", { class: "mug-area" },
        mug({ label: view.roller !== null && view.roller !== undefined ? `the mug, held by ${name(view.roller)}` : "the mug" }),
        view.your_dice
          ? h("div", { class: "secret", "aria-label": "Your throw, seen by you alone" },
            h("span", { class: "secret-label" }, "Under the mug (only you see this)"),
            h("div", { class: "dice-row" }, view.your_dice.map((f) => d6(f, { size: 48 }))),
            h("span", { class: "rank-name" }, diceRank(view.your_dice, view)))
          : null),
      h("div", { class: "claim-area" },
        h("p", { class: "phase" }, PHASES[view.phase] || view.phase),
        h("div", { class: "claim", "aria-label": "The claim on the table" },
          h("span", { class: "claim-label" }, "Claim"),
          h("span", { class: "claim-rank" }, rank(view.claim)),
          view.claim !== null && view.claim !== undefined && view.claim_owner !== null
            ? h("span", { class: "claim-owner" }, `owned by ${name(view.claim_owner)}`) : null),
        view.previous_claim ? h("p", { class: "muted" }, `It followed: ${rank(view.previous_claim)}`) : null,
        view.pass_chain && view.pass_chain.length
          ? h("p", { class: "pass-chain" }, "Passed by ", view.pass_chain.map((p, i) =>
            [i ? " → " : "", h("strong", {}, name(p))])) : null,
        view.responder !== null && view.responder !== undefined
          ? h("p", {}, `${name(view.responder)} decides${view.may_roll === false ? " (may not roll higher)" : ""}${view.may_pass === false ? " (may not pass)" : ""}.`) : null,
        rollOff(view, name),
        lastShown(view, rank, name),
        view.phase === "emergency" && view.deciding !== null && view.deciding !== undefined
          ? h("p", { class: "warn-text" }, `${name(view.deciding)} may buy an emergency berry for ${view.emergency_price}.`) : null),
      h("div", { class: "kariki-stats" },
        stat("Pot", coins(view.pot ?? 0, "in the pot")),
        stat("Play goes", view.direction ? (view.direction === "left" ? "left ↻" : "right ↺") : "—"),
        stat("Roller", view.roller !== null && view.roller !== undefined ? name(view.roller) : "—"))),
    h("section", { class: "score-sheet", "aria-label": "Score sheet" },
      h("h2", { class: "sheet-title" }, "Score sheet"),
      h("div", { class: "seats" }, (view.berries || []).map((_, seat) => seatPanel(ctx, seat, {
        out: view.out && view.out[seat],
        badges: [
          seat === view.roller ? h("span", { class: "badge role" }, "mug") : null,
          seat === view.claim_owner && view.claim ? h("span", { class: "badge role" }, "claim") : null,
        ],
      },
      h("div", { class: "sheet-row" },
        cross(view.berries[seat]),
        h("div", { class: "marks" },
          h("span", { class: "crowns", "aria-label": `${view.crowns[seat]} crowns` }, view.crowns[seat] ? "♛".repeat(view.crowns[seat]) : h("span", { class: "muted" }, "no crowns")),
          h("span", { class: "slashes", "aria-label": `${view.slashes[seat]} slashes` }, view.slashes[seat] ? "/".repeat(view.slashes[seat]) : ""),
          view.in_the_poo && view.in_the_poo[seat] ? stinker() : null)))))));
}

function rollOff(view, name) {
  const ro = view.roll_off;
  if (!ro || !ro.throws) return null;
  return h("div", { class: "roll-off" }, h("p", {}, "Roll-off: highest die rolls first"),
    h("ul", { class: "inline-list" }, (ro.contenders || []).map((seat) => h("li", {},
      name(seat), " ", ro.throws[seat] ? d6(ro.throws[seat], { size: 28 }) : h("span", { class: "muted" }, "…")))));
}

function lastShown(view, rank, name) {
  const last = view.last_shown;
  if (!last || !last.dice) return null;
  let story = `${name(last.thrower)}'s dice`;
  if (last.how === "pull") {
    story = `${name(last.puller)} pulled on ${rank(last.claim)}: ${name(last.thrower)}'s dice showed ${rank(last.rank)}`;
    if (last.berry_to !== undefined && last.berry_to !== null) story += `; berry to ${name(last.berry_to)}`;
  } else if (last.how === "kariki") {
    story = `${name(last.thrower)} threw a Kariki!`;
  }
  return h("div", { class: "last-shown" }, h("span", { class: "muted" }, "Last shown"),
    h("div", { class: "dice-row" }, last.dice.map((f) => d6(f, { size: 30 }))), h("span", {}, story));
}

/** The rank of your own dice, in words, for the line under them. */
function diceRank(dice, view) {
  const [a, b] = [...dice].sort((x, y) => x - y);
  const names = view.rank_names || {};
  if (a === 1 && b === 2) return names.kariki || "Kariki";
  if (a === b) return names[`${a}-${a}`] || `${a}-${a}`;
  return names[String(a + b)] || String(a + b);
}

/** The cross of five points: its four ends and the centre, a berry hanging on each one earned. */
function cross(berries) {
  const points = [[30, 8], [8, 30], [30, 30], [52, 30], [30, 52]];
  return s("svg", { viewBox: "0 0 60 60", width: 64, height: 64, class: "cross", role: "img", "aria-label": `${berries} of 5 dingle berries` },
    s("title", {}, `${berries} of 5 dingle berries`),
    s("path", { d: "M30 6 V54 M6 30 H54", class: "cross-lines" }),
    points.map(([cx, cy], i) => s("circle", { cx, cy, r: 6.5, class: i < berries ? "berry" : "berry-spot" })));
}

/** The big stinker drawn for a player one berry from out. */
function stinker() {
  return s("svg", { viewBox: "0 0 40 40", width: 34, height: 34, class: "stinker", role: "img", "aria-label": "in the poo" },
    s("title", {}, "in the poo: one berry from out"),
    s("ellipse", { cx: 20, cy: 33, rx: 15, ry: 5 }), s("ellipse", { cx: 20, cy: 26, rx: 11, ry: 5 }),
    s("ellipse", { cx: 20, cy: 19, rx: 7, ry: 4.5 }), s("path", { d: "M20 15 q4 -6 0 -10", class: "swirl" }),
    s("path", { d: "M6 12 q-3 -4 0 -8 M34 12 q3 -4 0 -8", class: "stink" }));
}

const RANK_WORDS = {
  4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten", 11: "Eleven",
  "1-1": "Double Ones", "2-2": "Double Deuces", "3-3": "Double Threes",
  "4-4": "Double Fours", "5-5": "Double Fives", "6-6": "Double Sixes",
};

/** A Kariki action in words, for the replay: "claims Double Fives". */
export function describeKariki(action) {
  switch (action.type) {
    case "direction": return `sends play ${action.way}`;
    case "claim": return `claims ${RANK_WORDS[action.rank] || action.rank}`;
    case "roll": return "rolls higher";
    case "pull": return "pulls the mug";
    case "pass": return "passes";
    default: return null;
  }
}
