// The REST API of the server, and the seat tokens this browser holds.
// Tokens live in localStorage per table, so a reload (or a new tab) resumes the seat.
// Taking a seat sends a commitment to this seat's entropy for the dice (fair.js).

import { keepEntropy, newEntropy } from "./fair.js";

/** An error from the server, with the server's own message. */
export class ApiError extends Error {}

export async function call(method, path, body, headers = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("The server cannot be reached. Check the connection and try again.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(errorMessage(data, response));
  return data;
}

/** The plainest message in an error body: FastAPI's {detail} (a string or a 422 list). */
function errorMessage(data, response) {
  const detail = data && (data.detail ?? data.message ?? data.error);
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d) => `${(d.loc || []).filter((p) => p !== "body").join(".")}: ${d.msg}`)
      .join("; ");
  }
  return `${response.status} ${response.statusText || "error"}`;
}

export const api = {
  games: () => call("GET", "/api/games"),
  openTables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  room: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`),
  quickmatch: (body) => seated((entropy) => call("POST", "/api/quickmatch", { ...body, entropy })),
  create: (body) => seated((entropy) => call("POST", "/api/tables", { ...body, entropy })),
  joinRoom: (code, body) =>
    seated((entropy) => call("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { ...body, entropy })),
  joinTable: (id, body) =>
    seated((entropy) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { ...body, entropy })),
  rematch: (id, token) =>
    seated((entropy) =>
      call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { entropy }, { "X-Seat-Token": token })),
  transcript: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/transcript`),
  transcriptUrl: (id) => `/api/tables/${encodeURIComponent(id)}/transcript`,
  replay: (id, seat, token) =>
    call("GET", `/api/tables/${encodeURIComponent(id)}/replay${seat === null ? "" : `?seat=${seat}`}`, undefined,
      token ? { "X-Seat-Token": token } : {}),
  replayFile: (transcript, seat) => call("POST", "/api/replay", { transcript, seat }),
  review: (id, seat, token) =>
    call("GET", `/api/tables/${encodeURIComponent(id)}/review?seat=${seat}`, undefined,
      token ? { "X-Seat-Token": token } : {}),
  reviewFile: (transcript, seat) => call("POST", "/api/review", { transcript, seat }),
  practice: (game, seats, count, seed) =>
    call("GET", `/api/practice/${encodeURIComponent(game)}?count=${count}&seed=${seed}${seats ? `&seats=${seats}` : ""}`),
  chat: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/chat`),
  verifyUrl: (id) => `/api/tables/${encodeURIComponent(id)}/verify`,
  verifyMine: (id, openings) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/verify`, { openings }),
};

/** Take a seat with a fresh entropy commitment, and keep its secret with the table. */
async function seated(request) {
  const entropy = await newEntropy();
  const answer = await request(entropy ? entropy.commit : null);
  keepEntropy(answer.table_id, entropy);
  return answer;
}

const SEAT_KEY = (tableId) => `dicehall.seat.${tableId}`;
const NAME_KEY = "dicehall.name";

/** Remember this browser's seat at a table: {seat, token, room}. */
export function saveSeat(tableId, seat) {
  try {
    localStorage.setItem(SEAT_KEY(tableId), JSON.stringify(seat));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

export function loadSeat(tableId) {
  try {
    const raw = localStorage.getItem(SEAT_KEY(tableId));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** Every seat this browser keeps: [{tableId, token}], for claiming (account.js). */
export function savedSeats() {
  const seats = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(SEAT_KEY(""))) continue;
      const seat = JSON.parse(localStorage.getItem(key));
      if (seat && seat.token) seats.push({ tableId: key.slice(SEAT_KEY("").length), token: seat.token });
    }
  } catch {
    /* nothing readable kept */
  }
  return seats;
}

export function forgetSeat(tableId) {
  try {
    localStorage.removeItem(SEAT_KEY(tableId));
  } catch {
    /* nothing kept */
  }
}

/** The nickname last typed in this browser, to fill forms. */
export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* not kept */
  }
}
