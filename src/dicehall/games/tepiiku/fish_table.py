"""The solver's Fish policy as a readable table: scores and pot -> pay, or the runes to reroll.

A decision depends on all three hands, not only on their scores; the table
groups the hands of each (Fish, middle, Hook) score triple, weighs each by how
often it is thrown, and shows the weighted most frequent choice: "pay", or the
runes rerolled ("skull", "gem+skull", "all"), with its share when other hands
of the same scores choose otherwise.
"""

from __future__ import annotations

from collections import defaultdict

from dicehall.games.tepiiku import solver
from dicehall.games.tepiiku.hands import FRESH, HANDS, SCORES
from dicehall.games.tepiiku.rules import DICE, SUBSETS
from dicehall.games.tepiiku.strategy import Tables

POTS = (1, 2, 3, 4)


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
