"""Dependency-free environments for every installed game: the base of the RL adapters.

`dicehall.rl.pettingzoo` and `dicehall.rl.gymnasium` wrap these in the real
library classes; these two run with nothing but dicehall installed.
Two shapes, after the two conventions researchers already know:

- `MultiAgentEnv` is turn-based like a PettingZoo AEC environment: every seat
  is an agent, one agent acts at a time (`agent_selection`), and `rewards`,
  `terminations`, `truncations` and `infos` are dicts by seat.
- `SingleAgentEnv` is like a Gymnasium environment: one seat learns, the other
  seats are played by the game's own bots, and `step` returns the usual
  five-tuple.

Agents only ever see decisions. Throws are made inside the environment from
seeded `RandomDice`, so the same seed gives the same episode. A simultaneous
choice (several actors at once, ruling C3) is taken one seat at a time in seat
order; that gives nothing away, because the core's views hide a commitment
from the other seats until all are in.

An observation is exactly the core's `state.view(seat)`: a JSON-able dict,
nothing added, so an agent sees what a player at that seat sees (C6);
`observation_tensor(seat)` is the same view as the game's fixed-shape vector.
An action is its fixed id (`Game.action_id`; any integer-like value, such as
numpy.int64) or the action dict itself. Rewards are 0 until the game is
over, then each seat's net gain (`Result.net`): what the game moved, in its
unit (coins, stones, stakes).

Everything goes through the core API and the registry (`make_game`, `Table`,
`make_bots`), so a new game works here as soon as it is installed.
docs/agents.md has the tour, observation encoding, adapters and speed figures.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console

from dicehall.core.bots import Bot
from dicehall.core.chance import RandomDice
from dicehall.core.encoding import as_index
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import Action, Game, State, View
from dicehall.core.table import Table, make_bots
from dicehall.games import make_game

ActionChoice = int | Action
"""An action id (`Game.action_of`) or an action dict; integer-like ids such as numpy.int64 too."""

Info = dict[str, Any]


class MultiAgentEnv:
    """Every seat an agent, one decision at a time (PettingZoo AEC conventions).

    Call `reset()` before the first step. While the episode runs, `agents`
    holds every seat and `agent_selection` is the seat to act; when the game
    is over or truncated, `agents` is empty and `agent_selection` stays on the
    seat that made the last decision (seat 0 if throws alone ended the game
    before anyone decided, which `reset` can do). `max_steps` (decisions, not
    throws) ends an episode early as a truncation, with rewards 0.
    """

    def __init__(
        self,
        game_id: str,
        seats: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        max_steps: int | None = None,
    ) -> None:
        self.game: Game = make_game(game_id, seats, options)
        self.max_steps = max_steps
        self.possible_agents: list[int] = list(range(self.game.seats))
        self.names: list[str] = [f"Seat {s}" for s in self.possible_agents]
        self._seeds = random.Random(seed)
        self._table: Table | None = None
        self.steps = 0
        """Decisions taken in this episode."""
        self.agents: list[int] = []
        self.agent_selection: int = 0
        self.rewards: dict[int, int] = {}
        self.terminations: dict[int, bool] = {}
        self.truncations: dict[int, bool] = {}
        self.infos: dict[int, Info] = {}
        self.options: dict[str, object] = dict(options or {})
        self._legal: Sequence[Action] = ()
        """The legal actions of `agent_selection`, asked of the state once per decision."""
        self._labels: dict[int, tuple[Action, str]] = {}

    # --- the episode --------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Start an episode. A seed restarts the seed sequence; without one the next episode
        of the sequence begins, so a run of episodes is as reproducible as one. `options`
        (game options, as for `make_game`) apply from this episode on."""
        if options is not None:
            self.options = {**self.options, **options}
            self.game = make_game(self.game.id, self.game.seats, self.options)
        if seed is not None:
            self._seeds = random.Random(as_index(seed, "a seed"))
        dice = RandomDice(self._seeds.getrandbits(64))
        self._table = Table(self.game, dice, names=self.names, record=False)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.agent_selection = 0
        self.rewards = dict.fromkeys(self.possible_agents, 0)
        self.terminations = dict.fromkeys(self.possible_agents, False)
        self.truncations = dict.fromkeys(self.possible_agents, False)
        self.infos = {seat: self._no_choice() for seat in self.possible_agents}
        self._advance()

    def step(self, action: ActionChoice) -> None:
        """Apply the choice of `agent_selection`, then throw any dice that follow.

        A bad id or an illegal action raises IllegalActionError and changes nothing.
        """
        seat = self.agent_selection
        table = self._live()
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        if not isinstance(action, Mapping):
            action = self.game.action_of(action)
        table.act(seat, action)
        self.steps += 1
        self.infos[seat] = self._no_choice()
        self._advance()

    def _advance(self) -> None:
        """Throw until a seat must decide, then settle whose turn it is or how it ended."""
        table = self._live()
        table.settle()
        state = table.state
        actors = state.actors()
        self._legal = ()
        if not actors:
            net = state.result().net
            self.rewards = {seat: net[seat] for seat in self.possible_agents}
            self.terminations = dict.fromkeys(self.possible_agents, True)
            self.agents = []
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.possible_agents, True)
            self.agents = []
        else:
            seat = min(actors)
            self.agent_selection = seat
            self._legal = state.legal_actions(seat)
            ids = state.legal_action_ids(seat)
            self.infos[seat] = {
                "legal": ids,
                "labels": self.labels([self.game.action_of(i) for i in ids]),
            }

    @staticmethod
    def _no_choice() -> Info:
        return {"legal": [], "labels": []}

    def _live(self) -> Table:
        if self._table is None:
            raise RuntimeError("call reset() before using the environment")
        return self._table

    def labels(self, actions: Sequence[Action]) -> list[str]:
        """The game's words for actions, remembered: labels cost more than a whole step.

        Games hand out shared constant actions, so a label is looked up by the
        action's identity (the entry keeps the action alive, so ids are not reused).
        """
        labels = []
        for action in actions:
            known = self._labels.get(id(action))
            if known is None or known[0] is not action:
                if len(self._labels) >= 10_000:  # a game that allocates its actions
                    self._labels.clear()
                known = self._labels[id(action)] = (action, self.game.action_label(action))
            labels.append(known[1])
        return labels

    # --- what an agent may ask ----------------------------------------------------

    def observe(self, seat: int) -> View:
        """What `seat` may see now: exactly the core's view of that seat."""
        return self.state.view(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions `seat` may choose now; empty unless it is `agent_selection`."""
        return list(self._legal) if seat == self.agent_selection else []

    def legal_action_ids(self, seat: int) -> list[int]:
        """The ids of the actions `seat` may choose now, increasing; empty unless it is to act."""
        return list(self.infos[seat]["legal"]) if seat == self.agent_selection else []

    def observation_tensor(self, seat: int) -> list[float]:
        """`seat`'s view as the game's fixed-shape vector (`Game.observation_shape`)."""
        return self.state.observation_tensor(seat)

    def last(self) -> tuple[View, int, bool, bool, Info]:
        """(observation, reward, termination, truncation, info) of `agent_selection`."""
        seat = self.agent_selection
        return (
            self.observe(seat),
            self.rewards[seat],
            self.terminations[seat],
            self.truncations[seat],
            self.infos[seat],
        )

    def render(self, seat: int | None = None) -> str:
        """The game's terminal picture of `seat`'s view (None: a spectator's), as plain text."""
        renderable = self.game.render(self.state.view(seat), self.names)
        console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
        console.print(renderable)
        return console.export_text()

    def transcript(self) -> dict[str, Any]:
        """The episode so far as a core transcript; `core.transcript.replay` replays it."""
        return self._live().transcript()

    @property
    def state(self) -> State:
        """The core state, for tests and analysis; an agent learns only through `observe`."""
        return self._live().state


class SingleAgentEnv:
    """One learning seat against the game's bots (Gymnasium conventions).

    `opponents` names the bots of the other seats (`Game.bots()`: "heuristic",
    "random", ...), one name for all or a list cycled over the other seats in
    seat order. Their random choices are seeded with the episode, so a seed
    fixes the dice and the bots alike.

    Throws alone can end a game before this seat has a decision (over half of
    Toplshteyner's episodes at four seats): then `reset` returns the final
    observation with `info["legal"]` empty, and the seat's net is in
    `observation["result"]["net"]`.
    """

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        seats: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        max_steps: int | None = None,
    ) -> None:
        self.env = MultiAgentEnv(game_id, seats, options, max_steps=max_steps)
        if seat not in self.env.possible_agents:
            raise ValueError(f"there is no seat {seat}; seats are 0 to {self.env.game.seats - 1}")
        self.seat = seat
        self.opponents = [opponents] if isinstance(opponents, str) else list(opponents)
        self.others = [s for s in self.env.possible_agents if s != seat]
        self._seeds = random.Random(seed)
        self._bots: dict[int, Bot] = {}
        make_bots(self.env.game, self.opponents, random.Random(0), self.others)  # check names

    def reset(
        self, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[View, Info]:
        """Start an episode and play the bots up to this seat's first decision."""
        if seed is not None:
            self._seeds = random.Random(as_index(seed, "a seed"))
        self.env.reset(seed=self._seeds.getrandbits(64), options=options)
        bot_rng = random.Random(self._seeds.getrandbits(64))
        self._bots = make_bots(self.env.game, self.opponents, bot_rng, self.others)
        self._play_bots()
        return self.env.observe(self.seat), self._info()

    def step(self, action: ActionChoice) -> tuple[View, int, bool, bool, Info]:
        """Apply this seat's choice and play the bots until it decides again or the game ends.

        A bad index or an illegal action raises IllegalActionError and changes nothing.
        """
        env = self.env
        env.step(action)
        self._play_bots()
        return (
            env.observe(self.seat),
            env.rewards[self.seat],
            env.terminations[self.seat],
            env.truncations[self.seat],
            self._info(),
        )

    def _play_bots(self) -> None:
        env = self.env
        while env.agents and env.agent_selection != self.seat:
            seat = env.agent_selection
            env.step(self._bots[seat].choose(env.observe(seat), env.legal_actions(seat)))

    def _info(self) -> Info:
        if self.env.agents and self.env.agent_selection == self.seat:
            return dict(self.env.infos[self.seat])
        return MultiAgentEnv._no_choice()

    def render(self) -> str:
        """The game's terminal picture of this seat's view, as plain text."""
        return self.env.render(self.seat)

    def transcript(self) -> dict[str, Any]:
        """The episode so far, every seat's decisions and every throw."""
        return self.env.transcript()
