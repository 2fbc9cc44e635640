"""C6 for a bot: play a seeded game and, at every decision, redraw what the deciding seat
may not see, so that a test can ask the bot about both states."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dicehall.core import Action, RandomDice, State, Table, make_bots
from dicehall.core.bots import Bot
from dicehall.games import make_game

Check = Callable[[int, State, State, Sequence[Action], list[Bot]], None]


def each_decision_redrawn(
    game_id: str, seats: int, lineup: list[str], seed: int, check: Check
) -> None:
    """`check(seat, state, other, legal, bots)` at every decision, `other` being `state`
    with every die the seat may not see thrown again (its view checked the same here);
    the game must end."""
    game = make_game(game_id, seats)
    table = Table(game, RandomDice(seed), record=False)
    bots = make_bots(game, lineup, random.Random(seed))
    rng = random.Random(seed + 1)

    def on_step(t: Table) -> None:
        state = t.state
        for seat in state.actors():
            legal = state.legal_actions(seat)
            other = state.resample_hidden(seat, rng)
            assert other.view(seat) == state.view(seat)
            check(seat, state, other, legal, bots)

    table.play(bots, on_step=on_step)
    assert table.state.is_over()
