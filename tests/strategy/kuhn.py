"""Kuhn poker as a dicehall game: the smallest poker with a known equilibrium.

Three cards (1 < 2 < 3); each seat antes one chip and is dealt one card, the
deal being one throw of a three-sided die (seat 0's card) and a two-sided die
(which of the two other cards seat 1 gets). Seat 0 checks or bets one chip;
after a check seat 1 checks (showdown for the antes) or bets; after a bet
the other seat folds or calls (showdown for two chips each). The game's value
for seat 0 is -1/18 (Kuhn, 1950).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dicehall.core import Game, Result, State, View
from dicehall.core.chance import Faces, Throw

CHECK = {"type": "check"}
BET = {"type": "bet"}
FOLD = {"type": "fold"}
CALL = {"type": "call"}
DEAL: Throw = ((1, 2, 3), (1, 2))


class Kuhn(Game):
    id = "kuhn"
    name = "Kuhn poker"
    min_seats = 2
    max_seats = 2
    default_seats = 2

    def new_state(self, record: bool = False) -> KuhnState:
        return KuhnState(self, record)


class KuhnState(State):
    def __init__(self, game: Kuhn, record: bool) -> None:
        self.game = game
        self.log = [] if record else None
        self.cards: list[int] = []
        self.history: list[str] = []

    def actors(self) -> tuple[int, ...]:
        if not self.cards or self._payoff() is not None:
            return ()
        return (len(self.history) % 2,)

    def is_chance(self) -> bool:
        return not self.cards

    def chance_dice(self) -> Throw:
        return DEAL

    def legal_actions(self, seat: int) -> Sequence[Mapping[str, Any]]:
        if self.actors() != (seat,):
            return []
        return [FOLD, CALL] if "bet" in self.history else [CHECK, BET]

    def _apply(self, seat: int, action: Mapping[str, Any]) -> None:
        self.history.append(str(action["type"]))

    def _apply_chance(self, faces: Faces) -> None:
        first = int(faces[0])
        rest = [c for c in (1, 2, 3) if c != first]
        self.cards = [first, rest[int(faces[1]) - 1]]

    def _payoff(self) -> int | None:
        """Seat 0's winnings once the betting is over, else None."""
        h = self.history
        if h in (["check", "check"], ["bet", "call"], ["check", "bet", "call"]):
            stake = 1 if h == ["check", "check"] else 2
            return stake if self.cards[0] > self.cards[1] else -stake
        if h == ["bet", "fold"]:
            return 1
        if h == ["check", "bet", "fold"]:
            return -1
        return None

    def view(self, seat: int | None) -> View:
        return {
            "game": "kuhn",
            "seat": seat,
            "actors": list(self.actors()),
            "over": self.is_over(),
            "card": self.cards[seat] if self.cards and seat is not None else None,
            "history": list(self.history),
        }

    def result(self) -> Result:
        win = self._payoff() or 0
        return Result((0,) if win > 0 else (1,), (win, -win), "chips")

    def clone(self) -> KuhnState:
        new = KuhnState.__new__(KuhnState)
        new.game, new.log = self.game, None
        new.cards, new.history = list(self.cards), list(self.history)
        return new

    def resample_hidden(self, seat: int | None, rng: random.Random) -> KuhnState:
        new = self.clone()
        if self.cards:
            others = [c for c in (1, 2, 3) if seat is None or c != self.cards[seat]]
            rng.shuffle(others)
            new.cards = [self.cards[s] if s == seat else others.pop() for s in (0, 1)]
        return new

    def conserved(self) -> Mapping[str, int]:
        return {"chips": 0}
