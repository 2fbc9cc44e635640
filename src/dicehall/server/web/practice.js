// Practice (#/practice/GAME[/SEATS]): the positions with most at stake from the game's strongest
// bots' games, asked one by one and scored as the review scores a decision.
//
// GET /api/practice/GAME?seats=&count=&seed= sends each puzzle with its values: the page keeps
// them out of sight until an answer is given, then scores it here (the loss against the best,
// labelled by the thresholds the server sent). Practice is for learning, not rated: anyone who
// reads the answer in the network panel only spoils their own puzzle.

import { api } from "./api.js";
import { h, mount } from "./dom.js";
import { gameTitle } from "./games/index.js";
import { choicesTable, labelChip, labelOf, lossText, seenBoard, valueText } from "./review.js";

const COUNT = 5;

/** #/practice/GAME[/SEATS]: a fresh set of COUNT puzzles. */
export function showPractice(main, game, seatsPart) {
  const seats = seatsPart === undefined ? null : Number(seatsPart);
  new PracticeScreen(main, game, Number.isInteger(seats) ? seats : null).load(Math.floor(Math.random() * 1_000_000));
  return null;
}

class PracticeScreen {
  constructor(main, game, seats) {
    this.game = game;
    this.seats = seats;
    this.status = h("p", { class: "muted", "aria-live": "polite" }, "Drawing the puzzles…");
    this.body = h("div", { class: "practice-body" });
    mount(main, h("section", { class: "practice" },
      h("h1", {}, `Practice · ${gameTitle(game)}`),
      h("p", { class: "muted" }, "Positions from strong bots' games where the choice matters most. Choose what you would play; the answer is scored against the solver's values."),
      this.status, this.body));
  }

  load(seed) {
    this.seed = seed;
    mount(this.status, "Drawing the puzzles…");
    mount(this.body);
    api.practice(this.game, this.seats, COUNT, seed).then((set) => {
      this.set = set;
      this.scores = [];
      this.ask(0);
    }, (e) => mount(this.status, h("span", { class: "error", role: "alert" }, e.message)));
  }

  ask(k) {
    const set = this.set;
    const p = set.puzzles[k];
    const names = Array.from({ length: set.seats }, (_, i) => (i === p.seat ? "You" : null));
    const named = (text) => String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => (Number(n) === p.seat ? "you" : `Seat ${Number(n) + 1}`));
    mount(this.status, `Puzzle ${k + 1} of ${set.puzzles.length} · ${set.seats} seats · you are seat ${p.seat + 1}`);
    const board = seenBoard(set.game, p.view, names, p.seat, named);
    board.open = true;
    board.dispatchEvent(new Event("toggle"));
    const verdict = h("div", { class: "practice-verdict", "aria-live": "polite" });
    const buttons = p.choices.map((c, i) => h("button", { type: "button", class: "action", onclick: () => answer(i) }, named(c.label)));
    const answer = (i) => {
      buttons.forEach((b) => { b.disabled = true; });
      const values = p.choices.map((c) => c.value);
      const top = Math.max(...values.filter((v) => v !== null));
      const loss = Math.max(0, top - values[i]);
      const label = labelOf(loss, p.measure, set.thresholds);
      this.scores.push({ label, loss, measure: p.measure });
      const last = k + 1 === set.puzzles.length;
      mount(verdict,
        h("p", { class: "practice-label" }, labelChip(label), ` ${named(p.choices[i].label)}`,
          label === "best" ? "" : `: lost ${lossText(loss, p.measure)}`, ` (${valueText(values[i], p.measure)})`),
        typeof p.claim_true === "number" ? h("p", {}, `The claim was true with chance ${(p.claim_true * 100).toFixed(1)}% (the solver's posterior).`) : null,
        choicesTable(p, i, named),
        h("p", { class: "muted" }, `Values: ${p.model}`),
        h("div", { class: "row" }, last
          ? h("button", { type: "button", class: "primary", onclick: () => this.finish() }, "See the score")
          : h("button", { type: "button", class: "primary", onclick: () => this.ask(k + 1) }, "Next puzzle")));
      verdict.querySelector("button.primary").focus();
    };
    mount(this.body, h("article", { class: "card practice-puzzle" },
      board,
      h("h2", {}, p.phase ? `Your choice (${p.phase})` : "Your choice"),
      h("div", { class: "actions practice-choices" }, buttons),
      verdict));
  }

  finish() {
    const counts = {};
    const lost = {};
    for (const s of this.scores) {
      counts[s.label] = (counts[s.label] || 0) + 1;
      lost[s.measure] = (lost[s.measure] || 0) + s.loss;
    }
    mount(this.status, `Done: ${this.scores.length} puzzles.`);
    mount(this.body, h("section", { class: "card practice-score" },
      h("h2", {}, "Your score"),
      h("p", { class: "review-counts" }, Object.entries(counts).map(([l, n]) => h("span", { class: "review-count" }, labelChip(l), ` ${n}`))),
      Object.entries(lost).map(([m, v]) => h("p", {}, `Total lost: ${lossText(v, m)}`)),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", onclick: () => this.load(this.seed + 1) }, "Another set"),
        h("a", { class: "button", href: "#/" }, "Lobby"))));
  }
}

/** The lobby's card: a practice link for each game. */
export function practiceOffer(games) {
  return h("section", { class: "card practice-offer", "aria-labelledby": "practice-title" },
    h("h2", { id: "practice-title" }, "Practice"),
    h("p", { class: "muted" }, "Puzzles from strong bots' games, scored against the solver."),
    h("div", { class: "row" }, games.map((g) => h("a", { class: "button", href: `#/practice/${g.id}` }, g.name))));
}
