// Who played what: a player's page (#/player/NAME), the leaderboards (#/leaderboard/GAME)
// and a finished game's page (#/game/ID). A rating is OpenSkill's mu − 3·sigma, the figure
// a leaderboard sorts by (docs/ratings.md).

import { api, call } from "./api.js";
import { h, mount, s } from "./dom.js";
import { gameTitle } from "./games/index.js";

const enc = encodeURIComponent;
const fixed = (x) => (x === null || x === undefined ? "—" : Number(x).toFixed(1));
const signed = (x) => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}`);
const when = (t) => new Date(t * 1000).toLocaleString();
const winRate = (r) => (r.games ? `${Math.round((100 * r.wins) / r.games)}%` : "—");
const playerLink = (name, kind) =>
  kind === "guest" || name === "deleted player" ? name : h("a", { href: `#/player/${enc(name)}` }, name);

function screen(main, title, load, draw) {
  const box = h("section", { class: "card profile" }, h("h1", {}, title), h("p", { class: "muted" }, "Loading…"));
  mount(main, box);
  load().then((data) => draw(box, data))
    .catch((e) => mount(box, h("h1", {}, title), h("p", { class: "error", role: "alert" }, e.message)));
  return null;
}

function grid(head, rows, cls = "") {
  return h("table", { class: `grid ${cls}` },
    h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))));
}

export function showPlayer(main, name) {
  return screen(main, name, () => call("GET", `/api/players/${enc(name)}`), drawPlayer);
}

function drawPlayer(box, data) {
  const a = data.account;
  mount(box, h("h1", {}, a.name, a.kind === "bot" ? " (bot)" : ""),
    h("h2", {}, "Ratings"),
    data.ratings.length
      ? grid(["game", "rating", "mu", "sigma", "games", "wins"], data.ratings.map((r) => [
        h("a", { href: `#/leaderboard/${enc(r.game)}` }, gameTitle(r.game)),
        fixed(r.ordinal), fixed(r.mu), fixed(r.sigma), r.games, winRate(r)]), "ratings")
      : h("p", { class: "muted" }, "No rated games yet."),
    Object.entries(data.rating_history).map(([game, points]) => chart(game, points)),
    h("h2", {}, "Games"),
    data.games.length
      ? grid(["finished", "game", "players", "result", "rating"], data.games.map((g) => [
        h("a", { href: `#/game/${enc(g.table_id)}` }, when(g.finished)),
        gameTitle(g.game), g.players.join(", "),
        `${g.won > 0 ? "won" : "lost"} (${g.net >= 0 ? "+" : ""}${g.net})`,
        g.rated && g.after ? `${fixed(g.after.ordinal)} (${signed(g.after.ordinal - g.before.ordinal)})` : "casual",
      ]), "games")
      : h("p", { class: "muted" }, "No finished games yet."));
}

/** The rating after each rated game, as a line over the games played. */
function chart(game, points) {
  const W = 600, H = 160, pad = 24;
  const values = points.map((p) => p.ordinal);
  const lo = Math.min(...values, 0), hi = Math.max(...values, 1);
  const x = (i) => pad + (points.length > 1 ? (i * (W - 2 * pad)) / (points.length - 1) : (W - 2 * pad) / 2);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo || 1);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.ordinal).toFixed(1)}`).join(" ");
  return h("figure", { class: "rating-chart" },
    s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${gameTitle(game)} rating over ${points.length} rated games` },
      s("line", { x1: pad, y1: y(0), x2: W - pad, y2: y(0), class: "axis" }),
      s("polyline", { points: line, class: "rating-line" }),
      points.map((p, i) => s("circle", { cx: x(i), cy: y(p.ordinal), r: 3 }, s("title", {}, `${fixed(p.ordinal)} · ${when(p.at)}`)))),
    h("figcaption", {}, `${gameTitle(game)}: rating after each rated game (latest ${fixed(values.at(-1))})`));
}

export function showLeaderboard(main, game) {
  return screen(main, "Leaderboard", async () => {
    const games = await api.games();
    const id = game || (games[0] && games[0].id);
    const board = id ? await call("GET", `/api/leaderboard/${enc(id)}`) : { ratings: [] };
    return { games, id, board };
  }, drawLeaderboard);
}

function drawLeaderboard(box, { games, id, board }) {
  mount(box, h("h1", {}, `Leaderboard: ${gameTitle(id)}`),
    h("nav", { class: "games-nav", "aria-label": "Games" },
      games.map((g) => h("a", { href: `#/leaderboard/${enc(g.id)}`, "aria-current": g.id === id ? "page" : null }, g.name))),
    board.ratings.length
      ? grid(["#", "player", "rating", "mu", "sigma", "games", "wins"], board.ratings.map((r) => [
        r.rank, h("span", {}, playerLink(r.name, r.kind), r.kind === "bot" ? " (bot)" : ""),
        fixed(r.ordinal), fixed(r.mu), fixed(r.sigma), r.games, winRate(r)]), "leaderboard")
      : h("p", { class: "muted" }, "No rated games of this game yet."));
}

export function showGameRecord(main, tableId) {
  return screen(main, "Game", async () => {
    const [record, table] = await Promise.all([
      call("GET", `/api/tables/${enc(tableId)}/record`), api.table(tableId)]);
    return { record, table };
  }, (box, data) => drawRecord(box, tableId, data));
}

function drawRecord(box, tableId, { record, table }) {
  const verify = h("p", { class: "verify-words", "aria-live": "polite" });
  const check = h("button", { type: "button" }, "Verify the dice");
  check.addEventListener("click", async () => {
    verify.textContent = "Checking…";
    try {
      const report = await call("GET", api.verifyUrl(tableId));
      verify.textContent = `${report.ok ? "✓ fair: " : "✗ failed: "}${report.words || report.error || ""}`;
      verify.className = `verify-words ${report.ok ? "ok" : "error"}`;
    } catch (e) {
      verify.textContent = e.message;
    }
  });
  const seats = record.seats.length ? record.seats : table.seats.map((s) => ({ seat: s.seat, name: s.name }));
  const winners = new Set((table.result && table.result.winners) || []);
  mount(box, h("h1", {}, `${gameTitle(record.game)}, ${record.rated ? "rated" : "casual"}`),
    h("p", { class: "muted" }, `finished ${when(record.finished)}`),
    grid(["seat", "player", "result", "net", "rating", "change"], seats.map((s) => [
      s.seat + 1,
      s.account ? h("span", {}, playerLink(s.account.name, s.account.kind), s.account.kind === "bot" ? " (bot)" : "",
        s.account.name !== s.name ? `, as ${s.name}` : "") : s.name,
      (s.won ?? (winners.has(s.seat) ? 1 : 0)) > 0 ? "won" : "lost",
      s.net ?? (table.result ? table.result.net[s.seat] : "—"),
      s.after ? `${fixed(s.before.ordinal)} → ${fixed(s.after.ordinal)}` : "—",
      s.change === null || s.change === undefined ? "—" : signed(s.change),
    ]), "record"),
    h("p", { class: "record-links" },
      h("a", { href: api.transcriptUrl(tableId), download: `dicehall-${tableId}.json` }, "Download the transcript"),
      " · ", h("a", { href: `#/replay/${enc(tableId)}` }, "Replay")),
    check, verify);
}
