"""Every game as a single-agent Gymnasium environment against the bots (`dicehall[rl]`).

Importing this module registers one environment per game, `dicehall/Kariki-v0`,
`dicehall/Tao-v0`, `dicehall/Tepiiku-v0` and `dicehall/Toplshteyner-v0`:

    import gymnasium as gym
    import dicehall.rl.gymnasium  # registers the games

    env = gym.make("dicehall/Kariki-v0", seats=2, opponents="heuristic")
    envs = gym.make_vec("dicehall/Kariki-v0", num_envs=1024)  # dicehall.rl.vector's, batched

One seat (`seat`, default 0) learns; the game's bots play the others
(`opponents`: a bot name from `Game.bots()`, or a list cycled over the other
seats). The other keyword arguments are `seats`, `render_mode` ("ansi" or
"human"; any other mode, such as the "rgb_array" that Stable-Baselines3's
`make_vec_env` asks for, is warned about as Gymnasium's `make` does, and
the environment renders nothing: `render_mode` None), `max_steps`
(decisions, by default the game's `length_cap`), `illegal` and the game's
options.

- The observation is the seat's observation tensor (float32 `Box` with the
  game's declared bounds); the action is a fixed action id,
  `Discrete(game.num_actions)`; the reward is 0 until the game ends, then
  the seat's net (`Result.net`).
- `info["action_mask"]` (int8) and `env.action_masks()` (bool, as
  sb3-contrib's MaskablePPO asks for it) mark the legal ids;
  `info["legal"]` lists them.
- Illegal actions: with `illegal="default"` (the default) the seat plays the
  game's own default move instead (`State.default_action`, what a table
  plays for a seat whose time ran out: pass, pay, fold or the lowest claim)
  and `info["illegal"]` is true, so random-action checkers and exploring
  agents run on; `illegal="raise"` raises `IllegalActionError` and changes
  nothing.
- A game that the dice alone decide before this seat's first decision is
  kept, so the distribution of episodes and results is the game's own: the
  seat gets one formal decision in which only action id 0 is legal and
  which changes nothing (`info["decided_by_dice"]`), and the step after it
  ends the episode with the seat's net.
- `reset(seed=None, options=None)`: a seed fixes the dice and the bots'
  choices of this and the following episodes; `options` are not used (the
  game and its options, set at construction, fix the spaces).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from dicehall.core.errors import IllegalActionError, OptionError
from dicehall.games import game_class, game_ids
from dicehall.rl.env import SingleAgentEnv
from dicehall.rl.spaces import Observer, action_mask_array, menu_mask, observation_box

ILLEGAL_CHOICES = ("default", "raise")


class DicehallGymEnv(gym.Env[np.ndarray[Any, Any], np.int64]):
    """One seat against the bots; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (the libraries read it)

    def __init__(
        self,
        game: str = "kariki",
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        seats: int | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal: str = "default",
        **options: object,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            # as Gymnasium's own `make` does, a warning: Stable-Baselines3's make_vec_env
            # asks every environment for "rgb_array", which a text game has no picture for
            gym.logger.warn(
                f"dicehall environments render text: render_mode={render_mode!r} is not in "
                f"the possible render_modes ({self.metadata['render_modes']}): the "
                "environment renders nothing (render_mode None)"
            )
            render_mode = None
        if illegal not in ILLEGAL_CHOICES:
            raise OptionError(
                f"illegal must be one of {', '.join(ILLEGAL_CHOICES)}; got {illegal!r}"
            )
        self.render_mode = render_mode
        self.illegal = illegal
        self.core = SingleAgentEnv(game, seat, opponents, seats, options)
        self.game = self.core.env.game
        self.core.env.max_steps = self.game.encoding.length_cap if max_steps is None else max_steps
        self.seat = seat
        self.observation_space = observation_box(self.game)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self._legal: list[int] = []
        self._formal = False
        self._observe = Observer(self.game)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.core._start(seed, None)
        menu = self.core.env.menu
        self._formal = menu is None
        self._legal = [0] if menu is None else menu.ids
        return self._observation(), self._info(decided_by_dice=self._formal)

    def step(
        self, action: np.int64 | int
    ) -> tuple[np.ndarray[Any, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        chosen = int(action)
        illegal = chosen not in self._legal
        if illegal and self.illegal == "raise":
            raise IllegalActionError(
                f"action id {chosen} is not legal now; the legal ids are {self._legal}"
            )
        env = self.core.env
        if self._formal:
            self._formal = False
            self._legal = []
            reward = float(env.state.result().net[self.seat])
            return self._observation(), reward, True, False, self._info(illegal=illegal)
        move: object = env.state.default_action(self.seat) if illegal else chosen
        self.core._act(move)  # type: ignore[arg-type]
        menu = env.menu
        self._legal = menu.ids if menu is not None and env.agent_selection == self.seat else []
        seat = self.seat
        return (
            self._observation(),
            float(env.rewards[seat]),
            env.terminations[seat],
            env.truncations[seat],
            self._info(illegal=illegal),
        )

    def _observation(self) -> np.ndarray[Any, Any]:
        return self._observe(self.core.env, self.seat)

    def _info(self, **flags: bool) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask(), "legal": list(self._legal)}
        info.update({k: v for k, v in flags.items() if v})
        return info

    def _mask(self) -> np.ndarray[Any, Any]:
        menu = self.core.env.menu
        if self._legal and menu is not None and self._legal is menu.ids:
            return menu_mask(self.game, menu)
        return action_mask_array(self.game, self._legal)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal action ids as booleans, for sb3-contrib's MaskablePPO."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.core.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""


def env_id(game: str) -> str:
    """The registered id of a game: dicehall/Kariki-v0 for kariki."""
    return f"dicehall/{game_class(game).name.split()[0]}-v0"


def register_all() -> None:
    """Register every installed game with Gymnasium (done on import; safe to repeat)."""
    for game in game_ids():
        name = env_id(game)
        if name not in gym.registry:
            gym.register(
                id=name,
                entry_point="dicehall.rl.gymnasium:DicehallGymEnv",
                vector_entry_point="dicehall.rl.vector:DicehallVectorEnv",
                kwargs={"game": game},
            )


register_all()
