"""One log line per refused database write, and a count for repeats.

A full disk or a locked database refuses every write at once, and a traceback for each
(forty lines, the same every time) buried the log: 126 of them in five seconds. So a
refused write is one line naming the cause; the same cause again within
REPEAT_SECONDS is only counted, and the count is logged with the next line for it.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("dicehall.server")

REPEAT_SECONDS = 10.0


class WriteFailures:
    """The log of refused writes (from the writer thread and the event loop alike)."""

    def __init__(self, repeat_seconds: float = REPEAT_SECONDS) -> None:
        self.repeat_seconds = repeat_seconds
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}  # cause -> when it was last logged
        self._held: dict[str, int] = {}  # cause -> repeats since

    def failed(self, e: BaseException) -> None:
        cause = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        now = time.monotonic()
        with self._lock:
            last = self._last.get(cause)
            if last is not None and now - last < self.repeat_seconds:
                self._held[cause] = self._held.get(cause, 0) + 1
                return
            repeats = self._held.pop(cause, 0)
            self._last[cause] = now
        if repeats:
            log.warning(
                "a database write failed: %s (and %d more like it since the last line)",
                cause,
                repeats,
            )
        else:
            log.warning("a database write failed: %s", cause)
