"""The tracking of shown throws as it was before its faster version: the reference that
tests/test_shown_reference.py holds `core.shown.ShownThrows` to, step by step.

A plain copy of the earlier `ShownThrows` (every outcome of a throw tried again at each
search, every audience compared one by one, views made for every comparison), kept
apart so that a change to the tracking cannot change what it is compared with.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicehall.core.chance import Faces
from dicehall.core.errors import DicehallError
from dicehall.core.game import Game, State
from dicehall.core.transcript import apply_step

Audience = int | None
Step = Mapping[str, Any]


def events_of(state: State, audience: Audience, logged: int, end: int | None = None) -> list[Any]:
    log = state.log or ()
    return [(e.type, e.text, e.data) for e in log[logged:end] if e.visible_to(audience)]


class Observed:
    """What each audience observed of one step of a game: its new events, and its view
    after the step. Each is worked out when first asked for, since most are never
    compared: the events from the game's log (which only grows) at any time, a view only
    while the game is still at that step (`moved_on` ends that; views are compared
    only at the step a game is at, and asking later is a mistake that raises)."""

    def __init__(self, state: State, logged: int) -> None:
        self.state = state
        self.logged = logged
        self.end = len(state.log or ())
        self._events: dict[Audience, list[Any]] = {}
        self._views: dict[Audience, Any] = {}
        self.current = True

    def events(self, audience: Audience) -> list[Any]:
        found = self._events.get(audience)
        if found is None:
            found = self._events[audience] = events_of(self.state, audience, self.logged, self.end)
        return found

    def view(self, audience: Audience) -> Any:
        if audience not in self._views:
            if not self.current:
                raise RuntimeError("a view of a step the game has moved on from was asked for")
            self._views[audience] = self.state.view(audience)
        return self._views[audience]

    def moved_on(self, audiences: Sequence[Audience] = ()) -> None:
        """The game takes its next step: the views of `audiences` are kept, no others."""
        for a in audiences:
            self.view(a)
        self.current = False


def logged_copy(state: State) -> State:
    copy = state.clone()
    copy.log = []
    return copy


def apply(state: State, step: Step) -> None:
    apply_step(state, step)


def count_outcomes(state: State) -> int:
    return math.prod(len(die) for die in state.chance_dice())


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
    seen: Sequence[Observed],
    audiences: set[Audience],
    everyone: Sequence[Audience],
    views_at_throws: bool = False,
    every_step: bool = True,
    thrown: State | None = None,
) -> Trial:
    """Play `faces` from `before`, then `steps`, comparing with `seen` (one entry per step,
    the throw's first) for each audience in `audiences` until none is left or it merges.

    Events are compared after every step, views after the last one (and, with
    `views_at_throws`, after every throw, where a long replay may merge early): a
    difference in a view alone elsewhere is missed, which can only keep a throw unshown.
    `thrown`, where given, is `before` with `faces` already thrown on a logged copy (as
    `throw` makes it), kept from an earlier trial: it is played on, not copied.
    Without `every_step` the steps between the throw and the last are played without
    a log and not compared: the same kind of miss, for a replay several times cheaper.
    """
    state = throw(before, faces) if thrown is None else thrown
    alike = set(audiences)
    last = len(steps)
    try:
        views = last == 0 or views_at_throws
        if _told(state, seen[0], alike, 0, views):
            return Trial(None, alike, False)
        if views and merged(state, seen[0], everyone):
            return Trial(None, alike, True)
        for i, step in enumerate(steps, 1):
            if not every_step and i < last:  # played without a log, not compared
                state.log = None
                apply(state, step)
                continue
            if state.log is None:
                state.log = []
            logged = len(state.log)
            apply(state, step)
            views = i == last or (views_at_throws and "chance" in step)
            if _told(state, seen[i], alike, logged, views):
                return Trial(None, alike, False)
            if views and merged(state, seen[i], everyone):
                return Trial(None, alike, True)
    except DicehallError:
        return Trial(None, alike, True)  # cannot be told apart by playing on: keep it unshown
    return Trial(state, alike, False)


def throw(before: State, faces: Faces) -> State:
    """A logged copy of `before` with `faces`, an outcome of its own dice (`alternatives`),
    thrown on the trusted path: its log holds the throw's events alone."""
    state = logged_copy(before)
    state.apply_chance_trusted(faces)
    return state


def _told(state: State, wanted: Observed, alike: set[Audience], logged: int, views: bool) -> bool:
    """Drop from `alike` each audience that tells `state` apart from what it saw (`wanted`:
    its events since `logged`, and with `views` its view); whether none is left."""
    for a in list(alike):
        if events_of(state, a, logged) != wanted.events(a) or (
            views and state.view(a) != wanted.view(a)
        ):
            alike.discard(a)
    return not alike


def merged(
    state: State,
    seen: Observed,
    everyone: Sequence[Audience],
    known: Mapping[Audience, Any] | None = None,
) -> bool:
    """Whether `state` looks like the game to everyone: then nothing later tells them apart.
    `known`: views of `state` already made (the same views, not made again)."""
    known = known or {}
    if any(view != seen.view(b) for b, view in known.items()):
        return False
    return all(state.view(b) == seen.view(b) for b in everyone if b not in known)


@dataclass
class _Tracked:
    """A throw not yet shown to every audience: the game before it, where it fell, its probes."""

    before: State
    faces: Faces
    at: int
    probes: list[tuple[State, set[Audience]]] = field(default_factory=list)
    thrown: dict[Faces, State] = field(default_factory=dict)
    """Outcomes thrown when the throw fell and told apart then by the audiences in doubt:
    kept for a later search, which then plays on from them instead of throwing again."""


KEEP_THROWN = 64
"""The most outcomes a throw's dice may have for their thrown states to be kept (Kariki's
two dice have 36; Tepiiku's three rune dice 216, too many states to keep per table)."""


class ReferenceShownThrows:
    """Follows one game and knows, throw by throw, to whom the rules have shown it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.new_state(record=True)
        self.audiences: tuple[Audience, ...] = (None, *range(game.seats))
        self.shown: list[set[Audience]] = []
        self.steps: list[Step] = []
        self._seen: dict[int, Observed] = {}
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
        i = len(self.steps)
        if i - 1 in self._seen:
            self._seen[i - 1].moved_on()
        apply(state, step)
        self.steps.append(step)
        now = self._seen[i] = Observed(state, logged)
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
        self, k: int, tracked: _Tracked, step: Step, now: Observed
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
            told = set()
            seen: dict[Audience, Any] = {}  # the probe's views, each made once
            for a in audiences:
                if events_of(probe, a, logged) != now.events(a):
                    told.add(a)
                elif views:
                    seen[a] = probe.view(a)
                    if seen[a] != now.view(a):
                        told.add(a)
            doubt |= told
            rest = audiences - told
            if rest and not (views and merged(probe, now, self.audiences, seen)):
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
        # when the throw falls, an outcome the audiences in doubt tell apart at once is
        # kept thrown for a later search (which plays steps after it, a state each)
        keep = not steps and count_outcomes(tracked.before) <= KEEP_THROWN
        for faces in alternatives(tracked.before):
            if not need:
                break
            if faces == tracked.faces:
                continue
            thrown = tracked.thrown.pop(faces, None) if steps else None
            if keep:
                thrown = throw(tracked.before, faces)
            result = trial(
                tracked.before,
                faces,
                steps,
                seen,
                need,
                self.audiences,
                every_step=False,
                thrown=thrown,
            )
            if keep and thrown is not None and not result.alike and not result.forever:
                tracked.thrown[faces] = thrown  # compared, not played on: as thrown
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
