// Who played what: a player's page (#/player/NAME), the leaderboards (#/leaderboard/GAME)
// and a finished game's page (#/game/ID). A rating is shown on a 1500-centred scale
// (OpenSkill's mu − 3·sigma, mapped by the server: `shown`), with a "?" while it is
// provisional; mu, sigma and the ordinal stay behind "details" (docs/reference/ratings.md).

import { api, call } from "./api.js";
import { h, mount, s } from "./dom.js";
import { gameTitle } from "./games/index.js";

const enc = encodeURIComponent;
const fixed = (x) => (x === null || x === undefined ? "—" : Number(x).toFixed(1));
const signed = (x) => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${Math.round(x)}`);
const day = (t) => new Date(t * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short" });
/** A rating as people read it: "1534", or "1534?" while it is provisional. */
const rating = (r) => (r === null || r === undefined ? "—"
  : r.provisional ? h("span", { class: "provisional", title: "provisional: fewer than 10 rated games" }, `${r.shown}?`)
    : String(r.shown));
/** mu, sigma and the ordinal of some ratings, behind "details", for who wants the maths. */
const details = (rows) => h("details", { class: "rating-details" }, h("summary", {}, "details"),
  h("p", { class: "muted" }, "A rating is OpenSkill's ordinal, mu − 3·sigma, as 1500 + 20 × ordinal (never below 0); it is provisional (marked ?) until 10 rated games."),
  grid(["", "mu", "sigma", "mu − 3·sigma"], rows.map(([label, r]) => [label, fixed(r.mu), fixed(r.sigma), fixed(r.ordinal)]), "rating-maths"));
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
      ? [grid(["game", "rating", "games", "wins"], data.ratings.map((r) => [
        h("a", { href: `#/leaderboard/${enc(r.game)}` }, gameTitle(r.game)),
        rating(r), r.games, winRate(r)]), "ratings"),
      details(data.ratings.map((r) => [gameTitle(r.game), r]))]
      : h("p", { class: "muted" }, "No rated games yet."),
    Object.entries(data.rating_history).map(([game, points]) => chart(game, points)),
    h("h2", {}, "Games"),
    data.games.length
      ? grid(["finished", "game", "players", "result", "rating"], data.games.map((g) => [
        h("a", { href: `#/game/${enc(g.table_id)}` }, when(g.finished)),
        gameTitle(g.game), g.players.join(", "),
        `${g.won > 0 ? "won" : "lost"} (${g.net >= 0 ? "+" : ""}${g.net})`,
        g.rated && g.after ? `${g.after.shown} (${signed(g.after.shown - g.before.shown)})` : "casual",
      ]), "games")
      : h("p", { class: "muted" }, "No finished games yet."));
}

/** The rating after each rated game, on axes: the shown rating up the side, the dates of
 * the games along the bottom. */
function chart(game, points) {
  const W = 600, H = 200, left = 48, right = 16, top = 12, bottom = 36;
  const values = points.map((p) => p.shown);
  let lo = Math.min(...values), hi = Math.max(...values);
  const step = niceStep(hi - lo), flat = hi === lo;
  lo = Math.max(0, Math.floor(lo / step) * step - (flat ? step : 0));
  hi = Math.ceil(hi / step) * step + (flat ? step : 0);
  const x = (i) => left + (points.length > 1 ? (i * (W - left - right)) / (points.length - 1) : (W - left - right) / 2);
  const y = (v) => H - bottom - ((v - lo) * (H - top - bottom)) / (hi - lo || 1);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.shown).toFixed(1)}`).join(" ");
  const ticks = [];
  for (let v = lo; v <= hi; v += step) ticks.push(v);
  const dated = points.length > 1 ? [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])] : [0];
  const last = points.at(-1);
  return h("figure", { class: "rating-chart" },
    s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${gameTitle(game)} rating over ${points.length} rated games, from ${day(points[0].at)} to ${day(last.at)}` },
      s("line", { x1: left, y1: top, x2: left, y2: H - bottom, class: "axis" }),
      s("line", { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, class: "axis" }),
      ticks.map((v) => s("g", { class: "tick" },
        s("line", { x1: left - 4, y1: y(v), x2: W - right, y2: y(v), class: "grid-line" }),
        s("text", { x: left - 8, y: y(v) + 4, "text-anchor": "end", class: "tick-label y-label" }, String(v)))),
      dated.map((i) => s("text", { x: x(i), y: H - bottom + 16, "text-anchor": points.length > 1 && i === 0 ? "start" : points.length > 1 && i === points.length - 1 ? "end" : "middle", class: "tick-label x-label" }, day(points[i].at))),
      s("text", { x: (left + W - right) / 2, y: H - 4, "text-anchor": "middle", class: "axis-title" }, "date of the game"),
      s("polyline", { points: line, class: "rating-line" }),
      points.map((p, i) => s("circle", { cx: x(i), cy: y(p.shown), r: 3 }, s("title", {}, `${p.shown} · ${when(p.at)}`)))),
    h("figcaption", {}, `${gameTitle(game)}: rating after each rated game (latest ${last.shown})`));
}

/** A round step for the rating axis: about four lines whatever the spread. */
function niceStep(spread) {
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500]) if (spread / step <= 4) return step;
  return 1000;
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
      ? [grid(["#", "player", "rating", "games", "wins"], board.ratings.map((r) => [
        r.rank, h("span", {}, playerLink(r.name, r.kind), r.kind === "bot" ? " (bot)" : ""),
        rating(r), r.games, winRate(r)]), "leaderboard"),
      details(board.ratings.map((r) => [r.name, r]))]
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
      const words = String(report.words || report.error || "");
      verify.textContent = report.ok ? `✓ ${words.charAt(0).toUpperCase()}${words.slice(1)}.` : `✗ Not verified: ${words}`;
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
      s.after ? `${s.before.shown} → ${s.after.shown}` : "—",
      s.shown_change === null || s.shown_change === undefined ? "—" : signed(s.shown_change),
    ]), "record"),
    seats.some((x) => x.after) ? details(seats.filter((x) => x.after).map((x) => [x.name, x.after])) : null,
    h("p", { class: "record-links" },
      h("a", { href: api.transcriptUrl(tableId), download: `dicehall-${tableId}.json` }, "Download the transcript"),
      " · ", h("a", { href: `#/replay/${enc(tableId)}` }, "Replay")),
    check, verify);
}
