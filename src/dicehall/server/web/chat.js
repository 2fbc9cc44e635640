// Table talk: the chat panel of a table, its quick messages, and muting another player.
//
// Messages are shown as text, never as markup (dom.js builds text nodes). Muting is this
// browser's own choice, kept per table in localStorage: the muted sender's messages are
// not shown here, and nobody else is told.

import { savedName } from "./api.js";
import { h, mount } from "./dom.js";
import { seatColour } from "./games/common.js";

const MAX_CHARS = 300;

const MUTE_KEY = (tableId) => `dicehall.mute.${tableId}`;

/** Who a message is from, for muting: a seat number, or "spectators" for every watcher. */
const senderKey = (m) => (m.seat === null || m.seat === undefined ? "spectators" : String(m.seat));

export class ChatPanel {
  /**
   * @param {string} tableId
   * @param {{send: (message: object) => boolean, seat: () => number|null, names: () => string[]}} table
   */
  constructor(tableId, table) {
    this.tableId = tableId;
    this.table = table;
    this.messages = [];
    this.muted = new Set(loadMuted(tableId));
    this.list = h("ol", { class: "chat-list", "aria-label": "Table talk", "aria-live": "polite" });
    this.mutedLine = h("p", { class: "muted chat-muted" });
    this.input = h("input", { id: "chat-text", class: "chat-text", maxlength: MAX_CHARS, autocomplete: "off", placeholder: "Say something to the table" });
    this.error = h("p", { class: "error chat-error", role: "alert" });
    this.closedNote = h("p", { class: "muted chat-closed", hidden: true }, "The host has closed the chat to spectators.");
    this.hostToggle = h("label", { class: "chat-host", hidden: true });
    const form = h("form", { class: "chat-form" }, h("label", { for: "chat-text", class: "visually-hidden" }, "Message"), this.input,
      h("button", { type: "submit", class: "small" }, "Send"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.post({ type: "chat", text })) this.input.value = "";
    });
    this.quick = h("div", { class: "chat-quick", role: "group", "aria-label": "Quick messages" });
    this.el = h("details", { class: "card chat", open: true }, h("summary", {}, "Table talk"),
      this.mutedLine, this.list, this.closedNote, this.quick, form, this.error, this.hostToggle);
  }

  post(message) {
    this.error.textContent = "";
    if (this.table.seat() === null) {
      const name = savedName();
      if (name) message.name = name;
    }
    if (!this.table.send(message)) {
      this.error.textContent = "Not connected: the message was not sent.";
      return false;
    }
    this.sentAt = Date.now();
    return true;
  }

  /** Whether an error from the server now most likely answers a chat message of ours. */
  awaiting() {
    return Boolean(this.sentAt) && Date.now() - this.sentAt < 3000;
  }

  /** The server's answer was an error about the chat: show it here. */
  showError(text) {
    this.error.textContent = text;
  }

  /** The table's quick messages, by id, as its welcome names them (server/tables/chat.py:
   * "liar!" only where the game has claims to doubt). */
  setQuick(quick) {
    mount(this.quick, Object.entries(quick || {}).map(([id, text]) => h("button", {
      type: "button", class: "small quick", dataset: { quick: id }, onclick: () => this.post({ type: "chat", quick: id }),
    }, text)));
  }

  setHistory(messages) {
    this.messages = [...messages];
    this.draw();
  }

  add(message) {
    if (message.seat === this.table.seat()) this.sentAt = 0;
    this.messages.push(message);
    if (!this.muted.has(senderKey(message))) this.list.append(this.line(message));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** The table's settings and host changed: who may write, and the host's switch. */
  setSummary(summary) {
    const open = !summary.settings || summary.settings.spectator_chat !== false;
    const watching = this.table.seat() === null;
    this.closedNote.hidden = open;
    for (const el of this.el.querySelectorAll(".chat-form input, .chat-form button, .chat-quick button")) el.disabled = watching && !open;
    const host = !watching && summary.host === this.table.seat();
    this.hostToggle.hidden = !host;
    if (host) {
      const box = h("input", { type: "checkbox", id: "chat-spectators", checked: open, onchange: (e) => this.table.send({ type: "chat-spectators", open: e.target.checked }) });
      mount(this.hostToggle, box, " Spectators may chat");
    }
  }

  draw() {
    mount(this.list, this.messages.filter((m) => !this.muted.has(senderKey(m))).map((m) => this.line(m)));
    const muted = [...this.muted];
    mount(this.mutedLine, muted.length ? ["Muted: ", muted.map((key) => h("button", {
      type: "button", class: "link unmute", onclick: () => this.toggleMute(key),
    }, `${this.senderName(key)} (unmute)`))] : null);
    this.list.scrollTop = this.list.scrollHeight;
  }

  line(m) {
    const mine = m.seat !== null && m.seat !== undefined && m.seat === this.table.seat();
    const key = senderKey(m);
    const seated = m.seat !== null && m.seat !== undefined;
    return h("li", { class: `chat-line${m.quick ? " quick" : ""}${mine ? " mine" : ""}${seated ? " seated" : ""}`, dataset: { seat: key },
      style: seated ? `--seat-colour:${seatColour(m.seat)}` : null },
      h("strong", { class: "chat-name" }, m.name), " ", h("span", { class: "chat-said" }, m.text),
      mine ? null : h("button", { type: "button", class: "link mute", title: `Hide messages from ${this.senderName(key)}`, onclick: () => this.toggleMute(key) }, "mute"));
  }

  senderName(key) {
    if (key === "spectators") return "spectators";
    const names = this.table.names();
    return names[Number(key)] || `Seat ${Number(key) + 1}`;
  }

  toggleMute(key) {
    if (this.muted.has(key)) this.muted.delete(key);
    else this.muted.add(key);
    saveMuted(this.tableId, [...this.muted]);
    this.draw();
  }
}

/** A finished table's talk, for its replay page: read only. */
export function chatHistory(messages) {
  if (!messages.length) return null;
  return h("details", { class: "card chat replay-chat" }, h("summary", {}, `Table talk (${messages.length})`),
    h("ol", { class: "chat-list" }, messages.map((m) => h("li", { class: `chat-line${m.seat !== null && m.seat !== undefined ? " seated" : ""}`,
      style: m.seat !== null && m.seat !== undefined ? `--seat-colour:${seatColour(m.seat)}` : null },
      h("strong", { class: "chat-name" }, m.name), " ", h("span", { class: "chat-said" }, m.text)))));
}

function loadMuted(tableId) {
  try {
    const raw = localStorage.getItem(MUTE_KEY(tableId));
    const list = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

function saveMuted(tableId, list) {
  try {
    localStorage.setItem(MUTE_KEY(tableId), JSON.stringify(list));
  } catch {
    /* kept for this page only */
  }
}
