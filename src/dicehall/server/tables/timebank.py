"""Each player's time bank: a little extra time for the whole game, spent only when a
turn's own time has run out, so a slow moment does not cost a timeout (Kariki: a slash,
K8) at once. Times are plain numbers from the table's clock, which tests replace."""

from __future__ import annotations


class TimeBanks:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.left: dict[int, float] = {}
        self.drawing: dict[int, float] = {}  # seat -> when it began to spend its bank

    def remaining(self, seat: int) -> float:
        return self.left.get(seat, self.seconds)

    def draw(self, seat: int, now: float) -> float:
        """The seat's turn time ran out: how long its bank lets it go on (0: no time left)."""
        extra = self.remaining(seat)
        if extra > 0:
            self.drawing[seat] = now
        return extra

    def stop(self, seat: int, now: float) -> None:
        """The seat moved, or its time is up: what it spent of the bank is gone."""
        started = self.drawing.pop(seat, None)
        if started is not None:
            self.left[seat] = max(0.0, self.remaining(seat) - (now - started))

    def to_json(self) -> dict[str, float]:
        return {str(s): round(v, 1) for s, v in sorted(self.left.items())}
