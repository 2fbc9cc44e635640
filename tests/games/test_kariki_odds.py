"""Kariki odds: every exact fraction checked against the 36 throws of two dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from dicehall.core import OptionError
from dicehall.games import make_game
from dicehall.games.kariki.odds import (
    advice,
    beat_chance,
    odds_tables,
    rank_chance,
    truthful_claim_chance,
)
from dicehall.games.kariki.rules import KARIKI, RANK, RANK_IDS

THROWS = list(product(range(1, 7), repeat=2))


def truthful_claim(throw_rank: int, previous: int) -> int:
    """The model's claimant: the truth if legal, else the lowest legal rank."""
    return throw_rank if throw_rank > previous else previous + 1


def test_rank_chances_by_enumeration() -> None:
    for rank in range(KARIKI + 1):
        count = sum(1 for a, b in THROWS if RANK[a][b] == rank)
        assert rank_chance(rank) == Fraction(count, 36)
    assert rank_chance(KARIKI) == Fraction(2, 36)
    assert rank_chance(RANK_IDS.index("6-6")) == Fraction(1, 36)
    assert rank_chance(RANK_IDS.index("9")) == Fraction(4, 36)  # 3-6, 6-3, 4-5, 5-4
    assert sum(rank_chance(r) for r in range(KARIKI + 1)) == 1


def test_beat_chances_by_enumeration() -> None:
    for claim in range(KARIKI):
        beats = sum(1 for a, b in THROWS if RANK[a][b] > claim)
        assert beat_chance(claim) == Fraction(beats, 36)
    assert beat_chance(RANK_IDS.index("6-6")) == Fraction(2, 36)  # only a Kariki


@pytest.mark.parametrize("previous", range(-1, 13))
def test_truthful_claim_chance_by_enumeration(previous: int) -> None:
    hidden = [(a, b) for a, b in THROWS if RANK[a][b] != KARIKI]  # a Kariki is shown
    for claim in range(previous + 1, KARIKI):
        made = [RANK[a][b] for a, b in hidden if truthful_claim(RANK[a][b], previous) == claim]
        if not made:
            continue
        true = sum(1 for rank in made if rank == claim)
        assert truthful_claim_chance(claim, previous) == Fraction(true, len(made))


def test_fresh_claims_by_a_truthful_player_are_always_true() -> None:
    assert all(truthful_claim_chance(c) == 1 for c in range(KARIKI))
    # after a claim of Nine, a claim of Ten is true only if Ten was thrown
    nine, ten = RANK_IDS.index("9"), RANK_IDS.index("10")
    assert truthful_claim_chance(ten, nine) == Fraction(
        2, 2 + 24
    )  # 4-6, 6-4 against 24 throws of Nine or less


def test_odds_tables() -> None:
    ranks, trust = odds_tables()
    assert ranks.rows[0][0] == "kariki" and ranks.rows[-1][0] == "4"
    assert sum(row[3] for row in ranks.rows) == 1  # type: ignore[misc]
    assert len(trust.rows) == 14 and trust.rows[0][2] == 1
    shown, solver = make_game("kariki").odds({})
    assert shown == ranks  # the truthful model's trust table is not shown: the solver's is
    assert solver.columns == ["claim", "how often it is made", "chance it is true"]
    with pytest.raises(OptionError):
        make_game("kariki").odds({"dice": "2"})


def test_advice_for_the_responder_and_the_thrower() -> None:
    view = {"phase": "respond", "claim": "10", "previous_claim": "9", "your_dice": None}
    table = advice(view, [{"type": "roll"}, {"type": "pull"}, {"type": "pass"}])
    assert table is not None
    chances = {row[0]: row[2] for row in table.rows}
    assert chances["pass"] == Fraction(1, 13)
    assert chances["pull"] == Fraction(12, 13)
    assert chances["roll"] == beat_chance(RANK_IDS.index("10"))
    mine = advice({**view, "your_dice": [4, 6]}, [{"type": "pull"}, {"type": "pass"}])
    assert mine is not None
    assert {row[0]: row[2] for row in mine.rows} == {"pull": 0, "pass": 1}
    claims = [{"type": "claim", "rank": "5-5"}, {"type": "claim", "rank": "6-6"}]
    claiming = advice({"phase": "claim", "claim": "11", "your_dice": [5, 5]}, claims)
    assert claiming is not None
    assert claiming.rows[1][2] == Fraction(2, 36)
    assert [row[3] for row in claiming.rows] == ["yes", "no"]
