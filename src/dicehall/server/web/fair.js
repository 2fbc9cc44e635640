// Fair dice in the page: this seat's entropy for the dice, the openings it receives, and the
// fair-dice panel that says in words what was checked (docs/reference/fair-dice.md).
//
// Sealed tables: before the game the page commits to a hash chain of a random secret
// (SHA-256 applied CHAIN times); at each entropy round it sends the chain's value for that
// batch. Every opening the server sends is kept in localStorage, checked against the
// committed root at once (the Merkle path of RFC 6962 hashing), and offered as a file for
// `dicehall verify FILE --openings MINE.json`.

const CHAIN = 16;
const ENTROPY_KEY = (tableId) => `dicehall.entropy.${tableId}`;
const OPENINGS_KEY = (tableId) => `dicehall.openings.${tableId}`;

/** What each mode shows, for the lobby and the panel. */
export const MODES = {
  sealed: "Sealed dice (default): each throw is proved to whoever the rules show it to; dice the rules never show stay secret, even after the game.",
  seed: "Revealed seed: after the game the seed is published, so anyone can recompute every throw — hidden ones too (unpulled claims, folded hands).",
};

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => Uint8Array.from(text.match(/../g) || [], (b) => parseInt(b, 16));
const canHash = () => typeof crypto !== "undefined" && crypto.subtle && crypto.getRandomValues;

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

async function hashTimes(bytes, times) {
  let out = bytes;
  for (let i = 0; i < times; i++) out = await sha256(out);
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A new secret for a table about to be made or joined: {secret, commit} in hex, or null
 * where the browser cannot hash (a page served over plain http to another machine). */
export async function newEntropy() {
  if (!canHash()) return null;
  const secret = crypto.getRandomValues(new Uint8Array(32));
  return { secret: hex(secret), commit: hex(await hashTimes(secret, CHAIN)) };
}

/** Keep this seat's secret with the table it was committed for. */
export function keepEntropy(tableId, entropy) {
  if (!entropy) return;
  try {
    // asking again for the same rematch commits nothing new: the first secret stays
    if (!localStorage.getItem(ENTROPY_KEY(tableId))) localStorage.setItem(ENTROPY_KEY(tableId), entropy.secret);
  } catch {
    /* not kept: the seat simply adds no entropy */
  }
}

function loadJson(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

/** Whether an opening hashes up to `root` (hex): the leaf, then its siblings. */
async function opens(opening, root) {
  let node = await sha256(concat(Uint8Array.of(0), bigEndian(opening.throw), unhex(opening.secret)));
  let i = opening.throw % 256;
  for (const sibling of opening.path) {
    const s = unhex(sibling);
    node = await sha256(i & 1 ? concat(Uint8Array.of(1), s, node) : concat(Uint8Array.of(1), node, s));
    i >>= 1;
  }
  return hex(node) === root;
}

function bigEndian(k) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(k));
  return out;
}

/** One table's fair dice as this page sees them. */
export class FairDice {
  constructor(tableId, send) {
    this.tableId = tableId;
    this.send = send;
    this.openings = loadJson(OPENINGS_KEY(tableId), {}); // throw -> opening
    this.roots = {}; // batch -> root (hex), batch 0 from the table's commitment
    this.checked = new Set(); // throws whose opening hashed up to its root here
    this.failed = new Set();
    this.report = null;
    this.onChange = () => {};
  }

  /** Every message of the table: openings and entropy rounds are taken from it. */
  receive(msg, seat) {
    for (const opening of msg.openings || []) this.openings[opening.throw] = opening;
    if (msg.openings && msg.openings.length) {
      if (this.asked) {
        // openings found after the end: check again with them
        this.asked = false;
        this.report = null;
      }
      try {
        localStorage.setItem(OPENINGS_KEY(this.tableId), JSON.stringify(this.openings));
      } catch {
        /* kept for this page only */
      }
      this.check();
    }
    const round = msg.type === "entropy" ? msg : msg.type === "welcome" ? msg.entropy : null;
    if (round) {
      this.roots[round.batch] = round.root;
      if (seat !== null && seat !== undefined) this.reveal(round.batch);
    }
  }

  setCommitment(commitment) {
    if (commitment && !this.roots[0]) {
      this.roots[0] = commitment;
      this.check();
    }
  }

  async reveal(batch) {
    let secret = null;
    try {
      secret = localStorage.getItem(ENTROPY_KEY(this.tableId));
    } catch {
      /* no secret kept: this seat adds no entropy */
    }
    if (!secret || !canHash() || batch >= CHAIN) return;
    const value = hex(await hashTimes(unhex(secret), CHAIN - 1 - batch));
    this.send({ type: "reveal", batch, value });
  }

  async check() {
    if (!canHash()) return;
    for (const opening of Object.values(this.openings)) {
      const root = this.roots[Math.floor(opening.throw / 256)];
      if (!root || this.checked.has(opening.throw) || this.failed.has(opening.throw)) continue;
      ((await opens(opening, root)) ? this.checked : this.failed).add(opening.throw);
    }
    this.onChange();
  }

  /** The file `dicehall verify FILE --openings MINE.json` reads. */
  mine(seat) {
    const openings = Object.values(this.openings).sort((a, b) => a.throw - b.throw);
    return { table_id: this.tableId, seat, openings };
  }
}

/** The fair-dice panel in plain words: while the game runs, what the page has proved so far;
 * at the end the verify report's verdict, seats by their names. The commitment, the
 * openings and the report's three parts (what was promised before the game, what was
 * checked now, what stays secret and why) sit behind "How it works". */
export function drawFairPanel(el, fair, { h, mount, api, summary, over, seat }) {
  const mode = (over && over.fairness) || (summary && summary.fairness) || "sealed";
  const commitment = (over && over.commitment) || (summary && summary.commitment);
  fair.setCommitment(mode === "sealed" ? commitment : null);
  const done = Boolean(over);
  if (done && !fair.report && !fair.asked) {
    fair.asked = true;
    const mine = seat === null || seat === undefined ? null : fair.mine(seat).openings;
    const ask = mine ? api.verifyMine(fair.tableId, mine) : fetch(api.verifyUrl(fair.tableId)).then((r) => r.json());
    ask.then((report) => { fair.report = report; fair.onChange(); })
      .catch((e) => { fair.report = { ok: false, words: `the check could not be made: ${e.message}` }; fair.onChange(); });
  }
  const report = fair.report;
  const received = Object.keys(fair.openings).length;
  const headline = report
    ? h("p", { class: report.ok ? "fair-words ok" : "fair-words error" },
      report.ok ? `${sentence(report.words)}.` : `Not verified: ${report.words || report.error}.`)
    : done ? h("p", { class: "fair-words muted" }, "Checking the dice…")
      : h("p", { class: "fair-words" }, mode === "seed" ? PLAIN.seed : PLAIN.sealed,
        mode === "sealed" && fair.failed.size ? h("strong", { class: "error" }, ` ${fair.failed.size} of the throws shown to you do not check!`)
          : mode === "sealed" && fair.checked.size ? ` Your page has checked the ${fair.checked.size} throws shown to you so far.` : "");
  const explained = report && report.ok && report.explained;
  const parts = explained
    ? [["Promised before the game", explained.promised], ["Checked now", explained.checked], ["Still secret, and why", explained.secret]]
      .flatMap(([head, text]) => [h("h4", {}, head), h("p", {}, text)])
    : [h("p", {}, MODES[mode] || MODES.sealed)];
  const facts = mode === "seed"
    ? [h("dt", {}, "Commitment"), h("dd", { class: "hash" }, commitment || "—"),
      h("dt", {}, "Seed"), h("dd", { class: "hash" }, (over && over.seed) || "revealed when the game ends")]
    : [h("dt", {}, "Commitment"), h("dd", { class: "hash" }, commitment || "—"),
      h("dt", {}, "Openings received"), h("dd", { class: "openings" }, received ? `${received}: ${fair.failed.size
        ? `${fair.checked.size} hash up to the committed root; ${fair.failed.size} do not`
        : `${fair.checked.size} of them hash up to the committed root`}` : "none yet")];
  const how = h("details", { class: "fair-how" }, h("summary", {}, "How it works"), ...parts,
    h("dl", { class: "kv" }, ...facts),
    mode === "sealed" ? h("p", { class: "muted" }, "Your page keeps every opening it receives: dicehall verify FILE --openings MINE.json proves your hidden throws from them.") : null);
  const links = done
    ? h("p", { class: "row" },
      h("a", { href: api.transcriptUrl(fair.tableId), download: `dicehall-${fair.tableId}.json` }, "Download the transcript"),
      mode === "sealed" && seat !== null && seat !== undefined
        ? h("a", { href: mineUrl(fair, seat), download: `dicehall-${fair.tableId}-openings.json` }, "Download your openings")
        : null,
      h("a", { href: api.verifyUrl(fair.tableId), target: "_blank", rel: "noopener" }, "The verify report"))
    : null;
  const wasOpen = el.querySelector(".fair-how") && el.querySelector(".fair-how").open;
  if (wasOpen) how.open = true;
  mount(el, h("summary", {}, "Fair dice"), headline, how, links);
}

/** The panel's words while a game runs, by mode. */
const PLAIN = {
  sealed: "The dice were fixed before the game and cannot be changed now: every throw shown to you is proved to you, and dice nobody is shown stay secret, even afterwards.",
  seed: "The dice come from a secret seed fixed before the game: when the game ends the seed is revealed, and anyone can recompute every throw.",
};

const sentence = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

function mineUrl(fair, seat) {
  const blob = new Blob([JSON.stringify(fair.mine(seat), null, 1)], { type: "application/json" });
  if (fair.mineUrl) URL.revokeObjectURL(fair.mineUrl);
  fair.mineUrl = URL.createObjectURL(blob);
  return fair.mineUrl;
}
