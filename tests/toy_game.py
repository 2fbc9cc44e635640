"""Two tiny games for testing the core and the server without any real game.

High Die: each seat throws one hidden die (a chance step each), then in seat
order each seat stands or rerolls once. Highest die takes one coin from every
other seat; tied highest share.

Secret Duel: each round every seat throws one hidden die (one chance step for
all), then all seats choose at once to stay or fold (C3: choices stay hidden
until all are in). The dice and choices are then shown; among those who
stayed, the highest die wins the round and every other seat pays the
lowest-numbered winner one coin. It adds what the server must handle: a
simultaneous choice and a safe default (fold).
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
        new = self.shallow_copy()
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


FOLD = {"type": "fold"}
STAY = {"type": "stay"}
CHOICES = [FOLD, STAY]


class Duel(Game):
    id = "duel"
    name = "Secret Duel"
    min_seats = 2
    max_seats = 3
    default_seats = 2
    declared_options = (Option("rounds", 2, "rounds to play", minimum=1, maximum=9),)
    summary = "Throw a hidden die, stay or fold at once, highest stayer wins."
    rules = "Each round: a hidden die each, then stay or fold simultaneously (C3)."

    def new_state(self, record: bool = False) -> DuelState:
        return DuelState(self, record)


class DuelState(State):
    def __init__(self, game: Duel, record: bool) -> None:
        self.game = game
        self.log = [] if record else None
        self.rounds = int(game.options["rounds"])
        self.round = 0
        self.dice: list[int] = []  # this round's faces, empty before the throw
        self.choices: list[str | None] = [None] * game.seats
        self.coins = [10] * game.seats
        self.last: dict[str, Any] | None = None

    def actors(self) -> tuple[int, ...]:
        if self.round >= self.rounds or not self.dice:
            return ()
        return tuple(s for s, c in enumerate(self.choices) if c is None)

    def is_chance(self) -> bool:
        return self.round < self.rounds and not self.dice

    def chance_dice(self) -> Throw:
        return (D6,) * self.game.seats

    def legal_actions(self, seat: int) -> Sequence[Mapping[str, Any]]:
        return CHOICES if seat in self.actors() else []

    def _apply(self, seat: int, action: Mapping[str, Any]) -> None:
        self.choices[seat] = action["type"]
        self.emit("committed", f"seat {seat} has chosen", seat=seat)
        if None not in self.choices:
            self._settle()

    def _apply_chance(self, faces: Faces) -> None:
        self.dice = [int(f) for f in faces]
        for seat, face in enumerate(self.dice):
            self.emit("throw", f"you threw {face}", to=frozenset({seat}), face=face)
        self.emit("thrown", "everyone threw")

    def _settle(self) -> None:
        stayers = [s for s, c in enumerate(self.choices) if c == "stay"]
        winner = None
        if stayers:
            best = max(self.dice[s] for s in stayers)
            winner = min(s for s in stayers if self.dice[s] == best)
            for s in range(self.game.seats):
                if s != winner:
                    self.coins[s] -= 1
                    self.coins[winner] += 1
        self.last = {"dice": list(self.dice), "choices": list(self.choices), "winner": winner}
        self.emit("reveal", f"dice {self.dice}, choices {self.choices}", **self.last)
        self.round += 1
        self.dice = []
        self.choices = [None] * self.game.seats

    def view(self, seat: int | None) -> View:
        over = self.is_over()
        return {
            "game": self.game.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": over,
            "round": self.round,
            "my_die": self.dice[seat] if seat is not None and self.dice else None,
            "my_choice": self.choices[seat] if seat is not None else None,
            "chosen": [c is not None for c in self.choices],
            "coins": list(self.coins),
            "last_round": self.last,
            **({"result": self.result().to_json()} if over else {}),
        }

    def result(self) -> Result:
        best = max(self.coins)
        winners = tuple(s for s, c in enumerate(self.coins) if c == best)
        return Result(winners, tuple(c - 10 for c in self.coins), "coins")

    def clone(self) -> DuelState:
        new = self.shallow_copy()
        new.log = None
        new.dice = list(self.dice)
        new.choices = list(self.choices)
        new.coins = list(self.coins)
        return new

    def resample_hidden(self, seat: int | None, rng: random.Random) -> DuelState:
        new = self.clone()
        if new.dice:
            new.dice = [d if s == seat else rng.randint(1, 6) for s, d in enumerate(self.dice)]
            new.choices = [
                c if s == seat or c is None else rng.choice(("fold", "stay"))
                for s, c in enumerate(self.choices)
            ]
        return new

    def conserved(self) -> Mapping[str, int]:
        return {"coins": sum(self.coins)}


GAMES = {"duel": Duel}
