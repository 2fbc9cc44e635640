"""Exact Tepiiku odds, by enumerating rune faces.

Everything here counts equally likely faces (T1), so every chance is an exact
fraction. The Fish's reroll is classified as T8 does, against the middle's
score (and the Hook's, when known):

    bust         the new score is at most the old one
    still below  better than before but below the middle's score
    tie          equal to the middle's score (or the Hook's)
    beat         above the middle's score and not equal to the Hook's

`dicehall odds tepiiku` prints the score distribution of three dice; with
``dice=fire,water,skull beat=5`` (optionally ``hook=8``), the chances of each
reroll of that throw as a Fish below a middle score of 5. The best reroll
there is the one most likely to reach or pass the target (tie or beat),
fewer busts breaking equal chances.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from dicehall.core.errors import OptionError
from dicehall.core.odds import OddsTable
from dicehall.games.tepiiku.rules import DICE, RUNE, SCORE, SUBSETS

Hand = tuple[str, ...]


@cache
def score_counts() -> tuple[tuple[int, int], ...]:
    """(score, number of the 216 throws with that score), lowest score first."""
    counts = Counter(SCORE[faces] for faces in itertools.product(RUNE, repeat=DICE))
    return tuple(sorted(counts.items()))


def score_chance(score: int) -> Fraction:
    return Fraction(dict(score_counts()).get(score, 0), 6**DICE)


@cache
def reroll_hands(kept: Hand, rolled: int) -> tuple[tuple[Hand, int], ...]:
    """Each hand (sorted faces) that keeping `kept` and rerolling `rolled` dice can give,
    with how many of the 6**rolled equally likely outcomes give it."""
    runes = [str(face) for face in RUNE]
    counts = Counter(
        tuple(sorted(kept + faces)) for faces in itertools.product(runes, repeat=rolled)
    )
    return tuple(counts.items())


def split(hand: Sequence[str], dice: Sequence[int]) -> tuple[Hand, int]:
    """The sorted faces kept and the number of dice rerolled."""
    kept = tuple(sorted(f for i, f in enumerate(hand) if i not in dice))
    return kept, len(dice)


class RerollChances(NamedTuple):
    bust: Fraction
    still: Fraction
    tie: Fraction
    beat: Fraction


def fish_chances(
    hand: Sequence[str], dice: Sequence[int], middle: int, hook: int | None = None
) -> RerollChances:
    """T8's four outcomes of rerolling `dice` of `hand` as the Fish."""
    old = SCORE[tuple(hand)]
    kept, rolled = split(hand, dice)
    tally = [0, 0, 0, 0]
    for new_hand, count in reroll_hands(kept, rolled):
        new = SCORE[new_hand]
        if new <= old:
            tally[0] += count
        elif new < middle:
            tally[1] += count
        elif new in (middle, hook):
            tally[2] += count
        else:
            tally[3] += count
    total = 6**rolled
    return RerollChances(*(Fraction(t, total) for t in tally))


def place_chances(
    hand: Sequence[str], dice: Sequence[int], others: Sequence[int]
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """After rerolling `dice`: chances to end below both others, between, above both, tied."""
    kept, rolled = split(hand, dice)
    tally = [0, 0, 0, 0]
    for new_hand, count in reroll_hands(kept, rolled):
        new = SCORE[new_hand]
        if new in others:
            tally[3] += count
        else:
            tally[sum(1 for o in others if o < new)] += count
    total = 6**rolled
    below, between, above, tied = (Fraction(t, total) for t in tally)
    return below, between, above, tied


def dice_label(dice: Sequence[int]) -> str:
    if len(dice) == DICE:
        return "reroll all dice"
    return "reroll " + " and ".join(f"die {i + 1}" for i in dice)


# --- dicehall odds tepiiku ------------------------------------------------------------


def odds_tables(query: Mapping[str, str]) -> list[OddsTable]:
    unknown = [k for k in query if k not in ("dice", "beat", "hook")]
    if unknown:
        raise OptionError(
            f"unknown odds parameter {unknown[0]!r} for tepiiku; "
            "its parameters are dice, beat and hook"
        )
    if not query:
        return [score_table()]
    if "dice" not in query:
        raise OptionError(
            "parameter 'dice' is required with beat/hook: three runes, e.g. fire,gem,skull"
        )
    hand = parse_dice(query["dice"])
    old = SCORE[hand]
    if "beat" not in query:
        raise OptionError(f"parameter 'beat' is required with dice: a middle score above {old}")
    middle = parse_score("beat", query["beat"])
    if middle <= old:
        raise OptionError(
            f"parameter 'beat' must be above the throw's score {old} (the Fish is lowest); "
            f"got {middle}"
        )
    hook = None
    if "hook" in query:
        hook = parse_score("hook", query["hook"])
        if hook <= middle:
            raise OptionError(f"parameter 'hook' must be above beat ({middle}); got {hook}")
    return [reroll_table(hand, middle, hook)]


def score_table() -> OddsTable:
    total = 6**DICE
    rows: list[list[Any]] = []
    at_least = total
    for value, count in score_counts():
        rows.append([value, count, Fraction(count, total), Fraction(at_least, total)])
        at_least -= count
    return OddsTable(
        title="Score of three rune dice (T2)",
        columns=["score", f"throws of {total}", "chance", "chance of at least"],
        rows=rows,
        note="Ingot 1, Gem 2, Skull -2, Fire 3 and Water 4 (0 together), Persons square.",
    )


def reroll_table(hand: Hand, middle: int, hook: int | None) -> OddsTable:
    old = SCORE[hand]
    rows: list[list[Any]] = []
    best: tuple[Fraction, Fraction] | None = None
    best_label = ""
    for dice in SUBSETS:
        c = fish_chances(hand, dice, middle, hook)
        label = "all three" if len(dice) == DICE else "+".join(hand[i] for i in dice)
        reach = c.tie + c.beat
        rows.append([label, c.bust, c.still, c.tie, c.beat, reach])
        if best is None or (reach, -c.bust) > best:
            best, best_label = (reach, -c.bust), label
    target = f"the middle's {middle}" + ("" if hook is None else f" and the Hook's {hook}")
    return OddsTable(
        title=f"The Fish's rerolls of {', '.join(hand)} (score {old}) against {target} (T8)",
        columns=["reroll", "bust", "still below", "tie", "beat", "tie or beat"],
        rows=rows,
        note=(
            f"bust: new score at most {old}; still below: above {old}, below {middle}; "
            f"tie: equal to {middle}"
            + ("" if hook is None else f" or {hook}")
            + f"; beat: above {middle}"
            + ("" if hook is None else f", not {hook}")
            + f". Best reroll (most likely to tie or beat, then fewest busts): {best_label}."
        ),
        extra={"best": best_label},
    )


def parse_dice(text: str) -> Hand:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in RUNE]
    if bad or len(names) != DICE:
        raise OptionError(
            f"parameter 'dice' must be {DICE} runes separated by commas, each one of "
            f"{', '.join(map(str, RUNE))}; got {text!r}"
        )
    return tuple(names)


def parse_score(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OptionError(f"parameter {name!r} must be a whole number; got {text!r}") from None
    if not -6 <= value <= 12:
        raise OptionError(f"parameter {name!r} must be a score from -6 to 12; got {value}")
    return value
