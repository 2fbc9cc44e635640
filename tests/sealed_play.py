"""A sealed game played without a server, for the tests of sealed dice and `verify`."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from dicehall.core.commitments import chain_commit, chain_value
from dicehall.core.transcript import apply_step, make_transcript
from dicehall.games import make_game
from dicehall.server.tables.fairness import SealedTable
from dicehall.server.tables.tracking import Tracker

SEED = bytes(range(32))


def sealed_game(
    gid: str,
    seed: int,
    reveal: bool = True,
    tracker: Tracker | None = None,
    midway: Callable[[], None] | None = None,
) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    """A game played through SealedTable with a committed seat 0 and a bot at seat 1: the
    public transcript and the openings each audience received, in order. With `tracker`
    the dice are tracked as a live table's are, and `midway` is called after 10 steps."""
    game = make_game(gid)
    rng = random.Random(seed)
    x = bytes([seed % 256]) * 32
    commits = [chain_commit(x).hex()] + [None] * (game.seats - 1)
    fair = SealedTable(game, SEED, commits, bots={1})
    state = game.new_state(record=True)
    steps: list[dict[str, Any]] = []
    got: dict[int | None, list[dict[str, Any]]] = {a: [] for a in [None, *range(game.seats)]}
    told = threading.Lock()

    def on_news(news: dict[int | None, list[dict[str, Any]]]) -> None:
        with told:
            for audience, openings in news.items():
                got[audience] += openings

    if tracker is not None:
        fair.track_live(tracker, on_news)
    while not state.is_over():
        if len(steps) == 10 and midway is not None:
            midway()
        if state.is_chance() and not fair.ready():
            opened = fair.open_round()
            if reveal:
                fair.reveal(0, opened["batch"], chain_value(x, opened["batch"]).hex())
            step = fair.close_round()
        elif state.is_chance():
            step = {"chance": list(fair.throw(state.chance_dice()))}
        else:
            seat = state.actors()[0]
            step = {"seat": seat, "action": dict(rng.choice(state.legal_actions(seat)))}
        apply_step(state, step)
        steps.append(step)
        fair.follow([step])
        for audience, openings in fair.take_news().items():
            got[audience] += openings
    fair.settled()
    return make_transcript(game, steps, None, state) | fair.transcript(steps), got
