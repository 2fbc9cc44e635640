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

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dicehall.core import Action, View
from dicehall.games.tao.bots import HeuristicBot, bet_by_equity, number_cache, pay_with
from dicehall.games.tao.odds import TWO_D6_WAYS
from dicehall.games.tao.rules import CALL_CHOICES, CALLS, FOLD, OPEN_CHOICES, PASS, RAISES
from dicehall.games.tao.solver.equity import equity

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
    return Reading(view).hands(view)


_last = threading.local()
"""The last reading made in each thread (`Reading.of`)."""


class Reading:
    """One seat's reading of a round's public bets, up to the last bet it has read.

    The bets are public, so the reading of every player's hand is the same
    for every seat, and the bets of a round only grow: the bots of a thread
    share one reading (`Reading.of`) and go on from it at their next decision
    in the round instead of reading the round again from its first bet: the
    same numbers, bet for bet. Read from the seat's view alone: the stones
    and pot of the round's first bet are found by taking every bet back from
    the view's, and a reading goes on only if it read the start of exactly
    these bets.
    """

    def __init__(self, view: View) -> None:
        self.key = _round_key(view)
        _, _, start_stones, pot = self.key
        self.stones = {seat: list(held) for seat, held in start_stones}
        self.pot = pot
        self.in_round = [p["seat"] for p in view["players"] if p["status"] in ("in", "folded")]
        self.weights = {s: PRIOR.copy() for s in self.in_round}
        self.rethrown: set[int] = set()  # paid white in stage one: the 2d6 are thrown again
        self.white_now: set[int] = set()  # paid white in this stage so far
        self.stage = 1
        self.read: list[Mapping[str, Any]] = []  # the bets read, as the view gave them

    @classmethod
    def of(cls, view: View) -> Reading:
        """This thread's last reading if it read the start of this view's round and bets,
        else a fresh one (then this thread's last)."""
        earlier: Reading | None = getattr(_last, "reading", None)
        if earlier is not None:
            bets = view["bets"]
            done = len(earlier.read)
            if (
                done <= len(bets)
                and (done == 0 or bets[done - 1] == earlier.read[-1])
                and earlier.key == _round_key(view)
                and bets[:done] == earlier.read
            ):
                return earlier
        _last.reading = reading = cls(view)
        return reading

    def hands(self, view: View) -> dict[int, Array]:
        """Each other player's chances of each 2d6 sum after every bet of `view`."""
        return {s: w for s, w in self.everyone(view).items() if s != view["seat"]}

    def everyone(self, view: View) -> dict[int, Array]:
        """Every player's chances of each 2d6 sum after every bet of `view`."""
        m = view["m"]
        weights, stones, in_round = self.weights, self.stones, self.in_round
        bets: Sequence[Mapping[str, Any]] = view["bets"]
        unread = bets[len(self.read) :]
        d12 = {p["seat"]: p["d12"] for p in view["players"]} if unread else {}
        for bet in unread:
            if bet["stage"] != self.stage:
                self.stage, self.white_now = bet["stage"], set()
                for s in self.rethrown & weights.keys():
                    weights[s] = PRIOR.copy()
            stage = self.stage
            seat, kind = bet["seat"], bet["type"]
            black, white = stones[seat]
            pay = min(m, black + white)
            if seat in weights and pay > 0:
                split = (max(0, pay - black), min(white, pay))
                seen = [
                    None if stage == 1 or s in self.white_now else d12[s]
                    for s in in_round
                    if s != seat
                ]
                shown = sorted([d for d in seen if d is not None])
                others = (None,) * (len(seen) - len(shown)) + tuple(shown)  # unknown first
                own = d12[seat] if stage == 2 else None
                done = (kind, int(bet["white"]))
                likely = likelihood(stage, own, others, split, self.pot, pay, done)
                w = weights[seat] * likely
                weights[seat] = w / w.sum()
            stones[seat][0] -= bet["black"]
            stones[seat][1] -= bet["white"]
            self.pot += bet["black"] + bet["white"]
            if kind == "fold":
                in_round.remove(seat)
            if bet["white"] > 0:
                self.white_now.add(seat)
                if stage == 1:
                    self.rethrown.add(seat)
            self.read.append(bet)
        now = dict(weights)
        if view["stage"] == 2 and self.stage == 1:  # stage one's rerolls are made
            for s in self.rethrown & now.keys():
                now[s] = PRIOR.copy()
        return now


def _round_key(view: View) -> tuple[Any, ...]:
    """The round, and every player's stones and the pot as they were at its first bet."""
    stones = {p["seat"]: [p["black"], p["white"]] for p in view["players"]}
    pot = view["pot"]["black"] + view["pot"]["white"]
    for bet in view["bets"]:  # back to the stones and pot of the round's first bet
        stones[bet["seat"]][0] += bet["black"]
        stones[bet["seat"]][1] += bet["white"]
        pot -= bet["black"] + bet["white"]
    start = tuple((seat, tuple(held)) for seat, held in stones.items())
    return ((view["match"], view["round"], view["tiebreak"]), view["m"], start, pot)


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
    keeps, rerolls = equity_table(stage, own, others)
    chosen = [
        bet_by_equity(keep, reroll, len(others), legal, pot, pay) == action
        for keep, reroll in zip(keeps, rerolls, strict=True)
    ]
    return SLIP / len(legal) + (1 - SLIP) * np.array(chosen, dtype=np.float64)


@number_cache(1 << 17)
def equity_table(
    stage: int, own: int | None, others: tuple[int | None, ...]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """`bots.equities` of every 2d6 sum (2..12) at once: keeping, and rerolling the stage's
    dice, with one's own d12 `own` against the others' d12s (None: not known).

    The batch simulator's whole-number arrays (`solver.equity.equity`, equal to
    `odds.equity` to the last bit), asked for all eleven sums in one call.
    """
    sums = np.array(SUMS)
    none = np.zeros_like(sums)
    d12 = np.full_like(sums, own or 0)
    opponents = np.ones((len(SUMS), len(others)), dtype=bool)
    their = np.tile(np.array([d or 0 for d in others], dtype=np.int64), (len(SUMS), 1))
    keep = equity(sums, d12, opponents, their)
    reroll = (
        equity(none, d12, opponents, their) if stage == 1 else equity(sums, none, opponents, their)
    )
    return tuple(keep.tolist()), tuple(reroll.tolist())  # tuples: the collector drops them


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


def _frozen(array: Array) -> Array:
    array.setflags(write=False)
    return array


@number_cache(1 << 10)
def own_totals(two_d6: int | None, d12: int | None) -> Array:
    """`totals` of one's own dice: the 2d6's sum known (None: thrown again), the d12 known or
    not (None), kept (read-only) for every later decision."""
    if two_d6 is None:
        return _frozen(totals(PRIOR, d12))
    held = np.zeros(11)
    held[two_d6 - 2] = 1.0
    return _frozen(totals(held, d12))


def read_cdf(sums: Array, d12: int | None) -> Array:
    """The running sum of a read hand's `totals` (the chance of each total or less), kept
    (read-only) by its chances' bytes: a player's weights change only when it bets, so
    most decisions ask for the same ones again."""
    return _read_cdf(sums.tobytes(), d12)


@number_cache(1 << 14)
def _read_cdf(sums: bytes, d12: int | None) -> Array:
    return _frozen(np.cumsum(totals(np.frombuffer(sums), d12)))


def field(cdfs: Sequence[Array]) -> tuple[Array, Array]:
    """For each total t: the chance that every opponent is below t, and the chance that
    the highest of them is exactly t (a tie), from each opponent's chance of each total
    or less."""
    upto = np.ones(25)
    for cdf in cdfs:
        upto *= cdf
    below = np.ones(25)
    if cdfs:
        below[0] = 0.0
        below[1:] = upto[:-1]
    return below, upto - below


def share(own: Array, against: tuple[Array, Array]) -> float:
    """The share of the pot expected against a `field` (below, tied), a tie counting half."""
    below, tied = against
    win = float(own @ below)
    return win + float(own @ tied) / 2


def read_field(view: View, read: Mapping[int, Array]) -> tuple[Array, Array]:
    """The `field` of the other players still in, their hands as `read`."""
    stage = view["stage"]
    return field(
        [
            read_cdf(read[p["seat"]], None if stage == 1 or p["must_reroll"] else p["d12"])
            for p in view["players"]
            if p["status"] == "in" and p["seat"] != view["seat"]
        ]
    )


def own_dice(view: View, reroll: bool) -> Array:
    """The seat's own `totals`: its dice kept, or the stage's dice thrown again (stage one
    the 2d6, stage two the d12)."""
    stage = view["stage"]
    me = view["players"][view["seat"]]
    hand = me["dice"][0] + me["dice"][1]
    if not reroll:
        return own_totals(hand, me["d12"] if stage == 2 else None)
    return own_totals(None, None) if stage == 1 else own_totals(hand, None)


def read_chances(view: View, action: Action) -> tuple[float, float]:
    """The seat's chances of winning and of tying for highest at the showdown if it takes
    `action` (a white stone rerolls the stage's dice), against the hands the bets read."""
    below, tied = read_field(view, hands(view))
    own = own_dice(view, action.get("white", 0) > 0)
    return float(own @ below), float(own @ tied)


class BetReader(HeuristicBot):
    """The heuristic's rules on the equity against read hands, buying rerolls of weak dice."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or legal[0]["type"] == "ante":
            return legal[0]
        stage = view["stage"]
        me = view["players"][view["seat"]]
        against = read_field(view, Reading.of(view).hands(view))
        opponents = sum(1 for p in view["players"] if p["status"] == "in") - 1
        keep = share(own_dice(view, False), against)
        reroll = share(own_dice(view, True), against)
        whites = any(a.get("white", 0) > 0 for a in legal)
        wants_reroll = reroll > keep
        best = max(keep, reroll) if whites else keep
        if legal[0]["type"] == "pass":
            if stage == 1 and whites and reroll > BUY_MARGIN * keep:
                return pay_with(legal, "raise", True)
            if best * (opponents + 1) > RAISE_MARGIN:
                return pay_with(legal, "raise", wants_reroll)
            return legal[0]
        cost = min(view["m"], me["black"] + me["white"])
        pot = view["pot"]["black"] + view["pot"]["white"]
        if cost == 0 or best * (pot + cost) >= cost:
            return pay_with(legal, "call", wants_reroll)
        return legal[-1]
