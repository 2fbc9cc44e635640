// Telling a burst of play at a pace people can follow.
//
// The server throws every die that is due at once, so one update can carry a whole
// Toplshteyner turn, or a Kariki pull and the fresh throw after it. When the table's bots
// keep a pace, the page tells such updates one event at a time; the board and the buttons
// move on when the story of their update has been told. Watching the same table with
// bots at "instant" shows everything at once, as it comes.

export class Story {
  /**
   * @param {object} hooks
   * @param {(event: object) => void} hooks.tell   show one event
   * @param {(msg: object) => void} hooks.settle   apply a message once its events are told
   * @param {(busy: boolean) => void} hooks.onBusy a story starts (true) or ends (false)
   */
  constructor({ tell, settle, onBusy }) {
    this.tell = tell;
    this.settle = settle;
    this.onBusy = onBusy;
    this.paceMs = 0;
    this.queue = []; // messages waiting, each with the index of its next event to tell
    this.timer = null;
  }

  get busy() {
    return this.queue.length > 0;
  }

  /** A message from the server: told at the pace, or at once when there is no story to tell. */
  push(msg) {
    const events = msg.events || [];
    if (!this.busy && (this.paceMs <= 0 || events.length <= 1)) {
      events.forEach((e) => this.tell(e));
      this.settle(msg);
      return;
    }
    this.queue.push({ msg, next: 0 });
    if (this.queue.length === 1) {
      this.onBusy(true);
      this.tick();
    }
  }

  tick() {
    const head = this.queue[0];
    if (!head) return;
    const events = head.msg.events || [];
    if (head.next < events.length) {
      this.tell(events[head.next]);
      head.next += 1;
    }
    if (head.next >= events.length) {
      this.queue.shift();
      this.settle(head.msg);
    }
    if (this.busy) {
      // a long backlog is told faster, so the page never falls far behind the table
      const pace = this.pending() > 12 ? this.paceMs / 4 : this.paceMs;
      this.timer = setTimeout(() => this.tick(), pace);
    } else {
      this.onBusy(false);
    }
  }

  /** Events still to tell. */
  pending() {
    return this.queue.reduce((n, item) => n + (item.msg.events || []).length - item.next, 0);
  }

  /** Tell the rest at once (the Skip button, a new welcome, leaving the table). */
  flush() {
    clearTimeout(this.timer);
    const waiting = this.queue;
    this.queue = [];
    for (const { msg, next } of waiting) {
      (msg.events || []).slice(next).forEach((e) => this.tell(e));
      this.settle(msg);
    }
    if (waiting.length) this.onBusy(false);
  }

  /** Forget what is waiting, untold (a welcome restates everything). */
  clear() {
    clearTimeout(this.timer);
    const was = this.busy;
    this.queue = [];
    if (was) this.onBusy(false);
  }
}
