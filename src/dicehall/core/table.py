"""A table: one game in progress with its dice and the record of its steps.

The state knows the rules; the table adds what a real table has: a source of
dice, the list of steps taken (the transcript), and seats played by bots.
Interfaces (CLI, server) drive games through a table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dicehall.core.bots import Bot
from dicehall.core.chance import DiceSource, RandomDice
from dicehall.core.game import Action, Game, Result, State

Step = dict[str, Any]
"""A transcript step: {"chance": faces}, {"seat", "action"} or {"seat", "timeout": true}."""


class Table:
    def __init__(
        self,
        game: Game,
        dice: DiceSource | None = None,
        names: list[str] | None = None,
        record: bool = True,
        trusted: bool = False,
    ) -> None:
        """With `trusted`, `play` applies its bots' choices and its dice's throws unchecked.

        That is for simulations of the project's own bots, which choose among
        the legal actions they are given, with the built-in dice sources, whose
        faces are valid by construction (the state's trusted fast path).
        """
        self.game = game
        self.trusted = trusted
        self.dice: DiceSource = dice if dice is not None else RandomDice()
        self.names = names or [f"Seat {i}" for i in range(game.seats)]
        self.state: State = game.new_state(record=record)
        self.steps: list[Step] = []

    def roll(self) -> None:
        """Throw the dice that are due."""
        faces = self.dice.throw(self.state.chance_dice())
        self.state.apply_chance(faces)
        self.steps.append({"chance": list(faces)})

    def settle(self) -> None:
        """Throw until a seat must act or the game is over."""
        while self.state.is_chance():
            self.roll()

    def act(self, seat: int, action: Action) -> None:
        """Apply a seat's action (raises IllegalActionError, changing nothing)."""
        applied = self.state.apply(seat, action)
        self.steps.append({"seat": seat, "action": dict(applied)})

    def timeout(self, seat: int) -> None:
        self.state.timeout(seat)
        self.steps.append({"seat": seat, "timeout": True})

    def play(
        self,
        bots: Mapping[int, Bot],
        on_step: Callable[[Table], None] | None = None,
        max_steps: int = 1_000_000,
    ) -> None:
        """Play to the end with the given bots (every seat must have one)."""
        state = self.state
        steps = self.steps
        trusted = self.trusted
        for _ in range(max_steps):
            if state.is_chance():
                if trusted:
                    faces = self.dice.throw(state.chance_dice())
                    state.apply_chance_trusted(faces)
                    steps.append({"chance": list(faces)})
                else:
                    self.roll()
            else:
                actors = state.actors()
                if not actors:
                    return
                seat = actors[0]
                action = bots[seat].choose(state.view(seat), state.legal_actions(seat))
                if trusted:
                    state.apply_trusted(seat, action)
                    steps.append({"seat": seat, "action": dict(action)})
                else:
                    self.act(seat, action)
            if on_step is not None:
                on_step(self)
        raise RuntimeError(f"game did not end within {max_steps} steps")

    def transcript(self) -> dict[str, Any]:
        from dicehall.core.transcript import make_transcript

        return make_transcript(self.game, self.steps, self.names, self.state)


def make_bots(
    game: Game, names: list[str], rng: random.Random, seats: list[int] | None = None
) -> dict[int, Bot]:
    """Bots for the given seats (default: all), by bot name, cycling through `names`."""
    factories = game.bots()
    chosen = range(game.seats) if seats is None else seats
    bots: dict[int, Bot] = {}
    for i, seat in enumerate(chosen):
        name = names[i % len(names)]
        if name not in factories:
            from dicehall.core.errors import OptionError

            raise OptionError(
                f"unknown bot {name!r} for {game.id}; its bots are: {', '.join(factories)}"
            )
        bots[seat] = factories[name](game, seat, random.Random(rng.random()))
    return bots


def play_game(game: Game, bots: Sequence[str], dice_seed: int, bot_seed: int) -> Result:
    """One unrecorded game of bots (by seat) on seeded dice: what duels and the ladder play.

    Trusted: the project's own bots choose among the legal actions they are
    given and the seeded dice throw valid faces, so the checks are skipped
    (the same game, step for step, as the checked path plays).
    """
    table = Table(game, RandomDice(dice_seed), record=False, trusted=True)
    table.play(make_bots(game, list(bots), random.Random(bot_seed)))
    return table.state.result()
