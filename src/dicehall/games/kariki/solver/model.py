"""Two-seat Kariki decomposed exactly into small subgames, for the strategy engine.

A *score* is what a round starts from: each seat's berries (0-4), crowns
modulo three (only every third crown matters, K3) and, with the high_rollers
option, whether it has used its emergency berry (K9). With who begins, a
score is the whole public state at a fresh roll; the dice are fresh, so
nothing private carries over. Every round ends with at least one berry (or
an emergency berry used up), so rounds can be solved backwards from the
scores closest to the end, the value of a round's end being the value of
the score it leads to: seat 0's chance of winning.

Inside a round the same cut works again. When a player takes the mug to roll
higher (K5), the dice under it are thrown afresh and the earlier dice are
never seen again and never score: the rest of the round depends only on who
throws and the claim to beat. So the round splits into *subgames* (X, p):
"X throws to beat claim p" (p = -1 on a fresh roll), each cut where the next
player rolls higher into a subgame (Y, c) with c > p. Within one subgame
every decision's information is the current claim c (and the claim p it
followed), how many have passed it, and for the thrower the rank of its
dice; the history before is irrelevant to every payoff and to every future
decision, so an equilibrium of the subgames composed is an equilibrium of
the whole game, and best responses compose the same way. Nothing is
abstracted away: exploitability measured over the decomposition is that of
the full game (tests/strategy check it against a brute-force enumeration).

Each subgame tree is built once, through the core API, from a representative
state (score zero); the trees of all scores are the same and only their leaf
values differ, so one CFR batch solves a subgame for many scores at once.
This module knows Kariki's state fields only to set up a score
(`round_start`) and to read one back; every move goes through `State.apply`.
It imports NumPy and the tree builder only where it builds trees or arrays, so
a solver bot can name the score and infoset of a decision (`score_of_view`,
`infoset_key`) and play its opening from a cached table without them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from dicehall.core import Game, State, View
from dicehall.games.kariki.rules import (
    BERRIES_POO,
    BUY,
    CLAIM_ACTIONS,
    DECLINE,
    DOUBLE_SIXES,
    EMERGENCY,
    LEFT,
    OVER,
    PULL,
    RANK,
    RANK_OF_ID,
    ROLL,
    THROW,
    KarikiState,
)

if TYPE_CHECKING:
    import numpy as np

    from dicehall.strategy.tree import IntArray, Tree

CLAIMS = tuple(range(-1, DOUBLE_SIXES + 1))
"""The claims a subgame's thrower may have to beat: -1 (a fresh roll) to Double Sixes."""
N_P = len(CLAIMS)
"""Subgame slots per thrower, at index p + 1."""

InfosetKey = tuple[int, int, int, int]
"""(kind, claim, passes, rank): kind 0 is choosing a claim, 1 answering claim `claim`
after `passes` passes; `rank` is the dice's rank for the thrower, else -1."""


@dataclass(frozen=True)
class Score:
    berries: tuple[int, int]
    crowns: tuple[int, int]
    used: tuple[bool, bool]

    @property
    def potential(self) -> int:
        """Rises with every round: a berry, or an emergency berry used up."""
        return sum(self.berries) + sum(self.used)


class Scores:
    """Every score of a two-seat game and its index in the value and policy arrays."""

    def __init__(self, high_rollers: bool) -> None:
        used = (False, True) if high_rollers else (False,)
        self.high_rollers = high_rollers
        self.all = [
            Score((b0, b1), (c0, c1), (e0, e1))
            for b0 in range(BERRIES_POO + 1)
            for b1 in range(BERRIES_POO + 1)
            for c0 in range(3)
            for c1 in range(3)
            for e0 in used
            for e1 in used
        ]
        self.index = {score: i for i, score in enumerate(self.all)}

    def __len__(self) -> int:
        return len(self.all)

    def of_view(self, view: View, me: int = 0, other: int = 1) -> int:
        """The index of a view's score, seat `me` taken as seat 0 (`score_of_view`)."""
        return self.index[score_of_view(view, self.high_rollers, me, other)]

    def levels(self) -> list[IntArray]:
        """Score indices by potential, the closest to the end first."""
        import numpy as np

        top = max(s.potential for s in self.all)
        return [
            np.array([i for i, s in enumerate(self.all) if s.potential == level], dtype=np.int64)
            for level in range(top, -1, -1)
        ]


def score_of_view(view: View, high_rollers: bool, me: int = 0, other: int = 1) -> Score:
    """The score of a view, seat `me` taken as seat 0 (for more seats, a pair of them)."""
    berries, crowns, used = view["berries"], view["crowns"], view["emergency_used"]
    return Score(
        (min(berries[me], BERRIES_POO), min(berries[other], BERRIES_POO)),
        (crowns[me] % 3, crowns[other] % 3),
        (bool(used[me]) and high_rollers, bool(used[other]) and high_rollers),
    )


def round_start(game: Game, score: Score, beginner: int) -> KarikiState:
    """A state at a fresh roll with this score, reached through a roll-off and a direction."""
    state = game.new_state()
    assert isinstance(state, KarikiState) and game.seats == 2
    state.apply_chance((6,) if beginner == 0 else (1,))
    state.apply_chance((1,) if beginner == 0 else (6,))
    state.apply(beginner, LEFT)
    state.berries = list(score.berries)
    state.crowns = list(score.crowns)
    state.emergency_used = list(score.used)
    return state


def score_of(state: KarikiState, scores: Scores) -> int:
    view = {
        "berries": state.berries,
        "crowns": state.crowns,
        "emergency_used": state.emergency_used,
    }
    return scores.of_view(view)


def infoset_key(view: View) -> InfosetKey:
    dice = view["your_dice"]
    rank = -1 if dice is None else RANK[dice[0]][dice[1]]
    if view["phase"] == "claim":
        return (0, -1, 0, rank)
    return (1, RANK_OF_ID[view["claim"]], len(view["pass_chain"]), rank)


def subgame_of(view: View) -> tuple[int, int]:
    """(thrower, claim to beat) of the subgame a claim or respond view is in."""
    p = view["claim"] if view["phase"] == "claim" else view["previous_claim"]
    return int(view["roller"]), -1 if p is None else RANK_OF_ID[p]


ZERO = Score((0, 0), (0, 0), (False, False))
EndLabel = tuple[str, int, int]
"""("berry", seat, next roller) or ("kariki", seat, next roller): how a round ended."""


class RoundModel:
    """The subgame trees of one option set, and where each round's end leads."""

    def __init__(self, game: Game) -> None:
        if game.seats != 2:
            raise ValueError("the round model is for two seats")
        self.game = game
        self.scores = Scores(bool(game.options["high_rollers"]))
        self.trees: dict[tuple[int, int], Tree] = {}
        for thrower in (0, 1):
            for p in CLAIMS:
                self.trees[thrower, p] = self._build(thrower, p)

    def subgames(self) -> Iterator[tuple[int, int]]:
        """Subgames in the order they are solved: the highest claim to beat first."""
        for p in reversed(CLAIMS):
            for thrower in (0, 1):
                yield thrower, p

    def root(self, score: Score, thrower: int, p: int) -> KarikiState:
        """The state where `thrower` is about to throw to beat claim p, at this score."""
        if p < 0:
            return round_start(self.game, score, thrower)
        state = round_start(self.game, score, 1 - thrower)
        state.apply_chance((1, 1))
        state.apply(1 - thrower, CLAIM_ACTIONS[p])
        state.apply(thrower, ROLL)
        return state

    def _build(self, thrower: int, p: int) -> Tree:
        from dicehall.strategy.tree import build_tree

        def leaf(state: State) -> Hashable | None:
            assert isinstance(state, KarikiState)
            if state.phase in (OVER, EMERGENCY) or state.berries != [0, 0]:
                return ("end", *self._end_label(state))
            if state.phase == THROW and (state.claim != p or state.roller != thrower):
                return ("roll", state.roller, state.claim)
            return None

        def infoset(state: State, seat: int) -> Hashable:
            return infoset_key(state.view(seat))

        def merge(state: State) -> Hashable:
            assert isinstance(state, KarikiState)
            return (state.phase, state.dice_rank, tuple(state.berries), tuple(state.crowns))

        return build_tree(self.root(ZERO, thrower, p), leaf, infoset, merge, keep_states=True)

    @staticmethod
    def _end_label(state: KarikiState) -> EndLabel:
        crowned = [s for s in (0, 1) if state.crowns[s]]
        if crowned:
            return ("kariki", crowned[0], state.roller)
        return ("berry", state.berries.index(1), state.roller)

    def end_state(self, score: Score, label: EndLabel) -> KarikiState:
        """The state just after a round at this score ended as `label` says, via the engine."""
        how, seat, roller = label
        state = round_start(self.game, score, seat)
        if how == "kariki":
            state.apply_chance((1, 2))
        else:  # a lie pulled (Five over a Four, a lie under either pull rule): the liar's berry
            state.apply_chance((1, 3))
            state.apply(seat, CLAIM_ACTIONS[1])
            state.apply(1 - seat, PULL)  # the puller begins (K5)
        if score == ZERO and state.roller != roller:
            raise AssertionError(f"round end {label} does not lead where the engine does")
        return state

    @cached_property
    def end_labels(self) -> list[EndLabel]:
        labels = {
            label[1:]
            for tree in self.trees.values()
            for label in tree.leaf_labels
            if isinstance(label, tuple) and label[0] == "end"
        }
        return sorted(labels)

    @cached_property
    def ends(self) -> dict[EndLabel, list[KarikiState]]:
        """Per round-end label, the state it leads to from every score."""
        return {
            label: [self.end_state(score, label) for score in self.scores.all]
            for label in self.end_labels
        }


def settle(
    state: KarikiState,
    scores: Scores,
    start_value: np.ndarray,
    buys: Callable[[KarikiState, int], bool | None],
) -> float:
    """Seat 0's value of a state between rounds.

    Emergency-berry choices are taken in order (K9): `buys(state, seat)` says
    what the seat does, or None for "whichever is better for it"; then the
    game is over, or a round begins whose value is start_value[score, roller].
    """
    if state.phase == EMERGENCY:
        seat = state.pending_out[0]
        choice = buys(state, seat)
        values = {}
        for buy in (True, False) if choice is None else (choice,):
            nxt = state.clone()
            nxt.apply(seat, BUY if buy else DECLINE)
            values[buy] = settle(nxt, scores, start_value, buys)
        mine = [v if seat == 0 else 1 - v for v in values.values()]
        return list(values.values())[mine.index(max(mine))]
    if state.phase == OVER:
        return 1.0 if state.out.index(False) == 0 else 0.0
    return float(start_value[score_of(state, scores), state.roller])
