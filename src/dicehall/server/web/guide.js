// The first-game guides: a short game against bots with every throw written down, told
// one step at a time with a line on the rule that just came up. The frames come from
// GET /api/guides/{game} (the same `dicehall play --guide` prints); the board is the
// table's own drawing, so what the learner sees is what a real table shows.
//
// Which games this browser has played is kept in localStorage: the lobby offers the
// guide of every game not played here yet.

import { call, savedName } from "./api.js";
import { h, mount, seatName } from "./dom.js";
import { gameTitle, renderBoard } from "./games/index.js";

const PLAYED_KEY = "dicehall.played";
const GUIDED_KEY = "dicehall.guided";

function loadSet(key) {
  try {
    return new Set(JSON.parse(localStorage.getItem(key) || "[]"));
  } catch {
    return new Set();
  }
}

function addTo(key, game) {
  const set = loadSet(key);
  if (set.has(game)) return;
  set.add(game);
  try {
    localStorage.setItem(key, JSON.stringify([...set]));
  } catch {
    /* this page only */
  }
}

/** This browser sat at a table of `game`: the lobby stops offering its guide. */
export function markPlayed(game) {
  if (game) addTo(PLAYED_KEY, game);
}

/** The lobby's offer: a guide for each game not played in this browser yet. */
export function guideOffer(games) {
  const played = loadSet(PLAYED_KEY);
  const guided = loadSet(GUIDED_KEY);
  const fresh = games.filter((g) => !played.has(g.id));
  if (!fresh.length) return null;
  return h("section", { class: "card guides", "aria-labelledby": "guides-title" },
    h("h2", { id: "guides-title" }, "New here? Learn a game"),
    h("p", { class: "muted" }, "A short game against bots, explained step by step."),
    h("ul", { class: "guide-list" }, fresh.map((g) => h("li", {},
      h("a", { class: "button", href: `#/guide/${g.id}` }, `${g.name}: first game`),
      guided.has(g.id) ? h("small", { class: "muted" }, " ✓ done") : null))));
}

export function showGuide(main, game) {
  const screen = new GuideScreen(main, game);
  return { destroy: () => screen.destroy() };
}

class GuideScreen {
  constructor(main, game) {
    this.game = game;
    this.index = -1;
    this.events = [];
    this.title = h("h1", { class: "table-title" }, `${gameTitle(game)} · first game`);
    this.intro = h("p", { class: "guide-intro" }, "Loading the guide…");
    this.latest = h("p", { class: "latest", "aria-live": "polite" });
    this.board = h("section", { class: "board", "aria-label": "The table" });
    this.note = h("p", { class: "guide-note", "aria-live": "polite" });
    this.step = h("span", { class: "muted guide-step" });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your move" });
    this.hint = h("p", { class: "error", role: "alert" });
    this.log = h("ol", { class: "log", "aria-label": "Event log" });
    mount(main, h("div", { class: "table-screen guide-screen" },
      h("div", { class: "table-head" }, this.title, h("a", { class: "button small", href: "#/" }, "Leave the guide")),
      this.intro,
      h("div", { class: "table-grid" },
        h("div", { class: "table-main" }, h("div", { class: "latest-row" }, this.latest), this.board,
          h("section", { class: "card moves guide-moves", "aria-label": "The guide" },
            h("div", { class: "prompt-row" }, this.note, this.step), this.actions, this.hint)),
        h("aside", { class: "table-side" }, h("section", { class: "card" }, h("h2", {}, "Log"), this.log)))));
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    call("GET", `/api/guides/${encodeURIComponent(game)}`)
      .then((data) => this.start(data))
      .catch((e) => mount(this.intro, h("span", { class: "error" }, e.message)));
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
  }

  start(data) {
    this.data = data;
    this.names = [savedName() || data.names[0], ...data.names.slice(1)]; // you, by your nickname
    this.title.textContent = `${data.title} · first game`;
    this.intro.textContent = data.intro;
    document.title = `${data.title} guide · dicehall`;
    this.show(0);
  }

  named(text) {
    return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) =>
      Number(n) < this.names.length ? seatName(this.names, Number(n)) : whole);
  }

  show(index) {
    const frames = this.data.frames;
    this.index = index;
    const frame = frames[index];
    this.hint.textContent = "";
    for (const event of frame.events) {
      this.events.push(event);
      this.log.append(h("li", { class: `ev ev-${event.type}` }, this.named(event.text)));
    }
    if (frame.events.length) this.latest.textContent = this.named(frame.events[frame.events.length - 1].text);
    this.log.scrollTop = this.log.scrollHeight;
    const legal = frame.legal || [];
    mount(this.board, renderBoard(frame.view, {
      names: this.names, seat: 0, events: this.events, legal, actors: frame.actors || [], named: (t) => this.named(t),
    }));
    mount(this.note, this.named(frame.note), frame.rule ? h("small", { class: "rule-id" }, ` (rule ${frame.rule})`) : null);
    this.step.textContent = `step ${index + 1} of ${frames.length}`;
    if (frame.end) {
      addTo(GUIDED_KEY, this.game);
      mount(this.actions,
        h("a", { class: "button primary guide-done", href: "#/" }, "Play a real game"),
        h("button", { type: "button", onclick: () => this.restart() }, "See the guide again"));
    } else if (legal.length) {
      mount(this.actions, legal.map((entry, i) => h("button", {
        type: "button",
        class: `action${i === frame.choice ? " primary guide-choice" : ""}`,
        dataset: { index: i },
        onclick: () => this.choose(i),
      }, i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null, this.named(entry.label))));
    } else {
      mount(this.actions, h("button", {
        type: "button", class: `action primary ${frame.throw ? "throw" : "guide-next"}`, onclick: () => this.next(),
      }, frame.throw ? "Throw" : "Next ▸"));
    }
    const first = this.actions.querySelector(".primary");
    if (first && document.activeElement && document.activeElement.closest && document.activeElement.closest(".guide-moves")) first.focus();
  }

  choose(i) {
    const frame = this.data.frames[this.index];
    if (i !== frame.choice) {
      this.hint.textContent = `In this guide, choose "${this.named(frame.legal[frame.choice].label)}": the next steps follow from it.`;
      return;
    }
    this.next();
  }

  next() {
    if (this.index + 1 < this.data.frames.length) this.show(this.index + 1);
  }

  restart() {
    this.events = [];
    mount(this.log);
    this.show(0);
  }

  onKey(event) {
    if (!this.data || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA" || target.tagName === "BUTTON" || target.tagName === "A")) return;
    const frame = this.data.frames[this.index];
    if (/^[1-9]$/.test(event.key) && frame.legal) {
      event.preventDefault();
      this.choose(Number(event.key) - 1);
    } else if ((event.key === "Enter" || event.key === " ") && !frame.legal && !frame.end) {
      event.preventDefault();
      this.next();
    }
  }
}
