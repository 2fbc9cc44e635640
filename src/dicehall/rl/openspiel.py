"""Every game as an OpenSpiel Python game (`pip install 'dicehall[openspiel]'`).

Importing this module registers `python_dicehall_tepiiku`,
`python_dicehall_toplshteyner`, `python_dicehall_tao` and
`python_dicehall_kariki`; their parameters are `players` (the seat count)
and each of the game's options under its own name (an option that names a
seat or a word, such as Kariki's `first_roller`, is the seat number there,
-1 for the word):

    import pyspiel
    import dicehall.rl.openspiel  # registers the games

    game = pyspiel.load_game(
        "python_dicehall_kariki", {"players": 2, "one_round": True, "first_roller": 0}
    )

Every step delegates to the core:

- decisions are the fixed action ids (`Game.action_id`); a simultaneous
  choice (C3) is taken one seat at a time in seat order, and the other seats
  do not see a commitment until all are in, as at a real table;
- chance nodes are the core's throws: chance action k is the k-th outcome of
  the dice thrown together (faces in die order, the last die fastest), with
  its exact probability (`State.chance_outcomes`);
- the observation string and tensor of a seat are its view (`State.view`,
  `observation_tensor`); with `IIGObservationType(private_info=NONE)`,
  the public observation, they are the spectator's view; the information
  state string and tensor are the seat's perfect-recall record
  (`dicehall.core.recall`);
- a game that the dice alone decide before anyone acts (most Toplshteyner
  games at four seats) gets one formal decision of player 0, only action 0
  legal, changing nothing, as in the PettingZoo and Gymnasium adapters:
  OpenSpiel's `rl_environment` throws the opening dice in `reset()` and
  needs somebody to act after them;
- returns are each seat's net (`Result.net`) at the end; the declared
  utility bounds are the game's (`Game.utility_bounds`) and the game is
  zero-sum;
- `max_game_length` is the game's where the rules bound it, else its
  `length_cap`: a game that reaches the cap ends there with returns of 0
  for every seat (a truncation, rare by construction: see each game's
  encoding.py);
- `resample_from_infostate(player, sampler)` redraws what `player` may not
  know with `State.resample_hidden` (fresh fair dice, and fresh choices for
  pending simultaneous commitments), not from the posterior given the
  history; only `player`'s record carries over to the copy.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pyspiel

from dicehall.core.chance import Faces, throw_size
from dicehall.core.game import Game
from dicehall.core.options import OptionValue
from dicehall.core.recall import Recall
from dicehall.games import game_class, game_ids, make_game

PREFIX = "python_dicehall_"


def short_name(game_id: str) -> str:
    """The name a game is registered under in pyspiel: prefixed, as OpenSpiel's Python games are."""
    return PREFIX + game_id


def seat_options(game_id: str) -> dict[str, str]:
    """String options that take a word or a seat number ("random", "0", ...), by name.

    OpenSpiel reads `opener=2` in a game string as a number, so such an
    option is an int parameter there: the seat, or -1 for the word.
    """
    out = {}
    for option in game_class(game_id).declared_options:
        choices = option.choices or ()
        if choices and all(c.isdigit() for c in choices[1:]) and not choices[0].isdigit():
            out[option.name] = choices[0]
    return out


def to_parameters(game: Game) -> dict[str, OptionValue]:
    """A configured game's options as OpenSpiel parameters (seat-or-word options as ints)."""
    words = seat_options(game.id)
    return {
        name: (-1 if value == words[name] else int(value)) if name in words else value
        for name, value in game.options.items()
    }


def from_parameters(game_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters back as dicehall options: the inverse of `to_parameters`."""
    words = seat_options(game_id)
    return {
        name: (words[name] if int(value) < 0 else str(value)) if name in words else value
        for name, value in params.items()
    }


def _game_type(game_id: str) -> pyspiel.GameType:
    cls = game_class(game_id)
    sample = cls()
    hidden = game_id != "toplshteyner"  # everything in Toplshteyner is public (C6)
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if hidden
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    parameters: dict[str, OptionValue] = {"players": cls.default_seats}
    parameters.update(to_parameters(sample))
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"dicehall {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_seats,
        min_num_players=cls.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class DicehallGame(pyspiel.Game):  # type: ignore[misc]
    """A configured dicehall game behind OpenSpiel's Game API."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(self.game_id)
        defaults = game_type.parameter_specification
        seats = int(params.pop("players", defaults["players"]))
        self.core: Game = make_game(self.game_id, seats, from_parameters(self.game_id, params))
        core = self.core
        info = pyspiel.GameInfo(
            num_distinct_actions=core.num_actions,
            max_chance_outcomes=core.encoding.max_chance_outcomes,
            num_players=core.seats,
            min_utility=float(core.utility_bounds[0]),
            max_utility=float(core.utility_bounds[1]),
            utility_sum=float(core.utility_sum),
            max_game_length=core.max_game_length or core.encoding.length_cap,
        )
        super().__init__(game_type, info, {"players": seats, **to_parameters(core)})

    def new_initial_state(self) -> DicehallState:
        return DicehallState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        if params:
            raise ValueError(f"dicehall observers take no parameters; got {params}")
        return Observer(self.core, iig_obs_type)


class DicehallState(pyspiel.State):  # type: ignore[misc]
    """A position: the core state with every seat's record (core/recall.py)."""

    def __init__(self, game: DicehallGame, recall: Recall | None = None) -> None:
        super().__init__(game)
        self.core_game = game.core
        self.recall = recall if recall is not None else Recall(game.core)
        self.steps = 0
        self.decisions = 0
        """Decisions taken so far, the formal one (below) included."""

    def _formal(self) -> bool:
        """Whether this is the formal decision of a game the dice alone decided.

        OpenSpiel's `rl_environment` throws the opening dice in `reset()` and
        then asks for the player to act: a game over by then (most
        Toplshteyner games at four seats) had nobody to act. As in the
        PettingZoo and Gymnasium adapters, such a game is kept, so the
        distribution of games is the rules' own: player 0 gets one decision in
        which only action 0 is legal and which changes nothing; the game is
        terminal after it, with the seats' nets.
        """
        return self.decisions == 0 and self.recall.state.is_over()

    # --- OpenSpiel's state API -------------------------------------------------------

    def current_player(self) -> int:
        state = self.recall.state
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        if self._formal():
            return 0
        return min(state.actors())

    def _legal_actions(self, player: int) -> list[int]:
        if self._formal():
            return [0] if player == 0 else []
        return self.recall.state.legal_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / throw_size(self.recall.state.chance_dice())
        return [(k, p) for k in range(throw_size(self.recall.state.chance_dice()))]

    def _faces(self, k: int) -> Faces:
        dice = self.recall.state.chance_dice()
        faces = []
        for die in reversed(dice):  # the last die fastest, as itertools.product
            k, index = divmod(k, len(die))
            faces.append(die[index])
        return tuple(reversed(faces))

    def _apply_action(self, action: int) -> None:
        if self.recall.state.is_chance():
            self.recall.apply_chance(self._faces(int(action)))
        elif self._formal():
            self.decisions += 1  # changes nothing else: the dice decided the game
        else:
            self.recall.apply(min(self.recall.state.actors()), int(action))
            self.decisions += 1
        self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.recall.state.is_chance():
                return "throw " + "-".join(map(str, self._faces(int(action))))
            return f"throw #{action}"
        if self._formal():
            return "the dice decided the game"
        return self.core_game.action_label(self.core_game.action_of(action))

    def is_terminal(self) -> bool:
        if self.steps >= self.core_game.encoding.length_cap:
            return True
        return self.recall.state.is_over() and not self._formal()

    def returns(self) -> list[float]:
        if not self.recall.state.is_over() or self._formal():
            return [0.0] * self.core_game.seats  # running, truncated at the cap, or formal
        return [float(x) for x in self.recall.state.result().net]

    def resample_from_infostate(self, player: int, sampler: Any) -> DicehallState:
        rng = random.Random(int(sampler() * 2**53))
        clone = copy.deepcopy(self)
        clone.recall.state = self.recall.state.resample_hidden(player, rng)
        return clone

    def __str__(self) -> str:
        return self.recall.state.observation_string(None)

    def __deepcopy__(self, memo: dict[int, Any]) -> DicehallState:
        new = DicehallState.__new__(DicehallState)
        pyspiel.State.__init__(new, self.get_game())
        new.core_game = self.core_game
        new.recall = self.recall.clone()
        new.steps = self.steps
        new.decisions = self.decisions
        return new


class Observer:
    """OpenSpiel's observer protocol: `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(self, game: Game, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.public = bool(
            iig_obs_type is not None
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
            and not self.perfect_recall
        )
        if self.perfect_recall:
            size = Recall(game, game.new_state()).information_state_shape()[0]
        else:
            size = game.observation_shape[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DicehallState, player: int) -> None:
        if self.perfect_recall:
            values = state.recall.information_state_tensor(player)
        elif self.public:
            values = self.game.encoding.encode(state.recall.state.view(None))
        else:
            values = state.recall.state.observation_tensor(player)
        self.tensor[:] = values

    def string_from(self, state: DicehallState, player: int) -> str:
        if self.perfect_recall:
            return state.recall.information_state_string(player)
        return state.recall.state.observation_string(None if self.public else player)


def register_all() -> None:
    """Register every installed game with OpenSpiel (done on import; safe to repeat)."""
    registered = set(pyspiel.registered_names())
    for game_id in game_ids():
        if short_name(game_id) in registered:
            continue
        cls = type(f"Dicehall{game_id.title()}Game", (DicehallGame,), {"game_id": game_id})
        pyspiel.register_game(_game_type(game_id), cls)


register_all()
