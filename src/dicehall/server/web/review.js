// A finished game's review (#/review/ID[/SEAT]): each decision of one seat with a real choice,
// every legal action's value from that seat's view, the chosen action's loss and its label,
// Kariki's posterior that the claim was true, and a summary for every player.
//
// The server works it out (GET /api/tables/ID/review?seat=N, the engine of `dicehall review`)
// from the steps the replay of that seat reads: this browser's seat token goes along, so a
// player's own hidden throws are real in their review; anyone else's review of a sealed
// table's seat is of stand-ins, and says so. The page only draws the answer.

import { api, loadSeat } from "./api.js";
import { h, mount, seatName } from "./dom.js";
import { gameTitle, renderBoard } from "./games/index.js";

export const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const MEASURE_WORDS = { win: "chance of winning", coins: "expected coins" };

/** A value in its measure: "63.20%" or "+0.125 coins"; "—" for none. */
export function valueText(value, measure) {
  if (value === null || value === undefined) return "—";
  return measure === "win" ? `${(value * 100).toFixed(2)}%` : `${value >= 0 ? "+" : ""}${value.toFixed(3)} coins`;
}

/** A loss in its measure: "1.25 points" (of winning chance) or "0.125 coins". */
export function lossText(loss, measure) {
  return measure === "win" ? `${(loss * 100).toFixed(2)} points` : `${loss.toFixed(3)} coins`;
}

/** The label of a loss by the thresholds the server sent (strategy/review.py's THRESHOLDS). */
export function labelOf(loss, measure, thresholds) {
  const limits = thresholds[measure] || [];
  for (let i = 0; i < limits.length; i++) if (loss < limits[i]) return LABELS[i];
  return LABELS[LABELS.length - 1];
}

/** A label as a coloured chip. */
export function labelChip(label) {
  return h("span", { class: `label-chip label-${label.replace(" ", "-")}` }, label);
}

/** The legal actions of a decision with their values, the chosen and best marked. */
export function choicesTable(d, chosen, named = (t) => t) {
  const plays = d.choices.some((c) => c.model_plays !== null && c.model_plays !== undefined);
  return h("table", { class: "grid review-choices" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "choice"), h("th", { scope: "col" }, MEASURE_WORDS[d.measure] || "value"),
      plays ? h("th", { scope: "col" }, "model plays it") : null)),
    h("tbody", {}, d.choices.map((c, i) => h("tr", { class: [i === chosen ? "chosen" : "", d.best.includes(i) ? "best" : ""].join(" ").trim() || null },
      h("th", { scope: "row" }, i === chosen ? "▶ " : "", named(c.label), d.best.includes(i) ? h("span", { class: "muted" }, " (best)") : null),
      h("td", {}, valueText(c.value, d.measure)),
      plays ? h("td", {}, c.model_plays === null ? "—" : `${Math.round(c.model_plays * 100)}%`) : null))));
}

/** The seat's view drawn as at the table, only once asked (a long game has many). */
export function seenBoard(game, view, names, seat, named) {
  const box = h("div", { class: "review-board" });
  const details = h("details", { class: "review-seen" }, h("summary", {}, "What the seat saw"), box);
  details.addEventListener("toggle", () => {
    if (details.open && !box.firstChild) {
      mount(box, renderBoard({ game, ...view }, { names, seat, events: [], legal: [], actors: [], named }));
    }
  });
  return details;
}

/** #/review/ID[/SEAT]: SEAT, else this browser's seat at the table, else the first. */
export function showReview(main, tableId, seatPart) {
  const held = loadSeat(tableId);
  const asked = seatPart === undefined ? NaN : Number(seatPart);
  const seat = Number.isInteger(asked) ? asked : held ? held.seat : 0;
  new ReviewScreen(main, tableId, null).load(seat);
  return null;
}

/** The review of a transcript file dropped on the replay page (POST /api/review). */
export function showFileReview(main, transcript, seat) {
  new ReviewScreen(main, null, transcript).load(seat);
}

/** Reviews fetched on this page, by table (or file) and seat: switching seats asks once. */
const fetched = new Map();

class ReviewScreen {
  constructor(main, tableId, file) {
    this.tableId = tableId;
    this.file = file;
    this.title = h("h1", {}, "Review");
    this.status = h("p", { class: "muted", "aria-live": "polite" }, "Working out the review…");
    this.seatPick = h("select", { id: "review-seat", onchange: () => this.go(Number(this.seatPick.value)) });
    this.note = h("p", { class: "replay-note", hidden: true });
    this.summary = h("section", { class: "card review-summary", "aria-labelledby": "review-summary-title" });
    this.players = h("section", { class: "card review-players", "aria-labelledby": "review-players-title" });
    this.list = h("div", { class: "review-decisions" });
    this.stage = h("div", { hidden: true },
      h("div", { class: "row" }, h("label", { for: "review-seat" }, "Decisions of "), this.seatPick,
        tableId ? h("a", { class: "button", href: `#/replay/${tableId}` }, "Replay") : null,
        tableId ? h("a", { class: "button", href: `#/table/${tableId}` }, "Back to the table") : null),
      this.note, this.summary, this.players, this.list);
    mount(main, h("section", { class: "review" }, this.title, this.status, this.stage));
  }

  go(seat) {
    if (this.file) this.load(seat);
    else location.hash = `#/review/${encodeURIComponent(this.tableId)}/${seat}`;
  }

  /** A seat's link: its review's page, or for a file, the same page on that seat. */
  seatLink(seat, text) {
    if (this.file) return h("button", { type: "button", class: "link", onclick: () => this.go(seat) }, text);
    return h("a", { href: `#/review/${encodeURIComponent(this.tableId)}/${seat}` }, text);
  }

  /** The review of `seat`, with this browser's token if it holds that seat. */
  fetch(seat) {
    if (this.file) return api.reviewFile(this.file, seat);
    const held = loadSeat(this.tableId);
    const token = held && held.seat === seat ? held.token : null;
    const key = `${this.tableId}/${seat}/${token ? "own" : "public"}`;
    if (!fetched.has(key)) {
      fetched.set(key, api.review(this.tableId, seat, token).catch((e) => {
        fetched.delete(key); // a refusal (busy, over the budget) is asked again next time
        throw e;
      }));
    }
    return fetched.get(key);
  }

  load(seat) {
    mount(this.status, "Working out the review…");
    this.fetch(seat).then((answer) => this.show(answer), (e) => {
      mount(this.status, h("span", { class: "error", role: "alert" }, e.message));
    });
  }

  show(r) {
    const names = Array.from({ length: r.seats }, (_, i) => (i === r.seat ? r.name : null));
    r.names = names;
    const named = (text) => String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) =>
      Number(n) < r.seats ? seatName(names, Number(n)) : whole);
    const s = r.summary;
    mount(this.title, `Review · ${gameTitle(r.game)}`);
    const models = Object.entries(s.models).map(([m, n]) => `${m} (${n})`).join(", ");
    mount(this.status, `${r.name}'s decisions: ${s.decisions}, ${s.rated} of them rated.`, models ? ` Values from: ${models}.` : "");
    mount(this.seatPick, Array.from({ length: r.seats }, (_, i) =>
      h("option", { value: i, selected: i === r.seat }, i === r.seat ? r.name : `Seat ${i + 1}`)));
    this.note.hidden = !r.stand_ins;
    this.note.textContent = r.stand_ins
      ? "This table's hidden dice stay sealed: this review reads stand-ins for the throws the rules never showed everyone, this seat's own included, so its values are those of dice that fit everything public. The seat's own player sees the review of their real dice from their browser."
      : "";
    mount(this.summary, h("h2", { id: "review-summary-title" }, "Summary"), summaryBody(s, r.decisions));
    this.stage.hidden = false;
    mount(this.list, r.decisions.length
      ? r.decisions.map((d) => decisionCard(r, d, named))
      : h("p", { class: "card muted" }, "This seat had no decision with a real choice."));
    this.drawPlayers(r);
  }

  /** Every player's summary: this one's, then each other seat's review, one at a time. */
  async drawPlayers(r) {
    const rows = new Map([[r.seat, r]]);
    const draw = () => mount(this.players, h("h2", { id: "review-players-title" }, "Every player"),
      h("table", { class: "grid review-player-table" },
        h("thead", {}, h("tr", {}, ["player", "rated", "accuracy", "mean loss", ...LABELS].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, Array.from({ length: r.seats }, (_, seat) => {
          const other = rows.get(seat);
          const name = this.seatLink(seat, other ? other.name : `Seat ${seat + 1}`);
          if (!other) return h("tr", {}, h("th", { scope: "row" }, name), h("td", { colspan: 3 + LABELS.length, class: "muted" }, "…"));
          const s = other.summary;
          const loss = Object.entries(s.mean_loss).map(([m, v]) => lossText(v, m)).join(", ") || "—";
          return h("tr", { class: seat === r.seat ? "me" : null },
            h("th", { scope: "row" }, name, other.stand_ins && seat !== r.seat ? h("span", { class: "muted" }, " (stand-ins)") : null),
            h("td", {}, `${s.rated} of ${s.decisions}`),
            h("td", {}, s.accuracy === null ? "—" : `${Math.round(s.accuracy * 100)}%`),
            h("td", {}, loss),
            LABELS.map((l) => h("td", {}, String(s.counts[l] || 0))));
        }))));
    draw();
    if (this.file) return; // a file's other seats: one request each, only when asked
    for (let seat = 0; seat < r.seats; seat++) {
      if (rows.has(seat)) continue;
      try {
        rows.set(seat, await this.fetch(seat));
      } catch {
        break; // a busy server or a spent budget: the rows stay "…", each links to its review
      }
      draw();
      const option = this.seatPick.options[seat];
      if (option) option.textContent = rows.get(seat).name;
    }
  }
}

function summaryBody(s, decisions) {
  const counts = [...LABELS, "not rated"].filter((l) => s.counts[l]);
  const biggest = s.biggest.map((n) => decisions.find((d) => d.number === n)).filter(Boolean);
  return [
    h("p", { class: "review-counts" }, counts.map((l) => h("span", { class: "review-count" }, labelChip(l), ` ${s.counts[l]}`))),
    s.accuracy === null ? null : h("p", {}, `Accuracy (best or good): ${Math.round(s.accuracy * 100)}%`),
    Object.entries(s.mean_loss).map(([m, v]) => h("p", {}, `Mean loss: ${lossText(v, m)} of ${MEASURE_WORDS[m]}`)),
    biggest.length ? h("p", {}, "Biggest mistakes: ", biggest.map((d, i) => [i ? ", " : "",
      h("a", { href: `#decision-${d.number}`, onclick: (e) => { e.preventDefault(); document.getElementById(`decision-${d.number}`).scrollIntoView(); } },
        `#${d.number} (${d.label})`)])) : null,
  ];
}

function decisionCard(r, d, named) {
  const claim = typeof d.claim_true === "number"
    ? h("p", { class: "review-claim" }, `The claim was true with chance ${(d.claim_true * 100).toFixed(1)}% (the solver's posterior).`) : null;
  return h("article", { class: `card review-decision decision-${d.label.replace(" ", "-")}`, id: `decision-${d.number}` },
    h("h3", {}, `#${d.number}`, d.phase ? ` · ${d.phase}` : "", " ", labelChip(d.label),
      d.loss !== null ? h("span", { class: "muted" }, ` lost ${lossText(d.loss, d.measure)}`) : null),
    d.chosen === null ? h("p", {}, "Timed out: the table chose.") : null,
    claim,
    choicesTable(d, d.chosen, named),
    h("p", { class: "muted" }, `Values: ${d.model}`, d.note ? ` · ${named(d.note)}` : ""),
    seenBoard(r.game, d.view, r.names || [], r.seat, named));
}
