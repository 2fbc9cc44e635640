"""The exact best response against heuristic bots, against brute force on the engine."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest

from dicehall.games.toplshteyner import best_response, solver
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.odds import throws
from dicehall.games.toplshteyner.rules import (
    BUY,
    BUY_LIFE,
    ELECT,
    OVER,
    TURN,
    Toplshteyner,
    ToplshteynerState,
)


def key(state: ToplshteynerState) -> Hashable:
    """Everything the win chances depend on (on a paying table the pot always holds a
    stake when a 6-6 asks for one, so the pot's size does not matter)."""
    return (
        tuple(state.lives),
        state.roller,
        state.phase,
        state.point,
        state.snake_eyes,
        state.threes,
        state.high_fives,
    )


def brute_force(lives: tuple[int, ...], me: int, best: bool) -> float:
    """Seat `me`'s chance to win from a turn's start with seat 0 to throw, the others
    playing the heuristic bot itself and `me` the best reply (or the bot too, without
    `best`): every state the engine reaches, by policy iteration over `me`'s choices,
    each policy's value by one linear solve."""
    game = Toplshteyner(len(lives))
    start = game.new_state()
    start.phase, start.roller, start.lives = TURN, 0, list(lives)
    start.pot = sum(3 - x for x in lives)
    bots = [HeuristicBot(game, s, random.Random(s)) for s in range(len(lives))]
    states: dict[Hashable, ToplshteynerState] = {}
    edges: dict[Hashable, list[list[tuple[float, Hashable]]]] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        k = key(state)
        if k in states:
            continue
        states[k] = state
        options: list[list[tuple[float, Hashable]]] = []
        if state.phase == TURN:
            branch = []
            for throw, chance in throws():
                nxt = state.clone()
                nxt.apply_chance(throw)
                branch.append((float(chance), key(nxt)))
                todo.append(nxt)
            options.append(branch)
        elif state.phase in (ELECT, BUY):
            seat = state.roller
            legal = list(state.legal_actions(seat))
            if seat != me or not best:
                legal = [bots[seat].choose(state.view(seat), legal)]
                assert state.phase != BUY or legal == [BUY_LIFE]
            for action in legal:
                nxt = state.clone()
                nxt.apply(seat, action)
                options.append([(1.0, key(nxt))])
                todo.append(nxt)
        edges[k] = options
    order = {k: i for i, k in enumerate(states)}
    won = np.array([float(s.phase == OVER and s.winner == me) for s in states.values()])
    choice = {k: 0 for k in states}
    while True:
        matrix = np.eye(len(states))
        for k, options in edges.items():
            for p, to in options[choice[k]] if options else ():
                matrix[order[k], order[to]] -= p
        value = np.linalg.solve(matrix, won)
        changed = False
        for k, options in edges.items():
            if len(options) < 2:
                continue
            worth = [sum(p * value[order[to]] for p, to in option) for option in options]
            if max(worth) > worth[choice[k]] + 1e-12:
                choice[k] = int(np.argmax(worth))
                changed = True
        if not changed:
            return float(value[order[key(start)]])


@pytest.mark.parametrize("lives", [(1, 2, 1), (3, 3, 3)])
def test_best_response_against_heuristics_matches_brute_force(lives: tuple[int, ...]) -> None:
    """Three players: the layers' chance to win of each seat as the best responder and
    as the heuristic against two heuristic bots equal the engine's own state graph
    solved with the bot's real choices; the best reply is worth at least the bot's."""
    players = len(lives)
    best = best_response.layers(players, True)[players].values[solver.position_index(lives)]
    plain = best_response.layers(players, False)[players].values[solver.position_index(lives)]
    for me in range(players):
        assert best[me] == pytest.approx(brute_force(lives, me, True), abs=1e-9)
        assert plain[me] == pytest.approx(brute_force(lives, me, False), abs=1e-9)
        assert best[me] >= plain[me] - 1e-12
    assert sum(plain) == pytest.approx(1.0, abs=1e-9)


def test_two_players_the_best_response_is_the_heuristic() -> None:
    """Two players: no election is a choice and the bot always buys, as a best reply
    does; both are the solver's exact win chances."""
    best = best_response.start_values(2, True)
    assert best == pytest.approx(best_response.start_values(2, False), abs=1e-12)
    assert best[0] == pytest.approx(0.44753, abs=1e-5)
    assert best_response.layers(2, True)[2].epsilon <= 0.0
