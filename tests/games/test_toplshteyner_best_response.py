"""The exact best response against heuristic bots, against brute force on the engine."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest

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
from dicehall.games.toplshteyner.solver import best_response, model


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


class EngineGraph:
    """Every state the engine reaches from a turn's start (seat 0 to throw), played by
    `rules.py` itself: each throw's chance, each legal choice, and the heuristic
    bot's own choice where it decides."""

    def __init__(self, lives: tuple[int, ...]) -> None:
        game = Toplshteyner(len(lives))
        start = game.new_state()
        start.phase, start.roller, start.lives = TURN, 0, list(lives)
        start.pot = sum(3 - x for x in lives)
        bots = [HeuristicBot(game, s, random.Random(s)) for s in range(len(lives))]
        index: dict[Hashable, int] = {}
        states: list[ToplshteynerState] = []
        throws_from: list[tuple[int, int, float]] = []
        self.choices: dict[int, list[int]] = {}  # decision state -> the states after each
        self.heuristic: dict[int, int] = {}  # decision state -> the bot's choice among them
        self.roller: dict[int, int] = {}

        def visit(state: ToplshteynerState) -> int:
            k = key(state)
            if k not in index:
                index[k] = len(states)
                states.append(state)
                todo.append(index[k])
            return index[k]

        todo: list[int] = []
        self.start = visit(start)
        while todo:
            i = todo.pop()
            state = states[i]
            if state.phase == TURN:
                for throw, chance in throws():
                    nxt = state.clone()
                    nxt.apply_chance(throw)
                    throws_from.append((i, visit(nxt), float(chance)))
            elif state.phase in (ELECT, BUY):
                seat = state.roller
                legal = list(state.legal_actions(seat))
                after = []
                for action in legal:
                    nxt = state.clone()
                    nxt.apply(seat, action)
                    after.append(visit(nxt))
                mine = bots[seat].choose(state.view(seat), legal)
                assert state.phase != BUY or mine == BUY_LIFE
                self.choices[i], self.heuristic[i], self.roller[i] = after, legal.index(mine), seat
        self.size = len(states)
        self.winner = np.array([s.winner if s.phase == OVER else -1 for s in states])
        source, target, weight = zip(*throws_from, strict=True)
        self.source, self.target, self.chance = np.array(source), np.array(target), np.array(weight)

    def win_chance(self, me: int, best: bool) -> float:
        """Seat `me`'s chance to win from the start, `me` choosing the best reply (or
        as the bot, without `best`) and every other seat as the bot: value iteration
        over every state."""
        value = (self.winner == me).astype(float)
        mine = [i for i in self.choices if best and self.roller[i] == me]
        fixed = [i for i in self.choices if not (best and self.roller[i] == me)]
        fixed_to = np.array([self.choices[i][self.heuristic[i]] for i in fixed], dtype=int)
        # a decision has one or two choices (three players): as two columns
        options = np.array([(self.choices[i] * 2)[:2] for i in mine], dtype=int).reshape(-1, 2)
        turn = np.unique(self.source)
        for _ in range(100_000):
            new = value.copy()
            new[turn] = np.bincount(
                self.source, weights=self.chance * value[self.target], minlength=self.size
            )[turn]
            new[fixed] = value[fixed_to]
            new[mine] = value[options].max(axis=1)
            if np.abs(new - value).max() < 1e-13:
                break
            value = new
        return float(value[self.start])


def check_against_the_engine(lives: tuple[int, ...]) -> None:
    """The layers' chance to win of each seat as the best responder and as the
    heuristic against heuristic bots equal the engine's own state graph solved with
    the bot's real choices; the best reply is worth at least the bot's."""
    players = len(lives)
    best = best_response.layers(players, True)[players].values[model.position_index(lives)]
    plain = best_response.layers(players, False)[players].values[model.position_index(lives)]
    graph = EngineGraph(lives)
    for me in range(players):
        assert best[me] == pytest.approx(graph.win_chance(me, True), abs=1e-9)
        assert plain[me] == pytest.approx(graph.win_chance(me, False), abs=1e-9)
        assert best[me] >= plain[me] - 1e-12
    assert sum(plain) == pytest.approx(1.0, abs=1e-9)


def test_two_player_end_game_matches_the_engine() -> None:
    """Two players (lives 2 and 1): no election is a choice and the bot always buys,
    as a best reply does, so both are the solver's exact win chances."""
    check_against_the_engine((2, 1))
    assert best_response.start_values(2, True) == pytest.approx(
        best_response.start_values(2, False), abs=1e-12
    )
    assert best_response.start_values(2, True)[0] == pytest.approx(0.44753, abs=1e-5)
    assert best_response.layers(2, True)[2].epsilon <= 0.0  # declining never gains


@pytest.mark.slow
def test_three_player_end_game_matches_the_engine() -> None:
    """Three players (lives 1, 2, 1): the elections are choices (about 20 s)."""
    check_against_the_engine((1, 2, 1))
