"""The Kariki table bot (three seats and more): blind to others' dice (C6), memoryless,
reproducible, legal everywhere, and its shipped policy checked against its checksums."""

from __future__ import annotations

import random
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import Action, RandomDice, State, Table, make_bots
from dicehall.games import make_game
from dicehall.games.kariki.rules import DOUBLE_SIXES, KarikiState
from dicehall.games.kariki.solver import table_stored
from dicehall.games.kariki.solver.best_response import build_subgame, subgame_root
from dicehall.games.kariki.solver.model import infoset_key
from dicehall.games.kariki.solver.table_bot import TableBot
from dicehall.strategy.strategy_file import StrategyFileError, check_shipped, load
from tests.strategy.redraw import each_decision_redrawn

SHIPPED = table_stored.SHIPPED / table_stored.SHIPPED_NAME
score_index = table_stored.score_index


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([3, 4, 6, 10]))
def test_C6_table_bot_decides_the_same_whatever_others_dice(seed: int, seats: int) -> None:
    """Redraw what the deciding seat may not see: the same chances, a legal choice."""
    probe = TableBot(make_game("kariki", seats), 0, random.Random(0))

    def check(seat: int, state: State, other: State, legal: Sequence[Action], _: object) -> None:
        probe.seat = seat
        chances = probe.policy(state.view(seat), legal)
        assert probe.policy(other.view(seat), legal) == chances
        assert abs(sum(chances) - 1) < 1e-9 and len(chances) == len(legal)

    each_decision_redrawn("kariki", seats, ["table"], seed, check)


def test_table_bot_play_is_reproducible_from_a_seed() -> None:
    game = make_game("kariki", 4)

    def play(seed: int) -> list[object]:
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["table", "solver", "heuristic"], random.Random(seed)))
        return table.steps

    assert play(4) == play(4)
    assert play(4) != play(5)


@pytest.mark.parametrize(
    "options",
    [{}, {"pull": "at-least"}, {"throws": 2, "berries": 2}],
)
def test_table_bot_plays_legally_under_every_option(options: dict[str, object]) -> None:
    """Whole games of table bots: every choice is legal (the table refuses an illegal one)."""
    game = make_game("kariki", 3, options)
    for seed in range(3):
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["table"], random.Random(seed)))
        assert table.state.is_over()


def test_shipped_table_passes_its_checksums_and_a_damaged_copy_is_refused(
    tmp_path: Path,
) -> None:
    check_shipped(SHIPPED, table_stored.SHIPPED_SHA256)
    damaged = tmp_path / SHIPPED.name
    shutil.copy(SHIPPED, damaged)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(StrategyFileError):
        check_shipped(damaged, table_stored.SHIPPED_SHA256)
    with pytest.raises(StrategyFileError):
        load(damaged)


def test_shipped_table_holds_every_decision_of_the_three_seat_round() -> None:
    game = make_game("kariki", 3)
    policies = table_stored.read(SHIPPED)
    assert sorted(policies) == list(table_stored.SEAT_COUNTS)
    for p in range(-1, DOUBLE_SIXES + 1):
        tree = build_subgame(game, (True,) * 3, (0, p, -1)).tree
        for i, key in enumerate(tree.infoset_keys):
            assert isinstance(key, tuple)
            chances = policies[3][(p, *key[1:])]
            assert len(chances) == len(tree.infoset_actions[i])
            assert abs(sum(chances) - 1) < 1e-9


@pytest.mark.parametrize("seats_in", table_stored.SCORED_SEATS)
def test_shipped_scored_table_holds_every_decision_of_the_round_at_every_score(
    seats_in: int,
) -> None:
    game = make_game("kariki", seats_in)
    scored = table_stored.read_scored(SHIPPED, seats_in)
    assert scored is not None
    n_scores = table_stored.n_scores(seats_in)
    assert scored.chances.shape[0] == n_scores
    for p in range(-1, DOUBLE_SIXES + 1):
        tree = build_subgame(game, (True,) * seats_in, (0, p, -1)).tree
        for i, key in enumerate(tree.infoset_keys):
            assert isinstance(key, tuple)
            for row in (0, n_scores // 2, n_scores - 1):
                chances = scored.policy(row, (p, *key[1:]))  # type: ignore[arg-type]
                assert len(chances) == len(tree.infoset_actions[i])
                assert abs(sum(chances) - 1) < 1e-9


def test_table_bot_with_three_seats_in_reads_the_berries_from_the_thrower() -> None:
    """The same decision at two scores: the bot plays the scored policy's row of each score,
    the berries read from the thrower in the direction of play."""
    game = make_game("kariki", 4)
    scored = table_stored.read_scored(SHIPPED, 3)
    assert scored is not None
    rows = []
    for berries in ((0, 0, 0, 0), (4, 1, 2, 0)):
        s = subgame_root(game, (True, False, True, True), (2, -1, -1))
        assert isinstance(s, KarikiState)
        s.berries = [berries[0], 5, berries[2], berries[3]]
        s.apply_chance((3, 5))
        view = s.view(2)
        bot = TableBot(game, 2, random.Random(0))
        legal = s.legal_actions(2)
        key = (-1, *infoset_key(view))
        row = score_index((berries[2], berries[3], berries[0]))
        assert bot.policy(view, legal) == pytest.approx(scored.policy(row, key))  # type: ignore[arg-type]
        rows.append(row)
    assert rows[0] != rows[1]


def test_table_bot_with_four_seats_in_reads_every_seat_in_from_the_thrower() -> None:
    """Five seats, seat 3 out, seat 4 throwing: the four in read 4, 0, 1, 2 (the seat out
    skipped), each score its own row of the four-seat policy."""
    game = make_game("kariki", 5)
    scored = table_stored.read_scored(SHIPPED, 4)
    assert scored is not None
    rows = set()
    for berries in ((0, 0, 0, 0), (1, 2, 3, 4), (4, 3, 2, 1)):
        s = subgame_root(game, (True, True, True, False, True), (4, -1, -1))
        assert isinstance(s, KarikiState)
        s.berries = [berries[1], berries[2], berries[3], 5, berries[0]]
        s.apply_chance((2, 4))
        view = s.view(4)
        bot = TableBot(game, 4, random.Random(0))
        key = (-1, *infoset_key(view))
        row = score_index(berries)
        assert bot.policy(view, s.legal_actions(4)) == pytest.approx(scored.policy(row, key))  # type: ignore[arg-type]
        rows.add(row)
    assert len(rows) == 3
