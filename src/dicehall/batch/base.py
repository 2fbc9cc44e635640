"""What every batch simulator shares: games in lockstep, one step per pass, counts of events.

A subclass holds one game's state as arrays with a leading games axis, a
`phase` per game, and one handler per phase that takes a step in every game
given to it (an array of game indices). `run` calls the handlers until no
game is left in any of their phases.

Seats play at random (uniform among the legal actions, as `RandomBot`) or as
the game's heuristic bot: its policy written as array operations, or, where
a decision needs the bot's own arithmetic, the bot's function evaluated once
per distinct position (`_lookup`) and read from a table after.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from dicehall.core.game import Game

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Handler = Callable[[Ints], None]
POLICIES = ("random", "heuristic")
"""The bots a batch plays: uniform random, and the game's heuristic bot."""


class Batch:
    """`games` games of one configured game; `events` counts each event name per game."""

    game_id: ClassVar[str]
    event_names: ClassVar[Sequence[str]]
    roll_off_tie: ClassVar[str] = ""
    """The event a tied round of the roll-off (C5) counts, for games that have one."""

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | None = None,
        bots: Sequence[str] = ("random",),
    ) -> None:
        if game.id != self.game_id:
            raise ValueError(f"{type(self).__name__} plays {self.game_id}, not {game.id}")
        self.game = game
        self.rng = np.random.default_rng(seed)
        self.n = game.seats
        names = [bots[s % len(bots)] for s in range(self.n)]
        wrong = sorted(set(names) - set(POLICIES))
        if wrong:
            raise ValueError(f"a batch plays the bots {', '.join(POLICIES)}, not {wrong}")
        self.heuristic = np.array([name == "heuristic" for name in names], dtype=bool)
        """heuristic[s]: seat s plays as the heuristic bot (else at random)."""
        self.size = games
        self.phase = np.zeros(games, dtype=np.int64)
        self.steps = np.zeros(games, dtype=np.int64)
        self.events = {name: np.zeros(games, dtype=np.int64) for name in self.event_names}
        self.contenders = np.ones((games, self.n), dtype=bool)

    def handlers(self) -> dict[int, Handler]:
        """Each phase's handler: one step in every game given to it that is in that phase."""
        raise NotImplementedError

    def _play(self, handlers: Mapping[int, Handler]) -> None:
        """Each pass, every game takes one step, in the phase it was in when the pass began."""
        while True:
            phase = self.phase
            by_phase = [(h, np.flatnonzero(phase == p)) for p, h in handlers.items()]
            if not any(g.size for _, g in by_phase):
                return
            for handler, g in by_phase:
                if g.size:
                    handler(g)

    def _choose(self, count: Ints) -> Ints:
        """A uniform choice among `count` legal actions in each game: its index."""
        return (self.rng.random(count.size) * count).astype(np.int64)

    def _roll_off_round(self, g: Ints) -> tuple[Ints, Ints]:
        """C5: one die per contender, counted as that many steps; those tied for highest
        throw again. Returns the games it settled and, in each, the seat that won it."""
        contenders = self.contenders.take(g, 0)
        faces = np.where(contenders, self.rng.integers(1, 7, (g.size, self.n)), 0)
        self.steps[g] += contenders.sum(axis=1)
        top = faces == faces.max(axis=1, keepdims=True)
        single = top.sum(axis=1) == 1
        tied = g[~single]
        self.contenders[tied] = top[~single]
        self.events[self.roll_off_tie][tied] += 1
        return g[single], np.argmax(top[single], axis=1)

    def _successor_left(self, nxt: Ints, g: Ints, seat: Ints) -> None:
        """`seat` left each game `g`: whoever it followed in `nxt` (games x seats, the next
        seat still in, C2) now hands on to its successor."""
        row = nxt.take(g, 0)
        after = row.reshape(-1).take(np.arange(g.size) * self.n + seat)
        nxt[g] = np.where(row == seat[:, None], after[:, None], row)

    @staticmethod
    def _lookup(keys: Ints, cache: dict[Any, Any], decide: Callable[..., Any]) -> NDArray[Any]:
        """`decide(*key)` for each row of `keys` (a number, or a row of them), each distinct
        key evaluated once while `cache` holds the answers."""
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        answers = []
        for row in unique.tolist():
            key: Hashable = tuple(row)
            if key not in cache:
                cache[key] = decide(*row)
            answers.append(cache[key])
        if not answers:
            return np.zeros(0, dtype=np.int64)
        values: NDArray[Any] = np.array(answers)[inverse.reshape(-1)]
        return values
