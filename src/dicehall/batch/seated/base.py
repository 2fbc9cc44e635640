"""A batch whose seats may be played from outside, one decision at a time.

`dicehall.batch` plays whole games with its own policies. A seated batch is
the same simulator (each game's `Batch` subclass, its handlers untouched)
stopped wherever a seat played from outside (`outside`) must decide: the
caller reads that seat's observation tensor and legal actions, hands back
an action id per game (`act`), and the batch plays the throws and the other
seats' moves up to the next such decision (`advance`). This is what a vector
environment steps; `dicehall.rl.vector` is that environment.

An outside choice enters the handler where the batch's own random choice
would (`_choose`): the handlers draw the index of a uniform choice among the
legal actions, and an action id becomes that index (its place among the
legal ids, which the batches list in increasing id order), so a step taken
for an outside seat runs exactly the code a random seat's step runs. Outside
seats are random seats to the batch itself: no heuristic state is kept for
them. When no seat of the batch's own plays the heuristic, a game's compiled
loop (`compiled`) takes both the outside choices and the moves after them,
one game at a time, in place of the handlers' passes.

Games start afresh (`restart`) from a copy of the first game's state at
construction: every per-game array is reset by name, so a game restarts
with the state the simulator itself begins with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.base import Batch, Bools, Handler, Ints
from dicehall.batch.seated.compiled import loop as compiled_loop
from dicehall.core.game import Game

Floats = NDArray[np.float32]


class Seated(Batch):
    """A batch of one configured game in which the `outside` seats are the caller's.

    A subclass lists its game's decision phases and says, for games waiting
    in them, who decides (`actor`), what is legal (`legal`), what a table
    would play for an absent seat (`default`), what a seat sees (`observe`)
    and, once over, each seat's net (`net`).
    """

    decision_phases: ClassVar[frozenset[int]]
    over_phase: ClassVar[int]
    shared: ClassVar[frozenset[str]] = frozenset({"heuristic", "outside", "every"})
    """Array attributes that are not one row per game."""

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | np.random.Generator | None = None,
        bots: Sequence[str] = ("random",),
        outside: Sequence[int] = (),
        max_decisions: int | None = None,
    ) -> None:
        n = game.seats
        names = [bots[s % len(bots)] for s in range(n)]
        names = ["random" if s in outside else name for s, name in enumerate(names)]
        self.outside: Bools = np.zeros(n, dtype=bool)
        self.outside[list(outside)] = True
        super().__init__(game, games, seed, names)  # type: ignore[arg-type]
        self.max_decisions = max_decisions
        self.every: Ints = np.arange(games, dtype=np.int64)
        """Every game: as `g`, it lets `observe` read the arrays as they are."""
        self.decisions: Ints = np.zeros(games, dtype=np.int64)
        """Decisions taken in each game's episode, by every seat (what adapters truncate at)."""
        self._given: Ints | None = None
        self._more_state()
        self._steps = [
            (phase, handler, phase in self.decision_phases)
            for phase, handler in self.handlers().items()
        ]
        self._phases = 1 + max(self.over_phase, *(phase for phase, _, _ in self._steps))
        self._template = {
            name: np.copy(value[0])
            for name, value in vars(self).items()
            if isinstance(value, np.ndarray)
            and value.ndim >= 1
            and value.shape[0] == games
            and name not in self.shared
        }
        self._event_template = {name: int(value[0]) for name, value in self.events.items()}
        self.counts = np.stack(list(self.events.values()), axis=1)
        """The event counts, a column each in `event_names` order (`events` holds the
        columns): one array for the compiled loop."""
        self.events = {name: self.counts[:, k] for k, name in enumerate(self.events)}
        self._loop = compiled_loop(self, self.game_id)
        """The compiled loop that plays the batch's own seats (`compiled`), or None: the
        passes of `advance` play them."""

    # --- the episode -----------------------------------------------------------------

    def restart(self, g: Ints) -> None:
        """Start games `g` afresh, as the batch begins them."""
        if g.size == 0:
            return
        for name, row in self._template.items():
            getattr(self, name)[g] = row
        for name, count in self._event_template.items():
            self.events[name][g] = count
        self._begin(g)

    def _more_state(self) -> None:
        """Per-game arrays a subclass keeps beyond the batch's (what the views show), made
        before the first game's state is copied for restarts."""

    def _begin(self, g: Ints) -> None:
        """What a game's start draws (dice thrown before anyone decides): nothing by default."""

    def advance(self, g: Ints) -> None:
        """Throw and play the batch's own seats in games `g` until each game is over, waits
        for an outside seat, or has had `max_decisions` decisions: in the compiled loop,
        or pass by pass, each pass one step in every game still moving, in the phase it
        was in when the pass began (as `Batch._play`)."""
        if self._loop is not None:
            self._loop(self, g, None)
            return
        active = g
        limit = self.max_decisions
        phases = self._phases
        while active.size:
            phase = self.phase.take(active)
            counts = np.bincount(phase, minlength=phases)
            moving: list[tuple[int, Handler, Ints, bool]] = []
            for p, handler, decides in self._steps:
                count = counts[p]
                if not count:
                    continue
                sub = active if count == active.size else active[phase == p]
                if decides:
                    sub = sub[~self._waits(p, sub)]
                    if limit is not None:
                        sub = sub[self.decisions.take(sub) < limit]
                if sub.size:
                    moving.append((p, handler, sub, decides))
            if not moving:
                return
            for phase_of, handler, sub, decides in moving:
                if decides:
                    self._count_decisions(phase_of, sub)
                handler(sub)
            active = moving[0][2] if len(moving) == 1 else np.concatenate([m[2] for m in moving])

    def act(self, g: Ints, ids: Ints, legal: Bools) -> None:
        """The outside seats' choices: in each game `g`, waiting for an outside seat whose
        legal ids are `legal` (rows of the action mask), the legal action id `ids`."""
        below = np.arange(legal.shape[1]) < ids[:, None]
        index = np.count_nonzero(legal & below, axis=1)
        if self._loop is not None:  # the choices, and the batch's own seats after them
            self._loop(self, g, index)
            return
        phase = self.phase.take(g)
        for p, handler, decides in self._steps:
            if decides:
                chosen = phase == p
                if chosen.any():
                    self._decide(p, handler, g[chosen], index[chosen])

    def _decide(self, phase: int, handler: Handler, g: Ints, index: Ints) -> None:
        """One outside decision in each game `g`: `index` among the legal actions."""
        self.decisions[g] += 1
        self._given = index
        handler(g)
        if self._given is not None:
            raise AssertionError(f"phase {phase}'s handler made no choice")

    def _choose(self, count: Ints) -> Ints:
        """The outside seats' choices, when a step is taken for them; else uniform."""
        given = self._given
        if given is None:
            return super()._choose(count)
        self._given = None
        return given

    def _count_decisions(self, phase: int, g: Ints) -> None:
        """The batch's own seats decide in games `g`: one decision each, by default."""
        self.decisions[g] += 1

    def _waits(self, phase: int, g: Ints) -> Bools:
        """Which of games `g`, in decision phase `phase`, wait for an outside seat."""
        waits: Bools = self.outside.take(self.actor_in(phase, g))
        return waits

    def actor_in(self, phase: int, g: Ints) -> Ints:
        """`actor` of games `g`, all in decision phase `phase`."""
        return self.actor(g)

    # --- what the caller asks ----------------------------------------------------------

    def at(self, values: NDArray[Any], g: Ints) -> NDArray[Any]:
        """A per-game array's rows for games `g` (`take`: cheaper than fancy indexing);
        the array itself when `g` is `every`."""
        return values if g is self.every else values.take(g, 0)

    def over(self, g: Ints) -> Bools:
        over: Bools = self.at(self.phase, g) == self.over_phase
        return over

    def actor(self, g: Ints) -> Ints:
        """The seat to decide in each of games `g` (each in a decision phase)."""
        raise NotImplementedError

    def legal(self, g: Ints) -> Bools:
        """The legal action ids of the seat to decide in each game, as a (games, actions) mask."""
        raise NotImplementedError

    def default(self, g: Ints) -> Ints:
        """`State.default_action` of the seat to decide, as an action id."""
        raise NotImplementedError

    def observe(self, g: Ints, me: Ints | int) -> Floats:
        """`State.observation_tensor(me)` of each game `g`: seat `me[i]` in game `g[i]`, or
        seat `me` in all of them. Defined while a seat decides and once a game is over."""
        raise NotImplementedError

    def net(self, g: Ints) -> Ints:
        """Each seat's net (`Result.net`) in each of games `g`, which are over."""
        raise NotImplementedError
