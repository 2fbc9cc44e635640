"""The Tepiiku batch simulator plays the engine's game: random and heuristic seats, bankrolls."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from dicehall.batch import play, tepiiku
from dicehall.batch.tepiiku import (
    EVENTS,
    FISH,
    HIGHEST,
    LOWEST,
    SCORES,
    SORTED,
    TIES,
    TepiikuBatch,
    _fish_costs,
    _in_hand_order,
    _places,
    _runes,
)
from dicehall.core import OptionError
from dicehall.games import make_game
from dicehall.games.tepiiku.bots import fish_costs, place_value
from dicehall.games.tepiiku.rules import SUBSETS
from tests.batch.equivalence import batch_sample, differences, loop_result, reference

BATCH_GAMES = 20_000
ENGINE_GAMES = 600

CONFIGS: list[tuple[dict[str, object], tuple[str, ...]]] = [
    ({}, ("random",)),
    ({"bankroll": 5}, ("random",)),
]
HEURISTIC: tuple[dict[str, object], tuple[str, ...]] = (
    {"bankroll": 5},
    ("heuristic", "random", "heuristic"),
)


def event_names(kind: str, data: Mapping[str, object]) -> list[str]:
    """The batch's names for one engine event: thumbs up, an outcome by its kind."""
    if kind == "thumbs":
        return ["thumbs up"] if data["up"] else []
    if kind == "outcome":
        return [f"outcome {data['kind']}"]
    return [kind]


def compare(
    options: dict[str, object],
    bots: Sequence[str],
    seed: int = 1,
    batch_games: int = BATCH_GAMES,
    engine_games: int = ENGINE_GAMES,
    loop: bool = False,
) -> list[tuple[str, float]]:
    game = make_game("tepiiku", 3, options)
    result = loop_result(game, batch_games, seed) if loop else play(game, batch_games, seed, bots)
    batch = batch_sample(result)
    engine = reference(
        "tepiiku", 3, tuple(options.items()), seed, engine_games, EVENTS, event_names, tuple(bots)
    )
    return differences(batch, engine)


@pytest.mark.parametrize(("options", "bots"), CONFIGS, ids=[f"{o}-{b}" for o, b in CONFIGS])
def test_batch_plays_the_engines_tepiiku(options: dict[str, object], bots: Sequence[str]) -> None:
    assert compare(options, bots) == []


@pytest.mark.parametrize(("options", "bots"), CONFIGS, ids=[f"{o}-{b}" for o, b in CONFIGS])
def test_the_compiled_loop_plays_the_engines_tepiiku(
    options: dict[str, object], bots: Sequence[str]
) -> None:
    """The vector environment's compiled loop (`tepiiku_kernel`), whole games with no outside
    seat: every event counted as the batch counts it."""
    assert compare(options, bots, loop=True) == []


def test_batch_plays_the_engines_heuristic_tepiiku() -> None:
    """The heuristic's policy as the batch plays it: two heuristic seats and a random one."""
    assert compare(*HEURISTIC, batch_games=4000, engine_games=250) == []


@pytest.mark.slow
@pytest.mark.parametrize("bots", [("heuristic",), ("random", "heuristic", "random")])
def test_batch_plays_the_engines_heuristic_tepiiku_at_length(bots: Sequence[str]) -> None:
    assert compare({}, bots, engine_games=1000) == []


def test_T8_a_still_fish_without_the_extra_coin_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: forget T8's pot + 1 when the Fish improves but stays below."""
    original = TepiikuBatch._fish_outcome

    def no_extra_coin(self: TepiikuBatch, g, fish, old):  # type: ignore[no-untyped-def]
        new = self.scores[g, fish]
        still = (new > old) & (new < self.scores[g, self.middle[g]])
        original(self, g, fish, old)
        self.pot[g[still]] -= 1

    monkeypatch.setattr(TepiikuBatch, "_fish_outcome", no_extra_coin)
    failed = dict(compare({}, ("random",)))
    assert "steps" in failed  # longer rounds, more rerolls
    assert "event outcome beat" in failed


def _scripted_scores() -> tuple[TepiikuBatch, np.ndarray]:
    """A batch whose 27 games hold every arrangement of three scores out of 3, 7 and 11."""
    scores = np.array(list(itertools.product([3, 7, 11], repeat=3)))
    batch = TepiikuBatch(make_game("tepiiku"), len(scores), seed=0)
    batch.scores[:] = scores
    batch._resolve_ties(np.arange(len(scores)))
    return batch, scores


def test_T6_every_seat_whose_score_equals_anothers_is_tied() -> None:
    batch, scores = _scripted_scores()
    tied = [[row.count(score) > 1 for score in row] for row in scores.tolist()]
    assert batch.tied.tolist() == tied
    assert (batch.phase == np.where(np.any(tied, axis=1), TIES, FISH)).all()


def test_T7_the_lowest_score_is_the_fish_and_the_highest_the_hook() -> None:
    batch, scores = _scripted_scores()
    distinct = [g for g, row in enumerate(scores.tolist()) if len(set(row)) == 3]
    assert len(distinct) == 6  # every order of three scores
    for g in distinct:
        roles = [batch.fish[g], batch.middle[g], batch.hook[g]]
        assert roles == np.argsort(scores[g]).tolist()


def test_a_reroll_throws_only_the_dice_it_names() -> None:
    """T7, T8: the dice kept stay as they were, the others are thrown, and the score is
    the new hand's: for every set of dice, on many hands."""
    games = 2000
    batch = TepiikuBatch(make_game("tepiiku"), games, seed=1)
    g, seat = np.arange(games), np.arange(games) % 3
    before = batch.hands[g, seat].copy()
    which = np.arange(games) % len(SUBSETS)
    batch._reroll(g, seat, which)
    after = batch.hands[g, seat]
    digits = [(before // 36, before // 6 % 6, before % 6), (after // 36, after // 6 % 6, after % 6)]
    for die in range(3):
        kept = np.array([die not in SUBSETS[k] for k in which])
        assert (digits[0][die][kept] == digits[1][die][kept]).all()
        thrown = digits[1][die][~kept]
        assert np.bincount(thrown, minlength=6).min() > 0  # fresh faces, every one seen
    assert (batch.scores[g, seat] == SCORES[after]).all()


def test_batch_of_tepiiku_refuses_a_bot_it_cannot_play() -> None:
    with pytest.raises(OptionError, match="plays the bots random, heuristic, not solver"):
        play(make_game("tepiiku"), 10, 1, ["solver"])


def test_the_heuristics_values_are_read_for_the_hand_as_the_bot_computes_them() -> None:
    """The batch asks the bot once per position (the runes sorted, the coins capped where
    no loss reaches them) and reads the values back in the hand's order: on random
    positions they are the bot's own costs to the last bit, and so is its choice."""
    rng = random.Random(3)
    for _ in range(80):
        hand, pot, coins = (
            rng.randrange(216),
            rng.choice([1, 2, 3, 4, 6, 8, 16]),
            rng.randint(1, 60),
        )
        score = int(SCORES[hand])
        middle = rng.randint(min(score + 1, HIGHEST), HIGHEST)
        hook = rng.randint(middle, HIGHEST)
        costs = fish_costs(_runes(hand), pot, middle, hook, coins)
        capped = min(coins, 4 * (pot + max(0, middle - score)))
        table = np.array([_fish_costs(int(SORTED[hand]), pot, middle, hook, capped)])
        assert list(_in_hand_order(table, np.array([hand]))[0]) == [costs[d] for d in SUBSETS]
        others = [rng.randint(LOWEST, HIGHEST) for _ in range(2)]
        places = np.array([_places(int(SORTED[hand]), *sorted(others))])
        want = [place_value(_runes(hand), d, others) for d in SUBSETS]
        assert list(_in_hand_order(places, np.array([hand]))[0]) == want


def test_the_heuristics_values_are_kept_in_the_table_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run stores the values it computed; the next process reads them back unchanged."""
    monkeypatch.setenv("DICEHALL_CACHE", str(tmp_path))
    for name in ("PLACES", "FISH_COSTS"):
        monkeypatch.setattr(tepiiku, name, {})
    monkeypatch.setattr(tepiiku, "_loaded", False)
    play(make_game("tepiiku", 3, {"bankroll": 5}), 50, 1, ["heuristic"])
    computed = dict(tepiiku.PLACES), dict(tepiiku.FISH_COSTS)
    assert computed[1] and (tmp_path / f"{tepiiku.TABLES}.json").exists()
    for name in ("PLACES", "FISH_COSTS"):  # a fresh process
        monkeypatch.setattr(tepiiku, name, {})
    monkeypatch.setattr(tepiiku, "_loaded", False)
    tepiiku._load_tables()
    assert computed == (tepiiku.PLACES, tepiiku.FISH_COSTS)
