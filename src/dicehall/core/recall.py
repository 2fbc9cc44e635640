"""Information states: what each seat has seen of one game, in order (perfect recall).

A state knows the present, not the past, so a `Recall` follows a game step
by step and keeps, for every seat, its record: the seat's view each time it
changed, and the seat's own actions. Two histories a seat cannot tell apart
at a real table give the seat the same record, and a record only grows, so
it has perfect recall; it holds nothing but that seat's views (C6).

- `information_state_string(seat)`: the record as text, one entry per line:
  `obs <the view as canonical JSON>` or `act <action id>`. Complete for
  every game, however long.
- `information_state_tensor(seat)`: the last `window` entries, newest
  first, each the observation tensor of the view followed by a one-hot of
  the seat's action (all zero for a view entry), zero-padded. With a window
  of at least `max_game_length + 1` entries (the default where the game's
  length is bounded and the tensor stays below 50,000 numbers) it holds the
  whole record; for games without a bound it is a window of the last 16
  entries, and the string is the complete information state.
"""

from __future__ import annotations

import json
from typing import Any

from dicehall.core.chance import Faces
from dicehall.core.game import Action, Game, State, View

WINDOW_UNBOUNDED = 16
TENSOR_LIMIT = 50_000


def default_window(game: Game) -> int:
    """Entries kept by the tensor: the whole record where the game's length allows."""
    entry = game.encoding.layout.size + game.num_actions
    bound = game.max_game_length
    if bound is not None and (bound + 1) * entry <= TENSOR_LIMIT:
        return bound + 1
    return WINDOW_UNBOUNDED


class Entry:
    """One entry of a record: a view the seat saw, or an action id it played.

    Its text is made when first asked for: solvers walk many positions whose
    records they never print.
    """

    __slots__ = ("_text", "action", "view")

    def __init__(self, view: View | None = None, action: int = -1) -> None:
        self.view = view
        self.action = action
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            if self.view is None:
                self._text = f"act {self.action}"
            else:
                self._text = "obs " + json.dumps(self.view, sort_keys=True, separators=(",", ":"))
        return self._text


class Recall:
    """A state with each seat's perfect-recall record; steps go through it."""

    def __init__(self, game: Game, state: State | None = None, window: int | None = None) -> None:
        self.game = game
        self.state = state if state is not None else game.new_state()
        self.window = default_window(game) if window is None else window
        self.records: list[list[Entry]] = [[] for _ in range(game.seats)]
        self._last: list[View | None] = [None for _ in range(game.seats)]
        self._observe()

    def apply(self, seat: int, action: Action | int) -> Action:
        """Apply a seat's action (a dict or an id) and record it; returns the action applied."""
        applied = self.state.apply(seat, action)
        self.records[int(seat)].append(Entry(action=self.game.action_id(applied)))
        self._observe()
        return applied

    def apply_chance(self, faces: Faces) -> None:
        self.state.apply_chance(faces)
        self._observe()

    def _observe(self) -> None:
        for seat in range(self.game.seats):
            view = self.state.view(seat)
            if view != self._last[seat]:
                self._last[seat] = view
                self.records[seat].append(Entry(view))

    def information_state_string(self, seat: int) -> str:
        return "\n".join([entry.text for entry in self.records[seat]])

    def information_state_shape(self) -> tuple[int, ...]:
        return (self.window * (self.game.encoding.layout.size + self.game.num_actions),)

    def information_state_tensor(self, seat: int) -> list[float]:
        size, actions = self.game.encoding.layout.size, self.game.num_actions
        encode = self.game.encoding.encode
        out: list[float] = []
        for entry in reversed(self.records[seat][-self.window :]):
            if entry.view is not None:
                out += encode(entry.view)
                out += [0.0] * actions
            else:
                action = [0.0] * actions
                action[entry.action] = 1.0
                out += [0.0] * size
                out += action
        out += [0.0] * (self.window * (size + actions) - len(out))
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        return self.clone()

    def clone(self) -> Recall:
        new = Recall.__new__(Recall)
        new.game = self.game
        new.state = self.state.clone()
        new.window = self.window
        new.records = [list(r) for r in self.records]
        new._last = list(self._last)
        return new
