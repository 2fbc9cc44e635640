// Small helpers for building the page: elements from plain data, never from HTML strings,
// so a nickname or a server message is always shown as text and never run as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element: h("button", {class: "primary", onclick: go}, "Play"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, with the same call shape as h(). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace everything inside `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The name of a seat for people: its nickname, or "Seat n" (seats count from 1 on screen). */
export function seatName(names, seat) {
  if (seat === null || seat === undefined) return "—";
  return (names && names[seat]) || `Seat ${seat + 1}`;
}

/** A probability cell of an odds table: {fraction, value} → "7/36 · 19.4%". */
export function cellText(cell) {
  if (cell && typeof cell === "object" && "fraction" in cell) {
    return `${cell.fraction} · ${(cell.value * 100).toFixed(1)}%`;
  }
  if (cell && typeof cell === "object" && "value" in cell) return `${(cell.value * 100).toFixed(1)}%`;
  if (cell && typeof cell === "object") return JSON.stringify(cell);
  return String(cell);
}

/** A value of a view for the generic panel: short and readable. */
export function valueText(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null)) {
    return value.map(valueText).join(", ");
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Words from a key: "pass_chain" → "pass chain". */
export function words(key) {
  return String(key).replaceAll("_", " ");
}

/** A table's status in words. */
export function statusText(status) {
  return { waiting: "waiting for players", playing: "in play", over: "finished", closed: "closed" }[status] || status || "";
}
