"""A sealed game played without a server, for the tests of sealed dice and `verify`."""

from __future__ import annotations

import random
from typing import Any

from dicehall.core.commitments import chain_commit, chain_value
from dicehall.core.transcript import apply_step, make_transcript
from dicehall.games import make_game
from dicehall.server.fairness import SealedTable

SEED = bytes(range(32))


def sealed_game(
    gid: str, seed: int, reveal: bool = True
) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    """A game played through SealedTable with a committed seat 0 and a bot at seat 1: the
    public transcript and the openings each audience received, in order."""
    game = make_game(gid)
    rng = random.Random(seed)
    x = bytes([seed % 256]) * 32
    commits = [chain_commit(x).hex()] + [None] * (game.seats - 1)
    fair = SealedTable(game, SEED, commits, bots={1})
    state = game.new_state(record=True)
    steps: list[dict[str, Any]] = []
    got: dict[int | None, list[dict[str, Any]]] = {a: [] for a in [None, *range(game.seats)]}
    while not state.is_over():
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
        fair.follow(step)
        for audience, openings in fair.take_news().items():
            got[audience] += openings
    return make_transcript(game, steps, None, state) | fair.transcript(steps), got
