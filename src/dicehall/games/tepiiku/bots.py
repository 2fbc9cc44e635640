"""The heuristic Tepiiku bot: exact reroll odds under a simple model of what follows.

It sees only its seat's view.

Thumbs (T5): up when its own score is better than a random throw's more often
than not (mid-rank percentile above one half), since a strong throw is likely
to make it the Hook, who collects the pot, and a weak one the Fish, who pays.

The Fish's choice (T8): the expected coins lost by each choice, enumerating
every face the rerolled dice can show. Paying costs the pot. A reroll's
outcomes cost (every loss capped at the coins the bot has, T3):

    bust        twice the pot
    still       the best choice again with the new dice and the pot + 1 (exact
                recursion: the score rises each time, so it ends)
    tie middle  the pot doubles and the middle rerolls, modelled as a fresh
                throw: if it lands above the bot, the bot is the Fish again and
                is charged the doubled pot; landing equal charges half of the
                pot doubled again; below, the bot is safe (0)
    tie Hook    the Hook rerolls, again a fresh throw: below the bot, the bot
                becomes the Hook and is credited half the doubled pot
    beat        above the Hook: the bot is the Hook, credited half the doubled
                pot (the new Fish may still escape); otherwise 0

Tie and forced rerolls (T6, T8): the set of dice with the best expected place
against the others' present scores (lowest -1, middle 0, highest +1, a tie 0
between the places it splits).

The odds panel of the heuristic (`advice_table`) shows those numbers beside
the exact chances of `odds.py`: it is here, not in `odds.py`, because the
Fish's costs are the heuristic's model, and `odds.py` stays below the bot.
The solver's advice shows it while a cap's tables are not solved.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from dicehall.core.game import Action, Game, View
from dicehall.core.odds import COINS, OddsTable, values_table
from dicehall.games.tepiiku.odds import (
    dice_label,
    fish_chances,
    place_chances,
    reroll_hands,
    score_counts,
    split,
)
from dicehall.games.tepiiku.rules import (
    PAY,
    REROLLS,
    SCORE,
    SUBSETS,
    THUMBS_DOWN,
    THUMBS_UP,
)

Hand = tuple[str, ...]
HOOK_SHARE = 0.5
"""The part of the doubled pot a new Hook expects to collect."""

THROWS = 216


def _fresh_cumulative() -> tuple[dict[int, float], dict[int, float]]:
    below: dict[int, float] = {}
    equal: dict[int, float] = {}
    seen = 0
    for value, count in score_counts():
        below[value] = seen / THROWS
        equal[value] = count / THROWS
        seen += count
    return below, equal


FRESH_BELOW, FRESH_EQUAL = _fresh_cumulative()


def fresh_below(score: int) -> float:
    """Chance that a fresh throw of three dice scores below `score`."""
    if score in FRESH_BELOW:
        return FRESH_BELOW[score]
    return 0.0 if score < min(FRESH_BELOW) else 1.0


def percentile(score: int) -> float:
    """Mid-rank percentile of a score among all throws: ties count half."""
    return fresh_below(score) + FRESH_EQUAL.get(score, 0.0) / 2


@lru_cache(maxsize=200_000)
def choice_cost(hand: Hand, pot: int, middle: int, hook: int, coins: int) -> float:
    """Expected coins lost by the Fish's best choice (pay or reroll), `hand` sorted."""
    best = float(min(pot, coins))
    for dice in SUBSETS:
        best = min(best, reroll_cost(hand, dice, pot, middle, hook, coins))
    return best


def reroll_cost(
    hand: Hand, dice: Sequence[int], pot: int, middle: int, hook: int, coins: int
) -> float:
    old = SCORE[hand]
    kept, rolled = split(hand, dice)
    doubled = 2 * pot
    total = 0.0
    for new_hand, count in reroll_hands(kept, rolled):
        new = SCORE[new_hand]
        if new <= old:
            cost = float(min(doubled, coins))
        elif new < middle:
            cost = choice_cost(new_hand, pot + 1, middle, hook, coins)
        elif new == middle:
            above = 1.0 - fresh_below(new) - FRESH_EQUAL.get(new, 0.0)
            cost = (
                above * min(doubled, coins)
                + FRESH_EQUAL.get(new, 0.0) * min(2 * doubled, coins) / 2
            )
        elif new == hook:
            cost = -fresh_below(new) * HOOK_SHARE * doubled
        elif new > hook:
            cost = -HOOK_SHARE * doubled
        else:
            cost = 0.0
        total += count * cost
    return total / float(6**rolled)


def fish_costs(
    hand: Sequence[str], pot: int, middle: int, hook: int, coins: int
) -> dict[tuple[int, ...], float]:
    """Expected cost of each reroll (die indices) of the Fish's hand; paying costs the pot."""
    ordered = tuple(hand)
    return {dice: reroll_cost(ordered, dice, pot, middle, hook, coins) for dice in SUBSETS}


def place_value(hand: Sequence[str], dice: Sequence[int], others: Sequence[int]) -> float:
    """Expected place after rerolling `dice`: -1 lowest, 0 middle, +1 highest."""
    kept, rolled = split(hand, dice)
    total = 0.0
    for new_hand, count in reroll_hands(kept, rolled):
        new = SCORE[new_hand]
        place = sum(1.0 if o < new else 0.5 if o == new else 0.0 for o in others) - 1.0
        total += count * place
    return total / float(6**rolled)


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        seat = self.seat
        phase = view["phase"]
        hand = view["dice"][seat]
        scores = view["scores"]
        if phase == "bet":
            return THUMBS_UP if percentile(scores[seat]) > 0.5 else THUMBS_DOWN
        if phase == "fish":
            roles = view["roles"]
            middle, hook = scores[roles["middle"]], scores[roles["hook"]]
            pot, coins = view["pot"], view["coins"][seat]
            costs = fish_costs(hand, pot, middle, hook, coins)
            dice = min(SUBSETS, key=costs.__getitem__)
            return PAY if min(pot, coins) <= costs[dice] else _reroll(dice, legal)
        # ties or forced: a reroll is due
        others = [scores[s] for s in range(3) if s != seat]
        dice = max(SUBSETS, key=lambda d: place_value(hand, d, others))
        return _reroll(dice, legal)


def _reroll(dice: tuple[int, ...], legal: Sequence[Action]) -> Action:
    action = REROLLS[SUBSETS.index(dice)]
    return action if action in legal else legal[0]


# --- the odds panel: the heuristic's numbers -------------------------------------------


def advice_table(view: View, legal: Sequence[Action]) -> OddsTable | None:
    """The Fish's choice (T8) or a tie/forced reroll's landing places, from the view."""
    seat = view.get("seat")
    if seat is None or not legal or view.get("dice", [None] * 3)[seat] is None:
        return None
    hand = tuple(view["dice"][seat])
    scores = view["scores"]
    phase = view.get("phase")
    rerolls = [a for a in legal if a.get("type") == "reroll"]
    if phase == "fish" and view.get("roles"):
        roles = view["roles"]
        middle, hook = scores[roles["middle"]], scores[roles["hook"]]
        pot, coins = view["pot"], view["coins"][seat]
        costs = fish_costs(hand, pot, middle, hook, coins)
        rows: list[list[Any]] = [["pay the pot", "", "", "", "", f"{min(pot, coins)}"]]
        for action in rerolls:
            dice = tuple(action["dice"])
            c = fish_chances(hand, dice, middle, hook)
            rows.append([dice_label(dice), c.bust, c.still, c.tie, c.beat, f"{costs[dice]:.2f}"])
        values: list[float | None] = [
            -float(min(pot, coins)) if a.get("type") == "pay" else -costs[tuple(a["dice"])]
            for a in legal
        ]
        table = OddsTable(
            title=f"Your choice as the Fish: score {SCORE[hand]}, middle {middle}, Hook {hook}",
            columns=["choice", "bust", "still the Fish", "tie", "beat", "expected cost"],
            rows=rows,
            note="Expected cost in coins under the heuristic bot's model (see its docs).",
        )
        return values_table(table, values, COINS, "heuristic's cost model")
    if phase in ("ties", "forced") and rerolls:
        others = [scores[s] for s in range(3) if s != seat]
        rows = []
        for action in rerolls:
            dice = tuple(action["dice"])
            rows.append([dice_label(dice), *place_chances(hand, dice, others)])
        return OddsTable(
            title=f"Where your reroll lands against scores {others[0]} and {others[1]}",
            columns=["reroll", "lowest", "middle", "highest", "tied again"],
            rows=rows,
            note="Against the others' present scores; tied players reroll at the same time (T6).",
        )
    return None
