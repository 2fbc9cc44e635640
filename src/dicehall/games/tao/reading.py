"""Reading the bets at Tao Dice tables of three to six: what each hidden 2d6 is likely to be.

The heuristic bets as if every opponent's hidden dice were a fresh throw.
They are not: a player who raised first holds strong dice more often than
not, one who passed holds weak ones, and one who paid a white stone in
stage one has thrown again (D5), so nothing earlier says anything about
the new dice. `hands` replays the round's public bets (`view["bets"]`,
with the pot and each player's stones as they were at each bet) and
weighs each opponent's 2d6 sum by Bayes' rule, modelling every opponent as
a bettor by showdown equity (`bots.equity_choice`, what the heuristic
does) who bets otherwise `SLIP` of the time (so a bettor of another kind
leaves the weights near the plain dice odds instead of at zero).

`BetReader` is the `solver` bot's play at three to six seats: the
heuristic's rules of thumb (raise above a fair share, call when the pot
pays for the risk, a white stone when a reroll helps) on the showdown
equity against those weighed hands, plus the two-seat solution's plainest
lesson, buying a reroll of weak dice with a white raise. It reads its own
view only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dicehall.core import Action, View
from dicehall.games.tao.bots import HeuristicBot, equity_choice, number_cache, pay_with
from dicehall.games.tao.odds import TWO_D6_WAYS, Position
from dicehall.games.tao.rules import CALL_CHOICES, CALLS, FOLD, OPEN_CHOICES, PASS, RAISES

Array = np.ndarray[Any, np.dtype[np.float64]]

SUMS = tuple(range(2, 13))
PRIOR: Array = np.array(TWO_D6_WAYS[2:13], dtype=np.float64) / 36
"""The chances of a fresh 2d6's sums 2..12."""
SLIP = 0.1
"""How often the model lets an opponent bet otherwise than an equity bettor would."""
RAISE_MARGIN = 1.1
"""Open with a raise when the read equity exceeds this many times an equal share."""
BUY_MARGIN = 1.25
"""Buy a reroll (raise with white in stage one) when it raises the equity by this factor."""


def hands(view: View) -> dict[int, Array]:
    """Each other player's chances of each 2d6 sum (2..12), as their bets this round say."""
    me = view["seat"]
    m = view["m"]
    players = view["players"]
    bets: Sequence[Mapping[str, Any]] = view["bets"]
    stones = {p["seat"]: [p["black"], p["white"]] for p in players}
    pot = view["pot"]["black"] + view["pot"]["white"]
    for bet in bets:  # back to the stones and pot of the round's first bet
        stones[bet["seat"]][0] += bet["black"]
        stones[bet["seat"]][1] += bet["white"]
        pot -= bet["black"] + bet["white"]
    in_round = [p["seat"] for p in players if p["status"] in ("in", "folded")]
    d12 = {p["seat"]: p["d12"] for p in players}
    weights = {s: PRIOR.copy() for s in in_round if s != me}
    rethrown: set[int] = set()  # paid white in stage one: the 2d6 are thrown again
    white_now: set[int] = set()  # paid white in this stage so far
    stage = 1
    for bet in bets:
        if bet["stage"] != stage:
            stage, white_now = bet["stage"], set()
            for s in rethrown & weights.keys():
                weights[s] = PRIOR.copy()
        seat, kind = bet["seat"], bet["type"]
        black, white = stones[seat]
        pay = min(m, black + white)
        if seat in weights and pay > 0:
            split = (max(0, pay - black), min(white, pay))
            seen: list[int | None] = [
                None if stage == 1 or s in white_now else d12[s] for s in in_round if s != seat
            ]
            others = tuple(sorted(seen, key=lambda d: -1 if d is None else d))
            own = d12[seat] if stage == 2 else None
            done = (kind, int(bet["white"]))
            likely = likelihood(stage, own, others, split, pot, pay, done)
            w = weights[seat] * likely
            weights[seat] = w / w.sum()
        stones[seat][0] -= bet["black"]
        stones[seat][1] -= bet["white"]
        pot += bet["black"] + bet["white"]
        if kind == "fold":
            in_round.remove(seat)
        if bet["white"] > 0:
            white_now.add(seat)
            if stage == 1:
                rethrown.add(seat)
    if view["stage"] == 2 and stage == 1:  # stage one's rerolls are made
        for s in rethrown & weights.keys():
            weights[s] = PRIOR.copy()
    return weights


@number_cache(1 << 16)
def likelihood(
    stage: int,
    own: int | None,
    others: tuple[int | None, ...],
    split: tuple[int, int],
    pot: int,
    pay: int,
    done: tuple[str, int],
) -> Array:
    """The chance of the bet `done` (kind, white stones) given each 2d6 sum, by the model
    of an equity bettor with `pay` stones to pay, `split` the least and most of them white."""
    kind, white = done
    opening = kind in ("pass", "raise")
    legal = OPEN_CHOICES[split] if opening else CALL_CHOICES[split]
    action = {"pass": PASS, "fold": FOLD, "raise": RAISES[white], "call": CALLS[white]}[kind]
    chosen = [
        equity_choice(Position(s, own, others), stage, legal, pot, pay) == action for s in SUMS
    ]
    return SLIP / len(legal) + (1 - SLIP) * np.array(chosen, dtype=np.float64)


def totals(sums: Array, d12: int | None) -> Array:
    """Chances of each total 0..24 from the chances of the sums 2..12 and a d12 (None: unknown)."""
    two = np.zeros(13)
    two[2:] = sums
    twelve = np.zeros(13)
    if d12 is None:
        twelve[1:] = 1 / 12
    else:
        twelve[d12] = 1.0
    return np.convolve(two, twelve)[:25]


def equity(own: Array, opponents: Sequence[Array]) -> float:
    """The share of the pot expected against independent totals, a tie counting half."""
    below = np.ones(25)
    upto = np.ones(25)
    for other in opponents:
        cdf = np.cumsum(other)
        upto *= cdf
        below[1:] *= cdf[:-1]
        below[0] = 0.0
    win = float(own @ below)
    return win + float(own @ (upto - below)) / 2


class BetReader(HeuristicBot):
    """The heuristic's rules on the equity against read hands, buying rerolls of weak dice."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or legal[0]["type"] == "ante":
            return legal[0]
        players = view["players"]
        stage = view["stage"]
        me = players[view["seat"]]
        read = hands(view)
        opponents = [
            totals(read[p["seat"]], None if stage == 1 or p["must_reroll"] else p["d12"])
            for p in players
            if p["status"] == "in" and p["seat"] != view["seat"]
        ]
        dice = me["dice"]
        held = np.zeros(11)
        held[dice[0] + dice[1] - 2] = 1.0
        keep = equity(totals(held, me["d12"] if stage == 2 else None), opponents)
        rethrow = (
            totals(PRIOR, None) if stage == 1 else totals(held, None)
        )  # stage two rerolls the d12 only
        reroll = equity(rethrow, opponents)
        whites = any(a.get("white", 0) > 0 for a in legal)
        wants_reroll = reroll > keep
        best = max(keep, reroll) if whites else keep
        if legal[0]["type"] == "pass":
            if stage == 1 and whites and reroll > BUY_MARGIN * keep:
                return pay_with(legal, "raise", True)
            if best * (len(opponents) + 1) > RAISE_MARGIN:
                return pay_with(legal, "raise", wants_reroll)
            return legal[0]
        cost = min(view["m"], me["black"] + me["white"])
        pot = view["pot"]["black"] + view["pot"]["white"]
        if cost == 0 or best * (pot + cost) >= cost:
            return pay_with(legal, "call", wants_reroll)
        return legal[-1]
