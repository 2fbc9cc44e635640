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

from dicehall.core.errors import IllegalActionError
from dicehall.rl.env import MultiAgentEnv
from dicehall.rl.spaces import action_mask_array, observation_box


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
        tensor = np.asarray(self.core.observation_tensor(seat), dtype=np.float32)
        legal: list[int] = []
        if agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        ):
            legal = [0] if self._formal else self.core.legal_action_ids(seat)
        return {"observation": tensor, "action_mask": action_mask_array(self.game, legal)}

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


def env(game: str = "kariki", seats: int | None = None, **kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic games come: wrapped to enforce call order.

    Keyword arguments are `render_mode`, `max_steps`, `seed` and the game's options.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game, seats, **kwargs))
