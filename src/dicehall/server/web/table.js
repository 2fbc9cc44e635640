// A table in play (or watched): the board, your moves, the log, odds, fairness and the end.
//
// Everything shown comes from the server's messages for this connection: "welcome" and
// "update" carry this seat's view and legal actions, so the page can offer nothing illegal
// and can never show dice the server did not send to this seat.

import { api, forgetSeat, loadSeat, saveSeat } from "./api.js";
import { alertTurn, allowNotifications, loadAlerts, saveAlerts } from "./alerts.js";
import { ChatPanel } from "./chat.js";
import { TableConnection } from "./connection.js";
import { cellText, h, mount, seatName, statusText } from "./dom.js";
import { gameTitle, renderBoard } from "./games/index.js";
import { pickedWords, picksDice } from "./games/tepiiku.js";
import { anyDie, eventDice } from "./dice.js";
import { FairDice, drawFairPanel } from "./fair.js";
import { notify } from "./notice.js";
import { diceSound, loadPrefs, prefsCard } from "./prefs.js";
import { markPlayed } from "./guide.js";
import { Story } from "./story.js";

/** The longest pause between two events of a story. A story goes at half the bots' pause,
 * so it is told before the next bot moves and never falls behind the table. */
const STORY_MAX_MS = 600;

export class TableScreen {
  constructor(main, tableId) {
    this.tableId = tableId;
    this.held = loadSeat(tableId); // {seat, token, room} when this browser sits here
    this.names = [];
    this.view = null;
    this.legal = [];
    this.events = [];
    this.status = "waiting";
    this.summary = null; // GET /api/tables/{id}, refreshed by "table" messages
    this.over = null;
    this.deadline = null;
    this.pending = false; // an action is on its way: no double sends
    this.told = 0; // events shown so far, remembered with the seat so a reload tells only news
    this.story = new Story({
      tell: (event) => this.addEvents([event]),
      settle: (msg) => this.settle(msg),
      onBusy: (busy) => {
        this.skip.hidden = !busy;
        this.drawTimer();
      },
    });
    this.story.paceMs = storyPace(this.held && this.held.pace);
    this.fairDice = new FairDice(tableId, (message) => this.connection && this.connection.send(message));
    this.fairDice.onChange = () => this.drawFair();
    this.build(main);
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    this.clock = setInterval(() => this.drawTimer(), 500);
    api.table(tableId).then((t) => this.setSummary(t)).catch((e) => this.showError(e.message));
    this.connect();
  }

  /** Open the table's socket: with this browser's seat token, or to watch. */
  connect() {
    this.connection = new TableConnection(this.tableId, this.held && this.held.token, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => this.onStatus(status),
    });
  }

  destroy() {
    this.story.clear();
    this.connection.close();
    document.title = "dicehall";
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.clock);
    clearTimeout(this.watchdog);
    clearTimeout(this.adviceTimer);
  }

  build(main) {
    this.title = h("h1", { class: "table-title" }, "Table");
    this.meta = h("div", { class: "table-meta" });
    this.timer = h("span", { class: "timer", "aria-live": "off" });
    this.latest = h("p", { class: "latest", "aria-live": "polite" });
    this.skip = h("button", { type: "button", class: "small skip-story", hidden: true, onclick: () => this.story.flush() }, "Show all ▸▸");
    this.board = h("section", { class: "board", "aria-label": "The table" });
    this.prompt = h("p", { class: "prompt" }, "Connecting to the table…");
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your legal actions" });
    this.error = h("p", { class: "error", role: "alert" });
    this.controls = h("div", { class: "table-controls" });
    this.end = h("section", { class: "card end", hidden: true, "aria-label": "Result" });
    this.log = h("ol", { class: "log", "aria-label": "Event log" });
    this.oddsBody = h("div", { class: "odds-body" }, h("p", { class: "muted" }, "Open to see the chances behind your options."));
    this.odds = h("details", { class: "card odds" }, h("summary", {}, "Odds"), this.oddsBody);
    this.odds.addEventListener("toggle", () => this.odds.open && this.askAdvice());
    this.fair = h("details", { class: "card fair" }, h("summary", {}, "Fair dice"));
    this.alerts = loadAlerts();
    this.alerted = []; // what each turn's alert did, for the tests
    this.alertsBox = this.held ? this.buildAlerts() : null;
    this.chat = new ChatPanel(this.tableId, {
      send: (message) => this.connection.send(message),
      seat: () => (this.seat === undefined ? null : this.seat),
      names: () => this.names,
    });
    mount(main, h("div", { class: "table-screen" },
      h("div", { class: "table-head" }, this.title, this.meta),
      h("div", { class: "table-grid" },
        h("div", { class: "table-main" }, h("div", { class: "latest-row" }, this.latest, this.skip), this.board,
          h("section", { class: "card moves", "aria-label": "Your move" },
            h("div", { class: "prompt-row" }, this.prompt, this.timer), this.actions, this.error, this.controls),
          this.end),
        h("aside", { class: "table-side" },
          h("section", { class: "card" }, h("h2", {}, "Log"), this.log),
          this.chat.el, this.odds, this.fair, this.alertsBox, prefsCard()))));
  }

  // --- messages -------------------------------------------------------------------

  onMessage(msg) {
    this.fairDice.receive(msg, this.held ? this.held.seat : null);
    switch (msg.type) {
      case "welcome": {
        this.story.clear();
        this.chat.setQuick(msg.quick);
        this.chat.setHistory(msg.chat || []);
        this.names = msg.names || this.names;
        this.events = [];
        this.told = 0;
        mount(this.log);
        this.over = null;
        // what this seat has seen before is shown at once; news is told at the table's pace
        const events = msg.events || [];
        const seen = this.held && Number.isInteger(this.held.seen) ? this.held.seen : events.length;
        this.addEvents(events.slice(0, seen));
        this.story.push({ ...msg, events: events.slice(seen) });
        break;
      }
      case "update":
        clearTimeout(this.watchdog); // the move was taken, even if its story is still told
        if (this.throwDue === this.seat && (msg.throw_due ?? null) !== this.seat) {
          // the throw was made (by this seat, or by the table when the time ran out): no
          // Throw button waits through the story of what it threw
          this.throwDue = null;
          mount(this.actions);
        }
        this.story.push(msg);
        break;
      case "over":
        this.story.push({ ...msg, events: [] });
        break;
      case "table":
        this.setSummary(msg.table);
        break;
      case "notice":
        this.addNotice(msg);
        break;
      case "chat":
        this.chat.add(msg.message);
        break;
      case "clock": // a seat's turn time ran out and it now spends its time bank
        this.deadline = msg.deadline ?? null;
        this.onBank = this.seat !== null && this.seat !== undefined && String(this.seat) in (msg.deadlines || {});
        this.drawTimer();
        break;

      case "advice":
        this.drawAdvice(msg.table);
        break;
      case "error":
        if (this.chat.awaiting()) {
          this.chat.showError(msg.message);
          break;
        }
        this.pending = false;
        this.showError(msg.message);
        this.drawMoves();
        break;
      case "paused": // the server is retrying to save the last step; play resumes by itself
        this.showError(msg.message);
        break;
      case "resumed":
        this.showError("");
        break;
      default:
        break;
    }
  }

  /** A message whose events have all been told: the board and the buttons move on. */
  settle(msg) {
    this.remember();
    if (msg.type === "welcome" || msg.type === "update") {
      this.position(msg);
    } else if (msg.type === "over") {
      this.over = msg;
      this.status = "over";
      this.drawEnd();
      this.drawFair();
      this.drawMoves();
    }
  }

  onStatus(status) {
    if (status === "reconnecting") notify("Connection lost: reconnecting…", "warn");
    else if (status === "reconnected") notify("Reconnected.", "ok");
    else if (status.startsWith("refused:")) {
      const [, code, ...rest] = status.split(":");
      const reason = rest.join(":");
      if (code === "4403" && this.held) {
        // the seat token is not (or no longer) good here: forget it and watch instead
        forgetSeat(this.tableId);
        this.held = null;
        notify(`Your seat was not recognised (${reason}); watching instead.`, "warn");
        this.connect();
      } else {
        this.showError(`The server refused this table: ${reason}`);
      }
    }
  }

  position(msg) {
    const mine = (msg.legal || []).length > 0 && msg.status === "playing";
    if (mine && !this.wasMine && msg.type === "update") {
      this.alerted.push(alertTurn(this.alerts, `${gameTitle((msg.view && msg.view.game) || "")} · dicehall`));
    }
    if (!mine || !this.wasMine) this.picked = new Set(); // dice picked to reroll (Tepiiku), kept through others' moves
    this.wasMine = mine;
    if (this.held && msg.view) markPlayed(msg.view.game);
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.actors = msg.actors || [];
    this.throwDue = msg.throw_due ?? null;
    this.status = msg.status || this.status;
    this.deadline = msg.deadline ?? null;
    this.onBank = false;
    this.step = msg.step;
    this.pending = false;
    clearTimeout(this.watchdog);
    this.error.textContent = "";
    this.drawBoard();
    this.drawMoves();
    this.drawHead();
    this.drawControls();
    if (this.odds.open) this.askAdvice();
  }

  addEvents(events) {
    this.told += events.length;
    for (const event of events) {
      this.events.push(event);
      this.log.append(h("li", { class: `ev ev-${event.type}` }, this.named(event.text)));
    }
    if (!this.view) this.drawBoard();
    if (events.length) {
      const last = events[events.length - 1];
      const dice = eventDice(last);
      if (dice && loadPrefs().diceSound) this.sounded = diceSound();
      mount(this.latest,
        dice ? h("span", { class: "latest-dice" }, dice.map((f) => anyDie(f, { size: 30 }))) : null,
        this.named(last.text));
      this.log.scrollTop = this.log.scrollHeight;
    }
  }

  /** News about the people at the table (gone, back, a bot standing in): log and toast. */
  addNotice(msg) {
    this.log.append(h("li", { class: `ev ev-notice notice-${msg.kind}` }, msg.text));
    this.log.scrollTop = this.log.scrollHeight;
    notify(msg.text, msg.kind === "back" ? "ok" : "info");
  }

  /** Keep how many events this seat has been told, with its token. */
  remember() {
    if (!this.held || this.held.seen === this.told) return;
    this.held.seen = this.told;
    saveSeat(this.tableId, this.held);
  }

  /** An event's text with "seat 2" written as that seat's nickname. */
  named(text) {
    return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) =>
      Number(n) < this.names.length ? seatName(this.names, Number(n)) : whole);
  }

  setSummary(summary) {
    this.summary = summary;
    this.story.paceMs = storyPace(summary.bot_delay_ms);
    if (summary.seats) this.names = summary.seats.map((s) => s.name);
    this.drawHead();
    this.drawFair();
    this.drawControls();
    this.chat.setSummary(summary);
    if (this.over) this.drawEnd();
    if (this.view) this.drawBoard();
  }

  // --- drawing --------------------------------------------------------------------

  get seat() {
    if (this.view) return this.view.seat;
    return this.held ? this.held.seat : null;
  }

  drawHead() {
    const game = (this.view && this.view.game) || (this.summary && this.summary.game) || "";
    this.title.textContent = `${gameTitle(game)}${this.seat !== null && this.seat !== undefined ? ` · you are ${seatName(this.names, this.seat)}` : " · watching"}`;
    const room = (this.summary && this.summary.room) || (this.held && this.held.room);
    const seats = this.summary && this.summary.seats;
    mount(this.meta,
      h("span", { class: `status status-${this.status}` }, statusText(this.view || !this.summary ? this.status : this.summary.status === "waiting" ? "waiting" : "playing")),
      room ? h("span", { class: "room" }, "Room ", h("strong", { class: "room-code" }, room)) : null,
      room ? h("button", { type: "button", class: "small", onclick: () => this.copyInvite(room) }, "Copy invite link") : null,
      seats ? h("ul", { class: "seats-strip", "aria-label": "Seats" }, seats.map((s, i) => h("li", {
        class: `seat-chip${this.actors && this.actors.includes(i) ? " acting" : ""}${i === this.seat ? " me" : ""}`,
        dataset: { seat: i, state: s.state || (s.connected ? "connected" : "gone"), standIn: s.stand_in ? "yes" : "no" },
      }, h("span", { class: `dot ${dotClass(s)}`, "aria-hidden": "true" }),
      seatName(this.names, i), h("small", { class: "seat-state" }, seatState(s))))) : null);
  }

  /** "Your turn" alerts, off until turned on: a sound, and a notification while hidden. */
  buildAlerts() {
    const sound = h("input", { type: "checkbox", id: "alert-sound", checked: this.alerts.sound });
    const desktop = h("input", { type: "checkbox", id: "alert-notify", checked: this.alerts.notify });
    const note = h("p", { class: "muted alerts-note" });
    sound.addEventListener("change", () => {
      this.alerts.sound = sound.checked;
      saveAlerts(this.alerts);
    });
    desktop.addEventListener("change", async () => {
      if (desktop.checked && !(await allowNotifications())) {
        desktop.checked = false;
        note.textContent = "This browser does not allow notifications from this page.";
      }
      this.alerts.notify = desktop.checked;
      saveAlerts(this.alerts);
    });
    return h("section", { class: "card alerts", "aria-label": "Your turn alerts" }, h("h2", {}, "When it is your turn"),
      h("div", { class: "field check" }, sound, h("label", { for: "alert-sound" }, "Play a sound")),
      h("div", { class: "field check" }, desktop, h("label", { for: "alert-notify" }, "Show a desktop notification")),
      note);
  }

  /** Leave, concede, skip to the result, and the host's "let the bot play" for gone seats. */
  drawControls() {
    const seats = (this.summary && this.summary.seats) || [];
    const playing = this.status === "playing" && this.summary && this.summary.status === "playing";
    const me = this.seat;
    if (!playing || me === null || me === undefined || !seats[me]) {
      mount(this.controls);
      return;
    }
    const send = (message) => {
      if (!this.connection.send(message)) this.showError("Not connected: try again in a moment.");
    };
    const mine = seats[me];
    const othersPlay = seats.some((s, i) => i !== me && s.human && !s.stand_in && !s.quit);
    const host = this.summary.host === me;
    const replace = host ? seats.filter((s, i) => i !== me && s.human && s.state === "gone" && !s.stand_in)
      .map((s) => h("button", { type: "button", class: "small replace", onclick: () => send({ type: "replace", seat: s.seat }) },
        `Let the bot play ${seatName(this.names, s.seat)}`)) : [];
    // a player knocked out (Kariki's "out") is offered the skip at once; one still in the
    // game finds it with leave and concede, since the bots would play their seat too
    const out = Boolean(this.view && Array.isArray(this.view.out) && this.view.out[me]);
    const skip = !othersPlay && !mine.quit && !mine.stand_in
      ? h("button", { type: "button", class: "small skip-result", onclick: () => send({ type: "skip" }) }, "Skip to the result")
      : null;
    const leave = mine.quit ? h("p", { class: "muted" }, mine.quit === "left"
      ? "You left this game: the table's bot plays your seat." : "You conceded: the table makes your seat's safe moves.")
      : h("details", { class: "leave" }, h("summary", {}, "Leave or concede…"),
        h("p", { class: "muted" }, "Leave: the table's bot plays your seat to the end. Concede: the table makes your seat's safe move (what the turn timer does) at each of its turns. Neither can be undone."),
        h("div", { class: "row" },
          h("button", { type: "button", class: "small", onclick: () => send({ type: "leave" }) }, "Leave the game"),
          h("button", { type: "button", class: "small", onclick: () => send({ type: "concede" }) }, "Concede"),
          out ? null : skip));
    mount(this.controls, replace, out ? skip : null, leave);
  }

  drawBoard() {
    const picking = this.status === "playing" && picksDice(this.view, this.legal);
    mount(this.board, renderBoard(this.view, {
      names: this.names,
      seat: this.seat,
      events: this.events,
      legal: this.legal,
      actors: this.actors || [],
      named: (text) => this.named(text),
      pick: picking ? { picked: this.picked || new Set(), toggle: (i) => this.togglePick(i) } : null,
    }));
  }

  /** Tepiiku: a die tapped on the board joins (or leaves) the dice to reroll. */
  togglePick(i) {
    if (this.pending) return;
    this.picked = this.picked || new Set();
    if (this.picked.has(i)) this.picked.delete(i);
    else this.picked.add(i);
    this.drawBoard();
    this.drawMoves();
  }

  /** The move bar while dice are picked: pay (where the Fish may) and "reroll these". */
  pickMoves() {
    const pay = this.legal.findIndex((e) => e.action.type !== "reroll");
    const picked = [...(this.picked || [])].sort();
    return [
      pay >= 0 ? h("button", {
        type: "button", class: "action", disabled: this.pending, dataset: { index: pay },
        "aria-keyshortcuts": "P", onclick: () => this.act(pay),
      }, h("kbd", { "aria-hidden": "true" }, "P"), this.named(this.legal[pay].label)) : null,
      h("button", {
        type: "button", class: "action primary reroll-these", disabled: this.pending || !picked.length,
        "aria-keyshortcuts": "Enter", onclick: () => this.rerollPicked(),
      }, picked.length ? `Reroll these: ${pickedWords(this.view, picked)}` : "Reroll these (tap your dice first)"),
    ];
  }

  rerollPicked() {
    const dice = [...(this.picked || [])].sort();
    if (dice.length) this.send({ type: "reroll", dice });
  }

  drawMoves() {
    const mine = this.legal.length > 0 && this.status === "playing";
    if (this.status === "over") this.prompt.textContent = "The game is over.";
    else if (this.status === "closed") this.prompt.textContent = "This table is closed: every player left.";
    else if (this.status === "waiting") this.prompt.textContent = "Waiting for players to take their seats…";
    else if (mine) this.prompt.textContent = this.actors.length > 1 ? "Your choice (everyone chooses at once):" : "Your turn:";
    else if (this.actors && this.actors.length) {
      this.prompt.textContent = `Waiting for ${this.actors.map((s) => seatName(this.names, s)).join(", ")}…`;
    } else if (this.throwDue !== null && this.throwDue !== undefined) {
      this.prompt.textContent = this.throwDue === this.seat
        ? "Your throw:" : `Waiting for ${seatName(this.names, this.throwDue)} to throw…`;
    } else this.prompt.textContent = "Throwing…";
    if (this.status === "waiting" && this.held) {
      const room = (this.summary && this.summary.room) || this.held.room;
      const link = `${location.origin}${location.pathname}#/room/${room}`;
      mount(this.actions, h("div", { class: "invite" },
        h("label", { for: "invite-link" }, "Send this link to your friends:"),
        h("div", { class: "row" },
          h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
          h("button", { type: "button", class: "primary", onclick: () => this.copyInvite(room) }, "Copy"))));
      this.drawTimer();
      return;
    }
    if (!mine && this.status === "playing" && this.throwDue === this.seat) {
      // a roller's own throw (the rules have players throw in their turn)
      mount(this.actions, h("button", {
        type: "button",
        class: "action primary throw",
        disabled: this.pending,
        "aria-keyshortcuts": "Enter",
        onclick: () => this.throwDice(),
      }, "Throw"));
      this.drawTimer();
      document.title = `● Your throw · ${gameTitle((this.view && this.view.game) || "")} · dicehall`;
      return;
    }
    if (mine && picksDice(this.view, this.legal)) {
      mount(this.actions, this.pickMoves());
      this.drawTimer();
      document.title = `● Your turn · ${gameTitle(this.view.game)} · dicehall`;
      return;
    }
    mount(this.actions, mine ? this.legal.map((entry, i) => h("button", {
      type: "button",
      class: "action",
      disabled: this.pending,
      dataset: { index: i },
      "aria-keyshortcuts": i < 9 ? String(i + 1) : undefined,
      onclick: () => this.act(i),
    }, i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null, this.named(entry.label))) : []);
    this.drawTimer();
    document.title = `${mine ? "● Your turn · " : ""}${gameTitle((this.view && this.view.game) || "")} · dicehall`;
  }

  drawTimer() {
    // while the story of the last events is told the clock is not shown: the server starts
    // a turn's time once the story is told (live.py, story_seconds)
    if (!this.deadline || this.status !== "playing" || this.story.busy) {
      this.timer.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil(this.deadline - Date.now() / 1000));
    if (left === 0 && this.throwDue === this.seat && this.actions.querySelector(".throw")) {
      // the table throws for a roller whose time ran out: the button goes with the time
      mount(this.actions);
      this.prompt.textContent = "Time is up: the table throws for you…";
    }
    this.timer.textContent = `${left}s left${this.onBank ? " (time bank)" : ""}`;
    this.timer.classList.toggle("urgent", left <= 10);
  }

  drawEnd() {
    if (!this.over) return;
    const result = this.over.result || {};
    const winners = (result.winners || []).map((s) => seatName(this.names, s));
    const net = result.net || [];
    const ready = this.summary && this.summary.rematch_id;
    const rematch = this.held
      ? h("button", { type: "button", class: "primary", onclick: () => this.rematch() }, ready ? "Join the rematch" : "Rematch")
      : ready ? h("a", { class: "button primary", href: `#/table/${ready}` }, "Watch the rematch") : null;
    this.end.hidden = false;
    mount(this.end,
      h("h2", {}, winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}!` : "Game over"),
      h("table", { class: "result" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, `Net (${result.unit || "points"})`))),
        h("tbody", {}, net.map((n, i) => h("tr", { class: (result.winners || []).includes(i) ? "winner" : "" },
          h("th", { scope: "row" }, seatName(this.names, i)), h("td", {}, n > 0 ? `+${n}` : String(n)))))),
      h("div", { class: "row" }, rematch,
        h("a", { class: "button", href: `#/replay/${this.tableId}` }, "Replay step by step"),
        h("a", { class: "button", href: `#/review/${this.tableId}${this.held ? `/${this.held.seat}` : ""}` }, this.held ? "Review my play" : "Review the play"),
        h("a", { class: "button", href: `#/game/${this.tableId}` }, "Results and ratings"),
        h("a", { class: "button", href: "#/" }, "Lobby")));
  }

  drawFair() {
    drawFairPanel(this.fair, this.fairDice, {
      h, mount, api, summary: this.summary, over: this.over, seat: this.held ? this.held.seat : null,
    });
  }

  drawAdvice(table) {
    if (!table) {
      mount(this.oddsBody, h("p", { class: "muted no-odds" }, this.legal.length ? "No odds for this position." : "Odds appear when it is your turn."));
      return;
    }
    // the verdict (a column of words after the chances, like "the truth") goes first, and
    // every column fits the sidebar or a phone: nothing is cut off behind a scroll bar
    const order = columnOrder(table);
    mount(this.oddsBody,
      h("h3", {}, this.named(table.title)),
      h("table", { class: "odds-table" },
        h("thead", {}, h("tr", {}, order.map((i) => h("th", { scope: "col" }, table.columns[i])))),
        h("tbody", {}, table.rows.map((row) => h("tr", {}, order.map((i) => h("td", {}, oddsCell(row[i], (t) => this.named(t)))))))),
      table.note ? h("p", { class: "muted" }, this.named(table.note)) : null);
  }

  showError(message) {
    this.error.textContent = message;
  }

  // --- doing ------------------------------------------------------------------------

  act(index) {
    const entry = this.legal[index];
    if (entry) this.send(entry.action);
  }

  /** Send a move: one of the offered actions, or a set of dice picked to reroll. */
  send(action) {
    if (this.pending) return;
    // the step names the position the move answers: the server refuses it once that is past,
    // so a double click or a resend after a reconnect is never played twice
    if (!this.connection.send({ type: "action", step: this.step, action })) {
      this.showError("Not connected: your move was not sent. Reconnecting…");
      return;
    }
    this.pending = true;
    this.picked = new Set();
    this.error.textContent = "";
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (!this.pending) return;
      this.pending = false;
      this.showError("No answer from the server to your move: try again.");
      this.drawMoves();
    }, 5000);
    for (const button of this.actions.querySelectorAll("button")) button.disabled = true;
  }

  /** Ask for the odds of this position: once per step, only on our turn, and not at every
   * update of a fast game (the server limits each connection's messages a second). */
  askAdvice() {
    clearTimeout(this.adviceTimer);
    if (!this.legal.length) {
      this.drawAdvice(null);
      return;
    }
    if (this.adviceStep === this.step) return;
    mount(this.oddsBody, h("p", { class: "muted" }, "Working out the odds…"));
    this.adviceTimer = setTimeout(() => {
      if (!this.legal.length || this.adviceStep === this.step) return;
      if (this.connection.send({ type: "advice" })) this.adviceStep = this.step;
    }, 250);
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const picking = this.legal.length > 0 && picksDice(this.view, this.legal);
    if (picking && /^[1-3]$/.test(event.key)) {
      event.preventDefault();
      this.togglePick(Number(event.key) - 1);
    } else if (picking && (event.key === "p" || event.key === "P")) {
      const pay = this.legal.findIndex((e) => e.action.type !== "reroll");
      if (pay >= 0) this.act(pay);
    } else if (picking && event.key === "Enter" && target === document.body) {
      event.preventDefault();
      this.rerollPicked();
    } else if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      this.act(Number(event.key) - 1);
    } else if (event.key === "Enter" && this.throwDue === this.seat && target === document.body) {
      event.preventDefault();
      this.throwDice();
    }
  }

  /** The roller's own throw: the server throws the dice it waited on for this seat. */
  throwDice() {
    if (this.pending || this.throwDue !== this.seat) return;
    if (!this.connection.send({ type: "throw", step: this.step })) {
      this.showError("Not connected: your throw was not sent. Reconnecting…");
      return;
    }
    this.pending = true;
    for (const button of this.actions.querySelectorAll("button")) button.disabled = true;
  }

  async copyInvite(room) {
    const link = `${location.origin}${location.pathname}#/room/${room}`;
    try {
      await navigator.clipboard.writeText(link);
      notify(`Invite link copied: ${link}`, "ok");
    } catch {
      notify(`Invite link: ${link}`, "info");
    }
  }

  async rematch() {
    try {
      const made = await api.rematch(this.tableId, this.held.token);
      const pace = this.summary && this.summary.bot_delay_ms;
      saveSeat(made.table_id, { seat: made.seat, token: made.token, room: made.room, seen: 0, pace });
      location.hash = `#/table/${made.table_id}`;
    } catch (e) {
      this.showError(e.message);
    }
  }
}

/** Column indices of an odds table with its verdict columns (words after the last column
 * of chances) moved to the front. */
export function columnOrder(table) {
  const isChance = (c) => c && typeof c === "object" && "value" in c;
  const n = table.columns.length;
  const chance = [...Array(n).keys()].filter((i) => table.rows.some((row) => isChance(row[i])));
  const last = chance.length ? Math.max(...chance) : n;
  const verdict = [...Array(n).keys()].filter((i) => i > last);
  return [...verdict, ...[...Array(n).keys()].filter((i) => !verdict.includes(i))];
}

/** One cell: a chance as its percentage first, the exact fraction under it; "0" for zero. */
function oddsCell(cell, named) {
  if (cell && typeof cell === "object" && "fraction" in cell) {
    if (cell.value === 0) return h("span", { class: "pct" }, "0");
    if (cell.value === 1) return h("span", { class: "pct" }, "100%");
    return [h("span", { class: "pct" }, percent(cell.value)), h("span", { class: "frac" }, cell.fraction)];
  }
  if (cell && typeof cell === "object" && "value" in cell) {  // a chance known approximately
    return h("span", { class: "pct" }, cell.value === 0 ? "0" : percent(cell.value));
  }
  return named(cellText(cell));
}

function percent(value) {
  const pct = value * 100;
  return `${pct < 0.1 ? pct.toPrecision(1) : pct.toFixed(1)}%`;
}

/** A seat's connection in words: everyone sees who is here, dropped, gone or played by a bot. */
function seatState(s) {
  if (s.bot) return s.bot_warning ? `bot · not at full strength: ${s.bot_warning}` : "bot";
  if (!s.taken) return s.outside_bot ? "waiting for a bot from outside" : "free";
  const state = s.state || (s.connected ? "connected" : "gone");
  if (s.quit) return s.quit === "left" ? "left · bot plays" : "conceded";
  if (s.stand_in) return state === "connected" ? "bot plays" : `${state} · bot plays`;
  return state === "connected" ? "" : state === "reconnecting" ? "reconnecting…" : "gone";
}

function dotClass(s) {
  if (s.bot || s.state === "connected") return "on";
  return s.state === "reconnecting" ? "wait" : "off";
}

function storyPace(botDelayMs) {
  return Math.min((Number(botDelayMs) || 0) / 2, STORY_MAX_MS);
}
