// Each game's table drawing, by game id; any other game gets the generic panel.

import { anyDie, eventDice } from "../dice.js";
import { h } from "../dom.js";
import { allFields, genericPanel } from "./common.js";
import { describeKariki, drawKariki } from "./kariki.js";
import { describeTao, drawTao } from "./tao.js";
import { describeTepiiku, drawTepiiku } from "./tepiiku.js";
import { describeToplshteyner, drawToplshteyner } from "./toplshteyner.js";

const DRAWERS = {
  kariki: drawKariki,
  tepiiku: drawTepiiku,
  toplshteyner: drawToplshteyner,
  tao: drawTao,
};

const TITLES = { kariki: "Kariki", tepiiku: "Tepiiku", toplshteyner: "Toplshteyner", tao: "Tao Dice" };

/** A game's name for headings, before (or without) the server's game list. */
export function gameTitle(id) {
  return TITLES[id] || id;
}

const DESCRIBERS = {
  kariki: describeKariki,
  tepiiku: describeTepiiku,
  toplshteyner: describeToplshteyner,
  tao: describeTao,
};

/** An action in words (the replay has actions without the server's labels), or null. */
export function describeAction(game, action, name) {
  const describe = DESCRIBERS[game];
  return describe ? describe(action, name) : null;
}

/** Before the first view: the last event told, its dice drawn large. */
function storyBoard(ctx) {
  const last = [...(ctx.events || [])].reverse().find(eventDice);
  return h("div", { class: "felt story-board" },
    last ? h("div", { class: "throw-now" },
      h("div", { class: "dice-row" }, eventDice(last).map((f) => anyDie(f, { size: 64 }))),
      h("span", { class: "throw-name" }, ctx.named ? ctx.named(last.text) : last.text)) : null,
    h("p", { class: "muted" }, "The dice are rolling…"));
}

/** The board for a view. A drawing that trips on an unexpected view falls back to the panel. */
export function renderBoard(view, ctx) {
  if (!view) return storyBoard(ctx);
  const draw = DRAWERS[view.game];
  if (draw) {
    try {
      return h("div", { class: `felt game-${view.game}` }, draw(view, ctx), allFields(view, ctx));
    } catch (error) {
      console.error("drawing failed; showing the plain view", error);
    }
  }
  return h("div", { class: "felt generic" }, genericPanel(view, ctx));
}
