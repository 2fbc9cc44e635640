"""The bot protocol and the random bot every game has.

A bot sees exactly what a player at its seat sees: that seat's view and its
legal actions. It never touches the state, so it cannot peek.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from dicehall.core.game import Action, Game, View


class Bot(Protocol):
    """A player that sees only its seat's view and legal actions, so it can hold no secret (C6)."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...


# A bot that never reads its view says so with a class attribute `reads_view = False`
# (`reads_view(bot)`): tables and environments then hand it an empty dict instead of
# building the seat's view, which costs more than the rest of a step.


def reads_view(bot: object) -> bool:
    """Whether `bot` reads the view it is given: true unless it says `reads_view = False`."""
    return bool(getattr(bot, "reads_view", True))


# A bot may also say how likely each legal action is, with a method
# `policy(view, legal) -> list[float]` (in the order of `legal`); the strategy
# engine measures the exploitability of that policy, not of one sampled choice.


BotFactory = Callable[["Game", int, random.Random], Bot]
"""Makes a bot for (game, seat, random source)."""


T = TypeVar("T")


def draw(rng: random.Random, options: Sequence[T], chances: Sequence[float]) -> T:
    """One of `options` drawn with its chance, by one uniform number. Chances that sum to
    a hair under 1 (rounding) fall to the likeliest option rather than past the end."""
    r = rng.random()
    for option, chance in zip(options, chances, strict=True):
        r -= chance
        if r < 0:
            return option
    return options[max(range(len(options)), key=chances.__getitem__)]


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every bot must beat."""

    reads_view = False

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._random = rng.random

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[int(self._random() * len(legal))]

    def policy(self, view: View, legal: Sequence[Action]) -> list[float]:
        return [1 / len(legal)] * len(legal)
