"""Which throws the rules have shown, and to whom: derived from views and events alone.

A throw's faces are *shown* to an audience (a seat, or None: everyone) when
what that audience has observed since the throw (the events visible to it and
its view after each step) tells the faces apart from every other outcome of
the dice. A pull that lifts the mug, a showdown, a public d12 show their
throw to everyone; the dice under the mug are shown to their thrower alone;
a folded hand, or a throw whose only public trace is "not a Kariki", is shown
to nobody else. Nothing here knows a game: it asks the core API (clone, steps,
views, events) what would have been seen had the faces been different.

A game whose rules say plainly what each step shows declares it
(`State.declared_shown`: Kariki does): then its word is taken, step by step,
and nothing is replayed, which spares a sealed table most of its tracking.
Each such game's tests hold its declarations to the replay below
(`ShownThrows(game, declared=False)`), step by step and audience by audience.
A game that declares nothing is replayed as described next.

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

Three shortcuts make the same answers cheaper (tests/test_shown_reference.py holds
them to the tracking without them, step by step). Events are compared as they are
met in the log, not listed first. A copy whose fields all equal the game's (its log
aside: a state is its fields, `same_state`) looks like the game to everyone from
then on, so its views are not made: it has merged. And a search for a throw in doubt
to everyone, after the throw has fallen, first asks the spectator alone: a throw no
other outcome looks like to the spectator is public, whatever the seats would say
(one audience compared a trial instead of every seat's). When the throw falls the
search asks everyone at once: a throw under a mug looks alike to the spectator at
its first other outcome, and asking twice would make that outcome twice.

`stand_ins` makes the public steps of a game whose unshown throws must stay
secret: each such throw is replaced by the first outcome, in the dice's own
order, that leaves everything public exactly as it was. The first of a class
of outcomes that look alike is the same whichever of them fell, so the
stand-in tells nothing beyond what was public already.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from dicehall.core.chance import Faces
from dicehall.core.errors import DicehallError
from dicehall.core.game import Game, State, ThrowShown, field_names
from dicehall.core.transcript import apply_step

Audience = int | None
"""A seat, or None: everyone, spectators included."""
Step = Mapping[str, Any]


def events_of(state: State, audience: Audience, logged: int, end: int | None = None) -> list[Any]:
    log = state.log or ()
    return [(e.type, e.text, e.data) for e in log[logged:end] if e.visible_to(audience)]


def same_events(state: State, audience: Audience, logged: int, wanted: Sequence[Any]) -> bool:
    """Whether `events_of(state, audience, logged)` would be `wanted`: compared event by
    event as the log is read, so a difference ends it without listing the rest."""
    log = state.log or ()
    i, n = 0, len(wanted)
    for j in range(logged, len(log)):
        e = log[j]
        to = e.to
        if to is None or (audience is not None and audience in to):
            if i == n:
                return False
            w = wanted[i]
            if e.type != w[0] or e.text != w[1] or e.data != w[2]:
                return False
            i += 1
    return i == n


@cache
def _fields_alike(cls: type) -> Callable[[Any, Any], bool]:
    """A function telling whether two states of `cls` hold equal fields, the log aside,
    written out for the class as `game.copier` is (a loop over forty fields costs more
    than the comparison)."""
    names = [name for name in field_names(cls) if name != "log"]
    for name in names:
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__} has a field that is not a name: {name!r}")
    terms = [f"(a.{n} is b.{n} or a.{n} == b.{n})" for n in names] or ["True"]
    scope: dict[str, Any] = {}
    exec("def alike(a, b):\n    return " + " and ".join(terms), scope)  # the class's own names
    made: Callable[[Any, Any], bool] = scope["alike"]
    return made


def same_state(a: State, b: State) -> bool:
    """Whether `a` and `b` are the same state of play: of one class, every field equal
    but the log. A state's views and what any step does to it are made of its fields
    alone (a clone copies them and drops the log), so two such states look alike to
    everyone from then on. A field that cannot say whether it is equal counts as
    different: then the views are compared, as without this test."""
    if type(a) is not type(b):
        return False
    try:
        if not _fields_alike(type(a))(a, b):
            return False
        extra_a: dict[str, Any] | None = getattr(a, "__dict__", None)
        extra_b: dict[str, Any] | None = getattr(b, "__dict__", None)
        if not extra_a and not extra_b:
            return True
        if extra_a is None or extra_b is None or extra_a.keys() != extra_b.keys():
            return False
        return all(v is extra_b[k] or v == extra_b[k] for k, v in extra_a.items() if k != "log")
    except (TypeError, ValueError):  # an array's comparison, say, answers no plain bool
        return False


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


def apply_again(state: State, step: Step) -> None:
    """Apply to a copy a step the game itself has taken: its form is known good (a
    transcript step's checks are `apply_step`'s), but whether the copy may take it is
    checked as for any step, and a refusal raises as there."""
    if "entropy" in step:
        return
    if "chance" in step:
        state.apply_chance(step["chance"])
    elif step.get("timeout") is True:
        state.timeout(step["seat"])
    else:
        state.apply(step["seat"], step["action"])


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
        compared = _compare(state, seen[0], alike, 0, views, everyone)
        if compared is not None:
            return Trial(None, alike, compared)
        for i, step in enumerate(steps, 1):
            if not every_step and i < last:  # played without a log, not compared
                state.log = None
                apply_again(state, step)
                continue
            if state.log is None:
                state.log = []
            logged = len(state.log)
            apply_again(state, step)
            views = i == last or (views_at_throws and "chance" in step)
            compared = _compare(state, seen[i], alike, logged, views, everyone)
            if compared is not None:
                return Trial(None, alike, compared)
    except DicehallError:
        return Trial(None, alike, True)  # cannot be told apart by playing on: keep it unshown
    return Trial(state, alike, False)


def _compare(
    state: State,
    wanted: Observed,
    alike: set[Audience],
    logged: int,
    views: bool,
    everyone: Sequence[Audience],
) -> bool | None:
    """One step of a trial: drop from `alike` each audience that tells `state` apart from
    what it saw (`wanted`: its events since `logged`, and with `views` its view). False:
    none is left; True: `state` looks like the game to everyone (only asked with
    `views`); None: play on."""
    for a in list(alike):
        if not same_events(state, a, logged, wanted.events(a)):
            alike.discard(a)
    if not alike:
        return False
    if not views:
        return None
    if wanted.current and same_state(state, wanted.state):
        return True  # every view alike: the game's own state, made again
    made: dict[Audience, Any] = {}
    for a in list(alike):
        made[a] = view = state.view(a)
        if view != wanted.view(a):
            alike.discard(a)
    if not alike:
        return False
    return merged(state, wanted, everyone, made) or None


def throw(before: State, faces: Faces) -> State:
    """A logged copy of `before` with `faces`, an outcome of its own dice (`alternatives`),
    thrown on the trusted path: its log holds the throw's events alone."""
    state = logged_copy(before)
    state.apply_chance_trusted(faces)
    return state


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


class ShownThrows:
    """Follows one game and knows, throw by throw, to whom the rules have shown it.

    Where the game declares what each step shows (`State.declared_shown`), from its
    answer to the first step on, the declarations are taken; `declared=False` replays
    every throw all the same (the tests compare the two)."""

    def __init__(self, game: Game, declared: bool = True) -> None:
        self.game = game
        self.state = game.new_state(record=True)
        self.audiences: tuple[Audience, ...] = (None, *range(game.seats))
        self.shown: list[set[Audience]] = []
        self.steps: list[Step] = []
        self._seen: dict[int, Observed] = {}
        self._tracked: dict[int, _Tracked] = {}
        self.declared: bool | None = None if declared else False
        """Whether the game's declarations are taken: None until the first step asks."""

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
        if self.declared is not False:
            try:
                told = state.declared_shown(step)
            except Exception:
                apply(state, step)  # a step the state refuses is refused here, as replayed
                raise
            if told is not None:
                if self.declared is None:
                    self.declared = True
                    state.log = None  # nothing reads its events: none are made
                return self._declared_step(step, told)
            if self.declared:
                raise RuntimeError(
                    f"{self.game.id} declared what its earlier steps showed, not this one's"
                )
            self.declared = False
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

    def _declared_step(self, step: Step, told: Sequence[ThrowShown]) -> list[tuple[int, Audience]]:
        """Apply a step whose showings the game declared; the pairs new among them, in the
        order a replay finds them: by throw, everyone before the seats (and alone, as a
        throw shown to everyone needs no seat of its own)."""
        apply(self.state, step)
        self.steps.append(step)
        if "chance" in step:
            self.shown.append(set())
        latest = len(self.shown) - 1
        new: dict[int, set[Audience]] = {}
        for shows in told:
            k = latest - shows.back
            if not 0 <= shows.back <= latest:
                raise ValueError(
                    f"{self.game.id} declared throw {shows.back} back shown; "
                    f"{latest + 1} have been made"
                )
            if shows.to not in self.audiences:
                raise ValueError(f"{self.game.id} declared a throw shown to {shows.to!r}")
            if not self.shown_to(k, shows.to):
                new.setdefault(k, set()).add(shows.to)
        found: list[tuple[int, Audience]] = []
        for k in sorted(new):
            audiences = {None} if None in new[k] else new[k]
            for a in sorted(audiences, key=lambda a: -1 if a is None else a):
                self.shown[k].add(a)
                found.append((k, a))
        return found

    def _follow(
        self, k: int, tracked: _Tracked, step: Step, now: Observed
    ) -> list[tuple[int, Audience]]:
        doubt: set[Audience] = set()
        probes = []
        views = "chance" in step or self.state.is_over()
        for probe, audiences in tracked.probes:
            logged = len(probe.log or ())
            try:
                apply_again(probe, step)
            except DicehallError:
                continue  # cannot be told apart by playing on: those audiences are left out
            rest = {a for a in audiences if same_events(probe, a, logged, now.events(a))}
            doubt |= audiences - rest
            if not rest or same_state(probe, self.state):
                continue  # told apart by all, or the game's own state: alike from now on
            if views:
                seen: dict[Audience, Any] = {}  # the probe's views, each made once
                for a in list(rest):
                    seen[a] = view = probe.view(a)
                    if view != now.view(a):
                        rest.discard(a)
                        doubt.add(a)
                if not rest or merged(probe, now, self.audiences, seen):
                    continue
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
        if steps and None in need and len(need) > 1 and self._public(tracked, steps, seen):
            need = {None}  # as the search of every audience would end, seats' probes and all
        else:
            self._search(tracked, steps, seen, need)
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

    def _public(self, tracked: _Tracked, steps: Sequence[Step], seen: Sequence[Observed]) -> bool:
        """Whether the spectator tells every other outcome apart from the throw, each tried
        as the search of every audience would try it: then the throw is public, and that
        search would end with everyone in `need` and the seats' probes dropped. An
        outcome played on here is thrown again by that search, if it is made after all."""
        for faces in alternatives(tracked.before):
            if faces == tracked.faces:
                continue
            thrown = tracked.thrown.pop(faces, None) if steps else None
            result = trial(
                tracked.before,
                faces,
                steps,
                seen,
                {None},
                self.audiences,
                every_step=False,
                thrown=thrown,
            )
            if result.alike:
                return False
        return True

    def _search(
        self,
        tracked: _Tracked,
        steps: Sequence[Step],
        seen: Sequence[Observed],
        need: set[Audience],
    ) -> None:
        """Try the other outcomes in order until every audience in `need` has one that
        still looks like the throw to it (each becomes a probe); drop from `need` each
        audience that has one."""
        # when the throw falls, an outcome the audiences in doubt tell apart at once is
        # kept thrown for a later search (which plays steps after it, a state each)
        keep = not steps and count_outcomes(tracked.before) <= KEEP_THROWN
        fell = [(a, seen[0].events(a)) for a in need]  # what each saw as the throw fell
        for faces in alternatives(tracked.before):
            if not need:
                break
            if faces == tracked.faces:
                continue
            thrown = tracked.thrown.pop(faces, None) if steps else None
            if not steps:  # the throw has just fallen: most outcomes differ in its events
                thrown = throw(tracked.before, faces)
                for a, events in fell:
                    if same_events(thrown, a, 0, events):
                        break
                else:  # what `trial` would find, without its views or its result
                    if keep:
                        tracked.thrown[faces] = thrown
                    continue
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
            fell = [(a, events) for a, events in fell if a in need]
            if result.state is not None:
                tracked.probes.append((result.state, result.alike))


def shown_throws(game: Game, steps: Sequence[Step], declared: bool = True) -> ShownThrows:
    """Follow a whole list of steps."""
    shown = ShownThrows(game, declared)
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
    seen: list[Observed] = []
    for i, step in enumerate(out):
        logged = len(state.log or ())
        if seen:  # views are compared at throws (views_at_throws) and at the end
            seen[-1].moved_on(everyone if "chance" in out[i - 1] else ())
        apply(state, step)
        seen.append(Observed(state, logged))
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
