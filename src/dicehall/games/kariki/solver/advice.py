"""Advice from the solved strategy: what the solver would do, and what each choice is worth.

For the seat to act (a claim or an answer) the advice gives:

- the solver's chance of each legal action;
- the seat's chance of winning the game if it takes that action and everyone
  plays the solver's strategy from then on, and its change against the
  solver's own mix;
- for an answer, the chance that the claim is true given the claims so far,
  if the thrower plays the solver's strategy (Bayes over the dice under the
  mug, in the subgame tree the strategy was solved on).

The numbers come from the two-seat game. At more seats they treat the
decision as the two-seat game between the seat and the claim's owner (or,
claiming, the next player): a model, which the panel says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from dicehall.core import Game, View
from dicehall.core.odds import WIN, OddsTable, values_table
from dicehall.games.kariki.bots import next_in
from dicehall.games.kariki.odds import advice as truthful_advice
from dicehall.games.kariki.render import action_label
from dicehall.games.kariki.rules import RANK_NAMES, RANK_OF_ID, KarikiState
from dicehall.games.kariki.solver.bot import two_seat_position
from dicehall.games.kariki.solver.model import (
    InfosetKey,
    RoundModel,
    infoset_key,
    settle,
    subgame_of,
)
from dicehall.games.kariki.solver.solve import Subgame
from dicehall.games.kariki.solver.stored import (
    Strategy,
    round_model,
    solved_options,
    stored_strategy,
)
from dicehall.strategy.passes import Passes


@cache
def _passes(key: tuple[tuple[str, object], ...], subgame: Subgame) -> Passes:
    return Passes(round_model(key).trees[subgame])


def position(view: View, strategy: Strategy) -> tuple[int, Subgame, InfosetKey]:
    """The two-seat decision this view is: as the solver bot plays it, or, answering at more
    seats, the seat (as seat 0) against the claim's owner."""
    if len(view["out"]) == 2 or view["phase"] == "claim":
        return two_seat_position(view, strategy.scores)
    me, roller, owner = int(view["seat"]), int(view["roller"]), int(view["claim_owner"])
    kind, claim, _, rank = infoset_key(view)
    passes = 1 if me == roller else 2 if me in view["pass_chain"] else 0
    score = strategy.scores.of_view(view, me, owner)
    return score, (0 if me == roller else 1, subgame_of(view)[1]), (kind, claim, passes, rank)


def subgame_values(
    model: RoundModel, strategy: Strategy, score: int, subgame: Subgame
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(policy, leaf values, reach of seat 0, of seat 1) of one subgame at one score."""
    tree = model.trees[subgame]
    leaf = np.empty((1, len(tree.leaf_labels)))
    for j, label in enumerate(tree.leaf_labels):
        assert isinstance(label, tuple)
        if label[0] == "roll":
            leaf[0, j] = strategy.values[score, label[1], label[2] + 1]
        else:
            end = model.ends[label[1:]][score]
            leaf[0, j] = settle(end, model.scores, strategy.values[:, :, 0], lambda s, w: True)
    policy = strategy.policies[subgame][score][None, :]
    key = tuple(sorted(solved_options(model.game).items()))
    r0, r1 = _passes(key, subgame).reach(policy)
    return policy, leaf, r0, r1


def advice(game: Game, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable | None:
    if view.get("phase") not in ("claim", "respond") or not legal:
        return None
    options = tuple(sorted(solved_options(game).items()))
    strategy = stored_strategy(game)
    if strategy is None:  # never solve on a request: say how to get the solver's numbers
        fallback = truthful_advice(view, legal, at_least=game.options["pull"] == "at-least")
        if fallback is not None:
            flags = " ".join(f"-o {name}={value}" for name, value in options).lower()
            fallback.note += (
                " These options have no solved strategy yet, so this is the truthful model,"
                f" which assumes nobody bluffs; `dicehall solve kariki {flags}` makes one."
            )
            values_table(fallback, None, WIN, "truthful model (no solved strategy)")
        return fallback
    model = round_model(options)
    score, subgame, key = position(view, strategy)
    tree = model.trees[subgame]
    passes = _passes(options, subgame)
    policy, leaf, r0, r1 = subgame_values(model, strategy, score, subgame)
    v = passes.values(policy, leaf)[0]
    i = tree.infoset_index()[key]
    seat = int(tree.infoset_player[i])
    nodes = np.flatnonzero(tree.node_infoset == i)
    opp = (r1 if seat == 0 else r0)[0, nodes] * passes.chance_reach[nodes]
    unlikely = not opp.sum() > 0  # claims the solver never makes: weigh the dice by chance
    if unlikely:
        opp = passes.chance_reach[nodes].astype(float)
    belief = opp / opp.sum()
    mine = v if seat == 0 else 1.0 - v
    now = float(belief @ mine[nodes])
    first = int(tree.infoset_sa[i])
    rows: list[list[Any]] = []
    worths: list[float | None] = []
    for a, action in enumerate(legal):
        worth = float(belief @ mine[tree.first_child[nodes] + a])
        worths.append(worth)
        rows.append(
            [
                action_label(action),
                f"{(worth - now) * 100:+.2f} points",
                float(policy[0, first + a]),
                worth,
            ]
        )
    two = len(view["out"]) == 2
    model_words = (
        "the solved two-seat strategy"
        if two
        else f"the solved two-seat strategy, as if you played only against {_other(view)}"
    )
    extra: dict[str, Any] = {"model": "solver", "win_chance": now}
    note = f"From {model_words}: chances of winning the game if everyone plays it."
    if unlikely:
        note += (
            " The solver never makes the claims so far, so the dice under the mug are"
            " weighed by their chances alone."
        )
    title = "Solver: your claim"
    if view["phase"] == "respond":
        claim = RANK_OF_ID[view["claim"]]
        at_least = game.options["pull"] == "at-least"
        true = np.array([_holds(tree.states[n], claim, at_least) for n in nodes], dtype=float)
        chance_true = float(belief @ true)
        extra["claim_true"] = chance_true
        title = f"Solver on {RANK_NAMES[claim]}"
        note += (
            f" The claim is true with chance {chance_true:.1%}, given the claims so far"
            " and the thrower playing the solver's strategy."
        )
    table = OddsTable(
        title,
        ["action", "change in your chance of winning", "solver plays it", "your chance of winning"],
        rows,
        note=note,
        extra=extra,
    )
    mix = [float(policy[0, first + a]) for a in range(len(legal))]
    name = "solver" if two else f"solver (two-seat model, against the {_other(view)})"
    return values_table(table, worths, WIN, name, mix)


def _holds(state: object, claim: int, at_least: bool) -> bool:
    assert isinstance(state, KarikiState)
    rank = state.dice_rank
    return rank >= claim if at_least else rank == claim


def _other(view: View) -> str:
    """The other player of the two-seat model, "seat N" as interfaces name it."""
    if view["phase"] == "claim":
        return f"the next player, seat {next_in(view, int(view['seat']))}"
    return f"the claim's owner, seat {view['claim_owner']}"
