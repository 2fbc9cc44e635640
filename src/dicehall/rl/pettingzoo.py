"""Every game as a PettingZoo AEC environment (`pip install 'dicehall[rl]'`).

`env("kariki", seats=4, berries=2)` is a real `pettingzoo.AECEnv`, in the
shape of PettingZoo's classic environments:

- agents are "seat_0" ... "seat_{n-1}"; one acts at a time
  (`agent_selection`), throws happen inside the environment from seeded
  dice, and a simultaneous choice (C3) is taken one seat at a time in seat
  order, which gives nothing away because views hide a commitment until all
  are in;
- `observation_space(agent)` is a `Dict` of "observation", a float32 `Box`
  with the game's declared finite bounds (`Game.observation_bounds`), and
  "action_mask", an int8 `Box` of 0/1 over the action ids: 1 for the legal
  actions of the agent to act, all 0 for the others;
- `action_space(agent)` is `Discrete(game.num_actions)`, the fixed ids;
  an illegal id raises `IllegalActionError` and changes nothing;
- rewards are 0 until the game ends, then each seat's net (`Result.net`);
  every agent then stays in `agents`, terminated, until it is stepped with
  None; an episode that reaches `max_steps` decisions (by default the game's
  `length_cap`) is truncated instead;
- `render_mode` "ansi" returns the spectator's picture as text, "human"
  prints it.

Games decided by the dice alone: throws can end a game before anyone
decides (most Toplshteyner games at four seats), and PettingZoo wants every
agent live after `reset`. Such an episode is kept, not redrawn, so the
distribution of episodes and of their results is the game's own: seat_0 is
given one formal decision in which only action id 0 is legal and which
changes nothing (`infos["seat_0"]["decided_by_dice"]` is true, the
observation already shows the end); stepping it ends the episode with each
seat's net.

`reset(seed=None, options=None)`: a seed restarts the environment's seed
sequence; `options` are not used, since the game and its options, set at
construction, fix the spaces.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from dicehall.core.errors import IllegalActionError
from dicehall.rl.env import MultiAgentEnv
from dicehall.rl.spaces import Observer, action_mask_array, menu_mask, observation_box


class DicehallAECEnv(AECEnv):  # type: ignore[misc]
    """One game as a PettingZoo AEC environment; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (the libraries read it)
        "name": "dicehall_v0",
        "render_modes": ["ansi", "human"],
        "is_parallel": False,
    }

    def __init__(
        self,
        game: str = "kariki",
        seats: int | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        seed: int | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None; got {render_mode!r}")
        self.render_mode = render_mode
        self.core = MultiAgentEnv(game, seats, options, seed=seed)
        self.game = self.core.game
        self.core.max_steps = self.game.encoding.length_cap if max_steps is None else max_steps
        self.metadata = {**self.metadata, "name": f"dicehall_{self.game.id}_v0"}
        self.possible_agents = [f"seat_{s}" for s in range(self.game.seats)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        n = self.game.num_actions
        observation = spaces.Dict(
            {
                "observation": observation_box(self.game),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self._observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._formal = False
        self._observe = Observer(self.game)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._formal = not self.core.agents
        if self._formal:
            self.agent_selection = self.possible_agents[0]
            self.infos[self.agent_selection] = {"decided_by_dice": True}
        else:
            self.agent_selection = self.possible_agents[self.core.agent_selection]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._formal:
            if action is None or int(action) != 0:
                raise IllegalActionError(
                    "the dice alone decided this game: only action id 0 is legal, a formality"
                )
            self._formal = False
        else:
            self.core.step(action)
        self._cumulative_rewards[agent] = 0.0
        if self.core.agents:
            self.agent_selection = self.possible_agents[self.core.agent_selection]
            return
        core = self.core
        for a, seat in self._seat.items():
            self.rewards[a] = float(core.rewards[seat])
            self.terminations[a] = core.terminations[seat]
            self.truncations[a] = core.truncations[seat]
            self.infos[a] = {}
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat[agent]
        core = self.core
        tensor = self._observe(core, seat)
        menu = core.menu
        if (
            agent != self.agent_selection
            or self.terminations.get(agent)  # an agent stepped out is in neither
            or self.truncations.get(agent)
        ):
            mask = np.zeros(self.game.num_actions, np.int8)
        elif self._formal:
            mask = action_mask_array(self.game, [0])
        elif menu is not None:
            mask = menu_mask(self.game, menu)
        else:  # not reached: a live agent_selection has a menu
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": tensor, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.core.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""


def raw_env(game: str = "kariki", seats: int | None = None, **kwargs: Any) -> DicehallAECEnv:
    """The environment without PettingZoo's order-checking wrapper."""
    return DicehallAECEnv(game, seats, **kwargs)


def _after_reset(name: str) -> property:
    """An attribute of the wrapped environment, read once the wrapper has been reset."""

    def get(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The environment's `{name}`, after `reset`.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-checking wrapper, every check kept, with fewer hops per step.

    The plain wrapper reaches each attribute of the environment through two
    `__getattr__` calls, several times a step: `last()` alone reads five. Here
    the attributes it guards are properties that make the same check;
    `last()` asks the environment's own `last()` once the wrapper is reset, as
    the plain one does through its `observe`; `step()` and the iterator of
    `agent_iter()` make PettingZoo's checks and then reach the environment
    directly. Everything else is PettingZoo's own code; benchmarks/rl_envs.py
    measures both wrappers and none.
    """

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")
    num_agents = _after_reset("num_agents")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """PettingZoo's own checks, then the environment's step, with no hop between."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-checking iterator, reading the environment behind the wrapper."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def env(game: str = "kariki", seats: int | None = None, **kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic games come: wrapped to enforce call order.

    Keyword arguments are `render_mode`, `max_steps`, `seed` and the game's options.
    """
    return OrderEnforcing(raw_env(game, seats, **kwargs))
