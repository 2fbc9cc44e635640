// A finished game told again on the drawn table, step by step or at speed, from a chosen
// seat's view or the spectator's; or any transcript file dropped on the page.
//
// The server works out every frame (GET /api/tables/ID/replay?seat=N, POST /api/replay for a
// file): frame k is what that seat's connection was sent at step k, its view and the events it
// saw. The page only draws them, with the same drawings as a table in play, so a replay can
// show no more than the rules showed that seat. This browser's seat token goes along, so a
// player sees their own hidden throws at a sealed table; anyone else sees stand-ins there.

import { api, loadSeat } from "./api.js";
import { chatHistory } from "./chat.js";
import { anyDie, eventDice } from "./dice.js";
import { h, mount, seatName } from "./dom.js";
import { gameTitle, renderBoard } from "./games/index.js";
import { showFileReview } from "./review.js";

/** Pauses between steps when playing, by speed. */
export const SPEEDS = [
  { label: "½×", ms: 2000 },
  { label: "1×", ms: 1000 },
  { label: "2×", ms: 500 },
  { label: "4×", ms: 250 },
  { label: "10×", ms: 100 },
];

/** #/replay/ID[/SEAT] a finished table (SEAT: a seat number or "spectator"); #/replay a file. */
export function showReplay(main, tableId, seatPart) {
  const screen = new ReplayScreen(main, tableId || null);
  const held = tableId ? loadSeat(tableId) : null;
  const asked = seatPart === undefined ? undefined : seatPart === "spectator" ? null : Number(seatPart);
  const seat = asked !== undefined && (asked === null || Number.isInteger(asked)) ? asked : held ? held.seat : null;
  if (tableId) screen.load(seat);
  return screen;
}

/** The board of a frame: the same drawing as at the table, from that frame alone. */
export function frameBoard(view, frame, answer, events) {
  const names = answer.names || [];
  return renderBoard(view, {
    names,
    seat: answer.seat,
    events,
    legal: frame.legal || [],
    actors: frame.actors || [],
    named: (text) => named(names, text),
  });
}

function named(names, text) {
  return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) =>
    Number(n) < names.length ? seatName(names, Number(n)) : whole);
}

class ReplayScreen {
  constructor(main, tableId) {
    this.tableId = tableId;
    this.answer = null; // the server's replay: names, seat, frames ...
    this.file = null; // a dropped transcript, replayed by the server from any seat
    this.at = 0;
    this.timer = null;
    this.speed = 1;
    this.build(main);
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
  }

  destroy() {
    this.pause();
    document.removeEventListener("keydown", this.keys);
  }

  build(main) {
    this.main = main;
    this.title = h("h1", {}, this.tableId ? "Replay" : "Replay a transcript");
    this.status = h("p", { class: "muted", "aria-live": "polite" }, this.tableId ? "Loading…" : "");
    this.seatPick = h("select", { id: "replay-seat", onchange: () => this.load(this.seatPick.value === "" ? null : Number(this.seatPick.value)) });
    this.speedPick = h("select", { id: "replay-speed", onchange: () => this.setSpeed(Number(this.speedPick.value)) },
      SPEEDS.map((s, i) => h("option", { value: i, selected: i === this.speed }, s.label)));
    this.counter = h("span", { class: "replay-counter" });
    const button = (text, go, extra = {}) => h("button", { type: "button", onclick: go, ...extra }, text);
    this.first = button("« Start", () => this.go(0), { "aria-label": "to the start" });
    this.prev = button("← Previous", () => this.go(this.at - 1), { "aria-keyshortcuts": "ArrowLeft" });
    this.playButton = button("▶ Play", () => (this.timer ? this.pause() : this.play()), { class: "primary play" });
    this.next = button("Next →", () => this.go(this.at + 1), { "aria-keyshortcuts": "ArrowRight" });
    this.last = button("End »", () => this.go(this.frames().length - 1), { "aria-label": "to the end" });
    this.slider = h("input", { type: "range", min: 0, max: 0, value: 0, class: "replay-slider", "aria-label": "step", oninput: () => this.go(Number(this.slider.value)) });
    this.note = h("p", { class: "replay-note", hidden: true });
    this.latest = h("p", { class: "latest replay-latest", "aria-live": "polite" });
    this.choices = h("p", { class: "replay-choices muted" });
    this.board = h("section", { class: "board", "aria-label": "The table at this step" });
    this.log = h("ol", { class: "log replay-log", "aria-label": "What this seat saw" });
    this.end = h("div", { class: "replay-end" });
    this.talk = h("div");
    this.fileInput = h("input", { type: "file", accept: ".json,application/json", id: "replay-file", onchange: () => this.readFile(this.fileInput.files[0]) });
    this.drop = h("div", { class: "card replay-drop", tabindex: 0 },
      h("p", {}, "Drop a transcript file here (", h("code", {}, ".json"), ", as “Download the transcript” or ",
        h("code", {}, "dicehall play --save"), " make it), or ", h("label", { for: "replay-file", class: "link" }, "choose one"), "."),
      this.fileInput);
    this.drop.addEventListener("dragover", (e) => { e.preventDefault(); this.drop.classList.add("over"); });
    this.drop.addEventListener("dragleave", () => this.drop.classList.remove("over"));
    this.drop.addEventListener("drop", (e) => {
      e.preventDefault();
      this.drop.classList.remove("over");
      this.readFile(e.dataTransfer && e.dataTransfer.files[0]);
    });
    this.controls = h("div", { class: "replay-controls" },
      h("label", { for: "replay-seat" }, "View of "), this.seatPick,
      this.first, this.prev, this.playButton, this.next, this.last,
      h("label", { for: "replay-speed" }, "Speed "), this.speedPick, this.counter);
    this.stage = h("div", { class: "replay-stage", hidden: true },
      this.controls, this.slider, this.note, this.latest, this.choices,
      h("div", { class: "table-grid" },
        h("div", { class: "table-main" }, this.board, this.end),
        h("aside", { class: "table-side" }, h("section", { class: "card" }, h("h2", {}, "Log"), this.log), this.talk)));
    this.box = h("section", { class: "replay" }, this.title, this.status, this.stage, this.drop);
    mount(main, this.box);
  }

  frames() {
    return (this.answer && this.answer.frames) || [];
  }

  /** Ask the server for the frames from `seat` (null: the spectator's). */
  load(seat) {
    this.pause();
    this.status.textContent = "Loading…";
    let asked;
    if (this.file) {
      asked = api.replayFile(this.file, seat);
    } else {
      const held = loadSeat(this.tableId);
      asked = api.replay(this.tableId, seat, held && held.seat === seat ? held.token : null);
    }
    return asked.then((answer) => this.show(answer), (e) => {
      this.status.textContent = "";
      mount(this.status, h("span", { class: "error", role: "alert" }, e.message));
    });
  }

  readFile(file) {
    if (!file) return;
    file.text().then((text) => {
      let data;
      try {
        data = JSON.parse(text);
      } catch {
        throw new Error(`${file.name} is not JSON`);
      }
      this.file = data;
      this.tableId = null;
      return this.load(null);
    }).catch((e) => mount(this.status, h("span", { class: "error", role: "alert" }, e.message)));
  }

  show(answer) {
    this.answer = answer;
    const names = answer.names || [];
    mount(this.title, `Replay · ${gameTitle(answer.game)}`);
    mount(this.status, `${answer.seats} seats: ${names.map((n, i) => seatName(names, i)).join(", ")} · `,
      answer.seat === null ? "the spectator's view" : `${seatName(names, answer.seat)}'s view`);
    mount(this.seatPick, h("option", { value: "", selected: answer.seat === null }, "the spectator"),
      names.map((n, i) => h("option", { value: i, selected: answer.seat === i }, seatName(names, i))));
    this.note.hidden = !answer.stand_ins;
    this.note.textContent = answer.stand_ins
      ? "This table's hidden dice stay sealed: where the rules never showed a throw to everyone, the dice drawn are stand-ins that fit everything public, not the real ones. The seat's own player sees their real throws from their browser."
      : "";
    this.slider.max = String(Math.max(0, this.frames().length - 1));
    this.stage.hidden = false;
    this.drawEnd();
    if (this.tableId && !this.talkShown) {
      this.talkShown = true;
      api.chat(this.tableId).then((talk) => {
        const shown = chatHistory((talk && talk.messages) || []);
        if (shown) mount(this.talk, shown);
      }).catch(() => null);
    }
    this.go(0);
  }

  /** Show frame i: the board from its view, and every event this seat saw up to it. */
  go(i) {
    const frames = this.frames();
    if (!frames.length) return;
    this.at = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[this.at];
    const steps = frames[frames.length - 1].step ?? frames[frames.length - 2].step;
    this.counter.textContent = frame.type === "over" ? `The end (${steps} steps)` : `Step ${frame.step} of ${steps}`;
    this.slider.value = String(this.at);
    this.first.disabled = this.prev.disabled = this.at === 0;
    this.next.disabled = this.last.disabled = this.at === frames.length - 1;
    if (this.at === frames.length - 1) this.pause();
    const seen = this.eventsUpTo(this.at);
    const view = this.viewAt(this.at);
    mount(this.board, frameBoard(view, this.positionAt(this.at), this.answer, seen));
    const names = this.answer.names || [];
    mount(this.log, seen.map((e) => h("li", { class: `ev ev-${e.type}` }, named(names, e.text))));
    this.log.scrollTop = this.log.scrollHeight;
    const news = frame.events || [];
    const last = news[news.length - 1];
    const dice = last ? eventDice(last) : null;
    mount(this.latest, dice ? h("span", { class: "latest-dice" }, dice.map((f) => anyDie(f, { size: 30 }))) : null,
      last ? news.map((e) => named(names, e.text)).join(" · ") : frame.type === "over" ? "The game is over." : "—");
    const legal = frame.legal || [];
    this.choices.textContent = legal.length ? `${seatName(names, this.answer.seat)}'s choices here: ${legal.map((l) => named(names, l.label)).join(" · ")}` : "";
  }

  /** The last position at or before frame i (the "over" frame has none of its own). */
  positionAt(i) {
    const frames = this.frames();
    for (let k = i; k >= 0; k--) if (frames[k].view) return frames[k];
    return frames[0];
  }

  viewAt(i) {
    return this.positionAt(i).view;
  }

  eventsUpTo(i) {
    return this.frames().slice(0, i + 1).flatMap((f) => f.events || []);
  }

  drawEnd() {
    const a = this.answer;
    const over = this.frames().find((f) => f.type === "over");
    const result = over && over.result;
    const names = a.names || [];
    mount(this.end,
      result ? h("p", {}, `Winners: ${(result.winners || []).map((s) => seatName(names, s)).join(", ")} · net ${(result.net || []).join(" / ")} ${result.unit || ""}`) : null,
      h("dl", { class: "kv" },
        h("dt", {}, "Fair dice"), h("dd", {}, a.fairness || "—"),
        h("dt", {}, "Commitment"), h("dd", { class: "hash" }, a.commitment || "—"),
        a.seed ? h("dt", {}, "Seed") : null, a.seed ? h("dd", { class: "hash" }, a.seed) : null),
      this.tableId ? h("div", { class: "row" },
        h("a", { class: "button", href: api.verifyUrl(this.tableId), target: "_blank", rel: "noopener" }, "Verify this game"),
        h("a", { class: "button", href: api.transcriptUrl(this.tableId), download: `dicehall-${this.tableId}.json` }, "Download the transcript"),
        h("a", { class: "button review-link", href: `#/review/${this.tableId}/${a.seat ?? 0}` }, a.seat === null ? "Review the play" : "Review this seat's play"),
        h("a", { class: "button", href: `#/table/${this.tableId}` }, "Back to the table"))
        : h("div", { class: "row" }, h("button", { type: "button", class: "review-link", onclick: () => { this.pause(); showFileReview(this.main, this.file, a.seat ?? 0); } },
          a.seat === null ? "Review the play" : "Review this seat's play")));
  }

  play() {
    if (this.at >= this.frames().length - 1) this.go(0);
    this.pause();
    this.playButton.textContent = "⏸ Pause";
    this.timer = setInterval(() => this.go(this.at + 1), SPEEDS[this.speed].ms);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.playButton) this.playButton.textContent = "▶ Play";
  }

  setSpeed(i) {
    this.speed = i;
    if (this.timer) this.play();
  }

  onKey(event) {
    if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (event.key === "ArrowLeft") this.go(this.at - 1);
    else if (event.key === "ArrowRight") this.go(this.at + 1);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.frames().length - 1);
  }
}
