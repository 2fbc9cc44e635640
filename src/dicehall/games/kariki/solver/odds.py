"""The solver's claims on a fresh roll, as `dicehall odds kariki` prints them, kept on disk.

The rows take a second to compute (the round's tree is built first), so they are
kept in the table cache under a key from the strategy file and the source files
they come from. Reading them back needs neither NumPy nor the solver: those are
imported only to compute the rows on a miss.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicehall.core import Game, diskcache
from dicehall.core.odds import OddsTable
from dicehall.games.kariki.rules import RANK_NAMES, KarikiState
from dicehall.games.kariki.solver.stored import (
    round_model,
    solved_options,
    stored_path,
    strategy_for,
)

if TYPE_CHECKING:
    import numpy as np

SOURCES = ("odds.py", "model.py", "../rules.py", "stored.py")
"""The modules the rows come from (paths from this folder, the solver's; `stored.py` reads
the strategy): a change to any of them recomputes."""


def posterior_table(game: Game) -> OddsTable:
    """How often the solver makes each claim on a fresh roll at 0-0, and how often it is true."""
    options = tuple(sorted(solved_options(game).items()))
    key = _posterior_key(options)
    name = "kariki-posterior-" + diskcache.source_key_of(repr(options))
    rows = diskcache.load(name, key) if key is not None else None
    if rows is None:
        rows = _posterior_rows(game, options)
        if key is not None:
            diskcache.save(name, key, rows)
    return OddsTable(
        "A claim on a fresh roll, by the solver (two seats, no berries yet)",
        ["claim", "how often it is made", "chance it is true"],
        rows,
        note=(
            "The solved two-seat strategy bluffs: these are the chances that a claim it makes "
            "on a fresh roll holds, by Bayes over its throws."
        ),
    )


def _posterior_key(options: tuple[tuple[str, object], ...]) -> str | None:
    """The cache key of the posterior rows, or None while the strategy is not stored yet."""
    path = stored_path(dict(options))
    if path is None:
        return None
    here = Path(__file__).parent
    return diskcache.source_key(path, *(here / source for source in SOURCES))


def _posterior_rows(game: Game, options: tuple[tuple[str, object], ...]) -> list[list[Any]]:
    import numpy as np

    strategy = strategy_for(game)
    model = round_model(options)
    score = strategy.scores.index[model.scores.all[0]]
    tree = model.trees[0, -1]
    policy = strategy.policies[0, -1][score]
    index = tree.infoset_index()
    made = np.zeros(14)
    true = np.zeros(14)
    for child in range(int(tree.first_child[0]), int(tree.first_child[0] + tree.n_children[0])):
        state = tree.states[child]
        assert isinstance(state, KarikiState)
        i = index.get((0, -1, 0, state.dice_rank))
        if i is None:
            continue  # a Kariki, shown at once
        start = int(tree.infoset_sa[i])
        chances = policy[start : start + 14] * tree.chance[child]
        made += chances
        true[state.dice_rank] += chances[state.dice_rank]
    at_least = game.options["pull"] == "at-least"
    if at_least:
        true = np.array([sum(_true_at_least(tree, index, policy, c)) for c in range(14)])
    return [
        [RANK_NAMES[c], float(made[c] / made.sum()), float(true[c] / made[c])]
        for c in range(13, -1, -1)
        if made[c] / made.sum() >= 0.0005
    ]


def _true_at_least(tree: Any, index: dict[Any, int], policy: np.ndarray, claim: int) -> list[float]:
    out = []
    for child in range(int(tree.first_child[0]), int(tree.first_child[0] + tree.n_children[0])):
        state = tree.states[child]
        i = index.get((0, -1, 0, state.dice_rank))
        if i is None or state.dice_rank < claim:
            continue
        out.append(float(policy[int(tree.infoset_sa[i]) + claim] * tree.chance[child]))
    return out
