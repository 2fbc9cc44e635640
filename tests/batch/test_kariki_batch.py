"""The Kariki batch simulator plays the engine's Kariki, at every seat count and with options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from dicehall.batch import play
from dicehall.batch.kariki import BERRY_REASONS, EVENTS, RANK, KarikiBatch
from dicehall.core import OptionError
from dicehall.games import make_game
from tests.batch.equivalence import batch_sample, differences, loop_result, reference

BATCH_GAMES = 20_000
ENGINE_GAMES = 600

CONFIGS = [(n, {}) for n in range(2, 11)] + [
    (3, {"pull": "at-least"}),
    (4, {"high_rollers": True, "buy_in": 3}),
    (5, {"after_kariki": "berry", "high_rollers": True}),
]


def event_names(kind: str, data: Mapping[str, object]) -> list[str]:
    """The batch's names for one engine event: its type, and those derived from its data."""
    names = [kind]
    if kind == "berry":
        names += [f"berry {name}" for name, why in BERRY_REASONS.items() if why == data["why"]]
    if kind == "kariki" and int(data["crowns"]) % 3 == 0:  # type: ignore[call-overload]
        names.append("third-crown")
    if kind == "pull" and data["true"]:
        names.append("pull-true")
    return names


HEURISTIC: list[tuple[int, dict[str, object], tuple[str, ...]]] = [
    (3, {}, ("heuristic", "random")),
    (4, {"high_rollers": True, "buy_in": 3}, ("heuristic",)),
    (5, {"pull": "at-least"}, ("random", "heuristic")),
]


def compare(
    seats: int,
    options: dict[str, object],
    seed: int = 1,
    bots: Sequence[str] = ("random",),
    loop: bool = False,
) -> list[tuple[str, float]]:
    game = make_game("kariki", seats, options)
    result = loop_result(game, BATCH_GAMES, seed) if loop else play(game, BATCH_GAMES, seed, bots)
    batch = batch_sample(result)
    engine = reference(
        "kariki", seats, tuple(options.items()), seed, ENGINE_GAMES, EVENTS, event_names,
        tuple(bots),
    )  # fmt: skip
    return differences(batch, engine)


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_batch_plays_the_engines_kariki(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options) == []


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_the_compiled_loop_plays_the_engines_kariki(seats: int, options: dict[str, object]) -> None:
    """The vector environment's compiled loop (`kariki_kernel`), whole games with no outside
    seat: every event counted as the batch counts it."""
    assert compare(seats, options, loop=True) == []


@pytest.mark.parametrize(
    ("seats", "options", "bots"),
    [
        pytest.param(*config, marks=() if i == 0 else pytest.mark.slow)
        for i, config in enumerate(HEURISTIC)
    ],
    ids=[f"{n}-{o}-{b}" for n, o, b in HEURISTIC],
)
def test_batch_plays_the_engines_heuristic_kariki(
    seats: int, options: dict[str, object], bots: tuple[str, ...]
) -> None:
    """The heuristic bot's policy as the batch plays it, against the engine's bot."""
    assert compare(seats, options, bots=bots) == []


def test_a_heuristic_that_forgets_the_pulls_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth for the bot too: a heuristic that never learns from the pulls
    it saw (its trust stays at the prior) plays a different game."""
    monkeypatch.setattr(KarikiBatch, "_observe", lambda self, g, seat: None)
    failed = dict(compare(*HEURISTIC[0][:2], bots=HEURISTIC[0][2]))
    assert "event pull-true" in failed


def test_a_heuristic_that_learns_from_forced_claims_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Count a forced claim (one rank above the claim it followed) as evidence and it fails."""

    def forced_too(self: KarikiBatch, g, seat):  # type: ignore[no-untyped-def]
        key = self.shown[g]
        new = self.shown_pull[g] & (key != self.seen[g, seat]).any(axis=1)
        g, seat, key = g[new], seat[new], key[new]
        self.seen[g, seat] = key
        self.unforced[g, seat, key[:, 2]] += 1
        self.lies[g, seat, key[:, 2]] += RANK[key[:, 0], key[:, 1]] != key[:, 3]

    monkeypatch.setattr(KarikiBatch, "_observe", forced_too)
    failed = dict(compare(*HEURISTIC[0][:2], bots=HEURISTIC[0][2]))
    assert "event pass" in failed


@pytest.mark.parametrize(
    ("seats", "options"), [(4, {}), (3, {"pull": "at-least"})], ids=["exact", "at-least"]
)
def test_K5_a_wrong_pull_verdict_is_caught(
    seats: int, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check has teeth: judge pulls by the other K5 option and it fails."""

    def other_verdict(self: KarikiBatch, rank, claim):  # type: ignore[no-untyped-def]
        return rank == claim if self.at_least else rank >= claim

    monkeypatch.setattr(KarikiBatch, "_claim_is_true", other_verdict)
    failed = dict(compare(seats, options))
    assert "event pull-true" in failed


def test_K6_passing_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a player pass the same claim again and the roll, pass and pull counts give it away."""

    def never_passed(self: KarikiBatch, g, seat):  # type: ignore[no-untyped-def]
        return np.zeros(g.size, dtype=bool)

    monkeypatch.setattr(KarikiBatch, "_passed_already", never_passed)
    assert "event pass" in dict(compare(3, {}))


def test_K3_forgetting_the_third_crown_berries_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(KarikiBatch, "_third_crown", lambda self, g, roller, in_before: None)
    assert dict(compare(8, {}))


def test_batch_play_of_kariki_refuses_a_bot_it_cannot_play() -> None:
    with pytest.raises(OptionError, match="plays the bots random, heuristic, not solver"):
        play(make_game("kariki"), 10, 1, ["solver"])


def test_batch_play_of_kariki_refuses_a_research_variant() -> None:
    """It plays the game's rules only: a variant would silently be another game."""
    game = make_game("kariki", 2, {"one_round": True, "throws": 1})
    with pytest.raises(OptionError, match=r"no research variant \(one_round, throws\)"):
        play(game, 10, 1)
