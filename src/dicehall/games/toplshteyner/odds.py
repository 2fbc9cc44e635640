"""Exact odds of a Toplshteyner turn, and each player's chance of winning a game.

A turn is an absorbing Markov chain: its states are the point and which
doubles the turn has seen (1-1, 3-3, 5-5), with the roller's lives; every
throw moves to another state or ends the turn. The chain is explored by
playing the rules themselves (`rules.py`) one throw at a time from each
state, so the odds cannot drift from the rules. Throws that change nothing
(a 7 before the point, a total that misses it) are self-loops, and Crazy
Eight and Threes can swap the point between 2 and 6: each strongly connected
group of states is solved exactly with Fraction linear algebra, groups in
reverse topological order, which sums the geometric series of re-throws.

Winning chances come from dynamic programming over the lives of the players
still in, listed from the roller round the table. The turn's outcome given
the roller's lives comes from the chain above (a 6-6 at three lives always
takes the fourth life there); High Fives elects as the heuristic bot does,
the player whose lost life most raises the roller's own chance, judged at
the turn's start (the bot judges with its lives at the 5-5). The values
are the fixed point of that recursion, found by Gauss-Seidel iteration in
floats. Up to EXACT_PLAYERS players in it is solved; beyond, the bot and the
odds panel use a share by lives (and `dicehall odds` simulates games with
heuristic bots, solver/odds.py).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

import dicehall.games.toplshteyner.rules as rules
from dicehall.core import Action, View, diskcache
from dicehall.core.odds import WIN, OddsTable, values_table
from dicehall.games.toplshteyner.rules import (
    BUY,
    BUY_LIFE,
    DECLINE_LIFE,
    ELECT,
    MAX_LIVES,
    OVER,
    TURN,
    Toplshteyner,
    ToplshteynerState,
)

EXACT_PLAYERS = 5
"""Positions with at most this many players in are solved; larger ones simulated."""
TOLERANCE = 1e-9


def throws() -> Iterator[tuple[tuple[int, int], Fraction]]:
    """The 21 distinct throws of two dice with their chances."""
    for a in range(1, 7):
        for b in range(a, 7):
            yield (a, b), Fraction(1 if a == b else 2, 36)


# --- the turn's strongly connected groups, sinks first (Tarjan's algorithm) ------
#
# A Toplshteyner turn can come back to a state it has left (a throw that
# changes nothing is a self-loop; Crazy Eight and Threes can swap the point
# between 2 and 6), so neither the exact odds (`absorb`) nor the solver
# (`solver/model.py`, `turn_chain`) can walk it as a tree. Both solve it one
# group of mutually reachable states at a time, from the groups the turn ends
# in back to its start: the order `sink_first` gives.

Node = TypeVar("Node", bound=Hashable)


def sink_first(
    roots: Iterable[Node], successors: Callable[[Node], Iterable[Node]]
) -> list[list[Node]]:
    """Every state reachable from `roots`, in groups that reach one another; a group comes
    after every group it leads to. `successors` is asked once per state, in the walk's order."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    groups: list[list[Node]] = []

    def visit(node: Node) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in successors(node):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(group)

    for node in roots:
        if node not in index:
            visit(node)
    return groups


# --- a generic absorbing chain -------------------------------------------------

Outcome = Hashable
Move = tuple[Fraction, bool, Hashable]
"""(chance, ends the turn?, the next state's key or the outcome)."""


def absorb(start: Hashable, moves: Callable[[Hashable], list[Move]]) -> dict[Outcome, Fraction]:
    """The exact chance of each outcome of an absorbing chain, from `start`.

    Tarjan's algorithm finds the strongly connected groups of states sinks
    first; each group's outcome distributions are solved from the groups
    already solved, by Gauss-Jordan elimination in fractions.
    """
    solved: dict[Hashable, dict[Outcome, Fraction]] = {}
    edges: dict[Hashable, list[Move]] = {}

    def successors(key: Hashable) -> list[Hashable]:
        edges[key] = moves(key)
        return [target for _, ends, target in edges[key] if not ends]

    def solve_group(group: list[Hashable]) -> None:
        position = {key: i for i, key in enumerate(group)}
        size = len(group)
        # (I - Q) X = B, with the rows of X and B distributions over outcomes
        matrix = [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
        rhs: list[dict[Outcome, Fraction]] = [{} for _ in group]
        for i, key in enumerate(group):
            for p, ends, target in edges[key]:
                if ends:
                    rhs[i][target] = rhs[i].get(target, Fraction(0)) + p
                elif target in position:
                    matrix[i][position[target]] -= p
                else:
                    for outcome, q in solved[target].items():
                        rhs[i][outcome] = rhs[i].get(outcome, Fraction(0)) + p * q
        for col in range(size):
            pivot = next(r for r in range(col, size) if matrix[r][col] != 0)
            matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
            rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
            scale = matrix[col][col]
            matrix[col] = [x / scale for x in matrix[col]]
            rhs[col] = {o: q / scale for o, q in rhs[col].items()}
            for r in range(size):
                factor = matrix[r][col]
                if r == col or factor == 0:
                    continue
                matrix[r] = [x - factor * y for x, y in zip(matrix[r], matrix[col], strict=True)]
                for o, q in rhs[col].items():
                    rhs[r][o] = rhs[r].get(o, Fraction(0)) - factor * q
        for i, key in enumerate(group):
            solved[key] = {o: q for o, q in rhs[i].items() if q != 0}

    for group in sink_first([start], successors):
        solve_group(group)
    return solved[start]


# --- a turn, played by the rules ---------------------------------------------


def turn_start(game: Toplshteyner, roller_lives: int) -> ToplshteynerState:
    """Seat 0 about to throw with the given lives, against two players of three
    lives and a pot deep enough that a life back is always there."""
    state = game.new_state()
    state.phase = TURN
    state.roller = 0
    state.lives[0] = roller_lives
    state.pot = 20
    return state


def turn_key(state: ToplshteynerState, *extra: int) -> Hashable:
    return (state.point, state.snake_eyes, state.threes, state.high_fives, state.lives[0], *extra)


def after_throw(state: ToplshteynerState, throw: tuple[int, int], buy: bool) -> ToplshteynerState:
    """The state after a throw and the roller's decision, if it calls for one.

    Every step is one the state itself offers, so it takes the trusted fast path.
    """
    nxt = state.clone()
    nxt.apply_chance_trusted(throw)
    if nxt.phase == ELECT:
        nxt.apply_trusted(0, nxt.legal_actions(0)[0])
    elif nxt.phase == BUY:
        nxt.apply_trusted(0, BUY_LIFE if buy else DECLINE_LIFE)
    return nxt


def turn_ended(state: ToplshteynerState) -> bool:
    return state.roller != 0 or state.phase == OVER


TurnOutcome = tuple[str, int | str, bool, int]


@cache
def turn_outcome_odds(sixes_end_turn: bool) -> dict[TurnOutcome, Fraction]:
    """Outcomes (end, lives lost, High Fives election, Trick Sixes thrown (3 = 3 or
    more)) of a turn of a roller with four lives who never buys.

    Exploring and solving the chain in fractions costs a fifth of a CPU second,
    as much as the rest of `dicehall odds toplshteyner`, so the exact chances
    are kept on disk (as fractions' text) under the key of the win chances."""
    name = f"toplshteyner-turn-outcomes-{int(sixes_end_turn)}"
    stored = diskcache.load(name, _cache_key())
    if isinstance(stored, list):
        return {(end, lost, elected, sixes): Fraction(p) for end, lost, elected, sixes, p in stored}
    odds = _solve_turn_outcomes(sixes_end_turn)
    diskcache.save(name, _cache_key(), [[*outcome, str(p)] for outcome, p in odds.items()])
    return odds


def _solve_turn_outcomes(sixes_end_turn: bool) -> dict[TurnOutcome, Fraction]:
    game = Toplshteyner(3, {"sixes_end_turn": sixes_end_turn})
    states: dict[Hashable, tuple[ToplshteynerState, int]] = {}

    def moves(key: Hashable) -> list[Move]:
        state, sixes = states[key]
        out: list[Move] = []
        for throw, p in throws():
            now_sixes = min(3, sixes + (throw == (6, 6)))
            nxt = after_throw(state, throw, buy=False)
            if turn_ended(nxt):
                lost: int | str = "all" if nxt.lives[0] == 0 else nxt.paid[0]
                elected = sum(nxt.paid[1:]) > 0
                out.append((p, True, (nxt.last_turn_end, lost, elected, now_sixes)))
            else:
                target = turn_key(nxt, now_sixes)
                states.setdefault(target, (nxt, now_sixes))
                out.append((p, False, target))
        return out

    start = turn_start(game, MAX_LIVES)
    key = turn_key(start, 0)
    states[key] = (start, 0)
    return absorb(key, moves)  # type: ignore[return-value]


@cache
def roller_turn_odds(
    roller_lives: int, for_fun: bool, sixes_end_turn: bool
) -> dict[tuple[bool, int], Fraction]:
    """(a High Fives election happened, the roller's lives at the turn's end)."""
    game = Toplshteyner(3, {"for_fun": for_fun, "sixes_end_turn": sixes_end_turn})
    states: dict[Hashable, ToplshteynerState] = {}

    def moves(key: Hashable) -> list[Move]:
        out: list[Move] = []
        for throw, p in throws():
            nxt = after_throw(states[key], throw, buy=True)
            if turn_ended(nxt):
                out.append((p, True, (sum(nxt.paid[1:]) > 0, nxt.lives[0])))
            else:
                target = turn_key(nxt)
                states.setdefault(target, nxt)
                out.append((p, False, target))
        return out

    start = turn_start(game, roller_lives)
    states[turn_key(start)] = start
    return absorb(turn_key(start), moves)  # type: ignore[return-value]


# --- winning chances ---------------------------------------------------------

Lives = tuple[int, ...]
"""Lives of the players still in, the roller first, then round the table."""


def after_election(lives: Lives, target: int) -> Lives:
    """The position after the roller (keeping their lives) elects `target` and
    passes the dice: the next player first, the roller last."""
    others = [x - (i == target) for i, x in enumerate(lives) if i > 0]
    return (*(x for x in others if x > 0), lives[0])


def passed_on(lives: Lives, target: int | None, roller_end: int) -> tuple[Lives, list[int]]:
    """The position after a turn, and where each player of `lives` sits in it (-1: out)."""
    where = [-1] * len(lives)
    nxt: list[int] = []
    for i in range(1, len(lives)):
        left = lives[i] - (i == target)
        if left > 0:
            where[i] = len(nxt)
            nxt.append(left)
    if roller_end > 0:
        where[0] = len(nxt)
        nxt.append(roller_end)
    return tuple(nxt), where


class WinChances:
    """Each player's chance to win from every position of up to EXACT_PLAYERS players."""

    def __init__(self, for_fun: bool, sixes_end_turn: bool) -> None:
        self.for_fun = for_fun
        self.sixes_end_turn = sixes_end_turn
        self._turns: dict[int, list[tuple[tuple[bool, int], Fraction]]] | None = None
        self.values: dict[Lives, list[float]] = {}
        self.solved_players = 1
        self._load()

    @property
    def turns(self) -> dict[int, list[tuple[tuple[bool, int], Fraction]]]:
        """The turn's outcomes by the roller's lives: only needed to solve."""
        if self._turns is None:
            self._turns = {
                lives: sorted(roller_turn_odds(lives, self.for_fun, self.sixes_end_turn).items())
                for lives in range(1, MAX_LIVES + 1)
            }
        return self._turns

    # Solving five players costs seconds, so solved positions are kept on disk,
    # keyed by this module and the rules it plays (see dicehall.core.diskcache).

    def _cache_name(self) -> str:
        return f"toplshteyner-win-chances-{int(self.for_fun)}{int(self.sixes_end_turn)}"

    def _load(self) -> None:
        table = diskcache.load(self._cache_name(), _cache_key())
        if isinstance(table, dict) and isinstance(table.get("values"), list):
            self.values = {tuple(lives): values for lives, values in table["values"]}
            self.solved_players = int(table["solved_players"])

    def _save(self) -> None:
        values = [[list(lives), values] for lives, values in self.values.items()]
        table = {"solved_players": self.solved_players, "values": values}
        diskcache.save(self._cache_name(), _cache_key(), table)

    def chances(self, lives: Lives) -> list[float]:
        """Win chance of each player of `lives` (roller first), solving positions
        of that many players (and fewer) the first time they are asked for."""
        if len(lives) == 1:
            return [1.0]
        while self.solved_players < len(lives):
            self._solve(self.solved_players + 1)
        return self.values[lives]

    def election(self, lives: Lives) -> int:
        """Whom the roller elects: the player whose lost life most raises the
        roller's chance (the roller's chance is last in the passed-on position)."""
        best, best_value = 1, -1.0
        for target in range(1, len(lives)):
            value = self.chances(after_election(lives, target))[-1]
            if value > best_value + 1e-12:
                best, best_value = target, value
        return best

    def _solve(self, players: int) -> None:
        positions = [tuple(p) for p in _all_lives(players)]
        for lives in positions:
            self.values[lives] = [x / sum(lives) for x in lives]
        self.solved_players = players
        for _ in range(10_000):
            change = 0.0
            for lives in positions:
                new = self._backup(lives)
                old = self.values[lives]
                change = max(change, max(abs(a - b) for a, b in zip(new, old, strict=True)))
                self.values[lives] = new
            if change < TOLERANCE:
                break
        self._save()

    def _backup(self, lives: Lives) -> list[float]:
        value = [0.0] * len(lives)
        target = self.election(lives)
        for (elected, roller_end), p in self.turns[lives[0]]:
            chosen = target if elected else None
            if elected and len(lives) == 2 and lives[1] == 1:
                value[0] += float(p)  # the election ends the game at once (P10)
                continue
            nxt, where = passed_on(lives, chosen, roller_end)
            then = self.chances(nxt) if nxt else []
            for i, w in enumerate(where):
                if w >= 0:
                    value[i] += float(p) * then[w]
        return value


def _all_lives(players: int) -> Iterator[Lives]:
    if players == 0:
        yield ()
        return
    for rest in _all_lives(players - 1):
        for x in range(1, MAX_LIVES + 1):
            yield (x, *rest)


@cache
def _cache_key() -> str:
    return diskcache.source_key(__file__, rules.__file__)


@cache
def win_chances(for_fun: bool = False, sixes_end_turn: bool = False) -> WinChances:
    return WinChances(for_fun, sixes_end_turn)


# --- one turn's table, which `dicehall odds toplshteyner` prints (solver/odds.py) ---

END_NAMES = {
    "point": "safe: point made",
    "saving_grace": "safe: Saving Grace (2-2)",
    "second_snake_eyes": "safe: second Snake Eyes (1-1)",
    "trick_sixes": "safe: Trick Sixes (6-6 ends the turn)",
    "seven": "seven: a life lost",
    "out": "Threes: all lives lost",
}


def turn_table(sixes_end_turn: bool) -> OddsTable:
    by_end: dict[str, Fraction] = dict.fromkeys(END_NAMES, Fraction(0))
    by_lost: dict[int | str, Fraction] = dict.fromkeys((0, 1, 2, "all"), Fraction(0))
    by_sixes = [Fraction(0)] * 4
    election = Fraction(0)
    for (end, lost, elected, sixes), p in turn_outcome_odds(sixes_end_turn).items():
        by_end[end] += p
        by_lost[lost] += p
        by_sixes[sixes] += p
        election += p if elected else 0
    rows: list[list[Any]] = [
        [label, by_end[end]]
        for end, label in END_NAMES.items()
        if end != "trick_sixes" or sixes_end_turn
    ]
    rows += [[f"lives lost: {lost}", p] for lost, p in by_lost.items()]
    rows.append(["a High Fives election", election])
    rows += [
        [f"Trick Sixes thrown: {k}" + (" or more" if k == 3 else ""), p]
        for k, p in enumerate(by_sixes)
    ]
    return OddsTable(
        title="One turn of Toplshteyner" + (" (6-6 ends the turn)" if sixes_end_turn else ""),
        columns=["outcome", "chance"],
        rows=rows,
        note="Exact, for a roller with at least two lives. Each Trick Sixes is a life "
        "back (below three lives) or a fourth life to take (at three).",
    )


# --- the browser's odds panel ------------------------------------------------


def position_of(view: View, first: int) -> tuple[Lives, list[int]]:
    """The players still in, as lives from seat `first` round the table, and their seats."""
    all_lives = view["lives"]
    n = len(all_lives)
    seats = [(first + i) % n for i in range(n) if all_lives[(first + i) % n] > 0]
    return tuple(all_lives[s] for s in seats), seats


def chance_after(
    lives_by_seat: Sequence[int], next_roller: int, seat: int, for_fun: bool, sixes: bool
) -> tuple[float, bool]:
    """`seat`'s chance to win once the dice pass to `next_roller`, and whether it is
    solved exactly; beyond the tables, a share in proportion to lives ** 1.5 (a
    fit to the five-player table: a fourth life is worth more than a third)."""
    lives, seats = position_of({"lives": list(lives_by_seat)}, next_roller)
    if seat not in seats:
        return 0.0, True
    if len(lives) == 1:
        return 1.0, True
    if len(lives) > EXACT_PLAYERS:
        return lives_by_seat[seat] ** 1.5 / sum(x**1.5 for x in lives), False
    return win_chances(for_fun, sixes).chances(lives)[seats.index(seat)], True


def choice_chances(view: View, legal: Sequence[Action]) -> list[tuple[Action, float, bool]]:
    """Each legal choice with the chooser's chance to win after it (and whether that
    is exact), judged as if the dice passed on at once: the rest of the turn is the
    same whatever the choice."""
    seat = view["roller"]
    n = len(view["lives"])
    out: list[tuple[Action, float, bool]] = []
    for action in legal:
        lives = list(view["lives"])
        if action["type"] == "elect":
            lives[action["seat"]] -= 1
        elif action["type"] == "buy":
            lives[seat] += 1
        nxt = (seat + 1) % n
        while lives[nxt] == 0:
            nxt = (nxt + 1) % n
        chance = chance_after(lives, nxt, seat, view["for_fun"], view["sixes_end_turn"])
        out.append((action, *chance))
    return out


def decision_advice(game: Toplshteyner, view: View, legal: Sequence[Action]) -> OddsTable | None:
    if not legal or view.get("phase") not in ("elect", "buy"):
        return None
    rows: list[list[Any]] = []
    values: list[float | None] = []
    exact = True
    for action, chance, solved in choice_chances(view, legal):
        exact = exact and solved
        values.append(chance)
        rows.append([game.action_label(action), f"{'' if solved else '≈ '}{chance * 100:.2f}%"])
    note = "From the lives after the choice, as the dice pass on."
    if not exact:
        note += (
            f" ≈: more than {EXACT_PLAYERS} players are in, beyond the exact tables; "
            "estimated as a share in proportion to lives ** 1.5."
        )
    table = OddsTable(
        title="Your chance to win after each choice",
        columns=["choice", "chance to win"],
        rows=rows,
        note=note,
    )
    model = "lives model" if exact else "lives model (estimated beyond the exact tables)"
    return values_table(table, values, WIN, model)
