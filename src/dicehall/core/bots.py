"""The bot protocol and the random bot every game has.

A bot sees exactly what a player at its seat sees: that seat's view and its
legal actions. It never touches the state, so it cannot peek.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dicehall.core.game import Action, Game, View


class Bot(Protocol):
    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...


# A bot may also say how likely each legal action is, with a method
# `policy(view, legal) -> list[float]` (in the order of `legal`); the strategy
# engine measures the exploitability of that policy, not of one sampled choice.


BotFactory = Callable[["Game", int, random.Random], Bot]
"""Makes a bot for (game, seat, random source)."""


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every bot must beat."""

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]

    def policy(self, view: View, legal: Sequence[Action]) -> list[float]:
        return [1 / len(legal)] * len(legal)
