"""The Tepiiku solver's tables, one per cap, and reading a decision off them from a view.

A cap's tables (`solver.Solution` plus the thumbs equilibrium) take a minute
or more to solve and several megabytes to hold, so none ships in the package:
each is solved once, on first use or by `python benchmarks/tepiiku_solver.py`
(with a progress bar), and kept in the table cache ($DICEHALL_CACHE, see
`dicehall.core.diskcache`) as a NumPy `.npz` file (no pickles), under a key of
the solver's and the rules' sources, so a changed rule never reads a stale
table.

The cap of a decision is the deciding seat's own coins, rounded down to one
of `CAPS`: every seat is modelled as holding that many coins (T3: a Fish
never pays more), the one simplification of the model (docs/strategy.md,
"Tepiiku").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dicehall.games.tepiiku import solver
from dicehall.games.tepiiku.hands import ACTIONS, SCORES, TRANSITION, hand_index
from dicehall.games.tepiiku.tables_file import CAPS as CAPS
from dicehall.games.tepiiku.tables_file import MAX_CAP as MAX_CAP
from dicehall.games.tepiiku.tables_file import cache_file

THUMBS_ITERATIONS = 400
Array = NDArray[np.float64]


def cap_of(view: Mapping[str, Any], seat: int) -> int:
    coins = int(view["coins"][seat])
    return max((c for c in CAPS if c <= coins), default=CAPS[0])


class NotSolved(Exception):
    """The tables of a cap are not computed yet (that takes minutes, never a move)."""


@dataclass
class Tables:
    """What the bot and the advice read for one cap."""

    cap: int
    fish_policy: NDArray[np.int8]
    fish_value: NDArray[np.float32]
    forced_policy: NDArray[np.int8]
    forced_value: NDArray[np.float32]
    pair_strategy: NDArray[np.float32]
    triple_strategy: dict[int, NDArray[np.float32]]
    thumbs: Array  # (3, 56): chance of thumbs up
    thumbs_value: Array  # (3, 56, 2): each seat's round value of down and up
    thumbs_nash_conv: float
    heuristic_nash_conv: float
    tie_epsilon: float

    def level(self, pot: int) -> int:
        return min(int(pot), self.cap) - 1

    def thumbs_up(self, faces: Sequence[str], seat: int) -> float:
        return float(self.thumbs[seat, hand_index(faces)])

    def fish_position(self, view: Mapping[str, Any]) -> int:
        roles, dice = view["roles"], view["dice"]
        hands = [hand_index(dice[roles[r]]) for r in ("fish", "middle", "hook")]
        return int(solver.layout().fish_at[hands[0], hands[1], hands[2]])

    def fish_choice(self, view: Mapping[str, Any]) -> int | None:
        """None: pay; else the reroll k of the sorted hand (`SUBSETS[k]`)."""
        code = int(self.fish_policy[self.level(view["pot"]), self.fish_position(view)])
        return None if code == solver.PAY else code - 1

    def fish_choices(self, position: int, pot: int) -> Array:
        """(8, 3): the expected coins of the Fish, the middle and the Hook (in that
        order) of each choice of the Fish at a fish position: paying (`solver.PAY`),
        then rerolling `SUBSETS[k]` of the sorted hand (code k + 1), everyone playing
        the solver's policy afterwards."""
        lay = solver.layout()
        pay = min(int(pot), self.cap)
        after = solver.fish_after(self.fish_value, self.forced_value, self.cap, int(pot))
        choices = np.empty((1 + ACTIONS, 3))
        choices[solver.PAY] = (-pay, 0.0, pay)
        choices[1:] = TRANSITION[lay.fish[position, 0]] @ after[lay.fish_gather[position]]
        return choices

    def forced_seats(self, view: Mapping[str, Any]) -> tuple[int, int, int]:
        """The forced seat, the seat it tied with, and the third."""
        forced = int(view["forced"])
        scores = view["scores"]
        partner = next(s for s in range(3) if s != forced and scores[s] == scores[forced])
        return forced, partner, 3 - forced - partner

    def forced_position(self, view: Mapping[str, Any]) -> int:
        dice = view["dice"]
        hands = [hand_index(dice[s]) for s in self.forced_seats(view)]
        return int(solver.layout().forced_at[hands[0], hands[1], hands[2]])

    def forced_choice(self, view: Mapping[str, Any]) -> int:
        return int(self.forced_policy[self.level(view["pot"]), self.forced_position(view)])

    def tie_mix(self, view: Mapping[str, Any], seat: int) -> list[float]:
        """The seat's equilibrium mix over the seven rerolls of its sorted hand (T6)."""
        hands = [hand_index(d) for d in view["dice"]]
        tied = sorted(int(s) for s in view["tied"])
        start = self.level(view["pot"])
        if len(tied) == 3:
            group = solver.layout().score_hands[int(SCORES[hands[0]])]
            i, j, k = (int(np.flatnonzero(group == h)[0]) for h in hands)
            return [
                float(p) for p in self.triple_strategy[int(SCORES[hands[0]])][start, i, j, k, seat]
            ]
        first, second = tied
        third = 3 - first - second
        index = solver.layout().forced_at[hands[first], hands[second], hands[third]]
        mix = self.pair_strategy[start, int(index), 0 if seat == first else 1]
        return [float(p) for p in mix]


def solve(cap: int, advance: Callable[[], None] = lambda: None) -> Tables:
    """Solve one cap from scratch (a minute or more)."""
    solution = solver.RoundSolver(cap).solve(advance)
    thumbs = solver.thumbs_equilibrium(solution.reveal_value, THUMBS_ITERATIONS)
    advance()
    heuristic = solver.nash_conv(solution.reveal_value, solver.heuristic_thumbs())[0]
    values = np.stack(
        [solver.thumbs_values(solution.reveal_value, thumbs.policy, s) for s in range(3)]
    )
    return Tables(
        cap=cap,
        fish_policy=solution.fish_policy,
        fish_value=solution.fish_value.astype(np.float32),
        forced_policy=solution.forced_policy,
        forced_value=solution.forced_value.astype(np.float32),
        pair_strategy=solution.pair_strategy.astype(np.float32),
        triple_strategy={s: v.astype(np.float32) for s, v in solution.triple_strategy.items()},
        thumbs=thumbs.policy,
        thumbs_value=values,
        thumbs_nash_conv=thumbs.nash_conv,
        heuristic_nash_conv=heuristic,
        tie_epsilon=solution.tie_epsilon,
    )


def steps(cap: int) -> int:
    """Progress steps of `solve`."""
    return solver.steps(cap) + 1


# --- the cache ------------------------------------------------------------------------


SCALARS = ("thumbs_nash_conv", "heuristic_nash_conv", "tie_epsilon")
ARRAYS = (
    "fish_policy",
    "fish_value",
    "forced_policy",
    "forced_value",
    "pair_strategy",
    "thumbs",
    "thumbs_value",
)


def save(tables: Tables) -> None:
    path = cache_file(tables.cap)
    if path is None:
        return
    data: dict[str, Any] = {name: getattr(tables, name) for name in ARRAYS}
    data.update({name: np.array(getattr(tables, name)) for name in SCALARS})
    data.update({f"triple_{s}": v for s, v in tables.triple_strategy.items()})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        np.savez_compressed(partial, **data)
        partial.replace(path)
    except OSError:
        return


def load(cap: int) -> Tables | None:
    path = cache_file(cap)
    if path is None or not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            triples = {
                int(name.removeprefix("triple_")): data[name]
                for name in data.files
                if name.startswith("triple_")
            }
            fields: dict[str, Any] = {name: data[name] for name in ARRAYS}
            fields.update({name: float(data[name]) for name in SCALARS})
    except (OSError, ValueError, KeyError):
        return None
    return Tables(cap=cap, triple_strategy=triples, **fields)


@cache
def tables(cap: int) -> Tables:
    """The tables of a cap from the cache; NotSolved if they are not there."""
    found = load(cap)
    if found is None:
        raise NotSolved(
            f"the Tepiiku solver's tables for a cap of {cap} coins are not computed yet: "
            "python benchmarks/tepiiku_solver.py solves them"
        )
    return found
