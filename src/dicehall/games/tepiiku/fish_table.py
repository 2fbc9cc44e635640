"""The solver's Fish policy as a readable table: scores and pot -> pay, or the runes to reroll.

It is what `dicehall odds tepiiku` shows from the solved tables (and the
Markdown table of docs/strategy.md), with the expected coins of each choice
for a given Fish's hand.

A decision depends on all three hands, not only on their scores; the table
groups the hands of each (Fish, middle, Hook) score triple, weighs each by how
often it is thrown, and shows the weighted most frequent choice: "pay", or the
runes rerolled ("skull", "gem+skull", "all"), with its share when other hands
of the same scores choose otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from dicehall.core.errors import OptionError
from dicehall.core.odds import Cell, OddsTable
from dicehall.games.tepiiku import solver, strategy
from dicehall.games.tepiiku.hands import ACTIONS, FRESH, HANDS, SCORES, hand_index
from dicehall.games.tepiiku.odds import parse_dice, parse_score
from dicehall.games.tepiiku.rules import DICE, SUBSETS
from dicehall.games.tepiiku.solver_odds import MODEL, POTS, not_solved
from dicehall.games.tepiiku.strategy import Tables


def choice_words(hand: int, code: int) -> str:
    if code == solver.PAY:
        return "pay"
    dice = SUBSETS[code - 1]
    if len(dice) == DICE:
        return "all"
    return "+".join(HANDS[hand][i] for i in dice)


def policy_rows(tables: Tables) -> list[list[str]]:
    """(Fish score, middle's, Hook's, then one cell per pot in POTS)."""
    lay = solver.layout()
    weights: dict[tuple[int, int, int, int], dict[str, float]] = defaultdict(
        lambda: defaultdict(float)
    )
    for index, (f, m, h) in enumerate(lay.fish):
        weight = float(FRESH[f] * FRESH[m] * FRESH[h])
        key = (int(SCORES[f]), int(SCORES[m]), int(SCORES[h]))
        for pot in POTS:
            code = int(tables.fish_policy[tables.level(pot), index])
            weights[(*key, pot)][choice_words(int(f), code)] += weight
    rows = []
    for key in sorted({k[:3] for k in weights}):
        cells = [str(k) for k in key]
        for pot in POTS:
            tally = weights[(*key, pot)]
            word, share = max(tally.items(), key=lambda item: item[1])
            share /= sum(tally.values())
            cells.append(word if share > 0.995 else f"{word} ({share:.0%})")
        rows.append(cells)
    return rows


def policy_markdown(tables: Tables) -> str:
    head = ["Fish", "middle", "Hook", *(f"pot {p}" for p in POTS)]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in policy_rows(tables)]
    return "\n".join(lines)


def policy_cells(tables: Tables) -> list[list[Cell]]:
    """The rows of the Fish policy table (`solver_odds.policy_table`): each pot's choice and
    the Fish's expected coins, by scores."""
    lay = solver.layout()
    weight = FRESH[lay.fish[:, 0]] * FRESH[lay.fish[:, 1]] * FRESH[lay.fish[:, 2]]
    keys = SCORES[lay.fish]
    rows: list[list[Cell]] = []
    for row in policy_rows(tables):
        f, m, h = (int(c) for c in row[:3])
        mask = (keys[:, 0] == f) & (keys[:, 1] == m) & (keys[:, 2] == h)
        cells: list[Cell] = [f, m, h]
        for pot, word in zip(POTS, row[3:], strict=True):
            value = tables.fish_value[tables.level(pot), mask, 0].astype(np.float64)
            mean = float(weight[mask] @ value / weight[mask].sum())
            cells.append(f"{word} {mean:+.2f}")
        rows.append(cells)
    return rows


def choices_table(
    tables: Tables, hand: Sequence[str], middle: int, hook: int, pot: int
) -> OddsTable:
    """Every choice of a Fish holding `hand` against those scores: its expected coins."""
    lay = solver.layout()
    f = hand_index(hand)
    middles = np.flatnonzero(np.equal(SCORES, middle))
    hooks = np.flatnonzero(np.equal(SCORES, hook))
    index = lay.fish_at[f][np.ix_(middles, hooks)].ravel()
    weight = np.outer(FRESH[middles], FRESH[hooks]).ravel()
    weight = weight / weight.sum()
    values = sum(w * tables.fish_choices(int(i), pot) for w, i in zip(weight, index, strict=True))
    policy = tables.fish_policy[tables.level(pot), index]
    shares: dict[str, float] = {}
    first: dict[str, int] = {}  # rerolls of the same runes are one choice, one row
    for code in range(1 + ACTIONS):
        word = "pay the pot" if code == solver.PAY else choice_words(f, code)
        first.setdefault(word, code)
        shares[word] = shares.get(word, 0.0) + float(weight[policy == code].sum())
    rows: list[list[Cell]] = []
    for word, code in first.items():
        fish, mid, top = (f"{v:+.3f}" for v in values[code])
        rows.append([word, fish, mid, top, shares[word]])
    return OddsTable(
        title=f"The solver's choices for a Fish with {', '.join(HANDS[f])} (score "
        f"{int(SCORES[f])}) against a middle of {middle} and a Hook of {hook}, pot {pot}, "
        f"{tables.cap} coins",
        columns=["choice", "Fish's expected coins", "middle's", "Hook's", "solver plays it"],
        rows=rows,
        note=MODEL.format(cap=tables.cap)
        + " The middle's and the Hook's hands of those scores are weighed by how often they "
        "are thrown; 'solver plays it' is the share of those hands for which it is the "
        "solver's choice.",
    )


def choices(cap: int, query: Mapping[str, str], pot: int) -> OddsTable:
    """The solver's choices for the Fish of the query (dice, beat, hook) at `pot`."""
    try:
        tables = strategy.tables(cap)
    except strategy.NotSolved:
        return not_solved(cap)
    hand = parse_dice(query["dice"])
    middle, hook = parse_score("beat", query["beat"]), parse_score("hook", query["hook"])
    for name, score in (("beat", middle), ("hook", hook)):
        if not np.equal(SCORES, score).any():
            raise OptionError(f"parameter {name!r}: no throw of three dice scores {score}")
    return choices_table(tables, hand, middle, hook, pot)
