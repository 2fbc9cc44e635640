"""Advice from the solved two-seat strategy: what the solver does, what each choice is worth.

For a two-seat betting decision (and the antes) the panel gives the solver's
chance of each legal action and the seat's chance of winning (the match
for length=single, else the game under the token rule, D12) if it takes
that action and both players follow the solver's strategy from then on.
The other's hidden dice are weighed by Bayes over the bets so far, the
other playing the solver's strategy: raises are evidence, and the solver
itself bluffs, so nothing here assumes that nobody bluffs.

At three to six seats the solver is the bet reader (`reading.py`), and so
is its advice: for each legal action the showdown chances it leads to
against each other player's hidden 2d6 as the round's bets say (Bayes'
rule over an equity bettor who bets otherwise 10% of the time), and which
action the solver takes. Without a solved strategy at two seats the panel
falls back to the game's showdown odds (`games/tao/odds.py`) and says
plainly what they assume.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from dicehall.core import Game, View
from dicehall.core.odds import WIN, OddsTable, values_table
from dicehall.games.tao.odds import advice_table
from dicehall.games.tao.solver.model import NODE_PLAYER, Decision, O, locate, slot_of
from dicehall.games.tao.solver.policy import ante_chances, betting_chances, positions
from dicehall.games.tao.solver.solve import Model, extended, round_pass, token_holding
from dicehall.games.tao.solver.stored import Strategy, stored


@cache
def model() -> Model:
    return Model()


def to_game(view: View, match: float) -> float:
    """The seat's chance of winning the game (D12) from its chance of winning this match."""
    if view["length"] != "token":
        return match
    strategy = stored()
    assert strategy is not None
    m = model()
    ext = extended(m, strategy.values, strategy.ante_o, strategy.ante_x)
    p = float(ext[m.positions.start])  # the opener's chance of winning a match
    holding = token_holding(p, 1 - p)
    not_holding = (1 - p) * holding
    holder = view["token"]["holder"]
    if holder is None:  # the first match: its winner takes the token
        return match * holding + (1 - match) * not_holding
    if holder == view["seat"]:
        return match + (1 - match) * not_holding
    return match * holding


def decision_values(strategy: Strategy, where: Decision) -> tuple[np.ndarray, float]:
    """The seat's chance of winning the match after each slot, and the other's reach weight."""
    m = model()
    lo, hi = where.position, where.position + 1
    ext = extended(m, strategy.values, strategy.ante_o, strategy.ante_x)
    s1, s2 = strategy.chunk(lo, hi)
    p = round_pass(m, lo, hi, s1, s2, m.leaf_values(ext, lo, hi), where.player, False, keep=True)
    stage = "stage1" if where.stage == 1 else "stage2"
    children = p.detail[stage][where.node]
    reach = p.detail["reach1" if where.stage == 1 else "reach2"][0][where.node]
    if where.stage == 1:
        values = np.array([np.broadcast_to(c, (1, m.h))[0, where.hand] for c in children])
        other = float(np.broadcast_to(reach, (1, m.h))[0].sum())
    else:
        shape = (1, 9, m.pairs, m.h)
        values = np.array(
            [np.broadcast_to(c, shape)[0, where.end, where.pair, where.hand] for c in children]
        )
        other = float(np.broadcast_to(reach, shape)[0, where.end, where.pair].sum())
    if other <= 0:
        return np.full(3, np.nan), 0.0
    chance = values / other
    return (chance if where.player == O else 1.0 + chance), other


def advice(game: Game, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable | None:
    if view.get("phase") not in ("bet", "ante") or view.get("seat") is None or not legal:
        return None
    if game.seats > 2:
        return read_advice(game, view, legal) if view["phase"] == "bet" else None
    strategy = stored() if game.seats == 2 else None
    where = None if strategy is None else locate(view, positions())
    if strategy is None or (view["phase"] == "bet" and where is None):
        return fallback(game, view, legal)
    if view["phase"] == "ante":
        chances = ante_chances(strategy, view, legal)
        if chances is None:
            return None
        ante = OddsTable(
            "Solver: your ante",
            ["action", "solver plays it"],
            [[game.action_label(a), c] for a, c in zip(legal, chances, strict=True)],
            note="From the solved two-seat strategy: an ante never rerolls, but a white stone "
            "anted is one fewer reroll to bet with.",
            extra={"model": "solver"},
        )
        return values_table(ante, None, WIN, "solver", [float(c) for c in chances])
    assert where is not None
    chances = betting_chances(strategy, where, legal)
    values, reach = decision_values(strategy, where)
    if reach <= 0:  # no hand of the other's bets this way under the strategy: no posterior
        return fallback(game, view, legal, "the bets so far are a line the solver never plays")
    worth = [to_game(view, float(values[slot_of(a)])) for a in legal]
    now = float(sum(c * w for c, w in zip(chances, worth, strict=True)))
    what = "the match" if view["length"] == "single" else "the game"
    rows: list[list[Any]] = [
        [game.action_label(a), f"{(w - now) * 100:+.2f} points", c, w]
        for a, c, w in zip(legal, chances, worth, strict=True)
    ]
    assert NODE_PLAYER[where.node] == where.player
    table = OddsTable(
        "Solver: your bet",
        [
            "action",
            f"change in your chance of winning {what}",
            "solver plays it",
            f"your chance of winning {what}",
        ],
        rows,
        note=(
            "From the solved two-seat strategy: chances of winning if both players follow it "
            "from here, the other's dice weighed by Bayes over the bets so far (the solver "
            "bluffs, so a raise is evidence, not proof)."
        ),
        extra={"model": "solver", "win_chance": now},
    )
    return values_table(table, list(worth), WIN, "solver", [float(c) for c in chances])


def read_advice(game: Game, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable:
    """Three to six seats: the bet reader's showdown chances of each action, and its choice."""
    from dicehall.games.tao.solver.reading import BetReader, read_chances

    chosen = BetReader(game, view["seat"], random.Random(0)).choose(view, legal)
    rows: list[list[Any]] = []
    for action in legal:
        win, tie = (0.0, 0.0) if action["type"] == "fold" else read_chances(view, action)
        rows.append([game.action_label(action), 1.0 if action == chosen else 0.0, win, tie])
    # No values: showdown chances ignore the stones a choice risks, so they cannot rate it.
    mix = [1.0 if action == chosen else 0.0 for action in legal]
    table = OddsTable(
        "Solver (bet reader): your bet",
        ["action", "solver plays it", "win at the showdown", "tie for highest"],
        rows,
        note="From the solver's model at tables of three or more (no equilibrium is known "
        "there): each other player's hidden 2d6 weighed by Bayes' rule over this round's "
        "bets, as an equity bettor's who bets otherwise one time in ten, so a raise is "
        "evidence, not proof; a white stone means a reroll.",
        extra={"model": "bet reader"},
    )
    return values_table(table, None, WIN, "bet reader", mix)


def fallback(
    game: Game,
    view: View,
    legal: Sequence[Mapping[str, Any]],
    why: str = "no solved strategy is stored for this table",
) -> OddsTable | None:
    table = advice_table(view, legal, game.action_label)
    if table is None:
        return None
    table.title = "Showdown odds if the bets said nothing"
    table.note = (
        f"Not the solver's model ({why}): these treat the others' hidden dice as unknown and "
        "unaffected by how they bet, which a raise or a call is evidence against."
    )
    table.extra = {**(table.extra or {}), "model": "naive showdown"}
    return values_table(table, None, WIN, "naive showdown")
