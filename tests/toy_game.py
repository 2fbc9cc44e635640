"""A tiny game for testing the core on its own: High Die.

Each seat throws one hidden die (a chance step each), then in seat order each
seat stands or rerolls once. Highest die takes one coin from every other seat;
tied highest share. It exercises hidden faces, chance steps, views, events and
conservation without depending on any real game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dicehall.core import D6, Game, Option, Result, State, View
from dicehall.core.chance import Faces, Throw

STAND = {"type": "stand"}
REROLL = {"type": "reroll"}
ONE_D6: Throw = (D6,)


class HighDie(Game):
    id = "highdie"
    name = "High Die"
    min_seats = 2
    max_seats = 4
    default_seats = 2
    declared_options = (
        Option("coins", 5, "coins each seat starts with", minimum=1, maximum=100),
        Option("mode", "high", "who wins", choices=("high", "low")),
    )

    def new_state(self, record: bool = False) -> HighDieState:
        return HighDieState(self, record)


class HighDieState(State):
    def __init__(self, game: HighDie, record: bool) -> None:
        self.game = game
        self.log = [] if record else None
        self.dice: list[int] = []
        self.turn = 0  # seat to decide, once all have thrown
        self.rerolling = False
        self.coins = [int(game.options["coins"])] * game.seats

    def actors(self) -> tuple[int, ...]:
        if len(self.dice) < self.game.seats or self.rerolling or self.turn >= self.game.seats:
            return ()
        return (self.turn,)

    def is_chance(self) -> bool:
        return len(self.dice) < self.game.seats or self.rerolling

    def chance_dice(self) -> Throw:
        return ONE_D6

    def legal_actions(self, seat: int) -> Sequence[Mapping[str, Any]]:
        return [STAND, REROLL] if self.actors() == (seat,) else []

    def _apply(self, seat: int, action: Mapping[str, Any]) -> None:
        if action["type"] == "reroll":
            self.rerolling = True
        else:
            self._next()

    def _apply_chance(self, faces: Faces) -> None:
        face = int(faces[0])
        if self.rerolling:
            self.dice[self.turn] = face
            self.rerolling = False
            self.emit("throw", f"you rerolled {face}", to=frozenset({self.turn}), face=face)
            self._next()
        else:
            seat = len(self.dice)
            self.dice.append(face)
            self.emit("throw", f"you threw {face}", to=frozenset({seat}), face=face)
            self.emit("thrown", f"seat {seat} threw", seat=seat)
        if self.is_over():
            self._settle()

    def _next(self) -> None:
        self.turn += 1
        if self.is_over():
            self._settle()

    def _winners(self) -> list[int]:
        best = max(self.dice) if self.game.options["mode"] == "high" else min(self.dice)
        return [s for s, d in enumerate(self.dice) if d == best]

    def _settle(self) -> None:
        winners = self._winners()
        if len(winners) < self.game.seats:
            for s in range(self.game.seats):
                if s not in winners:
                    self.coins[s] -= len(winners)
            for w in winners:
                self.coins[w] += self.game.seats - len(winners)
        self.emit("showdown", f"dice {self.dice}", dice=list(self.dice))

    def view(self, seat: int | None) -> View:
        over = self.is_over()
        return {
            "game": self.game.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": over,
            "dice": [d if over or s == seat else None for s, d in enumerate(self.dice)],
            "coins": list(self.coins),
            **({"result": self.result().to_json()} if over else {}),
        }

    def result(self) -> Result:
        start = int(self.game.options["coins"])
        return Result(tuple(self._winners()), tuple(c - start for c in self.coins), "coins")

    def clone(self) -> HighDieState:
        new = HighDieState.__new__(HighDieState)
        new.__dict__.update(self.__dict__)
        new.log = None
        new.dice = list(self.dice)
        new.coins = list(self.coins)
        return new

    def resample_hidden(self, seat: int | None, rng: random.Random) -> HighDieState:
        new = self.clone()
        if not self.is_over():
            new.dice = [d if s == seat else rng.randint(1, 6) for s, d in enumerate(self.dice)]
        return new

    def conserved(self) -> Mapping[str, int]:
        return {"coins": sum(self.coins)}
