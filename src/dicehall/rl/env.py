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

Everything goes through the core API and the registry (`make_game`,
`make_bots`), so a new game works here as soon as it is installed. The state
is stepped directly, not through a `Table`: an action id that the
environment itself listed as legal is applied on the state's trusted fast
path, anything else through the checked `State.apply`; throws come from
`RandomDice`, valid by construction; the steps are kept in short and made
into a transcript only when one is asked for; and nothing is built that
nobody asked for (a view for `observe`, the tensor for `observation_tensor`,
a view for a bot that reads none).
docs/researchers/environments.md has the tour, observation encoding, adapters and speed figures.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dicehall.core.bots import Bot, reads_view
from dicehall.core.chance import Faces, RandomDice, Throw
from dicehall.core.encoding import as_index
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import Action, Game, State, View
from dicehall.core.table import Played, make_bots, step_rows
from dicehall.core.transcript import make_transcript
from dicehall.games import make_game

ActionChoice = int | Action
"""An action id (`Game.action_of`) or an action dict; integer-like ids such as numpy.int64 too."""

Info = dict[str, Any]


class Menu:
    """One set of legal actions as an agent gets it: ids (increasing), the actions by id,
    and the game's words for them. Games hand out shared constant tuples of legal
    actions, so a menu is made once per tuple and kept (`MultiAgentEnv._menu`)."""

    __slots__ = ("actions", "by_id", "extra", "ids", "labels")

    def __init__(self, game: Game, actions: Sequence[Action], labels: list[str]) -> None:
        id_of = game.encoding.actions.id_of
        self.actions = actions
        self.by_id: dict[int, Action] = {id_of(a): a for a in actions}
        self.ids: list[int] = sorted(self.by_id)
        self.labels = labels
        self.extra: Any = None
        """What an adapter keeps with the menu (PettingZoo's and Gymnasium's masks)."""


MENUS_KEPT = 10_000
"""Menus and labels kept per environment: a game that makes new tuples starts them afresh."""


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
        self._state: State | None = None
        self._throw: Callable[[Throw], Faces] = RandomDice(0).throw
        self._played: Played = []
        """The episode's steps in short, made into transcript rows on demand."""
        self.steps = 0
        """Decisions taken in this episode."""
        self.version = 0
        """Counts the positions the environment has been in (resets and steps): what an
        observation made for one position is kept by (`rl.spaces.Observer`)."""
        self.agents: list[int] = []
        self.agent_selection: int = 0
        self.rewards: dict[int, int] = {}
        self.terminations: dict[int, bool] = {}
        self.truncations: dict[int, bool] = {}
        self._infos: dict[int, Info] = {}
        self._infos_version = -1
        self._infos_chosen: tuple[int, ...] = ()
        self.options: dict[str, object] = dict(options or {})
        self.menu: Menu | None = None
        """The legal actions of `agent_selection`; None when nobody is to act."""
        self._menus: dict[int, Menu] = {}
        self._labels: dict[int, tuple[Action, str]] = {}

    # --- the episode --------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Start an episode. A seed restarts the seed sequence; without one the next episode
        of the sequence begins, so a run of episodes is as reproducible as one. `options`
        (game options, as for `make_game`) apply from this episode on."""
        if options is not None:
            self.options = {**self.options, **options}
            self.game = make_game(self.game.id, self.game.seats, self.options)
            self._menus.clear()
        if seed is not None:
            self._seeds = random.Random(as_index(seed, "a seed"))
        self._throw = RandomDice(self._seeds.getrandbits(64)).throw
        self._state = self.game.new_state()
        self._played = []
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.agent_selection = 0
        self.rewards = dict.fromkeys(self.possible_agents, 0)
        self.terminations = dict.fromkeys(self.possible_agents, False)
        self.truncations = dict.fromkeys(self.possible_agents, False)
        self._infos = {seat: self._no_choice() for seat in self.possible_agents}
        self._infos_chosen = ()
        self._advance()

    def step(self, action: ActionChoice) -> None:
        """Apply the choice of `agent_selection`, then throw any dice that follow.

        A bad id or an illegal action raises IllegalActionError and changes nothing.
        """
        state = self._live()
        menu = self.menu
        if menu is None:
            raise IllegalActionError("the episode is over: call reset()")
        seat = self.agent_selection
        chosen = None
        if type(action) is int:
            chosen = menu.by_id.get(action)
        elif not isinstance(action, (bool, Mapping)) and hasattr(action, "__index__"):
            chosen = menu.by_id.get(as_index(action, "an action id"))  # numpy.int64 ...
        if chosen is not None:  # one of the ids listed as legal: the state's own action
            state.apply_trusted(seat, chosen)
        else:  # anything else is checked, and raises if it is not legal
            if not isinstance(action, Mapping):
                action = self.game.action_of(action)
            chosen = state.apply(seat, action)
        self._played.append((seat, chosen))
        self.steps += 1
        self._advance()

    def _bot_step(self, action: Action) -> None:
        """Apply the choice of one of the project's bots at `agent_selection`: an action
        taken from `menu.actions`, so on the trusted fast path."""
        seat = self.agent_selection
        self._live().apply_trusted(seat, action)
        self._played.append((seat, action))
        self.steps += 1
        self._advance()

    def _advance(self) -> None:
        """Throw until a seat must decide, then settle whose turn it is or how it ended."""
        state = self._state
        assert state is not None  # reset() made it; step() checked it
        self.version += 1
        throw, keep = self._throw, self._played.append
        while state.is_chance():
            faces = throw(state.chance_dice())
            state.apply_chance_trusted(faces)
            keep((None, faces))
        actors = state.actors()
        self.menu = None
        if not actors:
            net = state.result().net
            self.rewards = {seat: net[seat] for seat in self.possible_agents}
            self.terminations = dict.fromkeys(self.possible_agents, True)
            self.agents = []
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.possible_agents, True)
            self.agents = []
        else:
            seat = actors[0] if len(actors) == 1 else min(actors)
            self.agent_selection = seat
            self.menu = self._menu(state.legal_actions(seat))

    def _menu(self, legal: Sequence[Action]) -> Menu:
        """The menu of these legal actions: kept for a tuple (games share them), else new."""
        if type(legal) is not tuple:
            return self._new_menu(legal)
        menu = self._menus.get(id(legal))
        if menu is None or menu.actions is not legal:
            if len(self._menus) >= MENUS_KEPT:
                self._menus.clear()
            menu = self._menus[id(legal)] = self._new_menu(legal)
        return menu

    def _new_menu(self, legal: Sequence[Action]) -> Menu:
        id_of = self.game.encoding.actions.id_of
        ordered = sorted(legal, key=id_of)
        return Menu(self.game, legal, self.labels(ordered))

    @staticmethod
    def _no_choice() -> Info:
        return {"legal": [], "labels": []}

    @property
    def infos(self) -> dict[int, Info]:
        """Per seat: `legal` (the ids, increasing) and `labels` (the game's words for them),
        empty but for `agent_selection` while it is to act. Brought up to date when asked
        for, not at every step: most loops never ask."""
        if self._infos_version != self.version:
            infos = self._infos
            for seat in self._infos_chosen:  # the seat that had a choice has none now
                infos[seat] = self._no_choice()
            menu = self.menu
            if menu is not None:
                seat = self.agent_selection
                infos[seat] = {"legal": list(menu.ids), "labels": list(menu.labels)}
                self._infos_chosen = (seat,)
            else:
                self._infos_chosen = ()
            self._infos_version = self.version
        return self._infos

    def _live(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def labels(self, actions: Sequence[Action]) -> list[str]:
        """The game's words for actions, remembered: labels cost more than a whole step.

        Games hand out shared constant actions, so a label is looked up by the
        action's identity (the entry keeps the action alive, so ids are not reused).
        """
        labels = []
        for action in actions:
            known = self._labels.get(id(action))
            if known is None or known[0] is not action:
                if len(self._labels) >= MENUS_KEPT:  # a game that allocates its actions
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
        menu = self.menu
        return list(menu.actions) if menu is not None and seat == self.agent_selection else []

    def legal_action_ids(self, seat: int) -> list[int]:
        """The ids of the actions `seat` may choose now, increasing; empty unless it is to act."""
        menu = self.menu
        return list(menu.ids) if menu is not None and seat == self.agent_selection else []

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
        from rich.console import Console

        renderable = self.game.render(self.state.view(seat), self.names)
        console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
        console.print(renderable)
        return console.export_text()

    def transcript(self) -> dict[str, Any]:
        """The episode so far as a core transcript; `core.transcript.replay` replays it."""
        state = self._live()
        return make_transcript(self.game, step_rows(self._played), self.names, state)

    @property
    def state(self) -> State:
        """The core state, for tests and analysis; an agent learns only through `observe`."""
        return self._live()


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
        self._blind: dict[int, bool] = {}
        make_bots(self.env.game, self.opponents, random.Random(0), self.others)  # check names

    def reset(
        self, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[View, Info]:
        """Start an episode and play the bots up to this seat's first decision."""
        self._start(seed, options)
        return self.env.observe(self.seat), self._info()

    def _start(self, seed: int | None, options: Mapping[str, object] | None) -> None:
        """`reset` without making the observation."""
        if seed is not None:
            self._seeds = random.Random(as_index(seed, "a seed"))
        self.env.reset(seed=self._seeds.getrandbits(64), options=options)
        bot_rng = random.Random(self._seeds.getrandbits(64))
        self._bots = make_bots(self.env.game, self.opponents, bot_rng, self.others)
        self._blind = {seat: not reads_view(bot) for seat, bot in self._bots.items()}
        self._play_bots()

    def step(self, action: ActionChoice) -> tuple[View, int, bool, bool, Info]:
        """Apply this seat's choice and play the bots until it decides again or the game ends.

        A bad index or an illegal action raises IllegalActionError and changes nothing.
        """
        env = self.env
        self._act(action)
        return (
            env.observe(self.seat),
            env.rewards[self.seat],
            env.terminations[self.seat],
            env.truncations[self.seat],
            self._info(),
        )

    def _act(self, action: ActionChoice) -> None:
        """`step` without making the observation."""
        self.env.step(action)
        self._play_bots()

    def _play_bots(self) -> None:
        env = self.env
        seat = self.seat
        while env.menu is not None and env.agent_selection != seat:
            other = env.agent_selection
            view = {} if self._blind[other] else env.observe(other)
            env._bot_step(self._bots[other].choose(view, env.menu.actions))

    def _info(self) -> Info:
        menu = self.env.menu
        if menu is not None and self.env.agent_selection == self.seat:
            return {"legal": list(menu.ids), "labels": list(menu.labels)}
        return MultiAgentEnv._no_choice()

    def render(self) -> str:
        """The game's terminal picture of this seat's view, as plain text."""
        return self.env.render(self.seat)

    def transcript(self) -> dict[str, Any]:
        """The episode so far, every seat's decisions and every throw."""
        return self.env.transcript()
