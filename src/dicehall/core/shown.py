"""Which throws the rules have shown, and to whom: derived from views and events alone.

A throw's faces are *shown* to an audience (a seat, or None: everyone) when
what that audience has observed since the throw (the events visible to it and
its view after each step) tells the faces apart from every other outcome of
the dice. A pull that lifts the mug, a showdown, a public d12 show their
throw to everyone; the dice under the mug are shown to their thrower alone;
a folded hand, or a throw whose only public trace is "not a Kariki", is shown
to nobody else. Nothing here knows a game: it asks the core API (clone, steps,
views, events) what would have been seen had the faces been different.

`ShownThrows` follows a game step by step with a logged copy of its own. At
a throw it tries every other outcome of the dice for one step. For each
audience still in doubt it then keeps one *probe*: a copy of the game in
which the throw fell differently but looked the same to that audience, and
steps it along. When the probe is told apart, every outcome is tried again
from the throw on; when none still looks the same, the throw has been shown.
When the probe looks the same as the game to everyone, from then on nothing
can tell them apart, and the throw stays unshown to those audiences for good.
Where a copy cannot take a step, the throw is kept unshown: the choice that
can only err towards keeping a secret.

`stand_ins` makes the public steps of a game whose unshown throws must stay
secret: each such throw is replaced by the first outcome, in the dice's own
order, that leaves everything public exactly as it was. The first of a class
of outcomes that look alike is the same whichever of them fell, so the
stand-in tells nothing beyond what was public already.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicehall.core.chance import Faces
from dicehall.core.errors import DicehallError
from dicehall.core.game import Game, State

Audience = int | None
"""A seat, or None: everyone, spectators included."""
Step = Mapping[str, Any]
Seen = tuple[list[Any], Any]
"""What one audience observed of one step: its new events and its view after it."""


def events_of(state: State, audience: Audience, logged: int) -> list[Any]:
    log = state.log or ()
    return [(e.type, e.text, e.data) for e in log[logged:] if e.visible_to(audience)]


def observe(state: State, audiences: Sequence[Audience], logged: int) -> dict[Audience, Seen]:
    return {a: (events_of(state, a, logged), state.view(a)) for a in audiences}


def logged_copy(state: State) -> State:
    copy = state.clone()
    copy.log = []
    return copy


def apply(state: State, step: Step) -> None:
    from dicehall.core.transcript import apply_step

    apply_step(state, step)


def alternatives(state: State) -> Iterator[Faces]:
    """Every outcome of the throw that is due, in the dice's order."""
    return itertools.product(*state.chance_dice())


@dataclass
class Trial:
    """The game replayed with one throw falling otherwise: for whom it still looks alike."""

    state: State | None
    alike: set[Audience]
    forever: bool
    """Looks like the game to everyone at some step: nothing later can tell them apart."""


def trial(
    before: State,
    faces: Faces,
    steps: Sequence[Step],
    seen: Sequence[Mapping[Audience, Seen]],
    audiences: set[Audience],
    everyone: Sequence[Audience],
    views_at_throws: bool = False,
    every_step: bool = True,
) -> Trial:
    """Play `faces` from `before`, then `steps`, comparing with `seen` (one entry per step,
    the throw's first) for each audience in `audiences` until none is left or it merges.

    Events are compared after every step, views after the last one (and, with
    `views_at_throws`, after every throw, where a long replay may merge early): a
    difference in a view alone elsewhere is missed, which can only keep a throw unshown.
    Without `every_step` the steps between the throw and the last are played without
    a log and not compared: the same kind of miss, for a replay several times cheaper.
    """
    state = logged_copy(before)
    alike = set(audiences)
    last = len(steps)
    try:
        for i, step in enumerate([{"chance": faces}, *steps]):
            quiet = not every_step and 0 < i < last
            state.log = None if quiet else state.log if state.log is not None else []
            logged = len(state.log or ())
            if i:
                apply(state, step)
            else:
                state.apply_chance(faces)
            if quiet:
                continue
            wanted = seen[i]
            views = i == last or (views_at_throws and "chance" in step)
            for a in list(alike):
                if events_of(state, a, logged) != wanted[a][0] or (
                    views and state.view(a) != wanted[a][1]
                ):
                    alike.discard(a)
            if not alike:
                return Trial(None, alike, False)
            if views and merged(state, wanted, everyone):
                return Trial(None, alike, True)
    except DicehallError:
        return Trial(None, alike, True)  # cannot be told apart by playing on: keep it unshown
    return Trial(state, alike, False)


def merged(state: State, seen: Mapping[Audience, Seen], everyone: Sequence[Audience]) -> bool:
    """Whether `state` looks like the game to everyone: then nothing later tells them apart."""
    return all(state.view(b) == seen[b][1] for b in everyone)


@dataclass
class _Tracked:
    """A throw not yet shown to every audience: the game before it, where it fell, its probes."""

    before: State
    faces: Faces
    at: int
    probes: list[tuple[State, set[Audience]]] = field(default_factory=list)


class ShownThrows:
    """Follows one game and knows, throw by throw, to whom the rules have shown it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.new_state(record=True)
        self.audiences: tuple[Audience, ...] = (None, *range(game.seats))
        self.shown: list[set[Audience]] = []
        self.steps: list[Step] = []
        self._seen: dict[int, dict[Audience, Seen]] = {}
        self._tracked: dict[int, _Tracked] = {}

    def public(self, k: int) -> bool:
        return None in self.shown[k]

    def shown_to(self, k: int, seat: int | None) -> bool:
        shown = self.shown[k]
        return None in shown or seat in shown

    def sealed(self, seat: int | None) -> list[int]:
        """The throws not shown to `seat` (None: to everyone)."""
        return [k for k in range(len(self.shown)) if not self.shown_to(k, seat)]

    def step(self, step: Step) -> list[tuple[int, Audience]]:
        """Apply a step; return the (throw, audience) pairs it showed for the first time."""
        state = self.state
        before = logged_copy(state) if "chance" in step else None
        logged = len(state.log or ())
        apply(state, step)
        i = len(self.steps)
        self.steps.append(step)
        now = self._seen[i] = observe(state, self.audiences, logged)
        found: list[tuple[int, Audience]] = []
        for k, tracked in list(self._tracked.items()):
            found += self._follow(k, tracked, step, now)
        if before is not None:
            k = len(self.shown)
            self.shown.append(set())
            self._tracked[k] = tracked = _Tracked(before, tuple(step["chance"]), i)
            found += self._settle(k, tracked, set(self.audiences))
        oldest = min((t.at for t in self._tracked.values()), default=i + 1)
        for j in [j for j in self._seen if j < oldest]:
            del self._seen[j]
        return found

    def _follow(
        self, k: int, tracked: _Tracked, step: Step, now: Mapping[Audience, Seen]
    ) -> list[tuple[int, Audience]]:
        doubt: set[Audience] = set()
        probes = []
        for probe, audiences in tracked.probes:
            logged = len(probe.log or ())
            try:
                apply(probe, step)
            except DicehallError:
                continue  # cannot be told apart by playing on: those audiences are left out
            views = "chance" in step or self.state.is_over()
            told = {
                a
                for a in audiences
                if events_of(probe, a, logged) != now[a][0]
                or (views and probe.view(a) != now[a][1])
            }
            doubt |= told
            rest = audiences - told
            if rest and not (views and merged(probe, now, self.audiences)):
                probes.append((probe, rest))
        tracked.probes = probes
        found = self._settle(k, tracked, doubt) if doubt else []
        if not tracked.probes:
            self._tracked.pop(k, None)
        return found

    def _settle(
        self, k: int, tracked: _Tracked, audiences: set[Audience]
    ) -> list[tuple[int, Audience]]:
        """Find, for each audience, an outcome that still looks like the throw; none: shown."""
        need = {a for a in audiences if not self.shown_to(k, a)}
        steps = self.steps[tracked.at + 1 :]
        seen = [self._seen[j] for j in range(tracked.at, len(self.steps))]
        for faces in alternatives(tracked.before):
            if not need:
                break
            if faces == tracked.faces:
                continue
            result = trial(
                tracked.before, faces, steps, seen, need, self.audiences, every_step=False
            )
            need -= result.alike
            if result.state is not None:
                tracked.probes.append((result.state, result.alike))
        found = []
        if None in need:
            need = {None}
            tracked.probes = []
        for a in sorted(need, key=lambda a: -1 if a is None else a):
            self.shown[k].add(a)
            found.append((k, a))
        if not tracked.probes:
            self._tracked.pop(k, None)
        return found


def shown_throws(game: Game, steps: Sequence[Step]) -> ShownThrows:
    """Follow a whole list of steps."""
    shown = ShownThrows(game)
    for step in steps:
        shown.step(step)
    return shown


def stand_ins(game: Game, steps: Sequence[Step], sealed: set[int]) -> list[dict[str, Any]]:
    """The steps with each throw in `sealed` replaced by its stand-in, marked "sealed": true.

    A stand-in leaves every public observation (the spectator's events and view
    after each step) exactly as it was, and is the first such outcome in the
    dice's order. Throws are replaced in order, each search seeing the stand-ins
    chosen before it.
    """
    everyone: tuple[Audience, ...] = (None, *range(game.seats))
    out = [dict(s) for s in steps]
    state = game.new_state(record=True)
    seen = []
    for step in out:
        logged = len(state.log or ())
        apply(state, step)
        seen.append(observe(state, everyone, logged))
    state = game.new_state(record=True)
    k = -1
    for i, step in enumerate(out):
        if "chance" in step:
            k += 1
            if k in sealed:
                actual = tuple(step["chance"])
                for faces in alternatives(state):
                    if faces == actual:
                        break
                    result = trial(state, faces, out[i + 1 :], seen[i:], {None}, everyone, True)
                    if result.alike:
                        break
                out[i] = {"chance": list(faces), "sealed": True}
        apply(state, out[i])
    return out
