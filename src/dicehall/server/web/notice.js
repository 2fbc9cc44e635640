// The notice line under the top bar: connection news and copied links.

let timer = null;

/** Show `text`; kind "warn" stays until replaced, others fade after a few seconds. */
export function notify(text, kind = "info") {
  const el = document.getElementById("notice");
  clearTimeout(timer);
  el.textContent = text;
  el.className = `notice notice-${kind}`;
  el.hidden = false;
  if (kind !== "warn") timer = setTimeout(() => (el.hidden = true), 4000);
}

export function clearNotice() {
  clearTimeout(timer);
  document.getElementById("notice").hidden = true;
}
