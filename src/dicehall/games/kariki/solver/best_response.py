"""Kariki at three to ten seats: one seat's exact best response to a table of fixed bots.

The two-seat cut (`model.py`) works at any number of seats. A *score* is, per
seat, out or (berries, crowns modulo three); with who begins it is the whole
public state at a fresh roll, and every round gives at least one berry, so
rounds are solved backwards from the scores closest to the end. Inside a
round, the subgame (X, p, t) is "X throws to beat claim p with t throws left"
(t only with the `throws` option): the dice under the mug are fresh at every
roll higher, so nothing before matters.

The best responder sits at seat 0 and the direction of play is left; the
others are the bot under test. Seen from the best responder the bots are one
fixed player ("the table", seat 1 of the engine's two-seat trees), so the
strategy engine's exact best response (`strategy.passes`) applies to each
subgame tree as built through the core API, in a batch over every score with
the same seats in. Its value is seat 0's chance of winning the game.

What the computation fixes, exactly:

- a bot is asked once per subgame decision through its seat's view, with no
  pull shown in the round: a bot whose play depends on earlier rounds (the
  heuristic's honesty tracking, which the `solver` bot also uses to answer)
  is taken as it plays before it has seen any pull (every thrower at the
  prior honesty). `simulate` measures what this costs against the real bots.
- the bots are the same bot at every seat and treat seats alike, so the
  best responder's chance depends only on how far it sits after the first
  roller; turning the direction of play round mirrors the table, so a first
  roller's choice of direction changes nothing (the best responder's value
  as first roller is the same either way).
- a bot's answers at every score are read off the few scores that differ in
  what it reads (`SCORE_READS`): the heuristic and random bots read no score,
  the solver's claims read the thrower's and the next player's berries and
  crowns (with four seats in or fewer it plays as the table bot, for the
  options that bot's scored policies are solved for), the table bot every
  seat's berries with three or four seats in. A bot not listed is asked at
  every score (slow but exact).

The emergency berry (K9, option `high_rollers`) is not modelled here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, cast

import numpy as np

from dicehall.core import Game, OptionError, State
from dicehall.core.bots import BotFactory
from dicehall.games.kariki.rules import (
    DOUBLE_SIXES,
    OVER,
    THROW,
    KarikiState,
)
from dicehall.games.kariki.solver.model import infoset_key
from dicehall.games.kariki.solver.table_stored import SCORED_SEATS, scored_applies
from dicehall.strategy.passes import Passes
from dicehall.strategy.tree import FloatArray, Tree, build_tree

ME = 0
"""The best responder's seat."""
OUT = -1
"""A seat's cell in a score when it is out; else berries * 3 + crowns % 3."""

Cells = tuple[int, ...]
Subgame = tuple[int, int, int]
"""(thrower, claim to beat (-1: a fresh roll), throws left (-1: no limit))."""
EndLabel = tuple[str, int, int]
"""("berry" | "kariki", seat, beginner): how a round ended; beginner as the rules name it,
before handing on past a seat that is out (C2)."""
ClassKey = Callable[[Cells, int, int], Hashable]
"""What of a score a bot's decision reads: (cells, seat, kind) -> key; kind 0 is a claim,
1 an answer."""


# --- scores and what a round's end leads to -------------------------------------------


def next_in(ins: Sequence[bool], seat: int) -> int:
    """The next seat still in, direction left (C2)."""
    n = len(ins)
    seat = (seat + 1) % n
    while not ins[seat]:
        seat = (seat + 1) % n
    return seat


@dataclass
class Scores:
    """Every score with the best responder in and someone to beat, indexed."""

    seats: int
    berries_out: int
    one_round: bool
    all: list[Cells] = field(init=False)
    index: dict[Cells, int] = field(init=False)

    def __post_init__(self) -> None:
        cells = [OUT, *range(3 * self.berries_out)]
        if self.one_round:  # the first berry ends the game: only the opening score
            self.all = [(0,) * self.seats]
        else:
            self.all = [
                s
                for s in product(cells, repeat=self.seats)
                if s[ME] != OUT and sum(c != OUT for c in s) >= 2
            ]
        self.index = {s: i for i, s in enumerate(self.all)}

    def potential(self, cells: Cells) -> int:
        """Rises with every round: every round gives a berry."""
        return sum(self.berries_out if c == OUT else c // 3 for c in cells)

    def levels(self) -> list[list[int]]:
        """Score indices by potential, the closest to the end first."""
        by: dict[int, list[int]] = {}
        for i, s in enumerate(self.all):
            by.setdefault(self.potential(s), []).append(i)
        return [by[k] for k in sorted(by, reverse=True)]


def after_round(
    cells: Cells, label: EndLabel, berries_out: int, one_round: bool
) -> tuple[Cells, int] | float:
    """The score and first roller after a round ending as `label`, or seat 0's final value.

    K3 (crown, the next player's berry, every third crown a berry to every
    other player still in), K5 and K7 (five berries and out); the beginner,
    if out, hands on to the next player still in (C2). With `one_round` the
    first berry ends the game and its receiver alone loses.
    """
    how, seat, beginner = label
    ins = [c != OUT for c in cells]
    berries = [c // 3 if c != OUT else berries_out for c in cells]
    crowns = [c % 3 if c != OUT else 0 for c in cells]
    first: list[int] = []

    def berry(s: int) -> None:
        if berries[s] >= berries_out:
            return
        berries[s] += 1
        first.append(s)
        if berries[s] == berries_out:
            ins[s] = False

    if how == "kariki":
        victim = next_in(ins, seat)
        crowns[seat] += 1
        berry(victim)
        if crowns[seat] % 3 == 0:
            s = victim
            while s != seat:
                berry(s)
                s = next_in(ins, s)
    else:
        berry(seat)
    if one_round:
        return 0.0 if first[0] == ME else 1.0
    if not ins[ME]:
        return 0.0
    if sum(ins) == 1:
        return 1.0
    roller = beginner if ins[beginner] else next_in(ins, beginner)
    new = tuple(berries[s] * 3 + crowns[s] % 3 if ins[s] else OUT for s in range(len(cells)))
    return new, roller


# --- the subgame trees -------------------------------------------------------------


class _TableSeats:
    """A Kariki state whose actors are two: the best responder (0) and the table (1).

    The tree builder lays out two-seat trees; with the table's policy fixed,
    the bots at every other seat act as one player of it.
    """

    def __init__(self, inner: KarikiState) -> None:
        self.inner = inner

    def _real(self, seat: int) -> int:
        actor = self.inner.actors()[0]
        return ME if seat == 0 else actor

    def actors(self) -> tuple[int, ...]:
        actors = self.inner.actors()
        return () if not actors else ((0,) if actors[0] == ME else (1,))

    def is_chance(self) -> bool:
        return self.inner.is_chance()

    def chance_outcomes(self) -> Any:
        return self.inner.chance_outcomes()

    def apply_chance(self, faces: Any) -> None:
        self.inner.apply_chance(faces)

    def legal_actions(self, seat: int) -> Any:
        return self.inner.legal_actions(self._real(seat))

    def apply(self, seat: int, action: Any) -> None:
        self.inner.apply(self._real(seat), action)

    def is_over(self) -> bool:
        return self.inner.is_over()

    def clone(self) -> _TableSeats:
        return _TableSeats(self.inner.clone())

    def view(self, seat: int | None) -> Any:
        return self.inner.view(seat)


def _throws(state: KarikiState) -> int:
    return state.throws_left if state.throws_per_round > 0 else -1


def subgame_root(game: Game, ins: Sequence[bool], key: Subgame) -> KarikiState:
    """X about to throw to beat claim p with t throws left, no berries and no crowns yet."""
    thrower, p, t = key
    state = game.new_state()
    assert isinstance(state, KarikiState)
    state.out = [not i for i in ins]
    state.in_count = sum(ins)
    state.roll_off_seats = []
    state.first_roller = thrower
    state.step = 1
    state.roller = thrower
    state.claim = p
    state.throws_left = t
    state.phase = THROW
    return state


def end_label(state: KarikiState, ins: Sequence[bool]) -> EndLabel:
    """How a round ended, read off its last state (built from no berries and no crowns)."""
    crowned = [s for s, c in enumerate(state.crowns) if c]
    if crowned:
        victim = next_in(ins, crowned[0])
        beginner = crowned[0] if state.after_kariki_roller else victim
        return ("kariki", crowned[0], beginner)
    loser = state.first_berry
    if state.phase == OVER:  # one round: nobody begins again
        return ("berry", loser, loser)
    return ("berry", loser, state.roller)  # the beginner never gets the berry: still in


def subgames_of(ins: Sequence[bool], throws: int) -> list[Subgame]:
    """The subgames of one set of seats in, in the order they are solved (highest claim first)."""
    seats = [s for s, i in enumerate(ins) if i]
    keys = []
    for p in range(DOUBLE_SIXES, -2, -1):
        if throws <= 0:
            ts = [-1]
        elif p < 0:
            ts = [throws]
        else:
            ts = list(range(throws - 1, 0, -1))
        keys += [(x, p, t) for x in seats for t in ts]
    return keys


@dataclass
class SubgameTree:
    tree: Tree
    passes: Passes
    bot_infosets: dict[int, list[int]]
    """The infosets by the real seat that decides them (seat 0's too, for `evaluate`)."""


def build_subgame(game: Game, ins: Sequence[bool], key: Subgame) -> SubgameTree:
    thrower, p, _ = key

    def leaf(wrapped: State) -> Hashable | None:
        state = cast(_TableSeats, wrapped).inner
        if state.phase == OVER or any(state.berries) or any(state.crowns):
            return ("end", *end_label(state, ins))
        if state.phase == THROW and (state.claim != p or state.roller != thrower):
            return ("roll", state.roller, state.claim, _throws(state))
        return None

    def infoset(wrapped: State, seat: int) -> Hashable:
        state = cast(_TableSeats, wrapped).inner
        real = state.actors()[0]
        return (real, *infoset_key(state.view(real)))

    def merge(wrapped: State) -> Hashable:
        state = cast(_TableSeats, wrapped).inner
        return (state.phase, state.dice_rank, tuple(state.berries), tuple(state.crowns))

    root = cast(State, _TableSeats(subgame_root(game, ins, key)))
    tree = build_tree(root, leaf, infoset, merge, keep_states=True)
    bots: dict[int, list[int]] = {}
    for i, k in enumerate(tree.infoset_keys):
        assert isinstance(k, tuple)
        bots.setdefault(int(k[0]), []).append(i)
    return SubgameTree(tree, Passes(tree), bots)


# --- what a bot's decisions read of the score -----------------------------------------


def _reads_nothing(cells: Cells, seat: int, kind: int) -> Hashable:
    return ()


def _reads_claimer_pair(cells: Cells, seat: int, kind: int) -> Hashable:
    """The solver, with more seats in than the table bot's scored policies cover (or for
    options they are not solved for), claims as the two-seat strategy at (its score, the
    next player's score); it answers as the heuristic, which reads no score."""
    if kind != 0:
        return ()
    ins = [c != OUT for c in cells]
    return (cells[seat], cells[next_in(ins, seat)])


def _reads_solver(cells: Cells, seat: int, kind: int) -> Hashable:
    """The solver for the default options: as the table bot with four seats in or fewer
    (`SolverBot.plays_table`), else as `_reads_claimer_pair`."""
    if sum(c != OUT for c in cells) <= max(SCORED_SEATS):
        return _reads_table(cells, seat, kind)
    return _reads_claimer_pair(cells, seat, kind)


def _reads_table(cells: Cells, seat: int, kind: int) -> Hashable:
    """The table bot reads no score with five or more seats in; with three or four it reads
    every seat's berries; with two it plays the two-seat strategy at (its score, the other's)."""
    ins = [c != OUT for c in cells]
    if sum(ins) > max(SCORED_SEATS):
        return ()
    if sum(ins) >= min(SCORED_SEATS):
        return tuple(c // 3 if c != OUT else OUT for c in cells)
    return (cells[seat], cells[next_in(ins, seat)])


def _reads_all(cells: Cells, seat: int, kind: int) -> Hashable:
    return cells


SCORE_READS: dict[str, ClassKey] = {
    "random": _reads_nothing,
    "heuristic": _reads_nothing,
    "solver": _reads_claimer_pair,
    "table": _reads_table,
}
"""What each bot's decisions read of the score (emergency berries aside, not modelled)."""


def set_score(state: KarikiState, cells: Cells, berries_out: int) -> None:
    state.berries = [berries_out if c == OUT else c // 3 for c in cells]
    state.crowns = [0 if c == OUT else c % 3 for c in cells]


# --- the backward induction ---------------------------------------------------------


@dataclass
class TableResponse:
    """Seat 0's chance of winning when it best-responds to the table, by who begins."""

    bot: str
    seats: int
    by_offset: list[float]
    """[k]: the best responder sits k seats after the first roller (0: it rolls first)."""
    fair: float
    seconds: float
    subgames: int
    scores: int

    @property
    def value(self) -> float:
        """From the game's start: the roll-off picks the first roller at random (C5)."""
        return float(np.mean(self.by_offset))

    @property
    def gain(self) -> float:
        return self.value - self.fair

    def to_json(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "win": self.value,
            "fair": self.fair,
            "gain": self.gain,
            "by_position": [
                {"after_first_roller": k, "win": v, "gain": v - self.fair}
                for k, v in enumerate(self.by_offset)
            ],
            "seconds": self.seconds,
            "subgames": self.subgames,
            "scores": self.scores,
        }


BATCH = 2048
"""Scores per best-response batch: bounds the arrays (batch x nodes) to tens of MB."""


class TableModel:
    """The subgame trees of every set of seats in, and the scores."""

    def __init__(self, game: Game) -> None:
        if game.seats < 3:
            raise OptionError("the table best response is for three seats or more")
        if game.options["high_rollers"]:
            raise OptionError(
                "the table best response does not model emergency berries (K9): "
                "use high_rollers=false"
            )
        if game.options["first_roller"] != "roll-off":
            raise OptionError(
                "the table best response measures every first roller: use first_roller=roll-off"
            )
        self.game = game
        self.n = game.seats
        self.berries_out = int(game.options["berries"])
        self.one_round = bool(game.options["one_round"])
        self.throws = int(game.options["throws"])
        self.scores = Scores(self.n, self.berries_out, self.one_round)
        self.groups: dict[tuple[bool, ...], list[int]] = {}
        for i, cells in enumerate(self.scores.all):
            self.groups.setdefault(tuple(c != OUT for c in cells), []).append(i)
        self.trees: dict[tuple[tuple[bool, ...], Subgame], SubgameTree] = {}
        for ins in self.groups:
            for key in subgames_of(ins, self.throws):
                self.trees[ins, key] = build_subgame(game, ins, key)

    def first_key(self, roller: int) -> Subgame:
        return (roller, -1, self.throws if self.throws > 0 else -1)


class _BotAsker:
    """A bot's policy at a subgame's infosets for a batch of scores, asked through views."""

    def __init__(
        self, model: TableModel, factory: BotFactory, reads: ClassKey, me_too: bool
    ) -> None:
        self.me_too = me_too
        self.model = model
        self.factory = factory
        self.reads = reads
        self.cache: dict[tuple[Hashable, ...], np.ndarray] = {}
        self._groups: dict[tuple[int, ...], list[tuple[Hashable, list[int]]]] = {}

    def policy(
        self, ins: tuple[bool, ...], key: Subgame, st: SubgameTree, batch: Sequence[int]
    ) -> FloatArray:
        tree = st.tree
        policy = tree.uniform_policy(len(batch)) if tree.n_sa else np.ones((len(batch), 1))
        for seat, infosets in st.bot_infosets.items():
            if seat == ME and not self.me_too:
                continue
            by_kind = {kind: self.group(batch, seat, kind) for kind in (0, 1)}
            for i in infosets:
                first = int(tree.infoset_sa[i])
                width = len(tree.infoset_actions[i])
                ikey = tree.infoset_keys[i]
                assert isinstance(ikey, tuple)
                for cls, rows in by_kind[int(ikey[1])]:
                    memo = (ins, key, i, cls)
                    chances = self.cache.get(memo)
                    if chances is None:
                        cells = self.model.scores.all[batch[rows[0]]]
                        chances = self._ask(st, i, seat, cells)
                        self.cache[memo] = chances
                    policy[rows, first : first + width] = chances
        return policy

    def group(self, batch: Sequence[int], seat: int, kind: int) -> list[tuple[Hashable, list[int]]]:
        """`classes`, kept per (batch, seat, kind): every subgame of a batch shares them."""
        memo = (batch[0], len(batch), seat, kind)
        found = self._groups.get(memo)
        if found is None:
            if len(self._groups) > 64:
                self._groups.clear()
            groups: dict[Hashable, list[int]] = {}
            for row, s in enumerate(batch):
                groups.setdefault(self.reads(self.model.scores.all[s], seat, kind), []).append(row)
            found = self._groups[memo] = list(groups.items())
        return found

    def _ask(self, st: SubgameTree, i: int, seat: int, cells: Cells) -> np.ndarray:
        from dicehall.games.kariki.solver.solve import action_chances

        tree = st.tree
        node = int(st.passes.infoset_rep[i])
        state = cast(_TableSeats, tree.states[node]).inner.clone()
        set_score(state, cells, self.model.berries_out)
        # A fresh bot: it has seen no pull (the memory this computation fixes).
        bot = self.factory(self.model.game, seat, random.Random(seat))
        return action_chances(bot, state.view(seat), tree.infoset_actions[i])


def table_best_response(
    model: TableModel,
    bot: str,
    factory: BotFactory,
    reads: ClassKey | None = None,
    keep: bool = False,
    tick: Callable[[int], None] | None = None,
    evaluate: bool = False,
) -> tuple[TableResponse, dict[Subgame, Any] | None]:
    """Seat 0's exact best response to `bot` at every other seat, from the start.

    With `evaluate`, seat 0 plays the bot too: its exact chance of winning in
    a table of equals (a check: by symmetry it averages the fair share).

    With `keep`, also the best response itself: per (subgame, infoset key), the
    chosen action's index at every score (for `ResponderBot`).
    """
    start = time.perf_counter()
    if reads is None:
        reads = SCORE_READS.get(bot, _reads_all)
        if bot == "solver" and scored_applies(model.game):
            reads = _reads_solver
    asker = _BotAsker(model, factory, reads, evaluate)
    scores = model.scores
    values: dict[tuple[int, int, int], FloatArray] = {}
    kept: dict[Any, Any] | None = {} if keep else None
    done = 0
    for level in scores.levels():
        in_level = set(level)
        for ins, members in model.groups.items():
            rows = [s for s in members if s in in_level]
            if not rows:
                continue
            keys = subgames_of(ins, model.throws)
            ends = _end_values(model, ins, keys, rows, values)
            for key in keys:
                st = model.trees[ins, key]
                out = values.setdefault(key, np.full(len(scores.all), np.nan))
                for lo in range(0, len(rows), BATCH):
                    batch = rows[lo : lo + BATCH]
                    leaf = _leaf_matrix(st.tree, batch, lo, values, ends)
                    policy = asker.policy(ins, key, st, batch)
                    if evaluate:
                        out[batch] = st.passes.values(policy, leaf)[:, 0]
                        continue
                    v, br = st.passes.best_response(policy, leaf, 0)
                    out[batch] = v[:, 0]
                    if kept is not None:
                        for ikey, chosen in _choices(st.tree, br).items():
                            column = kept.setdefault(
                                (key, ikey), np.full(len(scores.all), -1, np.int8)
                            )
                            column[batch] = chosen
                done += 1
                if tick is not None:
                    tick(done)
    zero = scores.index[(0,) * model.n]
    by_offset = [float(values[model.first_key((ME - k) % model.n)][zero]) for k in range(model.n)]
    fair = 1 - 1 / model.n if model.one_round else 1 / model.n
    result = TableResponse(
        bot, model.n, by_offset, fair, time.perf_counter() - start, done, len(scores.all)
    )
    return result, kept


def _choices(tree: Tree, br: FloatArray) -> dict[Hashable, np.ndarray]:
    """The best responder's action index per infoset key, per batch row."""
    out: dict[Hashable, np.ndarray] = {}
    for i, k in enumerate(tree.infoset_keys):
        assert isinstance(k, tuple)
        if k[0] == ME:
            lo, hi = int(tree.infoset_sa[i]), int(tree.infoset_sa[i + 1])
            out[k[1:]] = np.argmax(br[:, lo:hi], axis=1).astype(np.int8)
    return out


def _end_values(
    model: TableModel,
    ins: tuple[bool, ...],
    keys: list[Subgame],
    rows: list[int],
    values: dict[tuple[int, int, int], FloatArray],
) -> dict[Hashable, FloatArray]:
    """Per round-end label of these subgames, its value at each score row."""
    labels = {
        label
        for key in keys
        for label in model.trees[ins, key].tree.leaf_labels
        if isinstance(label, tuple) and label[0] == "end"
    }
    scores = model.scores
    out: dict[Hashable, FloatArray] = {}
    for label in labels:
        column = np.empty(len(rows))
        for j, s in enumerate(rows):
            nxt = after_round(scores.all[s], label[1:], model.berries_out, model.one_round)
            if isinstance(nxt, float):
                column[j] = nxt
            else:
                cells, roller = nxt
                column[j] = values[model.first_key(roller)][scores.index[cells]]
        out[label] = column
    return out


def _leaf_matrix(
    tree: Tree,
    batch: list[int],
    lo: int,
    values: dict[tuple[int, int, int], FloatArray],
    ends: dict[Hashable, FloatArray],
) -> FloatArray:
    """Leaf values of a batch: rows lo.. of the group's scores at this level."""
    leaf = np.empty((len(batch), len(tree.leaf_labels)))
    for j, label in enumerate(tree.leaf_labels):
        assert isinstance(label, tuple)
        if label[0] == "roll":
            leaf[:, j] = values[label[1:]][batch]
        else:
            leaf[:, j] = ends[label][lo : lo + len(batch)]
    return leaf


class ResponderBot:
    """Seat 0 playing a computed best response (`table_best_response(keep=True)`), from its
    view: the score, the subgame and the infoset key name the action; play to the right
    is looked up in the mirror. Default options only (the view does not show the throws
    left)."""

    def __init__(self, model: TableModel, kept: dict[Any, Any]) -> None:
        self.model = model
        self.kept = kept

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        from dicehall.games.kariki.rules import LEFT, RANK_OF_ID

        phase = view["phase"]
        if phase not in ("claim", "respond"):
            return LEFT
        n = self.model.n
        # Play to the right is the mirror image of play to the left: seat m of the model
        # is real seat -m.
        real = [(-m) % n if view["direction"] == "right" else m for m in range(n)]
        cells = tuple(
            OUT if view["out"][s] else view["berries"][s] * 3 + view["crowns"][s] % 3 for s in real
        )
        p = view["claim"] if phase == "claim" else view["previous_claim"]
        key = (real.index(int(view["roller"])), -1 if p is None else RANK_OF_ID[p], -1)
        chosen = int(self.kept[key, infoset_key(view)][self.model.scores.index[cells]])
        return legal[chosen]


def simulate(
    model: TableModel, kept: dict[Any, Any], factory: BotFactory, games: int, seed: int
) -> tuple[float, float]:
    """Seat 0's win rate playing the computed best response against the real bots (with
    their memory across rounds), with the first roller drawn by the roll-off: (rate, 95%
    half-width)."""
    game = model.game
    rng = random.Random(seed)
    wins = 0
    for g in range(games):
        bots: list[Any] = [ResponderBot(model, kept)] + [
            factory(game, seat, random.Random(seed * 1_000_003 + g * 11 + seat))
            for seat in range(1, model.n)
        ]
        state = game.new_state()
        while not state.is_over():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                r = rng.random()
                faces: Any = None
                for faces, chance in outcomes:  # noqa: B007 (the one drawn)
                    r -= float(chance)
                    if r < 0:
                        break
                state.apply_chance(faces)
                continue
            seat = state.actors()[0]
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat)))
        wins += 0 in state.result().winners
    rate = wins / games
    return rate, 1.96 * (rate * (1 - rate) / games) ** 0.5
