"""`dicehall sim` plays each game as a trusted `Table` would, and builds no view for blind bots."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from dicehall.core.bots import RandomBot, reads_view
from dicehall.core.chance import RandomDice
from dicehall.core.game import Action, Game, View
from dicehall.core.sim import simulate
from dicehall.core.table import Table, make_bots, play_game, play_trusted, step_rows
from dicehall.games import game_ids, make_game


class CountingViews:
    """Wraps a state class's `view` to count the views built, by seat."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
        self.built: list[int | None] = []
        cls = type(game.new_state())
        original = cls.view

        def view(state: object, seat: int | None) -> View:
            self.built.append(seat)
            return original(state, seat)  # type: ignore[arg-type]

        monkeypatch.setattr(cls, "view", view)


class Reader:
    """A bot that reads its view: it must be given the seat's own view."""

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat, self.rng, self.seen = seat, rng, 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        assert view["seat"] == self.seat
        self.seen += 1
        return legal[int(self.rng.random() * len(legal))]


@pytest.mark.parametrize("gid", game_ids())
def test_play_trusted_plays_the_tables_game_step_for_step(gid: str) -> None:
    game = make_game(gid)
    for seed in range(5):
        table = Table(game, RandomDice(seed), record=False, trusted=True)
        table.play(make_bots(game, ["heuristic", "random"], random.Random(seed)))
        played: list[tuple[int | None, object]] = []
        bots = make_bots(game, ["heuristic", "random"], random.Random(seed))
        playout = play_trusted(game, RandomDice(seed), bots, played)
        assert step_rows(played) == table.steps
        assert playout.steps == len(table.steps)
        assert playout.decisions == sum("seat" in step for step in table.steps)
        assert playout.state.result() == table.state.result()
        assert play_game(game, ["heuristic", "random"], seed, seed) == table.state.result()


def test_random_bots_are_given_no_view_and_readers_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = make_game("kariki", 2)
    assert not reads_view(RandomBot(game, 0, random.Random(0)))
    assert reads_view(Reader(game, 0, random.Random(0)))
    views = CountingViews(monkeypatch, game)
    play_trusted(game, RandomDice(1), make_bots(game, ["random"], random.Random(1)))
    table = Table(game, RandomDice(1), trusted=True)
    table.play(make_bots(game, ["random"], random.Random(1)))
    assert views.built == []
    reader = Reader(game, 1, random.Random(2))
    bots = {0: RandomBot(game, 0, random.Random(2)), 1: reader}
    play_trusted(game, RandomDice(2), bots)
    assert views.built == [1] * reader.seen and reader.seen > 0


@pytest.mark.parametrize("gid", game_ids())
def test_simulate_saves_the_transcripts_a_table_records(gid: str, tmp_path: Path) -> None:
    game = make_game(gid)
    stats = simulate(game, ["random", "heuristic"], 4, seed=7, save_dir=tmp_path)
    rng = random.Random(7)
    steps = decisions = 0
    for i in range(4):
        seed = rng.getrandbits(64)
        names = ["random", "heuristic"] * game.seats
        table = Table(game, RandomDice(seed), record=False, trusted=True)
        table.play(make_bots(game, names[: game.seats], random.Random(seed)))
        saved = (tmp_path / f"{gid}-{i:06d}.json").read_text()
        assert saved == json.dumps(table.transcript(), indent=1)
        steps += len(table.steps)
        decisions += sum("seat" in step for step in table.steps)
    assert (stats.steps, stats.decisions, stats.games) == (steps, decisions, 4)
