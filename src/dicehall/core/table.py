"""A table: one game in progress with its dice and the record of its steps.

The state knows the rules; the table adds what a real table has: a source of
dice, the list of steps taken (the transcript), and seats played by bots.
Interfaces (CLI, server) drive games through a table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from dicehall.core.bots import Bot, BotFactory, reads_view
from dicehall.core.chance import DiceSource, Faces, RandomDice
from dicehall.core.game import Action, Game, Result, State, View
from dicehall.core.words import default_names

Step = dict[str, Any]
"""A transcript step: {"chance": faces}, {"seat", "action"} or {"seat", "timeout": true}."""

MAX_STEPS = 1_000_000
"""Steps after which `Table.play` and `play_trusted` give up on a game that does not end."""


class Table:
    """A game in progress: its state, the dice it draws from and the steps taken (all a
    transcript needs)."""

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
        self.names = names or default_names(game.seats)
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
        max_steps: int = MAX_STEPS,
    ) -> None:
        """Play to the end with the given bots (every seat must have one).

        A bot that reads no view (`reads_view`) is handed an empty dict, not its seat's view.
        """
        state = self.state
        steps = self.steps
        trusted = self.trusted
        blind = {seat for seat, bot in bots.items() if not reads_view(bot)}
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
                view = {} if seat in blind else state.view(seat)
                action = bots[seat].choose(view, state.legal_actions(seat))
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
    chosen = range(game.seats) if seats is None else seats
    factories = bot_factories(game, [names[i % len(names)] for i in range(len(chosen))])
    return {
        seat: make(game, seat, random.Random(rng.random()))
        for seat, make in zip(chosen, factories, strict=True)
    }


def bot_factories(game: Game, names: Sequence[str]) -> list[BotFactory]:
    """The game's bot factories of the given names, in order; an unknown name raises."""
    factories = game.bots()
    for name in names:
        if name not in factories:
            from dicehall.core.errors import OptionError

            raise OptionError(
                f"unknown bot {name!r} for {game.id}; its bots are: {', '.join(factories)}"
            )
    return [factories[name] for name in names]


Played = list[tuple[int | None, Any]]
"""The steps of a game in short: (None, faces) for a throw, (seat, action) for a decision."""


class Playout(NamedTuple):
    """A game played by `play_trusted`: its final state and how many steps it took."""

    state: State
    steps: int
    decisions: int
    """The seats' decisions: `steps` less the throws."""


def play_trusted(
    game: Game, dice: DiceSource, bots: Mapping[int, Bot], played: Played | None = None
) -> Playout:
    """One game of bots on the trusted fast path, unrecorded.

    Step for step the game `Table(trusted=True).play` plays, without the
    table's transcript rows: with `played`, each step is appended to it in
    short (`step_rows` makes the rows); without, only the steps are counted.
    For the project's own bots, which choose among the legal actions they are
    given, and the built-in dice sources, whose faces are valid by
    construction. A bot that reads no view (`reads_view`) is handed an empty
    dict.
    """
    state = game.new_state()
    choosers: list[Any] = [None] * game.seats
    blind = [False] * game.seats
    for seat, bot in bots.items():
        choosers[seat], blind[seat] = bot.choose, not reads_view(bot)
    is_chance, chance_dice, actors = state.is_chance, state.chance_dice, state.actors
    legal_actions, view = state.legal_actions, state.view
    apply, apply_chance = state.apply_trusted, state.apply_chance_trusted
    throw = dice.throw
    keep = played.append if played is not None else None
    nothing: View = {}  # what a bot that reads no view is handed, one dict for the game
    throws = decisions = 0
    for _ in range(MAX_STEPS):
        if is_chance():
            faces: Faces = throw(chance_dice())
            apply_chance(faces)
            throws += 1
            if keep is not None:
                keep((None, faces))
        else:
            seats = actors()
            if not seats:
                return Playout(state, throws + decisions, decisions)
            seat = seats[0]
            action = choosers[seat](nothing if blind[seat] else view(seat), legal_actions(seat))
            apply(seat, action)
            decisions += 1
            if keep is not None:
                keep((seat, action))
    raise RuntimeError(f"game did not end within {MAX_STEPS} steps")


def step_rows(played: Played) -> list[Step]:
    """Transcript steps of a game kept in short by `play_trusted`: what a table records."""
    return [
        {"chance": list(what)} if seat is None else {"seat": seat, "action": dict(what)}
        for seat, what in played
    ]


def play_game(game: Game, bots: Sequence[str], dice_seed: int, bot_seed: int) -> Result:
    """One unrecorded game of bots (by seat) on seeded dice: what duels and the ladder play.

    Trusted: the project's own bots choose among the legal actions they are
    given and the seeded dice throw valid faces, so the checks are skipped
    (the same game, step for step, as the checked path plays).
    """
    bot_map = make_bots(game, list(bots), random.Random(bot_seed))
    return play_trusted(game, RandomDice(dice_seed), bot_map).state.result()
