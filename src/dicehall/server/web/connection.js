// One WebSocket to a table that comes back by itself: after a dropped connection it
// reconnects with growing pauses (0.5 s, 1 s, 2 s … up to 8 s) and says so through
// onStatus("reconnecting" | "reconnected" | "open"), so the page can show a notice.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat token, or null to watch
   * @param {{onMessage: (msg: object) => void, onStatus: (status: string) => void}} handlers
   */
  constructor(tableId, token, { onMessage, onStatus }) {
    this.url = socketUrl(tableId, token);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.dropped = false; // true after a loss, until the next welcome
    this.closed = false; // true once the page is done with this table
    this.retryTimer = null;
    this.open();
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      if (!this.dropped) this.onStatus("open");
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "error") this.lastError = msg.message;
      if (msg.type === "welcome" && this.dropped) {
        this.dropped = false;
        this.onStatus("reconnected");
      }
      this.onMessage(msg);
    });
    socket.addEventListener("close", (event) => {
      if (this.closed || socket !== this.socket) return;
      if (event.code === 4404 || event.code === 4403) {
        this.onStatus(`refused:${event.code}:${this.lastError || event.reason || "the server refused this connection"}`);
        return;
      }
      this.dropped = true;
      this.onStatus("reconnecting");
      const pause = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.open(), pause);
    });
  }

  /** Send a message; false if the socket is not open (the page says so). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Drop the current socket as a network failure would: the connection comes back by itself. */
  drop() {
    if (this.socket) this.socket.close(4000, "dropped");
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close(1000, "leaving");
  }
}

function socketUrl(tableId, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
}
