// A finished game, step by step, from its transcript: every throw and every move, with
// previous/next buttons (and the ← → keys). The transcript holds steps, not views, so the
// replay shows what each step was (a sealed table's hidden throws stay sealed); the
// commitment and the verify link close it.

import { api } from "./api.js";
import { chatHistory } from "./chat.js";
import { anyDie } from "./dice.js";
import { h, mount, seatName, words } from "./dom.js";
import { describeAction, gameTitle } from "./games/index.js";

export function showReplay(main, tableId) {
  const box = h("section", { class: "card replay" }, h("h1", {}, "Replay"), h("p", { class: "muted" }, "Loading…"));
  mount(main, box);
  let keys = null;
  api.transcript(tableId).then((data) => {
    keys = drawReplay(box, tableId, data);
    document.addEventListener("keydown", keys);
    // the table's talk is kept with the table, not in the transcript's steps
    return api.chat(tableId).then((talk) => {
      const shown = chatHistory((talk && talk.messages) || []);
      if (shown) box.append(shown);
    }).catch(() => null);
  }).catch((e) => mount(box, h("h1", {}, "Replay"), h("p", { class: "error", role: "alert" }, e.message)));
  return { destroy: () => keys && document.removeEventListener("keydown", keys) };
}

function drawReplay(box, tableId, data) {
  const steps = data.steps || [];
  const names = data.names || [];
  let at = 0;
  const current = h("div", { class: "replay-step", "aria-live": "polite" });
  const counter = h("span", { class: "replay-counter" });
  const prev = h("button", { type: "button", onclick: () => go(at - 1), "aria-keyshortcuts": "ArrowLeft" }, "← Previous");
  const next = h("button", { type: "button", class: "primary", onclick: () => go(at + 1), "aria-keyshortcuts": "ArrowRight" }, "Next →");
  const list = h("ol", { class: "replay-list" }, steps.map((step, i) => h("li", {},
    h("button", { type: "button", class: "link", onclick: () => go(i) }, stepText(step, names, data.game)))));

  function go(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    const step = steps[at];
    counter.textContent = `Step ${at + 1} of ${steps.length}`;
    prev.disabled = at === 0;
    next.disabled = at === steps.length - 1;
    mount(current,
      step && step.chance && !step.sealed ? h("div", { class: "dice-row" }, step.chance.map((f) => anyDie(f, { size: 48 }))) : null,
      h("p", { class: "replay-text" }, step ? stepText(step, names, data.game) : "No steps."));
    [...list.children].forEach((li, k) => li.classList.toggle("here", k === at));
    const here = list.children[at];
    if (here) here.scrollIntoView({ block: "nearest" });
  }

  const result = data.result;
  mount(box,
    h("h1", {}, `Replay · ${gameTitle(data.game)}`),
    h("p", { class: "muted" }, `${data.seats} seats: ${names.map((n, i) => seatName(names, i)).join(", ")}`),
    h("div", { class: "replay-controls" }, prev, counter, next),
    current,
    h("details", { class: "replay-all", open: true }, h("summary", {}, "Every step"), list),
    result ? h("p", {}, `Winners: ${(result.winners || []).map((s) => seatName(names, s)).join(", ")} · net ${(result.net || []).join(" / ")} ${result.unit || ""}`) : null,
    h("dl", { class: "kv" },
      h("dt", {}, "Commitment"), h("dd", { class: "hash" }, data.commitment || "—"),
      data.seed ? h("dt", {}, "Seed") : null, data.seed ? h("dd", { class: "hash" }, data.seed) : null),
    h("div", { class: "row" },
      h("a", { class: "button", href: api.verifyUrl(tableId), target: "_blank", rel: "noopener" }, "Verify this game"),
      h("a", { class: "button", href: `#/table/${tableId}` }, "Back to the table")));
  go(0);
  return (event) => {
    if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
  };
}

/** One transcript step in words. */
function stepText(step, names, game) {
  if (step.entropy) return `The seats' entropy for the dice (batch ${step.entropy.batch})`;
  if (step.sealed) return "A sealed throw: the rules never showed it, so it stays secret, committed in the root";
  if (step.chance) return `Throw: ${step.chance.join(", ")}`;
  const who = seatName(names, step.seat);
  if (step.timeout) return `${who}'s time ran out`;
  const action = step.action || {};
  const said = describeAction(game, action, (seat) => seatName(names, seat));
  if (said) return `${who} ${said}`;
  const rest = Object.entries(action).filter(([k]) => k !== "type").map(([k, v]) => `${words(k)} ${Array.isArray(v) ? v.join("+") : v}`);
  return `${who}: ${words(action.type)}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}
