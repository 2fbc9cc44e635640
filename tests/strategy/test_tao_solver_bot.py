"""The Tao Dice solver bot and advice: blind to others' dice (C6), every decision in the model.

The real strategy takes tens of minutes to solve, so these tests give the
bot a stand-in strategy of the same shape whose chances depend on the hand
and the slot: what is checked is how the bot finds its decisions, not how
good the chances are (tests/strategy/test_tao_solver.py does that).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.game import State
from dicehall.games import make_game
from dicehall.games.tao.solver import advice, stored
from dicehall.games.tao.solver.bot import SolverBot
from dicehall.games.tao.solver.model import N_GO_ON, locate
from dicehall.games.tao.solver.policy import positions
from dicehall.games.tao.solver.solve import Model, ante_equilibrium, stone_shares
from dicehall.games.tao.solver.stored import Strategy


@cache
def stand_in() -> Strategy:
    model = Model()
    n, h, pairs = len(model), model.h, model.pairs
    rng = np.random.default_rng(7)
    pattern = rng.integers(1, 256, size=(6, 3, 1, h), dtype=np.uint8)
    stage1 = np.broadcast_to(pattern, (6, 3, n, h))
    stage2 = np.broadcast_to(pattern[:, :, :, None, None, :], (6, 3, n, N_GO_ON, pairs, h))
    values = stone_shares(model)
    ante_o, ante_x = ante_equilibrium(model, values)
    return Strategy(stage1, stage2, ante_o, ante_x, values)


@contextmanager
def using(strategy: Strategy) -> Iterator[None]:
    """The bot finds this strategy stored (Hypothesis tests cannot take function fixtures)."""
    saved = stored.stored
    stored.stored = lambda: strategy
    try:
        yield
    finally:
        stored.stored = saved


@pytest.fixture
def solved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Strategy:
    """The stand-in strategy, as if solved: what reads the strategy reads it, and its file
    exists (`dicehall odds tao` looks for the file first, to say "not solved" without NumPy)."""
    strategy = stand_in()
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path))
    stored.path().write_bytes(b"a stand-in: the readers are replaced")
    monkeypatch.setattr(stored, "stored", lambda: strategy)
    monkeypatch.setattr(advice, "stored", lambda: strategy)
    return strategy


def test_solver_is_listed_first_only_where_it_is_measured_stronger() -> None:
    from dicehall.games.tao import SOLVER_FIRST

    assert 2 in SOLVER_FIRST
    for seats in range(2, 7):
        bots = list(make_game("tao", seats).bots())
        assert "solver" in bots
        assert (bots[0] == "solver") == (seats in SOLVER_FIRST)


def same_policy_when_hidden_redrawn(
    probe: SolverBot, state: State, seat: int, rng: random.Random
) -> None:
    """C6 for the bot: what `seat` may not see redrawn, the same view and the same chances."""
    legal = state.legal_actions(seat)
    view = state.view(seat)
    other = state.resample_hidden(seat, rng)
    assert other.view(seat) == view
    probe.seat = seat
    assert probe.policy(other.view(seat), legal) == probe.policy(view, legal)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_C6_solver_decides_from_its_view_alone(seed: int) -> None:
    """Redraw what the seat may not see: the same view, the same chances; and at two seats
    every betting decision is found in the model (none falls back to the heuristic)."""
    with using(stand_in()):
        game = make_game("tao", 2, {"length": "single"})
        table = Table(game, RandomDice(seed), record=False)
        bots = make_bots(game, ["solver", "heuristic"], random.Random(seed))
        rng = random.Random(seed + 1)
        probe = SolverBot(game, 0, random.Random(0))
        found = [0]

        def check(t: Table) -> None:
            state = t.state
            for seat in state.actors():
                legal = state.legal_actions(seat)
                view = state.view(seat)
                same_policy_when_hidden_redrawn(probe, state, seat, rng)
                assert sum(probe.policy(view, legal)) == pytest.approx(1.0)
                if view["phase"] == "bet":
                    assert locate(view, positions()) is not None
                    found[0] += 1

        table.play(bots, on_step=check)
        assert found[0] > 0


def test_without_a_stored_strategy_the_solver_plays_as_the_heuristic(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored, "stored", lambda: None)
    game = make_game("tao", 2)

    def play(names: list[str]) -> list[object]:
        table = Table(game, RandomDice(3), record=False)
        table.play(make_bots(game, names, random.Random(3)))
        return table.steps

    assert play(["solver", "heuristic"]) == play(["heuristic", "heuristic"])


def test_advice_gives_the_solvers_chances_and_win_chances(solved: Strategy) -> None:
    game = make_game("tao", 2, {"opener": "0", "length": "single"})
    state = game.new_state()
    state.apply(0, {"type": "ante", "white": 0})
    state.apply(1, {"type": "ante", "white": 0})
    state.apply_chance((6, 5))
    state.apply_chance((1, 2))
    legal = state.legal_actions(0)
    table = game.advice(state.view(0), legal)
    assert table is not None and table.extra["model"] == "solver"
    assert [row[0] for row in table.rows] == [game.action_label(a) for a in legal]
    assert sum(row[2] for row in table.rows) == pytest.approx(1.0)
    assert all(0 <= row[3] <= 1 for row in table.rows)
    assert "solved two-seat strategy" in table.note
    # C6: the same advice whatever seat 1's dice.
    other = state.resample_hidden(0, random.Random(4))
    assert game.advice(other.view(0), legal) == table


def test_advice_at_more_seats_is_the_bet_readers_and_says_so() -> None:
    """Three seats: the solver's model there (the bet reader), its choice marked, the
    chances read from the bets (a first raiser is strong), and blind to others' dice (C6)."""
    game = make_game("tao", 3, {"opener": "0"})
    state = game.new_state()
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "ante", "white": 0})
    for faces in ((6, 5), (4, 4), (2, 2)):
        state.apply_chance(faces)
    before = game.advice(state.view(1), [{"type": "pass"}])  # not its turn: a legal stand-in
    state.apply(0, {"type": "raise", "white": 0})  # an equity bettor raises on strength
    legal = state.legal_actions(1)
    table = game.advice(state.view(1), legal)
    assert table is not None and table.extra["model"] == "bet reader"
    assert "bet reader" in table.title and "Bayes" in table.note
    assert [row[0] for row in table.rows] == [game.action_label(a) for a in legal]
    bot = SolverBot(game, 1, random.Random(0))
    chosen = bot.choose(state.view(1), legal)
    assert [row[1] for row in table.rows] == [1.0 if a == chosen else 0.0 for a in legal]
    assert all(0 <= row[2] <= 1 and 0 <= row[3] <= 1 for row in table.rows)
    assert before is not None
    keep = next(
        row for row, a in zip(table.rows, legal, strict=True) if a == {"type": "call", "white": 0}
    )
    assert keep[2] < before.rows[0][2]  # the raise says seat 0 is strong: a worse showdown
    other = state.resample_hidden(1, random.Random(4))
    assert game.advice(other.view(1), legal) == table


def test_odds_show_the_solvers_opening_from_its_model(solved: Strategy) -> None:
    tables = make_game("tao").odds({})
    assert tables[-1].extra["model"] == "solver" and len(tables[-1].rows) == 11
    assert "solved two-seat strategy" in tables[-1].note
    assert all(0 <= cell <= 1 for row in tables[-1].rows for cell in row[1:])


def test_at_more_seats_the_solver_buys_a_reroll_of_weak_dice_with_a_white_raise() -> None:
    game = make_game("tao", 3, {"opener": "0"})
    state = game.new_state()
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "ante", "white": 0})
    state.apply_chance((1, 2))  # seat 0: a sum of 3, far below a fresh throw's 7
    state.apply_chance((6, 6))
    state.apply_chance((5, 5))
    bot = SolverBot(game, 0, random.Random(0))
    assert bot.choose(state.view(0), state.legal_actions(0)) == {"type": "raise", "white": 1}
    heuristic = make_bots(game, ["heuristic"], random.Random(0))[0]
    assert heuristic.choose(state.view(0), state.legal_actions(0)) == {"type": "pass"}


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 6))
def test_C6_the_bet_reader_at_more_seats_decides_from_its_view_alone(seed: int, seats: int) -> None:
    """Three to six seats: what the seat may not see redrawn, the same choice (300 steps)."""
    game = make_game("tao", seats, {"length": "single"})
    table = Table(game, RandomDice(seed), record=False)
    bots = make_bots(game, (["solver", "heuristic"] * 3)[:seats], random.Random(seed))
    rng = random.Random(seed + 1)
    probe = SolverBot(game, 0, random.Random(0))
    steps = [0]

    def check(t: Table) -> None:
        steps[0] += 1
        if steps[0] > 300:
            return
        for seat in t.state.actors():
            same_policy_when_hidden_redrawn(probe, t.state, seat, rng)

    table.play(bots, on_step=check)


def test_the_bets_say_a_first_raiser_holds_strong_dice_and_a_white_payer_threw_again() -> None:
    from dicehall.games.tao.solver.reading import PRIOR, SUMS, hands

    game = make_game("tao", 3, {"opener": "0"})
    state = game.new_state()
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "ante", "white": 0})
    for faces in ((6, 5), (3, 4), (2, 2)):
        state.apply_chance(faces)
    state.apply(0, {"type": "raise", "white": 0})  # an equity bettor raises first on strength
    read = hands(state.view(1))
    mean = {s: float(np.dot(read[s], SUMS)) for s in read}
    assert mean[0] > 8 and np.allclose(read[2], PRIOR)
    state.apply(1, {"type": "call", "white": 1})  # seat 1 will throw its 2d6 again
    state.apply(2, {"type": "fold"})
    assert float(np.dot(hands(state.view(0))[1], SUMS)) != pytest.approx(7.0)
    while state.is_chance():
        state.apply_chance(state.chance_dice()[0][:1] * len(state.chance_dice()))
    assert state.view(0)["stage"] == 2
    assert np.allclose(hands(state.view(0))[1], PRIOR)  # the new dice: nothing known


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_shared_reading_of_the_bets_is_a_fresh_reading_at_every_decision(seats: int) -> None:
    """The bots of a table go on from one reading of the round's bets (`Reading.of`): at
    every decision it gives each other player's weights exactly as reading the round
    again from its first bet does, and so the same choice."""
    from dicehall.games.tao.solver.reading import Reading, hands

    game = make_game("tao", seats, {"length": "single"})
    table = Table(game, RandomDice(seats), record=False)
    bots = make_bots(game, ["solver"], random.Random(seats))
    compared = [0]

    def check(t: Table) -> None:
        for seat in t.state.actors():
            view = t.state.view(seat)
            if view["phase"] != "bet" or compared[0] >= 400:
                continue
            shared, fresh = Reading.of(view).hands(view), hands(view)
            assert shared.keys() == fresh.keys() and seat not in fresh
            for s in fresh:
                assert np.array_equal(shared[s], fresh[s])
            compared[0] += 1

    table.play(bots, on_step=check)
    assert compared[0] > 20


def test_the_readers_equity_table_is_the_equity_bettors_own_equities() -> None:
    """All eleven 2d6 sums at once (the batch's whole-number arrays) equal `bots.equities`
    asked sum by sum, to the last bit, in both stages, against known and unknown d12s."""
    from dicehall.games.tao.bots import equities
    from dicehall.games.tao.solver.reading import SUMS, equity_table

    rng = random.Random(5)
    for _ in range(60):
        stage = rng.choice((1, 2))
        own = rng.randint(1, 12) if stage == 2 else None
        seen = [None if stage == 1 or rng.random() < 0.3 else rng.randint(1, 12)
                for _ in range(rng.randint(1, 5))]  # fmt: skip
        others = tuple(sorted(seen, key=lambda d: -1 if d is None else d))
        keeps, rerolls = equity_table(stage, own, others)
        asked = [equities(s, own, others, stage) for s in SUMS]
        assert asked == list(zip(keeps, rerolls, strict=True))
