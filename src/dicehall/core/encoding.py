"""Fixed action ids, observation tensors and declared bounds: a game as learners see it.

Research tools want numbers where the rules speak JSON. Each game declares an
`Encoding` once per configuration (its games/<id>/encoding.py):

- a fixed action vocabulary: every action the configured game can ever
  offer, in an order that never changes for a given game, seat count and
  options (a test pins each game's list), so action id 3 means the same
  thing in every state and every release;
- an observation layout: a flat vector of named segments with finite bounds,
  filled from a seat's view alone (`encode(view)`), so a tensor can hold
  nothing that the view does not (C6); and its fast path `fill`, which
  writes the same numbers straight from the state, for adapters that hand
  out a tensor at every decision;
- utility bounds (each seat's net, in the game's unit), the utility sum (0:
  every game is zero-sum in net) and the maximum number of steps (decisions
  and throws) where the rules bound it, None where they do not;
- the largest number of outcomes of one throw, for tools that number chance
  outcomes.

Nothing here imports NumPy: tensors are lists of floats, which NumPy, PyTorch
and JAX all take as they are.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicehall.core.errors import IllegalActionError

Action = Mapping[str, Any]
View = dict[str, Any]


def as_index(value: object, what: str) -> int:
    """A whole number from anything integer-like (int, numpy.int64, ...), never a bool."""
    if isinstance(value, bool):
        raise IllegalActionError(f"{what} must be a whole number; got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(f"{what} must be a whole number; got {value!r}") from None


def action_key(action: object) -> object:
    """A hashable form of an action, equal for actions that compare equal."""
    if isinstance(action, Mapping):
        return tuple(sorted((str(k), action_key(v)) for k, v in action.items()))
    if isinstance(action, (list, tuple)):
        return tuple(action_key(v) for v in action)
    return action


class ActionVocabulary:
    """Every action of a configured game, numbered once.

    Games hand out shared constant actions, so an id is found by identity
    first (one dict look-up) and by value only for an action built elsewhere.
    """

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self._by_identity = {id(a): i for i, a in enumerate(self.actions)}
        self._by_key = {action_key(a): i for i, a in enumerate(self.actions)}
        if len(self._by_key) != len(self.actions):
            raise ValueError("an action vocabulary lists some action twice")

    def __len__(self) -> int:
        return len(self.actions)

    def id_of(self, action: object) -> int:
        found = self._by_identity.get(id(action))
        if found is not None:
            return found
        try:
            return self._by_key[action_key(action)]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{action!r} is not an action of this game") from None

    def action(self, action_id: object) -> Action:
        i = as_index(action_id, "an action id")
        if not 0 <= i < len(self.actions):
            raise IllegalActionError(
                f"action id {i} is out of range: this game's ids are 0 to {len(self.actions) - 1}"
            )
        return self.actions[i]


@dataclass(frozen=True, slots=True)
class Segment:
    """A named run of the observation vector: `start` to `start + size`."""

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str


class Layout:
    """A flat observation vector built of named segments, each with finite bounds.

    An encoder asks for segments once, then fills a fresh vector per view
    with `one_hot`, `number` and `flag`; numbers are clipped to their
    segment's bounds, so every tensor lies inside the declared box.
    """

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def add(self, name: str, size: int, low: float, high: float, doc: str) -> Segment:
        segment = Segment(name, self.size, size, float(low), float(high), doc)
        self.segments.append(segment)
        self.size += size
        return segment

    def one_hot(self, name: str, size: int, doc: str) -> Segment:
        return self.add(name, size, 0, 1, doc)

    def numbers(self, name: str, size: int, low: float, high: float, doc: str) -> Segment:
        return self.add(name, size, low, high, doc)

    def zeros(self) -> list[float]:
        return [0.0] * self.size

    def bounds(self) -> tuple[list[float], list[float]]:
        low: list[float] = []
        high: list[float] = []
        for s in self.segments:
            low += [s.low] * s.size
            high += [s.high] * s.size
        return low, high

    def markdown(self) -> str:
        """The layout as a Markdown table, for docs/researchers/environments.md."""
        rows = ["| index | segment | size | bounds | holds |", "| ---: | --- | ---: | --- | --- |"]
        for s in self.segments:
            low, high = f"{s.low:g}", f"{s.high:g}"
            rows.append(f"| {s.start} | `{s.name}` | {s.size} | {low} to {high} | {s.doc} |")
        return "\n".join(rows)


# The helpers below run dozens of times per observation, the hottest code of an RL
# environment after the rules: each is written for speed (one attribute load per
# field, no call where a comparison does) and gives exactly what the plain form does.


def put_one_hot(out: list[float], segment: Segment, index: int | None) -> None:
    """Set entry `index` of a one-hot segment; None (nothing to show) leaves it all zero."""
    if index is not None and 0 <= index < segment.size:
        out[segment.start + index] = 1.0


def put_number(out: list[float], segment: Segment, value: float, offset: int = 0) -> None:
    """Write a number into a segment, clipped to the segment's bounds."""
    low = segment.low
    if value < low:
        value = low
    else:
        high = segment.high
        if value > high:
            value = high
    out[segment.start + offset] = float(value)


def clip(value: float, segment: Segment) -> float:
    """A number clipped to its segment's bounds, as `put_number` writes it."""
    low = segment.low
    if value < low:
        return low
    high = segment.high
    if value > high:
        return high
    return float(value)


def put_flags(out: list[float], segment: Segment, flags: Sequence[object]) -> None:
    start = segment.start
    for i, flag in enumerate(flags):
        if flag:
            out[start + i] = 1.0


def rotated(values: Sequence[Any], seat: int) -> list[Any]:
    """A per-seat list turned so that the observing seat comes first, then the seats after it."""
    n = len(values)
    if not n:
        return []
    cut = seat % n
    return [*values[cut:], *values[:cut]]


def relative(seat: object, me: int, n: int) -> int | None:
    """A seat number as seen from `me` (0: me, 1: the next seat...), None for no seat."""
    if type(seat) is int:
        return (seat - me) % n
    if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
        return None
    return (seat - me) % n


@dataclass(frozen=True)
class Encoding:
    """What a configured game declares for learners and solvers (module docstring)."""

    actions: ActionVocabulary
    layout: Layout
    encode: Callable[[View], list[float]]
    """Fills a tensor from one seat's view (seat not None): nothing but the view."""
    utility_bounds: tuple[int, int]
    """Lowest and highest net of one seat in the game's unit, under `length_cap` steps."""
    max_game_length: int | None
    """Most steps (decisions and throws) any game can take; None where the rules set no bound."""
    length_cap: int
    """Steps after which adapters truncate: max_game_length where it exists."""
    max_chance_outcomes: int
    unbounded: str = ""
    """Where a bound is missing: what can go on forever, in words."""
    utility_sum: int = 0
    notes: Mapping[str, str] = field(default_factory=dict)
    fill: Callable[[Any, int, MutableSequence[float]], None] | None = None
    """The fast path of `encode`, where a game has one: `fill(state, seat, out)` writes
    seat `seat`'s tensor into `out`, a zeroed vector of the layout's size (a list, or a
    float32 buffer written in place: a NumPy array, its memoryview), straight from the
    state's fields, without making the view. Entry for entry it is
    `encode(state.view(seat))`: it reads only what that view shows (C6). An encoder of
    views costs several steps of the rules, so adapters that hand out a tensor at every
    decision use this; tests/test_encoding.py compares the two paths over many random
    games of every game and checks C6 on both."""
