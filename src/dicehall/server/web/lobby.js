// The lobby (new table, quick match, join with a code, open tables) and the room page an
// invite opens.

import { api, loadSeat, saveName, saveSeat, savedName } from "./api.js";
import { h, mount, seatName, statusText } from "./dom.js";
import { MODES } from "./fair.js";
import { gameTitle } from "./games/index.js";
import { guideOffer } from "./guide.js";
import { practiceOffer } from "./practice.js";

let gamesCache = null;

/** How long a bot pauses before it moves, so people can follow the play. */
const BOT_PACES = [["instant", 0], ["quick (0.3 s)", 300], ["normal (0.6 s)", 600], ["slow (1.5 s)", 1500]];

async function games() {
  if (!gamesCache) gamesCache = await api.games();
  return gamesCache;
}

/** Tables from GET /api/tables, whether the server sends a list or {tables: [...]}. */
function tableList(data) {
  return Array.isArray(data) ? data : (data && data.tables) || [];
}

export const tableId = (t) => t.table_id ?? t.id;

export function showLobby(main) {
  const newTable = h("section", { class: "card", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title" }, "New table"), h("p", { class: "muted" }, "Loading games…"));
  const join = joinSection();
  const quick = h("section", { class: "card", "aria-labelledby": "quick-title" });
  const open = h("section", { class: "card", "aria-labelledby": "open-title" });
  const guides = h("div", { class: "lobby-guides" });
  const practice = h("div", { class: "lobby-practice" });
  mount(main, h("div", { class: "lobby" }, newTable, h("div", { class: "lobby-side" }, guides, quick, join, open, practice)));

  games()
    .then((list) => {
      mount(guides, guideOffer(list));
      mount(practice, practiceOffer(list));
      buildNewTable(newTable, list);
      buildQuickMatch(quick, list);
    })
    .catch((e) => mount(newTable, h("h2", {}, "New table"), h("p", { class: "error", role: "alert" }, e.message)));

  const refresh = () => loadOpenTables(open);
  refresh();
  const timer = setInterval(refresh, 5000);
  return { destroy: () => clearInterval(timer) };
}

function buildNewTable(section, list) {
  if (!list.length) {
    mount(section, h("h2", {}, "New table"), h("p", {}, "No games are installed on this server."));
    return;
  }
  const byId = Object.fromEntries(list.map((g) => [g.id, g]));
  const gameSelect = h("select", { id: "game", name: "game" },
    list.map((g) => h("option", { value: g.id }, g.name)));
  const summary = h("p", { class: "summary" });
  const rules = h("details", { class: "rules" });
  const seatsInput = h("input", { id: "seats", name: "seats", type: "number", inputmode: "numeric" });
  const optionsBox = h("fieldset", { class: "options" });
  const playersBox = h("fieldset", { class: "players" });
  const nameInput = h("input", { id: "host-name", name: "name", autocomplete: "nickname", maxlength: 24, value: savedName(), placeholder: "your nickname" });
  const listedInput = h("input", { id: "listed", name: "listed", type: "checkbox", checked: true });
  const timerInput = h("input", { id: "turn-seconds", name: "turn_seconds", type: "number", min: 10, max: 3600, placeholder: "60 (listed tables)", inputmode: "numeric", "aria-describedby": "turn-seconds-help" });
  const graceInput = h("input", { id: "grace-seconds", name: "grace_seconds", type: "number", min: 1, max: 3600, value: 60, inputmode: "numeric" });
  const emptySelect = h("select", { id: "when-empty", name: "when_empty" },
    h("option", { value: "finish" }, "the bots finish the game"), h("option", { value: "close" }, "close the table"));
  const spectatorChat = h("input", { id: "spectator-chat", name: "spectator_chat", type: "checkbox", checked: true });
  const ratedInput = h("input", { id: "rated", name: "rated", type: "checkbox" });
  const syncTimer = () => (timerInput.placeholder = listedInput.checked ? "60 (listed tables)" : "no timer");
  listedInput.addEventListener("change", syncTimer);
  const fairHelp = h("p", { class: "help", id: "fairness-help" }, MODES.sealed);
  const fairSelect = h("select", { id: "fairness", name: "fairness", "aria-describedby": "fairness-help" },
    h("option", { value: "sealed" }, "Sealed: hidden dice stay secret"),
    h("option", { value: "seed" }, "Revealed seed: everything checkable after the game"));
  fairSelect.addEventListener("change", () => (fairHelp.textContent = MODES[fairSelect.value]));
  const paceSelect = h("select", { id: "bot-pace", name: "bot_delay_ms" },
    BOT_PACES.map(([label, ms]) => h("option", { value: ms, selected: ms === 600 }, label)));
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, "Create table");

  const drawPlayers = () => {
    const game = byId[gameSelect.value];
    const n = clamp(Number(seatsInput.value) || game.default_seats, game.min_seats, game.max_seats);
    const before = [...playersBox.querySelectorAll("select")].map((s) => s.value);
    mount(playersBox, h("legend", {}, "Players"),
      Array.from({ length: n }, (_, i) => {
        const id = `seat-${i}`;
        const choice = before[i] ?? (i === 0 ? "" : game.bots[0] || "");
        const select = h("select", { id, name: id, dataset: { seat: i } },
          h("option", { value: "" }, i === 0 ? "Person (you)" : "Person"),
          game.bots.map((b) => h("option", { value: b, title: (game.bot_warnings || {})[b] || "" },
            `Bot: ${b}${(game.bot_warnings || {})[b] ? " (not at full strength here)" : ""}`)),
          h("option", { value: "outside" }, "Bot from outside (docs/bots.md)"));
        select.value = choice;
        return h("div", { class: "field inline" }, h("label", { for: id }, `Seat ${i + 1}`), select);
      }));
  };

  const drawGame = () => {
    const game = byId[gameSelect.value];
    summary.textContent = game.summary || "";
    mount(rules, h("summary", {}, `Rules of ${game.name}`), h("pre", {}, game.rules || "No rules text."));
    Object.assign(seatsInput, { min: game.min_seats, max: game.max_seats, value: game.default_seats });
    seatsInput.disabled = game.min_seats === game.max_seats;
    const main = game.options.filter((o) => !o.advanced);
    const advanced = game.options.filter((o) => o.advanced);
    mount(optionsBox, h("legend", {}, "Options"),
      game.options.length ? main.map(optionField) : h("p", { class: "muted" }, "This game has no options."),
      advanced.length ? h("details", { class: "advanced-options" },
        h("summary", {}, "Advanced: research variants"),
        h("p", { class: "help" }, "Smaller or changed games for study; a first game does without them."),
        advanced.map(optionField)) : null);
    mount(playersBox);
    drawPlayers();
    syncSeatChoices(optionsBox, game, Number(seatsInput.value));
  };

  gameSelect.addEventListener("change", drawGame);
  seatsInput.addEventListener("change", () => {
    drawPlayers();
    syncSeatChoices(optionsBox, byId[gameSelect.value], Number(seatsInput.value));
  });

  const form = h("form", { class: "new-table", novalidate: true },
    field("Game", gameSelect), summary, rules,
    field("Seats", seatsInput), optionsBox, playersBox,
    field("Your nickname", nameInput),
    checkField("List in the lobby (otherwise only the room code finds it)", listedInput),
    field("Turn timer (seconds)", timerInput),
    h("p", { class: "help", id: "turn-seconds-help" }, "At least 10 s. A listed table gets 60 s unless you set another; a private table has none unless you set one."),
    field("Bot pace", paceSelect),
    field("Fair dice", fairSelect), fairHelp,
    field("A gone player's seat is played by the bot after (seconds)", graceInput),
    field("When every player has left", emptySelect),
    checkField("Spectators may chat", spectatorChat),
    checkField("Rated: the result moves the players' ratings. Only named accounts are rated: a game with a guest or a bot you seat counts as casual, and repeated games against the same player weigh less and less (the second half, the third a quarter …)", ratedInput),
    error, submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const game = byId[gameSelect.value];
    const seats = Number(seatsInput.value);
    if (!(seats >= game.min_seats && seats <= game.max_seats)) {
      error.textContent = `${game.name} is played by ${game.min_seats}–${game.max_seats} seats.`;
      return;
    }
    const bots = {};
    for (const select of playersBox.querySelectorAll("select")) {
      if (select.value) bots[select.dataset.seat] = select.value;
    }
    if (Object.keys(bots).length >= seats) {
      error.textContent = "Leave at least one seat for a person: you sit in the first one.";
      return;
    }
    const body = { game: game.id, seats, options: readOptions(optionsBox, game.options), bots };
    const name = nameInput.value.trim();
    if (name) {
      saveName(name);
      const host = [...Array(seats).keys()].find((i) => !(String(i) in bots));
      body.names = Array.from({ length: seats }, (_, i) => (i === host ? name : ""));
    }
    body.bot_delay_ms = Number(paceSelect.value);
    body.fairness = fairSelect.value;
    if (timerInput.value) body.turn_seconds = Number(timerInput.value);
    body.listed = listedInput.checked;
    if (graceInput.value) body.grace_seconds = Number(graceInput.value);
    body.when_empty = emptySelect.value;
    body.spectator_chat = spectatorChat.checked;
    body.rated = ratedInput.checked;
    submit.disabled = true;
    try {
      const made = await api.create(body);
      saveSeat(made.table_id, { seat: made.seat, token: made.token, room: made.room, seen: 0, pace: body.bot_delay_ms });
      location.hash = `#/table/${made.table_id}`;
    } catch (e) {
      error.textContent = e.message;
      submit.disabled = false;
    }
  });

  mount(section, h("h2", { id: "new-title" }, "New table"), form);
  drawGame();
}

function field(label, input) {
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input);
}

function checkField(label, input) {
  return h("div", { class: "field check" }, input, h("label", { for: input.id }, label));
}

/** A form field for one declared option, in words: its label, its choices as people read
 * them (a seat by its place at the table), its help below; choices → select, bool →
 * checkbox, int → number. */
function optionField(option) {
  const id = `opt-${option.name}`;
  const label = option.label || option.name;
  const help = option.help ? h("small", { class: "help", id: `${id}-help` }, sentence(option.help)) : null;
  const described = help ? `${id}-help` : undefined;
  let input;
  if (option.type === "bool") {
    input = h("input", { id, type: "checkbox", name: option.name, "aria-describedby": described });
    input.checked = Boolean(option.default);
    return h("div", { class: "field check" }, input, h("label", { for: id }, label), help);
  }
  if (option.choices) {
    const words = option.choice_words || {};
    input = h("select", { id, name: option.name, "aria-describedby": described },
      option.choices.map((c) => h("option", { value: c }, sentence(words[c] || c))));
    input.value = option.default;
  } else if (option.type === "int") {
    input = h("input", { id, type: "number", name: option.name, value: option.default,
      min: option.minimum, max: option.maximum, "aria-describedby": described });
  } else {
    input = h("input", { id, name: option.name, value: option.default, "aria-describedby": described });
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), input, help);
}

const sentence = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

/** A seat option (Kariki's first roller, Tao's first player) offers the seats the table
 * has, by their names: "Seat 1 (you)", "Seat 2", …; the other choice ("roll for it") stays. */
function syncSeatChoices(box, game, seats) {
  for (const option of game.options.filter((o) => o.seats_from)) {
    const select = box.querySelector(`[name="${CSS.escape(option.name)}"]`);
    if (!select) continue;
    for (const choice of select.options) {
      if (choice.value === option.seats_from) continue;
      const seat = Number(choice.value);
      choice.hidden = choice.disabled = seat >= seats;
      choice.textContent = seat === 0 ? "Seat 1 (you)" : `Seat ${seat + 1}`;
    }
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = option.seats_from;
  }
}

/** The table's options as the lobby named them, for the room page: "Pull catches: any claim
 * that differs from the dice". */
export function optionWords(game, options, names = []) {
  return (game ? game.options : []).filter((o) => options && o.name in options).map((o) => {
    const value = options[o.name];
    const words = o.choice_words || {};
    const shown = o.type === "bool" ? (value ? "yes" : "no")
      : o.seats_from && value !== o.seats_from ? seatName(names, Number(value)) : words[value] || String(value);
    return `${o.label || o.name}: ${shown}`;
  });
}

/** The turn timer in words: "60 s a turn, and 30 s more for the whole game". */
function timerWords(summary) {
  if (!summary.turn_seconds) return "No turn timer";
  const bank = summary.time_bank && summary.time_bank.seconds;
  return `Turn timer: ${Math.round(summary.turn_seconds)} s a turn${bank ? `, and ${Math.round(bank)} s more for the whole game` : ""}`;
}

function readOptions(box, declared) {
  const values = {};
  for (const option of declared) {
    const input = box.querySelector(`[name="${CSS.escape(option.name)}"]`);
    if (!input) continue;
    if (option.type === "bool") values[option.name] = input.checked;
    else if (option.type === "int") values[option.name] = Number(input.value);
    else values[option.name] = input.value;
  }
  return values;
}

/** Quick match: a seat at the next listed table of this game and size, or a new one. */
function buildQuickMatch(section, list) {
  if (!list.length) return;
  const byId = Object.fromEntries(list.map((g) => [g.id, g]));
  const game = h("select", { id: "qm-game", name: "game" }, list.map((g) => h("option", { value: g.id }, g.name)));
  const seats = h("input", { id: "qm-seats", name: "seats", type: "number", inputmode: "numeric" });
  const syncSeats = () => {
    const g = byId[game.value];
    Object.assign(seats, { min: g.min_seats, max: g.max_seats, value: g.default_seats });
  };
  game.addEventListener("change", syncSeats);
  syncSeats();
  const name = h("input", { id: "qm-name", name: "name", autocomplete: "nickname", maxlength: 24, value: savedName(), placeholder: "your nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const go = h("button", { type: "submit", class: "primary" }, "Quick match");
  const form = h("form", { class: "quick-match" }, field("Game", game), field("Seats", seats), field("Your nickname", name), error, go);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    go.disabled = true;
    const nick = name.value.trim();
    if (nick) saveName(nick);
    try {
      const seat = await api.quickmatch({ game: game.value, seats: Number(seats.value), name: nick });
      saveSeat(seat.table_id, { seat: seat.seat, token: seat.token, room: seat.room, seen: 0, pace: 600 });
      location.hash = `#/table/${seat.table_id}`;
    } catch (e) {
      error.textContent = e.message;
      go.disabled = false;
    }
  });
  mount(section, h("h2", { id: "quick-title" }, "Quick match"),
    h("p", { class: "muted" }, "Sit at the next open table of this game and size, or open one for the next players."), form);
}

function joinSection() {
  const code = h("input", { id: "room-code", name: "room", autocomplete: "off", autocapitalize: "characters", placeholder: "K7MX2P", maxlength: 200, required: true });
  const form = h("form", { class: "join" },
    field("Room code or invite link", code),
    h("button", { type: "submit" }, "Go to room"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = code.value.trim();
    const match = text.match(/room\/([^/?#\s]+)/);
    const room = (match ? match[1] : text).toUpperCase();
    if (room) location.hash = `#/room/${encodeURIComponent(room)}`;
  });
  return h("section", { class: "card", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, "Join a table"), form);
}

async function loadOpenTables(section) {
  let list;
  try {
    list = tableList(await api.openTables());
  } catch (e) {
    mount(section, h("h2", { id: "open-title" }, "Open tables"), h("p", { class: "error" }, e.message));
    return;
  }
  const names = Object.fromEntries((gamesCache || []).map((g) => [g.id, g.name]));
  mount(section, h("h2", { id: "open-title" }, "Open tables"),
    list.length === 0
      ? h("p", { class: "muted" }, "No open tables. Create one!")
      : h("ul", { class: "open-tables" }, list.map((t) => h("li", {},
          h("span", { class: "open-game" }, names[t.game] || t.game),
          h("span", { class: "open-meta" }, `${t.room ? `room ${t.room} · ` : ""}${seatsText(t)} · ${t.status || ""}${idleText(t)}`),
          Array.isArray(t.players) ? h("span", { class: "open-players" }, t.players.map((p) =>
            h("span", { class: `open-player${p.connected ? " on" : ""}` }, p.taken ? p.name : "free seat",
              p.bot ? " (bot)" : p.outside_bot ? " (bot from outside)" : "", ratingBadge(p)))) : null,
          h("span", { class: "open-links" },
            t.status === "waiting" && t.room && (!Array.isArray(t.free_seats) || t.free_seats.length)
              ? h("a", { class: "button small", href: `#/room/${t.room}` }, "Join") : null,
            h("a", { class: "button small", href: `#/table/${tableId(t)}` }, "Watch"))))));
}

/** A sitter's shown rating in the table's game (as on their page), if rated. */
function ratingBadge(p) {
  if (typeof p.rating !== "number") return null;
  return h("span", { class: "open-rating", title: "rating in this game" }, ` ${Math.round(p.rating)}`);
}

/** How long since the table's last move (or since it opened, while it waits). */
function idleText(t) {
  if (typeof t.idle_seconds !== "number") return "";
  const s = Math.round(t.idle_seconds);
  const ago = s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
  return t.status === "waiting" ? ` · open ${ago}` : ` · last move ${ago} ago`;
}

function seatsText(t) {
  if (typeof t.seats_taken === "number") return `${t.seats_taken}/${t.seats} seats taken`;
  if (Array.isArray(t.seats)) {
    const taken = t.seats.filter((s) => s.bot || s.taken || s.name).length;
    return `${taken}/${t.seats.length} seats taken`;
  }
  return `${t.seats ?? "?"} seats`;
}

function clamp(n, lo, hi) {
  return Math.max(lo, Math.min(hi, n));
}

/** The page an invite link opens: the table's seats, then take a seat or watch. */
export function showRoom(main, code) {
  const body = h("section", { class: "card room" }, h("h2", {}, `Room ${code}`), h("p", { class: "muted" }, "Loading…"));
  mount(main, body);
  Promise.all([api.room(code), games().catch(() => [])])
    .then(([summary, list]) => drawRoom(body, code, summary, list.find((g) => g.id === summary.game)))
    .catch((e) => mount(body, h("h2", {}, `Room ${code}`), h("p", { class: "error", role: "alert" }, e.message),
      h("a", { href: "#/", class: "button" }, "Back to the lobby")));
  return null;
}

function drawRoom(section, code, summary, game) {
  const id = tableId(summary);
  const seats = Array.isArray(summary.seats) ? summary.seats : [];
  const name = h("input", { id: "join-name", autocomplete: "nickname", maxlength: 24, value: savedName(), placeholder: "your nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const takeSeat = h("button", { type: "submit", class: "primary" }, "Take a seat");
  const form = h("form", { class: "join" }, field("Your nickname", name), error,
    h("div", { class: "row" }, takeSeat, h("a", { class: "button", href: `#/table/${id}` }, "Watch")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    takeSeat.disabled = true;
    const nick = name.value.trim();
    if (nick) saveName(nick);
    try {
      const joined = await api.joinRoom(code, nick ? { name: nick } : {});
      saveSeat(joined.table_id, { seat: joined.seat, token: joined.token, room: code, seen: 0, pace: summary.bot_delay_ms });
      location.hash = `#/table/${joined.table_id}`;
    } catch (e) {
      error.textContent = e.message;
      takeSeat.disabled = false;
    }
  });
  mount(section,
    h("h2", {}, `Room ${code}`),
    h("p", {}, `${gameTitle(summary.game)} · ${statusText(summary.status)}`),
    seats.length ? h("ul", { class: "seat-list" }, seats.map((seat, i) => h("li", {},
      h("strong", {}, seat.taken ? seatName(seats.map((x) => x.name), i) : `Seat ${i + 1}`), " ",
      h("span", { class: "muted" }, seat.bot ? `bot (${seat.bot})${seat.bot_warning ? `: not at full strength: ${seat.bot_warning}` : ""}` : seat.outside_bot ? "bot from outside" : seat.taken ? "taken" : "free")))) : null,
    h("ul", { class: "room-options" },
      h("li", {}, timerWords(summary)),
      summary.settings && summary.settings.rated ? h("li", {}, "Rated: the result moves every player's rating") : h("li", {}, "Casual: no rating moves"),
      h("li", {}, summary.fairness === "seed" ? "Fair dice: revealed seed" : "Fair dice: sealed"),
      optionWords(game, summary.options, seats.map((x) => x.name)).map((text) => h("li", {}, text))),
    loadSeat(id) && summary.status !== "over" && summary.status !== "closed"
      ? h("div", { class: "row" }, h("p", {}, "This browser holds a seat at this table."),
        h("a", { class: "button primary back-to-seat", href: `#/table/${id}` }, "Back to your seat"))
      : summary.status === "waiting" || !summary.status ? form
        : h("div", { class: "row" }, h("p", {}, "This table has started."), h("a", { class: "button primary", href: `#/table/${id}` }, "Watch")));
}
