"""Every game as a Gymnasium vector environment on the batch simulator (`dicehall[rl]`).

`DicehallVectorEnv` plays `num_envs` games at once with NumPy
(`dicehall.batch.seated`): the same environment as `dicehall.rl.gymnasium`'s
single one, many at a time, at a fraction of the cost of stepping many
single environments. Importing `dicehall.rl.gymnasium` registers it as each
game's vector entry point:

    import gymnasium as gym
    import dicehall.rl.gymnasium  # registers the games

    envs = gym.make_vec("dicehall/Kariki-v0", num_envs=1024, seats=2, opponents="random",
                        vectorization_mode="vector_entry_point")
    observations, infos = envs.reset(seed=0)
    masks = infos["action_mask"]  # (num_envs, num_actions) int8

What each environment is, as the single one (`DicehallGymEnv`):

- `seat` (default 0) learns; `opponents` ("random" or "heuristic", the bots
  the batch plays, or a list cycled over the other seats) play the others.
  The observation is the seat's observation tensor: float32, the game's
  declared layout and bounds, the values `State.observation_tensor` gives
  in the same position. The action is a fixed action id; the reward is 0
  until the game ends, then the seat's net.
- `infos["action_mask"]` (int8, one row per environment) marks the legal
  ids, and `action_masks()` gives them as booleans (MaskablePPO's form).
- `illegal="default"` plays the game's default move for an illegal id
  (`State.default_action`) and sets `infos["illegal"]`; `illegal="raise"`
  raises `IllegalActionError` before anything changes.
- A game decided before the seat's first decision gets one formal decision,
  id 0 only (`infos["decided_by_dice"]`), then ends with the net.
- `max_steps` decisions of all seats (by default the game's `length_cap`)
  truncate an episode.

Self-play: `seat=None` gives every seat to the caller (a list of seats gives
those). Each step then takes the decision of whichever of them is to act in
each environment, `infos["seat"]` tells whose observation comes back, the
reward is the net of the seat that just acted when its action ended the
game, and `infos["net"]` holds every seat's net when an episode ends (also
with one learner). A game decided before anyone decides gives its formal
decision to the lowest of the caller's seats.

Autoreset (`autoreset_mode`, in `metadata["autoreset_mode"]`): NEXT_STEP by
default, as Gymnasium's own vector environments: the step after an
episode's last returns the next episode's first observation, its action
ignored, with reward 0. SAME_STEP returns the next episode's first
observation at once, with the last one in `infos["final_obs"]` and its
infos (`net`, the empty mask) in `infos["final_info"]`. DISABLED leaves
restarts to `reset(options={"reset_mask": mask})`.

`gym.make_vec(id, num_envs)` without a `vectorization_mode` builds this
environment too (Gymnasium prefers a registered vector entry point);
`vectorization_mode="sync"` (or "async") still gives copies of the single
environment, which play every option and bot the single one plays.

Seeding: `reset(seed=s)` fixes the dice and the bots' choices of every
environment from then on; the same seed and the same actions give the same
observations. `reset()` without a seed goes on with the generator.

The games the batch plays are the games' own rules and options, except
research variants the batch simulator does not play (Kariki's `berries`,
`one_round`, `throws` and `first_roller`; Tao Dice's `tiebreaks`,
`hidden_faces`, `shown_faces`, `black_stones` and `white_stones`), which raise `OptionError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from dicehall.batch.base import POLICIES
from dicehall.batch.seated import seated
from dicehall.core.errors import IllegalActionError, OptionError
from dicehall.games import make_game
from dicehall.rl.spaces import observation_box

ILLEGAL_CHOICES = ("default", "raise")

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


class DicehallVectorEnv(VectorEnv[NDArray[np.float32], NDArray[np.int64], NDArray[Any]]):
    """`num_envs` games of one configuration; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "kariki",
        seat: int | Sequence[int] | None = 0,
        opponents: str | Sequence[str] = "heuristic",
        seats: int | None = None,
        max_steps: int | None = None,
        illegal: str = "default",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector environment does not render; render a single one")
        if illegal not in ILLEGAL_CHOICES:
            raise OptionError(
                f"illegal must be one of {', '.join(ILLEGAL_CHOICES)}; got {illegal!r}"
            )
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1; got {num_envs}")
        self.game = make_game(game, seats, options)
        n = self.game.seats
        if seat is None:
            outside = list(range(n))
        else:
            outside = sorted({int(s) for s in (seat if isinstance(seat, Sequence) else [seat])})
        if not outside or not all(0 <= s < n for s in outside):
            raise ValueError(f"seats are 0 to {n - 1}; got {seat!r}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        wrong = sorted(set(names) - set(POLICIES))
        if wrong:
            raise OptionError(
                f"the vector environment's opponents are the batch's bots, "
                f"{' and '.join(POLICIES)}; not {', '.join(wrong)}"
            )
        others = [s for s in range(n) if s not in outside]
        bots = ["random"] * n
        for i, s in enumerate(others):
            bots[s] = names[i % len(names)]
        self.num_envs = num_envs
        self.learners = outside
        """The seats the caller plays, in seat order."""
        self.illegal = illegal
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = None
        self.max_steps = self.game.encoding.length_cap if max_steps is None else max_steps
        self.batch = seated(self.game, num_envs, None, bots, outside, self.max_steps)
        self.num_actions = self.game.num_actions
        self.single_observation_space = observation_box(self.game)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._all: Ints = np.arange(num_envs, dtype=np.int64)
        self._seat: Ints = np.full(num_envs, outside[0], dtype=np.int64)
        """Whose observation each environment shows: the seat to decide, or that decided last."""
        self._mask: Bools = np.zeros((num_envs, self.num_actions), dtype=bool)
        self._formal: Bools = np.zeros(num_envs, dtype=bool)
        self._done: Bools = np.zeros(num_envs, dtype=bool)
        self._started = False
        self._obs: NDArray[np.float32] = np.zeros(
            (num_envs, self.single_observation_space.shape[0]), dtype=np.float32
        )

    # --- the Gymnasium API -----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start every environment afresh, or those of `options["reset_mask"]`."""
        super().reset(seed=seed)
        if seed is not None:
            self.batch.rng = np.random.default_rng(seed)
        mask = (options or {}).get("reset_mask")
        if mask is None:
            g = self._all
        else:
            mask = np.asarray(mask, dtype=bool)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},)")
            g = np.flatnonzero(mask)
        if mask is not None and not self._started:
            raise RuntimeError("the first reset() starts every environment: no reset_mask")
        self._started = True
        self._done[g] = False
        self._start(g)
        infos: dict[str, Any] = {}
        self._settle(np.empty(0, dtype=np.int64), g, infos)
        return self._obs, infos

    def step(
        self, actions: NDArray[np.int64] | Sequence[int]
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], Bools, Bools, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = self._actions(actions)
        mode = self.autoreset_mode
        done = self._done
        if done.any() and mode == AutoresetMode.DISABLED:
            raise RuntimeError("an episode is over: reset it with options={'reset_mask': ...}")
        fresh = np.flatnonzero(done) if mode == AutoresetMode.NEXT_STEP else self._all[:0]
        live = np.flatnonzero(~done) if fresh.size else self._all
        legal = self._mask.take(live, 0)
        picked = chosen[live]
        ok = (picked >= 0) & (picked < self.num_actions)
        ok[ok] = legal[np.flatnonzero(ok), picked[ok]]
        illegal = live[~ok]
        if illegal.size and self.illegal == "raise":
            raise IllegalActionError(
                f"action id {int(chosen[illegal[0]])} is not legal in environment "
                f"{int(illegal[0])}; its legal ids are {np.flatnonzero(self._mask[illegal[0]])}"
            )
        formal = self._formal[live]
        ended_formal = live[formal]
        play = live[~formal]
        ids = chosen[play]
        bad = ~ok[~formal]
        if bad.any():
            ids[bad] = self.batch.default(play[bad])
        self.batch.act(play, ids, self._mask.take(play, 0))
        self._formal[ended_formal] = False
        self._start(fresh, advance=False)
        self.batch.advance(np.concatenate([play, fresh]) if fresh.size else play)
        infos: dict[str, Any] = {}
        if illegal.size:
            flags = np.zeros(self.num_envs, dtype=bool)
            flags[illegal] = True
            infos["illegal"], infos["_illegal"] = flags, flags.copy()
        rewards, terminated, truncated = self._settle(play, fresh, infos, ended_formal)
        return self._obs, rewards, terminated, truncated, infos

    def action_masks(self) -> Bools:
        """The legal action ids of every environment, as booleans (sb3-contrib's form)."""
        return self._mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the environment holds no window, file or process."""

    # --- the episodes ----------------------------------------------------------------

    def _actions(self, actions: NDArray[np.int64] | Sequence[int]) -> Ints:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            chosen = chosen.reshape(self.num_envs)
        whole = chosen.dtype.kind in "iu" or (
            chosen.dtype.kind == "f" and bool(np.all(chosen == np.round(chosen)))
        )
        if not whole:
            raise IllegalActionError(f"actions must be whole numbers; got {chosen.dtype}")
        return chosen.astype(np.int64, copy=False)

    def _start(self, g: Ints, advance: bool = True) -> None:
        """New episodes in environments `g`."""
        if g.size:
            self.batch.restart(g)
            self._formal[g] = False
            if advance:
                self.batch.advance(g)

    def _settle(
        self,
        play: Ints,
        fresh: Ints,
        infos: dict[str, Any],
        ended_formal: Ints | None = None,
    ) -> tuple[NDArray[np.float64], Bools, Bools]:
        """After the games moved: who decides next, what ended, the rewards, observations,
        masks and infos; in SAME_STEP mode the ended games start again."""
        batch = self.batch
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        over = batch.over(batch.every)
        cut = ~over & (batch.decisions >= self.max_steps)
        waiting = ~over & ~cut
        moved = np.zeros(n, dtype=bool)
        moved[play] = True
        moved[fresh] = True
        seat = np.where(waiting & moved, batch.actor(batch.every), self._seat)
        ended = np.zeros(n, dtype=bool)
        ended[play] = ~waiting[play]
        terminated[play] = over[play]
        truncated[play] = cut[play]
        if ended_formal is not None and ended_formal.size:
            ended[ended_formal] = True
            terminated[ended_formal] = over[ended_formal]
            truncated[ended_formal] = ~over[ended_formal]
        formal = np.zeros(n, dtype=bool)
        formal[fresh] = ~waiting[fresh]
        if formal.any():
            seat[formal] = self.learners[0]
            self._formal |= formal
        self._seat = seat
        if ended.any():
            self._finish(np.flatnonzero(ended), terminated, rewards, infos)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and ended.any():
            restarted = np.flatnonzero(ended)
            infos["final_obs"], infos["_final_obs"] = self._final(restarted, infos)
            self._start(restarted)
            return self._settle_restarted(restarted, rewards, terminated, truncated, infos)
        self._done = ended
        self._observe(waiting, formal, infos)
        return rewards, terminated, truncated

    def _finish(
        self, g: Ints, terminated: Bools, rewards: NDArray[np.float64], infos: dict[str, Any]
    ) -> None:
        """Rewards and every seat's net in the games `g` that just ended."""
        won = g[terminated[g]]
        nets = np.zeros((self.num_envs, self.game.seats), dtype=np.int64)
        if won.size:
            net = self.batch.net(won)
            nets[won] = net
            rewards[won] = net[np.arange(won.size), self._seat[won]]
        flags = np.zeros(self.num_envs, dtype=bool)
        flags[g] = True
        infos["net"], infos["_net"] = nets, flags

    def _final(self, g: Ints, infos: dict[str, Any]) -> tuple[NDArray[Any], Bools]:
        """SAME_STEP: the last observations of the games `g` and their infos."""
        me = self.learners[0] if len(self.learners) == 1 else self._seat[g]
        last = self.batch.observe(g, me)
        final = np.full(self.num_envs, None, dtype=object)
        for row, env in enumerate(g.tolist()):
            final[env] = last[row]
        flags = np.zeros(self.num_envs, dtype=bool)
        flags[g] = True
        final_info: dict[str, Any] = {k: infos.pop(k) for k in ("net", "_net") if k in infos}
        final_info["action_mask"] = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        final_info["_action_mask"] = flags.copy()
        infos["final_info"], infos["_final_info"] = final_info, flags.copy()
        return final, flags

    def _settle_restarted(
        self,
        g: Ints,
        rewards: NDArray[np.float64],
        terminated: Bools,
        truncated: Bools,
        infos: dict[str, Any],
    ) -> tuple[NDArray[np.float64], Bools, Bools]:
        """SAME_STEP: the fresh episodes of the games that ended in this step."""
        later: dict[str, Any] = {}
        self._settle(np.empty(0, dtype=np.int64), g, later)
        infos.update(later)
        return rewards, terminated, truncated

    def _observe(self, waiting: Bools, formal: Bools, infos: dict[str, Any]) -> None:
        """Every environment's observation and action mask, from the seat it shows."""
        batch = self.batch
        me = self.learners[0] if len(self.learners) == 1 else self._seat
        self._obs = batch.observe(batch.every, me)
        mask = batch.legal(batch.every)
        mask[~waiting] = False
        if formal.any():
            mask[formal, 0] = True
            flags = formal.copy()
            infos["decided_by_dice"], infos["_decided_by_dice"] = flags, flags.copy()
        self._mask = mask
        infos["action_mask"] = mask.astype(np.int8)
        infos["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        if len(self.learners) > 1:
            infos["seat"], infos["_seat"] = self._seat.copy(), infos["_action_mask"].copy()
