"""The Tepiiku solver's policy at a seat's view: a decision read off a cap's tables.

Each decision is a table lookup (microseconds) in the tables of `stored.py`:
the bot plays it and the advice and `dicehall odds tepiiku` show it.

The cap of a decision is the deciding seat's own coins, rounded down to one
of `CAPS`: every seat is modelled as holding that many coins (T3: a Fish
never pays more), the one simplification of the model (docs/researchers/tepiiku.md,
"Tepiiku").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dicehall.games.tepiiku.solver import solve
from dicehall.games.tepiiku.solver.model import ACTIONS, SCORES, TRANSITION, hand_index
from dicehall.games.tepiiku.solver.stored import CAPS, Tables

Array = NDArray[np.float64]


def cap_of(view: Mapping[str, Any], seat: int) -> int:
    coins = int(view["coins"][seat])
    return max((c for c in CAPS if c <= coins), default=CAPS[0])


def thumbs_up(tables: Tables, faces: Sequence[str], seat: int) -> float:
    return float(tables.thumbs[seat, hand_index(faces)])


def fish_position(view: Mapping[str, Any]) -> int:
    roles, dice = view["roles"], view["dice"]
    hands = [hand_index(dice[roles[r]]) for r in ("fish", "middle", "hook")]
    return int(solve.layout().fish_at[hands[0], hands[1], hands[2]])


def fish_choice(tables: Tables, view: Mapping[str, Any]) -> int | None:
    """None: pay; else the reroll k of the sorted hand (`SUBSETS[k]`)."""
    code = int(tables.fish_policy[tables.level(view["pot"]), fish_position(view)])
    return None if code == solve.PAY else code - 1


def fish_choices(tables: Tables, position: int, pot: int) -> Array:
    """(8, 3): the expected coins of the Fish, the middle and the Hook (in that
    order) of each choice of the Fish at a fish position: paying (`solve.PAY`),
    then rerolling `SUBSETS[k]` of the sorted hand (code k + 1), everyone playing
    the solver's policy afterwards."""
    lay = solve.layout()
    pay = min(int(pot), tables.cap)
    after = solve.fish_after(tables.fish_value, tables.forced_value, tables.cap, int(pot))
    choices = np.empty((1 + ACTIONS, 3))
    choices[solve.PAY] = (-pay, 0.0, pay)
    choices[1:] = TRANSITION[lay.fish[position, 0]] @ after[lay.fish_gather[position]]
    return choices


def forced_seats(view: Mapping[str, Any]) -> tuple[int, int, int]:
    """The forced seat, the seat it tied with, and the third."""
    forced = int(view["forced"])
    scores = view["scores"]
    partner = next(s for s in range(3) if s != forced and scores[s] == scores[forced])
    return forced, partner, 3 - forced - partner


def forced_position(view: Mapping[str, Any]) -> int:
    dice = view["dice"]
    hands = [hand_index(dice[s]) for s in forced_seats(view)]
    return int(solve.layout().forced_at[hands[0], hands[1], hands[2]])


def forced_choice(tables: Tables, view: Mapping[str, Any]) -> int:
    return int(tables.forced_policy[tables.level(view["pot"]), forced_position(view)])


def tie_mix(tables: Tables, view: Mapping[str, Any], seat: int) -> list[float]:
    """The seat's equilibrium mix over the seven rerolls of its sorted hand (T6)."""
    hands = [hand_index(d) for d in view["dice"]]
    tied = sorted(int(s) for s in view["tied"])
    start = tables.level(view["pot"])
    if len(tied) == 3:
        group = solve.layout().score_hands[int(SCORES[hands[0]])]
        i, j, k = (int(np.flatnonzero(group == h)[0]) for h in hands)
        return [
            float(p) for p in tables.triple_strategy[int(SCORES[hands[0]])][start, i, j, k, seat]
        ]
    first, second = tied
    third = 3 - first - second
    index = solve.layout().forced_at[hands[first], hands[second], hands[third]]
    mix = tables.pair_strategy[start, int(index), 0 if seat == first else 1]
    return [float(p) for p in mix]
